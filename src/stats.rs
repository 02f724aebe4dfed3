//! The papers' figures for a result set (`verdict stats`), per benchmark and model, plus
//! review progress per reviewer. The JSON shape is a stable contract, documented in
//! `docs/stats.md`; every figure there names its formula.
//!
//! [`compute`] parses every item once (typed, [`crate::store::Store::item`]) on every
//! core, adds each block of items into partial sums, merges the sums in file order (so the
//! figures do not depend on the number of cores) and only then turns them into fractions.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::grade::resolve::Source;
use crate::model::Item;
use crate::store::Store;

pub use crate::bench::Benchmarks;
pub use crate::bench::chartom::stats::{
    ChartStat, ChartomFigures, ChartomModel, ChartomStats, JustificationCounts, SuspectKey,
};
pub use crate::bench::chartom_qa::stats::{QaDimension, QaFigures, QaModel, QaStats};
pub use crate::bench::cvqa::stats::{
    AccFigures, AutomaticFigures, CvqaModel, CvqaStats, VerificationStats,
};
pub use crate::bench::generic::stats::OtherStats;

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
pub struct ResolutionCounts {
    #[serde(rename = "final")]
    pub final_: u64,
    pub majority: u64,
    pub single: u64,
    pub none: u64,
}

impl ResolutionCounts {
    pub(crate) fn add(&mut self, s: &Source) {
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

// ---------------------------------------------------------------------------------------
// Partial sums

/// Partial sums that add up: a block's sums absorb those of the block that follows.
pub(crate) trait Merge {
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

#[derive(Debug, Default)]
struct Sums {
    items: u64,
    unreadable: u64,
    reviews: BTreeMap<String, ReviewerStats>,
    resolution: ResolutionCounts,
    /// Each benchmark's own sums (the registry, [`crate::bench`]).
    benchmarks: crate::bench::Sums,
}

impl Sums {
    fn merge(&mut self, o: Sums) {
        self.items += o.items;
        self.unreadable += o.unreadable;
        self.reviews.absorb(o.reviews);
        self.resolution.absorb(o.resolution);
        self.benchmarks.merge(o.benchmarks);
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
        self.benchmarks.add(store, i, it, &mut self.resolution);
    }

    fn finish(self) -> Stats {
        Stats {
            items: self.items,
            unreadable: self.unreadable,
            benchmarks: self.benchmarks.finish(),
            reviews: self.reviews,
            resolution: self.resolution,
        }
    }
}

/// `map[key]`, inserted as default when missing (the key is cloned only then).
pub(crate) fn slot<'a, V: Default>(map: &'a mut BTreeMap<String, V>, key: &str) -> &'a mut V {
    if !map.contains_key(key) {
        map.insert(key.to_string(), V::default());
    }
    map.get_mut(key).expect("inserted above")
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
