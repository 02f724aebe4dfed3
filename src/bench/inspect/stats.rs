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
use crate::bench::kit::sums::ResolutionCounts;
use crate::bench::resolve::{resolve_response, resolve_verdict};

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
    by_sample: BTreeMap<String, Acc>,
    verdicts: BTreeMap<String, u64>,
    reviewed: u64,
}

fn add(a: &mut (f64, u64), x: Option<f64>) {
    if let Some(x) = x {
        a.0 += x;
        a.1 += 1;
    }
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
        let h = s.headline_score();
        let now = h.and_then(|h| to_float(&h.value));
        let v = verdict.value.as_deref().and_then(Verdict::parse);
        if let Some(name) = &verdict.value {
            *self.verdicts.entry(name.clone()).or_default() += 1;
            self.reviewed += 1;
        }
        let a = self.by_sample.entry(s.id_text()).or_default();
        add(&mut a.scorer, h.and_then(|h| to_float(&h.original)));
        add(&mut a.log, now);
        match v {
            Some(v) => add(&mut a.corrected, v.score()),
            None => add(&mut a.corrected, now),
        }
    }

    pub(crate) fn merge(&mut self, o: Sums) {
        self.items += o.items;
        if self.first.is_none() {
            self.first = o.first;
        }
        for (k, b) in o.by_sample {
            let a = self.by_sample.entry(k).or_default();
            for (x, y) in [
                (&mut a.scorer, b.scorer),
                (&mut a.log, b.log),
                (&mut a.corrected, b.corrected),
            ] {
                x.0 += y.0;
                x.1 += y.1;
            }
        }
        for (k, n) in o.verdicts {
            *self.verdicts.entry(k).or_default() += n;
        }
        self.reviewed += o.reviewed;
    }

    pub(crate) fn finish(self) -> Option<InspectStats> {
        let first = self.first?;
        let mean = |f: fn(&Acc) -> (f64, u64)| {
            let per: Vec<f64> = self
                .by_sample
                .values()
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
        let corrected_accuracy = mean(|a| a.corrected);
        Some(InspectStats {
            task: first.run.task.clone(),
            model: first.run.model.clone(),
            scorer: first.headline.clone(),
            items: self.items,
            samples: self.by_sample.len() as u64,
            harness,
            scorer_accuracy: mean(|a| a.scorer),
            log_accuracy: mean(|a| a.log),
            corrected_accuracy,
            verdicts: self.verdicts,
            reviewed: self.reviewed,
        })
    }
}
