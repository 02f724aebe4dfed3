//! Prefetch never holds up the current item: a synthetic slow decode (it blocks until the
//! test releases it or the worker cancels it) stands in for a huge image, so the order
//! of events is checked, not the clock. The memory bound of decoding a real huge PNG is
//! checked in a child process (its peak resident size, `VmHWM`).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use image::{DynamicImage, RgbImage};
use verdict::tui::image::{
    DecodeError, Decoder, ImageEvent, ImageKey, ImageWorker, ProtocolChoice, decode_cancellable,
    make_render,
};

/// Long enough that only a hang reaches it.
const WAIT: Duration = Duration::from_secs(20);

#[derive(Debug, PartialEq, Eq)]
enum Seen {
    Started(String),
    Cancelled(String),
    Finished(String),
}

/// Files whose name starts with `slow` decode only when the test sends their name on
/// the release channel, or stop when the worker cancels them; others decode at once.
struct Slow {
    events: Receiver<Seen>,
    release: Sender<String>,
    decoder: Decoder,
}

fn slow_decoder() -> Slow {
    let (seen_tx, events) = channel();
    let (release, release_rx) = channel::<String>();
    let seen_tx = Mutex::new(seen_tx);
    let released = Arc::new(Mutex::new((release_rx, Vec::<String>::new())));
    let decoder: Decoder = Arc::new(move |path: &Path, cancel: &dyn Fn() -> bool| {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let say = |s: Seen| {
            let _ = seen_tx.lock().unwrap().send(s);
        };
        if name.starts_with("slow") {
            say(Seen::Started(name.clone()));
            loop {
                if cancel() {
                    say(Seen::Cancelled(name.clone()));
                    return Err(DecodeError::Cancelled);
                }
                {
                    let mut r = released.lock().unwrap();
                    while let Ok(n) = r.0.try_recv() {
                        r.1.push(n);
                    }
                    if r.1.contains(&name) {
                        break;
                    }
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            say(Seen::Finished(name.clone()));
        }
        Ok(DynamicImage::ImageRgb8(RgbImage::from_pixel(
            40,
            20,
            image::Rgb([200, 30, 30]),
        )))
    });
    Slow {
        events,
        release,
        decoder,
    }
}

fn files(dir: &Path, names: &[&str]) -> Vec<PathBuf> {
    names
        .iter()
        .map(|n| {
            let p = dir.join(n);
            RgbImage::new(4, 4).save(&p).unwrap();
            p
        })
        .collect()
}

fn worker(decoder: Decoder) -> (ImageWorker, Receiver<ImageEvent>) {
    let (tx, rx) = channel();
    let render = make_render(ProtocolChoice::Halfblocks).0;
    let w = ImageWorker::spawn_with_decoder(
        render,
        Box::new(move |e| {
            let _ = tx.send(e);
        }),
        decoder,
    );
    (w, rx)
}

fn key(path: &Path) -> ImageKey {
    ImageKey {
        path: path.to_path_buf(),
        width: 20,
        height: 10,
    }
}

fn ready(rx: &Receiver<ImageEvent>) -> ImageKey {
    match rx.recv_timeout(WAIT) {
        Ok(ImageEvent::Ready(k, r)) => {
            assert!(r.is_ok(), "{k:?}: {:?}", r.err());
            k
        }
        Err(e) => panic!("no Ready within {WAIT:?}: {e}"),
    }
}

fn seen(rx: &Receiver<Seen>) -> Seen {
    rx.recv_timeout(WAIT).expect("the decoder reported nothing")
}

/// A worker on the slow decoder, and files `names` for it in a fresh folder (the
/// returned folder lives as long as it is bound).
fn slow_worker<const N: usize>(
    names: [&str; N],
) -> (
    tempfile::TempDir,
    [PathBuf; N],
    Slow,
    ImageWorker,
    Receiver<ImageEvent>,
) {
    let dir = tempfile::tempdir().unwrap();
    let paths = files(dir.path(), &names).try_into().unwrap();
    let s = slow_decoder();
    let (w, rx) = worker(s.decoder.clone());
    (dir, paths, s, w, rx)
}

/// The current item's image arrives while a long prefetch is still decoding: it never
/// queues behind it.
#[test]
fn the_current_image_arrives_before_a_long_prefetch_finishes() {
    let (_dir, [slow, now], s, w, rx) = slow_worker(["slow-next.png", "now.png"]);
    w.prefetch(slow.clone());
    assert_eq!(seen(&s.events), Seen::Started("slow-next.png".into()));
    w.request(key(&now));
    // The slow decode is still blocked: nothing released it.
    assert_eq!(ready(&rx), key(&now));
    s.release.send("slow-next.png".into()).unwrap();
    assert_eq!(seen(&s.events), Seen::Finished("slow-next.png".into()));
}

/// Zooming (the same image at another size) while a long prefetch decodes: drawn at
/// once from the decoded cache, not after the prefetch.
#[test]
fn zoom_is_not_held_up_by_a_long_prefetch() {
    let (_dir, [slow, now], s, w, rx) = slow_worker(["slow-next.png", "now.png"]);
    w.request(key(&now));
    assert_eq!(ready(&rx), key(&now));
    w.prefetch(slow.clone());
    assert_eq!(seen(&s.events), Seen::Started("slow-next.png".into()));
    let zoomed = ImageKey {
        width: 60,
        height: 30,
        ..key(&now)
    };
    w.request(zoomed.clone());
    assert_eq!(ready(&rx), zoomed);
    assert_eq!(w.stats().decodes, 1, "zoom re-used the decoded image");
    drop(s.release);
}

/// A prefetch for an item that is no longer next (the reviewer moved on) is cancelled,
/// and the new next item is prefetched.
#[test]
fn a_prefetch_no_longer_near_is_cancelled() {
    let (_dir, [a, b], s, w, _rx) = slow_worker(["slow-a.png", "slow-b.png"]);
    w.prefetch(a.clone());
    assert_eq!(seen(&s.events), Seen::Started("slow-a.png".into()));
    w.prefetch(b.clone());
    assert_eq!(seen(&s.events), Seen::Cancelled("slow-a.png".into()));
    assert_eq!(seen(&s.events), Seen::Started("slow-b.png".into()));
    assert_eq!(w.stats().cancelled, 1);
}

/// Stepping onto the item being prefetched waits for that decode (it is not cancelled,
/// and the image is not decoded twice).
#[test]
fn the_prefetched_image_once_current_is_decoded_once() {
    let (_dir, [slow], s, w, rx) = slow_worker(["slow-next.png"]);
    w.prefetch(slow.clone());
    assert_eq!(seen(&s.events), Seen::Started("slow-next.png".into()));
    w.request(key(&slow));
    s.release.send("slow-next.png".into()).unwrap();
    assert_eq!(seen(&s.events), Seen::Finished("slow-next.png".into()));
    assert_eq!(ready(&rx), key(&slow));
    assert_eq!(w.stats().decodes, 1);
    assert_eq!(w.stats().cancelled, 0);
}

/// Stepping past an item whose huge image is still decoding cancels that decode.
#[test]
fn a_superseded_request_stops_decoding() {
    let (_dir, [slow, now], s, w, rx) = slow_worker(["slow-passed.png", "now.png"]);
    w.request(key(&slow));
    assert_eq!(seen(&s.events), Seen::Started("slow-passed.png".into()));
    w.request(key(&now));
    assert_eq!(seen(&s.events), Seen::Cancelled("slow-passed.png".into()));
    assert_eq!(ready(&rx), key(&now));
}

/// A real huge PNG, decoded with the app's decoder, stops when cancelled.
#[test]
fn decoding_a_huge_png_can_be_cancelled() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.png");
    write_gradient_png(&path, 6000, 6000);
    let asked = std::sync::atomic::AtomicU32::new(0);
    let cancel = || asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed) >= 10;
    assert_eq!(
        decode_cancellable(&path, &cancel).map(|_| ()),
        Err(DecodeError::Cancelled)
    );
}

