//! The item, its responses and the reviews in panes: one column (a long text of the item
//! in a pane of its own beside it on a wide screen) or the responses side by side.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};

use super::{ASIDE_MIN, ItemPanes, Pane, side_window, wrapped_height};
use crate::bench::Item;
use crate::tui::app::State;
use crate::tui::keymap::{Action, Context};
use crate::tui::text::{one_line, truncate};
use crate::tui::views;
use crate::tui::views::model_line::{grade_line, model_tabs};
use crate::tui::views::verdicts::{Scope, queue_table, review_lines, run_lines, verdict_lines};

/// Side by side: the item (and the reviews of it) in a pane on top, each response in a
/// column of its own below.
pub(super) fn side_by_side_panes<'a>(
    state: &State,
    view: &dyn views::View,
    item: &'a Item,
    main: Vec<Line<'a>>,
    text_rect: Rect,
    out: &mut ItemPanes<'a>,
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
        guide: None,
        pinned: None,
        lines: item_lines,
        target: None,
        response: None,
        aside: false,
        footer: vec![],
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
            guide: None,
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
            footer: vec![],
        });
    }
}

/// One column: the item, the response shown and the reviews in one pane (a long text of
/// the item in a pane beside it on a wide screen).
pub(super) fn one_column_panes<'a>(
    state: &State,
    view: &dyn views::View,
    item: &'a Item,
    main: Vec<Line<'a>>,
    text_rect: Rect,
    out: &mut ItemPanes<'a>,
) {
    let mut all = main;
    let mut target = match view.target(state, item) {
        views::Target::Top => None,
        views::Target::ItemLine(k) => Some(k.min(all.len())),
        views::Target::Response => None,
    };
    let text_rect = aside_pane(state, view, item, &mut all, &mut target, text_rect, out);
    let mut response = selected_response(state, view, item, &mut all, &mut target);
    let model = item.responses.get(state.model).map(|r| r.model.as_str());
    let grade = grade_line(state, item, model, false, text_rect.width.saturating_sub(2));
    let width = text_rect.width.saturating_sub(2);
    let mut reviews = review_lines(state, item, Scope::All, width);
    // In the adjudication queue the reviewers' table stays in view under the text (which
    // response they disagree on, and how), when the text does not fit with it; else the
    // view's checklist does.
    let table = queue_table(state, item, width);
    let whole = crate::tui::wrap::rows(&all, width) + crate::tui::wrap::rows(&reviews, width) + 3;
    let table_fits = crate::tui::wrap::rows(&table, width) + 3 + usize::from(super::FOOTER_LEAVES)
        <= usize::from(text_rect.height);
    // A folder's set: the sample's runs likewise stay in view under the text.
    let runs = run_lines(state, width);
    let runs_fit = !runs.is_empty()
        && crate::tui::wrap::rows(&runs, width) + 3 + usize::from(super::FOOTER_LEAVES)
            <= usize::from(text_rect.height);
    let mut footer: Vec<Line<'a>> = Vec::new();
    let mut pinned = Some(grade);
    if !table.is_empty() && table_fits && whole > usize::from(text_rect.height) {
        reviews = std::iter::once(Line::from(""))
            .chain(verdict_lines(state, item, Scope::All))
            .collect();
        footer = table;
    } else if table.is_empty() && runs_fit && whole > usize::from(text_rect.height) {
        reviews = std::iter::once(Line::from(""))
            .chain(verdict_lines(state, item, Scope::All))
            .collect();
        footer = runs;
    } else if table.is_empty() {
        footer = pinned_footer(state, view, item, (&mut all, &reviews), text_rect);
        // Pinned under the text, the checklist's heading gives its row to my grade line:
        // the line about what is recorded stays beside what it is about.
        if let Some(first) = footer.first_mut() {
            response = response.map(|(first, _)| (first, all.len()));
            *first = pinned.take().unwrap_or_default();
        }
    }
    all.extend(reviews);
    out.panes.push(Pane {
        rect: text_rect,
        title: Line::from(format!(" {} ", one_line(&state.display_id(state.pos)))),
        guide: view
            .guideline(state, item)
            .map(|g| Line::from(Span::styled(format!(" {g} "), state.theme.dim))),
        pinned,
        lines: all,
        target,
        response,
        aside: false,
        footer,
    });
}

