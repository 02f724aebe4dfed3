//! The background index of a result set: per item, what filters, progress and search need.
//! Built on a worker thread after the file opens, so opening never waits for it.
//!
//! The index is compact so that it scales to a million items: ids and search texts live
//! in two text arenas, and every filterable fact (benchmark, chart type, model, reviewer,
//! a model's answer being wrong, …) is one bit set over the items. A filter is then a few
//! word-wise ORs and ANDs, and the count of every option a few popcounts.

use crate::bench::Items;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::bench::Item;
use crate::store::Store;
use crate::tui::views::review_status;

mod arena;
use arena::{Arena, Run, Texts};
mod bitset;
pub use bitset::BitSet;

/// Every fact the index keeps about `item`, as (kind, name) pairs; the flags have an
/// empty name.
pub fn facts_of_item(item: &Item, emit: &mut dyn FnMut(Kind, &str)) {
    let benchmark = item.benchmark();
    emit(Kind::Benchmark, benchmark.name());
    crate::bench::spec(benchmark).facets(item, &mut |f, name| emit(Kind::Facet(f), name));
    if let Some(p) = &item.part {
        if let Some(t) = &p.task {
            emit(Kind::Facet(crate::bench::Facet::Task), t);
        }
        emit(Kind::Facet(crate::bench::Facet::Run), &p.run);
    }
    for r in &item.responses {
        emit(Kind::Model, &r.model);
        if crate::bench::model_wrong(item, &r.model) {
            emit(Kind::Wrong, &r.model);
        }
    }
    for (name, r) in &item.reviews {
        emit(Kind::Reviewer, name);
        if let Some(st) = review_status(r) {
            emit(Kind::ReviewerStatus, &reviewer_status(name, st));
        }
        if crate::review::item_done(item, Some(r)) {
            emit(Kind::Done, name);
        }
    }
    let finals: Vec<_> = item
        .reviews
        .values()
        .filter(|r| r.is_final == Some(true))
        .collect();
    let adjudicated = !finals.is_empty();
    let mut statuses: Vec<ReviewStatus> = if adjudicated {
        finals.iter().filter_map(|r| review_status(r)).collect()
    } else {
        item.reviews.values().filter_map(review_status).collect()
    };
    statuses.sort();
    statuses.dedup();
    for s in statuses {
        emit(Kind::Status, s.name);
    }
    if adjudicated {
        emit(Kind::Adjudicated, "");
    } else {
        let (disagreement, queue) = crate::bench::disagreement_and_adjudication(item);
        if disagreement {
            emit(Kind::Disagreement, "");
        }
        if queue {
            emit(Kind::NeedsAdjudication, "");
        }
    }
}

/// The name of the [`Kind::ReviewerStatus`] fact of `reviewer`'s status `s`.
pub fn reviewer_status(reviewer: &str, s: ReviewStatus) -> String {
    format!("{}\u{0}{reviewer}", s.name)
}

/// The facts of one item, collected (for items changed during the session).
pub fn collect_facts(item: &Item) -> Vec<(Kind, String)> {
    let mut v = Vec::new();
    facts_of_item(item, &mut |k, s| v.push((k, s.to_string())));
    v.sort();
    v.dedup();
    v
}

/// The search text of an item: its id and question text (the first 400 characters).
fn search_text(item: &Item, id: &str, out: &mut String) {
    out.clear();
    out.push_str(id);
    out.push(' ');
    let start = out.len();
    let mut push = |s: &str| {
        if out.len() > start {
            out.push(' ');
        }
        out.push_str(s);
    };
    crate::bench::spec(item.benchmark()).search_texts(item, &mut push);
    // (a text of at most 400 bytes has at most 400 characters: not walked)
    if out.len() - start > 400
        && let Some((cut, _)) = out[start..].char_indices().nth(400)
    {
        out.truncate(start + cut);
    }
}

/// What the reviewer knows about every item without loading it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Index {
    n: usize,
    ids: Arena,
    search: Arena,
    /// Each item's harness id (`bench::Spec::harness_id`; empty when none), for the jump.
    harness: Arena,
    /// One bit set per (kind, name), sorted (`Kind::ALL` is in `Kind`'s order).
    facets: Vec<(Kind, String, BitSet)>,
    /// Items that could not be read.
    broken: BitSet,
    /// Items without an id of their own (their id here is `#line`).
    no_id: BitSet,
    /// Items that need no grade (`review::no_grade`): no work to do.
    no_grade: BitSet,
    /// A folder's set: the groups of items that are one sample in several files
    /// (`Index::twins_of`), and each item's group (`u32::MAX`: none; empty: no set).
    twins: Vec<Vec<u32>>,
    twin_group: Vec<u32>,
}

