//! The CHARTOM columns of `verdict export` (see [`Row`]).

use crate::export::Row;
use crate::grade::chartom;
use crate::model::Item;

/// Fill `row` with `model`'s response to `it`.
pub(crate) fn fill(row: &mut Row, it: &Item, model: &str) {
    let resp = it.response(model);
    let has_resp = resp.is_some();
    let e = chartom::effective(it, model);
    row.raw_answer = resp.and_then(|r| r.fact.clone());
    row.parsed_answer = e.fact.display.clone();
    if has_resp {
        row.auto_correct = e.fact.correct;
        row.correct = e.fact_correct;
    }
    row.mind = e.mind;
    row.hmi = e.hmi;
    row.squared_error = e.squared_error;
    row.human_justification = e.justification.map(|j| j.name().to_string());
    row.human_fact_correct = e.human.value.fact_correct;
    row.resolution = has_resp.then(|| e.human.source.label());
}
