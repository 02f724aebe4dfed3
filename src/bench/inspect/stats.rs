//! The figures of an Inspect log in `verdict stats` (docs/stats.md): the log's own
//! figures (`results` of its header), and the headline scorer's accuracy three ways: as
//! the scorer gave it (each score's original value), as the log says now, and corrected
//! by the reviewers' verdicts (`correct` 1, `incorrect` 0, `ambiguous-target` left out,
//! an unreviewed epoch keeps its value). As Inspect reduces epochs, each sample's epochs
//! are averaged first, then the samples. And every figure of the log (each scorer,
//! reducer and metric) beside the same figure recomputed from the values the log holds
//! (stale when they differ) and corrected by the verdicts, each by its own reducer.

use std::collections::BTreeMap;

use serde::Serialize;

use super::edit::to_float;
use super::spec::sample;
use super::{Verdict, edit, nonfinite, recompute, stats_text};
use crate::bench::Item;
use crate::bench::Review;
use crate::bench::kit::sums::ResolutionCounts;
use crate::bench::resolve::{resolve_response, resolve_verdict};
use indexmap::IndexMap;

/// `benchmarks.inspect` in `verdict stats --json`.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct InspectStats {
    pub task: Option<String>,
    pub model: Option<String>,
    /// The scorer the verdicts grade.
    pub scorer: String,
    /// Items: samples × epochs.
    pub items: u64,
    pub samples: u64,
    /// The log's figures: scorer → metric → value (`results` of the header).
    pub harness: BTreeMap<String, BTreeMap<String, serde_json::Value>>,
    /// The headline scorer's accuracy from the values the scorer gave.
    pub scorer_accuracy: Option<f64>,
    /// From the values the log holds now (after earlier score edits).
    pub log_accuracy: Option<f64>,
    /// Corrected by the verdicts.
    pub corrected_accuracy: Option<f64>,
    /// Verdicts that count, by value.
    pub verdicts: BTreeMap<String, u64>,
    pub reviewed: u64,
    /// Every scorer's accuracy the same three ways, the headline's included (verdicts on
    /// another scorer are `scorers.<name>` of a review): scorer → its figures.
    pub scorers: BTreeMap<String, ScorerFigures>,
    /// Every figure of the log's `results`, in its order, as Inspect names it.
    pub figures: Vec<FigureStats>,
}

/// One figure of the log (a scorer, a reducer and a metric), recomputed and corrected.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct FigureStats {
    pub scorer: String,
    /// The entry's name when it is not the scorer's (a key of its values).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// As the log names it (`null`: none named, the mean).
    pub reducer: Option<String>,
    pub metric: String,
    /// As the log holds it.
    pub log: serde_json::Value,
    pub scored_samples: Option<u64>,
    /// From the values the log holds now, as inspect_ai recomputes it (`null`: verdict
    /// does not recompute this reducer or metric).
    pub recomputed: Option<f64>,
    /// The same, each reviewed epoch scored by the verdict that counts on its scorer.
    pub corrected: Option<f64>,
    /// Samples scored in the corrected figure.
    pub corrected_scored: Option<u64>,
    /// Why the log's figure is not the one its values give, or may not be.
    pub stale: Option<String>,
}

/// One scorer's accuracy as scored, as the log holds it now, and corrected by the
/// verdicts on that scorer.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct ScorerFigures {
    pub scorer_accuracy: Option<f64>,
    pub log_accuracy: Option<f64>,
    pub corrected_accuracy: Option<f64>,
    /// Verdicts on this scorer that count, by value.
    pub verdicts: BTreeMap<String, u64>,
    /// Items with a verdict on this scorer.
    pub reviewed: u64,
}

#[derive(Debug, Default, Clone, Copy)]
struct Acc {
    scorer: (f64, u64),
    log: (f64, u64),
    corrected: (f64, u64),
}

/// One scorer's value on one epoch: as the log holds it now, and corrected.
#[derive(Debug, Clone)]
struct EpochScore {
    scorer: String,
    now: serde_json::Value,
    corrected: serde_json::Value,
}

/// One sample's epoch: its id and its scores.
#[derive(Debug, Clone)]
struct EpochRow {
    id: serde_json::Value,
    epoch: u64,
    scores: Vec<EpochScore>,
}

#[derive(Debug, Default)]
pub(crate) struct Sums {
    items: u64,
    first: Option<super::sample::Sample>,
    /// Every epoch's scores, for the figures by their reducers.
    rows: Vec<EpochRow>,
    /// Scorers with an edit in the log.
    edited: std::collections::BTreeSet<String>,
    /// Sample id → scorer → its epochs' sums.
    by_sample: BTreeMap<String, BTreeMap<String, Acc>>,
    /// Scorer → verdict → how many.
    verdicts: BTreeMap<String, BTreeMap<String, u64>>,
    reviewed: BTreeMap<String, u64>,
}

