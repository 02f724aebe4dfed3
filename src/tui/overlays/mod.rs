//! Overlays: the popups over the item (search, jump, note, filter; a benchmark's own
//! popups are its view's, `Mode::Popup`, `View::draw_popup`)
//! and the pages that take the body's place (help, summary). Each owns, in its own file,
//! its state (a `Mode` variant's payload), its keys (`handle_key`, which says what should
//! happen as an [`Outcome`]; `State::update` turns that into changes and effects) and its
//! drawing. `draw` here is the one place that picks the popup to draw.

pub mod dialog;
pub mod filter;
pub mod help;
pub mod jump;
pub mod note;
pub mod page;
pub mod search;
pub mod summary;

use ratatui::Frame;

use crate::tui::app::{Mode, State};
use crate::tui::layout::Screen;

/// What a key pressed in an overlay asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome<T> {
    /// Taken by the overlay, which stays open.
    Stay,
    /// The overlay's input changed: what depends on it is worked out again.
    Changed,
    /// Close the overlay, nothing done.
    Close,
    /// The overlay's answer. The overlay closes, unless the answer is refused.
    Submit(T),
}

/// Draw the popup of the current mode over the screen, where `screen` puts it.
pub fn draw(state: &State, f: &mut Frame, screen: &Screen) {
    let area = screen.area;
    match &state.mode {
        Mode::Search(s) => {
            if let Some(list) = &screen.search {
                search::draw(state, f, list, s)
            }
        }
        Mode::Jump(e) => jump::draw(state, f, area, e),
        Mode::Note(e) => note::draw(state, f, area, e),
        // A benchmark's popups: its view draws them, low in the body
        // (`dialog::Place::Low`): the text judged above them and the status line under
        // them stay in view.
        Mode::Popup(_) => {
            crate::tui::views::draw_popup(state, f, screen.body);
        }
        Mode::Filter { selected } => {
            if let Some(list) = &screen.filter {
                filter::draw(state, f, list, *selected)
            }
        }
        Mode::Normal | Mode::Help { .. } | Mode::Summary { .. } => {}
    }
}

/// The keymap table of the overlay on screen (`None`: the item view's).
pub fn keys(mode: &Mode) -> Option<crate::tui::keymap::Context> {
    use crate::tui::keymap::Context;
    Some(match mode {
        Mode::Normal => return None,
        Mode::Help { .. } => Context::Help,
        Mode::Summary { .. } => Context::Summary,
        Mode::Filter { .. } => Context::Filter,
        Mode::Search(_) => Context::Search,
        Mode::Jump(_) => Context::Jump,
        Mode::Note(_) => Context::Note,
        Mode::Popup(p) => p.keys(),
    })
}
