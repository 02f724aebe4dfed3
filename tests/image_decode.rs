//! The decoding harness: the real binary in a pseudo-terminal draws a known PNG; every
//! byte it writes is captured, the graphics sequences (kitty, sixel, iTerm2) are decoded
//! back to pixels and compared with the source, and their placement is read from a
//! screen model. Directly, and (kitty) through a real tmux where tmux is installed.

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

/// A sixel image decoded to RGB (unpainted pixels white), from the DCS body after
/// `ESC P` (parameters, `q`, then data).
fn decode_sixel(body: &[u8]) -> image::RgbImage {
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

/// Sixel without a pixel size from the tty: small cells assumed at first (never wider
/// than the pane), the terminal asked once; its answer redraws the image at its size.
#[test]
fn sixel_pixels_placement_and_cell_size_answer() {
    let sb = sandbox();
    let mut p = sb.open("two.jsonl", &["--image-protocol", "sixel"], 60_000);
    p.wait_for("pic-1");
    p.wait_for_bytes(b"\x1b[16t", 0);
    p.wait_for_bytes(b"\x1bP", 0);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let sixels = |out: &[u8]| -> Vec<(usize, image::RgbImage)> {
        strings(out, b'P')
            .into_iter()
            .filter(|(_, b)| b.contains(&b'q'))
            .map(|(at, b)| (at, decode_sixel(&b)))
            .collect()
    };
    let out = p.output();
    let first = sixels(&out);
    assert_eq!(first.len(), 1);
    let (at, img) = &first[0];
    let pane_cols = 98; // 100 columns less the border
    assert!(img.width() <= pane_cols * 6, "{} px wide", img.width());
    let rgb = |x, y| img.get_pixel(x, y).0;
    let drawn_w = (0..img.width())
        .take_while(|&x| rgb(x, 0) != [255, 255, 255])
        .count() as u32;
    let drawn_h = (0..img.height())
        .take_while(|&y| rgb(0, y) != [255, 255, 255])
        .count() as u32;
    let near = |a: [u8; 3], b: [u8; 3]| a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 8);
    assert!(
        near(rgb(drawn_w / 4, drawn_h / 2), RED),
        "{:?}",
        rgb(drawn_w / 4, drawn_h / 2)
    );
    assert!(near(rgb(3 * drawn_w / 4, drawn_h / 2), BLUE));
    let mut model = vt100::Parser::new(30, 100, 0);
    model.process(&out[..*at]);
    let (row, col) = model.screen().cursor_position();
    assert!(row >= 1 && col >= 1, "at {row},{col}");
    // The terminal answers: 8x16 cells. The image is drawn again at that size.
    let mark = p.mark();
    p.send_raw(b"\x1b[6;16;8t\x1b[0n");
    p.wait_for_bytes(b"\x1bP", mark);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let again = sixels(&p.output()[mark..]);
    assert_eq!(again.len(), 1);
    assert!(
        again[0].1.width() > img.width(),
        "drawn larger for 8x16 cells"
    );
    assert!(again[0].1.width() <= pane_cols * 8);
    assert_eq!(again[0].1.width() % 8, 0, "a whole number of 8-pixel cells");
    // Keys that leave the image alone send nothing again.
    std::thread::sleep(std::time::Duration::from_millis(200));
    for key in ["j", "k"] {
        let mark = p.mark();
        p.send(key);
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert!(
            sixels(&p.output()[mark..]).is_empty(),
            "re-sent on {key:?}: {:?}",
            String::from_utf8_lossy(&p.output()[mark..])
                .chars()
                .take(300)
                .collect::<String>()
        );
    }
    // Another item: its image replaces this one.
    let mark = p.mark();
    p.send("n");
    p.wait_for("pic-2");
    p.wait_for_bytes(b"\x1bP", mark);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let next = sixels(&p.output()[mark..]);
    assert_eq!(next.len(), 1);
    let px = next[0].1.get_pixel(2, 2).0;
    assert!(near(px, GREEN), "{px:?}");
    p.send("q");
    assert!(p.wait_exit().success());
}

