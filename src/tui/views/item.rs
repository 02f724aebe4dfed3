//! The item screen's frame: the image pane and the scrolled text panes, one per response
//! side by side. What goes in the panes comes from the benchmark's view (`views::view_of`).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::bench::Item;
use crate::tui::app::{ImageSlot, Mode, State};
use crate::tui::image;
use crate::tui::keymap::{Action, Context};
use crate::tui::layout::{ItemAreas, side_by_side};
use crate::tui::text::{one_line, sanitize, truncate};
use crate::tui::views;
use crate::tui::views::common::{block, scroll_indicator, view_item};
use crate::tui::views::model_line::{grade_line, model_tabs};
use crate::tui::views::verdicts::{Scope, review_lines};

/// One scrolled pane of the item view.
#[derive(Debug, PartialEq)]
pub(crate) struct Pane {
    pub(crate) rect: Rect,
    title: Line<'static>,
    /// A line pinned at the top, never scrolled away: my grade and what it applies to.
    pinned: Option<Line<'static>>,
    pub(crate) lines: Vec<Line<'static>>,
    /// The line where what is graded begins (`View::target`), when not the top.
    pub(crate) target: Option<usize>,
    /// The selected response's first line (its model tabs) and the line after its grades:
    /// when what is graded does not fit from `target`, the item opens at the response.
    pub(crate) response: Option<(usize, usize)>,
    /// The context pane beside the item (scrolled by `State::aside_scroll`).
    pub(crate) aside: bool,
}

/// The item view's layout and content: built when what they show changes and kept
/// between frames (`tui::laid`), drawn by `draw_item`, measured by `max_scroll`.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct ItemPanes {
    image: Option<Rect>,
    /// The image pane collapsed to one line: there is no picture to show.
    image_line: Option<Rect>,
    /// C-VQA: the original and counterfactual pair in two columns (title, left, right).
    pair: Option<(Rect, Line<'static>, Vec<Line<'static>>, Vec<Line<'static>>)>,
    pub(crate) panes: Vec<Pane>,
}

/// The width from which a view's aside (`View::aside`) is a pane of its own.
pub(crate) const ASIDE_MIN: u16 = 160;

/// The rows the responses' pane keeps under the C-VQA pair (borders, my grade line and
/// two lines of a response).
const PAIR_RESPONSE_ROWS: u16 = 5;

/// How many responses side by side fit in `width` columns.
pub(crate) const SIDE_COLUMN_MIN: u16 = 38;

/// The responses shown side by side: (first, count). Pages of as many as fit, the page
/// holding the selected model.
pub fn side_window(n: usize, selected: usize, width: u16) -> (usize, usize) {
    let per = ((width / SIDE_COLUMN_MIN).max(1) as usize).min(n.max(1));
    let start = ((selected / per) * per).min(n.saturating_sub(per));
    (start, per)
}

