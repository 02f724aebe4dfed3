//! Taking up the file read again: another program's change (`file_changed`, then `reload`
//! once `tui::remap` has found on a thread of its own where every item index the session
//! holds is in it: by id) or this session's own save (`take_up_own_save`).

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use crate::bench::Review;
use crate::store::Store;
use crate::tui::remap::{Job, Moves};

use super::*;

/// The file read again while the session's items are looked for in it (`Effect::Remap`):
/// the screen stays on the file as it was until then.
#[derive(Debug, Default)]
pub struct Reloading {
    next_seq: u64,
    waiting: Option<Waiting>,
}

#[derive(Debug)]
struct Waiting {
    seq: u64,
    /// Whose verdict session's save it was (`Msg::ColleagueSaved`), said once taken up.
    colleague: Option<String>,
}

impl Reloading {
    /// The file was read again and is not shown yet.
    pub fn is_waiting(&self) -> bool {
        self.waiting.is_some()
    }

    /// Stop waiting for the answer `seq` (its thread failed): whether it was the one
    /// waited for.
    pub(super) fn give_up(&mut self, seq: u64) -> bool {
        if self.waiting.as_ref().is_some_and(|w| w.seq == seq) {
            self.waiting = None;
            true
        } else {
            false
        }
    }
}

impl State {
    /// Another program changed the file, and the IO worker read it again (`store`): where
    /// every item index this session holds is in it is worked out off this thread
    /// (`Effect::Remap`, answered by `Msg::Remapped`); until then the screen stays on the
    /// file as it was, and every key acts there. A newer read of the file replaces one
    /// still waiting.
    pub(super) fn file_changed(&mut self, store: Store, fx: &mut Vec<Effect>) {
        self.reloading.next_seq += 1;
        let seq = self.reloading.next_seq;
        let colleague = self.reloading.waiting.take().and_then(|w| w.colleague);
        self.reloading.waiting = Some(Waiting { seq, colleague });
        let job = Job {
            old: self.store.clone(),
            new: store,
            meta: self.meta.clone(),
            held: self.held_indices(),
        };
        fx.push(Effect::Remap {
            seq,
            job: Arc::new(job),
        });
        self.set_status(
            "the file changed on disk: reading it again (your verdicts are kept)…",
            Level::Warn,
        );
    }

    /// Another verdict session saved the file: said once the file read again is shown.
    pub(super) fn colleague_saved(&mut self, who: String) {
        if let Some(w) = &mut self.reloading.waiting {
            w.colleague = Some(who);
            return;
        }
        let who = if who.is_empty() {
            "another reviewer".into()
        } else {
            who
        };
        let n = self.len();
        self.set_status(
            format!("{who}'s verdicts came in ({n} items read again); yours are kept"),
            Level::Info,
        );
    }

    /// Where the session's items are in the file read again was worked out (`seq`: the
    /// newest ask, else dropped): show that file.
    pub(super) fn on_remapped(&mut self, seq: u64, moves: Moves, fx: &mut Vec<Effect>) {
        if self.reloading.waiting.as_ref().is_none_or(|w| w.seq != seq) {
            return;
        }
        let Some(w) = self.reloading.waiting.take() else {
            return;
        };
        self.reload(moves, fx);
        if let Some(who) = w.colleague {
            self.colleague_saved(who);
        }
    }

    /// Every item index the session holds, in the file shown: the position, my verdicts,
    /// the journal writes under way, undo and redo, the skipped and the finished items, the
    /// skips the reviewer changed while the last session's are looked for.
    fn held_indices(&self) -> Vec<usize> {
        let mut held: BTreeSet<usize> = BTreeSet::new();
        held.insert(self.pos);
        held.extend(self.rec.mine.keys());
        held.extend(self.rec.pending.values().map(|(i, _)| *i));
        held.extend(
            self.rec
                .undo
                .iter()
                .chain(&self.rec.redo)
                .flat_map(Change::parts)
                .map(|c| c.item),
        );
        held.extend(&self.skipped);
        held.extend(&self.timing.finished);
        held.extend(self.skips_changed());
        // The search's matches, shown again at once in the new file.
        if let Mode::Search(st) = &self.mode {
            held.extend(&st.results);
        }
        held.into_iter().collect()
    }

