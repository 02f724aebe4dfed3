//! `State::update` for every key, and the screens as insta snapshots (TestBackend).

use std::path::{Path, PathBuf};
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent, MouseEventKind};
use serde_json::{Value, json};
use verdict::bench::Facet;
use verdict::bench::cvqa::fields::CvqaStatus;
use verdict::store::Store;
use verdict::tui::app::{Effect, FilterOption, Found, Level, Mode, Msg, SaveState, State};
use verdict::tui::draw::render_to_string;
use verdict::tui::facts;
use verdict::tui::keymap::{Action, Keymap};
use verdict::tui::theme::ThemeName;
use verdict::tui::views::cvqa::fix::{FixReason, FixState};
use verdict::tui::views::cvqa::reject::{Reject, RejectOther};

fn fixture(name: &str) -> (tempfile::TempDir, PathBuf) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tui");
    let d = tempfile::tempdir().unwrap();
    for f in std::fs::read_dir(&src).unwrap() {
        let f = f.unwrap();
        std::fs::copy(f.path(), d.path().join(f.file_name())).unwrap();
    }
    let p = d.path().join(name);
    (d, p)
}

#[path = "support/state.rs"]
mod support_state;
use support_state::clock;

/// The reviewer's state on the file at `p`, as reviewer carol, with the index delivered.
fn state_at(p: &Path) -> State {
    support_state::indexed_state(Store::open(p).unwrap(), Keymap::default())
}

fn state(name: &str) -> (tempfile::TempDir, State) {
    let (d, p) = fixture(name);
    let s = state_at(&p);
    (d, s)
}

fn press(s: &mut State, code: KeyCode) -> Vec<Effect> {
    s.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}
fn ch(s: &mut State, c: char) -> Vec<Effect> {
    press(s, KeyCode::Char(c))
}
fn ctrl(s: &mut State, c: char) -> Vec<Effect> {
    s.update(Msg::Key(KeyEvent::new(
        KeyCode::Char(c),
        KeyModifiers::CONTROL,
    )))
}
fn typ(s: &mut State, text: &str) {
    for c in text.chars() {
        ch(s, c);
    }
}

/// The review JSON recorded by the effects, and acknowledge the journal writes.
fn recorded(s: &mut State, fx: Vec<Effect>) -> Vec<(usize, Option<Value>)> {
    let mut out = vec![];
    for e in fx {
        if let Effect::Record {
            seq,
            item,
            review,
            reviewer,
            ..
        } = e
        {
            assert_eq!(reviewer, "carol");
            out.push((item, review));
            s.update(Msg::Recorded {
                seq,
                result: Ok(()),
            });
        }
    }
    out
}

fn strip_time(v: &Option<Value>) -> Value {
    let mut v = v.clone().unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        assert_eq!(o.remove("at"), Some(json!("2026-11-22T10:00:00Z")));
        assert!(o.remove("seconds").is_some());
    }
    v
}

#[test]
fn moving_keys() {
    let (_d, mut s) = state("cvqa.jsonl");
    assert_eq!(s.pos, 0);
    ch(&mut s, 'n');
    assert_eq!(s.pos, 1);
    press(&mut s, KeyCode::Right);
    assert_eq!(s.pos, 2);
    ch(&mut s, 'n');
    assert_eq!(s.pos, 2, "stays on the last item");
    assert!(s.status.as_ref().unwrap().0.contains("last"));
    ch(&mut s, 'p');
    press(&mut s, KeyCode::Left);
    assert_eq!(s.pos, 0);
    press(&mut s, KeyCode::Down);
    press(&mut s, KeyCode::Up);
    assert_eq!(s.pos, 0);
    ch(&mut s, 'G');
    assert_eq!(s.pos, 2);
    ch(&mut s, 'g');
    assert_eq!(s.pos, 0);
    press(&mut s, KeyCode::End);
    press(&mut s, KeyCode::Home);
    assert_eq!(s.pos, 0);
    // jump by number and by id
    ch(&mut s, ':');
    typ(&mut s, "3");
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.pos, 2);
    ch(&mut s, ':');
    typ(&mut s, "real-00002");
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.pos, 1);
    ch(&mut s, ':');
    typ(&mut s, "nope");
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.pos, 1);
    assert!(s.status.as_ref().unwrap().0.contains("no item nope"));
}

/// While the file is read, the count of items comes from the loop (`Msg::Found`), never
/// from the scan beside `update`: keys past the items found say so, and the notice goes
/// once the loop says every item is found.
#[test]
fn the_items_found_come_from_the_loop() {
    let (_d, mut s) = state("cvqa.jsonl");
    s.update(Msg::Found(Found {
        items: 1,
        all: false,
    }));
    assert_eq!((s.len(), s.still_reading()), (1, true));
    assert!(render_to_string(&s, 80, 24).contains("1/?"));
    ch(&mut s, 'G');
    assert_eq!(s.pos, 0, "the store has 3 items, but only 1 is found");
    let status = s.status.clone().unwrap().0;
    assert!(
        status.contains("still reading the file: 1 items so far"),
        "{status}"
    );
    ch(&mut s, 'n');
    assert_eq!(s.pos, 0);
    s.update(Msg::Found(Found {
        items: 3,
        all: true,
    }));
    assert_eq!(s.status, None, "the reading notice is taken down");
    assert!(render_to_string(&s, 80, 24).contains("1/3"));
    ch(&mut s, 'G');
    assert_eq!(s.pos, 2);
}

/// Before the index is built, a jump by id would read every item on the screen's thread
/// (seconds at a million items, the screen frozen): it says to wait; a jump by number
/// goes at once, and by id once the index is there.
#[test]
fn a_jump_by_id_before_the_index_waits_for_it() {
    let (_d, p) = fixture("cvqa.jsonl");
    let mut s = State::new(
        Store::open(&p).unwrap(),
        "carol".into(),
        Keymap::default(),
        ThemeName::Mono,
        clock(),
    );
    assert!(s.meta.is_none());
    ch(&mut s, ':');
    typ(&mut s, "real-00002");
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.pos, 0);
    let (said, level) = s.status.clone().unwrap();
    assert!(said.contains("index is still being built"), "{said}");
    assert_eq!(level, Level::Warn);
    ch(&mut s, ':');
    typ(&mut s, "3");
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.pos, 2);
    let meta = facts::index(&s.store, 2);
    s.update(Msg::Indexed {
        generation: 0,
        meta: meta.into(),
    });
    ch(&mut s, ':');
    typ(&mut s, "real-00002");
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.pos, 1);
}

#[test]
fn next_ungraded_skips_my_graded_items() {
    let (_d, mut s) = state("cvqa.jsonl");
    let fx = ch(&mut s, 'a');
    assert_eq!(recorded(&mut s, fx).len(), 1);
    ch(&mut s, ' ');
    assert_eq!(s.pos, 1);
    ch(&mut s, ' ');
    assert_eq!(s.pos, 2);
    ch(&mut s, ' ');
    assert_eq!(s.pos, 1, "wraps around past item 0, which I graded");
}

#[test]
fn cvqa_accept_reject_fix() {
    let (_d, mut s) = state("cvqa.jsonl");
    let fx = ch(&mut s, 'a');
    let r = recorded(&mut s, fx);
    assert_eq!(r[0].0, 0);
    assert_eq!(
        strip_time(&r[0].1),
        json!({"status": "accept", "image_related": true, "answer_ok": true})
    );
    assert_eq!(s.saved, SaveState::Journaled);

    ch(&mut s, 'n');
    ch(&mut s, 'r');
    assert!(s.mode.popup::<Reject>().is_some());
    press(&mut s, KeyCode::Down);
    press(&mut s, KeyCode::Down);
    let fx = press(&mut s, KeyCode::Enter);
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1),
        json!({"status": "reject", "answer_ok": false, "reason": "wrong-answer"})
    );

    // reject by digit
    let fx = {
        ch(&mut s, 'r');
        ch(&mut s, '1')
    };
    let r = recorded(&mut s, fx);
    assert_eq!(strip_time(&r[0].1)["reason"], "ambiguous");

    ch(&mut s, 'n');
    ch(&mut s, 'f');
    let Some(f) = s.mode.popup::<FixState>() else {
        panic!("fix mode")
    };
    assert!(f.question.text().starts_with("How many flowers would"));
    press(&mut s, KeyCode::Down);
    press(&mut s, KeyCode::Backspace);
    ch(&mut s, 'B');
    let fx = press(&mut s, KeyCode::Tab);
    assert!(
        fx.is_empty(),
        "Tab asks for another reason than the one shown"
    );
    assert!(
        s.mode.popup::<FixReason>().is_some_and(|f| f.selected == 2),
        "on the reason shown (wrong-answer: the answer changed): {:?}",
        s.mode
    );
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("Fix: why?"), "{out}");
    assert!(
        out.contains("Enter confirms · 1-5 or ↑↓ · Esc cancels"),
        "{out}"
    );
    let fx = press(&mut s, KeyCode::Enter);
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1),
        json!({"status": "fix", "image_related": true, "answer_ok": false, "fixed_answer": "B", "reason": "wrong-answer"})
    );
    // Esc cancels a fix without recording
    ch(&mut s, 'f');
    let fx = press(&mut s, KeyCode::Esc);
    assert!(fx.is_empty());
    assert_eq!(s.mode, Mode::Normal);
}

#[test]
fn cvqa_overrides_cycle_per_model() {
    let (_d, mut s) = state("cvqa.jsonl");
    let fx = ch(&mut s, '1');
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1),
        json!({"models": {"llava": {"original_correct": true}}})
    );
    ch(&mut s, 'm');
    let fx = ch(&mut s, '2');
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1),
        json!({"models": {"llava": {"original_correct": true}, "blip": {"counterfactual_correct": true}}})
    );
    let fx = ch(&mut s, '2');
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1)["models"]["blip"],
        json!({"counterfactual_correct": false})
    );
}

#[test]
fn chartom_grades_and_fact_override() {
    let (_d, mut s) = state("chartom.jsonl");
    let fx = ch(&mut s, '1');
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1),
        json!({"models": {"gpt-4o": {"justification": "identifies"}}})
    );
    ch(&mut s, 'm');
    let fx = ch(&mut s, '3');
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1)["models"]["llava"],
        json!({"justification": "misses"})
    );
    let fx = ch(&mut s, 'x');
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1)["models"]["llava"],
        json!({"justification": "misses", "fact_correct": true})
    );
    // single-response item: grades at the top level
    ch(&mut s, 'n');
    let fx = ch(&mut s, '2');
    let r = recorded(&mut s, fx);
    assert_eq!(strip_time(&r[0].1), json!({"justification": "partial"}));
}

#[test]
fn chartom_qa_bonus_penalty_context() {
    let (_d, mut s) = state("chartom-qa.jsonl");
    // the checklist shows the judge's ticks (1 and 3) until I tick: `x` clears them
    let fx = ch(&mut s, 'x');
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1),
        json!({"models": {"gpt-4o": {"bonus": []}}})
    );
    let fx = ch(&mut s, '3');
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1),
        json!({"models": {"gpt-4o": {"bonus": [3]}}})
    );
    let fx = ch(&mut s, '1');
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1)["models"]["gpt-4o"]["bonus"],
        json!([1, 3])
    );
    let fx = ch(&mut s, '3');
    let r = recorded(&mut s, fx);
    assert_eq!(strip_time(&r[0].1)["models"]["gpt-4o"]["bonus"], json!([1]));
    assert_eq!(
        verdict::tui::views::chartom_qa::running_bpc(&s, "gpt-4o"),
        Some((1, 3))
    );
    ch(&mut s, 'n');
    // the judge's tick (point 1) accepted
    let fx = ch(&mut s, 'a');
    recorded(&mut s, fx);
    ch(&mut s, 'p');
    assert_eq!(
        verdict::tui::views::chartom_qa::running_bpc(&s, "gpt-4o"),
        Some((2, 5)),
        "1/3 on emma-1 + 1/2 on pp-1"
    );
    // a point the item does not have
    let fx = ch(&mut s, '7');
    assert!(fx.is_empty());
    assert!(s.status.as_ref().unwrap().0.contains("3 bonus points"));
    // penalty text, then none
    ch(&mut s, 'e');
    typ(&mut s, "wrong about Elton");
    let fx = press(&mut s, KeyCode::Enter);
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1)["models"]["gpt-4o"]["penalty"],
        "wrong about Elton"
    );
    let fx = ch(&mut s, '0');
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1)["models"]["gpt-4o"]["penalty"],
        Value::Null
    );
    // context length cycles 2000 -> 0 -> 1000
    let shown = verdict::tui::views::chartom_qa::context_length;
    assert_eq!(shown(&s), "2000");
    ch(&mut s, 'c');
    assert_eq!(shown(&s), "0");
    ch(&mut s, 'c');
    assert_eq!(shown(&s), "1000");
}

#[test]
fn undo_and_redo_across_items() {
    let (_d, mut s) = state("cvqa.jsonl");
    let fx = ch(&mut s, 'a');
    recorded(&mut s, fx);
    ch(&mut s, 'n');
    ch(&mut s, 'n');
    let fx = ch(&mut s, 'u');
    let r = recorded(&mut s, fx);
    assert_eq!(s.pos, 0, "undo goes back to the item");
    assert_eq!(r, vec![(0, None)]);
    assert!(s.my_review(0).is_none());
    let fx = ctrl(&mut s, 'r');
    let r = recorded(&mut s, fx);
    assert_eq!(strip_time(&r[0].1)["status"], "accept");
    assert!(s.my_review(0).is_some());
    let fx = ctrl(&mut s, 'r');
    assert!(fx.is_empty());
    assert_eq!(s.status.as_ref().unwrap().0, "nothing to redo");
}

#[test]
fn a_failed_journal_write_takes_the_verdict_back() {
    let (_d, mut s) = state("cvqa.jsonl");
    let fx = ch(&mut s, 'a');
    let Effect::Record { seq, .. } = fx
        .into_iter()
        .find(|e| matches!(e, Effect::Record { .. }))
        .unwrap()
    else {
        unreachable!()
    };
    assert!(s.is_pending(0));
    assert!(s.my_review(0).is_some());
    s.update(Msg::Recorded {
        seq,
        result: Err("disk full".into()),
    });
    assert!(s.my_review(0).is_none());
    assert!(matches!(s.saved, SaveState::Error(_)));
    assert!(s.status.as_ref().unwrap().0.contains("NOT RECORDED"));
}

/// The journal write of key `c`'s change, refused (a full disk).
fn refused(s: &mut State, fx: Vec<Effect>) {
    for e in fx {
        if let Effect::Record { seq, .. } = e {
            s.update(Msg::Recorded {
                seq,
                result: Err("No space left on device".into()),
            });
        }
    }
}

/// Issue 33 case 6: a change the journal refuses leaves undo and redo exactly as before
/// the key: the earlier grade of the same item can still be undone, and an undo refused
/// stays undoable (and is not offered for redo).
#[test]
fn a_refused_change_leaves_undo_and_redo_as_they_were() {
    let (d, _) = fixture("generic.jsonl");
    let p = d.path().join("three.jsonl");
    let line = |id: &str| format!("{{\"id\": \"{id}\", \"question\": \"q\", \"answer\": \"a\"}}\n");
    std::fs::write(&p, [line("g1"), line("g2"), line("g3")].concat()).unwrap();
    let mut s = state_at(&p);
    let fx = ch(&mut s, '1');
    recorded(&mut s, fx);
    ch(&mut s, 'n');
    let fx = ch(&mut s, '2');
    recorded(&mut s, fx);
    assert_eq!(s.pos, 1);
    // the disk is full: a third grade on the second item is refused
    let fx = ch(&mut s, '3');
    refused(&mut s, fx);
    assert!(
        s.my_review(1).is_some(),
        "the second item's grade is back on screen"
    );
    // the disk is freed: undo takes back the second item's grade, not the first's
    let fx = ch(&mut s, 'u');
    assert!(
        s.status.as_ref().unwrap().0.starts_with("undone on"),
        "{:?}",
        s.status
    );
    assert_eq!(s.pos, 1);
    let r = recorded(&mut s, fx);
    assert_eq!(r, vec![(1, None)]);
    // an undo refused is still there to undo, and nothing to redo
    let fx = ch(&mut s, 'u');
    assert_eq!(s.pos, 0);
    refused(&mut s, fx);
    assert!(s.my_review(0).is_some());
    let fx = ctrl(&mut s, 'r');
    let r = recorded(&mut s, fx);
    assert_eq!(r.len(), 1, "the refused undo was offered for redo");
    assert_eq!(r[0].0, 1, "redo brings back the second item's grade");
    let fx = ch(&mut s, 'u');
    let r = recorded(&mut s, fx);
    assert_eq!(r, vec![(1, None)]);
    let fx = ch(&mut s, 'u');
    let r = recorded(&mut s, fx);
    assert_eq!(r, vec![(0, None)]);
}

#[test]
fn notes_are_edited_in_a_text_field() {
    let (_d, mut s) = state("generic.jsonl");
    ch(&mut s, 'i');
    typ(&mut s, "odd one");
    s.update(Msg::Paste("\u{1b}[31m!".into()));
    let fx = press(&mut s, KeyCode::Enter);
    let r = recorded(&mut s, fx);
    assert_eq!(strip_time(&r[0].1), json!({"note": "odd one[31m!"}));
    let fx = ch(&mut s, '2');
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1),
        json!({"note": "odd one[31m!", "verdict": "fail"})
    );
}

/// Turn on the filter menu's row for `o` (F, move to it, Enter, Esc).
fn toggle(s: &mut State, o: FilterOption) {
    ch(s, 'F');
    let rows = s.filter_options();
    let at = rows
        .iter()
        .position(|x| *x == o)
        .unwrap_or_else(|| panic!("no filter row {o:?}"));
    // from the row the menu opens on (the one it was closed on)
    let Mode::Filter { selected } = s.mode else {
        panic!("the filter menu is not open")
    };
    for _ in 0..(at + rows.len() - selected) % rows.len() {
        press(s, KeyCode::Down);
    }
    press(s, KeyCode::Enter);
    press(s, KeyCode::Esc);
}

/// The count the filter menu shows beside `o`.
fn count_of(s: &State, o: FilterOption) -> usize {
    let at = s.filter_options().iter().position(|x| *x == o).unwrap();
    s.filter_counts[at]
}

fn state_of_lines(lines: &[Value]) -> (tempfile::TempDir, State) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&p, text).unwrap();
    let s = state_at(&p);
    (d, s)
}

#[test]
fn filters_combine_and_count() {
    let (_d, mut s) = state("cvqa.jsonl");
    toggle(&mut s, FilterOption::Disagreement);
    assert_eq!(
        s.visible_items().as_deref(),
        Some(&[1usize][..]),
        "alice accepted, bob rejected item 2"
    );
    assert_eq!(s.pos, 1);
    // model wrong + group
    ch(&mut s, 'X');
    assert!(s.visible.is_none());
    toggle(&mut s, FilterOption::ModelWrong);
    toggle(
        &mut s,
        FilterOption::Facet(Facet::Group, "abs_counting_1".into()),
    );
    assert_eq!(s.visible_items().as_deref(), Some(&[2usize][..]));
    assert_eq!(s.filters.describe(), "model wrong + abs_counting_1");
    ch(&mut s, 'F');
    // the menu opens on the row it was closed on: up to the first
    let Mode::Filter { selected } = s.mode else {
        panic!()
    };
    for _ in 0..selected {
        press(&mut s, KeyCode::Up);
    }
    press(&mut s, KeyCode::Enter);
    assert!(s.status.as_ref().unwrap().0.starts_with("1 item matches"));
}

