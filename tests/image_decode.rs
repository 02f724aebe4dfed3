//! The decoding harness: the real binary in a pseudo-terminal draws a known PNG; every
//! byte it writes is captured, the graphics sequences (kitty, sixel, iTerm2) are decoded
//! back to pixels and compared with the source, and their placement is read from a
//! screen model. Directly; through a real tmux in tests/image_tmux.rs.

mod common;
mod image_support;

use common::Pty;
use image::{Rgb, RgbImage};
use image_support::*;

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

/// Issue 35, case 4: after a font change (the tty's pixel size changes, the cells may
/// not) a sixel picture is drawn again for the new cell size, over as many cells as
/// before: never larger than its pane.
/// Before, the cell size measured at the start was kept, and a smaller font drew the
/// picture over the pane's border and the next pane.
#[test]
fn a_font_change_redraws_sixel_for_the_new_cells() {
    let sb = sandbox();
    let mut p = sb.open("two.jsonl", &["--image-protocol", "sixel"], 60_000);
    p.wait_for("pic-1");
    p.wait_for_bytes(b"\x1b[16t", 0);
    // 10x20-pixel cells.
    let mark = p.mark();
    p.send_raw(b"\x1b[6;20;10t\x1b[0n");
    p.wait_for_bytes(b"\x1bP", mark);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let widths = |out: &[u8]| -> Vec<u32> {
        strings(out, b'P')
            .into_iter()
            .filter(|(_, b)| b.contains(&b'q'))
            .map(|(_, b)| decode_sixel(&b).width())
            .collect()
    };
    let before = *widths(&p.output()[mark..]).last().expect("a sixel");
    assert_eq!(before % 10, 0, "{before} px: whole 10-pixel cells");
    let cells = before / 10;
    // A smaller font: the same 100x30 cells, 6x12 pixels each.
    let mark = p.mark();
    p.resize(100, 30, (600, 360));
    p.wait_for_bytes(b"\x1bP", mark);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let after = *widths(&p.output()[mark..]).last().expect("a sixel");
    // The old picture covered other cells at the new size: the screen was cleared.
    let out = p.output();
    assert!(
        out[mark..].windows(4).any(|w| w == b"\x1b[2J"),
        "the old picture was not cleared"
    );
    // As many cells as before (the pane did not change), of 6 pixels now.
    assert!(
        after <= cells * 6 && after + 12 >= cells * 6,
        "{after} px wide after the font change: {cells} cells of 6 pixels are {} px",
        cells * 6
    );
    p.send("q");
    assert!(p.wait_exit().success());
}
