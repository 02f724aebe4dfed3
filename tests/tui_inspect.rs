//! The screen of an Inspect AI sample (TestBackend + insta) and what its verdict keys
//! record, on the log written by inspect_ai (tests/fixtures/real-logs/inspect).

use std::path::Path;
use verdict::bench::Items;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::{Value, json};
use verdict::store::Store;
use verdict::tui::app::{Effect, Msg, State};
use verdict::tui::draw::render_to_string;
use verdict::tui::keymap::Keymap;

#[path = "support/state.rs"]
mod support_state;

fn state(name: &str) -> (tempfile::TempDir, State) {
    verdict::bench::register_containers();
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join(name);
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/real-logs/inspect/logs")
            .join(name),
        &p,
    )
    .unwrap();
    let s = support_state::indexed_state(Store::open(&p).unwrap(), Keymap::default());
    (d, s)
}

fn ch(s: &mut State, c: char) -> Vec<Effect> {
    s.update(Msg::Key(KeyEvent::new(
        KeyCode::Char(c),
        KeyModifiers::NONE,
    )))
}

fn recorded(s: &mut State, fx: Vec<Effect>) -> Vec<(usize, Option<Value>)> {
    let mut out = vec![];
    for e in fx {
        if let Effect::Record {
            seq, item, review, ..
        } = e
        {
            out.push((item, review));
            s.update(Msg::Recorded {
                seq,
                result: Ok(()),
            });
        }
    }
    out
}

#[test]
fn screens_of_inspect_samples() {
    for (w, h) in [(80u16, 24u16), (200, 50)] {
        // q1, and q4 (hostile text: ANSI escapes in the input, HTML in the answer)
        for (keys, label) in [("", "inspect_q1"), ("nnn", "inspect_q4_hostile")] {
            let (_d, mut s) = state("vr_mc.eval");
            s.size = (w, h);
            for c in keys.chars() {
                ch(&mut s, c);
            }
            let out = render_to_string(&s, w, h);
            assert!(!out.contains('\u{1b}'), "no escape reaches the screen");
            insta::assert_snapshot!(format!("{label}_{w}x{h}"), out);
        }
    }
}

#[test]
fn inspect_verdict_keys_write_correct_incorrect_ambiguous_target() {
    let (_d, mut s) = state("vr_mc.json");
    for (c, v) in [
        ('1', "correct"),
        ('2', "incorrect"),
        ('3', "ambiguous-target"),
    ] {
        let fx = ch(&mut s, c);
        let r = recorded(&mut s, fx);
        assert_eq!(r[0].1.as_ref().unwrap()["verdict"], json!(v), "key {c}");
    }
}

/// The summary page (`s`) shows the log's figures beside the human-corrected accuracy of
/// the headline scorer (a log alice graded: q2's first epoch correct).
#[test]
fn the_summary_page_puts_the_logs_figures_beside_the_corrected_ones() {
    verdict::bench::register_containers();
    let (d, _) = state("vr_mc.eval");
    let p = d.path().join("vr_mc.eval");
    let mut store = Store::open(&p).unwrap();
    let i = (0..store.len())
        .find(|&i| store.item(i).unwrap().id.as_deref() == Some("q2 (epoch 1)"))
        .unwrap();
    store
        .set_review(
            i,
            "alice",
            Some(json!({"verdict": "correct", "at": "2026-11-26T23:00:00Z", "note": "typo"})),
        )
        .unwrap();
    store.save().unwrap();
    let mut s = support_state::indexed_state(Store::open(&p).unwrap(), Keymap::default());
    for (w, h) in [(80u16, 24u16), (200, 50)] {
        s.size = (w, h);
        s.mode = verdict::tui::app::Mode::Normal;
        let fx = ch(&mut s, 's');
        assert!(fx.contains(&Effect::ComputeSummary {
            seq: s.summary.seq()
        }));
        let v = verdict::tui::summary::compute(&s.store);
        s.update(Msg::Summary {
            seq: s.summary.seq(),
            result: Ok(v),
        });
        let out = render_to_string(&s, w, h);
        let at = out
            .lines()
            .position(|l| l.contains("choice · accuracy"))
            .unwrap_or_else(|| panic!("{out}"));
        let row = out
            .lines()
            .nth(at + 1)
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            row.contains("log 0.6250") && row.contains("corrected 0.6250"),
            "{row}"
        );
        assert!(out.contains("Inspect AI · vr_mc · mockllm/model"), "{out}");
        insta::assert_snapshot!(format!("summary_inspect_{w}x{h}"), out);
    }
}

