//! A folder's files read as one set (docs/format.md, "A folder as a set"): the items of
//! every file one after another, each read from its own file's store. A set is read, never
//! written: each file's own store, owned by that file's IO worker, takes its verdicts.

use std::path::PathBuf;
use std::sync::Arc;

use super::{Format, Store};

/// The files of a set, in order, and where each one's items start.
#[derive(Debug)]
pub(super) struct Parts {
    stores: Vec<Store>,
    /// `starts[p]`: the set's index of part `p`'s first item; one more at the end (the
    /// set's length).
    starts: Vec<usize>,
}

impl Parts {
    fn new(stores: Vec<Store>) -> Parts {
        let mut starts = Vec::with_capacity(stores.len() + 1);
        let mut n = 0;
        for s in &stores {
            starts.push(n);
            n += s.len();
        }
        starts.push(n);
        Parts { stores, starts }
    }

    pub(super) fn len(&self) -> usize {
        *self.starts.last().unwrap_or(&0)
    }

    /// The part item `i` is in and its index there.
    pub(super) fn find(&self, i: usize) -> Option<(usize, usize)> {
        if i >= self.len() {
            return None;
        }
        let p = self.starts.partition_point(|&s| s <= i) - 1;
        Some((p, i - self.starts[p]))
    }

    pub(super) fn stores(&self) -> &[Store] {
        &self.stores
    }
}

impl Store {
    /// The set of `stores`' items, one file after another, named `path` (the folder).
    pub fn set(path: PathBuf, stores: Vec<Store>) -> Store {
        let mut s = Store::of(
            path,
            Format::Jsonl,
            Arc::new(super::map::Bytes::Owned(Vec::new())),
            Arc::new(super::offsets::Offsets::whole(
                super::offsets::Table::from_vecs(Vec::new(), Vec::new()),
            )),
        );
        s.parts = Some(Arc::new(Parts::new(stores)));
        s
    }

    /// The files of a set, in order (`None`: a store of one file).
    pub fn parts(&self) -> Option<&[Store]> {
        self.parts.as_deref().map(Parts::stores)
    }

    /// The file's store item `i` is in, and its index there: this store and `i` but in
    /// a set.
    pub fn part(&self, i: usize) -> (&Store, usize) {
        self.in_set(i).flatten().unwrap_or((self, i))
    }

    /// In a set (`None`: a store of one file), the file's store item `i` is in and its
    /// index there (`None`: the set has no item `i`).
    pub(super) fn in_set(&self, i: usize) -> Option<Option<(&Store, usize)>> {
        let parts = self.parts.as_deref()?;
        Some(parts.find(i).map(|(p, j)| (&parts.stores[p], j)))
    }

    /// Which of a set's files item `i` is in (0 for a store of one file).
    pub fn part_number(&self, i: usize) -> usize {
        self.parts
            .as_deref()
            .and_then(|p| p.find(i))
            .map_or(0, |(p, _)| p)
    }

    /// This set with its file `p` read again as `fresh` (its items may have moved).
    pub fn with_part(&self, p: usize, fresh: Store) -> Store {
        let mut stores = self.parts().unwrap_or_default().to_vec();
        if let Some(s) = stores.get_mut(p) {
            *s = fresh;
        }
        Store::set(self.path.clone(), stores)
    }
}
