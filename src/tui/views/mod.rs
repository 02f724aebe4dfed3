//! The item screen, one view per benchmark. `view_of` is the one place that picks a
//! benchmark's view; the frame around it (header, footer, status line, the panes, my grade
//! line, the verdicts) is shared. A new benchmark's screen is one new file here and one arm
//! in `view_of`.

pub mod chartom;
pub mod chartom_qa;
pub mod common;
pub mod cvqa;
pub mod declared;
pub mod footer;
pub mod generic;
pub mod header;
pub mod inspect;
pub mod item;
pub mod lm_eval;
pub mod model_line;
pub mod status;
pub mod verdicts;

use std::collections::BTreeMap;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::bench::{Benchmark, Benchmarks, Facet, Item, Response, ResponseGrades, Review};
use crate::store::Store;
use crate::tui::app::{Effect, State};
use crate::tui::facts::ReviewStatus;
use crate::tui::keymap::{Action, Context, Table, VerbDef};
use crate::tui::summary::{Summary, SummaryBlock};
use crate::tui::views::verdicts::Field;
use crossterm::event::KeyEvent;

/// A benchmark's screen: what its item and its responses show, what my grade line says,
/// and which grading keys the footer names first.
pub trait View: Sync {
    /// The benchmark's own grading keys (its keymap context's actions): what `action`
    /// does to the state. `State::act` keeps the global actions and hands these to the
    /// view of the item. False when `action` is not one of this benchmark's.
    fn act(&self, _state: &mut State, _action: Action, _fx: &mut Vec<Effect>) -> bool {
        false
    }

