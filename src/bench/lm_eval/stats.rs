//! The figures of an lm-eval samples file in `verdict stats` (docs/stats.md): per filter,
//! every harness metric aggregated over the samples as the harness aggregates it
//! (`mean`, `perplexity` = exp(−mean ll), `weighted_perplexity` = exp(−Σll/Σweight),
//! `bits_per_byte` = −Σll/Σbytes/ln 2), the standard error where the harness's is closed
//! form (a mean's), the run's own figures from its `results_*.json` beside them, and the
//! first mean-of-scores metric corrected by the reviewers' verdicts: a sample marked
//! `correct` counts 1, `incorrect` 0, `ambiguous-key` is left out, and a sample nobody
//! reviewed keeps the harness's value. A perplexity is not a mean of scores: verdicts do
//! not change it.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::Verdict;
use super::sample::{Agg, MetricValue, Sample};
use crate::bench::FileInfo;
use crate::bench::Item;
use crate::bench::kit::sums::ResolutionCounts;
use crate::bench::resolve::{resolve_response, resolve_verdict};

/// The figures of the samples in a file (`benchmarks."lm-eval"` in `verdict stats
/// --json`).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct LmEvalStats {
    /// The task (`samples_<task>_<date>.jsonl`), when the file is named so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// The model (the run's `model_name_sanitized`, else the samples' folder).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The run's results file the `reported` figures come from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub results_file: Option<String>,
    pub filters: BTreeMap<String, FilterStats>,
    /// The groups the task is in (lm-eval's `groups` in the results file).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub groups: BTreeMap<String, GroupStats>,
}

/// A group's figures, as lm-eval aggregates its tasks' (`lm_eval/api/group.py`).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct GroupStats {
    /// Its tasks (a subgroup's included) and their sizes (`sample_len`).
    pub subtasks: BTreeMap<String, u64>,
    pub filters: BTreeMap<String, GroupFilter>,
    /// The group as the results file has it (the tasks in its order).
    #[serde(skip)]
    pub(crate) group: super::run::Group,
}

/// One filter of a group.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct GroupFilter {
    /// The results file's figures (`<metric>`, `<metric>_stderr`), as written.
    pub reported: BTreeMap<String, Value>,
    /// Per metric: `true` when the figure is its tasks' weighted by their size
    /// (`weight_by_size`, lm-eval's default), `false` when it is their plain mean;
    /// absent when it is neither (an aggregation verdict does not recompute).
    pub weight_by_size: BTreeMap<String, bool>,
    /// The same aggregation over each task's corrected figure (the task's samples file,
    /// its verdicts in place, weighted by the samples it counts), for the metric a
    /// verdict stands in for; a task whose samples file is not beside this one keeps
    /// its figure.
    pub corrected: BTreeMap<String, f64>,
    /// Its standard error, as lm-eval's of the group (`pooled_sample_stderr` of the
    /// tasks' stderrs and sizes when weighted by size, else `unweighted_mean_stderr`),
    /// over each task's corrected stderr and samples; absent when a task has none.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub corrected_stderr: BTreeMap<String, f64>,
}

/// A task's corrected figure in one filter: the metric, its value, over how many
/// samples, and its stderr.
type TaskCorrected = (String, f64, u64, Option<f64>);

/// One task of a group in one filter: its figure and size in the results file and its
/// stderr there; where its samples were read, its corrected figure, the samples it
/// counts and its stderr.
struct Part {
    reported: (f64, f64),
    reported_se: Option<f64>,
    corrected: Option<((f64, f64), Option<f64>)>,
}

/// A group's stderr from its tasks' (stderr, size), as lm-eval's `api/group.py`:
/// `pooled_sample_stderr` when weighted by size, else `unweighted_mean_stderr`.
fn group_stderr(parts: &[(f64, f64)], by_size: bool) -> Option<f64> {
    let k = parts.len() as f64;
    if parts.is_empty() {
        return None;
    }
    if !by_size {
        return Some(parts.iter().map(|(se, _)| se * se).sum::<f64>().sqrt() / k);
    }
    let n: f64 = parts.iter().map(|(_, s)| s).sum();
    let var = parts
        .iter()
        .map(|(se, s)| (s - 1.0) * se * se * s)
        .sum::<f64>()
        / (n - k);
    (n > k).then(|| (var / n).sqrt())
}

