//! The reviewer's state and its pure `update`: messages in, state changes and effects out.
//! Nothing here touches the terminal or the file; effects are carried out by the loop in
//! `tui::run` (journal writes, image requests, saving the resume position).

mod actions;
mod facts_now;
mod failed;
mod filter_options;
mod filters;
mod keys;
mod messages;
mod navigation;
mod popup;
mod queries;
mod recording;
mod reload;
mod restore;
mod session;
mod summary_figures;
mod timing;
mod update;
mod visible;

pub(crate) use failed::INDEX_FAILED;
use filter_options::catalog;
pub use filter_options::{FilterGroup, FilterOption, Filters};
pub use messages::{Effect, Msg, SAVE_WAITS, Worker};
pub(crate) use popup::text_popup;
pub use popup::{AnyPopup, Popup};
pub use recording::Recording;
pub use reload::{Released, Reloading};
pub use restore::Restoring;
pub use summary_figures::{SummaryFigures, SummaryResult};
pub use timing::Timing;
pub use visible::Visible;

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use crossterm::event::{KeyEvent, MouseEvent};
use serde_json::Value;

use crate::bench::{Item, Review};
use crate::store::{ItemError, Store};
use crate::tui::edit::TextEdit;
use crate::tui::facts::Index;
use crate::tui::image::{ImageEvent, ImageKey};
use crate::tui::keymap::Keymap;
pub use crate::tui::overlays::search::SearchState;
use crate::tui::theme::{Theme, ThemeName};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Info,
    Warn,
    Error,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Mode {
    Normal,
    Help {
        scroll: u16,
    },
    Summary {
        scroll: u16,
    },
    Search(SearchState),
    Jump(TextEdit),
    Note(TextEdit),
    /// A popup a benchmark's view opened (a grade's: a penalty, a reject's reason, a fix):
    /// that view handles its keys and draws it.
    Popup(AnyPopup),
    Filter {
        selected: usize,
    },
}

impl Mode {
    /// Whether the popup is a text field (it takes letters, and Alt-b / Alt-f).
    pub fn has_text_field(&self) -> bool {
        matches!(self, Mode::Search(_) | Mode::Jump(_) | Mode::Note(_))
            || matches!(self, Mode::Popup(p) if p.has_field())
    }

    /// A view's popup, if the one on screen is a `T`.
    pub fn popup<T: Popup>(&self) -> Option<&T> {
        match self {
            Mode::Popup(p) => p.get(),
            _ => None,
        }
    }

    pub fn popup_mut<T: Popup>(&mut self) -> Option<&mut T> {
        match self {
            Mode::Popup(p) => p.get_mut(),
            _ => None,
        }
    }

    /// The text field with the cursor, if the popup has one.
    pub fn text_field(&mut self) -> Option<&mut TextEdit> {
        match self {
            Mode::Search(s) => Some(&mut s.query),
            Mode::Jump(e) | Mode::Note(e) => Some(e),
            Mode::Popup(p) => p.field(),
            _ => None,
        }
    }
}

/// A verdict change, for undo/redo.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub item: usize,
    pub before: Option<Review>,
    pub after: Option<Review>,
    /// The change cleared my skip of the item: undoing it skips the item again.
    pub unskipped: bool,
    /// The same change of the other items that hold the same answer (issue 39:
    /// `Spec::same_answer`), made with it and undone and redone with it (each with no
    /// `with` of its own).
    pub with: Vec<Change>,
}

impl Change {
    /// My review of `item` changed from `before` to `after`, alone.
    pub fn of(item: usize, before: Option<Review>, after: Option<Review>) -> Change {
        Change {
            item,
            before,
            after,
            unskipped: false,
            with: vec![],
        }
    }

    /// Its items' changes, the one made first first.
    pub fn parts(&self) -> impl Iterator<Item = &Change> {
        std::iter::once(self).chain(&self.with)
    }

    /// The change of `parts` (the first made, the others with it); None for no part.
    pub fn of_parts(parts: impl IntoIterator<Item = Change>) -> Option<Change> {
        let mut parts = parts.into_iter();
        let mut first = parts.next()?;
        first.with = parts
            .map(|mut p| {
                p.with.clear();
                p
            })
            .collect();
        Some(first)
    }

    /// Its parts, each alone.
    pub fn into_parts(mut self) -> Vec<Change> {
        let with = std::mem::take(&mut self.with);
        std::iter::once(self).chain(with).collect()
    }
}

