//! A benchmark declared in TOML (`--benchmark SPEC.toml`, docs/format.md "Declared
//! benchmarks"): `check`, `stats --json`, `agree` and `export` on the bundled examples
//! (sample-data/reading.toml, rubric.toml), with reviews written here, figures worked out
//! by hand in the comments.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

mod common;

fn spec(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sample-data")
        .join(name)
        .display()
        .to_string()
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(args)
        .output()
        .expect("run verdict")
}

fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The tests' copy of sample `name` with `reviews` (id → reviews object) written in.
fn reviewed(dir: &Path, name: &str, reviews: &[(&str, Value)]) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/samples")
        .join(name);
    let mut out = String::new();
    for line in std::fs::read_to_string(src).unwrap().lines() {
        let mut v: Value = serde_json::from_str(line).unwrap();
        if let Some((_, r)) = reviews.iter().find(|(id, _)| v["id"] == *id) {
            v["reviews"] = r.clone();
        }
        out.push_str(&v.to_string());
        out.push('\n');
    }
    let path = dir.join(name);
    std::fs::write(&path, out).unwrap();
    path
}

const AT: &str = "2026-11-01T10:00:00Z";

fn answers(per_model: &[(&str, Value)]) -> Value {
    json!({"at": AT, "models": per_model.iter().map(|(m, a)| (m.to_string(), json!({"answers": a}))).collect::<serde_json::Map<_, _>>()})
}

/// reading.jsonl, two models per item. ann and bob answer `correct` on rc-01..rc-03:
///
/// | item | model-a ann / bob | model-b ann / bob |
/// | rc-01 | yes / yes | no / no |
/// | rc-02 | yes / yes | partly / no |
/// | rc-03 | yes / yes | no / no |
///
/// ann gives `quality` 5, 2 / 4, 3 / 5, 1 (a / b per item), bob none.
fn reading(dir: &Path) -> PathBuf {
    let ann = |a: &str, qa: i64, b: &str, qb: i64| {
        answers(&[
            ("model-a", json!({"correct": a, "quality": qa})),
            (
                "model-b",
                json!({"correct": b, "quality": qb, "comment": "checked"}),
            ),
        ])
    };
    let bob = |a: &str, b: &str| {
        answers(&[
            ("model-a", json!({"correct": a})),
            ("model-b", json!({"correct": b})),
        ])
    };
    reviewed(
        dir,
        "reading.jsonl",
        &[
            (
                "rc-01",
                json!({"ann": ann("yes", 5, "no", 2), "bob": bob("yes", "no")}),
            ),
            (
                "rc-02",
                json!({"ann": ann("yes", 4, "partly", 3), "bob": bob("yes", "no")}),
            ),
            (
                "rc-03",
                json!({"ann": ann("yes", 5, "no", 1), "bob": bob("yes", "no")}),
            ),
        ],
    )
}

#[test]
fn stats_json_counts_the_answers_that_count_question_by_question() {
    let dir = tempfile::tempdir().unwrap();
    let file = reading(dir.path());
    let s: Value = serde_json::from_str(&ok(&[
        "stats",
        file.to_str().unwrap(),
        "--json",
        "--benchmark",
        &spec("reading.toml"),
    ]))
    .unwrap();
    let d = &s["benchmarks"]["declared"];
    assert_eq!(d["name"], "reading");
    assert_eq!(d["items"], 4);
    assert_eq!(d["responses"], 8);
    let q = &d["questions"];
    assert_eq!(q[0]["name"], "correct");
    assert_eq!(q[0]["asked"], 8);
    // 6 responses answered; rc-02 model-b is a tie (partly / no) that goes to the most
    // recent reviewer: both at the same time, so the later in the file, bob's "no".
    assert_eq!(q[0]["answered"], 6);
    assert_eq!(q[0]["counts"], json!({"yes": 3, "partly": 0, "no": 3}));
    assert_eq!(q[1]["name"], "quality");
    assert_eq!(q[1]["answered"], 6);
    // (5 + 2 + 4 + 3 + 5 + 1) / 6
    assert_eq!(q[1]["mean"], json!(20.0 / 6.0));
    assert_eq!(q[2]["kind"], "text");
    assert_eq!(q[2]["answered"], 3);
    // Every review answers every required question of rc-01..03: done, rc-04 not.
    assert_eq!(s["reviews"]["ann"]["done"], 3);
    assert_eq!(s["reviews"]["bob"]["done"], 0, "bob gave no quality");
    // The text report names the benchmark and each question.
    let text = ok(&[
        "stats",
        file.to_str().unwrap(),
        "--benchmark",
        &spec("reading.toml"),
    ]);
    assert!(text.contains("reading: 4 items, 8 responses"), "{text}");
    assert!(
        text.contains(
            "  quality (rating, per response): 6 of 8 answered; 1 1, 2 1, 3 1, 4 1, 5 2; mean 3.33"
        ),
        "{text}"
    );
}