    /// Show the file as another program left it: every item index this session holds
    /// (position, my verdicts, writes under way, undo, skips) follows its item by id, as
    /// `moves` found it.
    fn reload(&mut self, mut moves: Moves, fx: &mut Vec<Effect>) {
        let store = moves.store().clone();
        let n = store.len();
        let held = self.position_held();
        let kept = self.remapped(&mut moves, n);
        let overlay = self.overlay_kept(&mut moves);
        let old = std::mem::replace(&mut self.store, store);
        // (`store.len()` waited for its scan to end: this is all of it.)
        self.found = Found {
            items: n,
            all: true,
        };
        self.rec.undo = kept.undo;
        self.rec.redo = kept.redo;
        self.skipped = kept.skipped;
        self.rec.pending = kept.pending;
        let old_meta = self.meta.take();
        self.forget_old_file(kept.pos, fx);
        let index = Arc::clone(moves.index());
        // The file as it was, its index and the ids read: freed off this thread.
        fx.push(Effect::Release(Released::new((old, old_meta, moves))));
        for (i, r) in kept.mine {
            self.set_mine(i, r);
        }
        self.load_again(index, fx);
        self.overlay_again(overlay);
        self.locate_again(held, fx);
        self.set_status(
            format!("the file changed on disk: read it again ({n} items); your verdicts are kept"),
            Level::Warn,
        );
    }

    /// The file as this session's own save wrote it, read again: its items are the ones
    /// shown, in their places (a save rewrites reviews; an Inspect log keeps its samples'
    /// order), so the screen stays as the reviewer has it (a search or the filter menu
    /// open, the response and the scroll) and shows the item again as the file now has
    /// it. Nothing is said: it is the save the status line already reports. Another
    /// count of items (the file was not only ours), or a save while another program's
    /// change is being taken up, is taken up as that change is (`file_changed`), and said.
    pub(super) fn take_up_own_save(&mut self, store: Store, fx: &mut Vec<Effect>) {
        if self.reloading.is_waiting() || store.len() != self.store.len() {
            return self.file_changed(store, fx);
        }
        self.store = store;
        self.show_again();
    }

    /// Load the item at the position again from the store, keeping the response shown
    /// where it still exists, and the scroll.
    fn show_again(&mut self) {
        if !self.is_empty() {
            let (model, scroll) = (self.model, self.scroll);
            self.load_current();
            self.model = model.min(self.item().map(|i| i.responses.len()).unwrap_or(1).max(1) - 1);
            self.scroll = scroll;
        }
    }

    /// What the session keeps of the file as it was, its indices moved to the file read
    /// again (of `n` items) as `moves` says: the position, my verdicts, the journal writes
    /// under way, undo and redo, the skipped and the finished items.
    fn remapped(&mut self, remap: &mut Moves, n: usize) -> Kept {
        let pos = remap
            .map(self.pos)
            .unwrap_or(self.pos.min(n.saturating_sub(1)));
        let mine: HashMap<usize, Option<Review>> = self
            .rec
            .mine
            .drain()
            .filter_map(|(i, r)| remap.map(i).map(|j| (j, r)))
            .collect();
        let pending: HashMap<u64, (usize, Option<Review>)> = self
            .rec
            .pending
            .drain()
            .filter_map(|(seq, (i, r))| remap.map(i).map(|j| (seq, (j, r))))
            .collect();
        let mut undo = std::mem::take(&mut self.rec.undo);
        let mut redo = std::mem::take(&mut self.rec.redo);
        move_changes(remap, &mut undo);
        move_changes(remap, &mut redo);
        let skipped: BTreeSet<usize> = self.skipped.iter().filter_map(|&i| remap.map(i)).collect();
        self.move_skips_changed(|i| remap.map(i));
        self.timing.finished = self
            .timing
            .finished
            .iter()
            .filter_map(|&i| remap.map(i))
            .collect();
        Kept {
            pos,
            mine,
            pending,
            undo,
            redo,
            skipped,
        }
    }

    /// What the open search or filter menu holds, in the new file's terms (`moves`): the
    /// search's matches and the one selected moved to the new file (a match gone from it,
    /// or one the remap was not asked for, the query edited meanwhile, is left out until
    /// the new file's matches arrive: nothing is read here), or the filter menu's option
    /// selected.
    fn overlay_kept(&self, moves: &mut Moves) -> Overlay {
        match &self.mode {
            Mode::Search(st) => {
                // (one item looked up at most, as the position is)
                let selected = st.results.get(st.selected).and_then(|&i| moves.map(i));
                let results = st
                    .results
                    .iter()
                    .filter_map(|&i| moves.map_held(i))
                    .collect();
                Overlay::Search { results, selected }
            }
            Mode::Filter { selected } => {
                Overlay::Filter(self.filter_options().get(*selected).cloned())
            }
            _ => Overlay::None,
        }
    }

