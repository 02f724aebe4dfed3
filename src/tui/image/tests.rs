use super::{
    decode::*, encoder::*, lru::*, protocol::*, threads::*, tmux::*, viewer::*, widget::*,
    worker::*,
};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use image::{DynamicImage, RgbImage};
use image::{ImageBuffer, Rgb, Rgba};
use ratatui::buffer::Buffer;
use ratatui::buffer::Cell;
use ratatui::layout::{Rect, Size};
use ratatui::style::Color;
use ratatui::widgets::Widget;
use ratatui_image::FontSize;
use ratatui_image::picker::ProtocolType;
use ratatui_image::protocol::Protocol;

fn key(path: &str, w: u16) -> ImageKey {
    ImageKey {
        path: PathBuf::from(path),
        width: w,
        height: 10,
    }
}

#[test]
fn protocol_choice_parses_every_value_and_rejects_others() {
    for c in [
        ProtocolChoice::Auto,
        ProtocolChoice::Kitty,
        ProtocolChoice::Sixel,
        ProtocolChoice::Iterm2,
        ProtocolChoice::Halfblocks,
        ProtocolChoice::None,
    ] {
        assert_eq!(ProtocolChoice::parse(c.name()), Some(c));
    }
    assert_eq!(
        ProtocolChoice::parse(" KITTY "),
        Some(ProtocolChoice::Kitty)
    );
    assert_eq!(
        ProtocolChoice::parse("HalfBlocks"),
        Some(ProtocolChoice::Halfblocks)
    );
    assert_eq!(ProtocolChoice::parse("iterm"), None);
    assert_eq!(ProtocolChoice::parse(""), None);
}

#[test]
fn make_render_never_queries() {
    let (p, name) = make_render(ProtocolChoice::None);
    assert!(p.is_none());
    assert_eq!(name, "none");
    for (choice, want) in [
        (ProtocolChoice::Halfblocks, ProtocolType::Halfblocks),
        (ProtocolChoice::Auto, ProtocolType::Halfblocks),
        (ProtocolChoice::Kitty, ProtocolType::Kitty),
        (ProtocolChoice::Sixel, ProtocolType::Sixel),
        (ProtocolChoice::Iterm2, ProtocolType::Iterm2),
    ] {
        let (p, name) = make_render(choice);
        assert_eq!(p.unwrap().protocol, want);
        assert_eq!(name, p.unwrap().name());
    }
}

#[test]
fn queue_keeps_only_the_newest_request() {
    let mut q = Queue::default();
    q.push_prefetch("a.png".into());
    for i in 0..50 {
        q.push_request(key("x.png", i));
    }
    assert_eq!(q.take(), Some(key("x.png", 49)));
    assert!(!q.superseded());
    // A newer request while one is in flight supersedes it...
    q.push_request(key("y.png", 1));
    assert!(q.superseded());
    // ...but asking again for the in-flight key cancels the newer one.
    q.push_request(key("x.png", 49));
    assert!(!q.superseded());
    assert!(q.request.is_none());
    assert!(q.take().is_none());
    // The prefetch is the prefetch thread's, apart.
    assert_eq!(q.take_prefetch(), Some(PathBuf::from("a.png")));
    assert!(q.take_prefetch().is_none());
}

#[test]
fn queue_keeps_only_the_newest_prefetch_wanted() {
    let mut q = Queue::default();
    for i in 0..10 {
        q.push_prefetch(format!("{i}.png").into());
    }
    assert_eq!(q.take_prefetch(), Some(PathBuf::from("9.png")));
    assert!(q.wanted(Path::new("9.png")));
    // Asked again while it decodes: not started twice.
    q.push_prefetch("9.png".into());
    assert!(q.take_prefetch().is_none());
    // The reviewer moved on: 9 is no longer wanted, 10 is next.
    q.push_prefetch("10.png".into());
    assert!(!q.wanted(Path::new("9.png")));
    assert_eq!(q.take_prefetch(), Some(PathBuf::from("10.png")));
}

