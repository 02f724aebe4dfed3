//! Rendering: `draw(&State, &mut Frame)`. Pure with respect to the state: it reads, never
//! changes. Every text from the file goes through `text::sanitize`.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use serde_json::Value;

use crate::model::{
    Benchmark, CvqaReason, CvqaStatus, Item, JudgeBonus, Response, ResponseGrades, Review,
};
use crate::store::Store;
use crate::tui::app::{CONTEXT_LENGTHS, ImageSlot, Level, Mode, SaveState, State};
use crate::tui::grading;
use crate::tui::image;
use crate::tui::keymap::{Action, Context};
use crate::tui::text::{one_line, sanitize, truncate};
use crate::tui::theme::Theme;

pub const MIN_W: u16 = 50;
pub const MIN_H: u16 = 14;

/// The figures of the summary screen (the same as `verdict stats --json`).
pub fn summary_value(store: &Store) -> Value {
    grading::summary_value(store)
}

/// Where the image goes, in cells, for a terminal of `w`×`h` (None: no image pane).
pub fn image_area(state: &State, w: u16, h: u16) -> Option<(u16, u16)> {
    if w < MIN_W
        || h < MIN_H
        || !matches!(
            state.mode,
            Mode::Normal
                | Mode::Note(_)
                | Mode::Penalty(_)
                | Mode::Reject { .. }
                | Mode::RejectOther(_)
                | Mode::FixReason { .. }
                | Mode::Fix(_)
                | Mode::Jump(_)
        )
    {
        return None;
    }
    state.item()?.image.as_ref()?;
    if side_by_side(state) && !state.zoom {
        return None;
    }
    let (img, _) = split_body(Rect::new(0, 0, w, h.saturating_sub(3)), true, state.zoom);
    img.map(|r| (r.width.saturating_sub(2), r.height.saturating_sub(2)))
}

/// The responses are shown side by side: asked for, and more than one.
fn side_by_side(state: &State) -> bool {
    state.side_by_side && state.item().is_some_and(|i| i.responses.len() > 1)
}

/// Split the body into (image pane, text pane).
fn split_body(body: Rect, has_image: bool, zoom: bool) -> (Option<Rect>, Rect) {
    if !has_image {
        return (None, body);
    }
    if zoom {
        return (
            Some(body),
            Rect::new(body.x, body.y + body.height, body.width, 0),
        );
    }
    if body.width >= 120 {
        let c = Layout::horizontal([Constraint::Percentage(40), Constraint::Percentage(60)])
            .split(body);
        (Some(c[0]), c[1])
    } else {
        let ih = (body.height / 3).clamp(5, 14);
        let c = Layout::vertical([Constraint::Length(ih), Constraint::Min(3)]).split(body);
        (Some(c[0]), c[1])
    }
}

pub fn draw(state: &State, f: &mut Frame) {
    let area = f.area();
    let t = &state.theme;
    if area.width < MIN_W || area.height < MIN_H {
        let msg = format!(
            "Terminal too small: {}×{}.\nverdict needs at least {MIN_W}×{MIN_H}.\nEnlarge the window (q quits).",
            area.width, area.height
        );
        f.render_widget(
            Paragraph::new(msg).style(t.warn).wrap(Wrap { trim: true }),
            area,
        );
        return;
    }
    let rows = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(2),
    ])
    .split(area);
    draw_header(state, f, rows[0]);
    match &state.mode {
        Mode::Help { scroll } => draw_help(state, f, rows[1], *scroll),
        Mode::Summary { scroll } => draw_summary(state, f, rows[1], *scroll),
        _ => draw_item(state, f, rows[1]),
    }
    draw_footer(state, f, rows[2]);
    match &state.mode {
        Mode::Search(s) => draw_search(state, f, area, s),
        Mode::Jump(e) => draw_input(
            state,
            f,
            area,
            ("Jump to item number or id", "Enter jumps · Esc cancels"),
            e,
            None,
        ),
        Mode::Note(e) => draw_input(
            state,
            f,
            area,
            ("Note", "Enter saves · Alt-Enter new line · Esc cancels"),
            e,
            None,
        ),
        Mode::RejectOther(e) => draw_input(
            state,
            f,
            area,
            (
                "Reject, other: why, in a few words",
                "Enter saves · Esc cancels",
            ),
            e,
            None,
        ),
        Mode::Penalty(e) => draw_input(
            state,
            f,
            area,
            (
                "Penalty: what the response gets wrong",
                "empty = none · Enter saves · Esc cancels",
            ),
            e,
            None,
        ),
        Mode::Fix(fx) => {
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
                (
                    "Fix the counterfactual question / answer",
                    "Tab switches · Enter saves · Esc cancels",
                ),
                &fx.question,
                Some((q_title, a_title, &fx.answer, fx.on_answer)),
            );
        }
        Mode::Reject { selected } => draw_reject(
            state,
            f,
            area,
            *selected,
            ("Reject: why?", "1-5 or ↑↓ Enter · Esc cancels"),
        ),
        Mode::FixReason { selected, .. } => draw_reject(
            state,
            f,
            area,
            *selected,
            ("Fix: why?", "Enter confirms · 1-5 or ↑↓ · Esc cancels"),
        ),
        Mode::Filter { selected } => draw_filter(state, f, area, *selected),
        _ => {}
    }
}

fn draw_header(state: &State, f: &mut Frame, area: Rect) {
    let t = &state.theme;
    let (n, total) = state.position_in_view();
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
    let left = format!(
        " {} · {} · {} · {}/{}{}{}{}",
        one_line(&state.file_name),
        bench,
        one_line(&truncate(&id, 40)),
        n,
        total,
        skipped,
        filt,
        blind
    );
    let right = format!("{} · {} ", one_line(&state.reviewer), save);
    let w = area.width as usize;
    let right_len = right.chars().count();
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

fn draw_footer(state: &State, f: &mut Frame, area: Rect) {
    let t = &state.theme;
    let rows = Layout::vertical([Constraint::Length(1), Constraint::Length(1)]).split(area);
    let (me, any, total) = state.progress();
    // Blind mode: how many items others are done with is theirs, not shown.
    let any = if state.blind { Some(me) } else { any };
    let pace = match state.pace() {
        Some((per_min, left)) => {
            let left = left
                .map(|m| format!(", {} left", fmt_minutes(m)))
                .unwrap_or_default();
            format!(" · {per_min:.1}/min{left}")
        }
        None => String::new(),
    };
    let any_s = match any {
        _ if state.blind => String::new(),
        Some(a) => format!(" · anyone {a}"),
        None => " · indexing…".into(),
    };
    let label = format!(" me {me}/{total}{any_s}{pace} ");
    let w = rows[0].width as usize;
    let bar_w = w.saturating_sub(label.chars().count());
    let filled = if total > 0 {
        (me as f64 / total as f64 * bar_w as f64).round() as usize
    } else {
        0
    };
    let any_filled = any
        .map(|a| {
            if total > 0 {
                (a as f64 / total as f64 * bar_w as f64).round() as usize
            } else {
                0
            }
        })
        .unwrap_or(0)
        .max(filled);
    let bar = vec![
        Span::styled("█".repeat(filled), t.bar),
        Span::styled("▓".repeat(any_filled - filled), t.bar_other),
        Span::styled("░".repeat(bar_w - any_filled), t.dim),
        Span::styled(label, t.text),
    ];
    f.render_widget(Paragraph::new(Line::from(bar)), rows[0]);

    let second = if let Some((msg, level)) = &state.status {
        let st = match level {
            Level::Info => t.accent2,
            Level::Warn => t.warn,
            Level::Error => t.bad,
        };
        // cut with an ellipsis, so a cut message shows it is cut
        Line::from(Span::styled(
            truncate(&one_line(msg), rows[1].width as usize),
            st,
        ))
    } else {
        hints(state, rows[1].width)
    };
    f.render_widget(Paragraph::new(second), rows[1]);
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
    match &state.mode {
        Mode::Help { .. } => {
            add(&mut parts, Action::Help, "close");
            parts.push(("Esc".into(), "close".into()));
            parts.push(("j/k".into(), "scroll".into()));
        }
        Mode::Summary { .. } => {
            add(&mut parts, Action::Summary, "close");
            parts.push(("Esc".into(), "close".into()));
            parts.push(("j/k".into(), "scroll".into()));
        }
        Mode::Normal => {
            match ctx {
                Context::Cvqa => {
                    act(&mut parts, Action::Accept);
                    act(&mut parts, Action::Fix);
                    act(&mut parts, Action::Reject);
                    act(&mut parts, Action::OriginalOverride);
                    act(&mut parts, Action::CounterfactualOverride);
                }
                Context::Chartom => {
                    act(&mut parts, Action::Identifies);
                    act(&mut parts, Action::Partial);
                    act(&mut parts, Action::Misses);
                    act(&mut parts, Action::FactOverride);
                }
                Context::ChartomQa => {
                    let n = state.item().map(|i| i.bonus_points.len()).unwrap_or(0);
                    let n = n.clamp(1, 9) as u8;
                    let (a, z) = (
                        km.hint(ctx, Action::Bonus(1)),
                        km.hint(ctx, Action::Bonus(n)),
                    );
                    parts.push((
                        if n == 1 { a } else { format!("{a}-{z}") },
                        Action::Bonus(1).label(),
                    ));
                    act(&mut parts, Action::NoBonus);
                    act(&mut parts, Action::Penalty);
                    act(&mut parts, Action::NoPenalty);
                    act(&mut parts, Action::ContextLength);
                }
                _ => {
                    act(&mut parts, Action::Pass);
                    act(&mut parts, Action::Fail);
                    act(&mut parts, Action::Unsure);
                }
            }
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
            parts.push(("Enter".into(), "toggle".into()));
            parts.push(("↑↓".into(), "move".into()));
            add(&mut parts, Action::ClearFilters, "clear");
            parts.push(("Esc".into(), "close".into()));
        }
        _ => {
            parts.push(("Enter".into(), "ok".into()));
            parts.push(("Esc".into(), "cancel".into()));
        }
    }
    parts.retain(|(k, _)| k != "(unbound)");
    parts
}

fn hints(state: &State, width: u16) -> Line<'static> {
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

fn fmt_minutes(m: f64) -> String {
    if m < 60.0 {
        format!("{m:.0}m")
    } else {
        format!("{}h{:02}m", (m / 60.0) as u64, (m % 60.0) as u64)
    }
}

fn block<'a>(t: &Theme, title: impl Into<Line<'a>>) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(t.border)
        .title(title.into())
}