#[test]
fn filters_are_multi_select_within_a_kind_and_and_across_kinds() {
    let chart = |id: &str, ty: &str, version: &str| {
        json!({"id": id, "benchmark": "chartom",
               "chart": {"pair": "P", "version": version, "type": ty},
               "fact": {"question": "q", "format": "number", "key": 1.0},
               "responses": [{"model": "m", "fact": "1"}]})
    };
    let (_d, mut s) = state_of_lines(&[
        chart("a", "line", "original"),
        chart("b", "line", "manipulated"),
        chart("c", "bar", "manipulated"),
        chart("d", "bar", "original"),
        chart("e", "pie", "manipulated"),
    ]);
    // Chart type and version are separate kinds: "manipulated bar charts".
    toggle(&mut s, FilterOption::Facet(Facet::ChartType, "bar".into()));
    assert_eq!(s.visible_items().as_deref(), Some(&[2usize, 3][..]));
    toggle(
        &mut s,
        FilterOption::Facet(Facet::Version, "manipulated".into()),
    );
    assert_eq!(s.visible_items().as_deref(), Some(&[2usize][..]));
    // A second chart type adds to the first (OR), the version still applies (AND).
    toggle(&mut s, FilterOption::Facet(Facet::ChartType, "line".into()));
    assert_eq!(s.visible_items().as_deref(), Some(&[1usize, 2][..]));
    assert_eq!(
        s.filters.describe(),
        "bar or line + manipulated",
        "the status line says what is combined how"
    );
    // Counts: each row, with the other kinds' filters.
    ch(&mut s, 'F');
    assert_eq!(
        count_of(&s, FilterOption::Facet(Facet::ChartType, "pie".into())),
        1
    );
    assert_eq!(
        count_of(&s, FilterOption::Facet(Facet::ChartType, "bar".into())),
        1
    );
    assert_eq!(
        count_of(&s, FilterOption::Facet(Facet::Version, "original".into())),
        2
    );
    assert_eq!(
        count_of(
            &s,
            FilterOption::Facet(Facet::Version, "manipulated".into())
        ),
        2
    );
    press(&mut s, KeyCode::Esc);
    // Turning one off again
    toggle(
        &mut s,
        FilterOption::Facet(Facet::Version, "manipulated".into()),
    );
    assert_eq!(s.visible_items().as_deref(), Some(&[0usize, 1, 2, 3][..]));

    // C-VQA groups: boolean + direct keeps both.
    let (_d, mut s) = state("cvqa.jsonl");
    toggle(&mut s, FilterOption::Facet(Facet::Group, "boolean".into()));
    toggle(&mut s, FilterOption::Facet(Facet::Group, "direct".into()));
    assert_eq!(s.visible_items().as_deref(), Some(&[0usize, 1][..]));
}

#[test]
fn verification_and_adjudication_filters_follow_my_verdicts() {
    let q = |id: &str, reviews: Value| {
        json!({"id": id, "benchmark": "cvqa", "group": "direct",
               "original": {"question": "q?", "answer": "yes"},
               "counterfactual": {"question": "c?", "answer": "no"},
               "responses": [{"model": "m", "original": "yes", "counterfactual": "no"}],
               "reviews": reviews})
    };
    let (_d, mut s) = state_of_lines(&[
        q("a", json!({"alice": {"status": "accept"}})),
        q(
            "b",
            json!({"alice": {"status": "accept"}, "bob": {"status": "reject", "reason": "ambiguous"}}),
        ),
        q(
            "c",
            json!({"alice": {"status": "fix", "fixed_question": "c2?"}}),
        ),
        q("d", json!({})),
    ]);
    ch(&mut s, 'F');
    assert_eq!(
        count_of(&s, FilterOption::Status(CvqaStatus::Accept.into())),
        2
    );
    assert_eq!(
        count_of(&s, FilterOption::Status(CvqaStatus::Fix.into())),
        1
    );
    assert_eq!(
        count_of(&s, FilterOption::Status(CvqaStatus::Reject.into())),
        1
    );
    assert_eq!(count_of(&s, FilterOption::NeedsAdjudication), 1);
    assert_eq!(count_of(&s, FilterOption::Adjudicated), 0);
    press(&mut s, KeyCode::Esc);
    toggle(&mut s, FilterOption::Status(CvqaStatus::Reject.into()));
    assert_eq!(s.visible_items().as_deref(), Some(&[1usize][..]));
    toggle(&mut s, FilterOption::Status(CvqaStatus::Fix.into()));
    assert_eq!(s.visible_items().as_deref(), Some(&[1usize, 2][..]));
    ch(&mut s, 'X');
    toggle(&mut s, FilterOption::Disagreement);
    assert_eq!(s.visible_items().as_deref(), Some(&[1usize][..]));
    assert_eq!(s.pos, 1);
    // I adjudicate: reject, then A marks my verdict as the final one.
    let fx = ch(&mut s, 'r');
    recorded(&mut s, fx);
    let fx = ch(&mut s, '1');
    recorded(&mut s, fx);
    let fx = ch(&mut s, 'A');
    assert_eq!(recorded(&mut s, fx).len(), 1);
    // Re-applying the filters: the adjudicated item has left the disagreements.
    toggle(&mut s, FilterOption::Disagreement);
    toggle(&mut s, FilterOption::Disagreement);
    assert_eq!(s.visible_items().as_deref(), Some(&[][..]));
    ch(&mut s, 'X');
    toggle(&mut s, FilterOption::NeedsAdjudication);
    assert_eq!(s.visible_items().as_deref(), Some(&[][..]));
    ch(&mut s, 'X');
    toggle(&mut s, FilterOption::Adjudicated);
    assert_eq!(s.visible_items().as_deref(), Some(&[1usize][..]));
    ch(&mut s, 'X');
    // The final verdict's status is the item's: rejected, no longer accepted.
    toggle(&mut s, FilterOption::Status(CvqaStatus::Accept.into()));
    assert_eq!(s.visible_items().as_deref(), Some(&[0usize][..]));
    // Counts: the rows of the same kind ignore the kind's own filter, the others apply it.
    ch(&mut s, 'F');
    assert_eq!(
        count_of(&s, FilterOption::Status(CvqaStatus::Reject.into())),
        1
    );
    assert_eq!(count_of(&s, FilterOption::Adjudicated), 0);
    ch(&mut s, 'X');
    assert_eq!(count_of(&s, FilterOption::Adjudicated), 1);
    assert_eq!(count_of(&s, FilterOption::NeedsAdjudication), 0);
    assert_eq!(count_of(&s, FilterOption::Disagreement), 0);
}

#[test]
fn choosing_a_model_in_the_filter_shows_its_response() {
    let (_d, mut s) = state("cvqa.jsonl");
    assert_eq!(s.model_name().as_deref(), Some("llava"));
    toggle(&mut s, FilterOption::Model("blip".into()));
    assert_eq!(s.visible_items().as_deref(), Some(&[0usize][..]));
    assert_eq!(s.model_name().as_deref(), Some("blip"));
    ch(&mut s, 'X');
    ch(&mut s, 'n');
    ch(&mut s, 'p');
    assert_eq!(s.model_name().as_deref(), Some("llava"));
    toggle(&mut s, FilterOption::Model("blip".into()));
    ch(&mut s, 'n');
    ch(&mut s, 'g');
    assert_eq!(
        s.model_name().as_deref(),
        Some("blip"),
        "and keeps showing it"
    );
}

#[test]
fn search_finds_by_question_text() {
    let (_d, mut s) = state("cvqa.jsonl");
    let mut fx = ch(&mut s, '/');
    for c in "flowers purple".chars() {
        fx.extend(ch(&mut s, c));
    }
    // Every keystroke asks the search worker; only the newest answer is taken.
    let searches: Vec<_> = fx
        .into_iter()
        .filter_map(|e| match e {
            Effect::Search {
                seq,
                query,
                meta,
                within,
            } => Some((seq, query, meta, within)),
            _ => None,
        })
        .collect();
    assert_eq!(searches.len(), 15);
    let (seq, query, meta, within) = searches.last().unwrap().clone();
    assert_eq!(query, "flowers purple");
    let stale = facts::search(&meta, "x", within.as_deref(), 10);
    s.update(Msg::SearchDone {
        seq: seq - 1,
        results: stale.clone(),
    });
    let Mode::Search(st) = &s.mode else { panic!() };
    assert!(st.results.is_empty(), "a stale answer is ignored");
    s.update(Msg::SearchDone {
        seq,
        results: facts::search(&meta, &query, within.as_deref(), 10),
    });
    let Mode::Search(st) = &s.mode else { panic!() };
    assert_eq!(st.results[0], 2);
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.pos, 2);
    assert_eq!(s.mode, Mode::Normal);
}

#[test]
fn blind_mode_hides_others_until_i_grade() {
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, 'n');
    assert_eq!(s.reviews().len(), 2);
    ch(&mut s, 'b');
    assert!(s.hiding_others());
    assert!(s.reviews().is_empty());
    let screen = render_to_string(&s, 80, 40);
    assert!(!screen.contains("alice"), "{screen}");
    let fx = ch(&mut s, 'a');
    recorded(&mut s, fx);
    assert_eq!(s.reviews().len(), 3);
}

#[test]
fn other_keys() {
    let (_d, mut s) = state("chartom.jsonl");
    ch(&mut s, '?');
    assert!(matches!(s.mode, Mode::Help { .. }));
    ch(&mut s, '?');
    assert_eq!(s.mode, Mode::Normal);
    let fx = ch(&mut s, 's');
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::ComputeSummary { .. }))
    );
    press(&mut s, KeyCode::Esc);
    ch(&mut s, 'j');
    ch(&mut s, 'j');
    assert_eq!(s.scroll, 2);
    ch(&mut s, 'k');
    assert_eq!(s.scroll, 1);
    press(&mut s, KeyCode::PageDown);
    assert!(s.scroll > 10);
    // PgDn stopped at the end of the text; PgUp goes back a page (less a line) at a time
    let end = s.scroll;
    press(&mut s, KeyCode::PageUp);
    assert!(s.scroll > 0 && s.scroll < end, "{end} → {}", s.scroll);
    press(&mut s, KeyCode::PageUp);
    assert_eq!(s.scroll, 0);
    s.update(Msg::Mouse(MouseEvent {
        kind: MouseEventKind::ScrollDown,
        column: 1,
        row: 5,
        modifiers: KeyModifiers::NONE,
    }));
    assert_eq!(s.scroll, 3);
    ch(&mut s, 'M');
    assert!(s.side_by_side);
    ch(&mut s, 'z');
    assert!(s.zoom);
    let out = render_to_string(&s, 80, 24);
    assert!(
        !out.contains("FACT question"),
        "zoomed: the image fills the body"
    );
    ch(&mut s, 'z');
    assert!(!s.zoom);
    let theme = s.theme.name;
    ch(&mut s, 'T');
    assert_ne!(s.theme.name, theme);
    let fx = ch(&mut s, 'O');
    assert!(matches!(&fx[..], [Effect::OpenExternal(p)] if p.ends_with("chart.png")));
    let fx = ctrl(&mut s, 'z');
    assert_eq!(fx, vec![Effect::Suspend]);
    let fx = ch(&mut s, 'A');
    assert!(fx.is_empty(), "adjudicating needs my verdict first");
    ch(&mut s, '1');
    let fx = ch(&mut s, 'A');
    assert!(fx.is_empty(), "and a whole one: one model of two is graded");
    ch(&mut s, 'm');
    ch(&mut s, '2');
    let fx = ch(&mut s, 'A');
    let r = recorded(&mut s, fx);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].1.as_ref().unwrap()["final"], true);
    let fx = ch(&mut s, 'q');
    assert!(s.quit);
    assert!(fx.contains(&Effect::Quit));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::SavePosition { index: 0, .. }))
    );
}

#[test]
fn seconds_on_item_accumulate() {
    let (_d, mut s) = state("generic.jsonl");
    s.clock.instant += Duration::from_secs(7);
    let fx = ch(&mut s, '1');
    let r = recorded(&mut s, fx);
    assert_eq!(r[0].1.as_ref().unwrap()["seconds"], json!(7.0));
}

// ----- screens --------------------------------------------------------------------------

/// Type `keys`, answering each search request as the search worker would (its best
/// `SEARCH_SHOWN`), and deliver the answer as the loop does.
fn type_answering_search(s: &mut State, keys: &str) {
    for c in keys.chars() {
        for e in ch(s, c) {
            if let Effect::Search {
                seq,
                query,
                meta,
                within,
            } = e
            {
                let results = facts::search(&meta, &query, within.as_deref(), facts::SEARCH_SHOWN);
                s.update(Msg::SearchDone { seq, results });
            }
        }
    }
}

fn screen(name: &str, keys: &str, w: u16, h: u16) -> String {
    let (_d, mut s) = state(name);
    s.size = (w, h);
    type_answering_search(&mut s, keys);
    render_to_string(&s, w, h)
}

#[test]
fn screens_of_every_view() {
    for (w, h) in [(80u16, 24u16), (200, 50)] {
        for (name, keys, label) in [
            ("cvqa.jsonl", "", "cvqa"),
            ("cvqa.jsonl", "nn", "cvqa_synthetic"),
            ("chartom.jsonl", "", "chartom"),
            ("chartom.jsonl", "nn", "chartom_choice"),
            ("chartom-qa.jsonl", "", "chartom_qa"),
            ("chartom-qa.jsonl", "M", "chartom_qa_side_by_side"),
            ("generic.jsonl", "", "generic"),
            ("cvqa.jsonl", "?", "help"),
            ("cvqa.jsonl", "F", "filter"),
            ("cvqa.jsonl", "r", "reject"),
            ("cvqa.jsonl", "/", "search"),
        ] {
            let out = screen(name, keys, w, h);
            insta::assert_snapshot!(format!("{label}_{w}x{h}"), out);
        }
    }
}

#[test]
fn tiny_terminals_say_so() {
    let out = screen("cvqa.jsonl", "", 40, 10);
    assert!(out.contains("Terminal too small"), "{out}");
    insta::assert_snapshot!("tiny_40x10", out);
    // the smallest size that draws
    let out = screen("chartom.jsonl", "", 50, 14);
    assert!(!out.contains("too small"));
}

#[test]
fn hostile_text_is_shown_harmlessly() {
    let (_d, mut s) = state("chartom-qa.jsonl");
    ch(&mut s, 'm');
    let out = render_to_string(&s, 120, 40);
    assert!(!out.contains('\u{1b}'));
    assert!(out.contains("␛[2J"), "{out}");
}

#[test]
fn broken_items_are_shown_not_fatal() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("b.jsonl");
    std::fs::write(
        &p,
        b"{\"id\":\"ok\",\"benchmark\":\"cvqa\"}\n{\"id\": broken\n\xff\xfe\n",
    )
    .unwrap();
    let mut s = state_at(&p);
    ch(&mut s, 'n');
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("cannot be read (line 2)"), "{out}");
    let fx = ch(&mut s, 'a');
    assert!(fx.is_empty());
    ch(&mut s, 'n');
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("invalid UTF-8"), "{out}");
}

#[test]
fn summary_screens() {
    for name in ["chartom.jsonl", "cvqa.jsonl", "chartom-qa.jsonl"] {
        for (w, h) in [(80u16, 24u16), (200, 50)] {
            let (_d, mut s) = state(name);
            s.size = (w, h);
            let fx = ch(&mut s, 's');
            assert!(
                fx.iter()
                    .any(|e| matches!(e, Effect::ComputeSummary { .. }))
            );
            summary_arrives(&mut s);
            let out = render_to_string(&s, w, h);
            assert!(out.contains("Summary"), "{out}");
            insta::assert_snapshot!(
                format!("summary_{}_{w}x{h}", name.trim_end_matches(".jsonl")),
                out
            );
        }
    }
}

#[test]
fn progress_counts_match_a_full_count() {
    let (_d, mut s) = state("cvqa.jsonl");
    let full = |s: &State| {
        let me = (0..s.len()).filter(|&i| s.graded_by_me(i)).count();
        let any = (0..s.len()).filter(|&i| s.graded_by_anyone(i)).count();
        (me, Some(any), s.len())
    };
    assert_eq!(s.progress(), (0, Some(1), 3));
    for keys in ["a", "n", "a", "u", "n", "r1", "u", "u", "\u{12}"] {
        for c in keys.chars() {
            let fx = if c == '\u{12}' {
                ctrl(&mut s, 'r')
            } else {
                ch(&mut s, c)
            };
            recorded(&mut s, fx);
        }
        assert_eq!(s.progress(), full(&s), "after {keys}");
    }
}

// ----- what the reviewer sees is true, and fits 80×24 -----------------------------------

/// The characters of each screen row between columns `from` and `to`.
fn column(screen: &str, from: usize, to: usize) -> String {
    screen
        .lines()
        .map(|l| l.chars().skip(from).take(to - from).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A result set written into a temporary directory, and the reviewer's state on it.
fn state_on(name: &str, lines: &[Value]) -> (tempfile::TempDir, State) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join(name);
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&p, text).unwrap();
    let s = state_at(&p);
    (d, s)
}

// ----- verdicts recorded are exactly the ones given ---------------------------------------

/// The state on a file written from `lines`, as carol, index delivered.
fn state_of(lines: &str) -> (tempfile::TempDir, State) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("t.jsonl");
    std::fs::write(&p, lines).unwrap();
    let s = state_at(&p);
    (d, s)
}

fn graded(s: &mut State, keys: &str) {
    for c in keys.chars() {
        let fx = ch(s, c);
        recorded(s, fx);
    }
}

#[test]
fn side_by_side_shows_each_models_own_grade_chartom() {
    let (_d, mut s) = state("chartom.jsonl");
    graded(&mut s, "1M");
    s.size = (200, 50);
    let out = render_to_string(&s, 200, 50);
    let (left, right) = (column(&out, 0, 100), column(&out, 100, 200));
    assert!(!right.contains("identifies"), "llava is not graded: {out}");
    assert!(left.contains("gpt-4o (1/2)"), "{out}");
    assert!(left.contains("Mine: identifies"), "{out}");
    assert!(right.contains("llava (2/2)"), "{out}");
    assert!(right.contains("Mine: not graded"), "{out}");
    insta::assert_snapshot!("chartom_side_by_side_graded_200x50", out);
}

#[test]
fn side_by_side_shows_each_models_own_ticks_chartom_qa() {
    let (_d, mut s) = state("chartom-qa.jsonl");
    // `x` first: the checklist showed the judge's ticks (1 and 3)
    graded(&mut s, "x13M");
    s.size = (200, 50);
    let out = render_to_string(&s, 200, 50);
    let (left, right) = (column(&out, 0, 100), column(&out, 100, 200));
    assert!(!right.contains("[✔]"), "llama is not graded: {out}");
    assert!(left.contains(" 1 [✔]") && left.contains(" 3 [✔]"), "{out}");
    assert!(
        left.contains("Mine: bonus 1,3 of 3 · penalty not graded"),
        "{out}"
    );
    assert!(right.contains("llama (2/2)"), "{out}");
    assert!(right.contains("My penalty: not graded"), "{out}");
}

#[test]
fn side_by_side_keeps_others_verdicts_per_column_and_blind_mode() {
    let item = json!({"id": "c1", "benchmark": "chartom",
        "chart": {"pair": "G1_Q1", "chart_type": "bar", "version": "manipulated", "manipulation": "truncated axis"},
        "fact": {"question": "How many?", "key": 2},
        "responses": [{"model": "m-one", "fact": "2", "justification": "axis"},
                      {"model": "m-two", "fact": "3", "justification": "colours"}],
        "reviews": {"alice": {"models": {"m-one": {"justification": "identifies"},
                                          "m-two": {"justification": "misses", "fact_correct": true}}}}});
    let (_d, mut s) = state_on("c.jsonl", &[item]);
    ch(&mut s, 'M');
    s.size = (200, 50);
    let out = render_to_string(&s, 200, 50);
    let (left, right) = (column(&out, 0, 100), column(&out, 100, 200));
    assert!(left.contains("alice identifies"), "{out}");
    assert!(right.contains("alice misses, FACT correct"), "{out}");
    // alice's override is the effective grade of m-two, and said to be hers
    assert!(
        right.contains("✔ correct (reviewers' override; rule: wrong)"),
        "{out}"
    );
    // blind: hidden until I grade, in every column
    ch(&mut s, 'b');
    let out = render_to_string(&s, 200, 50);
    assert!(!out.contains("alice"), "{out}");
    assert!(!out.contains("reviewers' override"), "{out}");
    // grading m-one reveals alice's grades of m-one only
    graded(&mut s, "2");
    let out = render_to_string(&s, 200, 50);
    let (left, right) = (column(&out, 0, 100), column(&out, 100, 200));
    assert!(left.contains("alice identifies"), "{out}");
    assert!(!right.contains("alice"), "{out}");
    graded(&mut s, "m3");
    let out = render_to_string(&s, 200, 50);
    assert!(column(&out, 100, 200).contains("alice misses"), "{out}");
}

