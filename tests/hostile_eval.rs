//! Hostile Inspect `.eval` logs (issue 33, cases 7 and 8), from the corpus in
//! tests/fixtures/hostile-eval (written by its `make.py`): ZIP and Zstandard bombs,
//! lying sizes, a cut archive, duplicate, `../` and symlink entries. Each goes through
//! the real binary (`verdict check`), whose peak memory is measured (`wait4`); the
//! write-back of odd entries through the library.
//!
//! `VERDICT_TEST_BIN` runs the binary tests against another build (e.g. an older one, to
//! see them fail there). The child runs with its address space capped at 4 GiB, so a
//! bomb that is inflated after all fails fast rather than taking the machine's memory.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use verdict::bench::inspect::log;
use verdict::bench::inspect::zip::{self, Archive};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hostile-eval")
        .join(name)
}

/// What `verdict check [--json] FILE` did: its exit code (`None`: killed by a signal), its
/// output (stdout then stderr), its stdout alone, and its peak resident memory in KiB.
struct Run {
    code: Option<i32>,
    out: String,
    stdout: String,
    peak_kib: i64,
}

fn check(name: &str, json: bool) -> Run {
    let bin = std::env::var("VERDICT_TEST_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_verdict").to_string());
    let dir = tempfile::tempdir().unwrap();
    let (o, e) = (dir.path().join("out"), dir.path().join("err"));
    let mut cmd = Command::new(bin);
    cmd.arg("check");
    if json {
        cmd.arg("--json");
    }
    cmd.arg(fixture(name))
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&o).unwrap())
        .stderr(std::fs::File::create(&e).unwrap());
    // SAFETY: setrlimit is async-signal-safe; the closure allocates nothing.
    unsafe {
        cmd.pre_exec(|| {
            let cap = libc::rlimit {
                rlim_cur: 4 << 30,
                rlim_max: 4 << 30,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &cap) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    #[allow(clippy::zombie_processes)] // reaped by wait4, which gives its rusage
    let child = cmd.spawn().unwrap();
    let mut status = 0;
    // SAFETY: a zeroed rusage is valid; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4: {}", std::io::Error::last_os_error());
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    let stdout = std::fs::read_to_string(&o).unwrap();
    Run {
        code,
        out: stdout.clone() + &std::fs::read_to_string(&e).unwrap(),
        stdout,
        peak_kib: usage.ru_maxrss,
    }
}

/// What `verdict check` takes on a small real log (~16 MiB in a debug build): a bomb
/// refused before it is inflated stays within 64 MiB.
const PEAK_KIB: i64 = 64 << 10;

/// Case 7: each bomb is refused, naming its entry, without inflating it: the 3.5 GiB
/// sample of a 137 KB log (30,506:1), a 256 MiB deflate bomb (1,017:1), a 1 GiB
/// header.json, a ZIP64 entry that claims 16 GiB, and a sample that says 8 KB and
/// inflates to 16 MiB. (Before: `0 errors` for each, at a peak of 7.4 GB, 539 MB, 2.1 GB,
/// 16 MB and 48 MB in a debug build.)
#[test]
fn bombs_are_refused_naming_the_entry_without_inflating_them() {
    for (file, entry) in [
        ("zstd-bomb.eval", "samples/q1_epoch_1.json"),
        ("deflate-bomb.eval", "samples/q1_epoch_1.json"),
        ("header-1gib.eval", "header.json"),
        ("zip64-16gib.eval", "samples/q1_epoch_1.json"),
        ("lying-size.eval", "samples/q1_epoch_1.json"),
    ] {
        let r = check(file, false);
        assert_eq!(r.code, Some(2), "{file}: {}", r.out);
        assert!(r.out.contains(entry), "{file}: {}", r.out);
        assert!(
            r.peak_kib < PEAK_KIB,
            "{file}: peak {} KiB: {}",
            r.peak_kib,
            r.out
        );
    }
}

/// A refusal says how large the entry says it is, and the limits.
#[test]
fn a_bomb_is_refused_with_its_size_and_the_limits() {
    let r = check("zstd-bomb.eval", false);
    assert!(r.out.contains("inflates to 3758 MB"), "{}", r.out);
    assert!(r.out.contains("(1000 MB an entry, 1000:1)"), "{}", r.out);
    let r = check("lying-size.eval", false);
    assert!(r.out.contains("larger than its declared"), "{}", r.out);
}

/// Case 8: a `.eval` cut short (its last 40 bytes) is named a ZIP whose central directory
/// is cut (before: read as JSON lines, "invalid UTF-8 at line 1, column 15").
#[test]
fn a_cut_eval_is_named_a_zip_whose_central_directory_is_cut() {
    let r = check("cut.eval", false);
    assert_eq!(r.code, Some(2), "{}", r.out);
    assert!(
        r.out.contains("a ZIP archive whose central directory") && r.out.contains("is cut"),
        "{}",
        r.out
    );
    assert!(!r.out.contains("UTF-8"), "{}", r.out);
}

fn open(name: &str) -> (Vec<u8>, verdict::store::container::Opened) {
    let bytes = std::fs::read(fixture(name)).unwrap();
    let o = log::sniff(&fixture(name), &bytes)
        .expect("an Inspect log")
        .expect("readable");
    (bytes, o)
}

fn lines(o: &verdict::store::container::Opened) -> Vec<String> {
    String::from_utf8(o.lines.clone())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The lines with alice's `correct` on the item `id`, and what a save writes.
fn saved_with_a_verdict_on(o: &verdict::store::container::Opened, id: &str) -> Vec<u8> {
    let mut ls = lines(o);
    let k = ls
        .iter()
        .position(|l| serde_json::from_str::<Value>(l).unwrap()["id"] == json!(id))
        .unwrap_or_else(|| panic!("no item {id}"));
    let mut v: Value = serde_json::from_str(&ls[k]).unwrap();
    v["reviews"] = json!({"alice": {"verdict": "correct", "at": "2026-11-29T08:00:00Z"}});
    ls[k] = v.to_string();
    log::write_to_vec(o, &|i| ls.get(i).cloned()).unwrap()
}

fn entry(bytes: &[u8], name: &str) -> Value {
    let a = Archive::read(bytes).unwrap();
    serde_json::from_slice(&zip::read(bytes, a.entry(name).unwrap()).unwrap()).unwrap()
}

fn names(bytes: &[u8]) -> Vec<String> {
    let a = Archive::read(bytes).unwrap();
    a.entries.iter().map(|e| e.name.clone()).collect()
}

/// Case 8: of two entries of one name (a requeued sample Inspect logged again), the last
/// is read, once, as Inspect's reader does (before: both were items, and `check` counted
/// a duplicate id); a save writes it once.
#[test]
fn of_two_entries_of_one_name_the_last_is_read_once() {
    let r = check("duplicate.eval", true);
    assert_eq!(r.code, Some(0), "{}", r.out);
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(report["items"], json!(2), "{report}");

    let (_, o) = open("duplicate.eval");
    let ls = lines(&o);
    assert_eq!(ls.len(), 2);
    let q1: Value = serde_json::from_str(&ls[0]).unwrap();
    assert_eq!(q1["id"], json!("q1 (epoch 1)"));
    // the requeued q1 (`I`), not the first (`C`)
    assert_eq!(
        q1["inspect_sample"]["scores"][0]["value"],
        json!("I"),
        "{q1}"
    );
    let out = saved_with_a_verdict_on(&o, "q2 (epoch 1)");
    assert_eq!(
        names(&out),
        [
            "header.json",
            "samples/q1_epoch_1.json",
            "samples/q2_epoch_1.json"
        ]
    );
    assert_eq!(
        entry(&out, "samples/q1_epoch_1.json")["metadata"],
        json!({"requeued": true})
    );
}

/// Case 8: entry names that climb out of a folder (`../../../../tmp/…`) are only names:
/// the sample is read and graded as any other, and a save writes every entry back under
/// its own name, inside the log. (Passes before too: verdict never extracts.)
#[test]
fn names_with_dot_dot_are_names_only() {
    let (bytes, o) = open("dotdot.eval");
    let id = "../../../../tmp/climb (epoch 1)";
    assert!(
        lines(&o)
            .iter()
            .any(|l| l.contains("../../../../tmp/climb"))
    );
    let out = saved_with_a_verdict_on(&o, id);
    assert_eq!(names(&out), names(&bytes));
    let climb = entry(&out, "samples/../../../../tmp/climb_epoch_1.json");
    assert_eq!(climb["scores"]["choice"]["value"], json!("C"));
    let edit = climb["scores"]["choice"]["history"]
        .as_array()
        .unwrap()
        .last()
        .cloned();
    assert_eq!(edit.unwrap()["provenance"]["author"], json!("alice"));
}

/// Case 8: a symbolic link entry is never followed: one verdict does not read is copied
/// as it is (still a link, to the same text), and a sample that is one is refused,
/// naming it, without reading the file it names.
#[test]
fn symlink_entries_are_never_followed() {
    let (bytes, o) = open("symlink.eval");
    assert_eq!(lines(&o).len(), 2);
    let out = saved_with_a_verdict_on(&o, "q2 (epoch 1)");
    assert_eq!(names(&out), names(&bytes));
    let mut z = ::zip::ZipArchive::new(std::io::Cursor::new(&out[..])).unwrap();
    let mut link = z.by_name("_journal/link.json").unwrap();
    assert!(link.is_symlink());
    let mut target = String::new();
    std::io::Read::read_to_string(&mut link, &mut target).unwrap();
    assert_eq!(target, "../../../../etc/shadow");

    let r = check("symlink-sample.eval", false);
    assert_eq!(r.code, Some(2), "{}", r.out);
    assert!(
        r.out
            .contains("samples/link_epoch_1.json: a symbolic link, not a file"),
        "{}",
        r.out
    );
    assert!(!r.out.contains("root:"), "{}", r.out);
}
