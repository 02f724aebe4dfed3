//! End-to-end: what an earlier session left (its skips, its undo history, its position)
//! and `--at ID` are found off the screen's thread: the first screen never waits for them,
//! however far into the file they are or however the file changed since. Every test holds
//! the file's scan after its first items at a gate (`VERDICT_TEST_SCAN_GATE`, as in
//! `e2e_scan.rs`), so the order is checked, never the timing: the first screen is up while
//! the scan is held (before, the start read items up to the saved ones, and every item
//! when one had moved, on the screen's thread), and what was saved comes back once the
//! file is read.

mod common;

use std::path::Path;

use common::{Pty, Sandbox};

/// A generic set of `n` items, `item-01`, `item-02`, … (and `item-00` first when
/// `prepended`).
fn set_text(n: usize, prepended: bool) -> String {
    let line = |k: usize| {
        format!(
            "{{\"id\": \"item-{k:02}\", \"benchmark\": \"mmlu\", \"question\": \"question {k}?\", \
             \"answer\": \"{k}\", \"responses\": [{{\"model\": \"m\", \"text\": \"{k}\"}}]}}\n"
        )
    };
    let from = if prepended { 0 } else { 1 };
    (from..=n).map(line).collect()
}

/// Open `file` as erin with the scan held after its first `after` items until `gate`
/// exists, with `extra` arguments.
fn open(sb: &Sandbox, file: &str, after: usize, gate: &Path, extra: &[&str]) -> Pty {
    sb.open_gated(file, after, gate, extra)
}

/// The screen's first row (the header).
fn header(p: &Pty) -> String {
    p.header()
}

/// Wait until the header shows `text` (the status line may name an item that is not
/// shown).
fn wait_header(p: &Pty, text: &str) {
    let deadline = std::time::Instant::now() + common::WAIT;
    while !header(p).contains(text) {
        assert!(
            std::time::Instant::now() < deadline,
            "timed out waiting for {text:?} in the header; screen:\n{}",
            p.contents()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A session on a 40-item set that fails item 38 (auto-advance moves on to 39), skips
/// item 39 (on to 40) and quits on item 40; then another program puts a line before
/// every item: each is one further down the file than the session saved it.
fn a_session_then_a_line_prepended(sb: &Sandbox, gate: &Path) {
    std::fs::write(sb.path("set.jsonl"), set_text(40, false)).unwrap();
    std::fs::write(gate, "").unwrap();
    let mut p = open(sb, "set.jsonl", 3, gate, &[]);
    p.wait_for("1/40");
    p.send(":38\r");
    p.wait_for("item-38");
    p.send("2");
    p.wait_for("item-39");
    p.send("S");
    p.wait_for("skipped item-39");
    assert!(header(&p).contains("item-40"), "{}", header(&p));
    p.send("q");
    assert!(p.wait_exit().success());
    assert_eq!(
        sb.review("set.jsonl", "item-38", "erin").unwrap()["verdict"],
        "fail"
    );
    let text = std::fs::read_to_string(sb.path("set.jsonl")).unwrap();
    let zero = set_text(0, true);
    std::fs::write(sb.path("set.jsonl"), format!("{zero}{text}")).unwrap();
    std::fs::remove_file(gate).unwrap();
}

#[test]
fn a_saved_session_whose_items_moved_is_found_after_the_first_screen() {
    let sb = Sandbox::new();
    let gate = sb.path("gate");
    a_session_then_a_line_prepended(&sb, &gate);

    // The next session, the scan held after 3 items: the first screen is up at once
    // (the saved item is not among the items found), and says what it is looking for.
    let mut p = open(&sb, "set.jsonl", 3, &gate, &[]);
    p.wait_for("item-00");
    p.wait_for("finding your place");
    // The file is read: the saved item comes up (no key was pressed meanwhile), the skip
    // and the undo history are on their items, one further down.
    std::fs::write(&gate, "").unwrap();
    wait_header(&p, "item-40");
    assert!(header(&p).contains("41/41"), "{}", header(&p));
    // (a key pressed in the moment after the screen moved by itself is not taken: it was
    // meant for the item before)
    std::thread::sleep(std::time::Duration::from_millis(700));
    p.send(":40\r");
    p.wait_for("item-39");
    assert!(header(&p).contains("skipped"), "{}", header(&p));
    p.send("u");
    p.wait_for("undone on item-38");
    assert!(header(&p).contains("item-38"), "{}", header(&p));
    p.send("q");
    assert!(p.wait_exit().success());
    assert!(sb.review("set.jsonl", "item-38", "erin").is_none());
}

#[test]
fn keys_pressed_before_the_saved_place_is_found_keep_the_reviewer_where_they_are() {
    let sb = Sandbox::new();
    let gate = sb.path("gate");
    a_session_then_a_line_prepended(&sb, &gate);

    let mut p = open(&sb, "set.jsonl", 3, &gate, &[]);
    p.wait_for("item-00");
    p.send("n");
    p.wait_for("item-01");
    // The undo history is not restored yet: undo says so and does nothing.
    p.send("u");
    p.wait_for("undo history");
    assert!(header(&p).contains("item-01"), "{}", header(&p));
    std::fs::write(&gate, "").unwrap();
    // Found: the reviewer stays on the item they moved to, and is told where the saved
    // place is and how to go there.
    p.wait_for("your place from last session");
    let screen = p.wait_for(":41");
    assert!(header(&p).contains("item-01"), "{screen}");
    // the undo history is there now, on the moved item
    p.send("u");
    p.wait_for("undone on item-38");
    p.send("q");
    assert!(p.wait_exit().success());
    assert!(sb.review("set.jsonl", "item-38", "erin").is_none());
}

#[test]
fn at_an_id_deep_in_the_file_opens_the_first_screen_at_once() {
    let sb = Sandbox::new();
    std::fs::write(sb.path("set.jsonl"), set_text(40, false)).unwrap();
    let gate = sb.path("gate");
    let mut p = open(&sb, "set.jsonl", 3, &gate, &["--at", "item-35"]);
    p.wait_for("item-01");
    p.wait_for("finding item-35");
    std::fs::write(&gate, "").unwrap();
    wait_header(&p, "item-35");
    assert!(header(&p).contains("35/40"), "{}", header(&p));
    std::thread::sleep(std::time::Duration::from_millis(700));
    p.send("q");
    assert!(p.wait_exit().success());
}

#[test]
fn at_an_id_that_is_not_there_says_so_once_the_file_is_read() {
    let sb = Sandbox::new();
    std::fs::write(sb.path("set.jsonl"), set_text(40, false)).unwrap();
    let gate = sb.path("gate");
    let mut p = open(&sb, "set.jsonl", 3, &gate, &["--at", "item-99"]);
    p.wait_for("item-01");
    std::fs::write(&gate, "").unwrap();
    p.wait_for("--at: no item item-99");
    assert!(header(&p).contains("item-01"), "{}", header(&p));
    p.send("q");
    assert!(p.wait_exit().success());
}
