//! End-to-end (the real binary in a pseudo-terminal): what the header and the status line
//! say when the reviewer opens a file (issue 19: crash recovery, `--at`).

mod common;

use common::Sandbox;

/// After a crash the recovered verdicts are in the journal, not the file: the header
/// says "journaled", not "saved", until they are folded in.
#[test]
fn after_crash_recovery_the_header_does_not_say_saved() {
    let sb = Sandbox::new();
    let mut p = sb.open("cvqa.jsonl", &[], 60_000);
    p.wait_for("real-00001");
    p.send("a");
    p.wait_for("✔ journaled");
    p.signal(libc::SIGKILL);
    p.wait_exit();
    let mut p = sb.open("cvqa.jsonl", &[], 60_000);
    p.wait_for("recovered 1 verdict from the journal (not yet saved into the file)");
    let header = p.with_screen(|s| s.contents().lines().next().unwrap_or("").to_string());
    assert!(header.contains("✔ journaled"), "{header}");
    assert!(!header.contains("saved"), "{header}");
    p.send("q");
    assert!(p.wait_exit().success());
}

/// `--at` with a number past the end or an id no item has says so, and opens item 1.
#[test]
fn at_a_missing_item_says_so() {
    let sb = Sandbox::new();
    for at in ["99", "nope"] {
        let mut p = sb.open("cvqa.jsonl", &["--at", at], 60_000);
        p.wait_for(&format!("no item {at}"));
        p.wait_for("real-00001");
        p.send("q");
        assert!(p.wait_exit().success());
    }
}
