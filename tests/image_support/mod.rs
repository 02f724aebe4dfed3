//! Shared by the image decoding tests: a sandbox with known pictures, and decoders that
//! turn what the reviewer writes (kitty, sixel, iTerm2) back into pixels.
#![allow(dead_code)]

use std::io::Read;

use crate::common::{Pty, Sandbox};
use image::{Rgb, RgbImage};

pub const RED: [u8; 3] = [220, 20, 20];
pub const BLUE: [u8; 3] = [20, 20, 220];
pub const GREEN: [u8; 3] = [20, 200, 20];

/// A sandbox with `two.jsonl`: item 1 shows `a.png` (left half red, right half blue,
/// 64x32), item 2 shows `b.png` (all green), item 3 shows `a.png` again.
pub fn sandbox() -> Sandbox {
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

pub fn b64(s: &[u8]) -> Vec<u8> {
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
pub fn strings(out: &[u8], intro: u8) -> Vec<(usize, Vec<u8>)> {
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
pub struct KittyImage {
    pub id: u32,
    pub cols: u16,
    pub rows: u16,
    pub pixels: image::RgbaImage,
}

pub fn kitty_images(out: &[u8]) -> Vec<KittyImage> {
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
pub fn looks_like_a(img: &image::RgbaImage) {
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
pub fn placeholders(p: &Pty) -> Vec<(u16, u16, vt100::Color)> {
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

/// A sixel image decoded to RGB (unpainted pixels white), from the DCS body after
/// `ESC P` (parameters, `q`, then data).
pub fn decode_sixel(body: &[u8]) -> image::RgbImage {
    let q = body.iter().position(|&c| c == b'q').expect("sixel q");
    let data = &body[q + 1..];
    let mut palette = vec![[0u8; 3]; 256];
    let mut painted: Vec<(u32, u32, [u8; 3])> = Vec::new();
    let (mut x, mut y, mut colour) = (0u32, 0u32, 0usize);
    let (mut w, mut h) = (0u32, 0u32);
    let mut i = 0;
    let number = |i: &mut usize| {
        let start = *i;
        while *i < data.len() && data[*i].is_ascii_digit() {
            *i += 1;
        }
        std::str::from_utf8(&data[start..*i])
            .unwrap()
            .parse::<u32>()
            .unwrap_or(0)
    };
    while i < data.len() {
        match data[i] {
            b'"' => {
                i += 1;
                let mut v = Vec::new();
                loop {
                    v.push(number(&mut i));
                    if data.get(i) == Some(&b';') {
                        i += 1;
                    } else {
                        break;
                    }
                }
                if v.len() >= 4 {
                    (w, h) = (v[2], v[3]);
                }
            }
            b'#' => {
                i += 1;
                let mut v = vec![number(&mut i)];
                while data.get(i) == Some(&b';') {
                    i += 1;
                    v.push(number(&mut i));
                }
                colour = v[0] as usize;
                if v.len() == 5 && v[1] == 2 {
                    let pct = |p: u32| ((p * 255 + 50) / 100) as u8;
                    palette[colour] = [pct(v[2]), pct(v[3]), pct(v[4])];
                }
            }
            b'$' => {
                x = 0;
                i += 1;
            }
            b'-' => {
                x = 0;
                y += 6;
                i += 1;
            }
            b'!' => {
                i += 1;
                let n = number(&mut i);
                let c = data[i];
                for _ in 0..n {
                    for bit in 0..6 {
                        if (c - 0x3f) & (1 << bit) != 0 {
                            painted.push((x, y + bit, palette[colour]));
                        }
                    }
                    x += 1;
                }
                i += 1;
            }
            c @ 0x3f..=0x7e => {
                for bit in 0..6 {
                    if (c - 0x3f) & (1 << bit) != 0 {
                        painted.push((x, y + bit, palette[colour]));
                    }
                }
                x += 1;
                i += 1;
            }
            _ => i += 1,
        }
    }
    let w = w.max(painted.iter().map(|p| p.0 + 1).max().unwrap_or(0));
    let h = h.max(painted.iter().map(|p| p.1 + 1).max().unwrap_or(0));
    let mut img = image::RgbImage::from_pixel(w, h, Rgb([255, 255, 255]));
    for (px, py, c) in painted {
        if px < w && py < h {
            img.put_pixel(px, py, Rgb(c));
        }
    }
    img
}
