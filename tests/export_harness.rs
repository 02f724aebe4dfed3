//! `verdict export` of a harness's logs (issue 34, case 6): the task, the run, the model,
//! the sample's id typed as the harness types it, the epoch and the scorer (Inspect) or
//! the filter (lm-eval), every note, and no other benchmark's empty columns.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use verdict::bench::Items;

fn real(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real-logs")
        .join(path)
}

fn export(file: &Path, format: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(["export", file.to_str().unwrap(), format])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn jsonl(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn an_inspect_log_exports_task_run_typed_id_epoch_scorer_and_every_note() {
    verdict::bench::register_containers();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("vr_epochs.json");
    std::fs::copy(real("inspect/logs/vr_epochs.json"), &file).unwrap();
    let mut store = verdict::store::Store::open(&file).unwrap();
    let i = (0..store.len())
        .find(|&i| store.item(i).unwrap().id.as_deref() == Some("e6 (epoch 1)"))
        .unwrap();
    store
        .set_review(
            i,
            "bob",
            Some(json!({"at": "2026-11-28T10:00:00Z", "note": "on the headline",
                "scorers": {"model_graded_qa": {"verdict": "incorrect", "at": "2026-11-28T10:00:00Z", "note": "not partly right"}}})),
        )
        .unwrap();
    store.save().unwrap();
    let csv_text = export(&file, "--csv");
    let header = csv_text.lines().next().unwrap();
    assert_eq!(
        header,
        "id,line,benchmark,task,run,model,doc_id,epoch,scorer,target,raw_answer,metric,harness_score,metrics,verdict,verdict_resolution,n_reviewers,reviews,notes,error"
    );
    let rows = jsonl(&export(&file, "--jsonl"));
    assert_eq!(rows.len(), 132, "one row per scorer");
    let twelve = rows
        .iter()
        .find(|r| r["id"] == json!("12 (epoch 2)"))
        .unwrap();
    assert_eq!(twelve["doc_id"], json!(12), "a numeric id stays a number");
    assert_eq!(twelve["epoch"], json!(2));
    assert_eq!(twelve["task"], json!("vr_epochs"));
    assert_eq!(twelve["run"], json!("vr_epochs.json"));
    assert_eq!(twelve["scorer"], json!("choice"));
    assert_eq!(twelve["model"], json!("mockllm/model"));
    let e6: Vec<&Value> = rows
        .iter()
        .filter(|r| r["id"] == json!("e6 (epoch 1)"))
        .collect();
    assert_eq!(e6[0]["doc_id"], json!("e6"));
    assert_eq!(e6[0]["scorer"], json!("choice"));
    assert_eq!(e6[0]["notes"], json!("bob: on the headline"));
    assert!(rows[0].get("chart_type").is_none() && rows[0].get("hmi").is_none());
}

/// A sample's epoch in the log: its id, epoch and (scorer, value) in the log's order.
type Epoch = (String, u64, Vec<(String, Value)>);

/// One row per sample × epoch × scorer (issue 34, case 6): each row holds that scorer's
/// value as scored, the verdict resolved over the reviewers on that scorer (the review's
/// own for the headline, `scorers.<name>` for another) and the notes on that scorer. A
/// sample that failed (no scores) keeps one row.
#[test]
fn an_inspect_log_exports_one_row_per_scorer_with_its_value_verdict_and_notes() {
    verdict::bench::register_containers();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("vr_epochs.json");
    std::fs::copy(real("inspect/logs/vr_epochs.json"), &file).unwrap();
    // The log as inspect_ai wrote it: (id, epoch) → [(scorer, value)], in its order.
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let scored: Vec<Epoch> = log["samples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let id = match &s["id"] {
                Value::String(t) => t.clone(),
                v => v.to_string(),
            };
            let scores = s["scores"]
                .as_object()
                .map(|m| {
                    m.iter()
                        .map(|(k, v)| (k.clone(), v["value"].clone()))
                        .collect()
                })
                .unwrap_or_default();
            (id, s["epoch"].as_u64().unwrap(), scores)
        })
        .collect();
    let mut store = verdict::store::Store::open(&file).unwrap();
    let e6 = (0..store.len())
        .find(|&i| store.item(i).unwrap().id.as_deref() == Some("e6 (epoch 1)"))
        .unwrap();
    let at = "2026-11-28T10:00:00Z";
    store
        .set_review(
            e6,
            "bob",
            Some(json!({"at": at, "verdict": "correct", "note": "on the headline",
                "scorers": {"model_graded_qa": {"verdict": "incorrect", "at": at, "note": "not partly right"}}})),
        )
        .unwrap();
    store
        .set_review(
            e6,
            "ann",
            Some(
                json!({"at": at, "scorers": {"model_graded_qa": {"verdict": "incorrect", "at": at},
                "includes": {"note": "lenient"}}}),
            ),
        )
        .unwrap();
    store.save().unwrap();
    let rows = jsonl(&export(&file, "--jsonl"));
    let expected: usize = scored.iter().map(|(_, _, s)| s.len().max(1)).sum();
    assert_eq!(
        (rows.len(), expected),
        (132, 132),
        "32 scored epochs × 4 + 4 failed"
    );
    // Every scored epoch's rows are its scorers, in the log's order, each with its value
    // as scored (C 1, I 0, P 0.5).
    for (id, epoch, scores) in &scored {
        let mine: Vec<&Value> = rows
            .iter()
            .filter(|r| r["id"] == json!(format!("{id} (epoch {epoch})")))
            .collect();
        if scores.is_empty() {
            assert_eq!(mine.len(), 1, "{id} failed: one row");
            assert_eq!(mine[0]["harness_score"], Value::Null);
            continue;
        }
        let names: Vec<&Value> = mine.iter().map(|r| &r["scorer"]).collect();
        let want: Vec<Value> = scores.iter().map(|(n, _)| json!(n)).collect();
        assert_eq!(names, want.iter().collect::<Vec<_>>(), "{id} epoch {epoch}");
        for (r, (_, v)) in mine.iter().zip(scores) {
            let x = match v.as_str() {
                Some("C") => 1.0,
                Some("I") => 0.0,
                Some("P") => 0.5,
                _ => v.as_f64().unwrap(),
            };
            assert_eq!(
                r["harness_score"],
                json!(x),
                "{id} epoch {epoch} {}",
                r["scorer"]
            );
        }
    }
    let e6: Vec<&Value> = rows
        .iter()
        .filter(|r| r["id"] == json!("e6 (epoch 1)"))
        .collect();
    let by = |scorer: &str| *e6.iter().find(|r| r["scorer"] == json!(scorer)).unwrap();
    let choice = by("choice");
    assert_eq!(choice["verdict"], json!("correct"));
    assert_eq!(choice["verdict_resolution"], json!("single:bob"));
    assert_eq!(choice["notes"], json!("bob: on the headline"));
    let graded = by("model_graded_qa");
    assert_eq!(graded["verdict"], json!("incorrect"));
    assert_eq!(graded["verdict_resolution"], json!("majority:2"));
    assert_eq!(graded["notes"], json!("bob: not partly right"));
    let includes = by("includes");
    assert_eq!(includes["verdict"], Value::Null);
    assert_eq!(includes["verdict_resolution"], json!("none"));
    assert_eq!(includes["notes"], json!("ann: lenient"));
    let matched = by("match");
    assert_eq!(
        (&matched["verdict"], &matched["notes"]),
        (&Value::Null, &Value::Null)
    );
}

#[test]
fn an_lm_eval_samples_file_exports_task_run_and_a_numeric_doc_id() {
    let f = real("lm-eval/out/example__fixed-1b/samples_vr_arith_2026-11-26T19-41-47.622322.jsonl");
    let rows = jsonl(&export(&f, "--jsonl"));
    assert!(!rows.is_empty());
    for r in &rows {
        assert!(r["doc_id"].is_u64(), "{r}");
        assert_eq!(r["task"], json!("vr_arith"));
        assert_eq!(
            r["run"],
            json!("samples_vr_arith_2026-11-26T19-41-47.622322.jsonl")
        );
        assert!(r.get("chart_type").is_none() && r.get("fixed_question").is_none());
    }
    let header = export(&f, "--csv").lines().next().unwrap().to_string();
    assert_eq!(
        header,
        "id,line,benchmark,task,run,model,doc_id,filter,target,raw_answer,metric,harness_score,metrics,verdict,verdict_resolution,n_reviewers,reviews,notes,error"
    );
}
