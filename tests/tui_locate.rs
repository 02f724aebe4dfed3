//! What an earlier session left, taken up while the reviewer already works: the state
//! starts at once (`State::begin`), what was saved is looked for off its thread
//! (`Effect::Locate`, answered here as the locate thread does) and restored when found
//! (`Msg::Located`), without losing, misplacing or acting on anything the reviewer did not
//! ask for meanwhile.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::{Value, json};

use verdict::store::Store;
use verdict::tui::app::{Effect, Msg, State};
use verdict::tui::config::{ItemRef, Position, SavedChange, Session};
use verdict::tui::facts;
use verdict::tui::keymap::Keymap;
use verdict::tui::locate::Start;
use verdict::tui::theme::ThemeName;

#[path = "support/state.rs"]
mod support_state;
use support_state::{answer_lookups, clock};

/// A generic set `item-01` … `item-NN`, with `item-00` first when `prepended` (every item
/// one further down than a session saved it), carol's `pass` on the items in `passed`.
fn write_set(p: &Path, n: usize, prepended: bool, passed: &[usize]) {
    let from = if prepended { 0 } else { 1 };
    let mut text = String::new();
    for k in from..=n {
        let mut v = json!({
            "id": format!("item-{k:02}"),
            "benchmark": "mmlu",
            "question": format!("question {k}?"),
            "answer": "x",
            "responses": [{"model": "m", "text": "x"}],
        });
        if passed.contains(&k) {
            v["reviews"] = json!({"carol": {"verdict": "pass"}});
        }
        text.push_str(&serde_json::to_string(&v).unwrap());
        text.push('\n');
    }
    std::fs::write(p, text).unwrap();
}

/// The state on `p` without its index yet (as the reviewer opens: the index comes later).
fn fresh(p: &Path, keymap: Keymap) -> State {
    let mut s = State::new(
        Store::open(p).unwrap(),
        "carol".into(),
        keymap,
        ThemeName::Mono,
        clock(),
    );
    s.size = (80, 24);
    s
}

/// The index arrives; the lookups it asks for are answered.
fn index_arrives(s: &mut State) -> Vec<Effect> {
    let meta = std::sync::Arc::new(facts::index(&s.store, 1));
    let mut fx = s.update(Msg::Indexed {
        generation: s.index_generation,
        meta,
    });
    let more = answer_lookups(s, &fx);
    fx.extend(more);
    fx
}

fn item(index: usize, k: usize) -> ItemRef {
    ItemRef {
        index,
        id: Some(format!("item-{k:02}")),
    }
}

/// What the last session left: item-07 passed (an undo entry), item-09 skipped, the
/// position on item-10; all saved at their places before a line was prepended.
fn last_session() -> (Session, Start) {
    let session = Session {
        skipped: vec![item(8, 9)],
        undo: vec![SavedChange {
            item: item(6, 7),
            before: None,
            after: Some(json!({"verdict": "pass"})),
            joined: false,
        }],
    };
    let start = Start::Saved(Position {
        index: 9,
        id: Some("item-10".into()),
    });
    (session, start)
}

fn ch(s: &mut State, c: char) -> Vec<Effect> {
    s.update(Msg::Key(KeyEvent::new(
        KeyCode::Char(c),
        KeyModifiers::NONE,
    )))
}

fn saves_position(fx: &[Effect]) -> Option<usize> {
    fx.iter().find_map(|e| match e {
        Effect::SavePosition { index, .. } => Some(*index),
        _ => None,
    })
}

fn saved_session(fx: &[Effect]) -> Option<Session> {
    fx.iter().rev().find_map(|e| match e {
        Effect::SaveSession(s) => Some(s.clone()),
        _ => None,
    })
}

fn status(s: &State) -> String {
    s.status.as_ref().map(|s| s.0.clone()).unwrap_or_default()
}

/// The review each `Effect::Record` writes, acknowledged.
fn recorded(s: &mut State, fx: &[Effect]) -> Vec<(usize, Option<Value>)> {
    let mut out = vec![];
    for e in fx {
        if let Effect::Record {
            seq, item, review, ..
        } = e
        {
            out.push((*item, review.clone()));
            s.update(Msg::Recorded {
                seq: *seq,
                result: Ok(()),
            });
        }
    }
    out
}

