//! The summary page's figures (`s`): those of `verdict stats`, computed on a thread
//! (`threads::spawn_summary`) from the file and its journals. The page is
//! `overlays/summary.rs`.

use serde_json::Value;

use crate::store::Store;

/// The figures of `verdict stats --json` for the summary screen, with the lines of the
/// agreement report (`team::agree::text::summary_lines`) under `"agreement"`.
pub fn compute(store: &Store) -> Value {
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

/// The agreement lines [`compute`] put under `"agreement"`.
pub fn agreement_lines(a: &Value) -> Vec<String> {
    a.as_array()
        .map(|ls| {
            ls.iter()
                .filter_map(|l| l.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}
