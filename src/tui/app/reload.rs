//! Taking up the file read again: another program's change (`reload`: every index the
//! session holds follows its item by id) or this session's own save (`take_up_own_save`).

use std::collections::{BTreeSet, HashMap};

use crate::bench::{Items, Review};
use crate::store::Store;

use super::*;

impl State {
    /// Show the file as another program left it: every item index this session holds
    /// (position, my verdicts, writes under way, undo, skips) follows its item by id.
    pub(super) fn reload(&mut self, store: Store, fx: &mut Vec<Effect>) {
        let n = store.len();
        let held = self.position_held();
        let kept = self.remapped(&store);
        self.store = store;
        // (`store.len()` waited for its scan to end: this is all of it.)
        self.found = Found {
            items: n,
            all: true,
        };
        self.rec.undo = kept.undo;
        self.rec.redo = kept.redo;
        self.skipped = kept.skipped;
        self.rec.pending = kept.pending;
        self.forget_old_file(kept.pos, fx);
        for (i, r) in kept.mine {
            self.set_mine(i, r);
        }
        self.load_again(fx);
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
    /// count of items (the file was not only ours) is taken up as `reload` takes up a
    /// change, and said.
    pub(super) fn take_up_own_save(&mut self, store: Store, fx: &mut Vec<Effect>) {
        if store.len() != self.store.len() {
            return self.reload(store, fx);
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

    /// What the session keeps of the file as it was, its indices moved to `store` (the
    /// file read again): the position, my verdicts, the journal writes under way, undo
    /// and redo, the skipped and the finished items. `Remap::map` is called in this order.
    fn remapped(&mut self, store: &Store) -> Kept {
        let mut remap = Remap::new(self.meta.as_deref(), &self.store, store);
        let pos = remap
            .map(self.pos)
            .unwrap_or(self.pos.min(store.len().saturating_sub(1)));
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
        remap.changes(&mut undo);
        remap.changes(&mut redo);
        let skipped: BTreeSet<usize> = self.skipped.iter().filter_map(|&i| remap.map(i)).collect();
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

    /// Drop what was worked out from the file as it was: the index and the facts, the
    /// filters' counts and the visible items, my verdicts' tallies, the item loaded, the
    /// search and the filter menu, the figures; `pos` is the position in the new file.
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
        self.rec.bpc_sum.clear();
        self.pos = pos;
        self.current = None;
        // Search results and the filter menu hold indices of the old file; so does the
        // answer to a search still running: it is dropped when it arrives.
        if matches!(self.mode, Mode::Search(_) | Mode::Filter { .. }) {
            self.mode = Mode::Normal;
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
    /// exists, and the scroll), ask for its image, and for an index of the new file.
    fn load_again(&mut self, fx: &mut Vec<Effect>) {
        self.show_again();
        if !self.is_empty() {
            self.image = ImageSlot::None;
            self.request_image(fx);
        }
        self.index_generation += 1;
        self.index_progress = (0, self.len());
        fx.push(Effect::Index {
            generation: self.index_generation,
        });
    }
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

/// Where an item of the file as it was is in the file read again: by id; an item without
/// id by its content (as a replay finds it), which keeps its index unless lines were added
/// or removed before it. The locator remembers the items it has matched, so the order of
/// the calls counts.
struct Remap<'a> {
    /// The new file's items by id.
    ids: HashMap<String, usize>,
    /// The old file's index, when it covers the item asked.
    meta: Option<&'a Index>,
    old: &'a Store,
    new: &'a Store,
    locator: crate::session::Locator,
}

impl<'a> Remap<'a> {
    fn new(meta: Option<&'a Index>, old: &'a Store, new: &'a Store) -> Remap<'a> {
        let ids = (0..new.len())
            .filter_map(|i| {
                new.item(i)
                    .ok()
                    .and_then(|it| it.into_fields().id)
                    .map(|id| (id, i))
            })
            .collect();
        Remap {
            ids,
            meta,
            old,
            new,
            locator: Default::default(),
        }
    }

    /// The old item's id: from the index when it has it, else from the old file.
    fn old_id(&self, i: usize) -> Option<String> {
        match self.meta.filter(|m| i < m.len()) {
            Some(m) => m.item_id(i).map(str::to_string),
            None => self.old.item(i).ok().and_then(|it| it.into_fields().id),
        }
    }

    fn map(&mut self, i: usize) -> Option<usize> {
        match self.old_id(i) {
            Some(id) => self.ids.get(&id).copied(),
            None => {
                let r = crate::journal::Record {
                    item: i,
                    id: None,
                    reviewer: String::new(),
                    review: None,
                    key: crate::session::content_key(self.old, i),
                };
                self.locator.locate(self.new, &r).ok()
            }
        }
    }

    /// The changes moved to the new file; a change of an item that is gone is dropped.
    fn changes(&mut self, v: &mut Vec<Change>) {
        let old = std::mem::take(v);
        *v = old
            .into_iter()
            .filter_map(|mut c| {
                c.item = self.map(c.item)?;
                Some(c)
            })
            .collect();
    }
}