/// A kitty image that becomes ready while a popup covers its first cell is still
/// transmitted (it used to ride in that cell, and the popup dropped it for good).
#[test]
fn kitty_image_ready_under_a_popup_is_transmitted() {
    let sb = sandbox();
    // Slow enough to decode that the popup opens first.
    RgbImage::from_fn(2400, 1200, |x, _| Rgb(if x < 1200 { RED } else { BLUE }))
        .save(sb.path("a.png"))
        .unwrap();
    let data = sb.path("data").display().to_string();
    let config = sb.path("config").display().to_string();
    // 14 rows: the popup's top row is the image's first row.
    let mut p = Pty::spawn(
        [
            sb.path("two.jsonl").display().to_string(),
            "-r".into(),
            "erin".into(),
            "--image-protocol".into(),
            "kitty".into(),
        ],
        &[("VERDICT_DATA_DIR", data), ("VERDICT_CONFIG_DIR", config)],
        100,
        14,
    );
    // Typed before the first frame: the popup opens before the image is ready.
    p.send_raw(b":");
    p.wait_for("Jump to item");
    p.wait_for_bytes(b"a=T", 0);
    std::thread::sleep(std::time::Duration::from_millis(300));
    p.send("\x1b");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let images = kitty_images(&p.output());
    assert_eq!(images.len(), 1);
    looks_like_a(&images[0].pixels);
    let cells = placeholders(&p);
    assert_eq!(
        cells.len(),
        usize::from(images[0].cols) * usize::from(images[0].rows),
        "the whole image is placed once the popup closes"
    );
    p.send("q");
    assert!(p.wait_exit().success());
}

/// A tmux server of its own (killed when dropped) on a private socket.
struct TmuxServer(String);
impl Drop for TmuxServer {
    fn drop(&mut self) {
        let _ = std::process::Command::new("tmux")
            .args(["-L", &self.0, "kill-server"])
            .output();
    }
}

/// The reviewer on the sandbox's `two.jsonl` with `protocol`, inside a new tmux session
/// shown in a pty of 100×30; `None` when tmux is not installed. Bind the guard before
/// the pty, so the pty goes first, then the server, then the sandbox.
fn verdict_in_tmux(name: &str, protocol: &str) -> Option<((TmuxServer, Sandbox), Pty)> {
    verdict_in_tmux_sized(name, protocol, 100, 30)
}

/// [`verdict_in_tmux`] in a pty of `cols`×`rows`.
fn verdict_in_tmux_sized(
    name: &str,
    protocol: &str,
    cols: u16,
    rows: u16,
) -> Option<((TmuxServer, Sandbox), Pty)> {
    let ok = std::process::Command::new("tmux").arg("-V").output();
    if !ok.is_ok_and(|o| o.status.success()) {
        return None;
    }
    let sb = sandbox();
    let socket = format!("verdict-{name}-{}", std::process::id());
    let bin = std::env::var("VERDICT_TEST_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_verdict").to_string());
    let command = format!(
        "env VERDICT_DATA_DIR={} VERDICT_CONFIG_DIR={} {bin} {} -r erin --image-protocol {protocol}",
        sb.path("data").display(),
        sb.path("config").display(),
        sb.path("two.jsonl").display(),
    );
    let server = TmuxServer(socket.clone());
    let p = Pty::spawn_program(
        "tmux",
        [
            "-L",
            socket.as_str(),
            "-f",
            "/dev/null",
            "new-session",
            command.as_str(),
        ],
        &[],
        cols,
        rows,
    );
    Some(((server, sb), p))
}

/// Kitty through a real tmux (3.3 or later) whose outer terminal has no 24-bit colour:
/// the transmission comes out of tmux's passthrough intact, and the placeholders keep
/// the image id (a 256-colour index that tmux does not convert).
#[test]
fn kitty_through_tmux_without_rgb() {
    let Some((_tmux, mut p)) = verdict_in_tmux("decode", "kitty") else {
        eprintln!("tmux is not installed: skipped");
        return;
    };
    p.wait_for("pic-1");
    p.wait_for_bytes(b"a=T", 0);
    std::thread::sleep(std::time::Duration::from_millis(500));
    let images = kitty_images(&p.output());
    assert_eq!(images.len(), 1, "one transmission out of tmux");
    looks_like_a(&images[0].pixels);
    let cells = placeholders(&p);
    assert!(!cells.is_empty(), "placeholders drawn:\n{}", p.contents());
    for (_, _, colour) in &cells {
        assert_eq!(*colour, vt100::Color::Idx(images[0].id as u8));
    }
    p.send("q");
    p.wait_exit();
}

/// `auto` inside tmux: tmux answers the status report itself at once; the outer
/// terminal's kitty answer, passed back through tmux, still upgrades to kitty.
#[test]
fn auto_through_tmux_upgrades_on_the_outer_kitty_answer() {
    let Some((_tmux, mut p)) = verdict_in_tmux("auto", "auto") else {
        eprintln!("tmux is not installed: skipped");
        return;
    };
    p.wait_for("pic-1");
    // The kitty query came out of tmux's passthrough; answer it as kitty would.
    p.wait_for_bytes(b"\x1b_Gi=31,", 0);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let mark = p.mark();
    p.send_raw(b"\x1b_Gi=31;OK\x1b\\");
    p.wait_for_bytes(b"a=T", mark);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let images = kitty_images(&p.output()[mark..]);
    assert_eq!(images.len(), 1);
    looks_like_a(&images[0].pixels);
    assert!(!placeholders(&p).is_empty(), "{}", p.contents());
    p.send("q");
    p.wait_exit();
}

