//! Terminals and multiplexers as the reviewer meets them (issue 35): the real binary in a
//! pseudo-terminal, with the bytes GNU screen, tmux and mosh send and the variables they
//! set.

mod common;

use common::Sandbox;

fn has(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Esc glued to the next key (`ESC n` in one read: GNU screen 4 hands a held-back Esc
/// over with the next key, tmux's `escape-time` merges a quick pair into Alt-key) is Esc,
/// then the key: the note closes without recording anything and `n` goes on to the next
/// item. Before, the pair was an Alt-n nothing took: the note stayed open, and what was
/// typed next (a shell command) was saved as the note.
#[test]
fn an_esc_glued_to_the_next_key_cancels_the_note() {
    let sb = Sandbox::new();
    let mut p = sb.open("cvqa.jsonl", &[], 60_000);
    p.wait_for("real-00001");
    p.send("i");
    p.wait_for(" Note");
    p.send("ok");
    p.send_raw(b"\x1bn");
    p.wait_for("real-00002");
    let screen = p.contents();
    assert!(
        !screen.contains(" Note"),
        "the note is still open:\n{screen}"
    );
    p.send("q");
    assert!(p.wait_exit().success());
    let review = sb.review("cvqa.jsonl", "real-00001", "erin");
    assert!(
        review.as_ref().is_none_or(|r| r.get("note").is_none()),
        "a cancelled note was recorded: {review:?}"
    );
}

/// An Alt key something takes is still that key: Alt-b moves a word back in a text field.
#[test]
fn an_alt_key_a_text_field_takes_stays_its_own() {
    let sb = Sandbox::new();
    let mut p = sb.open("cvqa.jsonl", &[], 60_000);
    p.wait_for("real-00001");
    p.send("i");
    p.wait_for(" Note");
    p.send("one two");
    p.send_raw(b"\x1bb");
    p.send("X");
    p.wait_for("one Xtwo");
    p.send("\x1b");
    p.send("q");
    assert!(p.wait_exit().success());
}

/// Under GNU screen (`STY` set) the mouse is never switched on: screen 4 holds a lone Esc
/// back while it is, until the next key comes (it waits for the rest of a mouse report),
/// so Esc did nothing. Esc then closes a popup at once.
#[test]
fn under_gnu_screen_the_mouse_stays_off_and_esc_closes() {
    let sb = Sandbox::new();
    let vars = [
        ("STY", "4242.pts-0.host".to_string()),
        ("TERM", "screen.xterm-256color".to_string()),
    ];
    let mut p = sb.open_env("cvqa.jsonl", &[], &vars);
    p.wait_for("real-00001");
    assert!(
        !has(&p.output(), b"\x1b[?1000h"),
        "mouse tracking was switched on under GNU screen"
    );
    p.send("?");
    p.wait_for(" Help ");
    p.send("\x1b");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while p.contents().contains(" Help ") && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(
        !p.contents().contains(" Help "),
        "Esc did not close the help"
    );
    p.send("q");
    assert!(p.wait_exit().success());
}

/// Where `TERM` names screen but `STY` is not there (over ssh from a GNU screen window),
/// the multiplexer is asked (secondary device attributes): GNU screen before 5.0 answers
/// `83;40900`, and the mouse is switched off; tmux (`84`) and screen 5 keep it.
#[test]
fn a_gnu_screen_4_answer_switches_the_mouse_off() {
    for (answer, off) in [
        (&b"\x1b[>83;40900;0c"[..], true),
        (b"\x1b[>84;0;0c", false),
        (b"\x1b[>83;50000;0c", false),
    ] {
        let sb = Sandbox::new();
        let vars = [
            ("STY", String::new()),
            ("TMUX", String::new()),
            ("TERM", "screen-256color".to_string()),
        ];
        let mut p = sb.open_env("cvqa.jsonl", &[], &vars);
        p.wait_for("real-00001");
        p.wait_for_bytes(b"\x1b[>c", 0);
        assert!(has(&p.output(), b"\x1b[?1000h"), "the mouse is on at first");
        let mark = p.mark();
        p.send_raw(answer);
        if off {
            // Said until the next key.
            p.wait_for("mouse off");
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
        p.send("n");
        p.wait_for("real-00002");
        let name = String::from_utf8_lossy(answer);
        assert_eq!(
            has(&p.output()[mark..], b"\x1b[?1000l"),
            off,
            "{name:?}: mouse switched off"
        );
        p.send("q");
        assert!(p.wait_exit().success());
    }
}

/// The colours of a frame's SGR sequences in `out`: (24-bit ones, 256-colour indexes).
fn colours(out: &[u8]) -> (usize, Vec<u32>) {
    let text = String::from_utf8_lossy(out);
    let rgb = text.matches("8;2;").count();
    let mut indexed = Vec::new();
    for part in text.split("8;5;").skip(1) {
        let n: String = part.chars().take_while(|c| c.is_ascii_digit()).collect();
        if let Ok(n) = n.parse() {
            indexed.push(n);
        }
    }
    (rgb, indexed)
}

/// Issue 35, cases 3 and 7: colours follow what the terminal claims. GNU screen 4
/// (`TERM=screen.xterm-256color`, no `COLORTERM`) and urxvt (`rxvt-unicode-256color`)
/// get the half-block picture in 256 colours, urxvt's `rxvt-unicode` in its 88, never
/// 24-bit sequences (screen 4 read them as attributes: black bars); so does screen's
/// `TERM=screen` (its entry says 8: screen maps 256 colours to its terminal's);
/// `COLORTERM=truecolor` keeps 24-bit, and so does xterm's own `TERM=xterm` (its entry
/// says 8 colours; xterm draws 24-bit).
#[test]
fn colours_follow_what_the_terminal_claims() {
    for (term, colorterm, want) in [
        ("screen.xterm-256color", "", Some(256)),
        ("rxvt-unicode-256color", "rxvt-xpm", Some(256)),
        ("rxvt-unicode", "rxvt", Some(88)),
        ("xterm-256color", "truecolor", None),
        ("xterm", "", None),
        ("screen", "", Some(256)),
    ] {
        let sb = Sandbox::new();
        let vars = [
            ("TERM", term.to_string()),
            ("COLORTERM", colorterm.to_string()),
            ("TMUX", String::new()),
            ("TERM_PROGRAM", String::new()),
            ("STY", String::new()),
        ];
        let mut p = sb.open_env("cvqa.jsonl", &["--image-protocol", "halfblocks"], &vars);
        p.wait_for("real-00001");
        p.wait_for("▀");
        std::thread::sleep(std::time::Duration::from_millis(300));
        let (rgb, indexed) = colours(&p.output());
        match want {
            None => assert!(rgb >= 50, "{term}: {rgb} 24-bit colours"),
            Some(n) => {
                assert_eq!(rgb, 0, "{term}: 24-bit colours sent");
                assert!(
                    indexed.iter().all(|&i| i < n),
                    "{term}: an index past {n}: {indexed:?}"
                );
                assert!(indexed.len() >= 50, "{term}: the picture in {n} colours");
            }
        }
        p.send("q");
        assert!(p.wait_exit().success(), "{term}");
    }
}

/// Issue 35, case 6: mosh has no alternate screen: what verdict drew stays on the
/// shell's screen unless it is erased on the way out. The program's output with the
/// alternate screen's switches taken out (as mosh shows it) ends on a screen with
/// nothing of verdict's but its exit message.
#[test]
fn nothing_is_left_on_a_terminal_without_an_alternate_screen() {
    let sb = Sandbox::new();
    let mut p = sb.open("cvqa.jsonl", &[], 60_000);
    p.wait_for("real-00001");
    p.send("q");
    assert!(p.wait_exit().success());
    std::thread::sleep(std::time::Duration::from_millis(200));
    let mut out = p.output();
    for switch in [&b"\x1b[?1049h"[..], b"\x1b[?1049l"] {
        while let Some(at) = out.windows(switch.len()).position(|w| w == switch) {
            out.drain(at..at + switch.len());
        }
    }
    let mut mosh = vt100::Parser::new(30, 100, 0);
    mosh.process(&out);
    let screen = mosh.screen().contents();
    for drawn in ["real-00001", "Counterfactual", "▓", "q quit"] {
        assert!(
            !screen.contains(drawn),
            "{drawn:?} left on screen:\n{screen}"
        );
    }
}

/// Issue 35, case 8: under NO_COLOR a half-block picture is drawn in grey levels (the
/// screen's own colours stay off: the mono theme). Before, crossterm dropped every colour
/// under NO_COLOR and the picture was white bars (and a kitty picture's placeholders lost
/// the image id their colour carries).
#[test]
fn under_no_color_a_half_block_picture_is_grey() {
    let sb = Sandbox::new();
    let vars = [
        ("NO_COLOR", "1".to_string()),
        ("COLORTERM", String::new()),
        ("TMUX", String::new()),
        ("TERM_PROGRAM", String::new()),
        ("STY", String::new()),
    ];
    let mut p = sb.open_env("cvqa.jsonl", &["--image-protocol", "halfblocks"], &vars);
    p.wait_for("real-00001");
    p.wait_for("▀");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let (rgb, indexed) = colours(&p.output());
    assert_eq!(rgb, 0, "24-bit colours sent for xterm-256color");
    assert!(
        indexed.len() >= 50,
        "the picture has {} colours",
        indexed.len()
    );
    let grey = |i: u32| (232..=255).contains(&i) || [16, 59, 102, 145, 188, 231].contains(&i);
    assert!(
        indexed.iter().all(|&i| grey(i)),
        "colours that are not grey: {:?}",
        indexed
            .iter()
            .filter(|&&i| !grey(i))
            .take(8)
            .collect::<Vec<_>>()
    );
    p.send("q");
    assert!(p.wait_exit().success());
}

/// The variable that makes the test below the child run of itself.
const ENV_CHILD: &str = "VERDICT_TEST_ENV_CHILD";

/// The tests' pseudo-terminal starts its child with nothing of the developer's terminal:
/// run inside tmux (or iTerm2, Konsole, GNU screen), `cargo test` passed `TMUX`,
/// `TMUX_PANE`, `TERM_PROGRAM`, ... on, the child thought it was in tmux, and two image
/// tests timed out. The test runs itself again with those variables set (as a terminal
/// sets them), and that run reads the environment its pty child gets.
#[test]
fn the_developer_s_terminal_does_not_reach_the_child() {
    let names = [
        "TMUX",
        "TMUX_PANE",
        "TERM_PROGRAM",
        "TERM_PROGRAM_VERSION",
        "LC_TERMINAL",
        "STY",
        "KONSOLE_VERSION",
        "WEZTERM_EXECUTABLE",
        "COLORTERM",
        "VERDICT_CONFIG_DIR",
    ];
    if std::env::var_os(ENV_CHILD).is_none() {
        let mut run = std::process::Command::new(std::env::current_exe().unwrap());
        run.args([
            "the_developer_s_terminal_does_not_reach_the_child",
            "--exact",
            "--nocapture",
        ])
        .env(ENV_CHILD, "1");
        for n in names {
            run.env(n, format!("{n}-of-the-developer"));
        }
        let out = run.output().unwrap();
        assert!(
            out.status.success() && String::from_utf8_lossy(&out.stdout).contains("1 passed"),
            "{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        return;
    }
    let mut p = common::Pty::spawn_program("sh", ["-c", "env; echo END-OF-ENV"], &[], 200, 50);
    p.wait_for_raw("END-OF-ENV");
    p.wait_exit();
    let seen = String::from_utf8_lossy(&p.raw_bytes()).into_owned();
    assert!(seen.contains("PATH="), "{seen}");
    for n in names {
        assert!(
            !seen.contains(&format!("{n}-of-")),
            "{n} reached the child:\n{seen}"
        );
    }
}
