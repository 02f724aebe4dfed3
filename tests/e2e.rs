//! End-to-end: the real binary in a pseudo-terminal. Open, grade, quit, check the file,
//! reopen; and the failure paths: kill -9, SIGHUP, a full disk, a read-only file, a file
//! changed by another program.

mod common;

use common::{Pty, Sandbox};
use serde_json::json;
use verdict::bench::Items;

fn journal(sb: &Sandbox, file: &str) -> std::path::PathBuf {
    verdict::journal::journal_path(&sb.path(file), "erin")
}

#[test]
fn grade_every_benchmark_quit_reopen() {
    let sb = Sandbox::new();
    // C-VQA: accept, reject with a reason, fix an answer.
    let mut p = sb.open("cvqa.jsonl", &[], 60_000);
    p.wait_for("real-00001");
    p.send("a");
    // accept moves on to the next item (auto-advance, on by default)
    p.wait_for("real-00002");
    p.wait_for("✔ journaled");
    p.send("r");
    p.wait_for("Reject: why?");
    p.send("2");
    p.wait_for("syn-00001");
    p.send("f");
    p.wait_for("Fix the counterfactual");
    // ↓ to the answer; Tab for another reason than the one shown
    p.send("\x1b[B\x7fD\t");
    p.wait_for("Fix: why?");
    p.send("\r");
    p.wait_for("Fixed answer: D");
    p.send("q");
    assert!(p.wait_exit().success());
    assert_eq!(
        sb.review("cvqa.jsonl", "real-00001", "erin").map(|mut r| {
            r.as_object_mut()
                .unwrap()
                .retain(|k, _| k != "at" && k != "seconds");
            r
        }),
        Some(json!({"status": "accept", "image_related": true, "answer_ok": true}))
    );
    let r2 = sb.review("cvqa.jsonl", "real-00002", "erin").unwrap();
    assert_eq!(r2["status"], "reject");
    assert_eq!(r2["reason"], "not-image-related");
    assert!(r2["at"].as_str().unwrap().ends_with('Z'));
    let r3 = sb.review("cvqa.jsonl", "syn-00001", "erin").unwrap();
    assert_eq!(r3["fixed_answer"], "D");
    // others' reviews are untouched
    assert_eq!(
        sb.review("cvqa.jsonl", "real-00002", "alice").unwrap()["status"],
        "accept"
    );
    assert!(
        !journal(&sb, "cvqa.jsonl").exists(),
        "the journal is folded and removed on quit"
    );

    // Reopen: resumes at the last item, shows my verdict.
    let mut p = sb.open("cvqa.jsonl", &[], 60_000);
    let screen = p.wait_for("syn-00001");
    assert!(screen.contains("3/3"), "{screen}");
    p.wait_for("erin (me)");
    p.send("q");
    assert!(p.wait_exit().success());

    // CHARTOM: identifies on the first model, misses on the second (a grade moves on
    // to the next model that needs one, and after the last to the next item).
    let mut p = sb.open("chartom.jsonl", &[], 60_000);
    p.wait_for("G7_Q1_1");
    p.send("1");
    p.wait_for("now llava");
    p.send("3");
    p.wait_for("graded on G7_Q1_1");
    p.send("q");
    assert!(p.wait_exit().success());
    let r = sb.review("chartom.jsonl", "G7_Q1_1", "erin").unwrap();
    assert_eq!(r["models"]["gpt-4o"]["justification"], "identifies");
    assert_eq!(r["models"]["llava"]["justification"], "misses");

    // CharToM-QA: a penalty, then the judge's ticks (points 1 and 3) accepted.
    let mut p = sb.open("chartom-qa.jsonl", &[], 60_000);
    p.wait_for("emma-1");
    p.send("e");
    p.wait_for("Penalty");
    p.send("misses the irony\r");
    p.send("a");
    p.wait_for("now llama");
    p.send("q");
    assert!(p.wait_exit().success());
    let r = sb.review("chartom-qa.jsonl", "emma-1", "erin").unwrap();
    assert_eq!(r["models"]["gpt-4o"]["bonus"], json!([1, 3]));
    assert_eq!(r["models"]["gpt-4o"]["penalty"], "misses the irony");
}

#[test]
fn kill_9_right_after_a_key_loses_nothing() {
    let sb = Sandbox::new();
    let before = std::fs::read(sb.path("cvqa.jsonl")).unwrap();
    let mut p = sb.open("cvqa.jsonl", &[], 60_000);
    p.wait_for("real-00001");
    p.send("a");
    p.wait_for("✔ journaled");
    p.signal(libc::SIGKILL);
    p.wait_exit();
    // The file was not touched; the verdict is in the journal.
    assert_eq!(std::fs::read(sb.path("cvqa.jsonl")).unwrap(), before);
    assert!(journal(&sb, "cvqa.jsonl").exists());
    // Reopening recovers it and folds it into the file.
    let mut p = sb.open("cvqa.jsonl", &[], 60_000);
    p.wait_for("recovered 1 verdict from the journal (not yet saved into the file)");
    p.send("q");
    assert!(p.wait_exit().success());
    assert_eq!(
        sb.review("cvqa.jsonl", "real-00001", "erin").unwrap()["status"],
        "accept"
    );
    assert!(!journal(&sb, "cvqa.jsonl").exists());
}