/// One scrolled pane of the item view.
struct Pane {
    rect: Rect,
    title: Line<'static>,
    /// A line pinned at the top, never scrolled away: my grade and what it applies to.
    pinned: Option<Line<'static>>,
    lines: Vec<Line<'static>>,
}

/// The item view's layout and content: computed once per frame, drawn by `draw_item`,
/// measured by `max_scroll`.
#[derive(Default)]
struct ItemPanes {
    image: Option<Rect>,
    /// The image pane collapsed to one line: there is no picture to show.
    image_line: Option<Rect>,
    /// C-VQA: the original and counterfactual pair in two columns (title, left, right).
    pair: Option<(Rect, Line<'static>, Vec<Line<'static>>, Vec<Line<'static>>)>,
    panes: Vec<Pane>,
}

/// No picture will be shown for the current item (it failed to load, or images are off).
fn image_collapsed(state: &State) -> bool {
    match &state.image {
        ImageSlot::Failed(..) => true,
        ImageSlot::None => state.protocol_name == "none",
        _ => false,
    }
}

/// The current item as the reviewer should see it: with my review as it stands now (this
/// session's changes included, which the item read from the file does not have yet), and
/// with only what blind mode reveals of others' reviews (`State::reviews`).
fn view_item(state: &State, item: &Item) -> Item {
    let mut it = item.clone();
    it.reviews = state.reviews().into_iter().collect();
    it
}

/// My grades of `model`'s response on the current item.
fn my_grades_for(state: &State, item: &Item, model: &str) -> Option<ResponseGrades> {
    state
        .my_review(state.pos)?
        .for_model(model, item.responses.len())
        .cloned()
}

/// How many responses side by side fit in `width` columns.
const SIDE_COLUMN_MIN: u16 = 38;

/// The responses shown side by side: (first, count). Pages of as many as fit, the page
/// holding the selected model.
pub fn side_window(n: usize, selected: usize, width: u16) -> (usize, usize) {
    let per = ((width / SIDE_COLUMN_MIN).max(1) as usize).min(n.max(1));
    let start = ((selected / per) * per).min(n.saturating_sub(per));
    (start, per)
}

fn item_panes(state: &State, area: Rect) -> ItemPanes {
    let t = &state.theme;
    let mut out = ItemPanes::default();
    let Some(cur) = &state.current else {
        out.panes.push(Pane {
            rect: area,
            title: Line::from(" empty "),
            pinned: None,
            lines: vec![Line::from(Span::styled(
                "This result set has no items.",
                t.dim,
            ))],
        });
        return out;
    };
    let item = match &cur.item {
        Ok(it) => view_item(state, it),
        Err(e) => {
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
            out.panes.push(Pane {
                rect: area,
                title: Line::from(" unreadable item "),
                pinned: None,
                lines,
            });
            return out;
        }
    };
    let item = &item;
    let has_image = item.image.is_some();
    // Side by side, the columns need the rows: the image is one line (zoom shows it).
    let mut text_rect =
        if has_image && !state.zoom && (image_collapsed(state) || side_by_side(state)) {
            let c = Layout::vertical([Constraint::Length(1), Constraint::Min(3)]).split(area);
            out.image_line = Some(c[0]);
            c[1]
        } else {
            let (img, text) = split_body(area, has_image, state.zoom);
            out.image = img;
            text
        };
    if text_rect.height == 0 {
        return out;
    }
    let mut main = match item.benchmark() {
        Benchmark::Chartom => chartom_lines(state, item, text_rect.width),
        Benchmark::ChartomQa => chartom_qa_lines(state, item),
        Benchmark::Cvqa => vec![],
        Benchmark::Other => generic_lines(state, &state.raw_shown()),
    };
    if item.benchmark() == Benchmark::Cvqa {
        if text_rect.width >= 70 {
            let (o, c) = cvqa_columns(state, item);
            let col_w = text_rect.width / 2 - 2;
            let h = wrapped_height(&o, col_w).max(wrapped_height(&c, col_w)) + 3;
            let h = h.min(text_rect.height * 3 / 5).max(4);
            let parts =
                Layout::vertical([Constraint::Length(h), Constraint::Min(3)]).split(text_rect);
            let mut title = cvqa_title(state, item);
            title.spans.insert(0, Span::raw(" "));
            title.spans.push(Span::raw(" "));
            out.pair = Some((parts[0], title, o, c));
            text_rect = parts[1];
        } else {
            main = cvqa_lines(state, item);
        }
    }
    let n = item.responses.len();
    if state.side_by_side && n > 1 {
        let (start, per) = side_window(n, state.model, text_rect.width);
        let mut item_lines = main;
        let verdicts = review_lines(state, item, Scope::Item);
        // no blank line to open an otherwise empty pane
        let skip = usize::from(item_lines.is_empty());
        item_lines.extend(verdicts.into_iter().skip(skip));
        let inner_w = text_rect.width.saturating_sub(2);
        let want = Paragraph::new(item_lines.clone())
            .wrap(Wrap { trim: false })
            .line_count(inner_w) as u16
            + 2;
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
        });
        let cols =
            Layout::horizontal((0..per).map(|_| Constraint::Ratio(1, per as u32))).split(parts[1]);
        for (k, r) in item.responses.iter().enumerate().skip(start).take(per) {
            let selected = k == state.model;
            let mut lines = response_lines(state, item, r, selected);
            lines.extend(review_lines(state, item, Scope::Model(&r.model)));
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
            });
        }
    } else {
        let mut all = main;
        if let Some(r) = item.responses.get(state.model) {
            if !all.is_empty() {
                all.push(Line::from(""));
            }
            all.push(model_tabs(state, item));
            all.extend(response_lines(state, item, r, true));
        }
        all.extend(review_lines(state, item, Scope::All));
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
        });
    }
    out
}

/// The rows of a pane's text that are not scrolled away, and how far it can scroll.
fn pane_geometry(p: &Pane) -> (Rect, u16) {
    let inner = Block::default().borders(Borders::ALL).inner(p.rect);
    let pinned = u16::from(p.pinned.is_some());
    let text = Rect::new(
        inner.x,
        inner.y + pinned.min(inner.height),
        inner.width,
        inner.height.saturating_sub(pinned),
    );
    let total = Paragraph::new(p.lines.clone())
        .wrap(Wrap { trim: false })
        .line_count(text.width.max(1));
    let max = (total as u16).saturating_sub(text.height);
    (text, max)
}

/// How far the item's text can scroll at the current terminal size: the scroll keys stop
/// there, so `PgDn` never shows a blank pane.
pub fn max_scroll(state: &State) -> u16 {
    let (w, h) = state.size;
    if w < MIN_W || h < MIN_H {
        return 0;
    }
    let body = Rect::new(0, 1, w, h.saturating_sub(3));
    item_panes(state, body)
        .panes
        .iter()
        .map(|p| pane_geometry(p).1)
        .max()
        .unwrap_or(0)
}

/// How far `PgDn`/`PgUp` move the item's text: the visible rows of the pane that scrolls
/// furthest (the one whose indicator counts lines), less one row kept for context.
pub fn page_rows(state: &State) -> u16 {
    let (w, h) = state.size;
    let body = Rect::new(0, 1, w, h.saturating_sub(3));
    let rows = if w < MIN_W || h < MIN_H {
        0
    } else {
        item_panes(state, body)
            .panes
            .iter()
            .map(pane_geometry)
            .max_by_key(|(_, max)| *max)
            .map(|(text, _)| text.height)
            .unwrap_or(0)
    };
    rows.saturating_sub(1).max(1)
}

fn draw_item(state: &State, f: &mut Frame, area: Rect) {
    let t = &state.theme;
    let panes = item_panes(state, area);
    if let (Some(r), Some(item)) = (panes.image, state.item()) {
        draw_image(state, f, r, item);
    }
    if let (Some(r), Some(item)) = (panes.image_line, state.item()) {
        draw_image_line(state, f, r, item);
    }
    if let Some((r, title, o, c)) = panes.pair {
        let b = block(t, title);
        let inner = b.inner(r);
        f.render_widget(b, r);
        let cols = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
            .spacing(1)
            .split(inner);
        f.render_widget(Paragraph::new(o).wrap(Wrap { trim: false }), cols[0]);
        f.render_widget(Paragraph::new(c).wrap(Wrap { trim: false }), cols[1]);
    }
    for p in &panes.panes {
        let (text, max) = pane_geometry(p);
        let scroll = state.scroll.min(max);
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
        f.render_widget(
            Paragraph::new(p.lines.clone())
                .wrap(Wrap { trim: false })
                .scroll((scroll, 0)),
            text,
        );
    }
}

/// Where the scrolled text is, on the pane's bottom border: `▲ 12–24 of 40 ▼`.
fn scroll_indicator(t: &Theme, scroll: u16, max: u16, visible: u16) -> Line<'static> {
    let total = max + visible;
    let first = scroll + 1;
    let last = (scroll + visible).min(total);
    let up = if scroll > 0 { "▲" } else { " " };
    let down = if scroll < max { "▼" } else { " " };
    Line::from(Span::styled(
        format!(" {up} lines {first}–{last} of {total} {down} "),
        t.accent2,
    ))
    .right_aligned()
}