/// Add a value; NaN is Inspect's unscored value, left out as Inspect leaves it out.
fn add(a: &mut (f64, u64), x: Option<f64>) {
    if let Some(x) = x.filter(|x| !x.is_nan()) {
        a.0 += x;
        a.1 += 1;
    }
}

/// The reviews of `it` as verdicts on `scorer`: the reviews themselves for the headline
/// scorer, else each review's `scorers.<scorer>` as a review of its own.
pub(crate) fn reviews_on(it: &Item, headline: &str, scorer: &str) -> IndexMap<String, Review> {
    if scorer == headline {
        return it.reviews.clone();
    }
    it.reviews
        .iter()
        .filter_map(|(who, r)| {
            let s = r.inspect.scorers.get(scorer)?;
            Some((
                who.clone(),
                Review {
                    at: s.at.clone(),
                    note: s.note.clone(),
                    verdict: s.verdict.clone(),
                    ..Review::default()
                },
            ))
        })
        .collect()
}

impl Sums {
    pub(crate) fn add(&mut self, it: &Item, resolution: &mut ResolutionCounts) {
        let Some(s) = sample(it) else { return };
        self.items += 1;
        if self.first.is_none() {
            self.first = Some(s.clone());
        }
        let verdict = resolve_verdict(&it.reviews);
        for resp in &it.responses {
            let r = resolve_response(&it.reviews, &resp.model, it.responses.len());
            resolution.add(crate::bench::kit::sums::used(&r.source, &verdict.source));
        }
        let per = self.by_sample.entry(s.id_text()).or_default();
        let mut row = EpochRow {
            id: s.sample.clone(),
            epoch: s.epoch,
            scores: Vec::new(),
        };
        for sc in &s.scores {
            let verdict = if sc.name == s.headline {
                verdict.value.clone()
            } else {
                resolve_verdict(&reviews_on(it, &s.headline, &sc.name)).value
            };
            if !sc.edits.is_empty() {
                self.edited.insert(sc.name.clone());
            }
            let raw = nonfinite::unshown(&sc.value);
            row.scores.push(EpochScore {
                scorer: sc.name.clone(),
                corrected: match verdict.as_deref().and_then(Verdict::parse) {
                    Some(Verdict::AmbiguousTarget) => edit::float(f64::NAN),
                    Some(v) => edit::value_for(v, Some(&raw)),
                    None => raw.clone(),
                },
                now: raw,
            });
            let now = to_float(&sc.value);
            if let Some(name) = &verdict {
                *self
                    .verdicts
                    .entry(sc.name.clone())
                    .or_default()
                    .entry(name.clone())
                    .or_default() += 1;
                *self.reviewed.entry(sc.name.clone()).or_default() += 1;
            }
            let a = per.entry(sc.name.clone()).or_default();
            add(&mut a.scorer, to_float(&sc.original));
            add(&mut a.log, now);
            match verdict.as_deref().and_then(Verdict::parse) {
                Some(v) => add(&mut a.corrected, v.score()),
                None => add(&mut a.corrected, now),
            }
        }
        self.rows.push(row);
    }

    pub(crate) fn merge(&mut self, mut o: Sums) {
        self.items += o.items;
        self.rows.append(&mut o.rows);
        self.edited.append(&mut o.edited);
        if self.first.is_none() {
            self.first = o.first;
        }
        for (k, scorers) in o.by_sample {
            let per = self.by_sample.entry(k).or_default();
            for (scorer, b) in scorers {
                let a = per.entry(scorer).or_default();
                for (x, y) in [
                    (&mut a.scorer, b.scorer),
                    (&mut a.log, b.log),
                    (&mut a.corrected, b.corrected),
                ] {
                    x.0 += y.0;
                    x.1 += y.1;
                }
            }
        }
        for (scorer, vs) in o.verdicts {
            let mine = self.verdicts.entry(scorer).or_default();
            for (k, n) in vs {
                *mine.entry(k).or_default() += n;
            }
        }
        for (scorer, n) in o.reviewed {
            *self.reviewed.entry(scorer).or_default() += n;
        }
    }

