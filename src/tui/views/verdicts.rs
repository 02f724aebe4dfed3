//! The verdicts under an item: every reviewer's summary line and note, and the
//! adjudication queue's side-by-side table.

use indexmap::IndexMap;
use ratatui::text::{Line, Span};

use crate::bench::{Item, ResponseGrades, Review};
use crate::tui::app::State;
use crate::tui::keymap::{Action, Context};
use crate::tui::text::{one_line, truncate};
use crate::tui::theme::Theme;
use crate::tui::views;
use crate::tui::views::common::heading;

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

/// One field of a review, as the verdicts show it: its row in the adjudication table
/// (`label`, and its `cell` for one reviewer) and its words on a reviewer's line. Each
/// benchmark's view describes its own fields (`View::review_fields`, `View::grade_fields`;
/// `views::GRADE_FIELDS_LINE` for a reviewer's line).
pub struct Field {
    pub label: &'static str,
    /// None: not set (the table shows "·").
    pub cell: Option<String>,
    /// None: not set (the line leaves it out).
    pub line: Option<String>,
}

/// A right-or-wrong grade in words.
pub(crate) fn correct_or_wrong(b: Option<bool>) -> Option<String> {
    b.map(|b| if b { "correct" } else { "wrong" }.to_string())
}

pub(crate) fn grades_summary(g: &ResponseGrades) -> Vec<String> {
    views::GRADE_FIELDS_LINE
        .iter()
        .filter_map(|f| f(g).line)
        .chain(answers_line(&g.answers))
        .collect()
}

/// A question's answer in a cell: a label or a text as it is, a checklist's points as a
/// list, a rating as its number.
fn answer_cell(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(a) => {
            let each: Vec<String> = a.iter().map(answer_cell).collect();
            format!("[{}]", each.join(", "))
        }
        other => other.to_string(),
    }
}

/// The answers (a declared benchmark's questions) on a reviewer's line: `name answer`.
fn answers_line(answers: &IndexMap<String, serde_json::Value>) -> Vec<String> {
    answers
        .iter()
        .map(|(q, v)| format!("{q} {}", answer_cell(v)))
        .collect()
}

/// The questions answered in any of `answers`, in the order they first come.
fn questions<'a>(
    answers: impl Iterator<Item = &'a IndexMap<String, serde_json::Value>>,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for a in answers {
        for q in a.keys() {
            if !out.contains(q) {
                out.push(q.clone());
            }
        }
    }
    out
}

