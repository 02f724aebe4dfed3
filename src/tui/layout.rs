//! The screen's rectangles, worked out once per frame from the terminal's area and the
//! state. Drawing, the image's size and the mouse's hit-testing all read them from here,
//! so a click lands on what is drawn where it is clicked.

use ratatui::layout::{Constraint, Layout, Rect};

use crate::tui::app::{ImageSlot, Mode, State};
use crate::tui::overlays::{filter, search};
use crate::tui::views::{footer, status};

/// The smallest terminal the reviewer draws in; a smaller one shows only a message.
pub const MIN_W: u16 = 50;
pub const MIN_H: u16 = 14;

/// Where everything is on a screen.
#[derive(Debug, Clone, PartialEq)]
pub struct Screen {
    pub area: Rect,
    /// Too small for the reviewer: only a message is drawn, nothing else is there.
    pub too_small: bool,
    pub header: Rect,
    /// Between the header and the footer: the item, the help or the summary.
    pub body: Rect,
    /// The footer's first row: the progress bar, then its label.
    pub progress: Rect,
    /// The cells of the progress bar itself (the label after it not included).
    pub bar: Rect,
    /// The footer's second row: the status message or the key hints.
    pub status: Rect,
    /// The item's areas, when the body shows the item.
    pub item: Option<ItemAreas>,
    /// The search popup's list of matches, when it is open.
    pub search: Option<ListArea>,
    /// The filter menu's rows, when it is open.
    pub filter: Option<ListArea>,
}

/// The body's areas when it shows the item.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ItemAreas {
    /// The image pane (a bordered box).
    pub image: Option<Rect>,
    /// The image as one line, when there is no picture to show or the responses are
    /// side by side.
    pub image_line: Option<Rect>,
    /// The item's text and responses.
    pub text: Rect,
}

/// A popup's list, one entry per row: where the popup is, the rows the entries are drawn
/// in, which entry is on the first row, and how many entries there are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ListArea {
    pub frame: Rect,
    pub rows: Rect,
    pub first: usize,
    pub len: usize,
}

impl ListArea {
    /// The entry drawn at the cell (`column`, `row`), if any.
    pub fn hit(&self, column: u16, row: u16) -> Option<usize> {
        if !contains(self.rows, column, row) {
            return None;
        }
        let k = self.first + (row - self.rows.y) as usize;
        (k < self.len).then_some(k)
    }
}

/// The cell (`column`, `row`) is inside `r`.
pub fn contains(r: Rect, column: u16, row: u16) -> bool {
    column >= r.x && column < r.right() && row >= r.y && row < r.bottom()
}

