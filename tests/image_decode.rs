//! The decoding harness: the real binary in a pseudo-terminal draws a known PNG; every
//! byte it writes is captured, the graphics sequences (kitty, sixel, iTerm2) are decoded
//! back to pixels and compared with the source, and their placement is read from a
//! screen model. Directly, and through tmux where tmux is installed is left to
//! `e2e_images` (tmux 3.3 keeps no graphics state to read back).

mod common;

use std::io::Read;

use common::{Pty, Sandbox};
use image::{Rgb, RgbImage};

const RED: [u8; 3] = [220, 20, 20];
const BLUE: [u8; 3] = [20, 20, 220];
const GREEN: [u8; 3] = [20, 200, 20];

/// A sandbox with `two.jsonl`: item 1 shows `a.png` (left half red, right half blue,
/// 64x32), item 2 shows `b.png` (all green), item 3 shows `a.png` again.
fn sandbox() -> Sandbox {
    let sb = Sandbox::new();
    let a: RgbImage = RgbImage::from_fn(64, 32, |x, _| Rgb(if x < 32 { RED } else { BLUE }));
    a.save(sb.path("a.png")).unwrap();
    RgbImage::from_pixel(40, 40, Rgb(GREEN))
        .save(sb.path("b.png"))
        .unwrap();
    let template = std::fs::read_to_string(sb.path("cvqa.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(template.lines().next().unwrap()).unwrap();
    let mut lines = String::new();
    for (i, img) in ["a.png", "b.png", "a.png"].iter().enumerate() {
        let mut v = first.clone();
        v["id"] = format!("pic-{}", i + 1).into();
        v["image"] = (*img).into();
        lines.push_str(&v.to_string());
        lines.push('\n');
    }
    std::fs::write(sb.path("two.jsonl"), lines).unwrap();
    sb
}

fn b64(s: &[u8]) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for v in s.iter().filter_map(|&c| val(c)) {
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// Every `ESC <intro> … ESC \` (or BEL for OSC) string in `out`, as (offset, body).
fn strings(out: &[u8], intro: u8) -> Vec<(usize, Vec<u8>)> {
    let mut found = Vec::new();
    let mut i = 0;
    while i + 1 < out.len() {
        if out[i] == 0x1b && out[i + 1] == intro {
            let start = i;
            let mut j = i + 2;
            while j < out.len() {
                if out[j] == 0x07 && intro == b']' {
                    found.push((start, out[i + 2..j].to_vec()));
                    break;
                }
                if out[j] == 0x1b && out.get(j + 1) == Some(&b'\\') {
                    found.push((start, out[i + 2..j].to_vec()));
                    break;
                }
                j += 1;
            }
            i = j;
        } else {
            i += 1;
        }
    }
    found
}

/// A kitty transmission decoded: its keys (of the first chunk) and its pixels.
struct KittyImage {
    id: u32,
    cols: u16,
    rows: u16,
    pixels: image::RgbaImage,
}

fn kitty_images(out: &[u8]) -> Vec<KittyImage> {
    let mut images = Vec::new();
    let mut keys: Vec<(String, String)> = Vec::new();
    let mut payload = Vec::new();
    for (_, body) in strings(out, b'_') {
        let Some(rest) = body.strip_prefix(b"G") else {
            continue;
        };
        let text = String::from_utf8_lossy(rest).into_owned();
        let (k, data) = text.split_once(';').unwrap_or((&text, ""));
        let these: Vec<(String, String)> = k
            .split(',')
            .filter_map(|kv| kv.split_once('='))
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        let get = |ks: &[(String, String)], name: &str| {
            ks.iter().find(|(a, _)| a == name).map(|(_, b)| b.clone())
        };
        if get(&these, "a").as_deref() == Some("d") {
            continue;
        }
        if get(&these, "a").is_some() {
            keys = these.clone();
            payload.clear();
        }
        payload.extend(b64(data.as_bytes()));
        if get(&these, "m").as_deref() == Some("1") {
            continue;
        }
        let mut raw = payload.clone();
        if get(&keys, "o").as_deref() == Some("z") {
            let mut inflated = Vec::new();
            flate2::read::ZlibDecoder::new(&payload[..])
                .read_to_end(&mut inflated)
                .unwrap();
            raw = inflated;
        }
        let num = |n: &str| get(&keys, n).unwrap().parse::<u32>().unwrap();
        assert_eq!(get(&keys, "f").as_deref(), Some("32"), "RGBA");
        let (w, h) = (num("s"), num("v"));
        images.push(KittyImage {
            id: num("i"),
            cols: num("c") as u16,
            rows: num("r") as u16,
            pixels: image::RgbaImage::from_raw(w, h, raw).expect("s*v*4 bytes"),
        });
    }
    images
}

/// The pixels of `img` look like a.png: red on the left of the drawn part, blue on the
/// right (the drawn part is the opaque top-left region; the rest is transparent).
fn looks_like_a(img: &image::RgbaImage) {
    let drawn_w = (0..img.width())
        .take_while(|&x| img.get_pixel(x, 0).0[3] == 255)
        .count() as u32;
    let drawn_h = (0..img.height())
        .take_while(|&y| img.get_pixel(0, y).0[3] == 255)
        .count() as u32;
    assert!(drawn_w > 8 && drawn_h > 4, "{drawn_w}x{drawn_h} drawn");
    // The source's 2:1 aspect is kept (within a pixel of rounding).
    assert!(
        (i64::from(drawn_w) - 2 * i64::from(drawn_h)).abs() <= 2,
        "aspect {drawn_w}x{drawn_h}"
    );
    let px = |x, y| {
        let p = img.get_pixel(x, y).0;
        [p[0], p[1], p[2]]
    };
    assert_eq!(px(drawn_w / 4, drawn_h / 2), RED);
    assert_eq!(px(3 * drawn_w / 4, drawn_h / 2), BLUE);
}

/// Cells showing kitty placeholders: (row, col, colour).
fn placeholders(p: &Pty) -> Vec<(u16, u16, vt100::Color)> {
    p.with_screen(|s| {
        let (rows, cols) = s.size();
        let mut found = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if let Some(cell) = s.cell(r, c)
                    && cell.contents().starts_with('\u{10EEEE}')
                {
                    found.push((r, c, cell.fgcolor()));
                }
            }
        }
        found
    })
}

#[test]
fn kitty_pixels_placement_freeing_and_no_resend() {
    let sb = sandbox();
    let mut p = sb.open("two.jsonl", &["--image-protocol", "kitty"], 60_000);
    p.wait_for("pic-1");
    p.wait_for_bytes(b"a=T", 0);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let images = kitty_images(&p.output());
    assert_eq!(images.len(), 1, "one transmission");
    let a = &images[0];
    looks_like_a(&a.pixels);
    // Placement: exactly c x r placeholder cells, one rectangle, coloured with the id
    // as a 256-colour index (kept by terminals and tmux without 24-bit colour).
    let cells = placeholders(&p);
    assert_eq!(cells.len(), usize::from(a.cols) * usize::from(a.rows));
    let top = cells.iter().map(|c| c.0).min().unwrap();
    let left = cells.iter().map(|c| c.1).min().unwrap();
    for (r, c, colour) in &cells {
        assert!(*r < top + a.rows && *c < left + a.cols);
        assert_eq!(*colour, vt100::Color::Idx(a.id as u8), "id {}", a.id);
    }
    assert!(a.id < 256);
    // A key that changes nothing on the image sends nothing again.
    let mark = p.mark();
    p.send("j");
    p.send("k");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(kitty_images(&p.output()[mark..]).is_empty(), "re-sent");
    // The next item: its image is sent, the old one freed.
    let mark = p.mark();
    p.send("n");
    p.wait_for("pic-2");
    p.wait_for_bytes(format!("a=d,d=I,i={},", a.id).as_bytes(), mark);
    p.wait_for_bytes(b"a=T", mark);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let b = kitty_images(&p.output()[mark..]);
    assert_eq!(b.len(), 1);
    let px = b[0].pixels.get_pixel(1, 1).0;
    assert_eq!([px[0], px[1], px[2]], GREEN);
    p.send("q");
    assert!(p.wait_exit().success());
    // On exit the shown image is freed too.
    let out = p.output();
    assert!(
        strings(&out, b'_')
            .iter()
            .any(|(_, s)| s.starts_with(format!("Ga=d,d=I,i={},", b[0].id).as_bytes())),
        "the last image is freed on exit"
    );
}

#[test]
fn iterm2_pixels_and_placement() {
    let sb = sandbox();
    let mut p = sb.open("two.jsonl", &["--image-protocol", "iterm2"], 60_000);
    p.wait_for("pic-1");
    p.wait_for_bytes(b"\x1b]1337;File=", 0);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let out = p.output();
    let files: Vec<_> = strings(&out, b']')
        .into_iter()
        .filter(|(_, s)| s.starts_with(b"1337;File="))
        .collect();
    assert_eq!(files.len(), 1);
    let (at, body) = &files[0];
    let text = String::from_utf8_lossy(body);
    let (_, data) = text.split_once(':').unwrap();
    let img = image::load_from_memory(&b64(data.as_bytes()))
        .unwrap()
        .to_rgba8();
    looks_like_a(&img);
    // Placed inside the image pane (below the header, inside the border).
    let mut model = vt100::Parser::new(30, 100, 0);
    model.process(&out[..*at]);
    let (row, col) = model.screen().cursor_position();
    assert!(row >= 1 && col >= 1, "at {row},{col}");
    p.send("q");
    assert!(p.wait_exit().success());
}
