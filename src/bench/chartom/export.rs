//! The CHARTOM columns of `verdict export` (see [`Row`]).

use super::grade;
use crate::bench::Item;
use crate::bench::kit::row::Row;

/// `x` to `digits` significant digits.
fn significant(x: f64, digits: usize) -> f64 {
    format!("{x:.*e}", digits.saturating_sub(1))
        .parse()
        .unwrap_or(x)
}

/// Fill `row` with `model`'s response to `it`.
pub(crate) fn fill(row: &mut Row, it: &Item, model: &str) {
    let resp = it.response(model);
    let has_resp = resp.is_some();
    let e = grade::effective(it, model);
    row.raw_answer = resp.and_then(|r| r.fact.clone());
    row.parsed_answer = e.fact.display.clone();
    if has_resp {
        row.auto_correct = e.fact.correct;
        row.correct = e.fact_correct;
    }
    row.mind = e.mind;
    row.hmi = e.hmi;
    // A difference squared carries the binary rounding of its terms (0.22 − 0.20 squared
    // is 0.0004000000000000007): 12 significant digits, more than any prediction has.
    row.squared_error = e.squared_error.map(|x| significant(x, 12));
    row.human_justification = e.justification.map(|j| j.name().to_string());
    row.human_fact_correct = e.human.value.chartom.fact_correct;
    row.resolution = has_resp.then(|| e.human.source.label());
}
