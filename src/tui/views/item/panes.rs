//! The item's panes built from the state: the view's lines of the item (or C-VQA's two
//! columns above the responses), then its responses and the reviews (`columns`).

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};

use super::columns::{one_column_panes, side_by_side_panes};
use super::{ItemPanes, PAIR_RESPONSE_ROWS, Pane, wrapped_height};
use crate::bench::Item;
use crate::tui::app::State;
use crate::tui::layout::ItemAreas;
use crate::tui::text::{one_line, sanitize, truncate};
use crate::tui::views;

/// The item's panes; `shown`: the current item as the view shows it (`views::common::
/// view_item`), which their lines borrow.
pub(crate) fn item_panes<'a>(
    state: &State,
    areas: ItemAreas,
    shown: Option<&'a Item>,
) -> ItemPanes<'a> {
    let area = areas.text;
    let mut out = ItemPanes::default();
    let Some(cur) = &state.current else {
        out.panes.push(message_pane(
            area,
            " empty ",
            vec![Line::from(Span::styled(
                "This result set has no items.",
                state.theme.dim,
            ))],
        ));
        return out;
    };
    if let Err(e) = &cur.item {
        out.panes.push(unreadable_pane(state, cur, e, area));
        return out;
    }
    let Some(item) = shown else {
        return out;
    };
    out.image = areas.image;
    out.image_line = areas.image_line;
    let mut text_rect = areas.text;
    if text_rect.height == 0 {
        return out;
    }
    let view = views::view_of(item.benchmark());
    let main = pair_or_item_lines(state, view, item, &mut text_rect, &mut out);
    let n = item.responses.len();
    if state.side_by_side && n > 1 {
        side_by_side_panes(state, view, item, main, text_rect, &mut out);
    } else {
        one_column_panes(state, view, item, main, text_rect, &mut out);
    }
    out
}

/// A pane that says something instead of an item: no scrolling target, no response.
fn message_pane(rect: Rect, title: &'static str, lines: Vec<Line<'static>>) -> Pane<'static> {
    Pane {
        rect,
        title: Line::from(title),
        guide: None,
        pinned: None,
        lines,
        target: None,
        response: None,
        aside: false,
        footer: vec![],
    }
}

/// The pane of an item that cannot be read: why, and its text as it is in the file.
fn unreadable_pane(
    state: &State,
    cur: &crate::tui::app::Current,
    e: &crate::store::ItemError,
    area: Rect,
) -> Pane<'static> {
    let t = &state.theme;
    let mut lines = vec![
        Line::from(Span::styled(
            format!(
                "This item cannot be read (line {}): {}",
                state.store.line(cur.index),
                one_line(&e.to_string())
            ),
            t.bad,
        )),
        Line::from(Span::styled(
            "It is left as it is in the file. Its text:",
            t.dim,
        )),
        Line::from(""),
    ];
    lines.extend(
        sanitize(&truncate(&cur.raw, 20_000))
            .lines()
            .map(|l| Line::from(l.to_string())),
    );
    message_pane(area, " unreadable item ", lines)
}

/// The item's lines: none when the view's two columns (`View::pair`) fit above the
/// responses (they are then `out.pair`, and `text_rect` is what is left below them), else
/// the view's lines of the item.
fn pair_or_item_lines<'a>(
    state: &State,
    view: &dyn views::View,
    item: &'a Item,
    text_rect: &mut Rect,
    out: &mut ItemPanes<'a>,
) -> Vec<Line<'a>> {
    let pair = if text_rect.width >= 70 {
        view.pair(state, item)
    } else {
        None
    };
    // The two columns do not scroll: they are shown only when all of them fits above a
    // responses pane of at least `PAIR_RESPONSE_ROWS` rows; else the item's lines scroll
    // in one column (nothing of the question, its options or its key is ever cut off).
    let pair = pair.map(|(title, o, c)| {
        let col_w = text_rect.width / 2 - 2;
        let h = wrapped_height(&o, col_w)
            .max(wrapped_height(&c, col_w))
            .saturating_add(3);
        if h.saturating_add(PAIR_RESPONSE_ROWS) <= text_rect.height {
            Ok((h, title, o, c))
        } else {
            Err((title, o, c))
        }
    });
    match pair {
        Some(Ok((h, mut title, o, c))) => {
            let parts =
                Layout::vertical([Constraint::Length(h), Constraint::Min(3)]).split(*text_rect);
            title.spans.insert(0, Span::raw(" "));
            title.spans.push(Span::raw(" "));
            out.pair = Some((parts[0], title, o, c));
            *text_rect = parts[1];
            vec![]
        }
        // The view's lines are these columns one under the other: not built again (a
        // question of megabytes would be split and copied twice).
        Some(Err((title, o, c))) if view.item_lines_are_the_pair() => {
            let mut lines = Vec::with_capacity(o.len() + c.len() + 2);
            lines.push(title);
            lines.extend(o);
            lines.push(Line::from(""));
            lines.extend(c);
            debug_assert_eq!(lines, view.item_lines(state, item, text_rect.width));
            lines
        }
        _ => view.item_lines(state, item, text_rect.width),
    }
}
