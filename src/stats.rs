//! The papers' figures for a result set (`verdict stats`), per benchmark and model, plus
//! review progress per reviewer. The JSON shape is a stable contract, documented in
//! `docs/stats.md`; every figure there names its formula.
//!
//! [`compute`] parses every item once (typed, [`crate::store::Store::item`]) on every
//! core, adds each block of items into partial sums, merges the sums in file order (so the
//! figures do not depend on the number of cores) and only then turns them into fractions.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::grade::chartom::{self, hmi_from_fact};
use crate::grade::chartom_qa::{self, BpcPr};
use crate::grade::resolve::{Source, resolve_verification};
use crate::grade::{cvqa, ratio};
use crate::model::{Benchmark, CvqaStatus, FactFormat, Item, JustificationGrade};
use crate::store::Store;

// ---------------------------------------------------------------------------------------
// The document

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Stats {
    /// Items in the file, readable or not.
    pub items: u64,
    /// Items that could not be parsed (left out of every figure).
    pub unreadable: u64,
    pub benchmarks: Benchmarks,
    /// Review progress per reviewer.
    pub reviews: BTreeMap<String, ReviewerStats>,
    /// How the human grades of item × model responses were resolved.
    pub resolution: ResolutionCounts,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Benchmarks {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cvqa: Option<CvqaStats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chartom: Option<ChartomStats>,
    #[serde(rename = "chartom-qa", skip_serializing_if = "Option::is_none")]
    pub chartom_qa: Option<QaStats>,
    /// Items of unknown benchmarks: how many, and their free verdicts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other: Option<OtherStats>,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct ResolutionCounts {
    #[serde(rename = "final")]
    pub final_: u64,
    pub majority: u64,
    pub single: u64,
    pub none: u64,
}

impl ResolutionCounts {
    fn add(&mut self, s: &Source) {
        match s {
            Source::Final { .. } => self.final_ += 1,
            Source::Majority { .. } => self.majority += 1,
            Source::Single { .. } => self.single += 1,
            Source::None => self.none += 1,
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct ReviewerStats {
    /// Items carrying a review by this reviewer.
    pub reviewed: u64,
    /// Of which done: every required grade given (`review::item_done`, docs/format.md).
    pub done: u64,
    /// Of which adjudicated (`"final": true`).
    #[serde(rename = "final")]
    pub final_: u64,
    pub by_benchmark: BTreeMap<String, u64>,
    /// Σ `seconds` of the reviews (time spent, when recorded).
    pub seconds: f64,
}

// C-VQA

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

// CHARTOM

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct ChartomStats {
    pub items: u64,
    pub models: BTreeMap<String, ChartomModel>,
    /// One entry per chart (item), in file order.
    pub charts: Vec<ChartStat>,
    /// Charts whose FACT key the human answers put in doubt
    /// ([`chartom::suspect_key`]), in file order.
    pub suspect_keys: Vec<SuspectKey>,
}

/// A chart with a suspect answer key.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SuspectKey {
    pub id: String,
    pub pair: Option<String>,
    pub version: Option<String>,
    pub format: Option<String>,
    #[serde(flatten)]
    pub suspicion: chartom::Suspicion,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct ChartomModel {
    /// Responses to items with a usable FACT key.
    pub n: u64,
    /// After overrides.
    pub fact_accuracy: Option<f64>,
    /// Without overrides.
    pub fact_accuracy_automatic: Option<f64>,
    pub fact_unparsable: u64,
    pub fact_overridden: u64,
    pub mind_mse: Option<f64>,
    /// Responses with a MIND answer on an item with an HMI.
    pub mind_n: u64,
    pub by_type: BTreeMap<String, ChartomFigures>,
    pub by_version: BTreeMap<String, ChartomFigures>,
    /// type → version → figures.
    pub by_type_version: BTreeMap<String, BTreeMap<String, ChartomFigures>>,
    pub justification: JustificationCounts,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct ChartomFigures {
    pub n: u64,
    pub fact_accuracy: Option<f64>,
    pub mind_n: u64,
    pub mind_mse: Option<f64>,
}

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct JustificationCounts {
    pub identifies: u64,
    pub partial: u64,
    pub misses: u64,
    pub ungraded: u64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ChartStat {
    pub id: String,
    pub pair: Option<String>,
    #[serde(rename = "type")]
    pub chart_type: Option<String>,
    pub version: Option<String>,
    /// The FACT format (`choice`, `rank`, `number`).
    pub format: Option<String>,
    /// `mind.hmi` as given in the file.
    pub hmi: Option<f64>,
    /// Recomputed from `fact.human_answers`.
    pub hmi_recomputed: Option<f64>,
    /// The acceptable interval [low, high]; null = −∞ / +∞ (or not a number question).
    pub interval: (Option<f64>, Option<f64>),
    pub n_answers: u64,
    pub n_not_acceptable: u64,
}

// CharToM-QA

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

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct OtherStats {
    pub items: u64,
    /// Resolved free verdicts: verdict → items (the most recent reviewer's verdict).
    pub verdicts: BTreeMap<String, u64>,
}

// ---------------------------------------------------------------------------------------
// Partial sums

trait Merge {
    fn absorb(&mut self, o: Self);
}

impl<K: Ord, V: Merge + Default> Merge for BTreeMap<K, V> {
    fn absorb(&mut self, o: Self) {
        for (k, v) in o {
            self.entry(k).or_default().absorb(v);
        }
    }
}

impl Merge for u64 {
    fn absorb(&mut self, o: Self) {
        *self += o;
    }
}

impl Merge for BpcPr {
    fn absorb(&mut self, o: Self) {
        BpcPr::merge(self, &o);
    }
}

impl Merge for ResolutionCounts {
    fn absorb(&mut self, o: Self) {
        self.final_ += o.final_;
        self.majority += o.majority;
        self.single += o.single;
        self.none += o.none;
    }
}

impl Merge for ReviewerStats {
    fn absorb(&mut self, o: Self) {
        self.reviewed += o.reviewed;
        self.done += o.done;
        self.final_ += o.final_;
        self.by_benchmark.absorb(o.by_benchmark);
        self.seconds += o.seconds;
    }
}

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

#[derive(Debug, Default, Clone, Copy)]
struct FactSum {
    n: u64,
    correct: u64,
    auto_correct: u64,
    unparsable: u64,
    overridden: u64,
    mind_n: u64,
    mind_sq: f64,
}

impl Merge for FactSum {
    fn absorb(&mut self, o: Self) {
        self.n += o.n;
        self.correct += o.correct;
        self.auto_correct += o.auto_correct;
        self.unparsable += o.unparsable;
        self.overridden += o.overridden;
        self.mind_n += o.mind_n;
        self.mind_sq += o.mind_sq;
    }
}

impl FactSum {
    fn figures(&self) -> ChartomFigures {
        ChartomFigures {
            n: self.n,
            fact_accuracy: ratio(self.correct, self.n),
            mind_n: self.mind_n,
            mind_mse: (self.mind_n > 0).then(|| self.mind_sq / self.mind_n as f64),
        }
    }
}

#[derive(Debug, Default)]
struct ChartomModelSum {
    all: FactSum,
    by_type: BTreeMap<String, FactSum>,
    by_version: BTreeMap<String, FactSum>,
    by_type_version: BTreeMap<String, BTreeMap<String, FactSum>>,
    justification: [u64; 4],
}

impl Merge for ChartomModelSum {
    fn absorb(&mut self, o: Self) {
        self.all.absorb(o.all);
        self.by_type.absorb(o.by_type);
        self.by_version.absorb(o.by_version);
        self.by_type_version.absorb(o.by_type_version);
        for (a, b) in self.justification.iter_mut().zip(o.justification) {
            *a += b;
        }
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

#[derive(Debug, Default)]
struct Sums {
    items: u64,
    unreadable: u64,
    reviews: BTreeMap<String, ReviewerStats>,
    resolution: ResolutionCounts,
    // C-VQA
    cvqa_items: u64,
    cvqa: BTreeMap<String, CvqaModelSum>,
    verification: VerificationStats,
    // CHARTOM
    chartom_items: u64,
    chartom: BTreeMap<String, ChartomModelSum>,
    charts: Vec<ChartStat>,
    suspect_keys: Vec<SuspectKey>,
    // CharToM-QA
    qa_items: u64,
    qa: BTreeMap<String, QaModelSum>,
    // other
    other_items: u64,
    other_verdicts: BTreeMap<String, u64>,
}

impl Sums {
    fn merge(&mut self, o: Sums) {
        self.items += o.items;
        self.unreadable += o.unreadable;
        self.reviews.absorb(o.reviews);
        self.resolution.absorb(o.resolution);
        self.cvqa_items += o.cvqa_items;
        self.cvqa.absorb(o.cvqa);
        let (v, w) = (&mut self.verification, o.verification);
        v.accepted += w.accepted;
        v.fixed += w.fixed;
        v.rejected += w.rejected;
        v.by_reason.absorb(w.by_reason);
        v.unreviewed += w.unreviewed;
        v.not_image_related += w.not_image_related;
        v.answer_not_ok += w.answer_not_ok;
        v.resolution.absorb(w.resolution);
        self.chartom_items += o.chartom_items;
        self.chartom.absorb(o.chartom);
        self.charts.extend(o.charts);
        self.suspect_keys.extend(o.suspect_keys);
        self.qa_items += o.qa_items;
        self.qa.absorb(o.qa);
        self.other_items += o.other_items;
        self.other_verdicts.absorb(o.other_verdicts);
    }

    fn add(&mut self, store: &Store, i: usize, it: &Item) {
        let bench = it.benchmark();
        for (name, r) in &it.reviews {
            let s = slot(&mut self.reviews, name);
            s.reviewed += 1;
            if crate::review::item_done(it, Some(r)) {
                s.done += 1;
            }
            if r.is_final == Some(true) {
                s.final_ += 1;
            }
            *slot(&mut s.by_benchmark, bench.name()) += 1;
            s.seconds += r.seconds.unwrap_or(0.0);
        }
        match bench {
            Benchmark::Cvqa => self.add_cvqa(it),
            Benchmark::Chartom => self.add_chartom(store, i, it),
            Benchmark::ChartomQa => self.add_qa(it),
            Benchmark::Other => self.add_other(it),
        }
    }

    fn add_cvqa(&mut self, it: &Item) {
        self.cvqa_items += 1;
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
            let e = cvqa::effective_with(it, &resp.model, ver.clone());
            self.resolution.add(&e.human.source);
            let m = slot(&mut self.cvqa, &resp.model);
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

    fn add_chartom(&mut self, store: &Store, i: usize, it: &Item) {
        self.chartom_items += 1;
        let chart = it.chart.as_ref();
        let ctype = chart
            .and_then(|c| c.chart_type.clone())
            .unwrap_or_else(|| "(none)".into());
        let version = chart
            .and_then(|c| c.version)
            .map(|v| v.name().to_string())
            .unwrap_or_else(|| "(none)".into());
        let recomputed = it.fact.as_ref().and_then(hmi_from_fact);
        let id = it.id.clone().unwrap_or_else(|| store.fallback_id(i));
        let pair = chart.and_then(|c| c.pair.clone());
        let version_name = chart.and_then(|c| c.version).map(|v| v.name().to_string());
        let format = it
            .fact
            .as_ref()
            .and_then(chartom::fact_format)
            .map(|f| fact_format_name(f).to_string());
        if let Some(suspicion) = chartom::suspect_key(it) {
            self.suspect_keys.push(SuspectKey {
                id: id.clone(),
                pair: pair.clone(),
                version: version_name.clone(),
                format: format.clone(),
                suspicion,
            });
        }
        self.charts.push(ChartStat {
            id,
            pair,
            chart_type: chart.and_then(|c| c.chart_type.clone()),
            version: version_name,
            format,
            hmi: it.mind.map(|m| m.hmi),
            hmi_recomputed: recomputed.as_ref().map(|h| h.hmi),
            interval: recomputed
                .as_ref()
                .map(|h| h.interval)
                .unwrap_or((None, None)),
            n_answers: recomputed.as_ref().map_or(0, |h| h.n_answers),
            n_not_acceptable: recomputed.as_ref().map_or(0, |h| h.n_not_acceptable),
        });
        let hmi = it.mind.map(|m| m.hmi).or(recomputed.map(|h| h.hmi));
        for resp in &it.responses {
            let e = chartom::effective(it, &resp.model);
            self.resolution.add(&e.human.source);
            let mut one = FactSum::default();
            if let Some(auto) = e.fact.correct {
                one.n = 1;
                one.auto_correct = auto as u64;
                one.correct = e.fact_correct.unwrap_or(auto) as u64;
                one.unparsable = e.fact.parsed.is_none() as u64;
                one.overridden = e.overridden as u64;
            } else if let Some(c) = e.fact_correct {
                // no usable key, but a reviewer graded the answer
                one.n = 1;
                one.correct = c as u64;
                one.overridden = 1;
            }
            if let (Some(m), Some(h)) = (e.mind, hmi) {
                one.mind_n = 1;
                one.mind_sq = chartom::squared_error(m, h);
            }
            let m = slot(&mut self.chartom, &resp.model);
            m.all.absorb(one);
            slot(&mut m.by_type, &ctype).absorb(one);
            slot(&mut m.by_version, &version).absorb(one);
            slot(slot(&mut m.by_type_version, &ctype), &version).absorb(one);
            let slot = match e.justification {
                Some(JustificationGrade::Identifies) => 0,
                Some(JustificationGrade::Partial) => 1,
                Some(JustificationGrade::Misses) => 2,
                None => 3,
            };
            m.justification[slot] += 1;
        }
    }

    fn add_qa(&mut self, it: &Item) {
        self.qa_items += 1;
        let dim = it.dimension.clone().unwrap_or_else(|| "(none)".into());
        for resp in &it.responses {
            let e = chartom_qa::effective(it, &resp.model);
            self.resolution.add(&e.human.source);
            let m = slot(&mut self.qa, &resp.model);
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

    fn add_other(&mut self, it: &Item) {
        self.other_items += 1;
        for resp in &it.responses {
            let r = crate::grade::resolve::resolve_response(
                &it.reviews,
                &resp.model,
                it.responses.len(),
            );
            self.resolution.add(&r.source);
        }
        // the free verdict that counts (final, single, majority: as every grade)
        if let Some(v) = crate::grade::resolve::resolve_verdict(&it.reviews).value {
            *self.other_verdicts.entry(v).or_default() += 1;
        }
    }

    fn finish(self) -> Stats {
        let mut b = Benchmarks::default();
        if self.cvqa_items > 0 {
            let models = self
                .cvqa
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
            b.cvqa = Some(CvqaStats {
                items: self.cvqa_items,
                models,
                verification: self.verification,
            });
        }
        if self.chartom_items > 0 {
            let models = self
                .chartom
                .into_iter()
                .map(|(name, m)| {
                    let all = m.all.figures();
                    let j = m.justification;
                    let model = ChartomModel {
                        n: m.all.n,
                        fact_accuracy: all.fact_accuracy,
                        fact_accuracy_automatic: ratio(m.all.auto_correct, m.all.n),
                        fact_unparsable: m.all.unparsable,
                        fact_overridden: m.all.overridden,
                        mind_mse: all.mind_mse,
                        mind_n: all.mind_n,
                        by_type: m
                            .by_type
                            .iter()
                            .map(|(k, s)| (k.clone(), s.figures()))
                            .collect(),
                        by_version: m
                            .by_version
                            .iter()
                            .map(|(k, s)| (k.clone(), s.figures()))
                            .collect(),
                        by_type_version: m
                            .by_type_version
                            .iter()
                            .map(|(t, vs)| {
                                (
                                    t.clone(),
                                    vs.iter().map(|(v, s)| (v.clone(), s.figures())).collect(),
                                )
                            })
                            .collect(),
                        justification: JustificationCounts {
                            identifies: j[0],
                            partial: j[1],
                            misses: j[2],
                            ungraded: j[3],
                        },
                    };
                    (name, model)
                })
                .collect();
            b.chartom = Some(ChartomStats {
                items: self.chartom_items,
                models,
                charts: self.charts,
                suspect_keys: self.suspect_keys,
            });
        }
        if self.qa_items > 0 {
            let models = self
                .qa
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
            b.chartom_qa = Some(QaStats {
                items: self.qa_items,
                models,
            });
        }
        if self.other_items > 0 {
            b.other = Some(OtherStats {
                items: self.other_items,
                verdicts: self.other_verdicts,
            });
        }
        Stats {
            items: self.items,
            unreadable: self.unreadable,
            benchmarks: b,
            reviews: self.reviews,
            resolution: self.resolution,
        }
    }
}

/// `map[key]`, inserted as default when missing (the key is cloned only then).
fn slot<'a, V: Default>(map: &'a mut BTreeMap<String, V>, key: &str) -> &'a mut V {
    if !map.contains_key(key) {
        map.insert(key.to_string(), V::default());
    }
    map.get_mut(key).expect("inserted above")
}

fn fact_format_name(f: FactFormat) -> &'static str {
    match f {
        FactFormat::Choice => "choice",
        FactFormat::Rank => "rank",
        FactFormat::Number => "number",
    }
}

fn sum_range(store: &Store, range: std::ops::Range<usize>) -> Sums {
    let mut s = Sums::default();
    for i in range {
        s.items += 1;
        match store.item(i) {
            Ok(it) => s.add(store, i, &it),
            Err(_) => s.unreadable += 1,
        }
    }
    s
}

/// Every figure of the result set. Items that fail to parse are counted in `unreadable`
/// and left out of the figures.
pub fn compute(store: &Store) -> Stats {
    let threads = std::thread::available_parallelism()
        .map(|t| t.get())
        .unwrap_or(1)
        .min(64);
    compute_with(store, threads)
}

/// Items summed one after the other before partial sums are merged. Floating-point sums
/// depend on their order; summing fixed blocks and merging them in file order makes every
/// figure the same whatever the number of threads (down to the last digit).
const BLOCK: usize = 8192;

/// [`compute`] with the work split over `threads` threads. The result does not depend on
/// `threads`.
pub fn compute_with(store: &Store, threads: usize) -> Stats {
    let n = store.len();
    let blocks = n.div_ceil(BLOCK).max(1);
    let block = |b: usize| sum_range(store, (b * BLOCK).min(n)..((b + 1) * BLOCK).min(n));
    let threads = threads.clamp(1, blocks);
    let mut parts: Vec<(usize, Sums)> = if threads < 2 {
        (0..blocks).map(|b| (b, block(b))).collect()
    } else {
        let next = std::sync::atomic::AtomicUsize::new(0);
        let work = || {
            let mut out = Vec::new();
            loop {
                let b = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if b >= blocks {
                    return out;
                }
                out.push((b, block(b)));
            }
        };
        std::thread::scope(|s| {
            let handles: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
            let mut parts = work();
            for h in handles {
                parts.extend(h.join().expect("stats worker panicked"));
            }
            parts
        })
    };
    parts.sort_by_key(|(b, _)| *b);
    let mut parts = parts.into_iter().map(|(_, s)| s);
    let mut a = parts.next().expect("one block at least");
    for b in parts {
        a.merge(b);
    }
    a.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Format;

    fn store(lines: &[&str]) -> Store {
        Store::from_bytes(
            "t.jsonl".into(),
            Format::Jsonl,
            lines.join("\n").into_bytes(),
        )
        .unwrap()
    }

    #[test]
    fn cvqa_figures() {
        let s = store(&[
            r#"{"id":"1","benchmark":"cvqa","split":"real","group":"direct","original":{"question":"q","answer":"2"},"counterfactual":{"question":"q","answer":"3"},"responses":[{"model":"m","original":"2","counterfactual":"3"}]}"#,
            r#"{"id":"2","benchmark":"cvqa","split":"real","group":"direct","original":{"question":"q","answer":"2"},"counterfactual":{"question":"q","answer":"3"},"responses":[{"model":"m","original":"two","counterfactual":"4"}],
               "reviews":{"a":{"at":"2026-01-01T00:00:00Z","status":"fix","fixed_answer":"4","reason":"wrong-answer"}}}"#
                .replace('\n', " ")
                .as_str(),
            r#"{"id":"3","benchmark":"cvqa","split":"real","group":"boolean","original":{"question":"q","answer":"yes"},"counterfactual":{"question":"q","answer":"no"},"responses":[{"model":"m","original":"Yes","counterfactual":"hmm"}],"reviews":{"a":{"at":"2026-01-01T00:00:00Z","status":"reject","reason":"ambiguous","counterfactual_correct":true}}}"#,
            "{broken",
        ]);
        let st = compute(&s);
        assert_eq!((st.items, st.unreadable), (4, 1));
        let c = st.benchmarks.cvqa.as_ref().unwrap();
        let m = &c.models["m"];
        let d = &m.groups["direct"];
        // direct: original 2/2, counterfactual 1/2, difference 0.5
        assert_eq!(d.n, 2);
        assert_eq!(d.original_accuracy, Some(1.0));
        assert_eq!(d.counterfactual_accuracy, Some(0.5));
        assert_eq!(d.difference, Some(0.5));
        // boolean: cf "hmm" failed but overridden correct
        let b = &m.groups["boolean"];
        assert_eq!(b.counterfactual_accuracy, Some(1.0));
        assert_eq!((b.counterfactual_failed, b.overridden), (1, 1));
        assert_eq!(
            m.automatic.groups["boolean"].counterfactual_accuracy,
            Some(0.0)
        );
        // overall: original 3/3, cf 2/3
        assert_eq!(m.overall.n, 3);
        assert_eq!(m.overall.counterfactual_accuracy, Some(2.0 / 3.0));
        // fixed key: item 3 rejected, left out; item 2's key is now 4 -> 2/2
        assert_eq!(m.fixed_key.n, 2);
        assert_eq!(m.fixed_key.counterfactual_accuracy, Some(1.0));
        let v = &c.verification;
        assert_eq!(
            (v.accepted, v.fixed, v.rejected, v.unreviewed),
            (0, 1, 1, 1)
        );
        assert_eq!(v.by_reason["wrong-answer"], 1);
        assert_eq!(st.reviews["a"].reviewed, 2);
        assert_eq!(st.reviews["a"].done, 2);
        assert!(st.benchmarks.chartom.is_none());
        let json = serde_json::to_value(&st).unwrap();
        assert!(json["benchmarks"].get("chartom").is_none());
        assert_eq!(json["resolution"]["single"], 1);
        assert_eq!(json["resolution"]["none"], 2);
    }

    #[test]
    fn progress_counts_done_items_not_partial_ones() {
        let s = store(&[
            r#"{"id":"1","benchmark":"chartom","responses":[{"model":"a","justification":"j"},{"model":"b","justification":"j"}],"reviews":{"r":{"models":{"a":{"justification":"misses"}}},"q":{"note":"later"}}}"#,
            r#"{"id":"2","benchmark":"chartom","responses":[{"model":"a","justification":"j"},{"model":"b","justification":"j"}],"reviews":{"r":{"models":{"a":{"justification":"misses"},"b":{"justification":"partial"}}}}}"#,
        ]);
        let st = compute(&s);
        assert_eq!((st.reviews["r"].reviewed, st.reviews["r"].done), (2, 1));
        assert_eq!((st.reviews["q"].reviewed, st.reviews["q"].done), (1, 0));
    }

    #[test]
    fn threads_agree_with_one() {
        let line = r#"{"benchmark":"chartom","chart":{"pair":"P","version":"original","type":"bar"},"fact":{"format":"number","key":10},"mind":{"hmi":0.5},"responses":[{"model":"m","fact":"10","mind":0.25}]}"#;
        let bad = r#"{"benchmark":"chartom","chart":{"pair":"P","version":"manipulated","type":"bar"},"fact":{"format":"number","key":10},"mind":{"hmi":0.5},"responses":[{"model":"m","fact":"20","mind":0.75}]}"#;
        let mut lines = Vec::new();
        for k in 0..3000 {
            lines.push(if k % 3 == 0 { bad } else { line });
        }
        let st = compute(&store(&lines));
        let c = st.benchmarks.chartom.unwrap();
        let m = &c.models["m"];
        assert_eq!(m.n, 3000);
        assert_eq!(m.fact_accuracy, Some(2.0 / 3.0));
        assert_eq!(m.mind_mse, Some(0.0625));
        assert_eq!(m.by_version["manipulated"].fact_accuracy, Some(0.0));
        assert_eq!(m.by_type_version["bar"]["original"].n, 2000);
        assert_eq!(c.charts.len(), 3000);
        assert_eq!(c.charts[0].id, "#1");
        assert_eq!(c.charts[2999].id, "#3000");
    }
}
