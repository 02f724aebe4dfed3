//! CharToM-QA grading (docs/format.md, "CharToM-QA"): bonus-point coverage (BPC) and penalty
//! rate (PR), from the LLM judge and from human reviewers.
//!
//! - BPC = Σ covered bonus points / Σ bonus points over the responses (a micro average).
//!   A response covers the distinct point numbers within 1..=n of its item's n points
//!   (numbers out of range are ignored).
//! - PR = responses with a penalty / responses graded.
//! - Judge: a `bonus` that is not a list of numbers (the script's `"Null"`) is counted as
//!   unparsable and left out of the BPC (the original script counts it as 3 hits); the
//!   response still counts for the PR. A penalty counts when its text does not contain
//!   `None` ([`crate::bench::chartom_qa::fields::Judge::penalty_text`]).
//! - Human: the BPC counts only responses whose resolved grades set `bonus`, and the PR
//!   only responses whose resolved grades set `penalty` (each its own denominator): a
//!   field the reviewers left unset is not graded, never read as "no point covered" or
//!   "no penalty".

use serde::Serialize;

use crate::bench::chartom_qa::fields::JudgeBonus;
use crate::bench::resolve::resolve_response;
use crate::bench::{Item, Response, ResponseGrades};
use crate::grade::ratio;
use crate::grade::resolve::Resolved;

/// Sums from which BPC and PR are computed; add responses, merge partial sums.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct BpcPr {
    /// Σ bonus points of the responses counted in the BPC.
    pub points: u64,
    /// Σ covered bonus points.
    pub covered: u64,
    /// Responses graded for a penalty (the PR's denominator).
    pub responses: u64,
    /// Responses with a penalty.
    pub penalized: u64,
    /// Judge grades whose bonus could not be parsed (left out of the BPC).
    pub unparsable: u64,
}

impl BpcPr {
    /// Add one graded response: `covered` is `None` when its bonus is unparsable.
    pub fn add(&mut self, covered: Option<u64>, n_points: u64, penalized: bool) {
        self.responses += 1;
        match covered {
            Some(c) => {
                self.points += n_points;
                self.covered += c;
            }
            None => self.unparsable += 1,
        }
        if penalized {
            self.penalized += 1;
        }
    }
    /// Add a response's graded bonus points only (the PR is left alone).
    pub fn add_bonus(&mut self, covered: u64, n_points: u64) {
        self.points += n_points;
        self.covered += covered;
    }
    /// Add a response's graded penalty only (the BPC is left alone).
    pub fn add_penalty(&mut self, penalized: bool) {
        self.responses += 1;
        if penalized {
            self.penalized += 1;
        }
    }
    /// Add a human grade: each of its fields counts only where it is graded.
    pub fn add_human(&mut self, h: &HumanGrade) {
        if let Some(c) = h.covered {
            self.add_bonus(c, h.n_points);
        }
        if let Some(p) = &h.penalty {
            self.add_penalty(p.is_some());
        }
    }
    pub fn merge(&mut self, o: &BpcPr) {
        self.points += o.points;
        self.covered += o.covered;
        self.responses += o.responses;
        self.penalized += o.penalized;
        self.unparsable += o.unparsable;
    }
    pub fn bpc(&self) -> Option<f64> {
        ratio(self.covered, self.points)
    }
    pub fn pr(&self) -> Option<f64> {
        ratio(self.penalized, self.responses)
    }
}

/// Distinct point numbers in 1..=n_points.
pub fn covered_count(points: &[u32], n_points: usize) -> u64 {
    let mut v: Vec<u32> = points
        .iter()
        .copied()
        .filter(|&p| p >= 1 && p as usize <= n_points)
        .collect();
    v.sort_unstable();
    v.dedup();
    v.len() as u64
}

/// The LLM judge's grade of one response.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeGrade {
    pub bonus: JudgeBonus,
    /// Covered points; `None` when the bonus is unparsable.
    pub covered: Option<u64>,
    pub n_points: u64,
    pub penalty: Option<String>,
}

