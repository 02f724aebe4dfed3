//! Reject a C-VQA question: the reason menu, and for "other" the reviewer's few words.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;

use crate::bench::cvqa::fields::CvqaReason;
use crate::tui::app::{Popup, State};
use crate::tui::edit::TextEdit;
use crate::tui::keymap::{Action, Context, Keymap, Table};
use crate::tui::overlays::Outcome;
use crate::tui::overlays::dialog::{
    FieldKey, Place, draw_input, field_key, move_keys, save_cancel,
};
use crate::tui::views::cvqa::reason;

/// The menu's title.
const TITLE: &str = "Reject: why?";
/// The menu's keys: its table in the keymap.
pub static TABLE: Table = Table {
    rank: 2,
    name: "reject",
    title: "Reject",
};
pub const KEYS: Context = Context::Popup(&TABLE);
/// The "other" field's title.
pub const OTHER_TITLE: &str = "Reject, other: why, in a few words";
/// The "other" field's keys.
pub static OTHER_TABLE: Table = Table {
    rank: 3,
    name: "reject-other",
    title: "Reject, other",
};
pub const OTHER_KEYS: Context = Context::Popup(&OTHER_TABLE);

/// The reason menu (`Mode::Popup`).
#[derive(Debug, Clone, PartialEq)]
pub struct Reject {
    pub selected: usize,
}

impl Popup for Reject {
    fn keys(&self) -> Context {
        KEYS
    }
}

crate::tui::app::text_popup!(
    /// Reject for "other": the reviewer's few words.
    RejectOther,
    OTHER_KEYS
);

/// Said when "other" is saved with no words.
pub fn other_empty(km: &Keymap) -> String {
    format!(
        "say why in a few words ({} cancels)",
        km.hint(OTHER_KEYS, Action::Cancel)
    )
}

/// A key in the reason menu: a reason's key, or `submit` on the selected one, picks it.
pub fn handle_key(selected: &mut usize, km: &Keymap, k: &KeyEvent) -> Outcome<CvqaReason> {
    reason::handle_key(selected, km.in_overlay(KEYS, k, false))
}

/// A key in the "other" field: `submit` gives the words typed (refused when blank).
pub fn handle_other_key(e: &mut TextEdit, km: &Keymap, k: &KeyEvent) -> Outcome<String> {
    match field_key(km, OTHER_KEYS, e, k) {
        FieldKey::Action(Action::Cancel) => Outcome::Close,
        FieldKey::Action(Action::Submit) => Outcome::Submit(e.text()),
        _ => Outcome::Stay,
    }
}

pub fn draw(state: &State, f: &mut Frame, area: Rect, selected: usize) {
    let km = &state.keymap;
    let keys = format!(
        "{} or {} {} · {} cancels",
        reason::reason_keys(km, KEYS),
        move_keys(km, KEYS),
        km.hint(KEYS, Action::Submit),
        km.hint(KEYS, Action::Cancel)
    );
    reason::draw_menu(state, f, area, selected, KEYS, (TITLE, &keys));
}

/// The "other" field, under `title` (a reject's, or a fix's for reason "other": the same
/// field and keys).
pub fn draw_other(state: &State, f: &mut Frame, area: Rect, e: &TextEdit, title: &str) {
    let keys = save_cancel(&state.keymap, OTHER_KEYS, "", "");
    draw_input(state, f, (area, Place::Low), (title, &keys), e, None);
}
