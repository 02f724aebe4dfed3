//! Rendering: `draw(&State, &mut Frame)`. Pure with respect to the state: it reads, never
//! changes. Every text from the file goes through `text::sanitize`.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::symbols;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Borders, Chart, Clear, Dataset, GraphType, Paragraph, Wrap};
use serde_json::Value;

use crate::model::{Benchmark, CvqaReason, Item, JudgeBonus, Response, Review};
use crate::store::Store;
use crate::tui::app::{CONTEXT_LENGTHS, FilterOption, ImageSlot, Level, Mode, SaveState, State};
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
                | Mode::Fix(_)
                | Mode::Jump(_)
        )
    {
        return None;
    }
    state.item()?.image.as_ref()?;
    let (img, _) = split_body(Rect::new(0, 0, w, h.saturating_sub(3)), true, state.zoom);
    img.map(|r| (r.width.saturating_sub(2), r.height.saturating_sub(2)))
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
        Mode::Jump(e) => draw_input(state, f, area, "Jump to item number or id", e, None),
        Mode::Note(e) => draw_input(
            state,
            f,
            area,
            "Note (Enter saves, Alt-Enter new line, Esc cancels)",
            e,
            None,
        ),
        Mode::RejectOther(e) => draw_input(
            state,
            f,
            area,
            "Reject, other: why, in a few words (Enter saves, Esc cancels)",
            e,
            None,
        ),
        Mode::Penalty(e) => draw_input(
            state,
            f,
            area,
            "Penalty: what the response gets wrong (empty = none; Enter saves, Esc cancels)",
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
                "Fix the counterfactual question / answer (Tab switches, Enter saves)",
                &fx.question,
                Some((q_title, a_title, &fx.answer, fx.on_answer)),
            );
        }
        Mode::Reject { selected } => draw_reject(state, f, area, *selected),
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
    let pace = match state.pace() {
        Some((per_min, left)) => {
            let left = left
                .map(|m| format!(", {} left", fmt_minutes(m)))
                .unwrap_or_default();
            format!(" · {per_min:.1}/min{left}")
        }
        None => String::new(),
    };
    let any_s = any
        .map(|a| format!(" · anyone {a}"))
        .unwrap_or_else(|| " · indexing…".into());
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
        Line::from(Span::styled(one_line(msg), st))
    } else {
        hints(state)
    };
    f.render_widget(Paragraph::new(second), rows[1]);
}

