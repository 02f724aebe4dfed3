//! The other benchmarks' columns of `verdict export` (see [`Row`]).

use crate::bench::Item;
use crate::bench::kit::row::Row;

/// Fill `row` with `model`'s response to `it`.
pub(crate) fn fill(row: &mut Row, it: &Item, model: &str) {
    let resp = it.response(model);
    let has_resp = resp.is_some();
    let r = crate::bench::resolve::resolve_response(&it.reviews, model, it.responses.len());
    row.raw_answer = resp.and_then(|r| r.text.clone());
    row.resolution = has_resp.then(|| r.source.label());
    let v = crate::bench::resolve::resolve_verdict(&it.reviews);
    row.verdict = v.value;
    row.verdict_resolution = Some(v.source.label());
}
