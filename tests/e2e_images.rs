//! Images and the terminal end to end: the real binary in a pseudo-terminal, with a
//! scripted terminal that answers queries early, late or never.

mod common;

use common::Sandbox;

/// A terminal's late answer to the graphics query (kitty's reply, then DA1, cell size,
/// a cursor report and the status report) is never read as keys.
#[test]
fn late_terminal_replies_never_reach_the_keymap() {
    let sb = Sandbox::new();
    let before = std::fs::read(sb.path("cvqa.jsonl")).unwrap();
    let mut p = sb.open("cvqa.jsonl", &[], 60_000);
    p.wait_for("real-00001");
    for reply in [
        "\x1b_Gi=31;OK\x1b\\",
        "\x1b_Gi=32;EINVAL:bad\x1b\\",
        "\x1b[?62;4;22c",
        "\x1b[>1;4000;0c",
        "\x1b[6;20;10t",
        "\x1b[4;480;800t",
        "\x1b[12;40R",
        "\x1b[0n",
        "\x1b[?1;2c",
        "\x1b]11;rgb:0000/0000/0000\x07",
        "\x1b]10;rgb:ffff/ffff/ffff\x1b\\",
        "\x1bP>|XTerm(390)\x1b\\",
        "\x1bP1$r0m\x1b\\",
        "\x1b[?2004;1$y",
        "\x1b[?0u",
    ] {
        p.send(reply);
    }
    p.send("\r");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let screen = p.contents();
    assert!(
        screen.contains("real-00001 · 1/3"),
        "the position moved:\n{screen}"
    );
    assert!(!screen.contains("Note"), "a popup opened:\n{screen}");
    // Keys still work afterwards.
    p.send("n");
    p.wait_for("real-00002");
    p.send("q");
    assert!(p.wait_exit().success());
    assert_eq!(
        std::fs::read(sb.path("cvqa.jsonl")).unwrap(),
        before,
        "nothing was recorded"
    );
}