/// The image pane when there is no picture to show: one line, not a box.
fn draw_image_line(state: &State, f: &mut Frame, r: Rect, item: &Item) {
    let t = &state.theme;
    let why = match &state.image {
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

/// One line saying what I have recorded on the current item, for which response, and
/// whether it is on disk: pinned at the top of the item pane, so a grade is confirmed
/// where the reviewer is looking.
/// `column`: the line heads a side-by-side column, which names the model already.
fn grade_line(
    state: &State,
    item: &Item,
    model: Option<&str>,
    column: bool,
    width: u16,
) -> Line<'static> {
    let t = &state.theme;
    let mine = state.my_review(state.pos);
    let n = item.responses.len();
    let g = match (model, &mine) {
        (Some(m), Some(r)) => r.for_model(m, n).cloned(),
        _ => None,
    };
    let mut spans = vec![Span::styled(
        if column { "Mine" } else { "My grade" },
        t.title,
    )];
    // C-VQA's verdict is on the question, not on a response: the overrides name theirs
    let per_response = item.benchmark() != Benchmark::Cvqa;
    if let Some(m) = model.filter(|_| n > 1 && !column && per_response) {
        spans.push(Span::styled(format!(" of {}", one_line(m)), t.title));
    }
    spans.push(Span::styled(": ", t.title));
    let mut parts: Vec<String> = Vec::new();
    let ungraded = "not graded".to_string();
    match item.benchmark() {
        Benchmark::Chartom => {
            let gr = g.clone().unwrap_or_default();
            parts.push(
                gr.justification
                    .map(|j| j.name().to_string())
                    .unwrap_or_else(|| ungraded.clone()),
            );
            if let Some(c) = gr.fact_correct {
                parts.push(if column {
                    format!("FACT {}", tick(c))
                } else {
                    format!("FACT override: {}", ok_word(Some(c)))
                });
            }
        }
        Benchmark::ChartomQa => match g
            .as_ref()
            .filter(|g| g.bonus.is_some() || g.penalty.is_some())
        {
            Some(gr) => {
                let b = gr.bonus.clone().unwrap_or_default();
                parts.push(format!(
                    "bonus {} of {}",
                    if b.is_empty() {
                        "none".to_string()
                    } else {
                        b.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
                    },
                    item.bonus_points.len()
                ));
                parts.push(match &gr.penalty {
                    Some(Some(p)) => format!("penalty “{}”", truncate(&one_line(p), 24)),
                    Some(None) => "no penalty".into(),
                    None => "penalty not graded".into(),
                });
            }
            None => parts.push(ungraded.clone()),
        },
        Benchmark::Cvqa => {
            let r = mine.clone().unwrap_or_default();
            // a column shows the response's grades; the verdict on the question is the item's
            let verification = match r.status {
                Some(CvqaStatus::Accept) => "accepted".into(),
                Some(CvqaStatus::Fix) => "fixed".into(),
                Some(CvqaStatus::Reject) => format!(
                    "rejected ({})",
                    r.reason.map(|x| x.name()).unwrap_or("no reason")
                ),
                None => "question not verified".into(),
            };
            if !column {
                parts.push(verification);
            }
            let gr = g.clone().unwrap_or_default();
            let whose = match model {
                Some(m) if n > 1 => format!("{} ", one_line(m)),
                _ => String::new(),
            };
            if let Some(c) = gr.original_correct {
                parts.push(if column {
                    format!("orig {}", tick(c))
                } else {
                    format!("{}original override {}", whose, ok_word(Some(c)))
                });
            }
            if let Some(c) = gr.counterfactual_correct {
                parts.push(if column {
                    format!("cf {}", tick(c))
                } else {
                    format!("{}counterfactual override {}", whose, ok_word(Some(c)))
                });
            }
            if column && parts.is_empty() {
                parts.push("no override".into());
            }
        }
        Benchmark::Other => parts.push(
            mine.as_ref()
                .and_then(|r| r.verdict.clone())
                .map(|v| one_line(&v))
                .unwrap_or_else(|| ungraded.clone()),
        ),
    }
    if mine.as_ref().is_some_and(|r| r.is_final == Some(true)) {
        parts.push("FINAL".into());
    }
    if mine.as_ref().is_some_and(|r| r.note.is_some()) {
        parts.push("note".into());
    }
    let graded = !parts
        .first()
        .is_some_and(|p| *p == ungraded || p == "question not verified");
    // a line about one response's grades is marked only when that response has any (or
    // the item-wide final mark or note it shows)
    let per_model =
        model.is_some() && matches!(item.benchmark(), Benchmark::Chartom | Benchmark::ChartomQa);
    let recorded = if column || per_model {
        g.as_ref().is_some_and(|g| !g.is_empty())
            || (!column
                && mine
                    .as_ref()
                    .is_some_and(|r| r.is_final == Some(true) || r.note.is_some()))
    } else {
        mine.is_some()
    };
    let mark = match (recorded, state.is_pending(state.pos)) {
        (false, _) => None,
        (true, true) => Some(Span::styled("  … writing", t.warn)),
        (true, false) => Some(Span::styled("  ✔ recorded", t.good)),
    };
    // the grade is cut, never the mark that says whether it is on disk
    let room = (width as usize).saturating_sub(
        spans.iter().map(|s| s.width()).sum::<usize>() + mark.as_ref().map_or(0, |m| m.width()),
    );
    spans.push(Span::styled(
        truncate(&parts.join(" · "), room),
        if graded { t.accent } else { t.dim },
    ));
    spans.extend(mark);
    Line::from(spans)
}

/// The three states an override key cycles through, the current one bracketed:
/// `x: [auto] correct wrong`.
fn override_cycle(t: &Theme, key: &str, current: Option<bool>) -> Vec<Span<'static>> {
    let mut spans = vec![Span::styled(format!("  {key}:"), t.title)];
    for (label, v) in [
        ("auto", None),
        ("correct", Some(true)),
        ("wrong", Some(false)),
    ] {
        if v == current {
            spans.push(Span::styled(format!(" [{label}]"), t.accent));
        } else {
            spans.push(Span::styled(format!(" {label}"), t.dim));
        }
    }
    spans
}

/// The effective grade and where it comes from: the rule, my override, or others'.
fn effective_spans(
    t: &Theme,
    effective: Option<bool>,
    auto: Option<bool>,
    overridden: bool,
    mine: Option<bool>,
) -> Vec<Span<'static>> {
    let mut spans = vec![mark(t, effective)];
    if overridden {
        let who = if mine.is_some() && mine == effective {
            "my override"
        } else {
            "reviewers' override"
        };
        spans.push(Span::styled(
            format!(" ({who}; rule: {})", ok_word(auto)),
            t.warn,
        ));
    } else {
        spans.push(Span::styled(" (rule)", t.dim));
    }
    spans
}

fn draw_image(state: &State, f: &mut Frame, r: Rect, item: &Item) {
    let t = &state.theme;
    let title = format!(
        " {} ",
        one_line(&truncate(
            item.image.as_deref().unwrap_or(""),
            r.width.saturating_sub(4) as usize
        ))
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

fn heading(t: &Theme, s: &str) -> Line<'static> {
    Line::from(Span::styled(s.to_string(), t.title))
}

fn kv(t: &Theme, k: &str, v: &str) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!("{k}: "), t.dim),
        Span::styled(sanitize(v), t.text),
    ])
}

fn text_lines(s: &str, style: Style) -> Vec<Line<'static>> {
    sanitize(s)
        .split('\n')
        .map(|l| Line::from(Span::styled(l.to_string(), style)))
        .collect()
}

fn mark(t: &Theme, ok: Option<bool>) -> Span<'static> {
    match ok {
        Some(true) => Span::styled("✔ correct", t.good),
        Some(false) => Span::styled("✘ wrong", t.bad),
        None => Span::styled("– ungraded", t.dim),
    }
}

fn model_tabs(state: &State, item: &Item) -> Line<'static> {
    let t = &state.theme;
    let mut spans = vec![Span::styled("Responses: ", t.dim)];
    // Per-model progress where grades are per response: ✔ on the models I am done with,
    // · on those still to grade, no mark on those that require nothing.
    let per_model = matches!(item.benchmark(), Benchmark::Chartom | Benchmark::ChartomQa)
        && item.responses.len() > 1;
    let done = state.models_done();
    let required = crate::review::models_required(item);
    for (k, r) in item.responses.iter().enumerate() {
        let st = if k == state.model { t.selected } else { t.text };
        let mark = if !per_model || required.get(k) != Some(&true) {
            ""
        } else if done.get(k) == Some(&true) {
            "✔"
        } else {
            "·"
        };
        spans.push(Span::styled(format!(" {mark}{} ", one_line(&r.model)), st));
        spans.push(Span::raw(" "));
    }
    if item.responses.len() > 1 {
        spans.push(Span::styled(
            format!(
                "({} next, {} side by side)",
                state.keymap.hint(Context::Global, Action::NextModel),
                state.keymap.hint(Context::Global, Action::SideBySide)
            ),
            t.dim,
        ));
    }
    Line::from(spans)
}

// ----- CHARTOM ------------------------------------------------------------------------

fn chartom_lines(state: &State, item: &Item, width: u16) -> Vec<Line<'static>> {
    let t = &state.theme;
    let mut out = Vec::new();
    if let Some(c) = &item.chart {
        out.push(Line::from(vec![
            Span::styled("Chart ", t.dim),
            Span::styled(sanitize(c.pair.as_deref().unwrap_or("?")), t.title),
            Span::styled(
                format!(
                    " · {} · {}",
                    sanitize(c.chart_type.as_deref().unwrap_or("?")),
                    c.version.map(|v| v.name()).unwrap_or("?")
                ),
                t.text,
            ),
        ]));
        out.push(kv(
            t,
            "Planted manipulation",
            c.manipulation.as_deref().unwrap_or("none (honest chart)"),
        ));
    }
    if let Some(fact) = &item.fact {
        out.push(Line::from(""));
        out.push(heading(t, "FACT question"));
        out.extend(text_lines(fact.question.as_deref().unwrap_or(""), t.text));
        for (k, o) in fact.options.iter().enumerate() {
            out.push(Line::from(format!("  {}. {}", k + 1, one_line(o))));
        }
        out.push(kv(t, "Key", &grading::fact_key_display(fact)));
        out.extend(histogram_lines(state, item, width.saturating_sub(4)));
    }
    if let Some(m) = &item.mind {
        let rec = grading::chartom_hmi(item);
        let mut spans = vec![
            Span::styled("HMI ", t.dim),
            Span::styled(format!("{:.2}", m.hmi), t.title),
        ];
        if let Some(h) = rec {
            spans.push(Span::styled(
                format!(
                    "  (recomputed {:.2} = {}/{} not acceptable)",
                    h.hmi, h.not_acceptable, h.n
                ),
                t.dim,
            ));
        }
        out.push(Line::from(spans));
    }
    out
}

