//! `verdict import`: runs the built binary on the fixtures in tests/fixtures/import and,
//! when they are present, on the real C-VQA question files in ../shared/datasets/cvqa.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use serde_json::Value;

fn verdict(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(args)
        .output()
        .expect("run verdict")
}

fn fixture(p: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/import")
        .join(p)
        .to_string_lossy()
        .into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn read_items(p: &Path) -> Vec<Value> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn cvqa_questions_and_two_models() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("cvqa.jsonl");
    let o = verdict(&[
        "import",
        "cvqa",
        &fixture("cvqa/questions_real.csv"),
        &fixture("cvqa/llava_responses.csv"),
        &fixture("cvqa/gpt4_run3.csv"),
        &fixture("cvqa/questions_synthetic.csv"),
        "--model",
        "LLaVA-1.5",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!(
            "wrote {}: 9 items\n  real: 6 (direct 2, indirect 2, boolean 2)\n  synthetic: 3 (abs_counting_1 1, abs_counting_2 2)\nmodels: LLaVA-1.5 (real), gpt4_run3 (real)\n",
            out.display()
        )
    );
    assert_eq!(stderr(&o), "");
    let items = read_items(&out);
    assert_eq!(items.len(), 9);
    let ids: Vec<&str> = items.iter().map(|i| i["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "real-00001",
            "real-00002",
            "real-00003",
            "real-00004",
            "real-00005",
            "real-00006",
            "synthetic-00001",
            "synthetic-00002",
            "synthetic-00003"
        ]
    );
    // a quoted newline in the question, CRLF inside a quoted response, an empty response,
    // non-ASCII text and an escape sequence: all kept exactly
    let it = &items[2];
    assert_eq!(it["group"], "indirect");
    assert_eq!(
        it["counterfactual"]["question"],
        "How many legs would the dogs have together\nif one more dog came?"
    );
    assert_eq!(it["responses"][0]["model"], "LLaVA-1.5");
    assert_eq!(it["responses"][0]["original"], "Two dogs,\r\nI think.");
    assert_eq!(it["responses"][1]["model"], "gpt4_run3");
    assert_eq!(it["responses"][1]["counterfactual"], "8");
    assert_eq!(items[3]["responses"][0]["original"], "");
    assert_eq!(
        items[4]["original"]["question"],
        "Is the caf\u{e9}\u{a1}\u{af}s door open?"
    );
    assert_eq!(
        items[5]["responses"][0]["original"],
        "No \u{1b}[31mlamp\u{1b}[0m"
    );
    assert_eq!(items[5]["image"], "room_09.jpg");
    assert_eq!(
        items[5]["source"],
        serde_json::json!({"file": "questions_real.csv", "row": 6})
    );
    let syn = &items[7];
    assert_eq!(syn["split"], "synthetic");
    assert_eq!(syn["original"]["answer"], "C");
    assert_eq!(syn["responses"], serde_json::json!([]));
    // the escape sequence is escaped in the file, never raw
    let raw = std::fs::read_to_string(&out).unwrap();
    assert!(!raw.contains('\u{1b}'));
    assert!(raw.contains("\\u001b[31mlamp"));

    // and the result checks clean
    let c = verdict(&["check", "--no-images", out.to_str().unwrap()]);
    assert_eq!(
        stdout(&c),
        format!(
            "{}: 9 items, 0 errors, 0 warnings, 0 notices\n",
            out.display()
        )
    );
    assert_eq!(c.status.code(), Some(0));
}

/// The C-VQA authors' result files (`C-VQA_<model>_results.csv`, what the benchmark's
/// `calc_acc.py` reads) hold every type, real and synthetic, in one file per model, with
/// the answers already formatted (`3`, `fail`, `yes`). Each row goes to the set of its type.
#[test]
fn cvqa_authors_results_file_mixing_splits() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("cvqa.jsonl");
    let results = fixture("cvqa/C-VQA_toy-7b_results.csv");
    let o = verdict(&[
        "import",
        "cvqa",
        &fixture("cvqa/questions_real.csv"),
        &fixture("cvqa/questions_synthetic.csv"),
        &results,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!(
            "wrote {}: 9 items\n  real: 6 (direct 2, indirect 2, boolean 2)\n  synthetic: 3 (abs_counting_1 1, abs_counting_2 2)\nmodels: toy-7b (real, synthetic)\n",
            out.display()
        )
    );
    let items = read_items(&out);
    let answers: Vec<(&str, &str, &str)> = items
        .iter()
        .map(|i| {
            (
                i["id"].as_str().unwrap(),
                i["responses"][0]["original"].as_str().unwrap(),
                i["responses"][0]["counterfactual"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        answers,
        [
            ("real-00001", "3", "1"),
            ("real-00002", "2", "fail"),
            ("real-00003", "2", "8"),
            ("real-00004", "fail", "2"),
            ("real-00005", "yes", "no"),
            ("real-00006", "no", "no"),
            ("synthetic-00001", "6", "A"),
            ("synthetic-00002", "C", "7"),
            ("synthetic-00003", "8", "3"),
        ]
    );
    assert!(items.iter().all(|i| i["responses"][0]["model"] == "toy-7b"));
    // the results file alone: the items keep the row of the file they come from
    let alone = d.path().join("alone.jsonl");
    let o = verdict(&["import", "cvqa", &results, "-o", alone.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let items = read_items(&alone);
    let rows: Vec<(&str, u64)> = items
        .iter()
        .map(|i| {
            (
                i["id"].as_str().unwrap(),
                i["source"]["row"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("real-00001", 1),
            ("real-00002", 2),
            ("real-00003", 4),
            ("real-00004", 5),
            ("real-00005", 7),
            ("real-00006", 9),
            ("synthetic-00001", 3),
            ("synthetic-00002", 6),
            ("synthetic-00003", 8),
        ]
    );
    let c = verdict(&["check", "--no-images", alone.to_str().unwrap()]);
    assert_eq!(c.status.code(), Some(0), "{}", stdout(&c));
}

#[test]
fn cvqa_mismatch_names_both_files_and_writes_nothing() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("cvqa.jsonl");
    let q = fixture("cvqa/questions_real.csv");
    let m = fixture("cvqa/mismatch_responses.csv");
    let o = verdict(&["import", "cvqa", &q, &m, "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "verdict: row 4 differs in column `query`: {q} (line 6) has `How many umbrellas are open?` but {m} (line 6) has `How many umbrellas are closed?`; all CSVs of a set must describe the same questions row by row\n"
        )
    );
    assert!(!out.exists());
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
}

#[test]
fn cvqa_refuses_to_overwrite_without_force() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o.jsonl");
    std::fs::write(&out, "keep me\n").unwrap();
    let q = fixture("cvqa/questions_synthetic.csv");
    let o = verdict(&["import", "cvqa", &q, "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "verdict: {}: already exists; not overwriting it (use --force to replace it)\n",
            out.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep me\n");
    let o = verdict(&["import", "cvqa", &q, "-o", out.to_str().unwrap(), "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(read_items(&out).len(), 3);
    // a pending verdict journal beside OUT is never clobbered, even with --force
    let journal = d.path().join(".o.jsonl.ann.verdict-journal");
    std::fs::write(&journal, "{}\n").unwrap();
    let o = verdict(&["import", "cvqa", &q, "-o", out.to_str().unwrap(), "--force"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("has unsaved verdicts in its journal"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn cvqa_images_relative_to_the_output() {
    let d = tempfile::tempdir().unwrap();
    let imgs = d.path().join("data/images");
    std::fs::create_dir_all(&imgs).unwrap();
    std::fs::create_dir_all(d.path().join("results")).unwrap();
    std::fs::write(imgs.join("abs_counting_000001.png"), b"png").unwrap();
    let out = d.path().join("results/syn.jsonl");
    let o = verdict(&[
        "import",
        "cvqa",
        &fixture("cvqa/questions_synthetic.csv"),
        "--images",
        imgs.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "warning: 2 of 3 images were not found in the --images folder\n"
    );
    let items = read_items(&out);
    assert_eq!(items[0]["image"], "../data/images/abs_counting_000001.png");
    // check finds the one image that exists and warns about the others
    let c = verdict(&["check", out.to_str().unwrap()]);
    assert_eq!(c.status.code(), Some(0));
    let text = stdout(&c);
    assert!(
        text.contains(":2: synthetic-00002: image: warning: image file not found:"),
        "{text}"
    );
    assert!(!text.contains("synthetic-00001"), "{text}");
    assert!(
        text.ends_with("3 items, 0 errors, 2 warnings, 0 notices\n"),
        "{text}"
    );
}

#[test]
fn cvqa_bad_csv_names_file_row_and_column() {
    let d = tempfile::tempdir().unwrap();
    let bad = d.path().join("bad.csv");
    std::fs::write(
        &bad,
        b"img_path,query,answer,new query,new answer,type\na.jpg,q,1,nq,2,direct\nb.jpg,q,\"1\xff\",nq,2,direct\n",
    )
    .unwrap();
    let out = d.path().join("o.jsonl");
    let o = verdict(&[
        "import",
        "cvqa",
        bad.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "verdict: {}: row 2 (line 3), column `answer`: invalid UTF-8 at byte 1 of the field\n",
            bad.display()
        )
    );
    assert!(!out.exists());
}

/// The shared reference data: ../shared beside the repository (CI clones) or /work/shared.
fn shared_cvqa() -> Option<PathBuf> {
    let beside = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets/cvqa");
    [beside, PathBuf::from("/work/shared/datasets/cvqa")]
        .into_iter()
        .find(|p| p.join("C-VQA-Real_questions.csv").is_file())
}

#[test]
fn real_cvqa_files() {
    let Some(dir) = shared_cvqa() else {
        println!("notice: ../shared/datasets/cvqa not found; skipping the real C-VQA import test");
        return;
    };
    let real = dir.join("C-VQA-Real_questions.csv");
    let syn = dir.join("C-VQA-Synthetic_questions.csv");
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("cvqa-all.jsonl");
    let t = Instant::now();
    let o = verdict(&[
        "import",
        "cvqa",
        real.to_str().unwrap(),
        syn.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    let took = t.elapsed();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!(
            "wrote {}: 6144 items\n  real: 3144 (direct 1150, indirect 864, boolean 1130)\n  synthetic: 3000 (abs_counting_1 500, abs_counting_2 500, abs_counting_3 500, abs_counting_4 500, abs_counting_5 500, abs_counting_6 500)\nmodels: none (questions only)\n",
            out.display()
        )
    );
    println!("imported 6,144 real C-VQA rows in {took:?}");
    let items = read_items(&out);
    assert_eq!(items.len(), 6144);
    let count = |split: &str, group: &str| {
        items
            .iter()
            .filter(|i| i["split"] == split && i["group"] == group)
            .count()
    };
    assert_eq!(count("real", "direct"), 1150);
    assert_eq!(count("real", "indirect"), 864);
    assert_eq!(count("real", "boolean"), 1130);
    assert_eq!(
        items.iter().filter(|i| i["split"] == "synthetic").count(),
        3000
    );
    // the mojibake row stays byte for byte
    let raw_csv = std::fs::read(&real).unwrap();
    let needle = "men\u{a1}\u{af}s ties";
    assert!(String::from_utf8(raw_csv).unwrap().contains(needle));
    let moji: Vec<&Value> = items
        .iter()
        .filter(|i| {
            i["counterfactual"]["question"]
                .as_str()
                .unwrap()
                .contains(needle)
        })
        .collect();
    assert_eq!(moji.len(), 1);
    assert_eq!(moji[0]["source"]["file"], "C-VQA-Real_questions.csv");
    // ids are unique
    let mut ids: Vec<&str> = items.iter().map(|i| i["id"].as_str().unwrap()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 6144);

    // check: no errors (the COCO and synthetic images are not part of the data, so each
    // item gets a missing-image warning, and nothing else)
    let t = Instant::now();
    let c = verdict(&["check", "--json", out.to_str().unwrap()]);
    println!("checked them in {:?}", t.elapsed());
    assert_eq!(c.status.code(), Some(0));
    let rep: Value = serde_json::from_slice(&c.stdout).unwrap();
    assert_eq!(rep["items"], 6144);
    assert_eq!(rep["errors"], 0);
    assert_eq!(rep["warnings"], 6144);
    assert!(
        rep["problems"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["field"] == "image")
    );
    let c = verdict(&["check", "--no-images", out.to_str().unwrap()]);
    assert_eq!(
        stdout(&c),
        format!(
            "{}: 6144 items, 0 errors, 0 warnings, 0 notices\n",
            out.display()
        )
    );

    // each set on its own gives the same items
    let out_real = d.path().join("real.jsonl");
    let o = verdict(&[
        "import",
        "cvqa",
        real.to_str().unwrap(),
        "-o",
        out_real.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(read_items(&out_real), items[..3144].to_vec());

    // an authors' results file built from both question files (real rows, then synthetic
    // ones, as one model's `C-VQA_<model>_results.csv`): it joins both sets row by row
    let results = d.path().join("C-VQA_made-up_results.csv");
    let mut w = csv::Writer::from_path(&results).unwrap();
    let mut first = true;
    for (f, answer) in [(&real, "1"), (&syn, "A")] {
        let mut r = csv::Reader::from_path(f).unwrap();
        if first {
            let mut h = r.headers().unwrap().clone();
            h.push_field("response");
            h.push_field("new_response");
            w.write_record(&h).unwrap();
            first = false;
        }
        for rec in r.records() {
            let mut rec = rec.unwrap();
            rec.push_field(answer);
            rec.push_field("fail");
            w.write_record(&rec).unwrap();
        }
    }
    w.flush().unwrap();
    drop(w);
    let out_all = d.path().join("with-results.jsonl");
    let o = verdict(&[
        "import",
        "cvqa",
        real.to_str().unwrap(),
        syn.to_str().unwrap(),
        results.to_str().unwrap(),
        "-o",
        out_all.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("models: made-up (real, synthetic)\n"),
        "{}",
        stdout(&o)
    );
    let with = read_items(&out_all);
    assert_eq!(with.len(), 6144);
    for (a, b) in with.iter().zip(&items) {
        assert_eq!(a["id"], b["id"]);
        assert_eq!(a["original"], b["original"]);
        let want = if a["split"] == "real" { "1" } else { "A" };
        assert_eq!(a["responses"][0]["original"], want);
    }
}

fn chartom_import(out: &Path) -> Output {
    verdict(&[
        "import",
        "chartom",
        &fixture("chartom"),
        "-o",
        out.to_str().unwrap(),
        "--answers",
        &fixture("chartom/answers.jsonl"),
        "--human-answers",
        &fixture("chartom/human_answers.csv"),
        "--strategies",
        &fixture("chartom/strategies.csv"),
        "--hmi",
        &fixture("chartom/hmi.csv"),
    ])
}

#[test]
fn chartom_folder() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("chartom.jsonl");
    let o = chartom_import(&out);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        format!(
            "wrote {}: 6 items, 3 pairs\n  chart types: line 2, bar 2, pie 2\n  formats: number 2, choice 2, rank 2\n  human answers: 5 charts; HMI: 6 charts\nmodels: gpt-4o (6 answers), llava (1 answer)\n",
            out.display()
        )
    );
    assert_eq!(stderr(&o), "");
    let items = read_items(&out);
    let by_id = |id: &str| items.iter().find(|i| i["id"] == id).unwrap();

    // the paper's pair G7_Q1 (Table 2): key 1.2, strategies 6 and 300 → HMI 0.18 and 0.29
    let g1 = by_id("G7_Q1_1");
    assert_eq!(g1["fact"]["format"], "number");
    assert_eq!(g1["fact"]["key"].to_string(), "1.2");
    assert_eq!(
        g1["fact"]["strategies"],
        serde_json::json!({"misled": 6, "skim": 300})
    );
    let h1 = g1["mind"]["hmi"].as_f64().unwrap();
    assert!((h1 - 12.0 / 68.0).abs() < 1e-12);
    assert_eq!((h1 * 100.0).round(), 18.0);
    let h2 = by_id("G7_Q1_2")["mind"]["hmi"].as_f64().unwrap();
    assert!((h2 - 20.0 / 68.0).abs() < 1e-12);
    assert_eq!((h2 * 100.0).round(), 29.0);
    // the pair's planted manipulation is on both charts
    assert_eq!(g1["chart"]["version"], "original");
    assert_eq!(
        g1["chart"]["manipulation"],
        "y-axis truncated, so the growth looks steeper"
    );
    assert_eq!(
        by_id("G7_Q1_2")["chart"]["manipulation"],
        g1["chart"]["manipulation"]
    );
    assert_eq!(g1["chart"]["type"], "line");
    // Relative to the output's folder when they share more than the root (a clone under
    // /tmp, like the temporary output), else absolute: either way it finds the image.
    let image = std::path::Path::new(g1["image"].as_str().unwrap());
    let resolved = out.parent().unwrap().join(image);
    assert_eq!(
        std::fs::canonicalize(resolved).unwrap(),
        std::fs::canonicalize(format!("{}/chart_images/G7_Q1_1.png", fixture("chartom"))).unwrap()
    );

    // choice: options from `A.` lines and from `(a)` lines with CRLF; keys `B` and `b`
    for id in ["G2_Q3_1", "G2_Q3_2"] {
        let it = by_id(id);
        assert_eq!(
            it["fact"]["options"],
            serde_json::json!(["North", "South", "East", "West"])
        );
        assert_eq!(
            it["fact"]["question"],
            "Which region had the highest sales in 2019?"
        );
        assert_eq!(it["fact"]["key"], 2);
    }
    // human answers given as letter, text and number merge into option numbers
    assert_eq!(
        by_id("G2_Q3_2")["fact"]["human_answers"],
        serde_json::json!([[2, 20], [1, 20]])
    );
    assert_eq!(by_id("G2_Q3_2")["mind"]["hmi"], 0.5);
    assert_eq!(by_id("G2_Q3_1")["chart"]["manipulation"], "inverted y-axis");

    // rank: numbered option lines with trailing text, inline `(A)` options; `B, A, C` and `2>1>3`
    let r1 = by_id("G4_Q2_1");
    assert_eq!(
        r1["fact"]["options"],
        serde_json::json!(["Rent", "Food", "Travel"])
    );
    assert_eq!(
        r1["fact"]["question"],
        "Rank the budget items from largest to smallest.\n\nWrite the item numbers in order."
    );
    assert_eq!(r1["fact"]["key"], serde_json::json!([2, 1, 3]));
    assert_eq!(r1["mind"]["hmi"], 0.1);
    let r2 = by_id("G4_Q2_2");
    assert_eq!(
        r2["fact"]["options"],
        serde_json::json!(["Rent", "Food", "Travel"])
    );
    assert_eq!(r2["fact"]["key"], serde_json::json!([2, 1, 3]));
    // the --hmi file gives the HMI of a chart without human answers
    assert_eq!(r2["mind"]["hmi"], 0.35);
    assert_eq!(r2["chart"]["type"], "pie");
    assert_eq!(
        r2["chart"]["manipulation"],
        "3D pie enlarges the front slice"
    );
    assert_eq!(r2["source"]["answer"], "2>1>3");

    // model answers: two models on one chart; a numeric fact becomes text, null mind is
    // left out, other keys are kept
    let resp = &by_id("G7_Q1_2")["responses"];
    assert_eq!(resp.as_array().unwrap().len(), 2);
    assert_eq!(
        resp[1],
        serde_json::json!({"model": "llava", "fact": "1.2", "justification": "Looks fine.", "latency_s": 3.5})
    );

    let c = verdict(&["check", out.to_str().unwrap()]);
    assert_eq!(
        stdout(&c),
        format!(
            "{}: 6 items, 0 errors, 0 warnings, 0 notices\n",
            out.display()
        )
    );
    assert_eq!(c.status.code(), Some(0));
}

/// A copy of the CHARTOM fixture folder to break.
fn chartom_copy(d: &Path) -> PathBuf {
    let src = PathBuf::from(fixture("chartom"));
    let dst = d.join("chartom");
    for sub in ["", "FACT_questions", "chart_images"] {
        std::fs::create_dir_all(dst.join(sub)).unwrap();
        for e in std::fs::read_dir(src.join(sub)).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_file() {
                std::fs::copy(e.path(), dst.join(sub).join(e.file_name())).unwrap();
            }
        }
    }
    dst
}

/// The importer computes `mind.hmi` by the one acceptable-interval rule that `stats` and the
/// reviewer use, also for a negative key (key −10, strategies −40 and −2.5 → (−20, −5)) and
/// for key 0 (the same strategies → (−1.25, +∞)).
#[test]
fn chartom_hmi_for_negative_and_zero_keys_is_the_stats_rule() {
    let d = tempfile::tempdir().unwrap();
    let dir = chartom_copy(d.path());
    let keys = std::fs::read_to_string(dir.join("FACT_answer_keys.csv"))
        .unwrap()
        .replace("G7_Q1_1,free text,1.2", "G7_Q1_1,free text,-10")
        .replace("G7_Q1_2,free text,1.2", "G7_Q1_2,free text,0");
    std::fs::write(dir.join("FACT_answer_keys.csv"), keys).unwrap();
    let strategies = d.path().join("strategies.csv");
    std::fs::write(&strategies, "chart id,misled,skim\nG7_Q1,-40,-2.5\n").unwrap();
    let human = d.path().join("human.csv");
    std::fs::write(
        &human,
        "chart id,answer,count\nG7_Q1_1,-10,3\nG7_Q1_1,-30,1\nG7_Q1_1,-3,1\n\
         G7_Q1_2,0,2\nG7_Q1_2,3,1\nG7_Q1_2,-2,1\n",
    )
    .unwrap();
    let out = d.path().join("c.jsonl");
    let o = verdict(&[
        "import",
        "chartom",
        dir.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--human-answers",
        human.to_str().unwrap(),
        "--strategies",
        strategies.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let items = read_items(&out);
    let hmi = |id: &str| {
        items.iter().find(|i| i["id"] == id).unwrap()["mind"]["hmi"]
            .as_f64()
            .unwrap()
    };
    // −30 and −3 lie outside (−20, −5): 2 of 5
    assert_eq!(hmi("G7_Q1_1"), 0.4);
    // −2 lies outside (−1.25, +∞): 1 of 4
    assert_eq!(hmi("G7_Q1_2"), 0.25);
    // stats recomputes the same HMI and interval from the same answers
    let st = verdict(&["stats", "--json", out.to_str().unwrap()]);
    assert_eq!(st.status.code(), Some(0), "{}", stderr(&st));
    let doc: Value = serde_json::from_slice(&st.stdout).unwrap();
    let charts = doc["benchmarks"]["chartom"]["charts"].as_array().unwrap();
    let chart = |id: &str| charts.iter().find(|c| c["id"] == id).unwrap().clone();
    assert_eq!(
        chart("G7_Q1_1")["interval"],
        serde_json::json!([-20.0, -5.0])
    );
    assert_eq!(
        chart("G7_Q1_2")["interval"],
        serde_json::json!([-1.25, null])
    );
    for c in charts {
        if !c["hmi_recomputed"].is_null() {
            assert_eq!(c["hmi"], c["hmi_recomputed"], "{c}");
        }
    }
}

#[test]
fn chartom_errors_name_file_row_and_column() {
    let d = tempfile::tempdir().unwrap();
    let dir = chartom_copy(d.path());
    let out = d.path().join("o.jsonl");
    let keys = dir.join("FACT_answer_keys.csv");
    let text = std::fs::read_to_string(&keys).unwrap();
    std::fs::write(
        &keys,
        text.replace("G4_Q2_2,rank,2>1>3", "G4_Q2_2,rank,2>1>1"),
    )
    .unwrap();
    let o = verdict(&[
        "import",
        "chartom",
        dir.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "verdict: {}: row 6 (line 7), column `answer`: G4_Q2_2: `2>1>1` is not an order of all 3 options (each once)\n",
            keys.display()
        )
    );
    assert!(!out.exists());

    std::fs::write(
        &keys,
        text.replace("G2_Q3_1,multiple choice,B", "G2_Q3_1,multiple choice,E"),
    )
    .unwrap();
    let o = verdict(&[
        "import",
        "chartom",
        dir.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        stderr(&o),
        format!(
            "verdict: {}: row 3 (line 4), column `answer`: G2_Q3_1: `E` names option 5, but the question has 4 options\n",
            keys.display()
        )
    );
    std::fs::write(&keys, &text).unwrap();

    // model answers: unknown chart, mind as a percentage
    let ans = d.path().join("a.jsonl");
    std::fs::write(&ans, "{\"id\":\"G7_Q1_1\",\"model\":\"m\",\"mind\":35}\n").unwrap();
    let o = verdict(&[
        "import",
        "chartom",
        dir.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--answers",
        ans.to_str().unwrap(),
    ]);
    assert_eq!(
        stderr(&o),
        format!(
            "verdict: {}: line 1, field `mind`: 35 is not in [0, 1] (the predicted share of people misled, not a percentage)\n",
            ans.display()
        )
    );
    std::fs::write(&ans, "\n{\"id\":\"G9_Q9_1\",\"model\":\"m\"}\n").unwrap();
    let o = verdict(&[
        "import",
        "chartom",
        dir.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--answers",
        ans.to_str().unwrap(),
    ]);
    assert_eq!(
        stderr(&o),
        format!(
            "verdict: {}: line 2, field `id`: `G9_Q9_1` is not a chart of FACT_answer_keys.csv\n",
            ans.display()
        )
    );
    assert!(!out.exists());

    // a missing image is a warning, not an error
    std::fs::remove_file(dir.join("chart_images/G2_Q3_2.png")).unwrap();
    let o = verdict(&[
        "import",
        "chartom",
        dir.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stderr(&o),
        format!(
            "warning: 1 of 6 chart images not found in {}: G2_Q3_2\n",
            dir.join("chart_images").display()
        )
    );
    let items = read_items(&out);
    assert_eq!(items[0]["image"], "chartom/chart_images/G7_Q1_1.png");
    assert!(items.iter().all(|i| i.get("mind").is_none()));
}

/// Issue 19: an output in a folder that does not exist failed with the path of a
/// temporary file nobody asked for (`at path "/missing/dir/.x.jsonl.dfEY55.verdict-tmp"`).
#[test]
fn an_output_in_a_missing_folder_names_the_folder_not_a_temporary() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("missing/dir/x.jsonl");
    let o = verdict(&[
        "import",
        "cvqa",
        &fixture("cvqa/C-VQA_toy-7b_results.csv"),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(!e.contains("verdict-tmp"), "{e}");
    assert!(e.contains("x.jsonl") && e.contains("missing/dir"), "{e}");
    assert!(e.contains("no such folder"), "{e}");
}