    /// The item's own text, above the responses (`width`: the pane's width).
    /// Its lines may borrow the item's texts (the panes keep the item: `tui::laid`).
    fn item_lines<'a>(&self, state: &State, item: &'a Item, width: u16) -> Vec<Line<'a>>;

    /// The item's two columns shown above the responses when the pane is wide enough:
    /// (title, left, right). None: the item's lines are one column.
    fn pair<'a>(
        &self,
        _state: &State,
        _item: &'a Item,
    ) -> Option<(Line<'static>, Vec<Line<'a>>, Vec<Line<'a>>)> {
        None
    }

    /// The view shows `item`'s line as it is in the file (`State::raw_shown`): the item
    /// keeps a copy of it when it is loaded (`Current::raw`). Only then: the copy of a
    /// line of megabytes is one of the passes showing it costs (issue 21).
    fn shows_raw(&self, _item: &Item) -> bool {
        false
    }

    /// `item_lines` are the columns of `pair` one under the other (its title, the left
    /// column, a blank line, the right column): when the pair does not fit, the item's
    /// lines are made from it instead of being built again.
    fn item_lines_are_the_pair(&self) -> bool {
        false
    }

    /// One response and its grades (`selected`: the keys act on it, so they are named).
    fn response_lines(
        &self,
        _state: &State,
        _item: &Item,
        _r: &Response,
        _selected: bool,
    ) -> Vec<Line<'static>> {
        Vec::new()
    }

    /// What my grade line says after "My grade:", first the grade itself
    /// (`model_line::NOT_GRADED` when there is none). `g`: my grades of `model`'s
    /// response; `column`: the line heads a side-by-side column.
    fn grade_parts(
        &self,
        item: &Item,
        mine: Option<&Review>,
        g: Option<&ResponseGrades>,
        model: Option<&str>,
        column: bool,
    ) -> Vec<String>;

    /// My grades are per response: the model tabs mark the models I am done with, and a
    /// grade line about one response says whether that response has any.
    fn grades_per_model(&self) -> bool {
        false
    }

    /// My grade line names the model it is about (the verdict is not on the question).
    fn grade_line_names_model(&self) -> bool {
        true
    }

    /// Lines under the verdicts when others' verdicts are shown.
    fn verdicts_footer(&self, _state: &State) -> Vec<Line<'static>> {
        Vec::new()
    }

    /// Where what the reviewer grades begins, so that an item opens with it in sight
    /// when the whole text does not fit: `Target::Top` when the item's own text is
    /// graded (it is shown from the top).
    fn target(&self, _state: &State, _item: &Item) -> Target {
        Target::Top
    }

    /// A pane beside the item on a wide screen (`item::ASIDE_MIN` columns): its title,
    /// its lines, and the item's lines (`item_lines`) it takes out of the item's text.
    fn aside<'a>(
        &self,
        _state: &State,
        _item: &'a Item,
    ) -> Option<(String, Vec<Line<'a>>, std::ops::Range<usize>)> {
        None
    }

    /// A key pressed in one of this view's popups (the `Mode`s its grading keys open):
    /// what the popup's outcome records. False when the mode is none of its.
    fn popup_key(&self, _st: &mut State, _k: &KeyEvent, _fx: &mut Vec<Effect>) -> bool {
        false
    }

    /// Draw this view's popup of the current mode in `area` (the screen's body: a
    /// grade's popup goes low in it, `dialog::Place::Low`); false when the mode is none
    /// of its (the overlays draw theirs).
    fn draw_popup(&self, _state: &State, _f: &mut Frame, _area: Rect) -> bool {
        false
    }

    /// A running figure of my grades that the view keeps as I grade (CharToM-QA's bonus
    /// point coverage): per model, (covered, total) in my `review` of `item`. None: it
    /// keeps none (see `keeps_tally`), or this review adds nothing to it.
    fn tally(&self, _item: &Item, _review: &Review) -> Option<BTreeMap<String, (u64, u64)>> {
        None
    }

    /// Does the view keep a running tally (`tally`)? My reviews of its items in the file
    /// are then counted when the index arrives.
    fn keeps_tally(&self) -> bool {
        false
    }

    /// The verification statuses its reviews give, for the filter menu of a file with
    /// items of its benchmark (`views::review_status` reads them from a review).
    fn statuses(&self) -> Vec<ReviewStatus> {
        Vec::new()
    }

    /// The flag facets (`views::is_flag`) the filter menu offers for a file with items
    /// of its benchmark.
    fn flags(&self) -> &'static [Facet] {
        &[]
    }

    /// My note as the note key shows it for editing (`r`: my review): the review's own
    /// note, unless the view keeps notes per part of the item it grades.
    fn note(&self, _state: &State, r: &Review) -> Option<String> {
        r.note.clone()
    }

    /// What saving the note field does to my review (the text as typed).
    fn note_setter(&self, _state: &State) -> NoteSetter {
        Box::new(crate::review::set_note)
    }

    /// In one column: how many of the selected response's last lines (`response_lines`)
    /// stay in view at the bottom of the pane while its text scrolls (a checklist to tick
    /// against the response), the first of them a heading whose row my grade line takes
    /// there. 0: none.
    fn pinned_tail(&self, _state: &State, _item: &Item, _r: &Response) -> usize {
        0
    }

    /// What the grade keys mean, one line with the keys from the keymap: shown in the item
    /// pane's top border over my grade line (as Argilla shows a question's guidelines).
    fn guideline(&self, _state: &State, _item: &Item) -> Option<String> {
        None
    }

    /// My grade line's words after "My grade" that say what the grading keys act on, when
    /// the view lets the reviewer choose (`State::graded_part`): e.g. `on scorer match`.
    fn graded_part(&self, _state: &State, _item: &Item) -> Option<String> {
        None
    }

    /// My grade line ends with `note` when my review has a note (a view whose
    /// `grade_parts_in` says where its notes are answers false).
    fn notes_on_grade_line(&self) -> bool {
        true
    }

    /// What my grade line says after "My grade:" ([`View::grade_parts`]), for a view that
    /// needs the state to say it (what [`View::graded_part`] selects).
    fn grade_parts_in(
        &self,
        _state: &State,
        item: &Item,
        mine: Option<&Review>,
        g: Option<&ResponseGrades>,
        model: Option<&str>,
        column: bool,
    ) -> Vec<String> {
        self.grade_parts(item, mine, g, model, column)
    }

    /// The view's own verbs (`Action::Verb`): its grading keys and its popups' keys, named
    /// in the keys file's tables; `act` and `popup_key` are given them.
    fn verbs(&self) -> &'static [&'static VerbDef] {
        &[]
    }

    /// The key tables of the view's popups (`Context::Popup`).
    fn tables(&self) -> &'static [&'static Table] {
        &[]
    }

    /// The review's item-level fields it describes, in the verdicts' and the
    /// adjudication table's order (every view's are shown, whatever the item's benchmark:
    /// a stray field shows too).
    fn review_fields(&self) -> &'static [fn(&Review) -> Field] {
        &[]
    }

    /// Its grades of a response, in the adjudication table's order.
    fn grade_fields(&self) -> &'static [fn(&ResponseGrades) -> Field] {
        &[]
    }

    /// The verification status a review gives (`facts::ReviewStatus`), if it gives one.
    fn review_status(&self, _r: &Review) -> Option<ReviewStatus> {
        None
    }

    /// Its block of the summary page, from the set's figures (`verdict stats`' own).
    fn summary_block<'a>(&self, _b: &'a Benchmarks) -> Option<&'a dyn SummaryBlock> {
        None
    }

    /// The keymap's context whose keys grade this view's items.
    fn context(&self) -> Context {
        Context::Generic
    }

    /// The grading keys the footer names first: (key, label) from the live keymap.
    fn grading_hints(&self, state: &State, parts: &mut Vec<(String, String)>);
}

