//! Jump to an item by its number or id.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;

use crate::tui::app::State;
use crate::tui::edit::{EditOutcome, TextEdit};
use crate::tui::overlays::Outcome;
use crate::tui::overlays::dialog::draw_input;

/// The dialog's title and its keys.
const TITLE: (&str, &str) = ("Jump to item number or id", "Enter jumps · Esc cancels");

/// A key in the jump field: Enter gives the number or id typed.
pub fn handle_key(e: &mut TextEdit, k: &KeyEvent) -> Outcome<String> {
    match e.handle(k) {
        EditOutcome::Cancel => Outcome::Close,
        EditOutcome::Submit => Outcome::Submit(e.text().trim().to_string()),
        _ => Outcome::Stay,
    }
}

pub fn draw(state: &State, f: &mut Frame, area: Rect, e: &TextEdit) {
    draw_input(state, f, area, TITLE, e, None);
}
