//! The note on an item: free text, several lines.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;

use crate::tui::app::State;
use crate::tui::edit::TextEdit;
use crate::tui::keymap::{Context, Keymap};
use crate::tui::overlays::Outcome;
use crate::tui::overlays::dialog::{Place, draw_input, save_cancel, text_field_key};

/// The dialog's title.
const TITLE: &str = "Note";
/// The note's keys: its table in the keymap.
pub const KEYS: Context = Context::Note;

/// A key in the note field: `submit` gives the note as typed (Alt-Enter, the field's, is
/// a new line).
pub fn handle_key(e: &mut TextEdit, km: &Keymap, k: &KeyEvent) -> Outcome<String> {
    text_field_key(km, KEYS, e, k)
}

pub fn draw(state: &State, f: &mut Frame, area: Rect, e: &TextEdit) {
    let keys = save_cancel(&state.keymap, KEYS, "", "Alt-Enter new line · ");
    // A view that keeps a note per part of the item says whose it is (`on match`).
    let part = state
        .item()
        .and_then(|it| crate::tui::views::current(state).graded_part(state, it));
    let title = match part {
        Some(p) => format!("{TITLE} {}", crate::tui::text::one_line(&p)),
        None => TITLE.to_string(),
    };
    draw_input(state, f, (area, Place::Middle), (&title, &keys), e, None);
}