#[test]
fn queue_wants_the_newest_request_image_only() {
    let mut q = Queue::default();
    q.push_request(key("x.png", 10));
    q.take();
    assert!(q.wanted(Path::new("x.png")));
    // The same image at another size (a zoom) still needs it decoded.
    q.push_request(key("x.png", 20));
    assert!(q.wanted(Path::new("x.png")));
    q.push_request(key("y.png", 10));
    assert!(!q.wanted(Path::new("x.png")));
    assert!(q.wanted(Path::new("y.png")));
    q.shutdown = true;
    assert!(!q.wanted(Path::new("y.png")));
}

#[test]
fn lru_evicts_least_recent_by_count_and_budget() {
    let mut lru: Lru<u32, usize> = Lru::new(3, 100, |v| *v);
    lru.insert(1, 10);
    lru.insert(2, 10);
    lru.insert(3, 10);
    assert_eq!(lru.get(&1), Some(&10)); // 1 is now most recent
    lru.insert(4, 10);
    assert_eq!(lru.keys(), vec![&4, &1, &3]);
    lru.insert(5, 85); // total 115 > 100: drop the oldest until it fits
    assert_eq!(lru.keys(), vec![&5, &4]);
    lru.insert(6, 500); // alone over budget: kept, everything else evicted
    assert_eq!(lru.keys(), vec![&6]);
    lru.clear();
    assert!(lru.get(&6).is_none());
}

#[test]
fn transparency_is_flattened_onto_white() {
    let mut img: ImageBuffer<Rgba<u8>, Vec<u8>> = ImageBuffer::new(2, 1);
    img.put_pixel(0, 0, Rgba([0, 0, 0, 0])); // fully transparent
    img.put_pixel(1, 0, Rgba([0, 0, 0, 255])); // opaque black
    let out = prepare(DynamicImage::ImageRgba8(img)).to_rgb8();
    assert_eq!(out.get_pixel(0, 0), &Rgb([255, 255, 255]));
    assert_eq!(out.get_pixel(1, 0), &Rgb([0, 0, 0]));
    let mut half: ImageBuffer<Rgba<u8>, Vec<u8>> = ImageBuffer::new(1, 1);
    half.put_pixel(0, 0, Rgba([0, 0, 0, 128]));
    let out = prepare(DynamicImage::ImageRgba8(half)).to_rgb8();
    assert_eq!(out.get_pixel(0, 0), &Rgb([127, 127, 127]));
}

#[test]
fn big_images_are_scaled_down_keeping_aspect() {
    let img = DynamicImage::ImageRgb8(RgbImage::new(8192, 2048));
    let out = prepare(img);
    assert_eq!((out.width(), out.height()), (4096, 1024));
}

#[test]
fn decode_errors_are_clear() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.png");
    assert!(
        decode_file(&missing)
            .unwrap_err()
            .starts_with("image not found: ")
    );
    let empty = dir.path().join("empty.png");
    std::fs::write(&empty, b"").unwrap();
    assert!(decode_file(&empty).unwrap_err().contains("(empty file)"));
    let text = dir.path().join("text.png");
    std::fs::write(&text, "hello, I am text\n").unwrap();
    let e = decode_file(&text).unwrap_err();
    assert!(e.starts_with("not an image: ") && e.contains("text"), "{e}");
    let gif = dir.path().join("a.png");
    std::fs::write(&gif, b"GIF89a\x01\x00\x01\x00\x00\x00\x00;").unwrap();
    let e = decode_file(&gif).unwrap_err();
    assert!(
        e.starts_with("unsupported image format: ") && e.contains("GIF"),
        "{e}"
    );
    assert!(decode_file(dir.path()).unwrap_err().contains("a directory"));
    #[cfg(unix)]
    {
        let e = decode_file(Path::new("/dev/urandom")).unwrap_err();
        assert_eq!(
            e,
            "not an image: /dev/urandom (not a regular file: a character device)"
        );
    }
}

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

