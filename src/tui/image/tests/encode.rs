//! Encoding for each protocol: kitty, sixel, iTerm2, and through tmux.

use super::*;

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
fn a_direct_kitty_placement_transmits_the_png_and_places_it_at_its_cell() {
    use crate::tui::image::encoder::base64;
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
