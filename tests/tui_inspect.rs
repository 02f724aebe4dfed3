//! The screen of an Inspect AI sample (TestBackend + insta) and what its verdict keys
//! record, on the log written by inspect_ai (tests/fixtures/real-logs/inspect).

use std::path::Path;

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
        assert!(fx.contains(&Effect::ComputeSummary { seq: s.summary_seq }));
        let v = verdict::tui::summary::compute(&s.store);
        s.update(Msg::Summary {
            seq: s.summary_seq,
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