#[test]
fn kitty_encoding_is_compressed_and_wrapped_for_tmux() {
    let img = DynamicImage::ImageRgb8(ImageBuffer::from_pixel(20, 20, Rgb([1, 2, 3])));
    let render = Render {
        protocol: ProtocolType::Kitty,
        font: FontSize::new(10, 20),
        tmux: true,
        compress: true,
        kitty_direct: false,
    };
    let p = encode(&img, &render, Size::new(4, 2), 7).unwrap();
    let mut buf = Buffer::empty(Rect::new(0, 0, 4, 2));
    image_widget(&p).render(buf.area, &mut buf);
    let first = buf[(0, 0)].symbol();
    assert!(first.starts_with("\x1bPtmux;"), "tmux passthrough");
    assert!(first.contains("o=z,"), "zlib compression");
}

#[test]
fn kitty_images_are_never_wider_than_the_diacritics_reach() {
    let img = DynamicImage::ImageRgb8(ImageBuffer::from_pixel(4000, 100, Rgb([9, 9, 9])));
    let render = Render {
        protocol: ProtocolType::Kitty,
        font: FontSize::new(10, 20),
        tmux: false,
        compress: false,
        kitty_direct: false,
    };
    let p = encode(&img, &render, Size::new(400, 60), 7).unwrap();
    assert!(p.size().width <= KITTY_MAX_CELLS, "{:?}", p.size());
    // Every column is drawn: the transmission is taken out, placeholders remain.
    let (image, seq) = take_kitty_transmit(&p).expect("a transmission");
    assert_eq!(image, KittyImage { id: 7, tmux: false });
    assert!(seq.contains("a=T") && seq.contains(&format!("c={}", p.size().width)));
    assert!(take_kitty_transmit(&p).is_none(), "transmitted once");
    let area = Rect::new(0, 0, 400, 60);
    let mut buf = Buffer::empty(area);
    image_widget(&p).render(area, &mut buf);
    let row: Vec<&Cell> = (0..400).map(|x| &buf[(x, 0)]).collect();
    let drawn = row
        .iter()
        .filter(|c| c.symbol().starts_with(KITTY_PLACEHOLDER))
        .count();
    assert_eq!(drawn, usize::from(p.size().width));
    assert!(row.iter().all(|c| !c.symbol().contains('\x1b')));
    assert!(
        row.iter()
            .filter(|c| c.symbol().starts_with(KITTY_PLACEHOLDER))
            .all(|c| c.fg == Color::Indexed(7))
    );
}

#[test]
fn sixel_and_iterm2_through_tmux_stay_under_its_passthrough_limit() {
    // A 480x320 photo-like picture (noise) drawn at 200x50 cells.
    let mut seed = 12345u32;
    let img = DynamicImage::ImageRgb8(RgbImage::from_fn(480, 320, |_, _| {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let [a, b, c, _] = seed.to_be_bytes();
        Rgb([a, b, c])
    }));
    for protocol in [ProtocolType::Sixel, ProtocolType::Iterm2] {
        let render = Render {
            protocol,
            font: FontSize::new(10, 20),
            tmux: true,
            compress: false,
            kitty_direct: false,
        };
        let p = encode(&img, &render, Size::new(200, 50), 1).unwrap();
        let data = match &p {
            Protocol::Sixel(s) => &s.data,
            Protocol::ITerm2(i) => &i.data,
            _ => unreachable!(),
        };
        assert!(
            data.len() <= TMUX_PASSTHROUGH_MAX,
            "{protocol:?}: {}",
            data.len()
        );
        assert!(data.starts_with("\x1bPtmux;"));
        if protocol == ProtocolType::Iterm2 {
            let s = p.size();
            assert!(
                data.contains(&format!(";width={};height={};", s.width, s.height)),
                "sized in cells"
            );
        }
    }
}

