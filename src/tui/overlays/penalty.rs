//! A CharToM-QA response's penalty: what it gets wrong (empty: none).

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;

use crate::tui::app::State;
use crate::tui::edit::{EditOutcome, TextEdit};
use crate::tui::overlays::Outcome;
use crate::tui::overlays::dialog::draw_input;

/// The dialog's title and its keys.
const TITLE: (&str, &str) = (
    "Penalty: what the response gets wrong",
    "empty = none · Enter saves · Esc cancels",
);

/// A key in the penalty field: Enter gives the penalty as typed.
pub fn handle_key(e: &mut TextEdit, k: &KeyEvent) -> Outcome<String> {
    match e.handle(k) {
        EditOutcome::Cancel => Outcome::Close,
        EditOutcome::Submit => Outcome::Submit(e.text()),
        _ => Outcome::Stay,
    }
}

pub fn draw(state: &State, f: &mut Frame, area: Rect, e: &TextEdit) {
    draw_input(state, f, area, TITLE, e, None);
}
