//! `verdict stats`: each benchmark's partial sums and figures (docs/stats.md), as the
//! registry lists them.

use serde::Serialize;

use super::{
    Benchmark, Item, Items, chartom, chartom_qa, cvqa, declared, generic, inspect, lm_eval,
};
use crate::bench::kit::sums::ResolutionCounts;
use crate::store::Store;

/// The figures of each benchmark present in the file (`benchmarks` in `verdict stats
/// --json`, in this order).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Benchmarks {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cvqa: Option<cvqa::stats::CvqaStats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chartom: Option<chartom::stats::ChartomStats>,
    #[serde(rename = "chartom-qa", skip_serializing_if = "Option::is_none")]
    pub chartom_qa: Option<chartom_qa::stats::QaStats>,
    #[serde(rename = "lm-eval", skip_serializing_if = "Option::is_none")]
    pub lm_eval: Option<lm_eval::stats::LmEvalStats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inspect: Option<inspect::stats::InspectStats>,
    /// The declared benchmark's (`--benchmark`): its answers, question by question.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared: Option<declared::stats::DeclaredStats>,
    /// Items of unknown benchmarks: how many, and their free verdicts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other: Option<generic::stats::OtherStats>,
}

impl Benchmarks {
    /// The figures that count other files of the run (an lm-eval group's other tasks):
    /// `stats_of` gives a file's figures, as `verdict stats` on it.
    pub fn with_other_files(&mut self, stats_of: impl Fn(&std::path::Path) -> Option<Benchmarks>) {
        if let Some(lm) = self.lm_eval.as_mut() {
            lm.with_group_tasks(|p| stats_of(p)?.lm_eval);
        }
    }

    /// `verdict stats DIR`: the blocks of a folder's files read as one set (`parts`: each
    /// file and its figures): lm-eval's samples files in one table, the Inspect logs in
    /// one table; any other benchmark's block per file, under its name.
    pub fn render_set(parts: &[(&std::path::Path, &Benchmarks)], o: &mut String) {
        let lm: Vec<_> = parts
            .iter()
            .filter_map(|(p, b)| Some((*p, b.lm_eval.as_ref()?)))
            .collect();
        lm_eval::stats_text::render_set(&lm, o);
        let inspect: Vec<_> = parts
            .iter()
            .filter_map(|(p, b)| Some((*p, b.inspect.as_ref()?)))
            .collect();
        inspect::stats_text::render_set(&inspect, o);
        for (p, b) in parts {
            let rest = Benchmarks {
                lm_eval: None,
                inspect: None,
                ..(*b).clone()
            };
            let mut s = String::new();
            rest.render(&mut s);
            if !s.is_empty() {
                o.push_str(&format!(
                    "\n{}:{s}",
                    crate::bench::kit::text::clean(&p.to_string_lossy())
                ));
            }
        }
    }

    /// `verdict stats --write-corrected`: the corrected results file of each lm-eval run
    /// among `parts` (each file and its figures), beside its results file; the files
    /// written (docs/stats.md, "The corrected results file").
    /// `stats_of` gives the figures of a file of a run not among `parts` (every task of
    /// the run is in its file), as `verdict stats` on it.
    pub fn write_corrected(
        parts: &[(&std::path::Path, &Benchmarks)],
        stats_of: impl Fn(&std::path::Path) -> Option<Benchmarks>,
    ) -> std::io::Result<Vec<std::path::PathBuf>> {
        let lm: Vec<_> = parts
            .iter()
            .filter_map(|(p, b)| Some((*p, b.lm_eval.as_ref()?)))
            .collect();
        lm_eval::corrected::write(&lm, |p| stats_of(p)?.lm_eval)
    }

    /// Each benchmark's block of `verdict stats` text, in this order.
    pub(crate) fn render(&self, o: &mut String) {
        cvqa::stats_text::render(&self.cvqa, o);
        chartom::stats_text::render(&self.chartom, o);
        chartom_qa::stats_text::render(&self.chartom_qa, o);
        lm_eval::stats_text::render(&self.lm_eval, o);
        inspect::stats_text::render(&self.inspect, o);
        declared::stats_text::render(&self.declared, o);
        generic::stats_text::render(&self.other, o);
    }
}

/// Every benchmark's partial sums over a block of items.
#[derive(Debug, Default)]
pub(crate) struct Sums {
    cvqa: cvqa::stats::Sums,
    chartom: chartom::stats::Sums,
    chartom_qa: chartom_qa::stats::Sums,
    lm_eval: lm_eval::stats::Sums,
    inspect: inspect::stats::Sums,
    declared: declared::stats::Sums,
    other: generic::stats::Sums,
}

impl Sums {
    /// Add item `i` of `store` to its benchmark's sums; the human grades it resolves are
    /// counted in `resolution`.
    pub(crate) fn add(
        &mut self,
        store: &Store,
        i: usize,
        it: &Item,
        resolution: &mut ResolutionCounts,
    ) {
        match it.benchmark() {
            Benchmark::Cvqa => self.cvqa.add(it, resolution),
            Benchmark::Chartom => self.chartom.add(store, i, it, resolution),
            Benchmark::ChartomQa => self.chartom_qa.add(it, resolution),
            Benchmark::LmEval => self.lm_eval.add_item(it, &store.file_info(), resolution),
            Benchmark::Inspect => self.inspect.add(it, resolution),
            Benchmark::Declared => self.declared.add(it, resolution),
            Benchmark::Other => self.other.add(it, resolution),
        }
    }

    /// Add the sums of the block that follows this one in the file.
    pub(crate) fn merge(&mut self, o: Sums) {
        self.cvqa.merge(o.cvqa);
        self.chartom.merge(o.chartom);
        self.chartom_qa.merge(o.chartom_qa);
        self.lm_eval.merge(o.lm_eval);
        self.inspect.merge(o.inspect);
        self.declared.merge(o.declared);
        self.other.merge(o.other);
    }

    pub(crate) fn finish(self) -> Benchmarks {
        Benchmarks {
            cvqa: self.cvqa.finish(),
            chartom: self.chartom.finish(),
            chartom_qa: self.chartom_qa.finish(),
            lm_eval: self.lm_eval.finish(),
            inspect: self.inspect.finish(),
            declared: self.declared.finish(),
            other: self.other.finish(),
        }
    }
}