#[test]
fn the_probe_picks_from_the_answers() {
    use crate::tui::input::Reply;
    let take = |replies: &[Reply]| {
        let mut p = Probe::new(false);
        let done: Vec<bool> = replies.iter().map(|r| p.take(r)).collect();
        assert_eq!(done.last(), Some(&true));
        p
    };
    let kitty = take(&[
        Reply::KittyGraphics { id: 31, ok: true },
        Reply::KittyGraphics { id: 32, ok: true },
        Reply::DeviceAttributes(vec![62, 4]),
        Reply::CellSize {
            width: 9,
            height: 18,
        },
        Reply::StatusOk,
    ]);
    if !kitty_and_sixel_blacklisted() {
        assert_eq!(kitty.protocol(), ProtocolType::Kitty);
    }
    let r = kitty.render(ProtocolType::Kitty, 80, 24, true);
    assert_eq!((r.font.width, r.font.height), (9, 18));
    assert!(r.tmux && r.compress);
    // Sixel, as tmux itself answers when built with it: drawn by tmux, so no
    // passthrough; the cell size from the window's pixels.
    let sixel = take(&[
        Reply::DeviceAttributes(vec![61, 4, 6]),
        Reply::WindowPixels {
            width: 800,
            height: 480,
        },
        Reply::StatusOk,
    ]);
    if !kitty_and_sixel_blacklisted() {
        assert_eq!(sixel.protocol(), ProtocolType::Sixel);
    }
    let r = sixel.render(ProtocolType::Sixel, 80, 24, true);
    assert_eq!((r.font.width, r.font.height), (10, 20));
    assert!(!r.tmux && !r.compress);
    // Nothing but the status report: half-blocks (unless the environment names an
    // iTerm2-capable terminal).
    let none = take(&[Reply::StatusOk]);
    if !iterm2_from_env() {
        assert_eq!(none.protocol(), ProtocolType::Halfblocks);
    }
    // A refused kitty query is no kitty.
    let refused = take(&[Reply::KittyGraphics { id: 31, ok: false }, Reply::StatusOk]);
    assert!(!refused.kitty);
}

/// The answers to [`probe_query`], one reply at a time; true when the last closed a batch.
fn probe_answers(tmux: bool, replies: &[crate::tui::input::Reply]) -> Probe {
    let mut p = Probe::new(tmux);
    let done: Vec<bool> = replies.iter().map(|r| p.take(r)).collect();
    assert_eq!(done.last(), Some(&true));
    p
}

#[test]
fn kitty_before_0_28_is_placed_directly_not_with_placeholders() {
    use crate::tui::input::Reply;
    if kitty_and_sixel_blacklisted() {
        return; // the environment names a terminal that is never given kitty
    }
    let kitty = |version: Option<&str>| {
        let mut replies = vec![];
        if let Some(v) = version {
            replies.push(Reply::TerminalVersion(v.into()));
        }
        replies.extend([
            Reply::KittyGraphics { id: 31, ok: true },
            Reply::DeviceAttributes(vec![62]),
            Reply::StatusOk,
        ]);
        let p = probe_answers(false, &replies);
        assert_eq!(p.protocol(), ProtocolType::Kitty, "{version:?}");
        p.render(ProtocolType::Kitty, 80, 24, false)
    };
    // kitty added Unicode placeholders in 0.28.0.
    assert!(kitty(Some("kitty(0.26.5)")).kitty_direct);
    assert!(kitty(Some("kitty(0.27.1)")).kitty_direct);
    assert!(!kitty(Some("kitty(0.28.0)")).kitty_direct);
    assert!(!kitty(Some("kitty(0.35.2)")).kitty_direct);
    // Another terminal with kitty graphics (ghostty), or none named: placeholders.
    assert!(!kitty(Some("ghostty 1.1.3")).kitty_direct);
    assert!(!kitty(None).kitty_direct);
    // The direct placement is named apart (the loop erases what it painted).
    assert_eq!(kitty(Some("kitty(0.26.5)")).name(), "kitty-direct");
}

#[test]
fn a_terminal_named_konsole_or_wezterm_gets_no_kitty_or_sixel() {
    use crate::tui::input::Reply;
    for name in ["Konsole 22.12.3", "WezTerm 20240203-110809-5046fc22"] {
        let p = probe_answers(
            false,
            &[
                Reply::TerminalVersion(name.into()),
                Reply::KittyGraphics { id: 31, ok: true },
                Reply::DeviceAttributes(vec![62, 4]),
                Reply::StatusOk,
            ],
        );
        assert!(
            !matches!(p.protocol(), ProtocolType::Kitty | ProtocolType::Sixel),
            "{name}"
        );
    }
}

