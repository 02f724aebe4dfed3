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

/// An entry as it is stored: its method, its CRC-32 and its compressed data.
fn record<'a>(bytes: &'a [u8], name: &str) -> (::zip::CompressionMethod, u32, &'a [u8]) {
    let a = Archive::read(bytes).unwrap();
    let e = a.entry(name).unwrap();
    (e.method, e.crc, &bytes[e.data.clone()])
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
    p.wait_for("My grade on choice (headline): correct");
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
                "read as an Inspect AI .{} log (8 samples × epochs; verdicts on scorer choice (the headline) or match)",
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

/// `verdict stats` on a log holding NaN and Infinity writes them as Inspect does.
#[test]
fn stats_shows_nan_and_infinity_as_inspect_writes_them() {
    let out = verdict(&["stats", fixture("vr_nan.eval").to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let row = |m: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with("confidence") && l.contains(m))
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .unwrap_or_else(|| panic!("{m}: {text}"))
    };
    assert_eq!(row("mean"), "confidence mean Infinity Infinity");
    // (recomputed and corrected as the log has it: NaN over an infinite value)
    assert_eq!(row("stderr"), "confidence stderr NaN NaN");
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

/// What inspect_ai reads of verdicts on both scorers of the log (`choice`, the headline,
/// and `match`), and what its own edit_score makes of the same edits on the original.
const READ_BACK_SCORERS: &str = r#"
import json, sys
from inspect_ai.log import read_eval_log, edit_score, ProvenanceData
from inspect_ai.scorer import ScoreEdit
written, original = sys.argv[1], sys.argv[2]
log = read_eval_log(written)
out = {"samples": {}}
for s in log.samples:
    out["samples"][f"{s.id}@{s.epoch}"] = {
        name: {
            "value": sc.value,
            "edits": [
                {"author": e.provenance.author, "reason": e.provenance.reason, "value": e.value}
                for e in sc.history if e.provenance is not None
            ],
        }
        for name, sc in s.scores.items()
    }
    out["samples"][f"{s.id}@{s.epoch}"]["events"] = [
        e.score_name for e in s.events if e.event == "score_edit"
    ]
out["results"] = log.results.model_dump(mode="json")["scores"]
out["reductions"] = [r.model_dump(mode="json") for r in log.reductions]
ref = read_eval_log(original)
edit_score(ref, "q2", "match", ScoreEdit(value="C", provenance=ProvenanceData(author="alice", reason="ends with B")), epoch=1)
edit_score(ref, "q2", "choice", ScoreEdit(value="I", provenance=ProvenanceData(author="alice", reason=None)), epoch=1)
edit_score(ref, "q1", "match", ScoreEdit(value="I", provenance=ProvenanceData(author="bob", reason=None)), epoch=2)
out["ref_results"] = ref.results.model_dump(mode="json")["scores"]
out["ref_reductions"] = [r.model_dump(mode="json") for r in ref.reductions]
print(json.dumps(out))
"#;

/// Verdicts on the second scorer (`scorers.match`) are read by inspect_ai as edits of
/// `match` only: its value, the author and reason, a `score_edit` event named `match`,
/// and `match`'s figures as inspect_ai's edit_score recomputes them; `choice` keeps its
/// values except where a verdict was on `choice`.
#[test]
fn inspect_ai_reads_verdicts_on_the_second_scorer_as_that_scorers_edits() {
    let Some(py) = inspect_python() else {
        eprintln!(
            "SKIPPED inspect_ai_reads_verdicts_on_the_second_scorer_as_that_scorers_edits: \
             no Python with inspect_ai (see tests/fixtures/real-logs/inspect/README.md)"
        );
        return;
    };
    verdict::bench::register_containers();
    for name in ["vr_mc.eval", "vr_mc.json"] {
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
                Some(json!({"verdict": "incorrect", "at": "2026-11-26T23:00:01Z",
                    "scorers": {"match": {"verdict": "correct", "at": "2026-11-26T23:00:00Z", "note": "ends with B"}}})),
            )
            .unwrap();
        let j = find(&store, "q1 (epoch 2)");
        store
            .set_review(
                j,
                "bob",
                Some(json!({"at": "2026-11-26T23:01:00Z",
                    "scorers": {"match": {"verdict": "incorrect", "at": "2026-11-26T23:01:00Z"}}})),
            )
            .unwrap();
        store.save().unwrap();
        let out = Command::new(&py)
            .args([
                "-c",
                READ_BACK_SCORERS,
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
        assert_eq!(q2["match"]["value"], json!("C"), "{name}");
        assert_eq!(
            q2["match"]["edits"],
            json!([{"author": "alice", "reason": "ends with B", "value": "C"}])
        );
        assert_eq!(q2["choice"]["value"], json!("I"));
        assert_eq!(
            q2["choice"]["edits"],
            json!([{"author": "alice", "reason": null, "value": "I"}])
        );
        assert_eq!(q2["events"], json!(["match", "choice"]), "{name}");
        let q1 = &v["samples"]["q1@2"];
        assert_eq!(q1["match"]["value"], json!("I"));
        assert_eq!(q1["match"]["edits"][0]["author"], json!("bob"));
        assert_eq!(
            q1["choice"]["value"],
            json!("C"),
            "bob's verdict is on match"
        );
        assert_eq!(q1["choice"]["edits"], json!([]));
        assert_eq!(q1["events"], json!(["match"]));
        assert_eq!(v["results"], v["ref_results"], "{name}");
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

        // verdict's own figures: per scorer, from the reviews rebuilt out of the log
        let out = verdict(&["stats", file.to_str().unwrap(), "--json"]);
        assert!(out.status.success());
        let st: Value = serde_json::from_slice(&out.stdout).unwrap();
        let x = &st["benchmarks"]["inspect"]["scorers"];
        // match: q1 (1 + 0)/2, q2 (1 + 0)/2, odd id 1, q4 0 → 0.5; as scored 0.5
        assert_eq!(x["match"]["corrected_accuracy"], json!(0.5), "{name}");
        assert_eq!(x["match"]["reviewed"], json!(2));
        assert_eq!(
            x["match"]["verdicts"],
            json!({"correct": 1, "incorrect": 1})
        );
        assert_eq!(x["choice"]["reviewed"], json!(1));
        assert_eq!(x["choice"]["verdicts"], json!({"incorrect": 1}));
        // the log's figures as inspect_ai recomputed them
        let log_match = v["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == json!("match"))
            .unwrap()["metrics"]["accuracy"]["value"]
            .clone();
        assert_eq!(
            st["benchmarks"]["inspect"]["harness"]["match"]["accuracy"],
            log_match
        );
        let text = String::from_utf8_lossy(&verdict(&["stats", file.to_str().unwrap()]).stdout)
            .into_owned();
        assert!(
            text.contains("match: accuracy as scored 0.5000, in the log now 0.5000, corrected 0.5000; 2 of 8 items reviewed on it (correct 1, incorrect 1)"),
            "{text}"
        );
    }
}

/// `verdict check` on verdicts on scorers: one on a scorer the sample lacks, one naming
/// the headline under `scorers`, one that is none of the three.
#[test]
fn check_reads_verdicts_on_scorers() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lines.jsonl");
    // the lines a log opens as (what a journal replays onto), written as a JSONL file
    verdict::bench::register_containers();
    let bytes = std::fs::read(fixture("vr_mc.json")).unwrap();
    let opened = verdict::bench::inspect::log::sniff(&fixture("vr_mc.json"), &bytes)
        .unwrap()
        .unwrap();
    let mut first: Value =
        serde_json::from_slice(opened.lines.split(|b| *b == b'\n').next().unwrap()).unwrap();
    first["reviews"] = json!({"alice": {"at": "2026-11-26T23:00:00Z", "scorers": {
        "includes": {"verdict": "correct"},
        "choice": {"verdict": "correct"},
        "match": {"verdict": "maybe"}
    }}});
    std::fs::write(&file, format!("{first}\n")).unwrap();
    let out = verdict(&["check", file.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    for want in [
        "reviews.alice.scorers.includes: error: the sample has no score of scorer \"includes\"",
        "reviews.alice.scorers.choice: error: \"choice\" is the headline scorer",
        "reviews.alice.scorers.match.verdict: error: a verdict on a scorer is correct, incorrect or ambiguous-target, not \"maybe\"",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
}

/// Through the binary: `c` picks `match`, `2` grades it; the log gets an edit of `match`
/// by erin and none of `choice`; reopened, the verdict is shown on `match`, not `choice`.
#[test]
fn a_verdict_on_the_second_scorer_through_the_binary_is_an_edit_of_that_scorer() {
    let sb = Sandbox::new();
    std::fs::copy(fixture("vr_mc.eval"), sb.path("vr_mc.eval")).unwrap();
    let before = std::fs::read(sb.path("vr_mc.eval")).unwrap();
    let mut p = sb.open("vr_mc.eval", &[], 60_000);
    p.wait_for("red planet");
    p.send("c");
    p.wait_for("My grade on match: not graded");
    p.send("2");
    p.wait_for("graded match on q1 (epoch 1)");
    p.send("q");
    assert!(p.wait_exit().success());
    let after = std::fs::read(sb.path("vr_mc.eval")).unwrap();
    let s = entry(&after, "samples/q1_epoch_1.json");
    let old = entry(&before, "samples/q1_epoch_1.json");
    assert_eq!(s["scores"]["choice"], old["scores"]["choice"]);
    assert_eq!(s["scores"]["match"]["value"], json!("I"));
    assert_eq!(
        s["scores"]["match"]["history"][1]["provenance"]["author"],
        json!("erin")
    );
    let header = entry(&after, "header.json");
    let scores = header["results"]["scores"].as_array().unwrap();
    assert_eq!(scores[0]["name"], json!("choice"));
    assert_eq!(scores[0]["metrics"]["accuracy"]["value"], json!(0.5));
    assert_eq!(scores[1]["name"], json!("match"));
    assert_eq!(scores[1]["metrics"]["accuracy"]["value"], json!(0.375));

    let mut p = sb.open("vr_mc.eval", &[], 60_000);
    // (it opens where the session left off: a verdict on match stays on the sample)
    p.wait_for("red planet");
    p.wait_for("My grade on choice (headline): not graded · match: incorrect");
    p.send("c");
    p.wait_for("My grade on match: incorrect");
    p.send("q");
    assert!(p.wait_exit().success());
    assert!(std::fs::read(sb.path("vr_mc.eval")).unwrap() == after);
}

/// What inspect_ai reads of the NaN log verdict wrote (non-finite floats as text, for
/// JSON), and what its own edit_score makes of the same edits on the original.
const READ_BACK_NAN: &str = r#"
import json, math, sys
from inspect_ai.log import read_eval_log, edit_score, ProvenanceData
from inspect_ai.scorer import ScoreEdit
def plain(x):
    if isinstance(x, float) and not math.isfinite(x):
        return repr(x)
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, list):
        return [plain(v) for v in x]
    return x
written, original = sys.argv[1], sys.argv[2]
log = read_eval_log(written)
out = {"samples": {}}
for s in log.samples:
    out["samples"][s.id] = {
        name: {"value": sc.value, "authors": [e.provenance.author for e in sc.history if e.provenance]}
        for name, sc in s.scores.items()
    }
out["results"] = log.results.model_dump(mode="json")["scores"]
out["reductions"] = [r.model_dump(mode="json") for r in log.reductions]
ref = read_eval_log(original)
edit_score(ref, "q2", "choice", ScoreEdit(value="C", provenance=ProvenanceData(author="alice")), epoch=1)
edit_score(ref, "q4", "confidence", ScoreEdit(value=1, provenance=ProvenanceData(author="bob")), epoch=1)
out["ref_results"] = ref.results.model_dump(mode="json")["scores"]
out["ref_reductions"] = [r.model_dump(mode="json") for r in ref.reductions]
print(json.dumps(plain(out)))
"#;

/// A log holding NaN and Infinity (vr_nan.*): verdicts on its samples are written back,
/// inspect_ai reads them, and its figures are the ones inspect_ai's own edit_score
/// recomputes (NaN kept where Inspect has it: an unscored sample).
#[test]
fn inspect_ai_reads_back_verdicts_on_a_log_holding_nan_and_infinity() {
    let Some(py) = inspect_python() else {
        eprintln!(
            "SKIPPED inspect_ai_reads_back_verdicts_on_a_log_holding_nan_and_infinity: \
             no Python with inspect_ai (see tests/fixtures/real-logs/inspect/README.md)"
        );
        return;
    };
    verdict::bench::register_containers();
    for name in ["vr_nan.eval", "vr_nan.json"] {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(name);
        std::fs::copy(fixture(name), &file).unwrap();
        let mut store = verdict::store::Store::open(&file).unwrap();
        let find = |store: &verdict::store::Store, id: &str| {
            (0..store.len())
                .find(|&i| store.item(i).unwrap().id.as_deref() == Some(id))
                .unwrap()
        };
        // q2 (its confidence NaN) on choice; q4 (its confidence Infinity) on confidence
        let i = find(&store, "q2 (epoch 1)");
        store
            .set_review(
                i,
                "alice",
                Some(json!({"verdict": "correct", "at": "2026-11-26T23:00:00Z"})),
            )
            .unwrap();
        let j = find(&store, "q4 (epoch 1)");
        store
            .set_review(
                j,
                "bob",
                Some(json!({"at": "2026-11-26T23:01:00Z",
                    "scorers": {"confidence": {"verdict": "correct", "at": "2026-11-26T23:01:00Z"}}})),
            )
            .unwrap();
        store.save().expect("a log holding NaN is written back");
        let out = Command::new(&py)
            .args([
                "-c",
                READ_BACK_NAN,
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
        assert_eq!(v["samples"]["q2"]["choice"]["value"], json!("C"), "{name}");
        assert_eq!(v["samples"]["q2"]["choice"]["authors"], json!(["alice"]));
        assert_eq!(v["samples"]["q2"]["confidence"]["value"], json!("nan"));
        assert_eq!(v["samples"]["q4"]["confidence"]["value"], json!(1));
        assert_eq!(v["samples"]["q4"]["confidence"]["authors"], json!(["bob"]));
        assert_eq!(v["samples"]["q4"]["choice"]["value"], json!("I"));
        assert_eq!(v["results"], v["ref_results"], "{name}");
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
    }
}

/// A save in the middle of a session (the fold of a pause): the items then show the log
/// as it now is (the score's value, the edit, the log's recomputed figures), and a verdict
/// taken back after that save is a withdrawal in the log's history, not the earlier edit
/// erased.
#[test]
fn after_a_save_in_session_the_items_are_the_log_as_it_now_is() {
    verdict::bench::register_containers();
    for name in ["vr_mc.eval", "vr_mc.json"] {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(name);
        std::fs::copy(fixture(name), &file).unwrap();
        let mut o = verdict::session::open(&file, "erin").unwrap();
        let find = |store: &verdict::store::Store, id: &str| {
            (0..store.len())
                .find(|&i| store.item(i).unwrap().id.as_deref() == Some(id))
                .unwrap()
        };
        let i = find(&o.store, "q2 (epoch 1)");
        o.store
            .set_review(
                i,
                "erin",
                Some(json!({"verdict": "correct", "at": "2026-11-26T23:00:00Z", "seconds": 3.0})),
            )
            .unwrap();
        let cancel = std::sync::atomic::AtomicBool::new(false);
        verdict::session::fold(&mut o.store, &mut o.own, &mut o.stale, &cancel).unwrap();
        let it = o.store.item(i).unwrap();
        let s = verdict::bench::inspect::spec::sample(&it).unwrap();
        let choice = s.scores.iter().find(|x| x.name == "choice").unwrap();
        assert_eq!(
            choice.value,
            json!("C"),
            "{name}: the value the log now holds"
        );
        assert_eq!(choice.original, json!("I"));
        assert_eq!(choice.edits.len(), 1, "{name}");
        assert_eq!(choice.edits[0].author.as_deref(), Some("erin"));
        // the log's figures, on every item
        let other = o.store.item(find(&o.store, "q1 (epoch 1)")).unwrap();
        let s1 = verdict::bench::inspect::spec::sample(&other).unwrap();
        let acc = s1
            .harness
            .iter()
            .find(|f| f.scorer == "choice" && f.metric == "accuracy")
            .unwrap();
        assert_eq!(acc.value, json!(0.625), "{name}");
        // taken back after the save: a withdrawal in the history
        o.store.set_review(i, "erin", None).unwrap();
        verdict::session::fold(&mut o.store, &mut o.own, &mut o.stale, &cancel).unwrap();
        let after = std::fs::read(&file).unwrap();
        let sample = if name.ends_with(".eval") {
            entry(&after, "samples/q2_epoch_1.json")
        } else {
            let d: Value = serde_json::from_slice(&after).unwrap();
            d["samples"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["id"] == json!("q2") && s["epoch"] == json!(1))
                .unwrap()
                .clone()
        };
        let h = sample["scores"]["choice"]["history"].as_array().unwrap();
        assert_eq!(h.len(), 3, "{name}: {h:?}");
        assert_eq!(h[1]["provenance"]["author"], json!("erin"));
        assert_eq!(
            h[2]["provenance"]["metadata"],
            json!({"verdict": "withdrawn"})
        );
        assert_eq!(sample["scores"]["choice"]["value"], json!("I"));
    }
}

/// Through the binary: after the save of a pause, the graded sample's screen shows the
/// value and the edit the log now holds, and the log's figures recomputed.
#[test]
fn the_screen_shows_the_log_as_saved_during_the_session() {
    let sb = Sandbox::new();
    std::fs::copy(fixture("vr_mc.eval"), sb.path("vr_mc.eval")).unwrap();
    let mut p = sb.open("vr_mc.eval", &[], 300);
    p.wait_for("red planet");
    p.send("n");
    p.wait_for("7 times 6");
    p.send("1");
    p.wait_for("✔ saved");
    p.send("p");
    p.wait_for("7 times 6");
    p.wait_for("> choice (headline): C (scored I)");
    p.wait_for("edited to C by erin");
    p.send("q");
    assert!(p.wait_exit().success());
}

/// kill -9 right after a verdict on the second scorer: the journal keeps it on that
/// scorer; the next session recovers it and its save writes it as an edit of `match`.
#[test]
fn kill_9_after_a_verdict_on_the_second_scorer_loses_nothing() {
    let sb = Sandbox::new();
    std::fs::copy(fixture("vr_mc.json"), sb.path("vr_mc.json")).unwrap();
    let before = std::fs::read(sb.path("vr_mc.json")).unwrap();
    let mut p = sb.open("vr_mc.json", &[], 60_000);
    p.wait_for("Pick the prime");
    p.send("c");
    p.wait_for("My grade on match: not graded");
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
    assert_eq!(s["scores"]["choice"]["value"], json!("C"));
    assert!(
        s["scores"]["choice"]
            .get("history")
            .is_none_or(|h| h == &json!([]))
    );
    assert_eq!(s["scores"]["match"]["value"], json!("I"));
    assert_eq!(
        s["scores"]["match"]["history"][1]["provenance"]["author"],
        json!("erin")
    );
}

/// A save of the session's own verdicts into an Inspect log (`.json` and `.eval`: the
/// log is read again after the save) is not another program's change: the status line
/// does not say "the file changed on disk", and the screen stays where the reviewer is.
#[test]
fn the_sessions_own_save_of_a_log_is_not_called_a_change_on_disk() {
    for name in ["vr_mc.json", "vr_mc.eval"] {
        let sb = Sandbox::new();
        std::fs::copy(fixture(name), sb.path(name)).unwrap();
        let before = std::fs::read(sb.path(name)).unwrap();
        let mut p = sb.open(name, &[], 200);
        p.wait_for("1/8");
        p.send("1");
        p.wait_for("2/8");
        p.wait_for("✔ saved");
        // (the fold ran: the file is the one it wrote)
        let t0 = std::time::Instant::now();
        while std::fs::read(sb.path(name)).unwrap() == before {
            assert!(t0.elapsed().as_secs() < 20, "{name}: never saved");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        // what the screen shows once the worker has said all it says after the save
        std::thread::sleep(std::time::Duration::from_millis(700));
        let screen = p.with_screen(|s| s.contents());
        assert!(
            !screen.contains("changed on disk"),
            "{name}: its own save called a change on disk:\n{screen}"
        );
        assert!(screen.contains("2/8"), "{name}: moved:\n{screen}");
        p.send("q");
        assert!(p.wait_exit().success());
    }
}
