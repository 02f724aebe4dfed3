//! Every figure verdict writes into an Inspect log, against inspect_ai's own: verdicts
//! given through the store and saved; then inspect_ai (the Python package) replays the
//! very edits verdict wrote onto a copy of the original log with its own `edit_score`
//! (which recomputes the figures: `recompute_metrics`) and compares every figure of
//! `results` (each scorer, reducer and metric, the scored and unscored counts) and of
//! `reductions` (each sample's reduced value, as typed) with verdict's write-back.
//!
//! Needs a Python with inspect_ai (`VERDICT_INSPECT_PYTHON`, else
//! /work/venv-inspect/bin/python); without one each test passes after printing SKIPPED
//! (tests/fixtures/real-logs/inspect/README.md). docs/harness-figures.md records what it
//! compared, with the tool's version.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use verdict::bench::Items;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real-logs/inspect/logs")
        .join(name)
}

/// A Python that imports inspect_ai: `VERDICT_INSPECT_PYTHON`, else
/// /work/venv-inspect/bin/python.
fn inspect_python() -> Option<String> {
    [
        std::env::var("VERDICT_INSPECT_PYTHON").ok(),
        Some("/work/venv-inspect/bin/python".to_string()),
    ]
    .into_iter()
    .flatten()
    .find(|py| {
        Command::new(py)
            .args(["-c", "import inspect_ai.log"])
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// Replays the edits of the log verdict wrote (argv 1) onto the original (argv 2) with
/// inspect_ai's `edit_score`, then compares every figure; prints the comparison as JSON.
const COMPARE: &str = r#"
import json, math, sys
import importlib.metadata as md
from inspect_ai.log import read_eval_log, edit_score

written, original = sys.argv[1], sys.argv[2]
w = read_eval_log(written)
ref = read_eval_log(original)
edits = 0
for s in w.samples:
    for name, sc in (s.scores or {}).items():
        for e in sc.history:
            if e.provenance is not None:
                edit_score(ref, s.id, name, e, epoch=s.epoch)
                edits += 1

def same(a, b):
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) == type(b) and a == b

def shown(x):
    return repr(x) if isinstance(x, float) and not math.isfinite(x) else x

rows = []
def key(e):
    return (e.scorer, e.name, e.reducer)
mine = {key(e): e for e in w.results.scores}
for e in ref.results.scores:
    label = f"{e.name}" + (f" [{e.reducer}]" if e.reducer else "")
    v = mine.get(key(e))
    for what in ("scored_samples", "unscored_samples"):
        a, b = getattr(e, what), (getattr(v, what) if v else None)
        rows.append({"figure": f"{label} {what}", "inspect": a, "verdict": b, "equal": same(a, b)})
    for k, m in e.metrics.items():
        b = v.metrics[k].value if v and k in v.metrics else None
        rows.append({"figure": f"{label} {k}", "inspect": shown(m.value), "verdict": shown(b), "equal": same(m.value, b)})
reds = {(r.scorer, r.reducer): {str(x.sample_id): x.value for x in r.samples} for r in (w.reductions or [])}
for r in ref.reductions or []:
    theirs = reds.get((r.scorer, r.reducer), {})
    for x in r.samples:
        b = theirs.get(str(x.sample_id))
        rows.append({"figure": f"reductions {r.scorer} [{r.reducer}] {x.sample_id}", "inspect": shown(x.value), "verdict": shown(b), "equal": same(x.value, b)})
print(json.dumps({
    "inspect_ai": md.version("inspect_ai"),
    "edits": edits,
    "rows": rows,
    "results_equal": w.results.model_dump(mode="json") == ref.results.model_dump(mode="json"),
}))
"#;

/// Give each (item id, reviewer, review) of `reviews` on a copy of log `name`, save, and
/// compare the log written with inspect_ai's own; returns (figures equal, figures).
fn compare(py: &str, name: &str, reviews: &[(&str, &str, Value)]) -> (usize, usize) {
    verdict::bench::register_containers();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::copy(fixture(name), &file).unwrap();
    let mut store = verdict::store::Store::open(&file).unwrap();
    for (id, who, review) in reviews {
        let i = (0..store.len())
            .find(|&i| store.item(i).unwrap().id.as_deref() == Some(*id))
            .unwrap_or_else(|| panic!("{name}: no item {id}"));
        store.set_review(i, who, Some(review.clone())).unwrap();
    }
    store.save().unwrap();
    let out = Command::new(py)
        .args([
            "-c",
            COMPARE,
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
    let rows = v["rows"].as_array().unwrap();
    let differ: Vec<&Value> = rows.iter().filter(|r| r["equal"] != json!(true)).collect();
    eprintln!(
        "{name} (inspect_ai {}): {} edits; {} figures, {} equal, {} differ",
        v["inspect_ai"],
        v["edits"],
        rows.len(),
        rows.len() - differ.len(),
        differ.len()
    );
    assert!(
        differ.is_empty(),
        "{name}: figures that differ from inspect_ai's:\n{}",
        differ
            .iter()
            .map(|r| r.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(v["results_equal"], json!(true), "{name}: results");
    assert!(v["edits"].as_u64().unwrap() >= reviews.len() as u64);
    (rows.len() - differ.len(), rows.len())
}

fn at(s: u32) -> String {
    format!("2026-11-28T10:{:02}:{:02}Z", s / 60, s % 60)
}

/// Three epochs reduced by mean, mode and at_least_2; four scorers; failed samples;
/// verdicts on every scorer, an ambiguous target, a note alone.
#[test]
fn every_figure_of_a_log_with_three_reducers_and_failed_samples_is_inspect_ais() {
    let Some(py) = inspect_python() else {
        eprintln!(
            "SKIPPED every_figure_of_a_log_with_three_reducers_and_failed_samples_is_inspect_ais: \
             no Python with inspect_ai (see tests/fixtures/real-logs/inspect/README.md)"
        );
        return;
    };
    for name in ["vr_epochs.eval", "vr_epochs.json"] {
        compare(
            &py,
            name,
            &[
                (
                    "e3 (epoch 1)",
                    "alice",
                    json!({"verdict": "correct", "at": at(1), "note": "C is 7"}),
                ),
                (
                    "e4 (epoch 1)",
                    "alice",
                    json!({"verdict": "correct", "at": at(2),
                    "scorers": {"match": {"verdict": "correct", "at": at(2)}}}),
                ),
                (
                    "e6 (epoch 1)",
                    "bob",
                    json!({"at": at(3),
                    "scorers": {"model_graded_qa": {"verdict": "incorrect", "at": at(3), "note": "not partly right"}}}),
                ),
                (
                    "chat (epoch 2)",
                    "bob",
                    json!({"at": at(4),
                    "scorers": {"includes": {"verdict": "correct", "at": at(4)}}}),
                ),
                (
                    "flaky (epoch 3)",
                    "carol",
                    json!({"verdict": "ambiguous-target", "at": at(5), "note": "2 and 3 are both small primes"}),
                ),
                (
                    "12 (epoch 1)",
                    "dave",
                    json!({"at": at(6), "note": "a trick question"}),
                ),
                (
                    "e1 (epoch 2)",
                    "erin",
                    json!({"verdict": "incorrect", "at": at(7)}),
                ),
            ],
        );
    }
}

/// 520 samples (numpy's pairwise sums), one failed.
#[test]
fn every_figure_of_a_log_of_520_samples_with_a_failed_one_is_inspect_ais() {
    let Some(py) = inspect_python() else {
        eprintln!(
            "SKIPPED every_figure_of_a_log_of_520_samples_with_a_failed_one_is_inspect_ais: \
             no Python with inspect_ai (see tests/fixtures/real-logs/inspect/README.md)"
        );
        return;
    };
    compare(
        &py,
        "vr_many.eval",
        &[
            (
                "5 (epoch 1)",
                "alice",
                json!({"verdict": "correct", "at": at(1)}),
            ),
            (
                "10 (epoch 1)",
                "alice",
                json!({"at": at(2),
                "scorers": {"includes": {"verdict": "incorrect", "at": at(2)}}}),
            ),
            (
                "400 (epoch 1)",
                "bob",
                json!({"verdict": "ambiguous-target", "at": at(3), "note": "?"}),
            ),
        ],
    );
}

/// The earlier fixtures: two epochs (mean), NaN and Infinity.
#[test]
fn every_figure_of_the_two_epoch_and_nan_logs_is_inspect_ais() {
    let Some(py) = inspect_python() else {
        eprintln!(
            "SKIPPED every_figure_of_the_two_epoch_and_nan_logs_is_inspect_ais: \
             no Python with inspect_ai (see tests/fixtures/real-logs/inspect/README.md)"
        );
        return;
    };
    for name in ["vr_mc.eval", "vr_mc.json"] {
        compare(
            &py,
            name,
            &[
                (
                    "q2 (epoch 1)",
                    "alice",
                    json!({"verdict": "correct", "at": at(1)}),
                ),
                (
                    "q1 (epoch 2)",
                    "bob",
                    json!({"at": at(2),
                    "scorers": {"match": {"verdict": "incorrect", "at": at(2)}}}),
                ),
            ],
        );
    }
    for name in ["vr_nan.eval", "vr_nan.json"] {
        compare(
            &py,
            name,
            &[
                (
                    "q2 (epoch 1)",
                    "alice",
                    json!({"verdict": "correct", "at": at(1)}),
                ),
                (
                    "q4 (epoch 1)",
                    "bob",
                    json!({"at": at(2),
                    "scorers": {"confidence": {"verdict": "incorrect", "at": at(2)}}}),
                ),
            ],
        );
    }
}