#[test]
fn in_tmux_the_outer_terminal_answers_through_passthrough() {
    use crate::tui::input::Reply;
    if kitty_and_sixel_blacklisted() {
        return;
    }
    // tmux 3.3 answers its own queries first (no sixel), then the outer terminal's
    // answers come back through the pane, closed by its own status report: recorded
    // from xterm 379, mlterm 3.9 and kitty 0.26.5 under tmux 3.3a.
    let tmux_first = [
        Reply::TerminalVersion("tmux 3.3a".into()),
        Reply::DeviceAttributes(vec![1, 2]),
        Reply::StatusOk,
    ];
    let mut p = Probe::new(true);
    for r in &tmux_first[..2] {
        assert!(!p.take(r));
    }
    assert!(p.take(&tmux_first[2]), "tmux's own batch closes");
    if !iterm2_from_env() {
        assert_eq!(p.protocol(), ProtocolType::Halfblocks);
    }
    for (outer, want, direct) in [
        (
            vec![
                Reply::TerminalVersion("XTerm(379)".into()),
                Reply::DeviceAttributes(vec![63, 1, 2, 4, 6, 9, 15, 16, 22, 28]),
            ],
            ProtocolType::Sixel,
            false,
        ),
        (
            vec![Reply::DeviceAttributes(vec![
                63, 1, 2, 3, 4, 6, 7, 15, 18, 22, 29,
            ])],
            ProtocolType::Sixel,
            false,
        ),
        (
            vec![
                Reply::TerminalVersion("kitty(0.26.5)".into()),
                Reply::KittyGraphics { id: 31, ok: true },
                Reply::DeviceAttributes(vec![62]),
            ],
            ProtocolType::Kitty,
            true,
        ),
    ] {
        let mut replies = tmux_first.to_vec();
        replies.extend(outer);
        replies.push(Reply::StatusOk);
        let p = probe_answers(true, &replies);
        assert_eq!(p.protocol(), want, "{replies:?}");
        let r = p.render(want, 80, 24, true);
        assert!(r.tmux, "the outer terminal draws it: passthrough");
        assert_eq!(r.kitty_direct, direct);
    }
}

#[test]
fn without_a_pixel_size_sixel_and_iterm2_assume_small_cells() {
    if font_known() {
        return; // the test runs in a terminal that reports its pixel size
    }
    for choice in [ProtocolChoice::Sixel, ProtocolChoice::Iterm2] {
        let (r, _) = make_render(choice);
        let font = r.unwrap().font;
        assert_eq!((font.width, font.height), (6, 12), "{choice:?}");
    }
}

#[test]
fn open_external_reports_missing_file_and_missing_viewer() {
    let e = open_external(Path::new("/definitely/not/here.png")).unwrap_err();
    assert_eq!(e, "image not found: /definitely/not/here.png");
    let file = tempfile::NamedTempFile::new().unwrap();
    let e = spawn_viewer(OsStr::new("/no/such/viewer"), &[], file.path()).unwrap_err();
    assert!(e.contains("not found"), "{e}");
    #[cfg(unix)]
    spawn_viewer(OsStr::new("true"), &[], file.path()).unwrap();
}