/// Whether `hay` contains `needle`.
fn has(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// With sixel or iTerm2, opening and closing popups never asks the terminal anything
/// (ratatui's `Terminal::clear` asks for the cursor position and gives up with an error
/// when no answer comes); the reviewer keeps running with a silent terminal.
#[test]
fn popups_never_wait_for_a_terminal_answer() {
    for protocol in ["sixel", "iterm2"] {
        let sb = Sandbox::new();
        let mut p = sb.open("cvqa.jsonl", &["--image-protocol", protocol], 60_000);
        p.wait_for("real-00001");
        let mark = p.mark();
        p.send("?");
        p.wait_for("Keys");
        p.send("\x1b");
        p.send("i");
        p.wait_for("Note");
        p.send("\x1b");
        p.send("s");
        std::thread::sleep(std::time::Duration::from_millis(2600));
        assert!(p.running(), "{protocol}: verdict exited:\n{}", p.contents());
        let out = p.output();
        assert!(
            !has(&out[mark..], b"\x1b[6n"),
            "{protocol}: a cursor-position query was written after start-up"
        );
        // Esc, then `q` once the summary is closed: sent at once, the two bytes can arrive
        // in one read and be Alt+q.
        p.send("\x1b");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while p.contents().contains(" Summary (") && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        p.send("q");
        assert!(p.wait_exit().success(), "{protocol}");
    }
}

/// `auto` draws at once while the graphics query is unanswered, and a key typed
/// meanwhile is not lost; a late answer upgrades the images to kitty.
#[test]
fn auto_draws_at_once_keeps_keys_and_upgrades_late() {
    let sb = Sandbox::new();
    let mut p = sb.open("cvqa.jsonl", &["--image-protocol", "auto"], 60_000);
    // The query is out and unanswered: type at once.
    p.wait_for_bytes(b"\x1b_Gi=31,", 0);
    p.send_raw(b"n");
    p.wait_for("real-00002");
    p.send("p");
    p.wait_for("real-00001");
    let mark = p.mark();
    assert!(
        !has(&p.output()[mark..], b"a=T"),
        "nothing sent as kitty yet"
    );
    // The answer comes late: kitty, 10x20 cells, then the status report.
    p.send_raw(b"\x1b_Gi=31;OK\x1b\\\x1b[6;20;10t\x1b[0n");
    p.wait_for_bytes(b"a=T", mark);
    let screen = p.contents();
    assert!(
        screen.contains("1/3"),
        "the answer moved nothing:\n{screen}"
    );
    p.send("q");
    assert!(p.wait_exit().success());
}

/// sixel and iTerm2 images are not drawn while a popup is open (they would be painted
/// over it), and are drawn again when it closes.
#[test]
fn sixel_and_iterm2_images_never_cover_popups() {
    for (protocol, start) in [("sixel", &b"\x1bP"[..]), ("iterm2", b"\x1b]1337;File=")] {
        let sb = Sandbox::new();
        let mut p = sb.open("cvqa.jsonl", &["--image-protocol", protocol], 60_000);
        p.wait_for("real-00001");
        p.wait_for_bytes(start, 0);
        for (key, title) in [("i", "Note"), ("r", "Reject"), ("f", "Fix"), (":", "Jump")] {
            let mark = p.mark();
            p.send(key);
            p.wait_for(title);
            // Give a re-requested image time to arrive.
            std::thread::sleep(std::time::Duration::from_millis(400));
            p.send("x");
            std::thread::sleep(std::time::Duration::from_millis(200));
            let out = p.output();
            assert!(
                !has(&out[mark..], start),
                "{protocol}: the image was drawn while {title} was open"
            );
            let screen = p.contents();
            assert!(
                screen.contains(title),
                "{protocol}: {title} is gone:\n{screen}"
            );
            let mark = p.mark();
            p.send("\x1b");
            p.wait_for_bytes(start, mark);
        }
        p.send("q");
        assert!(p.wait_exit().success(), "{protocol}");
    }
}

/// The rows erased with ECH (`CSI n X`) in `out`: (row, column, width), 1-based as
/// written, each after the cursor move (`CSI row;col H`) in front of it.
fn erased_rows(out: &[u8]) -> Vec<(u32, u32, u32)> {
    let text = String::from_utf8_lossy(out);
    let mut rows = Vec::new();
    for part in text.split("\x1b[").skip(1) {
        if let Some((pos, rest)) = part.split_once('H')
            && let Some((row, col)) = pos.split_once(';')
            && let (Ok(row), Ok(col)) = (row.parse(), col.parse())
            && rest.is_empty()
        {
            rows.push((row, col, 0));
        } else if let Some(n) = part
            .strip_suffix('X')
            .or_else(|| part.split_once('X').map(|(n, _)| n))
            && let Ok(n) = n.parse::<u32>()
            && let Some(last) = rows.last_mut()
            && last.2 == 0
        {
            last.2 = n;
        }
    }
    rows.retain(|r| r.2 > 0);
    rows
}

/// With sixel or iTerm2, `z`, `z` again and `n` (to an item without a picture) erase
/// only the cells the old picture covered (one ECH per row of it, and the row under it),
/// never the whole screen: a full clear and redraw at every picture flickers, and is
/// slow over SSH. The text is right afterwards.
#[test]
fn a_picture_going_erases_only_its_own_cells() {
    for (protocol, start) in [("sixel", &b"\x1bP"[..]), ("iterm2", b"\x1b]1337;File=")] {
        let sb = Sandbox::new();
        let mut p = sb.open("cvqa.jsonl", &["--image-protocol", protocol], 60_000);
        p.wait_for("real-00001");
        p.wait_for_bytes(start, 0);
        for key in ["z", "z", "n"] {
            std::thread::sleep(std::time::Duration::from_millis(300));
            let mark = p.mark();
            p.send(key);
            let end = if key == "n" {
                p.wait_for("real-00002");
                std::thread::sleep(std::time::Duration::from_millis(300));
                p.mark()
            } else {
                p.wait_for_bytes(start, mark)
            };
            let out = p.output();
            assert!(
                !has(&out[mark..], b"\x1b[2J"),
                "{protocol} {key}: the whole screen was cleared"
            );
            // First the picture's rectangle: the same columns on consecutive rows (the
            // frame that follows may erase runs of blanks with ECH too).
            let rows = erased_rows(&out[mark..end]);
            let rectangle = 1 + rows
                .windows(2)
                .take_while(|w| w[1].0 == w[0].0 + 1 && (w[1].1, w[1].2) == (w[0].1, w[0].2))
                .count();
            assert!(
                !rows.is_empty() && rectangle >= 3,
                "{protocol} {key}: the old picture's rows were not erased: {rows:?}"
            );
        }
        let screen = p.contents();
        assert!(
            screen.contains("real-00002 · 2/3") && screen.contains("Would the TV be on"),
            "{protocol}:\n{screen}"
        );
        p.send("q");
        assert!(p.wait_exit().success(), "{protocol}");
    }
}

/// A private tmux server for one test, killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn start(name: &str) -> Option<Tmux> {
        let t = Tmux {
            socket: format!("verdict-{name}-{}", std::process::id()),
        };
        let ok = t.run(&["new-session", "-d", "-s", "base", "-x", "100", "-y", "30"]);
        ok.status.success().then_some(t)
    }
    fn run(&self, args: &[&str]) -> std::process::Output {
        std::process::Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("run tmux")
    }
    fn out(&self, args: &[&str]) -> String {
        String::from_utf8_lossy(&self.run(args).stdout).into_owned()
    }
    fn wait_for(&self, target: &str, text: &str) -> String {
        self.wait_until(target, text, |screen| screen.contains(text))
    }

    /// The pane's screen once `ready` holds for it (`what` names it in a timeout).
    fn wait_until(&self, target: &str, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let start = std::time::Instant::now();
        loop {
            let screen = self.out(&["capture-pane", "-p", "-t", target]);
            if ready(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < common::WAIT,
                "timed out waiting for {what}:\n{screen}"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

impl Tmux {
    /// Wait until the pane's process has ended. (tmux's "Pane is dead" line is not
    /// always in `capture-pane` after a program that left the alternate screen, so
    /// ask tmux for the pane's state instead of reading the screen.)
    fn wait_dead(&self, target: &str) {
        let start = std::time::Instant::now();
        loop {
            let dead = self.out(&["display", "-p", "-t", target, "#{pane_dead}"]);
            if dead.trim() == "1" {
                return;
            }
            assert!(
                start.elapsed() < common::WAIT,
                "timed out waiting for the pane {target} to end"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// Inside tmux, `allow-passthrough` is left alone for half-blocks and `none`, switched
/// on for a protocol that needs it, and put back as it was when verdict ends.
#[test]
fn tmux_passthrough_only_when_needed_and_restored() {
    let Some(tmux) = Tmux::start("passthrough") else {
        eprintln!("tmux is not installed: skipped");
        return;
    };
    tmux.run(&["set", "-g", "remain-on-exit", "on"]);
    let sb = Sandbox::new();
    let bin = std::env::var("VERDICT_TEST_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_verdict").to_string());
    for (i, (protocol, on_while_running)) in [
        ("halfblocks", false),
        ("none", false),
        ("kitty", true),
        ("iterm2", true),
    ]
    .into_iter()
    .enumerate()
    {
        let window = format!("w{i}");
        let target = format!("base:{window}");
        let command = format!(
            "env TERM=tmux-256color VERDICT_DATA_DIR={} VERDICT_CONFIG_DIR={} {bin} {} -r erin --image-protocol {protocol}",
            sb.path("data").display(),
            sb.path("config").display(),
            sb.path("cvqa.jsonl").display(),
        );
        tmux.run(&["new-window", "-d", "-t", "base", "-n", &window, &command]);
        tmux.wait_for(&target, "real-00001");
        let value = || {
            tmux.out(&["show", "-p", "-t", &target, "-v", "allow-passthrough"])
                .trim()
                .to_string()
        };
        let running = value();
        assert_eq!(
            running == "on" || running == "all",
            on_while_running,
            "{protocol}: allow-passthrough is {running:?} while running"
        );
        tmux.run(&["send-keys", "-t", &target, "q"]);
        tmux.wait_dead(&target);
        let after = value();
        assert!(
            after.is_empty() || after == "off",
            "{protocol}: allow-passthrough is {after:?} after exit"
        );
    }
    // Without `tmux` on PATH, images cannot be let through: said on screen, and drawn
    // as half-blocks rather than silently not at all.
    let command = format!(
        "env PATH=/nonexistent TERM=tmux-256color VERDICT_DATA_DIR={} VERDICT_CONFIG_DIR={} {bin} {} -r erin --image-protocol kitty",
        sb.path("data").display(),
        sb.path("config").display(),
        sb.path("cvqa.jsonl").display(),
    );
    tmux.run(&["new-window", "-d", "-t", "base", "-n", "nopath", &command]);
    // A frame reaches tmux in pieces (the header before the status line) and the picture
    // comes later: wait for what is asserted, each wait failing if it never shows.
    tmux.wait_until(
        "base:nopath",
        "the item and the notice about tmux on PATH",
        |s| s.contains("real-00001") && s.contains("tmux` on PATH"),
    );
    tmux.wait_until("base:nopath", "the picture as half-blocks", |s| {
        s.contains('▀') || s.contains('▄')
    });
}

/// Items whose image is `/dev/tty` (the reviewer's own terminal) or a FIFO: the image
/// worker never opens them, so every key reaches the reviewer (before, the prefetch
/// opened `/dev/tty` and read the key presses as image bytes, and `q` did not quit), and
/// the image pane says why there is no picture.
#[cfg(unix)]
#[test]
fn a_tty_or_fifo_image_path_does_not_eat_keys() {
    let sb = Sandbox::new();
    let fifo = sb.path("fifo.png");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let mut lines = String::new();
    for n in 1..=6 {
        let image = if n % 2 == 1 { "/dev/tty" } else { "fifo.png" };
        lines.push_str(&format!(
            "{{\"id\":\"t{n}\",\"question\":\"q{n}\",\"answer\":\"a\",\"image\":\"{image}\"}}\n"
        ));
    }
    std::fs::write(sb.path("tty.jsonl"), lines).unwrap();
    let mut p = sb.open("tty.jsonl", &[], 60_000);
    p.wait_for("t1");
    p.wait_for("not a regular file");
    for n in 2..=6 {
        p.send("n");
        p.wait_for(&format!("t{n} · {n}/6"));
    }
    p.wait_for("not a regular file: a FIFO");
    p.send("p");
    p.wait_for("t5 · 5/6");
    p.wait_for("not a regular file: a character device");
    let started = std::time::Instant::now();
    p.send("q");
    assert!(p.wait_exit().success());
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "q took {:?}",
        started.elapsed()
    );
}

/// The screen's cells as text, one `Vec` of symbols a row (an erased cell is a space).
fn cells(p: &common::Pty) -> Vec<Vec<String>> {
    p.with_screen(|s| {
        let (rows, cols) = s.size();
        (0..rows)
            .map(|r| {
                (0..cols)
                    .map(|c| match s.cell(r, c).map(|c| c.contents()) {
                        // An erased cell and a space written look the same.
                        Some(t) if !t.is_empty() => t.to_string(),
                        _ => " ".to_string(),
                    })
                    .collect()
            })
            .collect()
    })
}

/// The inside of the image pane on the 100×30 screen the sandbox opens a C-VQA item in
/// (as `layout::Screen` lays it out: a header row, the body, two footer rows).
fn image_pane_inside() -> ratatui::layout::Rect {
    use ratatui::layout::{Constraint, Layout, Rect};
    let body = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length(2),
    ])
    .split(Rect::new(0, 0, 100, 30))[1];
    let pane = verdict::tui::layout::split_body(body, true, false)
        .0
        .expect("an image pane");
    ratatui::widgets::Block::bordered().inner(pane)
}

/// The screen with each popup open (`?`, `/`, `F`, `i`) drawn with `protocol`, once the
/// first picture was drawn (`drawn`: its first bytes, or a half-block cell on screen).
fn popup_screens(protocol: &str, drawn: &[u8]) -> Vec<(&'static str, Vec<Vec<String>>)> {
    let sb = Sandbox::new();
    let mut p = sb.open("cvqa.jsonl", &["--image-protocol", protocol], 60_000);
    p.wait_for("real-00001");
    if drawn.is_empty() {
        p.wait_for("▀");
    } else {
        p.wait_for_bytes(drawn, 0);
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let mut screens = Vec::new();
    for (key, title) in [
        ("?", " Help "),
        ("/", " Search"),
        ("F", " Filters · "),
        ("i", " Note"),
    ] {
        p.send(key);
        p.wait_for(title);
        // Whatever follows the popup's first frame (a picture asked again) has arrived.
        std::thread::sleep(std::time::Duration::from_millis(500));
        screens.push((title, cells(&p)));
        let mark = p.mark();
        p.send("\x1b");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while p.contents().contains(title) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        if !drawn.is_empty() {
            p.wait_for_bytes(drawn, mark);
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    p.send("q");
    assert!(p.wait_exit().success(), "{protocol}");
    screens
}

/// Issue 35, case 1: with sixel or iTerm2, every popup's screen is the half-block
/// screen, cell by cell, but for the inside of the image pane (the picture, hidden
/// while a popup is open). The clear at a popup's opening once left ratatui believing
/// the last frame was still on screen: only the cells that changed were sent, so the
/// header, the box lines and every letter that was the same as before were missing.
#[test]
fn popups_over_painted_pictures_are_the_half_block_screen() {
    let pane = image_pane_inside();
    let half = popup_screens("halfblocks", b"");
    for (protocol, drawn) in [("sixel", &b"\x1bP"[..]), ("iterm2", b"\x1b]1337;File=")] {
        let painted = popup_screens(protocol, drawn);
        for ((title, want), (_, got)) in half.iter().zip(&painted) {
            let mut wrong = Vec::new();
            for (y, (w, g)) in want.iter().zip(got).enumerate() {
                for (x, (wc, gc)) in w.iter().zip(g).enumerate() {
                    let in_pane = pane.contains(ratatui::layout::Position::new(x as u16, y as u16));
                    if wc != gc && !(in_pane && (wc == "▀" || wc == "▄" || wc == " ")) {
                        wrong.push((y, x, wc.clone(), gc.clone()));
                    }
                }
            }
            let show =
                |s: &Vec<Vec<String>>| s.iter().map(|r| r.concat()).collect::<Vec<_>>().join("\n");
            assert!(
                wrong.is_empty(),
                "{protocol}, {title}: {} cells differ from the half-block screen, e.g. {:?}\n\
                 half-blocks:\n{}\n{protocol}:\n{}",
                wrong.len(),
                &wrong[..wrong.len().min(8)],
                show(want),
                show(got)
            );
        }
    }
}

/// Issue 35, case 1: the terminal's answer upgrades `auto` to sixel while the note is
/// open: the note's screen stays the half-block run's (the picture hidden under it),
/// and the picture is drawn when the note closes.
#[test]
fn a_sixel_upgrade_under_an_open_note_keeps_the_screen() {
    let pane = image_pane_inside();
    let sb = Sandbox::new();
    let mut p = sb.open("cvqa.jsonl", &["--image-protocol", "auto"], 60_000);
    p.wait_for_bytes(b"\x1b_Gi=31,", 0);
    p.wait_for("▀");
    p.send("i");
    p.wait_for(" Note");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let before = cells(&p);
    let mark = p.mark();
    // No kitty; sixel in the device attributes, a 10x20 cell, then the status report.
    p.send_raw(b"\x1b[?62;4;22c\x1b[6;20;10t\x1b[0n");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let after = cells(&p);
    let mut wrong = 0;
    for (y, (w, g)) in before.iter().zip(&after).enumerate() {
        for (x, (wc, gc)) in w.iter().zip(g).enumerate() {
            let in_pane = pane.contains(ratatui::layout::Position::new(x as u16, y as u16));
            if wc != gc && !(in_pane && (wc == "▀" || wc == "▄" || wc == " ")) {
                wrong += 1;
            }
        }
    }
    let show = |s: &Vec<Vec<String>>| s.iter().map(|r| r.concat()).collect::<Vec<_>>().join("\n");
    assert_eq!(
        wrong,
        0,
        "before:\n{}\nafter:\n{}",
        show(&before),
        show(&after)
    );
    assert!(
        !has(&p.output()[mark..], b"\x1bP"),
        "a sixel picture was drawn under the note"
    );
    let mark = p.mark();
    p.send("\x1b");
    p.wait_for_bytes(b"\x1bP", mark);
    p.send("q");
    assert!(p.wait_exit().success());
}