#[test]
fn side_by_side_fits_80x24() {
    let (_d, mut s) = state("chartom.jsonl");
    graded(&mut s, "1M");
    let out = render_to_string(&s, 80, 24);
    assert!(
        out.contains("gpt-4o (1/2)") && out.contains("llava (2/2)"),
        "{out}"
    );
    assert!(out.contains("Mine: identifies"), "{out}");
    // the columns get the image's rows; zoom still shows it
    assert!(out.contains("hidden side by side (z shows it)"), "{out}");
    assert_eq!(verdict::tui::draw::image_area(&s, 80, 24), None);
    ch(&mut s, 'z');
    assert!(verdict::tui::draw::image_area(&s, 80, 24).is_some());
    ch(&mut s, 'z');
    insta::assert_snapshot!("chartom_side_by_side_graded_80x24", out);
    // three responses: two at a time, the page of the selected one
    let mut item: Value = serde_json::from_str(
        std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tui/chartom-qa.jsonl"),
        )
        .unwrap()
        .lines()
        .next()
        .unwrap(),
    )
    .unwrap();
    let mut third = item["responses"][0].clone();
    third["model"] = json!("qwen");
    item["responses"].as_array_mut().unwrap().push(third);
    let (_d2, mut s) = state_on("qa.jsonl", &[item]);
    ch(&mut s, 'M');
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("responses 1–2 of 3 (m moves)"), "{out}");
    assert!(!out.contains("qwen"), "{out}");
    ch(&mut s, 'm');
    ch(&mut s, 'm');
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("qwen (3/3)"), "{out}");
}

#[test]
fn overrides_show_the_effective_grade_and_the_cycle() {
    let (_d, mut s) = state("cvqa.jsonl");
    let line = |out: &str, prefix: &str| {
        out.lines()
            .find(|l| l.contains(prefix))
            .unwrap_or_else(|| panic!("no {prefix} in {out}"))
            .to_string()
    };
    let out = render_to_string(&s, 80, 24);
    assert!(line(&out, "→ 1 ").contains("✔ correct"), "{out}");
    graded(&mut s, "1");
    let out = render_to_string(&s, 80, 24);
    assert!(
        line(&out, "→ 1 ").contains("✔ correct (my override; rule: correct)"),
        "{out}"
    );
    assert!(line(&out, "→ 1 ").contains("[correct]"), "{out}");
    graded(&mut s, "1");
    let out = render_to_string(&s, 80, 24);
    assert!(
        line(&out, "→ 1 ").contains("✘ wrong (my override; rule: correct)"),
        "{out}"
    );
    assert!(line(&out, "→ 1 ").contains("[wrong]"), "{out}");
    assert!(
        out.contains("selected llava · llava orig ✘  ✔ recorded"),
        "{out}"
    );
    insta::assert_snapshot!("cvqa_override_80x24", out);
    graded(&mut s, "1");
    let out = render_to_string(&s, 80, 24);
    assert!(
        line(&out, "→ 1 ").contains("✔ correct (rule)  1 override: [auto] correct wrong"),
        "{out}"
    );

    // CHARTOM x
    let (_d, mut s) = state("chartom.jsonl");
    graded(&mut s, "xx");
    s.scroll = 0;
    let out = render_to_string(&s, 200, 50);
    assert!(
        out.contains("✘ wrong (my override; rule: correct)"),
        "{out}"
    );
    assert!(
        out.contains("x override FACT: auto correct [wrong]"),
        "{out}"
    );
    assert!(out.contains("FACT override: wrong"), "{out}");
}

#[test]
fn footers_put_grading_keys_help_and_quit_first_from_the_live_keymap() {
    for (name, keys, first) in [
        ("cvqa.jsonl", "", " a accept  f fix  r reject"),
        (
            "chartom.jsonl",
            "",
            " 1 identifies  2 partial  3 misses  x FACT",
        ),
        (
            "chartom-qa.jsonl",
            "",
            " a accept  1-3 bonus  x no bonus  e penalty",
        ),
        ("generic.jsonl", "", " 1 pass  2 fail  3 unsure"),
    ] {
        let out = screen(name, keys, 80, 24);
        let footer = out.lines().nth(23).unwrap();
        assert!(footer.starts_with(first), "{name}: {footer}");
        assert!(
            footer.contains("? help") && footer.contains("q quit"),
            "{name}: {footer}"
        );
    }
    // a remapped key shows its new key
    let (_d, p) = fixture("chartom.jsonl");
    let mut s = state_at(&p);
    let mut km = Keymap::default();
    let mut cfg = std::collections::BTreeMap::new();
    cfg.insert("help".to_string(), vec!["h".to_string()]);
    cfg.insert("chartom.identifies".to_string(), vec!["y".to_string()]);
    assert!(km.apply_config(&cfg).is_empty());
    s.keymap = km;
    let out = render_to_string(&s, 80, 24);
    let footer = out.lines().nth(23).unwrap();
    assert!(footer.starts_with(" y identifies"), "{footer}");
    assert!(footer.contains("h help"), "{footer}");
}

#[test]
fn the_grade_is_visible_after_grading_at_80x24() {
    let (_d, mut s) = state("chartom.jsonl");
    graded(&mut s, "2");
    let out = render_to_string(&s, 80, 24);
    assert!(
        out.contains("My grade of gpt-4o: partial  ✔ recorded"),
        "{out}"
    );
    insta::assert_snapshot!("chartom_graded_80x24", out);
    let (_d, mut s) = state("chartom-qa.jsonl");
    // point 2 ticked on the judge's ticks (1 and 3) shown
    graded(&mut s, "2");
    let out = render_to_string(&s, 80, 24);
    assert!(
        out.contains("My grade of gpt-4o: bonus 1,2,3 of 3 · penalty not graded"),
        "{out}"
    );
    insta::assert_snapshot!("chartom_qa_graded_80x24", out);
    let (_d, mut s) = state("cvqa.jsonl");
    graded(&mut s, "r3");
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("My grade: rejected (wrong-answer)"), "{out}");
    insta::assert_snapshot!("cvqa_graded_80x24", out);
    let (_d, mut s) = state("generic.jsonl");
    graded(&mut s, "3");
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("My grade: unsure  ✔ recorded"), "{out}");
    insta::assert_snapshot!("generic_graded_80x24", out);
}

#[test]
fn no_picture_no_image_box() {
    let out = screen("chartom.jsonl", "", 80, 24);
    let second = out.lines().nth(1).unwrap();
    assert!(second.contains("chart.png · images off"), "{out}");
    assert!(!out.contains("┌ chart.png"), "{out}");
    // a failed image: one line with the reason
    let (_d, mut s) = state("chartom.jsonl");
    s.image = verdict::tui::app::ImageSlot::Failed(
        verdict::tui::image::ImageKey {
            path: "chart.png".into(),
            width: 78,
            height: 5,
        },
        "image not found".into(),
    );
    s.protocol_name = "halfblocks";
    let out = render_to_string(&s, 80, 24);
    assert!(
        out.lines().nth(1).unwrap().contains("image not found"),
        "{out}"
    );
}

/// A missing picture's line at 80 columns keeps its whole name and the key that opens
/// it; the reason gives way (without the path, which it named again). Before, the
/// reason repeated the path and `O opens it` was cut off.
#[test]
fn a_missing_picture_s_line_keeps_its_name_and_key_at_80_columns() {
    let name = "images/COCO_val2014_000000402685.jpg";
    let (_d, mut s) = state_of(&format!(
        "{}\n",
        json!({"id": "real-1", "benchmark": "cvqa", "image": name,
            "original": {"question": "How many plates are there?", "answer": "1"},
            "counterfactual": {"question": "How many plates would there be if 2 more plates were added?", "answer": "3"}})
    ));
    s.image = verdict::tui::app::ImageSlot::Failed(
        verdict::tui::image::ImageKey {
            path: name.into(),
            width: 78,
            height: 3,
        },
        format!("image not found: /home/reviewer/datasets/cvqa/{name}"),
    );
    s.protocol_name = "halfblocks";
    for (w, h) in [(80, 24), (200, 50)] {
        let out = render_to_string(&s, w, h);
        let line = out.lines().nth(1).unwrap();
        assert!(
            line.contains(&format!(" image {name} · image not found")),
            "{out}"
        );
        assert!(line.trim_end().ends_with(" O opens it"), "{out}");
        assert_eq!(line.matches("COCO").count(), 1, "{line}");
    }
}

#[test]
fn page_down_stops_at_the_end_and_says_where_it_is() {
    let (_d, mut s) = state("chartom.jsonl");
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("lines 1–"), "{out}");
    for _ in 0..20 {
        press(&mut s, KeyCode::PageDown);
    }
    let max = verdict::tui::draw::max_scroll(&s);
    assert!(max > 0);
    assert_eq!(s.scroll, max, "PgDn stops at the end");
    for _ in 0..5 {
        ch(&mut s, 'j');
    }
    assert_eq!(s.scroll, max);
    let out = render_to_string(&s, 80, 24);
    assert!(
        out.contains("Verdicts"),
        "the end of the text is on screen: {out}"
    );
    assert!(out.contains("▲ lines"), "{out}");
    press(&mut s, KeyCode::PageUp);
    assert!(s.scroll < max);
}

#[test]
fn dialogs_and_summary_rows_fit_80x24() {
    let out = screen("cvqa.jsonl", "F", 80, 24);
    assert!(out.contains("Filters · 3 of 3 items match"), "{out}");
    assert!(
        out.contains("Enter toggles · X clears · Esc closes"),
        "{out}"
    );
    assert!(
        out.contains("disagreement (reviewers, or human vs judge)"),
        "{out}"
    );
    let out = screen("chartom-qa.jsonl", "e", 80, 24);
    assert!(
        out.contains("Penalty: what the response gets wrong"),
        "{out}"
    );
    assert!(
        out.contains("empty = none · Enter saves · Esc cancels"),
        "{out}"
    );
    let out = screen("cvqa.jsonl", "nf", 80, 24);
    assert!(
        out.contains("↓ switches · Alt-char finds a letter · Enter saves · Esc cancels"),
        "{out}"
    );
    insta::assert_snapshot!("fix_80x24", out);
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, 's');
    summary_arrives(&mut s);
    let out = render_to_string(&s, 80, 24);
    assert!(
        !out.contains("orig") || out.contains("n=1     orig") || out.contains("n=2     orig"),
        "{out}"
    );
    for l in out.lines() {
        assert!(!l.contains("n=1orig") && !l.contains("n=2orig"), "{l}");
        if l.contains("n=") {
            assert!(l.contains(" Δ "), "the row is whole: {l}");
        }
    }
}

#[test]
fn search_highlights_the_matched_characters() {
    let (_d, mut s) = state("cvqa.jsonl");
    type_answering_search(&mut s, "/plates");
    let backend = ratatui::backend::TestBackend::new(80, 24);
    let mut term = ratatui::Terminal::new(backend).unwrap();
    term.draw(|f| verdict::tui::draw::draw(&s, f)).unwrap();
    let buf = term.backend().buffer().clone();
    let row = (0..24)
        .find(|&y| {
            (0..80)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
                .contains("real-00001 How")
        })
        .expect("a result row");
    let cells: Vec<_> = (0..80).map(|x| buf[(x, row)].clone()).collect();
    let text: String = cells.iter().map(|c| c.symbol().to_string()).collect();
    let start = text[..text.find("real-00001").unwrap()].chars().count();
    let meta = s.meta.as_ref().unwrap();
    let hits = facts::match_indices(meta.search_text(0), "plates");
    assert_eq!(hits.len(), 6);
    use ratatui::style::Modifier;
    // every visible character is underlined exactly when the query matched it
    let visible = text.chars().count() - start - 4; // the frame and the ellipsis
    let mut underlined = 0;
    for k in 0..visible {
        let on = cells[start + k].modifier.contains(Modifier::UNDERLINED);
        assert_eq!(on, hits.contains(&k), "char {k} of {text}");
        underlined += usize::from(on);
    }
    // nucleo matched the second "plates" of this line: off screen at 80 columns
    let wide = {
        let backend = ratatui::backend::TestBackend::new(200, 50);
        let mut term = ratatui::Terminal::new(backend).unwrap();
        term.draw(|f| verdict::tui::draw::draw(&s, f)).unwrap();
        term.backend().buffer().clone()
    };
    let row = (0..50)
        .find(|&y| {
            (0..200)
                .map(|x| wide[(x, y)].symbol().to_string())
                .collect::<String>()
                .contains("real-00001 How")
        })
        .unwrap();
    let text: String = (0..200)
        .map(|x| wide[(x, row)].symbol().to_string())
        .collect();
    let start = text[..text.find("real-00001").unwrap()].chars().count();
    for k in 0..meta.search_text(0).chars().count() {
        let on = wide[(start as u16 + k as u16, row)]
            .modifier
            .contains(Modifier::UNDERLINED);
        assert_eq!(on, hits.contains(&k), "char {k} of {text}");
        underlined += usize::from(on);
    }
    assert_eq!(underlined, 6);
}

#[test]
fn theme_key_says_which_theme() {
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, 'T');
    assert_eq!(s.status.as_ref().unwrap().0, "theme: dark (T switches)");
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("theme: dark"), "{out}");
    ch(&mut s, 'T');
    assert_eq!(s.status.as_ref().unwrap().0, "theme: light (T switches)");
}

#[test]
fn summary_footer_names_the_keys_that_close_it() {
    let (_d, mut s) = state("chartom.jsonl");
    ch(&mut s, 's');
    summary_arrives(&mut s);
    let out = render_to_string(&s, 80, 24);
    let footer = out.lines().nth(23).unwrap().to_string();
    assert!(footer.contains("s close"), "{footer}");
    assert!(!footer.contains("? close"), "{footer}");
    // every key the footer says closes it, closes it
    for key in footer
        .split("  ")
        .filter_map(|h| h.trim().strip_suffix(" close"))
    {
        let mut s2 = state("chartom.jsonl").1;
        ch(&mut s2, 's');
        let code = match key {
            "Esc" => KeyCode::Esc,
            k => KeyCode::Char(k.chars().next().unwrap()),
        };
        press(&mut s2, code);
        assert_eq!(s2.mode, Mode::Normal, "{key} closes the summary");
    }
    // the same for help
    let (_d, mut s) = state("chartom.jsonl");
    ch(&mut s, '?');
    let out = render_to_string(&s, 80, 24);
    assert!(out.lines().nth(23).unwrap().contains("? close"), "{out}");
}

#[test]
fn hmi_plot_shows_every_point_with_distinct_glyphs() {
    let (_d, mut s) = state("chartom.jsonl");
    s.size = (200, 50);
    ch(&mut s, 's');
    let v = verdict::tui::summary::compute(&s.store);
    let charts = v.stats.benchmarks.chartom.as_ref().unwrap().charts.len();
    s.update(Msg::Summary {
        seq: s.summary.seq(),
        result: Ok(v),
    });
    let out = render_to_string(&s, 200, 50);
    let start = out
        .lines()
        .position(|l| l.contains("HMI ranking"))
        .expect(&out);
    let plot: Vec<&str> = out.lines().skip(start + 1).collect();
    let legend = plot.iter().find(|l| l.contains("original")).expect(&out);
    // every model's predictions, each with its own mark (issue 19 item 14)
    assert!(
        legend.contains("o original")
            && legend.contains("x manipulated")
            && legend.contains("1 gpt-4o")
            && legend.contains("2 llava"),
        "{legend}"
    );
    let points: usize = plot
        .iter()
        .filter(|l| l.contains('┤'))
        .map(|l| {
            l.split('┤')
                .nth(1)
                .unwrap()
                .chars()
                .filter(|c| "ox⊕⊗*".contains(*c))
                .count()
        })
        .sum();
    assert_eq!(points, charts, "every chart has its point: {out}");
}

#[test]
fn chartom_qa_evaluation_layout_as_the_benchmark_names_it() {
    let d = tempfile::tempdir().unwrap();
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/samples/chartom-qa-eval.jsonl");
    let p = d.path().join("gpt-4o_belief_c1000_eval_penalty.jsonl");
    std::fs::copy(&src, &p).unwrap();
    let before = std::fs::read(&p).unwrap();
    let mut s = state_at(&p);
    s.size = (200, 50);
    let out = render_to_string(&s, 200, 50);
    assert!(!out.contains("—"), "no character: {out}");
    assert!(
        out.contains("Pride and Prejudice · ToM dimension belief"),
        "{out}"
    );
    assert!(out.contains("Misleading choices"), "{out}");
    assert!(out.contains("✘ a plausible but wrong reading"), "{out}");
    assert!(!out.contains("1. a plausible"), "{out}");
    assert!(out.contains("My grade: not graded"), "{out}");
    assert!(out.contains("Responses:  gpt-4o"), "{out}");
    assert!(!out.contains(" response "), "{out}");
    insta::assert_snapshot!("chartom_qa_eval_200x50", out);
    let out = render_to_string(&s, 80, 24);
    insta::assert_snapshot!("chartom_qa_eval_80x24", out);
    // the stem, when the name is not the benchmark's pattern
    let q = d.path().join("my-run.jsonl");
    std::fs::copy(&src, &q).unwrap();
    let s = state_at(&q);
    let out = render_to_string(&s, 200, 50);
    assert!(out.contains("Responses:  my-run"), "{out}");
    drop(s);
    assert_eq!(
        std::fs::read(&p).unwrap(),
        before,
        "the file's bytes are untouched"
    );
}

#[test]
fn chartom_qa_keys_write_only_the_field_touched() {
    let (_d, mut s) = state("chartom-qa.jsonl");
    // a bonus tick writes the bonus (the judge's ticks, 1 and 3, less point 1), and no
    // penalty
    let fx = ch(&mut s, '1');
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1),
        json!({"models": {"gpt-4o": {"bonus": [3]}}})
    );
    // `0` (no penalty) on the other model writes the penalty, and no bonus
    ch(&mut s, 'm');
    let fx = ch(&mut s, '0');
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1)["models"]["llama"],
        json!({"penalty": null})
    );
    // a penalty text on a fresh item writes the penalty only
    ch(&mut s, 'n');
    ch(&mut s, 'e');
    typ(&mut s, "too vague");
    let fx = press(&mut s, KeyCode::Enter);
    let r = recorded(&mut s, fx);
    assert_eq!(strip_time(&r[0].1), json!({"penalty": "too vague"}));
    // `x`: no bonus point covered, explicitly
    let fx = ch(&mut s, 'x');
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1),
        json!({"penalty": "too vague", "bonus": []})
    );
}

#[test]
fn a_status_key_replaces_the_whole_verification() {
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, 'a');
    ch(&mut s, 'r');
    let fx = ch(&mut s, '1');
    let r = recorded(&mut s, fx);
    // accept's image_related / answer_ok do not linger under a reject for ambiguity
    assert_eq!(
        strip_time(&r[0].1),
        json!({"status": "reject", "reason": "ambiguous"})
    );
    ch(&mut s, 'r');
    ch(&mut s, '3');
    ch(&mut s, 'r');
    let fx = ch(&mut s, '2');
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1),
        json!({"status": "reject", "image_related": false, "reason": "not-image-related"})
    );
}