/// The human answers as a histogram: acceptable interval shaded, key and model marked,
/// log-scaled buckets when the answers span orders of magnitude.
fn histogram_lines(state: &State, item: &Item, width: u16) -> Vec<Line<'static>> {
    let t = &state.theme;
    let Some(h) = grading::histogram(item, state.model_name().as_deref(), 10) else {
        return vec![];
    };
    let mut out = vec![
        Line::from(""),
        heading(
            t,
            &format!(
                "Human answers (n = {}){}{}",
                h.n,
                if h.log_scale {
                    " · log-scaled buckets"
                } else {
                    ""
                },
                h.interval_label
                    .as_ref()
                    .map(|s| format!(" · acceptable {s}"))
                    .unwrap_or_default()
            ),
        ),
    ];
    let max = h.buckets.iter().map(|b| b.count).max().unwrap_or(1).max(1);
    let label_w = h
        .buckets
        .iter()
        .map(|b| b.label.chars().count())
        .max()
        .unwrap_or(4);
    let bar_space = (width as usize).saturating_sub(label_w + 18).max(5);
    for b in &h.buckets {
        let len = ((b.count as f64 / max as f64) * bar_space as f64).ceil() as usize;
        let bar_style = if b.acceptable { t.bar } else { t.bar_other };
        let mut spans = vec![
            Span::styled(
                format!("{:>w$} ", b.label, w = label_w),
                if b.acceptable { t.interval } else { t.text },
            ),
            Span::styled("█".repeat(len), bar_style),
            Span::styled(format!(" {}", b.count), t.dim),
        ];
        if b.has_key {
            spans.push(Span::styled(" ◆key", t.good));
        }
        if b.has_model {
            spans.push(Span::styled(" ▲model", t.accent));
        }
        out.push(Line::from(spans));
    }
    out.push(Line::from(Span::styled(
        "shaded: acceptable answers · ◆ the key · ▲ the selected model's answer",
        t.dim,
    )));
    out
}

// ----- CharToM-QA ---------------------------------------------------------------------

fn chartom_qa_lines(state: &State, item: &Item) -> Vec<Line<'static>> {
    let t = &state.theme;
    // The book and the ToM dimension as the row names them; the character only when the
    // row has one (the evaluation layout has none).
    let mut head = vec![Span::styled(
        one_line(item.book.as_deref().unwrap_or("?")),
        t.title,
    )];
    if let Some(c) = &item.character {
        head.push(Span::styled(format!(" · {}", one_line(c)), t.text));
    }
    head.push(Span::styled(" · ToM dimension ", t.dim));
    head.push(Span::styled(
        one_line(item.dimension.as_deref().unwrap_or("?")),
        t.text,
    ));
    let mut out = vec![Line::from(head)];
    let len = CONTEXT_LENGTHS[state.context_len];
    if let Some(c) = &item.context {
        out.push(Line::from(vec![
            Span::styled(format!("Context ({len}) "), t.title),
            Span::styled(
                format!(
                    "[{} switches 0/1000/2000]",
                    state.keymap.hint(Context::ChartomQa, Action::ContextLength)
                ),
                t.dim,
            ),
        ]));
        out.extend(text_lines(
            c.get(len).unwrap_or(""),
            t.dim.remove_modifier(Modifier::DIM),
        ));
    }
    out.push(Line::from(""));
    out.push(heading(t, "Question"));
    out.extend(text_lines(item.question.as_deref().unwrap_or(""), t.text));
    if item.shows_misleading_choices() {
        out.push(heading(t, "Misleading choices (wrong answers)"));
        for c in &item.choices {
            out.push(Line::from(vec![
                Span::styled("  ✘ ", t.bad),
                Span::styled(one_line(c), t.text),
            ]));
        }
    } else if !item.choices.is_empty() {
        for (k, c) in item.choices.iter().enumerate() {
            let is_key = item.key == Some(k as i64 + 1);
            out.push(Line::from(Span::styled(
                format!("  {}. {}", k + 1, one_line(c)),
                if is_key { t.good } else { t.text },
            )));
        }
    }
    out.push(heading(t, "Reference answer"));
    out.extend(text_lines(item.answer.as_deref().unwrap_or(""), t.text));
    out
}

fn bonus_block(state: &State, item: &Item, r: &Response, selected: bool) -> Vec<Line<'static>> {
    let t = &state.theme;
    let mine = my_grades_for(state, item, &r.model);
    let covered: Vec<u32> = mine
        .as_ref()
        .and_then(|g| g.bonus.clone())
        .unwrap_or_default();
    let hide = !state.reveal_model(&r.model);
    let judge = r.judge.as_ref().map(|j| j.bonus_list());
    let mut out = vec![heading(
        t,
        if selected {
            "Bonus points (digit toggles: covered by the response?)"
        } else {
            "Bonus points"
        },
    )];
    for (k, p) in item.bonus_points.iter().enumerate() {
        let n = k as u32 + 1;
        let is = covered.contains(&n);
        let mut spans = vec![
            Span::styled(format!(" {n} "), t.title),
            Span::styled(
                if is { "[✔] " } else { "[ ] " },
                if is { t.good } else { t.dim },
            ),
            Span::styled(one_line(p), t.text),
        ];
        if !hide && let Some(JudgeBonus::Points(j)) = &judge {
            spans.push(Span::styled(
                if j.contains(&n) {
                    "  judge ✔"
                } else {
                    "  judge ·"
                },
                if j.contains(&n) != is && mine.is_some() {
                    t.warn
                } else {
                    t.dim
                },
            ));
        }
        out.push(Line::from(spans));
    }
    if !hide {
        match &judge {
            Some(JudgeBonus::Unparsable(s)) => out.push(Line::from(Span::styled(
                format!(" judge's bonus unparsable ({}): not counted", one_line(s)),
                t.warn,
            ))),
            None => out.push(Line::from(Span::styled(" no LLM-judge grades", t.dim))),
            _ => {}
        }
        if let Some(j) = &r.judge {
            out.push(kv(
                t,
                " Judge penalty",
                &j.penalty_text().unwrap_or_else(|| "none".into()),
            ));
        }
    } else {
        out.push(Line::from(Span::styled(
            " (blind: the judge is hidden until you grade)",
            t.dim,
        )));
    }
    let pen = match mine.as_ref().and_then(|g| g.penalty.clone()) {
        None => "not graded".to_string(),
        Some(None) => "none".to_string(),
        Some(Some(p)) => p,
    };
    out.push(kv(t, " My penalty", &pen));
    let n = item.bonus_points.len();
    let c = covered.iter().filter(|&&x| (x as usize) <= n).count();
    let mut spans = vec![Span::styled(format!(" Coverage {c}/{n}"), t.accent)];
    if let Some((bc, bt)) = grading::running_bpc(state, &r.model) {
        spans.push(Span::styled(
            format!(
                "   running BPC (my grades) {:.2} = {bc}/{bt}",
                if bt > 0 { bc as f64 / bt as f64 } else { 0.0 }
            ),
            t.accent2,
        ));
    }
    out.push(Line::from(spans));
    out
}

// ----- C-VQA --------------------------------------------------------------------------

fn cvqa_lines(state: &State, item: &Item) -> Vec<Line<'static>> {
    let (o, c) = cvqa_columns(state, item);
    let mut out = vec![cvqa_title(state, item)];
    out.extend(o);
    out.push(Line::from(""));
    out.extend(c);
    out
}

fn cvqa_title(state: &State, item: &Item) -> Line<'static> {
    let t = &state.theme;
    Line::from(vec![
        Span::styled(sanitize(item.split.as_deref().unwrap_or("?")), t.title),
        Span::styled(
            format!(" · {}", sanitize(item.group.as_deref().unwrap_or("?"))),
            t.text,
        ),
    ])
}

/// The original and the counterfactual pair, as two columns of lines.
fn cvqa_columns(state: &State, item: &Item) -> (Vec<Line<'static>>, Vec<Line<'static>>) {
    let t = &state.theme;
    let mine = state.my_review(state.pos);
    let mut cols = Vec::new();
    for (label, qa, fixed) in [
        ("Original", item.original.as_ref(), None),
        (
            "Counterfactual (generated)",
            item.counterfactual.as_ref(),
            mine.as_ref(),
        ),
    ] {
        let mut out = vec![heading(t, label)];
        let Some(qa) = qa else {
            out.push(Line::from(Span::styled("missing", t.bad)));
            cols.push(out);
            continue;
        };
        let (stem, opts) = grading::split_options(&qa.question);
        out.extend(text_lines(stem, t.text));
        for (letter, text) in opts {
            let is_key = qa.answer.trim() == letter.to_string();
            out.push(Line::from(Span::styled(
                format!("   {letter}: {}", one_line(&text)),
                if is_key { t.good } else { t.text },
            )));
        }
        out.push(Line::from(vec![
            Span::styled("Answer: ", t.dim),
            Span::styled(sanitize(&qa.answer), t.good),
        ]));
        if let Some(r) = fixed {
            if let Some(q) = &r.fixed_question {
                out.push(Line::from(vec![
                    Span::styled("Fixed question: ", t.warn),
                    Span::styled(sanitize(&shown_fix(q, false)), t.text),
                ]));
            }
            if let Some(a) = &r.fixed_answer {
                out.push(Line::from(vec![
                    Span::styled("Fixed answer: ", t.warn),
                    Span::styled(sanitize(&shown_fix(a, false)), t.text),
                ]));
            }
        }
        cols.push(out);
    }
    let c = cols.pop().unwrap_or_default();
    let o = cols.pop().unwrap_or_default();
    (o, c)
}

