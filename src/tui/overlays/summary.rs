//! The summary page: the figures of `verdict stats`, per benchmark, with the HMI plot.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use serde_json::Value;

use crate::tui::app::State;
use crate::tui::keymap::{Action, Context};
use crate::tui::overlays::page::max_scroll_of;
use crate::tui::overlays::summary_plot::draw_hmi_plot;
use crate::tui::text::{one_line, sanitize, truncate};
use crate::tui::views::common::{block, heading, scroll_indicator};

pub(crate) fn pct(v: &Value) -> String {
    v.as_f64()
        .map(|x| format!("{:5.1}%", x * 100.0))
        .unwrap_or_else(|| "    –".into())
}

pub(crate) fn bar(v: &Value, width: usize, style: Style) -> Span<'static> {
    let x = v.as_f64().unwrap_or(0.0).clamp(0.0, 1.0);
    Span::styled("█".repeat((x * width as f64).round() as usize), style)
}

pub fn draw(state: &State, f: &mut Frame, area: Rect, scroll: u16) {
    let t = &state.theme;
    let b = block(
        t,
        Span::styled(
            format!(
                " Summary ({} or {} closes) ",
                state.keymap.hint(Context::Global, Action::Summary),
                state.keymap.hint(Context::Summary, Action::Close)
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
pub(crate) fn summary_split(inner: Rect, has_hmi_plot: bool) -> (Rect, Option<Rect>) {
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

/// The summary's text, for an inner width of `width`; and whether there is an HMI plot.
pub(crate) fn summary_lines(state: &State, v: &Value, width: u16) -> (Vec<Line<'static>>, bool) {
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
                format!(
                    "  verification (the verdict that counts): {}",
                    parts.join(" · ")
                ),
                t.dim,
            )));
        }
    }
    // lm-eval samples: per filter, the harness's metric and the human-corrected one, and
    // the metrics a verdict does not change (a perplexity), with the harness's 4 decimals
    if let Some(filters) = benches["lm-eval"]["filters"].as_object() {
        let lm = &benches["lm-eval"];
        let four = |v: &Value| v.as_f64().map_or_else(|| "-".into(), |x| format!("{x:.4}"));
        lines.push(Line::from(""));
        let about: Vec<String> = ["task", "model"]
            .iter()
            .filter_map(|k| lm[*k].as_str().map(one_line))
            .collect();
        lines.push(heading(
            t,
            &format!(
                "lm-eval{} · harness vs human-corrected",
                if about.is_empty() {
                    String::new()
                } else {
                    format!(" · {}", about.join(" · "))
                }
            ),
        ));
        for (name, fv) in filters {
            let metric = fv["metric"].as_str();
            lines.push(Line::from(Span::styled(
                format!(
                    "  {} · {} · n={} · reviewed {}",
                    one_line(name),
                    one_line(metric.unwrap_or("no metric a verdict corrects")),
                    fv["samples"],
                    fv["reviewed"]
                ),
                t.accent,
            )));
            if let Some(metric) = metric {
                let harness = &fv["harness"][metric];
                lines.push(Line::from(vec![
                    Span::raw(format!("    harness {} ", four(harness))),
                    bar(harness, fit(40) / 2, t.bar_other),
                    Span::raw(format!("  corrected {} ", four(&fv["corrected"]))),
                    bar(&fv["corrected"], fit(40) / 2, t.bar),
                ]));
            }
            if let Some(others) = fv["harness"].as_object() {
                let parts: Vec<String> = others
                    .iter()
                    .filter(|(m, _)| Some(m.as_str()) != metric)
                    .map(|(m, v)| format!("{} {}", one_line(m), four(v)))
                    .collect();
                if !parts.is_empty() {
                    lines.push(Line::from(Span::styled(
                        format!("    {} (verdicts do not change these)", parts.join(" · ")),
                        t.dim,
                    )));
                }
            }
            if let Some(d) = fv["differs"].as_array().filter(|d| !d.is_empty()) {
                let parts: Vec<String> = d
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|m| format!("{} {}", one_line(m), four(&fv["reported"][m])))
                    .collect();
                lines.push(Line::from(Span::styled(
                    format!("    the run's results file says {}", parts.join(" · ")),
                    t.bad,
                )));
            }
        }
    }
    // Any benchmark whose figures carry a `summary` block (`title`, and `rows` of
    // `label`, `log`, `corrected`): the log's figure beside the human-corrected one.
    for (_, b) in benches.as_object().into_iter().flatten() {
        let Some(rows) = b["summary"]["rows"].as_array() else {
            continue;
        };
        let four = |v: &Value| v.as_f64().map_or_else(|| "-".into(), |x| format!("{x:.4}"));
        lines.push(Line::from(""));
        lines.push(heading(
            t,
            &one_line(b["summary"]["title"].as_str().unwrap_or_default()),
        ));
        for r in rows {
            lines.push(Line::from(Span::styled(
                format!("  {}", one_line(r["label"].as_str().unwrap_or_default())),
                t.accent,
            )));
            if r["corrected"].is_null() {
                lines.push(Line::from(Span::styled(
                    format!("    log {} (verdicts do not change it)", four(&r["log"])),
                    t.dim,
                )));
            } else {
                lines.push(Line::from(vec![
                    Span::raw(format!("    log {} ", four(&r["log"]))),
                    bar(&r["log"], fit(40) / 2, t.bar_other),
                    Span::raw(format!("  corrected {} ", four(&r["corrected"]))),
                    bar(&r["corrected"], fit(40) / 2, t.bar),
                ]));
            }
        }
        if let Some(n) = b["summary"]["note"].as_str() {
            lines.push(Line::from(Span::styled(
                format!("  {}", one_line(n)),
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
        let g = |k: &str| r.get(k).and_then(Value::as_u64).unwrap_or(0);
        lines.push(Line::from(Span::styled(
            format!(
                "  {}",
                crate::stats::resolution_text(g("final"), g("majority"), g("single"), g("none"))
            ),
            t.dim,
        )));
    }
    if let Some(a) = v.get("agreement").filter(|a| !a.is_null()) {
        lines.push(Line::from(""));
        lines.push(heading(t, "Agreement"));
        for l in crate::tui::summary::agreement_lines(a) {
            lines.push(Line::from(l));
        }
    }
    (lines, has_hmi_plot)
}