/// Group `g`'s figures, `corr` giving each task's corrected figure where its samples
/// were read.
fn group_stats(
    g: &super::run::Group,
    corr: &dyn Fn(&str, &str) -> Option<TaskCorrected>,
) -> GroupStats {
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0);
    let filters = g
        .reported
        .iter()
        .map(|(filter, reported)| {
            let mut out = GroupFilter {
                reported: reported.clone(),
                ..GroupFilter::default()
            };
            for (metric, want) in reported {
                let Some(want) = want.as_f64().filter(|_| !metric.ends_with("_stderr")) else {
                    continue;
                };
                // each task's (figure, size) and, where its samples were read, corrected
                let parts: Vec<Part> = g
                    .tasks
                    .iter()
                    .filter_map(|t| {
                        let r = t.reported.get(filter)?;
                        let v = r.get(metric)?.as_f64()?;
                        let c = corr(&t.task, filter)
                            .filter(|(m, _, _, _)| m == metric)
                            .map(|(_, c, n, se)| ((c, n as f64), se));
                        Some(Part {
                            reported: (v, t.size as f64),
                            reported_se: r.get(&format!("{metric}_stderr"))?.as_f64(),
                            corrected: c,
                        })
                    })
                    .collect();
                let mean = |xs: &mut dyn Iterator<Item = (f64, f64)>, by_size: bool| {
                    let (num, den) = xs.fold((0.0, 0.0), |(a, b), (v, s)| {
                        let w = if by_size { s } else { 1.0 };
                        (a + v * w, b + w)
                    });
                    (den > 0.0).then(|| num / den)
                };
                let Some(by_size) = [true, false].into_iter().find(|&b| {
                    mean(&mut parts.iter().map(|p| p.reported), b).is_some_and(|x| close(x, want))
                }) else {
                    continue;
                };
                out.weight_by_size.insert(metric.clone(), by_size);
                if parts.iter().any(|p| p.corrected.is_some()) {
                    let mut each = parts
                        .iter()
                        .map(|p| p.corrected.map_or(p.reported, |(c, _)| c));
                    if let Some(c) = mean(&mut each, by_size) {
                        out.corrected.insert(metric.clone(), c);
                    }
                    // each task's (stderr, size) as corrected, else as reported
                    let each: Option<Vec<(f64, f64)>> = parts
                        .iter()
                        .map(|p| match p.corrected {
                            Some(((_, n), se)) => Some((se?, n)),
                            None => Some((p.reported_se?, p.reported.1)),
                        })
                        .collect();
                    if let Some(se) = each.and_then(|e| group_stderr(&e, by_size)) {
                        out.corrected_stderr.insert(metric.clone(), se);
                    }
                }
            }
            (filter.clone(), out)
        })
        .collect();
    GroupStats {
        subtasks: g.tasks.iter().map(|t| (t.task.clone(), t.size)).collect(),
        filters,
        group: g.clone(),
    }
}

impl LmEvalStats {
    /// The task's corrected figure in `filter`.
    fn corrected_in(&self, filter: &str) -> Option<TaskCorrected> {
        let f = self.filters.get(filter)?;
        Some((
            f.metric.clone()?,
            f.corrected?,
            f.corrected_samples,
            f.corrected_stderr,
        ))
    }

    /// The groups corrected by every task's verdicts: `stats_of` gives the figures of
    /// another task's samples file (docs/stats.md: as `verdict stats` on that file).
    pub fn with_group_tasks(&mut self, stats_of: impl Fn(&std::path::Path) -> Option<LmEvalStats>) {
        let own = self.task.clone();
        let mut others: BTreeMap<String, LmEvalStats> = BTreeMap::new();
        for g in self.groups.values() {
            for t in &g.group.tasks {
                if Some(&t.task) != own.as_ref()
                    && !others.contains_key(&t.task)
                    && let Some(s) = t.samples.as_deref().and_then(&stats_of)
                {
                    others.insert(t.task.clone(), s);
                }
            }
        }
        let corr = |task: &str, filter: &str| match own.as_deref() == Some(task) {
            true => self.corrected_in(filter),
            false => others.get(task)?.corrected_in(filter),
        };
        let groups = self
            .groups
            .values()
            .map(|g| (g.group.name.clone(), group_stats(&g.group, &corr)))
            .collect();
        self.groups = groups;
    }
}

