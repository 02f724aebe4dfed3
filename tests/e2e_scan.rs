//! End-to-end: the first screen before the file is read to its end (issue 21, "10M
//! items: first frame ≤ 1 s"). The reviewer scans a large file's lines in the background
//! and draws the first items at once. Every test holds that scan after its first items
//! at a gate (`VERDICT_TEST_SCAN_GATE=after:path`, which also scans a small file in the
//! background), so what the reviewer does while it runs is checked by order, never by
//! timing: the first screen is up while the scan is held, the count says it is not known
//! yet, no key shows an item the scan has not found, and a verdict given meanwhile lands
//! on its item.

mod common;

use std::path::Path;

use common::{Pty, Sandbox};

/// A generic set of `n` items, `item-01`, `item-02`, …
fn write_set(sb: &Sandbox, name: &str, n: usize) {
    let mut text = String::new();
    for k in 1..=n {
        text.push_str(&format!(
            "{{\"id\": \"item-{k:02}\", \"benchmark\": \"mmlu\", \"question\": \"question {k}?\", \
             \"answer\": \"{k}\", \"responses\": [{{\"model\": \"m\", \"text\": \"{k}\"}}]}}\n"
        ));
    }
    std::fs::write(sb.path(name), text).unwrap();
}

/// Open `file` as erin with the scan held after its first `after` items until `gate`
/// exists.
fn open(sb: &Sandbox, file: &str, after: usize, gate: &Path) -> Pty {
    sb.open_gated(file, after, gate, &[])
}

/// The screen's first row (the header).
fn header(p: &Pty) -> String {
    p.header()
}

#[test]
fn the_first_screen_is_up_while_the_file_is_still_read_and_says_so() {
    let sb = Sandbox::new();
    write_set(&sb, "set.jsonl", 40);
    let gate = sb.path("gate");
    let mut p = open(&sb, "set.jsonl", 3, &gate);
    p.wait_for("item-01");
    // The count is not known yet: said, not guessed.
    assert!(header(&p).contains("1/?"), "{}", header(&p));
    p.wait_for("still reading the file: 3 items so far");

    // Stepping within the items found; past them, a notice and the same item.
    p.send("n");
    p.wait_for("item-02");
    p.send("n");
    p.wait_for("item-03");
    assert!(header(&p).contains("3/?"), "{}", header(&p));
    p.send("n");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(header(&p).contains("item-03"), "{}", header(&p));
    // The last item is not known yet: no jump to the last one found.
    p.send("g");
    p.wait_for("item-01");
    p.send("G");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(header(&p).contains("item-01"), "{}", header(&p));
    // Nor a jump by number past them.
    p.send(":30\r");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(header(&p).contains("item-01"), "{}", header(&p));
    p.wait_for("no item 30 yet");
    assert!(p.running());

    // The scan ends: the count is known and every item can be reached.
    std::fs::write(&gate, "").unwrap();
    p.wait_for("1/40");
    // and nothing on screen still says it is being read (the notice of a key pressed
    // meanwhile is gone with it, once the screen knows: a tick at most)
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while p.with_screen(|s| s.contents().contains("still reading"))
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    p.with_screen(|s| {
        assert!(
            !s.contents().contains("still reading") && !s.contents().contains("no item 30 yet"),
            "{}",
            s.contents()
        )
    });
    p.send("G");
    p.wait_for("item-40");
    p.send(":30\r");
    p.wait_for("item-30");
    p.send("q");
    assert!(p.wait_exit().success());
}