/// The loaded current item.
#[derive(Debug, Clone)]
pub struct Current {
    pub index: usize,
    /// Shared with the panes kept between frames, whose lines borrow its texts
    /// (`tui::laid`).
    pub item: Result<std::rc::Rc<Item>, ItemError>,
    /// The item's line as text, for an item that cannot be read or a line that is not
    /// JSON (the error's display, the generic view); else empty.
    pub raw: String,
    /// The item's line parsed, each string cut to what the generic view shows of it
    /// (`tui::text::json_cut`), for a view that shows the line (`View::shows_raw`).
    pub json: Option<serde_json::Value>,
    /// Which load of an item this is (every load has its own, in the whole process): the
    /// item's panes kept between frames (`tui::laid`) are those of one load.
    pub load: u64,
}

/// The same sample in one model's or run's file of a folder's set (`State::twin_rows`).
#[derive(Debug, Clone)]
pub struct TwinRow {
    /// Its place in the set.
    pub index: usize,
    /// Its model and run.
    pub label: Option<String>,
    /// The model's answer.
    pub answer: String,
    /// The model's answer is wrong (the harness's score, or the verdicts').
    pub wrong: Option<bool>,
    /// My verdict on it, as it stands now.
    pub mine: Option<crate::bench::Review>,
    pub item: Item,
}

#[derive(Clone)]
pub enum ImageSlot {
    None,
    Loading(ImageKey),
    Ready(ImageKey, std::sync::Arc<ratatui_image::protocol::Protocol>),
    Failed(ImageKey, String),
}

impl std::fmt::Debug for ImageSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ImageSlot::None => f.write_str("None"),
            ImageSlot::Loading(k) => write!(f, "Loading({k:?})"),
            ImageSlot::Ready(k, _) => write!(f, "Ready({k:?})"),
            ImageSlot::Failed(k, e) => write!(f, "Failed({k:?}, {e})"),
        }
    }
}

/// The reviewer's clock, set by the loop before each update (tests set it by hand).
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    pub instant: Instant,
    pub utc: time::OffsetDateTime,
}

impl Clock {
    pub fn now() -> Clock {
        Clock {
            instant: Instant::now(),
            utc: time::OffsetDateTime::now_utc(),
        }
    }
}

pub struct State {
    /// Read-only view of the file as opened (plus replayed journal); this session's
    /// verdicts are in `mine`.
    pub store: Store,
    pub file_name: String,
    pub reviewer: String,
    pub keymap: Keymap,
    pub theme: Theme,
    pub protocol_name: &'static str,
    pub mode: Mode,
    pub clock: Clock,
    pub size: (u16, u16),

    /// Current position: an index into the file.
    pub pos: usize,
    pub current: Option<Current>,
    /// My verdicts of this session: recorded, being written, undo and redo.
    pub rec: Recording,

    pub meta: Option<std::sync::Arc<Index>>,
    /// The facts of the items changed this session, and the index's facets corrected by
    /// them: what filters and counts read (changed through `set_live` and `clear_live`).
    pub(crate) facts_now: facts_now::FactsNow,
    /// How far the background index is (items read, total) while it is being built.
    pub index_progress: (usize, usize),
    /// The index thread stopped on an error (`Worker::Index`): while there is no index
    /// (`meta`), search, filters and jumps by id say they are not coming instead of "in a
    /// moment". (An index that comes later, with the file read again, is used as usual.)
    pub index_failed: bool,
    /// The search thread stopped on an error (`Worker::Search`): no search is answered.
    pub search_failed: bool,
    /// Which index the screen waits for: raised on every reload, so that an index of the
    /// file as it was before is dropped when it arrives (`Msg::Indexed`).
    pub index_generation: u64,
    /// The filter menu's rows, built once from the index.
    pub filter_catalog: Vec<FilterOption>,
    /// Per row of the menu: the items that match it and the other groups' filters.
    pub filter_counts: Vec<usize>,
    /// What `filter_counts` were counted from: they are counted again only when it changes.
    pub(crate) filter_counts_of: Option<filters::CountsKey>,
    /// Bumped whenever an item's facts as they stand now change this session (a verdict
    /// given or undone, facts refreshed, the file read again).
    pub(crate) facts_rev: u64,
    /// The newest search asked of the search worker.
    pub search_seq: u64,
    pub filters: Filters,
    /// The filter menu's row when it was last closed: it opens there again.
    pub(crate) filter_row: usize,
    /// Items passing the filters (None: all).
    pub visible: Option<Visible>,

    pub model: usize,
    pub side_by_side: bool,
    /// What a view's grading keys act on inside the item, when its view offers a choice
    /// (`View::act` sets it; each item opens on `None`: the view's default). The
    /// view reads it back and says on screen what it is.
    pub graded_part: Option<String>,
    /// Which of its choices a view shows, cycled by a key of its own (CharToM-QA's context
    /// length: `views::chartom_qa::context_length`); 0 at the start.
    pub view_choice: usize,
    /// How far the item's text is scrolled, in rows (a line of megabytes is hundreds of
    /// thousands of rows: wider than a `u16`).
    pub scroll: usize,
    /// How far the context pane (a long CharToM-QA context beside the item, on a wide
    /// screen) is scrolled.
    pub aside_scroll: usize,
    pub blind: bool,
    pub image: ImageSlot,
    /// Where the image pane is on screen (set by draw via `image_area`), in cells.
    pub image_area: Option<(u16, u16)>,

