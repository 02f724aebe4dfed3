//! A failed Inspect sample (vr_epochs: `boom` failed in every epoch, so it has no
//! scores): a verdict or a note on it cannot be written back into the log, as no score
//! edit can be; it is refused when given, saying why, and never keeps any other verdict
//! from being saved (issue 34, case 4).

mod common;

use std::path::{Path, PathBuf};

use common::Sandbox;
use serde_json::{Value, json};
use verdict::bench::Items;
use verdict::bench::inspect::zip::{self, Archive};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real-logs/inspect/logs")
        .join(name)
}

fn entry(bytes: &[u8], name: &str) -> Value {
    let a = Archive::read(bytes).unwrap();
    serde_json::from_slice(&zip::read(bytes, a.entry(name).unwrap()).unwrap()).unwrap()
}

/// Through the binary: `1` on the failed sample is refused, saying why; a verdict on
/// another sample afterwards is saved into the log at quit.
#[test]
fn a_verdict_on_a_failed_sample_is_refused_when_given_and_others_are_saved() {
    let sb = Sandbox::new();
    std::fs::copy(fixture("vr_epochs.eval"), sb.path("vr_epochs.eval")).unwrap();
    let mut p = sb.open("vr_epochs.eval", &[], 600_000);
    p.wait_for("red planet");
    p.send(":11\r");
    p.wait_for("boom: sample boom fails in epoch 1");
    p.send("1");
    p.wait_for("no score of scorer choice");
    let screen = p.contents();
    assert!(
        screen.contains("cannot be written back"),
        "the refusal says why:\n{screen}"
    );
    p.send(":1\r");
    p.wait_for("red planet");
    p.send("2");
    p.wait_for("2/36");
    p.send("q");
    assert!(p.wait_exit().success());
    let after = std::fs::read(sb.path("vr_epochs.eval")).unwrap();
    let e1 = entry(&after, "samples/e1_epoch_1.json");
    assert_eq!(e1["scores"]["choice"]["value"], json!("I"));
    assert_eq!(
        e1["scores"]["choice"]["history"][1]["provenance"]["author"],
        json!("erin")
    );
    let boom = entry(&after, "samples/boom_epoch_1.json");
    assert!(
        boom.get("scores")
            .is_none_or(|s| s.is_null() || s == &json!({})),
        "no score was added to the failed sample"
    );
}

/// A journal holding a verdict on the failed sample (as an earlier verdict recorded it)
/// is not applied, and is kept aside, saying so; the save of every other verdict goes on.
#[test]
fn an_old_verdict_on_a_failed_sample_does_not_block_saves() {
    verdict::bench::register_containers();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("vr_epochs.json");
    std::fs::copy(fixture("vr_epochs.json"), &file).unwrap();
    let before = std::fs::read(&file).unwrap();
    let find = |store: &verdict::store::Store, id: &str| {
        (0..store.len())
            .find(|&i| store.item(i).unwrap().id.as_deref() == Some(id))
            .unwrap()
    };
    {
        let mut o = verdict::session::open(&file, "erin").unwrap();
        let i = find(&o.store, "boom (epoch 1)");
        // what an earlier version recorded without asking
        o.own
            .append(&verdict::journal::Record {
                item: i,
                id: Some("boom (epoch 1)".into()),
                reviewer: "erin".into(),
                review: Some(json!({"verdict": "correct", "at": "2026-11-28T10:00:00Z"})),
                key: None,
            })
            .unwrap();
    }
    let mut o = verdict::session::open(&file, "erin").unwrap();
    assert_eq!(o.replay.invalid.len(), 1, "{:?}", o.replay);
    assert!(
        o.replay.invalid[0].contains("no score of scorer choice"),
        "{:?}",
        o.replay.invalid
    );
    let j = find(&o.store, "e2 (epoch 1)");
    o.store
        .set_review(
            j,
            "erin",
            Some(json!({"verdict": "incorrect", "at": "2026-11-28T10:01:00Z"})),
        )
        .unwrap();
    let cancel = std::sync::atomic::AtomicBool::new(false);
    verdict::session::fold(&mut o.store, &mut o.own, &mut o.stale, &cancel)
        .expect("the other verdict is saved");
    let after = std::fs::read(&file).unwrap();
    assert!(after != before);
    let d: Value = serde_json::from_slice(&after).unwrap();
    let e2 = d["samples"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == json!("e2") && s["epoch"] == json!(1))
        .unwrap();
    assert_eq!(e2["scores"]["choice"]["value"], json!("I"));
}

/// `verdict check` on the lines: a verdict or a note on the failed sample is an error,
/// with why.
#[test]
fn check_names_a_verdict_on_a_failed_sample_as_an_error() {
    verdict::bench::register_containers();
    let bytes = std::fs::read(fixture("vr_epochs.json")).unwrap();
    let opened = verdict::bench::inspect::log::sniff(&fixture("vr_epochs.json"), &bytes)
        .unwrap()
        .unwrap();
    let mut line: Value = opened
        .lines
        .split(|b| *b == b'\n')
        .map(|l| serde_json::from_slice::<Value>(l).unwrap())
        .find(|v| v["id"] == json!("boom (epoch 1)"))
        .unwrap();
    line["reviews"] = json!({
        "erin": {"verdict": "correct", "at": "2026-11-28T10:00:00Z"},
        "finn": {"note": "an infrastructure failure", "at": "2026-11-28T10:00:00Z"}
    });
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lines.jsonl");
    std::fs::write(&file, format!("{line}\n")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(["check", file.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for want in [
        "reviews.erin.verdict: error: the sample has no score of scorer choice",
        "reviews.finn.note: error: the sample has no score of scorer choice",
        "cannot be written back",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
    assert!(!out.status.success());
}