pub(crate) fn item_panes(state: &State, areas: ItemAreas) -> ItemPanes {
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
    let item = match &cur.item {
        Ok(it) => view_item(state, it),
        Err(e) => {
            out.panes.push(unreadable_pane(state, cur, e, area));
            return out;
        }
    };
    let item = &item;
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
fn message_pane(rect: Rect, title: &'static str, lines: Vec<Line<'static>>) -> Pane {
    Pane {
        rect,
        title: Line::from(title),
        pinned: None,
        lines,
        target: None,
        response: None,
        aside: false,
    }
}

/// The pane of an item that cannot be read: why, and its text as it is in the file.
fn unreadable_pane(
    state: &State,
    cur: &crate::tui::app::Current,
    e: &crate::store::ItemError,
    area: Rect,
) -> Pane {
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
fn pair_or_item_lines(
    state: &State,
    view: &dyn views::View,
    item: &Item,
    text_rect: &mut Rect,
    out: &mut ItemPanes,
) -> Vec<Line<'static>> {
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

/// Side by side: the item (and the reviews of it) in a pane on top, each response in a
/// column of its own below.
fn side_by_side_panes(
    state: &State,
    view: &dyn views::View,
    item: &Item,
    main: Vec<Line<'static>>,
    text_rect: Rect,
    out: &mut ItemPanes,
) {
    let t = &state.theme;
    let n = item.responses.len();
    let (start, per) = side_window(n, state.model, text_rect.width);
    let mut item_lines = main;
    let verdicts = review_lines(state, item, Scope::Item, text_rect.width.saturating_sub(2));
    // no blank line to open an otherwise empty pane
    let skip = usize::from(item_lines.is_empty());
    item_lines.extend(verdicts.into_iter().skip(skip));
    let inner_w = text_rect.width.saturating_sub(2);
    let want = crate::tui::wrap::rows(&item_lines, inner_w)
        .saturating_add(2)
        .min(u16::MAX.into()) as u16;
    let h = want.min(text_rect.height / 3).max(3);
    let parts = Layout::vertical([Constraint::Length(h), Constraint::Min(3)]).split(text_rect);
    let mut title = format!(" {} · side by side", one_line(&state.display_id(state.pos)));
    if per < n {
        title.push_str(&format!(
            " · responses {}–{} of {n} ({} moves)",
            start + 1,
            start + per,
            state.keymap.hint(Context::Global, Action::NextModel)
        ));
    }
    title.push(' ');
    out.panes.push(Pane {
        rect: parts[0],
        title: Line::from(title),
        pinned: None,
        lines: item_lines,
        target: None,
        response: None,
        aside: false,
    });
    let cols =
        Layout::horizontal((0..per).map(|_| Constraint::Ratio(1, per as u32))).split(parts[1]);
    for (k, r) in item.responses.iter().enumerate().skip(start).take(per) {
        let selected = k == state.model;
        let mut lines = view.response_lines(state, item, r, selected);
        lines.extend(review_lines(
            state,
            item,
            Scope::Model(&r.model),
            cols[k - start].width.saturating_sub(2),
        ));
        out.panes.push(Pane {
            rect: cols[k - start],
            title: Line::from(Span::styled(
                format!(" {} ({}/{n}) ", one_line(&r.model), k + 1),
                if selected { t.selected } else { t.title },
            )),
            pinned: Some(grade_line(
                state,
                item,
                Some(&r.model),
                true,
                cols[k - start].width.saturating_sub(2),
            )),
            lines,
            target: None,
            response: None,
            aside: false,
        });
    }
}

/// One column: the item, the response shown and the reviews in one pane (a long text of
/// the item in a pane beside it on a wide screen).
fn one_column_panes(
    state: &State,
    view: &dyn views::View,
    item: &Item,
    main: Vec<Line<'static>>,
    mut text_rect: Rect,
    out: &mut ItemPanes,
) {
    let mut all = main;
    let mut target = match view.target(state, item) {
        views::Target::Top => None,
        views::Target::ItemLine(k) => Some(k.min(all.len())),
        views::Target::Response => None,
    };
    // On a wide screen a long text of the item (a CharToM-QA context) has its own
    // pane beside the rest, scrolled on its own: what is graded stays in sight.
    // Only a long one: a short text stays in the item's.
    let aside = (text_rect.width >= ASIDE_MIN)
        .then(|| view.aside(state, item))
        .flatten()
        .filter(|(_, lines, _)| {
            wrapped_height(lines, text_rect.width.saturating_sub(2)) > text_rect.height / 2
        });
    if let Some((title, lines, range)) = aside {
        let cols = Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)])
            .split(text_rect);
        let r = range.start.min(all.len())..range.end.min(all.len());
        all.drain(r.clone());
        target = target.map(|k| {
            if k >= r.end {
                k - r.len()
            } else {
                k.min(r.start)
            }
        });
        out.panes.push(Pane {
            rect: cols[0],
            title: Line::from(title),
            pinned: None,
            lines,
            target: None,
            response: None,
            aside: true,
        });
        text_rect = cols[1];
    }
    let mut response = None;
    if let Some(r) = item.responses.get(state.model) {
        if !all.is_empty() {
            all.push(Line::from(""));
        }
        let first = all.len();
        if view.target(state, item) == views::Target::Response {
            target = Some(first);
        }
        all.push(model_tabs(state, item));
        all.extend(view.response_lines(state, item, r, true));
        if target.is_some() {
            response = Some((first, all.len()));
        }
    }
    all.extend(review_lines(
        state,
        item,
        Scope::All,
        text_rect.width.saturating_sub(2),
    ));
    let model = item.responses.get(state.model).map(|r| r.model.as_str());
    out.panes.push(Pane {
        rect: text_rect,
        title: Line::from(format!(" {} ", one_line(&state.display_id(state.pos)))),
        pinned: Some(grade_line(
            state,
            item,
            model,
            false,
            text_rect.width.saturating_sub(2),
        )),
        lines: all,
        target,
        response,
        aside: false,
    });
}

/// The rows of a pane where its text is drawn (inside the borders, under the pinned
/// line).
pub(crate) fn text_rect(p: &Pane) -> Rect {
    let inner = Block::default().borders(Borders::ALL).inner(p.rect);
    let pinned = u16::from(p.pinned.is_some());
    Rect::new(
        inner.x,
        inner.y + pinned.min(inner.height),
        inner.width,
        inner.height.saturating_sub(pinned),
    )
}