/// What saving the note field does to my review ([`View::note_setter`]).
pub type NoteSetter = Box<dyn FnOnce(&mut Review, &str)>;

/// Where the graded part of an item's screen begins ([`View::target`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The top: the item's text is what is graded.
    Top,
    /// The `n`-th of the item's lines (`View::item_lines`).
    ItemLine(usize),
    /// The selected response (its model tabs line).
    Response,
}

/// The view of a benchmark: the one place a benchmark's screen is chosen.
pub fn view_of(b: Benchmark) -> &'static dyn View {
    match b {
        Benchmark::Chartom => &chartom::ChartomView,
        Benchmark::ChartomQa => &chartom_qa::ChartomQaView,
        Benchmark::Cvqa => &cvqa::CvqaView,
        Benchmark::LmEval => &lm_eval::LmEvalView,
        Benchmark::Inspect => &inspect::InspectView,
        Benchmark::Declared => &declared::DeclaredView,
        Benchmark::Other => &generic::GenericView,
    }
}

/// The benchmarks whose view grades with keys of its own: each has a keymap context
/// (`Context::Benchmark`) and a table of its name in `default-keys.toml`.
pub fn keyed_benchmarks() -> impl Iterator<Item = Benchmark> {
    Benchmark::ALL
        .into_iter()
        .filter(|&b| view_of(b).context() == Context::Benchmark(b))
}

/// Every view's verbs (`View::verbs`): the keys file's names of the benchmarks' own keys.
pub fn verbs() -> impl Iterator<Item = &'static VerbDef> {
    Benchmark::ALL
        .into_iter()
        .flat_map(|b| view_of(b).verbs().iter().copied())
}

/// Every view's popups' key tables (`View::tables`).
pub fn tables() -> impl Iterator<Item = &'static Table> {
    Benchmark::ALL
        .into_iter()
        .flat_map(|b| view_of(b).tables().iter().copied())
}

/// The benchmarks whose view keeps a running tally of my grades (`View::keeps_tally`).
pub fn tallied_benchmarks() -> impl Iterator<Item = Benchmark> {
    Benchmark::ALL
        .into_iter()
        .filter(|&b| view_of(b).keeps_tally())
}

/// A key in a popup a view opened: the view whose popup it is handles it (`View::popup_key`).
/// False when no view owns the mode.
pub(crate) fn popup_key(st: &mut State, k: &KeyEvent, fx: &mut Vec<Effect>) -> bool {
    Benchmark::ALL
        .into_iter()
        .any(|b| view_of(b).popup_key(st, k, fx))
}

/// Draw the popup a view opened, if the mode is one (`View::draw_popup`).
pub(crate) fn draw_popup(state: &State, f: &mut Frame, area: Rect) -> bool {
    Benchmark::ALL
        .into_iter()
        .any(|b| view_of(b).draw_popup(state, f, area))
}

/// Every view's item-level review fields (`View::review_fields`), in the registry's
/// order.
pub(crate) fn review_fields() -> impl Iterator<Item = fn(&Review) -> Field> {
    Benchmark::ALL
        .into_iter()
        .flat_map(|b| view_of(b).review_fields().iter().copied())
}

/// Every view's grades of a response (`View::grade_fields`), in the registry's order: the
/// adjudication table's.
pub(crate) fn grade_fields() -> impl Iterator<Item = fn(&ResponseGrades) -> Field> {
    Benchmark::ALL
        .into_iter()
        .flat_map(|b| view_of(b).grade_fields().iter().copied())
}

/// The same on a reviewer's line under the item: CHARTOM's FACT after CharToM-QA's
/// grades, as the line has always given them.
pub(crate) const GRADE_FIELDS_LINE: &[fn(&ResponseGrades) -> Field] = &[
    chartom::verdicts::justification,
    chartom_qa::bonus_field,
    chartom_qa::penalty_field,
    chartom::verdicts::fact,
    cvqa::verdicts::original,
    cvqa::verdicts::counterfactual,
];

