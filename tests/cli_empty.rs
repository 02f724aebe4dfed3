//! Empty result sets through every subcommand and output mode: an empty file, a file of
//! blank lines, an empty JSON document, and a JSONL whose only item is unreadable. Each
//! command answers (no panic, no hang), says something sensible, and writes no side file
//! beside the input.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_verdict"))
}

/// Run with a deadline: an empty set must never make a command wait.
fn run(args: &[&str], cwd: &Path) -> Output {
    let mut child = bin()
        .args(args)
        .current_dir(cwd)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("verdict {args:?} did not finish on an empty set");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

const SETS: &[(&str, &str)] = &[
    ("empty.jsonl", ""),
    ("blank.jsonl", "\n\n   \n\r\n"),
    ("doc.json", r#"{"verdict": 1, "items": []}"#),
];

fn panicked(o: &Output) -> bool {
    let err = String::from_utf8_lossy(&o.stderr);
    err.contains("panicked") || o.status.code() == Some(101) || o.status.code().is_none()
}

#[test]
fn every_subcommand_answers_on_an_empty_set() {
    for (name, body) in SETS {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join(name), body).unwrap();
        let out = d.path().join("out");
        std::fs::create_dir(&out).unwrap();
        let cases: Vec<Vec<&str>> = vec![
            vec!["stats", name],
            vec!["stats", name, "--json"],
            vec!["check", name],
            vec!["check", name, "--json"],
            vec!["export", name, "--csv"],
            vec!["export", name, "--jsonl"],
            vec!["agree", name],
            vec!["agree", name, "--json"],
            vec!["merge", name, name, "-o", "out/merged.jsonl"],
            vec![
                "split",
                name,
                "--reviewers",
                "a,b",
                "--overlap",
                "1",
                "-o",
                "out",
            ],
        ];
        for args in cases {
            let o = run(&args, d.path());
            assert!(
                !panicked(&o),
                "{name}: verdict {args:?} crashed: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            assert!(
                matches!(o.status.code(), Some(0..=2)),
                "{name}: verdict {args:?}: status {:?}",
                o.status
            );
            if args.contains(&"--json") && o.status.success() {
                let v: Result<Value, _> = serde_json::from_slice(&o.stdout);
                assert!(v.is_ok(), "{name}: {args:?}: not JSON: {:?}", o.stdout);
            }
        }
        // stats and export succeed on a set with no items, with nothing to report
        for args in [vec!["stats", name], vec!["export", name, "--csv"]] {
            let o = run(&args, d.path());
            assert!(
                o.status.success(),
                "{name}: {args:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
        // nothing was created beside the input (no journal, no temporary)
        let beside: Vec<String> = std::fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != name && n != "out")
            .collect();
        assert!(beside.is_empty(), "{name}: left beside it: {beside:?}");
        // and the input is untouched
        assert_eq!(
            std::fs::read_to_string(d.path().join(name)).unwrap(),
            *body,
            "{name} was changed"
        );
    }
}

#[test]
fn stats_counts_zero_items_on_an_empty_set() {
    for (name, body) in SETS {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join(name), body).unwrap();
        let o = run(&["stats", name, "--json"], d.path());
        assert!(o.status.success(), "{name}");
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        let items = v
            .get("items")
            .or_else(|| v.pointer("/set/items"))
            .and_then(Value::as_u64);
        assert_eq!(items, Some(0), "{name}: {v}");
    }
}
