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

/// Python's `\w`: letters, digits, underscore.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
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

fn tokens(text: &str, commas: bool) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        if is_word(c) {
            if start.is_none() {
                start = Some(i);
            }
            continue;
        }
        if let Some(s) = start.take() {
            out.push(&text[s..i]);
        }
        if commas && c == ',' {
            out.push("");
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

/// The number a response gives, as the script prints it; `None` = the script's `"fail"`.
pub fn extract_number(response: &str) -> Option<String> {
    let lower = response.to_lowercase();
    let words = tokens(&lower, true);
    let kept: &[&str] = if words.is_empty() {
        return None;
    } else if words[0] == "if" {
        match words.iter().position(|w| w.is_empty()) {
            Some(i) => &words[i + 1..],
            None => return None,
        }
    } else if let Some(i) = words.iter().position(|w| *w == "if") {
        &words[..i]
    } else {
        &words
    };
    get_numbers(kept.iter().copied())
}

/// `yes` or `no` as the script reads a response; `None` = `"fail"`.
pub fn extract_boolean(response: &str) -> Option<&'static str> {
    let lower = response.to_lowercase();
    let words = tokens(&lower, false);
    let has = |w: &str| words.contains(&w);
    if has("no") || has("false") || has("not") {
        Some("no")
    } else if has("yes") || has("true") || has("be") || has("is") || has("are") {
        Some("yes")
    } else {
        None
    }
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

/// [`grade`]'s `correct`.
pub fn correct(kind: CvqaKind, response: Option<&str>, question: &str, key: &str) -> bool {
    grade(kind, response, question, key).correct
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
mod tests;