/// The registry's facets (`bench::Facet`), in its order: the filter menu's order of
/// their groups, and the index's (`facts::Kind::Facet`).
pub(crate) const FACETS: [Facet; 15] = [
    Facet::SuspectKey,
    Facet::ChartType,
    Facet::Version,
    Facet::Dimension,
    Facet::Group,
    Facet::LmEvalFilter,
    Facet::Answer,
    Facet::Epoch,
    Facet::Disagree,
    Facet::Failed,
    Facet::Task,
    Facet::Run,
    Facet::RunsDisagree,
    Facet::Metadata,
    Facet::LinesDisagree,
];

/// A facet that is a flag (no value; its name is empty): the filter menu offers it with
/// the progress filters, for a file with items of a benchmark whose view names it
/// (`View::flags`). The others are offered per value, after the benchmarks.
pub(crate) const fn is_flag(f: Facet) -> bool {
    matches!(f, Facet::SuspectKey | Facet::Failed | Facet::RunsDisagree)
}

/// A facet's option in the filter menu: its label there and its name on the status line.
pub(crate) fn facet_words(f: Facet, value: &str) -> (String, String) {
    match f {
        Facet::SuspectKey => (
            "suspect answer key (far from the humans')".into(),
            "suspect key".into(),
        ),
        Facet::ChartType => (format!("chart type {value}"), value.into()),
        Facet::Version => (format!("version {value}"), value.into()),
        Facet::Dimension => (format!("dimension {value}"), value.into()),
        Facet::Group => (format!("group {value}"), value.into()),
        Facet::LmEvalFilter => (format!("lm-eval filter {value}"), format!("filter {value}")),
        Facet::Answer => (format!("answer {value}"), value.into()),
        Facet::Epoch => (format!("epoch {value}"), format!("epoch {value}")),
        Facet::Disagree => (format!("disagree: {value}"), value.into()),
        Facet::LinesDisagree => (format!("lines disagree: {value}"), value.into()),
        Facet::Failed => ("failed samples (no score)".into(), "failed".into()),
        Facet::Task => (format!("task {value}"), format!("task {value}")),
        Facet::Run => (format!("run {value}"), format!("run {value}")),
        Facet::RunsDisagree => (
            "runs disagree (right in one file, wrong in another)".into(),
            "runs disagree".into(),
        ),
        Facet::Metadata => {
            let (key, v) = value.split_once('\0').unwrap_or((value, ""));
            (format!("metadata.{key} = {v}"), format!("{key} = {v}"))
        }
    }
}

/// The verification status a review gives, whatever the item's benchmark
/// (`View::review_status`: C-VQA's).
pub(crate) fn review_status(r: &Review) -> Option<ReviewStatus> {
    Benchmark::ALL
        .into_iter()
        .find_map(|b| view_of(b).review_status(r))
}

/// The view of the current item (the generic one when there is none).
pub fn current(state: &State) -> &'static dyn View {
    view_of(
        state
            .item()
            .map(Item::benchmark)
            .unwrap_or(Benchmark::Other),
    )
}

/// Each benchmark's block of the summary page (`s`), in the registry's order
/// (`View::summary_block`), as `bench::Benchmarks::render` is for `verdict stats`.
pub(crate) fn summary_blocks(b: &Benchmarks) -> Vec<&dyn SummaryBlock> {
    Benchmark::ALL
        .into_iter()
        .filter_map(|k| view_of(k).summary_block(b))
        .collect()
}

/// What the views add to the figures of `verdict stats` on the summary page, computed
/// with them on the summary's thread.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SummaryExtras {
    /// CHARTOM's HMI plot: each chart's MIND predictions.
    pub(crate) chartom: chartom::summary::Predictions,
}

impl SummaryExtras {
    pub(crate) fn compute(store: &Store, b: &Benchmarks) -> SummaryExtras {
        SummaryExtras {
            chartom: b
                .chartom
                .as_ref()
                .map(|c| chartom::summary::Predictions::compute(store, c))
                .unwrap_or_default(),
        }
    }
}

/// Whether a benchmark draws a plot under the summary's text (CHARTOM's HMI ranking,
/// when there are charts).
pub(crate) fn summary_has_plot(s: &Summary) -> bool {
    s.stats
        .benchmarks
        .chartom
        .as_ref()
        .is_some_and(|c| !c.charts.is_empty())
}

/// The plot under the summary's text, in `area` of `buf`.
pub(crate) fn draw_summary_plot(
    state: &State,
    buf: &mut ratatui::buffer::Buffer,
    area: Rect,
    s: &Summary,
) {
    if let Some(c) = &s.stats.benchmarks.chartom {
        chartom::hmi_plot::draw_hmi_plot(state, buf, area, &c.charts, &s.extras.chartom);
    }
}
