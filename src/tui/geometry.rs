//! How far the item's text, its context pane and the pages (help, summary) scroll at the
//! current size, and how far a page step moves them: what `update` asks of the screen.
//! Measured on the lines the views and pages build, in the rectangles of
//! `layout::Screen`, as they are drawn; nothing here draws.

use ratatui::layout::Rect;

use crate::tui::app::{Mode, State};
use crate::tui::laid;
use crate::tui::layout::{MIN_H, MIN_W, Screen, item_areas};
use crate::tui::overlays::help::help_lines;
use crate::tui::overlays::page::max_scroll_of;
use crate::tui::overlays::summary::{summary_lines, summary_split};

/// How far the item's text can scroll at the current terminal size: the scroll keys stop
/// there, so `PgDn` never shows a blank pane.
pub fn max_scroll(state: &State) -> usize {
    let screen = Screen::of(state);
    if screen.too_small {
        return 0;
    }
    let laid = laid::of(state, item_areas(state, screen.body));
    (0..laid.panes().panes.len())
        .filter(|&k| !laid.panes().panes[k].aside)
        .map(|k| laid.geometry(k).1)
        .max()
        .unwrap_or(0)
}

/// Is the cell (`column`, `row`) in the context pane beside the item (the mouse's wheel
/// scrolls the pane under the pointer)?
pub fn aside_at(state: &State, column: u16, row: u16) -> bool {
    let screen = Screen::of(state);
    if screen.too_small {
        return false;
    }
    laid::of(state, item_areas(state, screen.body))
        .panes()
        .panes
        .iter()
        .any(|p| p.aside && crate::tui::layout::contains(p.rect, column, row))
}

/// The context pane's visible rows and how far it can scroll ((0, 0): none on screen).
pub fn aside_geometry(state: &State) -> (u16, usize) {
    let screen = Screen::of(state);
    if screen.too_small {
        return (0, 0);
    }
    let laid = laid::of(state, item_areas(state, screen.body));
    let aside = laid.panes().panes.iter().position(|p| p.aside);
    aside
        .map(|k| {
            let (text, max) = laid.geometry(k);
            (text.height, max)
        })
        .unwrap_or((0, 0))
}

/// Where the item's text opens: the top when all of it fits or what is graded is on the
/// first page; else scrolled so that what is graded (`View::target`) is the first line.
pub fn target_scroll(state: &State) -> usize {
    let screen = Screen::of(state);
    if screen.too_small {
        return 0;
    }
    let laid = laid::of(state, item_areas(state, screen.body));
    let Some(at) = laid.panes().panes.iter().position(|p| p.target.is_some()) else {
        return 0;
    };
    let p = &laid.panes().panes[at];
    let (text, max) = laid.geometry(at);
    let rows_to = |k: usize| laid.rows_before(at, k);
    // What is graded ends with the selected response's grades (else the text's end).
    let end = rows_to(p.response.map_or(p.lines.len(), |(_, end)| end));
    // All of it on the first page: no need to scroll.
    if max == 0 || end <= usize::from(text.height) {
        return 0;
    }
    let mut row = rows_to(p.target.unwrap_or(0));
    // What is graded does not fit from its start (a question and a long response over a
    // checklist): open at the response, the question a scroll up. Not when the checklist
    // stays in view under the text (`Pane::footer`): then it opens on the question, the
    // response under it.
    if let Some((first, _)) = p.response
        && p.footer.is_empty()
        && end.saturating_sub(row) > usize::from(text.height)
    {
        row = rows_to(first).max(row);
    }
    // The response is what is graded and a table stays under it (the adjudication
    // queue's): its end in view, where the grade is given (a CHARTOM justification).
    if let Some((first, _)) = p.response
        && !p.footer.is_empty()
        && p.target == Some(first)
        && end.saturating_sub(row) > usize::from(text.height)
    {
        row = end.saturating_sub(usize::from(text.height)).max(row);
    }
    row.min(max)
}

/// How far `PgDn`/`PgUp` move the item's text: the visible rows of the pane that scrolls
/// furthest (the one whose indicator counts lines), less one row kept for context.
pub fn page_rows(state: &State) -> usize {
    let screen = Screen::of(state);
    let rows = if screen.too_small {
        0
    } else {
        let laid = laid::of(state, item_areas(state, screen.body));
        (0..laid.panes().panes.len())
            .filter(|&k| !laid.panes().panes[k].aside)
            .map(|k| laid.geometry(k))
            .max_by_key(|(_, max)| *max)
            .map(|(text, _)| text.height)
            .unwrap_or(0)
    };
    usize::from(rows.saturating_sub(1).max(1))
}

/// How far the help or the summary can scroll at the current size (0 in other modes):
/// their scroll keys stop there.
/// How far `PgDn`/`PgUp` move the help or the summary: their visible rows, less one.
pub fn page_rows_of_page(state: &State) -> u16 {
    let (w, h) = state.size;
    let inner = Rect::new(1, 2, w.saturating_sub(2), h.saturating_sub(5));
    let rows = match (&state.mode, state.summary.get()) {
        (Mode::Summary { .. }, Some(Ok(s))) => {
            summary_split(inner, crate::tui::views::summary_has_plot(s))
                .0
                .height
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
        Mode::Summary { .. } => match state.summary.get() {
            Some(Ok(s)) => {
                let text = summary_split(inner, crate::tui::views::summary_has_plot(s)).0;
                max_scroll_of(&summary_lines(state, s, inner), text)
            }
            _ => 0,
        },
        _ => 0,
    }
}