impl Index {
    pub fn len(&self) -> usize {
        self.n
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    /// The item's id (or `#line` when it has none).
    pub fn id(&self, i: usize) -> &str {
        self.ids.get(i)
    }
    /// The item's own id: None when it has none (or `i` is out of range).
    pub fn item_id(&self, i: usize) -> Option<&str> {
        (i < self.n && !self.no_id.get(i)).then(|| self.ids.get(i))
    }
    /// The id and question text that search matches against.
    pub fn search_text(&self, i: usize) -> &str {
        self.search.get(i)
    }
    /// [`Index::search_text`]'s bytes, not checked: the text itself when they are ASCII
    /// (a mapped text is checked to be UTF-8 as it is read, at a cost per byte; search
    /// reads every text on some keystrokes). When they are not ASCII, `search_text` is
    /// the text (it may be empty: a mapped file changed).
    pub fn search_bytes(&self, i: usize) -> &[u8] {
        self.search.get_bytes(i)
    }
    /// [`Index::id`]'s bytes, not checked, as [`Index::search_bytes`].
    pub fn id_bytes(&self, i: usize) -> &[u8] {
        self.ids.get_bytes(i)
    }
    pub fn broken(&self, i: usize) -> bool {
        self.broken.get(i)
    }
    /// The items that need no grade (`review::no_grade`).
    pub fn no_grade(&self) -> &BitSet {
        &self.no_grade
    }
    /// The items with fact (kind, name); None when no item has it.
    pub fn facet(&self, kind: Kind, name: &str) -> Option<&BitSet> {
        // A binary search of the sorted facets: no allocation, no hashing (this is
        // asked per item and per frame).
        self.facets
            .binary_search_by(|f| (f.0, f.1.as_str()).cmp(&(kind, name)))
            .ok()
            .map(|k| &self.facets[k].2)
    }
    /// The distinct names of `kind`, sorted.
    pub fn names(&self, kind: Kind) -> impl Iterator<Item = &str> {
        self.facets
            .iter()
            .filter(move |f| f.0 == kind)
            .map(|f| f.1.as_str())
    }
    /// Does item `i` have fact (kind, name)?
    pub fn has(&self, i: usize, kind: Kind, name: &str) -> bool {
        self.facet(kind, name).is_some_and(|b| b.get(i))
    }
    /// The first item with this id.
    pub fn position_of(&self, id: &str) -> Option<usize> {
        self.positions_of(id, 1).first().copied()
    }
    /// The first item with this harness id (`bench::Spec::harness_id`).
    /// In a folder's set, where harness ids are `task:id`, an id without its task is
    /// the first item of any task with it.
    pub fn position_of_harness_id(&self, id: &str) -> Option<usize> {
        positions_in(&self.harness, self.n, id, 1)
            .first()
            .copied()
            .or_else(|| {
                let tail = format!(":{id}");
                (0..self.n).find(|&i| self.harness.get(i).ends_with(&tail))
            })
    }
    /// Every item with this harness id, in order.
    pub fn items_of_harness_id(&self, id: &str) -> Vec<usize> {
        positions_in(&self.harness, self.n, id, usize::MAX)
    }
    /// Do two or more items have this id (`check` warns of it; such files are opened)?
    pub fn id_shared(&self, id: &str) -> bool {
        self.positions_of(id, 2).len() == 2
    }
    /// The first `limit` items with this id, in order.
    fn positions_of(&self, id: &str, limit: usize) -> Vec<usize> {
        positions_in(&self.ids, self.n, id, limit)
    }
    /// The runs of its ids', search texts' and harness ids' arenas.
    fn text_runs(&self) -> impl Iterator<Item = &Run> {
        self.ids
            .runs
            .iter()
            .chain(&self.search.runs)
            .chain(&self.harness.runs)
    }
    /// How many bytes its ids and search texts are.
    pub fn texts_bytes(&self) -> usize {
        self.text_runs().map(|r| r.bytes().len()).sum()
    }
    /// How many bytes of ids and search texts this index built in memory (not used in
    /// place from a kept index's mapping).
    pub fn texts_built_bytes(&self) -> usize {
        self.text_runs()
            .filter(|r| matches!(r.texts, Texts::Owned { .. }))
            .map(|r| r.bytes().len())
            .sum()
    }
    /// Are the ids and search texts used in place from a kept index's mapping (not built
    /// in memory)?
    pub fn texts_in_place(&self) -> bool {
        self.text_runs()
            .all(|r| matches!(r.texts, Texts::Kept { .. }))
    }
    /// The facts of item `i`, as the index holds them.
    pub fn facts(&self, i: usize) -> Vec<(Kind, String)> {
        self.facets
            .iter()
            .filter(|f| f.2.get(i))
            .map(|f| (f.0, f.1.clone()))
            .collect()
    }
}

#[cfg(test)]
impl Index {
    /// An index of ids and question texts only, for the search's tests.
    pub(crate) fn of_texts<I: AsRef<str>, Q: AsRef<str>>(rows: &[(I, Q)]) -> Index {
        let mut ix = Index {
            n: rows.len(),
            broken: BitSet::new(rows.len()),
            no_id: BitSet::new(rows.len()),
            no_grade: BitSet::new(rows.len()),
            ..Index::default()
        };
        for (id, q) in rows {
            let (id, q) = (id.as_ref(), q.as_ref());
            ix.ids.push(id);
            ix.search.push(&format!("{id} {q}"));
            ix.harness.push("");
        }
        ix
    }
}

/// The first `limit` items whose text in `ids` is `id`, in order (`n`: the items).
fn positions_in(ids: &Arena, n: usize, id: &str, limit: usize) -> Vec<usize> {
    let mut found = Vec::new();
    let want = id.as_bytes();
    if want.is_empty() {
        found.extend((0..n).filter(|&i| ids.get(i) == id).take(limit));
        return found;
    }
    // A run's ids lie one after the other in one text: a SIMD substring search finds
    // the places the id occurs (overlapping ones too), and the ids' bounds tell an
    // item's whole id from part of one or a stretch across two.
    let finder = memchr::memmem::Finder::new(want);
    for r in &ids.runs {
        let text = r.bytes();
        let mut from = 0;
        let mut hits = 0;
        while let Some(q) = finder.find(&text[from..]) {
            let p = from + q;
            let k = r.ends_upto(p);
            let start = if k == 0 { 0 } else { r.end(k - 1) };
            if start == p && k < r.count() && r.end(k) == p + want.len() {
                found.push(r.first + k);
                if found.len() == limit {
                    return found;
                }
            }
            from = p + 1;
            hits += 1;
            if hits == 64 {
                // Inside many other ids: item by item from here on (every item
                // before the one at `p` looked at already; that one too if taken).
                let here = r.first + k;
                let from_item = here + usize::from(found.last() == Some(&here));
                found.extend(
                    (from_item..n)
                        .filter(|&i| ids.get(i) == id)
                        .take(limit - found.len()),
                );
                return found;
            }
        }
    }
    found
}

/// The index of one chunk of items, built by one thread.
struct Partial {
    lo: usize,
    len: usize,
    ids: Arena,
    search: Arena,
    harness: Arena,
    facets: [Names; KINDS],
    broken: BitSet,
    no_id: BitSet,
    no_grade: BitSet,
    /// (entry, its file in a set, its harness key, `Spec::variant`) of the items that are
    /// one line of a sample.
    lines: Vec<(usize, usize, String, String)>,
}

/// A key of the samples' metadata is a facet (`bench::Facet::Metadata`: names
/// `key\0value`) only while it has at most this many values, none of them longer than
/// [`META_VALUE_CHARS`]: every value is a bit set over all the items (125 KB at a million
/// items), so a key of free text (an id, an explanation per sample) would cost a set per
/// sample, and its hundreds of rows would bury the menu. 50 values is a category, a
/// source, a difficulty, a dataset's subset: a screen or two of the menu. A key over the
/// cap is left out whole (never part of its values), as the index is built, so that the
/// memory stays bounded.
pub const META_VALUES: usize = 50;

/// The longest value of a metadata key that is a facet ([`META_VALUES`]): a label, a
/// number, a short name; a longer text is prose, and its key no facet.
pub const META_VALUE_CHARS: usize = 60;

/// The kind whose keys are capped ([`META_VALUES`]).
pub(crate) const CAPPED: Kind = Kind::Facet(crate::bench::Facet::Metadata);

/// A metadata key's count of values once it is over the cap.
const OVER: usize = usize::MAX;

/// The key of a name `key\0value` of [`CAPPED`].
fn meta_key(name: &str) -> &str {
    name.split_once('\0').map_or(name, |(k, _)| k)
}

/// The bit sets of one kind's names in a chunk (or in the whole index, as the chunks'
/// are merged). Most kinds have a handful of names, found faster by comparing than by
/// hashing; a file with many (thousands of models) gets a map.
#[derive(Default)]
struct Names {
    sets: Vec<(String, BitSet)>,
    /// Position in `sets` by name, once there are more than [`Names::FEW`].
    by_name: HashMap<String, usize>,
    /// [`CAPPED`]'s keys: how many values each has in `sets`, or [`OVER`].
    per_key: HashMap<String, usize>,
}

impl Names {
    const FEW: usize = 16;