#[test]
fn sighup_loses_nothing_and_folds_when_idle() {
    let sb = Sandbox::new();
    let mut p = sb.open("cvqa.jsonl", &[], 200);
    p.wait_for("real-00001");
    p.send("a");
    p.wait_for("✔ saved");
    // folded into the file after the pause, before any quit
    assert_eq!(
        sb.review("cvqa.jsonl", "real-00001", "erin").unwrap()["status"],
        "accept"
    );
    p.send("a");
    p.wait_for("✔ journaled");
    p.signal(libc::SIGHUP);
    p.wait_exit();
    let (store, _, _) = verdict::session::open_with_journal(&sb.path("cvqa.jsonl")).unwrap();
    assert_eq!(
        store.item(1).unwrap().reviews["erin"].cvqa.status,
        Some(verdict::bench::cvqa::fields::CvqaStatus::Accept)
    );
}

#[test]
fn a_file_changed_by_another_program_is_not_clobbered() {
    let sb = Sandbox::new();
    let mut p = sb.open("cvqa.jsonl", &[], 60_000);
    p.wait_for("real-00001");
    p.send("a");
    p.wait_for("✔ journaled");
    // Another program rewrites the file while the reviewer works: a new item first, so
    // every index shifts, and a change to an existing item.
    let orig = std::fs::read_to_string(sb.path("cvqa.jsonl")).unwrap();
    let changed = format!(
        "{{\"id\":\"added-elsewhere\",\"benchmark\":\"cvqa\"}}\n{}",
        orig.replace(
            "How many plates are there?",
            "How many plates are on the table?"
        )
    );
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(sb.path("cvqa.jsonl"), &changed).unwrap();
    // A verdict given after the change lands on the right item too.
    p.send("a");
    p.wait_for("syn-00001");
    p.wait_for("✔ journaled");
    p.send("q");
    assert!(p.wait_exit().success());
    // Their change is kept, and so are both verdicts, on the right items.
    let after = std::fs::read_to_string(sb.path("cvqa.jsonl")).unwrap();
    assert!(after.starts_with("{\"id\":\"added-elsewhere\",\"benchmark\":\"cvqa\"}\n"));
    assert!(after.contains("on the table"));
    assert_eq!(
        sb.review("cvqa.jsonl", "real-00001", "erin").unwrap()["status"],
        "accept"
    );
    assert_eq!(
        sb.review("cvqa.jsonl", "real-00002", "erin").unwrap()["status"],
        "accept"
    );
    assert!(sb.review("cvqa.jsonl", "added-elsewhere", "erin").is_none());
    assert!(!journal(&sb, "cvqa.jsonl").exists());
}

#[test]
fn two_reviewers_at_once_on_one_file() {
    let sb = Sandbox::new();
    let data = sb.path("data").display().to_string();
    let config = sb.path("config").display().to_string();
    let file = sb.path("cvqa.jsonl").display().to_string();
    let env = |_: ()| {
        vec![
            ("VERDICT_DATA_DIR", data.clone()),
            ("VERDICT_CONFIG_DIR", config.clone()),
            ("VERDICT_FOLD_AFTER_MS", "150".to_string()),
        ]
    };
    let mut a = Pty::spawn([file.as_str(), "-r", "ann"], &env(()), 100, 30);
    let mut b = Pty::spawn([file.as_str(), "-r", "bob"], &env(()), 100, 30);
    a.wait_for("real-00001");
    b.wait_for("real-00001");
    a.send("a");
    b.send("r");
    b.send("1");
    a.wait_for("✔ saved");
    b.wait_for("✔ saved");
    a.send("a");
    b.send("a");
    // The same reviewer cannot open the file twice.
    let mut a2 = Pty::spawn([file.as_str(), "-r", "ann"], &env(()), 100, 30);
    assert!(!a2.wait_exit().success());
    a.send("q");
    b.send("q");
    assert!(a.wait_exit().success());
    assert!(b.wait_exit().success());
    assert_eq!(
        sb.review("cvqa.jsonl", "real-00001", "ann").unwrap()["status"],
        "accept"
    );
    assert_eq!(
        sb.review("cvqa.jsonl", "real-00001", "bob").unwrap()["status"],
        "reject"
    );
    assert_eq!(
        sb.review("cvqa.jsonl", "real-00002", "ann").unwrap()["status"],
        "accept"
    );
    // bob's reject moved on past real-00002, which he had already reviewed in the file
    // (auto-advance stops only at items that still need him)
    assert_eq!(
        sb.review("cvqa.jsonl", "real-00002", "bob").unwrap()["status"],
        "reject"
    );
    assert_eq!(
        sb.review("cvqa.jsonl", "syn-00001", "bob").unwrap()["status"],
        "accept"
    );
    assert!(verdict::journal::journal_paths(&sb.path("cvqa.jsonl")).is_empty());
}

#[test]
fn a_read_only_file_keeps_verdicts_in_the_journal() {
    use std::os::unix::fs::PermissionsExt;
    let sb = Sandbox::new();
    let path = sb.path("cvqa.jsonl");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = std::fs::read(&path).unwrap();
    let mut p = sb.open("cvqa.jsonl", &[], 100);
    p.wait_for("real-00001");
    p.send("a");
    p.wait_for("read-only");
    p.send("q");
    p.wait_exit();
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert!(journal(&sb, "cvqa.jsonl").exists());
}

