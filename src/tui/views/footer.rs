//! The footer: the progress bar, and below it the status line (`status`).

use ratatui::Frame;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::tui::app::State;
use crate::tui::layout::Screen;
use crate::tui::views::status;

/// The progress bar's label: my count, anyone's, and my pace.
pub fn label(state: &State) -> String {
    let (me, any, total) = state.progress();
    // Blind mode: how many items others are done with is theirs, not shown.
    let any = if state.blind { Some(me) } else { any };
    let pace = match state.pace() {
        Some((per_min, left)) => {
            let left = left
                .map(|m| format!(", {} left", fmt_minutes(m)))
                .unwrap_or_default();
            format!(" · {per_min:.1}/min{left}")
        }
        None => String::new(),
    };
    if state.still_reading() {
        return format!(" me {me}/? · {} ", state.reading_notice());
    }
    let any_s = match any {
        _ if state.blind => String::new(),
        Some(a) => format!(" · anyone {a}"),
        None if state.index_failed => " · anyone ? (no index)".into(),
        None => " · indexing…".into(),
    };
    format!(" me {me}/{total}{any_s}{pace} ")
}

pub(crate) fn draw_footer(state: &State, f: &mut Frame, screen: &Screen) {
    let t = &state.theme;
    let (me, any, total) = state.progress();
    let any = if state.blind { Some(me) } else { any };
    let label = label(state);
    let bar_w = screen.bar.width as usize;
    // No share of a total not known yet.
    let total = if state.still_reading() { 0 } else { total };
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
    f.render_widget(Paragraph::new(Line::from(bar)), screen.progress);

    if screen.status.height > 1
        && let Some(p) = status::message_paragraph(state, screen.status.width, screen.status.height)
    {
        f.render_widget(p, screen.status);
        return;
    }
    let second = status::status_line(state, screen.status.width);
    f.render_widget(Paragraph::new(second), screen.status);
}

pub(crate) fn fmt_minutes(m: f64) -> String {
    if m < 60.0 {
        format!("{m:.0}m")
    } else {
        format!("{}h{:02}m", (m / 60.0) as u64, (m % 60.0) as u64)
    }
}
