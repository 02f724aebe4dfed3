//! The reviewer's state and its pure `update`: messages in, state changes and effects out.
//! Nothing here touches the terminal or the file; effects are carried out by the loop in
//! `tui::run` (journal writes, image requests, saving the resume position).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::time::Instant;

use crossterm::event::{KeyEvent, KeyEventKind, MouseEvent, MouseEventKind};
use serde_json::Value;

use crate::model::{
    Benchmark, CvqaReason, CvqaStatus, Item, JustificationGrade, ResponseGrades, Review,
};
use crate::review;
use crate::store::{ItemError, Store};
use crate::tui::edit::TextEdit;
use crate::tui::facts::{BitSet, Index, Kind};
use crate::tui::grading;
use crate::tui::image::{ImageEvent, ImageKey};
use crate::tui::keymap::{Action, Context, Key, Keymap};
pub use crate::tui::overlays::fix::FixState;
pub use crate::tui::overlays::search::SearchState;
use crate::tui::overlays::{Outcome, filter, fix, jump, note, page, penalty, reject, search};
use crate::tui::theme::{Theme, ThemeName};

/// Everything that can happen to the reviewer.
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Paste(String),
    Resize(u16, u16),
    Tick,
    /// The journal write of verdict `seq` finished (Ok: durable on disk).
    Recorded {
        seq: u64,
        result: Result<(), String>,
    },
    /// The journal was folded into the results file.
    Saved(Result<String, String>),
    /// The background index of every item is ready; `generation` is the [`State::index_generation`]
    /// it was started for (an index of the file before a reload is dropped).
    Indexed {
        generation: u64,
        meta: Index,
    },
    /// Another program changed the file: the IO worker read it again (with every
    /// journaled verdict on it).
    Reloaded(Store),
    /// The background index `generation` has read `done` of `total` items.
    IndexProgress {
        generation: u64,
        done: usize,
        total: usize,
    },
    /// The set's figures for the summary screen.
    Summary(Result<Value, String>),
    Image(ImageEvent),
    /// Matches of search `seq`, best first.
    SearchDone {
        seq: u64,
        results: Vec<usize>,
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
    ComputeSummary,
    /// Index `State::store` again (after the file was read again), as generation `generation`.
    Index {
        generation: u64,
    },
    /// Keep the skipped items and the undo history for the next session.
    SaveSession(crate::tui::config::Session),
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Info,
    Warn,
    Error,
}

/// The filters that are on: options of one group combine with OR, groups with AND.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filters {
    /// In the order they were turned on.
    pub on: Vec<FilterOption>,
}

impl Filters {
    pub fn is_empty(&self) -> bool {
        self.on.is_empty()
    }
    pub fn is_on(&self, o: &FilterOption) -> bool {
        self.on.contains(o)
    }
    /// The options on in group `g`.
    pub fn in_group(&self, g: FilterGroup) -> impl Iterator<Item = &FilterOption> {
        self.on.iter().filter(move |o| o.group() == g)
    }
    /// The groups with an option on, in menu order.
    pub fn groups(&self) -> Vec<FilterGroup> {
        let mut g: Vec<FilterGroup> = self.on.iter().map(FilterOption::group).collect();
        g.sort();
        g.dedup();
        g
    }
    pub fn describe(&self) -> String {
        self.groups()
            .into_iter()
            .map(|g| {
                self.in_group(g)
                    .map(FilterOption::short)
                    .collect::<Vec<_>>()
                    .join(" or ")
            })
            .collect::<Vec<_>>()
            .join(" + ")
    }
}

/// The groups of the filter menu, in menu order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FilterGroup {
    Progress,
    Skipped,
    ModelWrong,
    SuspectKey,
    Agreement,
    Verification,
    Benchmark,
    ChartType,
    Version,
    Dimension,
    Group,
    Model,
    Reviewer,
}

/// One row of the filter menu.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FilterOption {
    Ungraded,
    GradedByMe,
    /// Items I skipped (`S`).
    Skipped,
    /// The answer of one of the chosen models (any model when none is chosen) is wrong.
    ModelWrong,
    /// CHARTOM: the answer key is far from the human answers.
    SuspectKey,
    /// Reviewers disagree, or a human disagrees with the LLM judge; not adjudicated.
    Disagreement,
    /// Reviewers disagree and no verdict is final.
    NeedsAdjudication,
    /// A verdict is marked final.
    Adjudicated,
    /// C-VQA verification status.
    Status(CvqaStatus),
    Benchmark(Benchmark),
    ChartType(String),
    Version(String),
    Dimension(String),
    Group(String),
    Model(String),
    Reviewer(String),
}

impl FilterOption {
    pub fn group(&self) -> FilterGroup {
        match self {
            FilterOption::Ungraded | FilterOption::GradedByMe => FilterGroup::Progress,
            FilterOption::Skipped => FilterGroup::Skipped,
            FilterOption::ModelWrong => FilterGroup::ModelWrong,
            FilterOption::SuspectKey => FilterGroup::SuspectKey,
            FilterOption::Disagreement
            | FilterOption::NeedsAdjudication
            | FilterOption::Adjudicated => FilterGroup::Agreement,
            FilterOption::Status(_) => FilterGroup::Verification,
            FilterOption::Benchmark(_) => FilterGroup::Benchmark,
            FilterOption::ChartType(_) => FilterGroup::ChartType,
            FilterOption::Version(_) => FilterGroup::Version,
            FilterOption::Dimension(_) => FilterGroup::Dimension,
            FilterOption::Group(_) => FilterGroup::Group,
            FilterOption::Model(_) => FilterGroup::Model,
            FilterOption::Reviewer(_) => FilterGroup::Reviewer,
        }
    }
    /// The menu's label.
    pub fn label(&self) -> String {
        match self {
            FilterOption::Ungraded => "ungraded by me".into(),
            FilterOption::GradedByMe => "graded by me".into(),
            FilterOption::Skipped => "skipped by me".into(),
            FilterOption::ModelWrong => "model wrong (the chosen models, else any)".into(),
            FilterOption::SuspectKey => "suspect answer key (far from the humans')".into(),
            FilterOption::Disagreement => "disagreement (reviewers, or human vs judge)".into(),
            FilterOption::NeedsAdjudication => "needs adjudication (no final verdict)".into(),
            FilterOption::Adjudicated => "adjudicated (a verdict is final)".into(),
            FilterOption::Status(s) => format!("verification {}", status_label(*s)),
            FilterOption::Benchmark(b) => format!("benchmark {}", b.name()),
            FilterOption::ChartType(c) => format!("chart type {c}"),
            FilterOption::Version(v) => format!("version {v}"),
            FilterOption::Dimension(d) => format!("dimension {d}"),
            FilterOption::Group(g) => format!("group {g}"),
            FilterOption::Model(m) => format!("model {m}"),
            FilterOption::Reviewer(r) => format!("reviewed by {r}"),
        }
    }
    /// The status line's name.
    fn short(&self) -> String {
        match self {
            FilterOption::Ungraded => "ungraded".into(),
            FilterOption::GradedByMe => "graded by me".into(),
            FilterOption::Skipped => "skipped".into(),
            FilterOption::ModelWrong => "model wrong".into(),
            FilterOption::SuspectKey => "suspect key".into(),
            FilterOption::Disagreement => "disagreements".into(),
            FilterOption::NeedsAdjudication => "needs adjudication".into(),
            FilterOption::Adjudicated => "adjudicated".into(),
            FilterOption::Status(s) => status_label(*s).into(),
            FilterOption::Benchmark(b) => b.name().into(),
            FilterOption::ChartType(c) | FilterOption::Version(c) => c.clone(),
            FilterOption::Dimension(c) | FilterOption::Group(c) => c.clone(),
            FilterOption::Model(m) => format!("model {m}"),
            FilterOption::Reviewer(r) => format!("reviewer {r}"),
        }
    }
    /// Is the option derived from other reviewers' verdicts or the LLM judge (who
    /// reviewed, disagreement, adjudication, model wrong after overrides)? The
    /// verification statuses are not: in blind mode they look at my verdicts only.
    /// Blind mode hides such rows (docs/teams.md, "Blind mode").
    pub fn depends_on_others(&self, me: &str) -> bool {
        match self {
            FilterOption::Disagreement
            | FilterOption::NeedsAdjudication
            | FilterOption::Adjudicated
            | FilterOption::ModelWrong => true,
            FilterOption::Reviewer(r) => r != me,
            _ => false,
        }
    }

    /// The index's fact for options that are one (kind, name).
    fn fact(&self) -> Option<(Kind, &str)> {
        Some(match self {
            FilterOption::Disagreement => (Kind::Disagreement, ""),
            FilterOption::SuspectKey => (Kind::SuspectKey, ""),
            FilterOption::NeedsAdjudication => (Kind::NeedsAdjudication, ""),
            FilterOption::Adjudicated => (Kind::Adjudicated, ""),
            FilterOption::Status(s) => (Kind::Status, crate::tui::facts::status_name(*s)),
            FilterOption::Benchmark(b) => (Kind::Benchmark, b.name()),
            FilterOption::ChartType(c) => (Kind::ChartType, c),
            FilterOption::Version(c) => (Kind::Version, c),
            FilterOption::Dimension(c) => (Kind::Dimension, c),
            FilterOption::Group(c) => (Kind::Group, c),
            FilterOption::Model(c) => (Kind::Model, c),
            FilterOption::Reviewer(c) => (Kind::Reviewer, c),
            FilterOption::Ungraded
            | FilterOption::GradedByMe
            | FilterOption::Skipped
            | FilterOption::ModelWrong => {
                return None;
            }
        })
    }
}

fn status_label(s: CvqaStatus) -> &'static str {
    match s {
        CvqaStatus::Accept => "accepted",
        CvqaStatus::Fix => "fixed",
        CvqaStatus::Reject => "rejected",
    }
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
    Penalty(TextEdit),
    Reject {
        selected: usize,
    },
    /// Reject for "other": the reviewer's few words.
    RejectOther(TextEdit),
    /// A fix's corrected question and answer, waiting for the reviewer's reason.
    FixReason {
        selected: usize,
        question: String,
        answer: String,
    },
    Fix(FixState),
    Filter {
        selected: usize,
    },
}

