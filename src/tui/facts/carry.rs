//! The index carried across another program's save of the open file (docs/architecture.md,
//! "The kept index"): a colleague's verdict session
//! folds its journal into the file the reviewer has open, the file is read again
//! (`tui::remap`), and its index is made from the one of the file as it was instead of
//! reading every item again (seconds of CPU at 1M items).
//!
//! **What tells that an item is the same**: the index keeps, for every item, a sum of its
//! bytes as it read them ([`item_sum`], 128 bits: `Index::sum`). An item of the new file
//! whose bytes sum to the sum of an item indexed (wherever it was: moved, or one of
//! several identical lines) has that item's facts and search text; what does not depend
//! on the bytes alone is made again from the new file (the id `#line` of an item without
//! one, and the search text that begins with it). Every other item (changed, new, now
//! broken) is read and indexed as a fresh build does; an item that is gone is dropped.
//! The result is the index a fresh build of the new file gives, every text, fact and bit
//! (`carry_tests`).
//!
//! **When not**: the old index has no sums (its file was changed in place while it was
//! read), either file was changed in place, more than half of the new file's items are
//! not in the old one (a file rewritten: a fresh build costs no more), a text of the old
//! index reads wrong (a kept index's mapping changed). Then [`carry`] says so and the
//! caller builds the index afresh, as before.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use super::{Arena, BitSet, Index, Kind, Partial, Sums, index_items};
use crate::store::Store;

/// The 128-bit sum of an item's bytes (XXH3-128, `xxhash-rust`). Not a cryptographic
/// hash: two different items of the files a reviewer works on sum alike only by chance,
/// about once in 2^128 pairs. Every item's bytes are summed as the first open's index reads
/// them: XXH3 costs about half of a multiply-and-fold of every word (0.27 s against 0.55 s
/// for the 1M-item set's 1.95 GB on one core, 27 Nov).
pub fn item_sum(b: &[u8]) -> u128 {
    xxhash_rust::xxh3::xxh3_128(b)
}

/// Why the index was not carried across (then it is built afresh).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// The old index does not know what its items' bytes summed to.
    NoSums,
    /// The new file was changed in place while it was read.
    ChangedOnDisk,
    /// Most of the new file's items are not in the old one.
    TooManyChanged { changed: usize, items: usize },
    /// A text of the old index does not read as it was written.
    OldTextWrong,
    /// What the file's path tells its items changed (`bench::FileInfo`; asked by the
    /// caller, `tui::remap`).
    FileInfo,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::NoSums => write!(f, "the old index has no sums of its items"),
            Refused::ChangedOnDisk => write!(f, "the file was changed in place"),
            Refused::TooManyChanged { changed, items } => {
                write!(f, "{changed} of {items} items are new or changed")
            }
            Refused::OldTextWrong => write!(f, "a text of the old index reads wrong"),
            Refused::FileInfo => write!(f, "what the file's path tells changed"),
        }
    }
}

/// How an index of a file read again was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Made {
    /// Carried from the old file's, these many items read.
    Carried { read: usize },
    /// Built afresh, every item read (why not carried: `None` when there was no index
    /// to carry).
    Built(Option<Refused>),
}

/// An index carried across: the new file's, and how many of its items were read.
#[derive(Debug)]
pub struct Carried {
    pub index: Index,
    /// Items of the new file read and indexed (new or changed); the others were carried.
    pub read: usize,
}

/// A hasher for keys that are sums already: their low 64 bits.
#[derive(Default)]
struct SumHasher(u64);

impl Hasher for SumHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, b: &[u8]) {
        for &x in b {
            self.0 = (self.0 << 8) | u64::from(x);
        }
    }
    fn write_u128(&mut self, x: u128) {
        self.0 = x as u64;
    }
}

/// No item of the old index.
const NONE: u32 = u32::MAX;

/// The index of `new` (a file read again after another program saved it), carried from
/// `old` (the index of the file as it was) where items are byte for byte the same; on up
/// to `threads` threads. `Err` when it is better built afresh ([`Refused`]).
pub fn carry(old: &Index, new: &Store, threads: usize) -> Result<Carried, Refused> {
    if old.sums.len() != Some(old.n) || old.n >= NONE as usize {
        return Err(Refused::NoSums);
    }
    if new.changed_on_disk() {
        return Err(Refused::ChangedOnDisk);
    }
    let n = new.len();
    let threads = threads.clamp(1, 8);
    let sums = sums_of(new, threads);
    // Where each item of the new file was in the old one.
    let mut was: HashMap<u128, u32, BuildHasherDefault<SumHasher>> =
        HashMap::with_capacity_and_hasher(old.n, Default::default());
    for i in 0..old.n {
        if let Some(s) = old.sums.get(i) {
            was.entry(s).or_insert(i as u32);
        }
    }
    let src: Vec<u32> = sums
        .iter()
        .map(|s| was.get(s).copied().unwrap_or(NONE))
        .collect();
    drop(was);
    let changed: Vec<usize> = (0..n).filter(|&j| src[j] == NONE).collect();
    if changed.len() * 2 > n {
        return Err(Refused::TooManyChanged {
            changed: changed.len(),
            items: n,
        });
    }
    let parts = index_changed(new, &changed, threads);
    let mut ix = Index {
        n,
        broken: BitSet::new(n),
        no_id: BitSet::new(n),
        ..Index::default()
    };
    texts(old, new, &src, &parts, &mut ix)?;
    bits(old, &src, &changed, &parts, &mut ix);
    ix.sums = Sums::Owned(sums);
    if new.changed_on_disk() {
        return Err(Refused::ChangedOnDisk);
    }
    Ok(Carried {
        index: ix,
        read: changed.len(),
    })
}

