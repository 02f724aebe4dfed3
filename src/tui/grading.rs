//! What the reviewer shows of the grading rules: thin adapters over `crate::grade`, shaped
//! for display. No rule is implemented here.

use serde_json::Value;

use crate::bench::chartom::grade as chartom;
use crate::bench::cvqa::grade as cvqa;
use crate::model::{FactFormat, Item, Review};
use crate::store::Store;
use crate::tui::app::State;

// The rules behind the reviewer's filters live with the benchmarks.
pub use crate::bench::{disagreement, model_wrong, needs_adjudication, reviewers_disagree};

pub struct FactView {
    pub parsed: Option<String>,
    pub auto: Option<bool>,
    pub effective: Option<bool>,
    pub overridden: bool,
}

pub fn chartom_fact(item: &Item, model: &str) -> FactView {
    let e = chartom::effective(item, model);
    FactView {
        parsed: e.fact.display.clone(),
        auto: e.fact.correct,
        effective: e.fact_correct,
        overridden: e.overridden,
    }
}

pub struct HmiView {
    pub hmi: f64,
    pub n: u64,
    pub not_acceptable: u64,
}

pub fn chartom_hmi(item: &Item) -> Option<HmiView> {
    let h = chartom::hmi_from_fact(item.fact.as_ref()?)?;
    Some(HmiView {
        hmi: h.hmi,
        n: h.n_answers,
        not_acceptable: h.n_not_acceptable,
    })
}

/// The key line of the item screen ([`chartom::key_line`]).
pub fn fact_key_display(fact: &crate::model::Fact) -> String {
    chartom::key_line(fact)
}

pub struct Bucket {
    pub label: String,
    pub count: u64,
    pub acceptable: bool,
    pub has_key: bool,
    pub has_model: bool,
}

pub struct Histogram {
    pub n: u64,
    pub log_scale: bool,
    pub interval_label: Option<String>,
    pub buckets: Vec<Bucket>,
}