    pub status: Option<(String, Level)>,
    /// A status that is true only while the file is being read (a key that could not go
    /// past the items found so far): taken down once the whole file is read, if it is
    /// still the status then (`State::set_reading_status`).
    pub(crate) reading_status: Option<String>,
    /// The items found so far, as the last `Msg::Found` said (at the start: as the open
    /// found them).
    pub(crate) found: Found,
    pub saved: SaveState,
    /// The summary page's figures and the newest request for them.
    pub summary: SummaryFigures,
    /// The seconds on the current item, and the session's pace.
    pub timing: Timing,
    /// Move to the next item after a C-VQA accept or reject (the config's
    /// `auto_advance`; the loop sets it, on by default).
    pub auto_advance: bool,
    /// The adjudication queue: only items whose reviewers disagree and that have no final
    /// verdict are visible, with every reviewer's grades side by side.
    pub queue: bool,
    /// Items I skipped for now: `Space` passes over them (kept across sessions).
    pub skipped: BTreeSet<usize>,
    /// What an earlier session left (and `--at`), while it is looked for.
    pub restoring: Restoring,
    /// The file read again after another program changed it, while the session's items
    /// are looked for in it.
    pub reloading: Reloading,
    pub quit: bool,
    /// (graded by me, by anyone) in the file as opened, from the index.
    pub base_progress: (usize, usize),
    /// The image fills the body.
    pub zoom: bool,
    /// The picture is hidden for the session (`HideImage`): one line in its place.
    pub image_hidden: bool,
    /// The item's panes laid out and measured, kept between frames (a cache: `draw` and
    /// the geometry `update` asks read it; it never changes what they see).
    pub(crate) laid: crate::tui::laid::Memo,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SaveState {
    /// Everything is in the results file.
    Saved,
    /// Verdicts are durable in the journal, not yet folded into the file.
    Journaled,
    /// A journal write is under way.
    Writing,
    Error(String),
}

/// How many items a read of the file has found, and whether that is all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    pub items: usize,
    pub all: bool,
}

impl Found {
    /// What `store` has found so far, without waiting for its scan.
    pub fn of(store: &Store) -> Found {
        let (items, all) = store.len_so_far();
        Found { items, all }
    }
}

impl State {
    pub fn new(
        store: Store,
        reviewer: String,
        keymap: Keymap,
        theme: ThemeName,
        clock: Clock,
    ) -> State {
        let file_name = store
            .path()
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let found = Found::of(&store);
        let mut s = State {
            found,
            store,
            file_name,
            reviewer,
            keymap,
            theme: Theme::new(theme),
            protocol_name: "none",
            mode: Mode::Normal,
            clock,
            size: (80, 24),
            pos: 0,
            current: None,
            meta: None,
            index_generation: 0,
            facts_now: Default::default(),
            index_progress: (0, 0),
            index_failed: false,
            search_failed: false,
            filter_catalog: vec![],
            filter_counts: vec![],
            filter_counts_of: None,
            facts_rev: 0,
            search_seq: 0,
            filters: Filters::default(),
            filter_row: 0,
            visible: None,
            model: 0,
            side_by_side: false,
            graded_part: None,
            view_choice: 0,
            scroll: 0,
            aside_scroll: 0,
            blind: false,
            image: ImageSlot::None,
            image_area: None,
            status: None,
            reading_status: None,
            saved: SaveState::Saved,
            summary: SummaryFigures::default(),
            timing: Timing::new(clock.instant),
            rec: Recording::default(),
            auto_advance: false,
            queue: false,
            skipped: BTreeSet::new(),
            restoring: Restoring::default(),
            reloading: Default::default(),
            quit: false,
            base_progress: (0, 0),
            zoom: false,
            image_hidden: false,
            laid: Default::default(),
        };
        s.load_current();
        s
    }

    // ----- reading the current item -------------------------------------------------

    // ----- update -------------------------------------------------------------------

    // ----- moving -------------------------------------------------------------------

    // ----- search and filters -------------------------------------------------------

    // ----- grading ------------------------------------------------------------------
}

/// A review as JSON for the file (only the fields that are set).
pub fn review_value(r: &Review) -> Value {
    serde_json::to_value(r).expect("a Review always serializes")
}

/// Why a key that switches between responses does nothing on an item with `n` of them.
fn one_response(n: usize, what: &str) -> String {
    match n {
        0 => format!("this item has no response: {what}"),
        _ => format!("this item has one response: {what}"),
    }
}
