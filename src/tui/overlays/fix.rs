//! Fix a C-VQA counterfactual: the corrected question and answer, then why.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::Frame;
use ratatui::layout::Rect;

use crate::model::CvqaReason;
use crate::tui::app::State;
use crate::tui::edit::{EditOutcome, TextEdit};
use crate::tui::overlays::dialog::draw_input;
use crate::tui::overlays::{Outcome, reason};

/// The fields' dialog: its title and its keys.
const TITLE: (&str, &str) = (
    "Fix the counterfactual question / answer",
    "Tab switches · Enter saves · Esc cancels",
);
/// The reason menu's title and its keys.
const REASON_TITLE: (&str, &str) = ("Fix: why?", "Enter confirms · 1-5 or ↑↓ · Esc cancels");

/// The fix being typed: the counterfactual question and answer, and which has the cursor.
#[derive(Debug, Clone, PartialEq)]
pub struct FixState {
    pub question: TextEdit,
    pub answer: TextEdit,
    pub on_answer: bool,
}

/// A key in the fix fields: Tab (or an arrow up or down) switches field; Enter gives the
/// question and answer, trimmed.
pub fn handle_key(f: &mut FixState, k: &KeyEvent) -> Outcome<(String, String)> {
    if matches!(
        k.code,
        KeyCode::Tab | KeyCode::BackTab | KeyCode::Up | KeyCode::Down
    ) {
        f.on_answer = !f.on_answer;
        return Outcome::Stay;
    }
    let field = if f.on_answer {
        &mut f.answer
    } else {
        &mut f.question
    };
    match field.handle(k) {
        EditOutcome::Cancel => Outcome::Close,
        EditOutcome::Submit => Outcome::Submit((
            f.question.text().trim().to_string(),
            f.answer.text().trim().to_string(),
        )),
        _ => Outcome::Stay,
    }
}

/// A key in the fix's reason menu: a digit or Enter picks the reason.
pub fn handle_reason_key(selected: &mut usize, k: &KeyEvent) -> Outcome<CvqaReason> {
    reason::handle_key(selected, k)
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
    draw_input(
        state,
        f,
        area,
        TITLE,
        &fx.question,
        Some((q_title, a_title, &fx.answer, fx.on_answer)),
    );
}

pub fn draw_reason(state: &State, f: &mut Frame, area: Rect, selected: usize) {
    reason::draw_menu(state, f, area, selected, REASON_TITLE);
}
