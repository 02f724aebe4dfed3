//! End-to-end (the real binary in a pseudo-terminal): a thread that stops on a panic
//! (`VERDICT_TEST_PANIC` makes one) never leaves the reviewer with a broken screen. A
//! helper thread's panic (the index, the search) is logged, the screen says what is not
//! coming and everything else goes on; the IO worker's ends the session with the terminal
//! given back and a message saying what is safe.

mod common;

use common::{Pty, Sandbox};

/// The screen is still the reviewer's: the header drawn, in the alternate screen.
fn screen_kept(p: &Pty) {
    let (header, alt) = p.with_screen(|s| {
        (
            s.contents().lines().next().unwrap_or("").to_string(),
            s.alternate_screen(),
        )
    });
    assert!(header.contains("cvqa.jsonl"), "{header}");
    assert!(alt, "the terminal was given back under the running session");
    assert!(!p.contents().contains("panicked"), "{}", p.contents());
}

#[test]
fn the_index_threads_panic_keeps_the_screen_and_says_what_is_not_coming() {
    let sb = Sandbox::new();
    let mut p = sb.open_panicking("cvqa.jsonl", "index");
    p.wait_for("the index could not be built (see the log)");
    screen_kept(&p);
    // search says so instead of "indexing the file…"
    p.send("/");
    p.wait_for("Search · the index could not be built");
    p.send("\x1b");
    // grading goes on
    p.send("a");
    p.wait_for("✔ journaled");
    screen_kept(&p);
    p.send("q");
    assert!(p.wait_exit().success());
    assert!(sb.review("cvqa.jsonl", "real-00001", "erin").is_some());
    let log = std::fs::read_to_string(sb.path("data").join("verdict.log")).unwrap();
    assert!(log.contains("panic on thread verdict-index"), "{log}");
}

#[test]
fn the_search_threads_panic_keeps_the_screen_and_says_so() {
    let sb = Sandbox::new();
    let mut p = sb.open_panicking("cvqa.jsonl", "search");
    p.wait_for("anyone");
    p.send("/");
    p.send("real");
    p.wait_for("search stopped on an error (see the log)");
    screen_kept(&p);
    p.send("\x1b");
    p.send("a");
    p.wait_for("✔ journaled");
    p.send("q");
    assert!(p.wait_exit().success());
    assert!(sb.review("cvqa.jsonl", "real-00001", "erin").is_some());
}

#[test]
fn the_io_workers_panic_ends_the_session_with_the_terminal_given_back() {
    let sb = Sandbox::new();
    let before = std::fs::read(sb.path("cvqa.jsonl")).unwrap();
    let mut p = sb.open_panicking("cvqa.jsonl", "io");
    p.wait_for("real-00001");
    p.send("a");
    let status = p.wait_exit();
    assert!(!status.success());
    let out = p.contents();
    assert!(
        out.contains("the thread that records verdicts stopped on an error"),
        "{out}"
    );
    assert!(
        !p.with_screen(|s| s.alternate_screen()),
        "the terminal is given back"
    );
    // the verdict was never shown as recorded, and is not in the file
    assert_eq!(std::fs::read(sb.path("cvqa.jsonl")).unwrap(), before);
}
