//! The Human Misleadingness Index recomputed from human answers, its acceptable
//! interval, and answer keys the human answers put in doubt (docs/format.md,
//! "CHARTOM").

use super::*;

// ---------------------------------------------------------------------------------------
// HMI

/// The Human Misleadingness Index recomputed from human answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hmi {
    /// Share of answers (weighted by their counts) that are not acceptable.
    pub hmi: f64,
    pub n_answers: u64,
    pub n_not_acceptable: u64,
    /// Answers that could not be read as a number / option / ranking (counted as not
    /// acceptable: an answer that names no value does not lie in the interval).
    pub n_unparsable: u64,
    /// The acceptable interval (L, U) of a number question; `None` = −∞ / +∞. Choice and
    /// rank questions have no interval: (None, None).
    pub interval: (Option<f64>, Option<f64>),
}

/// The boundary between the key `c` and a strategy answer `x`: √(c·x), the geometric mean,
/// when both have the same sign (with the sign kept: −√(c·x) for negatives); the
/// arithmetic mean (c + x)/2 when the signs differ or one is 0, where √(c·x) is undefined
/// or collapses onto 0.
pub(crate) fn boundary(c: f64, x: f64) -> f64 {
    if c * x > 0.0 {
        c.signum() * (c * x).sqrt()
    } else {
        (c + x) / 2.0
    }
}

/// The acceptable interval (L, U) around the key `c`: U = √(c·a) for a the closest
/// strategy answer above c (+∞ if none), L = √(c·b) for b the closest below (−∞ if none).
pub fn acceptable_interval(c: f64, strategies: &[f64]) -> (Option<f64>, Option<f64>) {
    let above = strategies
        .iter()
        .copied()
        .filter(|&s| s.is_finite() && s > c)
        .reduce(f64::min);
    let below = strategies
        .iter()
        .copied()
        .filter(|&s| s.is_finite() && s < c)
        .reduce(f64::max);
    (below.map(|b| boundary(c, b)), above.map(|a| boundary(c, a)))
}

/// Whether `x` lies strictly inside the interval.
pub fn in_interval(x: f64, (lo, hi): (Option<f64>, Option<f64>)) -> bool {
    lo.is_none_or(|l| l < x) && hi.is_none_or(|u| x < u)
}

/// A human answer to a number question, as the HMI reads it: like a model's answer, in the
/// question's `unit`, by [`choose`] (a JSON number is read as a plain number written without
/// scale: `1200000` is 1.2 for a question in millions and key 1.2).
pub fn human_number(v: &Loose, key: Option<f64>, unit: Unit) -> Option<NumberValue> {
    let written = match v {
        n if n.is_number() => Written {
            value: NumberValue::One(n.as_f64()?),
            scale: 0,
            percent: false,
        },
        Loose::String(s) => read_number(s)?,
        _ => return None,
    };
    choose(&unit.readings(&written, key), key)
}

/// Whether a human answer lies in the acceptable interval; a range only when all of it
/// does.
pub fn acceptable(v: NumberValue, interval: (Option<f64>, Option<f64>)) -> bool {
    match v {
        NumberValue::One(x) => in_interval(x, interval),
        NumberValue::Range(a, b) => in_interval(a, interval) && in_interval(b, interval),
    }
}

/// HMI of a number question: the share of human answers outside the acceptable interval.
/// Answers may be numbers or texts (read by [`human_number`] in the question's `unit`).
/// `None` without answers.
pub fn hmi_number(
    key: f64,
    strategies: &[f64],
    answers: &[(Loose, u64)],
    unit: Unit,
) -> Option<Hmi> {
    let interval = acceptable_interval(key, strategies);
    let mut h = Hmi {
        hmi: 0.0,
        n_answers: 0,
        n_not_acceptable: 0,
        n_unparsable: 0,
        interval,
    };
    for (v, count) in answers {
        h.n_answers += count;
        match human_number(v, Some(key), unit) {
            Some(x) if acceptable(x, interval) => {}
            Some(_) => h.n_not_acceptable += count,
            None => {
                h.n_unparsable += count;
                h.n_not_acceptable += count;
            }
        }
    }
    finish(h)
}

