//! Rendering: `draw(&State, &mut Frame)`. Pure with respect to the state: it reads, never
//! changes. Every text from the file goes through `text::sanitize`.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::{Paragraph, Wrap};

use crate::tui::app::{Mode, State};
pub use crate::tui::geometry::{
    aside_geometry, max_scroll, page_max_scroll, page_rows, page_rows_of_page, target_scroll,
};
use crate::tui::layout::Screen;
pub use crate::tui::layout::{MIN_H, MIN_W};
use crate::tui::overlays;
pub use crate::tui::overlays::search::indexing_note;
use crate::tui::views::footer::draw_footer;
use crate::tui::views::header::draw_header;
use crate::tui::views::item::draw_item;
pub use crate::tui::views::item::side_window;
pub use crate::tui::views::status::hint_parts;

/// Where the image goes, in cells, for a terminal of `w`×`h` (None: no image pane).
pub fn image_area(state: &State, w: u16, h: u16) -> Option<(u16, u16)> {
    Screen::new(state, Rect::new(0, 0, w, h)).image_cells(state)
}

pub fn draw(state: &State, f: &mut Frame) {
    let screen = Screen::new(state, f.area());
    draw_on(state, f, &screen);
}

/// Draw on the frame's `screen`, worked out once for the frame (the run loop also sizes
/// the image from it). A screen of another size than the frame is worked out again.
pub fn draw_on(state: &State, f: &mut Frame, screen: &Screen) {
    let area = f.area();
    if screen.area != area {
        return draw(state, f);
    }
    let t = &state.theme;
    if screen.too_small {
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
    draw_header(state, f, screen.header);
    match &state.mode {
        Mode::Help { scroll } => overlays::help::draw(state, f, screen.body, *scroll),
        Mode::Summary { scroll } => overlays::summary::draw(state, f, screen.body, *scroll),
        _ => draw_item(state, f, screen.item.unwrap_or_default()),
    }
    draw_footer(state, f, screen);
    overlays::draw(state, f, screen);
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