/// The row-by-row PNG decoder gives the same pixels as the image crate's whole decode
/// (then `prepare`) for every colour type and bit depth, and scales a huge one down to
/// the same size as before.
#[test]
fn png_rows_match_the_whole_decode() {
    let dir = tempfile::tempdir().unwrap();
    let (w, h) = (37u32, 23u32);
    let v = |x: u32, y: u32| ((x * 7 + y * 13) % 256) as u8;
    let w16 = |x: u32, y: u32| (x * 1733 + y * 911) as u16;
    let images: Vec<(&str, DynamicImage)> = vec![
        (
            "l8",
            DynamicImage::ImageLuma8(ImageBuffer::from_fn(w, h, |x, y| image::Luma([v(x, y)]))),
        ),
        (
            "la8",
            DynamicImage::ImageLumaA8(ImageBuffer::from_fn(w, h, |x, y| {
                image::LumaA([v(x, y), v(y, x)])
            })),
        ),
        (
            "rgb8",
            DynamicImage::ImageRgb8(ImageBuffer::from_fn(w, h, |x, y| {
                Rgb([v(x, y), v(y, x), 9])
            })),
        ),
        (
            "rgba8",
            DynamicImage::ImageRgba8(ImageBuffer::from_fn(w, h, |x, y| {
                Rgba([v(x, y), 3, v(y, x), v(x, x)])
            })),
        ),
        (
            "l16",
            DynamicImage::ImageLuma16(ImageBuffer::from_fn(w, h, |x, y| image::Luma([w16(x, y)]))),
        ),
        (
            "rgba16",
            DynamicImage::ImageRgba16(ImageBuffer::from_fn(w, h, |x, y| {
                Rgba([w16(x, y), w16(y, x), 7, w16(x, x)])
            })),
        ),
    ];
    for (name, img) in images {
        let path = dir.path().join(format!("{name}.png"));
        img.save(&path).unwrap();
        let whole = prepare(image::open(&path).unwrap());
        let rows = decode_file(&path).unwrap();
        assert_eq!(rows.as_bytes(), whole.as_bytes(), "{name}");
    }
    let path = dir.path().join("wide.png");
    RgbImage::from_fn(8200, 30, |x, _| {
        if x < 4100 {
            Rgb([200, 0, 0])
        } else {
            Rgb([0, 0, 200])
        }
    })
    .save(&path)
    .unwrap();
    let rows = decode_file(&path).unwrap().to_rgb8();
    let whole = prepare(image::open(&path).unwrap()).to_rgb8();
    assert_eq!(rows.dimensions(), whole.dimensions());
    assert_eq!(rows.get_pixel(10, 5), &Rgb([200, 0, 0]));
    assert_eq!(rows.get_pixel(rows.width() - 10, 5), &Rgb([0, 0, 200]));
}

#[test]
fn pane_view_parses_tmux_display_and_shifts_for_a_top_status_line() {
    let v = parse_pane_view("41 0 59 30 1 1 0 on bottom\n").unwrap();
    assert_eq!(
        v,
        PaneView {
            left: 41,
            top: 0,
            width: 59,
            height: 30,
            visible: true,
            in_mode: false
        }
    );
    assert_eq!(parse_pane_view("0 3 80 20 1 1 0 on top").unwrap().top, 4);
    assert_eq!(parse_pane_view("0 3 80 20 1 1 0 2 top").unwrap().top, 5);
    assert_eq!(parse_pane_view("0 3 80 20 1 1 0 off top").unwrap().top, 3);
    // Another window is current, or no client is attached: not shown.
    assert!(
        !parse_pane_view("0 0 80 20 0 1 0 on bottom")
            .unwrap()
            .visible
    );
    assert!(
        !parse_pane_view("0 0 80 20 1 0 0 on bottom")
            .unwrap()
            .visible
    );
    assert!(
        parse_pane_view("0 0 80 20 1 1 1 on bottom")
            .unwrap()
            .in_mode
    );
    assert!(parse_pane_view("garbage").is_none());
}

#[test]
fn passthrough_images_are_placed_by_absolute_position() {
    let pane = parse_pane_view("41 2 59 30 1 1 0 on bottom").unwrap();
    let data = "\x1bPtmux;\x1b\x1b[5X\x1b\x1bPq#0\x1b\x1b\\\x1b\\";
    assert_eq!(
        place_in_pane(data, pane, 3, 1).unwrap(),
        "\x1bPtmux;\x1b\x1b[4;45H\x1b\x1b[5X\x1b\x1bPq#0\x1b\x1b\\\x1b\\"
    );
    assert!(place_in_pane("\x1bPq#0\x1b\\", pane, 0, 0).is_none());
}

/// Run `f` on a thread; `None` if it has not returned within 5 s (it is blocked: the
/// thread is left behind, the test fails instead of hanging).
#[cfg(unix)]
fn within_5s<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(std::time::Duration::from_secs(5)).ok()
}

#[cfg(unix)]
fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

