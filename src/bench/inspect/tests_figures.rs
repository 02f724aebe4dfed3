//! The figures a save writes into an Inspect log, against the ones inspect_ai 0.3.285's
//! own `edit_score` (which calls `recompute_metrics`) writes for the same edits: the
//! expected numbers below are what it printed (tests/fixtures/real-logs/inspect/README.md
//! says how; `tests/inspect_figures.rs` compares every figure with inspect_ai itself
//! where Python is installed).

use std::path::Path;

use serde_json::{Value, json};

use super::log::{self, write_to_vec};
use super::tests::*;

/// The header and reductions of a log verdict wrote (`.eval` or `.json`).
fn header_and_reductions(name: &str, out: &[u8]) -> (Value, Value) {
    if name.ends_with(".eval") {
        (entry(out, "header.json"), entry(out, "reductions.json"))
    } else {
        let d: Value = serde_json::from_slice(out).unwrap();
        (d.clone(), d["reductions"].clone())
    }
}

/// `results.scores` entry of `scorer` reduced by `reducer` (`None`: no reducer named).
fn result<'a>(header: &'a Value, scorer: &str, reducer: Option<&str>) -> &'a Value {
    header["results"]["scores"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["scorer"] == json!(scorer) && s["reducer"].as_str() == reducer)
        .unwrap_or_else(|| panic!("no figures of {scorer} / {reducer:?}"))
}

/// The reduced value of sample `id` in the reductions of `scorer` by `reducer`.
fn reduced(reductions: &Value, scorer: &str, reducer: Option<&str>, id: Value) -> Value {
    let r = reductions
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["scorer"] == json!(scorer) && r["reducer"].as_str() == reducer)
        .unwrap();
    r["samples"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["sample_id"] == id)
        .unwrap()["value"]
        .clone()
}

fn at(t: &str) -> Value {
    json!(format!("2026-11-28T10:00:{t}Z"))
}

/// Case 1 of issue 34: a sample that failed (no scores) is not a scored 0. vr_many.eval,
/// one epoch, sample 77 failed; `edit_score(log, 5, "match", ScoreEdit(value="C"))`
/// gives match 519 scored, accuracy 0.48747591522157996, stderr 0.02196184596490518
/// (519 samples: numpy's pairwise sums decide the last digits).
#[test]
fn a_failed_sample_is_unscored_when_the_figures_are_recomputed() {
    let (_, o) = open("vr_many.eval");
    let cur = graded(
        &o,
        &[(
            "5 (epoch 1)",
            json!({"alice": {"verdict": "correct", "at": at("00")}}),
        )],
    );
    let out = write_to_vec(&o, &cur).unwrap();
    let (h, r) = header_and_reductions("vr_many.eval", &out);
    let m = result(&h, "match", None);
    assert_eq!(m["scored_samples"], json!(519));
    assert_eq!(m["unscored_samples"], json!(0));
    assert_eq!(
        m["metrics"]["accuracy"]["value"],
        json!(0.48747591522157996)
    );
    assert_eq!(m["metrics"]["stderr"]["value"], json!(0.02196184596490518));
    // includes: not edited, as it was
    let i = result(&h, "includes", None);
    assert_eq!(i["metrics"]["accuracy"]["value"], json!(0.6589595375722543));
    assert_eq!(reduced(&r, "match", None, json!(5)), json!(1.0));
}