/// Rows a paragraph of `lines` takes when wrapped to `width`.
fn wrapped_height(lines: &[Line], width: u16) -> u16 {
    let w = width.max(1) as usize;
    lines
        .iter()
        .map(|l| (l.width().max(1)).div_ceil(w) as u16)
        .sum()
}

// ----- responses and reviews ----------------------------------------------------------

fn response_lines(state: &State, item: &Item, r: &Response, selected: bool) -> Vec<Line<'static>> {
    let t = &state.theme;
    let ctx = state.context();
    let km = &state.keymap;
    // Keys act on the selected response only; the others' columns show no key.
    let key = |a: Action| {
        if selected {
            format!("{} override", km.hint(ctx, a))
        } else {
            "override".to_string()
        }
    };
    let mine = my_grades_for(state, item, &r.model).unwrap_or_default();
    let mut out = Vec::new();
    match item.benchmark() {
        Benchmark::Chartom => {
            let g = grading::chartom_fact(item, &r.model);
            out.push(Line::from(vec![
                Span::styled("FACT answer: ", t.dim),
                Span::styled(one_line(r.fact.as_deref().unwrap_or("—")), t.text),
            ]));
            let mut spans = vec![
                Span::styled("  parsed: ", t.dim),
                Span::styled(
                    g.parsed.clone().unwrap_or_else(|| "unparsable".into()),
                    t.text,
                ),
                Span::raw("  "),
            ];
            spans.extend(effective_spans(
                t,
                g.effective,
                g.auto,
                g.overridden,
                mine.fact_correct,
            ));
            out.push(Line::from(spans));
            out.push(Line::from(override_cycle(
                t,
                &format!("{} FACT", key(Action::FactOverride)),
                mine.fact_correct,
            )));
            if let Some(mind) = r.mind {
                let hmi = item.mind.map(|m| m.hmi);
                out.push(Line::from(vec![
                    Span::styled("MIND prediction: ", t.dim),
                    Span::styled(format!("{mind:.2}"), t.text),
                    Span::styled(
                        match hmi {
                            Some(h) => {
                                format!("  vs HMI {h:.2} · squared error {:.4}", (mind - h).powi(2))
                            }
                            None => "  (no HMI)".into(),
                        },
                        t.dim,
                    ),
                ]));
            }
            out.push(heading(t, "Justification"));
            out.extend(text_lines(
                r.justification.as_deref().unwrap_or("—"),
                t.text,
            ));
            let planted = item
                .chart
                .as_ref()
                .and_then(|c| c.manipulation.as_deref())
                .unwrap_or("none (honest chart)");
            out.push(Line::from(vec![
                Span::styled("  vs planted: ", t.dim),
                Span::styled(sanitize(planted), t.warn),
            ]));
            let grade = mine.justification.map(|g| g.name()).unwrap_or("not graded");
            let mut spans = vec![
                Span::styled("My grade: ", t.dim),
                Span::styled(grade.to_string(), t.accent),
            ];
            if selected {
                spans.push(Span::styled(
                    format!(
                        "   {} identifies · {} partial · {} misses",
                        km.hint(ctx, Action::Identifies),
                        km.hint(ctx, Action::Partial),
                        km.hint(ctx, Action::Misses)
                    ),
                    t.dim,
                ));
            }
            out.push(Line::from(spans));
        }
        Benchmark::ChartomQa => {
            out.push(heading(t, "Response"));
            out.extend(text_lines(r.text.as_deref().unwrap_or("—"), t.text));
            if let Some(c) = r.choice {
                out.push(Line::from(vec![
                    Span::styled(format!("Choice: {c} "), t.dim),
                    mark(t, item.key.map(|k| k == c)),
                ]));
            }
            out.push(Line::from(""));
            out.extend(bonus_block(state, item, r, selected));
        }
        Benchmark::Cvqa => {
            for (label, raw, cf, action, my) in [
                (
                    "original",
                    r.original.as_deref(),
                    false,
                    Action::OriginalOverride,
                    mine.original_correct,
                ),
                (
                    "counterfactual",
                    r.counterfactual.as_deref(),
                    true,
                    Action::CounterfactualOverride,
                    mine.counterfactual_correct,
                ),
            ] {
                let g = grading::cvqa_answer(item, &r.model, cf);
                out.push(Line::from(vec![
                    Span::styled(format!("{label}: "), t.dim),
                    Span::styled(one_line(raw.unwrap_or("—")), t.text),
                ]));
                let mut spans = vec![
                    Span::styled("  → ", t.dim),
                    Span::styled(
                        g.parsed.clone().unwrap_or_else(|| "no answer".into()),
                        t.text,
                    ),
                    Span::raw("  "),
                ];
                spans.extend(effective_spans(
                    t,
                    Some(g.effective),
                    Some(g.auto),
                    g.overridden,
                    my,
                ));
                spans.extend(override_cycle(t, &key(action), my));
                out.push(Line::from(spans));
            }
        }
        Benchmark::Other => {}
    }
    out
}

fn tick(ok: bool) -> &'static str {
    if ok { "✔" } else { "✘" }
}

fn ok_word(b: Option<bool>) -> &'static str {
    match b {
        Some(true) => "correct",
        Some(false) => "wrong",
        None => "ungradable",
    }
}

/// Which part of a review to show: everything, the item-level verdict only (status,
/// reason, free verdict), or one model's grades.
#[derive(Clone, Copy)]
enum Scope<'a> {
    All,
    Item,
    Model(&'a str),
}

fn grades_summary(g: &ResponseGrades) -> Vec<String> {
    let mut gp = Vec::new();
    if let Some(j) = g.justification {
        gp.push(j.name().to_string());
    }
    if let Some(b) = &g.bonus {
        gp.push(format!("bonus {b:?}"));
    }
    match &g.penalty {
        Some(Some(p)) => gp.push(format!("penalty “{}”", truncate(p, 30))),
        Some(None) => gp.push("no penalty".into()),
        None => {}
    }
    if let Some(c) = g.fact_correct {
        gp.push(format!("FACT {}", if c { "correct" } else { "wrong" }));
    }
    if let Some(c) = g.original_correct {
        gp.push(format!("orig {}", if c { "✔" } else { "✘" }));
    }
    if let Some(c) = g.counterfactual_correct {
        gp.push(format!("cf {}", if c { "✔" } else { "✘" }));
    }
    gp
}

fn review_summary(item: &Item, r: &Review, scope: Scope) -> String {
    let mut parts = Vec::new();
    if !matches!(scope, Scope::Model(_)) {
        if let Some(s) = r.status {
            parts.push(format!("{s:?}").to_lowercase());
        }
        if let Some(reason) = r.reason {
            parts.push(reason.name().to_string());
        }
        if let Some(t) = &r.reason_text {
            parts.push(format!("“{t}”"));
        }
        // a C-VQA fix: the corrected counterfactual pair (docs/format.md)
        if let Some(q) = &r.fixed_question {
            parts.push(format!("fixed Q {}", shown_fix(q, true)));
        }
        if let Some(a) = &r.fixed_answer {
            parts.push(format!("fixed A {}", shown_fix(a, true)));
        }
        if let Some(v) = &r.verdict {
            parts.push(v.clone());
        }
    }
    let n = item.responses.len();
    for resp in &item.responses {
        let wanted = match scope {
            Scope::All => true,
            Scope::Item => false,
            Scope::Model(m) => resp.model == m,
        };
        if !wanted {
            continue;
        }
        if let Some(g) = r.for_model(&resp.model, n) {
            let gp = grades_summary(g);
            if !gp.is_empty() {
                parts.push(if n > 1 && matches!(scope, Scope::All) {
                    format!("{}: {}", resp.model, gp.join(", "))
                } else {
                    gp.join(", ")
                });
            }
        }
    }
    if !matches!(scope, Scope::Model(_)) {
        if r.is_final == Some(true) {
            parts.push("FINAL".into());
        }
        if let Some(s) = r.seconds {
            parts.push(format!("{s:.0}s"));
        }
    }
    parts.join(" · ")
}

/// The adjudication queue's table: one column per reviewer, one row per field.
fn comparison_lines(
    state: &State,
    item: &Item,
    reviews: &[(String, Review)],
) -> Vec<Line<'static>> {
    let t = &state.theme;
    let (names, rows) = grading::comparison(item, reviews);
    let label_w = rows
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0)
        .min(28);
    let cell_w = 16usize;
    let cell = |s: &str| format!("{:<cell_w$} ", truncate(&one_line(s), cell_w));
    let mut out = vec![heading(
        t,
        "Adjudication: every reviewer's grades side by side",
    )];
    let mut head = vec![Span::raw(format!(" {:<label_w$} ", ""))];
    head.extend(names.iter().map(|n| Span::styled(cell(n), t.title)));
    out.push(Line::from(head));
    for (label, cells) in rows {
        let differ = cells.iter().any(|c| *c != cells[0]);
        let mut spans = vec![Span::styled(
            format!(" {:<label_w$} ", truncate(&one_line(&label), label_w)),
            t.dim,
        )];
        spans.extend(
            cells
                .iter()
                .map(|c| Span::styled(cell(c), if differ { t.warn } else { t.text })),
        );
        out.push(Line::from(spans));
    }
    let is_final = state
        .my_review(state.pos)
        .is_some_and(|r| r.is_final == Some(true));
    if !is_final {
        out.push(Line::from(Span::styled(
            format!(
                " grade the item, then {} marks your verdict as the final one",
                state.keymap.hint(Context::Global, Action::Adjudicate)
            ),
            t.dim,
        )));
    }
    out
}

