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
    assert_eq!(rows.len(), 36);
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
    let e6 = rows
        .iter()
        .find(|r| r["id"] == json!("e6 (epoch 1)"))
        .unwrap();
    assert_eq!(e6["doc_id"], json!("e6"));
    assert_eq!(
        e6["notes"],
        json!("bob: on the headline\nbob on model_graded_qa: not partly right")
    );
    assert!(rows[0].get("chart_type").is_none() && rows[0].get("hmi").is_none());
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