#[test]
fn a_review_left_empty_is_removed_not_written_empty() {
    let (_d, mut s) = state("generic.jsonl");
    ch(&mut s, 'i');
    typ(&mut s, "x");
    press(&mut s, KeyCode::Enter);
    ch(&mut s, 'i');
    press(&mut s, KeyCode::Backspace);
    let fx = press(&mut s, KeyCode::Enter);
    assert_eq!(recorded(&mut s, fx), vec![(0, None)]);
    // an override cycled back to automatic leaves nothing either
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, '1');
    ch(&mut s, '1');
    let fx = ch(&mut s, '1');
    assert_eq!(recorded(&mut s, fx), vec![(0, None)]);
    assert!(s.my_review(0).is_none());
}

#[test]
fn a_partly_graded_item_is_not_done() {
    // CHARTOM, two models: one graded is not done; a note alone is not done.
    let (_d, mut s) = state("chartom.jsonl");
    let base = s.progress();
    let fx = ch(&mut s, '1');
    recorded(&mut s, fx);
    assert!(!s.graded_by_me(0));
    assert_eq!(s.progress().0, base.0, "me N/… unchanged");
    assert_eq!(s.models_done(), vec![true, false]);
    // Space from item 3 wraps to item 1, which is not done
    ch(&mut s, 'G');
    ch(&mut s, ' ');
    assert_eq!(s.pos, 0);
    ch(&mut s, 'm');
    let fx = ch(&mut s, '2');
    recorded(&mut s, fx);
    assert!(s.graded_by_me(0));
    assert_eq!(s.progress().0, base.0 + 1);
    // the ungraded filter drops only done items
    ch(&mut s, 'F');
    press(&mut s, KeyCode::Enter);
    press(&mut s, KeyCode::Esc);
    assert_eq!(s.visible_items().as_deref(), Some(&[1usize, 2][..]));
    ch(&mut s, 'X');
    // a note alone on item 3
    ch(&mut s, 'G');
    ch(&mut s, 'i');
    typ(&mut s, "look again");
    let fx = press(&mut s, KeyCode::Enter);
    recorded(&mut s, fx);
    assert!(!s.graded_by_me(2));
    // CharToM-QA: bonus alone is not done; bonus and penalty are
    let (_d, mut s) = state("chartom-qa.jsonl");
    ch(&mut s, 'n');
    let fx = ch(&mut s, '1');
    recorded(&mut s, fx);
    assert!(!s.graded_by_me(1));
    let fx = ch(&mut s, '0');
    recorded(&mut s, fx);
    assert!(s.graded_by_me(1));
}

