//! The summary page: the figures of `verdict stats`, each benchmark's block from its view
//! (`views::summary_blocks`), the review progress and the agreement, with a benchmark's
//! plot under them (`views::draw_summary_plot`).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};

use crate::tui::app::State;
use crate::tui::keymap::{Action, Context};
use crate::tui::overlays::page::max_scroll_of;
use crate::tui::summary::Summary;
use crate::tui::text::{one_line, sanitize, truncate};
use crate::tui::views;
use crate::tui::views::common::{block, heading, scroll_indicator};

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
    let s = match state.summary.get() {
        None => {
            f.render_widget(Paragraph::new("computing…").style(t.dim), inner);
            return;
        }
        Some(Err(e)) => {
            f.render_widget(Paragraph::new(sanitize(e)).style(t.bad), inner);
            return;
        }
        Some(Ok(s)) => s,
    };
    let (lines, has_plot) = summary_lines(state, s, inner.width);
    let (text, plot) = summary_split(inner, has_plot);
    let max = max_scroll_of(&lines, text);
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((scroll.min(max), 0)),
        text,
    );
    if let Some(r) = plot {
        views::draw_summary_plot(state, f, r, s);
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

/// The summary's text pane and, when there is a plot and room, the plot's.
pub(crate) fn summary_split(inner: Rect, has_plot: bool) -> (Rect, Option<Rect>) {
    if has_plot && inner.height > 12 {
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

/// The summary's text, for an inner width of `width`; and whether there is a plot under it.
pub(crate) fn summary_lines(state: &State, s: &Summary, width: u16) -> (Vec<Line<'static>>, bool) {
    let t = &state.theme;
    let mut lines: Vec<Line> = vec![Line::from(format!("{} items", s.stats.items))];
    for block in views::summary_blocks(&s.stats.benchmarks) {
        block.summary_lines(t, width, &mut lines);
    }
    // Agreement and progress
    lines.push(Line::from(""));
    lines.push(heading(t, "Review progress"));
    for (name, rv) in &s.stats.reviews {
        // "done" is what the status line's `me N` counts; "touched" includes notes
        // alone and partly graded items (docs/format.md, "When an item is done").
        lines.push(Line::from(format!(
            "  {:<18} {} done · {} touched",
            truncate(&one_line(name), 18),
            rv.done,
            rv.reviewed
        )));
    }
    let r = &s.stats.resolution;
    lines.push(Line::from(Span::styled(
        format!("  {}", crate::stats::resolution_text(r)),
        t.dim,
    )));
    lines.push(Line::from(""));
    lines.push(heading(t, "Agreement"));
    for l in &s.agreement {
        lines.push(Line::from(l.clone()));
    }
    (lines, views::summary_has_plot(s))
}
