//! The writer of Inspect logs: a verdict written back as Inspect's own score edit, on
//! logs written by inspect_ai 0.3.285 (tests/fixtures/real-logs/inspect) and on hand-made
//! odd cases. The helpers are `tests.rs`'.

use std::path::Path;

use serde_json::{Value, json};

use super::log::{self, write_to_vec};
use super::tests::*;
use super::zip::{self, Archive};

#[test]
fn nothing_to_write_back_writes_the_log_as_it_was() {
    for name in ["vr_mc.eval", "vr_mc.json"] {
        let (bytes, o) = open(name);
        let ls = lines(&o);
        let out = write_to_vec(&o, &|i| ls.get(i).cloned()).unwrap();
        assert!(out == bytes, "{name}");
    }
}

#[test]
fn a_verdict_is_written_as_inspects_score_edit_in_a_eval_log() {
    let (bytes, o) = open("vr_mc.eval");
    let cur = graded(
        &o,
        &[(
            "q2 (epoch 1)",
            json!({"alice": {"verdict": "correct", "at": "2026-11-26T23:00:00Z", "seconds": 4.0, "note": "36 is a typo <b>\u{1b}[31m"}}),
        )],
    );
    let out = write_to_vec(&o, &cur).unwrap();
    // untouched entries: their data byte for byte
    let a = Archive::read(&out).unwrap();
    let changed = [
        "samples/q2_epoch_1.json",
        "header.json",
        "reductions.json",
        "summaries.json",
    ];
    for e in &a.entries {
        if !changed.contains(&e.name.as_str()) {
            assert_eq!(
                raw_record(&out, &e.name),
                raw_record(&bytes, &e.name),
                "{}",
                e.name
            );
        }
    }
    let names: Vec<&str> = a.entries.iter().map(|e| e.name.as_str()).collect();
    let old_names: Vec<String> = Archive::read(&bytes)
        .unwrap()
        .entries
        .iter()
        .map(|e| e.name.clone())
        .collect();
    assert_eq!(names, old_names);
    // the score, its history, and the event, as edit_score writes them
    let s = entry(&out, "samples/q2_epoch_1.json");
    let sc = &s["scores"]["choice"];
    assert_eq!(sc["value"], json!("C"));
    assert_eq!(
        sc["history"],
        json!([
            {"value": "I", "answer": "B", "explanation": "7 x 6 = 36.\n\nANSWER: B", "metadata": {}},
            {"value": "C", "answer": "UNCHANGED", "explanation": "UNCHANGED", "reason": "UNCHANGED", "metadata": "UNCHANGED",
             "provenance": {"timestamp": "2026-11-26T23:00:00Z", "author": "alice", "reason": "36 is a typo <b>\u{1b}[31m", "metadata": {}}}
        ])
    );
    assert_eq!(s["scores"]["match"]["value"], json!("I"));
    let events = s["events"].as_array().unwrap();
    let k = events
        .iter()
        .position(|e| e["event"] == json!("score_edit"))
        .unwrap();
    let ev = &events[k];
    assert_eq!(ev["score_name"], json!("choice"));
    assert_eq!(ev["edit"], sc["history"][1]);
    assert_eq!(ev["timestamp"], json!("2026-11-26T23:00:00+00:00"));
    assert_eq!(ev["uuid"].as_str().unwrap().len(), 22);
    let keys: Vec<&String> = ev.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "uuid",
            "span_id",
            "timestamp",
            "working_start",
            "event",
            "score_name",
            "edit"
        ]
    );
    // inside the scorers span, just before its end
    let scorers = events
        .iter()
        .rev()
        .find(|e| e["event"] == json!("span_begin") && e["type"] == json!("scorers"))
        .unwrap();
    assert_eq!(ev["span_id"], scorers["id"]);
    assert_eq!(events[k + 1]["event"], json!("span_end"));
    assert_eq!(events[k + 1]["id"], scorers["id"]);
    assert_eq!(k + 2, events.len());
    // the figures: q2's epochs reduce to 0.5; accuracy (1 + 0.5 + 1 + 0) / 4
    let h = entry(&out, "header.json");
    let m = &h["results"]["scores"][0]["metrics"];
    assert_eq!(m["accuracy"]["value"], json!(0.625));
    assert_eq!(m["stderr"]["value"], json!(0.23935677693908453));
    assert_eq!(
        h["results"]["scores"][1]["metrics"]["accuracy"]["value"],
        json!(0.5)
    );
    let r = entry(&out, "reductions.json");
    let q2 = r[0]["samples"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["sample_id"] == json!("q2"))
        .unwrap();
    assert_eq!(q2["value"], json!(0.5));
    let sums = entry(&out, "summaries.json");
    let q2e1 = sums
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == json!("q2") && x["epoch"] == json!(1))
        .unwrap();
    assert_eq!(q2e1["scores"]["choice"]["value"], json!("C"));
    let q2e2 = sums
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == json!("q2") && x["epoch"] == json!(2))
        .unwrap();
    assert_eq!(q2e2["scores"]["choice"]["value"], json!("I"));
    // reopened: the verdict is back as alice's review
    let o2 = log::sniff(Path::new("x.eval"), &out).unwrap().unwrap();
    let it = items(&o2)
        .into_iter()
        .find(|i| i.id.as_deref() == Some("q2 (epoch 1)"))
        .unwrap();
    let r = &it.reviews["alice"];
    assert_eq!(r.verdict.as_deref(), Some("correct"));
    assert_eq!(r.note.as_deref(), Some("36 is a typo <b>\u{1b}[31m"));
    assert_eq!(r.at.as_deref(), Some("2026-11-26T23:00:00Z"));
    // and writing the reopened log again with the same review changes nothing
    let ls2 = lines(&o2);
    assert!(write_to_vec(&o2, &|i| ls2.get(i).cloned()).unwrap() == out);
}