pub(crate) fn finish(mut h: Hmi) -> Option<Hmi> {
    if h.n_answers == 0 {
        return None;
    }
    h.hmi = h.n_not_acceptable as f64 / h.n_answers as f64;
    Some(h)
}

/// HMI of a question from its human answers: number questions by the acceptable interval
/// (needs `strategies`); choice and rank questions as the share of answers that differ from
/// the key. `None` when it cannot be recomputed (no answers, no key, or a number question
/// without strategies).
pub fn hmi_from_fact(fact: &Fact) -> Option<Hmi> {
    if fact.human_answers.is_empty() {
        return None;
    }
    let key = fact_key(fact)?;
    match key {
        FactKey::Number(c) => {
            let s = fact.strategies?;
            let unit = fact.unit();
            hmi_number(c, &[s.misled, s.skim], &fact.human_answers, unit)
        }
        key => {
            let mut h = Hmi {
                hmi: 0.0,
                n_answers: 0,
                n_not_acceptable: 0,
                n_unparsable: 0,
                interval: (None, None),
            };
            for (v, count) in &fact.human_answers {
                h.n_answers += count;
                let parsed = match &key {
                    FactKey::Choice(_) => match v {
                        n if n.is_number() => n.as_u64().map(|n| ParsedFact::Choice(n as u32)),
                        Loose::String(s) => parse_choice(s, &fact.options).map(ParsedFact::Choice),
                        _ => None,
                    },
                    _ => rank_from_value(v, &fact.options).map(ParsedFact::Rank),
                };
                match parsed {
                    Some(p) if is_correct(&p, &key) => {}
                    Some(_) => h.n_not_acceptable += count,
                    None => {
                        h.n_unparsable += count;
                        h.n_not_acceptable += count;
                    }
                }
            }
            finish(h)
        }
    }
}

// ---------------------------------------------------------------------------------------
// Suspect answer keys

/// Below this share of human answers agreeing with a number question's key (within its
/// ±10 % tolerance), the key is suspect.
pub const SUSPECT_SHARE: f64 = 0.25;

/// Why a key is suspect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SuspicionReason {
    /// More human answers agree on one other answer than on the key.
    ModalAnswerDiffers,
    /// Number questions: fewer than [`SUSPECT_SHARE`] of the human answers are within the
    /// key's tolerance.
    FewAgree,
}

/// An answer key that the human answers put in doubt (docs/stats.md, "Suspect answer
/// keys"): worth checking, not necessarily wrong (a chart that misleads most readers
/// is suspect by this rule too).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Suspicion {
    pub reason: SuspicionReason,
    /// The key as shown (`2 (Pears)`, `1 > 4 > 2`, `1.2`).
    pub key: String,
    /// Human answers that could be read.
    pub n_answers: u64,
    /// Of which agree with the key (graded correct by the FACT rule).
    pub n_agree: u64,
    pub share_agree: f64,
    /// The most common human answer that disagrees with the key (for numbers: the centre
    /// of the densest ±10 % bucket), as shown; its count.
    pub modal_answer: Option<String>,
    pub modal_count: u64,
    /// Rank questions: the most common answer is the key in reverse order (a key written
    /// least-first, say).
    pub reversed: bool,
}

