//! The item screen's frame: the image pane and the scrolled text panes, one per response
//! side by side. What goes in the panes comes from the benchmark's view (`views::view_of`).
//!
//! - `panes.rs`: the item's panes built from the state (`item_panes`), the C-VQA pair
//!   or the view's lines of the item, a message or an unreadable item's text;
//! - `columns.rs`: the item, its responses and the reviews laid out in panes, in one
//!   column (with the context pane beside it on a wide screen) or side by side;
//! - `draw.rs`: the panes kept between frames (`tui::laid`) and the image pane drawn.

use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders};

mod columns;
mod draw;
mod panes;

pub(crate) use draw::draw_item;
pub(crate) use panes::item_panes;

/// One scrolled pane of the item view.
#[derive(Debug, PartialEq)]
pub(crate) struct Pane<'a> {
    pub(crate) rect: Rect,
    title: Line<'static>,
    /// Right in the top border, over my grade line: what the grade keys mean
    /// (`View::guideline`).
    guide: Option<Line<'static>>,
    /// A line pinned at the top, never scrolled away: my grade and what it applies to.
    pinned: Option<Line<'static>>,
    /// Lines pinned at the bottom, never scrolled away: the selected response's
    /// checklist (`View::pinned_tail`), when it fits.
    pub(crate) footer: Vec<Line<'a>>,
    /// Borrowing the item's texts where the view can (`tui::laid` keeps the item).
    pub(crate) lines: Vec<Line<'a>>,
    /// The line where what is graded begins (`View::target`), when not the top.
    pub(crate) target: Option<usize>,
    /// The selected response's first line (its model tabs) and the line after its grades:
    /// when what is graded does not fit from `target`, the item opens at the response.
    pub(crate) response: Option<(usize, usize)>,
    /// The context pane beside the item (scrolled by `State::aside_scroll`).
    pub(crate) aside: bool,
}

/// The item view's layout and content: built when what they show changes and kept
/// between frames (`tui::laid`), drawn by `draw_item`, measured by `max_scroll`.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct ItemPanes<'a> {
    image: Option<Rect>,
    /// The image pane collapsed to one line: there is no picture to show.
    image_line: Option<Rect>,
    /// C-VQA: the original and counterfactual pair in two columns (title, left, right).
    pair: Option<(Rect, Line<'static>, Vec<Line<'a>>, Vec<Line<'a>>)>,
    pub(crate) panes: Vec<Pane<'a>>,
}

/// The width from which a view's aside (`View::aside`) is a pane of its own.
pub(crate) const ASIDE_MIN: u16 = 160;

/// The rows the responses' pane keeps under the C-VQA pair (borders, my grade line and
/// two lines of a response).
const PAIR_RESPONSE_ROWS: u16 = 5;

/// How many responses side by side fit in `width` columns.
pub(crate) const SIDE_COLUMN_MIN: u16 = 38;

/// The responses shown side by side: (first, count). Pages of as many as fit, the page
/// holding the selected model.
pub fn side_window(n: usize, selected: usize, width: u16) -> (usize, usize) {
    let per = ((width / SIDE_COLUMN_MIN).max(1) as usize).min(n.max(1));
    let start = ((selected / per) * per).min(n.saturating_sub(per));
    (start, per)
}

/// The rows of a pane where its text is drawn (inside the borders, under the pinned
/// line, above the footer).
pub(crate) fn text_rect(p: &Pane<'_>) -> Rect {
    let inner = Block::default().borders(Borders::ALL).inner(p.rect);
    let pinned = u16::from(p.pinned.is_some());
    let footer = crate::tui::wrap::rows(&p.footer, inner.width).min(u16::MAX.into()) as u16;
    Rect::new(
        inner.x,
        inner.y + pinned.min(inner.height),
        inner.width,
        inner.height.saturating_sub(pinned).saturating_sub(footer),
    )
}

/// The rows of a pane's footer (`Pane::footer`): under its text, inside the borders.
pub(crate) fn footer_rect(p: &Pane<'_>) -> Rect {
    let text = text_rect(p);
    let inner = Block::default().borders(Borders::ALL).inner(p.rect);
    let y = text.y + text.height;
    Rect::new(
        inner.x,
        y,
        inner.width,
        (inner.y + inner.height).saturating_sub(y),
    )
}

/// The fewest rows a pane keeps for its scrolled text under a footer: the question and
/// the first lines of the response, at 80×24 with a checklist of 12 points.
pub(crate) const FOOTER_LEAVES: u16 = 5;

/// Rows a paragraph of `lines` takes when wrapped to `width` (at most `u16::MAX`).
pub(crate) fn wrapped_height(lines: &[Line], width: u16) -> u16 {
    let w = width.max(1) as usize;
    lines
        .iter()
        .map(|l| (crate::tui::wrap::line_width(l).max(1)).div_ceil(w))
        .sum::<usize>()
        .min(u16::MAX.into()) as u16
}
