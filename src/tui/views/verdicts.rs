//! The verdicts under an item: every reviewer's summary line and note, and the
//! adjudication queue's side-by-side table.

use ratatui::text::{Line, Span};

use crate::model::{Item, ResponseGrades, Review};
use crate::tui::app::State;
use crate::tui::keymap::{Action, Context};
use crate::tui::text::{one_line, truncate};
use crate::tui::views;
use crate::tui::views::common::{heading, shown_fix};

/// Which part of a review to show: everything, the item-level verdict only (status,
/// reason, free verdict), or one model's grades.
#[derive(Clone, Copy)]
pub(crate) enum Scope<'a> {
    All,
    Item,
    Model(&'a str),
}

pub(crate) fn grades_summary(g: &ResponseGrades) -> Vec<String> {
    let mut gp = Vec::new();
    if let Some(j) = g.chartom.justification {
        gp.push(j.name().to_string());
    }
    if let Some(b) = &g.chartom_qa.bonus {
        gp.push(format!("bonus {b:?}"));
    }
    match &g.chartom_qa.penalty {
        Some(Some(p)) => gp.push(format!("penalty “{}”", truncate(p, 30))),
        Some(None) => gp.push("no penalty".into()),
        None => {}
    }
    if let Some(c) = g.chartom.fact_correct {
        gp.push(format!("FACT {}", if c { "correct" } else { "wrong" }));
    }
    if let Some(c) = g.cvqa.original_correct {
        gp.push(format!("orig {}", if c { "✔" } else { "✘" }));
    }
    if let Some(c) = g.cvqa.counterfactual_correct {
        gp.push(format!("cf {}", if c { "✔" } else { "✘" }));
    }
    gp
}

pub(crate) fn review_summary(item: &Item, r: &Review, scope: Scope) -> String {
    let mut parts = Vec::new();
    if !matches!(scope, Scope::Model(_)) {
        if let Some(s) = r.cvqa.status {
            parts.push(format!("{s:?}").to_lowercase());
        }
        if let Some(reason) = r.cvqa.reason {
            parts.push(reason.name().to_string());
        }
        if let Some(t) = &r.cvqa.reason_text {
            parts.push(format!("“{t}”"));
        }
        // a C-VQA fix: the corrected counterfactual pair (docs/format.md)
        if let Some(q) = &r.cvqa.fixed_question {
            parts.push(format!("fixed Q {}", shown_fix(q, true)));
        }
        if let Some(a) = &r.cvqa.fixed_answer {
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
pub(crate) fn comparison_lines(
    state: &State,
    item: &Item,
    reviews: &[(String, Review)],
) -> Vec<Line<'static>> {
    let t = &state.theme;
    let (names, rows) = comparison(item, reviews);
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

pub(crate) fn review_lines(state: &State, item: &Item, scope: Scope) -> Vec<Line<'static>> {
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
    if !state.hiding_others() && !matches!(scope, Scope::Model(_)) {
        out.extend(views::view_of(item.benchmark()).verdicts_footer(state));
    }
    out
}

/// Every reviewer's grades of an item side by side, for the adjudication queue: a header
/// (the reviewers' names) and one row per field any of them set, item-level fields first,
/// then each response's grades (`model · field`). Empty cells are "·".
pub fn comparison(
    item: &Item,
    reviews: &[(String, Review)],
) -> (Vec<String>, Vec<(String, Vec<String>)>) {
    let n = item.responses.len();
    let names: Vec<String> = reviews.iter().map(|(name, _)| name.clone()).collect();
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    let mut row = |label: String, cells: Vec<Option<String>>| {
        if cells.iter().any(Option::is_some) {
            rows.push((
                label,
                cells
                    .into_iter()
                    .map(|c| c.unwrap_or_else(|| "·".into()))
                    .collect(),
            ));
        }
    };
    let each = |f: &dyn Fn(&Review) -> Option<String>| -> Vec<Option<String>> {
        reviews.iter().map(|(_, r)| f(r)).collect()
    };
    row(
        "status".into(),
        each(&|r| r.cvqa.status.map(|s| s.name().to_string())),
    );
    row(
        "reason".into(),
        each(&|r| r.cvqa.reason.map(|x| x.name().to_string())),
    );
    row("reason text".into(), each(&|r| r.cvqa.reason_text.clone()));
    row(
        "fixed question".into(),
        each(&|r| r.cvqa.fixed_question.clone()),
    );
    row(
        "fixed answer".into(),
        each(&|r| r.cvqa.fixed_answer.clone()),
    );
    row("verdict".into(), each(&|r| r.verdict.clone()));
    for resp in &item.responses {
        let m = resp.model.as_str();
        let g = |r: &Review| r.for_model(m, n).cloned();
        let yn = |b: Option<bool>| b.map(|b| if b { "correct" } else { "wrong" }.to_string());
        row(
            format!("{m} · justification"),
            each(&|r| {
                g(r).and_then(|g| g.chartom.justification)
                    .map(|j| j.name().to_string())
            }),
        );
        row(
            format!("{m} · FACT"),
            each(&|r| yn(g(r).and_then(|g| g.chartom.fact_correct))),
        );
        row(
            format!("{m} · bonus"),
            each(&|r| {
                g(r).and_then(|g| g.chartom_qa.bonus)
                    .map(|b| format!("{b:?}"))
            }),
        );
        row(
            format!("{m} · penalty"),
            each(&|r| {
                g(r).and_then(|g| g.chartom_qa.penalty)
                    .map(|p| p.unwrap_or_else(|| "none".into()))
            }),
        );
        row(
            format!("{m} · original"),
            each(&|r| yn(g(r).and_then(|g| g.cvqa.original_correct))),
        );
        row(
            format!("{m} · counterfactual"),
            each(&|r| yn(g(r).and_then(|g| g.cvqa.counterfactual_correct))),
        );
    }
    row("note".into(), each(&|r| r.note.clone()));
    row(
        "final".into(),
        each(&|r| (r.is_final == Some(true)).then(|| "FINAL".to_string())),
    );
    (names, rows)
}
