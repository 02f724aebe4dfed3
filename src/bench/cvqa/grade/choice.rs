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
    // (each colon found with memchr, the byte before it checked: a long question is
    // scanned on every frame of the item's screen)
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
    let m = MARKER.as_bytes();
    let q = question.as_bytes();
    let starts = (q.len() + 1).checked_sub(m.len())?;
    let at = |i: usize| q[i..i + m.len()].eq_ignore_ascii_case(m);
    // Places where the marker's first three letters are (any case: `| 0x20` lowers a
    // letter), 32 at a time, a check the compiler does with vector instructions: one pass
    // over a long question at memory speed (issue 21; a search from each `s` stopped at
    // every one of a text of megabytes). Only those places are compared in full.
    let lower = |b: u8, c: u8| (b | 0x20) == c;
    let mut i = 0;
    while i + 32 <= starts {
        let (a, b, c) = (&q[i..i + 32], &q[i + 1..i + 33], &q[i + 2..i + 34]);
        let any = a.iter().zip(b).zip(c).fold(false, |any, ((&x, &y), &z)| {
            any | (lower(x, b's') & lower(y, b'e') & lower(z, b'l'))
        });
        if any && let Some(k) = (i..i + 32).find(|&k| at(k)) {
            return Some(k);
        }
        i += 32;
    }
    (i..starts).find(|&k| at(k))
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
    let toks = words(response);
    let (first_pos, first) = *toks.first()?;
    // 1
    if let Some(c) = as_letter(first, &letters) {
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
    if let Some(c) = after_answer_word(&toks, &letters) {
        return Some(c);
    }
    // 3
    let seen = lone_capitals(response, &toks, &letters);
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

/// `t` as one of the option `letters` (either case), when it is one letter.
fn as_letter(t: &str, letters: &[char]) -> Option<char> {
    let mut cs = t.chars();
    let c = cs.next()?.to_ascii_uppercase();
    (cs.next().is_none() && letters.contains(&c)).then_some(c)
}

/// The response's runs of alphanumeric characters, with their byte offsets.
fn words(response: &str) -> Vec<(usize, &str)> {
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
}

/// Rule 2: a letter after `answer`/`option`/`choice` (past up to three filler words).
fn after_answer_word(toks: &[(usize, &str)], letters: &[char]) -> Option<char> {
    for (k, (_, t)) in toks.iter().enumerate() {
        if lower_is(t, &["answer", "option", "choice"]) {
            for (_, next) in toks.iter().skip(k + 1).take(4) {
                if lower_is(
                    next,
                    &["is", "would", "be", "the", "correct", "should", "will"],
                ) {
                    continue;
                }
                if let Some(c) = as_letter(next, letters) {
                    return Some(c);
                }
                break;
            }
        }
    }
    None
}

/// Rule 3: the distinct capital option letters standing alone in the response, in
/// order (a capital `A` followed by a lower-case word is the article, not counted).
fn lone_capitals(response: &str, toks: &[(usize, &str)], letters: &[char]) -> Vec<char> {
    let mut seen: Vec<char> = Vec::new();
    for (pos, t) in toks {
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
    seen
}
