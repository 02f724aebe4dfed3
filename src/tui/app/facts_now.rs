//! The items' facts as they stand now: the index's bit sets, corrected for the items whose
//! facts changed this session (`FactsNow::live`), so that the filters and the menu's counts
//! are word-wise ANDs and popcounts with no per-item correction afterwards.

use std::borrow::Cow;

use crate::tui::facts::{BitSet, CAPPED, Index, Kind};

use super::*;

/// The facts of the items changed this session, and a copy of each facet such an item
/// gained or lost, corrected for those items (every other facet is the index's own).
/// Changed only through `State::set_live` and `State::clear_live` (its fields are private
/// to this module), which keep the copies in step with the facts; the copies are made for
/// one index (`State::rebuild_facts_now` makes them afresh for a new one).
#[derive(Debug, Clone, Default)]
pub(crate) struct FactsNow {
    /// The index's facts of the items whose verdict changed this session (with my verdict
    /// as it stands now), which override the index's bits for those items.
    live: HashMap<usize, Vec<(Kind, String)>>,
    /// The index the copies were made from (its address); copies made from another index
    /// are never read (`State::facet_now` corrects the index's set on the spot instead).
    index: usize,
    /// Sorted by (kind, name).
    sets: Vec<(Kind, String, BitSet)>,
}

impl FactsNow {
    /// The facts item `i` has as it stands now, when it changed this session.
    pub(super) fn live(&self, i: usize) -> Option<&[(Kind, String)]> {
        self.live.get(&i).map(Vec::as_slice)
    }

    /// The names of kind `kind` that some item has now, among the facets changed this
    /// session (a name the index does not know: a reviewer's first verdict, a new answer).
    pub(super) fn names(&self, kind: Kind) -> impl Iterator<Item = &str> {
        self.sets
            .iter()
            .filter(move |(k, _, b)| *k == kind && b.count() > 0)
            .map(|(_, n, _)| n.as_str())
    }

    /// No copies: the index's facets as they are (the facts kept).
    fn drop_sets(&mut self) {
        self.index = 0;
        self.sets = Vec::new();
    }

    fn is_for(&self, ix: &Arc<Index>) -> bool {
        self.index == Arc::as_ptr(ix) as usize
    }

    fn find(&self, kind: Kind, name: &str) -> Result<usize, usize> {
        self.sets
            .binary_search_by(|s| (s.0, s.1.as_str()).cmp(&(kind, name)))
    }

    fn get(&self, kind: Kind, name: &str) -> Option<&BitSet> {
        self.find(kind, name).ok().map(|k| &self.sets[k].2)
    }

    /// Item `i`'s facts go from `old` (as the sets have them now) to `new`.
    fn change(&mut self, ix: &Index, i: usize, old: &[(Kind, String)], new: &[(Kind, String)]) {
        for (kind, name) in old.iter().chain(new) {
            let on = new.iter().any(|(k, n)| k == kind && n == name);
            let at = match self.find(*kind, name) {
                Ok(at) => at,
                // A facet the item keeps (or never had) is not copied.
                Err(_) if ix.facet(*kind, name).is_some_and(|b| b.get(i)) == on => continue,
                Err(at) => {
                    let copy = ix
                        .facet(*kind, name)
                        .cloned()
                        .unwrap_or_else(|| BitSet::new(ix.len()));
                    self.sets.insert(at, (*kind, name.clone(), copy));
                    at
                }
            };
            self.sets[at].2.set(i, on);
        }
    }
}

impl State {
    /// Item `i`'s facts as they stand now are `facts` (for an item changed this session).
    pub(super) fn set_live(&mut self, i: usize, mut facts: Vec<(Kind, String)>) {
        // a name the index does not know, gained or lost: the menu's rows change
        let mut new_name = false;
        if let Some(ix) = &self.meta
            && i < ix.len()
        {
            // the metadata's facets are the file's, as the index capped them: a verdict
            // gives none (a key over the cap stays out of the menu)
            facts.retain(|(k, n)| *k != CAPPED || ix.facet(*k, n).is_some());
            if !self.facts_now.is_for(ix) {
                self.rebuild_facts_now();
            }
            let ix = self.meta.clone().expect("the index");
            let old = match self.facts_now.live.get(&i) {
                Some(f) => f.clone(),
                None => ix.facts(i),
            };
            new_name = old
                .iter()
                .chain(&facts)
                .any(|(k, n)| ix.facet(*k, n).is_none());
            self.facts_now.change(&ix, i, &old, &facts);
        }
        self.facts_now.live.insert(i, facts);
        // the menu offers what the index knows and what this session's verdicts gave
        if new_name && let Some(ix) = &self.meta {
            self.filter_catalog = catalog(ix, &self.facts_now);
            self.filter_counts_of = None;
        }
    }

