//! C-VQA grading, as the benchmark's own scripts do it (docs/format.md, "C-VQA").
//!
//! Matched against `scripts/format_response.py` and `scripts/calc_acc.py` of
//! github.com/Letian2003/C-VQA (commit 8a1bf38 of format_response.py):
//!
//! - numbers (every group but `boolean`): `re.findall(r'(\b\w+\b)|\,', response.lower())`,
//!   so the tokens are runs of word characters and each comma becomes an empty token; no
//!   tokens → failed; first token `if` → the tokens after the first comma (no comma →
//!   failed); else, if `if` occurs, the tokens before it. `get_numbers` returns the first
//!   token with `str.isdigit()` as `int(token)` (so `007` → `7`), or a number word (`no`,
//!   `zero`, `none` → 0, `one` .. `ten` → 1 .. 10); else `"fail"`.
//! - booleans: `re.findall(r'\b\w+\b', ...)` (no comma tokens, no `if` rule);
//!   `no`/`false`/`not` → `no`, else `yes`/`true`/`be`/`is`/`are` → `yes`, else `"fail"`.
//! - `calc_acc.py` compares the reduced response with the key as exact strings, per `type`
//!   (group), and prints `diff(ori_acc - cf_acc)`: the difference is original minus
//!   counterfactual accuracy.
//!
//! Differences: the scripts have no rule for the synthetic multiple-choice set (their
//! number rule would turn `C` into a failure); we read the option letter the response
//! names ([`extract_choice`]). `isdigit()` also accepts non-ASCII digits (and crashes on
//! superscripts in `int()`); we accept ASCII digits only. We trim the key of surrounding
//! white space before the exact comparison.

use serde::Serialize;

use crate::bench::cvqa::fields::CvqaStatus;
use crate::bench::cvqa::resolve::{Verification, resolve_verification};
use crate::bench::resolve::resolve_response;
use crate::bench::{Item, ResponseGrades};
use crate::grade::resolve::Resolved;

/// Which answer extraction applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CvqaKind {
    /// Real `direct` and `indirect` groups.
    Number,
    /// Real `boolean` group.
    Boolean,
    /// Synthetic `abs_counting_*` groups: an option letter.
    Choice,
}

/// The kind of an item from its split and group.
pub fn kind(split: Option<&str>, group: Option<&str>) -> CvqaKind {
    match group {
        Some("boolean") => CvqaKind::Boolean,
        Some(g) if g.starts_with("abs_counting") => CvqaKind::Choice,
        _ if split == Some("synthetic") => CvqaKind::Choice,
        _ => CvqaKind::Number,
    }
}

/// Python's `\w`: letters, digits, underscore.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `re.findall(r'(\b\w+\b)|\,', text)`: word runs, and `""` for each comma (when
/// `commas`), one at a time (the rules stop at the first token they need).
struct Tokens<'a> {
    text: &'a str,
    at: usize,
    commas: bool,
}

fn tokens(text: &str, commas: bool) -> Tokens<'_> {
    Tokens {
        text,
        at: 0,
        commas,
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = &self.text[self.at..];
        let mut start: Option<usize> = None;
        let mut end = rest.len();
        let mut comma = false;
        for (i, c) in rest.char_indices() {
            if is_word(c) {
                start.get_or_insert(i);
            } else if start.is_some() {
                end = i;
                break;
            } else if self.commas && c == ',' {
                end = i;
                comma = true;
                break;
            }
        }
        let base = self.at;
        if comma {
            self.at = base + end + 1;
            return Some("");
        }
        self.at = base + end;
        start.map(|s| &self.text[base + s..base + end])
    }
}

