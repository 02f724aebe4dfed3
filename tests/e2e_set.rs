//! End-to-end: a folder of lm-eval output read as one set by the real binary in a
//! pseudo-terminal (issue 39). Each verdict lands in its own samples file, every other
//! byte of the folder stays; kill -9 loses nothing.

mod common;

use std::path::{Path, PathBuf};

use common::Sandbox;

/// The lm-eval fixture folder (two models × three tasks × two runs, lm_eval 0.4.13).
fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/real-logs/lm-eval/set")
}

/// A sandbox with a copy of the fixture folder as `out`.
fn sandbox() -> Sandbox {
    let sb = Sandbox::new();
    for model in ["example__fixed-1b", "example__fixed-2b"] {
        let to = sb.path("out").join(model);
        std::fs::create_dir_all(&to).unwrap();
        for f in std::fs::read_dir(fixture().join(model)).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, to.join(f.file_name().unwrap())).unwrap();
        }
    }
    sb
}

const FIRST: &str = "example__fixed-1b/samples_vr_multi_2026-11-29T13-03-59.662655.jsonl";
const LAST: &str = "example__fixed-2b/samples_vr_vote_2026-11-29T13-04-13.792485.jsonl";

/// Line `n` (1-based) of `file` under the sandbox's `out` as JSON.
fn line(sb: &Sandbox, file: &str, n: usize) -> serde_json::Value {
    let text = std::fs::read_to_string(sb.path("out").join(file)).unwrap();
    serde_json::from_str(text.lines().nth(n - 1).unwrap()).unwrap()
}

/// Every file of `out` but `except` is as in the fixture, byte for byte; no journal left.
fn others_unchanged(sb: &Sandbox, except: &[&str]) {
    for model in ["example__fixed-1b", "example__fixed-2b"] {
        for f in std::fs::read_dir(sb.path("out").join(model)).unwrap() {
            let f = f.unwrap().path();
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            let rel = format!("{model}/{name}");
            assert!(!name.contains("verdict-journal"), "journal left: {rel}");
            if except.contains(&rel.as_str()) || name.starts_with('.') {
                continue;
            }
            assert_eq!(
                std::fs::read(&f).unwrap(),
                std::fs::read(fixture().join(&rel)).unwrap(),
                "{rel} changed"
            );
        }
    }
}

#[test]
fn a_folder_opens_as_one_set_and_each_verdict_lands_in_its_file() {
    let sb = sandbox();
    let mut p = sb.open("out", &[], 600_000);
    // one progress over the latest run of each task of both models: 30 lines
    let screen = p.wait_for("1/30");
    let header = screen.lines().next().unwrap();
    assert!(
        header.contains("vr_multi · example__fixed-1b · 2026-11-29T13-03-59"),
        "{header}"
    );
    p.send("2");
    p.wait_for("✔ journaled");
    p.send("G");
    p.wait_for("30/30");
    assert!(
        p.header().contains("vr_vote · example__fixed-2b"),
        "{}",
        p.header()
    );
    p.send("1");
    p.wait_for("2/30");
    p.send("q");
    assert!(p.wait_exit().success());
    assert_eq!(
        line(&sb, FIRST, 1)["reviews"]["erin"]["verdict"],
        "incorrect"
    );
    assert_eq!(line(&sb, LAST, 8)["reviews"]["erin"]["verdict"], "correct");
    assert!(line(&sb, FIRST, 2).get("reviews").is_none());
    others_unchanged(&sb, &[FIRST, LAST]);
}

#[test]
fn kill_9_in_a_set_loses_nothing() {
    let sb = sandbox();
    let mut p = sb.open("out", &[], 600_000);
    p.wait_for("1/30");
    p.send("G");
    p.wait_for("30/30");
    p.send("2");
    p.wait_for("✔ journaled");
    p.signal(libc::SIGKILL);
    p.wait_exit();
    let mut p = sb.open("out", &[], 600_000);
    p.wait_for("recovered 1 verdict from the journal");
    p.send("q");
    assert!(p.wait_exit().success());
    assert_eq!(
        line(&sb, LAST, 8)["reviews"]["erin"]["verdict"],
        "incorrect"
    );
    others_unchanged(&sb, &[LAST]);
}
