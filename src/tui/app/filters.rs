//! Filtering the items: which pass, the menu's counts, the items' facts as my verdicts change them.

use crate::bench::Items;
use std::collections::HashMap;

use crate::tui::facts::{BitSet, Index, Kind};
use crate::tui::keymap::{Action, Context};

use super::*;

impl State {
    /// Ask the search worker for the current query's matches (the newest request wins;
    /// results come back as `Msg::SearchDone`).
    pub(super) fn refresh_search(&mut self, fx: &mut Vec<Effect>) {
        let Mode::Search(s) = &mut self.mode else {
            return;
        };
        s.selected = 0;
        let Some(meta) = &self.meta else { return };
        self.search_seq += 1;
        fx.push(Effect::Search {
            seq: self.search_seq,
            query: s.query.text(),
            meta: meta.clone(),
            within: self.visible.as_ref().map(Visible::to_vec),
        });
    }

    pub fn filter_options(&self) -> Vec<FilterOption> {
        self.filter_catalog.clone()
    }

    pub fn filter_active(&self, o: &FilterOption) -> bool {
        self.filters.is_on(o)
    }

    /// Is the filter row hidden now: blind mode, and derived from others' verdicts or the
    /// judge? A hidden row selects and counts nothing.
    pub fn filter_hidden(&self, o: &FilterOption) -> bool {
        self.blind && o.depends_on_others(&self.reviewer)
    }

    /// The filter row's label as it applies now: in blind mode the verification rows
    /// are my verdicts'.
    pub fn filter_label(&self, o: &FilterOption) -> String {
        match o {
            FilterOption::Status(_) if self.blind => format!("{} by me", o.label()),
            _ => o.label(),
        }
    }

    /// Blind mode starts: the filters and the queue that depend on others' verdicts go.
    pub(super) fn blind_filters_off(&mut self, fx: &mut Vec<Effect>) -> bool {
        let before = self.filters.on.len();
        let me = self.reviewer.clone();
        self.filters.on.retain(|o| !o.depends_on_others(&me));
        let changed = self.filters.on.len() != before || self.queue;
        self.queue = false;
        if changed || !self.filters.is_empty() {
            // The verification rows now look at my verdicts only.
            self.apply_filters(fx);
        }
        changed
    }

    /// Turn an option on or off. Options of one group combine with OR, so any number of
    /// them can be on; "ungraded" and "graded by me" are the exception (both on would be
    /// no filter at all).
    pub(super) fn toggle_filter(&mut self, o: FilterOption) {
        let f = &mut self.filters;
        if let Some(p) = f.on.iter().position(|x| *x == o) {
            f.on.remove(p);
            return;
        }
        match o {
            FilterOption::Ungraded => f.on.retain(|x| *x != FilterOption::GradedByMe),
            FilterOption::GradedByMe => f.on.retain(|x| *x != FilterOption::Ungraded),
            _ => {}
        }
        if let FilterOption::Model(m) = &o
            && let Some(k) = self
                .item()
                .and_then(|it| it.responses.iter().position(|r| r.model == *m))
        {
            // Choosing a model shows its response.
            self.model = k;
        }
        self.filters.on.push(o);
    }

    /// Turn the filter menu's row `row` on or off (a filter blind mode hides stays off).
    pub(super) fn toggle_filter_row(&mut self, row: usize, fx: &mut Vec<Effect>) {
        let Some(o) = self.filter_options().get(row).cloned() else {
            return;
        };
        if self.filter_hidden(&o) {
            let key = self.keymap.hint(Context::Global, Action::Blind);
            self.set_status(
                format!("{}: hidden in blind mode ({key} leaves it)", o.label()),
                Level::Warn,
            );
            return;
        }
        self.toggle_filter(o);
        self.apply_filters(fx);
    }

    /// Does fact (kind, name) hold for item `i` as it stands now?
    pub(super) fn holds(&self, i: usize, kind: Kind, name: &str) -> bool {
        if let Some(f) = self.facts_now.live(i) {
            return f.iter().any(|(k, n)| *k == kind && n == name);
        }
        self.meta.as_ref().is_some_and(|m| m.has(i, kind, name))
    }

    /// The models the "model wrong" filter looks at: the chosen ones, else all.
    pub(super) fn wrong_models(&self) -> Vec<String> {
        let chosen: Vec<String> = self
            .filters
            .in_group(&FilterGroup::Model)
            .filter_map(|o| match o {
                FilterOption::Model(m) => Some(m.clone()),
                _ => None,
            })
            .collect();
        if !chosen.is_empty() {
            return chosen;
        }
        self.meta
            .as_ref()
            .map(|m| m.names(Kind::Model).map(str::to_string).collect())
            .unwrap_or_default()
    }