#[test]
fn a_read_only_folder_refuses_verdicts_visibly() {
    use std::os::unix::fs::PermissionsExt;
    if unsafe { libc::geteuid() } == 0 {
        // root writes into read-only folders anyway; the check below would be vacuous.
        eprintln!("skipped: running as root");
        return;
    }
    let sb = Sandbox::new();
    std::fs::set_permissions(sb.dir.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
    let mut p = sb.open("cvqa.jsonl", &[], 60_000);
    p.wait_for("real-00001");
    p.send("a");
    p.wait_for("NOT RECORDED");
    p.send("q");
    p.wait_exit();
    std::fs::set_permissions(sb.dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn a_full_disk_is_reported_and_nothing_is_half_written() {
    let sb = Sandbox::new();
    let path = sb.path("cvqa.jsonl");
    let before = std::fs::read(&path).unwrap();
    // A file-size limit below the results file's size: the journal (small) can be written,
    // the folded results file cannot.
    let data = sb.path("data").display().to_string();
    let config = sb.path("config").display().to_string();
    let limit_blocks = 2; // 512-byte blocks in dash, 1024 in bash: 1 or 2 KiB, below the file's size
    let script = format!(
        "ulimit -f {limit_blocks}; exec {} {} -r erin",
        env!("CARGO_BIN_EXE_verdict"),
        path.display()
    );
    let mut p = Pty::spawn_program(
        "/bin/sh",
        ["-c", &script],
        &[
            ("VERDICT_DATA_DIR", data),
            ("VERDICT_CONFIG_DIR", config),
            ("VERDICT_FOLD_AFTER_MS", "100".into()),
        ],
        100,
        30,
    );
    p.wait_for("real-00001");
    p.send("a");
    p.wait_for("File not updated");
    p.send("q");
    p.wait_exit();
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the results file is intact"
    );
    let (store, _, rep) = verdict::session::open_with_journal(&path).unwrap();
    assert_eq!(rep.applied, 1, "the verdict is safe in the journal");
    assert!(store.item(0).unwrap().reviews.contains_key("erin"));
    // no temporary files left behind
    let leftovers: Vec<_> = std::fs::read_dir(sb.dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".verdict-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn the_chartom_qa_evaluation_file_keeps_its_fields() {
    let sb = Sandbox::new();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/samples/chartom-qa-eval.jsonl");
    std::fs::copy(&src, sb.path("eval.jsonl")).unwrap();
    let before: Vec<String> = std::fs::read_to_string(sb.path("eval.jsonl"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let mut p = sb.open("eval.jsonl", &[], 60_000);
    p.wait_for("#1");
    // the judge ticked 1, 2 and 3: 3 unticked
    p.send("3");
    p.wait_for("✔ journaled");
    p.send("q");
    assert!(p.wait_exit().success());
    let after: Vec<String> = std::fs::read_to_string(sb.path("eval.jsonl"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(after.len(), before.len());
    assert_eq!(
        after[1..],
        before[1..],
        "untouched lines are byte-identical"
    );
    let v: serde_json::Value = serde_json::from_str(&after[0]).unwrap();
    let orig: serde_json::Value = serde_json::from_str(&before[0]).unwrap();
    // the benchmark's own fields are all still there, unchanged, in their order
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    let orig_keys: Vec<&String> = orig.as_object().unwrap().keys().collect();
    assert_eq!(keys[..orig_keys.len()], orig_keys[..]);
    for k in orig_keys {
        assert_eq!(v[k], orig[k], "{k}");
    }
    assert_eq!(v["reviews"]["erin"]["bonus"], serde_json::json!([1, 2]));
    assert!(v.get("id").is_none(), "the #1 name is not written back");
}

fn journals_in(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("verdict-journal"))
        .collect();
    v.sort();
    v
}

/// An open that fails (no such file, a folder, not a result set) leaves no journal.
#[test]
fn a_failed_open_leaves_no_journal() {
    let sb = Sandbox::new();
    std::fs::write(sb.path("broken.json"), "{\"items\": [").unwrap();
    std::fs::create_dir(sb.path("folder.jsonl")).unwrap();
    for f in ["missing.jsonl", "broken.json", "folder.jsonl"] {
        let mut p = sb.open(f, &[], 60_000);
        assert!(!p.wait_exit().success(), "{f}");
        assert_eq!(journals_in(sb.dir.path()), Vec::<String>::new(), "{f}");
    }
}

/// Creating a journal makes its name durable: the folder is fsynced after the creation.
#[test]
fn a_new_journal_is_made_durable_with_its_folder() {
    if std::process::Command::new("strace")
        .arg("-V")
        .output()
        .is_err()
    {
        eprintln!("skipped: no strace");
        return;
    }
    let sb = Sandbox::new();
    let log = sb.path("strace.log");
    let data = sb.path("data").display().to_string();
    let config = sb.path("config").display().to_string();
    let file = sb.path("cvqa.jsonl").display().to_string();
    let mut p = common::Pty::spawn_program(
        "strace",
        [
            "-f",
            "-e",
            "trace=openat,open,fsync,fdatasync",
            "-o",
            &log.display().to_string(),
            env!("CARGO_BIN_EXE_verdict"),
            &file,
            "-r",
            "erin",
        ],
        &[
            ("VERDICT_DATA_DIR", data),
            ("VERDICT_CONFIG_DIR", config),
            ("VERDICT_FOLD_AFTER_MS", "60000".into()),
        ],
        100,
        30,
    );
    p.wait_for("real-00001");
    p.send("q");
    p.wait_exit();
    let trace = std::fs::read_to_string(&log).unwrap();
    let jname = journal(&sb, "cvqa.jsonl").display().to_string();
    let dir = sb.dir.path().display().to_string();
    let lines: Vec<&str> = trace.lines().collect();
    let created = lines
        .iter()
        .position(|l| l.contains(&format!("\"{jname}\"")) && l.contains("O_CREAT"))
        .unwrap_or_else(|| panic!("the journal was never created:\n{trace}"));
    // after it: the folder opened, and that descriptor fsynced
    let synced = lines[created..].iter().enumerate().any(|(k, l)| {
        if !l.contains(&format!("\"{dir}\"")) {
            return false;
        }
        let Some(fd) = l
            .rsplit("= ")
            .next()
            .and_then(|s| s.trim().parse::<i32>().ok())
        else {
            return false;
        };
        lines[created + k..]
            .iter()
            .any(|m| m.contains(&format!("fsync({fd})")))
    });
    assert!(
        synced,
        "the folder is not fsynced after the journal's creation:\n{trace}"
    );
}

/// A journal path that is a symbolic link is never followed: its target stays as it was,
/// the reviewer says so, and the verdicts are kept in the data folder (and replayed from
/// there after a crash).
#[test]
fn a_symlinked_journal_is_refused_and_verdicts_kept_in_the_data_folder() {
    let sb = Sandbox::new();
    let victim = sb.path("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let link = journal(&sb, "cvqa.jsonl");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let mut p = sb.open("cvqa.jsonl", &[], 60_000);
    p.wait_for("is a symbolic link, not used");
    p.send("a");
    p.wait_for("✔ journaled");
    p.signal(libc::SIGKILL);
    p.wait_exit();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    let data_journals: Vec<_> = walk(&sb.path("data"))
        .into_iter()
        .filter(|p| {
            p.to_string_lossy()
                .ends_with(".cvqa.jsonl.erin.verdict-journal")
        })
        .collect();
    assert_eq!(data_journals.len(), 1, "{data_journals:?}");
    // the CLI finds the verdict there
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(["export", "--jsonl"])
        .arg(sb.path("cvqa.jsonl"))
        .env("VERDICT_DATA_DIR", sb.path("data"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("recovered 1 verdict from the journal (not yet saved into the file)"),
        "{err}"
    );
    // reopening folds it into the file; the link and its target stay
    let mut p = sb.open("cvqa.jsonl", &[], 60_000);
    p.wait_for("is a symbolic link, not used");
    p.send("q");
    assert!(p.wait_exit().success());
    assert_eq!(
        sb.review("cvqa.jsonl", "real-00001", "erin").unwrap()["status"],
        "accept"
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// Lines of a journal left behind that cannot be read or fail the checks are shown on the
/// status line, kept in a copy, and never written into the file.
#[test]
fn unusable_journal_lines_are_reported_kept_aside_and_not_written() {
    let sb = Sandbox::new();
    let good = json!({"item": 1, "id": "real-00002", "reviewer": "dan",
        "review": {"at": "2026-01-01T00:00:00Z", "status": "accept", "image_related": true, "answer_ok": true}});
    let bad = json!({"item": 0, "id": "real-00001", "reviewer": "dan", "review": {"at": "2026-01-01T00:00:00Z", "status": "bogus"}});
    let five = json!({"item": 0, "id": "real-00001", "reviewer": "dan", "review": 5});
    let stale = verdict::journal::journal_path(&sb.path("cvqa.jsonl"), "dan");
    std::fs::write(&stale, format!("{bad}\n{five}\ngarbage\n{good}\n")).unwrap();
    let mut p = sb.open("cvqa.jsonl", &[], 200);
    p.wait_for("3 journal entries not applied: 1 unreadable, 2 invalid");
    p.wait_for("✔ saved");
    p.send("q");
    assert!(p.wait_exit().success());
    assert_eq!(
        sb.review("cvqa.jsonl", "real-00002", "dan").unwrap()["status"],
        "accept"
    );
    assert_eq!(sb.review("cvqa.jsonl", "real-00001", "dan"), None);
    let check = std::process::Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(["check", "--no-images"])
        .arg(sb.path("cvqa.jsonl"))
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&check.stdout);
    assert!(report.contains(" 0 errors"), "{report}");
    assert!(!stale.exists(), "the stale journal is folded");
    let asides: Vec<_> = journals_in(sb.dir.path())
        .into_iter()
        .filter(|n| n.contains(".unapplied-"))
        .collect();
    assert_eq!(asides.len(), 1, "{asides:?}");
    let kept = std::fs::read_to_string(sb.path(&asides[0])).unwrap();
    assert!(kept.contains("bogus") && kept.contains("garbage"), "{kept}");
}

#[test]
fn the_exit_message_arrives_whole_after_the_terminal_is_restored() {
    let sb = Sandbox::new();
    let mut p = sb.open("cvqa.jsonl", &[], 60_000);
    p.wait_for("real-00001");
    p.send("a");
    p.wait_for("✔ journaled");
    p.send("q");
    assert!(p.wait_exit().success());
    let tail = p.wait_for_raw("verdict: ");
    let tail = String::from_utf8_lossy(&tail).into_owned();
    assert!(
        !tail.contains('\u{1b}'),
        "nothing may be sent after the message: {tail:?}"
    );
    assert_eq!(
        tail.trim_end(),
        format!(
            "verdict: 1 item graded this session; every verdict is in {}",
            sb.path("cvqa.jsonl").display()
        )
    );
}

#[test]
fn the_read_only_message_arrives_whole() {
    use std::os::unix::fs::PermissionsExt;
    let sb = Sandbox::new();
    let path = sb.path("cvqa.jsonl");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let mut p = sb.open("cvqa.jsonl", &[], 100);
    p.wait_for("real-00001");
    p.send("a");
    p.wait_for("read-only");
    p.send("q");
    p.wait_exit();
    let tail = p.wait_for_raw("verdict: your verdicts are safe in the journal");
    let tail = String::from_utf8_lossy(&tail).into_owned();
    assert!(!tail.contains('\u{1b}'), "{tail:?}");
    assert!(
        tail.contains(&format!("{} was not updated", path.display())),
        "{tail:?}"
    );
    assert!(
        tail.trim_end()
            .ends_with("Reopen the file with verdict to fold them in.")
    );
}

#[test]
fn after_kill_9_resume_where_left_and_undo_still_works() {
    let sb = Sandbox::new();
    let mut p = sb.open("cvqa.jsonl", &[], 60_000);
    p.wait_for("real-00001");
    p.send("n");
    p.wait_for("real-00002");
    // accept moves on to the third item (auto-advance is on by default)
    p.send("a");
    p.wait_for("syn-00001");
    p.wait_for("✔ journaled");
    p.signal(libc::SIGKILL);
    p.wait_exit();
    let mut p = sb.open("cvqa.jsonl", &[], 60_000);
    let screen = p.wait_for("syn-00001");
    assert!(
        screen.contains("3/3"),
        "resumes on the item shown: {screen}"
    );
    // undo, after the restart, takes back the accept on real-00002
    p.send("u");
    p.wait_for("undone on real-00002");
    p.send("q");
    assert!(p.wait_exit().success());
    assert!(sb.review("cvqa.jsonl", "real-00002", "erin").is_none());
}

#[test]
fn a_file_changed_on_disk_is_read_again_and_said_so() {
    let sb = Sandbox::new();
    let mut p = sb.open("cvqa.jsonl", &[], 200);
    p.wait_for("How many plates are there?");
    let orig = std::fs::read_to_string(sb.path("cvqa.jsonl")).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(
        sb.path("cvqa.jsonl"),
        format!(
            "{{\"id\":\"added-elsewhere\",\"benchmark\":\"cvqa\"}}\n{}",
            orig.replace(
                "How many plates are there?",
                "How many plates are on the table?"
            )
        ),
    )
    .unwrap();
    let screen = p.wait_for("on the table");
    assert!(screen.contains("changed on disk"), "{screen}");
    assert!(screen.contains("real-00001 · 2/4"), "{screen}");
    p.send("q");
    assert!(p.wait_exit().success());
}

/// A small tmpfs, unmounted when dropped.
struct Tmpfs(tempfile::TempDir);
impl Tmpfs {
    /// `None` when this process may not mount (not root, no privilege).
    fn mount(size: &str) -> Option<Tmpfs> {
        let d = tempfile::tempdir().unwrap();
        let ok = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(d.path())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(Tmpfs(d))
    }
}
impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg(self.0.path())
            .status();
    }
}

/// The disk fills while a verdict is being journaled: half of it is written. Once space is
/// free again, the next verdict (acknowledged) must survive a crash, not be glued to the
/// torn half and lost on replay.
#[test]
fn after_a_full_disk_the_next_verdict_survives_a_crash() {
    let Some(fs) = Tmpfs::mount("64k") else {
        eprintln!("skipped: cannot mount a tmpfs");
        return;
    };
    let sb = Sandbox::new();
    let dir = fs.0.path();
    let file = dir.join("cvqa.jsonl");
    std::fs::copy(sb.path("cvqa.jsonl"), &file).unwrap();
    // erin's journal from an earlier session, filling most of a page: the next record
    // needs a new page, which the full disk will not give.
    let jp = verdict::journal::journal_path(&file, "erin");
    let mut seed = String::new();
    let record = |pad: usize| {
        json!({"item": 2, "id": "syn-00001", "reviewer": "erin", "review": {
            "at": "2026-01-01T00:00:00Z", "status": "accept", "image_related": true,
            "answer_ok": true, "note": "x".repeat(pad)}})
        .to_string()
    };
    while seed.len() + record(0).len() + 1 < 4096 - 40 {
        let room = 4096 - 40 - seed.len() - record(0).len() - 1;
        seed.push_str(&record(room.min(300)));
        seed.push('\n');
    }
    std::fs::write(&jp, &seed).unwrap();
    let data = sb.path("data").display().to_string();
    let config = sb.path("config").display().to_string();
    let mut p = common::Pty::spawn(
        [
            file.display().to_string(),
            "-r".into(),
            "erin".into(),
            "--at".into(),
            "1".into(),
        ],
        &[
            ("VERDICT_DATA_DIR", data.clone()),
            ("VERDICT_CONFIG_DIR", config),
            ("VERDICT_FOLD_AFTER_MS", "600000".into()),
        ],
        100,
        30,
    );
    p.wait_for("real-00001 · 1/3");
    // fill the disk
    let filler = dir.join("filler");
    {
        use std::io::Write;
        let mut f = std::fs::File::create(&filler).unwrap();
        while f.write_all(&[0u8; 4096]).is_ok() {}
        while f.write_all(&[0u8]).is_ok() {}
    }
    p.send("a");
    p.wait_for("NOT RECORDED on real-00001");
    std::fs::remove_file(&filler).unwrap();
    // accepting moved on to the next item
    p.wait_for("real-00002 · 2/3");
    p.send("a");
    p.wait_for("✔ journaled");
    p.signal(libc::SIGKILL);
    p.wait_exit();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(["export", "--jsonl"])
        .arg(&file)
        .env("VERDICT_DATA_DIR", &data)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("not included"), "{err}");
    let (store, _, rep) = verdict::session::open_with_journal(&file).unwrap();
    assert_eq!(rep.not_applied(), 0, "{rep:?}");
    let status = |i: usize| {
        store
            .item(i)
            .unwrap()
            .reviews
            .get("erin")
            .and_then(|r| r.cvqa.status.map(|s| format!("{s:?}")))
    };
    assert_eq!(
        status(0),
        None,
        "the verdict shown as NOT RECORDED is not there"
    );
    assert!(status(1).is_some(), "the acknowledged verdict survives");
    assert!(status(2).is_some());
}

/// An lm-eval samples file opens directly; a verdict and a note are written into their
/// line as `reviews.erin`; every other byte of the file is unchanged; reopening shows them.
#[test]
fn an_lm_eval_samples_file_is_graded_losslessly() {
    let sb = Sandbox::new();
    let name = "samples_arc_easy_2026-11-20T10-15-42.518246.jsonl";
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/samples/lm-eval/example__tiny-llama-1b")
        .join(name);
    std::fs::create_dir(sb.path("example__tiny-llama-1b")).unwrap();
    let file = format!("example__tiny-llama-1b/{name}");
    std::fs::copy(&src, sb.path(&file)).unwrap();
    let before = std::fs::read_to_string(sb.path(&file)).unwrap();
    let mut p = sb.open(&file, &[], 60_000);
    p.wait_for("Target (answer key)");
    p.send("n");
    p.wait_for("carbon dioxide");
    p.send("i");
    p.send("key says 1");
    p.send("\r");
    p.wait_for("✔ journaled");
    // the verdict moves on to the next item (auto-advance)
    p.send("3");
    p.wait_for("#3 · 3/8");
    p.send("q");
    assert!(p.wait_exit().success());
    let after = std::fs::read_to_string(sb.path(&file)).unwrap();
    let (b, a): (Vec<&str>, Vec<&str>) = (before.lines().collect(), after.lines().collect());
    assert_eq!(a.len(), b.len());
    for i in [0, 2, 3, 4, 5, 6, 7] {
        assert_eq!(a[i], b[i], "line {i} is byte-identical");
    }
    // line 1 is its old bytes up to the closing brace, then the review
    let old = b[1].strip_suffix('}').unwrap();
    assert!(a[1].starts_with(old), "{}", a[1]);
    let v: serde_json::Value = serde_json::from_str(a[1]).unwrap();
    assert_eq!(v["reviews"]["erin"]["verdict"], "ambiguous-key");
    assert_eq!(v["reviews"]["erin"]["note"], "key says 1");
    assert!(
        v.get("id").is_none(),
        "the id verdict shows is not written back"
    );
    assert!(
        v.get("benchmark").is_none(),
        "the line stays in lm-eval's layout"
    );
    assert_eq!(after.len() - before.len(), a[1].len() - b[1].len());

    // reopened where it was left (the item the verdict moved on to), the verdict there
    let mut p = sb.open(&file, &[], 60_000);
    p.wait_for("#3 · 3/8");
    p.send("p");
    p.wait_for("carbon dioxide");
    p.wait_for("My grade: ambiguous-key");
    p.send("q");
    assert!(p.wait_exit().success());
    assert_eq!(std::fs::read_to_string(sb.path(&file)).unwrap(), after);
}

/// Issue 39, one verdict for one generation: in lm_eval's own output (vr_filters: three
/// repeats; strict-match and flexible-extract take the first), grading doc 1's
/// strict-match line writes the verdict into its own line and into flexible-extract's
/// line of doc 1, each as `reviews.erin`, and no other byte; reopened, one `u` takes both
/// out of the file again.
#[test]
fn one_verdict_is_written_into_each_line_that_shares_the_generation() {
    let sb = Sandbox::new();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real-logs/lm-eval/filters/example__fixed-1b");
    std::fs::create_dir(sb.path("example__fixed-1b")).unwrap();
    let mut file = String::new();
    for e in std::fs::read_dir(&src).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        std::fs::copy(src.join(&name), sb.path("example__fixed-1b").join(&name)).unwrap();
        if name.starts_with("samples_") {
            file = format!("example__fixed-1b/{name}");
        }
    }
    let before = std::fs::read_to_string(sb.path(&file)).unwrap();
    let mut p = sb.open(&file, &[], 60_000);
    p.wait_for("Target (answer key)");
    p.send(":2\r");
    p.wait_for("The result is 3");
    p.send("1");
    p.wait_for("flexible-extract");
    p.wait_for("✔ journaled");
    p.send("q");
    assert!(p.wait_exit().success());
    let after = std::fs::read_to_string(sb.path(&file)).unwrap();
    let (b, a): (Vec<&str>, Vec<&str>) = (before.lines().collect(), after.lines().collect());
    assert_eq!(a.len(), b.len());
    for i in 0..b.len() {
        if i == 1 || i == 5 {
            // its old bytes up to the closing brace, then the review
            assert!(
                a[i].starts_with(b[i].strip_suffix('}').unwrap()),
                "{}",
                a[i]
            );
            let v: serde_json::Value = serde_json::from_str(a[i]).unwrap();
            assert_eq!(v["reviews"]["erin"]["verdict"], "correct", "line {i}");
            assert_eq!(v["doc_id"], 1);
        } else {
            assert_eq!(a[i], b[i], "line {i} is byte-identical");
        }
    }
    let mut p = sb.open(&file, &[], 60_000);
    p.wait_for("Target (answer key)");
    p.send("u");
    p.wait_for("undone on");
    p.wait_for("✔ journaled");
    p.send("q");
    assert!(p.wait_exit().success());
    let undone = std::fs::read_to_string(sb.path(&file)).unwrap();
    for (i, l) in undone.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert!(
            v["reviews"].get("erin").is_none(),
            "line {i} still has the verdict: {l}"
        );
    }
}

/// Issue 16, item 9: verdicts that could not be applied and were kept aside must be read
/// by every command and shown on every open; the exit message must not say that every
/// verdict is in the file.
#[test]
fn verdicts_kept_aside_are_shown_on_every_open_and_by_every_command() {
    let sb = Sandbox::new();
    let gone = json!({"item": 7, "id": "no-such-item", "reviewer": "dan",
        "review": {"at": "2026-01-01T00:00:00Z", "status": "accept", "image_related": true, "answer_ok": true}});
    let bad = json!({"item": 0, "id": "real-00001", "reviewer": "dan", "review": {"at": "2026-01-01T00:00:00Z", "status": "bogus"}});
    let stale = verdict::journal::journal_path(&sb.path("cvqa.jsonl"), "dan");
    std::fs::write(&stale, format!("{gone}\n{bad}\n")).unwrap();
    let mut p = sb.open("cvqa.jsonl", &[], 200);
    p.wait_for("2 journal entries not applied");
    p.wait_for("✔ saved");
    p.send("q");
    assert!(p.wait_exit().success());
    let tail = String::from_utf8_lossy(&p.wait_for_raw("verdict: ")).into_owned();
    assert!(!tail.contains("every verdict is in"), "{tail}");
    assert!(
        tail.contains("2 verdicts") && tail.contains("kept aside"),
        "{tail}"
    );
    // every command says so
    for args in [
        vec!["stats"],
        vec!["export", "--csv"],
        vec!["agree"],
        vec!["check", "--no-images"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_verdict"))
            .args(&args)
            .arg(sb.path("cvqa.jsonl"))
            .output()
            .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            said.contains("2 verdicts kept aside") && said.contains(".unapplied-"),
            "{args:?}: {said}"
        );
    }
    // and the next session
    let mut p = sb.open("cvqa.jsonl", &[], 200);
    p.wait_for("2 verdicts kept aside");
    p.send("q");
    assert!(p.wait_exit().success());
    let tail = String::from_utf8_lossy(&p.wait_for_raw("verdict: ")).into_owned();
    assert!(!tail.contains("every verdict is in"), "{tail}");
}

/// Issue 21: the index is kept in the data folder and read back at the next open of the
/// same file; a file changed since (by any program) is read item by item again, never
/// shown with the old index's facts.
#[test]
fn the_index_is_kept_for_the_next_open_and_never_used_stale() {
    let sb = Sandbox::new();
    let log = || std::fs::read_to_string(sb.path("data/verdict.log")).unwrap_or_default();
    let reads = || log().matches("read from").count();
    // The newest time an index was kept: a session keeps the index it builds once it
    // is built, so a session that is to leave one behind waits for it before `q`.
    // (A kept index in its place: `<hash>.idx`, not the temporary it is written to.)
    let kept_at = || {
        std::fs::read_dir(sb.path("data/index"))
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "idx"))
            .filter_map(|e| e.metadata().ok()?.modified().ok())
            .max()
    };
    // Open, see `want`, and quit once `done` holds (or 30 s): a session that is to leave
    // an index waits until it is kept; one that is to read the kept index waits for the
    // read (it is read in the background: under load the screen is up before it, and a
    // `q` then ends the session before it reads), so the assertions count every read.
    let open_and_quit_once = |want: &str, done: &dyn Fn() -> bool| {
        let mut p = sb.open("cvqa.jsonl", &[], 200);
        let screen = p.wait_for("anyone");
        assert!(screen.contains(want), "{screen}");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while !done() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        p.send("q");
        assert!(p.wait_exit().success());
    };
    let open_and_quit_keeping = |want: &str| {
        let before = kept_at();
        open_and_quit_once(want, &|| kept_at() > before);
    };
    let open_and_quit = |want: &str| {
        let before = reads();
        open_and_quit_once(want, &|| reads() > before);
    };
    open_and_quit_keeping("/3 ·");
    let kept: Vec<_> = std::fs::read_dir(sb.path("data/index"))
        .unwrap()
        .flatten()
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(reads(), 0);
    open_and_quit("/3 ·");
    assert_eq!(reads(), 1, "{}", log());
    // another program adds an item: the kept index is not this file's any more
    let mut text = std::fs::read_to_string(sb.path("cvqa.jsonl")).unwrap();
    text.push_str("{\"id\":\"added\",\"benchmark\":\"cvqa\"}\n");
    std::fs::write(sb.path("cvqa.jsonl"), text).unwrap();
    open_and_quit_keeping("/4 ·");
    assert_eq!(reads(), 1, "{}", log());
    // and the one built then is used at the next open
    open_and_quit("/4 ·");
    assert_eq!(reads(), 2, "{}", log());
}

/// Two items share an id (`check` warns of it; such files are opened). My verdict on the
/// second, then another program puts a line before every item while the session runs:
/// the verdict is in the file on the second item, not the first, after the quit's fold,
/// both as the session showed it and as the journal's replay placed it (before, the
/// first item with the id took it).
#[test]
fn a_verdict_on_the_second_of_two_items_sharing_an_id_stays_on_it_when_lines_are_added() {
    let sb = Sandbox::new();
    let line = |id: &str, q: &str| {
        format!(
            "{{\"id\": \"{id}\", \"benchmark\": \"mmlu\", \"question\": \"{q}\", \
             \"answer\": \"x\", \"responses\": [{{\"model\": \"m\", \"text\": \"x\"}}]}}\n"
        )
    };
    let text = [
        line("a", "the first a?"),
        line("b", "b?"),
        line("a", "the second a?"),
    ]
    .concat();
    std::fs::write(sb.path("dup.jsonl"), &text).unwrap();
    // (the fold 3 s after the verdict: the other program's save comes first)
    let mut p = sb.open("dup.jsonl", &[], 3_000);
    p.wait_for("the first a?");
    // the index there (it knows the id is shared)
    p.wait_for("anyone");
    p.send(":3\r");
    p.wait_for("the second a?");
    p.send("2");
    p.wait_for("✔ journaled");
    let now = std::fs::read_to_string(sb.path("dup.jsonl")).unwrap();
    assert_eq!(
        now, text,
        "not folded yet: the journal's replay places the verdict"
    );
    let aside = sb.path("dup.jsonl.new");
    std::fs::write(&aside, format!("{}{text}", line("c", "c?"))).unwrap();
    std::fs::rename(&aside, sb.path("dup.jsonl")).unwrap();
    p.wait_for("/4");
    p.send("q");
    assert!(p.wait_exit().success());
    let text = std::fs::read_to_string(sb.path("dup.jsonl")).unwrap();
    let graded: Vec<String> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["reviews"].get("erin").is_some())
        .map(|v| v["question"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(graded, ["the second a?"], "{text}");
}

/// The first time a reviewer opens a file under the login name (no `--reviewer`, no
/// `reviewer` in the config), the status line says whose name the verdicts go under and
/// how to give another; with `--reviewer`, and on the next open, it says nothing of it.
/// Before, the README's first command recorded under `root` without a word.
#[test]
fn the_login_name_is_said_on_first_use() {
    let sb = Sandbox::new();
    let file = sb.path("cvqa.jsonl").display().to_string();
    let env = vec![
        ("VERDICT_DATA_DIR", sb.path("data").display().to_string()),
        (
            "VERDICT_CONFIG_DIR",
            sb.path("config").display().to_string(),
        ),
        ("USER", "zed".to_string()),
    ];
    let mut p = Pty::spawn([file.as_str()], &env, 100, 30);
    let screen = p.wait_for("real-00001");
    assert!(
        screen.contains("grading as zed (your login name)") && screen.contains("--reviewer"),
        "{screen}"
    );
    p.send("n");
    p.wait_for("real-00002");
    p.send("q");
    assert!(p.wait_exit().success());
    // The second open (the place saved): said once is enough.
    let mut p = Pty::spawn([file.as_str()], &env, 100, 30);
    let screen = p.wait_for("real-00002");
    assert!(!screen.contains("your login name"), "{screen}");
    p.send("q");
    assert!(p.wait_exit().success());
    // Named on the command line: nothing to say.
    let mut p = Pty::spawn([file.as_str(), "--reviewer", "amy"], &env, 100, 30);
    let screen = p.wait_for("real-00001");
    assert!(!screen.contains("login name"), "{screen}");
    p.send("q");
    assert!(p.wait_exit().success());
}

/// A benchmark declared in a spec (sample-data/reading.toml): each response's label,
/// rating and text answered from the keys, quit, the file's bytes checked, reopened.
#[test]
fn grade_a_declared_benchmark_quit_reopen() {
    let sb = Sandbox::new();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let original =
        std::fs::read_to_string(root.join("tests/fixtures/samples/reading.jsonl")).unwrap();
    std::fs::write(sb.path("reading.jsonl"), &original).unwrap();
    let spec = root.join("sample-data/reading.toml").display().to_string();
    let args = ["--benchmark", spec.as_str()];
    let mut p = sb.open("reading.jsonl", &args, 60_000);
    p.wait_for("rc-01");
    p.wait_for("▸ correct*");
    // model-a: yes, then quality 4: its required answers given, on to model-b
    p.send("1");
    p.wait_for("▸ quality*");
    p.send("4");
    p.wait_for("now model-b");
    // model-b: the comment (the last question, before the first), then no and 2
    p.send("K");
    p.wait_for("▸ comment");
    p.send("1");
    p.wait_for("comment: your answer");
    p.send("Wrong year.\r");
    p.wait_for("“Wrong year.”");
    p.send("\t");
    p.wait_for("▸ correct*");
    p.send("3");
    p.send("2");
    // the item done: on to the next
    p.wait_for("rc-02");
    p.send("q");
    assert!(p.wait_exit().success());

    let text = std::fs::read_to_string(sb.path("reading.jsonl")).unwrap();
    let (got, want): (Vec<&str>, Vec<&str>) = (text.lines().collect(), original.lines().collect());
    assert_eq!(got.len(), want.len());
    // every other line byte for byte; rc-01's with my review added after its keys
    assert_eq!(got[1..], want[1..]);
    let stem = want[0].strip_suffix('}').unwrap();
    assert!(got[0].starts_with(stem), "{}", got[0]);
    let mut r = sb.review("reading.jsonl", "rc-01", "erin").unwrap();
    r.as_object_mut()
        .unwrap()
        .retain(|k, _| k != "at" && k != "seconds");
    assert_eq!(
        r,
        json!({"models": {
            "model-a": {"answers": {"correct": "yes", "quality": 4}},
            "model-b": {"answers": {"comment": "Wrong year.", "correct": "no", "quality": 2}}
        }})
    );
    assert!(!journal(&sb, "reading.jsonl").exists());

    // Reopen: on rc-02, where I left; rc-01 shows my answers.
    let mut p = sb.open("reading.jsonl", &args, 60_000);
    p.wait_for("rc-02");
    p.send("p");
    p.wait_for("correct yes · quality 4");
    p.send("q");
    assert!(p.wait_exit().success());
}