#[test]
fn several_reviewers_each_give_an_edit_and_ambiguous_keeps_the_value() {
    let (_, o) = open("vr_mc.eval");
    let cur = graded(
        &o,
        &[
            (
                "q2 (epoch 2)",
                json!({"bob": {"verdict": "incorrect", "at": "2026-11-26T23:05:00Z"},
                       "alice": {"verdict": "correct", "at": "2026-11-26T23:01:00Z", "note": "typo"}}),
            ),
            (
                "q1 (epoch 1)",
                json!({"carol": {"verdict": "ambiguous-target", "at": "2026-11-26T23:02:00Z", "note": "two red planets?"}}),
            ),
        ],
    );
    let out = write_to_vec(&o, &cur).unwrap();
    let s = entry(&out, "samples/q2_epoch_2.json");
    let h = s["scores"]["choice"]["history"].as_array().unwrap();
    let authors: Vec<&Value> = h.iter().map(|e| &e["provenance"]["author"]).collect();
    assert_eq!(authors, [&Value::Null, &json!("alice"), &json!("bob")]);
    // the last edit's value stands
    assert_eq!(s["scores"]["choice"]["value"], json!("I"));
    let n = s["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["event"] == json!("score_edit"))
        .count();
    assert_eq!(n, 2);
    let q1 = entry(&out, "samples/q1_epoch_1.json");
    assert_eq!(q1["scores"]["choice"]["value"], json!("C"));
    let last = q1["scores"]["choice"]["history"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["value"], json!("UNCHANGED"));
    assert_eq!(
        last["provenance"]["metadata"],
        json!({"verdict": "ambiguous-target"})
    );
    let o2 = log::sniff(Path::new("x.eval"), &out).unwrap().unwrap();
    let its = items(&o2);
    let q2 = its
        .iter()
        .find(|i| i.id.as_deref() == Some("q2 (epoch 2)"))
        .unwrap();
    assert_eq!(q2.reviews["alice"].verdict.as_deref(), Some("correct"));
    assert_eq!(q2.reviews["bob"].verdict.as_deref(), Some("incorrect"));
    let q1 = its
        .iter()
        .find(|i| i.id.as_deref() == Some("q1 (epoch 1)"))
        .unwrap();
    assert_eq!(
        q1.reviews["carol"].verdict.as_deref(),
        Some("ambiguous-target")
    );
    assert_eq!(
        q1.reviews["carol"].note.as_deref(),
        Some("two red planets?")
    );
}

#[test]
fn a_withdrawn_verdict_puts_the_original_value_back_and_is_no_review_on_reopening() {
    let (_, o) = open("vr_mc.eval");
    let cur = graded(
        &o,
        &[(
            "q2 (epoch 1)",
            json!({"alice": {"verdict": "correct", "at": "2026-11-26T23:00:00Z"}}),
        )],
    );
    let out = write_to_vec(&o, &cur).unwrap();
    let o2 = log::sniff(Path::new("x.eval"), &out).unwrap().unwrap();
    let mut ls = lines(&o2);
    let k = ls
        .iter()
        .position(|l| l.contains("\"q2 (epoch 1)\""))
        .unwrap();
    let mut v: Value = serde_json::from_str(&ls[k]).unwrap();
    v.as_object_mut().unwrap().shift_remove("reviews");
    ls[k] = serde_json::to_string(&v).unwrap();
    let out2 = write_to_vec(&o2, &|i| ls.get(i).cloned()).unwrap();
    let s = entry(&out2, "samples/q2_epoch_1.json");
    assert_eq!(s["scores"]["choice"]["value"], json!("I"));
    assert_eq!(
        s["scores"]["choice"]["history"].as_array().unwrap().len(),
        3
    );
    let h = entry(&out2, "header.json");
    assert_eq!(
        h["results"]["scores"][0]["metrics"]["accuracy"]["value"],
        json!(0.5)
    );
    let o3 = log::sniff(Path::new("x.eval"), &out2).unwrap().unwrap();
    let it = items(&o3)
        .into_iter()
        .find(|i| i.id.as_deref() == Some("q2 (epoch 1)"))
        .unwrap();
    assert!(it.reviews.is_empty());
}

#[test]
fn a_json_log_is_rewritten_with_only_the_graded_sample_and_figures_changed() {
    let (bytes, o) = open("vr_mc.json");
    // the document reads back to the same bytes: rewriting it keeps every other byte
    let doc: Value = serde_json::from_slice(&bytes).unwrap();
    assert!(serde_json::to_string_pretty(&doc).unwrap().as_bytes() == bytes.as_slice());
    let cur = graded(
        &o,
        &[(
            "q4 (epoch 2)",
            json!({"alice": {"verdict": "correct", "at": "2026-11-26T23:00:00Z"}}),
        )],
    );
    let out = write_to_vec(&o, &cur).unwrap();
    let new: Value = serde_json::from_slice(&out).unwrap();
    let k = new["samples"]
        .as_array()
        .unwrap()
        .iter()
        .position(|s| s["id"] == json!("q4") && s["epoch"] == json!(2))
        .unwrap();
    assert_eq!(new["samples"][k]["scores"]["choice"]["value"], json!("C"));
    assert_eq!(
        new["results"]["scores"][0]["metrics"]["accuracy"]["value"],
        json!(0.625)
    );
    let mut a = doc.clone();
    let mut b = new.clone();
    for d in [&mut a, &mut b] {
        d["samples"][k] = Value::Null;
        d["results"] = Value::Null;
        d["reductions"] = Value::Null;
    }
    assert_eq!(a, b);
}

#[test]
fn unknown_metrics_and_params_keep_their_value() {
    let bytes = json_log(json!([
        {"id": 1, "epoch": 1, "input": "q", "target": "t", "scores": {"s": {"value": "I"}}, "events": []},
        {"id": 2, "epoch": 1, "input": "q", "target": "t", "scores": {"s": {"value": 1}}, "events": []}
    ]));
    let o = log::sniff(Path::new("t.json"), &bytes).unwrap().unwrap();
    let cur = graded(
        &o,
        &[
            (
                "1 (epoch 1)",
                json!({"r": {"verdict": "correct", "at": "2026-11-26T23:00:00Z"}}),
            ),
            (
                "2 (epoch 1)",
                json!({"r": {"verdict": "incorrect", "at": "2026-11-26T23:00:00Z"}}),
            ),
        ],
    );
    let out: Value = serde_json::from_slice(&write_to_vec(&o, &cur).unwrap()).unwrap();
    // a numeric score stays numeric; a string one gets C / I
    assert_eq!(out["samples"][0]["scores"]["s"]["value"], json!("C"));
    assert_eq!(out["samples"][1]["scores"]["s"]["value"], json!(0));
    let m = &out["results"]["scores"][0]["metrics"];
    assert_eq!(m["accuracy"]["value"], json!(0.5));
    assert_eq!(m["stderr"]["value"], json!(0.5));
    assert_eq!(m["bootstrap_stderr"]["value"], json!(0.2));
    // an event at the end when the sample has no scorers span
    assert_eq!(out["samples"][0]["events"][0]["event"], json!("score_edit"));
}

#[test]
fn an_adjudicators_final_verdict_is_kept_in_the_edits_metadata() {
    let (_, o) = open("vr_mc.eval");
    let cur = graded(
        &o,
        &[(
            "q2 (epoch 1)",
            json!({"ann": {"verdict": "incorrect", "at": "2026-11-26T23:00:00Z"},
                   "lead": {"verdict": "correct", "at": "2026-11-26T23:10:00Z", "final": true, "note": "typo in the key"}}),
        )],
    );
    let out = write_to_vec(&o, &cur).unwrap();
    let s = entry(&out, "samples/q2_epoch_1.json");
    let h = s["scores"]["choice"]["history"].as_array().unwrap();
    assert_eq!(h[1]["provenance"]["metadata"], json!({}));
    assert_eq!(h[2]["provenance"]["metadata"], json!({"final": true}));
    let o2 = log::sniff(Path::new("x.eval"), &out).unwrap().unwrap();
    let it = items(&o2)
        .into_iter()
        .find(|i| i.id.as_deref() == Some("q2 (epoch 1)"))
        .unwrap();
    assert_eq!(it.reviews["lead"].is_final, Some(true));
    assert_eq!(it.reviews["ann"].is_final, None);
    // written again: nothing new
    let ls = lines(&o2);
    assert!(write_to_vec(&o2, &|i| ls.get(i).cloned()).unwrap() == out);
}

/// A `.eval` log of an Inspect before Zstandard (deflate entries, method 8): read, and
/// written back with deflate.
#[test]
fn a_deflate_eval_log_is_read_and_written_back_with_deflate() {
    let (bytes, o) = open("vr_mc_deflate.eval");
    assert_eq!(items(&o).len(), 8);
    let cur = graded(
        &o,
        &[(
            "q2 (epoch 1)",
            json!({"alice": {"verdict": "correct", "at": "2026-11-26T23:00:00Z"}}),
        )],
    );
    let out = write_to_vec(&o, &cur).unwrap();
    let a = Archive::read(&out).unwrap();
    assert!(a.entries.iter().all(|e| e.method == zip::DEFLATE));
    assert_eq!(
        entry(&out, "samples/q2_epoch_1.json")["scores"]["choice"]["value"],
        json!("C")
    );
    assert!(
        raw_record(&out, "samples/q1_epoch_1.json")
            == raw_record(&bytes, "samples/q1_epoch_1.json")
    );
}

/// A note given without a verdict is written too (an edit that keeps the value, marked
/// `verdict: none`), and is the reviewer's note again on reopening: the save does not
/// fail on it, and the note is not lost when the journal is cleared.
#[test]
fn a_note_without_a_verdict_is_kept_as_an_edit_that_keeps_the_value() {
    let (_, o) = open("vr_mc.eval");
    let cur = graded(
        &o,
        &[(
            "q2 (epoch 1)",
            json!({"alice": {"note": "look again", "at": "2026-11-26T23:00:00Z"}}),
        )],
    );
    let out = write_to_vec(&o, &cur).unwrap();
    let s = entry(&out, "samples/q2_epoch_1.json");
    let sc = &s["scores"]["choice"];
    assert_eq!(sc["value"], json!("I"));
    let last = sc["history"].as_array().unwrap().last().unwrap();
    assert_eq!(last["value"], json!("UNCHANGED"));
    assert_eq!(last["provenance"]["reason"], json!("look again"));
    assert_eq!(last["provenance"]["metadata"], json!({"verdict": "none"}));
    let o2 = log::sniff(Path::new("x.eval"), &out).unwrap().unwrap();
    let it = items(&o2)
        .into_iter()
        .find(|i| i.id.as_deref() == Some("q2 (epoch 1)"))
        .unwrap();
    assert_eq!(it.reviews["alice"].note.as_deref(), Some("look again"));
    assert_eq!(it.reviews["alice"].verdict, None);
    let ls = lines(&o2);
    assert!(write_to_vec(&o2, &|i| ls.get(i).cloned()).unwrap() == out);
}

/// Items added to a log's lines (an import into it) cannot be written into the log: the
/// save refuses rather than drop them.
#[test]
fn items_added_to_a_log_are_refused_not_dropped() {
    let (_, o) = open("vr_mc.eval");
    let mut ls = lines(&o);
    ls.push(r#"{"id": "new", "question": "?"}"#.to_string());
    let e = write_to_vec(&o, &|i| ls.get(i).cloned()).unwrap_err();
    assert!(e.to_string().contains("cannot add items"), "{e}");
}
