//! What the reviewer shows of the grading rules: thin adapters over `crate::grade`, shaped
//! for display. No rule is implemented here.

use serde_json::Value;

use crate::model::{Item, Review};
use crate::store::Store;

// The rules behind the reviewer's filters live with the benchmarks.
pub use crate::bench::{disagreement, model_wrong, needs_adjudication, reviewers_disagree};

/// The figures of `verdict stats --json` for the summary screen, with the lines of the
/// agreement report (`team::agree::text::summary_lines`) under `"agreement"`.
pub fn summary_value(store: &Store) -> Value {
    let mut v = serde_json::to_value(crate::stats::compute(store)).unwrap_or(Value::Null);
    // The models' MIND predictions per chart, for the HMI ranking plot.
    if let Some(charts) = v["benchmarks"]["chartom"]["charts"].as_array_mut() {
        let mut preds = crate::bench::chartom::stats::mind_predictions(store);
        for c in charts {
            if let Some(m) = c["id"].as_str().and_then(|id| preds.remove(id)) {
                c["predictions"] = Value::Object(m);
            }
        }
    }
    if let Some(o) = v.as_object_mut() {
        let lines = crate::team::agree::text::summary_lines(&crate::team::agree::report(store));
        o.insert("agreement".into(), Value::from(lines));
    }
    v
}

/// The agreement lines [`summary_value`] put under `"agreement"`.
pub fn agreement_lines(a: &Value) -> Vec<String> {
    a.as_array()
        .map(|ls| {
            ls.iter()
                .filter_map(|l| l.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Every reviewer's grades of an item side by side, for the adjudication queue: a header
/// (the reviewers' names) and one row per field any of them set, item-level fields first,
/// then each response's grades (`model · field`). Empty cells are "·".
pub fn comparison(
    item: &Item,
    reviews: &[(String, Review)],
) -> (Vec<String>, Vec<(String, Vec<String>)>) {
    let n = item.responses.len();
    let names: Vec<String> = reviews.iter().map(|(name, _)| name.clone()).collect();
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    let mut row = |label: String, cells: Vec<Option<String>>| {
        if cells.iter().any(Option::is_some) {
            rows.push((
                label,
                cells
                    .into_iter()
                    .map(|c| c.unwrap_or_else(|| "·".into()))
                    .collect(),
            ));
        }
    };
    let each = |f: &dyn Fn(&Review) -> Option<String>| -> Vec<Option<String>> {
        reviews.iter().map(|(_, r)| f(r)).collect()
    };
    row(
        "status".into(),
        each(&|r| r.status.map(|s| s.name().to_string())),
    );
    row(
        "reason".into(),
        each(&|r| r.reason.map(|x| x.name().to_string())),
    );
    row("reason text".into(), each(&|r| r.reason_text.clone()));
    row("fixed question".into(), each(&|r| r.fixed_question.clone()));
    row("fixed answer".into(), each(&|r| r.fixed_answer.clone()));
    row("verdict".into(), each(&|r| r.verdict.clone()));
    for resp in &item.responses {
        let m = resp.model.as_str();
        let g = |r: &Review| r.for_model(m, n).cloned();
        let yn = |b: Option<bool>| b.map(|b| if b { "correct" } else { "wrong" }.to_string());
        row(
            format!("{m} · justification"),
            each(&|r| {
                g(r).and_then(|g| g.justification)
                    .map(|j| j.name().to_string())
            }),
        );
        row(
            format!("{m} · FACT"),
            each(&|r| yn(g(r).and_then(|g| g.fact_correct))),
        );
        row(
            format!("{m} · bonus"),
            each(&|r| g(r).and_then(|g| g.bonus).map(|b| format!("{b:?}"))),
        );
        row(
            format!("{m} · penalty"),
            each(&|r| {
                g(r).and_then(|g| g.penalty)
                    .map(|p| p.unwrap_or_else(|| "none".into()))
            }),
        );
        row(
            format!("{m} · original"),
            each(&|r| yn(g(r).and_then(|g| g.original_correct))),
        );
        row(
            format!("{m} · counterfactual"),
            each(&|r| yn(g(r).and_then(|g| g.counterfactual_correct))),
        );
    }
    row("note".into(), each(&|r| r.note.clone()));
    row(
        "final".into(),
        each(&|r| (r.is_final == Some(true)).then(|| "FINAL".to_string())),
    );
    (names, rows)
}

#[cfg(test)]
mod tests;