fn verdict_of(r: &Option<Value>) -> Option<String> {
    r.as_ref()
        .and_then(|v| v.get("verdict"))
        .and_then(|v| v.as_str())
        .map(str::to_string)
}

#[test]
fn items_that_moved_are_restored_once_the_index_finds_them() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    write_set(&p, 12, true, &[7]);
    let mut s = fresh(&p, Keymap::default());
    let (session, start) = last_session();
    let fx = s.begin(session, Some(start));
    // At once, on the item at the saved index (the saved item is not there any more),
    // saying what it looks for; nothing restored, and the position not saved over.
    assert_eq!(s.pos, 9);
    assert!(status(&s).contains("finding your place"), "{}", status(&s));
    assert_eq!(saves_position(&fx), None, "{fx:?}");
    assert!(s.skipped.is_empty() && s.rec.undo.is_empty());
    // without the index, the moved items are not found (no answer)
    assert!(answer_lookups(&mut s, &fx).is_empty());
    assert!(s.restoring.is_pending());

    let fx = index_arrives(&mut s);
    assert!(!s.restoring.is_pending());
    assert_eq!(s.pos, 10, "item-10, one further down");
    assert_eq!(saves_position(&fx), Some(10));
    assert!(s.is_skipped(9), "item-09");
    assert!(!status(&s).contains("finding"), "{}", status(&s));
    let fx = ch(&mut s, 'u');
    assert_eq!(s.pos, 7, "the undo is on item-07");
    let r = recorded(&mut s, &fx);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0], (7, None));
}

#[test]
fn a_key_pressed_before_the_place_is_found_keeps_the_reviewer_there_and_names_the_keys() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    write_set(&p, 12, true, &[7]);
    // jump on another key: the hint follows the live keymap
    let mut keymap = Keymap::default();
    let problems = keymap.apply_config(&BTreeMap::from([("jump".to_string(), vec!["J".into()])]));
    assert!(problems.is_empty(), "{problems:?}");
    let mut s = fresh(&p, keymap);
    let (session, start) = last_session();
    s.begin(session, Some(start));
    ch(&mut s, 'n');
    assert_eq!(s.pos, 10);
    ch(&mut s, 'n');
    assert_eq!(s.pos, 11);
    index_arrives(&mut s);
    assert_eq!(s.pos, 11, "not moved");
    let st = status(&s);
    assert!(
        st.contains("your place from last session is item 11 (item-10)")
            && st.contains("J11 Enter"),
        "{st}"
    );
    // and the keys it names go there
    ch(&mut s, 'J');
    for c in "11".chars() {
        ch(&mut s, c);
    }
    s.update(Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    assert_eq!(s.pos, 10);
}

#[test]
fn undo_before_the_history_is_found_does_nothing_and_says_so() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    write_set(&p, 12, true, &[7]);
    let mut s = fresh(&p, Keymap::default());
    let (session, _) = last_session();
    s.begin(session, None);
    assert_eq!(s.pos, 0);
    let fx = ch(&mut s, 'u');
    assert!(recorded(&mut s, &fx).is_empty());
    assert_eq!(s.pos, 0);
    assert!(status(&s).contains("undo history"), "{}", status(&s));
    index_arrives(&mut s);
    let fx = ch(&mut s, 'u');
    assert_eq!(recorded(&mut s, &fx), vec![(7, None)]);
}

