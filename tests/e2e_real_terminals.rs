//! Pictures in REAL terminal emulators: verdict runs in xterm (as a VT340, sixel), mlterm
//! (sixel) and kitty (kitty graphics) on a virtual X display, directly and through tmux,
//! with `--image-protocol auto`; keys are pressed with xdotool and the window is
//! photographed with ImageMagick's `import`.
//!
//! Where the picture must be comes from verdict's own layout, not from a search of the
//! screenshot: before verdict starts, the shell paints the first and the last cell of
//! the screen (reverse video), which gives the text grid's origin and cell size in
//! pixels; `layout::split_body` gives the image pane's cells, ratatui-image's `Resize`
//! the picture's cells, and the picture is drawn at the top of the pane, centred. That
//! rectangle of the screenshot is compared with the source PNG scaled to it (normalized
//! correlation of grey levels) and with a DIFFERENT chart of the sample (which must score
//! low: the judge can fail). After `n` the next item's chart is there, after `z z` it is
//! back at its size, and after `q` nothing of the picture is left.
//!
//! Slow (about 30 s per terminal, several minutes in all) and it needs Xvfb, xdotool,
//! ImageMagick and the terminals: ignored by default. Run it with
//!     cargo test --release --test e2e_real_terminals -- --ignored --nocapture --test-threads 1
//! A terminal that is not installed is skipped with a message (Debian 12: `apt-get
//! install xvfb xdotool imagemagick xterm kitty mlterm tmux fonts-dejavu-core`). The
//! screenshots stay in target/tmp/real-<terminal>[-tmux]/ to be looked at.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use image::{DynamicImage, GenericImageView, RgbImage};
use ratatui::layout::{Constraint, Layout, Rect, Size};
use ratatui_image::{FontSize, Resize};

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
        if let Some(s) = &self.tmux_socket {
            let _ = Command::new("tmux")
                .args(["-L", s, "kill-server"])
                .stderr(Stdio::null())
                .status();
        }
        // SIGTERM, so that Xvfb removes its lock and socket files.
        for c in self.children.iter_mut().rev() {
            let _ = Command::new("kill").arg(c.id().to_string()).status();
            let ended = (0..50).any(|_| {
                std::thread::sleep(Duration::from_millis(100));
                c.try_wait().is_ok_and(|s| s.is_some())
            });
            if !ended {
                let _ = c.kill();
                let _ = c.wait();
            }
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
    /// The terminal, with the shell in it painting the first and the last cell of the
    /// screen verdict will have (`rows`) and waiting for Enter before verdict starts.
    fn start(
        term: &str,
        tmux: bool,
        protocol: &str,
        rows: u16,
        file: &Path,
        home: &Path,
        shots: &Path,
    ) -> Result<Run, String> {
        // Apart for each test, should they run at once.
        let from = 150
            + 40 * ["xterm", "mlterm", "kitty"]
                .iter()
                .position(|t| *t == term)
                .ok_or("an unknown terminal")? as u32;
        let n = free_display(from + if tmux { 20 } else { 0 }).ok_or("no free X display")?;
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
                .map_err(|e| format!("Xvfb: {e}"))?,
        );
        let ready = (0..300).any(|_| {
            std::thread::sleep(Duration::from_millis(100));
            !sh(&display, "xdotool getdisplaygeometry").is_empty()
        });
        assert!(ready, "Xvfb did not start on {display} in 30 s");
        // VERDICT_TEST_BIN runs it against another build (an older one, to see it fail).
        let verdict = std::env::var("VERDICT_TEST_BIN")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_verdict").to_string());
        let env = format!(
            "HOME={h} XDG_CONFIG_HOME={h}/config XDG_DATA_HOME={h}/data XDG_STATE_HOME={h}/state \
             VERDICT_IMAGE_PROTOCOL={protocol}",
            h = home.display(),
            protocol = protocol
        );
        // Reverse video spaces at the first and the last cell, the cursor hidden (drawn
        // on a reverse cell it would unpaint it): the grid's origin and cell size. Enter
        // clears the screen and starts verdict.
        let marks =
            format!("printf '\\033[?25l\\033[2J\\033[H\\033[7m \\033[{rows};{COLS}H \\033[0m'");
        let cmd = format!(
            "{marks}; read -r _; printf '\\033[2J\\033[H\\033[?25h'; env {env} {verdict} -r tester {}",
            file.display()
        );
        let script = if tmux {
            let socket = format!("verdict-e2e-{}-{n}", std::process::id());
            started.tmux_socket = Some(socket.clone());
            format!(
                "tmux -L {socket} -f /dev/null new-session -d -x {COLS} -y {ROWS}; \
                 tmux -L {socket} send-keys \"{cmd}\" Enter; exec tmux -L {socket} attach"
            )
        } else {
            format!("{cmd}; sleep 3600")
        };
        let title = format!("verdict-e2e-{n}");
        let geometry = format!("{COLS}x{ROWS}+0+0");
        let mut c = match term {
            "xterm" => {
                let mut c = Command::new("xterm");
                c.args(["-T", &title, "-geometry", &geometry]);
                c.args(["-fa", "DejaVu Sans Mono", "-fs", "11", "-ti", "vt340"]);
                c.args(["-xrm", "XTerm*numColorRegisters: 256"]);
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
        started
            .children
            .push(c.spawn().map_err(|e| format!("{term}: {e}"))?);
        let mut window = String::new();
        for _ in 0..300 {
            window = sh(
                &display,
                &format!("xdotool search --name '^{title}$' | head -1"),
            )
            .trim()
            .to_string();
            if !window.is_empty() {
                break;
            }
            // Now and then (a loaded machine) the terminal ends at once: said, and
            // started again by the caller.
            let exited = started.children.last_mut().unwrap().try_wait();
            if !exited.as_ref().is_ok_and(|s| s.is_none()) {
                return Err(format!("{term} ended at once: {exited:?}"));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        assert!(
            !window.is_empty(),
            "the {term} window did not appear in 30 s"
        );
        Ok(Run {
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
        image::open(&path).expect("a screenshot").to_rgb8()
    }
}

/// The text grid in the screenshot: its origin and its cell size, in pixels.
#[derive(Clone, Copy, Debug)]
struct Grid {
    x: u32,
    y: u32,
    cell_w: u32,
    cell_h: u32,
}

fn bright(p: &image::Rgb<u8>) -> bool {
    p.0.iter().all(|&c| c > 150)
}

/// The grid from the two painted cells (the first and the last): the bounding box of
/// the bright pixels, leaving out a scrollbar (columns bright a third of the way down or
/// more, and everything between them and the window's edge: mlterm's arrow buttons).
fn grid(shot: &RgbImage, rows: u16) -> Option<Grid> {
    let (w, h) = shot.dimensions();
    let bar: Vec<u32> = (0..w)
        .filter(|&x| (0..h).filter(|&y| bright(shot.get_pixel(x, y))).count() as u32 >= h / 3)
        .collect();
    let (from, to) = match (bar.first(), bar.last()) {
        (Some(_), Some(&last)) if last < w / 2 => (last + 3, w),
        (Some(&first), Some(_)) => (0, first.saturating_sub(2)),
        _ => (0, w),
    };
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for y in 0..h {
        for x in from..to {
            if bright(shot.get_pixel(x, y)) {
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
        }
    }
    if x0 > x1 {
        return None;
    }
    let cell_w = f64::from(x1 + 1 - x0) / f64::from(COLS);
    let cell_h = f64::from(y1 + 1 - y0) / f64::from(rows);
    // Whole pixels, or the two marks are not the first and the last cell.
    if (cell_w - cell_w.round()).abs() > 0.05 || (cell_h - cell_h.round()).abs() > 0.05 {
        return None;
    }
    Some(Grid {
        x: x0,
        y: y0,
        cell_w: cell_w.round() as u32,
        cell_h: cell_h.round() as u32,
    })
}

/// Where verdict draws `source` (pixels of the screenshot: x, y, width, height) on a
/// screen of `rows`, zoomed or not: the image pane from verdict's layout, the picture's
/// cells as the encoder sizes them (aspect kept, scaled to fill), at the top of the
/// pane's inside, centred; the picture fills those cells' pixels at its own aspect.
fn where_drawn(source: &DynamicImage, g: Grid, rows: u16, zoom: bool) -> (u32, u32, u32, u32) {
    // As `layout::Screen::new`: a header row, the body, two footer rows.
    let body = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(2),
    ])
    .split(Rect::new(0, 0, COLS, rows))[1];
    let pane = verdict::tui::layout::split_body(body, true, zoom)
        .0
        .expect("an image pane");
    // Inside the pane's border.
    let inner = Rect::new(pane.x + 1, pane.y + 1, pane.width - 2, pane.height - 2);
    let font = FontSize::new(g.cell_w as u16, g.cell_h as u16);
    let cells = Resize::Scale(None).size_for(source, font, Size::new(inner.width, inner.height));
    let full_w = f64::from(cells.width) * f64::from(g.cell_w);
    let full_h = f64::from(cells.height) * f64::from(g.cell_h);
    let ratio = f64::min(
        full_w / f64::from(source.width()),
        full_h / f64::from(source.height()),
    );
    let x = inner.x + (inner.width - cells.width) / 2;
    (
        g.x + u32::from(x) * g.cell_w,
        g.y + u32::from(inner.y) * g.cell_h,
        (f64::from(source.width()) * ratio).round() as u32,
        (f64::from(source.height()) * ratio).round() as u32,
    )
}

/// Normalized correlation of the grey levels of the screenshot's rectangle and
/// `source` scaled to it, both reduced by `reduce` (1: the same picture).
fn correlation(
    shot: &RgbImage,
    (x, y, w, h): (u32, u32, u32, u32),
    source: &DynamicImage,
    reduce: u32,
) -> f64 {
    let w = w.min(shot.width().saturating_sub(x));
    let h = h.min(shot.height().saturating_sub(y));
    if w < 2 || h < 2 {
        return 0.0;
    }
    let (sw, sh) = ((w / reduce).max(1), (h / reduce).max(1));
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

/// The share of bright pixels in a rectangle (the charts are drawn on white).
fn bright_share(shot: &RgbImage, (x, y, w, h): (u32, u32, u32, u32)) -> f64 {
    let pixels = (y..(y + h).min(shot.height()))
        .flat_map(|yy| (x..(x + w).min(shot.width())).map(move |xx| (xx, yy)))
        .collect::<Vec<_>>();
    let n = pixels
        .iter()
        .filter(|&&(xx, yy)| bright(shot.get_pixel(xx, yy)))
        .count();
    n as f64 / pixels.len().max(1) as f64
}

/// The images of the first three items of the sample.
fn first_images(file: &Path) -> Vec<DynamicImage> {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines()
        .take(3)
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let rel = v["image"].as_str().unwrap();
            image::open(file.parent().unwrap().join(rel)).unwrap()
        })
        .collect()
}

/// What the judge measured at one step.
struct Score {
    /// The expected rectangle and how far the best match is from it (pixels).
    rect: (u32, u32, u32, u32),
    shift: (i32, i32),
    /// Correlation with the right picture: at full resolution and at a third.
    full: f64,
    third: f64,
    /// The highest correlation (at a third) with a wrong picture.
    wrong: f64,
}

/// Judge the shot against `right`, the expected picture, at its expected rectangle
/// (shifted by up to 2 pixels, for rounding) and against the `wrong` ones.
fn score(
    shot: &RgbImage,
    g: Grid,
    rows: u16,
    zoom: bool,
    right: &DynamicImage,
    wrong: &[&DynamicImage],
) -> Score {
    let (x, y, w, h) = where_drawn(right, g, rows, zoom);
    let mut best = ((0, 0), f64::MIN);
    for dy in -2i32..=2 {
        for dx in -2i32..=2 {
            let r = (
                x.saturating_add_signed(dx),
                y.saturating_add_signed(dy),
                w,
                h,
            );
            let c = correlation(shot, r, right, 3);
            if c > best.1 {
                best = ((dx, dy), c);
            }
        }
    }
    let (shift, third) = best;
    let at = (
        x.saturating_add_signed(shift.0),
        y.saturating_add_signed(shift.1),
        w,
        h,
    );
    Score {
        rect: (x, y, w, h),
        shift,
        full: correlation(shot, at, right, 1),
        third,
        wrong: wrong
            .iter()
            .map(|p| correlation(shot, at, p, 3))
            .fold(f64::MIN, f64::max),
    }
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
    let name = format!("{term}{}", if tmux { "-tmux" } else { "" });
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("real-{name}"));
    std::fs::create_dir_all(&shots).unwrap();
    let images = first_images(&file);
    // tmux's status line takes the last row.
    let rows = if tmux { ROWS - 1 } else { ROWS };
    // To see the judge fail: VERDICT_E2E_PROTOCOL=halfblocks.
    let protocol = std::env::var("VERDICT_E2E_PROTOCOL").unwrap_or_else(|_| "auto".into());
    let (run, g) = start_verdict(&name, term, tmux, &protocol, rows, (&file, &home, &shots));
    // Each step: the shot is taken again until the picture is right or 20 s passed.
    let check = |step: &str, zoom: bool, right: usize| -> Score {
        let wrong: Vec<&DynamicImage> = (0..images.len())
            .filter(|&i| i != right)
            .map(|i| &images[i])
            .collect();
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            std::thread::sleep(Duration::from_millis(1500));
            let shot = run.shot(step);
            let s = score(&shot, g, rows, zoom, &images[right], &wrong);
            // Right: high at a third and at full resolution (a half-block picture is
            // coarse); a different chart of the same style scores well below it.
            let ok = s.third > 0.85 && s.full > 0.7 && s.wrong < s.third - 0.2;
            if ok || Instant::now() > deadline {
                eprintln!(
                    "{name} {step}: at {:?} shifted {:?}: correlation {:.3} (full resolution {:.3}), \
                     best wrong picture {:.3}",
                    s.rect, s.shift, s.third, s.full, s.wrong
                );
                assert!(
                    ok,
                    "{name} {step}: not the right picture at its place (see {})",
                    run.shots.join(format!("{step}.png")).display()
                );
                return s;
            }
        }
    };
    let first = check("1-start", false, 0);
    assert!(
        first.rect.2 > 120,
        "drawn at full resolution, not a thumbnail"
    );
    // The popups over the picture; compared with the half-block run's below.
    let popups = popup_shots(&run);
    run.key("n");
    let second = check("2-next", false, 1);
    run.key("z");
    let zoomed = check("3-zoom", true, 1);
    assert!(zoomed.rect.2 > second.rect.2, "zoom draws it larger");
    run.key("z");
    let back = check("4-unzoom", false, 1);
    assert_eq!(back.rect, second.rect, "back at its size and place");
    // Nothing of the zoomed picture is left below the image pane (text there is light
    // on black: a leftover chart, drawn on white, would make most of it bright).
    let (x, y, w, h) = zoomed.rect;
    let below = back.rect.1 + back.rect.3 + 2 * g.cell_h;
    let rest = (x, below, w, (y + h).saturating_sub(below));
    let shot = image::open(run.shots.join("4-unzoom.png"))
        .unwrap()
        .to_rgb8();
    let share = bright_share(&shot, rest);
    eprintln!(
        "{name} 4-unzoom: {:.1}% of the zoomed picture's place below the pane bright",
        share * 100.0
    );
    assert!(
        share < 0.3,
        "{name}: the zoomed picture is left behind the text"
    );
    run.key("q");
    std::thread::sleep(Duration::from_secs(3));
    let after = run.shot("5-quit");
    // Below the exit message (verdict cleared the screen before it started, so the
    // message is at the top): nothing of either picture is left.
    let (x, y, w, h) = zoomed.rect;
    let top = g.y + 4 * g.cell_h;
    let below = (x, y.max(top), w, (y + h).saturating_sub(y.max(top)));
    let share = bright_share(&after, below);
    let r = correlation(&after, below, &images[1], 3);
    eprintln!(
        "{name} 5-quit: {:.1}% of the zoomed picture's pixels bright, correlation {r:.3}",
        share * 100.0
    );
    assert!(
        share < 0.02,
        "{name}: the picture is left on screen after q (see 5-quit.png)"
    );
    drop(run.started);
    // The same popups in the same terminal with half-blocks: every cell but the image
    // pane's inside is the same (issue 35: with sixel, opening a popup left the screen
    // half drawn, letters, box lines and the header missing).
    let half_shots = shots.join("halfblocks");
    std::fs::create_dir_all(&half_shots).unwrap();
    let dir2 = tempfile::tempdir().unwrap();
    let copy = Command::new("cp")
        .args(["-r", concat!(env!("CARGO_MANIFEST_DIR"), "/sample-data")])
        .arg(dir2.path().join("data"))
        .status()
        .unwrap();
    assert!(copy.success());
    let file2 = dir2.path().join("data/chartom.jsonl");
    let home2 = dir2.path().join("home");
    std::fs::create_dir_all(&home2).unwrap();
    let (half, g2) = start_verdict(
        &format!("{name} halfblocks"),
        term,
        tmux,
        "halfblocks",
        rows,
        (&file2, &home2, &half_shots),
    );
    std::thread::sleep(Duration::from_secs(3));
    let reference = popup_shots(&half);
    half.key("q");
    drop(half.started);
    assert_eq!(
        (g.cell_w, g.cell_h),
        (g2.cell_w, g2.cell_h),
        "the same grid"
    );
    let pane = image_pane_inside(rows);
    for ((key, got), (_, want)) in popups.iter().zip(&reference) {
        let wrong = differing_cells(got, g, want, g2, rows, pane);
        eprintln!(
            "{name} popup {key}: {} cells differ from the half-block run's outside the image pane",
            wrong.len()
        );
        assert!(
            wrong.is_empty(),
            "{name} popup {key}: cells {:?} differ from the half-block run's (see {} and {})",
            &wrong[..wrong.len().min(12)],
            shots.join(format!("p-{key}.png")).display(),
            half_shots.join(format!("p-{key}.png")).display()
        );
    }
}

/// Start verdict in `term` (through tmux if asked) with `protocol` on `file` (HOME in
/// `home`, screenshots in `shots`), and wait for the painted first and last cells: the
/// run and the grid.
fn start_verdict(
    name: &str,
    term: &str,
    tmux: bool,
    protocol: &str,
    rows: u16,
    (file, home, shots): (&Path, &Path, &Path),
) -> (Run, Grid) {
    let mut attempt = 0;
    let run = loop {
        match Run::start(term, tmux, protocol, rows, file, home, shots) {
            Ok(run) => break run,
            Err(e) if attempt < 2 => {
                eprintln!("{name}: {e}; starting it again");
                attempt += 1;
            }
            Err(e) => panic!("{name}: {e}, three times"),
        }
    };
    // The two painted cells: wait for them (the terminal and tmux take a moment).
    let deadline = Instant::now() + Duration::from_secs(30);
    let g = loop {
        std::thread::sleep(Duration::from_millis(700));
        if let Some(g) = grid(&run.shot("0-grid"), rows) {
            break g;
        }
        assert!(
            Instant::now() < deadline,
            "{name}: the first and the last cell were not painted (see 0-grid.png)"
        );
    };
    eprintln!("{name}: grid {g:?}");
    run.key("Return");
    (run, g)
}

/// The help, the search, the filter menu and the note, each photographed once open
/// (`p-<key>.png`) and closed with Escape.
fn popup_shots(run: &Run) -> Vec<(&'static str, RgbImage)> {
    let mut out = Vec::new();
    for key in ["question", "slash", "F", "i"] {
        run.key(key);
        std::thread::sleep(Duration::from_millis(1500));
        out.push((key, run.shot(&format!("p-{key}"))));
        run.key("Escape");
        std::thread::sleep(Duration::from_millis(1500));
    }
    out
}

/// The inside of the image pane, in cells, on a screen of `rows` (as `where_drawn`).
fn image_pane_inside(rows: u16) -> Rect {
    let body = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(2),
    ])
    .split(Rect::new(0, 0, COLS, rows))[1];
    let pane = verdict::tui::layout::split_body(body, true, false)
        .0
        .expect("an image pane");
    Rect::new(pane.x + 1, pane.y + 1, pane.width - 2, pane.height - 2)
}

