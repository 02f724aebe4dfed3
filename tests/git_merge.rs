//! A team across machines: `verdict merge --git` as git's merge driver, with real git.
//! Two clones of a bare repository record verdicts (with the verdict library, as the
//! reviewer saves them), commit and pull: the file gets both reviewers' verdicts and no
//! conflict markers; a true conflict exits non-zero naming the item and both values
//! (docs/teams.md, "A team across machines (git)"). Skipped when git is not installed.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};
use verdict::store::Store;

fn have_git() -> bool {
    let ok = Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("SKIPPED: git is not installed; the git merge driver tests need it");
    }
    ok
}

fn git(dir: &Path, args: &[&str]) -> Output {
    Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .env("GIT_AUTHOR_DATE", "2026-11-26T10:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-11-26T10:00:00Z")
        .output()
        .expect("run git")
}

fn git_ok(dir: &Path, args: &[&str]) -> String {
    let o = git(dir, args);
    assert!(
        o.status.success(),
        "git {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const SET: &str = r#"{"id": "q1", "benchmark": "cvqa", "original": {"question": "How many?", "answer": "5"}, "counterfactual": {"question": "And if 2 left?", "answer": "3"}}
{"id": "q2", "benchmark": "cvqa", "original": {"question": "Is it on?", "answer": "yes"}, "counterfactual": {"question": "And if off?", "answer": "no"}}
{"id": "q3", "benchmark": "cvqa", "original": {"question": "What colour?", "answer": "red"}, "counterfactual": {"question": "And if painted?", "answer": "blue"}, "reviews": {"cy": {"at": "2026-11-01T09:00:00Z", "status": "accept", "image_related": true, "answer_ok": true}}}
{"id": "q4", "benchmark": "cvqa", "original": {"question": "How tall?", "answer": "2 m"}, "counterfactual": {"question": "And if cut?", "answer": "1 m"}}
"#;

/// A bare repository and two clones (alice's and bob's), each with the driver set up as
/// docs/teams.md says, the set committed with its `.gitattributes`.
struct Team {
    _dir: tempfile::TempDir,
    alice: PathBuf,
    bob: PathBuf,
}

fn setup(dir: &Path, name: &str) {
    git_ok(dir, &["config", "user.name", name]);
    git_ok(
        dir,
        &["config", "user.email", &format!("{name}@example.org")],
    );
    git_ok(dir, &["config", "pull.rebase", "false"]);
    let driver = format!(
        "'{}' merge --git %O %A %B %P",
        env!("CARGO_BIN_EXE_verdict")
    );
    git_ok(dir, &["config", "merge.verdict.driver", &driver]);
    git_ok(
        dir,
        &["config", "merge.verdict.name", "verdict results files"],
    );
}

fn team() -> Team {
    let d = tempfile::tempdir().unwrap();
    let bare = d.path().join("set.git");
    git_ok(d.path(), &["init", "-q", "--bare", "-b", "main", "set.git"]);
    let alice = d.path().join("alice");
    let bob = d.path().join("bob");
    git_ok(d.path(), &["clone", "-q", bare.to_str().unwrap(), "alice"]);
    setup(&alice, "alice");
    git_ok(&alice, &["checkout", "-q", "-b", "main"]);
    fs::write(alice.join("set.jsonl"), SET).unwrap();
    fs::write(alice.join(".gitattributes"), "*.jsonl merge=verdict\n").unwrap();
    git_ok(&alice, &["add", "."]);
    git_ok(&alice, &["commit", "-q", "-m", "the set"]);
    git_ok(&alice, &["push", "-q", "origin", "main"]);
    git_ok(d.path(), &["clone", "-q", bare.to_str().unwrap(), "bob"]);
    setup(&bob, "bob");
    Team {
        _dir: d,
        alice,
        bob,
    }
}

/// Record (or with `None`, remove) `reviewer`'s verdict on item `id`, as the reviewer
/// saves it.
fn grade(clone: &Path, id: &str, reviewer: &str, review: Option<Value>) {
    let mut s = Store::open(clone.join("set.jsonl")).unwrap();
    let i = (0..s.len())
        .find(|&i| s.value(i).unwrap()["id"] == id)
        .unwrap();
    s.set_review(i, reviewer, review).unwrap();
    s.save().unwrap();
}

fn accept(at: &str) -> Value {
    json!({"at": at, "status": "accept", "image_related": true, "answer_ok": true})
}

fn reject(at: &str) -> Value {
    json!({"at": at, "status": "reject", "reason": "wrong-answer", "image_related": true, "answer_ok": false})
}

fn commit(clone: &Path, msg: &str) {
    git_ok(clone, &["commit", "-q", "-am", msg]);
}

fn items(clone: &Path) -> Vec<Value> {
    let text = fs::read_to_string(clone.join("set.jsonl")).unwrap();
    assert!(
        !text.contains("<<<<<<<") && !text.contains(">>>>>>>"),
        "conflict markers:\n{text}"
    );
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn review(items: &[Value], id: &str, reviewer: &str) -> Option<Value> {
    items
        .iter()
        .find(|v| v["id"] == id)
        .and_then(|v| v.get("reviews"))
        .and_then(|r| r.get(reviewer))
        .cloned()
}

#[test]
fn two_clones_grade_commit_and_pull_with_no_conflict() {
    if !have_git() {
        return;
    }
    let t = team();
    // alice grades q1 and q2; bob grades q2 and q4 and takes back (undoes) nothing.
    grade(
        &t.alice,
        "q1",
        "alice",
        Some(accept("2026-11-26T10:01:00Z")),
    );
    grade(
        &t.alice,
        "q2",
        "alice",
        Some(reject("2026-11-26T10:02:00Z")),
    );
    commit(&t.alice, "alice's verdicts");
    git_ok(&t.alice, &["push", "-q"]);
    grade(&t.bob, "q2", "bob", Some(accept("2026-11-26T10:03:00Z")));
    grade(&t.bob, "q4", "bob", Some(accept("2026-11-26T10:04:00Z")));
    // bob also removes cy's stale verdict on q3 (an undo): it must not come back.
    grade(&t.bob, "q3", "cy", None);
    commit(&t.bob, "bob's verdicts");
    let untouched = fs::read_to_string(t.bob.join("set.jsonl")).unwrap();
    git_ok(&t.bob, &["pull", "-q", "--no-edit"]);
    let got = items(&t.bob);
    assert_eq!(got.len(), 4);
    assert_eq!(
        review(&got, "q1", "alice"),
        Some(accept("2026-11-26T10:01:00Z"))
    );
    assert_eq!(
        review(&got, "q2", "alice"),
        Some(reject("2026-11-26T10:02:00Z"))
    );
    assert_eq!(
        review(&got, "q2", "bob"),
        Some(accept("2026-11-26T10:03:00Z"))
    );
    assert_eq!(
        review(&got, "q4", "bob"),
        Some(accept("2026-11-26T10:04:00Z"))
    );
    assert_eq!(
        review(&got, "q3", "cy"),
        None,
        "an undone verdict came back"
    );
    // Items only bob changed keep bob's bytes.
    let merged = fs::read_to_string(t.bob.join("set.jsonl")).unwrap();
    for id in ["q3", "q4"] {
        let line = |text: &str| {
            text.lines()
                .find(|l| l.contains(&format!("\"id\": \"{id}\"")))
                .unwrap()
                .to_string()
        };
        assert_eq!(line(&merged), line(&untouched), "{id}");
    }
    // git recorded a merge commit, clean; bob pushes, alice pulls: the same file.
    git_ok(&t.bob, &["push", "-q"]);
    git_ok(&t.alice, &["pull", "-q", "--no-edit"]);
    assert_eq!(
        fs::read(t.alice.join("set.jsonl")).unwrap(),
        fs::read(t.bob.join("set.jsonl")).unwrap()
    );
    assert!(git_ok(&t.alice, &["status", "--porcelain"]).is_empty());
}

#[test]
fn a_true_conflict_exits_non_zero_naming_item_and_both_values() {
    if !have_git() {
        return;
    }
    let t = team();
    // The same reviewer name on both machines, two different verdicts on q1.
    grade(&t.alice, "q1", "ann", Some(accept("2026-11-26T10:01:00Z")));
    grade(
        &t.alice,
        "q2",
        "alice",
        Some(accept("2026-11-26T10:01:30Z")),
    );
    commit(&t.alice, "ann accepts");
    git_ok(&t.alice, &["push", "-q"]);
    grade(&t.bob, "q1", "ann", Some(reject("2026-11-26T10:02:00Z")));
    grade(&t.bob, "q4", "bob", Some(accept("2026-11-26T10:03:00Z")));
    commit(&t.bob, "ann rejects");
    let out = git(&t.bob, &["pull", "--no-edit"]);
    assert!(
        !out.status.success(),
        "the pull should stop on the conflict"
    );
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        all.contains("item q1") && all.contains("reviewer ann"),
        "{all}"
    );
    assert!(
        all.contains("\"status\":\"reject\"") && all.contains("\"status\":\"accept\""),
        "both values named:\n{all}"
    );
    // git marks the file conflicted; the file is valid JSONL: ours kept for the
    // conflict, everything else merged.
    assert!(git_ok(&t.bob, &["status", "--porcelain"]).contains("UU set.jsonl"));
    let got = items(&t.bob);
    assert_eq!(
        review(&got, "q1", "ann"),
        Some(reject("2026-11-26T10:02:00Z"))
    );
    assert_eq!(
        review(&got, "q2", "alice"),
        Some(accept("2026-11-26T10:01:30Z"))
    );
    assert_eq!(
        review(&got, "q4", "bob"),
        Some(accept("2026-11-26T10:03:00Z"))
    );
}

/// Commit `name` with `text` in alice's clone, push, and pull it into bob's.
fn share(t: &Team, name: &str, text: &str) {
    fs::create_dir_all(t.alice.join(name).parent().unwrap()).unwrap();
    fs::write(t.alice.join(name), text).unwrap();
    git_ok(&t.alice, &["add", "."]);
    git_ok(&t.alice, &["commit", "-q", "-m", name]);
    git_ok(&t.alice, &["push", "-q"]);
    git_ok(&t.bob, &["pull", "-q", "--no-edit"]);
}

/// Apply `f` to line `n` (0-based) of `file` in `clone` (a reviewer's verdict written by
/// hand, the rest of the file untouched).
fn edit_line(clone: &Path, file: &str, n: usize, f: impl Fn(&str) -> String) {
    let p = clone.join(file);
    let text = fs::read_to_string(&p).unwrap();
    let out: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| if i == n { f(l) } else { l.to_string() })
        .collect();
    fs::write(&p, out.join("\n") + "\n").unwrap();
}

fn with_review(line: &str, reviewer: &str, verdict: &str) -> String {
    format!(
        "{},\"reviews\":{{\"{reviewer}\":{{\"at\":\"2026-11-26T10:00:00Z\",\"verdict\":\"{verdict}\"}}}}}}",
        &line[..line.len() - 1]
    )
}

/// lm-eval sample logs have no id: lines are matched by doc_id and filter, and two
/// reviewers' verdicts on different lines merge cleanly.
#[test]
fn lm_eval_logs_merge_across_clones() {
    if !have_git() {
        return;
    }
    let t = team();
    let log = "lm-eval/example__tiny-llama-1b/samples_gsm8k_2026-11-20T10-15-42.518246.jsonl";
    let text = fs::read_to_string(Path::new("tests/fixtures/samples").join(log)).unwrap();
    share(&t, log, &text);
    edit_line(&t.alice, log, 2, |l| with_review(l, "alice", "correct"));
    commit(&t.alice, "alice");
    git_ok(&t.alice, &["push", "-q"]);
    edit_line(&t.bob, log, 5, |l| with_review(l, "bob", "incorrect"));
    commit(&t.bob, "bob");
    git_ok(&t.bob, &["pull", "-q", "--no-edit"]);
    let merged = fs::read_to_string(t.bob.join(log)).unwrap();
    assert!(!merged.contains("<<<<<<<"));
    let lines: Vec<&str> = merged.lines().collect();
    assert_eq!(lines.len(), text.lines().count());
    assert!(lines[2].contains("\"alice\"") && lines[5].contains("\"bob\""));
    for (i, (a, b)) in lines.iter().zip(text.lines()).enumerate() {
        if i != 2 && i != 5 {
            assert_eq!(a, &b, "line {i} kept its bytes");
        }
    }
}

/// A JSON document cannot be merged item by item: the driver says so, leaves git's
/// line-by-line merge, and the path is conflicted (exit 2).
#[test]
fn a_json_document_is_refused_clearly() {
    if !have_git() {
        return;
    }
    let t = team();
    fs::write(
        t.alice.join(".gitattributes"),
        "*.jsonl merge=verdict\n*.json merge=verdict\n",
    )
    .unwrap();
    share(
        &t,
        "doc.json",
        "{\"items\": [\n  {\"id\": \"a\", \"q\": 1},\n  {\"id\": \"b\", \"q\": 2}\n]}\n",
    );
    edit_line(&t.alice, "doc.json", 1, |l| {
        l.replace("1}", "1, \"reviews\": {\"alice\": {}}}")
    });
    commit(&t.alice, "alice");
    git_ok(&t.alice, &["push", "-q"]);
    edit_line(&t.bob, "doc.json", 1, |l| {
        l.replace("1}", "1, \"reviews\": {\"bob\": {}}}")
    });
    commit(&t.bob, "bob");
    let out = git(&t.bob, &["pull", "--no-edit"]);
    assert!(!out.status.success());
    let all =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(
        all.contains("doc.json: cannot merge it item by item: it is a JSON document"),
        "{all}"
    );
    assert!(git_ok(&t.bob, &["status", "--porcelain"]).contains("UU doc.json"));
    assert!(
        fs::read_to_string(t.bob.join("doc.json"))
            .unwrap()
            .contains("<<<<<<< ours")
    );
}

/// Verdicts still in a reviewer's journal are not in git: the driver warns.
#[test]
fn a_pending_journal_beside_the_file_is_warned_about() {
    if !have_git() {
        return;
    }
    let t = team();
    grade(
        &t.alice,
        "q1",
        "alice",
        Some(accept("2026-11-26T10:01:00Z")),
    );
    commit(&t.alice, "alice");
    git_ok(&t.alice, &["push", "-q"]);
    grade(&t.bob, "q2", "bob", Some(accept("2026-11-26T10:02:00Z")));
    commit(&t.bob, "bob");
    // bob is still reviewing: a verdict in his journal, not yet folded into the file.
    fs::write(
        t.bob.join(".set.jsonl.bob.verdict-journal"),
        "{\"item\":3,\"id\":\"q4\",\"reviewer\":\"bob\",\"review\":{\"at\":\"2026-11-26T10:05:00Z\",\"status\":\"accept\"}}\n",
    )
    .unwrap();
    let out = git(&t.bob, &["pull", "--no-edit"]);
    assert!(out.status.success());
    let all =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(
        all.contains(".set.jsonl.bob.verdict-journal holds verdicts not yet in set.jsonl"),
        "{all}"
    );
}

/// `git pull --rebase` replays the local commit onto theirs through the same driver
/// (with ours and theirs swapped): both reviewers' verdicts, no markers.
#[test]
fn pull_with_rebase_merges_too() {
    if !have_git() {
        return;
    }
    let t = team();
    grade(
        &t.alice,
        "q1",
        "alice",
        Some(accept("2026-11-26T10:01:00Z")),
    );
    commit(&t.alice, "alice");
    git_ok(&t.alice, &["push", "-q"]);
    grade(&t.bob, "q1", "bob", Some(reject("2026-11-26T10:02:00Z")));
    commit(&t.bob, "bob");
    git_ok(&t.bob, &["pull", "-q", "--rebase"]);
    let got = items(&t.bob);
    assert_eq!(
        review(&got, "q1", "alice"),
        Some(accept("2026-11-26T10:01:00Z"))
    );
    assert_eq!(
        review(&got, "q1", "bob"),
        Some(reject("2026-11-26T10:02:00Z"))
    );
    // A linear history: bob's commit on top of alice's.
    assert_eq!(git_ok(&t.bob, &["rev-list", "--count", "HEAD"]).trim(), "3");
}
