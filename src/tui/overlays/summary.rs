//! The summary page: the figures of `verdict stats`, each benchmark's block from its view
//! (`views::summary_blocks`), the review progress and the agreement, with a benchmark's
//! plot under them (`views::draw_summary_plot`): in a pane of its own on a tall page, at
//! the end of the lines and scrolling with them on a short one.

use ratatui::Frame;
use ratatui::buffer::Buffer;
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
    let lines = summary_lines(state, s, inner);
    let (text, plot) = summary_split(inner, views::summary_has_plot(s));
    let max = max_scroll_of(&lines, text);
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((scroll.min(max), 0)),
        text,
    );
    if let Some(r) = plot {
        views::draw_summary_plot(state, f.buffer_mut(), r, s);
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

/// The rows of text a page keeps beside the plot's pane; with fewer, the plot goes at the
/// end of the text and scrolls with it.
const TEXT_ROWS: u16 = 20;

/// The plot's rows: half the page, 10 at least in its pane, 14 at the end of the text.
fn plot_rows(inner: Rect, in_pane: bool) -> u16 {
    (inner.height / 2).max(if in_pane { 10 } else { 14 })
}

/// The summary's text pane and, when there is a plot and room for it beside
/// [`TEXT_ROWS`] rows of text, the plot's pane under it. Before, the plot kept the page's
/// lower half for good: 9 rows of text at 80×24.
pub(crate) fn summary_split(inner: Rect, has_plot: bool) -> (Rect, Option<Rect>) {
    let rows = plot_rows(inner, true);
    if has_plot && inner.height >= rows + TEXT_ROWS {
        let parts = Layout::vertical([Constraint::Min(4), Constraint::Length(rows)]).split(inner);
        (parts[0], Some(parts[1]))
    } else {
        (inner, None)
    }
}

/// The summary's lines in `inner`: its text, and the plot's rows at its end when the plot
/// has no pane of its own ([`summary_split`]).
pub(crate) fn summary_lines(state: &State, s: &Summary, inner: Rect) -> Vec<Line<'static>> {
    let t = &state.theme;
    let width = inner.width;
    if let Some(text) = &s.set {
        // a folder's set: `verdict stats DIR`'s tables, then the agreement
        let mut lines: Vec<Line> = text.lines().map(|l| Line::from(l.to_string())).collect();
        lines.push(Line::from(""));
        lines.push(heading(t, "Agreement"));
        lines.extend(s.agreement.iter().map(|l| Line::from(l.clone())));
        return lines;
    }
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
    let has_plot = views::summary_has_plot(s);
    if has_plot && summary_split(inner, has_plot).1.is_none() {
        let area = Rect::new(0, 0, width, plot_rows(inner, false));
        let mut buf = Buffer::empty(area);
        views::draw_summary_plot(state, &mut buf, area, s);
        lines.push(Line::from(""));
        lines.extend(buffer_lines(&buf));
    }
    lines
}

/// A buffer's rows as lines, each cell's style kept.
fn buffer_lines(buf: &Buffer) -> Vec<Line<'static>> {
    let a = buf.area;
    (a.top()..a.bottom())
        .map(|y| {
            let mut spans: Vec<Span<'static>> = Vec::new();
            for x in a.left()..a.right() {
                let cell = &buf[(x, y)];
                match spans.last_mut() {
                    Some(sp) if sp.style == cell.style() => {
                        sp.content.to_mut().push_str(cell.symbol())
                    }
                    _ => spans.push(Span::styled(cell.symbol().to_string(), cell.style())),
                }
            }
            Line::from(spans)
        })
        .collect()
}
