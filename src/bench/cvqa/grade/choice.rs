//! C-VQA's synthetic multiple-choice set: a question's inline options and the option
//! letter a response names.

use super::*;

/// The options of a synthetic question (`... Select the correct answer:A:16  B:17  C:12
/// D:13`) as (letter, text) pairs; empty when it has none.
pub fn options(question: &str) -> Vec<(char, &str)> {
    let from = find_marker(question).map(|i| i + MARKER.len()).unwrap_or(0);
    let text = &question[from..];
    let b = text.as_bytes();
    // positions of "X:" with X an upper-case letter at a token start
    let mut marks = Vec::new();
    for colon in memchr::memchr_iter(b':', b).filter(|&p| p > 0) {
        let i = colon - 1;
        if b[i].is_ascii_uppercase()
            && (i == 0 || b[i - 1].is_ascii_whitespace() || b[i - 1] == b':')
        {
            marks.push(i);
        }
    }
    let mut out = Vec::new();
    for (k, &i) in marks.iter().enumerate() {
        let end = marks.get(k + 1).copied().unwrap_or(text.len());
        out.push((b[i] as char, text[i + 2..end].trim()));
    }
    // keep only a proper A, B, C... sequence
    let proper = out.len() >= 2
        && out
            .iter()
            .enumerate()
            .all(|(k, (c, _))| *c as u32 == 'A' as u32 + k as u32);
    if proper { out } else { Vec::new() }
}

pub(super) const MARKER: &str = "select the correct answer";

/// Byte offset of "Select the correct answer" (any case).
pub(super) fn find_marker(question: &str) -> Option<usize> {
    question.to_ascii_lowercase().find(MARKER)
}

/// The question without its inline options.
pub fn question_stem(question: &str) -> &str {
    match find_marker(question) {
        Some(i) if !options(question).is_empty() => question[..i].trim_end(),
        _ => question,
    }
}

/// The option letter a response names, tried in this order:
/// 1. the response starts with a letter of the options, alone or followed by `:` `.` `)`
///    `]` `,` or inside brackets (`C`, `c.`, `(B)`, `D: 13`);
/// 2. `answer`/`option`/`choice` followed by a letter (`The answer is B`, `Option: c`);
/// 3. exactly one distinct capital option letter stands alone in the text (a capital `A`
///    followed by a lower-case word is read as the article);
/// 4. the first number of the response (number rule above) equals exactly one option's
///    value (`13` → D for `D:13`).
///
/// Without parsable options the letters A–D are used and rule 4 is skipped.
pub fn extract_choice(response: &str, question: &str) -> Option<char> {
    let opts = options(question);
    let letters: Vec<char> = if opts.is_empty() {
        vec!['A', 'B', 'C', 'D']
    } else {
        opts.iter().map(|(c, _)| *c).collect()
    };
    let as_letter = |t: &str| -> Option<char> {
        let mut cs = t.chars();
        let c = cs.next()?.to_ascii_uppercase();
        (cs.next().is_none() && letters.contains(&c)).then_some(c)
    };
    let toks: Vec<(usize, &str)> = {
        let mut v = Vec::new();
        let mut start: Option<usize> = None;
        for (i, c) in response.char_indices() {
            if c.is_alphanumeric() {
                start.get_or_insert(i);
            } else if let Some(s) = start.take() {
                v.push((s, &response[s..i]));
            }
        }
        if let Some(s) = start {
            v.push((s, &response[s..]));
        }
        v
    };
    let (first_pos, first) = *toks.first()?;
    // 1
    if let Some(c) = as_letter(first) {
        let before = response[..first_pos].trim_end().chars().last();
        let after = response[first_pos + first.len()..].chars().next();
        if toks.len() == 1
            || matches!(after, None | Some(':' | '.' | ')' | ']' | ','))
            || matches!(before, Some('(' | '['))
        {
            return Some(c);
        }
    }
    // 2
    for (k, (_, t)) in toks.iter().enumerate() {
        let lt = t.to_lowercase();
        if matches!(lt.as_str(), "answer" | "option" | "choice") {
            for (_, next) in toks.iter().skip(k + 1).take(4) {
                let ln = next.to_lowercase();
                if matches!(
                    ln.as_str(),
                    "is" | "would" | "be" | "the" | "correct" | "should" | "will"
                ) {
                    continue;
                }
                if let Some(c) = as_letter(next) {
                    return Some(c);
                }
                break;
            }
        }
    }
    // 3
    let mut seen: Vec<char> = Vec::new();
    for (pos, t) in &toks {
        let mut cs = t.chars();
        let (Some(c), None) = (cs.next(), cs.next()) else {
            continue;
        };
        if !c.is_ascii_uppercase() || !letters.contains(&c) {
            continue;
        }
        if c == 'A' {
            let rest = &response[pos + 1..];
            let article =
                rest.starts_with(' ') && rest[1..].chars().next().is_some_and(char::is_lowercase);
            if article {
                continue;
            }
        }
        if !seen.contains(&c) {
            seen.push(c);
        }
    }
    if seen.len() == 1 {
        return Some(seen[0]);
    }
    if seen.len() > 1 {
        return None;
    }
    // 4
    if opts.is_empty() {
        return None;
    }
    let n = extract_number(response)?;
    let hits: Vec<char> = opts
        .iter()
        .filter(|(_, v)| v.trim() == n)
        .map(|(c, _)| *c)
        .collect();
    (hits.len() == 1).then(|| hits[0])
}
