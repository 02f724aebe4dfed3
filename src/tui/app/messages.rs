//! What can happen to the reviewer (`Msg`, taken by `State::update`) and what the loop
//! must do after an update (`Effect`).

use super::*;

/// How `Msg::SaveWaits` begins: the status line drops it once the fold is done.
pub const SAVE_WAITS: &str = "waiting for another verdict session's save";

/// Everything that can happen to the reviewer.
pub enum Msg {
    /// A thread stopped on a panic (logged): what it was asked will never be answered.
    WorkerFailed(Worker),
    Key(KeyEvent),
    Mouse(MouseEvent),
    Paste(String),
    Resize(u16, u16),
    Tick,
    /// How many items the file's read has found (`Store::len_so_far`): sent by the loop
    /// before any other message whenever it changed, so `update` reads the count from its
    /// state and never from the scan going on beside it.
    Found(Found),
    /// The journal write of verdict `seq` finished (Ok: durable on disk).
    Recorded {
        seq: u64,
        result: Result<(), String>,
    },
    /// The journal was folded into the results file.
    Saved(Result<String, String>),
    /// The fold waits for another session's save (the words, starting [`SAVE_WAITS`], say
    /// whose, and how long): every verdict is in the journal meanwhile.
    SaveWaits(String),
    /// The background index of every item is ready; `generation` is the [`State::index_generation`]
    /// it was started for (an index of the file before a reload is dropped).
    Indexed {
        generation: u64,
        meta: std::sync::Arc<Index>,
    },
    /// The index of generation `generation`, as kept in the data folder and used in place
    /// from its mapping: the same index as the one `Msg::Indexed` gave (the index thread
    /// checks), which it replaces so that the texts built in memory are dropped.
    IndexKept {
        generation: u64,
        meta: std::sync::Arc<Index>,
    },
    /// Another program changed the file: the IO worker read it again (with every
    /// journaled verdict on it). Shown once `Msg::Remapped` says where the session's items
    /// are in it.
    Reloaded(Store),
    /// Where the session's items are in the file read again, for ask `seq`
    /// (`Effect::Remap`; an answer to an older ask is dropped).
    Remapped {
        seq: u64,
        moves: Box<crate::tui::remap::Moves>,
    },
    /// The file as this session's own save wrote it, read again by the IO worker (a
    /// container file, whose reader shows what the save wrote: an Inspect log's score
    /// edits and recomputed figures). Not a change by anyone else.
    Resaved(Store),
    /// The change just read (`Reloaded`) was the save of another verdict session, by this
    /// reviewer: their verdicts came in (no foreign edit).
    ColleagueSaved(String),
    /// The background index `generation` has read `done` of `total` items.
    IndexProgress {
        generation: u64,
        done: usize,
        total: usize,
    },
    /// The set's figures for the summary screen, for request `seq` (an answer to an
    /// older request, e.g. one made before a reload, is dropped).
    Summary {
        seq: u64,
        result: Result<crate::tui::summary::Summary, String>,
    },
    Image(ImageEvent),
    /// Matches of search `seq`, best first.
    SearchDone {
        seq: u64,
        results: Vec<usize>,
    },
    /// The saved session's items and the start, found for lookup `seq`
    /// (`Effect::Locate`).
    Located {
        seq: u64,
        located: crate::tui::locate::Located,
    },
}

/// What the loop must do after an update.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Append to the journal (fsync), then apply to the store; answer with `Msg::Recorded`.
    Record {
        seq: u64,
        item: usize,
        id: Option<String>,
        /// The item's text as the screen has it (shared, not copied), for an item without
        /// an id or whose id another shares (`crate::session::needs_key`, decided by the
        /// IO worker from `index`):
        /// the IO worker works out what its content is from it
        /// (`crate::session::content_key_of`), to find it again if lines were added or
        /// removed before it (off the screen's thread: a long item's takes hundreds of
        /// milliseconds).
        content: Option<crate::store::ItemText>,
        /// The index whose ids tell whether another item shares this one's (`None`: not
        /// built yet, taken as shared); asked off the screen's thread (a search of every
        /// id: milliseconds at 1M items).
        index: Option<std::sync::Arc<crate::tui::facts::Index>>,
        reviewer: String,
        review: Option<Value>,
    },
    RequestImage(ImageKey),
    PrefetchImage(PathBuf),
    OpenExternal(PathBuf),
    SavePosition {
        index: usize,
        id: Option<String>,
    },
    /// Compute the set's figures; answer with `Msg::Summary` of the same `seq`.
    ComputeSummary {
        seq: u64,
    },
    /// Index `State::store` again (after the file was read again), as generation `generation`.
    Index {
        generation: u64,
    },
    /// Keep the skipped items and the undo history for the next session.
    SaveSession(crate::tui::config::Session),
    /// Find the saved session's items and the start in `State::store`, off the screen's
    /// thread (`tui::locate`): by their places, and by id with the index `meta` when it
    /// is there; answer with `Msg::Located` of the same `seq` (no answer without the
    /// index when an item must be found by id: asked again when the index arrives).
    Locate {
        seq: u64,
        wanted: std::sync::Arc<crate::tui::locate::Wanted>,
        meta: Option<std::sync::Arc<Index>>,
    },
    /// Find where the session's items are in the file read again, and its index, off the
    /// screen's thread (`tui::remap`: the index carried from the old file's where items are
    /// the same, else built afresh); answer with `Msg::Remapped` of the same `seq`.
    Remap {
        seq: u64,
        job: std::sync::Arc<crate::tui::remap::Job>,
    },
    /// Let go of what the screen no longer needs and takes long to free, on a thread of
    /// its own.
    Release(Released),
    /// Run a fuzzy search on the search worker; answer with `Msg::SearchDone`.
    Search {
        seq: u64,
        query: String,
        meta: std::sync::Arc<Index>,
        within: Option<Vec<usize>>,
    },
    Suspend,
    Quit,
}

/// A thread whose panic the screen is told of (`Msg::WorkerFailed`), with the request it
/// was answering where several can be under way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Worker {
    /// The filter and search index of the file as read at `generation`.
    Index { generation: u64 },
    /// The search of the whole set.
    Search,
    /// The last session's items in the file (`Msg::Located`'s `seq`).
    Locate { seq: u64 },
    /// The session's items in the file read again (`Msg::Remapped`'s `seq`).
    Remap { seq: u64 },
    /// The IO worker, which records every verdict: the session cannot go on.
    Io,
    /// The terminal's reader: no key can reach the session any more.
    Input,
}