pub(crate) fn draw_item(state: &State, f: &mut Frame, areas: ItemAreas) {
    let t = &state.theme;
    let laid = crate::tui::laid::of(state, areas);
    let panes = &laid.panes;
    if let (Some(r), Some(item)) = (panes.image, state.item()) {
        draw_image(state, f, r, item);
    }
    if let (Some(r), Some(item)) = (panes.image_line, state.item()) {
        draw_image_line(state, f, r, item);
    }
    if let Some((r, title, o, c)) = &panes.pair {
        let b = block(t, title.clone());
        let inner = b.inner(*r);
        f.render_widget(b, *r);
        let cols = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
            .spacing(1)
            .split(inner);
        f.render_widget(
            Paragraph::new(o.clone()).wrap(Wrap { trim: false }),
            cols[0],
        );
        f.render_widget(
            Paragraph::new(c.clone()).wrap(Wrap { trim: false }),
            cols[1],
        );
    }
    for (k, p) in panes.panes.iter().enumerate() {
        let (text, max) = laid.geometry(k);
        let scroll = if p.aside {
            state.aside_scroll
        } else {
            state.scroll
        }
        .min(max);
        let mut b = block(t, p.title.clone());
        if max > 0 {
            b = b.title_bottom(scroll_indicator(t, scroll, max, text.height));
        }
        f.render_widget(b, p.rect);
        if let Some(pin) = &p.pinned {
            let inner = Block::default().borders(Borders::ALL).inner(p.rect);
            f.render_widget(
                Paragraph::new(pin.clone()),
                Rect::new(inner.x, inner.y, inner.width, inner.height.min(1)),
            );
        }
        crate::tui::wrap::render_measured(&p.lines, &laid.rows[k], scroll, text, f.buffer_mut());
    }
}

/// The image pane when there is no picture to show: one line, not a box.
pub(crate) fn draw_image_line(state: &State, f: &mut Frame, r: Rect, item: &Item) {
    let t = &state.theme;
    let why = match &state.image {
        _ if state.image_hidden => format!(
            "picture hidden ({} shows it)",
            state.keymap.hint(Context::Global, Action::HideImage)
        ),
        _ if side_by_side(state) => format!(
            "hidden side by side ({} shows it)",
            state.keymap.hint(Context::Global, Action::ZoomImage)
        ),
        ImageSlot::Failed(_, e) => e.clone(),
        _ => "images off (--image-protocol none)".to_string(),
    };
    let line = Line::from(vec![
        Span::styled(" image ", t.title),
        Span::styled(one_line(item.image.as_deref().unwrap_or("")), t.text),
        Span::styled(
            format!(
                " · {} · {} opens it",
                one_line(&why),
                state.keymap.hint(Context::Global, Action::OpenImage)
            ),
            t.dim,
        ),
    ]);
    f.render_widget(Paragraph::new(line), r);
}

/// An image pane fewer rows high than this (its borders included) shows a picture too
/// small to read well: its title names the zoom and hide keys.
const SMALL_PICTURE_ROWS: u16 = 9;

pub(crate) fn draw_image(state: &State, f: &mut Frame, r: Rect, item: &Item) {
    let t = &state.theme;
    // A picture of a few rows (a short terminal) is hard to read: the title says which
    // keys make it bigger or give its rows to the item.
    let hint = if r.height < SMALL_PICTURE_ROWS && !state.zoom {
        format!(
            " · {} zooms, {} hides",
            state.keymap.hint(Context::Global, Action::ZoomImage),
            state.keymap.hint(Context::Global, Action::HideImage)
        )
    } else {
        String::new()
    };
    let room = (r.width as usize).saturating_sub(4 + hint.chars().count());
    let title = format!(
        " {}{hint} ",
        one_line(&truncate(item.image.as_deref().unwrap_or(""), room.max(8)))
    );
    let b = block(t, title);
    let inner = b.inner(r);
    f.render_widget(b, r);
    let msg = match &state.image {
        // sixel and iTerm2 pixels cannot be clipped and would cover a popup: hidden
        // while one is open.
        ImageSlot::Ready(_, p)
            if image::paints_over_text(p) && !matches!(state.mode, Mode::Normal) =>
        {
            "image hidden while a popup is open"
        }
        ImageSlot::Ready(_, p) => {
            f.render_widget(image::image_widget(p), inner);
            return;
        }
        ImageSlot::Failed(_, e) => e.as_str(),
        ImageSlot::Loading(_) => "loading…",
        ImageSlot::None if state.protocol_name == "none" => "images off (--image-protocol none)",
        ImageSlot::None => "…",
    };
    let top = inner.height.saturating_sub(1) / 2;
    let area = Rect::new(inner.x, inner.y + top, inner.width, inner.height - top);
    f.render_widget(
        Paragraph::new(one_line(msg))
            .style(t.dim)
            .alignment(ratatui::layout::Alignment::Center)
            .wrap(Wrap { trim: true }),
        area,
    );
}

/// Rows a paragraph of `lines` takes when wrapped to `width` (at most `u16::MAX`).
pub(crate) fn wrapped_height(lines: &[Line], width: u16) -> u16 {
    let w = width.max(1) as usize;
    lines
        .iter()
        .map(|l| (crate::tui::wrap::line_width(l).max(1)).div_ceil(w))
        .sum::<usize>()
        .min(u16::MAX.into()) as u16
}