fn review_lines(state: &State, item: &Item, scope: Scope) -> Vec<Line<'static>> {
    let t = &state.theme;
    let mut out = vec![Line::from("")];
    let reviews = state.reviews();
    if state.queue && !reviews.is_empty() && !matches!(scope, Scope::Model(_)) {
        out.extend(comparison_lines(state, item, &reviews));
        out.push(Line::from(""));
    }
    out.push(heading(t, "Verdicts"));
    let pending = state.is_pending(state.pos);
    let mut shown = 0;
    for (name, r) in &reviews {
        let me = *name == state.reviewer;
        let summary = review_summary(item, r, scope);
        let note = r
            .note
            .as_ref()
            .filter(|_| !matches!(scope, Scope::Model(_)));
        if summary.is_empty() && note.is_none() && matches!(scope, Scope::Model(_)) {
            continue;
        }
        shown += 1;
        let mut spans = vec![
            Span::styled(
                format!(" {}{} ", one_line(name), if me { " (me)" } else { "" }),
                if me { t.accent } else { t.text },
            ),
            Span::styled(one_line(&summary), t.text),
        ];
        if me && pending {
            spans.push(Span::styled("  … writing", t.warn));
        } else if me {
            spans.push(Span::styled("  ✔ recorded", t.good));
        }
        out.push(Line::from(spans));
        if let Some(n) = note {
            out.push(Line::from(Span::styled(
                format!("   note: {}", one_line(n)),
                t.dim,
            )));
        }
    }
    let hidden = match scope {
        Scope::Model(m) => !state.reveal_model(m),
        Scope::Item => !state.reveal_item(),
        Scope::All => state.hiding_others(),
    };
    if shown == 0 {
        out.push(Line::from(Span::styled(
            if hidden {
                " (blind: others' verdicts hidden until you grade)"
            } else if matches!(scope, Scope::Model(_)) {
                " none on this response yet"
            } else {
                " none yet"
            },
            t.dim,
        )));
    }
    if item.benchmark() == Benchmark::Cvqa
        && !state.hiding_others()
        && !matches!(scope, Scope::Model(_))
    {
        let reasons: Vec<String> = CvqaReason::ALL
            .iter()
            .enumerate()
            .map(|(k, r)| format!("{} {}", k + 1, r.name()))
            .collect();
        out.push(Line::from(Span::styled(
            format!(" reject reasons: {}", reasons.join(" · ")),
            t.dim,
        )));
    }
    out
}

/// A fixed question or answer as shown: a blank one (written by hand or by an older
/// version) says so rather than showing nothing.
fn shown_fix(s: &str, quoted: bool) -> String {
    if s.trim().is_empty() {
        "(empty)".to_string()
    } else if quoted {
        format!("“{s}”")
    } else {
        s.to_string()
    }
}

fn generic_lines(state: &State, raw: &str) -> Vec<Line<'static>> {
    let t = &state.theme;
    let pretty = serde_json::from_str::<Value>(raw)
        .ok()
        // JSON's own escapes for unsafe characters, as everywhere JSON is shown
        .and_then(|v| crate::sanitize::json_pretty(&v).ok())
        .unwrap_or_else(|| raw.to_string());
    let km = &state.keymap;
    let ctx = state.context();
    let mut out = vec![heading(
        t,
        &format!(
            "Item (unknown benchmark: {} pass · {} fail · {} unsure · {} note)",
            km.hint(ctx, Action::Pass),
            km.hint(ctx, Action::Fail),
            km.hint(ctx, Action::Unsure),
            km.hint(ctx, Action::Note)
        ),
    )];
    out.extend(text_lines(&truncate(&pretty, 50_000), t.text));
    out
}

// ----- overlays -----------------------------------------------------------------------

/// A dialog of `w_pct` of the width, wider when its title or key hint needs it.
fn centered(area: Rect, w_pct: u16, h: u16, min_w: usize) -> Rect {
    let min_w = u16::try_from(min_w).unwrap_or(u16::MAX);
    let w = (area.width * w_pct / 100)
        .max(30)
        .max(min_w)
        .min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + area.height / 6,
        w,
        h,
    )
}

/// Width a dialog needs to show its title and its key hint whole.
fn dialog_width(title: &str, keys: &str) -> usize {
    title.chars().count().max(keys.chars().count()) + 6
}

fn draw_input(
    state: &State,
    f: &mut Frame,
    area: Rect,
    (title, keys): (&str, &str),
    e: &crate::tui::edit::TextEdit,
    second: Option<(&str, &str, &crate::tui::edit::TextEdit, bool)>,
) {
    let t = &state.theme;
    let h = if second.is_some() { 10 } else { 7 };
    let r = centered(area, 80, h, dialog_width(title, keys));
    f.render_widget(Clear, r);
    let b = block(t, Span::styled(format!(" {title} "), t.title))
        .title_bottom(Line::from(Span::styled(format!(" {keys} "), t.dim)).right_aligned());
    let inner = b.inner(r);
    f.render_widget(b, r);
    let field = |e: &crate::tui::edit::TextEdit, active: bool| -> Vec<Line<'static>> {
        let (a, z) = e.split();
        let (a, z) = (sanitize(&a), sanitize(&z));
        let a_lines: Vec<&str> = a.split('\n').collect();
        let z_lines: Vec<&str> = z.split('\n').collect();
        let mut lines: Vec<Line<'static>> = a_lines[..a_lines.len() - 1]
            .iter()
            .map(|l| Line::from(l.to_string()))
            .collect();
        let first_z = z_lines[0];
        let cursor = first_z
            .chars()
            .next()
            .map(String::from)
            .unwrap_or_else(|| " ".into());
        lines.push(Line::from(vec![
            Span::raw(a_lines[a_lines.len() - 1].to_string()),
            Span::styled(cursor, if active { t.selected } else { t.text }),
            Span::raw(first_z.chars().skip(1).collect::<String>()),
        ]));
        lines.extend(z_lines[1..].iter().map(|l| Line::from(l.to_string())));
        lines
    };
    match second {
        None => f.render_widget(
            Paragraph::new(field(e, true)).wrap(Wrap { trim: false }),
            inner,
        ),
        Some((qt, at, ans, on_answer)) => {
            let parts = Layout::vertical([
                Constraint::Length(1),
                Constraint::Length(3),
                Constraint::Length(1),
                Constraint::Min(1),
            ])
            .split(inner);
            f.render_widget(
                Paragraph::new(Span::styled(qt.to_string(), t.dim)),
                parts[0],
            );
            f.render_widget(
                Paragraph::new(field(e, !on_answer)).wrap(Wrap { trim: false }),
                parts[1],
            );
            f.render_widget(
                Paragraph::new(Span::styled(at.to_string(), t.dim)),
                parts[2],
            );
            f.render_widget(
                Paragraph::new(field(ans, on_answer)).wrap(Wrap { trim: false }),
                parts[3],
            );
        }
    }
}

fn draw_search(state: &State, f: &mut Frame, area: Rect, s: &crate::tui::app::SearchState) {
    let t = &state.theme;
    let r = Rect::new(
        area.x + 2,
        area.y + area.height / 6,
        area.width.saturating_sub(4),
        (area.height * 2 / 3).max(6),
    );
    f.render_widget(Clear, r);
    let title = match &state.meta {
        Some(_) => format!(" Search ids and questions · {} matches ", s.results.len()),
        None => format!(" Search · {} ", indexing_note(state)),
    };
    let b = block(t, Span::styled(title, t.title));
    let inner = b.inner(r);
    f.render_widget(b, r);
    let mut lines = vec![
        Line::from(vec![
            Span::styled("/ ", t.accent),
            Span::raw(sanitize(&s.query.text())),
            Span::styled(" ", t.selected),
        ]),
        Line::from(""),
    ];
    let avail = inner.height.saturating_sub(2) as usize;
    let start = s.selected.saturating_sub(avail.saturating_sub(1));
    if let Some(meta) = &state.meta {
        let query = s.query.text();
        for (k, &i) in s.results.iter().enumerate().skip(start).take(avail) {
            let st = if k == s.selected { t.selected } else { t.text };
            let hit = st
                .patch(t.accent)
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
            lines.push(highlighted(
                &format!(" {:>6}  ", i + 1),
                meta.search_text(i),
                &crate::tui::facts::match_indices(meta.search_text(i), &query),
                (st, hit),
                inner.width as usize,
            ));
        }
    }
    f.render_widget(Paragraph::new(lines), inner);
}

/// `prefix` then `text` on one line, the characters at `hits` (char indices into `text`)
/// in the `hit` style, cut at `width` with an ellipsis.
fn highlighted(
    prefix: &str,
    text: &str,
    hits: &[usize],
    (style, hit): (Style, Style),
    width: usize,
) -> Line<'static> {
    let mut spans = vec![Span::styled(prefix.to_string(), style)];
    let mut used = prefix.chars().count();
    let mut hits = hits.iter().peekable();
    for (k, c) in text.chars().enumerate() {
        let shown = one_line(&c.to_string());
        let n = shown.chars().count();
        let is_hit = hits.next_if(|&&h| h == k).is_some();
        if used + n >= width && text.chars().count() > k + 1 {
            spans.push(Span::styled("…", style));
            break;
        }
        used += n;
        spans.push(Span::styled(shown, if is_hit { hit } else { style }));
    }
    Line::from(spans)
}

/// What the reviewer sees while the background index is being built.
pub fn indexing_note(state: &State) -> String {
    let (done, total) = state.index_progress;
    match (done * 100).checked_div(total) {
        Some(pct) => format!("indexing the file… {}%", pct.min(100)),
        None => "indexing the file…".to_string(),
    }
}