/// The judge's grade of a response, if it has one.
pub fn judge_grade(item: &Item, resp: &Response) -> Option<JudgeGrade> {
    let j = resp.judge.as_ref()?;
    let n = item.bonus_points.len();
    let bonus = j.bonus_list();
    let covered = match &bonus {
        JudgeBonus::Points(p) => Some(covered_count(p, n)),
        JudgeBonus::Unparsable(_) => None,
    };
    Some(JudgeGrade {
        bonus,
        covered,
        n_points: n as u64,
        penalty: j.penalty_text(),
    })
}

/// A human grade of one response, as counted. Each field is `None` when the resolved
/// grades leave it unset (not graded).
#[derive(Debug, Clone, PartialEq)]
pub struct HumanGrade {
    pub bonus: Option<Vec<u32>>,
    /// Covered points, when `bonus` is graded.
    pub covered: Option<u64>,
    pub n_points: u64,
    /// `Some(None)`: graded as no penalty; `Some(Some(text))`: a penalty.
    pub penalty: Option<Option<String>>,
}

impl HumanGrade {
    /// Graded with a penalty.
    pub fn penalized(&self) -> bool {
        matches!(self.penalty, Some(Some(_)))
    }
}

/// The counted human grade from resolved grades; `None` when they set neither `bonus`
/// nor `penalty`.
pub fn human_grade(item: &Item, g: &ResponseGrades) -> Option<HumanGrade> {
    if g.chartom_qa.bonus.is_none() && g.chartom_qa.penalty.is_none() {
        return None;
    }
    let n = item.bonus_points.len();
    Some(HumanGrade {
        covered: g.chartom_qa.bonus.as_deref().map(|b| covered_count(b, n)),
        bonus: g.chartom_qa.bonus.clone(),
        n_points: n as u64,
        penalty: g.chartom_qa.penalty.clone(),
    })
}

/// One CharToM-QA response as graded by the judge and by humans.
#[derive(Debug, Clone, PartialEq)]
pub struct QaEffective {
    pub judge: Option<JudgeGrade>,
    /// The human grades that count, and where they come from.
    pub human: Resolved<ResponseGrades>,
    pub human_grade: Option<HumanGrade>,
    /// The response's `choice` against the item's `key`, when both exist.
    pub choice_correct: Option<bool>,
}

/// Judge vs human grade of `model`'s response to a CharToM-QA item.
pub fn effective(item: &Item, model: &str) -> QaEffective {
    let resp = item.response(model);
    let judge = resp.and_then(|r| judge_grade(item, r));
    let human = resolve_response(&item.reviews, model, item.responses.len());
    let human_grade = human_grade(item, &human.value);
    let choice_correct = match (resp.and_then(|r| r.choice), item.key) {
        (Some(c), Some(k)) => Some(c == k),
        _ => None,
    };
    QaEffective {
        judge,
        human,
        human_grade,
        choice_correct,
    }
}

/// Is `model`'s response wrong: its `choice` is not the `key`, or the grades that count
/// (the humans' resolved grades when they set `bonus` or `penalty`, else the judge's)
/// find a penalty or a bonus point not covered. What [`effective`] gives, reading only
/// what this needs: the index asks it of every response, and `effective` copies the
/// judge's list, its penalty and the humans' grades.
pub fn model_wrong(item: &Item, model: &str) -> bool {
    let resp = item.response(model);
    if let (Some(c), Some(k)) = (resp.and_then(|r| r.choice), item.key)
        && c != k
    {
        return true;
    }
    let n = item.bonus_points.len();
    if !item.reviews.is_empty() {
        let human = resolve_response(&item.reviews, model, item.responses.len());
        let g = &human.value.chartom_qa;
        if g.bonus.is_some() || g.penalty.is_some() {
            return matches!(g.penalty, Some(Some(_)))
                || g.bonus
                    .as_deref()
                    .is_some_and(|b| covered_count(b, n) < n as u64);
        }
    }
    match resp.and_then(|r| r.judge.as_ref()) {
        Some(j) => j.penalized() || j.covered(n).is_some_and(|c| c < n as u64),
        None => false,
    }
}

#[cfg(test)]
mod fast_tests;
#[cfg(test)]
mod tests;