/// Hostile text in every field of a sample (escapes, C1 controls, a bidi override, a
/// carriage return) reaches the screen harmless, at both sizes.
#[test]
fn hostile_text_in_every_field_is_shown_harmless() {
    verdict::bench::register_containers();
    let evil = "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m\u{202e}\r";
    let doc = json!({
        "version": 2,
        "status": "success",
        "eval": {"task": format!("t{evil}"), "model": format!("m{evil}")},
        "results": {"scores": [{"name": format!("s{evil}"), "metrics": {
            format!("acc{evil}"): {"name": "acc", "value": 0.5, "params": {}}}}]},
        "samples": [{
            "id": format!("id{evil}"), "epoch": 1,
            "input": [{"role": format!("user{evil}"), "content": format!("q{evil}")}],
            "target": [format!("A{evil}")],
            "choices": [format!("c{evil}")],
            "output": {"completion": format!("out{evil}")},
            "messages": [{"role": "user", "content": format!("m1{evil}")}, {"role": "assistant", "content": [{"type": "text", "text": format!("m2{evil}")}]}],
            "scores": {format!("s{evil}"): {"value": format!("C{evil}"), "answer": format!("a{evil}"), "explanation": format!("e{evil}"),
                "history": [{"value": "I"}, {"value": "C", "provenance": {"author": format!("who{evil}"), "timestamp": "2026-11-26T23:00:00Z", "reason": format!("why{evil}")}}]}},
            "error": {"message": format!("err{evil}")}
        }]
    });
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("evil.json");
    std::fs::write(&p, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let mut s = support_state::indexed_state(Store::open(&p).unwrap(), Keymap::default());
    for (w, h) in [(80u16, 24u16), (200, 50)] {
        s.size = (w, h);
        for scroll in 0..4 {
            let out = render_to_string(&s, w, h);
            for c in ['\u{1b}', '\u{7}', '\u{9b}', '\u{202e}', '\r'] {
                assert!(!out.contains(c), "{c:?} on screen at {w}x{h}:\n{out}");
            }
            if scroll == 0 && w == 200 {
                for shown in [
                    "out␛]0;pwned",
                    "[user␛]0;pwned",
                    "> s␛]0;pwned",
                    "edited to C by who␛]0;pwned",
                    "why␛]0;pwned",
                ] {
                    assert!(out.contains(shown), "{shown}:\n{out}");
                }
            }
            ch(&mut s, 'J');
        }
    }
}

fn key(s: &mut State, code: KeyCode) -> Vec<Effect> {
    s.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

/// The review as recorded by the last `Record` effect of `fx`.
fn last_review(s: &mut State, fx: Vec<Effect>) -> Value {
    recorded(s, fx)
        .pop()
        .expect("a recorded review")
        .1
        .unwrap_or(Value::Null)
}

/// `c` picks the next scorer; the verdict keys and the note then act on it only, and the
/// screen says which one everywhere a grade is shown. A reviewer switching scorer in the
/// middle of an item, undo and redo: a verdict meant for one scorer never lands on the
/// other.
#[test]
fn the_next_scorer_key_picks_what_the_verdict_keys_and_the_note_grade() {
    let (_d, mut s) = state("vr_mc.eval");
    s.auto_advance = false;
    s.size = (80, 24);
    let out = render_to_string(&s, 80, 24);
    assert!(
        out.contains("My grade on choice (headline): not graded"),
        "{out}"
    );
    ch(&mut s, 'c');
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("My grade on match: not graded"), "{out}");
    // 2 on match: scorers.match, the review's own verdict (choice's) untouched
    let fx = ch(&mut s, '2');
    let r = last_review(&mut s, fx);
    assert_eq!(r["scorers"]["match"]["verdict"], json!("incorrect"));
    assert!(r["scorers"]["match"]["at"].is_string());
    assert_eq!(r.get("verdict"), None, "{r}");
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("My grade on match: incorrect"), "{out}");
    // back to choice mid-item: 1 is choice's, match keeps its own
    ch(&mut s, 'c');
    let fx = ch(&mut s, '1');
    let r = last_review(&mut s, fx);
    assert_eq!(r["verdict"], json!("correct"));
    assert_eq!(r["scorers"]["match"]["verdict"], json!("incorrect"));
    let out = render_to_string(&s, 80, 24);
    assert!(
        out.contains("My grade on choice (headline): correct · match: incorrect"),
        "{out}"
    );
    // a note on match is match's, and its box says so
    ch(&mut s, 'c');
    ch(&mut s, 'i');
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("Note on match"), "{out}");
    for c in "ends with B".chars() {
        ch(&mut s, c);
    }
    let fx = key(&mut s, KeyCode::Enter);
    let r = last_review(&mut s, fx);
    assert_eq!(r["scorers"]["match"]["note"], json!("ends with B"));
    assert_eq!(r.get("note"), None, "{r}");
    // the note key on choice shows choice's note (none), not match's
    ch(&mut s, 'c');
    ch(&mut s, 'i');
    match &s.mode {
        verdict::tui::app::Mode::Note(e) => assert_eq!(e.text(), ""),
        m => panic!("{m:?}"),
    }
    key(&mut s, KeyCode::Esc);
    // undo takes back the note on match, then choice's verdict; match's verdict stays
    let fx = ch(&mut s, 'u');
    let r = last_review(&mut s, fx);
    assert_eq!(r["scorers"]["match"].get("note"), None, "{r}");
    assert_eq!(r["verdict"], json!("correct"));
    let fx = ch(&mut s, 'u');
    let r = last_review(&mut s, fx);
    assert_eq!(r.get("verdict"), None, "{r}");
    assert_eq!(r["scorers"]["match"]["verdict"], json!("incorrect"));
    // redo gives choice's verdict back to choice
    let fx = s.update(Msg::Key(KeyEvent::new(
        KeyCode::Char('r'),
        KeyModifiers::CONTROL,
    )));
    let r = last_review(&mut s, fx);
    assert_eq!(r["verdict"], json!("correct"));
    assert_eq!(r["scorers"]["match"]["verdict"], json!("incorrect"));
    // the next item opens on its headline scorer (issue 36: the pick stayed)
    ch(&mut s, 'c');
    ch(&mut s, 'n');
    let out = render_to_string(&s, 80, 24);
    assert!(
        out.contains("My grade on choice (headline): not graded"),
        "{out}"
    );
}