#[test]
fn done_is_one_domain_rule() {
    use verdict::bench::{Item, Review};
    use verdict::review::item_done;
    let item = |t: &str| Item::parse(t).unwrap();
    let rev = |t: &str| serde_json::from_str::<Review>(t).unwrap();
    let qa = item(
        r#"{"benchmark":"chartom-qa","bonus_points":["a"],"responses":[{"model":"m","text":"t"}]}"#,
    );
    assert!(!item_done(&qa, None));
    assert!(!item_done(&qa, Some(&rev(r#"{"bonus":[1]}"#))));
    assert!(!item_done(&qa, Some(&rev(r#"{"penalty":null}"#))));
    assert!(item_done(&qa, Some(&rev(r#"{"bonus":[],"penalty":null}"#))));
    let cv = item(r#"{"benchmark":"cvqa","responses":[{"model":"a"},{"model":"b"}]}"#);
    assert!(!item_done(
        &cv,
        Some(&rev(r#"{"models":{"a":{"original_correct":true}}}"#))
    ));
    assert!(item_done(&cv, Some(&rev(r#"{"status":"accept"}"#))));
    let ch = item(
        r#"{"benchmark":"chartom","responses":[{"model":"a","justification":"j"},{"model":"b"}]}"#,
    );
    assert!(item_done(
        &ch,
        Some(&rev(r#"{"models":{"a":{"justification":"misses"}}}"#))
    ));
    let bare = item(r#"{"benchmark":"chartom","responses":[{"model":"a"}]}"#);
    assert!(!item_done(&bare, None));
    assert!(item_done(&bare, Some(&rev(r#"{"fact_correct":false}"#))));
    let other = item(r#"{"benchmark":"x"}"#);
    assert!(!item_done(&other, Some(&rev(r#"{"note":"n"}"#))));
    assert!(item_done(&other, Some(&rev(r#"{"verdict":"pass"}"#))));
}

const BLIND: &str = r#"{"id":"q1","benchmark":"chartom-qa","question":"q","answer":"a","bonus_points":["p1","p2"],"responses":[{"model":"a","text":"ta","judge":{"bonus":[2],"penalty":"JUDGE-A"}},{"model":"b","text":"tb","judge":{"bonus":[1],"penalty":"JUDGE-B"}}],"reviews":{"bob":{"at":"2026-11-01T10:00:00Z","note":"BOB-NOTE","models":{"a":{"bonus":[1],"penalty":"BOB-A"},"b":{"bonus":[2],"penalty":"BOB-B"}}}}}
"#;

#[test]
fn blind_mode_reveals_only_the_model_graded_once_recorded() {
    let (_d, mut s) = state_of(BLIND);
    ch(&mut s, 'b');
    let hidden = |s: &State| {
        let out = render_to_string(s, 120, 60);
        ["JUDGE-A", "JUDGE-B", "BOB-A", "BOB-B", "BOB-NOTE"]
            .into_iter()
            .filter(|w| !out.contains(w))
            .collect::<Vec<_>>()
    };
    assert_eq!(hidden(&s).len(), 5);
    // a note alone reveals nothing
    ch(&mut s, 'i');
    typ(&mut s, "mine");
    let fx = press(&mut s, KeyCode::Enter);
    recorded(&mut s, fx);
    assert_eq!(hidden(&s).len(), 5, "{}", render_to_string(&s, 120, 60));
    // model a: a bonus alone reveals nothing; bonus + penalty, once acknowledged, reveals a
    let fx = ch(&mut s, '1');
    recorded(&mut s, fx);
    let fx = ch(&mut s, '0');
    assert_eq!(hidden(&s).len(), 5, "not yet acknowledged");
    recorded(&mut s, fx);
    let h = hidden(&s);
    assert!(!h.contains(&"JUDGE-A") && !h.contains(&"BOB-A"), "{h:?}");
    for w in ["JUDGE-B", "BOB-B", "BOB-NOTE"] {
        assert!(
            s.reviews()
                .iter()
                .all(|(_, r)| !format!("{r:?}").contains(w)),
            "{w} leaked"
        );
    }
    ch(&mut s, 'm');
    assert!(s.hiding_others(), "model b is not graded");
    let out = render_to_string(&s, 120, 60);
    assert!(!out.contains("JUDGE-B") && !out.contains("BOB-B"), "{out}");
}

// ----- empty sets -------------------------------------------------------------------------

/// Every action, then every key of every overlay, on `s`: nothing may panic.
fn press_everything(s: &mut State) {
    let overlay_keys = [
        KeyCode::Char('x'),
        KeyCode::Char('1'),
        KeyCode::Char('5'),
        KeyCode::Down,
        KeyCode::Up,
        KeyCode::Tab,
        KeyCode::Backspace,
        KeyCode::Char(' '),
        KeyCode::Enter,
        KeyCode::Esc,
    ];
    for a in Action::all() {
        if a == Action::Quit {
            continue;
        }
        let mut fx = vec![];
        s.act(a, &mut fx);
        let _ = render_to_string(s, 80, 24);
        for k in overlay_keys {
            press(s, k);
            let _ = render_to_string(s, 80, 24);
        }
        press(s, KeyCode::Esc);
        s.update(Msg::Paste("p".into()));
        for (row, kind) in [
            (
                22,
                MouseEventKind::Down(crossterm::event::MouseButton::Left),
            ),
            (5, MouseEventKind::Down(crossterm::event::MouseButton::Left)),
            (5, MouseEventKind::ScrollDown),
            (5, MouseEventKind::ScrollUp),
        ] {
            s.update(Msg::Mouse(MouseEvent {
                kind,
                column: 40,
                row,
                modifiers: KeyModifiers::NONE,
            }));
        }
        s.update(Msg::Tick);
        press(s, KeyCode::Esc);
    }
    let mut fx = vec![];
    s.act(Action::Quit, &mut fx);
    assert!(s.quit);
}

#[test]
fn every_key_is_safe_on_an_empty_set() {
    for (name, text) in [
        ("empty.jsonl", ""),
        ("blank.jsonl", "\n\n  \n"),
        ("doc.json", r#"{"verdict":1,"items":[]}"#),
        ("bare.json", "[]"),
    ] {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join(name);
        std::fs::write(&p, text).unwrap();
        let mut s = state_at(&p);
        assert!(s.is_empty(), "{name}");
        press_everything(&mut s);
    }
}

#[test]
fn every_key_is_safe_on_a_filter_with_no_match() {
    for name in [
        "cvqa.jsonl",
        "chartom.jsonl",
        "chartom-qa.jsonl",
        "generic.jsonl",
    ] {
        let (_d, mut s) = state(name);
        // "graded by me" (row 2 of the menu): nothing yet
        ch(&mut s, 'F');
        press(&mut s, KeyCode::Down);
        press(&mut s, KeyCode::Enter);
        press(&mut s, KeyCode::Esc);
        assert_eq!(s.visible_items().as_deref(), Some(&[][..]), "{name}");
        press_everything(&mut s);
    }
}

#[test]
fn reject_other_asks_for_a_short_text() {
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, 'r');
    let fx = ch(&mut s, '5');
    assert!(fx.is_empty(), "nothing recorded before the text");
    assert!(s.mode.popup::<RejectOther>().is_some());
    // an empty text is refused, the field stays open
    let fx = press(&mut s, KeyCode::Enter);
    assert!(fx.is_empty());
    assert!(s.mode.popup::<RejectOther>().is_some());
    typ(&mut s, "counts the TV twice");
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("counts the TV twice"), "{out}");
    let fx = press(&mut s, KeyCode::Enter);
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1),
        json!({"status": "reject", "reason": "other", "reason_text": "counts the TV twice"})
    );
    // another reason, or an accept, removes the text
    let fx = ch(&mut s, 'a');
    let r = recorded(&mut s, fx);
    assert!(strip_time(&r[0].1).get("reason_text").is_none());
    // Esc cancels without recording
    ch(&mut s, 'r');
    ch(&mut s, '5');
    typ(&mut s, "x");
    let fx = press(&mut s, KeyCode::Esc);
    assert!(fx.is_empty());
    assert_eq!(s.mode, Mode::Normal);
}

// ----- keeping the reviewer moving -----------------------------------------------------------

#[test]
fn accept_and_reject_advance_when_auto_advance_is_on() {
    let (_d, mut s) = state("cvqa.jsonl");
    s.auto_advance = true;
    let fx = ch(&mut s, 'a');
    let r = recorded(&mut s, fx);
    assert_eq!(r[0].0, 0, "the verdict is on the item graded");
    assert_eq!(s.pos, 1);
    assert!(
        s.status.as_ref().unwrap().0.contains("real-00001"),
        "{:?}",
        s.status
    );
    ch(&mut s, 'r');
    let fx = ch(&mut s, '1');
    let r = recorded(&mut s, fx);
    assert_eq!(r[0].0, 1);
    assert_eq!(s.pos, 2);
    // overrides are not a verdict on the item: no move
    ch(&mut s, '1');
    assert_eq!(s.pos, 2);
    // off: stays
    s.auto_advance = false;
    ch(&mut s, 'p');
    ch(&mut s, 'a');
    assert_eq!(s.pos, 1);
}

fn session_of(fx: &[Effect]) -> Option<verdict::tui::config::Session> {
    fx.iter().rev().find_map(|e| match e {
        Effect::SaveSession(s) => Some(s.clone()),
        _ => None,
    })
}

#[test]
fn skip_is_distinct_from_ungraded_and_is_saved() {
    let (_d, mut s) = state("cvqa.jsonl");
    let fx = ch(&mut s, 'S');
    assert!(s.is_skipped(0));
    assert_eq!(s.pos, 1, "skipping moves on");
    let saved = session_of(&fx).expect("skips are saved");
    assert_eq!(saved.skipped.len(), 1);
    assert_eq!(saved.skipped[0].id.as_deref(), Some("real-00001"));
    assert!(!s.graded_by_me(0), "a skipped item is not graded");
    let header = |s: &State| {
        render_to_string(s, 80, 24)
            .lines()
            .next()
            .unwrap()
            .to_string()
    };
    assert!(!header(&s).contains("skipped"), "item 2 is not skipped");
    // Space passes over the skipped item
    ch(&mut s, ' ');
    assert_eq!(s.pos, 2);
    ch(&mut s, ' ');
    assert_eq!(s.pos, 1, "wraps past the skipped item 1");
    ch(&mut s, 'g');
    assert!(header(&s).contains("skipped"), "{}", header(&s));
    // S again unskips; grading a skipped item unskips it too
    ch(&mut s, 'S');
    assert!(!s.is_skipped(0));
    ch(&mut s, 'g');
    ch(&mut s, 'S');
    ch(&mut s, 'g');
    let fx = ch(&mut s, 'a');
    recorded(&mut s, fx);
    assert!(!s.is_skipped(0));
}

#[test]
fn undo_survives_a_restart() {
    let (d, mut s) = state("cvqa.jsonl");
    let fx = ch(&mut s, 'a');
    let session = session_of(&fx).expect("the undo history is saved");
    recorded(&mut s, fx);
    assert_eq!(session.undo.len(), 1);
    // the verdict reached the file (as the journal's fold does)
    let p = d.path().join("cvqa.jsonl");
    let mut store = Store::open(&p).unwrap();
    let v = s.my_review(0).map(|r| serde_json::to_value(r).unwrap());
    store.set_review(0, "carol", v).unwrap();
    store.save().unwrap();
    // a new session restores the history and undoes the accept
    let mut s2 = state_at(&p);
    support_state::begin_found(&mut s2, session.clone(), None);
    ch(&mut s2, 'n');
    let fx = ch(&mut s2, 'u');
    assert_eq!(recorded(&mut s2, fx), vec![(0, None)]);
    assert_eq!(s2.pos, 0);
    // a history that no longer matches the file (someone changed the verdict) is dropped
    let mut s3 = state_at(&p);
    let mut stale = session.clone();
    if let Some(c) = stale.undo.first_mut() {
        c.after = Some(json!({"status": "reject", "reason": "ambiguous"}));
    }
    support_state::begin_found(&mut s3, stale, None);
    let fx = ch(&mut s3, 'u');
    assert!(fx.is_empty());
    assert_eq!(s3.status.as_ref().unwrap().0, "nothing to undo");
}

#[test]
fn every_move_and_verdict_saves_the_position() {
    let (_d, mut s) = state("cvqa.jsonl");
    let fx = ch(&mut s, 'n');
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::SavePosition { index: 1, .. })),
        "{fx:?}"
    );
}

#[test]
fn a_file_changed_on_disk_is_shown_as_it_is_now() {
    let (d, mut s) = state("cvqa.jsonl");
    let p = d.path().join("cvqa.jsonl");
    ch(&mut s, 'n');
    let fx = ch(&mut s, 'i');
    assert!(fx.is_empty());
    typ(&mut s, "mine");
    let fx = press(&mut s, KeyCode::Enter);
    recorded(&mut s, fx);
    // another program adds an item first and changes the text of the one shown
    let orig = std::fs::read_to_string(&p).unwrap();
    let changed = format!(
        "{{\"id\":\"added-elsewhere\",\"benchmark\":\"cvqa\"}}\n{}",
        orig.replace("Is the TV on?", "Is the TV switched on?")
    );
    std::fs::write(&p, changed).unwrap();
    let mut fresh = Store::open(&p).unwrap();
    let v = s.my_review(1).map(|r| serde_json::to_value(r).unwrap());
    fresh.set_review(2, "carol", v).unwrap();
    let fx = support_state::reloaded(&mut s, fresh);
    // the new file's index comes with it (made where the items were found): none asked
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::Index { .. })),
        "{fx:?}"
    );
    assert_eq!(**s.meta.as_ref().unwrap(), facts::index(&s.store, 2));
    assert_eq!(s.pos, 2, "the same item, at its new index");
    assert_eq!(s.display_id(s.pos), "real-00002");
    assert_eq!(s.len(), 4);
    assert!(
        s.my_review(2)
            .is_some_and(|r| r.note.as_deref() == Some("mine"))
    );
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("switched on"), "{out}");
    assert!(out.contains("changed on disk"), "{out}");
    // undo follows the item too
    let fx = ch(&mut s, 'u');
    assert_eq!(recorded(&mut s, fx), vec![(2, None)]);
    // moving away and back shows the new text (by id: the new index is there)
    ch(&mut s, 'g');
    ch(&mut s, ':');
    typ(&mut s, "real-00002");
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.pos, 2);
    assert!(render_to_string(&s, 80, 24).contains("switched on"));
}

#[test]
fn the_adjudication_queue_steps_through_disagreements_only() {
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, 'D');
    assert!(s.queue);
    assert_eq!(
        s.visible_items().as_deref(),
        Some(&[1usize][..]),
        "alice accepted, bob rejected"
    );
    assert_eq!(s.pos, 1);
    let out = render_to_string(&s, 80, 40);
    assert!(out.contains("side by side"), "{out}");
    let row = out
        .lines()
        .find(|l| l.contains("status"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(row.contains("accept") && row.contains("reject"), "{row}");
    assert!(out.lines().next().unwrap().contains("ADJUDICATE"));
    // n and p stay in the queue
    ch(&mut s, 'n');
    assert_eq!(s.pos, 1);
    // grade (no auto-advance in the queue: A comes next), mark final: the item leaves
    s.auto_advance = true;
    let fx = ch(&mut s, 'a');
    recorded(&mut s, fx);
    assert_eq!(s.pos, 1);
    let fx = ch(&mut s, 'A');
    let r = recorded(&mut s, fx);
    assert_eq!(r[0].1.as_ref().unwrap()["final"], true);
    assert_eq!(s.visible_items().as_deref(), Some(&[][..]));
    assert!(
        s.status.as_ref().unwrap().0.contains("no item left"),
        "{:?}",
        s.status
    );
    ch(&mut s, 'D');
    assert!(!s.queue);
    assert!(s.visible.is_none());
}

#[test]
fn a_fix_records_the_reason_the_reviewer_gives() {
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, 'f');
    typ(&mut s, " now");
    // Tab: the reason list, on the reason shown (the list's first before any fix)
    press(&mut s, KeyCode::Tab);
    assert!(
        s.mode.popup::<FixReason>().is_some_and(|f| f.selected == 0),
        "{:?}",
        s.mode
    );
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("Fix: why?"), "{out}");
    // the question was ungrammatical, not ambiguous: the reviewer says so
    let fx = ch(&mut s, '4');
    let r = recorded(&mut s, fx);
    let v = strip_time(&r[0].1);
    assert_eq!(v["reason"], "ungrammatical");
    assert_eq!(v["status"], "fix");
    assert!(v["fixed_question"].as_str().unwrap().ends_with(" now"));
}

/// With no earlier choice (no fix of this item, none in the undo history), a fix that
/// changes the answer shows, and saves with, `wrong-answer`; one that leaves the answer
/// as it was, the list's first (`ambiguous`). Before (since the fix popup's reason
/// line), `ambiguous` either way.
#[test]
fn a_first_fix_of_the_answer_defaults_to_wrong_answer() {
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, 'f');
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("reason: ambiguous"), "{out}");
    press(&mut s, KeyCode::Down);
    ctrl(&mut s, 'u');
    typ(&mut s, "7");
    for (w, h) in [(80, 24), (200, 50)] {
        let out = render_to_string(&s, w, h);
        assert!(out.contains("reason: wrong-answer"), "{w}x{h}\n{out}");
    }
    let fx = press(&mut s, KeyCode::Enter);
    let r = recorded(&mut s, fx);
    let v = strip_time(&r[0].1);
    assert_eq!(v["reason"], "wrong-answer", "{v}");
    assert_eq!(v["fixed_answer"], "7", "{v}");
    // The question alone: the list's first, as before.
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, 'f');
    typ(&mut s, " now");
    let fx = press(&mut s, KeyCode::Enter);
    let r = recorded(&mut s, fx);
    assert_eq!(strip_time(&r[0].1)["reason"], "ambiguous");
}

#[test]
fn blind_mode_hides_others_in_the_generic_json_too() {
    let (_d, mut s) = state_of(
        r#"{"id":"g","benchmark":"mmlu","question":"q","reviews":{"bob":{"at":"2026-11-01T10:00:00Z","verdict":"fail","note":"BOB-SAYS"}}}
"#,
    );
    assert!(render_to_string(&s, 80, 30).contains("BOB-SAYS"));
    ch(&mut s, 'b');
    let out = render_to_string(&s, 80, 30);
    assert!(!out.contains("BOB-SAYS"), "{out}");
    let fx = ch(&mut s, '1');
    recorded(&mut s, fx);
    assert!(render_to_string(&s, 80, 30).contains("BOB-SAYS"));
}

#[test]
fn blind_side_by_side_hides_the_judge_of_models_not_graded() {
    let (_d, mut s) = state_of(BLIND);
    ch(&mut s, 'b');
    let fx = ch(&mut s, 'x');
    recorded(&mut s, fx);
    let fx = ch(&mut s, '0');
    recorded(&mut s, fx);
    ch(&mut s, 'M');
    let out = render_to_string(&s, 200, 60);
    assert!(out.contains("JUDGE-A"), "model a is graded: {out}");
    assert!(!out.contains("JUDGE-B"), "model b is not: {out}");
}

#[test]
fn search_typed_before_the_index_is_ready_runs_when_it_arrives() {
    let (_d, p) = fixture("cvqa.jsonl");
    let store = Store::open(&p).unwrap();
    let meta = facts::index(&store, 2);
    let mut s = State::new(
        store,
        "carol".into(),
        Keymap::default(),
        ThemeName::Mono,
        clock(),
    );
    s.size = (80, 24);
    let mut fx = ch(&mut s, '/');
    for c in "flowers".chars() {
        fx.extend(ch(&mut s, c));
    }
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::Search { .. })),
        "no index yet: nothing to search"
    );
    let screen = render_to_string(&s, 80, 24);
    assert!(screen.contains("indexing"), "{screen}");
    let fx = s.update(Msg::Indexed {
        generation: 0,
        meta: meta.into(),
    });
    let Some(Effect::Search {
        seq,
        query,
        meta,
        within,
    }) = fx.into_iter().find(|e| matches!(e, Effect::Search { .. }))
    else {
        panic!("the query typed before the index was ready is run when it arrives")
    };
    assert_eq!(query, "flowers");
    s.update(Msg::SearchDone {
        seq,
        results: facts::search(&meta, &query, within.as_deref(), 10),
    });
    let Mode::Search(st) = &s.mode else { panic!() };
    assert_eq!(st.results, vec![2]);
}

#[test]
fn the_adjudication_queue_does_not_auto_advance() {
    let item = |id: &str| {
        format!(
            r#"{{"id":"{id}","benchmark":"cvqa","original":{{"question":"q","answer":"1"}},"counterfactual":{{"question":"c","answer":"2"}},"reviews":{{"ann":{{"status":"accept"}},"bob":{{"status":"reject","reason":"ambiguous"}}}}}}"#
        )
    };
    let (_d, mut s) = state_of(&format!("{}\n{}\n", item("x1"), item("x2")));
    s.auto_advance = true;
    ch(&mut s, 'D');
    assert_eq!(s.visible_items().as_deref(), Some(&[0usize, 1][..]));
    let fx = ch(&mut s, 'a');
    recorded(&mut s, fx);
    assert_eq!(s.pos, 0, "A comes next on this item");
    let fx = ch(&mut s, 'A');
    recorded(&mut s, fx);
    assert_eq!(s.pos, 1, "adjudicated: on to the next in the queue");
    assert_eq!(s.visible_items().as_deref(), Some(&[1usize][..]));
}

#[test]
fn generic_keys_and_adjudication_write_exactly_their_fields() {
    let (_d, mut s) = state("generic.jsonl");
    for (c, v) in [('1', "pass"), ('2', "fail"), ('3', "unsure")] {
        let fx = ch(&mut s, c);
        let r = recorded(&mut s, fx);
        assert_eq!(strip_time(&r[0].1), json!({ "verdict": v }));
    }
    let fx = ch(&mut s, 'A');
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1),
        json!({"final": true, "verdict": "unsure"})
    );
    let fx = ch(&mut s, 'A');
    let r = recorded(&mut s, fx);
    assert_eq!(strip_time(&r[0].1), json!({"verdict": "unsure"}));
    // undo and redo give back exactly the reviews before and after, times included
    let before = s.my_review(0);
    let fx = ch(&mut s, 'u');
    recorded(&mut s, fx);
    let fx = ctrl(&mut s, 'r');
    recorded(&mut s, fx);
    assert_eq!(s.my_review(0), before);
}

#[test]
fn help_and_summary_scroll_stop_at_their_end() {
    let (_d, mut s) = state("chartom.jsonl");
    ch(&mut s, '?');
    for _ in 0..30 {
        press(&mut s, KeyCode::PageDown);
    }
    let Mode::Help { scroll } = s.mode else {
        panic!()
    };
    let max = verdict::tui::draw::page_max_scroll(&s);
    assert!(max > 0);
    assert_eq!(scroll, max, "PgDn stops at the end of the help");
    let out = render_to_string(&s, 80, 24);
    assert!(
        out.contains("delete to start / end"),
        "the last line is on screen: {out}"
    );
    assert!(out.contains("▲ lines"), "{out}");
    press(&mut s, KeyCode::Esc);
    ch(&mut s, 's');
    summary_arrives(&mut s);
    for _ in 0..30 {
        ch(&mut s, 'j');
    }
    let Mode::Summary { scroll } = s.mode else {
        panic!()
    };
    assert_eq!(scroll, verdict::tui::draw::page_max_scroll(&s));
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("▲ lines"), "{out}");
}

#[test]
fn skipped_items_are_a_filter() {
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, 'n');
    ch(&mut s, 'S');
    assert!(s.skipped.contains(&1));
    toggle(&mut s, FilterOption::Skipped);
    assert_eq!(s.visible_items().as_deref(), Some(&[1usize][..]));
    ch(&mut s, 'F');
    assert_eq!(count_of(&s, FilterOption::Skipped), 1);
    assert_eq!(count_of(&s, FilterOption::Ungraded), 1);
}

#[test]
fn an_index_started_before_a_reload_is_dropped() {
    let (d, p) = fixture("cvqa.jsonl");
    let store = Store::open(&p).unwrap();
    let stale = facts::index(&store, 2);
    let mut s = State::new(
        store,
        "carol".into(),
        Keymap::default(),
        ThemeName::Mono,
        clock(),
    );
    s.size = (80, 24);
    // another program gives the first item another id: same number of items
    let orig = std::fs::read_to_string(&p).unwrap();
    let first = s.display_id(0);
    std::fs::write(&p, orig.replacen(&first, "renamed-elsewhere", 1)).unwrap();
    let fresh = Store::open(&p).unwrap();
    assert_eq!(fresh.len(), s.len());
    let fresh_meta = facts::index(&fresh, 2);
    let fx = support_state::reloaded(&mut s, fresh);
    // the new file's index comes with it: none asked
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::Index { .. })),
        "{fx:?}"
    );
    assert_eq!(**s.meta.as_ref().unwrap(), fresh_meta);
    // the index of the file as it was arrives late: dropped
    s.update(Msg::IndexProgress {
        generation: 0,
        done: 1,
        total: 4,
    });
    assert_eq!(
        s.index_progress,
        (s.len(), s.len()),
        "progress of the stale index"
    );
    s.update(Msg::Indexed {
        generation: 0,
        meta: stale.into(),
    });
    assert_eq!(
        s.meta.as_ref().unwrap().item_id(0),
        Some("renamed-elsewhere"),
        "the stale index was accepted"
    );
    drop(d);
}

#[test]
fn the_model_line_marks_only_models_that_require_grades() {
    let (d, p) = fixture("chartom.jsonl");
    // the second model gave no justification: nothing to grade
    let text = std::fs::read_to_string(&p).unwrap().replacen(
        r#", "justification": "The y-axis is truncated, exaggerating the change."}"#,
        "}",
        1,
    );
    std::fs::write(&p, text).unwrap();
    let mut s = state_at(&p);
    let out = render_to_string(&s, 120, 60);
    assert!(out.contains("·gpt-4o"), "{out}");
    assert!(!out.contains("✔llava") && !out.contains("·llava"), "{out}");
    let fx = ch(&mut s, '1');
    recorded(&mut s, fx);
    let out = render_to_string(&s, 120, 60);
    assert!(out.contains("✔gpt-4o"), "{out}");
    assert!(
        !out.contains("✔llava"),
        "no mark on a model without grades: {out}"
    );
    drop(d);
}

#[test]
fn the_footer_says_what_space_does_and_shows_no_bonus() {
    let out = screen("chartom-qa.jsonl", "", 240, 24);
    let footer = out.lines().nth(23).unwrap();
    assert!(footer.contains("x no bonus"), "{footer}");
    assert!(!footer.contains("ungraded"), "{footer}");
    let (_d, s) = state("chartom-qa.jsonl");
    let km = &s.keymap;
    let space = km.hint(s.context(), Action::NextUngraded);
    assert!(
        footer.contains(&format!(" {space} {} ", Action::NextUngraded.label())),
        "{footer}"
    );
    // every footer label is its action's label in the keymap
    for (k, label) in verdict::tui::draw::hint_parts(&s) {
        let from_keymap = Action::all()
            .into_iter()
            .any(|a| km.hint(s.context(), a) == k && a.label() == label);
        // a range of bonus-point keys ("1-3") is the one part that names several
        assert!(
            from_keymap
                || (k.contains('-') && label == Action::from_name("bonus_1").unwrap().label()),
            "{k} {label}: not from the keymap"
        );
    }
}

#[test]
fn suspect_answer_keys_are_a_filter() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("chartom.jsonl");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/samples/chartom.jsonl"),
        &p,
    )
    .unwrap();
    let mut s = state_at(&p);
    toggle(&mut s, FilterOption::Flag(Facet::SuspectKey));
    let ids: Vec<String> = s
        .visible_items()
        .unwrap()
        .into_iter()
        .map(|i| s.display_id(i))
        .collect();
    assert!(ids.contains(&"G14_Q1_2".to_string()), "{ids:?}");
    // the same items `verdict stats` lists
    let stats = verdict::stats::compute(&s.store);
    let listed: Vec<String> =
        serde_json::to_value(&stats).unwrap()["benchmarks"]["chartom"]["suspect_keys"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|x| x["id"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default();
    assert_eq!(ids, listed);
}

#[test]
fn search_results_of_the_file_before_a_reload_are_dropped() {
    let (d, mut s) = state("cvqa.jsonl");
    let p = d.path().join("cvqa.jsonl");
    let mut fx = ch(&mut s, '/');
    fx.extend(ch(&mut s, 'r'));
    let Some(Effect::Search { seq, .. }) =
        fx.into_iter().rfind(|e| matches!(e, Effect::Search { .. }))
    else {
        panic!("no search asked")
    };
    // another program adds an item first: every index moves
    let orig = std::fs::read_to_string(&p).unwrap();
    std::fs::write(
        &p,
        format!("{{\"id\":\"added\",\"benchmark\":\"cvqa\"}}\n{orig}"),
    )
    .unwrap();
    support_state::reloaded(&mut s, Store::open(&p).unwrap());
    ch(&mut s, '/');
    // the old search's answer (indices of the file before) arrives late
    s.update(Msg::SearchDone {
        seq,
        results: vec![0, 1],
    });
    let Mode::Search(st) = &s.mode else {
        panic!("search is open")
    };
    assert!(st.results.is_empty(), "stale results: {:?}", st.results);
}

#[test]
fn blind_mode_filters_and_summary_show_nothing_of_others() {
    let q = boolean_cvqa_item;
    let (_d, mut s) = state_of_lines(&[
        q(
            "a",
            json!({"alice": {"status": "fix", "fixed_question": "c2?"}}),
        ),
        q(
            "b",
            json!({"alice": {"status": "accept"}, "bob": {"status": "reject", "reason": "ambiguous"}}),
        ),
        q("c", json!({})),
    ]);
    ch(&mut s, 'b');
    assert!(s.blind);
    // Every row derived from others' verdicts or the judge is hidden: it selects and counts
    // nothing, and says so on screen.
    ch(&mut s, 'F');
    for o in [
        FilterOption::Disagreement,
        FilterOption::NeedsAdjudication,
        FilterOption::Adjudicated,
        FilterOption::ModelWrong,
        FilterOption::Reviewer("alice".into()),
    ] {
        assert!(s.filter_hidden(&o), "{o:?}");
        assert_eq!(count_of(&s, o.clone()), 0, "{o:?}");
    }
    let screen = render_to_string(&s, 80, 40);
    assert!(screen.contains("hidden"), "{screen}");
    // How many items others are done with is not shown either.
    assert!(!screen.contains("anyone"), "{screen}");
    // The verification rows count and select my verdicts only.
    for st in [CvqaStatus::Accept, CvqaStatus::Fix, CvqaStatus::Reject] {
        let o = FilterOption::Status(st.into());
        assert!(!s.filter_hidden(&o));
        assert_eq!(count_of(&s, o.clone()), 0, "{o:?}");
        assert!(s.filter_label(&o).ends_with("by me"));
    }
    press(&mut s, KeyCode::Esc);
    toggle(&mut s, FilterOption::Disagreement);
    assert!(!s.filter_active(&FilterOption::Disagreement));
    assert_eq!(s.visible, None);
    toggle(&mut s, FilterOption::Status(CvqaStatus::Fix.into()));
    assert_eq!(s.visible_items().as_deref(), Some(&[][..]));
    ch(&mut s, 'X');
    ch(&mut s, 'n');
    ch(&mut s, 'n');
    let fx = ch(&mut s, 'a');
    recorded(&mut s, fx);
    ch(&mut s, 'F');
    assert_eq!(
        count_of(&s, FilterOption::Status(CvqaStatus::Accept.into())),
        1
    );
    assert_eq!(
        count_of(&s, FilterOption::Status(CvqaStatus::Fix.into())),
        0
    );
    press(&mut s, KeyCode::Esc);
    toggle(&mut s, FilterOption::Status(CvqaStatus::Accept.into()));
    assert_eq!(s.visible_items().as_deref(), Some(&[2usize][..]));
    ch(&mut s, 'X');
    // The adjudication queue is others' disagreements: not in blind mode.
    ch(&mut s, 'D');
    assert!(!s.queue);
    // The summary holds the others' and the judge's figures: not in blind mode.
    let fx = ch(&mut s, 's');
    assert!(
        !fx.iter()
            .any(|e| matches!(e, Effect::ComputeSummary { .. }))
    );
    assert!(!matches!(s.mode, Mode::Summary { .. }));
    // Filters on others' verdicts that are on when blind mode starts are turned off; the
    // verification rows turn to my verdicts.
    ch(&mut s, 'b');
    toggle(&mut s, FilterOption::Reviewer("bob".into()));
    assert_eq!(s.visible_items().as_deref(), Some(&[1usize][..]));
    ch(&mut s, 'b');
    assert!(s.blind);
    assert!(!s.filter_active(&FilterOption::Reviewer("bob".into())));
    assert_eq!(s.visible, None);
    ch(&mut s, 'b');
    toggle(&mut s, FilterOption::Status(CvqaStatus::Fix.into()));
    assert_eq!(s.visible_items().as_deref(), Some(&[0usize][..]));
    ch(&mut s, 'b');
    assert!(s.filter_active(&FilterOption::Status(CvqaStatus::Fix.into())));
    assert_eq!(s.visible_items().as_deref(), Some(&[][..]));
}

/// A C-VQA boolean item with one model's response and these `reviews`.
fn boolean_cvqa_item(id: &str, reviews: Value) -> Value {
    json!({"id": id, "benchmark": "cvqa", "group": "boolean",
           "original": {"question": "q?", "answer": "yes"},
           "counterfactual": {"question": "c?", "answer": "no"},
           "responses": [{"model": "m", "original": "no", "counterfactual": "no"}],
           "reviews": reviews})
}

#[test]
fn anyone_counts_the_same_items_live_and_on_opening() {
    let q = boolean_cvqa_item;
    // A note alone, mine or another's, is not "done": it counts neither for me nor for
    // anyone, on opening as live.
    let (_d, mut s) = state_of_lines(&[
        q("a", json!({"alice": {"note": "look again"}})),
        q("b", json!({"alice": {"status": "accept"}})),
        q("c", json!({"carol": {"note": "mine"}})),
        q("d", json!({})),
    ]);
    let full = |s: &State| {
        let me = (0..s.len()).filter(|&i| s.graded_by_me(i)).count();
        let any = (0..s.len()).filter(|&i| s.graded_by_anyone(i)).count();
        (me, Some(any), s.len())
    };
    assert_eq!(s.progress(), (0, Some(1), 4));
    assert_eq!(s.progress(), full(&s));
    // A note on d, live: the same count as a file opened with it (c above).
    ch(&mut s, 'n');
    ch(&mut s, 'n');
    ch(&mut s, 'n');
    ch(&mut s, 'i');
    typ(&mut s, "hm");
    let fx = press(&mut s, KeyCode::Enter);
    assert_eq!(recorded(&mut s, fx).len(), 1);
    assert_eq!(s.progress(), (0, Some(1), 4));
    assert_eq!(s.progress(), full(&s));
}

#[test]
fn summary_progress_says_done_and_touched_apart() {
    let q = boolean_cvqa_item;
    let (_d, mut s) = state_of_lines(&[
        q("a", json!({"qa": {"note": "look again"}})),
        q("b", json!({"qa": {"status": "accept"}})),
        q("c", json!({"qa": {"note": "hm"}})),
    ]);
    s.size = (100, 60);
    ch(&mut s, 's');
    summary_arrives(&mut s);
    let out = render_to_string(&s, 100, 60);
    let row = out
        .lines()
        .find(|l| l.contains(" qa "))
        .unwrap_or_else(|| panic!("{out}"));
    // The status line's "me N" counts done items: the summary says the same number is
    // done, and the items touched (notes alone) apart.
    assert!(row.contains("1 done"), "{row}");
    assert!(row.contains("3 "), "{row}");
    assert!(row.contains("touched"), "{row}");
}

#[test]
fn blind_mode_shows_the_rule_grade_not_others_overrides() {
    let (_d, mut s) = state_of_lines(&[json!({
        "id": "G", "benchmark": "chartom",
        "fact": {"question": "Which?", "format": "choice", "options": ["Rent", "Food"], "key": 1},
        "responses": [{"model": "m", "fact": "Rent", "justification": "j"}],
        "reviews": {"alice": {"fact_correct": false, "justification": "partial"}}
    })]);
    let open = render_to_string(&s, 100, 40);
    assert!(open.contains("reviewers' override"), "{open}");
    ch(&mut s, 'b');
    let blind = render_to_string(&s, 100, 40);
    assert!(!blind.contains("override;"), "{blind}");
    assert!(blind.contains("(rule)"), "{blind}");
    let (_d, mut s) = state_of_lines(&[json!({
        "id": "c", "benchmark": "cvqa", "group": "boolean",
        "original": {"question": "q?", "answer": "yes"},
        "counterfactual": {"question": "c?", "answer": "no"},
        "responses": [{"model": "m", "original": "yes", "counterfactual": "no"}],
        "reviews": {"alice": {"status": "accept", "original_correct": false}}
    })]);
    ch(&mut s, 'b');
    let blind = render_to_string(&s, 100, 40);
    assert!(!blind.contains("override;"), "{blind}");
}

#[test]
fn grading_as_alice_did_is_no_disagreement_on_the_sample() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("chartom.jsonl");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/samples/chartom.jsonl"),
        &p,
    )
    .unwrap();
    let mut s = state_at(&p);
    ch(&mut s, 'F');
    let before = count_of(&s, FilterOption::Disagreement);
    let queue = count_of(&s, FilterOption::NeedsAdjudication);
    press(&mut s, KeyCode::Esc);
    ch(&mut s, ':');
    typ(&mut s, "G12_Q2_2");
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.display_id(s.pos), "G12_Q2_2");
    ch(&mut s, 'm');
    ch(&mut s, 'm');
    let fx = ch(&mut s, '2');
    assert_eq!(recorded(&mut s, fx).len(), 1);
    assert!(!s.needs_adjudication(s.pos));
    ch(&mut s, 'F');
    assert_eq!(count_of(&s, FilterOption::NeedsAdjudication), queue);
    assert_eq!(count_of(&s, FilterOption::Disagreement), before);
}

/// The `lines a–b of n` indicator on the screen, if any.
fn shown_lines(out: &str) -> Option<(u32, u32, u32)> {
    let at = out.find("lines ")?;
    let rest = &out[at + 6..];
    let (a, rest) = rest.split_once('–')?;
    let (b, rest) = rest.split_once(" of ")?;
    let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((a.parse().ok()?, b.parse().ok()?, n.parse().ok()?))
}

#[test]
fn page_keys_move_by_the_visible_page_and_skip_no_line() {
    for (name, keys, h) in [
        ("chartom.jsonl", "", 24),
        ("chartom.jsonl", "", 16),
        ("cvqa.jsonl", "D", 16),
    ] {
        let (_d, mut s) = state(name);
        s.size = (80, h);
        for c in keys.chars() {
            ch(&mut s, c);
        }
        let out = render_to_string(&s, 80, h);
        let Some(mut seen) = shown_lines(&out) else {
            panic!("{name}: the text should scroll at 80×{h}\n{out}");
        };
        let mut pages = 0;
        while seen.1 < seen.2 {
            press(&mut s, KeyCode::PageDown);
            let next = shown_lines(&render_to_string(&s, 80, h)).unwrap();
            assert!(
                next.0 <= seen.1 + 1 && next.0 > seen.0,
                "{name}: PgDn from {seen:?} to {next:?} skips lines"
            );
            seen = next;
            pages += 1;
            assert!(pages < 50);
        }
        while seen.0 > 1 {
            press(&mut s, KeyCode::PageUp);
            let prev = shown_lines(&render_to_string(&s, 80, h)).unwrap();
            assert!(
                prev.1 + 1 >= seen.0 && prev.0 < seen.0,
                "{name}: PgUp from {seen:?} to {prev:?} skips lines"
            );
            seen = prev;
        }
    }
}

#[test]
fn running_bpc_is_per_model_and_counts_the_files_grades() {
    use verdict::tui::views::chartom_qa::running_bpc;
    let (_d, mut s) = state("chartom-qa.jsonl");
    // gpt-4o covers 1 of 3 points, llama 3 of 3
    let fx = ch(&mut s, '1');
    recorded(&mut s, fx);
    ch(&mut s, 'm');
    for c in ['1', '2', '3'] {
        let fx = ch(&mut s, c);
        recorded(&mut s, fx);
    }
    assert_eq!(running_bpc(&s, "gpt-4o"), Some((1, 3)));
    assert_eq!(running_bpc(&s, "llama"), Some((3, 3)));
    ch(&mut s, 'M');
    let out = render_to_string(&s, 200, 60);
    assert!(out.contains("0.33 = 1/3"), "{out}");
    assert!(out.contains("1.00 = 3/3"), "{out}");
    // after a restart: my grades in the file count
    let (_d, s) = state_of_lines(&[json!({
        "id": "pp-1", "benchmark": "chartom-qa", "question": "How?", "answer": "Angry.",
        "bonus_points": ["anger", "surprise"],
        "responses": [{"model": "gpt-4o", "text": "She is angry."}],
        "reviews": {
            "carol": {"at": "2026-11-01T10:00:00Z", "bonus": [1], "penalty": null},
            "bob": {"at": "2026-11-01T10:00:00Z", "bonus": [1, 2], "penalty": null}
        }
    })]);
    assert_eq!(running_bpc(&s, "gpt-4o"), Some((1, 2)));
    assert!(render_to_string(&s, 80, 40).contains("0.50 = 1/2"));
}

#[test]
fn the_recorded_mark_stands_only_beside_what_is_recorded() {
    let (_d, mut s) = state("chartom.jsonl");
    let fx = ch(&mut s, '1');
    recorded(&mut s, fx);
    let row = |s: &State| {
        let out = render_to_string(s, 80, 24);
        out.lines()
            .find(|l| l.contains("My grade"))
            .unwrap_or_else(|| panic!("{out}"))
            .to_string()
    };
    assert!(row(&s).contains("✔ recorded"), "{}", row(&s));
    ch(&mut s, 'm');
    let r = row(&s);
    assert!(r.contains("not graded") && !r.contains("recorded"), "{r}");
    ch(&mut s, 'm');
    let fx = ch(&mut s, 'u');
    recorded(&mut s, fx);
    let r = row(&s);
    assert!(r.contains("not graded") && !r.contains("recorded"), "{r}");
}

#[test]
fn pace_counts_items_done_not_keypresses() {
    let (_d, mut s) = state("chartom.jsonl");
    for c in ['1', '2', '3', '1'] {
        s.clock.instant += Duration::from_secs(5);
        let fx = ch(&mut s, c);
        recorded(&mut s, fx);
    }
    assert_eq!(s.pace(), None, "item 1 is only partly graded");
    let item = |id: &str| {
        json!({"id": id, "benchmark": "mmlu", "question": "2+2?", "answer": "4",
               "responses": [{"model": "m", "text": "4"}]})
    };
    let (_d, mut s) = state_of_lines(&[item("a"), item("b"), item("c"), item("d")]);
    s.auto_advance = true;
    for id in ["a", "b", "c"] {
        assert_eq!(s.item().unwrap().id.as_deref(), Some(id));
        // a verdict 30 s after arriving (it moves on to the next item, auto-advance)
        s.clock.instant += Duration::from_secs(30);
        let fx = ch(&mut s, '1');
        recorded(&mut s, fx);
    }
    let (per_min, left) = s.pace().unwrap();
    assert!((per_min - 2.0).abs() < 1e-9, "{per_min}");
    assert!((left.unwrap() - 0.5).abs() < 1e-9, "{left:?}");
}

#[test]
fn another_reviewers_fixed_pair_is_shown_in_their_verdict() {
    let (_d, mut s) = state_of_lines(&[json!({
        "id": "real-00010", "benchmark": "cvqa", "image": "chart.png",
        "original": {"question": "How many plates?", "answer": "1"},
        "counterfactual": {"question": "How many if 2 more were added?", "answer": "2"},
        "responses": [{"model": "llava", "original": "1", "counterfactual": "3"}],
        "reviews": {"alice": {"at": "2026-11-01T10:00:00Z", "status": "fix",
                              "fixed_question": "How many if 6 more were added?",
                              "fixed_answer": "7"}}
    })]);
    let out = render_to_string(&s, 120, 50);
    let row = out
        .lines()
        .find(|l| l.contains("alice"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(row.contains("“7”") && row.contains("6 more"), "{row}");
    // blind: alice's verdict, fix included, stays hidden until I grade
    s.blind = true;
    let out = render_to_string(&s, 120, 50);
    assert!(!out.contains("6 more") && !out.contains("“7”"), "{out}");
}

#[test]
fn scroll_resets_on_a_view_change_and_stays_within_the_text() {
    use verdict::tui::draw::max_scroll;
    let (_d, mut s) = state("chartom.jsonl");
    s.size = (80, 16);
    press(&mut s, KeyCode::PageDown);
    assert!(s.scroll > 0);
    ch(&mut s, 'M');
    assert_eq!(s.scroll, 0, "side by side starts at the top");
    ch(&mut s, 'M');
    // a long note grows the text; undoing it shrinks it under the scroll position
    ch(&mut s, 'i');
    typ(&mut s, &"a long note that wraps ".repeat(40));
    let fx = press(&mut s, KeyCode::Enter);
    recorded(&mut s, fx);
    for _ in 0..20 {
        press(&mut s, KeyCode::PageDown);
    }
    let grown = s.scroll;
    let fx = ch(&mut s, 'u');
    recorded(&mut s, fx);
    assert!(
        s.scroll < grown && s.scroll <= max_scroll(&s),
        "{}",
        s.scroll
    );
    // so k moves the text at once
    let before = render_to_string(&s, 80, 16);
    ch(&mut s, 'k');
    assert_ne!(render_to_string(&s, 80, 16), before);
}

#[test]
fn keys_that_cannot_act_say_why() {
    // a single-model item: m and M have nothing to switch between
    let (_d, mut s) = state("generic.jsonl");
    for c in ['m', 'M'] {
        s.status = None;
        ch(&mut s, c);
        let st = s.status.clone().unwrap_or_else(|| panic!("{c}: silent"));
        assert!(st.0.contains("one response"), "{c}: {st:?}");
    }
    assert!(!s.side_by_side);
    // nothing to adjudicate: D stays out of the queue
    ch(&mut s, 'D');
    assert!(!s.queue);
    assert!(
        s.status
            .as_ref()
            .unwrap()
            .0
            .contains("no item to adjudicate"),
        "{:?}",
        s.status
    );
    assert!(!render_to_string(&s, 80, 24).contains("0/0"));
    // once final, the hint to mark it final goes
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, 'D');
    let hint = "marks your verdict as the final one";
    assert!(render_to_string(&s, 80, 60).contains(hint));
    let fx = ch(&mut s, 'a');
    recorded(&mut s, fx);
    let pos = s.pos;
    let fx = ch(&mut s, 'A');
    recorded(&mut s, fx);
    assert_eq!(s.pos, pos);
    assert!(s.my_review(pos).unwrap().is_final == Some(true));
    // the table still shows, but the verdict is final already: no hint to mark it
    let out = render_to_string(&s, 80, 60);
    assert!(out.contains("Adjudication") && !out.contains(hint), "{out}");
}

#[test]
fn small_screen_texts_read_whole() {
    // a status longer than the row takes the progress bar's row too: read whole, not
    // cut with an ellipsis (issue 19 item 13)
    let (_d, mut s) = state("generic.jsonl");
    s.status = Some((
        format!("{} unseen-tail", "word ".repeat(30)),
        verdict::tui::app::Level::Info,
    ));
    let out = render_to_string(&s, 80, 24);
    let row = out.lines().nth(23).unwrap();
    assert!(row.trim_end().ends_with("unseen-tail"), "{out}");
    assert!(
        out.lines().nth(22).unwrap().starts_with("word word"),
        "{out}"
    );
    // help: a long key name keeps a space before its description
    ch(&mut s, '?');
    let out = render_to_string(&s, 80, 200);
    assert!(out.contains("Alt-Bksp delete word"), "{out}");
    // CharToM-QA: the context key is among the footer's hints at 80 columns
    let (_d, s) = state("chartom-qa.jsonl");
    let out = render_to_string(&s, 80, 24);
    assert!(out.lines().nth(23).unwrap().contains(" c context"), "{out}");
}

#[test]
fn the_hmi_plot_names_the_models_it_plots() {
    let (_d, mut s) = state("chartom.jsonl");
    ch(&mut s, 's');
    summary_arrives(&mut s);
    let out = render_to_string(&s, 120, 50);
    let title = out
        .lines()
        .find(|l| l.contains("HMI ranking"))
        .unwrap_or_else(|| panic!("{out}"));
    // every model plotted: the title says so, the legend names each (issue 19 item 14)
    assert!(title.contains("each model's MIND prediction"), "{title}");
    for m in ["1 gpt-4o", "2 llava"] {
        assert!(out.contains(m), "{m}: {out}");
    }
}

#[test]
fn page_down_in_the_summary_skips_no_line() {
    let (_d, mut s) = state("chartom.jsonl");
    ch(&mut s, 's');
    summary_arrives(&mut s);
    // the page's 19 rows (at 80×24 the HMI plot is at the end of its lines)
    let rows = |s: &State| -> Vec<String> {
        let out = render_to_string(s, 80, 24);
        out.lines()
            .skip(2)
            .take(19)
            .map(|l| {
                l.trim_matches(|c: char| c == '│' || c.is_whitespace())
                    .to_string()
            })
            .collect()
    };
    let before = rows(&s);
    assert!(before.len() == 19, "{before:?}");
    press(&mut s, KeyCode::PageDown);
    let after = rows(&s);
    assert_ne!(after, before, "PgDn scrolls");
    assert_eq!(
        after[0], before[18],
        "the last row stays in view: {after:?}"
    );
}

/// The fix popup on the first item (real `direct`), the answer field emptied.
fn fix_with_empty_answer(s: &mut State) {
    ch(s, 'f');
    press(s, KeyCode::Down);
    for _ in 0..20 {
        press(s, KeyCode::Backspace);
    }
}

#[test]
fn a_fix_with_an_empty_answer_alone_records_nothing() {
    let (_d, mut s) = state("cvqa.jsonl");
    fix_with_empty_answer(&mut s);
    let fx = press(&mut s, KeyCode::Enter);
    assert!(recorded(&mut s, fx).is_empty());
    assert_eq!(s.mode, Mode::Normal, "no reason asked: nothing to fix");
    let (msg, _) = s.status.clone().expect("the status says why");
    assert!(msg.contains("empty"), "{msg}");
    // whitespace only is empty too, and so is an emptied question
    ch(&mut s, 'f');
    for _ in 0..200 {
        press(&mut s, KeyCode::Backspace);
    }
    typ(&mut s, "   ");
    let fx = press(&mut s, KeyCode::Enter);
    assert!(recorded(&mut s, fx).is_empty());
    assert_eq!(s.mode, Mode::Normal);
}

#[test]
fn an_empty_answer_beside_a_fixed_question_is_not_a_fixed_answer() {
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, 'f');
    typ(&mut s, " now");
    press(&mut s, KeyCode::Down);
    for _ in 0..20 {
        press(&mut s, KeyCode::Backspace);
    }
    press(&mut s, KeyCode::Tab);
    assert!(s.mode.popup::<FixReason>().is_some(), "{:?}", s.mode);
    let fx = ch(&mut s, '1');
    let r = recorded(&mut s, fx);
    let v = strip_time(&r[0].1);
    assert!(v["fixed_question"].as_str().unwrap().ends_with(" now"));
    assert!(v.get("fixed_answer").is_none(), "{v}");
    assert_eq!(v["answer_ok"], true, "{v}");
    let out = render_to_string(&s, 80, 24);
    assert!(!out.contains("Fixed answer:"), "{out}");
}

#[test]
fn a_fixed_answer_check_would_warn_about_is_warned_in_the_popup() {
    let (_d, mut s) = state("cvqa.jsonl");
    fix_with_empty_answer(&mut s);
    typ(&mut s, "6 wings");
    press(&mut s, KeyCode::Enter);
    assert!(s.mode.popup::<FixReason>().is_some(), "{:?}", s.mode);
    let (msg, level) = s.status.clone().expect("a warning");
    assert!(msg.contains("not a whole number in digits"), "{msg}");
    assert_eq!(level, Level::Warn);
    let out = render_to_string(&s, 100, 24);
    assert!(
        out.contains("not a whole number"),
        "shown beside the popup: {out}"
    );
    // the reviewer may still confirm: it is their verdict
    let fx = press(&mut s, KeyCode::Enter);
    let r = recorded(&mut s, fx);
    assert_eq!(strip_time(&r[0].1)["fixed_answer"], "6 wings");
    // a whole number is not warned about: Enter saves it with the reason shown
    ch(&mut s, 'p');
    s.status = None;
    fix_with_empty_answer(&mut s);
    typ(&mut s, "12");
    let fx = press(&mut s, KeyCode::Enter);
    assert_eq!(s.mode, Mode::Normal);
    assert_eq!(recorded(&mut s, fx).len(), 1);
    assert!(
        s.status.as_ref().is_none_or(|(_, l)| *l != Level::Warn),
        "{:?}",
        s.status
    );
}

#[test]
fn a_note_keeps_the_skip_of_a_finished_item() {
    let (_d, mut s) = state("cvqa.jsonl");
    let fx = ch(&mut s, 'r');
    recorded(&mut s, fx);
    let fx = ch(&mut s, '1');
    recorded(&mut s, fx);
    ch(&mut s, 'p');
    ch(&mut s, 'S');
    ch(&mut s, 'p');
    assert!(s.is_skipped(0));
    assert!(render_to_string(&s, 80, 24).contains("skipped"));
    ch(&mut s, 'i');
    typ(&mut s, "n1");
    let fx = press(&mut s, KeyCode::Enter);
    assert!(!recorded(&mut s, fx).is_empty(), "the note is recorded");
    assert!(s.is_skipped(0), "a note does not clear a skip");
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("· skipped"), "{out}");
}

#[test]
fn grading_a_skipped_item_done_says_the_skip_is_cleared() {
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, 'S');
    assert!(s.is_skipped(0));
    ch(&mut s, 'p');
    let fx = ch(&mut s, 'r');
    recorded(&mut s, fx);
    let fx = ch(&mut s, '1');
    recorded(&mut s, fx);
    assert!(!s.is_skipped(0));
    let (msg, _) = s.status.clone().unwrap();
    assert!(msg.contains("skip cleared"), "{msg}");
}

#[test]
fn the_generic_json_shows_the_review_just_recorded() {
    let (_d, mut s) = state_of(
        r#"{"id":"g","benchmark":"mmlu","question":"q"}
"#,
    );
    ch(&mut s, 'i');
    typ(&mut s, "MY-NOTE");
    let fx = press(&mut s, KeyCode::Enter);
    recorded(&mut s, fx);
    let out = render_to_string(&s, 80, 30);
    assert!(out.contains("\"carol\""), "{out}");
    assert!(s.raw_shown().contains("MY-NOTE"), "{}", s.raw_shown());
    // undone: gone again, as the file will have it
    let fx = ch(&mut s, 'u');
    recorded(&mut s, fx);
    assert_eq!(
        serde_json::from_str::<Value>(&s.raw_shown()).unwrap(),
        json!({"id":"g","benchmark":"mmlu","question":"q"})
    );
    // blind mode keeps others out but shows mine
    let (_d, mut s) = state_of(
        r#"{"id":"g","benchmark":"mmlu","question":"q","reviews":{"bob":{"at":"2026-11-01T10:00:00Z","verdict":"fail","note":"BOB-SAYS"}}}
"#,
    );
    ch(&mut s, 'b');
    ch(&mut s, 'i');
    typ(&mut s, "MY-NOTE");
    let fx = press(&mut s, KeyCode::Enter);
    recorded(&mut s, fx);
    let raw = s.raw_shown();
    assert!(
        raw.contains("MY-NOTE") && !raw.contains("BOB-SAYS"),
        "{raw}"
    );
}

#[test]
fn an_empty_fixed_answer_in_the_file_is_shown_as_empty() {
    let (_d, s) = state_of_lines(&[json!({
        "id": "real-00010", "benchmark": "cvqa", "image": "chart.png",
        "original": {"question": "How many plates?", "answer": "1"},
        "counterfactual": {"question": "How many if 2 more were added?", "answer": "2"},
        "responses": [{"model": "llava", "original": "1", "counterfactual": "3"}],
        "reviews": {"alice": {"at": "2026-11-01T10:00:00Z", "status": "fix",
                              "fixed_answer": " ", "reason": "wrong-answer"}}
    })]);
    let out = render_to_string(&s, 120, 50);
    let row = out
        .lines()
        .find(|l| l.contains("alice"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(row.contains("fixed answer (empty)"), "{row}");
}

#[test]
fn undoing_the_grading_that_cleared_a_skip_skips_the_item_again() {
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, 'S');
    ch(&mut s, 'p');
    let fx = ch(&mut s, 'r');
    recorded(&mut s, fx);
    let fx = ch(&mut s, '1');
    recorded(&mut s, fx);
    assert!(!s.is_skipped(0));
    let fx = ch(&mut s, 'u');
    recorded(&mut s, fx);
    assert_eq!(s.pos, 0);
    assert!(s.is_skipped(0), "the skip comes back with the undo");
    // redone: cleared again, and said
    let fx = ctrl(&mut s, 'r');
    recorded(&mut s, fx);
    assert!(!s.is_skipped(0));
    let (msg, _) = s.status.clone().unwrap();
    assert!(msg.contains("skip cleared"), "{msg}");
}

#[test]
fn the_filter_menu_names_and_takes_the_live_clear_key() {
    let (_d, p) = fixture("cvqa.jsonl");
    let mut s = state_at(&p);
    let mut km = Keymap::default();
    let mut cfg = std::collections::BTreeMap::new();
    cfg.insert("clear_filters".to_string(), vec!["Z".to_string()]);
    assert!(km.apply_config(&cfg).is_empty());
    s.keymap = km;
    ch(&mut s, 'F');
    let out = render_to_string(&s, 80, 24);
    let footer = out.lines().nth(23).unwrap();
    assert!(
        footer.contains("Enter toggle") && footer.contains("Z clear"),
        "the footer names what the menu's keys do: {footer}"
    );
    assert!(out.contains("Z clears"), "{out}");
    press(&mut s, KeyCode::Enter);
    assert!(!s.filters.is_empty(), "a filter is on");
    ch(&mut s, 'Z');
    assert!(s.filters.is_empty(), "the remapped key clears the filters");
}

// ----- lm-evaluation-harness samples -----------------------------------------------------

/// The state on a copy of an lm-eval sample file, in the model's folder as lm_eval
/// writes it.
/// The summary the reviewer asked for arrives: computed from the file as it is now, and
/// answering the latest request.
fn summary_arrives(s: &mut State) {
    let v = verdict::tui::summary::compute(&s.store);
    s.update(Msg::Summary {
        seq: s.summary.seq(),
        result: Ok(v),
    });
}

fn lm_eval_state(task_file: &str) -> (tempfile::TempDir, State) {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("example__tiny-llama-1b");
    std::fs::create_dir(&dir).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/samples/lm-eval/example__tiny-llama-1b")
        .join(task_file);
    let p = dir.join(task_file);
    std::fs::copy(src, &p).unwrap();
    let s = state_at(&p);
    (d, s)
}

const LM_GSM8K: &str = "samples_gsm8k_2026-11-20T10-15-42.518246.jsonl";
const LM_ARC: &str = "samples_arc_easy_2026-11-20T10-15-42.518246.jsonl";

#[test]
fn screens_of_lm_eval_samples() {
    for (w, h) in [(80u16, 24u16), (200, 50)] {
        for (file, keys, label) in [
            (LM_GSM8K, "", "lm_eval_gsm8k"),
            (LM_ARC, "", "lm_eval_arc_easy"),
            (LM_ARC, "n3", "lm_eval_arc_easy_ambiguous"),
        ] {
            let (_d, mut s) = lm_eval_state(file);
            s.size = (w, h);
            for c in keys.chars() {
                ch(&mut s, c);
            }
            let out = render_to_string(&s, w, h);
            insta::assert_snapshot!(format!("{label}_{w}x{h}"), out);
        }
    }
}

#[test]
fn lm_eval_verdict_keys_write_correct_incorrect_ambiguous_key() {
    let (_d, mut s) = lm_eval_state(LM_GSM8K);
    for (c, v) in [('1', "correct"), ('2', "incorrect"), ('3', "ambiguous-key")] {
        let fx = ch(&mut s, c);
        let r = recorded(&mut s, fx);
        assert_eq!(r[0].1.as_ref().unwrap()["verdict"], json!(v), "key {c}");
    }
}

#[test]
fn the_help_names_the_verdicts_the_keys_write_on_an_lm_eval_sample() {
    let (_d, mut s) = lm_eval_state(LM_ARC);
    s.size = (80, 50);
    ch(&mut s, '?');
    let out = render_to_string(&s, 80, 50);
    for v in [
        "verdict: correct",
        "verdict: incorrect",
        "verdict: ambiguous-key",
    ] {
        assert!(out.contains(v), "{v}: {out}");
    }
    assert!(!out.contains("verdict: pass"), "{out}");
    assert!(!out.contains("Other benchmarks"), "{out}");
    // on another benchmark's item the help is as it was
    let (_d, mut s) = state("generic.jsonl");
    s.size = (80, 50);
    ch(&mut s, '?');
    let out = render_to_string(&s, 80, 50);
    assert!(
        out.contains("verdict: pass") && out.contains("Other benchmarks"),
        "{out}"
    );
}

#[test]
fn a_summary_computed_before_a_reload_is_not_shown_after_it() {
    let (d, mut s) = state("cvqa.jsonl");
    let p = d.path().join("cvqa.jsonl");
    let old = s.summary.seq();
    let fx = ch(&mut s, 's');
    assert!(
        fx.contains(&Effect::ComputeSummary { seq: old + 1 }),
        "{fx:?}"
    );
    let before = verdict::tui::summary::compute(&s.store);
    // another program changes the file before the summary's answer arrives
    let orig = std::fs::read_to_string(&p).unwrap();
    std::fs::write(
        &p,
        format!("{{\"id\":\"added\",\"benchmark\":\"cvqa\"}}\n{orig}"),
    )
    .unwrap();
    let fx = support_state::reloaded(&mut s, Store::open(&p).unwrap());
    // the summary on screen asks for the file's figures again
    assert!(matches!(s.mode, Mode::Summary { .. }));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::ComputeSummary { .. })),
        "{fx:?}"
    );
    s.update(Msg::Summary {
        seq: old + 1,
        result: Ok(before),
    });
    assert_eq!(s.summary.get(), None, "the old file's figures were shown");
    // the answer to the request made after the reload is shown
    let now = verdict::tui::summary::compute(&s.store);
    s.update(Msg::Summary {
        seq: old + 2,
        result: Ok(now),
    });
    assert!(matches!(s.summary.get(), Some(Ok(_))));
}

#[test]
fn the_summary_opened_again_does_not_show_the_old_figures() {
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, 's');
    summary_arrives(&mut s);
    assert!(s.summary.get().is_some());
    press(&mut s, KeyCode::Esc);
    ch(&mut s, 's');
    // until the new figures arrive, "computing…", not the figures of before
    assert_eq!(s.summary.get(), None);
}

#[test]
fn filter_counts_follow_verdicts_undo_and_skips() {
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, 'F');
    let mine = count_of(&s, FilterOption::GradedByMe);
    let skipped = count_of(&s, FilterOption::Skipped);
    press(&mut s, KeyCode::Esc);
    let fx = ch(&mut s, 'a');
    recorded(&mut s, fx);
    ch(&mut s, 'F');
    assert_eq!(count_of(&s, FilterOption::GradedByMe), mine + 1);
    press(&mut s, KeyCode::Esc);
    let fx = ch(&mut s, 'u');
    recorded(&mut s, fx);
    ch(&mut s, 'F');
    assert_eq!(count_of(&s, FilterOption::GradedByMe), mine);
    press(&mut s, KeyCode::Esc);
    ch(&mut s, 'S');
    ch(&mut s, 'F');
    assert_eq!(count_of(&s, FilterOption::Skipped), skipped + 1);
    press(&mut s, KeyCode::Esc);
}

#[test]
fn filter_counts_kept_across_toggles_equal_counts_made_afresh() {
    let (d, mut s) = state("cvqa.jsonl");
    let rows = s.filter_options();
    let models: Vec<FilterOption> = rows
        .iter()
        .filter(|o| matches!(o, FilterOption::Model(_)))
        .cloned()
        .collect();
    let groups: Vec<FilterOption> = rows
        .iter()
        .filter(|o| matches!(o, FilterOption::Facet(Facet::Group, _)))
        .cloned()
        .collect();
    assert!(!models.is_empty() && !groups.is_empty());
    let mut steps = vec![
        FilterOption::ModelWrong,
        models[0].clone(),
        groups[0].clone(),
    ];
    steps.extend(models.iter().skip(1).cloned());
    steps.push(FilterOption::Ungraded);
    steps.push(models[0].clone());
    steps.push(FilterOption::ModelWrong);
    steps.push(groups[0].clone());
    for o in steps {
        toggle(&mut s, o.clone());
        ch(&mut s, 'F');
        let kept = s.filter_counts.clone();
        press(&mut s, KeyCode::Esc);
        // the same filters on a session that counts them for the first time
        let store = Store::open(d.path().join("cvqa.jsonl")).unwrap();
        let meta = facts::index(&store, 2);
        let mut fresh = State::new(
            store,
            "carol".into(),
            Keymap::default(),
            ThemeName::Mono,
            clock(),
        );
        fresh.filters = s.filters.clone();
        fresh.update(Msg::Indexed {
            generation: 0,
            meta: meta.into(),
        });
        assert_eq!(kept, fresh.filter_counts, "after toggling {o:?}");
        press(&mut s, KeyCode::Esc);
    }
}

/// The summary puts each filter's harness metric next to the human-corrected one: gsm8k
/// strict-match scores 1, 0, 0, 0, 0 (20%); doc 1 marked correct: 40%.
#[test]
fn the_summary_of_lm_eval_samples_shows_the_harness_and_the_corrected_metric() {
    let (d, _) = lm_eval_state(LM_GSM8K);
    let p = d.path().join("example__tiny-llama-1b").join(LM_GSM8K);
    let text: String = std::fs::read_to_string(&p)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            if v["doc_id"] == 1 && v["filter"] == "strict-match" {
                v["reviews"] = json!({"ann": {"at": "2026-01-01T00:00:00Z", "verdict": "correct"}});
            }
            format!("{v}\n")
        })
        .collect();
    std::fs::write(&p, text).unwrap();
    let mut s = state_at(&p);
    for (w, h) in [(80u16, 24u16), (200, 50)] {
        s.size = (w, h);
        s.mode = Mode::Normal;
        let fx = ch(&mut s, 's');
        assert!(fx.contains(&Effect::ComputeSummary {
            seq: s.summary.seq()
        }));
        summary_arrives(&mut s);
        let out = render_to_string(&s, w, h);
        let at = out
            .lines()
            .position(|l| l.contains("strict-match · exact_match · n=5 · reviewed 1"))
            .unwrap_or_else(|| panic!("{out}"));
        let row: Vec<&str> = out
            .lines()
            .nth(at + 1)
            .unwrap()
            .split_whitespace()
            .collect();
        let row = row.join(" ");
        assert!(
            // the harness's 4 decimals
            row.contains("harness 0.2000") && row.contains("corrected 0.4000"),
            "{row}"
        );
        insta::assert_snapshot!(format!("summary_lm_eval_gsm8k_{w}x{h}"), out);
    }
}