/// Python's `str.lower()` as the scripts apply it: ASCII text is lowered without
/// allocating when it has no capital letter.
fn lower(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.is_ascii() {
        std::borrow::Cow::Owned(text.to_lowercase())
    } else if text.bytes().any(|b| b.is_ascii_uppercase()) {
        std::borrow::Cow::Owned(text.to_ascii_lowercase())
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// Is `token` lower-cased (`str::to_lowercase`) one of `words` (each lower-case ASCII)?
fn lower_is(token: &str, words: &[&str]) -> bool {
    if token.is_ascii() {
        words.iter().any(|w| token.eq_ignore_ascii_case(w))
    } else {
        let t = token.to_lowercase();
        words.contains(&t.as_str())
    }
}

fn number_word(w: &str) -> Option<u32> {
    Some(match w {
        "no" | "zero" | "none" => 0,
        "one" => 1,
        "two" => 2,
        "three" => 3,
        "four" => 4,
        "five" => 5,
        "six" => 6,
        "seven" => 7,
        "eight" => 8,
        "nine" => 9,
        "ten" => 10,
        _ => return None,
    })
}

/// `get_numbers` over a token list: the first all-digit token (as `int()` prints it) or
/// number word.
fn get_numbers<'a>(words: impl IntoIterator<Item = &'a str>) -> Option<String> {
    for w in words {
        if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) {
            let t = w.trim_start_matches('0');
            return Some(if t.is_empty() { "0".into() } else { t.into() });
        }
        if let Some(n) = number_word(w) {
            return Some(n.to_string());
        }
    }
    None
}

/// The number a response gives, as the script prints it; `None` = the script's `"fail"`.
pub fn extract_number(response: &str) -> Option<String> {
    let lower = lower(response);
    let mut words = tokens(&lower, true).peekable();
    if *words.peek()? == "if" {
        // The tokens after the first comma; no comma: failed.
        words.find(|w| w.is_empty())?;
        get_numbers(words)
    } else {
        // The tokens before the first `if`.
        get_numbers(words.take_while(|w| *w != "if"))
    }
}

/// `yes` or `no` as the script reads a response; `None` = `"fail"`.
pub fn extract_boolean(response: &str) -> Option<&'static str> {
    let lower = lower(response);
    let mut yes = false;
    for w in tokens(&lower, false) {
        if matches!(w, "no" | "false" | "not") {
            return Some("no");
        }
        yes |= matches!(w, "yes" | "true" | "be" | "is" | "are");
    }
    yes.then_some("yes")
}

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

const MARKER: &str = "select the correct answer";