/// With auto-advance, a verdict on another scorer than the headline stays on the sample
/// (its headline may still need the reviewer), and the next sample opens on its
/// headline scorer. Before (issue 36 case 9), the verdict moved to the next sample, and
/// that sample opened still on the scorer picked.
#[test]
fn grading_another_scorer_stays_on_the_sample_and_the_next_opens_on_the_headline() {
    let (_d, mut s) = state("vr_mc.json");
    s.auto_advance = true;
    ch(&mut s, 'c');
    let from = s.pos;
    let fx = ch(&mut s, '1');
    let r = recorded(&mut s, fx);
    assert_eq!(r[0].0, from);
    assert_eq!(
        r[0].1.as_ref().unwrap()["scorers"]["match"]["verdict"],
        json!("correct")
    );
    assert_eq!(s.pos, from, "stays on the sample");
    let out = render_to_string(&s, 80, 24);
    assert!(out.contains("My grade on match: correct"), "{out}");
    assert!(out.contains("graded match on"), "{out}");
    // the headline's verdict completes the sample and moves on, to the next's headline
    ch(&mut s, 'c');
    let fx = ch(&mut s, '1');
    recorded(&mut s, fx);
    assert_ne!(s.pos, from);
    let out = render_to_string(&s, 80, 24);
    assert!(
        out.contains("My grade on choice (headline): not graded"),
        "{out}"
    );
}

