//! The CharToM-QA columns of `verdict export` (see [`Row`]).

use serde_json::Value;

use super::grade;
use crate::bench::Item;
use crate::bench::chartom_qa::fields::JudgeBonus;
use crate::bench::kit::row::Row;

/// Fill `row` with `model`'s response to `it`.
pub(crate) fn fill(row: &mut Row, it: &Item, model: &str) {
    let resp = it.response(model);
    let has_resp = resp.is_some();
    let e = grade::effective(it, model);
    row.raw_answer = resp.and_then(|r| r.text.clone());
    row.parsed_answer = resp.and_then(|r| r.choice).map(|c| c.to_string());
    row.auto_correct = e.choice_correct;
    row.correct = e.choice_correct;
    row.n_bonus_points = Some(it.bonus_points.len() as u64);
    if let Some(j) = &e.judge {
        row.judge_bonus = Some(match &j.bonus {
            JudgeBonus::Points(p) => Value::from(p.clone()),
            JudgeBonus::Unparsable(s) => Value::String(s.clone()),
        });
        row.judge_covered = j.covered;
        row.judge_penalty = j.penalty.clone();
    }
    if let Some(h) = &e.human_grade {
        row.human_bonus = h.bonus.clone();
        row.human_covered = h.covered;
        row.human_penalty = h.penalty.clone().flatten();
        row.human_penalized = h.penalty.as_ref().map(Option::is_some);
    }
    row.resolution = has_resp.then(|| e.human.source.label());
}
