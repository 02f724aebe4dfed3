//! The figures of an Inspect log in `verdict stats` (docs/stats.md): the log's own
//! figures (`results` of its header), and the headline scorer's accuracy three ways: as
//! the scorer gave it (each score's original value), as the log says now, and corrected
//! by the reviewers' verdicts (`correct` 1, `incorrect` 0, `ambiguous-target` left out,
//! an unreviewed epoch keeps its value). As Inspect reduces epochs, each sample's epochs
//! are averaged first, then the samples.

use std::collections::BTreeMap;

use serde::Serialize;

use super::Verdict;
use super::edit::to_float;
use super::spec::sample;
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

#[derive(Debug, Default)]
pub(crate) struct Sums {
    items: u64,
    first: Option<super::sample::Sample>,
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
fn reviews_on(it: &Item, headline: &str, scorer: &str) -> IndexMap<String, Review> {
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
        for sc in &s.scores {
            let verdict = if sc.name == s.headline {
                verdict.value.clone()
            } else {
                resolve_verdict(&reviews_on(it, &s.headline, &sc.name)).value
            };
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
    }

    pub(crate) fn merge(&mut self, o: Sums) {
        self.items += o.items;
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
        let mut harness: BTreeMap<String, BTreeMap<String, serde_json::Value>> = BTreeMap::new();
        for f in &first.harness {
            harness
                .entry(f.scorer.clone())
                .or_default()
                .insert(f.metric.clone(), f.value.clone());
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
        })
    }
}
