//! Rendering: `draw(&State, &mut Frame)`. Pure with respect to the state: it reads, never
//! changes. Every text from the file goes through `text::sanitize`.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::widgets::{Paragraph, Wrap};
use serde_json::Value;

use crate::store::Store;
use crate::tui::app::{Mode, State};
use crate::tui::grading;
use crate::tui::overlays;
pub use crate::tui::overlays::page::{page_max_scroll, page_rows_of_page};
pub use crate::tui::overlays::search::indexing_note;
use crate::tui::views::footer::draw_footer;
use crate::tui::views::header::draw_header;
use crate::tui::views::item::{draw_item, side_by_side, split_body};
pub use crate::tui::views::item::{max_scroll, page_rows, side_window};
pub use crate::tui::views::status::hint_parts;

pub const MIN_W: u16 = 50;
pub const MIN_H: u16 = 14;

/// The figures of the summary screen (the same as `verdict stats --json`).
pub fn summary_value(store: &Store) -> Value {
    grading::summary_value(store)
}

/// Where the image goes, in cells, for a terminal of `w`×`h` (None: no image pane).
pub fn image_area(state: &State, w: u16, h: u16) -> Option<(u16, u16)> {
    if w < MIN_W
        || h < MIN_H
        || !matches!(
            state.mode,
            Mode::Normal
                | Mode::Note(_)
                | Mode::Penalty(_)
                | Mode::Reject { .. }
                | Mode::RejectOther(_)
                | Mode::FixReason { .. }
                | Mode::Fix(_)
                | Mode::Jump(_)
        )
    {
        return None;
    }
    state.item()?.image.as_ref()?;
    if side_by_side(state) && !state.zoom {
        return None;
    }
    let (img, _) = split_body(Rect::new(0, 0, w, h.saturating_sub(3)), true, state.zoom);
    img.map(|r| (r.width.saturating_sub(2), r.height.saturating_sub(2)))
}

pub fn draw(state: &State, f: &mut Frame) {
    let area = f.area();
    let t = &state.theme;
    if area.width < MIN_W || area.height < MIN_H {
        let msg = format!(
            "Terminal too small: {}×{}.\nverdict needs at least {MIN_W}×{MIN_H}.\nEnlarge the window ({} quits).",
            area.width,
            area.height,
            state.keymap.hint(
                crate::tui::keymap::Context::Global,
                crate::tui::keymap::Action::Quit
            )
        );
        f.render_widget(
            Paragraph::new(msg).style(t.warn).wrap(Wrap { trim: true }),
            area,
        );
        return;
    }
    let rows = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(2),
    ])
    .split(area);
    draw_header(state, f, rows[0]);
    match &state.mode {
        Mode::Help { scroll } => overlays::help::draw(state, f, rows[1], *scroll),
        Mode::Summary { scroll } => overlays::summary::draw(state, f, rows[1], *scroll),
        _ => draw_item(state, f, rows[1]),
    }
    draw_footer(state, f, rows[2]);
    overlays::draw(state, f, area);
}

/// Convenience for tests: render the state into a string.
pub fn render_to_string(state: &State, w: u16, h: u16) -> String {
    let backend = ratatui::backend::TestBackend::new(w, h);
    let mut term = ratatui::Terminal::new(backend).expect("test terminal");
    term.draw(|f| draw(state, f)).expect("draw");
    let buf = term.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..h {
        let mut line = String::new();
        for x in 0..w {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