/// lm-eval samples are known by their shape, never by a `benchmark` name: a result-set
/// line that names `"lm-eval"` is an unknown benchmark, shown and graded with the generic
/// view, and `1` writes the `pass` the screen says (it wrote `correct` under a screen
/// that said `1 pass`).
#[test]
fn a_line_that_names_lm_eval_is_graded_as_the_screen_says() {
    let d = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/samples/lm-eval/example__tiny-llama-1b")
        .join(LM_GSM8K);
    let first = std::fs::read_to_string(src).unwrap();
    let first = first.lines().next().unwrap();
    let line = first.replacen('{', "{\"benchmark\": \"lm-eval\", ", 1);
    let p = d.path().join("named.jsonl");
    std::fs::write(&p, format!("{line}\n")).unwrap();
    let mut s = state_at(&p);
    s.size = (80, 24);
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("1 pass"), "{out}");
    assert!(!out.contains("1 correct"), "{out}");
    let fx = ch(&mut s, '1');
    let r = recorded(&mut s, fx);
    assert_eq!(r[0].1.as_ref().unwrap()["verdict"], json!("pass"));
}

#[test]
fn a_search_with_more_matches_than_it_lists_does_not_count_them_as_all() {
    let lines: String = (0..700)
        .map(|k| {
            format!("{{\"id\":\"i{k}\",\"benchmark\":\"other\",\"question\":\"How many {k}?\"}}\n")
        })
        .collect();
    let (_d, mut s) = state_of(&lines);
    let title = |s: &State| {
        render_to_string(s, 100, 30)
            .lines()
            .find(|l| l.contains("Search ids"))
            .expect("the search popup")
            .to_string()
    };
    // 700 items match; the list holds the best 500 of them
    type_answering_search(&mut s, "/how");
    let t = title(&s);
    assert!(!t.contains("· 500 matches"), "{t}");
    assert!(t.contains("best 500"), "{t}");
    // fewer than that: the count is every match
    type_answering_search(&mut s, " 69");
    let all = facts::search(s.meta.as_ref().unwrap(), "how 69", None, 10_000).len();
    assert!(all > 1 && all < facts::SEARCH_SHOWN, "{all}");
    let t = title(&s);
    assert!(t.contains(&format!(" {all} matches")), "{t}");
}