/// One filter's figures (`strict-match`, `flexible-extract`, `none`).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct FilterStats {
    pub samples: u64,
    /// Each metric over the samples that have a value, aggregated as the harness does.
    pub harness: BTreeMap<String, f64>,
    /// Each metric's aggregation (`mean`, `perplexity`, `weighted_perplexity`,
    /// `bits_per_byte`, or another that verdict does not recompute).
    pub aggregation: BTreeMap<String, String>,
    /// The standard error of each mean, as the harness computes it (sample standard
    /// deviation / √n); the harness has none for a weighted perplexity or bits per byte,
    /// and bootstraps a perplexity's (see `reported`).
    pub stderr: BTreeMap<String, f64>,
    /// The run's own figures from its results file (`<metric>` and `<metric>_stderr`,
    /// a number or `"N/A"`), when the file is beside the samples.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub reported: BTreeMap<String, Value>,
    /// The figures verdict does not work out from the samples and gives as the results
    /// file has them: a metric's name for its figure in `harness` (an aggregation
    /// verdict does not recompute: `f1`, `bleu`, a task's own), `<metric>_stderr` for
    /// its standard error in `stderr` (a perplexity's bootstrap).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub from_results_file: Vec<String>,
    /// Metrics whose figure from the samples differs from the reported one at the
    /// harness's 4 decimals (the samples file was changed, or is not the run's).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub differs: Vec<String>,
    /// The metric the verdicts correct: the first the harness lists that is a mean of
    /// per-sample scores.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
    /// Its mean with the reviewers' verdicts in place of the harness's scores, over the
    /// samples not marked `ambiguous-key`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corrected: Option<f64>,
    /// Its standard error, as the harness's of a mean (`mean_stderr`: the sample standard
    /// deviation over √n), over the same samples.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corrected_stderr: Option<f64>,
    /// Metrics the verdicts do not change (every one but `metric`: perplexities, bits
    /// per byte, a second accuracy such as `acc_norm`): their figure is the harness's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_corrected: Vec<String>,
    pub reviewed: u64,
    /// Reviewed samples the harness scored 0 and a reviewer marked `correct`.
    pub correct_but_scored_0: u64,
    /// Reviewed samples the harness scored 1 and a reviewer marked `incorrect`.
    pub incorrect_but_scored_1: u64,
    pub ambiguous_key: u64,
    /// The samples `corrected` is over.
    #[serde(skip)]
    pub corrected_samples: u64,
}

/// Partial sums over a block of samples.
#[derive(Debug, Default)]
pub struct Sums {
    run: Option<super::run::Run>,
    filters: BTreeMap<String, FilterSums>,
}

#[derive(Debug, Default)]
struct FilterSums {
    samples: u64,
    /// Per metric, in the order first met.
    metrics: Vec<(String, MetricSums)>,
    metric: Option<String>,
    corrected: (f64, u64),
    /// Σ of the corrected scores' squares.
    corrected_sq: f64,
    reviewed: u64,
    correct_but_scored_0: u64,
    incorrect_but_scored_1: u64,
    ambiguous_key: u64,
}

/// One metric's sums: its values (or log-likelihoods), their squares, and the weights
/// of a weighted aggregation.
#[derive(Debug, Clone)]
struct MetricSums {
    agg: Agg,
    n: u64,
    sum: f64,
    sum_sq: f64,
    weight: f64,
}

impl MetricSums {
    fn new(agg: Agg) -> MetricSums {
        MetricSums {
            agg,
            n: 0,
            sum: 0.0,
            sum_sq: 0.0,
            weight: 0.0,
        }
    }

