//! C-VQA's verification keys that go through a popup: reject with a reason, and fix the
//! generated question and answer, then say why.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;

use super::fix::{FixOther, FixReason, FixState};
use super::reject::{Reject, RejectOther};
use super::{fix, reject};
use crate::bench::Benchmark;
use crate::bench::cvqa::fields::{CvqaReason, CvqaStatus};
use crate::tui::app::{AnyPopup, Effect, Level, Mode, State};
use crate::tui::edit::TextEdit;
use crate::tui::keymap::{Action, Context};
use crate::tui::overlays::Outcome;

/// A key in one of C-VQA's popups (`View::popup_key`): what its outcome records. False
/// when the mode is none of them.
pub(crate) fn key(st: &mut State, k: &KeyEvent, fx: &mut Vec<Effect>) -> bool {
    if let Some(RejectOther(e)) = st.mode.popup_mut() {
        match reject::handle_other_key(e, &st.keymap, k) {
            Outcome::Close => st.mode = Mode::Normal,
            Outcome::Submit(t) if t.trim().is_empty() => {
                st.set_status(reject::other_empty(&st.keymap), Level::Warn);
            }
            Outcome::Submit(t) => {
                st.mode = Mode::Normal;
                if st.change_review(fx, |r, _| r.cvqa.reject(CvqaReason::Other, Some(&t))) {
                    st.advance_after(&rejected(CvqaReason::Other), fx);
                }
            }
            _ => {}
        }
    } else if let Some(FixReason {
        selected,
        question,
        answer,
    }) = st.mode.popup_mut()
    {
        {
            let (q, a) = (question.clone(), answer.clone());
            match fix::handle_reason_key(selected, &st.keymap, k) {
                Outcome::Close => st.mode = Mode::Normal,
                // "Other" first asks for a few words, as a reject does.
                Outcome::Submit(CvqaReason::Other) => {
                    let cur = st
                        .my_review(st.pos)
                        .and_then(|r| r.cvqa.reason_text)
                        .unwrap_or_default();
                    st.mode = Mode::Popup(AnyPopup::new(FixOther {
                        question: q,
                        answer: a,
                        text: TextEdit::new(&cur, false),
                    }));
                }
                Outcome::Submit(reason) => {
                    st.mode = Mode::Normal;
                    fix_with(st, (&q, &a), reason, None, fx);
                }
                _ => {}
            }
        }
    } else if let Some(FixOther {
        question,
        answer,
        text,
    }) = st.mode.popup_mut()
    {
        {
            let (q, a) = (question.clone(), answer.clone());
            match reject::handle_other_key(text, &st.keymap, k) {
                Outcome::Close => st.mode = Mode::Normal,
                Outcome::Submit(t) if t.trim().is_empty() => {
                    st.set_status(reject::other_empty(&st.keymap), Level::Warn);
                }
                Outcome::Submit(t) => {
                    st.mode = Mode::Normal;
                    fix_with(st, (&q, &a), CvqaReason::Other, Some(&t), fx);
                }
                _ => {}
            }
        }
    } else if let Some(Reject { selected }) = st.mode.popup_mut() {
        match reject::handle_key(selected, &st.keymap, k) {
            Outcome::Close => st.mode = Mode::Normal,
            Outcome::Submit(reason) => {
                st.mode = Mode::Normal;
                self::reject(st, reason, fx);
            }
            _ => {}
        }
    } else if let Some(f) = st.mode.popup_mut::<FixState>() {
        match fix::handle_key(f, &st.keymap, k) {
            Outcome::Close => st.mode = Mode::Normal,
            Outcome::Submit(((q, a), reason)) => {
                let shown = f.reason();
                st.mode = Mode::Normal;
                self::fix(st, (q, a), (shown, reason), fx);
            }
            _ => {}
        }
    } else {
        return false;
    }
    true
}

/// Draw C-VQA's popup of the current mode (`View::draw_popup`); false when the mode is
/// none of its.
pub(crate) fn draw(state: &State, f: &mut Frame, area: Rect) -> bool {
    let m = &state.mode;
    if let Some(RejectOther(e)) = m.popup() {
        reject::draw_other(state, f, area, e, reject::OTHER_TITLE)
    } else if let Some(FixOther { text, .. }) = m.popup() {
        reject::draw_other(state, f, area, text, "Fix, other: why, in a few words")
    } else if let Some(fx) = m.popup::<FixState>() {
        fix::draw(state, f, area, fx)
    } else if let Some(Reject { selected }) = m.popup() {
        reject::draw(state, f, area, *selected)
    } else if let Some(FixReason { selected, .. }) = m.popup() {
        fix::draw_reason(state, f, area, *selected)
    } else {
        return false;
    }
    true
}