// ----- lm-eval logs written by lm_eval 0.4.13 (tests/fixtures/real-logs/README.md) ------

const REAL_DATE: &str = "2026-11-26T19-41-47.622322";

/// The state on `task`'s samples in a copy of the run's folder (its results file beside).
fn real_lm_state(task: &str) -> (tempfile::TempDir, State) {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("example__fixed-1b");
    std::fs::create_dir(&dir).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real-logs/lm-eval/out/example__fixed-1b");
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
    }
    let s = state_at(&dir.join(format!("samples_{task}_{REAL_DATE}.jsonl")));
    (d, s)
}

/// The key on screen is the harness's: `vr_pick`'s target `"2"` is the choice whose text
/// is 2 (index 1), where acc's pick is; `vr_multi` marks both correct choices; a
/// loglikelihood line shows is_greedy, not a pick; repeats are apart.
#[test]
fn screens_of_real_lm_eval_logs() {
    for (task, keys) in [
        ("vr_pick", ""),
        ("vr_multi", ""),
        ("vr_cloze", "nn"),
        ("vr_prose", ""),
        ("vr_arith", ""),
    ] {
        let (_d, mut s) = real_lm_state(task);
        s.size = (80, 24);
        for c in keys.chars() {
            ch(&mut s, c);
        }
        let out = render_to_string(&s, 80, 24);
        let keyed: Vec<&str> = out
            .lines()
            .filter(|l| l.trim_start_matches('│').starts_with("  *") || l.contains(">~*"))
            .collect();
        match task {
            "vr_pick" => {
                assert!(
                    out.contains("2  → 1. 2  (read as a choice's text)"),
                    "{out}"
                );
                assert_eq!(keyed.len(), 1, "{out}");
                assert!(keyed[0].contains(">~* 1. 2"), "{out}");
            }
            "vr_multi" => {
                let marked = out
                    .lines()
                    .filter(|l| l.contains("* 0. red") || l.contains("* 2. green"))
                    .count();
                assert_eq!(marked, 2, "{out}");
            }
            "vr_cloze" => {
                assert!(out.contains("is_greedy: False"), "{out}");
                assert!(!out.contains("Choices"), "{out}");
            }
            "vr_arith" => assert!(out.contains("── repeat 2 of 3 ──"), "{out}"),
            _ => assert!(out.contains("does not change these figures"), "{out}"),
        }
        insta::assert_snapshot!(format!("real_lm_eval_{task}_80x24"), out);
    }
}

/// Rolling-perplexity samples (issue 34 case 8): no figure uses a correct / incorrect
/// verdict, so they are not work to do (progress, `Space`) and a verdict key says why
/// and records nothing; a note is still kept.
#[test]
fn rolling_perplexity_samples_are_not_work_to_do() {
    let (_d, mut s) = real_lm_state("vr_prose");
    assert_eq!(s.len(), 3);
    assert_eq!(s.progress().2, 0, "nothing here needs a grade");
    ch(&mut s, ' ');
    assert_eq!(s.pos, 0, "Space stops at no rolling sample");
    let fx = ch(&mut s, '1');
    assert!(recorded(&mut s, fx).is_empty(), "no verdict recorded");
    let said = s.status.as_ref().map(|x| x.0.clone()).unwrap_or_default();
    assert!(
        said.contains("no figure") && said.contains("note"),
        "{said}"
    );
}

/// The filter menu offers lm-eval's filters: strict-match shows that filter's 4 lines.
#[test]
fn the_filter_menu_has_lm_evals_filters() {
    let (_d, mut s) = real_lm_state("vr_arith");
    let rows: Vec<FilterOption> = s
        .filter_options()
        .into_iter()
        .filter(|o| matches!(o, FilterOption::Facet(Facet::LmEvalFilter, _)))
        .collect();
    assert_eq!(
        rows,
        [
            FilterOption::Facet(Facet::LmEvalFilter, "flexible-extract".into()),
            FilterOption::Facet(Facet::LmEvalFilter, "strict-match".into())
        ]
    );
    toggle(
        &mut s,
        FilterOption::Facet(Facet::LmEvalFilter, "strict-match".into()),
    );
    assert_eq!(s.visible_items().as_deref(), Some(&[0usize, 1, 2, 3][..]));
    assert_eq!(s.filters.describe(), "filter strict-match");
}

/// Issue 16, item 6: after another reviewer's save the session reads the file again; my
/// finished items, the one on screen included, must still count as mine and done (the
/// progress line, the filter menu, `Space`, the exit message), with a verdict still
/// unacknowledged too.
#[test]
fn my_finished_items_stay_done_after_a_colleagues_save() {
    let item = |i: usize| {
        json!({"id": format!("g{i}"), "benchmark": "other", "question": format!("{i}?"),
               "responses": [{"model": "m", "text": "x"}]})
    };
    let (d, mut s) = state_of_lines(&(0..10).map(item).collect::<Vec<_>>());
    let p = d.path().join("set.jsonl");
    let fx = ch(&mut s, '1');
    recorded(&mut s, fx);
    ch(&mut s, 'n');
    // my second verdict, not yet acknowledged when the file is read again
    let fx = ch(&mut s, '1');
    assert_eq!(s.progress().0, 2);
    // bob saved: the worker's store is the file with his verdict and my journal's
    let mut fresh = Store::open(&p).unwrap();
    fresh
        .set_review(5, "bob", Some(json!({"verdict": "pass"})))
        .unwrap();
    for i in [0, 1] {
        let v = s.my_review(i).map(|r| serde_json::to_value(r).unwrap());
        fresh.set_review(i, "carol", v).unwrap();
    }
    let reload = support_state::reloaded(&mut s, fresh);
    assert_eq!(s.progress().0, 2, "right after the reload");
    recorded(&mut s, fx);
    assert_eq!(s.progress().0, 2, "after the acknowledgement");
    // the new file's index came with it
    assert!(!reload.iter().any(|e| matches!(e, Effect::Index { .. })));
    assert_eq!(**s.meta.as_ref().unwrap(), facts::index(&s.store, 2));
    assert_eq!(s.progress(), (2, Some(3), 10), "with the new index");
    // `Space` goes to the next item I have not finished, not back to one I did
    ch(&mut s, 'g');
    ch(&mut s, ' ');
    assert_eq!(s.display_id(s.pos), "g2");
    let done = s.rec.mine_done.values().filter(|d| **d).count();
    assert_eq!(done, 2, "the exit message's count");
}

