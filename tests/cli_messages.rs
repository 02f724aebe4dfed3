//! Messages say what happened, once, and name the file: an error chain does not repeat its
//! cause, a results file deleted mid-session is named as gone with the verdicts' place,
//! a device given as an image is not "empty"; and the reviewer's own messages (exit,
//! errors) show a hostile file name harmlessly.

mod common;

use std::path::Path;
use std::process::Command;

use common::Sandbox;

fn verdict(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn an_error_cause_is_printed_once() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.jsonl");
    let m = missing.to_str().unwrap();
    for args in [
        vec!["stats", m],
        vec!["agree", m],
        vec!["export", m, "--csv"],
        vec!["merge", m, "-o", "/nonexistent/never"],
        vec!["split", m, "--reviewers", "a,b", "-o", "/nonexistent/never"],
    ] {
        let o = verdict(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("missing.jsonl"), "{args:?}: {err}");
        assert_eq!(
            err.matches("(os error 2)").count(),
            1,
            "{args:?}: said once: {err}"
        );
    }
}

#[test]
fn a_device_is_not_an_empty_image() {
    let e = verdict::tui::image::decode_file(Path::new("/dev/urandom")).unwrap_err();
    assert!(!e.contains("empty"), "{e}");
    assert!(
        e.contains("/dev/urandom") && e.contains("not a regular file"),
        "{e}"
    );
}

/// The results file is deleted while the reviewer has it open: the next save cannot
/// write it. The reviewer names the file, says it is gone, and where the verdicts are;
/// nothing is created in its place; the exit status says the file was not updated.
#[test]
fn a_results_file_deleted_mid_session() {
    let sb = Sandbox::new();
    let mut p = sb.open("generic.jsonl", &["--image-protocol", "halfblocks"], 300);
    p.wait_for("generic.jsonl");
    std::fs::remove_file(sb.path("generic.jsonl")).unwrap();
    p.send("1");
    let screen = p.wait_for("is gone (deleted or moved)");
    assert!(screen.contains("generic.jsonl"), "{screen}");
    p.send("q");
    let status = p.wait_exit();
    std::thread::sleep(std::time::Duration::from_millis(200));
    let screen = p.contents();
    let journal = ".generic.jsonl.erin.verdict-journal";
    assert!(
        screen.contains("generic.jsonl is gone (deleted or moved)"),
        "{screen}"
    );
    assert!(screen.contains(journal), "the journal is named: {screen}");
    assert!(
        !sb.path("generic.jsonl").exists(),
        "nothing written in its place"
    );
    let j = std::fs::read_to_string(sb.path(journal)).unwrap();
    assert!(j.contains("\"pass\""), "the verdict is in the journal: {j}");
    assert_eq!(status.code(), Some(1), "{screen}");
}

/// A results file whose name holds escape sequences: the reviewer's exit message shows
/// them as visible stand-ins (the terminal's title is not set).
#[test]
fn the_reviewers_exit_message_shows_a_hostile_name_harmlessly() {
    let sb = Sandbox::new();
    let name = "t\u{1b}]0;PWNED\u{7}\u{1b}[31m\u{202e}.jsonl";
    std::fs::copy(sb.path("generic.jsonl"), sb.path(name)).unwrap();
    let mut p = sb.open(name, &["--image-protocol", "halfblocks"], 60_000);
    p.wait_for("mmlu");
    p.send("q");
    p.wait_exit();
    std::thread::sleep(std::time::Duration::from_millis(200));
    let screen = p.contents();
    assert!(
        screen.contains("every verdict is in")
            && screen.contains("t␛]0;PWNED^G␛[31m\\u{202e}.jsonl"),
        "{screen}"
    );

    // and in an error message: a folder by that name cannot be opened
    let dir = "d\u{1b}]0;PWNED\u{7}";
    std::fs::create_dir(sb.path(dir)).unwrap();
    let mut p = sb.open(dir, &["--image-protocol", "halfblocks"], 60_000);
    let status = p.wait_exit();
    std::thread::sleep(std::time::Duration::from_millis(200));
    let screen = p.contents();
    assert_eq!(status.code(), Some(2), "{screen}");
    assert!(screen.contains("d␛]0;PWNED^G"), "{screen}");
}

/// `verdict --help` names every kind of file the reviewer opens: the harnesses' logs too
/// (issue 36: it named only CHARTOM, CharToM-QA and C-VQA).
#[test]
fn the_help_names_the_harness_logs() {
    let out = verdict(&["--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    // (clap wraps the text to the terminal's width)
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.contains("lm-evaluation-harness sample logs"), "{text}");
    assert!(text.contains("Inspect AI eval logs"), "{text}");
}
