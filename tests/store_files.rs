//! The results file as the file system gives it: special files, permissions, other
//! programs' edits. Runs the built binary (and, for permissions, drops to `nobody`).

mod common;

use common::{Pty, Sandbox};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const LINE: &str = r#"{"id":"a","benchmark":"other","responses":[{"model":"m"}]}"#;

/// Run `verdict ARGS`; kill it and fail if it has not exited after `limit`.
fn verdict_within(args: &[&str], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(args)
        .env("VERDICT_IMAGE_PROTOCOL", "halfblocks")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run verdict");
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            panic!(
                "verdict {args:?} still running after {limit:?}; stderr: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Every command that reads a result set, with FILE in its place.
fn commands(file: &str, out: &str) -> Vec<Vec<String>> {
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        v(&["check", file]),
        v(&["stats", file]),
        v(&["export", file, "--csv"]),
        v(&["agree", file]),
        v(&["merge", file, "-o", out]),
        v(&["split", file, "--reviewers", "a,b", "--out", out]),
    ]
}

#[test]
fn special_files_are_refused_by_every_command_without_hanging() {
    let d = tempfile::tempdir().unwrap();
    let fifo = d.path().join("pipe.jsonl");
    mkfifo(&fifo);
    let out = d.path().join("out");
    for file in [fifo.to_str().unwrap(), "/dev/zero", "/dev/null"] {
        for args in commands(file, out.to_str().unwrap()) {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = verdict_within(&args, Duration::from_secs(10));
            let e = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
            assert!(
                e.contains(file) && e.contains("not a regular file"),
                "{args:?}: {e}"
            );
            assert!(!e.contains("panicked"), "{args:?}: {e}");
        }
        // the reviewer, in a terminal
        let data = d.path().join("data");
        let mut p = Pty::spawn(
            [file, "-r", "erin"],
            &[
                ("VERDICT_DATA_DIR", data.display().to_string()),
                ("VERDICT_CONFIG_DIR", data.display().to_string()),
            ],
            200,
            30,
        );
        p.wait_for("not a regular file");
        assert_eq!(p.wait_exit().code(), Some(2), "{}", p.contents());
        let _ = std::fs::remove_dir_all(&data);
    }
    // no output was written
    assert!(!out.exists());
}

#[test]
fn a_symlink_to_a_regular_file_is_read() {
    let d = tempfile::tempdir().unwrap();
    let real = d.path().join("real.jsonl");
    std::fs::write(&real, format!("{LINE}\n")).unwrap();
    let link = d.path().join("link.jsonl");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let o = verdict_within(&["check", link.to_str().unwrap()], Duration::from_secs(20));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// The reviewer as `nobody` (uid and gid 65534, no supplementary groups) on `file` in a
/// sandbox that `nobody` may write, folding 100 ms after a verdict.
fn reviewer_as_nobody(sb: &Sandbox, file: &str) -> Pty {
    use std::os::unix::fs::PermissionsExt;
    for d in [
        sb.dir.path().to_path_buf(),
        sb.path("data"),
        sb.path("config"),
    ] {
        std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    let path = sb.path(file).display().to_string();
    Pty::spawn_program(
        "setpriv",
        [
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "--",
            env!("CARGO_BIN_EXE_verdict"),
            path.as_str(),
            "-r",
            "erin",
        ],
        &[
            ("VERDICT_DATA_DIR", sb.path("data").display().to_string()),
            (
                "VERDICT_CONFIG_DIR",
                sb.path("config").display().to_string(),
            ),
            ("VERDICT_FOLD_AFTER_MS", "100".into()),
        ],
        100,
        30,
    )
}

/// A file whose owner is not the reviewer is never replaced by a copy the reviewer owns:
/// `nobody` may read root's 0644 file in a folder `nobody` may write, but not write it.
/// The verdict stays in the journal and the screen says why.
#[test]
fn a_file_the_user_may_not_write_is_not_replaced() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    if !is_root() {
        eprintln!("skipped: needs root to create a file of another owner");
        return;
    }
    let sb = Sandbox::new();
    let path = sb.path("cvqa.jsonl");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let before = std::fs::read(&path).unwrap();
    let mut p = reviewer_as_nobody(&sb, "cvqa.jsonl");
    p.wait_for("real-00001");
    p.send("a");
    p.wait_for("read-only");
    p.send("q");
    p.wait_exit();
    let meta = std::fs::metadata(&path).unwrap();
    assert_eq!((meta.uid(), meta.gid()), (0, 0), "the file changed owner");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert!(verdict::journal::journal_path(&path, "erin").exists());
}

/// Group-writable (0664) root:root file, `nobody` not in the group: the same.
#[test]
fn a_file_writable_only_by_its_group_is_not_replaced_by_others() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    if !is_root() {
        eprintln!("skipped: needs root to create a file of another owner");
        return;
    }
    let sb = Sandbox::new();
    let path = sb.path("cvqa.jsonl");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o664)).unwrap();
    let before = std::fs::read(&path).unwrap();
    let mut p = reviewer_as_nobody(&sb, "cvqa.jsonl");
    p.wait_for("real-00001");
    p.send("a");
    p.wait_for("read-only");
    p.send("q");
    p.wait_exit();
    assert_eq!(std::fs::metadata(&path).unwrap().uid(), 0);
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

/// A world-writable file of another owner: `nobody` may write it, but a rename would
/// make the file nobody's; refused (the owner cannot be kept).
#[test]
fn a_file_whose_owner_cannot_be_kept_is_not_replaced() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    if !is_root() {
        eprintln!("skipped: needs root to create a file of another owner");
        return;
    }
    let sb = Sandbox::new();
    let path = sb.path("cvqa.jsonl");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666)).unwrap();
    let before = std::fs::read(&path).unwrap();
    let mut p = reviewer_as_nobody(&sb, "cvqa.jsonl");
    p.wait_for("real-00001");
    p.send("a");
    p.wait_for("owner");
    p.send("q");
    p.wait_exit();
    let meta = std::fs::metadata(&path).unwrap();
    assert_eq!(meta.uid(), 0, "the file changed owner");
    assert_eq!(meta.mode() & 0o777, 0o666);
    assert_eq!(std::fs::read(&path).unwrap(), before);
}
