//! The pages that take the body's place (help, summary): how far they scroll.

use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::tui::app::{Mode, State};
use crate::tui::draw::{MIN_H, MIN_W};
use crate::tui::keymap::Action;
use crate::tui::overlays::Outcome;
use crate::tui::overlays::help::help_lines;
use crate::tui::overlays::summary::{summary_lines, summary_split};

/// How far the help or the summary can scroll at the current size (0 in other modes):
/// their scroll keys stop there.
/// How far `PgDn`/`PgUp` move the help or the summary: their visible rows, less one.
pub fn page_rows_of_page(state: &State) -> u16 {
    let (w, h) = state.size;
    let inner = Rect::new(1, 2, w.saturating_sub(2), h.saturating_sub(5));
    let rows = match (&state.mode, &state.summary) {
        (Mode::Summary { .. }, Some(Ok(s))) => {
            let (_, plot) = summary_lines(state, s, inner.width);
            summary_split(inner, plot).0.height
        }
        _ => inner.height,
    };
    rows.saturating_sub(1).max(1)
}

pub fn page_max_scroll(state: &State) -> u16 {
    let (w, h) = state.size;
    if w < MIN_W || h < MIN_H {
        return 0;
    }
    let inner = Rect::new(1, 2, w.saturating_sub(2), h.saturating_sub(5));
    match &state.mode {
        Mode::Help { .. } => max_scroll_of(&help_lines(state), inner),
        Mode::Summary { .. } => match &state.summary {
            Some(Ok(s)) => {
                let (lines, plot) = summary_lines(state, s, inner.width);
                max_scroll_of(&lines, summary_split(inner, plot).0)
            }
            _ => 0,
        },
        _ => 0,
    }
}

/// How far `lines`, wrapped in `r`, can scroll.
pub(crate) fn max_scroll_of(lines: &[Line], r: Rect) -> u16 {
    let total = Paragraph::new(lines.to_vec())
        .wrap(Wrap { trim: false })
        .line_count(r.width.max(1));
    u16::try_from(total)
        .unwrap_or(u16::MAX)
        .saturating_sub(r.height)
}

/// The action of a key (`act`: in the page's table) on a page scrolled to `scroll`: the
/// scroll keys scroll, no further than `max`; `close`, or the key that opened the page
/// (`toggles`), close it.
pub fn handle_key(
    scroll: &mut u16,
    act: Option<Action>,
    max: u16,
    rows: u16,
    toggles: bool,
) -> Outcome<()> {
    match act {
        Some(Action::ScrollDown) => *scroll = scroll.saturating_add(1).min(max.max(*scroll)),
        Some(Action::ScrollUp) => *scroll = scroll.saturating_sub(1),
        Some(Action::PageDown) => *scroll = scroll.saturating_add(rows).min(max.max(*scroll)),
        Some(Action::PageUp) => *scroll = scroll.saturating_sub(rows),
        Some(Action::Close) => return Outcome::Close,
        _ if toggles => return Outcome::Close,
        _ => {}
    }
    Outcome::Stay
}