    fn add(&mut self, v: MetricValue) {
        let (x, w) = match (&self.agg, v) {
            (Agg::Mean | Agg::Perplexity, MetricValue::Number(x)) => (x, 0.0),
            (Agg::WeightedPerplexity | Agg::BitsPerByte, MetricValue::Pair(ll, w)) => (ll, w),
            _ => return,
        };
        self.n += 1;
        self.sum += x;
        self.sum_sq += x * x;
        self.weight += w;
    }

    fn merge(&mut self, o: &MetricSums) {
        self.n += o.n;
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
        self.weight += o.weight;
    }

    /// The figure, as the harness aggregates (`lm_eval/api/metrics.py`).
    fn value(&self) -> Option<f64> {
        if self.n == 0 {
            return None;
        }
        let n = self.n as f64;
        match self.agg {
            Agg::Mean => Some(self.sum / n),
            Agg::Perplexity => Some((-self.sum / n).exp()),
            Agg::WeightedPerplexity => (self.weight > 0.0).then(|| (-self.sum / self.weight).exp()),
            Agg::BitsPerByte => {
                (self.weight > 0.0).then(|| -self.sum / self.weight / std::f64::consts::LN_2)
            }
            Agg::Other(_) => None,
        }
    }

    /// `mean_stderr`: the sample standard deviation over √n (a mean's only).
    fn stderr(&self) -> Option<f64> {
        if self.agg != Agg::Mean {
            return None;
        }
        mean_stderr(self.n, self.sum, self.sum_sq)
    }
}

/// The standard error of a mean of `n` values of sum `sum` and sum of squares `sum_sq`,
/// as lm-eval's `mean_stderr` (the sample standard deviation over √n); `None` under 2.
fn mean_stderr(n: u64, sum: f64, sum_sq: f64) -> Option<f64> {
    if n < 2 {
        return None;
    }
    let n = n as f64;
    let mean = sum / n;
    let var = ((sum_sq - n * mean * mean) / (n - 1.0)).max(0.0);
    Some(var.sqrt() / n.sqrt())
}