/// Whether the item's FACT key is suspect, judged by its human answers:
///
/// - choice and rank: another answer is more common than the key (a tie is not suspect);
/// - number: the densest ±10 % bucket around another answer holds more answers than the
///   key's bucket (answers within ±10 % of the key), or fewer than [`SUSPECT_SHARE`] of
///   the answers are in the key's bucket.
///
/// Answers are read like model answers; unreadable ones are left out. `None` when the
/// item has no FACT key, no readable human answers, or nothing is suspect.
pub fn suspect_key(item: &Item) -> Option<Suspicion> {
    let fact = item.fact.as_ref()?;
    let key = fact_key(fact)?;
    // the human answers as (parsed, count), equal answers merged, in order
    let mut answers: Vec<(ParsedFact, u64)> = Vec::new();
    for (v, count) in &fact.human_answers {
        let parsed = match &key {
            FactKey::Choice(_) => match v {
                n if n.is_number() => n
                    .as_u64()
                    .filter(|n| (1..=u32::MAX as u64).contains(n))
                    .map(|n| ParsedFact::Choice(n as u32)),
                Loose::String(s) => parse_choice(s, &fact.options).map(ParsedFact::Choice),
                _ => None,
            },
            FactKey::Rank(_) => rank_from_value(v, &fact.options).map(ParsedFact::Rank),
            // (the question's unit is read only for a number key: reading it is a walk
            // over the question's words, and a choice or rank key has no use for it)
            FactKey::Number(k) => human_number(v, Some(*k), fact.unit()).map(ParsedFact::from),
        };
        let Some(p) = parsed else { continue };
        match answers.iter_mut().find(|(q, _)| *q == p) {
            Some((_, c)) => *c += count,
            None => answers.push((p, *count)),
        }
    }
    let n_answers: u64 = answers.iter().map(|a| a.1).sum();
    if n_answers == 0 {
        return None;
    }
    let n_agree: u64 = answers
        .iter()
        .filter(|(p, _)| is_correct(p, &key))
        .map(|a| a.1)
        .sum();
    // the most common disagreeing answer (numbers: by its ±10 % bucket); first on ties
    let bucket = |p: &ParsedFact| -> u64 {
        match (p, &key) {
            (ParsedFact::Number(_) | ParsedFact::Range(..), FactKey::Number(_)) => {
                let centre = parsed_center(p);
                answers
                    .iter()
                    .filter(|(q, _)| number_correct(parsed_center(q), centre))
                    .map(|a| a.1)
                    .sum()
            }
            _ => answers.iter().filter(|(q, _)| q == p).map(|a| a.1).sum(),
        }
    };
    let mut modal: Option<(&ParsedFact, u64)> = None;
    for (p, _) in answers.iter().filter(|(p, _)| !is_correct(p, &key)) {
        let c = bucket(p);
        if modal.is_none_or(|(_, m)| c > m) {
            modal = Some((p, c));
        }
    }
    let share_agree = n_agree as f64 / n_answers as f64;
    let reason = if modal.is_some_and(|(_, c)| c > n_agree) {
        SuspicionReason::ModalAnswerDiffers
    } else if matches!(key, FactKey::Number(_)) && share_agree < SUSPECT_SHARE {
        SuspicionReason::FewAgree
    } else {
        return None;
    };
    let reversed = match (&key, modal) {
        (FactKey::Rank(orders), Some((ParsedFact::Rank(m), _))) => orders
            .iter()
            .any(|k| k.len() > 1 && k.iter().rev().eq(m.iter())),
        _ => false,
    };
    Some(Suspicion {
        reason,
        key: key_display(&key, &fact.options),
        n_answers,
        n_agree,
        share_agree,
        modal_answer: modal.map(|(p, _)| p.display(&fact.options)),
        modal_count: modal.map_or(0, |m| m.1),
        reversed,
    })
}

pub(crate) fn parsed_center(p: &ParsedFact) -> f64 {
    match p {
        ParsedFact::Number(x) => *x,
        ParsedFact::Range(a, b) => (a + b) / 2.0,
        _ => f64::NAN,
    }
}

/// A key as shown: `2 (Pears)`, `1 > 4 > 2` (accepted orders joined by `or`), `1.2`.
pub fn key_display(key: &FactKey, options: &[String]) -> String {
    match key {
        FactKey::Choice(n) => ParsedFact::Choice(*n).display(options),
        FactKey::Rank(orders) => orders
            .iter()
            .map(|o| ParsedFact::Rank(o.clone()).display(options))
            .collect::<Vec<_>>()
            .join(" or "),
        FactKey::Number(x) => format_number(*x),
    }
}

/// The answer key as the reviewer reads it: [`key_display`], with the tolerance that
/// grades a number answer ([`number_correct`]); `missing or unusable` without a key.
pub fn key_line(fact: &Fact) -> String {
    match fact_key(fact) {
        Some(FactKey::Number(x)) => format!("{} (correct within ±10%)", format_number(x)),
        Some(key) => key_display(&key, &fact.options),
        None => "missing or unusable".into(),
    }
}
