//! The human answers of a CHARTOM item's FACT question as histogram buckets, for the
//! item screen (the rules are `crate::bench::chartom::grade`'s).

use crate::bench::Item;
use crate::bench::chartom::fields::{Fact, FactFormat};
use crate::bench::chartom::grade as chartom;
use crate::model::Loose;

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
    if chartom::fact_format(fact) == Some(FactFormat::Number) {
        return number_histogram(fact, n, model_answer, max_buckets);
    }
    Some(choice_histogram(fact, n, model_answer))
}

/// A number question's answers: buckets evenly spaced (on a log scale when they span
/// orders of magnitude), split at the acceptable interval's bounds.
fn number_histogram(
    fact: &Fact,
    n: u64,
    model_answer: Option<chartom::ParsedFact>,
    max_buckets: usize,
) -> Option<Histogram> {
    let key = match chartom::fact_key(fact) {
        Some(chartom::FactKey::Number(k)) => Some(k),
        _ => None,
    };
    let hmi = chartom::hmi_from_fact(fact);
    let interval = hmi.as_ref().map(|h| h.interval).unwrap_or((None, None));
    // human answers read as the HMI reads them (a range at its midpoint)
    let unit = fact.unit();
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
    let edges = bucket_edges(lo, hi, log_scale, max_buckets, interval);
    let nb = (edges.len() - 1).max(1);
    // A value belongs to the bucket whose [left, right) holds it (the last is closed).
    let idx = |x: f64| -> usize {
        edges
            .partition_point(|e| *e <= x)
            .saturating_sub(1)
            .min(nb - 1)
    };
    let mut buckets = empty_buckets(&edges, lo, log_scale, interval);
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
    Some(Histogram {
        n,
        log_scale,
        interval_label,
        buckets,
    })
}

/// One empty bucket between each two `edges` (one for all when they are one value, `lo`),
/// labelled, and acceptable when its middle is in the `interval`.
fn empty_buckets(
    edges: &[f64],
    lo: f64,
    log_scale: bool,
    interval: (Option<f64>, Option<f64>),
) -> Vec<Bucket> {
    let nb = (edges.len() - 1).max(1);
    (0..nb)
        .map(|i| {
            let (l, u) = (edges[i], edges[(i + 1).min(edges.len() - 1)]);
            let mid = if log_scale {
                (l * u).sqrt()
            } else {
                (l + u) / 2.0
            };
            Bucket {
                label: if edges.len() < 2 || l == u {
                    crate::bench::kit::text::format_number(lo)
                } else {
                    format!("{}–{}", short(l), short(u))
                },
                count: 0,
                acceptable: chartom::in_interval(mid, interval),
                has_key: false,
                has_model: false,
            }
        })
        .collect()
}

/// The buckets' edges from `lo` to `hi`: `max_buckets` evenly spaced (on the log scale
/// when log-scaled), plus the acceptable interval's bounds between them.
fn bucket_edges(
    lo: f64,
    hi: f64,
    log_scale: bool,
    max_buckets: usize,
    interval: (Option<f64>, Option<f64>),
) -> Vec<f64> {
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
    edges
}

/// Choice and rank answers: one bar per distinct answer.
fn choice_histogram(fact: &Fact, n: u64, model_answer: Option<chartom::ParsedFact>) -> Histogram {
    let key = chartom::fact_key(fact);
    let buckets = fact
        .human_answers
        .iter()
        .map(|(a, c)| {
            let label = match a {
                Loose::Array(xs) => xs
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(">"),
                Loose::String(s) => s.clone(),
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
    Histogram {
        n,
        log_scale: false,
        interval_label: None,
        buckets,
    }
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

#[cfg(test)]
mod tests;
