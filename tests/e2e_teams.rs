//! Teams (docs/teams.md), end to end: a C-VQA set split for three reviewers with overlap 2, each
//! reviewer grading their file in the real reviewer (a pseudo-terminal) with scripted
//! disagreements, then `merge` and `agree`; the kappas must equal a hand computation.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::{Pty, hand_kappa};

/// The scripted verdict of `reviewer` on item number `k` (1-based): a rejects items 1, 5
/// and 9; b rejects every third item; c rejects every even item.
fn verdict_of(reviewer: &str, k: usize) -> &'static str {
    match reviewer {
        "a" if k % 4 == 1 => "reject",
        "b" if k.is_multiple_of(3) => "reject",
        "c" if k.is_multiple_of(2) => "reject",
        _ => "accept",
    }
}

fn run(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn split_grade_in_the_reviewer_merge_agree() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/teams/cvqa12.jsonl"),
        d.join("set.jsonl"),
    )
    .unwrap();
    run(
        d,
        &[
            "split",
            "set.jsonl",
            "--reviewers",
            "a,b,c",
            "--overlap",
            "2",
            "--seed",
            "7",
            "-o",
            "parts",
        ],
    );

    // Who got which item, from the split files.
    let mut assigned: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for r in ["a", "b", "c"] {
        let text = std::fs::read_to_string(d.join(format!("parts/set.{r}.jsonl"))).unwrap();
        let ks: Vec<usize> = text
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["id"]
                    .as_str()
                    .unwrap()
                    .trim_start_matches("cvqa-")
                    .parse()
                    .unwrap()
            })
            .collect();
        assert_eq!(ks.len(), 8, "12 items × 2 / 3 reviewers");
        assigned.insert(r, ks);
    }

    // Each reviewer grades their file with keys: `a` accepts, `r` `1` rejects (ambiguous).
    // Auto-advance off, so that each verdict can be read on its item before moving on.
    std::fs::create_dir_all(d.join("config")).unwrap();
    std::fs::write(d.join("config/config.toml"), "auto_advance = false\n").unwrap();
    for (r, ks) in &assigned {
        let data = d.join("data").display().to_string();
        let config = d.join("config").display().to_string();
        let file = d.join(format!("parts/set.{r}.jsonl")).display().to_string();
        let mut p = Pty::spawn(
            [file.as_str(), "-r", r, "--at", "1"],
            &[
                ("VERDICT_DATA_DIR", data),
                ("VERDICT_CONFIG_DIR", config),
                ("VERDICT_FOLD_AFTER_MS", "60000".into()),
            ],
            // tall enough that the verdict line is on screen for every item
            120,
            60,
        );
        for (pos, k) in ks.iter().enumerate() {
            p.wait_for(&format!("cvqa-{k:02} · {}/{}", pos + 1, ks.len()));
            match verdict_of(r, *k) {
                "accept" => p.send("a"),
                _ => {
                    p.send("r");
                    p.wait_for("Reject: why?");
                    p.send("1");
                }
            }
            p.wait_for(&format!("{r} (me) {}", verdict_of(r, *k)));
            p.send("n");
        }
        p.send("q");
        assert!(p.wait_exit().success(), "{r}");
    }

    run(
        d,
        &[
            "merge",
            "parts/set.a.jsonl",
            "parts/set.b.jsonl",
            "parts/set.c.jsonl",
            "-o",
            "merged.jsonl",
        ],
    );
    let report: serde_json::Value =
        serde_json::from_str(&run(d, &["agree", "merged.jsonl", "--json"])).unwrap();
    let status = report["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["benchmark"] == "cvqa" && f["field"] == "status")
        .expect("a status field");
    assert_eq!(status["units_multi"], 12, "every item rated twice");
    eprintln!(
        "status: agreement {}, Fleiss {}, Krippendorff alpha {}",
        status["percent_agreement"],
        status["fleiss"]["kappa"],
        status["krippendorff_alpha"]["nominal"]
    );

    for (x, y) in [("a", "b"), ("a", "c"), ("b", "c")] {
        let shared: Vec<usize> = assigned[x]
            .iter()
            .filter(|k| assigned[y].contains(k))
            .copied()
            .collect();
        assert!(!shared.is_empty());
        let pairs: Vec<(&str, &str)> = shared
            .iter()
            .map(|&k| (verdict_of(x, k), verdict_of(y, k)))
            .collect();
        let pair = status["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["a"] == x && p["b"] == y)
            .unwrap_or_else(|| panic!("pair {x}-{y} in {status}"));
        assert_eq!(pair["units"], shared.len());
        let agreement = pairs.iter().filter(|(p, q)| p == q).count() as f64 / pairs.len() as f64;
        assert!((pair["agreement"].as_f64().unwrap() - agreement).abs() < 1e-9);
        let cats: std::collections::BTreeSet<&str> =
            pairs.iter().flat_map(|(p, q)| [*p, *q]).collect();
        if cats.len() < 2 {
            eprintln!(
                "{x}-{y}: {} shared items, one category only: kappa undefined",
                shared.len()
            );
            assert!(
                pair["cohen_kappa"].is_null(),
                "undefined with one category: {pair}"
            );
        } else {
            if let Some(k) = hand_kappa(&pairs) {
                let got = pair["cohen_kappa"].as_f64().unwrap();
                eprintln!(
                    "{x}-{y}: {} shared items, agreement {agreement:.3}, Cohen's kappa {got:.4} (by hand {k:.4})",
                    shared.len()
                );
                assert!((got - k).abs() < 1e-9, "{x}-{y}: agree {got}, by hand {k}");
            }
        }
    }
}
