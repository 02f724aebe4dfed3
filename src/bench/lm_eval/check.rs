//! `verdict check` on lm-eval samples (docs/format.md, "lm-evaluation-harness sample
//! logs"): the shape of the keys verdict reads, and the faults that would put something
//! on screen the harness did not score: a target that names no choice, a logged metric
//! that the key or pick on screen contradicts, a listed metric with no value.

use serde_json::{Map, Value};

use super::sample::{Answer, MetricValue, Sample};
use crate::bench::kit::check::Ctx;

/// The keys lm-eval writes on every sample line, and the ones that make it one.
const SAMPLE_KEYS: [&str; 3] = ["doc_id", "arguments", "filtered_resps"];
const OTHER_KEYS: [&str; 5] = ["doc", "target", "resps", "filter", "metrics"];

/// A line that names no benchmark and has most of a sample's keys but not all three that
/// make one: the keys it lacks (it is shown with the generic view).
pub(crate) fn near_miss(obj: &Map<String, Value>) -> Option<String> {
    let has = |k: &str| obj.contains_key(k);
    let n = SAMPLE_KEYS
        .iter()
        .chain(&OTHER_KEYS)
        .filter(|k| has(k))
        .count();
    let missing: Vec<&str> = SAMPLE_KEYS.iter().copied().filter(|k| !has(k)).collect();
    (!missing.is_empty() && n >= 4).then(|| {
        format!(
            "looks like an lm-eval sample but has no {}: shown with the generic view, not as a sample",
            missing
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

fn kind(v: &Value) -> &'static str {
    crate::model::kind(v)
}

/// The checks of one sample line.
pub(crate) fn check_sample(c: &mut Ctx, obj: &Map<String, Value>) {
    let requests = requests(c, obj);
    match obj.get("filtered_resps") {
        Some(Value::Array(f)) if requests > 0 && f.len() != requests && f.len() > 1 => {
            c.warn(
                "filtered_resps",
                format!(
                    "{} responses for {requests} requests: the choices and their log-likelihoods do not line up",
                    f.len()
                ),
            );
        }
        Some(Value::Array(_)) => {}
        Some(v) => c.warn(
            "filtered_resps",
            format!(
                "expected a list of the filtered responses, found {}",
                kind(v)
            ),
        ),
        None => {}
    }
    metric_names(c, obj);
    if let Some(v) = obj.get("filter")
        && !v.is_string()
        && !v.is_null()
    {
        c.warn("filter", format!("expected a string, found {}", kind(v)));
    }
    let s = Sample::read(obj);
    answer(c, &s, requests);
    metric_values(c, obj, &s);
}

/// How many requests `arguments` holds (none when it cannot be read).
fn requests(c: &mut Ctx, obj: &Map<String, Value>) -> usize {
    match obj.get("arguments") {
        Some(Value::Object(m)) => m.keys().filter(|k| k.starts_with("gen_args_")).count(),
        Some(Value::Array(a)) => a.len(),
        Some(v) => {
            c.warn(
                "arguments",
                format!(
                    "expected lm-eval's requests (an object of gen_args_0, gen_args_1, … or a list), found {}: the prompt and choices cannot be shown",
                    kind(v)
                ),
            );
            0
        }
        None => 0,
    }
}

/// `metrics`: names of values the line has.
fn metric_names(c: &mut Ctx, obj: &Map<String, Value>) {
    match obj.get("metrics") {
        Some(Value::Array(names)) => {
            for n in names {
                match n.as_str() {
                    Some(n) if !obj.contains_key(n) => c.warn(
                        n,
                        format!("`metrics` lists {n} but the line has no value of it"),
                    ),
                    Some(_) => {}
                    None => c.warn(
                        "metrics",
                        format!("expected metric names, found {}", kind(n)),
                    ),
                }
            }
        }
        Some(v) => c.warn(
            "metrics",
            format!("expected a list of metric names, found {}", kind(v)),
        ),
        None => {}
    }
}

/// The harness's scores against the answer as read: the key among the choices and the
/// pick, or `is_greedy`.
fn answer(c: &mut Ctx, s: &Sample, requests: usize) {
    let logged = |name: &str| s.metric(name).and_then(MetricValue::number);
    match &s.answer {
        Answer::Choice(ch) => {
            // (unreadable requests were reported above: no choice texts to name)
            if ch.gold.is_empty() && requests > 0 {
                c.warn(
                    "target",
                    format!(
                        "{:?} names none of the {} choices (read as {}): the harness scored this line 0",
                        s.target,
                        ch.texts.len(),
                        ch.key.describe()
                    ),
                );
            }
            for (name, pick) in [("acc", ch.picked()), ("acc_norm", ch.picked_norm())] {
                if let (Some(v), Some(p)) = (logged(name), pick)
                    && !ch.gold.is_empty()
                    && (v == 1.0) != ch.is_gold(p)
                {
                    c.warn(
                        name,
                        format!(
                            "the harness scored {name} {v} but its pick (choice {p}) is {}the key as read ({}: {:?}): the key on screen may not be the harness's",
                            if ch.is_gold(p) { "" } else { "not " },
                            ch.key.describe(),
                            s.target
                        ),
                    );
                }
            }
        }
        Answer::Loglikelihood { is_greedy, .. } => {
            if let (Some(v), Some(g)) = (logged("acc"), is_greedy)
                && (v == 1.0) != *g
            {
                c.warn(
                    "acc",
                    format!("the harness scored acc {v} but is_greedy is {g}"),
                );
            }
        }
        Answer::Rolling { .. } | Answer::Generated { .. } => {}
    }
}

/// Each metric's value of the shape its aggregation reads.
fn metric_values(c: &mut Ctx, obj: &Map<String, Value>, s: &Sample) {
    for m in &s.metrics {
        let pair_wanted = matches!(
            m.agg,
            super::sample::Agg::WeightedPerplexity | super::sample::Agg::BitsPerByte
        );
        let ok = match m.value {
            MetricValue::Pair(..) => pair_wanted,
            MetricValue::Number(_) => !pair_wanted,
            MetricValue::Other => !obj.contains_key(&m.name),
        };
        if !ok
            && obj.contains_key(&m.name)
            && m.agg.name() != "f1"
            && m.agg.name() != "matthews_corrcoef"
        {
            c.warn(
                &m.name,
                if pair_wanted {
                    format!(
                        "expected [loglikelihood, count] for {}, left out of the figure",
                        m.agg.name()
                    )
                } else {
                    "expected a number, left out of the figure".to_string()
                },
            );
        }
    }
}