/// Every item's [`item_sum`] in `store`, on `threads` threads.
fn sums_of(store: &Store, threads: usize) -> Vec<u128> {
    crate::par::map_indices(store.len(), threads, "sum thread", |i| {
        item_sum(store.raw_bytes(i).unwrap_or_default())
    })
}

/// The index of the items `changed` of `store` (entry `k` of the parts, in order, is item
/// `changed[k]`), on `threads` threads.
fn index_changed(store: &Store, changed: &[usize], threads: usize) -> Vec<Partial> {
    let chunk = changed.len().div_ceil(threads * 8).max(1024);
    let mut parts: Vec<Partial> = std::thread::scope(|s| {
        let handles: Vec<_> = changed
            .chunks(chunk)
            .enumerate()
            .map(|(c, items)| {
                s.spawn(move || index_items(store, c * chunk, items.iter().copied(), &|_| {}))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("index thread"))
            .collect()
    });
    parts.sort_by_key(|p| p.lo);
    parts
}

/// The entry of a changed item in `parts`: the part, and the entry in it.
fn entry_of(parts: &[Partial], k: usize) -> (&Partial, usize) {
    let at = parts.partition_point(|p| p.lo <= k) - 1;
    (&parts[at], k - parts[at].lo)
}

/// The ids and search texts of the new file, in its order: carried (an id of the file's
/// own as it was, used in place when the old index has it in a kept index's mapping; a
/// `#line` id made again, with the search text that begins with it), or as `parts` read
/// them.
fn texts(
    old: &Index,
    new: &Store,
    src: &[u32],
    parts: &[Partial],
    ix: &mut Index,
) -> Result<(), Refused> {
    let mut ids = Arena::default();
    let mut search = Arena::default();
    let mut k = 0;
    let mut buf = String::new();
    for (j, &i) in src.iter().enumerate() {
        if i == NONE {
            let (p, e) = entry_of(parts, k);
            ids.push(p.ids.get(e));
            search.push(p.search.get(e));
            k += 1;
            continue;
        }
        let i = i as usize;
        let (id, text) = (old.ids.get(i), old.search.get(i));
        // A search text begins with its item's id and a space.
        if !text.starts_with(id) || !text[id.len()..].starts_with(' ') {
            return Err(Refused::OldTextWrong);
        }
        if old.no_id.get(i) {
            let fresh = new.fallback_id(j);
            buf.clear();
            buf.push_str(&fresh);
            buf.push_str(&text[id.len()..]);
            ids.push(&fresh);
            search.push(&buf);
        } else {
            // (In place where the old index has them in place: not copied.)
            ids.push_from(&old.ids, i);
            search.push_from(&old.search, i);
        }
    }
    ix.ids = ids;
    ix.search = search;
    Ok(())
}

/// The new file's facts, broken and id-less items: each bit of a carried item copied from
/// the old index (in runs of items that moved together), each of a changed item as
/// `parts` read it; the facts no item has any more dropped, in the order a fresh build
/// gives (`Kind`, then name).
fn bits(old: &Index, src: &[u32], changed: &[usize], parts: &[Partial], ix: &mut Index) {
    let n = ix.n;
    // Runs of carried items: (first new item, first old item, count).
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    for (j, &i) in src.iter().enumerate() {
        if i == NONE {
            continue;
        }
        let i = i as usize;
        match runs.last_mut() {
            Some((j0, i0, len)) if *j0 + *len == j && *i0 + *len == i => *len += 1,
            _ => runs.push((j, i, 1)),
        }
    }
    let carried = |from: &BitSet| {
        let mut b = BitSet::new(n);
        for &(j0, i0, len) in &runs {
            b.copy_from(j0, from, i0, len);
        }
        b
    };
    let mut facets: BTreeMap<(Kind, String), BitSet> = old
        .facets
        .iter()
        .map(|(kind, name, b)| ((*kind, name.clone()), carried(b)))
        .collect();
    ix.broken = carried(&old.broken);
    ix.no_id = carried(&old.no_id);
    for p in parts {
        for k in p.broken.ones() {
            ix.broken.set(changed[p.lo + k], true);
        }
        for k in p.no_id.ones() {
            ix.no_id.set(changed[p.lo + k], true);
        }
        for (kind, names) in Kind::ALL.iter().zip(&p.facets) {
            for (name, b) in &names.sets {
                let set = facets
                    .entry((*kind, name.clone()))
                    .or_insert_with(|| BitSet::new(n));
                for k in b.ones() {
                    set.set(changed[p.lo + k], true);
                }
            }
        }
    }
    ix.facets = facets
        .into_iter()
        .filter(|(_, b)| b.count() > 0)
        .map(|((kind, name), b)| (kind, name, b))
        .collect();
}

#[cfg(test)]
mod tests;
