//! The status line: the newest message, or else the key hints of the screen.

use ratatui::text::{Line, Span};

use crate::tui::app::{Level, Mode, State};
use crate::tui::keymap::{Action, Context};
use crate::tui::overlays;
use crate::tui::text::{one_line, truncate};
use crate::tui::views;

/// The status line, `width` wide: the newest message, cut with an ellipsis so a cut
/// message shows it is cut; with no message, the key hints.
pub fn status_line(state: &State, width: u16) -> Line<'static> {
    let t = &state.theme;
    if let Some((msg, level)) = &state.status {
        let st = match level {
            Level::Info => t.accent2,
            Level::Warn => t.warn,
            Level::Error => t.bad,
        };
        // cut with an ellipsis, so a cut message shows it is cut
        Line::from(Span::styled(truncate(&one_line(msg), width as usize), st))
    } else {
        hints(state, width)
    }
}

/// The footer's key hints, most important first: the grading keys of the view, then help
/// and quit, then the rest. Built from the live keymap, so a remapped key shows its new
/// key; hints that do not fit are left out whole, never cut.
pub fn hint_parts(state: &State) -> Vec<(String, String)> {
    let ctx = state.context();
    let km = &state.keymap;
    let mut parts: Vec<(String, String)> = Vec::new();
    let add = |parts: &mut Vec<(String, String)>, a: Action, label: &str| {
        parts.push((km.hint(ctx, a), label.to_string()))
    };
    // The action's key and its label in the keymap.
    let act =
        |parts: &mut Vec<(String, String)>, a: Action| parts.push((km.hint(ctx, a), a.label()));
    // An overlay's own keys, and its label for them.
    let keys = overlays::keys(&state.mode).unwrap_or(Context::Global);
    let own = |parts: &mut Vec<(String, String)>, a: Action, label: &str| {
        parts.push((km.hint(keys, a), label.to_string()))
    };
    let scroll = || {
        let (down, up) = (
            km.hint(keys, Action::ScrollDown),
            km.hint(keys, Action::ScrollUp),
        );
        (format!("{down}/{up}"), "scroll".to_string())
    };
    match &state.mode {
        Mode::Help { .. } => {
            add(&mut parts, Action::Help, "close");
            own(&mut parts, Action::Close, "close");
            parts.push(scroll());
        }
        Mode::Summary { .. } => {
            add(&mut parts, Action::Summary, "close");
            own(&mut parts, Action::Close, "close");
            parts.push(scroll());
        }
        Mode::Normal => {
            views::current(state).grading_hints(state, &mut parts);
            act(&mut parts, Action::Help);
            act(&mut parts, Action::Quit);
            act(&mut parts, Action::Next);
            act(&mut parts, Action::Prev);
            act(&mut parts, Action::NextUngraded);
            act(&mut parts, Action::Undo);
            if state.item().is_some_and(|i| i.responses.len() > 1) {
                act(&mut parts, Action::NextModel);
                act(&mut parts, Action::SideBySide);
            }
            act(&mut parts, Action::Search);
            act(&mut parts, Action::Filter);
            act(&mut parts, Action::Note);
            act(&mut parts, Action::Summary);
        }
        Mode::Filter { .. } => {
            own(&mut parts, Action::Toggle, "toggle");
            parts.push((overlays::dialog::move_keys(km, keys), "move".into()));
            add(&mut parts, Action::ClearFilters, "clear");
            own(&mut parts, Action::Close, "close");
        }
        _ => {
            own(&mut parts, Action::Submit, "ok");
            own(&mut parts, Action::Cancel, "cancel");
        }
    }
    parts.retain(|(k, _)| k != "(unbound)");
    parts
}

pub(crate) fn hints(state: &State, width: u16) -> Line<'static> {
    let t = &state.theme;
    let mut spans = Vec::new();
    let mut used = 0usize;
    for (k, l) in hint_parts(state) {
        let key = format!(" {k}");
        let label = format!(" {l} ");
        let w = key.chars().count() + label.chars().count();
        if used + w > width as usize {
            continue;
        }
        used += w;
        spans.push(Span::styled(key, t.title));
        spans.push(Span::styled(label, t.dim));
    }
    Line::from(spans)
}

/// Add the action's key in the current context, and its label, to the footer's hints.
pub fn act(state: &State, parts: &mut Vec<(String, String)>, a: Action) {
    parts.push((state.keymap.hint(state.context(), a), a.label()));
}