    /// The set of `name`, new and empty (over `len` items) if need be; None when
    /// `capped` ([`CAPPED`]) and its key is over the cap.
    fn entry(&mut self, name: &str, len: usize, capped: bool) -> Option<&mut BitSet> {
        let found = if self.sets.len() <= Self::FEW {
            self.sets.iter().position(|(n, _)| n == name)
        } else {
            self.by_name.get(name).copied()
        };
        let at = match found {
            Some(at) => at,
            None if capped && !self.admit(name) => return None,
            None => {
                self.sets.push((name.to_string(), BitSet::new(len)));
                if self.sets.len() > Self::FEW {
                    if self.by_name.is_empty() {
                        self.reindex();
                    } else {
                        self.by_name.insert(name.to_string(), self.sets.len() - 1);
                    }
                }
                self.sets.len() - 1
            }
        };
        Some(&mut self.sets[at].1)
    }

    /// Count the new name `key\0value` against its key's cap: may it have a set? A key
    /// that goes over here loses the sets it had.
    fn admit(&mut self, name: &str) -> bool {
        let (key, value) = name.split_once('\0').unwrap_or((name, ""));
        let n = match self.per_key.get_mut(key) {
            Some(n) => n,
            None => self.per_key.entry(key.to_string()).or_default(),
        };
        if *n == OVER {
            return false;
        }
        if *n < META_VALUES && value.chars().count() <= META_VALUE_CHARS {
            *n += 1;
            return true;
        }
        *n = OVER;
        self.drop_over();
        false
    }

