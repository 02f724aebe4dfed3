//! The decoding harness through a real tmux (where tmux is installed): the reviewer runs
//! in a tmux session shown in a pseudo-terminal, and what reaches that outer terminal is
//! decoded back to pixels and placed with a screen model.

mod common;
mod image_support;

use common::{Pty, Sandbox};
use image::{Rgb, RgbImage};
use image_support::*;

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
    if !has_tmux() {
        return None;
    }
    let sb = sandbox();
    let socket = format!("verdict-{name}-{}", std::process::id());
    let command = verdict_command(&sb, protocol);
    let server = TmuxServer(socket.clone());
    let p = tmux_session(&socket, &command, cols, rows);
    Some(((server, sb), p))
}

/// Is tmux installed (does `tmux -V` succeed)?
fn has_tmux() -> bool {
    let ok = std::process::Command::new("tmux").arg("-V").output();
    ok.is_ok_and(|o| o.status.success())
}

/// The shell command that runs the reviewer as erin on the sandbox's `two.jsonl` with
/// `protocol`, its data and config folders in the sandbox.
fn verdict_command(sb: &Sandbox, protocol: &str) -> String {
    let bin = std::env::var("VERDICT_TEST_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_verdict").to_string());
    format!(
        "env VERDICT_DATA_DIR={} VERDICT_CONFIG_DIR={} {bin} {} -r erin --image-protocol {protocol}",
        sb.path("data").display(),
        sb.path("config").display(),
        sb.path("two.jsonl").display(),
    )
}

/// A new tmux session on the server at `socket` (no config file) running `command`,
/// shown in a pty of `cols`×`rows`.
fn tmux_session(socket: &str, command: &str, cols: u16, rows: u16) -> Pty {
    Pty::spawn_program(
        "tmux",
        ["-L", socket, "-f", "/dev/null", "new-session", command],
        &[],
        cols,
        rows,
    )
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
    if !has_tmux() {
        eprintln!("tmux is not installed: skipped");
        return;
    }
    let sb = sandbox();
    let socket = format!("verdict-hidden-{}", std::process::id());
    let _server = TmuxServer(socket.clone());
    let p = tmux_session(&socket, "sleep 600", 100, 30);
    std::thread::sleep(std::time::Duration::from_millis(500));
    let command = verdict_command(&sb, "kitty");
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
    // (Drawn again if tmux reported a pane change meanwhile: the last one counts.)
    let (_, body) = sixels.last().expect("the picture came through tmux");
    for (_, b) in &sixels {
        assert!(b.len() < 1 << 20, "{} bytes", b.len());
    }
    eprintln!("sixel through tmux: {} bytes", body.len());
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

/// Issue 35, case 5: kitty before 0.28 (placed directly, no Unicode placeholders) in
/// tmux: when another window is shown, the picture is deleted in the terminal. tmux 3.3
/// drops passthrough from a pane it does not show, so the delete goes to its clients'
/// terminals directly; before, the chart stayed drawn over the other window.
#[test]
fn a_direct_kitty_picture_goes_when_another_window_is_shown() {
    let Some((_tmux, mut p)) = verdict_in_tmux("direct", "kitty") else {
        eprintln!("tmux is not installed: skipped");
        return;
    };
    p.wait_for("pic-1");
    p.wait_for_bytes(b"[>q", 0);
    std::thread::sleep(std::time::Duration::from_millis(300));
    // The terminal says it is kitty 0.26.5 (tmux takes the first answer as its own):
    // pictures are placed directly.
    let mark = p.mark();
    p.send_raw(b"\x1bP>|kitty(0.26.5)\x1b\\\x1b[0n");
    std::thread::sleep(std::time::Duration::from_millis(300));
    p.send_raw(b"\x1bP>|kitty(0.26.5)\x1b\\\x1b[0n");
    p.wait_for_bytes(b"a=T", mark);
    std::thread::sleep(std::time::Duration::from_millis(500));
    let out = String::from_utf8_lossy(&p.output()[mark..]).into_owned();
    let keys = out.rsplit("a=T,").next().unwrap_or_default();
    let id: u32 = keys
        .split([',', ';'])
        .find_map(|kv| kv.strip_prefix("i="))
        .and_then(|v| v.parse().ok())
        .expect("a direct placement with its id");
    let socket = format!("verdict-direct-{}", std::process::id());
    let mark = p.mark();
    tmux_on(&socket, &["new-window", "sleep 600"]);
    let delete = format!("a=d,d=I,i={id}");
    p.wait_for_bytes(delete.as_bytes(), mark);
    // Shown again, it is placed again.
    let mark = p.mark();
    tmux_on(&socket, &["select-window", "-t", ":0"]);
    p.wait_for_bytes(b"a=T", mark);
}