/// The cells (column, row) outside `pane` whose pixels differ between the two shots
/// (mean difference over a cell above 12 of 255).
fn differing_cells(
    a: &RgbImage,
    ga: Grid,
    b: &RgbImage,
    gb: Grid,
    rows: u16,
    pane: Rect,
) -> Vec<(u16, u16)> {
    let mut wrong = Vec::new();
    for row in 0..rows {
        for col in 0..COLS {
            if pane.contains(ratatui::layout::Position::new(col, row)) {
                continue;
            }
            let mut sum = 0u64;
            let mut n = 0u64;
            for dy in 0..ga.cell_h {
                for dx in 0..ga.cell_w {
                    let pa = (
                        ga.x + u32::from(col) * ga.cell_w + dx,
                        ga.y + u32::from(row) * ga.cell_h + dy,
                    );
                    let pb = (
                        gb.x + u32::from(col) * gb.cell_w + dx,
                        gb.y + u32::from(row) * gb.cell_h + dy,
                    );
                    if pa.0 >= a.width()
                        || pa.1 >= a.height()
                        || pb.0 >= b.width()
                        || pb.1 >= b.height()
                    {
                        continue;
                    }
                    let (p, q) = (a.get_pixel(pa.0, pa.1), b.get_pixel(pb.0, pb.1));
                    sum +=
                        p.0.iter()
                            .zip(q.0)
                            .map(|(x, y)| u64::from(x.abs_diff(y)))
                            .sum::<u64>();
                    n += 3;
                }
            }
            if n > 0 && sum / n > 12 {
                wrong.push((col, row));
            }
        }
    }
    wrong
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
