//! The model line (the responses as tabs) and my grade line, pinned at the top of a pane.

use ratatui::text::{Line, Span};

use crate::bench::Item;
use crate::tui::app::State;
use crate::tui::keymap::{Action, Context};
use crate::tui::text::{one_line, truncate};
use crate::tui::views;

/// What my grade line says when I have not graded.
pub const NOT_GRADED: &str = "not graded";

/// My grade line before a question is verified (a view whose verdict is on the question).
pub(crate) const NOT_VERIFIED: &str = "not verified";

pub(crate) fn model_tabs(state: &State, item: &Item) -> Line<'static> {
    let t = &state.theme;
    let mut spans = vec![Span::styled("Responses: ", t.dim)];
    // Per-model progress where grades are per response: ✔ on the models I am done with,
    // · on those still to grade, no mark on those that require nothing.
    let per_model = views::view_of(item.benchmark()).grades_per_model() && item.responses.len() > 1;
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

/// One line saying what I have recorded on the current item, for which response, and
/// whether it is on disk: pinned at the top of the item pane, so a grade is confirmed
/// where the reviewer is looking.
/// `column`: the line heads a side-by-side column, which names the model already.
pub(crate) fn grade_line(
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
    // A verdict on the question, not on a response (`View::grade_line_names_model`): the
    // overrides name their model
    let per_response = views::view_of(item.benchmark()).grade_line_names_model();
    if let Some(m) = model.filter(|_| n > 1 && !column && per_response) {
        spans.push(Span::styled(format!(" of {}", one_line(m)), t.title));
    }
    let view = views::view_of(item.benchmark());
    if let Some(p) = view.graded_part(state, item) {
        spans.push(Span::styled(format!(" {}", one_line(&p)), t.title));
    }
    spans.push(Span::styled(": ", t.title));
    let ungraded = NOT_GRADED.to_string();
    let mut parts = view.grade_parts_in(state, item, mine.as_ref(), g.as_ref(), model, column);
    if mine.as_ref().is_some_and(|r| r.is_final == Some(true)) {
        parts.push("FINAL".into());
    }
    if view.notes_on_grade_line() && mine.as_ref().is_some_and(|r| r.note.is_some()) {
        parts.push("note".into());
    }
    let graded = !parts
        .first()
        .is_some_and(|p| *p == ungraded || p == NOT_VERIFIED);
    // a line about one response's grades is marked only when that response has any (or
    // the item-wide final mark or note it shows)
    let per_model = model.is_some() && view.grades_per_model();
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
