//! The pages that take the body's place (help, summary): their scroll keys, and how far
//! wrapped lines scroll (how far a page scrolls at the current size is `geometry`'s).

use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use crate::tui::keymap::Action;
use crate::tui::overlays::Outcome;

/// How far `lines`, wrapped in `r`, can scroll.
pub(crate) fn max_scroll_of(lines: &[Line], r: Rect) -> u16 {
    let total = Paragraph::new(lines.to_vec())
        .wrap(Wrap { trim: false })
        .line_count(r.width.max(1));
    u16::try_from(total)
        .unwrap_or(u16::MAX)
        .saturating_sub(r.height)
}

/// The action of a key (`act`: in the page's table) on a page scrolled to `scroll`: the
/// scroll keys scroll, no further than `max`; `close`, or the key that opened the page
/// (`toggles`), close it.
pub fn handle_key(
    scroll: &mut u16,
    act: Option<Action>,
    max: u16,
    rows: u16,
    toggles: bool,
) -> Outcome<()> {
    match act {
        Some(Action::ScrollDown) => *scroll = scroll.saturating_add(1).min(max.max(*scroll)),
        Some(Action::ScrollUp) => *scroll = scroll.saturating_sub(1),
        Some(Action::PageDown) => *scroll = scroll.saturating_add(rows).min(max.max(*scroll)),
        Some(Action::PageUp) => *scroll = scroll.saturating_sub(rows),
        Some(Action::Close) => return Outcome::Close,
        _ if toggles => return Outcome::Close,
        _ => {}
    }
    Outcome::Stay
}