/// The summary page corrects each scorer by the verdicts on it: a verdict on `match`
/// changes match's corrected accuracy, not choice's, and the page says how many were
/// reviewed on each.
#[test]
fn the_summary_page_corrects_each_scorer_by_its_own_verdicts() {
    verdict::bench::register_containers();
    let (d, _) = state("vr_mc.eval");
    let p = d.path().join("vr_mc.eval");
    let mut store = Store::open(&p).unwrap();
    let i = (0..store.len())
        .find(|&i| store.item(i).unwrap().id.as_deref() == Some("q2 (epoch 1)"))
        .unwrap();
    store
        .set_review(
            i,
            "alice",
            Some(json!({"at": "2026-11-26T23:00:00Z", "scorers": {"match": {"verdict": "correct", "at": "2026-11-26T23:00:00Z"}}})),
        )
        .unwrap();
    let mut s = support_state::indexed_state(store, Keymap::default());
    s.size = (80, 24);
    ch(&mut s, 's');
    let v = verdict::tui::summary::compute(&s.store);
    s.update(Msg::Summary {
        seq: s.summary.seq(),
        result: Ok(v),
    });
    let mut text = String::new();
    for _ in 0..3 {
        text.push_str(&render_to_string(&s, 80, 24));
        ch(&mut s, 'j');
        ch(&mut s, 'j');
        ch(&mut s, 'j');
    }
    let row_after = |head: &str| -> String {
        let lines: Vec<&str> = text.lines().collect();
        let k = lines
            .iter()
            .position(|l| l.contains(head))
            .unwrap_or_else(|| panic!("{head}: {text}"));
        lines[k + 1]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let choice = row_after("choice · accuracy");
    assert!(
        choice.contains("log 0.5000") && choice.contains("corrected 0.5000"),
        "{choice}"
    );
    let m = row_after("match · accuracy");
    assert!(
        m.contains("log 0.5000") && m.contains("corrected 0.6250"),
        "{m}"
    );
    assert!(
        text.contains("verdicts on scorer choice (headline) · reviewed 0 of 8"),
        "{text}"
    );
    assert!(
        text.contains("verdicts on scorer match · reviewed 1 of 8"),
        "{text}"
    );
}

/// The log as this session's own save wrote it, read again (`Msg::Resaved`), leaves the
/// screen as the reviewer has it: the search being typed stays open with its query, the
/// item and the status line stay; no "changed on disk". A store with another count of
/// items is a change by someone else too, and is said.
#[test]
fn the_log_read_again_after_its_own_save_leaves_the_screen_as_it_is() {
    let (d, mut s) = state("vr_mc.json");
    let p = d.path().join("vr_mc.json");
    let fx = ch(&mut s, '1');
    assert_eq!(recorded(&mut s, fx).len(), 1);
    let status = s.status.clone();
    ch(&mut s, '/');
    ch(&mut s, 'q');
    let pos = s.pos;
    s.update(Msg::Resaved(Store::open(&p).unwrap()));
    let verdict::tui::app::Mode::Search(st) = &s.mode else {
        panic!("the search was closed: {:?}", s.mode)
    };
    assert_eq!(st.query.text(), "q");
    assert_eq!(s.pos, pos);
    assert_eq!(s.status, status);
    // another program wrote another log there meanwhile (other samples): said, as any
    // change is
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/real-logs/inspect/logs/vr_nan.json"),
        &p,
    )
    .unwrap();
    assert_ne!(Store::open(&p).unwrap().len(), s.store.len());
    s.update(Msg::Resaved(Store::open(&p).unwrap()));
    let said = s.status.as_ref().map(|x| x.0.clone()).unwrap_or_default();
    assert!(said.contains("changed on disk"), "{said}");
}

fn session_of(fx: &[Effect]) -> Option<verdict::tui::config::Session> {
    fx.iter().rev().find_map(|e| match e {
        Effect::SaveSession(s) => Some(s.clone()),
        _ => None,
    })
}

/// Issue 34, case 5: undo after a restart on an Inspect log. The verdicts reach the log
/// as score edits (no `seconds`; a verdict on another scorer moves the review's `at`
/// but not the headline edit's): the next session's history still matches the reviews
/// rebuilt from the log, and undo takes the last one back.
#[test]
fn undo_survives_a_restart_on_an_inspect_log() {
    for name in ["vr_mc.eval", "vr_mc.json"] {
        let (d, mut s) = state(name);
        // the headline verdict on q1, then a verdict on match of q2
        let fx = ch(&mut s, '2');
        recorded(&mut s, fx);
        if s.pos == 0 {
            ch(&mut s, 'n');
        }
        ch(&mut s, 'c');
        let fx = ch(&mut s, '1');
        let session = session_of(&fx).expect("the undo history is saved");
        recorded(&mut s, fx);
        assert_eq!(session.undo.len(), 2, "{name}");
        // the verdicts reached the log (as the journal's fold does)
        let p = d.path().join(name);
        let mut store = Store::open(&p).unwrap();
        for i in [0, 1] {
            let v = s.my_review(i).map(|r| serde_json::to_value(r).unwrap());
            store.set_review(i, "carol", v).unwrap();
        }
        store.save().unwrap();
        // a new session restores the history and undoes the verdict on match of q2
        let mut s2 = support_state::indexed_state(Store::open(&p).unwrap(), Keymap::default());
        support_state::begin_found(&mut s2, session.clone(), None);
        let fx = ch(&mut s2, 'u');
        let undone = recorded(&mut s2, fx);
        assert_eq!(undone.len(), 1, "{name}: {:?}", s2.status);
        assert_eq!(undone[0].0, 1, "{name}");
        assert!(
            undone[0]
                .1
                .as_ref()
                .is_none_or(|r| r.get("scorers").is_none()),
            "{name}: {undone:?}"
        );
        // and then the headline verdict on q1
        let fx = ch(&mut s2, 'u');
        assert_eq!(recorded(&mut s2, fx), vec![(0, None)], "{name}");
    }
}

