//! `split` into a folder of its own and `merge` back, on the bundled samples: the split
//! files open with their pictures and the names the set's own file gives (a CharToM-QA
//! evaluation file's model, an lm-eval log's model), and every layout `split` deals out
//! merges back (docs/teams.md, "Where split files find their images").

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn verdict(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run verdict")
}

fn ok(out: Output) -> (String, String) {
    let (o, e) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(out.status.success(), "verdict failed:\n{o}\n{e}");
    (o, e)
}

/// A copy of the tests' samples (the sets, the lm-eval folder) with sample-data's images
/// in a temp folder.
fn samples() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    copy_dir(Path::new("tests/fixtures/samples"), d.path());
    copy_dir(Path::new("sample-data/images"), &d.path().join("images"));
    d
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let t = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &t);
        } else {
            fs::copy(e.path(), &t).unwrap();
        }
    }
}

/// The file's lines, sorted (merge writes them in the order of first appearance).
fn sorted_lines(p: &Path) -> Vec<String> {
    let mut l: Vec<String> = fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    l.sort();
    l
}

/// `verdict export --jsonl` rows of `file`.
fn rows(file: &str, dir: &Path) -> Vec<Value> {
    let (o, _) = ok(verdict(&["export", file, "--jsonl"], dir));
    o.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// docs/teams.md's own example: split into `split/`; every reviewer file still finds its
/// images (before: `image file not found: split/images/cvqa_apples.png` on every item).
#[test]
fn split_files_in_a_subfolder_find_their_images() {
    let d = samples();
    ok(verdict(
        &[
            "split",
            "cvqa.jsonl",
            "--reviewers",
            "ann,bo,cy",
            "-o",
            "split",
        ],
        d.path(),
    ));
    // The source itself has every image.
    let (o, _) = ok(verdict(&["check", "cvqa.jsonl"], d.path()));
    assert!(!o.contains("image"), "{o}");
    for r in ["ann", "bo", "cy"] {
        let f = format!("split/cvqa.{r}.jsonl");
        let out = verdict(&["check", &f], d.path());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains("image file"), "{f}:\n{text}");
    }
    // A split of a split still finds them; so does a merge written elsewhere.
    ok(verdict(
        &[
            "split",
            "split/cvqa.ann.jsonl",
            "--reviewers",
            "x,y",
            "--overlap",
            "1",
            "-o",
            "split/again",
        ],
        d.path(),
    ));
    let out = verdict(&["check", "split/again/cvqa.ann.x.jsonl"], d.path());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("image file"));
    fs::create_dir(d.path().join("out")).unwrap();
    ok(verdict(
        &[
            "merge",
            "split/cvqa.ann.jsonl",
            "split/cvqa.bo.jsonl",
            "split/cvqa.cy.jsonl",
            "-o",
            "out/merged.jsonl",
        ],
        d.path(),
    ));
    let out = verdict(&["check", "out/merged.jsonl"], d.path());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("image file"));
    // Merged back: the source's lines, byte for byte (in the order of first appearance).
    assert_eq!(
        sorted_lines(&d.path().join("out/merged.jsonl")),
        sorted_lines(&d.path().join("cvqa.jsonl"))
    );
}

/// The CharToM-QA evaluation JSONL has no ids: it splits, merges back byte-identical,
/// its verdicts come back, and its model keeps the name the set's file gives it.
#[test]
fn chartom_qa_evaluation_lines_split_and_merge_back() {
    let d = samples();
    let source_models: Vec<Value> = rows("chartom-qa-eval.jsonl", d.path())
        .iter()
        .map(|r| r["model"].clone())
        .collect();
    ok(verdict(
        &[
            "split",
            "chartom-qa-eval.jsonl",
            "--reviewers",
            "ann,bo",
            "-o",
            "split",
        ],
        d.path(),
    ));
    // The model is named as in the set's own file, not `chartom-qa-eval.ann`.
    let ann: Vec<Value> = rows("split/chartom-qa-eval.ann.jsonl", d.path())
        .iter()
        .map(|r| r["model"].clone())
        .collect();
    assert!(!ann.is_empty());
    assert!(ann.iter().all(|m| source_models.contains(m)), "{ann:?}");
    // ann grades her first item (a review written as the reviewer writes it).
    let f = d.path().join("split/chartom-qa-eval.ann.jsonl");
    let text = fs::read_to_string(&f).unwrap();
    let first = text.lines().next().unwrap();
    let graded = format!(
        "{},\"reviews\":{{\"ann\":{{\"at\":\"2026-11-26T10:00:00Z\",\"bonus\":[1],\"penalty\":null}}}}}}",
        &first[..first.len() - 1]
    );
    fs::write(&f, text.replacen(first, &graded, 1)).unwrap();
    ok(verdict(
        &[
            "merge",
            "split/chartom-qa-eval.ann.jsonl",
            "split/chartom-qa-eval.bo.jsonl",
            "-o",
            "merged.jsonl",
        ],
        d.path(),
    ));
    let merged = fs::read_to_string(d.path().join("merged.jsonl")).unwrap();
    let source = fs::read_to_string(d.path().join("chartom-qa-eval.jsonl")).unwrap();
    assert_eq!(merged.lines().count(), source.lines().count());
    assert!(merged.contains(&graded), "ann's verdict came back");
    // Every other line is the source's, byte for byte.
    let mut others: Vec<&str> = merged.lines().filter(|l| *l != graded).collect();
    let mut expected: Vec<&str> = source.lines().filter(|l| *l != first).collect();
    others.sort();
    expected.sort();
    assert!(others == expected, "the other lines changed");
}

/// lm-eval sample logs (no id; `doc_id` and `filter` name a line): split and merge back,
/// and the split files keep the model the log's folder names.
#[test]
fn lm_eval_logs_split_and_merge_back() {
    let d = samples();
    let log = "lm-eval/example__tiny-llama-1b/samples_gsm8k_2026-11-20T10-15-42.518246.jsonl";
    ok(verdict(
        &["split", log, "--reviewers", "ann,bo", "-o", "split"],
        d.path(),
    ));
    let split = "split/samples_gsm8k_2026-11-20T10-15-42.518246.ann.jsonl";
    let models: Vec<Value> = rows(split, d.path())
        .iter()
        .map(|r| r["model"].clone())
        .collect();
    assert!(!models.is_empty());
    assert!(
        models.iter().all(|m| m == "example__tiny-llama-1b"),
        "{models:?}"
    );
    ok(verdict(
        &[
            "merge",
            split,
            "split/samples_gsm8k_2026-11-20T10-15-42.518246.bo.jsonl",
            "-o",
            "merged.jsonl",
        ],
        d.path(),
    ));
    assert_eq!(
        sorted_lines(&d.path().join("merged.jsonl")),
        sorted_lines(&d.path().join(log))
    );
}

/// A set `merge` could not put back together (an id twice) is refused by `split`, up
/// front, saying why: the team does not learn it at the end.
#[test]
fn split_refuses_what_merge_could_not_put_back() {
    let d = tempfile::tempdir().unwrap();
    fs::write(
        d.path().join("set.jsonl"),
        "{\"id\":\"a\",\"q\":1}\n{\"id\":\"b\",\"q\":2}\n{\"id\":\"a\",\"q\":3}\n",
    )
    .unwrap();
    let out = verdict(
        &["split", "set.jsonl", "--reviewers", "x,y", "-o", "s"],
        d.path(),
    );
    assert!(!out.status.success());
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        e.contains("\"a\" appears twice (lines 1 and 3)") && e.contains("merge"),
        "{e}"
    );
    assert!(!d.path().join("s").exists(), "nothing was written");
}