fn hints(state: &State) -> Line<'static> {
    let t = &state.theme;
    let ctx = state.context();
    let km = &state.keymap;
    let mut parts: Vec<(String, String)> = Vec::new();
    let add = |parts: &mut Vec<(String, String)>, a: Action, label: &str| {
        parts.push((km.hint(ctx, a), label.to_string()))
    };
    match &state.mode {
        Mode::Help { .. } | Mode::Summary { .. } => {
            add(&mut parts, Action::Help, "close");
            parts.push(("j/k".into(), "scroll".into()));
        }
        Mode::Normal => {
            match ctx {
                Context::Cvqa => {
                    add(&mut parts, Action::Accept, "accept");
                    add(&mut parts, Action::Fix, "fix");
                    add(&mut parts, Action::Reject, "reject");
                }
                Context::Chartom => {
                    add(&mut parts, Action::Identifies, "identifies");
                    add(&mut parts, Action::Partial, "partial");
                    add(&mut parts, Action::Misses, "misses");
                }
                Context::ChartomQa => {
                    parts.push(("1-9".into(), "bonus".into()));
                    add(&mut parts, Action::Penalty, "penalty");
                    add(&mut parts, Action::ContextLength, "context");
                }
                _ => {
                    add(&mut parts, Action::Pass, "pass");
                    add(&mut parts, Action::Fail, "fail");
                }
            }
            add(&mut parts, Action::Next, "next");
            add(&mut parts, Action::Prev, "prev");
            add(&mut parts, Action::NextUngraded, "ungraded");
            add(&mut parts, Action::Undo, "undo");
            add(&mut parts, Action::Search, "search");
            add(&mut parts, Action::Filter, "filter");
            add(&mut parts, Action::Help, "help");
            add(&mut parts, Action::Quit, "quit");
        }
        _ => {
            parts.push(("Enter".into(), "ok".into()));
            parts.push(("Esc".into(), "cancel".into()));
        }
    }
    let mut spans = Vec::new();
    for (k, l) in parts {
        spans.push(Span::styled(format!(" {k}"), t.title));
        spans.push(Span::styled(format!(" {l} "), t.dim));
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

fn draw_item(state: &State, f: &mut Frame, area: Rect) {
    let t = &state.theme;
    let Some(cur) = &state.current else {
        f.render_widget(
            Paragraph::new("This result set has no items.")
                .style(t.dim)
                .block(block(t, " empty ")),
            area,
        );
        return;
    };
    let item = match &cur.item {
        Ok(it) => it,
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
            f.render_widget(
                Paragraph::new(lines)
                    .wrap(Wrap { trim: false })
                    .scroll((state.scroll, 0))
                    .block(block(t, " unreadable item ")),
                area,
            );
            return;
        }
    };
    let (img_rect, text_rect) = split_body(area, item.image.is_some(), state.zoom);
    if let Some(r) = img_rect {
        draw_image(state, f, r, item);
    }
    if text_rect.height == 0 {
        return;
    }
    let mut text_rect = text_rect;
    let mut lines_override = None;
    if item.benchmark() == Benchmark::Cvqa && text_rect.width >= 70 {
        let (o, c) = cvqa_columns(state, item);
        let col_w = text_rect.width / 2 - 2;
        let h = wrapped_height(&o, col_w).max(wrapped_height(&c, col_w)) + 3;
        let h = h.min(text_rect.height * 3 / 5).max(4);
        let parts = Layout::vertical([Constraint::Length(h), Constraint::Min(3)]).split(text_rect);
        let title = Line::from(vec![
            Span::raw(" "),
            cvqa_title(state, item).spans[0].clone(),
            cvqa_title(state, item).spans[1].clone(),
            Span::raw(" "),
        ]);
        let b = block(t, title);
        let inner = b.inner(parts[0]);
        f.render_widget(b, parts[0]);
        let cols = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
            .spacing(1)
            .split(inner);
        f.render_widget(Paragraph::new(o).wrap(Wrap { trim: false }), cols[0]);
        f.render_widget(Paragraph::new(c).wrap(Wrap { trim: false }), cols[1]);
        text_rect = parts[1];
        lines_override = Some(Vec::new());
    }
    let lines = match item.benchmark() {
        _ if lines_override.is_some() => lines_override.take().unwrap_or_default(),
        Benchmark::Chartom => chartom_lines(state, item, text_rect.width),
        Benchmark::ChartomQa => chartom_qa_lines(state, item),
        Benchmark::Cvqa => cvqa_lines(state, item),
        Benchmark::Other => generic_lines(state, cur.raw.as_str()),
    };
    let side = state.side_by_side && item.responses.len() > 1 && text_rect.width >= 90;
    if side {
        let parts = Layout::vertical([Constraint::Percentage(45), Constraint::Percentage(55)])
            .split(text_rect);
        f.render_widget(
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .scroll((state.scroll, 0))
                .block(block(t, " item ")),
            parts[0],
        );
        let n = item.responses.len() as u32;
        let cols = Layout::horizontal((0..n).map(|_| Constraint::Ratio(1, n))).split(parts[1]);
        for (k, r) in item.responses.iter().enumerate() {
            let rl = response_lines(state, item, r);
            let title = Span::styled(
                format!(" {} ", one_line(&r.model)),
                if k == state.model {
                    t.selected
                } else {
                    t.title
                },
            );
            f.render_widget(
                Paragraph::new(rl)
                    .wrap(Wrap { trim: false })
                    .scroll((state.scroll, 0))
                    .block(block(t, title)),
                cols[k],
            );
        }
    } else {
        let mut all = lines;
        if let Some(r) = item.responses.get(state.model) {
            if !all.is_empty() {
                all.push(Line::from(""));
            }
            all.push(model_tabs(state, item));
            all.extend(response_lines(state, item, r));
        }
        all.extend(review_lines(state, item));
        let title = format!(" {} ", one_line(&state.display_id(state.pos)));
        f.render_widget(
            Paragraph::new(all)
                .wrap(Wrap { trim: false })
                .scroll((state.scroll, 0))
                .block(block(t, title)),
            text_rect,
        );
    }
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
    // Per-model progress where grades are per response: ✔ on the models I am done with.
    let per_model = matches!(item.benchmark(), Benchmark::Chartom | Benchmark::ChartomQa)
        && item.responses.len() > 1;
    let done = state.models_done();
    for (k, r) in item.responses.iter().enumerate() {
        let st = if k == state.model { t.selected } else { t.text };
        let mark = if !per_model {
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
    let mut out = vec![Line::from(vec![
        Span::styled(sanitize(item.book.as_deref().unwrap_or("?")), t.title),
        Span::styled(
            format!(
                " · {} · {}",
                sanitize(item.character.as_deref().unwrap_or("—")),
                sanitize(item.dimension.as_deref().unwrap_or("?"))
            ),
            t.text,
        ),
    ])];
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
    if !item.choices.is_empty() {
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

fn bonus_block(state: &State, item: &Item, r: &Response) -> Vec<Line<'static>> {
    let t = &state.theme;
    let mine = state.my_grades();
    let covered: Vec<u32> = mine
        .as_ref()
        .and_then(|g| g.bonus.clone())
        .unwrap_or_default();
    let hide = state.hiding_others();
    let judge = r.judge.as_ref().map(|j| j.bonus_list());
    let mut out = vec![heading(
        t,
        "Bonus points (digit toggles: covered by the response?)",
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
    if let Some((bc, bt)) = grading::running_bpc(state) {
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
                    Span::styled(sanitize(q), t.text),
                ]));
            }
            if let Some(a) = &r.fixed_answer {
                out.push(Line::from(vec![
                    Span::styled("Fixed answer: ", t.warn),
                    Span::styled(sanitize(a), t.text),
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

fn response_lines(state: &State, item: &Item, r: &Response) -> Vec<Line<'static>> {
    let t = &state.theme;
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
            spans.push(mark(t, g.effective));
            if g.overridden {
                spans.push(Span::styled(
                    format!("  (reviewer override; rule says {})", ok_word(g.auto)),
                    t.warn,
                ));
            }
            out.push(Line::from(spans));
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
            let grade = state
                .my_grades()
                .and_then(|g| g.justification)
                .map(|g| g.name())
                .unwrap_or("not graded");
            out.push(Line::from(vec![
                Span::styled("My grade: ", t.dim),
                Span::styled(grade.to_string(), t.accent),
                Span::styled(
                    "   1 identifies · 2 partial · 3 misses · x override FACT",
                    t.dim,
                ),
            ]));
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
            out.extend(bonus_block(state, item, r));
        }
        Benchmark::Cvqa => {
            for (label, raw, cf) in [
                ("original", r.original.as_deref(), false),
                ("counterfactual", r.counterfactual.as_deref(), true),
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
                    mark(t, Some(g.effective)),
                ];
                if g.overridden {
                    spans.push(Span::styled(
                        format!("  (override; rule says {})", ok_word(Some(g.auto))),
                        t.warn,
                    ));
                }
                out.push(Line::from(spans));
            }
        }
        Benchmark::Other => {}
    }
    out
}

fn ok_word(b: Option<bool>) -> &'static str {
    match b {
        Some(true) => "correct",
        Some(false) => "wrong",
        None => "ungradable",
    }
}

fn review_summary(item: &Item, r: &Review) -> String {
    let mut parts = Vec::new();
    if let Some(s) = r.status {
        parts.push(format!("{s:?}").to_lowercase());
    }
    if let Some(reason) = r.reason {
        parts.push(reason.name().to_string());
    }
    if let Some(t) = &r.reason_text {
        parts.push(format!("“{t}”"));
    }
    if let Some(v) = &r.verdict {
        parts.push(v.clone());
    }
    let n = item.responses.len();
    for resp in &item.responses {
        if let Some(g) = r.for_model(&resp.model, n) {
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
            if !gp.is_empty() {
                parts.push(if n > 1 {
                    format!("{}: {}", resp.model, gp.join(", "))
                } else {
                    gp.join(", ")
                });
            }
        }
    }
    if r.is_final == Some(true) {
        parts.push("FINAL".into());
    }
    if let Some(s) = r.seconds {
        parts.push(format!("{s:.0}s"));
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
    out.push(Line::from(Span::styled(
        format!(
            " grade the item, then {} marks your verdict as the final one",
            state.keymap.hint(Context::Global, Action::Adjudicate)
        ),
        t.dim,
    )));
    out
}

fn review_lines(state: &State, item: &Item) -> Vec<Line<'static>> {
    let t = &state.theme;
    let mut out = vec![Line::from("")];
    let reviews = state.reviews();
    if state.queue && !reviews.is_empty() {
        out.extend(comparison_lines(state, item, &reviews));
        out.push(Line::from(""));
    }
    out.push(heading(t, "Verdicts"));
    let pending = state.is_pending(state.pos);
    if reviews.is_empty() {
        out.push(Line::from(Span::styled(
            if state.hiding_others() {
                " (blind: others' verdicts hidden until you grade)"
            } else {
                " none yet"
            },
            t.dim,
        )));
    }
    for (name, r) in &reviews {
        let me = *name == state.reviewer;
        let mut spans = vec![
            Span::styled(
                format!(" {}{} ", one_line(name), if me { " (me)" } else { "" }),
                if me { t.accent } else { t.text },
            ),
            Span::styled(one_line(&review_summary(item, r)), t.text),
        ];
        if me && pending {
            spans.push(Span::styled("  … writing", t.warn));
        } else if me {
            spans.push(Span::styled("  ✔ recorded", t.good));
        }
        out.push(Line::from(spans));
        if let Some(n) = &r.note {
            out.push(Line::from(Span::styled(
                format!("   note: {}", one_line(n)),
                t.dim,
            )));
        }
    }
    if item.benchmark() == Benchmark::Cvqa && !state.hiding_others() {
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

fn generic_lines(state: &State, raw: &str) -> Vec<Line<'static>> {
    let t = &state.theme;
    let pretty = serde_json::from_str::<Value>(raw)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| raw.to_string());
    let mut out = vec![heading(
        t,
        "Item (unknown benchmark: 1 pass · 2 fail · 3 unsure · i note)",
    )];
    out.extend(text_lines(&truncate(&pretty, 50_000), t.text));
    out
}

// ----- overlays -----------------------------------------------------------------------

fn centered(area: Rect, w_pct: u16, h: u16) -> Rect {
    let w = (area.width * w_pct / 100).max(30).min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + area.height / 6,
        w,
        h,
    )
}

fn draw_input(
    state: &State,
    f: &mut Frame,
    area: Rect,
    title: &str,
    e: &crate::tui::edit::TextEdit,
    second: Option<(&str, &str, &crate::tui::edit::TextEdit, bool)>,
) {
    let t = &state.theme;
    let h = if second.is_some() { 10 } else { 7 };
    let r = centered(area, 80, h);
    f.render_widget(Clear, r);
    let b = block(t, Span::styled(format!(" {title} "), t.title));
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
        for (k, &i) in s.results.iter().enumerate().skip(start).take(avail) {
            let m = &meta[i];
            let st = if k == s.selected { t.selected } else { t.text };
            lines.push(Line::from(Span::styled(
                truncate(
                    &format!(" {:>6}  {}", i + 1, one_line(&m.search)),
                    inner.width as usize,
                ),
                st,
            )));
        }
    }
    f.render_widget(Paragraph::new(lines), inner);
}