    /// The keys over the cap in `o` (another chunk's names) are over here too.
    fn take_over(&mut self, o: &Names) {
        let mut any = false;
        for (key, _) in o.per_key.iter().filter(|(_, n)| **n == OVER) {
            self.per_key.insert(key.clone(), OVER);
            any = true;
        }
        if any {
            self.drop_over();
        }
    }

    /// Drop the sets of the keys over the cap.
    fn drop_over(&mut self) {
        let per_key = &self.per_key;
        self.sets
            .retain(|(n, _)| per_key.get(meta_key(n)) != Some(&OVER));
        self.reindex();
    }

    /// `by_name` made again from `sets`.
    fn reindex(&mut self) {
        self.by_name.clear();
        if self.sets.len() > Self::FEW {
            let at = self
                .sets
                .iter()
                .enumerate()
                .map(|(i, (n, _))| (n.clone(), i));
            self.by_name.extend(at);
        }
    }
}

fn index_chunk(store: &Store, lo: usize, hi: usize, tick: &dyn Fn(usize)) -> Partial {
    index_items(store, lo, lo..hi, tick)
}

/// The index of the items `items` of `store`, in that order: its `k`-th entry is the
/// `k`-th item's (`lo`: where the entries go in the whole index).
fn index_items(
    store: &Store,
    lo: usize,
    items: impl ExactSizeIterator<Item = usize>,
    tick: &dyn Fn(usize),
) -> Partial {
    let len = items.len();
    let mut p = Partial {
        lo,
        len,
        ids: Arena::default(),
        search: Arena::default(),
        harness: Arena::default(),
        facets: Default::default(),
        broken: BitSet::new(len),
        no_id: BitSet::new(len),
        no_grade: BitSet::new(len),
        lines: Vec::new(),
    };
    let mut buf = String::new();
    for (k, i) in items.enumerate() {
        if k % 4096 == 4095 {
            tick(4096);
        }
        index_item(store, i, k, &mut p, &mut buf);
    }
    p
}

/// Item `i` of `store` as entry `k` of `p` (`buf`: room for its search text).
fn index_item(store: &Store, i: usize, k: usize, p: &mut Partial, buf: &mut String) {
    let len = p.len;
    match store.item(i) {
        Ok(item) => {
            let id = match &item.id {
                Some(id) => std::borrow::Cow::Borrowed(id.as_str()),
                None => {
                    p.no_id.set(k, true);
                    std::borrow::Cow::Owned(store.fallback_id(i))
                }
            };
            p.ids.push(&id);
            p.no_grade.set(k, crate::review::no_grade(&item).is_some());
            search_text(&item, &id, buf);
            p.search.push(buf);
            let spec = crate::bench::spec(item.benchmark());
            let harness = spec.harness_id(&item).map(|h| harness_key(&item, h));
            p.harness.push(harness.as_deref().unwrap_or(""));
            if let (Some(h), Some(v)) = (harness, spec.variant(&item)) {
                p.lines.push((k, store.part_number(i), h, v));
            }
            let facets = &mut p.facets;
            facts_of_item(&item, &mut |kind, name| {
                if let Some(b) = facets[kind.index()].entry(name, len, kind == CAPPED) {
                    b.set(k, true);
                }
            });
        }
        Err(e) => {
            let id = store.fallback_id(i);
            p.ids.push(&id);
            p.search.push(&format!("{id} {e}"));
            p.harness.push("");
            p.broken.set(k, true);
            p.no_id.set(k, true);
        }
    }
}

/// How the index keeps `item`'s harness id `h` (`Spec::harness_id`): as it is, but in a
/// folder's set, where the same sample is in several files, `task:id`.
pub fn harness_key(item: &Item, h: String) -> String {
    match item.part.as_deref().and_then(|l| l.task.as_deref()) {
        Some(task) => format!("{task}:{h}"),
        None => h,
    }
}

/// Index every item of `store`, on up to `threads` threads.
pub fn index(store: &Store, threads: usize) -> Index {
    index_with(store, threads, &|_| {})
}

/// [`index`], calling `progress` with the number of items read so far now and then.
pub fn index_with(store: &Store, threads: usize, progress: &(dyn Fn(usize) + Sync)) -> Index {
    let n = store.len();
    let threads = threads.clamp(1, 8);
    // About eight chunks per thread, handed out as threads come free, so that a thread
    // slowed by the screen or a part of the file with longer items does not hold up the
    // end. Chunks are whole 64-item words, so their bit sets are copied in place.
    let chunk = n.div_ceil(threads * 8).clamp(4096, 1 << 17).div_ceil(64) * 64;
    let chunks = n.div_ceil(chunk);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let tick = |k: usize| {
        let d = done.fetch_add(k, Ordering::Relaxed) + k;
        progress(d.min(n));
    };
    let mut parts: Vec<Partial> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.min(chunks))
            .map(|_| {
                let (tick, next) = (&tick, &next);
                s.spawn(move || {
                    let mut mine = Vec::new();
                    loop {
                        let c = next.fetch_add(1, Ordering::Relaxed);
                        if c >= chunks {
                            return mine;
                        }
                        let lo = c * chunk;
                        mine.push(index_chunk(store, lo, (lo + chunk).min(n), tick));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("index thread"))
            .collect()
    });
    parts.sort_by_key(|p| p.lo);
    let mut ix = Index {
        n,
        broken: BitSet::new(n),
        no_id: BitSet::new(n),
        no_grade: BitSet::new(n),
        ..Index::default()
    };
    let mut merged: [Names; KINDS] = Default::default();
    let mut lines = Vec::new();
    for p in parts {
        lines.extend(
            p.lines
                .into_iter()
                .map(|(k, part, h, v)| ((p.lo + k) as u32, part, h, v)),
        );
        ix.ids.append(p.ids);
        ix.search.append(p.search);
        ix.harness.append(p.harness);
        if p.len > 0 {
            ix.broken.put(p.lo, &p.broken);
            ix.no_id.put(p.lo, &p.no_id);
            ix.no_grade.put(p.lo, &p.no_grade);
        }
        for (kind, m) in p.facets.into_iter().enumerate() {
            let capped = kind == CAPPED.index();
            merged[kind].take_over(&m);
            for (name, b) in m.sets {
                if let Some(to) = merged[kind].entry(&name, n, capped) {
                    to.put(p.lo, &b);
                }
            }
        }
    }
    for kind in Kind::ALL {
        let mut names = std::mem::take(&mut merged[kind.index()].sets);
        names.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, b) in names {
            ix.facets.push((kind, name, b));
        }
    }
    ix.take_lines(lines, store.parts().is_some());
    ix
}

/// A line of a sample: (item, its file, its harness key, its variant).
type SampleLine = (u32, usize, String, String);

impl Index {
    /// From the lines of the samples: in a folder's set, the same sample in several
    /// files (`take_twins`); in every file, the lines of one sample whose models are
    /// right in one and wrong in another (`Facet::LinesDisagree`, by their variants).
    fn take_lines(&mut self, lines: Vec<SampleLine>, set: bool) {
        if lines.is_empty() {
            return;
        }
        let wrong = self.any_wrong();
        let mut of_sample: HashMap<(usize, &str), Vec<(u32, &str)>> = HashMap::new();
        for (i, part, h, v) in &lines {
            of_sample.entry((*part, h)).or_default().push((*i, v));
        }
        let mut named: HashMap<String, BitSet> = HashMap::new();
        for mut group in of_sample.into_values().filter(|g| g.len() > 1) {
            group.sort();
            for (a, &(i, v)) in group.iter().enumerate() {
                for &(j, w) in &group[a + 1..] {
                    if v != w && wrong.get(i as usize) != wrong.get(j as usize) {
                        let b = named
                            .entry(format!("{v} ≠ {w}"))
                            .or_insert_with(|| BitSet::new(self.n));
                        b.set(i as usize, true);
                        b.set(j as usize, true);
                    }
                }
            }
        }
        for (name, b) in named {
            self.insert_facet(Kind::Facet(crate::bench::Facet::LinesDisagree), name, b);
        }
        if set {
            let mut twins: HashMap<(&str, &str), Vec<u32>> = HashMap::new();
            for (i, _, h, v) in &lines {
                twins.entry((h, v)).or_default().push(*i);
            }
            let groups = twins.into_values().filter(|g| g.len() > 1).collect();
            self.take_twins(groups, &wrong);
        }
    }

