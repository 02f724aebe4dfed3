//! Fix a C-VQA counterfactual: the corrected question and answer, saved with the reason
//! the popup shows, or another picked from the reason list.

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

/// The fields' dialog title.
const TITLE: &str = "Fix the counterfactual question / answer";
/// The fields' keys: their table in the keymap.
pub static TABLE: Table = Table {
    rank: 4,
    name: "fix",
    title: "Fix",
};
const KEYS: Context = Context::Popup(&TABLE);
/// The reason menu's title.
const REASON_TITLE: &str = "Fix: why?";
/// The reason menu's keys.
pub static REASON_TABLE: Table = Table {
    rank: 5,
    name: "fix-reason",
    title: "Fix: reason",
};
pub const REASON_KEYS: Context = Context::Popup(&REASON_TABLE);

impl Popup for FixState {
    fn keys(&self) -> Context {
        KEYS
    }

    /// The field with the cursor.
    fn field(&mut self) -> Option<&mut TextEdit> {
        Some(if self.on_answer {
            &mut self.answer
        } else {
            &mut self.question
        })
    }

    fn has_field(&self) -> bool {
        true
    }
}

/// A fix's corrected question and answer, waiting for the reviewer's reason.
#[derive(Debug, Clone, PartialEq)]
pub struct FixReason {
    pub selected: usize,
    pub question: String,
    pub answer: String,
}

impl Popup for FixReason {
    fn keys(&self) -> Context {
        REASON_KEYS
    }
}

/// A fix for reason "other": its few words, with the fix (question, answer) typed (the
/// keys of a reject's "other").
#[derive(Debug, Clone, PartialEq)]
pub struct FixOther {
    pub question: String,
    pub answer: String,
    pub text: TextEdit,
}

impl Popup for FixOther {
    fn keys(&self) -> Context {
        super::reject::OTHER_KEYS
    }

    fn field(&mut self) -> Option<&mut TextEdit> {
        Some(&mut self.text)
    }

    fn has_field(&self) -> bool {
        true
    }
}

/// The fix being typed: the counterfactual question and answer, which has the cursor, and
/// the reviewer's earlier choice of reason (this item's fix's, else my last fix's).
#[derive(Debug, Clone, PartialEq)]
pub struct FixState {
    pub question: TextEdit,
    pub answer: TextEdit,
    pub on_answer: bool,
    pub chosen: Option<CvqaReason>,
    /// The generated answer, to tell whether the fix changes it.
    pub generated_answer: String,
}

impl FixState {
    /// The reason `submit` saves the fix with, shown on the popup: the earlier choice,
    /// else `wrong-answer` when the answer was changed, else the list's first.
    pub fn reason(&self) -> CvqaReason {
        let answer = self.answer.text();
        self.chosen.unwrap_or(
            if !answer.trim().is_empty() && answer.trim() != self.generated_answer {
                CvqaReason::WrongAnswer
            } else {
                CvqaReason::ALL[0]
            },
        )
    }
}

/// A key in the fix fields: `switch_field` (an arrow up or down) switches field;
/// `submit` gives the question and answer, trimmed, with the reason shown, and
/// `pick_reason` (Tab) gives them without a reason, for the reason list.
pub fn handle_key(
    f: &mut FixState,
    km: &Keymap,
    k: &KeyEvent,
) -> Outcome<((String, String), Option<CvqaReason>)> {
    let field = if f.on_answer {
        &mut f.answer
    } else {
        &mut f.question
    };
    match field_key(km, KEYS, field, k) {
        FieldKey::Action(Action::Verb(v)) if v.is(&super::SWITCH_FIELD) => {
            f.on_answer = !f.on_answer;
            Outcome::Stay
        }
        FieldKey::Action(Action::Cancel) => Outcome::Close,
        FieldKey::Action(a) if a == Action::Submit || a == super::PICK_REASON.action() => {
            Outcome::Submit((
                (
                    f.question.text().trim().to_string(),
                    f.answer.text().trim().to_string(),
                ),
                (a == Action::Submit).then(|| f.reason()),
            ))
        }
        _ => Outcome::Stay,
    }
}

/// A key in the fix's reason menu: a reason's key, or `submit` on the selected one,
/// picks the reason.
pub fn handle_reason_key(selected: &mut usize, km: &Keymap, k: &KeyEvent) -> Outcome<CvqaReason> {
    reason::handle_key(selected, km.in_overlay(REASON_KEYS, k, false))
}

pub fn draw(state: &State, f: &mut Frame, area: Rect, fx: &FixState) {
    let q_title = if fx.on_answer {
        "  question"
    } else {
        "▶ question"
    };
    let a_title = if fx.on_answer {
        "▶ answer"
    } else {
        "  answer"
    };
    let switch = format!(
        "{} switches · {} finds a letter · ",
        state.keymap.hint(KEYS, super::SWITCH_FIELD.action()),
        state.keymap.hint(KEYS, Action::FindChar)
    );
    let keys = save_cancel(&state.keymap, KEYS, &switch, "");
    let reason = format!(
        "reason: {} ({} picks another)",
        fx.reason().name(),
        state.keymap.hint(KEYS, super::PICK_REASON.action())
    );
    draw_input(
        state,
        f,
        (area, Place::Low),
        (TITLE, &keys),
        &fx.question,
        Some((q_title, a_title, &fx.answer, fx.on_answer, &reason)),
    );
}

pub fn draw_reason(state: &State, f: &mut Frame, area: Rect, selected: usize) {
    let km = &state.keymap;
    let keys = format!(
        "{} confirms · {} or {} · {} cancels",
        km.hint(REASON_KEYS, Action::Submit),
        reason::reason_keys(km, REASON_KEYS),
        move_keys(km, REASON_KEYS),
        km.hint(REASON_KEYS, Action::Cancel)
    );
    reason::draw_menu(state, f, area, selected, REASON_KEYS, (REASON_TITLE, &keys));
}