/// What the reviewer sees while the background index is being built.
pub fn indexing_note(state: &State) -> String {
    let (done, total) = state.index_progress;
    match (done * 100).checked_div(total) {
        Some(pct) => format!("indexing the file… {}%", pct.min(100)),
        None => "indexing the file…".to_string(),
    }
}

fn draw_reject(state: &State, f: &mut Frame, area: Rect, selected: usize) {
    let t = &state.theme;
    let r = centered(area, 50, 9);
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
        Paragraph::new(lines).block(block(
            t,
            Span::styled(" Reject: why? (1-5 or ↑↓ Enter) ", t.title),
        )),
        r,
    );
}

fn draw_filter(state: &State, f: &mut Frame, area: Rect, selected: usize) {
    let t = &state.theme;
    let opts = state.filter_options();
    let h = (opts.len() as u16 + 3).min(area.height.saturating_sub(2));
    let r = centered(area, 60, h);
    f.render_widget(Clear, r);
    let count = state
        .visible
        .as_ref()
        .map(|v| v.len())
        .unwrap_or(state.len());
    let b = block(
        t,
        Span::styled(
            format!(" Filters · {count} items match · Enter toggles, X clears "),
            t.title,
        ),
    );
    let inner = b.inner(r);
    f.render_widget(b, r);
    let avail = inner.height as usize;
    let start = selected.saturating_sub(avail.saturating_sub(1));
    let lines: Vec<Line> = opts
        .iter()
        .enumerate()
        .skip(start)
        .take(avail)
        .map(|(k, o)| {
            let on = state.filter_active(o);
            let label = match o {
                FilterOption::Ungraded => "ungraded by me".to_string(),
                FilterOption::GradedByMe => "graded by me".into(),
                FilterOption::ModelWrong => "model wrong".into(),
                FilterOption::Disagreement => "disagreement (reviewers, or human vs judge)".into(),
                FilterOption::Benchmark(b) => format!("benchmark {}", b.name()),
                FilterOption::Category(c) => format!("category {}", one_line(c)),
                FilterOption::Model(m) => format!("model {}", one_line(m)),
                FilterOption::Reviewer(r) => format!("reviewed by {}", one_line(r)),
            };
            Line::from(Span::styled(
                format!(" [{}] {label}", if on { "x" } else { " " }),
                if k == selected {
                    t.selected
                } else if on {
                    t.accent
                } else {
                    t.text
                },
            ))
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}

fn draw_help(state: &State, f: &mut Frame, area: Rect, scroll: u16) {
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
            Span::styled(format!("  {keys:<16}"), t.accent),
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
            Span::styled(format!("  {k:<16}"), t.accent),
            Span::styled(d, t.text),
        ]));
    }
    f.render_widget(
        Paragraph::new(lines)
            .scroll((scroll, 0))
            .block(block(t, Span::styled(" Help ", t.title))),
        area,
    );
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
    let b = block(t, Span::styled(" Summary (s or Esc closes) ", t.title));
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
    let bw = (inner.width as usize).saturating_sub(40).clamp(5, 40);
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
                bar(&mv["fact_accuracy"], bw, t.bar),
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
                                bw,
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
                        bar(&dv["human"]["bpc"], bw / 2, t.bar),
                        Span::raw(format!("  judge {} ", pct(&dv["judge"]["bpc"]))),
                        bar(&dv["judge"]["bpc"], bw / 2, t.bar_other),
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
                            format!("    {:<15} n={:<5}", truncate(&one_line(k), 15), gv["n"]),
                            t.dim,
                        ),
                        Span::raw(format!("orig {} ", pct(&gv["original_accuracy"]))),
                        bar(&gv["original_accuracy"], bw / 2, t.bar),
                        Span::raw(format!("  cf {} ", pct(&gv["counterfactual_accuracy"]))),
                        bar(&gv["counterfactual_accuracy"], bw / 2, t.bar_other),
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
            lines.push(Line::from(format!(
                "  {:<18} {} reviewed",
                truncate(&one_line(name), 18),
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
    if has_hmi_plot && inner.height > 12 {
        let parts = Layout::vertical([
            Constraint::Min(4),
            Constraint::Length((inner.height / 2).max(10)),
        ])
        .split(inner);
        f.render_widget(Paragraph::new(lines).scroll((scroll, 0)), parts[0]);
        draw_hmi_plot(state, f, parts[1], v);
    } else {
        f.render_widget(Paragraph::new(lines).scroll((scroll, 0)), inner);
    }
}

/// The paper's Figure 3: charts sorted by HMI, originals and manipulated in two colours,
/// the model's predictions overlaid.
fn draw_hmi_plot(state: &State, f: &mut Frame, area: Rect, v: &Value) {
    let t = &state.theme;
    let Some(charts) = v["benchmarks"]["chartom"]["charts"].as_array() else {
        return;
    };
    let mut pts: Vec<(f64, bool, String, Option<f64>)> = charts
        .iter()
        .filter_map(|c| {
            let h = c["hmi"].as_f64().or_else(|| c["hmi_recomputed"].as_f64())?;
            let id = c["id"].as_str().unwrap_or("").to_string();
            let manip = c["version"]
                .as_str()
                .map(|s| s == "manipulated")
                .unwrap_or(id.ends_with("_2"));
            let pred = c["prediction"].as_f64().or_else(|| {
                c["predictions"]
                    .as_object()
                    .and_then(|o| o.values().next())
                    .and_then(Value::as_f64)
            });
            Some((h, manip, id, pred))
        })
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let orig: Vec<(f64, f64)> = pts
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.1)
        .map(|(k, p)| (k as f64 + 1.0, p.0))
        .collect();
    let man: Vec<(f64, f64)> = pts
        .iter()
        .enumerate()
        .filter(|(_, p)| p.1)
        .map(|(k, p)| (k as f64 + 1.0, p.0))
        .collect();
    let pred: Vec<(f64, f64)> = pts
        .iter()
        .enumerate()
        .filter_map(|(k, p)| p.3.map(|x| (k as f64 + 1.0, x)))
        .collect();
    let n = pts.len().max(1) as f64;
    let mut ds = vec![
        Dataset::default()
            .name("original")
            .marker(symbols::Marker::Dot)
            .graph_type(GraphType::Scatter)
            .style(t.bar)
            .data(&orig),
        Dataset::default()
            .name("manipulated")
            .marker(symbols::Marker::Dot)
            .graph_type(GraphType::Scatter)
            .style(t.bad)
            .data(&man),
    ];
    if !pred.is_empty() {
        ds.push(
            Dataset::default()
                .name("model")
                .marker(symbols::Marker::Braille)
                .graph_type(GraphType::Scatter)
                .style(t.accent)
                .data(&pred),
        );
    }
    let chart = Chart::new(ds)
        .block(block(t, Span::styled(" HMI ranking: charts sorted by HMI (● original, ● manipulated, model predictions) ", t.title)))
        .x_axis(Axis::default().title("rank").bounds([0.0, n + 1.0]).labels(vec![Line::from("1"), Line::from(format!("{}", pts.len()))]).style(t.dim))
        .y_axis(Axis::default().title("HMI").bounds([0.0, 1.0]).labels(vec![Line::from("0"), Line::from("0.5"), Line::from("1")]).style(t.dim));
    f.render_widget(chart, area);
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
