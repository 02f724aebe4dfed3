//! Inspect AI logs written by the real inspect_ai 0.3.285
//! (tests/fixtures/real-logs/inspect): graded through the real binary and written back
//! as Inspect's own score edits; and what verdict wrote, read back by inspect_ai itself
//! (skipped, saying so, when the Python package is not installed: see the fixtures'
//! README).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use verdict::bench::Items;

use common::Sandbox;
use serde_json::{Value, json};
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

fn record<'a>(bytes: &'a [u8], name: &str) -> &'a [u8] {
    let a = Archive::read(bytes).unwrap();
    &bytes[a.entry(name).unwrap().record.clone()]
}

/// A `.eval` log graded with the keys: the verdict and its note are in the log as
/// erin's score edit, the figures recomputed, every other entry byte for byte; reopened,
/// the verdict is shown again.
#[test]
fn a_eval_log_is_graded_through_the_binary_and_written_back_as_score_edits() {
    let sb = Sandbox::new();
    std::fs::copy(fixture("vr_mc.eval"), sb.path("vr_mc.eval")).unwrap();
    let before = std::fs::read(sb.path("vr_mc.eval")).unwrap();
    let mut p = sb.open("vr_mc.eval", &[], 60_000);
    p.wait_for("red planet");
    p.send("n");
    p.wait_for("7 times 6");
    p.send("i");
    p.send("36 is a typo");
    p.send("\r");
    p.wait_for("✔ journaled");
    p.send("1");
    p.wait_for("Pick the prime");
    p.send("q");
    assert!(p.wait_exit().success());
    let after = std::fs::read(sb.path("vr_mc.eval")).unwrap();
    let changed = [
        "samples/q2_epoch_1.json",
        "header.json",
        "reductions.json",
        "summaries.json",
    ];
    let a = Archive::read(&after).unwrap();
    assert_eq!(a.entries.len(), 16);
    for e in &a.entries {
        if !changed.contains(&e.name.as_str()) {
            assert!(
                record(&after, &e.name) == record(&before, &e.name),
                "{} is byte-identical",
                e.name
            );
        }
    }
    let s = entry(&after, "samples/q2_epoch_1.json");
    let sc = &s["scores"]["choice"];
    assert_eq!(sc["value"], json!("C"));
    let h = sc["history"].as_array().unwrap();
    assert_eq!(h.len(), 2);
    assert_eq!(h[0]["value"], json!("I"));
    assert_eq!(h[1]["provenance"]["author"], json!("erin"));
    assert_eq!(h[1]["provenance"]["reason"], json!("36 is a typo"));
    assert!(
        s["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["event"] == json!("score_edit") && e["edit"] == h[1])
    );
    let header = entry(&after, "header.json");
    assert_eq!(
        header["results"]["scores"][0]["metrics"]["accuracy"]["value"],
        json!(0.625)
    );
    // no journal or temporary left beside it
    let left: Vec<String> = std::fs::read_dir(sb.dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("vr_mc.eval") && n != "vr_mc.eval" && !n.ends_with(".verdict-lock"))
        .collect();
    assert!(left.is_empty(), "{left:?}");

    let mut p = sb.open("vr_mc.eval", &[], 60_000);
    p.wait_for("Pick the prime");
    p.send("p");
    p.wait_for("7 times 6");
    p.wait_for("My grade: correct");
    p.wait_for("edited to C by erin");
    p.send("q");
    assert!(p.wait_exit().success());
    assert!(
        std::fs::read(sb.path("vr_mc.eval")).unwrap() == after,
        "reopening and quitting writes nothing"
    );
}

/// The Python of a venv with inspect_ai: `VERDICT_INSPECT_PYTHON`, else
/// /work/venv-inspect/bin/python; `None` when neither imports inspect_ai.
fn inspect_python() -> Option<String> {
    let candidates = [
        std::env::var("VERDICT_INSPECT_PYTHON").ok(),
        Some("/work/venv-inspect/bin/python".to_string()),
    ];
    candidates.into_iter().flatten().find(|py| {
        Command::new(py)
            .args(["-c", "import inspect_ai.log"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// What inspect_ai reads from the log verdict wrote, and what its own edit_score makes of
/// the same edits on the original log (the recomputed figures to compare).
const READ_BACK: &str = r#"
import json, sys
from inspect_ai.log import read_eval_log, edit_score, ProvenanceData
from inspect_ai.scorer import ScoreEdit
written, original = sys.argv[1], sys.argv[2]
log = read_eval_log(written)
out = {"samples": {}}
for s in log.samples:
    sc = s.scores["choice"]
    out["samples"][f"{s.id}@{s.epoch}"] = {
        "value": sc.value,
        "edits": [
            {"author": e.provenance.author, "reason": e.provenance.reason,
             "value": e.value, "metadata": e.provenance.metadata}
            for e in sc.history if e.provenance is not None
        ],
        "events": [e.event for e in s.events if e.event == "score_edit"],
    }
out["results"] = log.results.model_dump(mode="json")["scores"]
out["reductions"] = [r.model_dump(mode="json") for r in log.reductions]
ref = read_eval_log(original)
edit_score(ref, "q2", "choice", ScoreEdit(value="C", provenance=ProvenanceData(author="alice", reason="36 is a typo")), epoch=1)
edit_score(ref, "q1", "choice", ScoreEdit(value="I", provenance=ProvenanceData(author="bob", reason=None)), epoch=2)
out["ref_results"] = ref.results.model_dump(mode="json")["scores"]
out["ref_reductions"] = [r.model_dump(mode="json") for r in ref.reductions]
print(json.dumps(out))
"#;

/// The log verdict writes is read by inspect_ai: the human value, the edit's author and
/// reason, the event, and the figures as inspect_ai's own edit_score recomputes them.
#[test]
fn inspect_ai_reads_back_what_verdict_wrote() {
    let Some(py) = inspect_python() else {
        eprintln!(
            "SKIPPED inspect_ai_reads_back_what_verdict_wrote: no Python with inspect_ai \
             (set VERDICT_INSPECT_PYTHON, see tests/fixtures/real-logs/inspect/README.md)"
        );
        return;
    };
    verdict::bench::register_containers();
    for name in ["vr_mc.eval", "vr_mc.json", "vr_mc_deflate.eval"] {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(name);
        std::fs::copy(fixture(name), &file).unwrap();
        let mut store = verdict::store::Store::open(&file).unwrap();
        let find = |store: &verdict::store::Store, id: &str| {
            (0..store.len())
                .find(|&i| store.item(i).unwrap().id.as_deref() == Some(id))
                .unwrap()
        };
        let i = find(&store, "q2 (epoch 1)");
        store
            .set_review(
                i,
                "alice",
                Some(json!({"verdict": "correct", "at": "2026-11-26T23:00:00Z", "note": "36 is a typo"})),
            )
            .unwrap();
        let j = find(&store, "q1 (epoch 2)");
        store
            .set_review(
                j,
                "bob",
                Some(json!({"verdict": "incorrect", "at": "2026-11-26T23:01:00Z"})),
            )
            .unwrap();
        let k = find(&store, "q4 (epoch 1)");
        store
            .set_review(
                k,
                "carol",
                Some(json!({"verdict": "ambiguous-target", "at": "2026-11-26T23:02:00Z", "note": "oxygen too?"})),
            )
            .unwrap();
        store.save().unwrap();
        let out = Command::new(&py)
            .args([
                "-c",
                READ_BACK,
                file.to_str().unwrap(),
                fixture(name).to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let q2 = &v["samples"]["q2@1"];
        assert_eq!(q2["value"], json!("C"), "{name}");
        assert_eq!(q2["edits"][0]["author"], json!("alice"));
        assert_eq!(q2["edits"][0]["reason"], json!("36 is a typo"));
        assert_eq!(q2["events"], json!(["score_edit"]));
        assert_eq!(v["samples"]["q1@2"]["value"], json!("I"));
        assert_eq!(v["samples"]["q1@2"]["edits"][0]["author"], json!("bob"));
        let q4 = &v["samples"]["q4@1"];
        assert_eq!(q4["value"], json!("I"), "ambiguous-target keeps the value");
        assert_eq!(
            q4["edits"][0]["metadata"],
            json!({"verdict": "ambiguous-target"})
        );
        // the figures inspect_ai reads are the ones its own edit_score recomputes
        assert_eq!(v["results"], v["ref_results"], "{name}");
        // (inspect_ai orders the reductions' samples by id; verdict keeps the log's order)
        let sorted = |r: &Value| {
            let mut r = r.clone();
            for x in r.as_array_mut().unwrap() {
                x["samples"]
                    .as_array_mut()
                    .unwrap()
                    .sort_by_key(|s| s["sample_id"].to_string());
            }
            r
        };
        assert_eq!(
            sorted(&v["reductions"]),
            sorted(&v["ref_reductions"]),
            "{name}"
        );
        assert_eq!(v["samples"]["q3@1"], Value::Null);
    }
}

fn verdict(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(args)
        .output()
        .unwrap()
}

/// `verdict check` says what it read the log as; `verdict stats --json` gives the log's
/// figures and the headline scorer's accuracy, as the log says them.
#[test]
fn check_and_stats_read_both_logs() {
    for name in ["vr_mc.eval", "vr_mc.json"] {
        let f = fixture(name);
        let out = verdict(&["check", f.to_str().unwrap()]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}");
        assert!(
            text.contains(&format!(
                "read as an Inspect AI .{} log (8 samples × epochs; verdicts on scorer choice)",
                &name[6..]
            )),
            "{text}"
        );
        assert!(
            text.contains("8 items, 0 errors, 0 warnings, 0 notices"),
            "{text}"
        );
        let out = verdict(&["stats", f.to_str().unwrap(), "--json"]);
        assert!(out.status.success());
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let x = &v["benchmarks"]["inspect"];
        assert_eq!(x["items"], json!(8));
        assert_eq!(x["samples"], json!(4));
        assert_eq!(x["scorer"], json!("choice"));
        assert_eq!(x["harness"]["choice"]["accuracy"], json!(0.5));
        assert_eq!(x["harness"]["match"]["stderr"], json!(0.28867513459481287));
        assert_eq!(x["scorer_accuracy"], json!(0.5));
        assert_eq!(x["corrected_accuracy"], json!(0.5));
    }
}

/// kill -9 right after a verdict: the log is untouched, the verdict is in the journal;
/// the next session recovers it and its save writes it into the log as a score edit.
#[test]
fn kill_9_after_a_verdict_on_a_log_loses_nothing() {
    let sb = Sandbox::new();
    std::fs::copy(fixture("vr_mc.json"), sb.path("vr_mc.json")).unwrap();
    let before = std::fs::read(sb.path("vr_mc.json")).unwrap();
    let mut p = sb.open("vr_mc.json", &[], 60_000);
    p.wait_for("Pick the prime");
    p.send("2");
    p.wait_for("✔ journaled");
    p.signal(libc::SIGKILL);
    p.wait_exit();
    assert!(std::fs::read(sb.path("vr_mc.json")).unwrap() == before);
    let mut p = sb.open("vr_mc.json", &[], 60_000);
    p.wait_for("recovered 1 verdict from the journal (not yet saved into the file)");
    p.send("q");
    assert!(p.wait_exit().success());
    let v: Value = serde_json::from_slice(&std::fs::read(sb.path("vr_mc.json")).unwrap()).unwrap();
    let s = v["samples"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == json!("odd id/é \"quoted\"") && s["epoch"] == json!(1))
        .unwrap();
    assert_eq!(s["scores"]["choice"]["value"], json!("I"));
    assert_eq!(
        s["scores"]["choice"]["history"][1]["provenance"]["author"],
        json!("erin")
    );
    // (the .json log lists the odd id first) q1 1, q2 0, odd id 0.5, q4 0
    assert_eq!(
        v["results"]["scores"][0]["metrics"]["accuracy"]["value"],
        json!(0.375)
    );
}

/// `verdict check` asks for a note on an ambiguous target (the edit's reason).
#[test]
fn check_wants_a_note_on_an_ambiguous_target() {
    verdict::bench::register_containers();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("vr_mc.eval");
    std::fs::copy(fixture("vr_mc.eval"), &file).unwrap();
    let mut store = verdict::store::Store::open(&file).unwrap();
    store
        .set_review(
            0,
            "bob",
            Some(json!({"verdict": "ambiguous-target", "at": "2026-11-26T23:01:00Z"})),
        )
        .unwrap();
    store.save().unwrap();
    let out = verdict(&["check", file.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("reviews.bob.note: warning: an ambiguous-target verdict without a note"),
        "{text}"
    );
}