/// Byte offset of "Select the correct answer" (any case).
fn find_marker(question: &str) -> Option<usize> {
    // Where an `s` or `S` starts it (memchr finds them), not at every byte.
    let m = MARKER.as_bytes();
    let q = question.as_bytes();
    memchr::memchr2_iter(b's', b'S', q).find(|&i| {
        q.get(i..i + m.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(m))
    })
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
        if lower_is(t, &["answer", "option", "choice"]) {
            for (_, next) in toks.iter().skip(k + 1).take(4) {
                if lower_is(
                    next,
                    &["is", "would", "be", "the", "correct", "should", "will"],
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

/// A response reduced to an answer by the kind's rule; `None` = failed.
pub fn extract(kind: CvqaKind, response: &str, question: &str) -> Option<String> {
    match kind {
        CvqaKind::Number => extract_number(response),
        CvqaKind::Boolean => extract_boolean(response).map(str::to_string),
        CvqaKind::Choice => extract_choice(response, question).map(String::from),
    }
}

/// The automatic grade of one raw response.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct CvqaGrade {
    /// The reduced answer; `None` when the response failed (or is missing).
    pub parsed: Option<String>,
    /// Exact string match of the reduced answer with the key.
    pub correct: bool,
}

/// Reduce a raw response and compare it with the key (a missing response fails).
pub fn grade(kind: CvqaKind, response: Option<&str>, question: &str, key: &str) -> CvqaGrade {
    let parsed = response.and_then(|r| extract(kind, r, question));
    let correct = parsed.as_deref() == Some(key.trim());
    CvqaGrade { parsed, correct }
}

/// One C-VQA response as graded automatically and after human review.
#[derive(Debug, Clone, PartialEq)]
pub struct CvqaEffective {
    pub kind: CvqaKind,
    /// Automatic grades against the file's keys.
    pub original: CvqaGrade,
    pub counterfactual: CvqaGrade,
    /// After overrides (`original_correct` / `counterfactual_correct` win).
    pub original_correct: bool,
    pub counterfactual_correct: bool,
    pub original_overridden: bool,
    pub counterfactual_overridden: bool,
    /// The response grades that count.
    pub human: Resolved<ResponseGrades>,
    /// The item's question verification that counts.
    pub verification: Resolved<Verification>,
    /// True when the resolved verification rejects the question.
    pub rejected: bool,
    /// The counterfactual key after a reviewer's `fixed_answer` (else the file's key).
    pub fixed_key: String,
    /// Counterfactual correctness against `fixed_key` (the fixed question's options for
    /// synthetic items), an override still winning; `None` when the question is rejected.
    pub counterfactual_fixed_correct: Option<bool>,
    /// The automatic grade of the counterfactual answer against the fixed question and
    /// key, when a reviewer's fix that counts changed either (and the question is not
    /// rejected); `None` otherwise.
    pub counterfactual_fixed: Option<CvqaGrade>,
}

/// Is `model`'s response wrong on either question after the reviewers' overrides: what
/// [`effective`] gives as `!original_correct || !counterfactual_correct`, without the
/// verification and the fixed question (the index asks this of every response), and
/// grading the counterfactual only when the original is right.
pub fn response_wrong(item: &Item, model: &str) -> bool {
    let human = resolve_response(&item.reviews, model, item.responses.len());
    let original = human
        .value
        .cvqa
        .original_correct
        .unwrap_or_else(|| automatic(item, model, Question::Original).correct);
    !original
        || !human
            .value
            .cvqa
            .counterfactual_correct
            .unwrap_or_else(|| automatic(item, model, Question::Counterfactual).correct)
}

/// One of an item's two questions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    Original,
    Counterfactual,
}

/// The automatic grade of `model`'s answer to one question against the file's key (what
/// [`effective`] gives as `original` / `counterfactual`).
pub fn automatic(item: &Item, model: &str, q: Question) -> CvqaGrade {
    let kind = kind(item.split.as_deref(), item.group.as_deref());
    let resp = item.response(model);
    let (question, key) = question_and_key(item, q);
    let answer = resp.and_then(|r| match q {
        Question::Original => r.original.as_deref(),
        Question::Counterfactual => r.counterfactual.as_deref(),
    });
    grade(kind, answer, question, key)
}

/// One question of an item and its key in the file (empty when the item has none).
fn question_and_key(item: &Item, q: Question) -> (&str, &str) {
    let qa = match q {
        Question::Original => &item.original,
        Question::Counterfactual => &item.counterfactual,
    };
    qa.as_ref()
        .map(|q| (q.question.as_str(), q.answer.as_str()))
        .unwrap_or(("", ""))
}

/// Automatic vs effective grade of `model`'s response to a C-VQA item.
pub fn effective(item: &Item, model: &str) -> CvqaEffective {
    effective_with(item, model, resolve_verification(&item.reviews))
}

/// [`effective`] with the item's verification already resolved
/// ([`resolve_verification`]), for callers that grade every model of an item.
pub fn effective_with(
    item: &Item,
    model: &str,
    verification: Resolved<Verification>,
) -> CvqaEffective {
    let kind = kind(item.split.as_deref(), item.group.as_deref());
    let resp = item.response(model);
    let (cq, ck) = question_and_key(item, Question::Counterfactual);
    let original = automatic(item, model, Question::Original);
    let counterfactual = automatic(item, model, Question::Counterfactual);
    let human = resolve_response(&item.reviews, model, item.responses.len());
    let rejected = verification.value.status == Some(CvqaStatus::Reject);
    let fixed_key = verification
        .value
        .fixed_answer
        .clone()
        .unwrap_or_else(|| ck.to_string());
    let fixed_question = verification.value.fixed_question.as_deref().unwrap_or(cq);
    let cf_override = human.value.cvqa.counterfactual_correct;
    let counterfactual_fixed =
        (!rejected && (fixed_key != ck || fixed_question != cq)).then(|| {
            grade(
                kind,
                resp.and_then(|r| r.counterfactual.as_deref()),
                fixed_question,
                &fixed_key,
            )
        });
    let counterfactual_fixed_correct = (!rejected).then(|| {
        cf_override.unwrap_or_else(|| {
            counterfactual_fixed
                .as_ref()
                .map_or(counterfactual.correct, |g| g.correct)
        })
    });
    CvqaEffective {
        kind,
        original_correct: human
            .value
            .cvqa
            .original_correct
            .unwrap_or(original.correct),
        counterfactual_correct: cf_override.unwrap_or(counterfactual.correct),
        original_overridden: human.value.cvqa.original_correct.is_some(),
        counterfactual_overridden: cf_override.is_some(),
        original,
        counterfactual,
        human,
        verification,
        rejected,
        fixed_key,
        counterfactual_fixed,
        counterfactual_fixed_correct,
    }
}

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
