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
    // The response's words are walked once for rules 2 and 3 together, and the question's
    // options read only when a rule needs them: most responses stand no letter alone.
    let mut opts = Options::of(question);
    let mut toks = Tokens::alphanumeric(response);
    let (first_pos, first) = toks.next()?;
    // 1
    if let Some(c) = as_letter(first, &mut opts) {
        let before = response[..first_pos].trim_end().chars().last();
        let after = response[first_pos + first.len()..].chars().next();
        if toks.clone().next().is_none()
            || matches!(after, None | Some(':' | '.' | ')' | ']' | ','))
            || matches!(before, Some('(' | '['))
        {
            return Some(c);
        }
    }
    // 2 and 3: rule 2's first letter wins wherever it is; else rule 3's distinct capitals
    let mut toks = Tokens::alphanumeric(response);
    let (mut seen, mut several) = (None, false);
    while let Some((pos, t)) = toks.next() {
        if let Some(c) = after_answer_word(t, toks.clone(), &mut opts) {
            return Some(c);
        }
        if let Some(c) = lone_capital(response, pos, t, &mut opts) {
            match seen {
                None => seen = Some(c),
                Some(s) if s != c => several = true,
                Some(_) => {}
            }
        }
    }
    if several {
        return None;
    }
    if seen.is_some() {
        return seen;
    }
    // 4
    let opts = opts.get();
    if !opts
        .iter()
        .any(|(_, v)| number_could_be(response, v.trim()))
    {
        // (no options, or none the number rule could give: no walk)
        return None;
    }
    with_number(response, |n| {
        let n = n?;
        let mut hits = opts.iter().filter(|(_, v)| v.trim() == n).map(|(c, _)| *c);
        match (hits.next(), hits.next()) {
            (Some(c), None) => Some(c),
            _ => None,
        }
    })
}

/// A question's options, read the first time they are asked for.
struct Options<'q> {
    question: &'q str,
    read: Option<Vec<(char, &'q str)>>,
}

impl<'q> Options<'q> {
    fn of(question: &'q str) -> Options<'q> {
        Options {
            question,
            read: None,
        }
    }

    fn get(&mut self) -> &[(char, &'q str)] {
        self.read.get_or_insert_with(|| options(self.question))
    }

    /// Is `c` one of the options' letters (A–D when the question has no options)?
    fn has_letter(&mut self, c: char) -> bool {
        let opts = self.get();
        if opts.is_empty() {
            matches!(c, 'A'..='D')
        } else {
            opts.iter().any(|(l, _)| *l == c)
        }
    }
}

/// `t` as one of the option letters (either case), when it is one letter.
fn as_letter(t: &str, opts: &mut Options<'_>) -> Option<char> {
    // (the letters are ASCII capitals: a character that is not ASCII is none of them)
    let &[b] = t.as_bytes() else {
        return None;
    };
    let c = b.to_ascii_uppercase() as char;
    (c.is_ascii_uppercase() && opts.has_letter(c)).then_some(c)
}

/// Rule 2 at word `t`: when it is `answer`/`option`/`choice`, a letter among the next
/// words (`after`), past up to three filler words.
fn after_answer_word(t: &str, after: Tokens<'_>, opts: &mut Options<'_>) -> Option<char> {
    if !lower_is(t, &["answer", "option", "choice"]) {
        return None;
    }
    for (_, next) in after.take(4) {
        if lower_is(
            next,
            &["is", "would", "be", "the", "correct", "should", "will"],
        ) {
            continue;
        }
        return as_letter(next, opts);
    }
    None
}

/// Rule 3 at word `t` (at byte `pos` of the response): the capital option letter it is,
/// standing alone (a capital `A` followed by a lower-case word is the article).
fn lone_capital(response: &str, pos: usize, t: &str, opts: &mut Options<'_>) -> Option<char> {
    let &[b] = t.as_bytes() else {
        return None;
    };
    let c = b as char;
    if !c.is_ascii_uppercase() || !opts.has_letter(c) {
        return None;
    }
    if c == 'A' {
        let rest = &response[pos + 1..];
        let article =
            rest.starts_with(' ') && rest[1..].chars().next().is_some_and(char::is_lowercase);
        if article {
            return None;
        }
    }
    Some(c)
}