impl Sums {
    /// Add item `it` (a sample line of the file `file`) with the verdict that counts for
    /// it (final, single, majority: as every grade); its responses' resolution is counted
    /// in `resolution`.
    pub(crate) fn add_item(
        &mut self,
        it: &Item,
        file: &FileInfo,
        resolution: &mut ResolutionCounts,
    ) {
        if self.run.is_none() {
            self.run = file.lm_eval.clone();
        }
        // the item's verdict is the grade of each response that has none of its own
        let verdict = resolve_verdict(&it.reviews);
        for resp in &it.responses {
            let r = resolve_response(&it.reviews, &resp.model, it.responses.len());
            resolution.add(crate::bench::kit::sums::used(&r.source, &verdict.source));
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
        for m in &s.metrics {
            let i = match f.metrics.iter().position(|(n, _)| *n == m.name) {
                Some(i) => i,
                None => {
                    f.metrics
                        .push((m.name.clone(), MetricSums::new(m.agg.clone())));
                    f.metrics.len() - 1
                }
            };
            f.metrics[i].1.add(m.value);
        }
        if verdict.is_some() {
            f.reviewed += 1;
        }
        let Some((name, harness)) = s.primary() else {
            if verdict == Some(Verdict::AmbiguousKey) {
                f.ambiguous_key += 1;
            }
            return;
        };
        f.metric.get_or_insert_with(|| name.to_string());
        match verdict {
            Some(Verdict::Correct) if harness == Some(0.0) => f.correct_but_scored_0 += 1,
            Some(Verdict::Incorrect) if harness == Some(1.0) => f.incorrect_but_scored_1 += 1,
            Some(Verdict::AmbiguousKey) => f.ambiguous_key += 1,
            _ => {}
        }
        let score = match verdict {
            Some(v) => v.score(),
            None => harness,
        };
        if let Some(x) = score {
            f.corrected.0 += x;
            f.corrected.1 += 1;
            f.corrected_sq += x * x;
        }
    }

    /// Add the sums of the block that follows this one.
    pub fn merge(&mut self, o: Sums) {
        if self.run.is_none() {
            self.run = o.run;
        }
        for (k, b) in o.filters {
            let a = self.filters.entry(k).or_default();
            a.samples += b.samples;
            for (m, s) in b.metrics {
                match a.metrics.iter_mut().find(|(n, _)| *n == m) {
                    Some((_, x)) => x.merge(&s),
                    None => a.metrics.push((m, s)),
                }
            }
            if a.metric.is_none() {
                a.metric = b.metric;
            }
            a.corrected.0 += b.corrected.0;
            a.corrected.1 += b.corrected.1;
            a.corrected_sq += b.corrected_sq;
            a.reviewed += b.reviewed;
            a.correct_but_scored_0 += b.correct_but_scored_0;
            a.incorrect_but_scored_1 += b.incorrect_but_scored_1;
            a.ambiguous_key += b.ambiguous_key;
        }
    }

    /// The figures, when there were samples.
    pub fn finish(self) -> Option<LmEvalStats> {
        if self.filters.is_empty() {
            return None;
        }
        let run = self.run;
        let filters =
            self.filters
                .into_iter()
                .map(|(k, f)| {
                    let reported = run
                        .as_ref()
                        .and_then(|r| r.reported.get(&k))
                        .cloned()
                        .unwrap_or_default();
                    let mut stats = FilterStats {
                        samples: f.samples,
                        reported: reported.into_iter().collect(),
                        reviewed: f.reviewed,
                        correct_but_scored_0: f.correct_but_scored_0,
                        incorrect_but_scored_1: f.incorrect_but_scored_1,
                        ambiguous_key: f.ambiguous_key,
                        corrected: f.metric.as_ref().and_then(|_| {
                            (f.corrected.1 > 0).then(|| f.corrected.0 / f.corrected.1 as f64)
                        }),
                        corrected_stderr: f.metric.as_ref().and_then(|_| {
                            mean_stderr(f.corrected.1, f.corrected.0, f.corrected_sq)
                        }),
                        corrected_samples: f.corrected.1,
                        metric: f.metric.clone(),
                        ..FilterStats::default()
                    };
                    for (m, s) in &f.metrics {
                        stats
                            .aggregation
                            .insert(m.clone(), s.agg.name().to_string());
                        if let Some(v) = s.value() {
                            stats.harness.insert(m.clone(), v);
                            if let Some(r) = stats.reported.get(m).and_then(Value::as_f64)
                                && format!("{v:.4}") != format!("{r:.4}")
                            {
                                stats.differs.push(m.clone());
                            }
                        }
                        if s.value().is_none()
                            && let Some(r) = stats.reported.get(m).and_then(Value::as_f64)
                        {
                            stats.harness.insert(m.clone(), r);
                            stats.from_results_file.push(m.clone());
                        }
                        match s.stderr() {
                            Some(e) => {
                                stats.stderr.insert(m.clone(), e);
                            }
                            None if s.agg != Agg::Mean => {
                                let k = format!("{m}_stderr");
                                if let Some(r) = stats.reported.get(&k).and_then(Value::as_f64) {
                                    stats.stderr.insert(m.clone(), r);
                                    stats.from_results_file.push(k);
                                }
                            }
                            None => {}
                        }
                        if f.metric.as_deref() != Some(m.as_str()) {
                            stats.not_corrected.push(m.clone());
                        }
                    }
                    (k, stats)
                })
                .collect();
        let mut stats = LmEvalStats {
            task: run.as_ref().map(|r| r.task.clone()),
            model: run.as_ref().and_then(|r| r.model.clone()),
            results_file: run
                .as_ref()
                .and_then(|r| r.results_file.as_ref())
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned()),
            filters,
            groups: BTreeMap::new(),
        };
        // (this task's verdicts; the other tasks' files are read by `with_group_tasks`)
        stats.groups = run
            .iter()
            .flat_map(|r| &r.groups)
            .map(|g| {
                let group = g.clone();
                (
                    g.name.clone(),
                    GroupStats {
                        group,
                        ..GroupStats::default()
                    },
                )
            })
            .collect();
        stats.with_group_tasks(|_| None);
        Some(stats)
    }
}

#[cfg(test)]
#[path = "stats_tests.rs"]
mod tests;