/// Reject for `reason`; "other" first asks for a few words.
pub(crate) fn reject(st: &mut State, reason: CvqaReason, fx: &mut Vec<Effect>) {
    if reason == CvqaReason::Other {
        let cur = st
            .my_review(st.pos)
            .and_then(|r| r.cvqa.reason_text)
            .unwrap_or_default();
        st.mode = Mode::Popup(AnyPopup::new(RejectOther(TextEdit::new(&cur, false))));
        return;
    }
    if st.change_review(fx, |r, _| r.cvqa.reject(reason, None)) {
        st.advance_after(&rejected(reason), fx);
    }
}

/// The reviewer's earlier choice of a fix's reason: this item's fix's, else my last fix's
/// in this session (the undo history). Without one, `FixState::reason` decides.
pub(crate) fn last_fix_reason(st: &State) -> Option<CvqaReason> {
    let fix_reason = |r: &crate::bench::Review| {
        (r.cvqa.status == Some(CvqaStatus::Fix))
            .then_some(r.cvqa.reason)
            .flatten()
    };
    st.my_review(st.pos)
        .and_then(|r| fix_reason(&r))
        .or_else(|| {
            st.rec
                .undo
                .iter()
                .rev()
                .find_map(|c| c.after.as_ref().and_then(fix_reason))
        })
}

/// The fix editor was saved: with `reason` (the one it showed), record the fix; without
/// (the reviewer asked for the list), or when the fixed answer breaks the rule `verdict
/// check` warns by, open the reason list on the reason shown. An empty (or blank) field
/// is no fix of that field: the original stands.
pub(crate) fn fix(
    st: &mut State,
    (q, a): (String, String),
    (shown, reason): (CvqaReason, Option<CvqaReason>),
    fx: &mut Vec<Effect>,
) {
    let Some(item) = st.item() else { return };
    let Some(cf) = item.counterfactual.clone() else {
        return;
    };
    let group = item.group.clone();
    let empty: Vec<&str> = [("question", &q), ("answer", &a)]
        .into_iter()
        .filter(|(_, t)| t.trim().is_empty())
        .map(|(name, _)| name)
        .collect();
    let empty = empty.join(" and ");
    let q = if q.trim().is_empty() {
        cf.question.clone()
    } else {
        q
    };
    let a = if a.trim().is_empty() {
        cf.answer.clone()
    } else {
        a
    };
    if q == cf.question && a == cf.answer {
        let accept = st
            .keymap
            .hint(Context::Benchmark(Benchmark::Cvqa), super::ACCEPT.action());
        let msg = if empty.is_empty() {
            format!("nothing changed: use {accept} to accept as it is")
        } else {
            format!(
                "empty {empty} is no fix: nothing changed, nothing recorded (use {accept} to accept as it is)"
            )
        };
        st.set_status(msg, Level::Warn);
        return;
    }
    // The rule `verdict check` warns by: said now, but the verdict is the reviewer's.
    let problem = group.as_deref().filter(|_| a != cf.answer).and_then(|g| {
        crate::bench::cvqa::check::cvqa_answer_problem(
            g,
            (q != cf.question).then_some(q.as_str()),
            &a,
        )
    });
    match reason {
        Some(CvqaReason::Other) if problem.is_none() => {
            let cur = st
                .my_review(st.pos)
                .and_then(|r| r.cvqa.reason_text)
                .unwrap_or_default();
            st.mode = Mode::Popup(AnyPopup::new(FixOther {
                question: q,
                answer: a,
                text: TextEdit::new(&cur, false),
            }));
            return;
        }
        Some(reason) if problem.is_none() => {
            if !empty.is_empty() {
                st.set_status(format!("empty {empty} left as the original"), Level::Info);
            }
            fix_with(st, (&q, &a), reason, None, fx);
            return;
        }
        _ => {}
    }
    if let Some(m) = problem {
        st.set_status(
            format!(
                "{m}: verdict check will warn; a reason records it anyway, {} cancels",
                st.keymap.hint(super::fix::REASON_KEYS, Action::Cancel)
            ),
            Level::Warn,
        );
    } else if !empty.is_empty() {
        st.set_status(format!("empty {empty} left as the original"), Level::Info);
    }
    st.mode = Mode::Popup(AnyPopup::new(FixReason {
        selected: CvqaReason::ALL
            .iter()
            .position(|r| *r == shown)
            .unwrap_or(0),
        question: q,
        answer: a,
    }));
}

pub(crate) fn fix_with(
    st: &mut State,
    (q, a): (&str, &str),
    reason: CvqaReason,
    text: Option<&str>,
    fx: &mut Vec<Effect>,
) {
    let Some(cf) = st.item().and_then(|i| i.counterfactual.clone()) else {
        return;
    };
    if st.change_review(fx, |r, _| {
        r.cvqa.fix((&cf.question, &cf.answer), (q, a), reason, text)
    }) {
        st.advance_after(&format!("fixed ({})", reason.name()), fx);
    }
}

/// What a reject did, for the status line: `rejected (<reason>)`.
pub(crate) fn rejected(reason: CvqaReason) -> String {
    format!("{} ({})", CvqaStatus::Reject.done(), reason.name())
}
