//! The image widget: placing, clipping, placeholders.

use super::*;

#[test]
fn placeholder_shows_the_message_without_control_characters() {
    let mut buf = Buffer::empty(Rect::new(0, 0, 30, 5));
    placeholder("image not found: a\x1b[2Jb.png").render(buf.area, &mut buf);
    let rows: Vec<String> = (0..5)
        .map(|y| (0..30).map(|x| buf[(x, y)].symbol().to_string()).collect())
        .collect();
    let all = rows.join("\n");
    assert!(!all.contains('\x1b'), "{all}");
    assert!(all.contains("a␛[2Jb.png"), "{all}");
    assert!(rows[0].contains("image"), "{all}");
    assert!(rows[0].starts_with('┌'), "{all}");
    // A tiny area still shows text, never panics.
    let mut tiny = Buffer::empty(Rect::new(0, 0, 4, 1));
    placeholder("loading").render(tiny.area, &mut tiny);
    assert_eq!(tiny[(0, 0)].symbol(), "l");
    placeholder("x").render(Rect::new(0, 0, 0, 0), &mut tiny);
}

#[test]
fn image_widget_centres_and_clips_halfblocks() {
    let img = DynamicImage::ImageRgb8(ImageBuffer::from_pixel(40, 40, Rgb([200, 0, 0])));
    let render = Render {
        protocol: ProtocolType::Halfblocks,
        font: FontSize::new(10, 20),
        tmux: false,
        compress: false,
        kitty_direct: false,
    };
    let p = encode(&img, &render, Size::new(20, 10), 1).unwrap();
    // 40x40 px scaled up to fill 20x10 cells of 10x20 px: 200x200 px = 20x10 cells.
    assert_eq!(p.size(), Size::new(20, 10));
    let mut buf = Buffer::empty(Rect::new(0, 0, 40, 12));
    image_widget(&p).render(buf.area, &mut buf);
    let painted = |x: u16, y: u16| buf[(x, y)].bg == ratatui::style::Color::Rgb(200, 0, 0);
    assert!(!painted(9, 0) && painted(10, 0) && painted(29, 9) && !painted(30, 0));
    assert!(!painted(10, 10));
    // Smaller area: clipped, no panic.
    let mut small = Buffer::empty(Rect::new(0, 0, 5, 3));
    image_widget(&p).render(small.area, &mut small);
    assert_eq!(small[(4, 2)].bg, ratatui::style::Color::Rgb(200, 0, 0));
}

#[test]
fn sixel_too_big_for_its_area_shows_a_placeholder() {
    let img = DynamicImage::ImageRgb8(ImageBuffer::from_pixel(40, 40, Rgb([0, 0, 200])));
    let render = Render {
        protocol: ProtocolType::Sixel,
        font: FontSize::new(10, 20),
        tmux: false,
        compress: false,
        kitty_direct: false,
    };
    let p = encode(&img, &render, Size::new(10, 5), 1).unwrap();
    let mut buf = Buffer::empty(Rect::new(0, 0, 8, 4));
    image_widget(&p).render(buf.area, &mut buf);
    let all: String = (0..4)
        .flat_map(|y| (0..8).map(move |x| (x, y)))
        .map(|xy| buf[xy].symbol().to_string())
        .collect();
    assert!(!all.contains('\x1b'), "no sixel data drawn");
    assert!(all.contains("image"), "{all}");
}
