//! Reject a C-VQA question: the reason menu, and for "other" the reviewer's few words.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;

use crate::model::CvqaReason;
use crate::tui::app::State;
use crate::tui::edit::{EditOutcome, TextEdit};
use crate::tui::overlays::dialog::draw_input;
use crate::tui::overlays::{Outcome, reason};

/// The menu's title and its keys.
const TITLE: (&str, &str) = ("Reject: why?", "1-5 or ↑↓ Enter · Esc cancels");
/// The "other" field's title and its keys.
const OTHER_TITLE: (&str, &str) = (
    "Reject, other: why, in a few words",
    "Enter saves · Esc cancels",
);
/// Said when "other" is saved with no words.
pub const OTHER_EMPTY: &str = "say why in a few words (Esc cancels)";

/// A key in the reason menu: a digit or Enter picks the reason.
pub fn handle_key(selected: &mut usize, k: &KeyEvent) -> Outcome<CvqaReason> {
    reason::handle_key(selected, k)
}

/// A key in the "other" field: Enter gives the words typed (refused when blank).
pub fn handle_other_key(e: &mut TextEdit, k: &KeyEvent) -> Outcome<String> {
    match e.handle(k) {
        EditOutcome::Cancel => Outcome::Close,
        EditOutcome::Submit => Outcome::Submit(e.text()),
        _ => Outcome::Stay,
    }
}

pub fn draw(state: &State, f: &mut Frame, area: Rect, selected: usize) {
    reason::draw_menu(state, f, area, selected, TITLE);
}

pub fn draw_other(state: &State, f: &mut Frame, area: Rect, e: &TextEdit) {
    draw_input(state, f, area, OTHER_TITLE, e, None);
}
