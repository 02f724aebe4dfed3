//! Hostile Inspect `.eval` logs (issue 33, cases 7 and 8), from the corpus in
//! tests/fixtures/hostile-eval (written by its `make.py`): ZIP and Zstandard bombs,
//! lying sizes, a cut archive, duplicate, `../` and symlink entries. Each goes through
//! the real binary (`verdict check`), whose peak memory is measured (`wait4`); the
//! write-back of the odd names through the library.
//!
//! `VERDICT_TEST_BIN` runs the binary tests against another build (e.g. an older one, to
//! see them fail there). The child runs with its address space capped at 4 GiB, so a
//! bomb that is inflated after all fails fast rather than taking the machine's memory.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/hostile-eval")
        .join(name)
}

/// What `verdict check [--json] FILE` did: its exit code (`None`: killed by a signal), its
/// output (stdout then stderr) and its peak resident memory in KiB.
struct Run {
    code: Option<i32>,
    out: String,
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
    let out = std::fs::read_to_string(&o).unwrap() + &std::fs::read_to_string(&e).unwrap();
    Run {
        code,
        out,
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