    /// Does option `o` hold for item `i` as it stands now?
    pub fn option_holds(&self, o: &FilterOption, i: usize) -> bool {
        if self.filter_hidden(o) {
            return false;
        }
        match o {
            FilterOption::Status(st) if self.blind => self.holds(
                i,
                Kind::ReviewerStatus,
                &crate::tui::facts::reviewer_status(&self.reviewer, *st),
            ),
            FilterOption::Ungraded => !self.graded_by_me(i),
            FilterOption::GradedByMe => self.graded_by_me(i),
            FilterOption::Skipped => self.skipped.contains(&i),
            FilterOption::ModelWrong => self
                .wrong_models()
                .iter()
                .any(|m| self.holds(i, Kind::Wrong, m)),
            other => {
                let (k, n) = other.fact().expect("a fact option");
                self.holds(i, k, n)
            }
        }
    }

    /// Does item `i` pass every group's filter except `skip`'s?
    pub fn passes_except(&self, i: usize, skip: Option<FilterGroup>) -> bool {
        self.filters
            .groups()
            .into_iter()
            .filter(|g| skip.as_ref() != Some(g))
            .all(|g| self.filters.in_group(&g).any(|o| self.option_holds(o, i)))
    }

    /// Is item `i` in the adjudication queue now (my verdicts of this session included)?
    pub fn needs_adjudication(&self, i: usize) -> bool {
        if self.meta.is_some() {
            return self.holds(i, Kind::NeedsAdjudication, "");
        }
        if let Some(r) = self.rec.mine.get(&i) {
            let Ok(mut it) = self.store.item(i) else {
                return false;
            };
            match r {
                Some(r) => {
                    it.reviews.insert(self.reviewer.clone(), r.clone());
                }
                None => {
                    it.reviews.shift_remove(&self.reviewer);
                }
            }
            return crate::bench::needs_adjudication(&it);
        }
        false
    }

    /// Does item `i` pass the filters (and the adjudication queue, when on)?
    pub fn passes(&self, i: usize) -> bool {
        if self.queue && !self.needs_adjudication(i) {
            return false;
        }
        self.passes_except(i, None)
    }

    pub(super) fn apply_filters(&mut self, fx: &mut Vec<Effect>) {
        let Some(ix) = self.meta.clone() else {
            self.visible = None;
            return;
        };
        if self.filters.is_empty() && !self.queue {
            self.visible = None;
            self.count_filters();
            return;
        }
        let mut mask = BitSet::full(ix.len());
        for g in self.filters.groups() {
            mask.and_with(&self.group_bits(&ix, &g));
        }
        if self.queue {
            mask.and_with(&self.facet_now(&ix, Kind::NeedsAdjudication, ""));
        }
        let v = Visible::new(mask);
        let n = v.len();
        self.count_filters();
        let what = match (self.queue, self.filters.is_empty()) {
            (true, true) => "adjudication queue".to_string(),
            (true, false) => format!("adjudication queue + {}", self.filters.describe()),
            (false, _) => self.filters.describe(),
        };
        let msg = if self.queue && n == 0 {
            format!(
                "{what}: no item left to adjudicate ({} leaves the queue)",
                self.keymap.hint(Context::Global, Action::AdjudicationQueue)
            )
        } else if n == 1 {
            format!("1 item matches: {what}")
        } else {
            format!("{n} items match: {what}")
        };
        if !v.contains(self.pos)
            && let Some(t) = v.after(self.pos).or(v.first())
        {
            self.visible = Some(v);
            self.goto(t, fx);
            self.set_status(msg, Level::Info);
            return;
        }
        self.visible = Some(v);
        self.set_status(msg, Level::Info);
    }

    /// Count, for every row of the filter menu, the items that match it and the filters
    /// of the other groups (what turning it on would show, or shows). The counts are kept
    /// and counted again only when something they depend on changed (`CountsKey`).
    pub fn count_filters(&mut self) {
        let Some(ix) = self.meta.clone() else {
            self.filter_counts.clear();
            self.filter_counts_of = None;
            return;
        };
        let key = CountsKey {
            index: std::sync::Arc::as_ptr(&ix) as usize,
            rows: self.filter_catalog.len(),
            filters: self.filters.clone(),
            blind: self.blind,
            skipped: {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                self.skipped.hash(&mut h);
                h.finish()
            },
            facts_rev: self.facts_rev,
        };
        if self.filter_counts_of.as_ref() == Some(&key) {
            return;
        }
        // Only the filters changed (a row toggled): a row whose count depends on none
        // of the groups that changed keeps its count.
        let old = self
            .filter_counts_of
            .take()
            .filter(|o| self.filter_counts.len() == o.rows && o.same_but_filters(&key));
        let keep: Vec<bool> = match &old {
            Some(o) => self
                .filter_catalog
                .iter()
                .map(|row| unaffected(row, &o.filters, &key.filters))
                .collect(),
            None => vec![false; self.filter_catalog.len()],
        };
        self.count_filters_now(&ix, &keep);
        self.filter_counts_of = Some(key);
    }

