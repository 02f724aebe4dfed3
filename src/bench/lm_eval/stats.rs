//! The figures of an lm-eval samples file in `verdict stats` (docs/stats.md): per filter,
//! each harness metric's mean over the samples, and the first metric corrected by the
//! reviewers' verdicts: a sample marked `correct` counts 1, `incorrect` 0,
//! `ambiguous-key` is left out, and a sample nobody reviewed keeps the harness's value.

use std::collections::BTreeMap;

use serde::Serialize;

use super::Verdict;
use super::sample::Sample;
use crate::grade::resolve::{resolve_response, resolve_verdict};
use crate::model::Item;
use crate::stats::ResolutionCounts;

/// The figures of the samples in a file (`benchmarks."lm-eval"` in `verdict stats
/// --json`): per filter.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct LmEvalStats {
    pub filters: BTreeMap<String, FilterStats>,
}

/// One filter's figures (`strict-match`, `flexible-extract`, `none`).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct FilterStats {
    pub samples: u64,
    /// Each metric's mean over the samples that have a value, as the harness reports it.
    pub harness: BTreeMap<String, f64>,
    /// The metric the verdicts correct (the first the harness lists).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
    /// Its mean with the reviewers' verdicts in place of the harness's scores, over the
    /// samples not marked `ambiguous-key`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corrected: Option<f64>,
    pub reviewed: u64,
    /// Reviewed samples the harness scored 0 and a reviewer marked `correct`.
    pub correct_but_scored_0: u64,
    /// Reviewed samples the harness scored 1 and a reviewer marked `incorrect`.
    pub incorrect_but_scored_1: u64,
    pub ambiguous_key: u64,
}

/// Partial sums over a block of samples.
#[derive(Debug, Default)]
pub struct Sums {
    filters: BTreeMap<String, FilterSums>,
}

#[derive(Debug, Default)]
struct FilterSums {
    samples: u64,
    harness: BTreeMap<String, (f64, u64)>,
    metric: Option<String>,
    corrected: (f64, u64),
    reviewed: u64,
    correct_but_scored_0: u64,
    incorrect_but_scored_1: u64,
    ambiguous_key: u64,
}

impl Sums {
    /// Add item `it` (a sample line) with the verdict that counts for it (final, single,
    /// majority: as every grade); its responses' resolution is counted in `resolution`.
    pub(crate) fn add_item(&mut self, it: &Item, resolution: &mut ResolutionCounts) {
        // the item's verdict is the grade of each response that has none of its own
        let verdict = resolve_verdict(&it.reviews);
        for resp in &it.responses {
            let r = resolve_response(&it.reviews, &resp.model, it.responses.len());
            resolution.add(crate::stats::used(&r.source, &verdict.source));
        }
        if let Some(s) = super::spec::sample(it) {
            let v = verdict.value;
            self.add(s, v.as_deref().and_then(Verdict::parse));
        }
    }

    /// Add one sample and the verdict that counts for it (resolved over the reviewers).
    pub fn add(&mut self, s: &Sample, verdict: Option<Verdict>) {
        let f = self
            .filters
            .entry(s.filter.clone().unwrap_or_else(|| "none".into()))
            .or_default();
        f.samples += 1;
        for (name, v) in &s.metrics {
            if let Some(v) = v {
                let e = f.harness.entry(name.clone()).or_default();
                e.0 += v;
                e.1 += 1;
            }
        }
        let Some((name, harness)) = s.primary() else {
            return;
        };
        f.metric.get_or_insert_with(|| name.to_string());
        if let Some(v) = verdict {
            f.reviewed += 1;
            match v {
                Verdict::Correct if harness == Some(0.0) => f.correct_but_scored_0 += 1,
                Verdict::Incorrect if harness == Some(1.0) => f.incorrect_but_scored_1 += 1,
                Verdict::AmbiguousKey => f.ambiguous_key += 1,
                _ => {}
            }
        }
        let score = match verdict {
            Some(v) => v.score(),
            None => harness,
        };
        if let Some(x) = score {
            f.corrected.0 += x;
            f.corrected.1 += 1;
        }
    }

    /// Add the sums of the block that follows this one.
    pub fn merge(&mut self, o: Sums) {
        for (k, b) in o.filters {
            let a = self.filters.entry(k).or_default();
            a.samples += b.samples;
            for (m, (s, n)) in b.harness {
                let e = a.harness.entry(m).or_default();
                e.0 += s;
                e.1 += n;
            }
            if a.metric.is_none() {
                a.metric = b.metric;
            }
            a.corrected.0 += b.corrected.0;
            a.corrected.1 += b.corrected.1;
            a.reviewed += b.reviewed;
            a.correct_but_scored_0 += b.correct_but_scored_0;
            a.incorrect_but_scored_1 += b.incorrect_but_scored_1;
            a.ambiguous_key += b.ambiguous_key;
        }
    }

    /// The figures per filter, when there were samples.
    pub fn finish(self) -> Option<BTreeMap<String, FilterStats>> {
        (!self.filters.is_empty()).then(|| {
            self.filters
                .into_iter()
                .map(|(k, f)| {
                    let mean = |(s, n): (f64, u64)| (n > 0).then(|| s / n as f64);
                    let stats = FilterStats {
                        samples: f.samples,
                        harness: f
                            .harness
                            .into_iter()
                            .filter_map(|(m, x)| mean(x).map(|v| (m, v)))
                            .collect(),
                        corrected: f.metric.as_ref().and_then(|_| mean(f.corrected)),
                        metric: f.metric,
                        reviewed: f.reviewed,
                        correct_but_scored_0: f.correct_but_scored_0,
                        incorrect_but_scored_1: f.incorrect_but_scored_1,
                        ambiguous_key: f.ambiguous_key,
                    };
                    (k, stats)
                })
                .collect()
        })
    }
}

#[cfg(test)]
#[path = "stats_tests.rs"]
mod tests;