#[test]
fn a_verdict_given_before_the_history_is_found_is_undone_first_then_the_history() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    write_set(&p, 12, true, &[7]);
    let mut s = fresh(&p, Keymap::default());
    let (session, _) = last_session();
    s.begin(session, None);
    // item-07 (index 7), passed last session: now failed, before the history is found
    ch(&mut s, ':');
    ch(&mut s, '8');
    s.update(Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    assert_eq!(s.pos, 7);
    let fx = ch(&mut s, '2');
    assert_eq!(
        verdict_of(&recorded(&mut s, &fx)[0].1).as_deref(),
        Some("fail")
    );
    // the session saved meanwhile keeps the last one's history before this one's
    let saved = saved_session(&fx).expect("saved");
    assert_eq!(saved.undo.len(), 2);
    assert_eq!(saved.undo[0].item, item(6, 7));
    assert_eq!(saved.undo[1].item, item(7, 7));
    assert_eq!(saved.skipped, vec![item(8, 9)]);

    index_arrives(&mut s);
    assert_eq!(s.pos, 7, "no saved position asked for: stays");
    // undo: this session's fail first (back to pass), then last session's pass (to none)
    let fx = ch(&mut s, 'u');
    assert_eq!(
        verdict_of(&recorded(&mut s, &fx)[0].1).as_deref(),
        Some("pass")
    );
    let fx = ch(&mut s, 'u');
    assert_eq!(recorded(&mut s, &fx), vec![(7, None)]);
    let fx = ch(&mut s, 'u');
    assert!(recorded(&mut s, &fx).is_empty());
    assert_eq!(status(&s), "nothing to undo");
}

#[test]
fn a_history_that_no_longer_matches_the_file_is_not_restored() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    // item-07 is no longer passed by carol (someone took it back)
    write_set(&p, 12, true, &[]);
    let mut s = fresh(&p, Keymap::default());
    let (session, _) = last_session();
    s.begin(session, None);
    index_arrives(&mut s);
    let fx = ch(&mut s, 'u');
    assert!(recorded(&mut s, &fx).is_empty());
    assert_eq!(status(&s), "nothing to undo");
}

#[test]
fn skips_the_reviewer_changed_meanwhile_are_theirs() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    write_set(&p, 12, true, &[]);
    let mut s = fresh(&p, Keymap::default());
    let session = Session {
        skipped: vec![item(8, 9), item(9, 10), item(0, 1)],
        undo: vec![],
    };
    s.begin(session, None);
    // item-09 (index 9): skipped and unskipped again; item-10 (index 10): graded done;
    // item-01 untouched
    ch(&mut s, ':');
    for c in "10".chars() {
        ch(&mut s, c);
    }
    s.update(Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    assert_eq!(s.pos, 9);
    // (`S` moves on past item-10, skipped last session: back two)
    ch(&mut s, 'S');
    assert_eq!(s.pos, 11);
    ch(&mut s, 'p');
    ch(&mut s, 'p');
    assert_eq!(s.pos, 9);
    ch(&mut s, 'S');
    assert!(!s.is_skipped(9));
    ch(&mut s, 'n');
    assert_eq!(s.pos, 10);
    let fx = ch(&mut s, '1');
    recorded(&mut s, &fx);
    index_arrives(&mut s);
    assert!(!s.is_skipped(9), "unskipped meanwhile");
    assert!(
        !s.is_skipped(10),
        "graded meanwhile (grading clears a skip)"
    );
    assert!(s.is_skipped(1), "item-01");
}

#[test]
fn quitting_before_the_place_is_found_keeps_the_saved_place() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    write_set(&p, 12, true, &[7]);
    let mut s = fresh(&p, Keymap::default());
    let (session, start) = last_session();
    let fx = s.begin(session, Some(start));
    assert_eq!(saves_position(&fx), None);
    let fx = ch(&mut s, 'q');
    assert!(s.quit);
    assert_eq!(saves_position(&fx), None, "{fx:?}");
    assert_eq!(saved_session(&fx), None);
}

#[test]
fn a_key_in_the_moment_after_the_screen_moved_by_itself_is_not_taken() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    write_set(&p, 12, true, &[7]);
    let mut s = fresh(&p, Keymap::default());
    let (session, start) = last_session();
    s.begin(session, Some(start));
    // the first item was on screen for a second when the place is found
    s.clock.instant += Duration::from_secs(1);
    index_arrives(&mut s);
    assert_eq!(s.pos, 10);
    assert!(status(&s).contains("now at your place"), "{}", status(&s));
    // a verdict key a moment later was meant for the item before: not recorded
    s.clock.instant += Duration::from_millis(100);
    let fx = ch(&mut s, '1');
    assert!(recorded(&mut s, &fx).is_empty());
    assert!(status(&s).contains("press again"), "{}", status(&s));
    // once seen, it is
    s.clock.instant += Duration::from_millis(600);
    let fx = ch(&mut s, '1');
    assert_eq!(recorded(&mut s, &fx).len(), 1);
}