fn draw_reject(
    state: &State,
    f: &mut Frame,
    area: Rect,
    selected: usize,
    (title, keys): (&str, &str),
) {
    let t = &state.theme;
    let r = centered(area, 50, 9, dialog_width(title, keys));
    f.render_widget(Clear, r);
    let lines: Vec<Line> = CvqaReason::ALL
        .iter()
        .enumerate()
        .map(|(k, reason)| {
            Line::from(Span::styled(
                format!(" {} {} ", k + 1, reason.name()),
                if k == selected { t.selected } else { t.text },
            ))
        })
        .collect();
    f.render_widget(
        Paragraph::new(lines).block(
            block(t, Span::styled(format!(" {title} "), t.title))
                .title_bottom(Line::from(Span::styled(format!(" {keys} "), t.dim)).right_aligned()),
        ),
        r,
    );
}

fn draw_filter(state: &State, f: &mut Frame, area: Rect, selected: usize) {
    let t = &state.theme;
    let opts = state.filter_options();
    let count = state
        .visible
        .as_ref()
        .map(|v| v.len())
        .unwrap_or(state.len());
    let title = format!("Filters · {count} of {} items match", state.len());
    let keys = format!(
        "Enter toggles · {} clears · Esc closes",
        state.keymap.hint(Context::Global, Action::ClearFilters)
    );
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
    // The menu starts a sixth down (`centered`) and stays above the footer.
    let room = area.height.saturating_sub(area.height / 6 + 1).max(5);
    let h = (opts.len() as u16 + lines.len() as u16 + 2).clamp(5, room);
    let r = centered(area, 60, h, dialog_width(&title, &keys).max(64));
    f.render_widget(Clear, r);
    let b = block(t, Span::styled(format!(" {title} "), t.title))
        .title_bottom(Line::from(Span::styled(format!(" {keys} "), t.dim)).right_aligned());
    let inner = b.inner(r);
    f.render_widget(b, r);
    let avail = (inner.height as usize).saturating_sub(lines.len());
    let start = selected.saturating_sub(avail.saturating_sub(1));
    let width = inner.width as usize;
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
                        " [{}] {}",
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

fn help_lines(state: &State) -> Vec<Line<'static>> {
    let t = &state.theme;
    let ctx = state.context();
    let rows = state.keymap.help(ctx);
    let mut lines = vec![Line::from(Span::styled(
        "Keys (remap them in config.toml, [keys] section: action = [\"key\", ...])",
        t.dim,
    ))];
    let mut last = None;
    for (c, keys, desc) in rows {
        if last != Some(c) {
            lines.push(Line::from(""));
            lines.push(heading(t, c.title()));
            last = Some(c);
        }
        lines.push(Line::from(vec![
            Span::styled(key_cell(&keys), t.accent),
            Span::styled(desc, t.text),
        ]));
    }
    lines.push(Line::from(""));
    lines.push(heading(t, "In text fields"));
    for (k, d) in [
        ("Enter", "save"),
        ("Esc", "cancel"),
        ("Alt-Enter", "new line (notes)"),
        ("Ctrl-a / Ctrl-e", "start / end of line"),
        ("Ctrl-w / Alt-Bksp", "delete word"),
        ("Ctrl-u / Ctrl-k", "delete to start / end"),
    ] {
        lines.push(Line::from(vec![
            Span::styled(key_cell(k), t.accent),
            Span::styled(d, t.text),
        ]));
    }
    lines
}

/// The help's key column: 16 wide, and a longer key keeps a space before its text.
fn key_cell(keys: &str) -> String {
    if keys.chars().count() < 16 {
        format!("  {keys:<16}")
    } else {
        format!("  {keys} ")
    }
}

fn draw_help(state: &State, f: &mut Frame, area: Rect, scroll: u16) {
    let t = &state.theme;
    let lines = help_lines(state);
    let b = block(t, Span::styled(" Help ", t.title));
    let inner = b.inner(area);
    let max = max_scroll_of(&lines, inner);
    let scroll = scroll.min(max);
    let b = if max > 0 {
        b.title_bottom(scroll_indicator(t, scroll, max, inner.height))
    } else {
        b
    };
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0))
            .block(b),
        area,
    );
}

/// How far the help or the summary can scroll at the current size (0 in other modes):
/// their scroll keys stop there.
/// How far `PgDn`/`PgUp` move the help or the summary: their visible rows, less one.
pub fn page_rows_of_page(state: &State) -> u16 {
    let (w, h) = state.size;
    let inner = Rect::new(1, 2, w.saturating_sub(2), h.saturating_sub(5));
    let rows = match (&state.mode, &state.summary) {
        (Mode::Summary { .. }, Some(Ok(v))) => {
            let (_, plot) = summary_lines(state, v, inner.width);
            summary_split(inner, plot).0.height
        }
        _ => inner.height,
    };
    rows.saturating_sub(1).max(1)
}

pub fn page_max_scroll(state: &State) -> u16 {
    let (w, h) = state.size;
    if w < MIN_W || h < MIN_H {
        return 0;
    }
    let inner = Rect::new(1, 2, w.saturating_sub(2), h.saturating_sub(5));
    match &state.mode {
        Mode::Help { .. } => max_scroll_of(&help_lines(state), inner),
        Mode::Summary { .. } => match &state.summary {
            Some(Ok(v)) => {
                let (lines, plot) = summary_lines(state, v, inner.width);
                max_scroll_of(&lines, summary_split(inner, plot).0)
            }
            _ => 0,
        },
        _ => 0,
    }
}

// ----- summary ------------------------------------------------------------------------

fn pct(v: &Value) -> String {
    v.as_f64()
        .map(|x| format!("{:5.1}%", x * 100.0))
        .unwrap_or_else(|| "    –".into())
}

fn bar(v: &Value, width: usize, style: Style) -> Span<'static> {
    let x = v.as_f64().unwrap_or(0.0).clamp(0.0, 1.0);
    Span::styled("█".repeat((x * width as f64).round() as usize), style)
}

fn draw_summary(state: &State, f: &mut Frame, area: Rect, scroll: u16) {
    let t = &state.theme;
    let b = block(
        t,
        Span::styled(
            format!(
                " Summary ({} or Esc closes) ",
                state.keymap.hint(Context::Global, Action::Summary)
            ),
            t.title,
        ),
    );
    let inner = b.inner(area);
    f.render_widget(b, area);
    let v = match &state.summary {
        None => {
            f.render_widget(Paragraph::new("computing…").style(t.dim), inner);
            return;
        }
        Some(Err(e)) => {
            f.render_widget(Paragraph::new(sanitize(e)).style(t.bad), inner);
            return;
        }
        Some(Ok(v)) => v,
    };
    let (lines, has_hmi_plot) = summary_lines(state, v, inner.width);
    let (text, plot) = summary_split(inner, has_hmi_plot);
    let max = max_scroll_of(&lines, text);
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((scroll.min(max), 0)),
        text,
    );
    if let Some(r) = plot {
        draw_hmi_plot(state, f, r, v);
    }
    if max > 0 {
        f.render_widget(
            Block::default().title_bottom(scroll_indicator(t, scroll.min(max), max, text.height)),
            Rect::new(
                area.x + 1,
                area.y + area.height - 1,
                area.width.saturating_sub(2),
                1,
            ),
        );
    }
}

/// The summary's text pane and, when there are charts and room, the HMI plot's.
fn summary_split(inner: Rect, has_hmi_plot: bool) -> (Rect, Option<Rect>) {
    if has_hmi_plot && inner.height > 12 {
        let parts = Layout::vertical([
            Constraint::Min(4),
            Constraint::Length((inner.height / 2).max(10)),
        ])
        .split(inner);
        (parts[0], Some(parts[1]))
    } else {
        (inner, None)
    }
}

/// How far `lines`, wrapped in `r`, can scroll.
fn max_scroll_of(lines: &[Line], r: Rect) -> u16 {
    let total = Paragraph::new(lines.to_vec())
        .wrap(Wrap { trim: false })
        .line_count(r.width.max(1));
    u16::try_from(total)
        .unwrap_or(u16::MAX)
        .saturating_sub(r.height)
}