pub(crate) fn review_summary(item: &Item, r: &Review, scope: Scope) -> String {
    let mut parts = Vec::new();
    let n = item.responses.len();
    if !matches!(scope, Scope::Model(_)) {
        parts.extend(views::review_fields().filter_map(|f| f(r).line));
        if let Some(v) = &r.verdict {
            parts.push(v.clone());
        }
        // the item's questions' answers (with one response they are its grades')
        if n != 1 {
            parts.extend(answers_line(&r.grades.answers));
        }
    }
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
    let (label_w, cols) = column_widths(&names, &rows, w);
    let mut out = vec![heading(
        t,
        "Adjudication: every reviewer's grades side by side",
    )];
    if table_width(label_w, &cols) > w {
        stacked_rows(t, &names, rows, w, &mut out);
    } else {
        table_rows(t, &names, rows, label_w, &cols, &mut out);
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

/// A text's width on one line.
fn cell_len(s: &str) -> usize {
    one_line(s).chars().count()
}

/// The table's width with a label column of `label_w` and these columns.
fn table_width(label_w: usize, cols: &[usize]) -> usize {
    1 + label_w + 1 + cols.iter().map(|c| c + 1).sum::<usize>()
}

/// The label column's width and each reviewer's column's, fitted to `w` where they can
/// be: the labels first, then the widest column, a character at a time, down to
/// [`MIN_CELL`].
fn column_widths(
    names: &[String],
    rows: &[(String, Vec<String>)],
    w: usize,
) -> (usize, Vec<usize>) {
    let label_nat = rows
        .iter()
        .map(|(l, _)| cell_len(l))
        .max()
        .unwrap_or(0)
        .min(40);
    let mut cols: Vec<usize> = names
        .iter()
        .enumerate()
        .map(|(k, n)| {
            rows.iter()
                .map(|(_, c)| cell_len(&c[k]))
                .chain([cell_len(n)])
                .max()
                .unwrap_or(1)
                .min(MAX_CELL)
        })
        .collect();
    let mut label_w = label_nat;
    if table_width(label_w, &cols) > w {
        label_w = label_nat.min((w / 4).max(12));
        // the widest column gives way first, one character at a time
        while table_width(label_w, &cols) > w {
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
    (label_w, cols)
}

/// Too narrow for a column each: under each field, one line per reviewer.
fn stacked_rows(
    t: &Theme,
    names: &[String],
    rows: Vec<(String, Vec<String>)>,
    w: usize,
    out: &mut Vec<Line<'static>>,
) {
    let name_w = names
        .iter()
        .map(|n| cell_len(n))
        .max()
        .unwrap_or(0)
        .min(w / 3);
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
}

/// A column per reviewer under a header of their names; a field whose cells differ is
/// in the warning colour.
fn table_rows(
    t: &Theme,
    names: &[String],
    rows: Vec<(String, Vec<String>)>,
    label_w: usize,
    cols: &[usize],
    out: &mut Vec<Line<'static>>,
) {
    let label = |l: &str, lw: usize| format!(" {:<lw$} ", truncate(&one_line(l), lw));
    let cell = |s: &str, cw: usize| format!("{:<cw$} ", truncate(&one_line(s), cw));
    let mut head = vec![Span::raw(label("", label_w))];
    head.extend(
        names
            .iter()
            .zip(cols)
            .map(|(n, &cw)| Span::styled(cell(n, cw), t.title)),
    );
    out.push(Line::from(head));
    for (l, cells) in rows {
        let differ = cells.iter().any(|c| *c != cells[0]);
        let mut spans = vec![Span::styled(label(&l, label_w), t.dim)];
        spans.extend(
            cells
                .iter()
                .zip(cols)
                .map(|(c, &cw)| Span::styled(cell(c, cw), if differ { t.warn } else { t.text })),
        );
        out.push(Line::from(spans));
    }
}

/// The verdicts' lines for a pane `width` columns wide inside (the adjudication table is
/// made to fit it).
pub(crate) fn review_lines(
    state: &State,
    item: &Item,
    scope: Scope,
    width: u16,
) -> Vec<Line<'static>> {
    let mut out = vec![Line::from("")];
    if !matches!(scope, Scope::Model(_)) {
        let runs = run_lines(state, width);
        if !runs.is_empty() {
            out.extend(runs);
            out.push(Line::from(""));
        }
        let table = queue_table(state, item, width);
        if !table.is_empty() {
            out.extend(table);
            out.push(Line::from(""));
        }
    }
    out.extend(verdict_lines(state, item, scope));
    out
}

/// A folder's set: the same sample in every model's or run's file, one line each (this
/// one marked), with the model's answer, right or wrong, and my verdict; for a pane
/// `width` columns wide inside. None outside a set or for a sample in one file only.
pub(crate) fn run_lines(state: &State, width: u16) -> Vec<Line<'static>> {
    let rows = state.twin_rows();
    if rows.is_empty() {
        return Vec::new();
    }
    let t = &state.theme;
    let mut out = vec![Line::from(vec![
        heading(t, "This sample in each run").spans.remove(0),
        Span::styled(
            format!(
                "  ({} goes to the next)",
                state.keymap.hint(Context::Global, Action::NextRun)
            ),
            t.dim,
        ),
    ])];
    let w = width as usize;
    let label_w = rows
        .iter()
        .map(|r| r.label.as_deref().map_or(0, |l| l.chars().count()))
        .max()
        .unwrap_or(0)
        .min(w / 2);
    for r in &rows {
        let here = r.index == state.pos;
        let mark = if here { "▸ " } else { "  " };
        let label = truncate(&one_line(r.label.as_deref().unwrap_or("")), label_w);
        let (score, style) = match r.wrong {
            Some(true) => ("✗ wrong", t.bad),
            Some(false) => ("✓ right", t.good),
            None => ("", t.text),
        };
        let mine = r
            .mine
            .as_ref()
            .map(|m| review_summary(&r.item, m, Scope::Item))
            .filter(|s| !s.is_empty())
            .map(|s| format!("  mine: {s}"))
            .unwrap_or_default();
        let fixed = 2 + label_w + 2 + 8 + mine.chars().count() + 2;
        let answer = truncate(&one_line(r.answer.trim()), w.saturating_sub(fixed).max(8));
        let text_style = if here { t.accent } else { t.text };
        out.push(Line::from(vec![
            Span::styled(format!("{mark}{label:<label_w$}  "), text_style),
            Span::styled(format!("{score:<7} "), style),
            Span::styled(answer, text_style),
            Span::styled(mine, t.dim),
        ]));
    }
    out
}

/// In the adjudication queue, every reviewer's grades side by side (`comparison_lines`)
/// for a pane `width` columns wide inside; elsewhere none.
pub(crate) fn queue_table(state: &State, item: &Item, width: u16) -> Vec<Line<'static>> {
    let reviews = state.reviews();
    if !state.queue || reviews.is_empty() {
        return vec![];
    }
    comparison_lines(state, item, &reviews, width)
}

/// The verdicts' lines under their heading (each reviewer's, then the view's footer).
pub(crate) fn verdict_lines(state: &State, item: &Item, scope: Scope) -> Vec<Line<'static>> {
    let t = &state.theme;
    let mut out = Vec::new();
    let reviews = state.reviews();
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
    for f in views::review_fields() {
        row(f(&Review::default()).label.into(), each(&|r| f(r).cell));
    }
    row("verdict".into(), each(&|r| r.verdict.clone()));
    if n != 1 {
        for q in questions(reviews.iter().map(|(_, r)| &r.grades.answers)) {
            row(
                q.clone(),
                each(&|r| r.grades.answers.get(&q).map(answer_cell)),
            );
        }
    }
    for resp in &item.responses {
        let m = resp.model.as_str();
        for f in views::grade_fields() {
            let label = f(&ResponseGrades::default()).label;
            row(
                format!("{m} · {label}"),
                each(&|r| r.for_model(m, n).and_then(|g| f(g).cell)),
            );
        }
        let graded = reviews.iter().filter_map(|(_, r)| r.for_model(m, n));
        for q in questions(graded.map(|g| &g.answers)) {
            row(
                format!("{m} · {q}"),
                each(&|r| {
                    r.for_model(m, n)
                        .and_then(|g| g.answers.get(&q))
                        .map(answer_cell)
                }),
            );
        }
    }
    row("note".into(), each(&|r| r.note.clone()));
    row(
        "final".into(),
        each(&|r| (r.is_final == Some(true)).then(|| "FINAL".to_string())),
    );
    (names, rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::views::common::shown_fix;

    /// A review with every benchmark's fields (a stray field shows too): each
    /// benchmark's view describes its own, and the line and the table keep their order.
    #[test]
    fn every_benchmarks_fields_in_the_line_and_the_table_in_order() {
        let item = Item::parse(
            r#"{"id":"x","benchmark":"cvqa","responses":[{"model":"m"}],"reviews":{"al":{"status":"fix","reason":"other","reason_text":"why","fixed_question":"Q2","fixed_answer":"A2","verdict":"pass","justification":"misses","fact_correct":true,"bonus":[1],"penalty":"bad","original_correct":true,"counterfactual_correct":false}}}"#,
        )
        .unwrap();
        let r = item.reviews["al"].clone();
        let line = review_summary(&item, &r, Scope::All);
        let want = format!(
            "fix · other · “why” · fixed question {} · fixed answer {} · pass · misses, bonus [1], penalty “bad”, FACT correct, orig ✔, cf ✘",
            shown_fix("Q2", true),
            shown_fix("A2", true)
        );
        assert_eq!(line, want);
        let (names, rows) = comparison(&item, &[("al".into(), r)]);
        assert_eq!(names, ["al"]);
        let rows: Vec<String> = rows
            .into_iter()
            .map(|(l, c)| format!("{l}={}", c.join("|")))
            .collect();
        assert_eq!(
            rows,
            [
                "status=fix",
                "reason=other",
                "reason text=why",
                "fixed question=Q2",
                "fixed answer=A2",
                "verdict=pass",
                "m · justification=misses",
                "m · FACT=correct",
                "m · bonus=[1]",
                "m · penalty=bad",
                "m · original=correct",
                "m · counterfactual=wrong",
            ]
        );
    }
}