impl Screen {
    /// The screen of `state` in a terminal of `area`.
    pub fn new(state: &State, area: Rect) -> Screen {
        let too_small = area.width < MIN_W || area.height < MIN_H;
        // A status message that does not fit one line takes the progress bar's row, and
        // more rows from the body if it needs them, until the next key clears it.
        let message_rows =
            status::message_rows(state, area.width, status::max_message_rows(area.height));
        let rows = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(3),
            Constraint::Length(message_rows.max(2)),
        ])
        .split(area);
        let (header, body) = (rows[0], rows[1]);
        let (progress, status) = if message_rows > 1 {
            let f = rows[2];
            (Rect::new(f.x, f.y, f.width, 0), f)
        } else {
            let foot =
                Layout::vertical([Constraint::Length(1), Constraint::Length(1)]).split(rows[2]);
            (foot[0], foot[1])
        };
        let bar_w = (progress.width as usize).saturating_sub(footer::label(state).chars().count());
        let bar = Rect::new(
            progress.x,
            progress.y,
            u16::try_from(bar_w).unwrap_or(u16::MAX),
            progress.height,
        );
        let mut s = Screen {
            area,
            too_small,
            header,
            body,
            progress,
            bar,
            status,
            item: None,
            search: None,
            filter: None,
        };
        if too_small {
            return s;
        }
        if !matches!(state.mode, Mode::Help { .. } | Mode::Summary { .. }) {
            s.item = Some(item_areas(state, body));
        }
        match &state.mode {
            Mode::Search(st) => s.search = Some(search::list_area(state, area, st)),
            Mode::Filter { selected } => s.filter = Some(filter::list_area(state, area, *selected)),
            _ => {}
        }
        s
    }

    /// The screen at the terminal size the state knows (`State::size`), as the mouse
    /// and the scroll limits see it.
    pub fn of(state: &State) -> Screen {
        Screen::new(state, Rect::new(0, 0, state.size.0, state.size.1))
    }

    /// The size, in cells, of the picture in the image pane (None: no image is wanted).
    /// Asked while the item is drawn, under any popup: a popup over a missing picture
    /// leaves its line as it is (asked for no more, it came back as an empty box).
    pub fn image_cells(&self, state: &State) -> Option<(u16, u16)> {
        if self.too_small || matches!(state.mode, Mode::Help { .. } | Mode::Summary { .. }) {
            return None;
        }
        state.item()?.image.as_ref()?;
        if (side_by_side(state) || state.image_hidden) && !state.zoom {
            return None;
        }
        // The pane as it is when the picture shows (a failed picture collapses it to a
        // line; the size asked for stays the pane's).
        let (img, _) = split_body(self.body, true, state.zoom);
        img.map(|r| (r.width.saturating_sub(2), r.height.saturating_sub(2)))
    }
}

/// The responses are shown side by side: asked for, and more than one.
pub fn side_by_side(state: &State) -> bool {
    state.side_by_side && state.item().is_some_and(|i| i.responses.len() > 1)
}

/// No picture will be shown for the current item (it failed to load, or images are off).
pub fn image_collapsed(state: &State) -> bool {
    match &state.image {
        ImageSlot::Failed(..) => true,
        ImageSlot::None => state.protocol_name == "none",
        _ => false,
    }
}

/// The body's image pane (or line) and text area for the current item.
pub fn item_areas(state: &State, body: Rect) -> ItemAreas {
    let has_image = state.item().is_some_and(|i| i.image.is_some());
    // Side by side, the columns need the rows: the image is one line (zoom shows it); so
    // it is when the reviewer hid the picture.
    if has_image
        && !state.zoom
        && (image_collapsed(state) || side_by_side(state) || state.image_hidden)
    {
        let c = Layout::vertical([Constraint::Length(1), Constraint::Min(3)]).split(body);
        ItemAreas {
            image: None,
            image_line: Some(c[0]),
            text: c[1],
        }
    } else {
        let (image, text) = split_body(body, has_image, state.zoom);
        ItemAreas {
            image,
            image_line: None,
            text,
        }
    }
}

/// A body shorter than this is short: the image pane takes its fewest rows.
pub const SHORT_BODY: u16 = 24;

/// Split the body into (image pane, text pane).
pub fn split_body(body: Rect, has_image: bool, zoom: bool) -> (Option<Rect>, Rect) {
    if !has_image {
        return (None, body);
    }
    if zoom {
        return (
            Some(body),
            Rect::new(body.x, body.y + body.height, body.width, 0),
        );
    }
    if body.width >= 120 {
        let c = Layout::horizontal([Constraint::Percentage(40), Constraint::Percentage(60)])
            .split(body);
        (Some(c[0]), c[1])
    } else {
        // A short body (an 80×24 terminal) gives the picture its smallest pane, 3 rows of
        // picture (`z` zooms it): the rows are the item's, whose text is graded.
        let ih = if body.height < SHORT_BODY {
            5
        } else {
            (body.height / 3).clamp(5, 14)
        };
        let c = Layout::vertical([Constraint::Length(ih), Constraint::Min(3)]).split(body);
        (Some(c[0]), c[1])
    }
}
