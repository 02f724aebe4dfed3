//! Keys are data: a key remapped in the config does the action, the key it replaced no
//! longer does, and every hint on screen names the new key, in the item view and in
//! each overlay.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use verdict::store::Store;
use verdict::tui::app::{Clock, Effect, Mode, Msg, State};
use verdict::tui::draw::render_to_string;
use verdict::tui::facts;
use verdict::tui::keymap::Keymap;
use verdict::tui::theme::ThemeName;
use verdict::tui::views::cvqa::fix::FixState;
use verdict::tui::views::cvqa::reject::{Reject, RejectOther};

/// The reviewer on a copy of the tui fixture `name`, with `[keys]` of the config applied.
fn state(name: &str, keys: &[(&str, &[&str])]) -> (tempfile::TempDir, State) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tui");
    let d = tempfile::tempdir().unwrap();
    for f in std::fs::read_dir(&src).unwrap() {
        let f = f.unwrap();
        std::fs::copy(f.path(), d.path().join(f.file_name())).unwrap();
    }
    let p: PathBuf = d.path().join(name);
    let mut keymap = Keymap::default();
    let cfg: BTreeMap<String, Vec<String>> = keys
        .iter()
        .map(|(a, ks)| (a.to_string(), ks.iter().map(|k| k.to_string()).collect()))
        .collect();
    assert_eq!(keymap.apply_config(&cfg), Vec::<String>::new());
    let store = Store::open(&p).unwrap();
    let meta = facts::index(&store, 2);
    let clock = Clock {
        instant: Instant::now(),
        utc: time::macros::datetime!(2026-11-22 10:00:00 UTC),
    };
    let mut s = State::new(store, "carol".into(), keymap, ThemeName::Mono, clock);
    s.update(Msg::Indexed {
        generation: 0,
        meta: meta.into(),
    });
    s.size = (100, 30);
    (d, s)
}

fn key(s: &mut State, code: KeyCode, m: KeyModifiers) -> Vec<Effect> {
    s.update(Msg::Key(KeyEvent::new(code, m)))
}
fn press(s: &mut State, code: KeyCode) -> Vec<Effect> {
    key(s, code, KeyModifiers::NONE)
}
fn ch(s: &mut State, c: char) -> Vec<Effect> {
    press(s, KeyCode::Char(c))
}
fn ctrl(s: &mut State, c: char) -> Vec<Effect> {
    key(s, KeyCode::Char(c), KeyModifiers::CONTROL)
}
fn screen(s: &State) -> String {
    render_to_string(s, 100, 30)
}
fn records(fx: &[Effect]) -> usize {
    fx.iter()
        .filter(|e| matches!(e, Effect::Record { .. }))
        .count()
}

#[test]
fn a_remapped_item_view_key_shows_in_the_footer_and_the_old_key_is_gone() {
    let (_d, mut s) = state("generic.jsonl", &[("quit", &["Q"]), ("help", &["h"])]);
    let out = screen(&s);
    assert!(out.contains(" Q quit "), "{out}");
    assert!(out.contains(" h help "), "{out}");
    assert!(!out.contains(" q quit "), "{out}");
    ch(&mut s, 'q');
    assert!(!s.quit);
    ch(&mut s, '?');
    assert!(matches!(s.mode, Mode::Normal));
    ch(&mut s, 'h');
    assert!(matches!(s.mode, Mode::Help { .. }));
    // The help opened by `h` closes with `h`, and its footer says so.
    assert!(screen(&s).contains(" h close "));
    ch(&mut s, 'h');
    assert!(matches!(s.mode, Mode::Normal));
    ch(&mut s, 'Q');
    assert!(s.quit);
}

#[test]
fn too_small_a_terminal_names_the_quit_key() {
    let (_d, s) = state("generic.jsonl", &[("quit", &["Q"])]);
    let out = render_to_string(&s, 30, 8);
    assert!(out.contains("Q quits"), "{out}");
    assert!(!out.contains("q quits"), "{out}");
}

