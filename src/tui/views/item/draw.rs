//! The item's panes drawn from what is kept between frames (`tui::laid`), and the image
//! pane (a picture, or one line saying why there is none).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::bench::Item;
use crate::tui::app::{ImageSlot, Mode, State};
use crate::tui::image;
use crate::tui::keymap::{Action, Context};
use crate::tui::layout::{ItemAreas, side_by_side};
use crate::tui::text::{one_line, truncate};
use crate::tui::views::common::{block, scroll_indicator};

pub(crate) fn draw_item(state: &State, f: &mut Frame, areas: ItemAreas) {
    let t = &state.theme;
    let laid = crate::tui::laid::of(state, areas);
    let panes = laid.panes();
    if let (Some(r), Some(item)) = (panes.image, state.item()) {
        draw_image(state, f, r, item);
    }
    if let (Some(r), Some(item)) = (panes.image_line, state.item()) {
        draw_image_line(state, f, r, item);
    }
    if let Some((r, title, o, c)) = &panes.pair {
        let b = block(t, title.clone());
        let inner = b.inner(*r);
        f.render_widget(b, *r);
        let cols = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
            .spacing(1)
            .split(inner);
        f.render_widget(
            Paragraph::new(o.clone()).wrap(Wrap { trim: false }),
            cols[0],
        );
        f.render_widget(
            Paragraph::new(c.clone()).wrap(Wrap { trim: false }),
            cols[1],
        );
    }
    for (k, p) in panes.panes.iter().enumerate() {
        let (text, max) = laid.geometry(k);
        let scroll = if p.aside {
            state.aside_scroll
        } else {
            state.scroll
        }
        .min(max);
        let mut b = block(t, p.title.clone());
        // what the grade keys mean, right of the title, as much as fits (not beside a
        // popup, which would cut it)
        if let Some(g) = p.guide.as_ref().filter(|_| state.mode == Mode::Normal) {
            let room = usize::from(p.rect.width)
                .saturating_sub(crate::tui::wrap::line_width(&p.title) + 4);
            let text: String = g.spans.iter().map(|s| s.content.as_ref()).collect();
            if room > 10 {
                let style = g.spans.first().map(|s| s.style).unwrap_or_default();
                let cut = crate::tui::text::truncate(&text, room);
                b = b.title(Line::from(Span::styled(cut, style)).right_aligned());
            }
        }
        if max > 0 {
            b = b.title_bottom(scroll_indicator(t, scroll, max, text.height));
        }
        f.render_widget(b, p.rect);
        if let Some(pin) = &p.pinned {
            let inner = Block::default().borders(Borders::ALL).inner(p.rect);
            f.render_widget(
                Paragraph::new(pin.clone()),
                Rect::new(inner.x, inner.y, inner.width, inner.height.min(1)),
            );
        }
        crate::tui::wrap::render_measured(&p.lines, &laid.rows[k], scroll, text, f.buffer_mut());
        if !p.footer.is_empty() {
            crate::tui::wrap::render(&p.footer, 0, super::footer_rect(p), f.buffer_mut());
        }
    }
}

/// The image pane when there is no picture to show: one line, not a box.
pub(crate) fn draw_image_line(state: &State, f: &mut Frame, r: Rect, item: &Item) {
    let t = &state.theme;
    let why = match &state.image {
        _ if state.image_hidden => format!(
            "picture hidden ({} shows it)",
            state.keymap.hint(Context::Global, Action::HideImage)
        ),
        _ if side_by_side(state) => format!(
            "hidden side by side ({} shows it)",
            state.keymap.hint(Context::Global, Action::ZoomImage)
        ),
        ImageSlot::Failed(_, e) => e.clone(),
        _ => "images off (--image-protocol none)".to_string(),
    };
    // The name whole and the key that opens it; the reason gives way, without the path
    // it would name again.
    let name = one_line(item.image.as_deref().unwrap_or(""));
    let why = one_line(&why);
    let file = name.rsplit('/').next().unwrap_or(&name);
    let why = match why.split_once(": ") {
        Some((w, path)) if !file.is_empty() && path.ends_with(file) => w.to_string(),
        _ => why,
    };
    let open = format!(
        " · {} opens it",
        state.keymap.hint(Context::Global, Action::OpenImage)
    );
    let room = usize::from(r.width).saturating_sub(" image ".len() + open.chars().count());
    let name = truncate(&name, room.max(8));
    let why_room = room.saturating_sub(name.chars().count() + 3);
    let why = if why_room >= 4 {
        format!(" · {}", truncate(&why, why_room))
    } else {
        String::new()
    };
    let line = Line::from(vec![
        Span::styled(" image ", t.title),
        Span::styled(name, t.text),
        Span::styled(format!("{why}{open}"), t.dim),
    ]);
    f.render_widget(Paragraph::new(line), r);
}

/// An image pane fewer rows high than this (its borders included) shows a picture too
/// small to read well: its title names the zoom and hide keys.
const SMALL_PICTURE_ROWS: u16 = 9;

pub(crate) fn draw_image(state: &State, f: &mut Frame, r: Rect, item: &Item) {
    let t = &state.theme;
    // A picture of a few rows (a short terminal) is hard to read: the title says which
    // keys make it bigger or give its rows to the item.
    let hint = if r.height < SMALL_PICTURE_ROWS && !state.zoom {
        format!(
            " · {} zooms, {} hides",
            state.keymap.hint(Context::Global, Action::ZoomImage),
            state.keymap.hint(Context::Global, Action::HideImage)
        )
    } else {
        String::new()
    };
    let room = (r.width as usize).saturating_sub(4 + hint.chars().count());
    let title = format!(
        " {}{hint} ",
        one_line(&truncate(item.image.as_deref().unwrap_or(""), room.max(8)))
    );
    let b = block(t, title);
    let inner = b.inner(r);
    f.render_widget(b, r);
    let msg = match &state.image {
        // sixel and iTerm2 pixels cannot be clipped and would cover a popup: hidden
        // while one is open.
        ImageSlot::Ready(_, p)
            if image::paints_over_text(p) && !matches!(state.mode, Mode::Normal) =>
        {
            "image hidden while a popup is open"
        }
        ImageSlot::Ready(_, p) => {
            f.render_widget(image::image_widget(p), inner);
            return;
        }
        ImageSlot::Failed(_, e) => e.as_str(),
        ImageSlot::Loading(_) => "loading…",
        ImageSlot::None if state.protocol_name == "none" => "images off (--image-protocol none)",
        ImageSlot::None => "…",
    };
    let top = inner.height.saturating_sub(1) / 2;
    let area = Rect::new(inner.x, inner.y + top, inner.width, inner.height - top);
    f.render_widget(
        Paragraph::new(one_line(msg))
            .style(t.dim)
            .alignment(ratatui::layout::Alignment::Center)
            .wrap(Wrap { trim: true }),
        area,
    );
}
