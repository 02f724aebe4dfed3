//! `verdict stats` and `check` on Inspect logs with several reducers (issue 34, case 3):
//! every figure of the log, labelled by scorer, reducer and metric as Inspect names
//! them, each beside the same figure corrected by the verdicts by its own reducer; a
//! figure the log's values no longer give is marked stale.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use verdict::bench::Items;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real-logs/inspect/logs")
        .join(name)
}

fn verdict(args: &[&str]) -> (String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.success(),
    )
}

fn stats_json(file: &Path) -> Value {
    let (text, ok) = verdict(&["stats", file.to_str().unwrap(), "--json"]);
    assert!(ok, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    v["benchmarks"]["inspect"].clone()
}

/// The text row of a figure, its cells joined by one space.
fn row(text: &str, start: &str) -> String {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no row {start:?}:\n{text}"))
}

/// Every figure of the header, each once, with its reducer; unreviewed, each corrected
/// figure is the log's (the mode's beside the mode's, not the mean's).
#[test]
fn stats_shows_every_figure_labelled_by_scorer_reducer_and_metric() {
    for name in ["vr_epochs.eval", "vr_epochs.json"] {
        let x = stats_json(&fixture(name));
        let figures = x["figures"].as_array().unwrap();
        assert_eq!(
            figures.len(),
            24,
            "{name}: 4 scorers × 3 reducers × 2 metrics"
        );
        let header: Value = if name.ends_with(".json") {
            serde_json::from_slice(&std::fs::read(fixture(name)).unwrap()).unwrap()
        } else {
            let bytes = std::fs::read(fixture(name)).unwrap();
            let a = verdict::bench::inspect::zip::Archive::read(&bytes).unwrap();
            serde_json::from_slice(
                &verdict::bench::inspect::zip::read(&bytes, a.entry("header.json").unwrap())
                    .unwrap(),
            )
            .unwrap()
        };
        let mut k = 0;
        for s in header["results"]["scores"].as_array().unwrap() {
            for (m, v) in s["metrics"].as_object().unwrap() {
                let f = &figures[k];
                assert_eq!(f["scorer"], s["scorer"], "{name} {k}");
                assert_eq!(f["reducer"], s["reducer"], "{name} {k}");
                assert_eq!(f["metric"], json!(m), "{name} {k}");
                assert_eq!(f["log"], v["value"], "{name} {k}");
                assert_eq!(f["scored_samples"], json!(11));
                // (to the last digit but one: inspect_ai summed the samples in the order
                // they ran; its recompute sums them in id order, as verdict does)
                let near = |a: &Value, b: &Value| {
                    let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
                    (a - b).abs() <= 1e-15 * a.abs().max(1.0)
                };
                assert!(near(&f["recomputed"], &v["value"]), "{name} {k}: {f}");
                assert_eq!(
                    f["corrected"], f["recomputed"],
                    "{name} {k}: nothing reviewed"
                );
                assert_eq!(f["stale"], Value::Null, "{name} {k}");
                k += 1;
            }
        }
        let (text, ok) = verdict(&["stats", fixture(name).to_str().unwrap()]);
        assert!(ok);
        assert_eq!(
            row(&text, "choice mode accuracy"),
            "choice mode accuracy 0.6364 0.6364"
        );
        assert_eq!(
            row(&text, "model_graded_qa at_least_2 stderr"),
            "model_graded_qa at_least_2 stderr 0.1575 0.1575"
        );
        assert!(!text.contains("stale"), "{text}");
    }
}

/// Verdicts given and written back: the log's figures are the recomputed ones, none
/// stale; the corrected figures follow the verdicts on each scorer, by each reducer.
#[test]
fn after_a_write_back_every_figure_is_recomputed_and_corrected() {
    verdict::bench::register_containers();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("vr_epochs.eval");
    std::fs::copy(fixture("vr_epochs.eval"), &file).unwrap();
    let mut store = verdict::store::Store::open(&file).unwrap();
    let find = |store: &verdict::store::Store, id: &str| {
        (0..store.len())
            .find(|&i| store.item(i).unwrap().id.as_deref() == Some(id))
            .unwrap()
    };
    for (id, review) in [
        (
            "e3 (epoch 1)",
            json!({"verdict": "correct", "at": "2026-11-28T10:00:01Z"}),
        ),
        (
            "e4 (epoch 1)",
            json!({"verdict": "correct", "at": "2026-11-28T10:00:02Z"}),
        ),
        (
            "e5 (epoch 3)",
            json!({"verdict": "ambiguous-target", "note": "two answers", "at": "2026-11-28T10:00:03Z"}),
        ),
    ] {
        let i = find(&store, id);
        store.set_review(i, "alice", Some(review)).unwrap();
    }
    store.save().unwrap();
    let x = stats_json(&file);
    let fig = |scorer: &str, reducer: &str, metric: &str| {
        x["figures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| {
                f["scorer"] == json!(scorer)
                    && f["reducer"] == json!(reducer)
                    && f["metric"] == json!(metric)
            })
            .unwrap()
            .clone()
    };
    // the log, as inspect_ai's edit_score writes it (tests_figures.rs)
    let mode = fig("choice", "mode", "accuracy");
    assert_eq!(mode["log"], json!(0.7272727272727273));
    assert_eq!(mode["stale"], Value::Null);
    // corrected: e5's third epoch (I) left out: e5 reduces to C, C → unchanged mode
    assert_eq!(mode["corrected"], json!(0.7272727272727273));
    // the mean: e5 was (1 + 1 + 0) / 3, corrected (1 + 1) / 2 = 1
    let mean = fig("choice", "mean", "accuracy");
    assert_eq!(mean["log"], json!(0.6212121212121211));
    let corrected = mean["corrected"].as_f64().unwrap();
    let want = (0.6212121212121211 * 11.0 - 2.0 / 3.0 + 1.0) / 11.0;
    assert!((corrected - want).abs() < 1e-12, "{corrected} {want}");
    // match: no verdict on it
    let m = fig("match", "at_least_2", "accuracy");
    assert_eq!(m["corrected"], m["log"]);
    assert!(
        x["figures"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["stale"].is_null())
    );
}