#[test]
fn the_note_takes_its_remapped_keys_and_names_them() {
    let (_d, mut s) = state(
        "generic.jsonl",
        &[("cancel", &["ctrl-g"]), ("note.submit", &["ctrl-s"])],
    );
    ch(&mut s, 'i');
    assert!(matches!(s.mode, Mode::Note(_)));
    let out = screen(&s);
    assert!(out.contains("Ctrl-s saves"), "{out}");
    assert!(out.contains("Ctrl-g cancels"), "{out}");
    assert!(!out.contains("Esc"), "{out}");
    assert!(!out.contains("Enter saves"), "{out}");
    // The footer too.
    assert!(out.contains(" Ctrl-s ok "), "{out}");
    assert!(out.contains(" Ctrl-g cancel"), "{out}");
    // The old keys do nothing.
    press(&mut s, KeyCode::Esc);
    assert!(matches!(s.mode, Mode::Note(_)));
    for c in "odd".chars() {
        ch(&mut s, c);
    }
    let fx = press(&mut s, KeyCode::Enter);
    assert_eq!(records(&fx), 0);
    assert!(matches!(s.mode, Mode::Note(_)));
    let fx = ctrl(&mut s, 's');
    assert_eq!(records(&fx), 1);
    assert!(matches!(s.mode, Mode::Normal));
    ch(&mut s, 'i');
    ctrl(&mut s, 'g');
    assert!(matches!(s.mode, Mode::Normal));
}

#[test]
fn the_jump_field_takes_a_remapped_submit() {
    let (_d, mut s) = state("cvqa.jsonl", &[("jump.submit", &["ctrl-j"])]);
    ch(&mut s, ':');
    ch(&mut s, '2');
    let out = screen(&s);
    assert!(out.contains("Ctrl-j jumps"), "{out}");
    press(&mut s, KeyCode::Enter);
    assert!(matches!(s.mode, Mode::Jump(_)));
    ctrl(&mut s, 'j');
    assert!(matches!(s.mode, Mode::Normal));
    assert_eq!(s.current.as_ref().map(|c| c.index), Some(1));
}

#[test]
fn the_reject_menu_takes_remapped_reason_and_move_keys() {
    let (_d, mut s) = state(
        "cvqa.jsonl",
        &[
            ("reject.reason_1", &["o"]),
            ("select_next", &["J"]),
            ("reject.submit", &["y"]),
        ],
    );
    ch(&mut s, 'r');
    assert!(s.mode.popup::<Reject>().is_some());
    let out = screen(&s);
    // The menu's rows and title name the keys.
    assert!(out.contains(" o ambiguous "), "{out}");
    assert!(!out.contains(" 1 ambiguous "), "{out}");
    assert!(out.contains("o 2 3 4 5 or ↑J y · Esc cancels"), "{out}");
    // So does the view's line of reasons.
    ch(&mut s, 'x');
    assert!(s.mode.popup::<Reject>().is_some());
    press(&mut s, KeyCode::Esc);
    let out = screen(&s);
    assert!(
        out.contains("reject reasons: o ambiguous · 2 not-image-related"),
        "{out}"
    );
    ch(&mut s, 'r');
    ch(&mut s, '1');
    ch(&mut s, 'j');
    press(&mut s, KeyCode::Enter);
    assert!(
        s.mode.popup::<Reject>() == Some(&Reject { selected: 0 }),
        "{:?}",
        s.mode
    );
    ch(&mut s, 'J');
    assert!(
        s.mode.popup::<Reject>() == Some(&Reject { selected: 1 }),
        "{:?}",
        s.mode
    );
    let fx = ch(&mut s, 'y');
    assert_eq!(records(&fx), 1);
    assert!(matches!(s.mode, Mode::Normal));
    ch(&mut s, 'r');
    let fx = ch(&mut s, 'o');
    assert_eq!(records(&fx), 1);
}

#[test]
fn the_fix_fields_switch_with_a_remapped_key() {
    let (_d, mut s) = state("cvqa.jsonl", &[("fix.switch_field", &["ctrl-t"])]);
    ch(&mut s, 'f');
    let out = screen(&s);
    assert!(out.contains("Ctrl-t switches"), "{out}");
    press(&mut s, KeyCode::Down);
    let Some(f) = s.mode.popup::<FixState>() else {
        panic!("fix mode")
    };
    assert!(!f.on_answer);
    ctrl(&mut s, 't');
    let Some(f) = s.mode.popup::<FixState>() else {
        panic!("fix mode")
    };
    assert!(f.on_answer);
}

#[test]
fn the_filter_menu_takes_remapped_keys_and_names_them() {
    let (_d, mut s) = state(
        "generic.jsonl",
        &[("filter.toggle", &["t"]), ("filter", &["f"])],
    );
    ch(&mut s, 'f');
    assert!(matches!(s.mode, Mode::Filter { .. }));
    let out = screen(&s);
    assert!(out.contains("t toggles"), "{out}");
    assert!(out.contains(" t toggle "), "{out}");
    assert!(!out.contains("Enter"), "{out}");
    press(&mut s, KeyCode::Enter);
    assert!(!screen(&s).contains("[x]"));
    ch(&mut s, 't');
    assert!(screen(&s).contains("[x]"));
    // `F` was the filter key: it no longer closes the menu; the new `f` does.
    ch(&mut s, 'F');
    assert!(matches!(s.mode, Mode::Filter { .. }));
    ch(&mut s, 'f');
    assert!(matches!(s.mode, Mode::Normal));
}

