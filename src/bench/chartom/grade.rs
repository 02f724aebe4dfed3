//! CHARTOM grading (docs/format.md, "CHARTOM"): FACT answers parsed by format and graded
//! against the key, MIND squared error, and the Human Misleadingness Index recomputed from
//! human answers with its acceptable interval.

use crate::bench::kit::text::format_number;
use serde::Serialize;

use crate::model::Loose;

use crate::bench::chartom::fields::{Fact, FactFormat, JustificationGrade};
use crate::bench::resolve::resolve_response;
use crate::bench::{Item, ResponseGrades};
use crate::grade::resolve::Resolved;

mod number;
pub use number::*;
mod choice;
pub use choice::*;
mod hmi;
pub use hmi::*;

/// A FACT answer, parsed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ParsedFact {
    /// 1-based option number.
    Choice(u32),
    /// Option numbers, largest first.
    Rank(Vec<u32>),
    /// A number in the key's unit (see [`read_number`]).
    Number(f64),
    /// A range `low–high` (`1.1-1.3`, `between 2 and 3`), low ≤ high, in the key's unit.
    Range(f64, f64),
}

impl ParsedFact {
    /// How the parsed answer is shown: `2 (Apples)`, `3 > 1 > 2`, `1200`.
    pub fn display(&self, options: &[String]) -> String {
        match self {
            ParsedFact::Choice(n) => {
                match (*n as usize).checked_sub(1).and_then(|i| options.get(i)) {
                    Some(t) if !t.is_empty() => format!("{n} ({t})"),
                    _ => n.to_string(),
                }
            }
            ParsedFact::Rank(v) => v.iter().map(u32::to_string).collect::<Vec<_>>().join(" > "),
            ParsedFact::Number(x) => format_number(*x),
            ParsedFact::Range(a, b) => format!("{}–{}", format_number(*a), format_number(*b)),
        }
    }
}

/// The answer key of a FACT question.
#[derive(Debug, Clone, PartialEq)]
pub enum FactKey {
    Choice(u32),
    /// Accepted orders (usually one).
    Rank(Vec<Vec<u32>>),
    Number(f64),
}

/// The question's format: `fact.format`, or guessed from the key when missing (an array →
/// rank; an integer with options → choice; else number).
pub fn fact_format(fact: &Fact) -> Option<FactFormat> {
    if let Some(f) = fact.format {
        return Some(f);
    }
    match fact.key.as_ref()? {
        Loose::Array(_) => Some(FactFormat::Rank),
        n if n.as_u64().is_some() && !fact.options.is_empty() => Some(FactFormat::Choice),
        _ => Some(FactFormat::Number),
    }
}

/// The parsed key; `None` when missing or not understood.
pub fn fact_key(fact: &Fact) -> Option<FactKey> {
    let key = fact.key.as_ref()?;
    match fact_format(fact)? {
        FactFormat::Choice => match key {
            n if n.is_number() => n
                .as_u64()
                .filter(|n| *n >= 1 && *n <= u32::MAX as u64)
                .map(|n| FactKey::Choice(n as u32)),
            Loose::String(s) => parse_choice(s, &fact.options).map(FactKey::Choice),
            _ => None,
        },
        FactFormat::Rank => match key {
            Loose::Array(a) if !a.is_empty() && a.iter().all(Loose::is_array) => {
                let lists: Option<Vec<Vec<u32>>> = a
                    .iter()
                    .map(|v| rank_from_value(v, &fact.options))
                    .collect();
                lists.map(FactKey::Rank)
            }
            v => rank_from_value(v, &fact.options).map(|l| FactKey::Rank(vec![l])),
        },
        FactFormat::Number => number_from_value(key, fact).map(FactKey::Number),
    }
}

fn rank_from_value(v: &Loose, options: &[String]) -> Option<Vec<u32>> {
    match v {
        Loose::Array(a) => a
            .iter()
            .map(|x| match x {
                n if n.is_number() => n.as_u64().filter(|n| *n >= 1).map(|n| n as u32),
                Loose::String(s) => parse_choice(s, options),
                _ => None,
            })
            .collect(),
        Loose::String(s) => parse_rank(s, options),
        _ => None,
    }
}

