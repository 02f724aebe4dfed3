//! `verdict check`: runs the built binary on result sets written by the tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn verdict(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(args)
        .output()
        .expect("run verdict")
}

fn write(dir: &Path, name: &str, content: impl AsRef<[u8]>) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, content).unwrap();
    p
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn no_panic(o: &Output) {
    let e = stderr(o);
    assert!(!e.contains("panicked"), "{e}");
    assert!(matches!(o.status.code(), Some(0..=2)), "{:?} {e}", o.status);
}

const CLEAN: &str = concat!(
    r#"{"id":"G7_Q1_1","benchmark":"chartom","image":"g.png","chart":{"pair":"G7_Q1","version":"original","type":"line","manipulation":"truncated axis"},"fact":{"question":"How many times larger?","format":"number","options":[],"key":1.2,"strategies":{"misled":6,"skim":300},"human_answers":[[1.2,56],[6,12]]},"mind":{"hmi":0.18},"responses":[{"model":"gpt","fact":"1.2","mind":0.2,"justification":"axis"}],"reviews":{"ann":{"at":"2026-01-01T00:00:00Z","justification":"partial"}}}"#,
    "\n",
    r#"{"id":"bk-1","benchmark":"chartom-qa","book":"Emma","dimension":"belief","context":{"0":"c"},"question":"q","answer":"a","bonus_points":["p1","p2"],"responses":[{"model":"m","text":"t","judge":{"bonus":[2],"penalty":null}}],"reviews":{"ann":{"at":"2026-01-02T00:00:00Z","bonus":[1,2],"penalty":null}}}"#,
    "\r\n",
    r#"{"id":"real-00001","benchmark":"cvqa","split":"real","group":"direct","original":{"question":"How many?","answer":"2"},"counterfactual":{"question":"And if one left?","answer":"1"},"responses":[{"model":"a","original":"2","counterfactual":"1"},{"model":"b","original":"two","counterfactual":""}],"reviews":{"ann":{"at":"2026-01-03T00:00:00Z","status":"fix","reason":"wrong-answer","fixed_answer":"0","models":{"b":{"original_correct":true}}}}}"#,
    "\n"
);

