//! The papers' figures for a result set (`verdict stats`), per benchmark and model, plus
//! review progress per reviewer. The JSON shape is a stable contract, documented in
//! `docs/stats.md`; every figure there names its formula.
//!
//! [`compute`] parses every item once (typed, [`crate::store::Store::item`]) on every
//! core, adds each block of items into partial sums, merges the sums in file order (so the
//! figures do not depend on the number of cores) and only then turns them into fractions.

use crate::bench::Items;
use std::collections::BTreeMap;

use serde::Serialize;

use crate::bench::Item;
pub use crate::bench::kit::sums::ResolutionCounts;
use crate::bench::kit::sums::{Merge, slot};
use crate::store::Store;

pub use crate::bench::Benchmarks;

// ---------------------------------------------------------------------------------------
// The document

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
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

/// The one wording of [`ResolutionCounts`], for `verdict stats` and the summary screen.
pub fn resolution_text(c: &ResolutionCounts) -> String {
    let ResolutionCounts {
        final_,
        majority,
        tie,
        single,
        none,
    } = c;
    // a tie only when there is one: split evenly, it went to the most recent review
    let tie = if *tie > 0 {
        format!(" · {tie} tie (most recent)")
    } else {
        String::new()
    };
    format!(
        "human verdicts used per response (its own grades, else the item's verdict): {final_} final · {majority} majority{tie} · {single} single reviewer · {none} none"
    )
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
mod tests;
pub mod text;