/// The human answers of the item's FACT question as histogram buckets.
pub fn histogram(item: &Item, model: Option<&str>, max_buckets: usize) -> Option<Histogram> {
    let fact = item.fact.as_ref()?;
    if fact.human_answers.is_empty() {
        return None;
    }
    let n: u64 = fact.human_answers.iter().map(|(_, c)| c).sum();
    let model_answer = model
        .and_then(|m| item.response(m))
        .and_then(|r| r.fact.as_deref())
        .and_then(|raw| chartom::parse_fact(fact, raw));
    let format = chartom::fact_format(fact);
    if format == Some(FactFormat::Number) {
        let key = match chartom::fact_key(fact) {
            Some(chartom::FactKey::Number(k)) => Some(k),
            _ => None,
        };
        let hmi = chartom::hmi_from_fact(fact);
        let interval = hmi.as_ref().map(|h| h.interval).unwrap_or((None, None));
        // human answers read as the HMI reads them (a range at its midpoint)
        let unit = chartom::Unit::of_question(fact.question.as_deref());
        let vals: Vec<(f64, u64)> = fact
            .human_answers
            .iter()
            .filter_map(|(a, c)| chartom::human_number(a, key, unit).map(|x| (x.center(), *c)))
            .collect();
        if vals.is_empty() {
            return None;
        }
        let lo = vals.iter().map(|v| v.0).fold(f64::INFINITY, f64::min);
        let hi = vals.iter().map(|v| v.0).fold(f64::NEG_INFINITY, f64::max);
        let log_scale = lo > 0.0 && hi / lo >= 20.0;
        let k = max_buckets.max(2);
        type Scale = fn(f64) -> f64;
        let (to, from): (Scale, Scale) = if log_scale {
            (f64::ln, f64::exp)
        } else {
            (|x| x, |x| x)
        };
        let (a, b) = (to(lo), to(hi));
        // Bucket edges: evenly spaced (on the log scale when log-scaled), plus the
        // interval's bounds, so that every bucket is wholly acceptable or wholly not.
        let mut edges: Vec<f64> = if b > a {
            (0..=k)
                .map(|i| from(a + (b - a) * i as f64 / k as f64))
                .collect()
        } else {
            vec![lo, hi]
        };
        for bound in [interval.0, interval.1].into_iter().flatten() {
            if bound > lo && bound < hi {
                edges.push(bound);
            }
        }
        edges.sort_by(f64::total_cmp);
        edges.dedup_by(|x, y| (*x - *y).abs() <= f64::EPSILON * y.abs().max(1.0));
        let nb = (edges.len() - 1).max(1);
        // A value belongs to the bucket whose [left, right) holds it (the last is closed).
        let idx = |x: f64| -> usize {
            edges
                .partition_point(|e| *e <= x)
                .saturating_sub(1)
                .min(nb - 1)
        };
        let mut buckets: Vec<Bucket> = (0..nb)
            .map(|i| {
                let (l, u) = (edges[i], edges[(i + 1).min(edges.len() - 1)]);
                let mid = if log_scale {
                    (l * u).sqrt()
                } else {
                    (l + u) / 2.0
                };
                Bucket {
                    label: if edges.len() < 2 || l == u {
                        chartom::format_number(lo)
                    } else {
                        format!("{}–{}", short(l), short(u))
                    },
                    count: 0,
                    acceptable: chartom::in_interval(mid, interval),
                    has_key: false,
                    has_model: false,
                }
            })
            .collect();
        for (x, c) in &vals {
            buckets[idx(*x)].count += c;
        }
        if let Some(kv) = key
            && kv >= lo
            && kv <= hi
        {
            buckets[idx(kv)].has_key = true;
        }
        if let Some(chartom::ParsedFact::Number(m)) = model_answer
            && m >= lo
            && m <= hi
        {
            buckets[idx(m)].has_model = true;
        }
        let interval_label = Some(format!(
            "({}, {})",
            interval.0.map(short).unwrap_or_else(|| "−∞".into()),
            interval.1.map(short).unwrap_or_else(|| "+∞".into())
        ));
        return Some(Histogram {
            n,
            log_scale,
            interval_label,
            buckets,
        });
    }
    // Choice and rank answers: one bar per distinct answer.
    let key = chartom::fact_key(fact);
    let buckets = fact
        .human_answers
        .iter()
        .map(|(a, c)| {
            let label = match a {
                Value::Array(xs) => xs
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(">"),
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let parsed = chartom::parse_fact(fact, &label);
            let is_key = match (&parsed, &key) {
                (Some(p), Some(k)) => chartom::is_correct(p, k),
                _ => false,
            };
            Bucket {
                label,
                count: *c,
                acceptable: is_key,
                has_key: is_key,
                has_model: parsed.is_some() && parsed == model_answer,
            }
        })
        .collect();
    Some(Histogram {
        n,
        log_scale: false,
        interval_label: None,
        buckets,
    })
}

fn short(x: f64) -> String {
    if x.abs() >= 100.0 {
        format!("{x:.0}")
    } else if x.abs() >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

pub struct AnswerView {
    pub parsed: Option<String>,
    pub auto: bool,
    pub effective: bool,
    pub overridden: bool,
    /// Graded against a reviewer's fixed key (this key), not the file's.
    pub fixed_key: Option<String>,
}

pub fn cvqa_answer(item: &Item, model: &str, counterfactual: bool) -> AnswerView {
    let e = cvqa::effective(item, model);
    if counterfactual {
        // A fix that counts changed the key or the question: the answer is graded against
        // the fixed one (as `verdict stats` does for its figures after fixes).
        match (&e.counterfactual_fixed, e.counterfactual_fixed_correct) {
            (Some(g), Some(effective)) => AnswerView {
                parsed: g.parsed.clone(),
                auto: g.correct,
                effective,
                overridden: e.counterfactual_overridden,
                fixed_key: Some(e.fixed_key.clone()),
            },
            _ => AnswerView {
                parsed: e.counterfactual.parsed.clone(),
                auto: e.counterfactual.correct,
                effective: e.counterfactual_correct,
                overridden: e.counterfactual_overridden,
                fixed_key: None,
            },
        }
    } else {
        AnswerView {
            parsed: e.original.parsed.clone(),
            auto: e.original.correct,
            effective: e.original_correct,
            overridden: e.original_overridden,
            fixed_key: None,
        }
    }
}

/// A synthetic question's stem and its inline options.
pub fn split_options(question: &str) -> (&str, Vec<(char, String)>) {
    let opts: Vec<(char, String)> = cvqa::options(question)
        .into_iter()
        .map(|(c, t)| (c, t.to_string()))
        .collect();
    if opts.is_empty() {
        (question, opts)
    } else {
        (cvqa::question_stem(question), opts)
    }
}

/// Covered / total bonus points over the CharToM-QA items I have graded (this session's
/// grades and the file's), for `model`'s responses: BPC is per model (docs/stats.md).
pub fn running_bpc(state: &State, model: &str) -> Option<(u64, u64)> {
    state.rec.bpc_sum.get(model).copied()
}

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
