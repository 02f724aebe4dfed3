//! The bundled sample data stays valid, and gives the papers' figures: read in the tests'
//! copy of the sets (tests/fixtures/samples, which .ci/run checks is sample-data's), as
//! the README's first command lets the reviewer grade sample-data's own.

use std::process::Command;

fn verdict(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn every_sample_checks_clean() {
    for f in [
        "tests/fixtures/samples/chartom.jsonl",
        "tests/fixtures/samples/chartom-qa.jsonl",
        "tests/fixtures/samples/chartom-qa-eval.jsonl",
        "tests/fixtures/samples/chartom-qa-long.jsonl",
        "tests/fixtures/samples/chartom-qa-checklist.jsonl",
        "tests/fixtures/samples/cvqa.jsonl",
        "tests/fixtures/samples/cvqa-doc.json",
        "tests/fixtures/samples/generic.jsonl",
        "tests/fixtures/samples/lm-eval/example__tiny-llama-1b/samples_arc_easy_2026-11-20T10-15-42.518246.jsonl",
        "tests/fixtures/samples/lm-eval/example__tiny-llama-1b/samples_gsm8k_2026-11-20T10-15-42.518246.jsonl",
    ] {
        let (ok, out) = verdict(&["check", f, "--json"]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(ok, "{f}: {out}");
        assert_eq!(v["errors"], 0, "{f}: {out}");
    }
}

#[test]
fn stats_on_the_samples_give_the_papers_hmi() {
    let (ok, out) = verdict(&["stats", "tests/fixtures/samples/chartom.jsonl", "--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let charts = v["benchmarks"]["chartom"]["charts"].as_array().unwrap();
    let g = |id: &str| charts.iter().find(|c| c["id"] == id).unwrap().clone();
    let (o, m) = (g("G7_Q1_1"), g("G7_Q1_2"));
    assert_eq!(o["n_answers"], 68);
    assert_eq!(o["n_not_acceptable"], 12);
    assert_eq!(m["n_not_acceptable"], 20);
    assert_eq!(
        format!("{:.2}", o["hmi_recomputed"].as_f64().unwrap()),
        "0.18"
    );
    assert_eq!(
        format!("{:.2}", m["hmi_recomputed"].as_f64().unwrap()),
        "0.29"
    );
    let upper = o["interval"][1].as_f64().unwrap();
    assert!((upper - (1.2f64 * 6.0).sqrt()).abs() < 1e-9);
    assert!(o["interval"][0].is_null());
}

#[test]
fn the_sample_imports_work() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("c.jsonl");
    let (ok, _) = verdict(&[
        "import",
        "cvqa",
        "sample-data/import/questions.csv",
        "sample-data/import/tinyvlm_responses.csv",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(ok);
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count(), 6);
    assert!(text.contains("\"model\":\"tinyvlm\""));
    let out2 = d.path().join("ch.jsonl");
    let (ok, _) = verdict(&[
        "import",
        "chartom",
        "sample-data/import/chartom-folder",
        "--answers",
        "sample-data/import/chartom-answers.jsonl",
        "-o",
        out2.to_str().unwrap(),
    ]);
    assert!(ok);
    assert_eq!(std::fs::read_to_string(&out2).unwrap().lines().count(), 4);
}