/// A FIFO, a character device, a socket, a directory or a symlink to one of them as an
/// image path: every function that reads an image refuses it at once, without opening it
/// for a read that would block (a FIFO with no writer) or eat the reviewer's keys
/// (`/dev/tty`), and the message says it is not a regular file.
#[cfg(unix)]
#[test]
fn non_regular_files_are_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.png");
    mkfifo(&fifo);
    let link = dir.path().join("link.png");
    std::os::unix::fs::symlink(&fifo, &link).unwrap();
    let sock = dir.path().join("sock.png");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    let cases: Vec<(PathBuf, &str)> = vec![
        (fifo.clone(), "(not a regular file: a FIFO)"),
        (link, "(not a regular file: a FIFO)"),
        (sock, "(not a regular file: a socket)"),
        (
            PathBuf::from("/dev/zero"),
            "(not a regular file: a character device)",
        ),
        (
            PathBuf::from("/dev/null"),
            "(not a regular file: a character device)",
        ),
        (dir.path().to_path_buf(), "(a directory)"),
    ];
    for (p, why) in cases {
        let q = p.clone();
        let got = within_5s(move || {
            (
                decode_file(&q),
                decodes_in_pieces(&q),
                header_dimensions(&q),
                fingerprint(&q).map(|_| ()),
                open_regular(&q).map(|_| ()),
            )
        })
        .unwrap_or_else(|| panic!("{}: blocked", p.display()));
        let shown = format!("not an image: {} {why}", p.display());
        assert_eq!(got.0.unwrap_err(), shown);
        assert!(!got.1, "{}", p.display());
        assert_eq!(got.2, None, "{}", p.display());
        assert_eq!(got.3.unwrap_err(), shown);
        assert_eq!(got.4.unwrap_err(), shown);
        assert_eq!(open_external(&p).unwrap_err(), shown);
    }
}