/// Case 2 of issue 34: every reducer's figures and reductions recomputed as Inspect does,
/// none overwritten with another's. vr_epochs (3 epochs; mean, mode, at_least_2): `choice`
/// of e3 and e4 in epoch 1 edited to C gives mean 0.6212121212121211 / 0.0713892059963015,
/// mode 0.7272727272727273 / 0.14083575804390605, at_least_2 0.6363636363636364 /
/// 0.15212000482437738; e3 reduces to 0.6666666666666666, C and 1.
#[test]
fn every_reducer_is_recomputed_as_inspect_does() {
    for name in ["vr_epochs.json", "vr_epochs.eval"] {
        let (_, o) = open(name);
        let cur = graded(
            &o,
            &[
                (
                    "e3 (epoch 1)",
                    json!({"alice": {"verdict": "correct", "at": at("01")}}),
                ),
                (
                    "e4 (epoch 1)",
                    json!({"alice": {"verdict": "correct", "at": at("02")}}),
                ),
            ],
        );
        let out = write_to_vec(&o, &cur).unwrap();
        let (h, r) = header_and_reductions(name, &out);
        for (reducer, acc, se) in [
            ("mean", 0.6212121212121211, 0.0713892059963015),
            ("mode", 0.7272727272727273, 0.14083575804390605),
            ("at_least_2", 0.6363636363636364, 0.15212000482437738),
        ] {
            let s = result(&h, "choice", Some(reducer));
            assert_eq!(s["scored_samples"], json!(11), "{name} {reducer}");
            assert_eq!(
                s["metrics"]["accuracy"]["value"],
                json!(acc),
                "{name} {reducer}"
            );
            assert_eq!(
                s["metrics"]["stderr"]["value"],
                json!(se),
                "{name} {reducer}"
            );
        }
        assert_eq!(
            reduced(&r, "choice", Some("mean"), json!("e3")),
            json!(0.6666666666666666)
        );
        assert_eq!(reduced(&r, "choice", Some("mode"), json!("e3")), json!("C"));
        assert_eq!(
            reduced(&r, "choice", Some("at_least_2"), json!("e3")),
            json!(1)
        );
        assert_eq!(reduced(&r, "choice", Some("mode"), json!("e4")), json!("I"));
        // match: not edited
        let m = result(&h, "match", Some("mode"));
        assert_eq!(m["metrics"]["accuracy"]["value"], json!(0.6363636363636364));
    }
}

/// A reducer verdict cannot recompute (one of the task's own) keeps its figures and
/// reductions exactly as they were; the reducers it can are recomputed.
#[test]
fn a_reducer_verdict_cannot_recompute_keeps_its_figures() {
    let metrics = |a: f64| {
        json!({"accuracy": {"name": "accuracy", "value": a, "params": {}},
               "stderr": {"name": "stderr", "value": 0.25, "params": {}}})
    };
    let doc = json!({
        "version": 2,
        "status": "success",
        "eval": {"task": "t", "model": "m", "config": {"epochs": 2, "epochs_reducer": ["mean", "my_pick"]},
                 "scorers": [{"name": "s", "options": {}, "metrics": [
                     {"name": "inspect_ai/accuracy", "options": {}}, {"name": "inspect_ai/stderr", "options": {}}]}]},
        "results": {"scores": [
            {"name": "s", "scorer": "s", "reducer": "mean", "scored_samples": 2, "unscored_samples": 0, "metrics": metrics(0.5)},
            {"name": "s", "scorer": "s", "reducer": "my_pick", "scored_samples": 2, "unscored_samples": 0, "metrics": metrics(0.123)}
        ]},
        "samples": [
            {"id": 1, "epoch": 1, "input": "q", "target": "t", "scores": {"s": {"value": "I"}}, "events": []},
            {"id": 2, "epoch": 1, "input": "q", "target": "t", "scores": {"s": {"value": "C"}}, "events": []},
            {"id": 1, "epoch": 2, "input": "q", "target": "t", "scores": {"s": {"value": "I"}}, "events": []},
            {"id": 2, "epoch": 2, "input": "q", "target": "t", "scores": {"s": {"value": "C"}}, "events": []}
        ],
        "reductions": [
            {"scorer": "s", "reducer": "mean", "samples": [{"value": 0.0, "sample_id": 1}, {"value": 1.0, "sample_id": 2}]},
            {"scorer": "s", "reducer": "my_pick", "samples": [{"value": 0.7, "sample_id": 1}, {"value": 0.7, "sample_id": 2}]}
        ]
    });
    let bytes = serde_json::to_string_pretty(&doc).unwrap().into_bytes();
    let o = log::sniff(Path::new("t.json"), &bytes).unwrap().unwrap();
    let cur = graded(
        &o,
        &[(
            "1 (epoch 1)",
            json!({"r": {"verdict": "correct", "at": at("03")}}),
        )],
    );
    let out: Value = serde_json::from_slice(&write_to_vec(&o, &cur).unwrap()).unwrap();
    let (h, r) = (&out, &out["reductions"]);
    // mean: sample 1 is (1 + 0) / 2, sample 2 is 1
    let mean = result(h, "s", Some("mean"));
    assert_eq!(mean["metrics"]["accuracy"]["value"], json!(0.75));
    assert_eq!(mean["metrics"]["stderr"]["value"], json!(0.25));
    assert_eq!(reduced(r, "s", Some("mean"), json!(1)), json!(0.5));
    // my_pick: as it was
    assert_eq!(
        result(h, "s", Some("my_pick")),
        &doc["results"]["scores"][1]
    );
    assert_eq!(r[1], doc["reductions"][1]);
}
