//! The item screen, one view per benchmark. `view_of` is the one place that picks a
//! benchmark's view; the frame around it (header, footer, status line, the panes, my grade
//! line, the verdicts) is shared. A new benchmark's screen is one new file here and one arm
//! in `view_of`.

pub mod chartom;
pub mod chartom_qa;
pub mod common;
pub mod cvqa;
pub mod footer;
pub mod generic;
pub mod header;
pub mod inspect;
pub mod item;
pub mod lm_eval;
pub mod model_line;
pub mod status;
pub mod verdicts;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::bench::Benchmarks;
use crate::bench::{Benchmark, Item, Response, ResponseGrades, Review};
use crate::store::Store;
use crate::tui::app::State;
use crate::tui::keymap::{Action, Context};
use crate::tui::summary::{Summary, SummaryBlock};

/// A benchmark's screen: what its item and its responses show, what my grade line says,
/// and which grading keys the footer names first.
pub trait View: Sync {
    /// The benchmark's own grading keys (its keymap context's actions): what `action`
    /// does to the state. `State::act` keeps the global actions and hands these to the
    /// view of the item. False when `action` is not one of this benchmark's.
    fn act(
        &self,
        _state: &mut State,
        _action: Action,
        _fx: &mut Vec<crate::tui::app::Effect>,
    ) -> bool {
        false
    }

    /// The item's own text, above the responses (`width`: the pane's width).
    fn item_lines(&self, state: &State, item: &Item, width: u16) -> Vec<Line<'static>>;

    /// The item's two columns shown above the responses when the pane is wide enough:
    /// (title, left, right). None: the item's lines are one column.
    fn pair(
        &self,
        _state: &State,
        _item: &Item,
    ) -> Option<(Line<'static>, Vec<Line<'static>>, Vec<Line<'static>>)> {
        None
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
    fn aside(
        &self,
        _state: &State,
        _item: &Item,
    ) -> Option<(String, Vec<Line<'static>>, std::ops::Range<usize>)> {
        None
    }

    /// The keymap's context whose keys grade this view's items.
    fn context(&self) -> Context {
        Context::Generic
    }

    /// The grading keys the footer names first: (key, label) from the live keymap.
    fn grading_hints(&self, state: &State, parts: &mut Vec<(String, String)>);
}

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
        Benchmark::Other => &generic::GenericView,
    }
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

/// Each benchmark's block of the summary page (`s`), in the page's order: the one place
/// that names them, as `bench::Benchmarks::render` is for `verdict stats`.
pub(crate) fn summary_blocks(b: &Benchmarks) -> Vec<&dyn SummaryBlock> {
    let mut blocks: Vec<&dyn SummaryBlock> = Vec::new();
    if let Some(x) = &b.chartom {
        blocks.push(x);
    }
    if let Some(x) = &b.chartom_qa {
        blocks.push(x);
    }
    if let Some(x) = &b.cvqa {
        blocks.push(x);
    }
    if let Some(x) = &b.lm_eval {
        blocks.push(x);
    }
    if let Some(x) = &b.inspect {
        blocks.push(x);
    }
    blocks
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

/// The plot under the summary's text, in `area`.
pub(crate) fn draw_summary_plot(state: &State, f: &mut Frame, area: Rect, s: &Summary) {
    if let Some(c) = &s.stats.benchmarks.chartom {
        chartom::hmi_plot::draw_hmi_plot(state, f, area, &c.charts, &s.extras.chartom);
    }
}
