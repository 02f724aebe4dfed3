//! CharToM-QA's figures in `verdict stats` (docs/stats.md): bonus-point coverage (BPC)
//! and penalty rate (PR) per model and dimension, from the LLM judge and from humans;
//! choice accuracy where the item has a key.

use std::collections::BTreeMap;

use serde::Serialize;

use super::grade::{self, BpcPr};
use crate::bench::Item;
use crate::bench::kit::sums::{Merge, ResolutionCounts, slot};
use crate::grade::ratio;

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct QaStats {
    pub items: u64,
    pub models: BTreeMap<String, QaModel>,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct QaModel {
    pub judge: QaFigures,
    pub human: QaFigures,
    pub dimensions: BTreeMap<String, QaDimension>,
    /// `choice` vs the item's `key`, where both exist.
    pub choice_accuracy: Option<f64>,
    pub choice_n: u64,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct QaDimension {
    pub judge: QaFigures,
    pub human: QaFigures,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct QaFigures {
    pub bpc: Option<f64>,
    pub pr: Option<f64>,
    /// Responses graded for a penalty (the PR's denominator).
    pub n: u64,
    pub covered: u64,
    pub points: u64,
    pub penalized: u64,
    /// Judge only: bonus lists that could not be parsed (left out of the BPC).
    pub unparsable: u64,
}

impl From<&BpcPr> for QaFigures {
    fn from(s: &BpcPr) -> QaFigures {
        QaFigures {
            bpc: s.bpc(),
            pr: s.pr(),
            n: s.responses,
            covered: s.covered,
            points: s.points,
            penalized: s.penalized,
            unparsable: s.unparsable,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Partial sums

impl Merge for BpcPr {
    fn absorb(&mut self, o: Self) {
        BpcPr::merge(self, &o);
    }
}

#[derive(Debug, Default)]
struct QaModelSum {
    judge: BpcPr,
    human: BpcPr,
    dims: BTreeMap<String, (BpcPr, BpcPr)>,
    choice_n: u64,
    choice_correct: u64,
}

impl Merge for (BpcPr, BpcPr) {
    fn absorb(&mut self, o: Self) {
        self.0.merge(&o.0);
        self.1.merge(&o.1);
    }
}

impl Merge for QaModelSum {
    fn absorb(&mut self, o: Self) {
        self.judge.merge(&o.judge);
        self.human.merge(&o.human);
        self.dims.absorb(o.dims);
        self.choice_n += o.choice_n;
        self.choice_correct += o.choice_correct;
    }
}

/// The CharToM-QA items' partial sums over a block of items.
#[derive(Debug, Default)]
pub(crate) struct Sums {
    items: u64,
    models: BTreeMap<String, QaModelSum>,
}

impl Sums {
    pub(crate) fn merge(&mut self, o: Sums) {
        self.items += o.items;
        self.models.absorb(o.models);
    }

    pub(crate) fn add(&mut self, it: &Item, resolution: &mut ResolutionCounts) {
        self.items += 1;
        let dim = it.dimension.clone().unwrap_or_else(|| "(none)".into());
        for resp in &it.responses {
            let e = grade::effective(it, &resp.model);
            resolution.add(&e.human.source);
            let m = slot(&mut self.models, &resp.model);
            let d = slot(&mut m.dims, &dim);
            if let Some(j) = &e.judge {
                m.judge.add(j.covered, j.n_points, j.penalty.is_some());
                d.0.add(j.covered, j.n_points, j.penalty.is_some());
            }
            if let Some(h) = &e.human_grade {
                m.human.add_human(h);
                d.1.add_human(h);
            }
            if let Some(c) = e.choice_correct {
                m.choice_n += 1;
                m.choice_correct += c as u64;
            }
        }
    }

    /// The figures, when the file has CharToM-QA items.
    pub(crate) fn finish(self) -> Option<QaStats> {
        if self.items == 0 {
            return None;
        }
        let models = self
            .models
            .into_iter()
            .map(|(name, m)| {
                let model = QaModel {
                    judge: (&m.judge).into(),
                    human: (&m.human).into(),
                    dimensions: m
                        .dims
                        .iter()
                        .map(|(d, (j, h))| {
                            (
                                d.clone(),
                                QaDimension {
                                    judge: j.into(),
                                    human: h.into(),
                                },
                            )
                        })
                        .collect(),
                    choice_accuracy: ratio(m.choice_correct, m.choice_n),
                    choice_n: m.choice_n,
                };
                (name, model)
            })
            .collect();
        Some(QaStats {
            items: self.items,
            models,
        })
    }
}