#[test]
fn the_help_and_summary_take_remapped_keys_and_name_them() {
    let (_d, mut s) = state(
        "generic.jsonl",
        &[
            ("help.close", &["x"]),
            ("summary.close", &["x"]),
            ("help.scroll_down", &["J"]),
            ("help.scroll_up", &["K"]),
            ("note.cancel", &["ctrl-g"]),
        ],
    );
    ch(&mut s, '?');
    let out = screen(&s);
    assert!(out.contains(" x close "), "{out}");
    assert!(out.contains(" J/K scroll"), "{out}");
    assert!(!out.contains("Esc close"), "{out}");
    // The help's text-field section, at its end, names the note's keys.
    for _ in 0..100 {
        ch(&mut s, 'J');
    }
    let end = screen(&s);
    assert!(end.contains("In text fields"), "{end}");
    assert!(end.contains("Ctrl-g"), "{end}");
    assert!(!end.contains("Esc"), "{end}");
    press(&mut s, KeyCode::Esc);
    assert!(matches!(s.mode, Mode::Help { .. }));
    ch(&mut s, 'x');
    assert!(matches!(s.mode, Mode::Normal));
    ch(&mut s, 's');
    let out = screen(&s);
    assert!(out.contains("Summary (s or x closes)"), "{out}");
    press(&mut s, KeyCode::Esc);
    assert!(matches!(s.mode, Mode::Summary { .. }));
    ch(&mut s, 'x');
    assert!(matches!(s.mode, Mode::Normal));
}

#[test]
fn the_search_takes_remapped_keys() {
    let (_d, mut s) = state(
        "generic.jsonl",
        &[
            ("search.cancel", &["ctrl-g"]),
            ("search.select_next", &["ctrl-j"]),
        ],
    );
    ch(&mut s, '/');
    assert!(screen(&s).contains(" Ctrl-g cancel"));
    press(&mut s, KeyCode::Esc);
    assert!(matches!(s.mode, Mode::Search(_)));
    ctrl(&mut s, 'g');
    assert!(matches!(s.mode, Mode::Normal));
}

#[test]
fn status_messages_name_the_remapped_key() {
    // A fix that changes nothing points at the accept key.
    let (_d, mut s) = state("cvqa.jsonl", &[("accept", &["y"])]);
    ch(&mut s, 'f');
    press(&mut s, KeyCode::Enter);
    let out = screen(&s);
    assert!(out.contains("use y to accept"), "{out}");
    // A reject with "other" and no words names the cancel key.
    let (_d, mut s) = state("cvqa.jsonl", &[("reject-other.cancel", &["ctrl-g"])]);
    ch(&mut s, 'r');
    ch(&mut s, '5');
    assert!(s.mode.popup::<RejectOther>().is_some());
    press(&mut s, KeyCode::Enter);
    let out = screen(&s);
    assert!(out.contains("Ctrl-g cancels"), "{out}");
}

/// Acknowledge the journal writes of `fx`, as the journal worker would.
fn ack(s: &mut State, fx: Vec<Effect>) {
    for e in fx {
        if let Effect::Record { seq, .. } = e {
            s.update(Msg::Recorded {
                seq,
                result: Ok(()),
            });
        }
    }
}

fn status(s: &State) -> String {
    s.status.as_ref().map(|m| m.0.clone()).unwrap_or_default()
}

#[test]
fn skip_and_adjudication_messages_name_the_remapped_keys() {
    let (_d, mut s) = state(
        "cvqa.jsonl",
        &[
            ("skip", &["K"]),
            ("next_ungraded", &["N"]),
            ("adjudicate", &["Y"]),
            ("adjudication_queue", &["W"]),
        ],
    );
    ch(&mut s, 'K');
    let msg = status(&s);
    assert!(
        msg.contains("N passes over it; K on it again unskips"),
        "{msg}"
    );
    ch(&mut s, 'K');
    // Marking final before grading points at the adjudicate key.
    ch(&mut s, 'Y');
    let msg = status(&s);
    assert!(msg.contains("Y then marks your verdict"), "{msg}");
    // The queue, emptied by adjudicating its one item, says which key leaves it.
    ch(&mut s, 'W');
    assert!(s.queue);
    let fx = ch(&mut s, 'a');
    ack(&mut s, fx);
    let fx = ch(&mut s, 'Y');
    ack(&mut s, fx);
    let msg = status(&s);
    assert!(msg.contains("(W leaves the queue)"), "{msg}");
}
