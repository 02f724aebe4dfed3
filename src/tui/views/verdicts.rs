//! The verdicts under an item: every reviewer's summary line and note, and the
//! adjudication queue's side-by-side table.

use ratatui::text::{Line, Span};

use crate::bench::{Item, ResponseGrades, Review};
use crate::tui::app::State;
use crate::tui::keymap::{Action, Context};
use crate::tui::text::{one_line, truncate};
use crate::tui::views;
use crate::tui::views::common::{heading, shown_fix};

/// The widest a column of the adjudication table grows.
const MAX_CELL: usize = 16;
/// The fewest characters a column of the adjudication table keeps (else one line per
/// reviewer).
const MIN_CELL: usize = 6;

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

/// The adjudication queue's table: one column per reviewer, one row per field, made to
/// fit `width` columns (the pane's inside): columns as wide as what they hold; when they
/// do not fit, the field names and the widest columns give way first (abbreviated with
/// `…`); when a column would keep fewer than [`MIN_CELL`] characters (many reviewers on
/// a narrow terminal), one line per reviewer under each field instead. Never wider than
/// `width`: a wrapped row would put one reviewer's verdict under another's name.
pub(crate) fn comparison_lines(
    state: &State,
    item: &Item,
    reviews: &[(String, Review)],
    width: u16,
) -> Vec<Line<'static>> {
    let t = &state.theme;
    let (names, rows) = comparison(item, reviews);
    let w = usize::from(width);
    let len = |s: &str| one_line(s).chars().count();
    let label_nat = rows.iter().map(|(l, _)| len(l)).max().unwrap_or(0).min(40);
    let mut cols: Vec<usize> = names
        .iter()
        .enumerate()
        .map(|(k, n)| {
            rows.iter()
                .map(|(_, c)| len(&c[k]))
                .chain([len(n)])
                .max()
                .unwrap_or(1)
                .min(MAX_CELL)
        })
        .collect();
    let need = |label_w: usize, cols: &[usize]| {
        1 + label_w + 1 + cols.iter().map(|c| c + 1).sum::<usize>()
    };
    let mut label_w = label_nat;
    if need(label_w, &cols) > w {
        label_w = label_nat.min((w / 4).max(12));
        // the widest column gives way first, one character at a time
        while need(label_w, &cols) > w {
            let (k, &widest) = cols
                .iter()
                .enumerate()
                .max_by_key(|(k, c)| (**c, std::cmp::Reverse(*k)))
                .expect("a table has reviewers");
            if widest <= MIN_CELL {
                break;
            }
            cols[k] -= 1;
        }
    }
    let mut out = vec![heading(
        t,
        "Adjudication: every reviewer's grades side by side",
    )];
    let label = |l: &str, lw: usize| format!(" {:<lw$} ", truncate(&one_line(l), lw));
    if need(label_w, &cols) > w {
        // too narrow for a column each: under each field, one line per reviewer
        let name_w = names.iter().map(|n| len(n)).max().unwrap_or(0).min(w / 3);
        for (l, cells) in rows {
            let differ = cells.iter().any(|c| *c != cells[0]);
            out.push(Line::from(Span::styled(
                format!(" {}", one_line(&l)),
                t.dim,
            )));
            for (n, c) in names.iter().zip(&cells) {
                out.push(Line::from(vec![
                    Span::styled(
                        format!("   {:<name_w$} ", truncate(&one_line(n), name_w)),
                        t.title,
                    ),
                    Span::styled(one_line(c), if differ { t.warn } else { t.text }),
                ]));
            }
        }
    } else {
        let cell = |s: &str, cw: usize| format!("{:<cw$} ", truncate(&one_line(s), cw));
        let mut head = vec![Span::raw(label("", label_w))];
        head.extend(
            names
                .iter()
                .zip(&cols)
                .map(|(n, &cw)| Span::styled(cell(n, cw), t.title)),
        );
        out.push(Line::from(head));
        for (l, cells) in rows {
            let differ = cells.iter().any(|c| *c != cells[0]);
            let mut spans = vec![Span::styled(label(&l, label_w), t.dim)];
            spans.extend(
                cells.iter().zip(&cols).map(|(c, &cw)| {
                    Span::styled(cell(c, cw), if differ { t.warn } else { t.text })
                }),
            );
            out.push(Line::from(spans));
        }
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

/// The verdicts' lines for a pane `width` columns wide inside (the adjudication table is
/// made to fit it).
pub(crate) fn review_lines(
    state: &State,
    item: &Item,
    scope: Scope,
    width: u16,
) -> Vec<Line<'static>> {
    let t = &state.theme;
    let mut out = vec![Line::from("")];
    let reviews = state.reviews();
    if state.queue && !reviews.is_empty() && !matches!(scope, Scope::Model(_)) {
        out.extend(comparison_lines(state, item, &reviews, width));
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
