//! End-to-end: the fold after quitting, handed to a detached process (docs/format.md,
//! "The verdict journal"). The reviewer quits at once; a process of its own folds the
//! journal into the file later. Every test holds that process at a gate
//! (`VERDICT_TEST_FOLD_GATE`) so what happens while it runs is checked by order and by
//! process state, never by timing: the shell is back while the file does not hold the
//! verdict yet, and once the gate opens the file holds it.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{Pty, Sandbox, WAIT};

fn journal(sb: &Sandbox, file: &str) -> PathBuf {
    verdict::journal::journal_path(&sb.path(file), "erin")
}

fn marker(sb: &Sandbox, file: &str) -> PathBuf {
    verdict::journal::fold_marker_path(&journal(sb, file))
}

/// Open `file` as erin with the fold after quitting always detached (whatever the
/// file's size) and held until `gate` exists.
fn open(sb: &Sandbox, file: &str, gate: &Path) -> Pty {
    let data = sb.path("data").display().to_string();
    let config = sb.path("config").display().to_string();
    Pty::spawn(
        [
            sb.path(file).display().to_string(),
            "-r".into(),
            "erin".into(),
        ],
        &[
            ("VERDICT_DATA_DIR", data),
            ("VERDICT_CONFIG_DIR", config),
            // No fold while the session runs: only the one after quitting.
            ("VERDICT_FOLD_AFTER_MS", "600000".into()),
            ("VERDICT_FOLD_DETACH_ABOVE", "0".into()),
            ("VERDICT_TEST_FOLD_GATE", gate.display().to_string()),
        ],
        100,
        30,
    )
}

/// Is some process holding the lock on `path` (an exclusive `flock`)?
fn locked(path: &Path) -> bool {
    use std::os::fd::AsRawFd;
    let Ok(f) = std::fs::File::open(path) else {
        return false;
    };
    // SAFETY: flock on a descriptor we own; closing it releases what we took.
    let rc = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    rc != 0
}