/// The summary's text, for an inner width of `width`; and whether there is an HMI plot.
fn summary_lines(state: &State, v: &Value, width: u16) -> (Vec<Line<'static>>, bool) {
    let t = &state.theme;
    // Bars take what the row's text leaves: rows fit the width, never cut.
    let fit = |fixed: usize| (width as usize).saturating_sub(fixed).clamp(2, 40);
    let mut lines: Vec<Line> = vec![Line::from(format!("{} items", v["items"]))];
    let benches = &v["benchmarks"];
    // CHARTOM
    let has_hmi_plot;
    if let Some(models) = benches["chartom"]["models"].as_object() {
        lines.push(Line::from(""));
        lines.push(heading(
            t,
            "CHARTOM · FACT accuracy, MIND MSE, justification grades",
        ));
        for (m, mv) in models {
            lines.push(Line::from(vec![
                Span::styled(format!("  {:<18}", truncate(&one_line(m), 18)), t.accent),
                Span::raw(format!("FACT {}  ", pct(&mv["fact_accuracy"]))),
                bar(&mv["fact_accuracy"], fit(46), t.bar),
                Span::raw(format!(
                    "  MSE {}",
                    mv["mind_mse"]
                        .as_f64()
                        .map(|x| format!("{x:.4}"))
                        .unwrap_or("–".into())
                )),
            ]));
            for key in ["by_type", "by_version"] {
                if let Some(o) = mv[key].as_object() {
                    for (k, kv) in o {
                        let acc = if kv.is_object() {
                            &kv["fact_accuracy"]
                        } else {
                            kv
                        };
                        lines.push(Line::from(vec![
                            Span::styled(format!("    {:<16}", truncate(&one_line(k), 16)), t.dim),
                            Span::raw(format!("{}  ", pct(acc))),
                            bar(
                                acc,
                                fit(29),
                                if key == "by_version" && k == "manipulated" {
                                    t.bar_other
                                } else {
                                    t.bar
                                },
                            ),
                        ]));
                    }
                }
            }
            if let Some(j) = mv["justification"].as_object() {
                let parts: Vec<String> = j.iter().map(|(k, n)| format!("{k} {n}")).collect();
                lines.push(Line::from(Span::styled(
                    format!("    justification: {}", parts.join(" · ")),
                    t.dim,
                )));
            }
        }
        has_hmi_plot = benches["chartom"]["charts"]
            .as_array()
            .is_some_and(|a| !a.is_empty());
    } else {
        has_hmi_plot = false;
    }
    // CharToM-QA
    if let Some(models) = benches["chartom-qa"]["models"].as_object() {
        lines.push(Line::from(""));
        lines.push(heading(t, "CharToM-QA · BPC and PR, human vs LLM judge"));
        for (m, mv) in models {
            lines.push(Line::from(vec![
                Span::styled(format!("  {:<18}", truncate(&one_line(m), 18)), t.accent),
                Span::raw(format!(
                    "human BPC {} PR {}   judge BPC {} PR {}",
                    pct(&mv["human"]["bpc"]),
                    pct(&mv["human"]["pr"]),
                    pct(&mv["judge"]["bpc"]),
                    pct(&mv["judge"]["pr"])
                )),
            ]));
            if let Some(d) = mv["dimensions"].as_object() {
                for (k, dv) in d {
                    lines.push(Line::from(vec![
                        Span::styled(format!("    {:<14}", truncate(&one_line(k), 14)), t.dim),
                        Span::raw(format!("human {} ", pct(&dv["human"]["bpc"]))),
                        bar(&dv["human"]["bpc"], fit(45) / 2, t.bar),
                        Span::raw(format!("  judge {} ", pct(&dv["judge"]["bpc"]))),
                        bar(&dv["judge"]["bpc"], fit(45) / 2, t.bar_other),
                    ]));
                }
            }
        }
    }
    // C-VQA
    if let Some(models) = benches["cvqa"]["models"].as_object() {
        lines.push(Line::from(""));
        lines.push(heading(
            t,
            "C-VQA · accuracy original vs counterfactual, by group",
        ));
        for (m, mv) in models {
            lines.push(Line::from(Span::styled(
                format!("  {}", one_line(m)),
                t.accent,
            )));
            if let Some(g) = mv["groups"].as_object() {
                for (k, gv) in g {
                    lines.push(Line::from(vec![
                        Span::styled(
                            format!(
                                "    {:<15} n={:<5} ",
                                truncate(&one_line(k), 15),
                                gv["n"].to_string()
                            ),
                            t.dim,
                        ),
                        Span::raw(format!("orig {} ", pct(&gv["original_accuracy"]))),
                        bar(&gv["original_accuracy"], fit(60) / 2, t.bar),
                        Span::raw(format!("  cf {} ", pct(&gv["counterfactual_accuracy"]))),
                        bar(&gv["counterfactual_accuracy"], fit(60) / 2, t.bar_other),
                        Span::styled(
                            format!(
                                "  Δ {}",
                                gv["difference"]
                                    .as_f64()
                                    .map(|d| format!("{:+.1}", d * 100.0))
                                    .unwrap_or("–".into())
                            ),
                            t.warn,
                        ),
                    ]));
                }
            }
        }
        if let Some(ver) = benches["cvqa"]["verification"].as_object() {
            let parts: Vec<String> = ver
                .iter()
                .filter(|(_, v)| !v.is_object())
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            lines.push(Line::from(Span::styled(
                format!("  verification: {}", parts.join(" · ")),
                t.dim,
            )));
        }
    }
    // Agreement and progress
    if let Some(r) = v["reviews"].as_object() {
        lines.push(Line::from(""));
        lines.push(heading(t, "Review progress"));
        for (name, rv) in r {
            // "done" is what the status line's `me N` counts; "touched" includes notes
            // alone and partly graded items (docs/format.md, "When an item is done").
            lines.push(Line::from(format!(
                "  {:<18} {} done · {} touched",
                truncate(&one_line(name), 18),
                rv["done"],
                rv["reviewed"]
            )));
        }
    }
    if let Some(r) = v["resolution"].as_object() {
        let g = |k: &str| r.get(k).cloned().unwrap_or(Value::Null);
        lines.push(Line::from(Span::styled(
            format!(
                "  verdicts used in the figures: final (adjudicated) {} · majority {} · single reviewer {} · none {}",
                g("final"),
                g("majority"),
                g("single"),
                g("none")
            ),
            t.dim,
        )));
    }
    if let Some(a) = v.get("agreement").filter(|a| !a.is_null()) {
        lines.push(Line::from(""));
        lines.push(heading(t, "Agreement"));
        for l in grading::agreement_lines(a) {
            lines.push(Line::from(l));
        }
    }
    (lines, has_hmi_plot)
}

/// The paper's Figure 3: charts sorted by HMI, originals and manipulated with their own
/// glyphs (not only colours, so it reads in mono), the model's prediction for each chart
/// in the same column. A point and a prediction in one cell get a glyph of their own, so
/// no point hides under another.
fn draw_hmi_plot(state: &State, f: &mut Frame, area: Rect, v: &Value) {
    let t = &state.theme;
    let Some(charts) = v["benchmarks"]["chartom"]["charts"].as_array() else {
        return;
    };
    // One model's predictions, named in the title: the first (by name) that has any.
    let model: Option<String> = charts
        .iter()
        .filter_map(|c| c["predictions"].as_object())
        .flat_map(|o| o.keys())
        .min()
        .cloned();
    let mut pts: Vec<(f64, bool, Option<f64>)> = charts
        .iter()
        .filter_map(|c| {
            let h = c["hmi"].as_f64().or_else(|| c["hmi_recomputed"].as_f64())?;
            let id = c["id"].as_str().unwrap_or("");
            let manip = c["version"]
                .as_str()
                .map(|s| s == "manipulated")
                .unwrap_or(id.ends_with("_2"));
            let pred = c["prediction"]
                .as_f64()
                .or_else(|| c["predictions"][model.as_deref()?].as_f64());
            Some((h, manip, pred))
        })
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let b = block(
        t,
        Span::styled(
            match &model {
                Some(m) => format!(
                    " HMI ranking: charts sorted by HMI, with {}'s MIND prediction ",
                    one_line(m)
                ),
                None => " HMI ranking: charts sorted by HMI ".to_string(),
            },
            t.title,
        ),
    );
    let inner = b.inner(area);
    f.render_widget(b, area);
    let gutter = 4u16;
    if inner.height < 4 || inner.width <= gutter + 2 {
        return;
    }
    let pw = (inner.width - gutter) as usize;
    let ph = (inner.height - 2) as usize;
    // per cell: (originals, manipulated, predictions)
    let mut grid = vec![vec![(0u32, 0u32, 0u32); pw]; ph];
    let n = pts.len();
    let row_of = |y: f64| ((1.0 - y.clamp(0.0, 1.0)) * (ph - 1) as f64).round() as usize;
    for (k, (h, manip, pred)) in pts.iter().enumerate() {
        let col = if n > 1 {
            k * (pw - 1) / (n - 1)
        } else {
            pw / 2
        };
        let cell = &mut grid[row_of(*h)][col];
        if *manip {
            cell.1 += 1;
        } else {
            cell.0 += 1;
        }
        if let Some(p) = pred {
            grid[row_of(*p)][col].2 += 1;
        }
    }
    const GLYPHS: [(char, &str); 6] = [
        ('o', "original"),
        ('x', "manipulated"),
        ('+', "model's prediction"),
        ('⊕', "original + prediction"),
        ('⊗', "manipulated + prediction"),
        ('*', "several"),
    ];
    let style_of = |g: char| match g {
        'o' => t.bar,
        'x' => t.bad,
        '+' => t.accent,
        _ => t.warn,
    };
    let mut used = [false; 6];
    let mut lines = Vec::new();
    for (r, row) in grid.iter().enumerate() {
        let label = if r == 0 {
            "1.0"
        } else if r == ph - 1 {
            "0  "
        } else if r == (ph - 1) / 2 {
            "0.5"
        } else {
            "   "
        };
        let mut spans = vec![Span::styled(format!("{label}┤"), t.dim)];
        for &(o, m, p) in row {
            let g = match (o, m, p) {
                (0, 0, 0) => None,
                (1, 0, 0) => Some(0),
                (0, 1, 0) => Some(1),
                (0, 0, _) => Some(2),
                (1, 0, _) => Some(3),
                (0, 1, _) => Some(4),
                _ => Some(5),
            };
            match g {
                None => spans.push(Span::raw(" ")),
                Some(i) => {
                    used[i] = true;
                    spans.push(Span::styled(GLYPHS[i].0.to_string(), style_of(GLYPHS[i].0)));
                }
            }
        }
        lines.push(Line::from(spans));
    }
    let last = format!("{n}");
    let axis = format!(
        "    1{}{last}",
        " ".repeat(pw.saturating_sub(1 + last.len()))
    );
    let mid = "rank";
    let mut axis: Vec<char> = axis.chars().collect();
    let at = gutter as usize + pw / 2 - mid.len() / 2;
    for (i, c) in mid.chars().enumerate() {
        if let Some(x) = axis.get_mut(at + i) {
            *x = c;
        }
    }
    lines.push(Line::from(Span::styled(
        axis.into_iter().collect::<String>(),
        t.dim,
    )));
    let mut legend = vec![Span::styled("    ", t.dim)];
    for (i, (g, label)) in GLYPHS.iter().enumerate() {
        if i < 3 || used[i] {
            legend.push(Span::styled(g.to_string(), style_of(*g)));
            legend.push(Span::styled(format!(" {label}  "), t.dim));
        }
    }
    lines.push(Line::from(legend));
    f.render_widget(Paragraph::new(lines), inner);
}

/// Convenience for tests: render the state into a string.
pub fn render_to_string(state: &State, w: u16, h: u16) -> String {
    let backend = ratatui::backend::TestBackend::new(w, h);
    let mut term = ratatui::Terminal::new(backend).expect("test terminal");
    term.draw(|f| draw(state, f)).expect("draw");
    let buf = term.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..h {
        let mut line = String::new();
        for x in 0..w {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