/// The worker's prefetch thread, given a FIFO: it refuses it at once and goes on to
/// prefetch the next image (before, it blocked in `open` for the rest of the session).
#[cfg(unix)]
#[test]
fn a_fifo_does_not_block_prefetching() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.png");
    mkfifo(&fifo);
    let good = dir.path().join("good.png");
    RgbImage::new(4, 4).save(&good).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let w = ImageWorker::spawn(
        make_render(ProtocolChoice::Halfblocks).0,
        Box::new(move |e| {
            let _ = tx.send(e);
        }),
    );
    w.prefetch(fifo.clone());
    std::thread::sleep(std::time::Duration::from_millis(100));
    w.prefetch(good.clone());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while w.stats().decodes < 1 {
        assert!(
            std::time::Instant::now() < deadline,
            "the prefetch thread is stuck on the FIFO"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // And the FIFO as the current item's image: a clear message in the pane.
    w.request(ImageKey {
        path: fifo.clone(),
        width: 20,
        height: 10,
    });
    match rx.recv_timeout(std::time::Duration::from_secs(5)) {
        Ok(ImageEvent::Ready(_, r)) => assert_eq!(
            r.err().map(|e| e.to_string()),
            Some(format!(
                "not an image: {} (not a regular file: a FIFO)",
                fifo.display()
            ))
        ),
        other => panic!("no answer for the FIFO: {other:?}"),
    }
}

#[test]
fn tmux_client_colours_from_features_else_terminfo() {
    use super::tmux::client_colours;
    let eight = |_: &str| Some(8);
    // Recorded from tmux 3.3a: xterm (256 and RGB), mlterm (terminfo: 8 colours).
    assert_eq!(
        client_colours("256,bpaste,ccolour,clipboard,RGB,title", "xterm", eight),
        Some(256)
    );
    assert_eq!(
        client_colours("bpaste,focus,title", "mlterm", eight),
        Some(8)
    );
    assert_eq!(client_colours("", "", eight), None);
    assert_eq!(client_colours("", "x;rm -rf", eight), None);
}

#[test]
fn a_direct_kitty_placement_transmits_the_png_and_places_it_at_its_cell() {
    use super::encoder::base64;
    assert_eq!(base64(b""), "");
    assert_eq!(base64(b"f"), "Zg==");
    assert_eq!(base64(b"fo"), "Zm8=");
    assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    let img = DynamicImage::ImageRgb8(ImageBuffer::from_fn(300, 200, |x, _| {
        Rgb([(x % 256) as u8, 40, 200])
    }));
    for tmux in [false, true] {
        let render = Render {
            protocol: ProtocolType::Kitty,
            font: FontSize::new(10, 20),
            tmux,
            compress: true,
            kitty_direct: true,
        };
        let p = encode(&img, &render, Size::new(30, 10), 7).unwrap();
        assert!(
            paints_over_text(&p),
            "drawn like sixel: hidden under popups"
        );
        assert_eq!(kitty_direct_image(&p), Some(KittyImage { id: 7, tmux }));
        let Protocol::Sixel(s) = &p else {
            unreachable!()
        };
        let esc = if tmux { "\x1b\x1b" } else { "\x1b" };
        let first = format!(
            "{esc}_Ga=T,f=100,t=d,i=7,p=1,c={},r={},C=1,q=2,m=",
            p.size().width,
            p.size().height
        );
        let body = if tmux {
            assert!(s.data.starts_with("\x1bPtmux;") && s.data.ends_with("\x1b\\"));
            assert_eq!(s.data.matches("\x1bPtmux;").count(), 1, "one passthrough");
            &s.data["\x1bPtmux;".len()..s.data.len() - 2]
        } else {
            &s.data[..]
        };
        assert!(body.starts_with(&first), "{}", &body[..80]);
        // No Unicode-placeholder (virtual) placement, which kitty 0.26 refuses.
        assert!(!body.contains("U=1"));
        // The chunks put back together are a PNG of the fitted pixels.
        let mut payload = String::new();
        for chunk in body.split(&format!("{esc}_G")).skip(1) {
            let chunk = chunk.strip_suffix(&format!("{esc}\\")).unwrap();
            let (_, data) = chunk.split_once(';').unwrap();
            assert!(data.len() <= 4096);
            payload.push_str(data);
        }
        let png = decode_base64(&payload);
        let back = image::load_from_memory(&png).unwrap();
        assert_eq!(
            (back.width(), back.height()),
            (
                u32::from(p.size().width) * 10,
                u32::from(p.size().height) * 20
            )
        );
    }
}

fn decode_base64(s: &str) -> Vec<u8> {
    const ABC: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let vals: Vec<u32> = s
        .bytes()
        .filter(|&b| b != b'=')
        .map(|b| ABC.find(char::from(b)).unwrap() as u32)
        .collect();
    let mut out = Vec::new();
    for group in vals.chunks(4) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, v)| n | (v << (18 - 6 * i)));
        for k in 0..group.len() - 1 {
            out.push((n >> (16 - 8 * k)) as u8);
        }
    }
    out
}

/// A sixel holds the picture's own pixels, without the transparent strip that pads it
/// to whole cells: Konsole paints a sixel's transparent pixels in its first palette
/// colour (the grey band under the picture, issue 20). 480x320 at 10x19-pixel cells in
/// 30x20 cells: 300x200 pixels, in 30x11 cells (209 pixels high).
#[test]
fn a_sixel_is_the_pictures_size_not_padded_to_whole_cells() {
    let img = DynamicImage::ImageRgb8(RgbImage::from_fn(480, 320, |x, y| {
        Rgb([(x % 256) as u8, (y % 256) as u8, 128])
    }));
    for tmux in [false, true] {
        let render = Render {
            protocol: ProtocolType::Sixel,
            font: FontSize::new(10, 19),
            tmux,
            compress: false,
            kitty_direct: false,
        };
        let p = encode(&img, &render, Size::new(30, 20), 1).unwrap();
        assert_eq!(p.size(), Size::new(30, 11));
        let Protocol::Sixel(s) = &p else {
            unreachable!()
        };
        let raster = s.data.split_once("q\"").map(|(_, r)| r).unwrap_or_default();
        let dims: Vec<&str> = raster.splitn(5, [';', '#']).take(4).collect();
        assert_eq!(dims[2..], ["300", "200"], "tmux {tmux}: {dims:?}");
    }
}