    /// Put back what the open search or filter menu held, in the new file (after its
    /// index is taken up: the search asked again, the menu's options made again). The
    /// search shows its matches moved until the new file's arrive, and selects the same
    /// item in them; the menu stays on its option wherever the new file's options put it.
    fn overlay_again(&mut self, kept: Overlay) {
        match (&mut self.mode, kept) {
            (Mode::Search(st), Overlay::Search { results, selected }) => {
                st.results = results;
                st.reselect = selected;
                st.selected = selected
                    .and_then(|i| st.results.iter().position(|&r| r == i))
                    .unwrap_or(0);
            }
            (Mode::Filter { selected }, Overlay::Filter(o)) => {
                let rows = self.filter_catalog.len();
                *selected = o
                    .and_then(|o| self.filter_catalog.iter().position(|x| *x == o))
                    .unwrap_or((*selected).min(rows.saturating_sub(1)));
            }
            _ => {}
        }
    }

    /// Drop what was worked out from the file as it was: the index and the facts, the
    /// filters' counts and the visible items, my verdicts' tallies, the item loaded, the
    /// search's matches, the figures; `pos` is the position in the new file. An open
    /// search or filter menu stays open (`overlay_again` puts back what it holds).
    fn forget_old_file(&mut self, pos: usize, fx: &mut Vec<Effect>) {
        self.meta = None;
        self.clear_live();
        self.facts_rev += 1;
        self.filter_counts.clear();
        self.filter_counts_of = None;
        self.visible = None;
        self.rec.mine.clear();
        self.rec.mine_done.clear();
        self.rec.bpc_items.clear();
        self.rec.tally.clear();
        self.pos = pos;
        self.current = None;
        // Search results hold indices of the old file; so does the answer to a search
        // still running: it is dropped when it arrives.
        if let Mode::Search(st) = &mut self.mode {
            st.results.clear();
            st.selected = 0;
            st.reselect = None;
        }
        self.search_seq += 1;
        // Figures of the old file, or being computed from it, are not the file's now.
        if matches!(self.mode, Mode::Summary { .. }) {
            self.request_summary(fx);
        } else {
            self.summary.forget();
        }
    }

    /// Load the item at the position again (keeping the response shown where it still
    /// exists, and the scroll), ask for its image, and take up `index`, the new file's
    /// (made with the answer, `tui::remap`): the filters, search and counts hold on the
    /// new file from its first frame (an index built for an older generation, still under
    /// way, is dropped when it arrives).
    fn load_again(&mut self, index: Arc<crate::tui::facts::Index>, fx: &mut Vec<Effect>) {
        self.show_again();
        if !self.is_empty() {
            self.image = ImageSlot::None;
            self.request_image(fx);
        }
        self.index_generation += 1;
        self.index_progress = (self.len(), self.len());
        self.on_indexed(self.index_generation, index, fx);
    }
}

/// What an open search or filter menu holds, kept across a reload (`overlay_kept`).
enum Overlay {
    None,
    /// The matches and the one selected, in the new file's indices.
    Search {
        results: Vec<usize>,
        selected: Option<usize>,
    },
    /// The filter menu's option selected.
    Filter(Option<FilterOption>),
}

/// What `reload` keeps of the session, in the new file's indices.
struct Kept {
    pos: usize,
    mine: HashMap<usize, Option<Review>>,
    pending: HashMap<u64, (usize, Option<Review>)>,
    undo: Vec<Change>,
    redo: Vec<Change>,
    skipped: BTreeSet<usize>,
}

/// The changes moved to the new file; a change of an item that is gone is dropped.
fn move_changes(remap: &mut Moves, v: &mut Vec<Change>) {
    let old = std::mem::take(v);
    *v = old
        .into_iter()
        .filter_map(|c| {
            Change::of_parts(c.into_parts().into_iter().filter_map(|mut p| {
                p.item = remap.map(p.item)?;
                Some(p)
            }))
        })
        .collect();
}

/// What the screen lets go of that takes long to free: the file as it was before a reload
/// (closing the last descriptor of a file renamed over frees its pages in the page cache,
/// 0.3 s of CPU at 1M items) and the ids read to take the new one up (a million
/// allocations). The loop frees it on a thread of its own (`Effect::Release`).
#[derive(Clone)]
pub struct Released(std::sync::Arc<std::sync::Mutex<Option<Box<dyn std::any::Any + Send>>>>);

impl Released {
    pub fn new(what: impl std::any::Any + Send) -> Released {
        Released(std::sync::Arc::new(std::sync::Mutex::new(Some(Box::new(
            what,
        )))))
    }
}

impl PartialEq for Released {
    fn eq(&self, other: &Released) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::fmt::Debug for Released {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Released")
    }
}

#[cfg(test)]
mod index_tests;
#[cfg(test)]
mod tests;
