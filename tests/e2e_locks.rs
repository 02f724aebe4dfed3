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
    assert!(took < Duration::from_secs(3), "acknowledged after {took:?}");
    assert!(!p.contents().contains("SAVE ERROR"), "{}", p.contents());
    drop(held);
    header_says(&p, "syn-00001", "✔ saved");
    p.send("q");
    assert!(p.wait_exit().success());
    for id in ["real-00001", "real-00002"] {
        assert_eq!(
            sb.review("cvqa.jsonl", id, "erin").unwrap()["status"],
            "accept"
        );
    }
}
