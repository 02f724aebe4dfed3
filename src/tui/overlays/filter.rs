//! The filter menu: one row per filter, with how many items match it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::tui::app::State;
use crate::tui::keymap::{Action, Context, Key, Keymap};
use crate::tui::layout::ListArea;
use crate::tui::overlays::Outcome;
use crate::tui::overlays::dialog::{centered, dialog_width};
use crate::tui::overlays::search::indexing_note;
use crate::tui::text::{one_line, truncate};
use crate::tui::views::common::block;

/// What a key in the filter menu picks.
#[derive(Debug, Clone, PartialEq)]
pub enum Pick {
    /// Clear every filter.
    Clear,
    /// Turn the filter of this row on or off.
    Toggle(usize),
}

/// The menu's keys: its table in the keymap.
pub const KEYS: Context = Context::Filter;

/// The action of a key in the filter menu of `rows` rows (`act`: in the menu's table).
/// `view`: the key's action in the item view, whose "filters" key closes the menu and
/// whose "clear all filters" key clears (the key the menu's title names).
pub fn handle_key(
    selected: &mut usize,
    rows: usize,
    act: Option<Action>,
    view: Option<Action>,
) -> Outcome<Pick> {
    let n = rows.max(1);
    match (act, view) {
        // (the item view's filter key closes the menu, even when a row has it too)
        (Some(Action::Close), _) | (None | Some(Action::Row(_)), Some(Action::Filter)) => {
            Outcome::Close
        }
        (Some(Action::SelectNext), _) => {
            *selected = (*selected + 1) % n;
            Outcome::Stay
        }
        (Some(Action::SelectPrev), _) => {
            *selected = (*selected + n - 1) % n;
            Outcome::Stay
        }
        (_, Some(Action::ClearFilters)) => Outcome::Submit(Pick::Clear),
        (Some(Action::Toggle), _) => Outcome::Submit(Pick::Toggle(*selected)),
        (Some(Action::Row(r)), _) if usize::from(r) <= rows && r > 0 => {
            *selected = usize::from(r) - 1;
            Outcome::Submit(Pick::Toggle(*selected))
        }
        _ => Outcome::Stay,
    }
}

/// The key of the menu's row `k` (from 0): its first key in the menu's table that the
/// item view's filter and clear keys do not take (in the menu they close and clear).
fn row_key(km: &Keymap, k: usize) -> Option<Key> {
    let n = u8::try_from(k + 1).ok()?;
    km.keys_for(KEYS, Action::Row(n)).into_iter().find(|key| {
        !matches!(
            km.lookup(Context::Global, *key),
            Some(Action::Filter | Action::ClearFilters)
        )
    })
}

/// The menu's title and its keys.
fn title_and_keys(state: &State) -> (String, String) {
    let count = state
        .visible
        .as_ref()
        .map(crate::tui::app::Visible::len)
        .unwrap_or(state.len());
    let title = format!("Filters · {count} of {} items match", state.len());
    let km = &state.keymap;
    let keys = format!(
        "{} toggles · {} clears · {} closes",
        km.hint(KEYS, Action::Toggle),
        km.hint(Context::Global, Action::ClearFilters),
        km.hint(KEYS, Action::Close)
    );
    (title, keys)
}

/// The lines above the menu's rows: how filters combine, and the index's progress.
fn heading_lines(state: &State) -> u16 {
    1 + u16::from(state.meta.is_none())
}

/// Where the filter menu is in `area`, and where its rows are: under its heading lines,
/// scrolled so that the selected row is in sight.
pub fn list_area(state: &State, area: Rect, selected: usize) -> ListArea {
    let (title, keys) = title_and_keys(state);
    let len = state.filter_options().len();
    let head = heading_lines(state);
    // The menu starts a sixth down (`centered`) and stays above the footer.
    let room = area.height.saturating_sub(area.height / 6 + 1).max(5);
    let h = (len as u16 + head + 2).clamp(5, room);
    let frame = centered(area, 60, h, dialog_width(&title, &keys).max(64));
    let inner = Block::default().borders(Borders::ALL).inner(frame);
    let avail = inner.height.saturating_sub(head);
    ListArea {
        frame,
        rows: Rect::new(
            inner.x,
            inner.y + head.min(inner.height),
            inner.width,
            avail,
        ),
        first: selected.saturating_sub((avail as usize).saturating_sub(1)),
        len,
    }
}

pub fn draw(state: &State, f: &mut Frame, list: &ListArea, selected: usize) {
    let t = &state.theme;
    let opts = state.filter_options();
    let (title, keys) = title_and_keys(state);
    let mut lines: Vec<Line> = vec![Line::from(Span::styled(
        " OR within a kind, AND across kinds",
        t.dim,
    ))];
    if state.meta.is_none() {
        lines.push(Line::from(Span::styled(
            format!(" {}", indexing_note(state)),
            t.dim,
        )));
    }
    let r = list.frame;
    f.render_widget(Clear, r);
    let b = block(t, Span::styled(format!(" {title} "), t.title))
        .title_bottom(Line::from(Span::styled(format!(" {keys} "), t.dim)).right_aligned());
    let inner = b.inner(r);
    f.render_widget(b, r);
    let avail = list.rows.height as usize;
    let start = list.first;
    let width = inner.width as usize;
    // each row's key, from the keymap: as wide as the widest
    let row_key = |k: usize| {
        row_key(&state.keymap, k)
            .map(|key| key.to_string())
            .unwrap_or_default()
    };
    let key_w = (start..(start + avail).min(opts.len()))
        .map(|k| row_key(k).chars().count())
        .max()
        .unwrap_or(0);
    lines.extend(
        opts.iter()
            .enumerate()
            .skip(start)
            .take(avail)
            .map(|(k, o)| {
                let on = state.filter_active(o);
                let n = if state.filter_hidden(o) {
                    "hidden (blind)".to_string()
                } else {
                    state
                        .filter_counts
                        .get(k)
                        .map(|c| c.to_string())
                        .unwrap_or_default()
                };
                let left = truncate(
                    &format!(
                        " {:>key_w$} [{}] {}",
                        row_key(k),
                        if on { "x" } else { " " },
                        one_line(&state.filter_label(o))
                    ),
                    width.saturating_sub(n.len() + 2),
                );
                let pad = width.saturating_sub(left.chars().count() + n.len() + 1);
                Line::from(Span::styled(
                    format!("{left}{}{n} ", " ".repeat(pad)),
                    if k == selected {
                        t.selected
                    } else if on {
                        t.accent
                    } else {
                        t.text
                    },
                ))
            }),
    );
    f.render_widget(Paragraph::new(lines), inner);
}
