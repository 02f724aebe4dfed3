//! A CharToM-QA response's penalty: what it gets wrong (empty: none).

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;

use crate::tui::app::State;
use crate::tui::edit::TextEdit;
use crate::tui::keymap::{Context, Keymap, Table};
use crate::tui::overlays::Outcome;
use crate::tui::overlays::dialog::{Place, draw_input, save_cancel, text_field_key};

/// The dialog's title.
const TITLE: &str = "Penalty: what the response gets wrong";
/// The penalty's keys: its table in the keymap.
pub static TABLE: Table = Table {
    rank: 0,
    name: "penalty",
    title: "Penalty",
};
const KEYS: Context = Context::Popup(&TABLE);

crate::tui::app::text_popup!(
    /// The penalty's field (`Mode::Popup`).
    PenaltyPopup,
    KEYS
);

/// A key in the penalty field: `submit` gives the penalty as typed.
pub fn handle_key(e: &mut TextEdit, km: &Keymap, k: &KeyEvent) -> Outcome<String> {
    text_field_key(km, KEYS, e, k)
}

pub fn draw(state: &State, f: &mut Frame, area: Rect, e: &TextEdit) {
    let keys = save_cancel(&state.keymap, KEYS, "empty = none · ", "");
    draw_input(state, f, (area, Place::Low), (TITLE, &keys), e, None);
}