#[test]
fn a_place_found_at_once_is_taken_without_holding_keys() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    write_set(&p, 12, true, &[7]);
    let mut s = fresh(&p, Keymap::default());
    let (session, start) = last_session();
    s.begin(session, Some(start));
    s.clock.instant += Duration::from_millis(20);
    index_arrives(&mut s);
    assert_eq!(s.pos, 10);
    let fx = ch(&mut s, '1');
    assert_eq!(recorded(&mut s, &fx).len(), 1);
}

#[test]
fn a_saved_place_in_its_place_among_the_items_read_needs_no_lookup() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    write_set(&p, 12, false, &[]);
    let mut s = fresh(&p, Keymap::default());
    let (_, start) = last_session();
    let fx = s.begin(Session::default(), Some(start));
    assert_eq!(s.pos, 9);
    assert_eq!(saves_position(&fx), Some(9));
    assert!(!fx.iter().any(|e| matches!(e, Effect::Locate { .. })));
    assert!(!s.restoring.is_pending());
}

#[test]
fn an_answer_about_the_file_before_a_reload_is_dropped_and_asked_again() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    write_set(&p, 12, true, &[7]);
    let mut s = fresh(&p, Keymap::default());
    let (session, start) = last_session();
    let first = s.begin(session, Some(start));
    // the file changes again (another line prepended) before anything is found
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(
        &p,
        format!(
            "{}{text}",
            text.lines().next().unwrap().replace("item-00", "item-x") + "\n"
        ),
    )
    .unwrap();
    let fx = support_state::reloaded(&mut s, Store::open(&p).unwrap());
    assert!(
        fx.iter().any(|e| matches!(e, Effect::Locate { .. })),
        "{fx:?}"
    );
    // an answer to the first lookup (of the file before) changes nothing
    let old = first
        .iter()
        .find_map(|e| match e {
            Effect::Locate { seq, .. } => Some(*seq),
            _ => None,
        })
        .unwrap();
    s.update(Msg::Located {
        seq: old,
        located: verdict::tui::locate::Located {
            skipped: vec![Some(3)],
            undo: vec![None],
            reviews: Default::default(),
            kinds: Default::default(),
            start: Some(3),
        },
    });
    assert!(s.restoring.is_pending());
    assert!(s.skipped.is_empty());
    index_arrives(&mut s);
    assert_eq!(s.pos, 11, "item-10, two further down now");
    assert!(s.is_skipped(10), "item-09");
}

#[test]
fn a_warning_of_the_start_stays_on_the_status_line_when_the_place_is_found() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    write_set(&p, 12, true, &[7]);
    let mut s = fresh(&p, Keymap::default());
    let (session, start) = last_session();
    s.begin(session, Some(start));
    // (the start's notices, as `tui::run` sets them over the status)
    s.status = Some((
        "1 verdict not applied".into(),
        verdict::tui::app::Level::Warn,
    ));
    s.clock.instant += Duration::from_secs(1);
    index_arrives(&mut s);
    assert_eq!(s.pos, 10);
    let st = status(&s);
    assert!(
        st.contains("1 verdict not applied") && st.contains("now at your place"),
        "{st}"
    );
}