/// Runs `tmux -L socket args…` and returns its standard output.
fn tmux_on(socket: &str, args: &[&str]) -> String {
    let out = std::process::Command::new("tmux")
        .args(["-L", socket])
        .args(args)
        .output()
        .expect("run tmux");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Where each sixel or iTerm2 image in `out` (the outer terminal's bytes) starts, and
/// the outer cursor (row, column) at that moment: where the terminal draws it.
fn image_positions(out: &[u8], protocol: &str) -> Vec<(usize, (u16, u16))> {
    let starts: Vec<usize> = match protocol {
        "sixel" => strings(out, b'P')
            .into_iter()
            .filter(|(_, b)| b.contains(&b'q') && !b.starts_with(b"tmux;"))
            .map(|(at, _)| at)
            .collect(),
        _ => strings(out, b']')
            .into_iter()
            .filter(|(_, b)| b.starts_with(b"1337;File="))
            .map(|(at, _)| at)
            .collect(),
    };
    starts
        .into_iter()
        .map(|at| {
            let mut model = vt100::Parser::new(30, 100, 0);
            model.process(&out[..at]);
            (at, model.screen().cursor_position())
        })
        .collect()
}

/// sixel and iTerm2 through tmux's passthrough: after a split moves the reviewer's pane
/// to the right, the image is drawn inside that pane (tmux does not place passthrough
/// data; verdict moves the outer cursor itself); after switching to another window and
/// back (tmux redraws the pane from its own grid, without the image), it is drawn again.
#[test]
fn sixel_and_iterm2_through_tmux_follow_their_pane() {
    for (protocol, start) in [("sixel", &b"\x1bP"[..]), ("iterm2", b"\x1b]1337;File=")] {
        let Some(((server, _sb), p)) = verdict_in_tmux(&format!("pane-{protocol}"), protocol)
        else {
            eprintln!("tmux is not installed: skipped");
            return;
        };
        let socket = server.0.clone();
        p.wait_for("pic-1");
        // The reviewer is told what tmux does not keep.
        p.wait_for(&format!("{protocol} via tmux: redrawn on pane changes"));
        p.wait_for_bytes(start, 0);
        std::thread::sleep(std::time::Duration::from_millis(500));
        let pane = tmux_on(&socket, &["display", "-p", "#{pane_id}"]);
        // A new pane to the left: the reviewer's pane now starts at column 41.
        let mark = p.mark();
        tmux_on(
            &socket,
            &[
                "split-window",
                "-h",
                "-b",
                "-l",
                "40",
                "-t",
                &pane,
                "sleep 600",
            ],
        );
        let left: u16 = tmux_on(&socket, &["display", "-p", "-t", &pane, "#{pane_left}"])
            .parse()
            .unwrap();
        assert!(left >= 40, "pane_left {left}");
        p.wait_for_bytes(start, mark);
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let out = p.output();
        let drawn = image_positions(&out, protocol);
        let after: Vec<_> = drawn.iter().filter(|(at, _)| *at >= mark).collect();
        assert!(
            !after.is_empty(),
            "{protocol}: not drawn again after the split"
        );
        for (_, (row, col)) in &after {
            assert!(
                *col >= left && *row >= 1,
                "{protocol}: drawn at {row},{col}, outside the pane starting at column {left}"
            );
        }
        // Copy mode shows tmux's own view; leaving it redraws the pane: drawn again.
        tmux_on(&socket, &["copy-mode", "-t", &pane]);
        std::thread::sleep(std::time::Duration::from_millis(1000));
        let mark = p.mark();
        tmux_on(&socket, &["send-keys", "-t", &pane, "-X", "cancel"]);
        p.wait_for_bytes(start, mark);
        // Another window, then back: drawn again, in the pane.
        tmux_on(&socket, &["new-window", "sleep 600"]);
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let mark = p.mark();
        tmux_on(&socket, &["last-window"]);
        p.wait_for_bytes(start, mark);
        std::thread::sleep(std::time::Duration::from_millis(500));
        let out = p.output();
        let back: Vec<_> = image_positions(&out, protocol)
            .into_iter()
            .filter(|(at, _)| *at >= mark)
            .collect();
        assert!(!back.is_empty(), "{protocol}: not drawn again on return");
        for (_, (row, col)) in &back {
            assert!(*col >= left && *row >= 1, "{protocol}: at {row},{col}");
        }
        tmux_on(&socket, &["send-keys", "-t", &pane, "q"]);
    }
}

/// Kitty through tmux 3.3, whose `allow-passthrough on` drops what a hidden pane sends:
/// an image transmitted while the reviewer's window is hidden is transmitted again when
/// the window is shown (tmux 3.4's `all` would have kept it).
#[test]
fn kitty_sent_while_the_window_is_hidden_arrives_when_shown() {
    let ok = std::process::Command::new("tmux").arg("-V").output();
    if !ok.is_ok_and(|o| o.status.success()) {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    let sb = sandbox();
    let socket = format!("verdict-hidden-{}", std::process::id());
    let _server = TmuxServer(socket.clone());
    let p = Pty::spawn_program(
        "tmux",
        [
            "-L",
            socket.as_str(),
            "-f",
            "/dev/null",
            "new-session",
            "sleep 600",
        ],
        &[],
        100,
        30,
    );
    std::thread::sleep(std::time::Duration::from_millis(500));
    let bin = std::env::var("VERDICT_TEST_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_verdict").to_string());
    let command = format!(
        "env VERDICT_DATA_DIR={} VERDICT_CONFIG_DIR={} {bin} {} -r erin --image-protocol kitty",
        sb.path("data").display(),
        sb.path("config").display(),
        sb.path("two.jsonl").display(),
    );
    tmux_on(&socket, &["new-window", "-d", "-n", "rev", &command]);
    // Drawn in the hidden window (tmux keeps its screen), image sent and dropped.
    let start = std::time::Instant::now();
    while !tmux_on(&socket, &["capture-pane", "-p", "-t", "rev"]).contains("pic-1") {
        assert!(start.elapsed() < common::WAIT, "never drew pic-1");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let mark = p.mark();
    tmux_on(&socket, &["select-window", "-t", "rev"]);
    p.wait_for_bytes(b"a=T", mark);
    std::thread::sleep(std::time::Duration::from_millis(500));
    let images = kitty_images(&p.output()[mark..]);
    assert_eq!(images.len(), 1, "transmitted once more");
    looks_like_a(&images[0].pixels);
    let cells = placeholders(&p);
    assert!(!cells.is_empty(), "placeholders:\n{}", p.contents());
    for (_, _, colour) in &cells {
        assert_eq!(*colour, vt100::Color::Idx(images[0].id as u8));
    }
}

/// A photo-like picture (noise) whose sixel at the pane's size is over tmux's 1 MiB
/// passthrough buffer: through a real tmux it still arrives (drawn smaller), instead
/// of being dropped without a word.
#[test]
fn a_sixel_over_a_mebibyte_still_comes_through_tmux() {
    let Some(((_server, sb), mut p)) = verdict_in_tmux_sized("big", "sixel", 200, 60) else {
        eprintln!("tmux is not installed: skipped");
        return;
    };
    p.wait_for("pic-1");
    let mut seed = 0x2545_f491_u32;
    let noise = RgbImage::from_fn(480, 320, |_, _| {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        let b = seed.to_le_bytes();
        Rgb([b[0], b[1], b[2]])
    });
    noise.save(sb.path("b.png")).unwrap();
    p.send("n");
    p.wait_for("pic-2");
    // The image fills the screen: 198×58 cells, over 1000×600 pixels of noise.
    std::thread::sleep(std::time::Duration::from_millis(500));
    let mark = p.mark();
    p.send("z");
    p.wait_for_bytes(b"\x1bP", mark);
    std::thread::sleep(std::time::Duration::from_millis(2500));
    let out = p.output();
    let sixels: Vec<_> = strings(&out[mark..], b'P')
        .into_iter()
        .filter(|(_, b)| b.contains(&b'q') && !b.starts_with(b"tmux;"))
        .collect();
    assert_eq!(sixels.len(), 1, "the picture came through tmux");
    let body = &sixels[0].1;
    eprintln!("sixel through tmux: {} bytes", body.len());
    assert!(body.len() < 1 << 20);
    let img = decode_sixel(body);
    eprintln!("decoded {}x{}", img.width(), img.height());
    // Fitted to the screen it would be about 1044 pixels wide; drawn smaller to fit
    // the buffer, but still a picture.
    assert!(
        (300..1000).contains(&img.width()),
        "{}x{}",
        img.width(),
        img.height()
    );
}