#[test]
fn a_clean_file() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "g.png", b"png");
    let p = write(d.path(), "clean.jsonl", CLEAN);
    let o = verdict(&["check", p.to_str().unwrap()]);
    assert_eq!(
        stdout(&o),
        format!(
            "{}: 3 items, 0 errors, 0 warnings, 0 notices\n",
            p.display()
        )
    );
    assert_eq!(o.status.code(), Some(0));
    // the same items in the JSON document form
    let items: Vec<Value> = CLEAN
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let doc = serde_json::to_string_pretty(
        &serde_json::json!({"verdict": 1, "title": "t", "items": items}),
    )
    .unwrap();
    let p = write(d.path(), "clean.json", doc);
    let o = verdict(&["check", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn every_problem_with_line_item_and_field() {
    let d = tempfile::tempdir().unwrap();
    let content = [
        r#"{"id":"a","benchmark":"chartom","chart":{"version":"manipulated","type":"pie"},"fact":{"question":"q","format":"choice","options":["x","y"],"key":3},"responses":[{"model":"m","mind":1.5}]}"#,
        r#"{"id":"a","benchmark":"cvqa","split":"real","group":"boolean","original":{"question":"Is it?","answer":"Yes"},"counterfactual":{"question":"Would it?","answer":"no"},"reviews":{"ann":{"at":"2026-13-01T00:00:00Z","status":"reject"}}}"#,
        r#"{"benchmark":"mmlu","image":"missing.png"}"#,
        r#"{"id":"q","benchmark":"chartom-qa","dimension":"belief","bonus_points":["p"],"question":"q","answer":"a","context":"c","responses":[{"model":"m","text":"t","judge":{"bonus":"Null"}}],"reviews":{"ann":{"at":"2026-01-01T00:00:00Z","models":{"x":{"bonus":[2]}}}}}"#,
        r#"{"id": "broken""#,
    ]
    .join("\n");
    let p = write(d.path(), "bad.jsonl", content);
    let f = p.display().to_string();
    let o = verdict(&["check", &f]);
    assert_eq!(o.status.code(), Some(1));
    let expected = [
        format!(
            "{f}:1: a: chart.manipulation: warning: a manipulated chart without its planted manipulation: justifications cannot be graded against it"
        ),
        format!("{f}:1: a: fact.key: error: 3 is not in 1..2 (the item has 2 options)"),
        format!("{f}:1: a: responses[0].mind: error: 1.5 is not in [0, 1]"),
        format!("{f}:2: a: id: error: duplicate id `a` (also on line 1)"),
        format!("{f}:2: a: original.answer: error: `Yes` is not `yes` or `no`"),
        format!(
            "{f}:2: a: reviews.ann.at: error: `2026-13-01T00:00:00Z` is not an RFC 3339 time: month was not in range"
        ),
        format!("{f}:2: a: reviews.ann.reason: error: a rejection needs a reason"),
        format!(
            "{f}:3: #3: id: notice: no id; verdict calls this item #3 and does not write that name back"
        ),
        format!(
            "{f}:3: #3: benchmark: notice: unknown benchmark `mmlu`: shown with the generic view"
        ),
        format!(
            "{f}:3: #3: image: warning: image file not found: `{}`",
            d.path().join("missing.png").display()
        ),
        format!(
            "{f}:4: q: responses[0].judge.bonus: warning: the judge's bonus is \"Null\" (unparsable): the benchmark's script counts it as 3 hits, verdict counts it as unparsable"
        ),
        format!(
            "{f}:4: q: reviews.ann.models.x: error: grades for model `x`, which has no response on this item (models: `m`)"
        ),
        format!(
            "{f}:4: q: reviews.ann.models.x.bonus[0]: error: bonus point 2 is not in 1..1 (the item has 1 bonus point)"
        ),
        format!(
            "{f}:5: #5: error: malformed JSON: EOF while parsing an object at line 1 column 15"
        ),
        format!("{f}: 5 items, 9 errors, 3 warnings, 2 notices"),
    ];
    assert_eq!(stdout(&o), expected.join("\n") + "\n");

    // --json: the same problems
    let o = verdict(&["check", "--json", &f]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["file"], f);
    assert_eq!(
        (
            v["items"].as_u64(),
            v["errors"].as_u64(),
            v["warnings"].as_u64()
        ),
        (Some(5), Some(9), Some(3))
    );
    let probs = v["problems"].as_array().unwrap();
    assert_eq!(probs.len(), 14);
    assert_eq!(
        probs[1],
        serde_json::json!({"line": 1, "id": "a", "field": "fact.key", "severity": "error", "message": "3 is not in 1..2 (the item has 2 options)"})
    );
    assert_eq!(probs[13]["field"], Value::Null);
    assert_eq!(probs[13]["id"], "#5");
}

#[test]
fn unreadable_files_exit_2() {
    let d = tempfile::tempdir().unwrap();
    let missing = d.path().join("nope.jsonl");
    let o = verdict(&["check", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "verdict: {}: No such file or directory (os error 2)\n",
            missing.display()
        )
    );
    let o = verdict(&["check", "--json", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["errors"], 1);
    assert_eq!(v["problems"][0]["line"], Value::Null);

    // a JSON document without items
    let p = write(
        d.path(),
        "doc.json",
        r#"{"verdict": 1, "title": "no items here"}"#,
    );
    let o = verdict(&["check", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "verdict: {}: not a result set: the document has no `items` array\n",
            p.display()
        )
    );
    // a folder
    let o = verdict(&["check", d.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    no_panic(&o);
}

#[test]
fn hostile_inputs_never_panic() {
    let d = tempfile::tempdir().unwrap();

    // an empty file: no items, a warning, exit 0
    let p = write(d.path(), "empty.jsonl", "");
    let o = verdict(&["check", p.to_str().unwrap()]);
    assert_eq!(
        stdout(&o),
        format!(
            "{0}: warning: the file has no items\n{0}: 0 items, 0 errors, 1 warning, 0 notices\n",
            p.display()
        )
    );
    assert_eq!(o.status.code(), Some(0));

    // a 5 MB line (valid) and a 5 MB malformed line
    let big = "x".repeat(5 << 20);
    let content = format!(
        "{{\"id\":\"big\",\"benchmark\":\"other\",\"note\":\"{big}\"}}\n{{\"id\":\"bad\",\"note\":\"{big}\n"
    );
    let p = write(d.path(), "big.jsonl", content);
    let o = verdict(&["check", p.to_str().unwrap()]);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains(":2: #2: error: malformed JSON: EOF while parsing a string"),
        "{}",
        &out[..out.len().min(2000)]
    );
    assert!(out.len() < 10_000, "the message does not echo the line");

    // invalid UTF-8, deep nesting, escape sequences in ids and values
    let mut content = b"{\"id\":\"\xff\xfe\"}\n".to_vec();
    content.extend_from_slice(
        format!(
            "{{\"id\":\"deep\",\"x\":{}{}}}\n",
            "[".repeat(100_000),
            "]".repeat(100_000)
        )
        .as_bytes(),
    );
    content.extend_from_slice(format!("{}\n", "[".repeat(100_000)).as_bytes());
    content.extend_from_slice(
        br#"{"id":"\u001b[2J\u001b]0;pwned\u0007","benchmark":"cvqa","split":"\u001b[31m","group":"direct","original":{"question":"q","answer":"1"},"counterfactual":{"question":"q","answer":"1"}}"#,
    );
    content.push(b'\n');
    let p = write(d.path(), "hostile.jsonl", &content);
    let o = verdict(&["check", p.to_str().unwrap()]);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        !out.contains('\u{1b}') && !out.contains('\u{7}'),
        "raw control characters in {out:?}"
    );
    let f = p.display().to_string();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        format!("{f}:1: #1: error: invalid UTF-8 at byte 7 of the item")
    );
    assert!(
        lines[1].starts_with(&format!(
            "{f}:2: deep: error: nested too deeply (recursion limit exceeded"
        )),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with(&format!(
            "{f}:3: #3: error: malformed JSON: recursion limit exceeded"
        )),
        "{}",
        lines[2]
    );
    assert_eq!(
        lines[3],
        format!("{f}:4: ␛[2J␛]0;pwned^G: split: error: `␛[31m` is not one of real, synthetic")
    );
    let o = verdict(&["check", "--json", p.to_str().unwrap()]);
    let text = stdout(&o);
    assert!(!text.chars().any(|c| c.is_control() && c != '\n'));
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["problems"][3]["id"], "\u{1b}[2J\u{1b}]0;pwned\u{7}");

    // binary garbage, as JSONL and with no telling extension
    let mut seed: u64 = 0x9e3779b97f4a7c15;
    let garbage: Vec<u8> = (0..200_000)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 24) as u8
        })
        .collect();
    let p = write(d.path(), "garbage.jsonl", &garbage);
    let o = verdict(&["check", p.to_str().unwrap()]);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1));
    assert!(!stdout(&o).contains('\u{1b}'));
    let p = write(d.path(), "garbage.bin", &garbage);
    let o = verdict(&["check", p.to_str().unwrap()]);
    no_panic(&o);
    assert_ne!(o.status.code(), Some(0));
}

