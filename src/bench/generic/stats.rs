//! The figures of items of other benchmarks in `verdict stats` (docs/stats.md): how many,
//! and their free verdicts.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::bench::Item;
use crate::bench::kit::sums::{Merge, ResolutionCounts};
use crate::bench::resolve::{resolve_response, resolve_verdict};

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct OtherStats {
    pub items: u64,
    /// Resolved free verdicts: verdict → items (the most recent reviewer's verdict).
    pub verdicts: BTreeMap<String, u64>,
}

/// The other items' partial sums over a block of items.
#[derive(Debug, Default)]
pub(crate) struct Sums {
    items: u64,
    verdicts: BTreeMap<String, u64>,
}

impl Sums {
    pub(crate) fn merge(&mut self, o: Sums) {
        self.items += o.items;
        self.verdicts.absorb(o.verdicts);
    }

    pub(crate) fn add(&mut self, it: &Item, resolution: &mut ResolutionCounts) {
        self.items += 1;
        // the free verdict that counts (final, single, majority: as every grade); it is
        // the grade of each response that has none of its own (docs/stats.md)
        let verdict = resolve_verdict(&it.reviews);
        for resp in &it.responses {
            let r = resolve_response(&it.reviews, &resp.model, it.responses.len());
            resolution.add(crate::bench::kit::sums::used(&r.source, &verdict.source));
        }
        if let Some(v) = verdict.value {
            *self.verdicts.entry(v).or_default() += 1;
        }
    }

    /// The figures, when the file has items of other benchmarks.
    pub(crate) fn finish(self) -> Option<OtherStats> {
        (self.items > 0).then_some(OtherStats {
            items: self.items,
            verdicts: self.verdicts,
        })
    }
}