/// A verdict change, for undo/redo.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub item: usize,
    pub before: Option<Review>,
    pub after: Option<Review>,
    /// The change cleared my skip of the item: undoing it skips the item again.
    pub unskipped: bool,
}

/// The loaded current item.
#[derive(Debug, Clone)]
pub struct Current {
    pub index: usize,
    pub item: Result<Item, ItemError>,
    /// The item's JSON, for the generic view and error display.
    pub raw: String,
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
    /// My verdicts recorded (or being recorded) in this session: item → review (None =
    /// removed).
    pub mine: HashMap<usize, Option<Review>>,
    /// Whether each item of `mine` is done (`review::item_done`), kept with it so that
    /// progress costs no parse per frame.
    pub mine_done: HashMap<usize, bool>,
    /// Journal writes under way: seq → (item, review before the change).
    pub pending: HashMap<u64, (usize, Option<Review>)>,
    pub next_seq: u64,
    pub undo: Vec<Change>,
    pub redo: Vec<Change>,

    pub meta: Option<std::sync::Arc<Index>>,
    /// The index's facts of the items whose verdict changed this session (with my verdict
    /// as it stands now), which override the index's bits for those items.
    pub live: HashMap<usize, Vec<(Kind, String)>>,
    /// How far the background index is (items read, total) while it is being built.
    pub index_progress: (usize, usize),
    /// Which index the screen waits for: raised on every reload, so that an index of the
    /// file as it was before is dropped when it arrives (`Msg::Indexed`).
    pub index_generation: u64,
    /// The filter menu's rows, built once from the index.
    pub filter_catalog: Vec<FilterOption>,
    /// Per row of the menu: the items that match it and the other groups' filters.
    pub filter_counts: Vec<usize>,
    /// The newest search asked of the search worker.
    pub search_seq: u64,
    pub filters: Filters,
    /// Items passing the filters (None: all).
    pub visible: Option<Vec<usize>>,

    pub model: usize,
    pub side_by_side: bool,
    pub context_len: usize,
    pub scroll: u16,
    pub blind: bool,
    pub image: ImageSlot,
    /// Where the image pane is on screen (set by draw via `image_area`), in cells.
    pub image_area: Option<(u16, u16)>,

