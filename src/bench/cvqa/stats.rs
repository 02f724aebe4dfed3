//! C-VQA's figures in `verdict stats` (docs/stats.md): accuracy per model and group,
//! after reviewer overrides, against fixed keys and exactly as the benchmark's scripts
//! compute it; the question verification verdicts.

use std::collections::BTreeMap;

use serde::Serialize;

use super::grade;
use crate::bench::Item;
use crate::bench::cvqa::fields::CvqaStatus;
use crate::bench::cvqa::resolve::resolve_verification;
use crate::bench::kit::sums::{Merge, ResolutionCounts, slot};
use crate::grade::ratio;

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct CvqaStats {
    pub items: u64,
    pub models: BTreeMap<String, CvqaModel>,
    pub verification: VerificationStats,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct CvqaModel {
    /// Per group, after reviewer overrides.
    pub groups: BTreeMap<String, AccFigures>,
    /// All groups together, after reviewer overrides.
    pub overall: AccFigures,
    /// Against reviewer-fixed counterfactual keys, rejected questions left out.
    pub fixed_key: AccFigures,
    pub fixed_key_groups: BTreeMap<String, AccFigures>,
    /// Exactly the benchmark scripts' figures: no overrides, no fixes.
    pub automatic: AutomaticFigures,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct AutomaticFigures {
    pub groups: BTreeMap<String, AccFigures>,
    pub overall: AccFigures,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct AccFigures {
    pub n: u64,
    pub original_accuracy: Option<f64>,
    pub counterfactual_accuracy: Option<f64>,
    /// original − counterfactual, as the C-VQA scripts print it (`diff(ori_acc - cf_acc)`).
    pub difference: Option<f64>,
    /// Responses the extraction rule could not read (the scripts' `"fail"`).
    pub original_failed: u64,
    pub counterfactual_failed: u64,
    /// Responses whose grade a reviewer override decided (either question).
    pub overridden: u64,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct VerificationStats {
    pub accepted: u64,
    pub fixed: u64,
    pub rejected: u64,
    /// Reasons of the resolved fix and reject verdicts.
    pub by_reason: BTreeMap<String, u64>,
    /// Items without any verification verdict.
    pub unreviewed: u64,
    /// Items whose resolved verdict says `image_related: false` / `answer_ok: false`.
    pub not_image_related: u64,
    pub answer_not_ok: u64,
    pub resolution: ResolutionCounts,
}

// ---------------------------------------------------------------------------------------
// Partial sums

#[derive(Debug, Default, Clone, Copy)]
struct AccSum {
    n: u64,
    orig: u64,
    cf: u64,
    orig_failed: u64,
    cf_failed: u64,
    overridden: u64,
}

impl Merge for AccSum {
    fn absorb(&mut self, o: Self) {
        self.n += o.n;
        self.orig += o.orig;
        self.cf += o.cf;
        self.orig_failed += o.orig_failed;
        self.cf_failed += o.cf_failed;
        self.overridden += o.overridden;
    }
}

impl AccSum {
    fn figures(&self) -> AccFigures {
        let o = ratio(self.orig, self.n);
        let c = ratio(self.cf, self.n);
        AccFigures {
            n: self.n,
            original_accuracy: o,
            counterfactual_accuracy: c,
            difference: o.zip(c).map(|(o, c)| o - c),
            original_failed: self.orig_failed,
            counterfactual_failed: self.cf_failed,
            overridden: self.overridden,
        }
    }
}

#[derive(Debug, Default)]
struct CvqaModelSum {
    groups: BTreeMap<String, AccSum>,
    fixed: BTreeMap<String, AccSum>,
    auto: BTreeMap<String, AccSum>,
}

impl Merge for CvqaModelSum {
    fn absorb(&mut self, o: Self) {
        self.groups.absorb(o.groups);
        self.fixed.absorb(o.fixed);
        self.auto.absorb(o.auto);
    }
}

/// The C-VQA items' partial sums over a block of items.
#[derive(Debug, Default)]
pub(crate) struct Sums {
    items: u64,
    models: BTreeMap<String, CvqaModelSum>,
    verification: VerificationStats,
}

impl Sums {
    pub(crate) fn merge(&mut self, o: Sums) {
        self.items += o.items;
        self.models.absorb(o.models);
        let (v, w) = (&mut self.verification, o.verification);
        v.accepted += w.accepted;
        v.fixed += w.fixed;
        v.rejected += w.rejected;
        v.by_reason.absorb(w.by_reason);
        v.unreviewed += w.unreviewed;
        v.not_image_related += w.not_image_related;
        v.answer_not_ok += w.answer_not_ok;
        v.resolution.absorb(w.resolution);
    }

    pub(crate) fn add(&mut self, it: &Item, resolution: &mut ResolutionCounts) {
        self.items += 1;
        let group = it.group.clone().unwrap_or_else(|| "(none)".into());
        let ver = resolve_verification(&it.reviews);
        let v = &mut self.verification;
        v.resolution.add(&ver.source);
        if ver.source.is_none() {
            v.unreviewed += 1;
        }
        match ver.value.status {
            Some(CvqaStatus::Accept) => v.accepted += 1,
            Some(CvqaStatus::Fix) => v.fixed += 1,
            Some(CvqaStatus::Reject) => v.rejected += 1,
            None => {}
        }
        if matches!(
            ver.value.status,
            Some(CvqaStatus::Fix) | Some(CvqaStatus::Reject)
        ) && let Some(r) = ver.value.reason
        {
            *slot(&mut v.by_reason, r.name()) += 1;
        }
        if ver.value.image_related == Some(false) {
            v.not_image_related += 1;
        }
        if ver.value.answer_ok == Some(false) {
            v.answer_not_ok += 1;
        }
        for resp in &it.responses {
            let e = grade::effective_with(it, &resp.model, ver.clone());
            // a response with no override of its own is graded under the verification
            resolution.add(crate::bench::kit::sums::used(&e.human.source, &ver.source));
            let m = slot(&mut self.models, &resp.model);
            let g = slot(&mut m.groups, &group);
            g.n += 1;
            g.orig += e.original_correct as u64;
            g.cf += e.counterfactual_correct as u64;
            g.orig_failed += e.original.parsed.is_none() as u64;
            g.cf_failed += e.counterfactual.parsed.is_none() as u64;
            g.overridden += (e.original_overridden || e.counterfactual_overridden) as u64;
            let a = slot(&mut m.auto, &group);
            a.n += 1;
            a.orig += e.original.correct as u64;
            a.cf += e.counterfactual.correct as u64;
            a.orig_failed += e.original.parsed.is_none() as u64;
            a.cf_failed += e.counterfactual.parsed.is_none() as u64;
            if let Some(cf) = e.counterfactual_fixed_correct {
                let f = slot(&mut m.fixed, &group);
                f.n += 1;
                f.orig += e.original_correct as u64;
                f.cf += cf as u64;
                f.orig_failed += e.original.parsed.is_none() as u64;
                f.cf_failed += e.counterfactual.parsed.is_none() as u64;
                f.overridden += (e.original_overridden || e.counterfactual_overridden) as u64;
            }
        }
    }

    /// The figures, when the file has C-VQA items.
    pub(crate) fn finish(self) -> Option<CvqaStats> {
        if self.items == 0 {
            return None;
        }
        let models = self
            .models
            .into_iter()
            .map(|(name, m)| {
                let total = |g: &BTreeMap<String, AccSum>| {
                    let mut t = AccSum::default();
                    for s in g.values() {
                        t.absorb(*s);
                    }
                    t.figures()
                };
                let figs = |g: &BTreeMap<String, AccSum>| {
                    g.iter()
                        .map(|(k, s)| (k.clone(), s.figures()))
                        .collect::<BTreeMap<_, _>>()
                };
                let model = CvqaModel {
                    groups: figs(&m.groups),
                    overall: total(&m.groups),
                    fixed_key: total(&m.fixed),
                    fixed_key_groups: figs(&m.fixed),
                    automatic: AutomaticFigures {
                        groups: figs(&m.auto),
                        overall: total(&m.auto),
                    },
                };
                (name, model)
            })
            .collect();
        Some(CvqaStats {
            items: self.items,
            models,
            verification: self.verification,
        })
    }
}
