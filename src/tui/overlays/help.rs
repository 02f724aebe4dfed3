//! The help page: every key of the live keymap, by context.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::bench::Benchmark;
use crate::tui::app::State;
use crate::tui::keymap::{Action, Context};
use crate::tui::overlays::note;
use crate::tui::overlays::page::max_scroll_of;
use crate::tui::views::common::{block, heading, scroll_indicator};

pub(crate) fn help_lines(state: &State) -> Vec<Line<'static>> {
    let t = &state.theme;
    let ctx = state.context();
    let rows = state.keymap.help_rows(ctx);
    // The three verdict keys write the values of the item's benchmark (Spec::verdicts).
    let benchmark = state.item().map_or(Benchmark::Other, |it| it.benchmark());
    let verdicts = crate::bench::spec(benchmark).verdicts();
    let mut lines = vec![Line::from(Span::styled(
        "Keys (remap them in config.toml, [keys] section: action = [\"key\", ...])",
        t.dim,
    ))];
    let mut last = None;
    for (c, a, keys) in rows {
        if last != Some(c) {
            lines.push(Line::from(""));
            let title = match c {
                Context::Generic if benchmark != Benchmark::Other => benchmark.title(),
                _ => c.title(),
            };
            lines.push(heading(t, title));
            last = Some(c);
        }
        let desc = match a {
            Action::Pass => format!("verdict: {}", verdicts[0]),
            Action::Fail => format!("verdict: {}", verdicts[1]),
            Action::Unsure => format!("verdict: {}", verdicts[2]),
            _ => a.describe(),
        };
        lines.push(Line::from(vec![
            Span::styled(key_cell(&keys), t.accent),
            Span::styled(desc, t.text),
        ]));
    }
    lines.push(Line::from(""));
    lines.push(heading(t, "In text fields"));
    let km = &state.keymap;
    let (save, cancel, find) = (
        km.hint(note::KEYS, Action::Submit),
        km.hint(note::KEYS, Action::Cancel),
        km.hint(note::KEYS, Action::FindChar),
    );
    for (k, d) in [
        (save.as_str(), "save"),
        (cancel.as_str(), "cancel"),
        ("Alt-Enter", "new line (notes)"),
        ("← / →", "a character back / forward"),
        (
            "Alt-b / Alt-f",
            "a word back / forward (Ctrl-← / Ctrl-→ too)",
        ),
        (
            find.as_str(),
            "that character before the cursor (again: the one before); the next one typed replaces it",
        ),
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
pub(crate) fn key_cell(keys: &str) -> String {
    if keys.chars().count() < 16 {
        format!("  {keys:<16}")
    } else {
        format!("  {keys} ")
    }
}

pub fn draw(state: &State, f: &mut Frame, area: Rect, scroll: u16) {
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