/// Issue 16, item 5, live: another program adds a line above items without an id (every
/// lm-eval sample line); the screen must show my verdict on the item I graded, not on the
/// one that took its place, and stay on the item I was reading.
#[test]
fn my_verdict_on_an_item_without_id_follows_it_when_lines_are_added_above() {
    let item = |q: &str| json!({"benchmark": "other", "question": q, "responses": [{"model": "m", "text": "x"}]});
    let (d, mut s) = state_of_lines(&[item("a"), item("b"), item("c")]);
    let p = d.path().join("set.jsonl");
    ch(&mut s, 'n');
    ch(&mut s, 'n');
    let fx = ch(&mut s, '1');
    let rec = recorded(&mut s, fx);
    assert_eq!(rec.len(), 1);
    let orig = std::fs::read_to_string(&p).unwrap();
    std::fs::write(&p, format!("{}\n{orig}", item("new"))).unwrap();
    let mut fresh = Store::open(&p).unwrap();
    fresh.set_review(3, "carol", rec[0].1.clone()).unwrap();
    support_state::reloaded(&mut s, fresh);
    assert_eq!(s.pos, 3, "still on c");
    assert!(s.my_review(3).is_some(), "my verdict is on c");
    assert!(s.my_review(2).is_none(), "not on b");
    // a verdict given now names c's content
    let fx = ch(&mut s, '2');
    let key = fx.iter().find_map(|e| match e {
        Effect::Record { item, content, .. } => Some((
            *item,
            content
                .as_ref()
                .and_then(verdict::store::ItemText::as_str)
                .and_then(verdict::session::content_key_of),
        )),
        _ => None,
    });
    assert_eq!(key, Some((3, verdict::session::content_key(&s.store, 3))));
}

/// Issue 19, item 14: a fix with reason 5 "other" asked for no words (reject does): it
/// is recorded only with the reviewer's few words, as `reason_text`.
#[test]
fn a_fix_for_another_reason_asks_why_in_a_few_words() {
    let (_d, mut s) = state("cvqa.jsonl");
    ch(&mut s, 'f');
    press(&mut s, KeyCode::Down);
    press(&mut s, KeyCode::Backspace);
    ch(&mut s, 'B');
    press(&mut s, KeyCode::Tab);
    let fx = ch(&mut s, '5');
    assert!(fx.is_empty(), "nothing recorded before the words: {fx:?}");
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("Fix, other: why"), "{out}");
    // no words: refused, still asking
    let fx = press(&mut s, KeyCode::Enter);
    assert!(fx.is_empty());
    assert!(
        s.status
            .as_ref()
            .is_some_and(|(m, _)| m.contains("say why"))
    );
    typ(&mut s, "unit missing");
    let fx = press(&mut s, KeyCode::Enter);
    let r = recorded(&mut s, fx);
    assert_eq!(
        strip_time(&r[0].1),
        json!({"status": "fix", "image_related": true, "answer_ok": false, "fixed_answer": "B", "reason": "other", "reason_text": "unit missing"})
    );
}

#[test]
fn the_kept_index_takes_the_built_ones_place_and_changes_nothing_shown() {
    let (d, mut s) = state("cvqa.jsonl");
    // a twin session that keeps the built index, for what follows
    let mut twin = state_at(&d.path().join("cvqa.jsonl"));
    // a verdict of this session and a filter on, before the kept index arrives
    for s in [&mut s, &mut twin] {
        let fx = ch(s, 'a');
        recorded(s, fx);
        toggle(s, FilterOption::ModelWrong);
    }
    ch(&mut s, 'F');
    let counts = s.filter_counts.clone();
    press(&mut s, KeyCode::Esc);
    let (visible, pos, progress) = (s.visible.clone(), s.pos, s.progress());
    assert!(visible.is_some());
    let built = s.meta.clone().unwrap();
    assert!(!built.texts_in_place());
    // the same index as the data folder keeps it, used in place
    let store = Store::open(d.path().join("cvqa.jsonl")).unwrap();
    let stamp = store.stamp_text().unwrap();
    let kept: std::sync::Arc<facts::Index> = facts::cache::decode_bytes(
        facts::cache::encode(&built, &store, &stamp),
        &stamp,
        &facts::cache::told(&store),
    )
    .unwrap()
    .into();
    assert!(kept.texts_in_place());
    // for another generation (the file read again since): dropped
    s.update(Msg::IndexKept {
        generation: s.index_generation + 1,
        meta: kept.clone(),
    });
    assert!(std::sync::Arc::ptr_eq(s.meta.as_ref().unwrap(), &built));
    s.update(Msg::IndexKept {
        generation: s.index_generation,
        meta: kept.clone(),
    });
    assert!(std::sync::Arc::ptr_eq(s.meta.as_ref().unwrap(), &kept));
    assert_eq!(
        (s.visible.clone(), s.pos, s.progress()),
        (visible, pos, progress)
    );
    ch(&mut s, 'F');
    assert_eq!(s.filter_counts, counts);
    press(&mut s, KeyCode::Esc);
    // verdicts after it count as on the built index
    for s in [&mut s, &mut twin] {
        for _ in 0..2 {
            ch(s, 'n');
            let fx = ch(s, 'a');
            recorded(s, fx);
        }
        ch(s, 'F');
    }
    assert_eq!(s.filter_counts, twin.filter_counts);
    assert_eq!((s.visible, s.pos), (twin.visible, twin.pos));
}

/// The filter menu opens on the row it was closed on: switching one filter of a kind for
/// another is a key or two, not a walk from the top (issue 36: 15 keys to switch a group
/// filter).
#[test]
fn the_filter_menu_opens_where_it_was_closed() {
    let (_d, mut s) = state("cvqa.jsonl");
    let row = s
        .filter_options()
        .iter()
        .position(|x| *x == FilterOption::Facet(Facet::Group, "abs_counting_1".into()))
        .unwrap();
    toggle(
        &mut s,
        FilterOption::Facet(Facet::Group, "abs_counting_1".into()),
    );
    ch(&mut s, 'F');
    assert!(
        matches!(s.mode, Mode::Filter { selected } if selected == row),
        "{:?}",
        s.mode
    );
    // Enter turns it off again: one key
    press(&mut s, KeyCode::Enter);
    assert!(s.visible.is_none(), "{}", s.filters.describe());
}

/// Each row of the filter menu has a key beside it, from the keymap (`row_1` … in the
/// `filter` table): switching a group filter from one group to another is `F`, the
/// row's key, the other row's key. Before, rows had no key: arrows to each row.
#[test]
fn each_filter_row_has_its_key_beside_it() {
    let (_d, mut s) = state("cvqa.jsonl");
    let rows = s.filter_options();
    let direct = FilterOption::Facet(Facet::Group, "direct".into());
    let boolean = FilterOption::Facet(Facet::Group, "boolean".into());
    assert_eq!(rows.iter().position(|x| *x == direct), Some(12));
    assert_eq!(rows.iter().position(|x| *x == boolean), Some(11));
    ch(&mut s, 'F');
    for (w, h) in [(80, 24), (200, 50)] {
        let out = render_to_string(&s, w, h);
        assert!(out.contains(" 1 [ ] ungraded by me"), "{out}");
        assert!(out.contains(" 0 [ ] verification rejected"), "{out}");
        if h == 50 {
            assert!(out.contains(" c [ ] group direct"), "{out}");
        }
    }
    // the 13th row's key: on, the menu stays open on it
    ch(&mut s, 'c');
    assert!(s.filter_active(&direct), "{}", s.filters.describe());
    assert!(
        matches!(s.mode, Mode::Filter { selected: 12 }),
        "{:?}",
        s.mode
    );
    // switch to the 12th: two keys
    ch(&mut s, 'c');
    ch(&mut s, 'b');
    assert!(!s.filter_active(&direct));
    assert!(s.filter_active(&boolean), "{}", s.filters.describe());
}

/// Give doc `doc` of samples file `file` alice's `verdict` (a line of lm-eval's, so its
/// order is its doc_id's).
fn lm_review(file: &Path, doc: usize, verdict: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| match i == doc {
            true => format!(
                r#"{}, "reviews": {{"alice": {{"at": "2026-11-29T10:00:00Z", "verdict": "{verdict}"}}}}}}"#,
                l.strip_suffix('}').unwrap()
            ),
            false => l.to_string(),
        })
        .collect();
    std::fs::write(file, lines.join("\n") + "\n").unwrap();
}

/// The summary page (`s`) shows lm-eval's groups as `verdict stats` does (issue 34): the
/// group's figures from the results file (vr_pair acc 0.7143 ± 0.2012, as lm_eval
/// printed them) and corrected by the verdicts of every task of the group, its other
/// task's samples file included (3/5 = 0.6000, as `stats` gives in lm_eval_real).
#[test]
fn the_summary_shows_lm_evals_groups_corrected_by_every_tasks_verdicts() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("example__fixed-1b");
    std::fs::create_dir(&dir).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real-logs/lm-eval/group/example__fixed-1b");
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
    }
    let date = "2026-11-29T09-50-32.381997";
    let pick = dir.join(format!("samples_vr_pick_{date}.jsonl"));
    let multi = dir.join(format!("samples_vr_multi_{date}.jsonl"));
    lm_review(&pick, 3, "correct");
    lm_review(&pick, 1, "ambiguous-key");
    lm_review(&pick, 2, "ambiguous-key");
    lm_review(&multi, 0, "incorrect");
    let mut s = state_at(&pick);
    for (w, h) in [(80u16, 24u16), (200, 50)] {
        s.size = (w, h);
        s.mode = Mode::Normal;
        ch(&mut s, 's');
        summary_arrives(&mut s);
        let out = render_to_string(&s, w, h);
        let lines: Vec<&str> = out.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.contains("vr_pair · none · acc · n=7"))
            .unwrap_or_else(|| panic!("no group row at {w}x{h}:\n{out}"));
        let acc = lines[at + 1];
        assert!(acc.contains("results file 0.7143 ± 0.2012"), "{acc}");
        // the corrected figure ± its stderr, pooled as lm-eval pools a group's (issue 39)
        assert!(acc.contains("corrected 0.6000 ± 0.2108"), "{acc}");
        let task = lines
            .iter()
            .find(|l| l.contains("    harness ") && l.contains("corrected"))
            .unwrap_or_else(|| panic!("no task row at {w}x{h}:\n{out}"));
        assert!(task.contains(" ± "), "{task}");
        let norm = lines[at + 2];
        assert!(
            norm.contains("acc_norm 0.7143 ± 0.2012 (not corrected)"),
            "{norm}"
        );
        assert!(
            out.contains("vr_pick (4)") && out.contains("vr_multi (3)"),
            "{out}"
        );
        insta::assert_snapshot!(format!("summary_lm_eval_group_{w}x{h}"), out);
    }
}

/// Issue 39: two right-or-wrong metrics of an lm-eval line that disagree are a filter
/// (arc_easy: acc and acc_norm differ on docs 1, 3 and 4).
#[test]
fn an_lm_eval_lines_metrics_that_disagree_are_a_filter() {
    let (_d, mut s) = lm_eval_state("samples_arc_easy_2026-11-20T10-15-42.518246.jsonl");
    let o = FilterOption::Facet(Facet::Disagree, "acc ≠ acc_norm".into());
    assert!(s.filter_options().contains(&o), "{:?}", s.filter_options());
    ch(&mut s, 'F');
    let k = support_state::filter_row_key(&s, "disagree: acc ≠ acc_norm");
    ch(&mut s, k);
    assert_eq!(s.visible_items().as_deref(), Some(&[1usize, 3, 4][..]));
}

/// Issue 39: `:` takes lm-eval's own id, `doc <doc_id>` (a number alone is the item's).
#[test]
fn jump_takes_an_lm_eval_doc_id() {
    let (_d, mut s) = lm_eval_state("samples_arc_easy_2026-11-20T10-15-42.518246.jsonl");
    for c in ":doc 4".chars() {
        ch(&mut s, c);
    }
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.pos, 4);
    for c in ":2".chars() {
        ch(&mut s, c);
    }
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.pos, 1);
}

// ----- one verdict for one generation (issue 39) -----------------------------------------

/// The state on a copy of `lm-eval/filters/` (vr_filters, made by lm_eval 0.4.13: three
/// repeats; strict-match and flexible-extract take the first, maj@3 votes over the three;
/// lines 0-3 strict-match, 4-7 flexible-extract, 8-11 maj@3, docs 0-3 each), with its
/// results file (the filters' pipelines) or without it.
fn filters_state(with_results: bool) -> (tempfile::TempDir, State, PathBuf) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real-logs/lm-eval/filters/example__fixed-1b");
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("example__fixed-1b");
    std::fs::create_dir(&dir).unwrap();
    let mut samples = None;
    for e in std::fs::read_dir(&src).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with("samples_") {
            samples = Some(dir.join(&name));
        } else if !with_results {
            continue;
        }
        std::fs::copy(e.path(), dir.join(&name)).unwrap();
    }
    let p = samples.unwrap();
    let s = state_at(&p);
    (d, s, p)
}

/// The items a batch of effects records, sorted, with the verdict each gets.
fn verdicts_recorded(s: &mut State, fx: Vec<Effect>) -> Vec<(usize, Option<String>)> {
    let mut v: Vec<(usize, Option<String>)> = recorded(s, fx)
        .into_iter()
        .map(|(i, r)| {
            let v = r.and_then(|r| r["verdict"].as_str().map(str::to_string));
            (i, v)
        })
        .collect();
    v.sort();
    v
}

fn goto_line(s: &mut State, line: usize) {
    ch(s, ':');
    typ(s, &line.to_string());
    press(s, KeyCode::Enter);
    assert_eq!(s.pos, line - 1);
}

/// Grading doc 1's strict-match line grades its flexible-extract line too (both take the
/// first of the three generations), not its maj@3 line (a vote over the three); one `u`
/// takes both back, and redo gives both again.
#[test]
fn a_verdict_on_a_generation_grades_every_filter_that_takes_it() {
    let (_d, mut s, _p) = filters_state(true);
    goto_line(&mut s, 2);
    let fx = ch(&mut s, '1');
    assert_eq!(
        verdicts_recorded(&mut s, fx),
        vec![(1, Some("correct".into())), (5, Some("correct".into()))]
    );
    assert!(
        s.my_review(9).is_none(),
        "maj@3's answer is not that generation"
    );
    let (msg, _) = s.status.clone().unwrap();
    assert!(
        msg.contains("doc 1's strict-match (#2) and flexible-extract (#6)")
            && !msg.contains("maj@3"),
        "{msg}"
    );
    assert!(msg.contains("u undoes both"), "{msg}");
    // one undo, both gone
    let fx = ch(&mut s, 'u');
    assert_eq!(verdicts_recorded(&mut s, fx), vec![(1, None), (5, None)]);
    assert_eq!(s.pos, 1, "undo goes back to the line graded");
    let (msg, _) = s.status.clone().unwrap();
    assert!(msg.starts_with("undone on 2 items at once"), "{msg}");
    let fx = ch(&mut s, 'u');
    assert!(fx.is_empty(), "one change: nothing left to undo");
    let fx = ctrl(&mut s, 'r');
    assert_eq!(
        verdicts_recorded(&mut s, fx),
        vec![(1, Some("correct".into())), (5, Some("correct".into()))]
    );
    // the maj@3 line graded alone grades nothing else
    goto_line(&mut s, 10);
    let fx = ch(&mut s, '2');
    assert_eq!(
        verdicts_recorded(&mut s, fx),
        vec![(9, Some("incorrect".into()))]
    );
    // from the flexible-extract line: strict-match's too
    goto_line(&mut s, 7);
    let fx = ch(&mut s, '2');
    assert_eq!(
        verdicts_recorded(&mut s, fx),
        vec![(2, Some("incorrect".into())), (6, Some("incorrect".into()))]
    );
    // a line whose sibling has the verdict already: only the line is recorded
    goto_line(&mut s, 3);
    let fx = ch(&mut s, '2');
    assert_eq!(
        verdicts_recorded(&mut s, fx),
        vec![(2, Some("incorrect".into()))]
    );
    // the undo key named is the live keymap's
    let mut km = Keymap::default();
    let mut cfg = std::collections::BTreeMap::new();
    cfg.insert("undo".to_string(), vec!["U".to_string()]);
    assert!(km.apply_config(&cfg).is_empty());
    s.keymap = km;
    goto_line(&mut s, 4);
    let fx = ch(&mut s, '3');
    assert_eq!(verdicts_recorded(&mut s, fx).len(), 2);
    let (msg, _) = s.status.clone().unwrap();
    assert!(msg.ends_with("U undoes both"), "{msg}");
}

/// The undo history saved for the next session keeps the two lines as one change: after
/// quitting and opening again, one `u` undoes both.
#[test]
fn one_change_of_two_lines_is_one_undo_in_the_next_session() {
    let (_d, mut s, p) = filters_state(true);
    goto_line(&mut s, 2);
    let fx = ch(&mut s, '1');
    let session = session_of(&fx).expect("the undo history is saved");
    recorded(&mut s, fx);
    assert_eq!(session.undo.len(), 2);
    // the verdicts reached the file (as the journal's fold does)
    let mut store = Store::open(&p).unwrap();
    for i in [1, 5] {
        let v = s.my_review(i).map(|r| serde_json::to_value(r).unwrap());
        store.set_review(i, "carol", v).unwrap();
    }
    store.save().unwrap();
    let mut s2 = state_at(&p);
    support_state::begin_found(&mut s2, session.clone(), None);
    let fx = ch(&mut s2, 'u');
    assert_eq!(verdicts_recorded(&mut s2, fx), vec![(1, None), (5, None)]);
    let fx = ch(&mut s2, 'u');
    assert!(fx.is_empty());
    // a session file of the shape before (no grouping) still reads: one line each
    let old: verdict::tui::config::Session = serde_json::from_str(
        &serde_json::to_string(&session)
            .unwrap()
            .replace(",\"joined\":true", ""),
    )
    .unwrap();
    assert_eq!(old.undo.len(), 2);
    let mut s3 = state_at(&p);
    support_state::begin_found(&mut s3, old, None);
    let fx = ch(&mut s3, 'u');
    assert_eq!(verdicts_recorded(&mut s3, fx), vec![(5, None)]);
}

/// Without the run's results file the filters' pipelines are not known: with three
/// repeats no other line is graded (its answer may come from another generation); with
/// one generation (gsm8k's hand-made file) every filter of the doc takes it.
#[test]
fn without_the_results_file_only_a_single_generation_is_shared() {
    let (_d, mut s, _p) = filters_state(false);
    goto_line(&mut s, 2);
    let fx = ch(&mut s, '1');
    assert_eq!(
        verdicts_recorded(&mut s, fx),
        vec![(1, Some("correct".into()))]
    );
    let (_d, mut s) = lm_eval_state(LM_GSM8K);
    goto_line(&mut s, 2);
    let fx = ch(&mut s, '1');
    assert_eq!(
        verdicts_recorded(&mut s, fx),
        vec![(1, Some("correct".into())), (6, Some("correct".into()))]
    );
}

/// A verdict on two lines whose journal writes are refused (a full disk) is taken back
/// whole: neither line keeps it, and nothing is left to undo.
#[test]
fn a_refused_verdict_on_two_lines_is_taken_back_whole() {
    let (_d, mut s, _p) = filters_state(true);
    goto_line(&mut s, 2);
    let fx = ch(&mut s, '1');
    refused(&mut s, fx);
    assert!(s.my_review(1).is_none() && s.my_review(5).is_none());
    let fx = ch(&mut s, 'u');
    assert!(fx.is_empty(), "{fx:?}");
    assert_eq!(s.status.as_ref().unwrap().0, "nothing to undo");
}
