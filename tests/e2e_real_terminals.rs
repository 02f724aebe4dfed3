//! Pictures in REAL terminal emulators: verdict runs in xterm (as a VT340, sixel), mlterm
//! (sixel) and kitty (kitty graphics) on a virtual X display, directly and through tmux,
//! with `--image-protocol auto`; keys are pressed with xdotool and the window is
//! photographed with ImageMagick's `import`. The screenshot is judged against the
//! source PNG: the chart is found as the white rectangle it draws (the terminals run
//! white on black), and that region must correlate with the source scaled to it (a
//! half-block picture or a grid of boxes does not). After `n` the next item's chart is
//! there, after `z z` the chart is back at its size, and after `q` the region is clean.
//!
//! Slow (about 25 s per terminal, several minutes in all) and it needs Xvfb, xdotool,
//! ImageMagick and the terminals: ignored by default. Run it with
//!     cargo test --release --test e2e_real_terminals -- --ignored --nocapture --test-threads 1
//! A terminal that is not installed is skipped with a message (Debian 12: `apt-get
//! install xvfb xdotool imagemagick xterm kitty mlterm tmux fonts-dejavu-core`).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use image::{DynamicImage, GenericImageView, RgbImage};

const COLS: u16 = 110;
const ROWS: u16 = 34;