#[test]
fn a_pending_journal_is_a_notice() {
    let d = tempfile::tempdir().unwrap();
    let p = write(d.path(), "r.jsonl", "{\"id\":\"a\",\"benchmark\":\"x\"}\n");
    let j = write(
        d.path(),
        ".r.jsonl.ann.verdict-journal",
        "{\"item\":0,\"id\":\"a\",\"reviewer\":\"ann\",\"review\":{\"verdict\":\"ok\"}}\n",
    );
    let o = verdict(&["check", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let f = p.display();
    assert_eq!(
        stdout(&o),
        format!(
            "{f}: notice: a verdict journal is pending ({}): 1 verdict not yet saved into the file; open the file in verdict to save them\n\
             {f}:1: a: benchmark: notice: unknown benchmark `x`: shown with the generic view\n\
             {f}: 1 item, 0 errors, 0 warnings, 2 notices\n",
            j.display()
        )
    );
}

/// A key twice in one object makes the file mean different things to different tools
/// (verdict, Python and jq read the last, others the first): a reviewer's two verdicts
/// under one name, two responses' texts, two keys. `check` says where, at any depth.
#[test]
fn a_key_twice_in_one_object_is_an_error_where_it_is() {
    let d = tempfile::tempdir().unwrap();
    let content = [
        r#"{"id":"a","benchmark":"cvqa","split":"real","group":"boolean","original":{"question":"Is it?","answer":"yes"},"counterfactual":{"question":"Would it?","answer":"no"},"reviews":{"ann":{"at":"2026-01-01T00:00:00Z","status":"accept"},"ann":{"at":"2026-01-01T00:00:00Z","status":"reject","reason":"ambiguous"}}}"#,
        r#"{"id":"b","benchmark":"other","responses":[{"model":"m","text":"x"},{"model":"n","text":"y","text":"z"}],"meta":{"k":1,"k":2}}"#,
        r#"{"id":"c","benchmark":"other","responses":[{"model":"m","text":"fine"}]}"#,
    ]
    .join("\n");
    let p = write(d.path(), "dup.jsonl", content);
    let f = p.display().to_string();
    let o = verdict(&["check", &f]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    for want in [
        format!("{f}:1: a: reviews.ann: error: "),
        format!("{f}:2: b: responses[1].text: error: "),
        format!("{f}:2: b: meta.k: error: "),
    ] {
        assert!(out.contains(&want), "{want:?} not in:\n{out}");
    }
    assert!(!out.contains(&format!("{f}:3: c: responses")), "{out}");
    assert_eq!(out.matches("twice").count(), 3, "{out}");
}

/// An lm-eval samples file's lines never have an id (the harness names a line by its
/// doc_id and filter): `check` says nothing of it, where it gave a notice per line (about
/// 1,000 on a real run's file). A result set's item without an id still gets one.
#[test]
fn lm_eval_lines_get_no_notice_for_having_no_id() {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "tests/fixtures/samples/lm-eval/example__tiny-llama-1b/samples_arc_easy_2026-11-20T10-15-42.518246.jsonl",
    );
    let out = verdict(&["check", f.to_str().unwrap()]);
    no_panic(&out);
    assert!(!stdout(&out).contains("no id"), "{}", stdout(&out));
    let d = tempfile::tempdir().unwrap();
    let p = write(
        d.path(),
        "set.jsonl",
        r#"{"benchmark":"cvqa","split":"real","group":"direct","original":{"question":"How many?","answer":"2"},"counterfactual":{"question":"And if one left?","answer":"1"}}"#.to_string() + "\n",
    );
    let out = verdict(&["check", p.to_str().unwrap()]);
    assert!(stdout(&out).contains("no id"), "{}", stdout(&out));
}