    /// Count the rows not marked in `keep` (those keep their count in `filter_counts`):
    /// per row, a popcount of its items as they stand now AND the other groups' filters.
    fn count_filters_now(&mut self, ix: &std::sync::Arc<Index>, keep: &[bool]) {
        let groups = self.filters.groups();
        let masks: Vec<(FilterGroup, BitSet)> = groups
            .iter()
            .map(|g| (g.clone(), self.group_bits(ix, g)))
            .collect();
        // The items passing every group but `skip`'s; None: every item (no such group).
        let except = |skip: Option<&FilterGroup>| {
            let mut m: Option<BitSet> = None;
            for (_, b) in masks.iter().filter(|(g, _)| skip != Some(g)) {
                match &mut m {
                    Some(m) => m.and_with(b),
                    None => m = Some(b.clone()),
                }
            }
            m
        };
        let mut by_group: HashMap<Option<FilterGroup>, Option<BitSet>> = HashMap::new();
        let mut counts = Vec::with_capacity(self.filter_catalog.len());
        for (k, o) in self.filter_catalog.iter().enumerate() {
            if keep.get(k) == Some(&true) {
                counts.push(self.filter_counts[k]);
                continue;
            }
            let g = o.group();
            let key = groups.contains(&g).then_some(g);
            let others = by_group
                .entry(key.clone())
                .or_insert_with(|| except(key.as_ref()));
            let bits = self.option_bits(ix, o);
            counts.push(match others {
                Some(m) => m.count_and(&bits),
                None => bits.count(),
            });
        }
        self.filter_counts = counts;
    }

    /// Recompute the facts of item `i` with my verdict as it stands now.
    pub(super) fn refresh_live(&mut self, i: usize) {
        self.facts_rev += 1;
        if self.meta.is_none() {
            return;
        }
        let item = match self.current.as_ref().filter(|c| c.index == i) {
            Some(c) => c.item.as_deref().ok().cloned(),
            None => self.store.item(i).ok(),
        };
        let Some(mut item) = item else { return };
        match self.my_review(i) {
            Some(r) => {
                item.reviews.insert(self.reviewer.clone(), r);
            }
            None => {
                item.reviews.shift_remove(&self.reviewer);
            }
        }
        let mut facts = crate::tui::facts::collect_facts(&item);
        // what the index knows of the item from other lines (of its sample, in this
        // file or another of the set) stays
        if let Some(m) = &self.meta {
            for f in [
                crate::bench::Facet::RunsDisagree,
                crate::bench::Facet::LinesDisagree,
            ] {
                let kind = Kind::Facet(f);
                facts.extend(
                    m.names(kind)
                        .filter(|n| m.has(i, kind, n))
                        .map(|n| (kind, n.to_string())),
                );
            }
        }
        self.set_live(i, facts);
    }
}

/// What the filter menu's counts depend on: the index (a new one after a reload), the
/// filters that are on, blind mode, my skips, and every item's facts as they stand now
/// (`State::facts_rev`). The reviewer does not change within a session.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CountsKey {
    index: usize,
    rows: usize,
    filters: Filters,
    blind: bool,
    skipped: u64,
    facts_rev: u64,
}

impl CountsKey {
    /// Everything but the filters is the same.
    fn same_but_filters(&self, other: &CountsKey) -> bool {
        (
            self.index,
            self.rows,
            self.blind,
            self.skipped,
            self.facts_rev,
        ) == (
            other.index,
            other.rows,
            other.blind,
            other.skipped,
            other.facts_rev,
        )
    }
}

/// Does row `row`'s count stay the same when the filters go from `old` to `new`? A row
/// counts the items that match it and every other group's filter; "model wrong" (as a
/// row or as a filter that is on) also reads the chosen models.
fn unaffected(row: &FilterOption, old: &Filters, new: &Filters) -> bool {
    let same = |g: &FilterGroup| old.in_group(g).eq(new.in_group(g));
    let model_wrong_on = old.in_group(&FilterGroup::ModelWrong).next().is_some()
        || new.in_group(&FilterGroup::ModelWrong).next().is_some();
    if !same(&FilterGroup::Model) && (model_wrong_on || *row == FilterOption::ModelWrong) {
        return false;
    }
    let mut groups = old.groups();
    groups.extend(new.groups());
    groups.iter().all(|g| *g == row.group() || same(g))
}
