//! The C-VQA columns of `verdict export` (see [`Row`]).

use super::grade;
use crate::bench::Item;
use crate::bench::kit::row::Row;

/// Fill `row` with `model`'s response to `it`.
pub(crate) fn fill(row: &mut Row, it: &Item, model: &str) {
    let resp = it.response(model);
    let has_resp = resp.is_some();
    let e = grade::effective(it, model);
    if has_resp {
        row.raw_answer = resp.and_then(|r| r.original.clone());
        row.raw_counterfactual = resp.and_then(|r| r.counterfactual.clone());
        row.parsed_answer = e.original.parsed.clone();
        row.parsed_counterfactual = e.counterfactual.parsed.clone();
        row.auto_correct = Some(e.original.correct);
        row.auto_counterfactual_correct = Some(e.counterfactual.correct);
        row.correct = Some(e.original_correct);
        row.counterfactual_correct = Some(e.counterfactual_correct);
        row.counterfactual_fixed_correct = e.counterfactual_fixed_correct;
        row.human_original_correct = e.human.value.cvqa.original_correct;
        row.human_counterfactual_correct = e.human.value.cvqa.counterfactual_correct;
        row.resolution = Some(e.human.source.label());
    }
    let v = &e.verification.value;
    row.status = v.status.map(|s| s.name().to_string());
    row.reason = v.reason.map(|r| r.name().to_string());
    row.fixed_question = v.fixed_question.clone();
    row.fixed_answer = v.fixed_answer.clone();
    row.image_related = v.image_related;
    row.answer_ok = v.answer_ok;
    row.reason_text = v.reason_text.clone();
    row.verification_resolution = Some(e.verification.source.label());
}