/// The selected response's last lines that stay in view under the pane's text
/// (`View::pinned_tail`: a checklist, its heading first), taken out of `all`, when the
/// pane's text (`all`, then `reviews`) does not fit and they leave it at least
/// `FOOTER_LEAVES` rows; else none (they scroll with the rest).
fn pinned_footer<'a>(
    state: &State,
    view: &dyn views::View,
    item: &Item,
    (all, reviews): (&mut Vec<Line<'a>>, &[Line<'_>]),
    text_rect: Rect,
) -> Vec<Line<'a>> {
    let Some(r) = item.responses.get(state.model) else {
        return vec![];
    };
    let tail = view.pinned_tail(state, item, r);
    if tail == 0 || tail > all.len() {
        return vec![];
    }
    let width = text_rect.width.saturating_sub(2);
    // the borders and my grade line, then the text: all of it in view, nothing to pin
    let whole = crate::tui::wrap::rows(all, width) + crate::tui::wrap::rows(reviews, width) + 3;
    if whole <= usize::from(text_rect.height) {
        return vec![];
    }
    // the borders, then the footer (my grade line in its heading's row) and what it
    // leaves; when it does not fit, its lines cut to a row each (a long penalty, say)
    let fits = |lines: &[Line<'_>]| {
        crate::tui::wrap::rows(lines, width) + 2 + usize::from(super::FOOTER_LEAVES)
            <= usize::from(text_rect.height)
    };
    let whole = &all[all.len() - tail..];
    if fits(whole) {
        return all.split_off(all.len() - tail);
    }
    let cut: Vec<Line<'a>> = whole.iter().map(|l| one_row(l.clone(), width)).collect();
    if !fits(&cut) {
        return vec![];
    }
    all.truncate(all.len() - tail);
    cut
}

/// `line` cut to `width` columns, its end marked `…`.
fn one_row(line: Line<'_>, width: u16) -> Line<'_> {
    let mut room = usize::from(width);
    if crate::tui::wrap::line_width(&line) <= room {
        return line;
    }
    let mut spans = Vec::new();
    for s in line.spans {
        let w = s.content.chars().count();
        if w < room {
            room -= w;
            spans.push(s);
        } else {
            spans.push(Span::styled(truncate(&s.content, room), s.style));
            break;
        }
    }
    Line::from(spans)
}

/// On a wide screen a long text of the item (a CharToM-QA context) has its own pane
/// beside the rest, scrolled on its own: what is graded stays in sight. Only a long one:
/// a short text stays in the item's. Its lines are taken out of `all` (`target` moved
/// with them) and its pane pushed; the rect left for the item's pane.
fn aside_pane<'a>(
    state: &State,
    view: &dyn views::View,
    item: &'a Item,
    all: &mut Vec<Line<'a>>,
    target: &mut Option<usize>,
    text_rect: Rect,
    out: &mut ItemPanes<'a>,
) -> Rect {
    let aside = (text_rect.width >= ASIDE_MIN)
        .then(|| view.aside(state, item))
        .flatten()
        .filter(|(_, lines, _)| {
            wrapped_height(lines, text_rect.width.saturating_sub(2)) > text_rect.height / 2
        });
    let Some((title, lines, range)) = aside else {
        return text_rect;
    };
    let cols = Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)])
        .split(text_rect);
    let r = range.start.min(all.len())..range.end.min(all.len());
    all.drain(r.clone());
    *target = target.map(|k| {
        if k >= r.end {
            k - r.len()
        } else {
            k.min(r.start)
        }
    });
    out.panes.push(Pane {
        rect: cols[0],
        title: Line::from(title),
        guide: None,
        pinned: None,
        lines,
        target: None,
        response: None,
        aside: true,
        footer: vec![],
    });
    cols[1]
}

/// The selected response (its model tabs, then its lines) after the item's lines in
/// `all`; `target` set to it when the view grades the response. Its first line and the
/// line after it when there is a target (`Pane::response`).
fn selected_response<'a>(
    state: &State,
    view: &dyn views::View,
    item: &'a Item,
    all: &mut Vec<Line<'a>>,
    target: &mut Option<usize>,
) -> Option<(usize, usize)> {
    let r = item.responses.get(state.model)?;
    if !all.is_empty() {
        all.push(Line::from(""));
    }
    let first = all.len();
    if view.target(state, item) == views::Target::Response {
        *target = Some(first);
    }
    all.push(model_tabs(state, item));
    all.extend(view.response_lines(state, item, r, true));
    target.map(|_| (first, all.len()))
}
