//! `verdict ... | head`: when the reader closes the pipe, every command stops quietly, with
//! nothing on standard error and exit status 141 (128 + SIGPIPE, as a shell reports a
//! program that SIGPIPE stopped; see README "Exit status").

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn sample(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/samples")
        .join(name)
        .display()
        .to_string()
}

/// Run verdict with its standard output a pipe whose reading end is already closed, so
/// the first write fails with EPIPE.
fn run_into_closed_pipe(args: &[&str], dir: &Path) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let child = Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(args)
        .current_dir(dir)
        .env("VERDICT_DATA_DIR", dir.join("data"))
        .env("VERDICT_CONFIG_DIR", dir.join("config"))
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn every_command_stops_quietly_on_a_closed_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let cvqa = sample("cvqa.jsonl");
    let qa = sample("chartom-qa.jsonl");
    let questions = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/import/cvqa/questions_real.csv")
        .display()
        .to_string();
    let runs: Vec<Vec<&str>> = vec![
        vec!["stats", &cvqa],
        vec!["stats", &cvqa, "--json"],
        vec!["check", &cvqa, "--no-images"],
        vec!["check", &cvqa, "--json", "--no-images"],
        vec!["export", &cvqa, "--csv"],
        vec!["export", &cvqa, "--jsonl"],
        vec!["agree", &qa],
        vec!["agree", &qa, "--json"],
        vec!["merge", &cvqa, &qa, "-o", "merged.jsonl"],
        vec!["split", &cvqa, "--reviewers", "a,b", "-o", "split"],
        vec!["import", "cvqa", &questions, "-o", "imported.jsonl"],
        vec![],
        vec!["--help"],
        vec!["stats", "--help"],
        vec!["--version"],
    ];
    for args in runs {
        let o = run_into_closed_pipe(&args, dir.path());
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            "",
            "{args:?}: nothing on standard error"
        );
        assert_eq!(o.status.code(), Some(141), "{args:?}");
    }
}

/// Export writes row after row: a reader that takes the first line and leaves.
#[test]
fn export_into_head() {
    let dir = tempfile::tempdir().unwrap();
    // enough rows to fill the pipe
    let mut text = String::new();
    for i in 0..20_000 {
        text.push_str(&format!(
            "{{\"id\":\"i{i}\",\"benchmark\":\"mmlu\",\"question\":\"q\",\"responses\":[{{\"model\":\"m\",\"text\":\"a fairly long answer to fill the pipe quickly\"}}]}}\n"
        ));
    }
    let file = dir.path().join("big.jsonl");
    std::fs::write(&file, text).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(["export", file.to_str().unwrap(), "--csv"])
        .env("VERDICT_DATA_DIR", dir.path().join("data"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    std::io::Read::read_exact(&mut out, &mut first).unwrap();
    drop(out);
    let o = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
    assert_eq!(o.status.code(), Some(141));
}