/// A PNG written row by row (the test itself stays small in memory).
fn write_gradient_png(path: &Path, w: u32, h: u32) {
    let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let mut enc = png::Encoder::new(file, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Fast);
    let mut writer = enc.write_header().unwrap();
    let mut stream = writer.stream_writer().unwrap();
    let mut row = vec![0u8; w as usize * 3];
    for y in 0..h {
        for (x, px) in row.chunks_mut(3).enumerate() {
            px[0] = (x * 255 / w as usize) as u8;
            px[1] = (y * 255 / h) as u8;
            px[2] = 128;
        }
        std::io::Write::write_all(&mut stream, &row).unwrap();
    }
    stream.finish().unwrap();
}

const CHILD_ENV: &str = "VERDICT_TEST_PEAK_CHILD";

/// In a child process (see [`peak_mb_decoding`]): decode the file named by
/// `VERDICT_TEST_PEAK_CHILD` and print the peak resident size. Does nothing otherwise.
#[test]
fn peak_child() {
    let Some(path) = std::env::var_os(CHILD_ENV) else {
        return;
    };
    let img = decode_cancellable(Path::new(&path), &|| false).expect("decodes");
    assert_eq!(img.width().max(img.height()), 4096, "kept at 4096 a side");
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let hwm = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .expect("VmHWM in /proc/self/status");
    println!("PEAK_KB {}", hwm.trim().trim_end_matches("kB").trim());
}

