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

mod choice;
pub use choice::*;
#[cfg(test)]
use choice::{MARKER, find_marker};

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

/// Does lower-casing leave `c` as it is (`str::to_lowercase` maps it to itself alone)?
fn lowers_to_itself(c: char) -> bool {
    let mut l = c.to_lowercase();
    l.next() == Some(c) && l.next().is_none()
}

/// The tokens of a text, with their byte offsets, one at a time (the rules stop at the
/// first token they need): runs of word characters (Python's `\w`, or alphanumeric runs for
/// [`Tokens::alphanumeric`]) and, when `commas`, a `""` for each comma outside them, as
/// `re.findall(r'(\b\w+\b)|\,', text)` gives them.
///
/// The text is read on bytes, each looked up in [`CLASS`]; a character that is not ASCII
/// is decoded. The scripts read
/// `text.lower()`: with `unlowered`, the text is read as it is and its tokens are compared
/// without regard to ASCII case ([`is_one_of`]), which is the same as long as lowering
/// changes nothing but ASCII capitals. At the first other character that lowering changes
/// (`É`, `Σ`, `İ`, the Kelvin sign) the walk ends, with `changed` set, before the token
/// that character is in or ends is given; the caller then reads the lowered text instead
/// ([`lowered`]). Every token given before that is the lowered text's token: up to that
/// character the lowered text is the text with its ASCII capitals lowered, at the same
/// places.
#[derive(Clone)]
struct Tokens<'a> {
    text: &'a str,
    at: usize,
    /// The [`CLASS`] bits of a word character: [`ALNUM`], and [`UNDERSCORE`] when `_` is one.
    word: u8,
    /// [`COMMA`] when commas are tokens, else 0.
    comma: u8,
    unlowered: bool,
    changed: bool,
}

/// [`CLASS`] bits: an ASCII letter or digit, `_`, `,`, a byte that is not ASCII.
const ALNUM: u8 = 1;
const UNDERSCORE: u8 = 2;
const COMMA: u8 = 4;
const WIDE: u8 = 8;

/// What each byte is to the walk ([`Tokens`]): one load per byte instead of a chain of
/// comparisons.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = if c >= 0x80 {
            WIDE
        } else if c.is_ascii_alphanumeric() {
            ALNUM
        } else if c == b'_' {
            UNDERSCORE
        } else if c == b',' {
            COMMA
        } else {
            0
        };
        b += 1;
    }
    t
};