#[test]
fn agree_rates_labels_by_kappa_and_ratings_with_ordinal_alpha() {
    let dir = tempfile::tempdir().unwrap();
    let file = reading(dir.path());
    let r: Value = serde_json::from_str(&ok(&[
        "agree",
        file.to_str().unwrap(),
        "--json",
        "--benchmark",
        &spec("reading.toml"),
    ]))
    .unwrap();
    let fields = r["fields"].as_array().unwrap();
    let correct = fields.iter().find(|f| f["field"] == "correct").unwrap();
    assert_eq!(correct["unit"], "item × model");
    assert_eq!(correct["units_multi"], 6);
    let pairs: Vec<(&str, &str)> = vec![
        ("yes", "yes"),
        ("no", "no"),
        ("yes", "yes"),
        ("partly", "no"),
        ("yes", "yes"),
        ("no", "no"),
    ];
    let want = common::hand_kappa(&pairs).unwrap();
    let got = correct["pairs"][0]["cohen_kappa"].as_f64().unwrap();
    assert!((got - want).abs() < 1e-9, "kappa {got}, by hand {want}");
    // quality: only ann rated it, so no pair; it is listed with its ranked values.
    let quality = fields.iter().find(|f| f["field"] == "quality").unwrap();
    assert_eq!(quality["categories"], json!(["1", "2", "3", "4", "5"]));
    assert_eq!(quality["units_multi"], 0);
    assert!(
        !fields.iter().any(|f| f["field"] == "comment"),
        "a text is not rated"
    );
}