    /// Forget every item's changed facts (the file was read again).
    pub(super) fn clear_live(&mut self) {
        self.facts_now = FactsNow::default();
    }

    /// Make the corrected sets afresh, for the index there is now, from the facts kept.
    pub(super) fn rebuild_facts_now(&mut self) {
        let Some(ix) = self.meta.clone() else {
            self.facts_now.drop_sets();
            return;
        };
        let live = std::mem::take(&mut self.facts_now.live);
        let mut now = FactsNow {
            live: HashMap::new(),
            index: Arc::as_ptr(&ix) as usize,
            sets: Vec::new(),
        };
        let mut items: Vec<usize> = live.keys().copied().filter(|&i| i < ix.len()).collect();
        items.sort_unstable();
        for i in items {
            now.change(&ix, i, &ix.facts(i), &live[&i]);
        }
        now.live = live;
        self.facts_now = now;
    }

    /// The items with fact (kind, name) as they stand now.
    pub(super) fn facet_now<'a>(
        &'a self,
        ix: &'a Arc<Index>,
        kind: Kind,
        name: &str,
    ) -> Cow<'a, BitSet> {
        if self.facts_now.is_for(ix) {
            if let Some(b) = self.facts_now.get(kind, name) {
                return Cow::Borrowed(b);
            }
            if let Some(b) = ix.facet(kind, name) {
                return Cow::Borrowed(b);
            }
            return Cow::Owned(BitSet::new(ix.len()));
        }
        // Not kept for this index (never the case after `set_live`): corrected here.
        let mut b = ix
            .facet(kind, name)
            .cloned()
            .unwrap_or_else(|| BitSet::new(ix.len()));
        for (&i, f) in self.facts_now.live.iter().filter(|(i, _)| **i < ix.len()) {
            b.set(i, f.iter().any(|(k, n)| *k == kind && n == name));
        }
        Cow::Owned(b)
    }

    /// The items I am done with as they stand now (`graded_by_me`): the index's, corrected
    /// by this session's verdicts.
    pub(super) fn done_by_me_now(&self, ix: &Index) -> BitSet {
        let mut b = ix
            .facet(Kind::Done, &self.reviewer)
            .cloned()
            .unwrap_or_else(|| BitSet::new(ix.len()));
        for (&i, &d) in self.rec.mine_done.iter().filter(|(i, _)| **i < ix.len()) {
            b.set(i, d);
        }
        b
    }

    /// The items option `o` holds for as they stand now.
    pub(super) fn option_bits<'a>(
        &'a self,
        ix: &'a Arc<Index>,
        o: &FilterOption,
    ) -> Cow<'a, BitSet> {
        let n = ix.len();
        if self.filter_hidden(o) {
            return Cow::Owned(BitSet::new(n));
        }
        match o {
            FilterOption::Status(st) if self.blind => self.facet_now(
                ix,
                Kind::ReviewerStatus,
                &crate::tui::facts::reviewer_status(&self.reviewer, *st),
            ),
            FilterOption::Skipped => {
                let mut b = BitSet::new(n);
                for &i in self.skipped.iter().filter(|&&i| i < n) {
                    b.set(i, true);
                }
                Cow::Owned(b)
            }
            FilterOption::Ungraded | FilterOption::GradedByMe => {
                let mut b = self.done_by_me_now(ix);
                if *o == FilterOption::Ungraded {
                    b.invert();
                }
                Cow::Owned(b)
            }
            FilterOption::ModelWrong => {
                let mut b = BitSet::new(n);
                for m in self.wrong_models() {
                    b.or_with(&self.facet_now(ix, Kind::Wrong, &m));
                }
                Cow::Owned(b)
            }
            other => {
                let (k, name) = other.fact().expect("a fact option");
                self.facet_now(ix, k, name)
            }
        }
    }

    /// The items passing group `g`'s filter as they stand now.
    pub(super) fn group_bits(&self, ix: &Arc<Index>, g: &FilterGroup) -> BitSet {
        let mut opts = self.filters.in_group(g);
        let Some(first) = opts.next() else {
            return BitSet::new(ix.len());
        };
        let mut b = self.option_bits(ix, first).into_owned();
        for o in opts {
            b.or_with(&self.option_bits(ix, o));
        }
        b
    }
}