/// A key or strategy written as a JSON number, or as a text read in the question's unit
/// (the first reading of [`Unit::readings`]; a range is not a key).
fn number_from_value(v: &Loose, fact: &Fact) -> Option<f64> {
    match v {
        n if n.is_number() => n.as_f64(),
        Loose::String(s) => match fact.unit().readings(&read_number(s)?, None).first()? {
            NumberValue::One(x) => Some(*x),
            NumberValue::Range(..) => None,
        },
        _ => None,
    }
}

/// The automatic grade of one FACT answer.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct FactGrade {
    /// `None` when the answer is missing or unparsable.
    pub parsed: Option<ParsedFact>,
    /// The parsed answer as shown to the reviewer.
    pub display: Option<String>,
    /// `None` when the item has no usable key; an unparsable answer is `Some(false)`.
    pub correct: Option<bool>,
}

/// Parse a raw FACT answer by the question's format. A number answer is read in the
/// question's unit ([`Unit`]); of its readings, the one [`choose`] picks counts.
pub fn parse_fact(fact: &Fact, raw: &str) -> Option<ParsedFact> {
    match fact_format(fact)? {
        FactFormat::Choice => parse_choice(raw, &fact.options).map(ParsedFact::Choice),
        FactFormat::Rank => parse_rank(raw, &fact.options).map(ParsedFact::Rank),
        FactFormat::Number => {
            let unit = fact.unit();
            let key = match fact_key(fact) {
                Some(FactKey::Number(k)) => Some(k),
                _ => None,
            };
            let readings = unit.readings(&read_number(raw)?, key);
            Some(choose(&readings, key)?.into())
        }
    }
}

/// Parse and grade a raw FACT answer (`None`: the model gave none, graded wrong).
pub fn grade_fact(fact: &Fact, raw: Option<&str>) -> FactGrade {
    let parsed = raw.and_then(|r| parse_fact(fact, r));
    let display = parsed.as_ref().map(|p| p.display(&fact.options));
    let correct = fact_key(fact).map(|key| correct_of(&key, parsed.as_ref()));
    FactGrade {
        parsed,
        display,
        correct,
    }
}

/// FACT correctness: choice exact; rank the whole order equal to an accepted order;
/// number within [0.9·key, 1.1·key] (bounds ordered for negative keys; key 0 → exact).
pub fn is_correct(parsed: &ParsedFact, key: &FactKey) -> bool {
    match (parsed, key) {
        (ParsedFact::Choice(a), FactKey::Choice(k)) => a == k,
        (ParsedFact::Rank(a), FactKey::Rank(ks)) => ks.iter().any(|k| k == a),
        (ParsedFact::Number(x), FactKey::Number(k)) => number_correct(*x, *k),
        // a range is correct only when all of it lies within the tolerance
        (ParsedFact::Range(a, b), FactKey::Number(k)) => {
            number_correct(*a, *k) && number_correct(*b, *k)
        }
        _ => false,
    }
}

/// `x` within ±10% of `key`, bounds included.
pub fn number_correct(x: f64, key: f64) -> bool {
    if !x.is_finite() || !key.is_finite() {
        return false;
    }
    if key == 0.0 {
        return x == 0.0;
    }
    let (a, b) = (0.9 * key, 1.1 * key);
    let (lo, hi) = (a.min(b), a.max(b));
    // tolerate the rounding of 0.9·key and 1.1·key (1.08 is not exactly 0.9 × 1.2)
    let eps = key.abs() * 1e-12;
    x >= lo - eps && x <= hi + eps
}

/// MIND squared error.
/// The HMI a MIND prediction is scored against (docs/stats.md): the file's `mind.hmi`,
/// else the HMI recomputed from the human answers (`recomputed`, from [`hmi_from_fact`]).
/// `verdict stats` and the reviewer both score MIND by this one rule.
pub fn mind_target(item: &Item, recomputed: Option<f64>) -> Option<f64> {
    item.mind.map(|m| m.hmi).or(recomputed)
}