/// rubric.jsonl, one reply per item: the answers sit at the review's top level.
/// rb-01 (3 points): ann ticks 1, 3; bob ticks 1, 2, 3. rb-02 (4 points): both tick 1, 2.
#[test]
fn agree_rates_a_checklist_point_by_point_and_export_writes_the_answers() {
    let dir = tempfile::tempdir().unwrap();
    let file = reviewed(
        dir.path(),
        "rubric.jsonl",
        &[
            (
                "rb-01",
                json!({"ann": {"at": AT, "answers": {"points": [1, 3], "overall": "acceptable"}},
                       "bob": {"at": AT, "answers": {"points": [1, 2, 3], "overall": "acceptable"}}}),
            ),
            (
                "rb-02",
                json!({"ann": {"at": AT, "answers": {"points": [1, 2], "overall": "not acceptable"}},
                       "bob": {"at": AT, "answers": {"points": [1, 2]}}}),
            ),
        ],
    );
    let f = file.to_str().unwrap();
    let spec = spec("rubric.toml");
    let r: Value =
        serde_json::from_str(&ok(&["agree", f, "--json", "--benchmark", &spec])).unwrap();
    let points = r["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["field"] == "points")
        .unwrap();
    assert_eq!(points["unit"], "item × model × point");
    // 3 + 4 points, each rated by both: they differ on rb-01's point 2 only.
    assert_eq!(points["units_multi"], 7);
    assert_eq!(points["pairs"][0]["agreement"], json!(6.0 / 7.0));

    let rows: Vec<Value> = ok(&["export", f, "--jsonl", "--benchmark", &spec])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(
        rows[0].as_object().unwrap().keys().collect::<Vec<_>>(),
        [
            "id",
            "line",
            "benchmark",
            "model",
            "raw_answer",
            "answers",
            "resolution",
            "n_reviewers",
            "reviews",
            "notes",
            "error"
        ]
    );
    assert_eq!(rows[0]["model"], "model-a");
    assert!(
        rows[0]["raw_answer"]
            .as_str()
            .unwrap()
            .starts_with("About 6 minutes")
    );
    // rb-01: the points tie (ann, bob: same time, bob later in the file wins); overall agreed.
    assert_eq!(
        rows[0]["answers"],
        json!({"points": [1, 2, 3], "overall": "acceptable"})
    );
    assert_eq!(
        rows[1]["answers"],
        json!({"points": [1, 2], "overall": "not acceptable"})
    );
    assert_eq!(rows[2]["answers"], json!({}));
}

#[test]
fn check_passes_the_examples_and_reports_each_wrong_answer_with_its_line_and_field() {
    for (data, s) in [
        ("reading.jsonl", "reading.toml"),
        ("rubric.jsonl", "rubric.toml"),
    ] {
        let file = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/samples")
            .join(data);
        ok(&["check", file.to_str().unwrap(), "--benchmark", &spec(s)]);
    }
    let dir = tempfile::tempdir().unwrap();
    let file = reviewed(
        dir.path(),
        "rubric.jsonl",
        &[(
            "rb-02",
            json!({"ann": {"at": AT, "answers": {"points": [5], "overall": "fine", "colour": "red"}}}),
        )],
    );
    let out = run(&[
        "check",
        file.to_str().unwrap(),
        "--json",
        "--benchmark",
        &spec("rubric.toml"),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors: Vec<(u64, String, String)> = r["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["severity"] == "error")
        .map(|p| {
            (
                p["line"].as_u64().unwrap(),
                p["field"].as_str().unwrap().to_string(),
                p["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        errors,
        [
            (
                2,
                "reviews.ann.answers.points".into(),
                "5 is not a point number from 1 to 4; found [5]".into()
            ),
            (
                2,
                "reviews.ann.answers.overall".into(),
                r#"expected one of "acceptable", "not acceptable"; found "fine""#.into()
            ),
            (
                2,
                "reviews.ann.answers.colour".into(),
                "no question is named `colour`".into()
            ),
        ]
    );
}

#[test]
fn a_spec_with_mistakes_is_refused_with_each_mistake_on_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        "name = \"b\"\n[[question]]\nname = \"q\"\nkind = \"rating\"\n[[question]]\nname = \"r\"\nkind = \"label\"\nlabels = []\n",
    )
    .unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/samples/rubric.jsonl");
    let out = run(&[
        "stats",
        data.to_str().unwrap(),
        "--benchmark",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let b = bad.display();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "verdict: {b}:4: question[1] (q).values: a rating question needs `values = [lowest, highest]`\n\
             verdict: {b}:8: question[2] (r).labels: a label question needs `labels`, one or more\n"
        )
    );
}

#[test]
fn without_a_spec_the_same_file_is_read_as_before() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/samples/reading.jsonl");
    let s: Value = serde_json::from_str(&ok(&["stats", data.to_str().unwrap(), "--json"])).unwrap();
    assert_eq!(s["benchmarks"]["other"]["items"], 4);
    assert!(s["benchmarks"].get("declared").is_none());
}

/// A declared set deals out to two reviewers and merges back (docs/teams.md): each
/// reviewer's answers, written in their own file, are in the merged file, and `stats` on
/// it counts both as `agree` rates them.
#[test]
fn split_and_merge_carry_the_answers_of_a_declared_set() {
    let dir = tempfile::tempdir().unwrap();
    let file = reviewed(dir.path(), "reading.jsonl", &[]);
    let (f, spec) = (file.to_str().unwrap(), spec("reading.toml"));
    let out = dir.path().join("split");
    ok(&[
        "split",
        f,
        "--reviewers",
        "ann,bob",
        "--overlap",
        "2",
        "--out",
        out.to_str().unwrap(),
        "--benchmark",
        &spec,
    ]);
    // each reviewer answers `correct` on every item of their file, as the reviewer would
    let mut files = Vec::new();
    for (who, a, b) in [("ann", "yes", "no"), ("bob", "yes", "partly")] {
        let p = out.join(format!("reading.{who}.jsonl"));
        let text = std::fs::read_to_string(&p).unwrap();
        let mut lines = Vec::new();
        for line in text.lines() {
            let mut v: Value = serde_json::from_str(line).unwrap();
            v["reviews"][who] = answers(&[
                ("model-a", json!({"correct": a})),
                ("model-b", json!({"correct": b})),
            ]);
            lines.push(v.to_string());
        }
        std::fs::write(&p, lines.join("\n") + "\n").unwrap();
        files.push(p.to_str().unwrap().to_string());
    }
    let merged = dir.path().join("merged.jsonl");
    ok(&[
        "merge",
        &files[0],
        &files[1],
        "--out",
        merged.to_str().unwrap(),
        "--benchmark",
        &spec,
    ]);
    let m = merged.to_str().unwrap();
    let items: Vec<Value> = std::fs::read_to_string(&merged)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(items.len(), 4);
    for it in &items {
        assert_eq!(
            it["reviews"]["ann"]["models"]["model-b"]["answers"]["correct"],
            "no"
        );
        assert_eq!(
            it["reviews"]["bob"]["models"]["model-b"]["answers"]["correct"],
            "partly"
        );
    }
    ok(&["check", m, "--benchmark", &spec]);
    let a: Value =
        serde_json::from_str(&ok(&["agree", m, "--json", "--benchmark", &spec])).unwrap();
    let fields = a["fields"].as_array().unwrap();
    let correct = fields.iter().find(|f| f["field"] == "correct").unwrap();
    // both on every item × model: model-a yes / yes, model-b no / partly
    assert_eq!(correct["units_multi"], 8, "{correct}");
    assert_eq!(correct["pairs"][0]["agreement"], json!(0.5), "{correct}");
}
