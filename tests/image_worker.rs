//! The image worker end to end, with half-blocks (no terminal query).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use image::{ImageBuffer, Rgb, RgbImage};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Color;
use verdict::tui::image::{
    ImageEvent, ImageKey, ImageWorker, ProtocolChoice, Render, decode_file, image_widget,
    make_render, placeholder,
};

const WAIT: Duration = Duration::from_secs(10);

fn worker(picker: Option<Render>) -> (ImageWorker, Receiver<ImageEvent>) {
    let (tx, rx) = channel();
    let w = ImageWorker::spawn(
        picker,
        Box::new(move |e| {
            let _ = tx.send(e);
        }),
    );
    (w, rx)
}

fn halfblocks() -> Render {
    let (picker, name) = make_render(ProtocolChoice::Halfblocks);
    assert_eq!(name, "halfblocks");
    picker.expect("a half-blocks picker")
}

/// Left half red, right half blue.
fn write_png(path: &Path, w: u32, h: u32) {
    let img: RgbImage = ImageBuffer::from_fn(w, h, |x, _| {
        if x < w / 2 {
            Rgb([220, 20, 20])
        } else {
            Rgb([20, 20, 220])
        }
    });
    img.save(path).unwrap();
}

fn key(path: &Path, width: u16, height: u16) -> ImageKey {
    ImageKey {
        path: path.to_path_buf(),
        width,
        height,
    }
}

fn ready(
    rx: &Receiver<ImageEvent>,
) -> (ImageKey, Result<ratatui_image::protocol::Protocol, String>) {
    match rx.recv_timeout(WAIT) {
        Ok(ImageEvent::Ready(k, r)) => (k, r),
        Err(e) => panic!("no Ready within {WAIT:?}: {e}"),
    }
}

fn error_for(path: &Path) -> String {
    let (w, rx) = worker(Some(halfblocks()));
    w.request(key(path, 20, 10));
    let (k, r) = ready(&rx);
    assert_eq!(k.path, path);
    match r {
        Ok(_) => panic!("{} should not render", path.display()),
        Err(e) => e,
    }
}

#[test]
fn renders_a_png_as_halfblocks() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("chart.png");
    write_png(&png, 64, 64);
    let (w, rx) = worker(Some(halfblocks()));
    w.request(key(&png, 20, 10));
    let (k, r) = ready(&rx);
    assert_eq!(k, key(&png, 20, 10));
    let protocol = r.expect("a protocol");
    // Square image, 10x20 px cells: 20x10 cells fill the area exactly.
    assert_eq!((protocol.size().width, protocol.size().height), (20, 10));

    let mut terminal = Terminal::new(TestBackend::new(30, 12)).unwrap();
    terminal
        .draw(|f| f.render_widget(image_widget(&protocol), f.area()))
        .unwrap();
    let buf = terminal.backend().buffer();
    let red = |c: Color| matches!(c, Color::Rgb(r, _, b) if r > 150 && b < 100);
    let blue = |c: Color| matches!(c, Color::Rgb(r, _, b) if b > 150 && r < 100);
    // Centred: columns 5..25, rows 0..10.
    for y in 0..10 {
        let left = &buf[(6, y)];
        let right = &buf[(23, y)];
        assert!(
            red(left.fg) && red(left.bg),
            "left half red at row {y}: {left:?}"
        );
        assert!(
            blue(right.fg) && blue(right.bg),
            "right half blue at row {y}: {right:?}"
        );
    }
    // Where the halves meet, a cell mixes the two colours with a half-block character.
    let seam: Vec<_> = (5..25).map(|x| &buf[(x, 3)]).collect();
    assert!(
        seam.iter().all(|c| ["▀", "▄", " "].contains(&c.symbol())),
        "only half-blocks or spaces"
    );
    assert!(buf[(4, 0)].bg == Color::Reset && buf[(25, 0)].bg == Color::Reset);
    assert!(buf[(10, 10)].bg == Color::Reset, "nothing below the image");

    // Asking again is served from the cache: no second decode or encode.
    w.request(key(&png, 20, 10));
    assert!(ready(&rx).1.is_ok());
    let stats = w.stats();
    assert_eq!((stats.decodes, stats.encodes, stats.delivered), (1, 1, 2));
}