pub fn squared_error(mind: f64, hmi: f64) -> f64 {
    (mind - hmi) * (mind - hmi)
}

/// Mean of squared errors; `None` for none.
pub fn mse(errors: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0u64);
    for e in errors {
        sum += e;
        n += 1;
    }
    (n > 0).then(|| sum / n as f64)
}

// ---------------------------------------------------------------------------------------
// Effective grade

/// One CHARTOM response as graded automatically and after human review.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartomEffective {
    /// The automatic FACT grade.
    pub fact: FactGrade,
    /// The human grades that count, and where they come from.
    pub human: Resolved<ResponseGrades>,
    /// FACT correctness after overrides: the resolved `fact_correct` if any, else automatic.
    pub fact_correct: Option<bool>,
    /// True when a reviewer's `fact_correct` decided `fact_correct`.
    pub overridden: bool,
    /// The model's MIND answer.
    pub mind: Option<f64>,
    /// The item's HMI: `mind.hmi`, else the HMI recomputed from human answers.
    pub hmi: Option<f64>,
    pub squared_error: Option<f64>,
    /// The resolved justification grade.
    pub justification: Option<JustificationGrade>,
}

/// The item's HMI key: `mind.hmi` when given, else recomputed from the human answers.
pub fn item_hmi(item: &Item) -> Option<f64> {
    item.mind
        .map(|m| m.hmi)
        .or_else(|| item.fact.as_deref().and_then(hmi_from_fact).map(|h| h.hmi))
}

/// Whether a FACT answer is right ([`FactGrade::correct`]), without the text shown.
pub fn fact_correct(fact: &Fact, raw: Option<&str>) -> Option<bool> {
    // No key, no grade: the answer need not be read.
    let key = fact_key(fact)?;
    Some(correct_of(
        &key,
        raw.and_then(|r| parse_fact(fact, r)).as_ref(),
    ))
}

/// Is the parsed answer right against the key? A missing or unparsable answer is wrong.
fn correct_of(key: &FactKey, parsed: Option<&ParsedFact>) -> bool {
    parsed.is_some_and(|p| is_correct(p, key))
}

/// Is `model`'s FACT answer wrong after the reviewers' overrides: what [`effective`] gives
/// as `fact_correct == Some(false)`, without the HMI and the text shown (the index asks
/// this of every response).
pub fn fact_wrong(item: &Item, model: &str) -> bool {
    let human = resolve_response(&item.reviews, model, item.responses.len());
    let correct = human.value.chartom.fact_correct.or_else(|| {
        let raw = item.response(model).and_then(|r| r.fact.as_deref());
        item.fact.as_ref().and_then(|f| fact_correct(f, raw))
    });
    correct == Some(false)
}

/// Automatic vs effective grade of `model`'s response to a CHARTOM item.
pub fn effective(item: &Item, model: &str) -> ChartomEffective {
    let resp = item.response(model);
    let fact = match &item.fact {
        Some(f) => grade_fact(f, resp.and_then(|r| r.fact.as_deref())),
        None => FactGrade::default(),
    };
    let human = resolve_response(&item.reviews, model, item.responses.len());
    let overridden = human.value.chartom.fact_correct.is_some();
    let fact_correct = human.value.chartom.fact_correct.or(fact.correct);
    let mind = resp.and_then(|r| r.mind);
    let hmi = item_hmi(item);
    let squared_error = match (mind, hmi) {
        (Some(m), Some(h)) => Some(squared_error(m, h)),
        _ => None,
    };
    let justification = human.value.chartom.justification;
    ChartomEffective {
        fact,
        human,
        fact_correct,
        overridden,
        mind,
        hmi,
        squared_error,
        justification,
    }
}

#[cfg(test)]
mod fast_tests;
#[cfg(test)]
mod hmi_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod unit_tests;
