//! `verdict stats` and `verdict export` on hand-made fixtures (tests/fixtures/grade_*.jsonl)
//! whose figures are computed by hand in the comments.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_verdict"))
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("run verdict")
}

fn stats_json(path: &Path) -> Value {
    let out = run(&["stats", path.to_str().unwrap(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stats --json prints JSON")
}

#[track_caller]
fn close(v: &Value, want: f64) {
    let got = v
        .as_f64()
        .unwrap_or_else(|| panic!("expected a number, got {v}"));
    assert!((got - want).abs() < 1e-9, "got {got}, want {want}");
}

/// C-VQA fixture, 8 items + 1 broken line, models m1 and m2.
///
/// | item | group | m1 original | m1 counterfactual | m2 original | m2 counterfactual |
/// | r1 | direct | "2" ✓ | "If one more came, there would be 3 cats." → 3 ✓ | "two" ✓ | 4 ✗ (key 3) |
/// | r2 | direct | "one" ✓ | "none" → 0 ✓ | 1 ✓ | "1, if any" → 1 ✗ (key 0) |
/// | r3 | indirect | 4 ✓ | "two" ✓ (key 2) | 5 ✗ | "If half left" → failed |
/// | r4 | boolean | yes ✓ | "No, it would not." ✓ | "Yes, it is not" → no ✗, override ✓ | "It is." yes ✗ |
/// | r5 | boolean | "true" ✓ | "maybe" failed | "Nope" failed | "There would be" yes ✓ |
/// | s1 | abs_counting_1 | C ✓ | "The answer is A" ✓ | "12" → C ✓ | B ✗ |
/// | s2 | abs_counting_1 | (B) ✗ (key D) | "A: 3" ✓ | "6" → D ✓ | failed |
/// | q8 | direct | no responses |
///
/// Reviews: r3 fixed by ann and bob (fixed key 3), r4 accepted by ann (with m2's
/// override), r5 rejected by carol's final review (ann reject, bob accept), q8 accepted by
/// bob.
#[test]
fn cvqa_figures() {
    let s = stats_json(&fixture("grade_cvqa.jsonl"));
    assert_eq!(s["items"], 9);
    assert_eq!(s["unreadable"], 1);
    let c = &s["benchmarks"]["cvqa"];
    assert_eq!(c["items"], 8);
    assert!(s["benchmarks"].get("chartom").is_none());
    assert!(s["benchmarks"].get("chartom-qa").is_none());

    let m1 = &c["models"]["m1"];
    // direct: 2/2 and 2/2
    let d = &m1["groups"]["direct"];
    assert_eq!(d["n"], 2);
    close(&d["original_accuracy"], 1.0);
    close(&d["counterfactual_accuracy"], 1.0);
    close(&d["difference"], 0.0);
    // boolean: original 2/2, counterfactual 1/2 (r5 failed) → difference 1 − 0.5
    let b = &m1["groups"]["boolean"];
    close(&b["counterfactual_accuracy"], 0.5);
    close(&b["difference"], 0.5);
    assert_eq!(b["counterfactual_failed"], 1);
    // synthetic: original 1/2, counterfactual 2/2 → −0.5
    let a = &m1["groups"]["abs_counting_1"];
    close(&a["original_accuracy"], 0.5);
    close(&a["difference"], -0.5);
    // overall: 6/7 and 6/7
    close(&m1["overall"]["original_accuracy"], 6.0 / 7.0);
    close(&m1["overall"]["counterfactual_accuracy"], 6.0 / 7.0);
    // fixed keys: r5 rejected, left out (n 6); r3's key is now 3, m1 said 2 → 5/6, 5/6
    assert_eq!(m1["fixed_key"]["n"], 6);
    close(&m1["fixed_key"]["original_accuracy"], 5.0 / 6.0);
    close(&m1["fixed_key"]["counterfactual_accuracy"], 5.0 / 6.0);

    let m2 = &c["models"]["m2"];
    // direct: original 2/2, counterfactual 0/2 → difference 1
    close(&m2["groups"]["direct"]["difference"], 1.0);
    // boolean: r4's original overridden to correct → 1/2; counterfactual 1/2
    let b = &m2["groups"]["boolean"];
    close(&b["original_accuracy"], 0.5);
    assert_eq!(b["overridden"], 1);
    close(
        &m2["automatic"]["groups"]["boolean"]["original_accuracy"],
        0.0,
    );
    // overall: original 5/7 (r3, r5 wrong), counterfactual 1/7 (r5) → 4/7
    close(&m2["overall"]["original_accuracy"], 5.0 / 7.0);
    close(&m2["overall"]["counterfactual_accuracy"], 1.0 / 7.0);
    close(&m2["overall"]["difference"], 4.0 / 7.0);
    // the scripts' own figure (no override): original 4/7
    close(&m2["automatic"]["overall"]["original_accuracy"], 4.0 / 7.0);
    // fixed keys: r5 out; counterfactual 0/6
    close(&m2["fixed_key"]["counterfactual_accuracy"], 0.0);

    let v = &c["verification"];
    assert_eq!(v["accepted"], 2); // r4, q8
    assert_eq!(v["fixed"], 1); // r3
    assert_eq!(v["rejected"], 1); // r5 (carol's final review)
    assert_eq!(v["unreviewed"], 4); // r1, r2, s1, s2
    assert_eq!(v["by_reason"]["ambiguous"], 1);
    assert_eq!(v["by_reason"]["wrong-answer"], 1);
    assert_eq!(v["resolution"]["final"], 1);
    assert_eq!(v["resolution"]["majority"], 1);
    assert_eq!(v["resolution"]["single"], 2);

    assert_eq!(s["reviews"]["ann"]["reviewed"], 3);
    assert_eq!(s["reviews"]["bob"]["by_benchmark"]["cvqa"], 3);
    assert_eq!(s["reviews"]["carol"]["final"], 1);
    // 14 responses: each graded under its item's verification unless it has an override
    // of its own (r4 × m2, ann's): r5 final (carol), r3 majority (ann and bob fix), r4
    // single (ann); r1, r2, s1, s2 none
    assert_eq!(s["resolution"]["final"], 2);
    assert_eq!(s["resolution"]["majority"], 2);
    assert_eq!(s["resolution"]["single"], 2);
    assert_eq!(s["resolution"]["none"], 8);
}

/// CHARTOM fixture: pair G7_Q1 from the paper (number, key 1.2, strategies 6 and 300),
/// choice pair B1 (key 2), rank chart P1_1 (key [2, 3, 1]).
///
/// | chart | m1 FACT | m1 MIND (hmi) | m2 FACT | m2 MIND |
/// | G7_Q1_1 | "about 1.2" ✓ | 0.2 (0.18) → 0.0004 | 1.5 ✗ | 0.5 → 0.1024 |
/// | G7_Q1_2 | 2.5 ✗ | 0.6 (0.29) → 0.0961 | 1.25 ✓, overridden ✗ | 0.3 → 0.0001 |
/// | B1_1 | B ✓ | 0.1 (0.1) → 0 | Plums ✗ | 0.3 → 0.04 |
/// | B1_2 | Option 3 ✗, overridden ✓ | 0.5 (0.6) → 0.01 | (b) ✓ | 0.6 → 0 |
/// | P1_1 | South > East > North ✓ | 0.25 (0.25) → 0 | 2, 1, 3 ✗ | none |
#[test]
fn chartom_figures() {
    let s = stats_json(&fixture("grade_chartom.jsonl"));
    let c = &s["benchmarks"]["chartom"];
    let m1 = &c["models"]["m1"];
    close(&m1["fact_accuracy"], 0.8); // 4/5 after the override on B1_2
    close(&m1["fact_accuracy_automatic"], 0.6); // 3/5
    close(&m1["mind_mse"], (0.0004 + 0.0961 + 0.0 + 0.01 + 0.0) / 5.0);
    close(&m1["by_version"]["original"]["fact_accuracy"], 1.0);
    close(&m1["by_version"]["manipulated"]["fact_accuracy"], 0.5);
    close(
        &m1["by_version"]["manipulated"]["mind_mse"],
        (0.0961 + 0.01) / 2.0,
    );
    close(&m1["by_type"]["line"]["fact_accuracy"], 0.5);
    close(
        &m1["by_type_version"]["bar"]["manipulated"]["fact_accuracy"],
        1.0,
    );
    assert_eq!(m1["justification"]["identifies"], 1);
    assert_eq!(m1["justification"]["partial"], 1);
    assert_eq!(m1["justification"]["ungraded"], 3);

    let m2 = &c["models"]["m2"];
    close(&m2["fact_accuracy"], 0.2); // only B1_2
    close(&m2["fact_accuracy_automatic"], 0.4);
    assert_eq!(m2["mind_n"], 4);
    close(&m2["mind_mse"], (0.1024 + 0.0001 + 0.04 + 0.0) / 4.0);
    // G7_Q1_2: ann "misses", bob "partial" (later) → tie, the most recent wins
    assert_eq!(m2["justification"]["partial"], 1);
    assert_eq!(m2["justification"]["misses"], 0);

    let charts = c["charts"].as_array().unwrap();
    assert_eq!(charts.len(), 5);
    let g1 = &charts[0];
    assert_eq!(g1["id"], "G7_Q1_1");
    close(&g1["hmi"], 0.18);
    close(&g1["hmi_recomputed"], 12.0 / 68.0); // rounds to the paper's 0.18
    assert_eq!(g1["interval"][0], Value::Null);
    close(&g1["interval"][1], 7.2f64.sqrt()); // √(1.2 · 6) = 2.683
    assert_eq!(g1["n_answers"], 68);
    let g2 = &charts[1];
    close(&g2["hmi_recomputed"], 20.0 / 68.0); // 0.29
    assert_eq!(g2["n_not_acceptable"], 20);
    // choice: share of human answers other than the key
    close(&charts[2]["hmi_recomputed"], 0.1);
    close(&charts[3]["hmi_recomputed"], 0.6);
    // no human answers: not recomputable
    assert_eq!(charts[4]["hmi_recomputed"], Value::Null);

    // responses: G7_Q1_2 × m1 and B1_2 × m1 single (ann), G7_Q1_2 × m2 split 1–1 (a
    // tie, to the most recent: no majority)
    assert_eq!(s["resolution"]["single"], 2);
    assert_eq!(s["resolution"]["majority"], 0);
    assert_eq!(s["resolution"]["tie"], 1);
    assert_eq!(s["resolution"]["none"], 7);
}

/// CharToM-QA fixture.
///
/// | item (points) | m1 judge | m2 judge | m1 human | m2 human |
/// | Q1 belief (3) | [1,2] 2, no penalty | [1] 1, penalty | ann [1,2,3] + bob [1,2] → point 3 tie 1:1, bob later → [1,2]: 2, no penalty | ann: 1, penalty |
/// | Q2 belief (2) | "Null": unparsable, no penalty | [2] 1, "None." no penalty | - | - |
/// | Q3 emotion (4) | [1,2,3,4] 4 | [5,1,1] → 1, penalty | carol final: [1,2] 2, penalty | - |
#[test]
fn chartom_qa_figures() {
    let s = stats_json(&fixture("grade_chartom_qa.jsonl"));
    let q = &s["benchmarks"]["chartom-qa"];
    let m1 = &q["models"]["m1"];
    close(&m1["judge"]["bpc"], 6.0 / 7.0); // (2 + 4) / (3 + 4), Q2 left out
    close(&m1["judge"]["pr"], 0.0);
    assert_eq!(m1["judge"]["unparsable"], 1);
    assert_eq!(m1["judge"]["n"], 3);
    close(&m1["human"]["bpc"], 4.0 / 7.0); // (2 + 2) / (3 + 4)
    close(&m1["human"]["pr"], 0.5);
    assert_eq!(m1["human"]["n"], 2);
    close(&m1["dimensions"]["belief"]["judge"]["bpc"], 2.0 / 3.0);
    close(&m1["dimensions"]["emotion"]["human"]["bpc"], 0.5);
    close(&m1["dimensions"]["emotion"]["human"]["pr"], 1.0);
    close(&m1["choice_accuracy"], 1.0);

    let m2 = &q["models"]["m2"];
    close(&m2["judge"]["bpc"], 3.0 / 9.0); // (1 + 1 + 1) / (3 + 2 + 4)
    close(&m2["judge"]["pr"], 2.0 / 3.0);
    close(&m2["dimensions"]["belief"]["judge"]["bpc"], 0.4); // (1 + 1) / (3 + 2)
    close(&m2["dimensions"]["belief"]["judge"]["pr"], 0.5);
    close(&m2["human"]["bpc"], 1.0 / 3.0);
    close(&m2["human"]["pr"], 1.0);
    assert_eq!(m2["dimensions"]["emotion"]["human"]["bpc"], Value::Null);
    close(&m2["choice_accuracy"], 0.0);

    assert_eq!(s["resolution"]["final"], 1);
    // Q1 × m1: point 3 split 1:1, a tie (to the most recent), not a majority
    assert_eq!(s["resolution"]["majority"], 0);
    assert_eq!(s["resolution"]["tie"], 1);
    assert_eq!(s["resolution"]["single"], 1);
}

/// The CharToM-QA evaluation JSONL opens directly: one response per line, its model named
/// from the file name (here not the benchmark's pattern, so the stem).
/// Line 1: judge [1] of 2, penalty "None"; ann [1,2], no penalty. Line 2: judge "Null"
/// (unparsable), penalty "Misreads the scene".
#[test]
fn chartom_qa_eval_file() {
    let s = stats_json(&fixture("grade_chartom_qa_eval.jsonl"));
    let m = &s["benchmarks"]["chartom-qa"]["models"]["grade_chartom_qa_eval"];
    close(&m["judge"]["bpc"], 0.5);
    close(&m["judge"]["pr"], 0.5);
    assert_eq!(m["judge"]["unparsable"], 1);
    close(&m["human"]["bpc"], 1.0);
    close(&m["human"]["pr"], 0.0);
    assert_eq!(m["dimensions"]["intention"]["judge"]["bpc"], Value::Null);
}

#[test]
fn human_readable_tables() {
    let out = run(&["stats", fixture("grade_chartom.jsonl").to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("CHARTOM (5 charts)"), "{text}");
    assert!(text.contains("G7_Q1_1"));
    assert!(text.contains("(-inf, 2.683)"), "{text}");
    assert!(text.contains("80.0%"));
    let out = run(&["stats", fixture("grade_cvqa.jsonl").to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("1 unreadable"), "{text}");
    assert!(text.contains("2 accepted, 1 fixed, 1 rejected, 4 unreviewed"));
}

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/samples")
        .join(name)
}

/// Suspect answer keys (docs/stats.md): in the CHARTOM sample, G14_Q1_2's most common
/// human ranking (30 of 60) is its key reversed, against 22 for the key; G9_Q3_2's most
/// common choice is option 4 (25 of 64) against 20 for the key. Both are listed, in
/// file order, by `stats --json` and by the text tables.
#[test]
fn suspect_answer_keys() {
    let s = stats_json(&sample("chartom.jsonl"));
    let list = s["benchmarks"]["chartom"]["suspect_keys"]
        .as_array()
        .unwrap();
    let ids: Vec<&str> = list.iter().map(|x| x["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["G9_Q3_2", "G14_Q1_2"]);
    let g14 = &list[1];
    assert_eq!(
        g14,
        &serde_json::json!({
            "id": "G14_Q1_2", "pair": "G14_Q1", "version": "manipulated", "format": "rank",
            "key": "1 > 4 > 2 > 5 > 3",
            "reason": "modal_answer_differs",
            "n_answers": 60, "n_agree": 22, "share_agree": 22.0 / 60.0,
            "modal_answer": "3 > 5 > 2 > 4 > 1", "modal_count": 30,
            "reversed": true
        })
    );
    assert_eq!(list[0]["modal_answer"], "4 (There is no relation)");
    assert_eq!(list[0]["reversed"], false);
    let out = run(&["stats", sample("chartom.jsonl").to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Suspect answer keys (2)"), "{text}");
    let line = text
        .lines()
        .find(|l| l.contains("G14_Q1_2") && l.contains("22/60"))
        .unwrap();
    assert!(line.contains("3 > 5 > 2 > 4 > 1"), "{line}");
    assert!(line.contains("key reversed"), "{line}");
    // the grading fixture: B1_2's key (option 2) has 4 of 10 answers, option 3 has 6; the
    // number questions' keys hold their bucket (30 of 68 at 1.2, against at most 13 for
    // the densest other bucket, 2.5 and 2.7 within ±10 % of 2.5)
    let s = stats_json(&fixture("grade_chartom.jsonl"));
    let list = s["benchmarks"]["chartom"]["suspect_keys"]
        .as_array()
        .unwrap();
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["id"], "B1_2");
    assert_eq!(list[0]["key"], "2 (Pears)");
}

#[test]
fn missing_file_is_an_error() {
    let out = run(&["stats", "/nonexistent/x.jsonl"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/x.jsonl"));
}

/// A verdict left in the journal (a crash before the save) counts.
#[test]
fn journal_verdicts_count() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    std::fs::copy(fixture("grade_cvqa.jsonl"), &p).unwrap();
    let journal = d.path().join(".set.jsonl.dan.verdict-journal");
    std::fs::write(
        &journal,
        r#"{"item":0,"id":"r1","reviewer":"dan","review":{"at":"2026-02-01T00:00:00Z","status":"reject","reason":"ambiguous"}}
"#,
    )
    .unwrap();
    let s = stats_json(&p);
    let v = &s["benchmarks"]["cvqa"]["verification"];
    assert_eq!(v["rejected"], 2);
    assert_eq!(v["unreviewed"], 3);
    // r1 is left out of the fixed-key figure now
    assert_eq!(s["benchmarks"]["cvqa"]["models"]["m1"]["fixed_key"]["n"], 5);
    assert_eq!(s["reviews"]["dan"]["reviewed"], 1);
    // stats does not write anything
    assert_eq!(
        std::fs::read(&p).unwrap(),
        std::fs::read(fixture("grade_cvqa.jsonl")).unwrap()
    );
}

#[test]
fn export_jsonl_rows() {
    let out = run(&[
        "export",
        fixture("grade_cvqa.jsonl").to_str().unwrap(),
        "--jsonl",
    ]);
    assert!(out.status.success());
    let rows: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // 7 items × 2 models + q8 (no responses) + the broken line
    assert_eq!(rows.len(), 16);
    let r4m2 = rows
        .iter()
        .find(|r| r["id"] == "r4" && r["model"] == "m2")
        .unwrap();
    assert_eq!(r4m2["parsed_answer"], "no");
    assert_eq!(r4m2["auto_correct"], false);
    assert_eq!(r4m2["correct"], true);
    assert_eq!(r4m2["resolution"], "single:ann");
    assert_eq!(r4m2["status"], "accept");
    assert_eq!(r4m2["n_reviewers"], 1);
    assert_eq!(
        r4m2["reviews"]["ann"]["models"]["m2"]["original_correct"],
        true
    );
    let r3m1 = rows
        .iter()
        .find(|r| r["id"] == "r3" && r["model"] == "m1")
        .unwrap();
    assert_eq!(r3m1["counterfactual_correct"], true);
    assert_eq!(r3m1["counterfactual_fixed_correct"], false);
    assert_eq!(r3m1["fixed_answer"], "3");
    assert_eq!(r3m1["verification_resolution"], "majority:2");
    let r5 = rows.iter().find(|r| r["id"] == "r5").unwrap();
    assert_eq!(r5["status"], "reject");
    assert_eq!(r5["verification_resolution"], "final:carol");
    assert_eq!(r5["counterfactual_fixed_correct"], Value::Null);
    let q8 = rows.iter().find(|r| r["id"] == "q8").unwrap();
    assert_eq!(q8["model"], "");
    assert_eq!(q8["status"], "accept");
    let broken = rows.last().unwrap();
    assert_eq!(broken["id"], "#9");
    assert_eq!(broken["line"], 9);
    assert!(broken["error"].is_string());
}

#[test]
fn export_csv_to_file() {
    let d = tempfile::tempdir().unwrap();
    let out_path = d.path().join("out.csv");
    let out = run(&[
        "export",
        fixture("grade_chartom.jsonl").to_str().unwrap(),
        "--csv",
        "-o",
        out_path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    let mut r = csv::Reader::from_path(&out_path).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    let recs: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(recs.len(), 10); // 5 charts × 2 models
    let row = recs
        .iter()
        .find(|r| &r[col("id")] == "G7_Q1_2" && &r[col("model")] == "m2")
        .unwrap();
    assert_eq!(&row[col("raw_answer")], "1.25");
    assert_eq!(&row[col("parsed_answer")], "1.25");
    assert_eq!(&row[col("auto_correct")], "true");
    assert_eq!(&row[col("correct")], "false");
    assert_eq!(&row[col("human_justification")], "partial");
    assert_eq!(&row[col("resolution")], "tie:2");
    assert_eq!(&row[col("chart_version")], "manipulated");
    assert_eq!(&row[col("n_reviewers")], "2");
    let se: f64 = row[col("squared_error")].parse().unwrap();
    assert!((se - 0.0001).abs() < 1e-12);
    let reviews: Value = serde_json::from_str(&row[col("reviews")]).unwrap();
    assert_eq!(reviews["bob"]["models"]["m2"]["justification"], "partial");
    let p1 = recs
        .iter()
        .find(|r| &r[col("id")] == "P1_1" && &r[col("model")] == "m1")
        .unwrap();
    assert_eq!(&p1[col("parsed_answer")], "2 > 3 > 1");
    assert_eq!(&p1[col("reviews")], "");
}

/// Every grade field of every benchmark and the notes are columns of their own; the old
/// columns keep their names and order.
#[test]
fn export_csv_has_a_column_for_every_grade_and_note() {
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("mixed.jsonl");
    std::fs::write(
        &file,
        concat!(
            r#"{"id":"g1","benchmark":"mmlu","responses":[{"model":"m","text":"42"}],"reviews":{"ann":{"at":"2026-01-01T00:00:00Z","verdict":"fail","note":"off by one"},"bob":{"at":"2026-01-02T00:00:00Z","verdict":"pass","note":"fine,\nreally"},"cat":{"at":"2026-01-01T12:00:00Z","verdict":"fail","final":true}}}"#,
            "\n",
            r#"{"id":"g2","benchmark":"mmlu","responses":[{"model":"m","text":"7"}],"reviews":{"ann":{"at":"2026-01-01T00:00:00Z","verdict":"unsure"}}}"#,
            "\n",
            r#"{"id":"c1","benchmark":"chartom","chart":{"pair":"P","version":"original","type":"bar"},"fact":{"format":"number","key":10},"responses":[{"model":"a","fact":"10"},{"model":"b","fact":"30"}],"reviews":{"ann":{"at":"2026-01-01T00:00:00Z","note":"b misread the axis","models":{"b":{"fact_correct":true,"justification":"misses"}}}}}"#,
            "\n",
            r#"{"id":"v1","benchmark":"cvqa","split":"real","group":"direct","original":{"question":"How many?","answer":"2"},"counterfactual":{"question":"How many if one left?","answer":"1"},"responses":[{"model":"a","original":"2","counterfactual":"3"}],"reviews":{"ann":{"at":"2026-01-01T00:00:00Z","status":"reject","reason":"other","reason_text":"two questions in one","image_related":false,"answer_ok":true,"note":"the image shows no dogs","original_correct":false,"counterfactual_correct":true}}}"#,
            "\n",
        ),
    )
    .unwrap();
    let out = run(&["export", file.to_str().unwrap(), "--csv"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut r = csv::Reader::from_reader(&out.stdout[..]);
    let h = r.headers().unwrap().clone();
    let names: Vec<&str> = h.iter().collect();
    // the columns as they were, in their order, first
    let old = [
        "id",
        "line",
        "benchmark",
        "split",
        "group",
        "chart_pair",
        "chart_type",
        "chart_version",
        "dimension",
        "model",
        "raw_answer",
        "raw_counterfactual",
        "parsed_answer",
        "parsed_counterfactual",
        "auto_correct",
        "auto_counterfactual_correct",
        "correct",
        "counterfactual_correct",
        "counterfactual_fixed_correct",
        "mind",
        "hmi",
        "squared_error",
        "judge_bonus",
        "judge_covered",
        "judge_penalty",
        "human_bonus",
        "human_covered",
        "n_bonus_points",
        "human_penalty",
        "human_justification",
        "status",
        "reason",
        "fixed_question",
        "fixed_answer",
        "resolution",
        "verification_resolution",
        "n_reviewers",
        "reviews",
        "error",
    ];
    assert_eq!(&names[..old.len()], &old[..]);
    let col = |name: &str| {
        h.iter()
            .position(|c| c == name)
            .unwrap_or_else(|| panic!("no column {name}: {names:?}"))
    };
    let recs: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    let row = |id: &str, model: &str| {
        recs.iter()
            .find(|r| &r[col("id")] == id && &r[col("model")] == model)
            .unwrap()
            .clone()
    };
    // generic: the verdict that counts (cat's final one), how it was resolved, the notes
    let g1 = row("g1", "m");
    assert_eq!(&g1[col("verdict")], "fail");
    assert_eq!(&g1[col("verdict_resolution")], "final:cat");
    assert_eq!(&g1[col("notes")], "ann: off by one\nbob: fine,\nreally");
    let g2 = row("g2", "m");
    assert_eq!(&g2[col("verdict")], "unsure");
    assert_eq!(&g2[col("verdict_resolution")], "single:ann");
    assert_eq!(&g2[col("notes")], "");
    // CHARTOM: the reviewer's FACT override beside the automatic grade
    let b = row("c1", "b");
    assert_eq!(&b[col("auto_correct")], "false");
    assert_eq!(&b[col("human_fact_correct")], "true");
    assert_eq!(&b[col("human_justification")], "misses");
    assert_eq!(&b[col("notes")], "ann: b misread the axis");
    assert_eq!(&row("c1", "a")[col("human_fact_correct")], "");
    // C-VQA: every verification field and the overrides
    let v = row("v1", "a");
    assert_eq!(&v[col("image_related")], "false");
    assert_eq!(&v[col("answer_ok")], "true");
    assert_eq!(&v[col("human_original_correct")], "false");
    assert_eq!(&v[col("human_counterfactual_correct")], "true");
    assert_eq!(&v[col("reason")], "other");
    assert_eq!(&v[col("reason_text")], "two questions in one");
    assert_eq!(&v[col("notes")], "ann: the image shows no dogs");
    // stats counts the same resolved verdicts (cat's final "fail", not bob's later "pass")
    let s = stats_json(&file);
    assert_eq!(
        s["benchmarks"]["other"]["verdicts"],
        serde_json::json!({"fail": 1, "unsure": 1})
    );
}

#[test]
fn export_needs_a_format() {
    let out = run(&["export", fixture("grade_cvqa.jsonl").to_str().unwrap()]);
    assert!(!out.status.success());
}

/// Speed target (docs/performance.md): stats over 100k items ≤ 2× a plain serde_json parse of every
/// line. Run with `cargo test --release --test cli_stats -- --ignored --nocapture`.
#[test]
#[ignore]
fn stats_speed_100k() {
    use std::time::Instant;
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("big.jsonl");
    let mut text = String::new();
    let cvqa = std::fs::read_to_string(fixture("grade_cvqa.jsonl")).unwrap();
    let chartom = std::fs::read_to_string(fixture("grade_chartom.jsonl")).unwrap();
    let qa = std::fs::read_to_string(fixture("grade_chartom_qa.jsonl")).unwrap();
    let ctx = "It was a truth universally acknowledged, ".repeat(40);
    let mut lines: Vec<String> = Vec::new();
    for l in cvqa.lines().chain(chartom.lines()) {
        if serde_json::from_str::<Value>(l).is_err() {
            continue; // the fixture's broken line
        }
        lines.push(l.to_string());
    }
    for l in qa.lines() {
        lines.push(
            l.replace("\"ctx0\"", &format!("\"{ctx}\""))
                .replace("\"ctx1000\"", &format!("\"{ctx}{ctx}\"")),
        );
    }
    let mut n = 0;
    while n < 100_000 {
        let l = &lines[n % lines.len()];
        text.push_str(&l.replacen("\"id\": \"", &format!("\"id\": \"{n}-"), 1));
        text.push('\n');
        n += 1;
    }
    std::fs::write(&p, &text).unwrap();
    let store = verdict::store::Store::open(&p).unwrap();

    // best of 3 of each, to damp the noise of a shared machine
    let (mut parse, mut one, mut stats) = (f64::MAX, f64::MAX, f64::MAX);
    let mut s = None;
    for _ in 0..3 {
        let t = Instant::now();
        let mut k = 0;
        for line in text.lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            k += v.as_object().map_or(0, |o| o.len());
        }
        parse = parse.min(t.elapsed().as_secs_f64());
        assert!(k > 0);
        let t = Instant::now();
        let _ = verdict::stats::compute_with(&store, 1);
        one = one.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        s = Some(verdict::stats::compute(&store));
        stats = stats.min(t.elapsed().as_secs_f64());
    }
    let s = s.unwrap();
    assert_eq!(s.items, 100_000);
    eprintln!(
        "{} MB, {} items: serde_json::Value parse {:.3} s; stats {:.3} s on 1 thread, \
         {:.3} s on 2 ({:.2}x the parse)",
        text.len() / 1_000_000,
        n,
        parse,
        one,
        stats,
        stats / parse
    );
    assert!(stats <= 2.0 * parse);
}

/// Every command that reads a file with its journals says the same thing about them: how
/// many verdicts they added, and each line it could not use (unreadable, invalid), never
/// dropping one in silence.
#[test]
fn every_command_reports_the_journal_the_same_way() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    std::fs::copy(fixture("grade_cvqa.jsonl"), &p).unwrap();
    let journal = verdict::journal::journal_path(&p, "dan");
    std::fs::write(
        &journal,
        r#"{"item":0,"id":"r1","reviewer":"dan","review":{"at":"2026-02-01T00:00:00Z","status":"bogus"}}
{"item":0,"id":"r1","reviewer":"dan","review":{"at":"2026-02-01T00:00:00Z","status":"reject","reason":"ambiguous"}}
{"item":0,"id":"r1","reviewer":"dan","rev
"#,
    )
    .unwrap();
    let f = p.display();
    let j = journal.display();
    let want = format!(
        "verdict: {f}: recovered 1 verdict from the journal (not yet saved into the file)\n\
         verdict: {f}: 2 journal entries not applied: 1 unreadable, 1 invalid, 0 match no item (open the file in verdict to keep them aside):\n\
         verdict:   {j} line 3: not a journal record: EOF while parsing a string at line 1 column 41\n\
         verdict:   {j} line 1: item r1: not applied: reviews.dan.status: `bogus` is not one of accept, fix, reject\n"
    );
    let out_dir = d.path().join("split");
    let merged = d.path().join("merged.jsonl");
    let s = p.to_str().unwrap();
    for args in [
        vec!["stats", s],
        vec!["export", "--jsonl", s],
        vec!["agree", s],
        vec![
            "split",
            s,
            "--reviewers",
            "a,b",
            "-o",
            out_dir.to_str().unwrap(),
        ],
        vec!["merge", s, "-o", merged.to_str().unwrap()],
    ] {
        let out = run(&args);
        // merge refuses this fixture (it has an unreadable item), after reading the journal
        assert!(out.status.success() || args[0] == "merge", "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with(&want), "{args:?}:\n{err}\nwanted:\n{want}");
    }
    // nothing was written into the file or the journal
    assert_eq!(
        std::fs::read(&p).unwrap(),
        std::fs::read(fixture("grade_cvqa.jsonl")).unwrap()
    );
    assert!(journal.exists());
}

/// lm-eval samples: per filter, the harness's metric next to the human-corrected one
/// (docs/stats.md). gsm8k strict-match scores 1, 0, 0, 0, 0 (harness 20%); a reviewer marks
/// doc 1 `correct` and doc 3 `ambiguous-key`: corrected (1 + 1 + 0 + 0) / 4 = 50%.
/// flexible-extract is unreviewed: corrected = harness = 60%.
#[test]
fn lm_eval_stats_put_the_harness_metric_next_to_the_corrected_one() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "tests/fixtures/samples/lm-eval/example__tiny-llama-1b/samples_gsm8k_2026-11-20T10-15-42.518246.jsonl",
    );
    let d = tempfile::tempdir().unwrap();
    let mut out = String::new();
    for line in std::fs::read_to_string(&src).unwrap().lines() {
        let mut v: Value = serde_json::from_str(line).unwrap();
        let verdict = match (v["doc_id"].as_i64(), v["filter"].as_str()) {
            (Some(1), Some("strict-match")) => Some("correct"),
            (Some(3), Some("strict-match")) => Some("ambiguous-key"),
            _ => None,
        };
        if let Some(verdict) = verdict {
            v["reviews"] =
                serde_json::json!({"ann": {"at": "2026-01-01T00:00:00Z", "verdict": verdict}});
        }
        out.push_str(&format!("{v}\n"));
    }
    let p = d
        .path()
        .join("samples_gsm8k_2026-11-20T10-15-42.518246.jsonl");
    std::fs::write(&p, out).unwrap();
    let s = stats_json(&p);
    let f = &s["benchmarks"]["lm-eval"]["filters"];
    let strict = &f["strict-match"];
    assert_eq!(strict["samples"], 5);
    assert_eq!(strict["metric"], "exact_match");
    close(&strict["harness"]["exact_match"], 0.2);
    close(&strict["corrected"], 0.5);
    // over the 4 samples not ambiguous-key, [1, 1, 0, 0]: √(1/3) / √4 (lm-eval's mean_stderr)
    close(&strict["corrected_stderr"], (1.0f64 / 3.0).sqrt() / 2.0);
    assert_eq!(strict["reviewed"], 2);
    assert_eq!(strict["correct_but_scored_0"], 1);
    assert_eq!(strict["ambiguous_key"], 1);
    let flex = &f["flexible-extract"];
    close(&flex["harness"]["exact_match"], 0.6);
    close(&flex["corrected"], 0.6);
    assert_eq!(flex["reviewed"], 0);

    let text = run(&["stats", p.to_str().unwrap()]);
    let text = String::from_utf8(text.stdout).unwrap();
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("strict-match"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        // the harness's 4 decimals, as it prints them (not a percent)
        row.contains("exact_match") && row.contains("0.2000") && row.contains("0.5000"),
        "{row}"
    );
    // the corrected figure with its stderr and the samples it is over (issue 39)
    assert!(row.contains("0.5000 ± 0.2887 (n=4)"), "{row}");
}