#[test]
fn tall_image_keeps_its_aspect() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("tall.png");
    write_png(&png, 50, 200);
    let (w, rx) = worker(Some(halfblocks()));
    w.request(key(&png, 40, 20));
    let p = ready(&rx).1.unwrap();
    // 50x200 px into 400x400 px: 100x400 px = 10x20 cells.
    assert_eq!((p.size().width, p.size().height), (10, 20));
}

#[test]
fn missing_file_is_not_found() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missing.png");
    let e = error_for(&path);
    assert!(e.contains("not found") && e.contains("missing.png"), "{e}");
}

#[test]
fn text_named_png_is_not_an_image() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.png");
    std::fs::write(&path, "this is a text file\n").unwrap();
    let e = error_for(&path);
    assert!(e.contains("not an image") && e.contains("notes.png"), "{e}");
}

#[test]
fn empty_truncated_and_huge_files_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.png");
    std::fs::write(&empty, b"").unwrap();
    assert!(error_for(&empty).contains("not an image"));

    let good = dir.path().join("good.png");
    write_png(&good, 300, 300);
    let bytes = std::fs::read(&good).unwrap();
    let truncated = dir.path().join("truncated.png");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let e = error_for(&truncated);
    assert!(e.starts_with("broken image: "), "{e}");

    let huge = dir.path().join("huge.png");
    std::fs::write(&huge, png_header(20_000, 20_000)).unwrap();
    let e = error_for(&huge);
    assert!(
        e.starts_with("image too large: ") && e.contains("20000x20000"),
        "{e}"
    );
}

#[test]
fn fixtures_decode_as_documented() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/images");
    let ok = decode_file(&dir.join("chart.png")).unwrap();
    assert_eq!((ok.width(), ok.height()), (160, 120));
    let photo = decode_file(&dir.join("photo.jpg")).unwrap();
    assert_eq!((photo.width(), photo.height()), (64, 48));
    for (name, prefix) in [
        ("not-an-image.png", "not an image: "),
        ("empty.png", "not an image: "),
        ("truncated.png", "broken image: "),
        ("huge-header.png", "image too large: "),
    ] {
        let e = decode_file(&dir.join(name)).unwrap_err();
        assert!(e.starts_with(prefix), "{name}: {e}");
    }
}

#[test]
fn rapid_requests_end_with_the_last_one() {
    let dir = tempfile::tempdir().unwrap();
    // Each a different file, so any request served would cost a decode.
    let paths: Vec<PathBuf> = (0..50)
        .map(|i| {
            let p = dir.path().join(format!("{i}.png"));
            let img: RgbImage = ImageBuffer::from_fn(256, 256, |x, y| {
                Rgb([(x + i) as u8, (y * 7) as u8, (x ^ y) as u8])
            });
            img.save(&p).unwrap();
            p
        })
        .collect();
    let (w, rx) = worker(Some(halfblocks()));
    for p in &paths {
        w.request(key(p, 30, 15));
    }
    let last = key(&paths[49], 30, 15);
    let deadline = Instant::now() + WAIT;
    let mut readies = 0;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(ImageEvent::Ready(k, r)) => {
                readies += 1;
                if k == last {
                    assert!(r.is_ok());
                    break;
                }
            }
            Err(e) => panic!("no Ready for the last request: {e}"),
        }
    }
    // Nothing else is queued behind it.
    assert!(rx.recv_timeout(Duration::from_millis(300)).is_err());
    let stats = w.stats();
    assert!(
        readies < 50 && stats.decodes < 50,
        "stale work was done: {readies} Ready, {stats:?}"
    );
}