/// The folder's process id, which it writes into the marker.
fn folder_pid(sb: &Sandbox, file: &str) -> libc::pid_t {
    let start = Instant::now();
    loop {
        if let Ok(s) = std::fs::read_to_string(marker(sb, file))
            && let Ok(pid) = s.trim().parse()
        {
            return pid;
        }
        assert!(start.elapsed() < WAIT, "the folder never wrote its pid");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn wait_until(what: &str, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < WAIT, "timed out waiting until {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Grade real-00001 (accept), wait until it is journaled, quit.
fn accept_first_and_quit(p: &mut Pty) {
    p.wait_for("real-00001");
    p.send("a");
    p.wait_for("real-00002");
    p.wait_for("✔ journaled");
    p.send("q");
}

/// A sandbox in which erin opened cvqa.jsonl, accepted real-00001 and quit (her
/// process has ended); the fold after quitting is held until the returned gate exists.
fn accepted_first_and_quit() -> (Sandbox, PathBuf, Pty) {
    let sb = Sandbox::new();
    let gate = sb.path("gate");
    let mut p = open(&sb, "cvqa.jsonl", &gate);
    accept_first_and_quit(&mut p);
    assert!(p.wait_exit().success());
    (sb, gate, p)
}

/// The status of `reviewer`'s verdict on item `id` in the file cvqa.jsonl.
fn status(sb: &Sandbox, id: &str, reviewer: &str) -> serde_json::Value {
    sb.review("cvqa.jsonl", id, reviewer).unwrap()["status"].clone()
}

#[test]
fn quit_returns_before_the_fold_and_the_file_then_holds_every_verdict() {
    // The reviewer's process has ended while the fold is held at its gate.
    let (sb, gate, p) = accepted_first_and_quit();
    let out = String::from_utf8_lossy(&p.output()).into_owned();
    assert!(out.contains("in the background"), "{out}");
    assert!(locked(&marker(&sb, "cvqa.jsonl")), "a folder runs");
    assert!(
        locked(&journal(&sb, "cvqa.jsonl")),
        "the folder holds the journal's lock"
    );
    assert!(sb.review("cvqa.jsonl", "real-00001", "erin").is_none());
    // Meanwhile every reader already sees the verdict (file + journal).
    let (store, _, _) = verdict::session::open_with_journal(&sb.path("cvqa.jsonl")).unwrap();
    let v = store.value(0).unwrap();
    assert_eq!(v["reviews"]["erin"]["status"], "accept");

    std::fs::write(&gate, "").unwrap();
    wait_until("the fold is done", || !marker(&sb, "cvqa.jsonl").exists());
    assert_eq!(status(&sb, "real-00001", "erin"), "accept");
    assert!(!journal(&sb, "cvqa.jsonl").exists(), "folded and removed");
    assert!(!locked(&marker(&sb, "cvqa.jsonl")));
}

#[test]
fn a_session_opened_while_the_fold_runs_waits_for_it_and_loses_nothing() {
    let (sb, gate, _) = accepted_first_and_quit();
    assert!(locked(&marker(&sb, "cvqa.jsonl")));

    // The same reviewer opens the file again while the fold is held.
    let mut p2 = open(&sb, "cvqa.jsonl", &gate);
    p2.wait_for("waiting for");
    assert!(p2.running());
    assert!(locked(&marker(&sb, "cvqa.jsonl")), "the fold still runs");
    std::fs::write(&gate, "").unwrap();
    // It opens once the fold is done, with the verdict, and grades another item.
    p2.wait_for("real-00002");
    p2.send("p");
    p2.wait_for("erin (me)");
    p2.send("n");
    p2.send("r");
    p2.wait_for("Reject: why?");
    p2.send("2");
    p2.wait_for("✔ journaled");
    p2.send("q");
    assert!(p2.wait_exit().success());
    wait_until("the second fold is done", || {
        !marker(&sb, "cvqa.jsonl").exists() && !journal(&sb, "cvqa.jsonl").exists()
    });
    assert_eq!(status(&sb, "real-00001", "erin"), "accept");
    assert_eq!(status(&sb, "real-00002", "erin"), "reject");
}

#[test]
fn another_reviewer_works_while_the_fold_runs_and_both_keep_their_verdicts() {
    let (sb, gate, _) = accepted_first_and_quit();
    assert!(locked(&marker(&sb, "cvqa.jsonl")));

    let data = sb.path("data").display().to_string();
    let config = sb.path("config").display().to_string();
    let mut q = Pty::spawn(
        [
            sb.path("cvqa.jsonl").display().to_string(),
            "-r".into(),
            "quinn".into(),
        ],
        &[
            ("VERDICT_DATA_DIR", data),
            ("VERDICT_CONFIG_DIR", config),
            ("VERDICT_FOLD_AFTER_MS", "100".into()),
        ],
        100,
        30,
    );
    q.wait_for("real-00001");
    // quinn's screen shows erin's verdict (from her journal), and quinn's own is folded
    // into the file while erin's fold is held.
    q.wait_for("erin accept");
    q.send("r");
    q.wait_for("Reject: why?");
    q.send("2");
    wait_until("quinn's verdict is in the file", || {
        sb.review("cvqa.jsonl", "real-00001", "quinn").is_some()
    });
    assert!(locked(&marker(&sb, "cvqa.jsonl")), "erin's fold still held");
    std::fs::write(&gate, "").unwrap();
    wait_until("erin's fold is done", || {
        !marker(&sb, "cvqa.jsonl").exists()
    });
    q.send("q");
    assert!(q.wait_exit().success());
    assert_eq!(status(&sb, "real-00001", "erin"), "accept");
    assert_eq!(status(&sb, "real-00001", "quinn"), "reject");
}

#[test]
fn kill_9_of_the_folder_loses_nothing() {
    let (sb, gate, _) = accepted_first_and_quit();
    let pid = folder_pid(&sb, "cvqa.jsonl");
    // SAFETY: a signal to the folder this test started (through verdict).
    unsafe { libc::kill(pid, libc::SIGKILL) };
    wait_until("the folder is gone", || {
        !locked(&marker(&sb, "cvqa.jsonl")) && !locked(&journal(&sb, "cvqa.jsonl"))
    });
    assert!(sb.review("cvqa.jsonl", "real-00001", "erin").is_none());
    assert!(journal(&sb, "cvqa.jsonl").exists(), "the journal stays");

    // The next session replays it (no waiting: nobody folds) and folds it in.
    std::fs::write(&gate, "").unwrap();
    let mut p = open(&sb, "cvqa.jsonl", &gate);
    p.wait_for("real-00002");
    p.send("p");
    p.wait_for("erin (me)");
    p.send("q");
    assert!(p.wait_exit().success());
    wait_until("the fold is done", || {
        !marker(&sb, "cvqa.jsonl").exists() && !journal(&sb, "cvqa.jsonl").exists()
    });
    assert_eq!(status(&sb, "real-00001", "erin"), "accept");
}

#[test]
fn a_file_edited_by_another_program_during_the_fold_keeps_both_changes() {
    let (sb, gate, _) = accepted_first_and_quit();
    assert!(locked(&marker(&sb, "cvqa.jsonl")));
    let orig = std::fs::read_to_string(sb.path("cvqa.jsonl")).unwrap();
    std::fs::write(
        sb.path("cvqa.jsonl"),
        format!("{{\"id\":\"added-elsewhere\",\"benchmark\":\"cvqa\"}}\n{orig}"),
    )
    .unwrap();
    std::fs::write(&gate, "").unwrap();
    wait_until("the fold is done", || !marker(&sb, "cvqa.jsonl").exists());
    let text = std::fs::read_to_string(sb.path("cvqa.jsonl")).unwrap();
    assert!(text.starts_with("{\"id\":\"added-elsewhere\""), "{text}");
    assert_eq!(status(&sb, "real-00001", "erin"), "accept");
    assert!(!journal(&sb, "cvqa.jsonl").exists());
}

/// Issue 21: the fold after quitting keeps the index of the file it wrote, so the next
/// open of it (the usual day: review, quit, reopen) reads the index instead of every item,
/// with the verdicts just folded among its facts.
#[test]
fn the_fold_after_quitting_keeps_the_index_of_the_file_it_wrote() {
    let (sb, gate, _p) = accepted_first_and_quit();
    let log = || std::fs::read_to_string(sb.path("data/verdict.log")).unwrap_or_default();
    std::fs::write(&gate, "").unwrap();
    wait_until("the index is kept", || log().contains("kept the index"));
    let mut p = open(&sb, "cvqa.jsonl", &gate);
    p.wait_for("anyone");
    // erin's folded accept is one of the index's facts: her progress counts it
    p.wait_for("me 1/3");
    p.send("q");
    assert!(p.wait_exit().success());
    assert_eq!(log().matches("read from").count(), 1, "{}", log());
}