/// A figure the log's values do not give (a score edited without the figures
/// recomputed) is marked stale with what the values give; one of a reducer verdict does
/// not recompute, after an edit, is marked as possibly stale; neither is corrected.
#[test]
fn a_figure_the_values_do_not_give_is_marked_stale() {
    let metrics = |a: f64| json!({"accuracy": {"name": "accuracy", "value": a, "params": {}}});
    let edited = json!({"value": "C", "history": [
        {"value": "I", "metadata": {}},
        {"value": "C", "answer": "UNCHANGED", "explanation": "UNCHANGED", "reason": "UNCHANGED", "metadata": "UNCHANGED",
         "provenance": {"timestamp": "2026-11-28T10:00:00Z", "author": "zed", "metadata": {}}}
    ]});
    let doc = json!({
        "version": 2,
        "status": "success",
        "eval": {"task": "t", "model": "m", "config": {"epochs": 2, "epochs_reducer": ["mean", "my_pick"]},
                 "scorers": [{"name": "s", "options": {}, "metrics": [{"name": "inspect_ai/accuracy", "options": {}}]}]},
        "results": {"scores": [
            {"name": "s", "scorer": "s", "reducer": "mean", "scored_samples": 2, "unscored_samples": 0, "metrics": metrics(0.5)},
            {"name": "s", "scorer": "s", "reducer": "my_pick", "scored_samples": 2, "unscored_samples": 0, "metrics": metrics(0.5)}
        ]},
        "samples": [
            {"id": 1, "epoch": 1, "input": "q", "target": "t", "scores": {"s": edited}},
            {"id": 2, "epoch": 1, "input": "q", "target": "t", "scores": {"s": {"value": "C"}}},
            {"id": 1, "epoch": 2, "input": "q", "target": "t", "scores": {"s": {"value": "I"}}},
            {"id": 2, "epoch": 2, "input": "q", "target": "t", "scores": {"s": {"value": "C"}}}
        ]
    });
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.json");
    std::fs::write(&file, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let x = stats_json(&file);
    let f = x["figures"].as_array().unwrap();
    // mean: sample 1 is now (1 + 0) / 2, sample 2 is 1: 0.75, not 0.5
    assert_eq!(f[0]["recomputed"], json!(0.75));
    assert!(
        f[0]["stale"]
            .as_str()
            .unwrap()
            .starts_with("the log's values give 0.7500"),
        "{}",
        f[0]
    );
    assert_eq!(f[1]["recomputed"], Value::Null);
    assert_eq!(f[1]["corrected"], Value::Null);
    assert!(
        f[1]["stale"]
            .as_str()
            .unwrap()
            .contains("verdict does not recompute reducer my_pick"),
        "{}",
        f[1]
    );
    let (text, _) = verdict(&["stats", file.to_str().unwrap()]);
    assert_eq!(
        row(&text, "s mean accuracy"),
        "s mean accuracy 0.5000 (stale) 0.7500"
    );
    assert_eq!(
        row(&text, "s my_pick accuracy"),
        "s my_pick accuracy 0.5000 (stale) not corrected"
    );
    assert!(
        text.contains("stale: s [mean] accuracy: the log's values give 0.7500"),
        "{text}"
    );
}

/// `check` names each scorer once (the log has an entry per scorer and reducer), and
/// places a log's problems by item, not by a line of the file.
#[test]
fn check_names_each_scorer_once_and_places_problems_by_item() {
    let (text, _) = verdict(&["check", fixture("vr_epochs.json").to_str().unwrap()]);
    assert!(
        text.contains(
            "verdicts on scorer choice (the headline) or match, includes, model_graded_qa)"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "vr_epochs.json: item 2: boom (epoch 1): sample.error: warning: the sample failed"
        ),
        "{text}"
    );
}

/// A command that reads one file (`agree`) given a folder of Inspect logs lists them
/// with the command that opens each, and how to read them as one set (the reviewer
/// too), not CHARTOM's import (issue 34, case 8; issue 39).
#[test]
fn a_folder_of_inspect_logs_lists_them() {
    let dir = fixture("vr_mc.eval").parent().unwrap().to_path_buf();
    let out = Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(["agree", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("Inspect AI logs. Open one:"), "{err}");
    assert!(
        err.contains("(the reviewer), verdict stats|export|check"),
        "{err}"
    );
    assert!(err.contains("vr_epochs.json"), "{err}");
    assert!(!err.contains("CHARTOM"), "{err}");
}

/// Issue 39: a folder of Inspect logs (three logs written by inspect_ai) is one set for
/// `stats` (one table: each log's figures, with its task and model), `export` (every
/// log's rows, told apart by task and run) and `check` (every log).
#[test]
fn a_folder_of_inspect_logs_is_one_set() {
    let d = tempfile::tempdir().unwrap();
    let names = ["vr_epochs.eval", "vr_mc.json", "vr_nan.eval"];
    for n in names {
        std::fs::copy(fixture(n), d.path().join(n)).unwrap();
    }
    let dir = d.path().to_str().unwrap();
    let (text, ok) = verdict(&["stats", dir, "--json"]);
    assert!(ok, "{text}");
    let s: Value = serde_json::from_str(&text).unwrap();
    let files = s["files"].as_array().unwrap();
    assert_eq!(files.len(), 3);
    for (f, n) in files.iter().zip(names) {
        assert!(f["file"].as_str().unwrap().ends_with(n), "{f}");
        let (t, _) = verdict(&["stats", d.path().join(n).to_str().unwrap(), "--json"]);
        let mut one: Value = serde_json::from_str(&t).unwrap();
        one.as_object_mut()
            .unwrap()
            .insert("file".into(), f["file"].clone());
        assert_eq!(*f, one, "{n}");
    }
    let (text, ok) = verdict(&["stats", dir]);
    assert!(ok, "{text}");
    // one table: each figure's row names its log and task
    let r = row(&text, "vr_epochs.eval");
    assert!(r.contains("vr_epochs") && r.contains("choice"), "{r}");
    let cells = |l: &str| l.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let rows: Vec<Vec<String>> = text.lines().map(cells).collect();
    let find = |want: &[&str]| {
        rows.iter()
            .find(|r| r.len() >= 6 && r[..6] == *want)
            .unwrap_or_else(|| panic!("no {want:?} row in\n{text}"))
            .clone()
    };
    let mode = find(&[
        "vr_epochs.eval",
        "vr_epochs",
        "mockllm/model",
        "match",
        "mode",
        "accuracy",
    ]);
    assert_eq!(mode[6..], ["0.6364", "0.6364"], "{mode:?}");
    let nan = find(&[
        "vr_nan.eval",
        "vr_nan",
        "mockllm/model",
        "confidence",
        "-",
        "mean",
    ]);
    assert_eq!(nan[6], "Infinity", "{nan:?}");
    assert_eq!(
        text.lines().filter(|l| l.contains("log (results)")).count(),
        1,
        "one table: {text}"
    );
    // export: every log's rows, one header
    let (text, ok) = verdict(&["export", dir, "--jsonl"]);
    assert!(ok, "{text}");
    let mut want = 0;
    for n in names {
        let (t, _) = verdict(&["export", d.path().join(n).to_str().unwrap(), "--jsonl"]);
        want += t.lines().count();
    }
    let rows: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), want);
    let mut runs: Vec<&str> = rows.iter().map(|r| r["run"].as_str().unwrap()).collect();
    runs.dedup();
    assert_eq!(runs, names);
    // check: each log; --json one report a line
    let (text, ok) = verdict(&["check", dir]);
    assert!(ok, "{text}");
    for n in names {
        assert!(
            text.lines()
                .any(|l| l.contains(n) && l.contains(" items, 0 errors")),
            "{text}"
        );
    }
    let (text, ok) = verdict(&["check", dir, "--json"]);
    assert!(ok, "{text}");
    let reports: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(reports.len(), 3, "{text}");
    for (r, n) in reports.iter().zip(names) {
        assert!(r["file"].as_str().unwrap().ends_with(n), "{r}");
        assert_eq!(r["errors"], json!(0), "{r}");
    }
}
