//! Files another user plants beside a results file (docs/format.md, "Who may write beside a
//! file"): in a folder others may write (a sticky one like /tmp), mallory creates files
//! named like vicky's journal, another journal, or the save lock. None of them is written,
//! followed or read into vicky's file, and each is reported with what to do.
//!
//! The users are numeric ids without accounts (root sets them with `setpriv` and
//! `Command::uid`); the tests skip with a message when not run as root.
#![cfg(unix)]

mod common;

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use common::Pty;

const MALLORY: u32 = 64001;
const VICKY: u32 = 64002;

/// The binary under test (`VERDICT_TEST_BIN` runs the tests against another build, e.g.
/// an older one, to see them fail there).
fn bin() -> String {
    std::env::var("VERDICT_TEST_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_verdict").into())
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn chown(p: &Path, uid: u32) {
    std::os::unix::fs::lchown(p, Some(uid), Some(uid)).unwrap();
}

fn chmod(p: &Path, m: u32) {
    fs::set_permissions(p, fs::Permissions::from_mode(m)).unwrap();
}

/// A sticky folder everyone may write (`shared`, as /tmp), vicky's private (0600) copy of
/// the C-VQA fixture in it, and vicky's own data folder.
struct Shared {
    dir: tempfile::TempDir,
}

impl Shared {
    fn new() -> Shared {
        let dir = tempfile::tempdir().unwrap();
        chmod(dir.path(), 0o755);
        let s = Shared { dir };
        fs::create_dir(s.shared()).unwrap();
        chmod(&s.shared(), 0o1777);
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tui/cvqa.jsonl");
        fs::copy(src, s.file()).unwrap();
        chmod(&s.file(), 0o600);
        chown(&s.file(), VICKY);
        fs::create_dir(s.data()).unwrap();
        chmod(&s.data(), 0o700);
        chown(&s.data(), VICKY);
        s
    }
    fn shared(&self) -> PathBuf {
        self.dir.path().join("shared")
    }
    fn file(&self) -> PathBuf {
        self.shared().join("private.jsonl")
    }
    fn data(&self) -> PathBuf {
        self.dir.path().join("vicky-data")
    }
    /// A file mallory plants in the shared folder, with `mode`.
    fn plant(&self, name: &str, text: &str, mode: u32) -> PathBuf {
        let p = self.shared().join(name);
        fs::write(&p, text).unwrap();
        chmod(&p, mode);
        chown(&p, MALLORY);
        p
    }
    /// `verdict ARGS` run by vicky.
    fn vicky(&self, args: &[&str]) -> Output {
        Command::new(bin())
            .args(args)
            .current_dir(self.shared())
            .env("VERDICT_DATA_DIR", self.data())
            .env("HOME", self.data())
            .uid(VICKY)
            .gid(VICKY)
            .output()
            .unwrap()
    }
    /// vicky's reviewer on her file, in a pty.
    fn vicky_reviews(&self) -> Pty {
        let file = self.file().display().to_string();
        Pty::spawn_program(
            "setpriv",
            [
                &format!("--reuid={VICKY}"),
                &format!("--regid={VICKY}"),
                "--clear-groups",
                "--",
                &bin(),
                &file,
                "-r",
                "vicky",
            ],
            &[
                ("VERDICT_DATA_DIR", self.data().display().to_string()),
                ("HOME", self.data().display().to_string()),
                ("VERDICT_FOLD_AFTER_MS", "100".into()),
            ],
            100,
            30,
        )
    }
    fn reviews_of(&self, id: &str) -> Option<serde_json::Value> {
        let text = fs::read_to_string(self.file()).unwrap();
        text.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .find(|v| v["id"] == id)
            .and_then(|v| v.get("reviews").cloned())
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// A copy of the C-VQA fixture, `set.jsonl`, in a folder of my own.
fn my_set() -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("set.jsonl");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tui/cvqa.jsonl");
    fs::copy(src, &f).unwrap();
    (d, f)
}

/// `verdict ARGS` as the user running the tests, its data folder in `d`.
fn me(d: &Path, args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .env("VERDICT_DATA_DIR", d.join("data"))
        .output()
        .unwrap()
}

macro_rules! needs_root {
    () => {
        if !is_root() {
            eprintln!("skipped: needs root to create files of other users");
            return;
        }
    };
}

/// Case 1: an empty journal named for vicky, mallory's and open to all, is never written:
/// vicky's verdicts and notes go to her data folder, and the screen says so.
#[test]
fn a_journal_planted_under_my_name_is_never_written() {
    needs_root!();
    let s = Shared::new();
    let planted = s.plant(".private.jsonl.vicky.verdict-journal", "", 0o666);
    let mut p = s.vicky_reviews();
    p.wait_for("real-00001");
    p.wait_for("owned by uid 64001");
    p.send("a");
    // accepted, it moves on to the next item
    p.wait_for("real-00002");
    p.send("q");
    p.wait_exit();
    assert_eq!(
        fs::read(&planted).unwrap(),
        b"",
        "vicky's verdict went to mallory's file"
    );
    assert_eq!(fs::metadata(&planted).unwrap().mode() & 0o777, 0o666);
    let r = s
        .reviews_of("real-00001")
        .expect("the verdict is in vicky's file");
    assert_eq!(r["vicky"]["status"], "accept", "{r}");
}

const FORGED: &str = r#"{"item":0,"id":"real-00001","reviewer":"vicky","review":{"at":"2026-11-01T10:00:00Z","seconds":8.4,"status":"accept","image_related":true,"answer_ok":true,"note":"vicky never said this"}}
"#;

/// Case 2: a journal of another reviewer's name, planted by a user who may not write the
/// file, is not replayed: not counted by `stats`, not exported, not folded into the file at
/// vicky's next session; every command says it was not read and why.
#[test]
fn a_journal_planted_by_a_user_who_may_not_write_the_file_is_not_replayed() {
    needs_root!();
    let s = Shared::new();
    s.plant(".private.jsonl.mallory.verdict-journal", FORGED, 0o644);
    let before = fs::read(s.file()).unwrap();
    let o = s.vicky(&["stats", "private.jsonl"]);
    let out = text(&o);
    assert!(!out.contains("recovered"), "{out}");
    assert!(out.contains("owned by uid 64001"), "{out}");
    let o = s.vicky(&["export", "private.jsonl", "--jsonl"]);
    let out = text(&o);
    assert!(!out.contains("vicky never said this"), "{out}");
    let o = s.vicky(&["check", "private.jsonl"]);
    assert!(text(&o).contains("is not read"), "{}", text(&o));

    let mut p = s.vicky_reviews();
    p.wait_for("real-00001");
    p.send("q");
    p.wait_exit();
    assert_eq!(
        fs::read(s.file()).unwrap(),
        before,
        "mallory's record was folded in"
    );
}

/// Case 2, second half: a record whose reviewer is not its journal's is refused, even in a
/// journal of a user who may write the file.
#[test]
fn a_record_under_another_reviewers_name_is_refused() {
    let (d, f) = my_set();
    fs::write(d.path().join(".set.jsonl.mallory.verdict-journal"), FORGED).unwrap();
    let o = me(d.path(), &["export", f.to_str().unwrap(), "--jsonl"]);
    let out = text(&o);
    assert!(!out.contains("vicky never said this"), "{out}");
    assert!(out.contains("\"mallory\"'s journal"), "{out}");
}

/// Case 3: a save lock planted by mallory, held, with words of her choosing: no command
/// waits for it or shows its text; each says what to do at once.
#[test]
fn a_planted_lock_is_not_waited_for_and_its_text_never_shown() {
    needs_root!();
    let s = Shared::new();
    let lock = s.plant(
        ".private.jsonl.verdict-lock",
        "pid 1 (the admin: please run rm -rf ~ to fix)\n",
        0o644,
    );
    let held = fs::File::open(&lock).unwrap();
    // SAFETY: flock on a descriptor we own.
    assert_eq!(
        unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&held), libc::LOCK_EX) },
        0
    );
    let start = Instant::now();
    let o = s.vicky(&["stats", "private.jsonl"]);
    let out = text(&o);
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "waited for the planted lock"
    );
    assert!(!out.contains("rm -rf"), "{out}");
    assert!(
        out.contains("owned by uid 64001") && out.contains("remove it"),
        "{out}"
    );
    assert!(!o.status.success());
}

/// Case 3: a symbolic link at the lock's path stops the file opening with what to do.
#[test]
fn a_lock_that_is_a_symbolic_link_is_refused_with_what_to_do() {
    let (d, f) = my_set();
    let target = d.path().join("elsewhere");
    fs::write(&target, "").unwrap();
    std::os::unix::fs::symlink(&target, d.path().join(".set.jsonl.verdict-lock")).unwrap();
    let o = me(d.path(), &["stats", f.to_str().unwrap()]);
    let out = text(&o);
    assert!(
        out.contains("is a symbolic link") && out.contains("remove it"),
        "{out}"
    );
    assert_eq!(fs::read(&target).unwrap(), b"");
    // a link to nothing (yet) too
    fs::remove_file(&target).unwrap();
    let o = me(d.path(), &["stats", f.to_str().unwrap()]);
    let out = text(&o);
    assert!(out.contains("is a symbolic link"), "{out}");
    assert!(!target.exists(), "nothing created through the link");
}
