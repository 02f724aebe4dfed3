//! Logs holding Inspect's unscored values (`NaN`, `Infinity`, bare, as Python's json
//! writes them; tests/fixtures/real-logs/inspect/logs/vr_nan.*, written by inspect_ai):
//! a verdict on any sample is written back, every `NaN` and `Infinity` kept as it was.

use std::path::Path;

use serde_json::json;

use super::log::{self, write_to_vec};
use super::tests::{entry_text, graded, items, lines, open, raw_record};
use super::zip::Archive;

/// The bare tokens of `text`, in order (outside strings).
fn tokens(text: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let (mut i, mut in_str) = (0, false);
    while i < b.len() {
        let c = b[i];
        if in_str {
            if c == b'\\' {
                i += 2;
                continue;
            }
            in_str = c != b'"';
        } else if c == b'"' {
            in_str = true;
        } else {
            for t in ["-Infinity", "Infinity", "NaN"] {
                if b[i..].starts_with(t.as_bytes()) {
                    out.push(t);
                    i += t.len() - 1;
                    break;
                }
            }
        }
        i += 1;
    }
    out
}

#[test]
fn a_verdict_on_a_sample_holding_nan_is_written_back_keeping_nan_and_infinity() {
    let (bytes, o) = open("vr_nan.eval");
    // q2's confidence is NaN, q4's Infinity; alice grades q2 on choice, bob q4 on choice
    let cur = graded(
        &o,
        &[
            (
                "q2 (epoch 1)",
                json!({"alice": {"verdict": "correct", "at": "2026-11-26T23:00:00Z"}}),
            ),
            (
                "q4 (epoch 1)",
                json!({"bob": {"verdict": "correct", "at": "2026-11-26T23:01:00Z"}}),
            ),
        ],
    );
    let out = write_to_vec(&o, &cur).expect("written back");
    let q2 = entry_text(&out, "samples/q2_epoch_1.json");
    assert!(q2.contains("\"confidence\":{\"value\":NaN"), "{q2}");
    assert_eq!(
        tokens(&q2),
        tokens(&entry_text(&bytes, "samples/q2_epoch_1.json"))
    );
    let q4 = entry_text(&out, "samples/q4_epoch_1.json");
    assert_eq!(
        tokens(&q4),
        tokens(&entry_text(&bytes, "samples/q4_epoch_1.json"))
    );
    assert!(q4.contains("Infinity"), "{q4}");
    // the figures: choice recomputed, confidence's kept (Infinity, NaN) as Inspect has them
    let h = entry_text(&out, "header.json");
    assert_eq!(tokens(&h), tokens(&entry_text(&bytes, "header.json")));
    assert!(
        h.contains("\"accuracy\":{\"name\":\"accuracy\",\"value\":1.0"),
        "{h}"
    );
    for name in ["reductions.json", "summaries.json"] {
        assert_eq!(
            tokens(&entry_text(&out, name)),
            tokens(&entry_text(&bytes, name)),
            "{name}"
        );
    }
    // reopened: both verdicts back, the values shown
    let o2 = log::sniff(Path::new("x.eval"), &out).unwrap().unwrap();
    let its = items(&o2);
    assert!(its.iter().any(|i| i.reviews.contains_key("alice")));
    assert!(its.iter().any(|i| i.reviews.contains_key("bob")));
    let ls2 = lines(&o2);
    assert!(write_to_vec(&o2, &|i| ls2.get(i).cloned()).unwrap() == out);
    // entries not graded: byte for byte
    for e in &Archive::read(&out).unwrap().entries {
        if e.name.starts_with("_journal/") || e.name.contains("q1") {
            assert_eq!(raw_record(&out, &e.name), raw_record(&bytes, &e.name));
        }
    }
}

/// A `.json` log: a verdict anywhere (here on q1, a sample without NaN) rewrites the
/// document with every `NaN` and `Infinity` where it was; only the graded sample,
/// `results` and `reductions` differ.
#[test]
fn a_json_log_holding_nan_keeps_every_nan_and_infinity() {
    let (bytes, o) = open("vr_nan.json");
    for (id, who) in [("q1 (epoch 1)", "alice"), ("q2 (epoch 1)", "bob")] {
        let cur = graded(
            &o,
            &[(
                id,
                json!({who: {"verdict": "incorrect", "at": "2026-11-26T23:00:00Z"}}),
            )],
        );
        let out = write_to_vec(&o, &cur).expect("written back");
        let text = String::from_utf8(out.clone()).unwrap();
        let old = String::from_utf8(bytes.clone()).unwrap();
        assert_eq!(tokens(&text), tokens(&old), "{id}");
        // line by line: only the graded sample's score, its history and event, and the
        // figures differ (the same number of NaN lines)
        let nan_lines = |t: &str| {
            t.lines()
                .filter(|l| l.contains("NaN") || l.contains("Infinity"))
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(nan_lines(&text), nan_lines(&old), "{id}");
        assert!(text.contains("\"author\": \""), "{id}");
    }
}

/// A verdict on the scorer whose value is NaN: the value becomes a number (1), the sample
/// counts as scored again, and the scorer's figures are recomputed over the scored
/// samples as Inspect does (NaN left out: unscored).
#[test]
fn a_verdict_on_a_nan_score_makes_it_scored() {
    let (_, o) = open("vr_nan.eval");
    let cur = graded(
        &o,
        &[(
            "q2 (epoch 1)",
            json!({"alice": {"at": "2026-11-26T23:00:00Z", "scorers": {"confidence": {"verdict": "correct", "at": "2026-11-26T23:00:00Z"}}}}),
        )],
    );
    let out = write_to_vec(&o, &cur).expect("written back");
    let q2 = entry_text(&out, "samples/q2_epoch_1.json");
    assert!(q2.contains("\"confidence\":{\"value\":1,"), "{q2}");
    // the original NaN is the history's first value
    assert!(q2.contains("\"history\":[{\"value\":NaN"), "{q2}");
    let h = entry_text(&out, "header.json");
    assert!(
        h.contains("\"scored_samples\":4,\"unscored_samples\":0"),
        "{h}"
    );
}