    /// The items whose model (any) is wrong.
    fn any_wrong(&self) -> BitSet {
        let mut wrong = BitSet::new(self.n);
        for (_, _, b) in self.facets.iter().filter(|(k, _, _)| *k == Kind::Wrong) {
            wrong.or_with(b);
        }
        wrong
    }

    /// Keep each group of the same sample in several of a set's files, and flag the
    /// items of a group whose models are right in some files and wrong in others
    /// (`Facet::RunsDisagree`).
    fn take_twins(&mut self, mut groups: Vec<Vec<u32>>, wrong: &BitSet) {
        if groups.is_empty() {
            return;
        }
        groups.sort();
        let mut disagree = BitSet::new(self.n);
        self.twin_group = vec![u32::MAX; self.n];
        for (g, members) in groups.iter().enumerate() {
            let wrongs = members.iter().filter(|&&i| wrong.get(i as usize)).count();
            for &i in members {
                self.twin_group[i as usize] = g as u32;
                if wrongs > 0 && wrongs < members.len() {
                    disagree.set(i as usize, true);
                }
            }
        }
        self.twins = groups;
        if disagree.count() > 0 {
            let kind = Kind::Facet(crate::bench::Facet::RunsDisagree);
            self.insert_facet(kind, String::new(), disagree);
        }
    }

    /// Add facet (`kind`, `name`) in its place (`facets` is sorted).
    fn insert_facet(&mut self, kind: Kind, name: String, b: BitSet) {
        let at = self
            .facets
            .partition_point(|(k, n, _)| (*k, n.as_str()) < (kind, name.as_str()));
        self.facets.insert(at, (kind, name, b));
    }

    /// The items of a folder's set that are the same sample as item `i` in other files
    /// (`i` among them, in the set's order); empty when it has none.
    pub fn twins_of(&self, i: usize) -> &[u32] {
        match self.twin_group.get(i) {
            Some(&g) if g != u32::MAX => &self.twins[g as usize],
            _ => &[],
        }
    }
}

pub mod cache;
mod kind;
use kind::KINDS;
pub use kind::{Kind, ReviewStatus};
mod search;
pub use search::{SEARCH_SHOWN, SearchRequest, SearchWorker, match_indices, search};

#[cfg(test)]
mod tests;

#[cfg(test)]
mod index_tests;