#[test]
fn prefetch_decodes_ahead_so_the_request_only_encodes() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("next.png");
    write_png(&png, 100, 80);
    let (w, rx) = worker(Some(halfblocks()));
    w.prefetch(png.clone());
    let deadline = Instant::now() + WAIT;
    while w.stats().decodes == 0 {
        assert!(Instant::now() < deadline, "prefetch never decoded");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(w.stats().encodes, 0, "prefetch does not encode");
    w.request(key(&png, 20, 10));
    assert!(ready(&rx).1.is_ok());
    // Another size re-encodes from the cached decode.
    w.request(key(&png, 10, 5));
    assert!(ready(&rx).1.is_ok());
    let stats = w.stats();
    assert_eq!((stats.decodes, stats.encodes), (1, 2));
}

#[test]
fn a_changed_file_is_decoded_again() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("edited.png");
    write_png(&png, 40, 40);
    let (w, rx) = worker(Some(halfblocks()));
    w.request(key(&png, 10, 5));
    assert!(ready(&rx).1.is_ok());
    write_png(&png, 80, 40); // different length, so a different fingerprint
    w.request(key(&png, 10, 5));
    let p = ready(&rx).1.unwrap();
    assert_eq!((p.size().width, p.size().height), (10, 3));
    assert_eq!(w.stats().decodes, 2);
}

#[test]
fn display_off_still_reports_missing_files() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("a.png");
    write_png(&png, 10, 10);
    let (w, rx) = worker(None);
    w.request(key(&png, 10, 5));
    assert_eq!(ready(&rx).1.err().unwrap(), "image display is off");
    w.request(key(&dir.path().join("gone.png"), 10, 5));
    assert!(ready(&rx).1.err().unwrap().contains("not found"));
}

#[test]
fn placeholder_renders_in_a_terminal() {
    let mut terminal = Terminal::new(TestBackend::new(40, 7)).unwrap();
    terminal
        .draw(|f| f.render_widget(placeholder("image not found: x.png"), f.area()))
        .unwrap();
    let buf = terminal.backend().buffer();
    let text: String = (0..7)
        .map(|y| (0..40).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
        .collect();
    assert!(text.contains("image not found: x.png"), "{text}");
}

/// A PNG signature and IHDR claiming `w` x `h`, then a tiny IDAT and IEND.
fn png_header(w: u32, h: u32) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let crc = crc32(&out[start..]);
        out.extend_from_slice(&crc.to_be_bytes());
    }
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]); // 8-bit RGB
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(
        &mut out,
        b"IDAT",
        &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01],
    );
    chunk(&mut out, b"IEND", &[]);
    out
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A huge image that decodes whole (a JPEG: it cannot be stopped part-way) is not
/// decoded ahead of time for the next item; it is decoded when asked for. (A huge
/// PNG is prefetched: it decodes row by row and stops when no longer wanted, see
/// tests/image_prefetch.rs.)
#[test]
fn huge_images_that_decode_whole_are_not_prefetched() {
    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("huge.jpg");
    RgbImage::new(4100, 4000).save(&huge).unwrap();
    let small = dir.path().join("small.png");
    write_png(&small, 40, 20);
    let (w, rx) = worker(Some(halfblocks()));
    w.prefetch(huge.clone());
    // Let the worker take the prefetch if it is going to.
    std::thread::sleep(Duration::from_millis(300));
    w.request(key(&small, 20, 10));
    let (k, r) = ready(&rx);
    assert_eq!(k, key(&small, 20, 10));
    assert!(r.is_ok());
    assert_eq!(w.stats().decodes, 1, "the huge prefetch was decoded");
    // Asked for, it is decoded and drawn.
    w.request(key(&huge, 20, 10));
    let (k, r) = ready(&rx);
    assert_eq!(k, key(&huge, 20, 10));
    assert!(r.is_ok());
    assert_eq!(w.stats().decodes, 2);
}