/// Quitting before the saved skips are found keeps them for the next session, but not
/// the ones the reviewer changed meanwhile (skipped and unskipped again: theirs, not
/// skipped) or graded done: the next session restores what the reviewer left, as this
/// one would have once they were found.
#[test]
fn quitting_before_the_skips_are_found_keeps_the_reviewers_changes_to_them() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    write_set(&p, 12, true, &[]);
    let mut s = fresh(&p, Keymap::default());
    let session = Session {
        skipped: vec![item(8, 9), item(9, 10), item(0, 1)],
        undo: vec![],
    };
    // every effect, in order: the session last saved is the one the next session reads
    let mut all = s.begin(session, None);
    all.extend(ch(&mut s, ':'));
    for c in "10".chars() {
        all.extend(ch(&mut s, c));
    }
    all.extend(s.update(Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE))));
    assert_eq!(s.pos, 9);
    // (`S` moves on past item-10, skipped last session: back two)
    all.extend(ch(&mut s, 'S'));
    all.extend(ch(&mut s, 'p'));
    all.extend(ch(&mut s, 'p'));
    assert_eq!(s.pos, 9);
    all.extend(ch(&mut s, 'S'));
    assert!(!s.is_skipped(9));
    all.extend(ch(&mut s, 'n'));
    assert_eq!(s.pos, 10);
    let fx = ch(&mut s, '1');
    recorded(&mut s, &fx);
    all.extend(fx);
    // quit before the index (and so the moved skips) arrived
    all.extend(ch(&mut s, 'q'));
    let saved = saved_session(&all).expect("the session is saved");
    let ids: Vec<Option<String>> = saved.skipped.iter().map(|r| r.id.clone()).collect();
    assert_eq!(ids, vec![Some("item-01".to_string())], "{saved:?}");
}

/// locate21's gap (a): before the last session's skips are found, `Space` (next item not
/// done) passes over an item skipped last session as it will once they are found: by its
/// id, in its place or moved (the file changed since), with the index or without it.
#[test]
fn space_before_the_skips_are_found_passes_over_an_item_skipped_last_session() {
    for indexed in [false, true] {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("set.jsonl");
        // item-03 skipped last session at index 2; a line was prepended since: index 3
        write_set(&p, 12, true, &[]);
        let mut s = fresh(&p, Keymap::default());
        if indexed {
            let meta = std::sync::Arc::new(facts::index(&s.store, 1));
            s.update(Msg::Indexed {
                generation: s.index_generation,
                meta,
            });
        }
        let session = Session {
            skipped: vec![item(2, 3)],
            undo: vec![],
        };
        // (the lookup is not answered: still looking)
        s.begin(session, None);
        assert!(s.restoring.is_pending());
        s.goto(2, &mut Vec::new());
        assert_eq!(s.display_id(s.pos), "item-02");
        ch(&mut s, ' ');
        assert_eq!(s.display_id(s.pos), "item-04", "indexed: {indexed}");
        // one the reviewer skipped and unskipped meanwhile is theirs: not passed over
        s.goto(3, &mut Vec::new());
        ch(&mut s, 'S');
        s.goto(3, &mut Vec::new());
        ch(&mut s, 'S');
        assert!(!s.is_skipped(3));
        s.goto(2, &mut Vec::new());
        ch(&mut s, ' ');
        assert_eq!(s.display_id(s.pos), "item-03", "indexed: {indexed}");
    }
}

/// A skip the reviewer changed while the last session's skips are looked for stays theirs
/// when the file is read again meanwhile with its items moved (the change follows its item).
#[test]
fn a_skip_changed_meanwhile_stays_the_reviewers_across_a_reload() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    write_set(&p, 12, false, &[]);
    let mut s = fresh(&p, Keymap::default());
    let session = Session {
        skipped: vec![item(8, 9)],
        undo: vec![],
    };
    s.begin(session, None);
    // item-09 skipped and unskipped again before the skips are found
    s.goto(8, &mut Vec::new());
    ch(&mut s, 'S');
    s.goto(8, &mut Vec::new());
    ch(&mut s, 'S');
    assert!(!s.is_skipped(8));
    // another program puts a line before every item
    write_set(&p, 12, true, &[]);
    support_state::reloaded(&mut s, Store::open(&p).unwrap());
    assert_eq!(s.display_id(9), "item-09");
    index_arrives(&mut s);
    assert!(!s.restoring.is_pending());
    assert!(!s.is_skipped(9), "unskipped meanwhile: the reviewer's");
    assert!(!s.is_skipped(8));
}
