//! Where the items of the file as the screen shows it are in the file read again after
//! another program changed it (`State::reload`, `app/reload.rs`): where the IO worker
//! applies a verdict on it when it replays this session's journal onto that file
//! (`session::Locator`, one rule for both), so the screen never shows a verdict on an item
//! other than the one the file gets it on: by id (in its place while the item there has
//! it, else the first item with it); an item without id by its content.
//!
//! Finding items by id needs every id of the new file, and the screen needs the new file's
//! filter index: both come from one pass here, the index of the new file built afresh
//! (every item read, seconds at 1M items); its ids are the ones the ids are found by.
//! That is done on a thread of its own (`threads::spawn_remap`, asked by `Effect::Remap`, answered by `Msg::Remapped`), never
//! on the screen's thread (docs/architecture.md, "the UI thread never waits on a file"),
//! for every index the session held when it asked ([`Job::held`]). Meanwhile the screen
//! stays on the file as it was (with its index: search and filters work there), and every
//! key acts there; the file read again is shown with its index, so search and the filters
//! hold from its first frame. An index the session took up since (a verdict given
//! meanwhile) is looked up when the answer is taken up ([`Moves::map`]: by the ids already
//! read, one item of the file before when the index does not cover it).

use std::collections::HashMap;
use std::sync::Arc;

use crate::bench::Items;
use crate::store::Store;
use crate::tui::facts::Index;
/// What the remap thread is asked: the file as the screen shows it (`old`, with its index
/// `meta` when it is there), the file read again (`new`) and the indices the session holds
/// (its position, my verdicts, the writes under way, undo and redo, the skipped and the
/// finished items).
#[derive(Debug)]
pub struct Job {
    pub old: Store,
    pub new: Store,
    pub meta: Option<Arc<Index>>,
    pub held: Vec<usize>,
}

/// Two asks are the same when they are the same one (an `Effect`'s equality).
impl PartialEq for Job {
    fn eq(&self, other: &Job) -> bool {
        std::ptr::eq(self, other)
    }
}

/// The answer: where each held index is in the new file (`None`: its item is gone), and
/// what finds any other index there.
pub struct Moves {
    remap: Remap,
    found: HashMap<usize, Option<usize>>,
    /// The new file's index.
    index: Arc<Index>,
}

impl std::fmt::Debug for Moves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Moves")
            .field("found", &self.found)
            .finish_non_exhaustive()
    }
}

impl Moves {
    /// The new file's index, and where `job`'s held indices
    /// are in its new file (by the index's ids; the held items of the old file that its
    /// index does not cover are read).
    pub fn work_out(job: &Job) -> Moves {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        let index = crate::tui::facts::index(&job.new, threads);
        let mut remap = Remap::new(job.meta.clone(), job.old.clone(), job.new.clone(), &index);
        if remap.without_id {
            // An item without id taken up after this (a verdict given meanwhile) is then
            // found among these, not by reading the new file on the screen's thread. The
            // new index says which items have no id: only those are read, on every core.
            let without: Vec<usize> = (0..index.len())
                .filter(|&j| index.item_id(j).is_none())
                .collect();
            remap.locator.contents_of(&remap.new, &without, threads);
        }
        let found = job.held.iter().map(|&i| (i, remap.map(i))).collect();
        Moves {
            remap,
            found,
            index: Arc::new(index),
        }
    }

    /// The new file's filter index.
    pub fn index(&self) -> &Arc<Index> {
        &self.index
    }

    /// Where the old file's item `i` is in the new file: as worked out when it was held,
    /// else looked up now (its id from the index or its item, then the new file's item at
    /// its place, then the new file's ids already read).
    pub fn map(&mut self, i: usize) -> Option<usize> {
        match self.found.get(&i) {
            Some(&j) => j,
            None => self.remap.map(i),
        }
    }

    /// Where the old file's item `i` is in the new file, if it was held when the remap
    /// was asked (worked out then, off the screen's thread); None when it was not, or its
    /// item is gone. Never reads a file.
    pub fn map_held(&self, i: usize) -> Option<usize> {
        self.found.get(&i).copied().flatten()
    }

    /// The file read again.
    pub fn store(&self) -> &Store {
        &self.remap.new
    }
}

/// Where an item of the file as it was is in the file read again: where the IO worker
/// applies a verdict on it when it replays the journal onto that file
/// (`session::Locator`): by id, in its place when the item there still has it, else the
/// one item with it (among several, the one with its content); an item without id by its
/// content, in its place when its content is the one there, else the one item of the new
/// file with its content. Each answer
/// depends on the item asked only, not on what was asked before.
struct Remap {
    /// Some item of the new file has no id.
    without_id: bool,
    /// The old file's index, when it covers the item asked.
    meta: Option<Arc<Index>>,
    old: Store,
    new: Store,
    /// The new file's ids, read beforehand (`Locator::ids`).
    locator: crate::session::Locator,
}

impl Remap {
    /// `index`: the new file's, whose ids are its items' (no item read again for them).
    fn new(meta: Option<Arc<Index>>, old: Store, new: Store, index: &Index) -> Remap {
        let mut locator = crate::session::Locator::default();
        let without_id = locator.ids((0..index.len()).map(|j| index.item_id(j)));
        Remap {
            without_id,
            meta,
            old,
            new,
            locator,
        }
    }

    /// The old item's id: from the index when it has it, else from the old file.
    fn old_id(&self, i: usize) -> Option<String> {
        match self.meta.as_deref().filter(|m| i < m.len()) {
            Some(m) => m.item_id(i).map(str::to_string),
            None => self.old.item(i).ok().and_then(|it| it.into_fields().id),
        }
    }

    fn map(&mut self, i: usize) -> Option<usize> {
        let id = self.old_id(i);
        // What the IO worker records of the item, from the index the screen had (the old
        // file's): its content too when it has no id or another item shares its id.
        let key = crate::tui::worker::record_key(
            id.as_deref(),
            self.old.raw_shared(i).ok().as_ref(),
            self.meta.as_deref(),
        );
        let r = crate::journal::Record {
            item: i,
            id,
            reviewer: String::new(),
            review: None,
            key,
        };
        self.locator.locate(&self.new, &r).ok()
    }
}