fn have(program: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Kills what it started, in reverse order, when dropped.
struct Started {
    children: Vec<Child>,
    tmux_socket: Option<String>,
}

impl Drop for Started {
    fn drop(&mut self) {
        for c in self.children.iter_mut().rev() {
            let _ = c.kill();
            let _ = c.wait();
        }
        if let Some(s) = &self.tmux_socket {
            let _ = Command::new("tmux")
                .args(["-L", s, "kill-server"])
                .stderr(Stdio::null())
                .status();
        }
    }
}

fn free_display(from: u32) -> Option<u32> {
    (from..from + 40).find(|n| {
        !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
            && !Path::new(&format!("/tmp/.X{n}-lock")).exists()
    })
}

fn sh(display: &str, script: &str) -> String {
    let out = Command::new("sh")
        .args(["-c", script])
        .env("DISPLAY", display)
        .stderr(Stdio::null())
        .output()
        .expect("sh runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// One run: the terminal on its own display, verdict in it (through tmux when asked).
struct Run {
    display: String,
    window: String,
    started: Started,
    shots: PathBuf,
}

impl Run {
    fn start(term: &str, tmux: bool, file: &Path, home: &Path, shots: &Path) -> Option<Run> {
        // Apart for each test, should they run at once.
        let from = 150
            + 40 * ["xterm", "mlterm", "kitty"]
                .iter()
                .position(|t| *t == term)? as u32;
        let n = free_display(from + if tmux { 20 } else { 0 })?;
        let display = format!(":{n}");
        let mut started = Started {
            children: vec![],
            tmux_socket: None,
        };
        started.children.push(
            Command::new("Xvfb")
                .args([&display, "-screen", "0", "1600x1000x24", "-nolisten", "tcp"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .ok()?,
        );
        for _ in 0..100 {
            if !sh(&display, "xdotool getdisplaygeometry").is_empty() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let verdict = env!("CARGO_BIN_EXE_verdict");
        let env = format!(
            "HOME={h} XDG_CONFIG_HOME={h}/config XDG_DATA_HOME={h}/data XDG_STATE_HOME={h}/state \
             VERDICT_IMAGE_PROTOCOL=auto",
            h = home.display()
        );
        let cmd = format!("env {env} {verdict} -r tester {}", file.display());
        let script = if tmux {
            let socket = format!("verdict-e2e-{}-{n}", std::process::id());
            started.tmux_socket = Some(socket.clone());
            format!(
                "tmux -L {socket} -f /dev/null new-session -d -x {COLS} -y {ROWS}; \
                 tmux -L {socket} send-keys '{cmd}' Enter; exec tmux -L {socket} attach"
            )
        } else {
            format!("{cmd}; sleep 3600")
        };
        let title = format!("verdict-e2e-{n}");
        let geometry = format!("{COLS}x{ROWS}+0+0");
        let mut c = match term {
            "xterm" => {
                let mut c = Command::new("xterm");
                c.args([
                    "-T",
                    &title,
                    "-geometry",
                    &geometry,
                    "-fa",
                    "DejaVu Sans Mono",
                ]);
                c.args([
                    "-fs",
                    "11",
                    "-ti",
                    "vt340",
                    "-xrm",
                    "XTerm*numColorRegisters: 256",
                ]);
                c.args(["-bg", "black", "-fg", "white", "-e", "bash", "-c", &script]);
                c
            }
            "mlterm" => {
                let mut c = Command::new("mlterm");
                c.args(["-T", &title, "-g", &geometry, "-b", "black", "-f", "white"]);
                c.args(["-e", "bash", "-c", &script]);
                c
            }
            _ => {
                let mut c = Command::new("kitty");
                c.env("LIBGL_ALWAYS_SOFTWARE", "1");
                c.args(["--title", &title, "-o", "remember_window_size=no"]);
                c.args(["-o", &format!("initial_window_width={COLS}c")]);
                c.args(["-o", &format!("initial_window_height={ROWS}c")]);
                c.args(["bash", "-c", &script]);
                c
            }
        };
        c.env("DISPLAY", &display)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        started.children.push(c.spawn().ok()?);
        let mut window = String::new();
        for _ in 0..100 {
            window = sh(
                &display,
                &format!("xdotool search --name '^{title}$' | head -1"),
            )
            .trim()
            .to_string();
            if !window.is_empty() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        assert!(!window.is_empty(), "the {term} window did not appear");
        std::thread::sleep(Duration::from_secs(5));
        Some(Run {
            display,
            window,
            started,
            shots: shots.to_path_buf(),
        })
    }

    fn key(&self, key: &str) {
        sh(
            &self.display,
            &format!(
                "xdotool windowfocus --sync {}; xdotool key {key}",
                self.window
            ),
        );
        std::thread::sleep(Duration::from_secs(3));
    }

    fn shot(&self, name: &str) -> RgbImage {
        let path = self.shots.join(format!("{name}.png"));
        let geometry = sh(
            &self.display,
            &format!("xdotool getwindowgeometry --shell {}", self.window),
        );
        let get = |k: &str| {
            geometry
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{k}=")))
                .unwrap_or("0")
                .to_string()
        };
        sh(
            &self.display,
            &format!(
                "import -window root -crop {}x{}+{}+{} +repage {}",
                get("WIDTH"),
                get("HEIGHT"),
                get("X"),
                get("Y"),
                path.display()
            ),
        );
        eprintln!("screenshot: {}", path.display());
        image::open(&path).expect("a screenshot").to_rgb8()
    }
}

/// The chart's white rectangle in the screenshot: the longest block of rows whose
/// longest white run is long (text and borders give short runs), then within those rows
/// the longest block of mostly white columns (a light scrollbar is a block apart).
fn white_box(shot: &RgbImage) -> Option<(u32, u32, u32, u32)> {
    let white = |x: u32, y: u32| shot.get_pixel(x, y).0.iter().all(|&c| c > 225);
    let (w, h) = shot.dimensions();
    let longest_run = |y: u32| {
        let (mut best, mut run) = (0, 0);
        for x in 0..w {
            run = if white(x, y) { run + 1 } else { 0 };
            best = best.max(run);
        }
        best
    };
    let runs: Vec<u32> = (0..h).map(longest_run).collect();
    let top = *runs.iter().max()?;
    if top < 60 {
        return None;
    }
    let (y0, y1) = longest_block(h, |y| runs[y as usize] * 5 >= top * 2)?;
    let (x0, x1) = longest_block(w, |x| {
        (y0..=y1).filter(|&y| white(x, y)).count() as u32 * 2 > y1 - y0
    })?;
    Some((x0, y0, x1 - x0 + 1, y1 - y0 + 1))
}

/// The longest run of consecutive indices in `0..n` where `ok` holds (first, last).
fn longest_block(n: u32, ok: impl Fn(u32) -> bool) -> Option<(u32, u32)> {
    let (mut best, mut start) = (None::<(u32, u32)>, None);
    for i in 0..=n {
        if i < n && ok(i) {
            start.get_or_insert(i);
        } else if let Some(s) = start.take()
            && best.is_none_or(|(a, b)| i - 1 - s > b - a)
        {
            best = Some((s, i - 1));
        }
    }
    best
}

/// Normalized correlation of the grey levels of the screenshot's box and the source
/// PNG scaled to it (1: the same picture).
fn correlation(shot: &RgbImage, (x, y, w, h): (u32, u32, u32, u32), source: &DynamicImage) -> f64 {
    // Compared at a third of the size: thin chart lines resampled by the terminal and
    // by us differ pixel by pixel, not in shape.
    let (sw, sh) = ((w / 3).max(1), (h / 3).max(1));
    let tri = image::imageops::FilterType::Triangle;
    let region = DynamicImage::ImageRgb8(shot.view(x, y, w, h).to_image())
        .resize_exact(sw, sh, tri)
        .to_luma8();
    let want = source.resize_exact(sw, sh, tri).to_luma8();
    let a: Vec<f64> = region.pixels().map(|p| f64::from(p.0[0])).collect();
    let b: Vec<f64> = want.pixels().map(|p| f64::from(p.0[0])).collect();
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (ma, mb) = (mean(&a), mean(&b));
    let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for (p, q) in a.iter().zip(&b) {
        ab += (p - ma) * (q - mb);
        aa += (p - ma) * (p - ma);
        bb += (q - mb) * (q - mb);
    }
    ab / (aa.sqrt() * bb.sqrt()).max(1e-9)
}

/// The images of the first two items of the sample.
fn first_images(file: &Path) -> Vec<DynamicImage> {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines()
        .take(2)
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let rel = v["image"].as_str().unwrap();
            image::open(file.parent().unwrap().join(rel)).unwrap()
        })
        .collect()
}

fn judge(term: &str, tmux: bool) {
    let needed: &[&str] = &["Xvfb", "xdotool", "import", term];
    let needed: Vec<&str> = needed
        .iter()
        .copied()
        .chain(tmux.then_some("tmux"))
        .collect();
    if let Some(missing) = needed.iter().find(|p| !have(p)) {
        eprintln!("skipped: `{missing}` is not installed (see the top of this file)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let copy = Command::new("cp")
        .args(["-r", concat!(env!("CARGO_MANIFEST_DIR"), "/sample-data")])
        .arg(dir.path().join("data"))
        .status()
        .unwrap();
    assert!(copy.success());
    let file = dir.path().join("data/chartom.jsonl");
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("real-{term}{}", if tmux { "-tmux" } else { "" }));
    std::fs::create_dir_all(&shots).unwrap();
    let images = first_images(&file);
    let Some(run) = Run::start(term, tmux, &file, &home, &shots) else {
        eprintln!("skipped: no free X display or {term} did not start");
        return;
    };
    let check = |name: &str, source: &DynamicImage| -> (u32, u32, u32, u32) {
        let shot = run.shot(name);
        let found = white_box(&shot)
            .unwrap_or_else(|| panic!("{term} tmux={tmux} {name}: no picture on screen"));
        let r = correlation(&shot, found, source);
        let aspect = f64::from(found.2) / f64::from(found.3);
        let want = f64::from(source.width()) / f64::from(source.height());
        eprintln!(
            "{term} tmux={tmux} {name}: box {found:?}, correlation {r:.3}, aspect {aspect:.3} (source {want:.3})"
        );
        assert!(
            r > 0.85,
            "{term} tmux={tmux} {name}: the picture does not match its source (r = {r:.3})"
        );
        assert!(
            (aspect / want - 1.0).abs() < 0.06,
            "{term} tmux={tmux} {name}: aspect {aspect:.3}, source {want:.3}"
        );
        found
    };
    let first = check("1-start", &images[0]);
    run.key("n");
    let second = check("2-next", &images[1]);
    run.key("z");
    let zoomed = check("3-zoom", &images[1]);
    assert!(zoomed.2 > second.2, "zoom draws it larger");
    run.key("z");
    let back = check("4-unzoom", &images[1]);
    assert_eq!((back.2, back.3), (second.2, second.3), "back at its size");
    assert!(first.2 > 200, "drawn at full resolution, not a thumbnail");
    run.key("q");
    let after = run.shot("5-quit");
    let (x, y, w, h) = zoomed;
    // Below the exit message's line: nothing of the picture is left.
    let top = y.max(after.height() / ROWS as u32 * 3);
    let white = (top..y + h)
        .flat_map(|yy| (x..x + w).map(move |xx| (xx, yy)))
        .filter(|&(xx, yy)| after.get_pixel(xx, yy).0.iter().all(|&c| c > 200))
        .count();
    let total = (w * (y + h - top)) as usize;
    eprintln!("{term} tmux={tmux} after q: {white} of {total} pixels white");
    assert!(
        white * 100 < total,
        "{term} tmux={tmux}: the picture is left on screen after q"
    );
    drop(run.started);
}

#[test]
#[ignore = "slow: real terminals on Xvfb (see the top of the file for how to run it)"]
fn xterm_vt340_draws_the_chart() {
    judge("xterm", false);
}

#[test]
#[ignore = "slow: real terminals on Xvfb (see the top of the file for how to run it)"]
fn mlterm_draws_the_chart() {
    judge("mlterm", false);
}

#[test]
#[ignore = "slow: real terminals on Xvfb (see the top of the file for how to run it)"]
fn kitty_draws_the_chart() {
    judge("kitty", false);
}

#[test]
#[ignore = "slow: real terminals on Xvfb (see the top of the file for how to run it)"]
fn xterm_through_tmux_draws_the_chart() {
    judge("xterm", true);
}

#[test]
#[ignore = "slow: real terminals on Xvfb (see the top of the file for how to run it)"]
fn mlterm_through_tmux_draws_the_chart() {
    judge("mlterm", true);
}

#[test]
#[ignore = "slow: real terminals on Xvfb (see the top of the file for how to run it)"]
fn kitty_through_tmux_draws_the_chart() {
    judge("kitty", true);
}