/// The log's figures on the item's screen, each named by scorer, reducer and metric:
/// three reducers are three lines, not three identical ones (issue 34, case 3).
#[test]
fn the_logs_figures_are_named_by_their_reducer() {
    let (_d, s) = state("vr_epochs.eval");
    let screen = render_to_string(&s, 200, 400);
    for want in [
        "choice [mean] accuracy",
        "choice [mode] accuracy",
        "choice [at_least_2] stderr",
        "model_graded_qa [mode] accuracy",
    ] {
        assert_eq!(screen.matches(want).count(), 1, "{want}:\n{screen}");
    }
}

/// The sample's metadata is on its screen (issue 34, case 8).
#[test]
fn the_samples_metadata_is_shown() {
    let (_d, mut s) = state("vr_epochs.eval");
    let flaky = (0..s.len())
        .find(|&i| s.display_id(i) == "flaky (epoch 1)")
        .unwrap();
    let mut fx = Vec::new();
    s.goto(flaky, &mut fx);
    let screen = render_to_string(&s, 200, 100);
    assert!(screen.contains("metadata.fail_epochs: [2]"), "{screen}");
}

/// A failed sample (issue 34 case 4: no score, so nothing to grade) is not work to do:
/// `Space` never stops at one, the progress total leaves them out, and once every other
/// sample is graded the progress is full.
#[test]
fn failed_samples_are_not_work_to_do() {
    let (_d, mut s) = state("vr_epochs.eval");
    let n = s.len();
    let failed: Vec<usize> = (0..n)
        .filter(|&i| {
            let id = s.display_id(i);
            id.starts_with("boom (") || id == "flaky (epoch 2)"
        })
        .collect();
    assert_eq!(failed.len(), 4);
    assert_eq!(s.progress().2, n - 4);
    for _ in 0..2 * n {
        ch(&mut s, ' ');
        let said = s.status.as_ref().map(|x| x.0.clone()).unwrap_or_default();
        if said.contains("every item here is graded") {
            break;
        }
        assert!(
            !failed.contains(&s.pos),
            "Space stopped at {}",
            s.display_id(s.pos)
        );
        let fx = ch(&mut s, '1');
        recorded(&mut s, fx);
    }
    let (me, _, total) = s.progress();
    assert_eq!((me, total), (n - 4, n - 4));
}

/// Issue 39: scorers that disagree on a sample, failed samples and the epoch are filters
/// (the log's vr_epochs: 3 epochs, 4 scorers, boom failed thrice and flaky once).
#[test]
fn scorers_that_disagree_failed_samples_and_epochs_are_filters() {
    use verdict::bench::Facet;
    use verdict::tui::app::FilterOption;
    let (_d, mut s) = state("vr_epochs.eval");
    let rows = s.filter_options();
    for o in [
        FilterOption::Facet(Facet::Disagree, "choice ≠ includes".into()),
        FilterOption::Facet(Facet::Epoch, "2".into()),
        FilterOption::Flag(Facet::Failed),
    ] {
        assert!(rows.contains(&o), "{o:?} not in {rows:?}");
    }
    // choice and includes differ on 10 of the 36 samples × epochs (read from the log)
    ch(&mut s, 'F');
    let k = support_state::filter_row_key(&s, "disagree: choice ≠ includes");
    ch(&mut s, k);
    assert_eq!(s.visible_items().map(|v| v.len()), Some(10));
    ch(&mut s, k);
    let k = support_state::filter_row_key(&s, "failed samples");
    ch(&mut s, k);
    let failed: Vec<String> = s
        .visible_items()
        .unwrap()
        .iter()
        .map(|&i| s.display_id(i))
        .collect();
    assert_eq!(
        failed,
        // (in the .eval's order of samples)
        [
            "boom (epoch 1)",
            "flaky (epoch 2)",
            "boom (epoch 2)",
            "boom (epoch 3)"
        ]
    );
}

