//! Files written from a results file (or from an import's sources) take the sources'
//! permission bits, whatever the umask (docs/teams.md, "Permissions"): a private 0600
//! results file never gives a world-readable split, merge, export or import output, and
//! a folder `split` creates is no more open than the source's folder and file allow.
#![cfg(unix)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output};

/// Run the verdict binary under `umask` (through `sh`, so the umask is the process's own).
fn verdict_umask(umask: &str, args: &[&str], dir: &Path) -> Output {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("umask {umask}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_verdict"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run verdict");
    assert!(
        out.status.success(),
        "verdict {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn mode(p: &Path) -> u32 {
    fs::metadata(p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .permissions()
        .mode()
        & 0o7777
}

fn chmod(p: &Path, m: u32) {
    fs::set_permissions(p, fs::Permissions::from_mode(m)).unwrap();
}

const SET: &str = "{\"id\":\"1\",\"benchmark\":\"cvqa\",\"question\":\"q\",\"answer\":\"a\"}\n\
{\"id\":\"2\",\"benchmark\":\"cvqa\",\"question\":\"q\",\"answer\":\"b\"}\n\
{\"id\":\"3\",\"benchmark\":\"cvqa\",\"question\":\"q\",\"answer\":\"c\"}\n";

#[test]
fn split_merge_export_of_a_private_file_stay_private_under_any_umask() {
    for umask in ["022", "000"] {
        let d = tempfile::tempdir().unwrap();
        let src = d.path().join("set.jsonl");
        fs::write(&src, SET).unwrap();
        chmod(&src, 0o600);
        chmod(d.path(), 0o755);

        verdict_umask(
            umask,
            &["split", "set.jsonl", "--reviewers", "a,b", "-o", "split"],
            d.path(),
        );
        for r in ["a", "b"] {
            let f = d.path().join(format!("split/set.{r}.jsonl"));
            assert_eq!(mode(&f), 0o600, "umask {umask}: {}", f.display());
        }
        // The folder split created: nobody else may list it (the file is 0600).
        assert_eq!(
            mode(&d.path().join("split")),
            0o700,
            "umask {umask}: split/"
        );

        // Merge: the most restrictive of the sources.
        chmod(&d.path().join("split/set.a.jsonl"), 0o640);
        verdict_umask(
            umask,
            &[
                "merge",
                "split/set.a.jsonl",
                "split/set.b.jsonl",
                "-o",
                "merged.jsonl",
            ],
            d.path(),
        );
        assert_eq!(mode(&d.path().join("merged.jsonl")), 0o600, "umask {umask}");

        // Export to a file: the source's bits.
        verdict_umask(
            umask,
            &["export", "set.jsonl", "--csv", "-o", "set.csv"],
            d.path(),
        );
        assert_eq!(mode(&d.path().join("set.csv")), 0o600, "umask {umask}");

        // Replacing an existing, more open output does not leave it open.
        fs::write(d.path().join("merged2.jsonl"), "").unwrap();
        chmod(&d.path().join("merged2.jsonl"), 0o644);
        verdict_umask(
            umask,
            &[
                "merge",
                "split/set.b.jsonl",
                "-o",
                "merged2.jsonl",
                "--force",
            ],
            d.path(),
        );
        assert_eq!(
            mode(&d.path().join("merged2.jsonl")),
            0o600,
            "umask {umask}"
        );
    }
}

#[test]
fn a_shared_file_gives_shared_outputs_less_the_umask() {
    // A group-readable set stays group-readable; the umask still applies on top.
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("set.jsonl");
    fs::write(&src, SET).unwrap();
    chmod(&src, 0o640);
    chmod(d.path(), 0o750);
    verdict_umask(
        "000",
        &["split", "set.jsonl", "--reviewers", "a,b", "-o", "split"],
        d.path(),
    );
    assert_eq!(mode(&d.path().join("split/set.a.jsonl")), 0o640);
    assert_eq!(mode(&d.path().join("split")), 0o750);
    verdict_umask(
        "027",
        &["split", "set.jsonl", "--reviewers", "a,b", "-o", "split2"],
        d.path(),
    );
    assert_eq!(mode(&d.path().join("split2/set.a.jsonl")), 0o640);
    chmod(&src, 0o644);
    verdict_umask(
        "077",
        &["split", "set.jsonl", "--reviewers", "a,b", "-o", "split3"],
        d.path(),
    );
    assert_eq!(mode(&d.path().join("split3/set.a.jsonl")), 0o600);
    assert_eq!(mode(&d.path().join("split3")), 0o700);
}

#[test]
fn import_of_private_csvs_stays_private() {
    for umask in ["022", "000"] {
        let d = tempfile::tempdir().unwrap();
        let csv = d.path().join("questions.csv");
        fs::copy("sample-data/import/questions.csv", &csv).unwrap();
        chmod(&csv, 0o600);
        verdict_umask(
            umask,
            &["import", "cvqa", "questions.csv", "-o", "out.jsonl"],
            d.path(),
        );
        assert_eq!(mode(&d.path().join("out.jsonl")), 0o600, "umask {umask}");
    }
}