/// The peak resident memory, in MB, of a fresh process of this test binary decoding
/// `path` (so nothing else in this binary counts).
fn peak_mb_decoding(path: &Path) -> u64 {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "peak_child", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let kb: u64 = stdout
        .lines()
        // libtest may print the test's name on the same line first.
        .find_map(|l| l.split_once("PEAK_KB ").map(|(_, kb)| kb.trim()))
        .expect("the child printed its peak")
        .parse()
        .unwrap();
    kb / 1024
}

/// Can this machine measure a peak (it has /proc/self/status)? Says so when not.
fn can_measure_peak() -> bool {
    let can = Path::new("/proc/self/status").exists();
    if !can {
        eprintln!("skipped: no /proc/self/status");
    }
    can
}

/// Decoding `path` (`what`, for the log) peaks below `bound_mb` MiB resident.
fn assert_peak_below(path: &Path, what: &str, bound_mb: u64) {
    let mb = peak_mb_decoding(path);
    println!("peak resident while decoding {what}: {mb} MB");
    assert!(mb < bound_mb, "peak {mb} MB, bound {bound_mb} MB");
}

/// The stated bound on the peak resident memory of decoding a 12000x12000 PNG: the kept
/// image (4096 pixels a side, 48 MiB as RGB), a few rows, and the test process itself.
const PNG_PEAK_BOUND_MB: u64 = 96;

/// Decoding a 12000x12000 PNG peaks well under the full image's 412 MiB: it is scaled
/// down row by row while it decodes.
#[test]
fn decoding_a_huge_png_has_bounded_peak_memory() {
    if !can_measure_peak() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.png");
    write_gradient_png(&path, 12_000, 12_000);
    assert_peak_below(&path, "a 12000x12000 PNG", PNG_PEAK_BOUND_MB);
}

/// The stated bound for a JPEG, decoded whole: its pixels within the decoder's 192 MiB
/// limit, the decoder's own planes, and the kept copy.
const JPEG_PEAK_BOUND_MB: u64 = 300;

/// An 8000x8000 JPEG (183 MiB of pixels, just under the limit for images decoded whole)
/// stays within the stated bound.
#[test]
fn decoding_a_huge_jpeg_has_bounded_peak_memory() {
    if !can_measure_peak() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.jpg");
    let img = RgbImage::from_fn(8000, 8000, |x, y| {
        image::Rgb([(x / 32) as u8, (y / 32) as u8, 128])
    });
    img.save(&path).unwrap();
    drop(img);
    assert_peak_below(&path, "an 8000x8000 JPEG", JPEG_PEAK_BOUND_MB);
}

/// A JPEG over the limit is refused with a clear message, before any pixel is decoded.
#[test]
fn a_jpeg_too_large_to_decode_whole_is_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("too-big.jpg");
    let img = RgbImage::from_pixel(9000, 8000, image::Rgb([1, 2, 3]));
    img.save(&path).unwrap();
    drop(img);
    let e = verdict::tui::image::decode_file(&path).unwrap_err();
    assert!(
        e.starts_with("image too large: ") && e.contains("9000x8000"),
        "{e}"
    );
}
