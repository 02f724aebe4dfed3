//! The header line: file, benchmark, item, position, filters, reviewer and save state.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::tui::app::{SaveState, State};
use crate::tui::text::{one_line, truncate};

pub(crate) fn draw_header(state: &State, f: &mut Frame, area: Rect) {
    let t = &state.theme;
    let (n, total) = state.position_in_view();
    // The count is not known until the whole file is read.
    let total = if state.still_reading() {
        "?".to_string()
    } else {
        total.to_string()
    };
    let bench = state.item().map(|i| i.benchmark().name()).unwrap_or("—");
    let id = state
        .current
        .as_ref()
        .map(|c| state.display_id(c.index))
        .unwrap_or_default();
    let save = match &state.saved {
        SaveState::Saved => "✔ saved".to_string(),
        SaveState::Journaled => "✔ journaled".to_string(),
        SaveState::Writing => "… writing".to_string(),
        SaveState::Error(_) => "✖ SAVE ERROR".to_string(),
    };
    let filt = if state.filters.is_empty() {
        String::new()
    } else {
        format!(" · filter: {}", state.filters.describe())
    };
    let blind = match (state.blind, state.queue) {
        (true, true) => " · ADJUDICATE · BLIND",
        (false, true) => " · ADJUDICATE",
        (true, false) => " · BLIND",
        (false, false) => "",
    };
    let skipped = if state.current.is_some() && state.is_skipped(state.pos) {
        " · skipped"
    } else {
        ""
    };
    let right = format!("{} · {} ", one_line(&state.reviewer), save);
    let w = area.width as usize;
    let right_len = right.chars().count();
    // The file's name gives way first, then a folder's item's task, model and run: the
    // item and its position stay in sight.
    let tail = format!(
        " · {} · {}/{}{}{}{}",
        one_line(&truncate(&id, 40)),
        n,
        total,
        skipped,
        filt,
        blind
    );
    let label = state
        .item()
        .and_then(|i| i.part.as_ref())
        .map(|p| {
            let room = w.saturating_sub(right_len + 2 + 8 + bench.len() + 6 + tail.chars().count());
            format!(" · {}", truncate(&one_line(&p.text()), room.max(12)))
        })
        .unwrap_or_default();
    let rest = format!(" · {bench}{label}{tail}");
    let name_room = w
        .saturating_sub(right_len + 2 + rest.chars().count())
        .max(8);
    let left = format!(
        " {}{rest}",
        truncate(&one_line(&state.file_name), name_room)
    );
    let left = truncate(&left, w.saturating_sub(right_len + 1));
    let pad = w.saturating_sub(left.chars().count() + right_len);
    let save_style = match state.saved {
        SaveState::Error(_) => t.header.patch(t.bad),
        _ => t.header,
    };
    let line = Line::from(vec![
        Span::styled(left, t.header),
        Span::styled(" ".repeat(pad), t.header),
        Span::styled(right, save_style),
    ]);
    f.render_widget(Paragraph::new(line), area);
}