    pub status: Option<(String, Level)>,
    pub saved: SaveState,
    pub summary: Option<Result<Value, String>>,
    /// When I arrived on the current item, and the seconds already on my review of it.
    pub arrived: Instant,
    pub seconds_base: f64,
    /// The items I finished this session (`review::item_done`), for the pace.
    pub finished: BTreeSet<usize>,
    pub started: Instant,
    /// Move to the next item after a C-VQA accept or reject (the config's
    /// `auto_advance`; the loop sets it, on by default).
    pub auto_advance: bool,
    /// The adjudication queue: only items whose reviewers disagree and that have no final
    /// verdict are visible, with every reviewer's grades side by side.
    pub queue: bool,
    /// Items I skipped for now: `Space` passes over them (kept across sessions).
    pub skipped: BTreeSet<usize>,
    /// This update's grading cleared a skip: the status line says so.
    skip_cleared: bool,
    pub quit: bool,
    /// (graded by me, by anyone) in the file as opened, from the index.
    pub base_progress: (usize, usize),
    /// The image fills the body.
    pub zoom: bool,
    /// My bonus-point coverage per CharToM-QA item graded this session, and the sum, for
    /// the running BPC (kept up to date as verdicts are recorded).
    /// Per item, per model: covered and total bonus points of my grades.
    pub bpc_items: HashMap<usize, BTreeMap<String, (u64, u64)>>,
    /// Per model: the sums of `bpc_items`.
    pub bpc_sum: BTreeMap<String, (u64, u64)>,
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

pub const CONTEXT_LENGTHS: [&str; 3] = ["0", "1000", "2000"];

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
        let mut s = State {
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
            mine: HashMap::new(),
            mine_done: HashMap::new(),
            pending: HashMap::new(),
            next_seq: 1,
            undo: vec![],
            redo: vec![],
            meta: None,
            index_generation: 0,
            live: HashMap::new(),
            index_progress: (0, 0),
            filter_catalog: vec![],
            filter_counts: vec![],
            search_seq: 0,
            filters: Filters::default(),
            visible: None,
            model: 0,
            side_by_side: false,
            context_len: 2,
            scroll: 0,
            blind: false,
            image: ImageSlot::None,
            image_area: None,
            status: None,
            saved: SaveState::Saved,
            summary: None,
            arrived: clock.instant,
            seconds_base: 0.0,
            finished: BTreeSet::new(),
            started: clock.instant,
            auto_advance: false,
            queue: false,
            skipped: BTreeSet::new(),
            skip_cleared: false,
            quit: false,
            base_progress: (0, 0),
            zoom: false,
            bpc_items: HashMap::new(),
            bpc_sum: BTreeMap::new(),
        };
        s.load_current();
        s
    }

    /// Start at `index` (resume); returns the effects of arriving there.
    pub fn start_at(&mut self, index: usize) -> Vec<Effect> {
        let mut fx = Vec::new();
        if !self.store.is_empty() {
            self.goto(index.min(self.store.len() - 1), &mut fx);
        }
        fx
    }

    // ----- reading the current item -------------------------------------------------

    pub fn len(&self) -> usize {
        self.store.len()
    }

    pub fn is_empty(&self) -> bool {
        self.store.is_empty()
    }

    pub fn item(&self) -> Option<&Item> {
        self.current.as_ref().and_then(|c| c.item.as_ref().ok())
    }

    pub fn context(&self) -> Context {
        match self.item().map(Item::benchmark) {
            Some(Benchmark::Chartom) => Context::Chartom,
            Some(Benchmark::ChartomQa) => Context::ChartomQa,
            Some(Benchmark::Cvqa) => Context::Cvqa,
            _ => Context::Generic,
        }
    }

    pub fn display_id(&self, i: usize) -> String {
        if let Some(m) = self.meta.as_ref().filter(|m| i < m.len()) {
            return m.id(i).to_string();
        }
        if let Some(c) = self.current.as_ref().filter(|c| c.index == i)
            && let Ok(Item { id: Some(id), .. }) = &c.item
        {
            return id.clone();
        }
        self.store
            .item(i)
            .ok()
            .and_then(|it| it.id)
            .unwrap_or_else(|| self.store.fallback_id(i))
    }

    /// My review of item `i` as it stands now (this session's change, else the file's).
    pub fn my_review(&self, i: usize) -> Option<Review> {
        if i >= self.len() {
            return None;
        }
        if let Some(r) = self.mine.get(&i) {
            return r.clone();
        }
        if let Some(c) = self.current.as_ref().filter(|c| c.index == i) {
            return c
                .item
                .as_ref()
                .ok()
                .and_then(|it| it.reviews.get(&self.reviewer).cloned());
        }
        self.store
            .item(i)
            .ok()
            .and_then(|it| it.reviews.get(&self.reviewer).cloned())
    }

    /// All reviews of the current item, with mine as it stands now. In blind mode, others'
    /// reviews show only what I have graded myself, once the journal has it: the grades of
    /// the models I am done with, and everything once I am done with the item.
    pub fn reviews(&self) -> Vec<(String, Review)> {
        let Some(it) = self.item() else { return vec![] };
        let mine = self.my_review(self.pos);
        let item_open = self.reveal_item();
        let n = it.responses.len();
        let open_models: Vec<bool> = it
            .responses
            .iter()
            .map(|r| self.reveal_model(&r.model))
            .collect();
        let mut out: Vec<(String, Review)> = it
            .reviews
            .iter()
            .filter(|(name, _)| **name != self.reviewer)
            .filter_map(|(name, r)| {
                if item_open {
                    return Some((name.clone(), r.clone()));
                }
                let mut shown = Review {
                    at: r.at.clone(),
                    ..Review::default()
                };
                for (k, resp) in it.responses.iter().enumerate() {
                    if open_models[k]
                        && let Some(g) = r.for_model(&resp.model, n)
                    {
                        if r.models.contains_key(&resp.model) {
                            shown.models.insert(resp.model.clone(), g.clone());
                        } else {
                            shown.grades = g.clone();
                        }
                    }
                }
                review::has_content(&shown).then(|| (name.clone(), shown))
            })
            .collect();
        if let Some(m) = mine {
            out.insert(0, (self.reviewer.clone(), m));
        }
        out
    }

    /// My review of item `i` as the journal has acknowledged it (before any write still
    /// under way).
    fn acknowledged_review(&self, i: usize) -> Option<Review> {
        match self
            .pending
            .iter()
            .filter(|(_, (item, _))| *item == i)
            .min_by_key(|(seq, _)| **seq)
        {
            Some((_, (_, before))) => before.clone(),
            None => self.my_review(i),
        }
    }

    /// Blind mode: may others' verdicts on the whole item (notes, item-level verdicts)
    /// be shown? Only once my own verdict on the item is done and recorded.
    pub fn reveal_item(&self) -> bool {
        if !self.blind {
            return true;
        }
        let Some(it) = self.item() else { return false };
        review::item_done(it, self.acknowledged_review(self.pos).as_ref())
    }

    /// Blind mode: may the judge's and others' grades of `model`'s response be shown?
    /// Only once my grades of that response are done and recorded.
    pub fn reveal_model(&self, model: &str) -> bool {
        if !self.blind {
            return true;
        }
        let Some(it) = self.item() else { return false };
        let Some(k) = it.responses.iter().position(|r| r.model == model) else {
            return false;
        };
        review::models_done(it, self.acknowledged_review(self.pos).as_ref())[k]
    }

    /// Whether others' verdicts and the judge are hidden for the selected response (for
    /// the item, when it has no response).
    pub fn hiding_others(&self) -> bool {
        match self.model_name() {
            Some(m) => !self.reveal_model(&m),
            None => !self.reveal_item(),
        }
    }

    /// The current item's JSON as the generic view shows it: with my review as this
    /// session has it (recorded since the file was read, or removed), and in blind mode,
    /// until I am done with the item, without the other reviewers' reviews.
    pub fn raw_shown(&self) -> String {
        let Some(c) = &self.current else {
            return String::new();
        };
        let reveal = self.reveal_item();
        let mine = self.mine.get(&c.index);
        if reveal && mine.is_none() {
            return c.raw.clone();
        }
        let Ok(mut v) = serde_json::from_str::<Value>(&c.raw) else {
            return if reveal { c.raw.clone() } else { String::new() };
        };
        let Some(obj) = v.as_object_mut() else {
            return if reveal { c.raw.clone() } else { String::new() };
        };
        if let Some(r) = mine {
            match r {
                Some(r) => {
                    if !obj.get("reviews").is_some_and(Value::is_object) {
                        obj.insert("reviews".into(), Value::Object(Default::default()));
                    }
                    if let Some(reviews) = obj.get_mut("reviews").and_then(Value::as_object_mut) {
                        reviews.insert(self.reviewer.clone(), review_value(r));
                    }
                }
                None => {
                    // As the file will have it: a `reviews` emptied by this is removed.
                    if let Some(reviews) = obj.get_mut("reviews").and_then(Value::as_object_mut)
                        && reviews.shift_remove(&self.reviewer).is_some()
                        && reviews.is_empty()
                    {
                        obj.shift_remove("reviews");
                    }
                }
            }
        }
        if !reveal && let Some(reviews) = obj.get_mut("reviews").and_then(Value::as_object_mut) {
            reviews.retain(|name, _| *name == self.reviewer);
        }
        v.to_string()
    }

    /// Per response of the current item: are my required grades of it given?
    pub fn models_done(&self) -> Vec<bool> {
        match self.item() {
            Some(it) => review::models_done(it, self.my_review(self.pos).as_ref()),
            None => vec![],
        }
    }

    pub fn is_pending(&self, i: usize) -> bool {
        self.pending.values().any(|(item, _)| *item == i)
    }

    /// Am I done with item `i`: every required grade given (`review::item_done`)?
    pub fn graded_by_me(&self, i: usize) -> bool {
        if let Some(&d) = self.mine_done.get(&i) {
            return d;
        }
        match &self.meta {
            Some(m) => m.has(i, Kind::Done, &self.reviewer),
            None => self
                .store
                .item(i)
                .ok()
                .is_some_and(|it| review::item_done(&it, it.reviews.get(&self.reviewer))),
        }
    }

    /// Is some reviewer (me included) done with item `i`?
    pub fn graded_by_anyone(&self, i: usize) -> bool {
        if self.mine_done.get(&i) == Some(&true) {
            return true;
        }
        match &self.meta {
            Some(m) => m.names(Kind::Done).any(|r| {
                (r != self.reviewer || !self.mine_done.contains_key(&i)) && m.has(i, Kind::Done, r)
            }),
            None => false,
        }
    }

    /// (graded by me, graded by anyone, total); None for "anyone" until the index is ready.
    /// The file's counts are taken once from the index; this session's verdicts adjust
    /// them, so a redraw costs O(verdicts this session), not O(items).
    pub fn progress(&self) -> (usize, Option<usize>, usize) {
        let n = self.len();
        let Some(meta) = &self.meta else {
            return (self.mine_done.values().filter(|d| **d).count(), None, n);
        };
        let (mut me, mut any) = self.base_progress;
        for (&i, &done) in &self.mine_done {
            let had_me = meta.has(i, Kind::Done, &self.reviewer);
            let others = meta
                .names(Kind::Done)
                .any(|x| x != self.reviewer && meta.has(i, Kind::Done, x));
            me = me - usize::from(had_me) + usize::from(done);
            any = any - usize::from(had_me || others) + usize::from(others || done);
        }
        (me, Some(any), n)
    }

    /// Items finished (`review::item_done`) per minute over this session, and the minutes
    /// left at that pace for the items I have not finished.
    pub fn pace(&self) -> Option<(f64, Option<f64>)> {
        let n = self.finished.len();
        if n < 2 {
            return None;
        }
        let span = self
            .clock
            .instant
            .duration_since(self.started)
            .as_secs_f64()
            .max(1.0);
        let per_min = n as f64 / span * 60.0;
        let (me, _, total) = self.progress();
        let left = total.saturating_sub(me) as f64;
        Some((
            per_min,
            if per_min > 0.0 {
                Some(left / per_min)
            } else {
                None
            },
        ))
    }

    /// The visible position "n/N" (within the filter when one is set).
    pub fn position_in_view(&self) -> (usize, usize) {
        match &self.visible {
            Some(v) => (
                v.iter()
                    .position(|&i| i == self.pos)
                    .map(|p| p + 1)
                    .unwrap_or(0),
                v.len(),
            ),
            None => (self.pos + 1, self.len()),
        }
    }

    // ----- update -------------------------------------------------------------------

    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        let mut fx = Vec::new();
        let tick = matches!(msg, Msg::Tick);
        match msg {
            Msg::Key(k) => {
                if k.kind == KeyEventKind::Release {
                    return fx;
                }
                self.on_key(k, &mut fx);
            }
            Msg::Mouse(m) => self.on_mouse(m, &mut fx),
            Msg::Paste(text) => match &mut self.mode {
                Mode::Note(e) | Mode::Penalty(e) | Mode::Jump(e) | Mode::RejectOther(e) => {
                    e.insert_str(&text)
                }
                Mode::Fix(f) => {
                    if f.on_answer {
                        f.answer.insert_str(&text)
                    } else {
                        f.question.insert_str(&text)
                    }
                }
                Mode::Search(s) => {
                    s.query.insert_str(&text);
                    self.refresh_search(&mut fx);
                }
                _ => {}
            },
            Msg::Resize(w, h) => {
                self.size = (w, h);
            }
            Msg::Tick => {}
            Msg::Recorded { seq, result } => {
                if let Some((item, before)) = self.pending.remove(&seq) {
                    match result {
                        Ok(()) => {
                            if self.pending.is_empty() && !matches!(self.saved, SaveState::Error(_))
                            {
                                self.saved = SaveState::Journaled;
                            }
                        }
                        Err(e) => {
                            // Not durable: take the verdict back off the screen.
                            self.set_mine(item, before);
                            self.undo.retain(|c| c.item != item);
                            self.saved = SaveState::Error(e.clone());
                            self.set_status(
                                format!("NOT RECORDED on {}: {e}", self.display_id(item)),
                                Level::Error,
                            );
                        }
                    }
                }
            }
            Msg::Saved(r) => match r {
                Ok(_) => {
                    if self.pending.is_empty() {
                        self.saved = SaveState::Saved;
                    }
                }
                Err(e) => {
                    self.saved = SaveState::Error(e.clone());
                    self.set_status(
                        format!("File not updated: {e}. Your verdicts are safe in the journal."),
                        Level::Error,
                    );
                }
            },
            Msg::Indexed { generation, meta } => {
                if generation == self.index_generation && meta.len() == self.len() {
                    // "anyone": items some reviewer is done with, the rule the live
                    // count (`graded_by_anyone`) keeps (a note alone is not done).
                    let mut anyone = BitSet::new(meta.len());
                    for r in meta.names(Kind::Done) {
                        if let Some(b) = meta.facet(Kind::Done, r) {
                            anyone.or_with(b);
                        }
                    }
                    self.base_progress = (
                        meta.facet(Kind::Done, &self.reviewer)
                            .map_or(0, BitSet::count),
                        anyone.count(),
                    );
                    self.filter_catalog = catalog(&meta);
                    self.meta = Some(std::sync::Arc::new(meta));
                    // The running BPC counts my grades in the file, not only this session's:
                    // only the CharToM-QA items I reviewed are read (the index says which).
                    let in_file: Vec<usize> = self
                        .meta
                        .as_ref()
                        .and_then(|m| {
                            let mut b = m.facet(Kind::Reviewer, &self.reviewer)?.clone();
                            b.and_with(m.facet(Kind::Benchmark, Benchmark::ChartomQa.name())?);
                            Some(b.ones().collect())
                        })
                        .unwrap_or_default();
                    for i in in_file {
                        if !self.mine.contains_key(&i) {
                            let review = self.my_review(i);
                            self.retally(i, &review);
                        }
                    }
                    // Verdicts given before the index arrived.
                    let changed: Vec<usize> = self.mine.keys().copied().collect();
                    for i in changed {
                        self.refresh_live(i);
                    }
                    self.apply_filters(&mut fx);
                    self.count_filters();
                    // A query typed while the index was being built runs now.
                    self.refresh_search(&mut fx);
                }
            }
            Msg::IndexProgress {
                generation,
                done,
                total,
            } => {
                if generation == self.index_generation && self.meta.is_none() {
                    self.index_progress = (done, total);
                }
            }
            Msg::Reloaded(store) => self.reload(store, &mut fx),
            Msg::Summary(s) => self.summary = Some(s),
            Msg::SearchDone { seq, results } => {
                if let Mode::Search(st) = &mut self.mode
                    && seq == self.search_seq
                {
                    st.results = results;
                    st.selected = st.selected.min(st.results.len().saturating_sub(1));
                }
            }
            Msg::Image(ImageEvent::Ready(key, result)) => {
                let wanted = match &self.image {
                    ImageSlot::Loading(k) | ImageSlot::Ready(k, _) | ImageSlot::Failed(k, _) => {
                        k == &key
                    }
                    ImageSlot::None => false,
                };
                if wanted {
                    self.image = match result {
                        Ok(p) => ImageSlot::Ready(key, std::sync::Arc::new(p)),
                        Err(e) => ImageSlot::Failed(key, e),
                    };
                }
            }
        }
        if self.skip_cleared {
            self.skip_cleared = false;
            let msg = match self.status.take() {
                Some((m, l)) if l != Level::Error => (format!("{m} · skip cleared"), l),
                Some(e) => e,
                None => ("skip cleared".to_string(), Level::Info),
            };
            self.status = Some(msg);
        }
        if !tick {
            self.clamp_scroll();
        }
        fx
    }

    /// Keep every scroll position within its text as it is now (a note undone, a view
    /// left, a resize), so the scroll keys act at once.
    fn clamp_scroll(&mut self) {
        let page_max = crate::tui::draw::page_max_scroll(self);
        match &mut self.mode {
            Mode::Help { scroll } | Mode::Summary { scroll } => *scroll = (*scroll).min(page_max),
            _ => self.scroll = self.scroll.min(crate::tui::draw::max_scroll(self)),
        }
    }

    /// Show the file as another program left it: every item index this session holds
    /// (position, my verdicts, writes under way, undo, skips) follows its item by id.
    fn reload(&mut self, store: Store, fx: &mut Vec<Effect>) {
        let ids: HashMap<String, usize> = (0..store.len())
            .filter_map(|i| store.item(i).ok().and_then(|it| it.id).map(|id| (id, i)))
            .collect();
        let old_id = |i: usize| -> Option<String> {
            match self.meta.as_ref().filter(|m| i < m.len()) {
                Some(m) => m.item_id(i).map(str::to_string),
                None => self.store.item(i).ok().and_then(|it| it.id),
            }
        };
        let n = store.len();
        // By id; an item without id keeps its index when that is still in the file.
        let map = |i: usize| -> Option<usize> {
            match old_id(i) {
                Some(id) => ids.get(&id).copied(),
                None => (i < n).then_some(i),
            }
        };
        let pos = map(self.pos).unwrap_or(self.pos.min(n.saturating_sub(1)));
        let mine: HashMap<usize, Option<Review>> = self
            .mine
            .drain()
            .filter_map(|(i, r)| map(i).map(|j| (j, r)))
            .collect();
        let pending: HashMap<u64, (usize, Option<Review>)> = self
            .pending
            .drain()
            .filter_map(|(seq, (i, r))| map(i).map(|j| (seq, (j, r))))
            .collect();
        let remap_changes = |v: &mut Vec<Change>| {
            let old = std::mem::take(v);
            *v = old
                .into_iter()
                .filter_map(|mut c| {
                    c.item = map(c.item)?;
                    Some(c)
                })
                .collect();
        };
        let mut undo = std::mem::take(&mut self.undo);
        let mut redo = std::mem::take(&mut self.redo);
        remap_changes(&mut undo);
        remap_changes(&mut redo);
        let skipped: BTreeSet<usize> = self.skipped.iter().filter_map(|&i| map(i)).collect();
        self.finished = self.finished.iter().filter_map(|&i| map(i)).collect();
        self.store = store;
        self.undo = undo;
        self.redo = redo;
        self.skipped = skipped;
        self.pending = pending;
        self.meta = None;
        self.live.clear();
        self.filter_counts.clear();
        self.visible = None;
        self.mine.clear();
        self.mine_done.clear();
        self.bpc_items.clear();
        self.bpc_sum.clear();
        self.pos = pos;
        self.current = None;
        // Search results and the filter menu hold indices of the old file; so does the
        // answer to a search still running: it is dropped when it arrives.
        if matches!(self.mode, Mode::Search(_) | Mode::Filter { .. }) {
            self.mode = Mode::Normal;
        }
        self.search_seq += 1;
        for (i, r) in mine {
            self.set_mine(i, r);
        }
        if !self.is_empty() {
            let model = self.model;
            let scroll = self.scroll;
            self.load_current();
            self.model = model.min(self.item().map(|i| i.responses.len()).unwrap_or(1).max(1) - 1);
            self.scroll = scroll;
            self.image = ImageSlot::None;
            self.request_image(fx);
        }
        self.index_generation += 1;
        self.index_progress = (0, self.len());
        fx.push(Effect::Index {
            generation: self.index_generation,
        });
        self.set_status(
            format!("the file changed on disk: read it again ({n} items); your verdicts are kept"),
            Level::Warn,
        );
    }

    fn set_status(&mut self, s: impl Into<String>, level: Level) {
        self.status = Some((s.into(), level));
    }

    fn on_mouse(&mut self, m: MouseEvent, fx: &mut Vec<Effect>) {
        match m.kind {
            MouseEventKind::ScrollDown => match &mut self.mode {
                Mode::Help { .. } | Mode::Summary { .. } => {
                    let max = crate::tui::draw::page_max_scroll(self);
                    if let Mode::Help { scroll } | Mode::Summary { scroll } = &mut self.mode {
                        *scroll = scroll.saturating_add(3).min(max.max(*scroll));
                    }
                }
                _ => self.scroll_down(3),
            },
            MouseEventKind::ScrollUp => match &mut self.mode {
                Mode::Help { scroll } | Mode::Summary { scroll } => {
                    *scroll = scroll.saturating_sub(3)
                }
                _ => self.scroll = self.scroll.saturating_sub(3),
            },
            MouseEventKind::Down(_) => {
                // Clicks on the footer's progress bar jump proportionally; clicks on a
                // search result or filter row select it.
                let (w, h) = self.size;
                match &mut self.mode {
                    Mode::Search(s) => {
                        // results start on row 3 of the popup; popup is centred
                        let top = h / 6 + 2;
                        if m.row >= top {
                            let idx = (m.row - top) as usize;
                            if idx < s.results.len() {
                                s.selected = idx;
                                let target = s.results[idx];
                                self.mode = Mode::Normal;
                                self.goto(target, fx);
                            }
                        }
                    }
                    Mode::Normal if m.row + 2 == h && w > 0 => {
                        let frac = m.column as f64 / w as f64;
                        let n = self.visible.as_ref().map(|v| v.len()).unwrap_or(self.len());
                        if n > 0 {
                            let k = ((frac * n as f64) as usize).min(n - 1);
                            let target = self.visible.as_ref().map(|v| v[k]).unwrap_or(k);
                            self.goto(target, fx);
                        }
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    fn on_key(&mut self, k: KeyEvent, fx: &mut Vec<Effect>) {
        self.status = None;
        let filter_rows = if matches!(self.mode, Mode::Filter { .. }) {
            self.filter_options().len()
        } else {
            0
        };
        let global = self.keymap.lookup(Context::Global, Key::from_event(&k));
        // The help and the summary scroll no further than their end.
        let page_max = crate::tui::draw::page_max_scroll(self);
        let page_rows = crate::tui::draw::page_rows_of_page(self);
        // The key that opened the help or the summary closes it.
        let toggles = matches!(
            (&self.mode, global),
            (Mode::Help { .. }, Some(Action::Help)) | (Mode::Summary { .. }, Some(Action::Summary))
        );
        // The overlay's own action for the key (in its table of the keymap).
        let own = crate::tui::overlays::keys(&self.mode)
            .and_then(|c| self.keymap.in_overlay(c, &k, false));
        // Overlays take the keys first; each says what should happen.
        match &mut self.mode {
            Mode::Normal => {}
            Mode::Help { scroll } | Mode::Summary { scroll } => {
                if page::handle_key(scroll, own, page_max, page_rows, toggles) == Outcome::Close {
                    self.mode = Mode::Normal;
                }
                return;
            }
            Mode::Search(s) => {
                match search::handle_key(s, &self.keymap, &k) {
                    Outcome::Close => self.mode = Mode::Normal,
                    Outcome::Submit(target) => {
                        self.mode = Mode::Normal;
                        match target {
                            Some(t) => self.goto(t, fx),
                            None => self.set_status("no match", Level::Warn),
                        }
                    }
                    Outcome::Changed => self.refresh_search(fx),
                    Outcome::Stay => {}
                }
                return;
            }
            Mode::Jump(e) => {
                match jump::handle_key(e, &self.keymap, &k) {
                    Outcome::Close => self.mode = Mode::Normal,
                    Outcome::Submit(q) => {
                        self.mode = Mode::Normal;
                        self.jump(&q, fx);
                    }
                    _ => {}
                }
                return;
            }
            Mode::Note(e) => {
                match note::handle_key(e, &self.keymap, &k) {
                    Outcome::Close => self.mode = Mode::Normal,
                    Outcome::Submit(t) => {
                        self.mode = Mode::Normal;
                        self.change_review(fx, |r, _| review::set_note(r, &t));
                    }
                    _ => {}
                }
                return;
            }
            Mode::Penalty(e) => {
                match penalty::handle_key(e, &self.keymap, &k) {
                    Outcome::Close => self.mode = Mode::Normal,
                    Outcome::Submit(t) => {
                        self.mode = Mode::Normal;
                        self.change_grades(fx, |g| review::set_penalty(g, Some(&t)));
                    }
                    _ => {}
                }
                return;
            }
            Mode::RejectOther(e) => {
                match reject::handle_other_key(e, &self.keymap, &k) {
                    Outcome::Close => self.mode = Mode::Normal,
                    Outcome::Submit(t) if t.trim().is_empty() => {
                        self.set_status(reject::other_empty(&self.keymap), Level::Warn);
                    }
                    Outcome::Submit(t) => {
                        self.mode = Mode::Normal;
                        if self.change_review(fx, |r, _| {
                            review::reject(r, CvqaReason::Other, Some(&t))
                        }) {
                            self.advance_after("rejected (other)", fx);
                        }
                    }
                    _ => {}
                }
                return;
            }
            Mode::FixReason {
                selected,
                question,
                answer,
            } => {
                let (q, a) = (question.clone(), answer.clone());
                match fix::handle_reason_key(selected, &self.keymap, &k) {
                    Outcome::Close => self.mode = Mode::Normal,
                    Outcome::Submit(reason) => {
                        self.mode = Mode::Normal;
                        self.fix_with(&q, &a, reason, fx);
                    }
                    _ => {}
                }
                return;
            }
            Mode::Reject { selected } => {
                match reject::handle_key(selected, &self.keymap, &k) {
                    Outcome::Close => self.mode = Mode::Normal,
                    Outcome::Submit(reason) => {
                        self.mode = Mode::Normal;
                        self.reject(reason, fx);
                    }
                    _ => {}
                }
                return;
            }
            Mode::Fix(f) => {
                match fix::handle_key(f, &self.keymap, &k) {
                    Outcome::Close => self.mode = Mode::Normal,
                    Outcome::Submit((q, a)) => {
                        self.mode = Mode::Normal;
                        self.fix(q, a);
                    }
                    _ => {}
                }
                return;
            }
            Mode::Filter { selected } => {
                match filter::handle_key(selected, filter_rows, own, global) {
                    Outcome::Close => self.mode = Mode::Normal,
                    Outcome::Submit(filter::Pick::Clear) => {
                        self.filters = Filters::default();
                        self.apply_filters(fx);
                    }
                    Outcome::Submit(filter::Pick::Toggle(row)) => {
                        if let Some(o) = self.filter_options().get(row).cloned() {
                            if self.filter_hidden(&o) {
                                let key = self.keymap.hint(Context::Global, Action::Blind);
                                self.set_status(
                                    format!(
                                        "{}: hidden in blind mode ({key} leaves it)",
                                        o.label()
                                    ),
                                    Level::Warn,
                                );
                                return;
                            }
                            self.toggle_filter(o);
                            self.apply_filters(fx);
                        }
                    }
                    _ => {}
                }
                return;
            }
        }

        let Some(action) = self.keymap.lookup(self.context(), Key::from_event(&k)) else {
            return;
        };
        self.act(action, fx);
    }

    /// Scroll the item's text down, no further than its end at the current size.
    fn scroll_down(&mut self, by: u16) {
        let max = crate::tui::draw::max_scroll(self);
        self.scroll = self.scroll.saturating_add(by).min(max.max(self.scroll));
    }

    pub fn act(&mut self, action: Action, fx: &mut Vec<Effect>) {
        let page = crate::tui::draw::page_rows(self);
        match action {
            // The overlays' own actions do nothing in the item view.
            Action::Close
            | Action::Submit
            | Action::Cancel
            | Action::SelectNext
            | Action::SelectPrev
            | Action::Toggle
            | Action::SwitchField
            | Action::Reason(_) => {}
            Action::Quit => {
                self.quit = true;
                fx.push(self.position_effect());
                fx.push(Effect::Quit);
            }
            Action::Next => self.step(1, fx),
            Action::Prev => self.step(-1, fx),
            Action::First => {
                if let Some(t) = self.visible_list().first().copied() {
                    self.goto(t, fx)
                }
            }
            Action::Last => {
                if let Some(t) = self.visible_list().last().copied() {
                    self.goto(t, fx)
                }
            }
            Action::NextUngraded => self.next_ungraded(fx),
            Action::Jump => self.mode = Mode::Jump(TextEdit::new("", false)),
            Action::Search => {
                self.mode = Mode::Search(SearchState {
                    query: TextEdit::new("", false),
                    results: vec![],
                    selected: 0,
                });
                self.refresh_search(fx);
            }
            Action::Filter => {
                self.count_filters();
                self.mode = Mode::Filter { selected: 0 };
            }
            Action::ClearFilters => {
                self.filters = Filters::default();
                self.apply_filters(fx);
            }
            Action::Help => self.mode = Mode::Help { scroll: 0 },
            Action::Summary => {
                if self.blind {
                    let key = self.keymap.hint(Context::Global, Action::Blind);
                    self.set_status(
                        format!(
                            "the summary holds others' and the judge's figures: hidden in blind mode ({key} leaves it)"
                        ),
                        Level::Warn,
                    );
                    return;
                }
                self.mode = Mode::Summary { scroll: 0 };
                fx.push(Effect::ComputeSummary);
            }
            Action::Undo => self.undo(fx),
            Action::Redo => self.redo(fx),
            Action::Note => {
                let note = self
                    .my_review(self.pos)
                    .and_then(|r| r.note)
                    .unwrap_or_default();
                self.mode = Mode::Note(TextEdit::new(&note, true));
            }
            Action::ScrollDown => self.scroll_down(1),
            Action::ScrollUp => self.scroll = self.scroll.saturating_sub(1),
            Action::PageDown => self.scroll_down(page),
            Action::PageUp => self.scroll = self.scroll.saturating_sub(page),
            Action::NextModel => {
                let n = self.item().map(|i| i.responses.len()).unwrap_or(0);
                if n > 1 {
                    self.model = (self.model + 1) % n;
                } else {
                    self.set_status(one_response(n, "no other model to switch to"), Level::Info);
                }
            }
            Action::SideBySide => {
                let n = self.item().map(|i| i.responses.len()).unwrap_or(0);
                if n > 1 || self.side_by_side {
                    self.side_by_side = !self.side_by_side;
                    self.scroll = 0;
                } else {
                    self.set_status(one_response(n, "nothing to set side by side"), Level::Info);
                }
            }
            Action::ZoomImage => {
                if self.image_path().is_some() {
                    self.zoom = !self.zoom;
                    self.scroll = 0;
                } else {
                    self.set_status("this item has no image", Level::Warn);
                }
            }
            Action::OpenImage => match self.image_path() {
                Some(p) => fx.push(Effect::OpenExternal(p)),
                None => self.set_status("this item has no image", Level::Warn),
            },
            Action::Blind => {
                self.blind = !self.blind;
                let dropped = if self.blind {
                    self.blind_filters_off(fx)
                } else {
                    if !self.filters.is_empty() {
                        self.apply_filters(fx);
                    }
                    false
                };
                self.set_status(
                    match (self.blind, dropped) {
                        (true, false) => {
                            "blind mode: others' verdicts and the judge are hidden until you grade"
                        }
                        (true, true) => {
                            "blind mode: others' verdicts and the judge are hidden until you grade; the filters on them are off"
                        }
                        (false, _) => "blind mode off",
                    },
                    Level::Info,
                );
                self.count_filters();
            }
            Action::Theme => {
                self.theme = Theme::new(self.theme.name.next());
                let key = self.keymap.hint(Context::Global, Action::Theme);
                self.set_status(
                    format!("theme: {} ({key} switches)", self.theme.name.name()),
                    Level::Info,
                );
            }
            Action::Suspend => fx.push(Effect::Suspend),
            Action::Identifies => self.justification(JustificationGrade::Identifies, fx),
            Action::Partial => self.justification(JustificationGrade::Partial, fx),
            Action::Misses => self.justification(JustificationGrade::Misses, fx),
            Action::FactOverride => self.change_grades(fx, review::cycle_fact),
            Action::Bonus(n) => {
                let count = self.item().map(|i| i.bonus_points.len()).unwrap_or(0);
                if (n as usize) > count {
                    self.set_status(format!("this item has {count} bonus points"), Level::Warn);
                    return;
                }
                self.change_grades(fx, |g| review::toggle_bonus(g, n as u32))
            }
            Action::NoBonus => self.change_grades(fx, review::no_bonus),
            Action::Penalty => {
                let cur = self
                    .my_grades()
                    .and_then(|g| g.penalty.clone())
                    .flatten()
                    .unwrap_or_default();
                self.mode = Mode::Penalty(TextEdit::new(&cur, false));
            }
            Action::NoPenalty => self.change_grades(fx, |g| review::set_penalty(g, None)),
            Action::ContextLength => {
                self.context_len = (self.context_len + 1) % CONTEXT_LENGTHS.len()
            }
            Action::Accept => {
                if self.change_review(fx, |r, _| review::accept(r)) {
                    self.advance_after("accepted", fx);
                }
            }
            Action::Skip => self.toggle_skip(fx),
            Action::Fix => {
                let (q, a) = match self.item().and_then(|i| i.counterfactual.as_ref()) {
                    Some(cf) => {
                        let r = self.my_review(self.pos);
                        (
                            r.as_ref()
                                .and_then(|r| r.fixed_question.clone())
                                .unwrap_or_else(|| cf.question.clone()),
                            r.as_ref()
                                .and_then(|r| r.fixed_answer.clone())
                                .unwrap_or_else(|| cf.answer.clone()),
                        )
                    }
                    None => {
                        self.set_status("no counterfactual question to fix", Level::Warn);
                        return;
                    }
                };
                self.mode = Mode::Fix(FixState {
                    question: TextEdit::new(&q, false),
                    answer: TextEdit::new(&a, false),
                    on_answer: false,
                });
            }
            Action::Reject => self.mode = Mode::Reject { selected: 0 },
            Action::OriginalOverride => self.change_grades(fx, review::cycle_original),
            Action::CounterfactualOverride => self.change_grades(fx, review::cycle_counterfactual),
            Action::Pass => {
                self.change_review(fx, |r, _| review::set_verdict(r, "pass"));
            }
            Action::Fail => {
                self.change_review(fx, |r, _| review::set_verdict(r, "fail"));
            }
            Action::Unsure => {
                self.change_review(fx, |r, _| review::set_verdict(r, "unsure"));
            }
            Action::Adjudicate => {
                let done = self
                    .item()
                    .is_some_and(|it| review::item_done(it, self.my_review(self.pos).as_ref()));
                if !done {
                    let key = self.keymap.hint(Context::Global, Action::Adjudicate);
                    self.set_status(
                        format!(
                            "grade the item first; {key} then marks your verdict as the final one"
                        ),
                        Level::Warn,
                    );
                    return;
                }
                self.change_review(fx, |r, _| review::toggle_final(r));
                if self.queue {
                    // An adjudicated item leaves the queue: on to the next one.
                    self.apply_filters(fx);
                }
            }
            Action::AdjudicationQueue => {
                if self.meta.is_none() {
                    self.set_status(
                        "the index is still being built; try again in a moment",
                        Level::Warn,
                    );
                    return;
                }
                if self.blind && !self.queue {
                    let key = self.keymap.hint(Context::Global, Action::Blind);
                    self.set_status(
                        format!(
                            "the adjudication queue is others' disagreements: hidden in blind mode ({key} leaves it)"
                        ),
                        Level::Warn,
                    );
                    return;
                }
                self.queue = !self.queue;
                self.scroll = 0;
                self.apply_filters(fx);
                if self.queue && self.visible.as_ref().is_some_and(Vec::is_empty) {
                    // An empty queue is not entered.
                    self.queue = false;
                    self.apply_filters(fx);
                    self.set_status("no item to adjudicate", Level::Info);
                    return;
                }
                if !self.queue {
                    self.set_status("left the adjudication queue", Level::Info);
                }
            }
        }
    }

    // ----- moving -------------------------------------------------------------------

    fn visible_list(&self) -> Vec<usize> {
        match &self.visible {
            Some(v) => v.clone(),
            None => (0..self.len()).collect(),
        }
    }

    fn step(&mut self, delta: i64, fx: &mut Vec<Effect>) {
        if self.is_empty() {
            return;
        }
        let target = match &self.visible {
            None => {
                let t = self.pos as i64 + delta;
                if t < 0 || t >= self.len() as i64 {
                    self.set_status(
                        if delta > 0 { "last item" } else { "first item" },
                        Level::Info,
                    );
                    return;
                }
                t as usize
            }
            Some(v) => {
                if v.is_empty() {
                    self.set_status("no item matches the filters", Level::Warn);
                    return;
                }
                // position of the first visible item at or after pos
                let at = v.partition_point(|&i| i < self.pos);
                let here = v.get(at) == Some(&self.pos);
                let t = if delta > 0 {
                    if here { at + 1 } else { at }
                } else if at == 0 {
                    usize::MAX
                } else {
                    at - 1
                };
                match v.get(t) {
                    Some(&t) => t,
                    None => {
                        self.set_status(
                            if delta > 0 {
                                "last matching item"
                            } else {
                                "first matching item"
                            },
                            Level::Info,
                        );
                        return;
                    }
                }
            }
        };
        self.goto(target, fx);
    }

    fn next_ungraded(&mut self, fx: &mut Vec<Effect>) {
        let list = self.visible_list();
        let start = list.partition_point(|&i| i <= self.pos);
        let order = list[start..].iter().chain(list[..start].iter());
        for &i in order {
            if i != self.pos && !self.graded_by_me(i) && !self.skipped.contains(&i) {
                self.goto(i, fx);
                return;
            }
        }
        self.set_status(
            if self.skipped.is_empty() {
                "every item here is graded by you".to_string()
            } else {
                format!(
                    "every item here is graded by you or skipped ({} skipped)",
                    self.skipped.len()
                )
            },
            Level::Info,
        );
    }

    fn jump(&mut self, q: &str, fx: &mut Vec<Effect>) {
        if q.is_empty() {
            return;
        }
        if let Ok(n) = q.trim_start_matches('#').parse::<usize>()
            && n >= 1
            && n <= self.len()
            && !q.starts_with('#')
        {
            self.goto(n - 1, fx);
            return;
        }
        let found = match &self.meta {
            Some(m) => m.position_of(q),
            None => (0..self.len()).find(|&i| self.display_id(i) == q),
        };
        match found {
            Some(i) => self.goto(i, fx),
            None => self.set_status(format!("no item {q}"), Level::Warn),
        }
    }

    /// Go to item `i`: load it, reset per-item view state, ask for its image.
    pub fn goto(&mut self, i: usize, fx: &mut Vec<Effect>) {
        if i >= self.len() {
            return;
        }
        let changed = i != self.pos || self.current.is_none();
        self.pos = i;
        if changed {
            self.scroll = 0;
            self.model = 0;
            self.load_current();
            // With models chosen in the filter, show the first of them this item has.
            let chosen = self.filters.in_group(FilterGroup::Model).find_map(|o| {
                let FilterOption::Model(m) = o else {
                    return None;
                };
                self.item()
                    .and_then(|it| it.responses.iter().position(|r| r.model == *m))
            });
            if let Some(k) = chosen {
                self.model = k;
            }
            self.arrived = self.clock.instant;
            self.seconds_base = self.my_review(i).and_then(|r| r.seconds).unwrap_or(0.0);
            // Saved on every move, so that a killed session resumes on the item shown.
            fx.push(self.position_effect());
        }
        self.request_image(fx);
        // Prefetch the next item's image.
        let next = match &self.visible {
            Some(v) => v.iter().find(|&&j| j > i).copied(),
            None => (i + 1 < self.len()).then_some(i + 1),
        };
        if let Some(n) = next
            && let Some(p) = self
                .store
                .item(n)
                .ok()
                .and_then(|it| it.image)
                .map(|im| self.resolve(&im))
        {
            fx.push(Effect::PrefetchImage(p));
        }
    }

    fn position_effect(&self) -> Effect {
        Effect::SavePosition {
            index: self.pos,
            id: self.item().and_then(|i| i.id.clone()),
        }
    }

    fn load_current(&mut self) {
        if self.is_empty() {
            self.current = None;
            return;
        }
        let i = self.pos;
        let raw = match self.store.raw(i) {
            Ok(t) => t.to_string(),
            Err(_) => {
                String::from_utf8_lossy(self.store.raw_bytes(i).unwrap_or_default()).into_owned()
            }
        };
        self.current = Some(Current {
            index: i,
            item: self.store.item(i),
            raw,
        });
    }

    fn resolve(&self, image: &str) -> PathBuf {
        let p = PathBuf::from(image);
        if p.is_absolute() {
            p
        } else {
            self.store
                .path()
                .parent()
                .unwrap_or(std::path::Path::new("."))
                .join(p)
        }
    }

    pub fn image_path(&self) -> Option<PathBuf> {
        self.item()
            .and_then(|i| i.image.as_deref())
            .map(|im| self.resolve(im))
    }

    /// Ask for the current item's image at the size of its pane.
    pub fn request_image(&mut self, fx: &mut Vec<Effect>) {
        let (Some(path), Some((w, h))) = (self.image_path(), self.image_area) else {
            self.image = ImageSlot::None;
            return;
        };
        let key = ImageKey {
            path,
            width: w,
            height: h,
        };
        let same = match &self.image {
            ImageSlot::Loading(k) | ImageSlot::Ready(k, _) | ImageSlot::Failed(k, _) => *k == key,
            ImageSlot::None => false,
        };
        if !same {
            self.image = ImageSlot::Loading(key.clone());
            fx.push(Effect::RequestImage(key));
        }
    }

    // ----- search and filters -------------------------------------------------------

    /// Ask the search worker for the current query's matches (the newest request wins;
    /// results come back as `Msg::SearchDone`).
    fn refresh_search(&mut self, fx: &mut Vec<Effect>) {
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
            within: self.visible.clone(),
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
    fn blind_filters_off(&mut self, fx: &mut Vec<Effect>) -> bool {
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
    fn toggle_filter(&mut self, o: FilterOption) {
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

    /// Does fact (kind, name) hold for item `i` as it stands now?
    fn holds(&self, i: usize, kind: Kind, name: &str) -> bool {
        if let Some(f) = self.live.get(&i) {
            return f.iter().any(|(k, n)| *k == kind && n == name);
        }
        self.meta.as_ref().is_some_and(|m| m.has(i, kind, name))
    }

    /// The models the "model wrong" filter looks at: the chosen ones, else all.
    fn wrong_models(&self) -> Vec<String> {
        let chosen: Vec<String> = self
            .filters
            .in_group(FilterGroup::Model)
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
    fn option_holds(&self, o: &FilterOption, i: usize) -> bool {
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
    fn passes_except(&self, i: usize, skip: Option<FilterGroup>) -> bool {
        self.filters
            .groups()
            .into_iter()
            .filter(|g| Some(*g) != skip)
            .all(|g| self.filters.in_group(g).any(|o| self.option_holds(o, i)))
    }

    /// Is item `i` in the adjudication queue now (my verdicts of this session included)?
    pub fn needs_adjudication(&self, i: usize) -> bool {
        if self.meta.is_some() {
            return self.holds(i, Kind::NeedsAdjudication, "");
        }
        if let Some(r) = self.mine.get(&i) {
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
            return grading::needs_adjudication(&it);
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

    /// The items option `o` holds for, from the index (items changed this session are
    /// corrected afterwards).
    fn option_bits(&self, ix: &Index, o: &FilterOption) -> BitSet {
        let n = ix.len();
        if self.filter_hidden(o) {
            return BitSet::new(n);
        }
        match o {
            FilterOption::Status(st) if self.blind => ix
                .facet(
                    Kind::ReviewerStatus,
                    &crate::tui::facts::reviewer_status(&self.reviewer, *st),
                )
                .cloned()
                .unwrap_or_else(|| BitSet::new(n)),
            FilterOption::Skipped => {
                let mut b = BitSet::new(n);
                for &i in self.skipped.iter().filter(|&&i| i < n) {
                    b.set(i, true);
                }
                b
            }
            FilterOption::Ungraded | FilterOption::GradedByMe => {
                let mut b = ix
                    .facet(Kind::Done, &self.reviewer)
                    .cloned()
                    .unwrap_or_else(|| BitSet::new(n));
                if *o == FilterOption::Ungraded {
                    b.invert();
                }
                b
            }
            FilterOption::ModelWrong => {
                let mut b = BitSet::new(n);
                for m in self.wrong_models() {
                    if let Some(w) = ix.facet(Kind::Wrong, &m) {
                        b.or_with(w);
                    }
                }
                b
            }
            other => {
                let (k, name) = other.fact().expect("a fact option");
                ix.facet(k, name).cloned().unwrap_or_else(|| BitSet::new(n))
            }
        }
    }

    /// The items passing group `g`'s filter, from the index.
    fn group_bits(&self, ix: &Index, g: FilterGroup) -> BitSet {
        let mut b = BitSet::new(ix.len());
        for o in self.filters.in_group(g) {
            b.or_with(&self.option_bits(ix, o));
        }
        b
    }

    /// Items changed this session, whose facts may differ from the index's.
    fn changed_items(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self.mine.keys().chain(self.live.keys()).copied().collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    fn apply_filters(&mut self, fx: &mut Vec<Effect>) {
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
            mask.and_with(&self.group_bits(&ix, g));
        }
        if self.queue {
            match ix.facet(Kind::NeedsAdjudication, "") {
                Some(b) => mask.and_with(b),
                None => mask = BitSet::new(ix.len()),
            }
        }
        for i in self.changed_items() {
            mask.set(i, self.passes(i));
        }
        let v: Vec<usize> = mask.ones().collect();
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
        if v.binary_search(&self.pos).is_err()
            && let Some(&t) = v.iter().find(|&&i| i > self.pos).or(v.first())
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
    /// of the other groups (what turning it on would show, or shows).
    pub fn count_filters(&mut self) {
        let Some(ix) = self.meta.clone() else {
            self.filter_counts.clear();
            return;
        };
        let groups = self.filters.groups();
        let masks: Vec<(FilterGroup, BitSet)> = groups
            .iter()
            .map(|&g| (g, self.group_bits(&ix, g)))
            .collect();
        let except = |skip: Option<FilterGroup>| {
            let mut m = BitSet::full(ix.len());
            for (g, b) in &masks {
                if Some(*g) != skip {
                    m.and_with(b);
                }
            }
            m
        };
        let mut by_group: HashMap<Option<FilterGroup>, BitSet> = HashMap::new();
        let changed = self.changed_items();
        // The items changed this session, as they stand now: which groups each passes,
        // and which rows hold for it (worked out once, not per row).
        let wrong = self.wrong_models();
        let holds = |o: &FilterOption, i: usize| match o {
            FilterOption::ModelWrong => wrong.iter().any(|m| self.holds(i, Kind::Wrong, m)),
            o => self.option_holds(o, i),
        };
        let live: Vec<(usize, Vec<bool>, Vec<bool>)> = changed
            .iter()
            .map(|&i| {
                let pass: Vec<bool> = groups
                    .iter()
                    .map(|&g| self.filters.in_group(g).any(|o| holds(o, i)))
                    .collect();
                let rows = self.filter_catalog.iter().map(|o| holds(o, i)).collect();
                (i, pass, rows)
            })
            .collect();
        let mut counts = Vec::with_capacity(self.filter_catalog.len());
        for (k, o) in self.filter_catalog.iter().enumerate() {
            let g = o.group();
            let key = groups.contains(&g).then_some(g);
            let others = by_group.entry(key).or_insert_with(|| except(key));
            let bits = self.option_bits(&ix, o);
            let mut c = others.count_and(&bits) as i64;
            for (i, pass, rows) in &live {
                let passes_others = groups.iter().zip(pass).all(|(g, p)| *p || Some(*g) == key);
                c -= i64::from(others.get(*i) && bits.get(*i));
                c += i64::from(passes_others && rows[k]);
            }
            counts.push(c.max(0) as usize);
        }
        self.filter_counts = counts;
    }

    /// Recompute the facts of item `i` with my verdict as it stands now.
    fn refresh_live(&mut self, i: usize) {
        if self.meta.is_none() {
            return;
        }
        let item = match self.current.as_ref().filter(|c| c.index == i) {
            Some(c) => c.item.clone().ok(),
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
        self.live.insert(i, crate::tui::facts::collect_facts(&item));
    }

    // ----- grading ------------------------------------------------------------------

    /// The model whose response is selected.
    pub fn model_name(&self) -> Option<String> {
        self.item()
            .and_then(|i| i.responses.get(self.model))
            .map(|r| r.model.clone())
    }

    /// My grades of the selected response.
    pub fn my_grades(&self) -> Option<ResponseGrades> {
        let it = self.item()?;
        let model = self.model_name()?;
        self.my_review(self.pos)?
            .for_model(&model, it.responses.len())
            .cloned()
    }

    fn justification(&mut self, g: JustificationGrade, fx: &mut Vec<Effect>) {
        self.change_grades(fx, |gr| review::justification(gr, g));
    }

    /// Reject for `reason`; "other" first asks for a few words.
    fn reject(&mut self, reason: CvqaReason, fx: &mut Vec<Effect>) {
        if reason == CvqaReason::Other {
            let cur = self
                .my_review(self.pos)
                .and_then(|r| r.reason_text)
                .unwrap_or_default();
            self.mode = Mode::RejectOther(TextEdit::new(&cur, false));
            return;
        }
        if self.change_review(fx, |r, _| review::reject(r, reason, None)) {
            self.advance_after(&format!("rejected ({})", reason.name()), fx);
        }
    }

    /// The fix editor was saved: ask why, suggesting wrong-answer when the answer
    /// changed, else ungrammatical (the reviewer confirms or picks another).
    /// An empty (or blank) field is no fix of that field: the original stands.
    fn fix(&mut self, q: String, a: String) {
        let Some(item) = self.item() else { return };
        let Some(cf) = item.counterfactual.clone() else {
            return;
        };
        let group = item.group.clone();
        let empty: Vec<&str> = [("question", &q), ("answer", &a)]
            .into_iter()
            .filter(|(_, t)| t.trim().is_empty())
            .map(|(name, _)| name)
            .collect();
        let empty = empty.join(" and ");
        let q = if q.trim().is_empty() {
            cf.question.clone()
        } else {
            q
        };
        let a = if a.trim().is_empty() {
            cf.answer.clone()
        } else {
            a
        };
        if q == cf.question && a == cf.answer {
            let accept = self.keymap.hint(Context::Cvqa, Action::Accept);
            let msg = if empty.is_empty() {
                format!("nothing changed: use {accept} to accept as it is")
            } else {
                format!(
                    "empty {empty} is no fix: nothing changed, nothing recorded (use {accept} to accept as it is)"
                )
            };
            self.set_status(msg, Level::Warn);
            return;
        }
        // The rule `verdict check` warns by: said now, but the verdict is the reviewer's.
        let problem = group.as_deref().filter(|_| a != cf.answer).and_then(|g| {
            crate::check::cvqa_answer_problem(g, (q != cf.question).then_some(q.as_str()), &a)
        });
        if let Some(m) = problem {
            self.set_status(
                format!(
                    "{m}: verdict check will warn; a reason records it anyway, {} cancels",
                    self.keymap.hint(fix::REASON_KEYS, Action::Cancel)
                ),
                Level::Warn,
            );
        } else if !empty.is_empty() {
            self.set_status(format!("empty {empty} left as the original"), Level::Info);
        }
        let suggested = if a != cf.answer {
            CvqaReason::WrongAnswer
        } else {
            CvqaReason::Ungrammatical
        };
        self.mode = Mode::FixReason {
            selected: CvqaReason::ALL
                .iter()
                .position(|r| *r == suggested)
                .unwrap_or(0),
            question: q,
            answer: a,
        };
    }

    fn fix_with(&mut self, q: &str, a: &str, reason: CvqaReason, fx: &mut Vec<Effect>) {
        let Some(cf) = self.item().and_then(|i| i.counterfactual.clone()) else {
            return;
        };
        self.change_review(fx, |r, _| {
            review::fix(r, &cf.question, &cf.answer, q, a, reason)
        });
    }

    /// Change the grades of the selected response (top level for single-response items,
    /// under `models.<model>` otherwise).
    fn change_grades(&mut self, fx: &mut Vec<Effect>, f: impl FnOnce(&mut ResponseGrades)) {
        let Some(model) = self.model_name() else {
            self.set_status("this item has no response to grade", Level::Warn);
            return;
        };
        self.change_review(fx, |r, n_responses| {
            review::change_grades(r, &model, n_responses, f)
        });
    }

    /// After a complete verdict on the item (C-VQA accept, reject): move on when
    /// auto-advance is on, saying what was recorded where.
    fn advance_after(&mut self, what: &str, fx: &mut Vec<Effect>) {
        let id = self.display_id(self.pos);
        // In the adjudication queue the next step on the item is `A`: stay.
        if !self.auto_advance || self.queue {
            return;
        }
        let from = self.pos;
        self.step(1, fx);
        let msg = if self.pos == from {
            format!("{what} on {id} · last item")
        } else {
            format!("{what} on {id}")
        };
        self.set_status(msg, Level::Info);
    }

    pub fn is_skipped(&self, i: usize) -> bool {
        self.skipped.contains(&i)
    }

    fn toggle_skip(&mut self, fx: &mut Vec<Effect>) {
        if self.is_empty() || self.current.is_none() {
            return;
        }
        let i = self.pos;
        let id = self.display_id(i);
        if self.skipped.remove(&i) {
            self.set_status(format!("{id} is no longer skipped"), Level::Info);
        } else {
            self.skipped.insert(i);
            self.next_ungraded(fx);
            self.set_status(
                format!(
                    "skipped {id} ({} passes over it; {} on it again unskips)",
                    self.keymap.hint(Context::Global, Action::NextUngraded),
                    self.keymap.hint(Context::Global, Action::Skip)
                ),
                Level::Info,
            );
        }
        fx.push(self.session_effect());
    }

    fn item_ref(&self, i: usize) -> crate::tui::config::ItemRef {
        let id = if i == self.pos {
            self.item().and_then(|it| it.id.clone())
        } else {
            self.meta
                .as_ref()
                .and_then(|m| m.item_id(i))
                .map(str::to_string)
                .or_else(|| self.store.item(i).ok().and_then(|it| it.id))
        };
        crate::tui::config::ItemRef { index: i, id }
    }

    /// What the next session needs of this one: the skipped items and the undo history.
    fn session_effect(&self) -> Effect {
        use crate::tui::config::{SAVED_UNDO, SavedChange, Session};
        let from = self.undo.len().saturating_sub(SAVED_UNDO);
        Effect::SaveSession(Session {
            skipped: self.skipped.iter().map(|&i| self.item_ref(i)).collect(),
            undo: self.undo[from..]
                .iter()
                .map(|c| SavedChange {
                    item: self.item_ref(c.item),
                    before: c.before.as_ref().map(review_value),
                    after: c.after.as_ref().map(review_value),
                })
                .collect(),
        })
    }

    /// Find an item saved by a session (by index when its id still matches, else by id).
    fn locate(&self, r: &crate::tui::config::ItemRef) -> Option<usize> {
        let id_at = |i: usize| self.store.item(i).ok().and_then(|it| it.id);
        if r.index < self.len() && id_at(r.index) == r.id {
            return Some(r.index);
        }
        let id = r.id.as_ref()?;
        (0..self.len()).find(|&i| id_at(i).as_ref() == Some(id))
    }

    /// Take up what an earlier session left: its skipped items, and its undo history as
    /// far as it still matches my reviews in the file (a change someone else overwrote
    /// since, and everything before it on that item, is dropped).
    pub fn restore_session(&mut self, s: &crate::tui::config::Session) {
        for r in &s.skipped {
            if let Some(i) = self.locate(r) {
                self.skipped.insert(i);
            }
        }
        let parse = |v: &Option<Value>| -> Result<Option<Review>, ()> {
            match v {
                None => Ok(None),
                Some(v) => serde_json::from_value(v.clone()).map(Some).map_err(|_| ()),
            }
        };
        let mut expected: HashMap<usize, Option<Review>> = HashMap::new();
        let mut broken: BTreeSet<usize> = BTreeSet::new();
        let mut kept = Vec::new();
        for c in s.undo.iter().rev() {
            let Some(i) = self.locate(&c.item) else {
                continue;
            };
            if broken.contains(&i) {
                continue;
            }
            let (Ok(before), Ok(after)) = (parse(&c.before), parse(&c.after)) else {
                broken.insert(i);
                continue;
            };
            let now = expected
                .entry(i)
                .or_insert_with(|| self.my_review(i))
                .clone();
            if now != after {
                broken.insert(i);
                continue;
            }
            expected.insert(i, before.clone());
            kept.push(Change {
                item: i,
                before,
                after,
                unskipped: false,
            });
        }
        kept.reverse();
        kept.append(&mut self.undo);
        self.undo = kept;
    }

    /// Change my review of the current item and record it; false when nothing was
    /// recorded.
    fn change_review(&mut self, fx: &mut Vec<Effect>, f: impl FnOnce(&mut Review, usize)) -> bool {
        let Some(item) = self.item() else {
            self.set_status(
                "this item cannot be read, so it cannot be graded",
                Level::Error,
            );
            return false;
        };
        let n = item.responses.len();
        let before = self.my_review(self.pos);
        let mut r = before.clone().unwrap_or_default();
        f(&mut r, n);
        let at = self
            .clock
            .utc
            .replace_nanosecond(0)
            .unwrap_or(self.clock.utc)
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default();
        r.at = Some(at);
        let secs = self.seconds_base
            + self
                .clock
                .instant
                .duration_since(self.arrived)
                .as_secs_f64();
        r.seconds = Some((secs * 10.0).round() / 10.0);
        // A review left saying nothing is removed, not written empty.
        let after = review::has_content(&r).then_some(r);
        if before.is_none() && after.is_none() {
            return false;
        }
        let was_skipped = self.skipped.contains(&self.pos);
        // Pushed before recording: the session effect `record` sends keeps the history.
        self.undo.push(Change {
            item: self.pos,
            before: before.clone(),
            after: after.clone(),
            unskipped: false,
        });
        self.redo.clear();
        self.record(self.pos, before, after, fx);
        let unskipped = was_skipped && !self.skipped.contains(&self.pos);
        if let Some(c) = self.undo.last_mut() {
            c.unskipped = unskipped;
        }
        true
    }

    /// Keep the running BPC in step with my review of item `i`.
    fn retally(&mut self, i: usize, review: &Option<Review>) {
        for (m, (c, t)) in self.bpc_items.remove(&i).unwrap_or_default() {
            let sum = self.bpc_sum.entry(m.clone()).or_default();
            *sum = (sum.0 - c, sum.1 - t);
            if sum.1 == 0 && self.bpc_items.values().all(|per| !per.contains_key(&m)) {
                self.bpc_sum.remove(&m);
            }
        }
        if let Some(per) = self.coverage(i, review) {
            for (m, (c, t)) in &per {
                let sum = self.bpc_sum.entry(m.clone()).or_default();
                *sum = (sum.0 + c, sum.1 + t);
            }
            self.bpc_items.insert(i, per);
        }
    }

    /// Per model: covered and total bonus points of `review` on CharToM-QA item `i`.
    fn coverage(&self, i: usize, review: &Option<Review>) -> Option<BTreeMap<String, (u64, u64)>> {
        let r = review.as_ref()?;
        let parsed;
        let item = if i == self.pos {
            self.item()?
        } else {
            parsed = self.store.item(i).ok()?;
            &parsed
        };
        if item.benchmark() != Benchmark::ChartomQa {
            return None;
        }
        let n = item.responses.len();
        let points = item.bonus_points.len();
        let mut out = BTreeMap::new();
        for resp in &item.responses {
            if let Some(b) = r.for_model(&resp.model, n).and_then(|g| g.bonus.as_ref()) {
                let (c, t): &mut (u64, u64) = out.entry(resp.model.clone()).or_default();
                *c += crate::grade::chartom_qa::covered_count(b, points);
                *t += points as u64;
            }
        }
        (!out.is_empty()).then_some(out)
    }

    fn record(
        &mut self,
        item: usize,
        before: Option<Review>,
        after: Option<Review>,
        fx: &mut Vec<Effect>,
    ) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.pending.insert(seq, (item, before));
        self.set_mine(item, after.clone());
        self.saved = SaveState::Writing;
        let id = if item == self.pos {
            self.item().and_then(|i| i.id.clone())
        } else {
            self.store.item(item).ok().and_then(|i| i.id)
        };
        fx.push(Effect::Record {
            seq,
            item,
            id,
            reviewer: self.reviewer.clone(),
            review: after.map(|r| review_value(&r)),
        });
        fx.push(self.session_effect());
        fx.push(self.position_effect());
    }

    /// My review of item `i` as this session has it now, with what follows from it.
    fn set_mine(&mut self, i: usize, review: Option<Review>) {
        self.retally(i, &review);
        let done = if i == self.pos {
            self.item()
                .is_some_and(|it| review::item_done(it, review.as_ref()))
        } else {
            self.store
                .item(i)
                .is_ok_and(|it| review::item_done(&it, review.as_ref()))
        };
        let done_before = self.mine_done.get(&i).copied().unwrap_or_else(|| {
            self.meta
                .as_ref()
                .is_some_and(|m| m.has(i, Kind::Done, &self.reviewer))
        });
        if done && !done_before {
            self.finished.insert(i);
        } else if !done {
            self.finished.remove(&i);
        }
        self.mine_done.insert(i, done);
        // Only grading that makes the item done clears my skip of it (a note on a
        // finished item does not), and the status line says so.
        if done && !done_before && self.skipped.remove(&i) {
            self.skip_cleared = true;
        }
        self.mine.insert(i, review);
        self.refresh_live(i);
    }

    fn undo(&mut self, fx: &mut Vec<Effect>) {
        let Some(c) = self.undo.pop() else {
            self.set_status("nothing to undo", Level::Info);
            return;
        };
        if c.item != self.pos {
            self.goto(c.item, fx);
        }
        self.record(c.item, c.after.clone(), c.before.clone(), fx);
        let again = if c.unskipped && self.skipped.insert(c.item) {
            " · skipped again"
        } else {
            ""
        };
        self.set_status(
            format!("undone on {}{again}", self.display_id(c.item)),
            Level::Info,
        );
        self.redo.push(c);
        fx.push(self.session_effect());
    }

    fn redo(&mut self, fx: &mut Vec<Effect>) {
        let Some(c) = self.redo.pop() else {
            self.set_status("nothing to redo", Level::Info);
            return;
        };
        if c.item != self.pos {
            self.goto(c.item, fx);
        }
        self.record(c.item, c.before.clone(), c.after.clone(), fx);
        self.set_status(
            format!("redone on {}", self.display_id(c.item)),
            Level::Info,
        );
        self.undo.push(c);
        fx.push(self.session_effect());
    }
}

/// The filter menu's rows for an index.
fn catalog(ix: &Index) -> Vec<FilterOption> {
    let mut out = vec![
        FilterOption::Ungraded,
        FilterOption::GradedByMe,
        FilterOption::Skipped,
        FilterOption::ModelWrong,
        FilterOption::Disagreement,
        FilterOption::NeedsAdjudication,
        FilterOption::Adjudicated,
    ];
    let names = |k: Kind| ix.names(k).map(str::to_string).collect::<Vec<_>>();
    let benches: Vec<Benchmark> = names(Kind::Benchmark)
        .iter()
        .map(|b| Benchmark::from_name(Some(b)))
        .collect();
    if benches.contains(&Benchmark::Chartom) {
        out.insert(4, FilterOption::SuspectKey);
    }
    if benches.contains(&Benchmark::Cvqa) {
        out.extend(
            [CvqaStatus::Accept, CvqaStatus::Fix, CvqaStatus::Reject].map(FilterOption::Status),
        );
    }
    if benches.len() > 1 {
        let mut b = benches;
        b.sort();
        out.extend(b.into_iter().map(FilterOption::Benchmark));
    }
    out.extend(
        names(Kind::ChartType)
            .into_iter()
            .map(FilterOption::ChartType),
    );
    out.extend(names(Kind::Version).into_iter().map(FilterOption::Version));
    out.extend(
        names(Kind::Dimension)
            .into_iter()
            .map(FilterOption::Dimension),
    );
    out.extend(names(Kind::Group).into_iter().map(FilterOption::Group));
    out.extend(names(Kind::Model).into_iter().map(FilterOption::Model));
    out.extend(
        names(Kind::Reviewer)
            .into_iter()
            .map(FilterOption::Reviewer),
    );
    out
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
