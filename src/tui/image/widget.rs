//! Widgets: a ready image, a placeholder; kitty transmission and deletion.

use super::tmux::{pane_view, place_in_pane};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};
use ratatui_image::Image;
use ratatui_image::protocol::Protocol;

/// A kitty image the terminal holds: its id and whether it went through tmux.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KittyImage {
    pub id: u32,
    pub tmux: bool,
}

impl KittyImage {
    /// The sequence that frees the image's data and placements in the terminal.
    pub fn delete(&self) -> String {
        let cmd = format!("_Ga=d,d=I,i={},q=2", self.id);
        if self.tmux {
            format!("\x1bPtmux;\x1b\x1b{cmd}\x1b\x1b\\\x1b\\")
        } else {
            format!("\x1b{cmd}\x1b\\")
        }
    }
}

/// For a kitty protocol not transmitted yet: the transmission, to be written to the
/// terminal directly rather than through the image's first cell (a popup covering that
/// cell would drop it, and the image would never appear). Afterwards the protocol draws
/// only placeholders. `None` for other protocols and for one already transmitted.
pub fn take_kitty_transmit(p: &Protocol) -> Option<(KittyImage, String)> {
    if !matches!(p, Protocol::Kitty(_)) {
        return None;
    }
    let size = p.size();
    let area = Rect::new(0, 0, size.width.max(1), size.height.max(1));
    let mut scratch = Buffer::empty(area);
    Image::new(p).render(area, &mut scratch);
    let symbol = scratch[(0, 0)].symbol();
    let (seq, _) = symbol.split_once(KITTY_PLACEHOLDER)?;
    if seq.is_empty() {
        return None;
    }
    let id = seq
        .split(['_', ','])
        .find_map(|kv| kv.strip_prefix("i="))
        .and_then(|v| v.parse().ok())?;
    let image = KittyImage {
        id,
        tmux: seq.starts_with("\x1bPtmux;"),
    };
    Some((image, seq.to_string()))
}

/// For a kitty image placed directly (kitty before 0.28; see `encoder::kitty_direct`):
/// the image it places. `None` for every other protocol.
pub fn kitty_direct_image(p: &Protocol) -> Option<KittyImage> {
    let Protocol::Sixel(s) = p else {
        return None;
    };
    let tmux = s.data.starts_with("\x1bPtmux;");
    let keys = s
        .data
        .strip_prefix("\x1bPtmux;\x1b\x1b_Ga=T,")
        .or_else(|| s.data.strip_prefix("\x1b_Ga=T,"))?;
    let keys = keys.split(';').next()?;
    let id = keys
        .split(',')
        .find_map(|kv| kv.strip_prefix("i="))
        .and_then(|v| v.parse().ok())?;
    Some(KittyImage { id, tmux })
}

/// Whether a painting protocol (sixel, iTerm2, a directly placed kitty image) is drawn
/// in an area of a screen `screen_size` cells large: not when it goes through tmux and
/// tmux does not show the pane as it is laid out now (as [`ImageView`] shows a message
/// then). True for everything drawn without tmux.
pub fn drawn_through_tmux_now(p: &Protocol, screen_size: (u16, u16)) -> bool {
    let passthrough = match p {
        Protocol::Sixel(s) => s.is_tmux,
        Protocol::ITerm2(i) => i.is_tmux,
        _ => false,
    };
    if !passthrough {
        return true;
    }
    pane_view().is_some_and(|pane| {
        (pane.width, pane.height) == screen_size && pane.visible && !pane.in_mode
    })
}

/// The character kitty draws image placeholders with.
pub(super) const KITTY_PLACEHOLDER: char = '\u{10EEEE}';
/// Rows and columns the placeholder diacritics can number: a kitty image is never
/// larger, so it is never cut.
pub(super) const KITTY_MAX_CELLS: u16 = 297;

/// Whether the protocol paints pixels the terminal keeps over later text (sixel,
/// iTerm2): such an image must not be drawn where a popup may cover it.
pub fn paints_over_text(p: &Protocol) -> bool {
    matches!(p, Protocol::Sixel(_) | Protocol::ITerm2(_))
}

