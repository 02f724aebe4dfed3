//! The figures of an Inspect log recomputed after score edits, as inspect_ai's
//! `recompute_metrics` (`log/_metric.py`) recomputes them: each sample's epochs reduced
//! (`reductions`), the metrics of `results`.

use serde_json::{Map, Value, json};

use super::edit::{float, to_float};

/// The epochs' values of one sample reduced as `reducer` does; `None` for a reducer
/// verdict does not know.
fn reduce(reducer: &str, xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    if xs.iter().any(|x| x.is_nan()) && matches!(reducer, "mean" | "median" | "max") {
        // numpy's mean and median give NaN (the sample is unscored)
        return Some(f64::NAN);
    }
    match reducer {
        "mean" => Some(xs.iter().sum::<f64>() / xs.len() as f64),
        "max" => xs.iter().copied().reduce(f64::max),
        "median" => {
            let mut v = xs.to_vec();
            v.sort_by(f64::total_cmp);
            let n = v.len();
            Some(if n % 2 == 1 {
                v[n / 2]
            } else {
                (v[n / 2 - 1] + v[n / 2]) / 2.0
            })
        }
        _ => None,
    }
}

/// A metric of the reduced values, as Inspect's built-in metric of that name with no
/// parameters computes it; `None` for any other (kept as it was).
fn metric(name: &str, xs: &[f64]) -> Option<f64> {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = || {
        if xs.len() < 2 {
            None
        } else {
            Some(xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0))
        }
    };
    match name.rsplit('/').next().unwrap_or(name) {
        "accuracy" | "mean" => (!xs.is_empty()).then_some(mean),
        // numpy's std with ddof=1 over sqrt(n); 0 for fewer than two
        "stderr" => Some(var().map_or(0.0, |v| v.sqrt() / n.sqrt())),
        "std" => Some(var().map_or(0.0, f64::sqrt)),
        "var" => Some(var().unwrap_or(0.0)),
        _ => None,
    }
}

/// Recompute `scorer`'s figures from every sample's current value (`values`: the sample
/// id and value, one per sample and epoch): its entry of `reductions` (each sample's
/// epochs reduced) and its metrics in `header.results`. Returns the metrics it could not
/// recompute (they keep their value).
pub fn recompute(
    header: &mut Value,
    reductions: Option<&mut Value>,
    scorer: &str,
    values: &[(Value, Value)],
) -> Vec<String> {
    let (order, by_id) = epochs_by_sample(values);
    let reducer = reductions
        .as_deref()
        .and_then(Value::as_array)
        .and_then(|a| {
            a.iter()
                .find(|r| r.get("scorer").and_then(Value::as_str) == Some(scorer))
        })
        .and_then(|r| r.get("reducer").and_then(Value::as_str))
        .unwrap_or("mean")
        .to_string();
    let reduced: Vec<Option<f64>> = by_id.iter().map(|xs| reduce(&reducer, xs)).collect();
    if reduced.iter().any(Option::is_none) {
        return vec![format!("reducer {reducer}")];
    }
    let reduced: Vec<f64> = reduced.into_iter().flatten().collect();
    if let Some(list) = reductions.and_then(Value::as_array_mut) {
        set_reductions(list, scorer, &order, &reduced);
    }
    set_metrics(header, scorer, &reduced)
}

/// The epochs' values of each sample, as floats, with the sample ids in the order the
/// samples first appear.
fn epochs_by_sample(values: &[(Value, Value)]) -> (Vec<Value>, Vec<Vec<f64>>) {
    let mut order: Vec<Value> = Vec::new();
    let mut by_id: Vec<Vec<f64>> = Vec::new();
    for (id, v) in values {
        let k = match order.iter().position(|o| o == id) {
            Some(k) => k,
            None => {
                order.push(id.clone());
                by_id.push(Vec::new());
                order.len() - 1
            }
        };
        by_id[k].push(to_float(v).unwrap_or(0.0));
    }
    (order, by_id)
}

/// Each sample's reduced value in `scorer`'s entry of the reductions (`order`: the sample
/// ids of `reduced`).
fn set_reductions(list: &mut [Value], scorer: &str, order: &[Value], reduced: &[f64]) {
    if let Some(r) = list
        .iter_mut()
        .find(|r| r.get("scorer").and_then(Value::as_str) == Some(scorer))
        && let Some(samples) = r.get_mut("samples").and_then(Value::as_array_mut)
    {
        for s in samples {
            if let Some(k) = s
                .get("sample_id")
                .and_then(|id| order.iter().position(|o| o == id))
            {
                s["value"] = float(reduced[k]);
            }
        }
    }
}

/// `scorer`'s metrics in `header.results` from the samples' reduced values, and its
/// scored and unscored counts; returns the metrics it could not recompute.
fn set_metrics(header: &mut Value, scorer: &str, reduced: &[f64]) -> Vec<String> {
    let mut skipped = Vec::new();
    // A sample reduced to NaN is unscored: left out of the metrics, counted apart.
    let scored: Vec<f64> = reduced.iter().copied().filter(|x| !x.is_nan()).collect();
    if let Some(scores) = header
        .pointer_mut("/results/scores")
        .and_then(Value::as_array_mut)
    {
        for s in scores
            .iter_mut()
            .filter(|s| s.get("name").and_then(Value::as_str) == Some(scorer))
        {
            if s.get("scored_samples").is_some_and(Value::is_number) {
                s["scored_samples"] = json!(scored.len());
                s["unscored_samples"] = json!(reduced.len() - scored.len());
            }
            let Some(metrics) = s.get_mut("metrics").and_then(Value::as_object_mut) else {
                continue;
            };
            for (name, m) in metrics.iter_mut() {
                let plain = m
                    .get("params")
                    .is_none_or(|p| p.as_object().is_none_or(Map::is_empty));
                match metric(name, &scored).filter(|_| plain) {
                    Some(x) => m["value"] = float(x),
                    None => skipped.push(name.clone()),
                }
            }
        }
    }
    skipped
}
