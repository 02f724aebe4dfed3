//! Partial sums that add up block by block (`verdict stats` runs on every core and merges
//! the blocks in file order), and the count of which human verdicts were used.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::grade::resolve::Source;

#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct ResolutionCounts {
    #[serde(rename = "final")]
    pub final_: u64,
    pub majority: u64,
    /// Split evenly: went to the most recent review (not counted in `majority`).
    pub tie: u64,
    pub single: u64,
    pub none: u64,
}

impl ResolutionCounts {
    pub(crate) fn add(&mut self, s: &Source) {
        match s {
            Source::Final { .. } => self.final_ += 1,
            Source::Majority { .. } => self.majority += 1,
            Source::Tie { .. } => self.tie += 1,
            Source::Single { .. } => self.single += 1,
            Source::None => self.none += 1,
        }
    }
}

/// The human verdict used for a response: its own grades' (`response`), else the item's
/// verdict (`item`: a C-VQA verification, a free `verdict`), which grades every response
/// that has none of its own.
pub(crate) fn used<'a>(response: &'a Source, item: &'a Source) -> &'a Source {
    if response.is_none() { item } else { response }
}

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
        self.tie += o.tie;
        self.single += o.single;
        self.none += o.none;
    }
}

/// `map[key]`, inserted as default when missing (the key is cloned only then).
pub(crate) fn slot<'a, V: Default>(map: &'a mut BTreeMap<String, V>, key: &str) -> &'a mut V {
    if !map.contains_key(key) {
        map.insert(key.to_string(), V::default());
    }
    map.get_mut(key).expect("inserted above")
}