#[test]
fn a_verdict_given_before_the_file_is_read_lands_on_its_item() {
    let sb = Sandbox::new();
    write_set(&sb, "set.jsonl", 40);
    let gate = sb.path("gate");
    let mut p = open(&sb, "set.jsonl", 3, &gate);
    p.wait_for("item-01");
    p.send("n");
    p.wait_for("item-02");
    p.send("2");
    p.wait_for("✔ journaled");
    // Quit while the scan is held: the fold waits for the whole file, then writes.
    p.send("q");
    std::thread::sleep(std::time::Duration::from_millis(300));
    std::fs::write(&gate, "").unwrap();
    assert!(p.wait_exit().success());
    let r = sb
        .review("set.jsonl", "item-02", "erin")
        .expect("erin's verdict");
    assert_eq!(r["verdict"], "fail", "{r}");
    for k in [1, 3, 40] {
        assert!(
            sb.review("set.jsonl", &format!("item-{k:02}"), "erin")
                .is_none()
        );
    }
    let lines = std::fs::read_to_string(sb.path("set.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 40, "every item is still in the file");
}

#[test]
fn quitting_before_the_file_is_read_needs_no_scan() {
    let sb = Sandbox::new();
    write_set(&sb, "set.jsonl", 40);
    let gate = sb.path("gate");
    let mut p = open(&sb, "set.jsonl", 3, &gate);
    p.wait_for("item-01");
    p.send("q");
    // Back while the scan is still held (nothing to write).
    assert!(p.wait_exit().success());
    assert!(!gate.exists());
}

#[test]
fn an_earlier_sessions_verdict_shows_on_its_item_when_the_file_is_read_in_the_background() {
    let sb = Sandbox::new();
    write_set(&sb, "set.jsonl", 40);
    let gate = sb.path("gate");
    std::fs::write(&gate, "").unwrap();
    // A session grades item 30 and is killed: its verdict is only in its journal.
    let mut p = open(&sb, "set.jsonl", 3, &gate);
    p.wait_for("1/40");
    p.send(":30\r");
    p.wait_for("item-30");
    p.send("1");
    p.wait_for("✔ journaled");
    p.signal(libc::SIGKILL);
    let _ = p.wait_exit();
    std::fs::remove_file(&gate).unwrap();

    // The next session (the scan held after 3 items) opens at the saved position (the
    // item after it, auto-advance) once the scan has reached it, and the verdict is on
    // item 30.
    let mut p = open(&sb, "set.jsonl", 3, &gate);
    std::thread::sleep(std::time::Duration::from_millis(500));
    std::fs::write(&gate, "").unwrap();
    p.wait_for("item-31");
    p.wait_for("recovered 1 verdict");
    p.send("p");
    p.wait_for("item-30");
    let screen = p.wait_for("erin");
    assert!(screen.contains("pass"), "{screen}");
    p.send("n");
    p.wait_for("item-31");
    assert!(p.with_screen(|s| s.contents()).contains("none yet"));
    p.send("q");
    assert!(p.wait_exit().success());
    assert_eq!(
        sb.review("set.jsonl", "item-30", "erin").unwrap()["verdict"],
        "pass"
    );
}

/// The kept index in the data folder (`data/index/<hash>.idx`), once a session has kept
/// it (20 s at most).
fn wait_for_kept_index(sb: &Sandbox) {
    let deadline = std::time::Instant::now() + common::WAIT;
    while std::time::Instant::now() < deadline {
        let kept = std::fs::read_dir(sb.path("data/index"))
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| e.path().extension().is_some_and(|x| x == "idx"));
        if kept {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    panic!("no index kept in {}", sb.path("data/index").display());
}

#[test]
fn a_reopen_with_the_kept_index_shows_the_saved_item_deep_in_the_file_at_once() {
    let sb = Sandbox::new();
    write_set(&sb, "set.jsonl", 40);
    let gate = sb.path("gate");
    std::fs::write(&gate, "").unwrap();
    // A session reads the whole file and keeps its index, goes to the last item and
    // quits there (nothing to write).
    let mut p = open(&sb, "set.jsonl", 3, &gate);
    p.wait_for("1/40");
    wait_for_kept_index(&sb);
    p.send("G");
    p.wait_for("item-40");
    p.send("q");
    assert!(p.wait_exit().success());
    std::fs::remove_file(&gate).unwrap();

    // The next session, the scan held after 3 items: the saved item, the last, is on
    // the first screen, the count known, and every item can be reached; no scan was
    // needed (its gate never opened).
    let mut p = open(&sb, "set.jsonl", 3, &gate);
    p.wait_for("item-40");
    assert!(header(&p).contains("40/40"), "{}", header(&p));
    p.send("p");
    p.wait_for("item-39");
    p.send(":20\r");
    p.wait_for("item-20");
    p.send("2");
    p.wait_for("✔ journaled");
    p.send("q");
    assert!(p.wait_exit().success());
    assert!(!gate.exists());
    assert_eq!(
        sb.review("set.jsonl", "item-20", "erin").unwrap()["verdict"],
        "fail"
    );
}