/// The widget for a ready protocol: drawn at the top of the area, centred horizontally.
/// If the area shrank below the image (a resize, before the new encoding arrives),
/// kitty and half-blocks draw clipped; sixel and iTerm2, which cannot, show a placeholder.
pub fn image_widget(p: &Protocol) -> impl Widget + '_ {
    ImageView { protocol: p }
}

pub(super) struct ImageView<'a> {
    protocol: &'a Protocol,
}

impl Widget for ImageView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        let size = self.protocol.size();
        let fits = size.width <= area.width && size.height <= area.height;
        if !fits && matches!(self.protocol, Protocol::Sixel(_) | Protocol::ITerm2(_)) {
            placeholder("resizing image…").render(area, buf);
            return;
        }
        let passthrough = match self.protocol {
            Protocol::Sixel(s) => s.is_tmux,
            Protocol::ITerm2(i) => i.is_tmux,
            _ => false,
        };
        let pane = pane_view().filter(|_| passthrough);
        if let Some(pane) = pane {
            // Through tmux the image is placed by the pane's position in the outer
            // terminal: not while that is out of date (the pane was just resized; the
            // watcher redraws when it knows), nor while tmux does not show the pane.
            let message = if (pane.width, pane.height) != (buf.area.width, buf.area.height) {
                Some("placing image…")
            } else if !pane.visible || pane.in_mode {
                Some("image hidden while tmux shows something else")
            } else {
                None
            };
            if let Some(message) = message {
                placeholder(message).render(area, buf);
                return;
            }
        }
        let target = picture_cells(self.protocol, area);
        Image::new(self.protocol)
            .allow_clipping(true)
            .render(target, buf);
        if let Some(pane) = pane
            && let Some(cell) = buf.cell_mut((target.x, target.y))
            && let Some(placed) = place_in_pane(cell.symbol(), pane, target.x, target.y)
        {
            cell.set_symbol(&placed);
        }
        if matches!(self.protocol, Protocol::Kitty(_)) {
            // Image ids are below 256, so the id colour can be a 256-colour index:
            // terminals and tmux without 24-bit colour keep it exactly.
            for y in target.top()..target.bottom() {
                for x in target.left()..target.right() {
                    if let Some(cell) = buf.cell_mut((x, y))
                        && let Color::Rgb(0, 0, id) = cell.fg
                    {
                        cell.set_fg(Color::Indexed(id));
                    }
                }
            }
        }
    }
}

/// The cells a ready picture covers when drawn in `area` by [`image_widget`]: at the
/// top, centred horizontally, cut to the area.
pub fn picture_cells(p: &Protocol, area: Rect) -> Rect {
    let size = p.size();
    let width = size.width.min(area.width);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y,
        width,
        height: size.height.min(area.height),
    }
}

/// A placeholder for a missing, broken or loading image, or image display off: a dim
/// box titled "image" with the message centred. Control characters in the message (it
/// may carry a path from the file) are replaced, never sent to the terminal. No colours,
/// so it reads the same under NO_COLOR and in light and dark themes.
pub fn placeholder(message: &str) -> impl Widget + '_ {
    Placeholder { message }
}

pub(super) struct Placeholder<'a> {
    message: &'a str,
}

impl Widget for Placeholder<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        let text = sanitize(self.message);
        let style = Style::default().add_modifier(Modifier::DIM);
        let inner = if area.width >= 6 && area.height >= 3 {
            let block = Block::bordered().title(" image ").border_style(style);
            let inner = block.inner(area);
            block.render(area, buf);
            inner
        } else {
            area
        };
        if inner.is_empty() {
            return;
        }
        let chars = text.chars().count().max(1);
        let lines = chars
            .div_ceil(usize::from(inner.width))
            .min(usize::from(inner.height));
        let top = (usize::from(inner.height) - lines) / 2;
        let text_area = Rect {
            y: inner.y + top as u16,
            height: inner.height - top as u16,
            ..inner
        };
        Paragraph::new(Line::from(text))
            .style(style)
            .centered()
            .wrap(Wrap { trim: true })
            .render(text_area, buf);
    }
}

/// Control, bidi and other unsafe characters shown as everywhere else
/// ([`crate::sanitize::line`]).
pub(super) fn sanitize(s: &str) -> String {
    crate::sanitize::line(s).into_owned()
}
