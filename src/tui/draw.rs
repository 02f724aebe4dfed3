//! Rendering: `draw(&State, &mut Frame)`. Pure with respect to the state: it reads, never
//! changes. Every text from the file goes through `text::sanitize`.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use serde_json::Value;

use crate::model::CvqaReason;
use crate::store::Store;
use crate::tui::app::{Mode, State};
use crate::tui::grading;
use crate::tui::keymap::{Action, Context};
use crate::tui::text::{one_line, sanitize, truncate};
use crate::tui::views::common::{block, heading, scroll_indicator};
use crate::tui::views::footer::draw_footer;
use crate::tui::views::header::draw_header;
use crate::tui::views::item::{draw_item, side_by_side, split_body};
pub use crate::tui::views::item::{max_scroll, page_rows, side_window};
pub use crate::tui::views::status::hint_parts;

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
