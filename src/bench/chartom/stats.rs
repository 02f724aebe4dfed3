//! CHARTOM's figures in `verdict stats` (docs/stats.md): FACT accuracy and MIND squared
//! error per model, chart type and version; justification grades; one entry per chart
//! with its recomputed HMI; the charts whose answer key the human answers put in doubt.

use crate::bench::Items;
use std::collections::BTreeMap;

use serde::Serialize;

use super::grade::{self, hmi_from_fact};
use crate::bench::Item;
use crate::bench::chartom::fields::JustificationGrade;
use crate::bench::kit::sums::{Merge, ResolutionCounts, slot};
use crate::grade::ratio;
use crate::store::Store;

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct ChartomStats {
    pub items: u64,
    pub models: BTreeMap<String, ChartomModel>,
    /// One entry per chart (item), in file order.
    pub charts: Vec<ChartStat>,
    /// Charts whose FACT key the human answers put in doubt
    /// ([`grade::suspect_key`]), in file order.
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
    pub suspicion: grade::Suspicion,
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

// ---------------------------------------------------------------------------------------
// Partial sums

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

/// The CHARTOM items' partial sums over a block of items.
#[derive(Debug, Default)]
pub(crate) struct Sums {
    items: u64,
    models: BTreeMap<String, ChartomModelSum>,
    charts: Vec<ChartStat>,
    suspect_keys: Vec<SuspectKey>,
}

impl Sums {
    pub(crate) fn merge(&mut self, o: Sums) {
        self.items += o.items;
        self.models.absorb(o.models);
        self.charts.extend(o.charts);
        self.suspect_keys.extend(o.suspect_keys);
    }

    pub(crate) fn add(
        &mut self,
        store: &Store,
        i: usize,
        it: &Item,
        resolution: &mut ResolutionCounts,
    ) {
        self.items += 1;
        let chart = it.chart.as_ref();
        let ctype = chart
            .and_then(|c| c.chart_type.clone())
            .unwrap_or_else(|| "(none)".into());
        let version = chart
            .and_then(|c| c.version)
            .map(|v| v.name().to_string())
            .unwrap_or_else(|| "(none)".into());
        let recomputed = it.fact.as_deref().and_then(hmi_from_fact);
        self.add_chart(store, i, it, recomputed.as_ref());
        let hmi = grade::mind_target(it, recomputed.map(|h| h.hmi));
        for resp in &it.responses {
            let e = grade::effective(it, &resp.model);
            resolution.add(&e.human.source);
            let one = fact_sum(&e, hmi);
            let m = slot(&mut self.models, &resp.model);
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

    /// The chart's line of the HMI table, and its suspect key if it has one.
    fn add_chart(&mut self, store: &Store, i: usize, it: &Item, recomputed: Option<&grade::Hmi>) {
        let chart = it.chart.as_ref();
        let id = it.id.clone().unwrap_or_else(|| store.fallback_id(i));
        let pair = chart.and_then(|c| c.pair.clone());
        let version_name = chart.and_then(|c| c.version).map(|v| v.name().to_string());
        let format = it
            .fact
            .as_deref()
            .and_then(grade::fact_format)
            .map(|f| f.name().to_string());
        if let Some(suspicion) = grade::suspect_key(it) {
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
            hmi_recomputed: recomputed.map(|h| h.hmi),
            interval: recomputed.map(|h| h.interval).unwrap_or((None, None)),
            n_answers: recomputed.map_or(0, |h| h.n_answers),
            n_not_acceptable: recomputed.map_or(0, |h| h.n_not_acceptable),
        });
    }

    /// The figures, when the file has CHARTOM items.
    pub(crate) fn finish(self) -> Option<ChartomStats> {
        if self.items == 0 {
            return None;
        }
        let models = self
            .models
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
        Some(ChartomStats {
            items: self.items,
            models,
            charts: self.charts,
            suspect_keys: self.suspect_keys,
        })
    }
}

/// The models' MIND predictions per chart (id → model → prediction), for the summary's
/// HMI ranking plot; charts are named as in [`ChartStat::id`].
pub fn mind_predictions(
    store: &Store,
) -> std::collections::HashMap<String, serde_json::Map<String, serde_json::Value>> {
    let mut preds: std::collections::HashMap<String, serde_json::Map<String, serde_json::Value>> =
        Default::default();
    for i in 0..store.len() {
        let Ok(item) = store.item(i) else { continue };
        if item.benchmark() != crate::bench::Benchmark::Chartom {
            continue;
        }
        let id = item.id.clone().unwrap_or_else(|| store.fallback_id(i));
        let m = preds.entry(id).or_default();
        for r in &item.responses {
            if let Some(x) = r.mind {
                m.insert(r.model.clone(), serde_json::Value::from(x));
            }
        }
    }
    preds
}

/// One response's FACT and MIND sums.
fn fact_sum(e: &grade::ChartomEffective, hmi: Option<f64>) -> FactSum {
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
        one.mind_sq = grade::squared_error(m, h);
    }
    one
}
