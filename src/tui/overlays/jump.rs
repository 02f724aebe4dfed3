//! Jump to an item by its number or id (or the harness's own id: `bench::Spec::harness_id`).

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;

use crate::tui::app::State;
use crate::tui::edit::TextEdit;
use crate::tui::keymap::{Action, Context, Keymap};
use crate::tui::overlays::Outcome;
use crate::tui::overlays::dialog::{FieldKey, Place, draw_input, field_key};

/// The dialog's title.
const TITLE: &str = "Jump to item number or id (a harness's own too: sample id, doc 3)";
/// The jump's keys: its table in the keymap.
const KEYS: Context = Context::Jump;

/// A key in the jump field: `submit` gives the number or id typed.
pub fn handle_key(e: &mut TextEdit, km: &Keymap, k: &KeyEvent) -> Outcome<String> {
    match field_key(km, KEYS, e, k) {
        FieldKey::Action(Action::Cancel) => Outcome::Close,
        FieldKey::Action(Action::Submit) => Outcome::Submit(e.text().trim().to_string()),
        _ => Outcome::Stay,
    }
}

pub fn draw(state: &State, f: &mut Frame, area: Rect, e: &TextEdit) {
    let km = &state.keymap;
    let keys = format!(
        "{} jumps · {} cancels",
        km.hint(KEYS, Action::Submit),
        km.hint(KEYS, Action::Cancel)
    );
    draw_input(state, f, (area, Place::Middle), (TITLE, &keys), e, None);
}