    pub(crate) fn finish(mut self) -> Option<InspectStats> {
        let first = self.first.take()?;
        let figures = self.figures(&first);
        // Inspect reduces each sample's epochs first, then averages the samples.
        let mean = |scorer: &str, f: fn(&Acc) -> (f64, u64)| {
            let per: Vec<f64> = self
                .by_sample
                .values()
                .filter_map(|m| m.get(scorer))
                .map(f)
                .filter(|(_, n)| *n > 0)
                .map(|(s, n)| s / n as f64)
                .collect();
            (!per.is_empty()).then(|| per.iter().sum::<f64>() / per.len() as f64)
        };
        // (the first reducer's figure of each scorer and metric)
        let mut harness: BTreeMap<String, BTreeMap<String, serde_json::Value>> = BTreeMap::new();
        for f in &first.harness {
            harness
                .entry(f.scorer.clone())
                .or_default()
                .entry(f.metric.clone())
                .or_insert_with(|| f.value.clone());
        }
        let names: std::collections::BTreeSet<&String> =
            self.by_sample.values().flat_map(|m| m.keys()).collect();
        let scorers: BTreeMap<String, ScorerFigures> = names
            .into_iter()
            .map(|name| {
                (
                    name.clone(),
                    ScorerFigures {
                        scorer_accuracy: mean(name, |a| a.scorer),
                        log_accuracy: mean(name, |a| a.log),
                        corrected_accuracy: mean(name, |a| a.corrected),
                        verdicts: self.verdicts.get(name).cloned().unwrap_or_default(),
                        reviewed: self.reviewed.get(name).copied().unwrap_or(0),
                    },
                )
            })
            .collect();
        let head = scorers.get(&first.headline).cloned().unwrap_or_default();
        Some(InspectStats {
            task: first.run.task.clone(),
            model: first.run.model.clone(),
            scorer: first.headline.clone(),
            items: self.items,
            samples: self.by_sample.len() as u64,
            harness,
            scorer_accuracy: head.scorer_accuracy,
            log_accuracy: head.log_accuracy,
            corrected_accuracy: head.corrected_accuracy,
            verdicts: head.verdicts,
            reviewed: head.reviewed,
            scorers,
            figures,
        })
    }

    /// Every figure of the log, recomputed from the values it holds and corrected by the
    /// verdicts, each by its own reducer (`recompute`, as a save recomputes it), with the
    /// epochs in the order inspect_ai reads them.
    fn figures(&mut self, first: &super::sample::Sample) -> Vec<FigureStats> {
        self.rows
            .sort_by_cached_key(|r| recompute::sample_order(&r.id, r.epoch));
        let values =
            |scorer: &str, corrected: bool| -> Vec<(serde_json::Value, serde_json::Value)> {
                self.rows
                    .iter()
                    .filter_map(|r| {
                        let s = r.scores.iter().find(|s| s.scorer == scorer)?;
                        let v = if corrected { &s.corrected } else { &s.now };
                        Some((r.id.clone(), v.clone()))
                    })
                    .collect()
            };
        let figure = |f: &super::sample::Figure, corrected: bool| -> Option<(f64, u64)> {
            let how = f.recompute.as_ref()?;
            let reducer = recompute::Reducer::parse(&how.reducer)?;
            let metric = recompute::Metric::parse(&how.metric)?;
            let reduced = recompute::reduce_all(reducer, &values(&f.scorer, corrected))?;
            let (scored, _, x) = recompute::entry_figures(&reduced, &[Some(metric)]);
            Some((x[0]?, scored as u64))
        };
        first
            .harness
            .iter()
            .map(|f| {
                let now = figure(f, false);
                let corrected = figure(f, true);
                let stale = match now {
                    Some((x, scored)) => {
                        let log = to_float(&nonfinite::unshown(&f.value));
                        let same = log.is_some_and(|l| {
                            (l.is_nan() && x.is_nan())
                                || l == x
                                || (l - x).abs() <= 1e-9 * l.abs().max(x.abs()).max(1.0)
                        });
                        let counted = f.scored_samples.is_none_or(|n| n == scored);
                        (!same || !counted).then(|| {
                            format!(
                                "the log's values give {} ({scored} samples scored): the figure was not recomputed after they changed; run inspect_ai's recompute_metrics, or save a verdict with verdict",
                                stats_text::four(Some(x))
                            )
                        })
                    }
                    None if self.edited.contains(&f.scorer) => Some(format!(
                        "verdict does not recompute {}: it may be stale after the edits of {}; run inspect_ai's recompute_metrics",
                        match &f.recompute {
                            None if f.name.as_ref().is_some_and(|n| *n != f.scorer) => {
                                "the figures of a key of a scorer's values".to_string()
                            }
                            _ => format!(
                                "reducer {} or metric {}",
                                f.reducer.as_deref().unwrap_or("(none)"),
                                f.metric
                            ),
                        },
                        f.scorer
                    )),
                    None => None,
                };
                FigureStats {
                    scorer: f.scorer.clone(),
                    name: f.name.clone().filter(|n| *n != f.scorer),
                    reducer: f.reducer.clone(),
                    metric: f.metric.clone(),
                    log: f.value.clone(),
                    scored_samples: f.scored_samples,
                    recomputed: now.map(|(x, _)| x),
                    corrected: corrected.map(|(x, _)| x),
                    corrected_scored: corrected.map(|(_, n)| n),
                    stale,
                }
            })
            .collect()
    }
}
