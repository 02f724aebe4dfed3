//! The save lock as colleagues and file systems treat it (docs/format.md, "Several sessions
//! on one file"), with the real binary: a colleague stopped in the middle of a save, and a
//! file system where `flock` does nothing.
#![cfg(unix)]

mod common;

use std::fs;
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

use common::Sandbox;

/// Wait until the header says `what` for item `id`; how long that took.
fn header_says(p: &common::Pty, id: &str, what: &str) -> Duration {
    let start = Instant::now();
    loop {
        let h = p.header();
        if h.contains(id) && h.contains(what) {
            return start.elapsed();
        }
        if start.elapsed() > common::WAIT {
            panic!(
                "timed out waiting for {what:?} on {id}; screen:\n{}",
                p.contents()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Issue 33 case 5: a colleague stopped in the middle of a save (Ctrl-Z) holds the save
/// lock. My verdicts are still journaled and shown as recorded at once; the status line
/// says whose save the fold waits for, with no error; when the colleague lets go, the
/// fold goes on and the file has every verdict.
#[test]
fn a_colleague_stopped_mid_save_never_holds_up_my_verdicts() {
    let sb = Sandbox::new();
    let file = sb.path("cvqa.jsonl");
    let lock = verdict::journal::lock_path(&file);
    fs::write(&lock, "pid 4242 (alice)\n").unwrap();
    let mut p = sb.open("cvqa.jsonl", &[], 100);
    p.wait_for("real-00001");
    // alice's save begins, and she is stopped
    let held = fs::File::open(&lock).unwrap();
    // SAFETY: flock on a descriptor we own.
    assert_eq!(unsafe { libc::flock(held.as_raw_fd(), libc::LOCK_EX) }, 0);
    p.send("a");
    p.wait_for("waiting for another verdict session's save (pid 4242 (alice))");
    // a verdict while the fold waits: recorded at once
    p.send("a");
    let took = header_says(&p, "syn-00001", "✔ journaled");
    // (before: 15-20 s, behind the fold waiting for the lock)
    assert!(
        took < Duration::from_secs(10),
        "acknowledged after {took:?}"
    );
    assert!(!p.contents().contains("SAVE ERROR"), "{}", p.contents());
    drop(held);
    header_says(&p, "syn-00001", "✔ saved");
    assert!(!p.contents().contains("waiting for"), "{}", p.contents());
    p.send("q");
    assert!(p.wait_exit().success());
    for id in ["real-00001", "real-00002"] {
        assert_eq!(
            sb.review("cvqa.jsonl", id, "erin").unwrap()["status"],
            "accept"
        );
    }
}

/// A shared object whose `flock` does nothing and says it locked (as on some network and
/// FUSE file systems), built with the C compiler; `None` (the test skips) without one.
fn no_op_flock(dir: &std::path::Path) -> Option<std::path::PathBuf> {
    let src = dir.join("noflock.c");
    let so = dir.join("noflock.so");
    fs::write(
        &src,
        "int flock(int fd, int op) { (void)fd; (void)op; return 0; }\n",
    )
    .unwrap();
    let ok = std::process::Command::new("cc")
        .args(["-shared", "-fPIC", "-o"])
        .arg(&so)
        .arg(&src)
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(so)
}

/// Issue 33 case 4: where `flock` does nothing, a second session of the file is refused
/// with why and what to do (it used to run beside the first, and saves interleaved: 87 of
/// 1,404 acknowledged verdicts lost or reverted); the first session's verdicts are all in
/// the file when it ends, and then the file opens again.
#[test]
fn where_flock_does_nothing_one_session_at_a_time() {
    let sb = Sandbox::new();
    let Some(so) = no_op_flock(sb.dir.path()) else {
        eprintln!("skipped: no C compiler (cc) to build the no-op flock shim");
        return;
    };
    let file = sb.path("cvqa.jsonl");
    let env = |who: &str| {
        vec![
            ("LD_PRELOAD", so.display().to_string()),
            (
                "VERDICT_DATA_DIR",
                sb.path(&format!("data-{who}")).display().to_string(),
            ),
            (
                "VERDICT_CONFIG_DIR",
                sb.path("config").display().to_string(),
            ),
            ("VERDICT_FOLD_AFTER_MS", "100".to_string()),
        ]
    };
    let open = |who: &str| {
        common::Pty::spawn(
            [file.display().to_string(), "-r".into(), who.into()],
            &env(who),
            100,
            30,
        )
    };
    let mut erin = open("erin");
    erin.wait_for("real-00001");
    let mut dan = open("dan");
    let status = dan.wait_exit();
    let said = dan.contents();
    assert!(!status.success(), "{said}");
    assert!(
        said.contains("is open in another verdict session")
            && said.contains("(erin)")
            && said.contains("File locks do not work"),
        "{said}"
    );
    erin.send("a");
    erin.wait_for("real-00002");
    erin.send("q");
    assert!(erin.wait_exit().success());
    assert_eq!(
        sb.review("cvqa.jsonl", "real-00001", "erin").unwrap()["status"],
        "accept"
    );
    assert!(!verdict::journal::only_session_path(&file).exists());
    // the file is free again; a marker left by a session that died is taken over
    let mut dan = open("dan");
    dan.wait_for("real-00001");
    dan.signal(libc::SIGKILL);
    dan.wait_exit();
    assert!(verdict::journal::only_session_path(&file).exists());
    let mut erin = open("erin");
    erin.wait_for("real-00002"); // where she was
    erin.send("q");
    assert!(erin.wait_exit().success());
}
