//! The status line: the newest message, or else the key hints of the screen.

use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::tui::app::{Level, Mode, State};
use crate::tui::keymap::{Action, Context};
use crate::tui::overlays;
use crate::tui::text::{one_line, truncate};
use crate::tui::views;

/// The most rows a status message takes on a terminal `height` rows high: the footer's
/// two and the body's beyond the header and six rows, eight at most.
pub fn max_message_rows(height: u16) -> u16 {
    height.saturating_sub(7).clamp(2, 8)
}

/// The rows the status message needs at `width`, word-wrapped: 1 when it fits one line
/// (or there is none), at most `max_rows`. A message is never cut while it fits them: a
/// file name, a count or what to do is not lost at 80 columns.
pub fn message_rows(state: &State, width: u16, max_rows: u16) -> u16 {
    match &state.status {
        Some((msg, _)) if width > 0 && one_line(msg).chars().count() > usize::from(width) => {
            let rows = wrap_message(&one_line(msg), usize::from(width)).len();
            u16::try_from(rows)
                .unwrap_or(u16::MAX)
                .clamp(1, max_rows.max(1))
        }
        _ => 1,
    }
}

/// `text` in lines of at most `width` characters: broken at a space when one is in the
/// line's last third, else (a long path) at the width, so that a few rows hold it all.
pub fn wrap_message(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut out = Vec::new();
    let mut rest: Vec<char> = text.trim().chars().collect();
    while rest.len() > width {
        let space = rest[..=width]
            .iter()
            .rposition(|c| *c == ' ')
            .filter(|&k| k >= width * 2 / 3);
        let (line, next) = match space {
            Some(k) => (rest[..k].iter().collect::<String>(), k + 1),
            None => (rest[..width].iter().collect::<String>(), width),
        };
        out.push(line.trim_end().to_string());
        rest = rest[next..].to_vec();
        while rest.first() == Some(&' ') {
            rest.remove(0);
        }
    }
    if !rest.is_empty() || out.is_empty() {
        out.push(rest.into_iter().collect());
    }
    out
}

/// The status message over `rows` rows of `width`; cut with an ellipsis only when it
/// needs more than [`max_message_rows`].
pub fn message_paragraph(state: &State, width: u16, rows: u16) -> Option<Paragraph<'static>> {
    let (msg, level) = state.status.as_ref()?;
    let t = &state.theme;
    let st = match level {
        Level::Info => t.accent2,
        Level::Warn => t.warn,
        Level::Error => t.bad,
    };
    let mut lines = wrap_message(&one_line(msg), usize::from(width));
    if lines.len() > usize::from(rows) {
        lines.truncate(usize::from(rows));
        if let Some(last) = lines.last_mut() {
            // the last row says the message goes on
            *last = truncate(&format!("{last} …"), usize::from(width));
            if !last.ends_with('…') {
                last.pop();
                last.push('…');
            }
        }
    }
    Some(Paragraph::new(lines.into_iter().map(Line::from).collect::<Vec<_>>()).style(st))
}

/// The status line, `width` wide: the newest message, cut with an ellipsis so a cut
/// message shows it is cut (the footer gives a message that does not fit one line more
/// rows: [`message_rows`]); with no message, the key hints.
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
    footer_parts(state).0
}

/// The one place that decides what the footer must hold: in the item view its first
/// parts, the view's grading keys then help and quit, at any width from 80 columns.
/// Returns the hints ([`hint_parts`]) and how many of the first it must hold.
fn footer_parts(state: &State) -> (Vec<(String, String)>, usize) {
    let ctx = state.context();
    let km = &state.keymap;
    let mut parts: Vec<(String, String)> = Vec::new();
    let mut must = 0;
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
            must = parts.len();
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
    // (an unbound action has no hint, and what must be held shrinks with it)
    let unbound = parts[..must]
        .iter()
        .filter(|(k, _)| k == "(unbound)")
        .count();
    parts.retain(|(k, _)| k != "(unbound)");
    (parts, must - unbound)
}

/// The hints of the footer that fit `width`: those it must hold ([`footer_parts`]), with
/// their short labels when the long ones do not fit, help and quit kept whatever the
/// grading keys take (a grading key that does not fit is left out, from the last); then
/// the rest as they fit.
pub(crate) fn hints(state: &State, width: u16) -> Line<'static> {
    let t = &state.theme;
    let width = usize::from(width);
    let (mut parts, must) = footer_parts(state);
    let w = |(k, l): &(String, String)| k.chars().count() + l.chars().count() + 3;
    if parts[..must].iter().map(w).sum::<usize>() > width {
        for (_, l) in &mut parts[..must] {
            // the view's verbs' short words (CharToM-QA at 80 columns: `x none`, `c ctx`)
            let verbs = views::current(state).verbs();
            if let Some(short) = verbs.iter().find(|v| v.label == *l).and_then(|v| v.short) {
                *l = short.to_string();
            }
        }
    }
    // help and quit, the last two it must hold: their room is kept
    let mut kept: usize = parts[must.saturating_sub(2)..must].iter().map(w).sum();
    let mut spans = Vec::new();
    let mut used = 0usize;
    for (i, p) in parts.iter().enumerate() {
        let room = if i + 2 < must { kept } else { 0 };
        if i + 2 >= must && i < must {
            kept -= w(p);
        }
        if used + w(p) + room > width {
            continue;
        }
        let (k, l) = p;
        let key = format!(" {k}");
        let label = format!(" {l} ");
        used += w(p);
        spans.push(Span::styled(key, t.title));
        spans.push(Span::styled(label, t.dim));
    }
    Line::from(spans)
}

/// Add the action's key in the current context, and its label, to the footer's hints.
pub fn act(state: &State, parts: &mut Vec<(String, String)>, a: Action) {
    parts.push((state.keymap.hint(state.context(), a), a.label()));
}