/// Issue 39: `:` takes the harness's own id: a sample's id goes to its first epoch (a
/// number is an item number, as ever).
#[test]
fn jump_takes_a_samples_own_id() {
    let (_d, mut s) = state("vr_epochs.eval");
    for c in ":e3".chars() {
        ch(&mut s, c);
    }
    s.update(Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    assert_eq!(s.display_id(s.pos), "e3 (epoch 1)");
    // the whole item id still works
    for c in ":flaky (epoch 2)".chars() {
        ch(&mut s, c);
    }
    s.update(Msg::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    assert_eq!(s.display_id(s.pos), "flaky (epoch 2)");
}

/// A scorer whose values are no grades (vr_nan's `confidence`: 0.4, 0.9, NaN, inf) is
/// not said to disagree with `choice`.
#[test]
fn a_confidence_is_no_grade_to_disagree_with() {
    use verdict::bench::Facet;
    use verdict::tui::app::FilterOption;
    let (_d, s) = state("vr_nan.eval");
    let rows = s.filter_options();
    assert!(
        !rows
            .iter()
            .any(|o| matches!(o, FilterOption::Facet(Facet::Disagree, _))),
        "{rows:?}"
    );
}

/// The labels of the filter menu's rows for the sample's metadata (`metadata.key = value`).
fn metadata_rows(s: &State) -> Vec<String> {
    s.filter_options()
        .iter()
        .map(|o| o.label())
        .filter(|l| l.starts_with("metadata."))
        .collect()
}

/// The sample ids of the items the filters leave (vr_meta's: `1 (epoch 1)` … `60 (epoch
/// 1)`).
fn visible_ids(s: &State) -> Vec<u32> {
    let mut ids: Vec<u32> = s
        .visible_items()
        .unwrap()
        .iter()
        .map(|&i| {
            let id = s.display_id(i);
            id.strip_suffix(" (epoch 1)")
                .unwrap_or(&id)
                .parse()
                .unwrap()
        })
        .collect();
    ids.sort_unstable();
    ids
}

/// Issue 39: each key of a sample's metadata is a facet of the filter menu, as
/// `metadata.key = value` (vr_meta: 60 samples, one epoch). The samples counted by
/// inspect_ai's own `read_eval_log` of the log: category geography on 15 (4, 8, … 60),
/// of them difficulty 2 on 6, and 6 more with logic; note `checked` on 6, null on the
/// others.
#[test]
fn each_metadata_key_is_a_facet_of_the_filter_menu() {
    let (_d, mut s) = state("vr_meta.eval");
    let rows = metadata_rows(&s);
    for want in [
        "metadata.category = arithmetic",
        "metadata.category = geography",
        "metadata.category = logic",
        "metadata.difficulty = 2",
        "metadata.hard = true",
        "metadata.weight = 1.5",
        "metadata.note = checked",
    ] {
        assert!(rows.iter().any(|r| r == want), "{want} not in {rows:?}");
    }
    ch(&mut s, 'F');
    let geography = support_state::filter_row_key(&s, "metadata.category = geography");
    ch(&mut s, geography);
    assert_eq!(visible_ids(&s), (1..=15).map(|k| 4 * k).collect::<Vec<_>>());
    // two keys combine with AND, two values of one key with OR
    let k = support_state::filter_row_key(&s, "metadata.difficulty = 2");
    ch(&mut s, k);
    assert_eq!(visible_ids(&s), [4, 16, 24, 36, 44, 56]);
    let logic = support_state::filter_row_key(&s, "metadata.category = logic");
    ch(&mut s, logic);
    assert_eq!(
        visible_ids(&s),
        [4, 11, 16, 19, 24, 31, 36, 39, 44, 51, 56, 59]
    );
    ch(&mut s, logic);
    ch(&mut s, k);
    ch(&mut s, geography);
    assert_eq!(s.visible_items(), None);
    // a null is no value: the 54 samples without a note are in no row of it
    let k = support_state::filter_row_key(&s, "metadata.note = checked");
    ch(&mut s, k);
    assert_eq!(visible_ids(&s), [10, 20, 30, 40, 50, 60]);
    assert_eq!(
        rows.iter()
            .filter(|r| r.starts_with("metadata.note"))
            .count(),
        1,
        "{rows:?}"
    );
}

/// A metadata key is a facet only while it has at most 50 values, each of at most 60
/// characters (a facet is a bit set over every item per value): vr_meta's `shard` (50
/// values) is offered whole; `ref` (one per sample, 60), `explanation` (a sentence) are
/// not, nor any of their values, even after a verdict on a sample; an array (`tags`) or
/// an object (`source`) is no value.
#[test]
fn a_metadata_key_with_more_values_than_the_cap_is_not_offered() {
    let (_d, mut s) = state("vr_meta.eval");
    let check = |s: &State| {
        let rows = metadata_rows(s);
        let of = |key: &str| {
            rows.iter()
                .filter(|r| r.starts_with(&format!("metadata.{key} = ")))
                .count()
        };
        assert_eq!(of("shard"), 50, "{rows:?}");
        for key in ["ref", "explanation", "tags", "source"] {
            assert_eq!(of(key), 0, "{key}: {rows:?}");
        }
        assert!(!rows.iter().any(|r| r.contains("r-0")), "{rows:?}");
        assert_eq!(
            [of("category"), of("difficulty"), of("hard"), of("weight")],
            [3, 3, 2, 3],
            "{rows:?}"
        );
    };
    check(&s);
    // a verdict on a sample makes its facts again: its ref is still no row
    let fx = ch(&mut s, '1');
    assert_eq!(recorded(&mut s, fx).len(), 1);
    check(&s);
}

/// Issue 39, one verdict for one generation: where the reviewer asks (`C`), the verdict
/// keys grade every scorer of the sample at once (the headline's in the review's own
/// verdict, each other scorer's under `scorers`), as one change: one `u` takes it all
/// back. The next sample opens on its headline again.
#[test]
fn every_scorer_of_a_sample_takes_one_verdict_where_asked() {
    let (_d, mut s) = state("vr_epochs.eval");
    s.auto_advance = true;
    let names: Vec<String> = match &s.item().unwrap().layout {
        Some(verdict::bench::Layout::InspectSample(x)) => {
            x.scores.iter().map(|x| x.name.clone()).collect()
        }
        _ => panic!("not an Inspect sample"),
    };
    assert_eq!(names, ["choice", "match", "includes", "model_graded_qa"]);
    ch(&mut s, 'C');
    let fx = ch(&mut s, '2');
    let rec = recorded(&mut s, fx);
    assert_eq!(rec.len(), 1, "one item, one change");
    let r = rec[0].1.as_ref().unwrap();
    assert_eq!(r["verdict"], "incorrect", "{r}");
    for other in ["match", "includes", "model_graded_qa"] {
        assert_eq!(r["scorers"][other]["verdict"], "incorrect", "{other}: {r}");
    }
    assert_eq!(s.pos, 1, "on to the next sample");
    let (msg, _) = s.status.clone().unwrap();
    assert!(
        msg.contains("incorrect on every scorer of e1 (epoch 1): choice, match, includes, model_graded_qa · u undoes it"),
        "{msg}"
    );
    let fx = ch(&mut s, 'u');
    let rec = recorded(&mut s, fx);
    assert_eq!(rec, vec![(0, None)]);
    // the next sample grades its headline only, unless asked again
    ch(&mut s, 'n');
    let fx = ch(&mut s, '1');
    let rec = recorded(&mut s, fx);
    assert!(
        rec[0].1.as_ref().unwrap().get("scorers").is_none(),
        "{rec:?}"
    );
}

/// `C` grades the scorers whose score is a grade only: vr_nan's `confidence` (0.4, NaN)
/// takes no verdict, `choice` (the headline) does.
#[test]
fn every_scorer_leaves_a_confidence_alone() {
    let (_d, mut s) = state("vr_nan.eval");
    ch(&mut s, 'C');
    let (msg, _) = s.status.clone().unwrap();
    assert!(msg.ends_with("that grades it: choice"), "{msg}");
    let fx = ch(&mut s, '2');
    let rec = recorded(&mut s, fx);
    let r = rec[0].1.as_ref().unwrap();
    assert_eq!(r["verdict"], "incorrect", "{r}");
    assert!(r.get("scorers").is_none(), "{r}");
}