impl<'a> Tokens<'a> {
    /// Python's `re.findall` tokens (`\w` runs, commas when `commas`) of `text` as it is,
    /// for rules that read `text.lower()` (see [`Tokens`]).
    fn unlowered(text: &'a str, commas: bool) -> Tokens<'a> {
        Tokens {
            text,
            at: 0,
            word: ALNUM | UNDERSCORE,
            comma: if commas { COMMA } else { 0 },
            unlowered: true,
            changed: false,
        }
    }

    /// Python's `re.findall` tokens of a text already lowered.
    fn lowered(text: &'a str, commas: bool) -> Tokens<'a> {
        Tokens {
            unlowered: false,
            ..Tokens::unlowered(text, commas)
        }
    }

    /// The alphanumeric runs of `text` (no commas, no lowering).
    fn alphanumeric(text: &'a str) -> Tokens<'a> {
        Tokens {
            word: ALNUM,
            ..Tokens::lowered(text, false)
        }
    }

    /// Is the character at byte `i` (not ASCII) a word character, and its length; `None`
    /// when lowering would change it and the text is read unlowered. (`_` is ASCII: a
    /// character here is a word character when it is alphanumeric.)
    fn wide(&self, i: usize) -> Option<(bool, usize)> {
        let c = self.text[i..].chars().next().unwrap_or_default();
        if self.unlowered && !lowers_to_itself(c) {
            return None;
        }
        Some((c.is_alphanumeric(), c.len_utf8()))
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        if self.changed {
            return None;
        }
        let b = self.text.as_bytes();
        let (word, comma) = (self.word, self.comma);
        // What ends a run of separators: a word character, a comma that is a token, a
        // byte that is not ASCII (decoded below).
        let stop = word | comma | WIDE;
        let mut i = self.at;
        // up to the next word character (or comma)
        loop {
            while let Some(&x) = b.get(i) {
                if CLASS[x as usize] & stop != 0 {
                    break;
                }
                i += 1;
            }
            let &x = b.get(i)?;
            let c = CLASS[x as usize];
            if c & word != 0 {
                break;
            }
            if c & comma != 0 {
                self.at = i + 1;
                return Some((i, ""));
            }
            let Some((is_word, len)) = self.wide(i) else {
                self.changed = true;
                return None;
            };
            if is_word {
                break;
            }
            i += len;
        }
        // the word's run
        let start = i;
        loop {
            while let Some(&x) = b.get(i) {
                if CLASS[x as usize] & word == 0 {
                    break;
                }
                i += 1;
            }
            match b.get(i) {
                Some(&x) if x >= 0x80 => {
                    let Some((is_word, len)) = self.wide(i) else {
                        self.changed = true;
                        return None;
                    };
                    if !is_word {
                        break;
                    }
                    i += len;
                }
                _ => break,
            }
        }
        self.at = i;
        Some((start, &self.text[start..i]))
    }
}

/// `rule` over the tokens of `text.lower()`: over those of `text` as it is when lowering
/// it changes nothing but ASCII capitals (nearly every response), else over the lowered
/// text's ([`Tokens`]). `rule` compares tokens without regard to ASCII case.
fn lowered<R>(text: &str, commas: bool, rule: impl Fn(&mut Tokens<'_>) -> R) -> R {
    let mut tokens = Tokens::unlowered(text, commas);
    let got = rule(&mut tokens);
    if tokens.changed {
        rule(&mut Tokens::lowered(&text.to_lowercase(), commas))
    } else {
        got
    }
}

/// Is `token` of `text.lower()` one of `words` (each lower-case ASCII), read as
/// [`Tokens`] gives it (ASCII case aside)?
fn is_one_of(token: &str, words: &[&str]) -> bool {
    words.iter().any(|w| token.eq_ignore_ascii_case(w))
}

/// Is `token` lower-cased (`str::to_lowercase`) one of `words` (each lower-case ASCII)?
/// A token that is not ASCII is compared by its characters lower-cased one by one: that
/// is `str::to_lowercase` but for a final `Σ` (`ς`, not `σ`), and neither is ASCII.
fn lower_is(token: &str, words: &[&str]) -> bool {
    if token.is_ascii() {
        words.iter().any(|w| token.eq_ignore_ascii_case(w))
    } else {
        words
            .iter()
            .any(|w| token.chars().flat_map(char::to_lowercase).eq(w.chars()))
    }
}

fn number_word(w: &str) -> Option<u32> {
    // (tokens compare without regard to ASCII case: see [`Tokens`])
    let mut low = [0u8; 5];
    let b = w.as_bytes();
    if !(2..=5).contains(&b.len()) {
        return None;
    }
    for (l, c) in low.iter_mut().zip(b) {
        *l = c.to_ascii_lowercase();
    }
    Some(match &low[..b.len()] {
        b"no" | b"zero" | b"none" => 0,
        b"one" => 1,
        b"two" => 2,
        b"three" => 3,
        b"four" => 4,
        b"five" => 5,
        b"six" => 6,
        b"seven" => 7,
        b"eight" => 8,
        b"nine" => 9,
        b"ten" => 10,
        _ => return None,
    })
}

/// `get_numbers` over a token list: the first all-digit token (as `int()` prints it,
/// borrowed from the token) or number word (`"0"` .. `"10"`).
fn get_numbers<'a>(words: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    for w in words {
        if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) {
            let t = w.trim_start_matches('0');
            return Some(if t.is_empty() { "0" } else { t });
        }
        if let Some(n) = number_word(w) {
            return Some(PRINTED[n as usize]);
        }
    }
    None
}

/// The number words' numbers as [`get_numbers`] prints them.
const PRINTED: [&str; 11] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"];

/// Can the number rule ([`with_number`]) give `n` for `response` at all? What it gives is
/// an all-digit token with its leading zeros taken off (`"0"` for zeros alone), which
/// needs an ASCII digit in the response (lowering makes none), or a number word's
/// [`PRINTED`]. A cheap test before a walk of every word that could not match (a model's
/// paragraph without a digit, graded against a key or option of `12`).
fn number_could_be(response: &str, n: &str) -> bool {
    let b = n.as_bytes();
    let canonical =
        !b.is_empty() && b.iter().all(u8::is_ascii_digit) && (b == b"0" || b[0] != b'0');
    canonical && (PRINTED.contains(&n) || has_ascii_digit(response))
}

/// Does `text` hold an ASCII digit? (16 bytes at a time, without a branch per byte.)
fn has_ascii_digit(text: &str) -> bool {
    text.as_bytes().chunks(16).any(|c| {
        c.iter()
            .fold(false, |any, &x| any | (x.wrapping_sub(b'0') < 10))
    })
}

/// The number rule over `text.lower()`'s tokens; `answer` is given the number as the
/// script prints it (`None`: `"fail"`).
fn with_number<R>(response: &str, answer: impl Fn(Option<&str>) -> R) -> R {
    lowered(response, true, |tokens| {
        let mut words = tokens.by_ref().map(|(_, w)| w);
        let number = match words.next() {
            None => None,
            // The tokens after the first comma; no comma: failed.
            Some(first) if first.eq_ignore_ascii_case("if") => words
                .find(|w| w.is_empty())
                .and_then(|_| get_numbers(words)),
            // The tokens before the first `if`.
            Some(first) => get_numbers(
                std::iter::once(first).chain(words.take_while(|w| !w.eq_ignore_ascii_case("if"))),
            ),
        };
        answer(number)
    })
}

/// The number a response gives, as the script prints it; `None` = the script's `"fail"`.
pub fn extract_number(response: &str) -> Option<String> {
    with_number(response, |n| n.map(String::from))
}

/// `yes` or `no` as the script reads a response; `None` = `"fail"`.
pub fn extract_boolean(response: &str) -> Option<&'static str> {
    lowered(response, false, |tokens| {
        let mut yes = false;
        for (_, w) in tokens {
            if is_one_of(w, &["no", "false", "not"]) {
                return Some("no");
            }
            yes |= is_one_of(w, &["yes", "true", "be", "is", "are"]);
        }
        yes.then_some("yes")
    })
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

/// [`grade`]'s `correct`, without the reduced answer kept (no `String`).
pub fn correct(kind: CvqaKind, response: Option<&str>, question: &str, key: &str) -> bool {
    let Some(response) = response else {
        return false;
    };
    let key = key.trim();
    match kind {
        CvqaKind::Number => {
            number_could_be(response, key) && with_number(response, |n| n == Some(key))
        }
        CvqaKind::Boolean => extract_boolean(response) == Some(key),
        CvqaKind::Choice => {
            extract_choice(response, question).is_some_and(|c| c.encode_utf8(&mut [0; 4]) == key)
        }
    }
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
        .unwrap_or_else(|| automatic_correct(item, model, Question::Original));
    !original
        || !human
            .value
            .cvqa
            .counterfactual_correct
            .unwrap_or_else(|| automatic_correct(item, model, Question::Counterfactual))
}

/// [`automatic`]'s `correct`, without the reduced answer.
pub fn automatic_correct(item: &Item, model: &str, q: Question) -> bool {
    let (kind, answer, question, key) = graded_answer(item, model, q);
    correct(kind, answer, question, key)
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
    let (kind, answer, question, key) = graded_answer(item, model, q);
    grade(kind, answer, question, key)
}

/// What the automatic grade of `model`'s answer to question `q` reads: the item's kind,
/// the answer (none when the model gave none), the question and its key in the file.
fn graded_answer<'a>(
    item: &'a Item,
    model: &str,
    q: Question,
) -> (CvqaKind, Option<&'a str>, &'a str, &'a str) {
    let kind = kind(item.split.as_deref(), item.group.as_deref());
    let (question, key) = question_and_key(item, q);
    let answer = item.response(model).and_then(|r| match q {
        Question::Original => r.original.as_deref(),
        Question::Counterfactual => r.counterfactual.as_deref(),
    });
    (kind, answer, question, key)
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
mod fast_tests;
#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
