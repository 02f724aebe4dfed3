//! CharToM-QA items with more than 9 bonus points: the point's number, typed (the digit
//! that opened it first), ticked with `submit`. `1 0` is point 10, never point 1 and then
//! "no penalty".

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;

use crate::tui::app::State;
use crate::tui::edit::TextEdit;
use crate::tui::keymap::{Action, Context, Keymap, Table};
use crate::tui::overlays::Outcome;
use crate::tui::overlays::dialog::{FieldKey, Place, draw_input, field_key};

/// The bonus number's keys: its table in the keymap (a bonus point's number, past 9).
pub static TABLE: Table = Table {
    rank: 1,
    name: "bonus",
    title: "Bonus point number",
};
pub const KEYS: Context = Context::Popup(&TABLE);

crate::tui::app::text_popup!(
    /// The point's number being typed (`Mode::Popup`).
    BonusPopup,
    KEYS
);

/// A key in the field: digits only; `submit` gives the number typed.
pub fn handle_key(e: &mut TextEdit, km: &Keymap, k: &KeyEvent) -> Outcome<String> {
    if let crossterm::event::KeyCode::Char(c) = k.code
        && !c.is_ascii_digit()
        && km.in_overlay(KEYS, k, false).is_none()
    {
        return Outcome::Stay;
    }
    match field_key(km, KEYS, e, k) {
        FieldKey::Action(Action::Cancel) => Outcome::Close,
        FieldKey::Action(Action::Submit) => Outcome::Submit(e.text().trim().to_string()),
        _ => Outcome::Stay,
    }
}

pub fn draw(state: &State, f: &mut Frame, area: Rect, e: &TextEdit, points: usize) {
    let km = &state.keymap;
    let title = format!("Tick bonus point (1–{points})");
    let keys = format!(
        "{} ticks or unticks · {} cancels",
        km.hint(KEYS, Action::Submit),
        km.hint(KEYS, Action::Cancel)
    );
    draw_input(state, f, (area, Place::Low), (&title, &keys), e, None);
}
