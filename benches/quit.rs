//! Quitting the reviewer with a verdict still to fold, on generated result sets: the real
//! `verdict` binary in a pseudo-terminal (the tests' harness), timed from the `q` key to
//! the process's exit (the shell is back) and to the end of the fold (the file holds the
//! verdict, the journal is gone), next to its floors measured in the same run:
//!
//! - quit with nothing to fold (the same file, the same session start): what any quit costs;
//! - `cp FILE COPY` + fsync of the copy: what any durable rewrite of the file costs (the
//!   fold's floor);
//! - the fold before exit (`VERDICT_FOLD_DETACH_ABOVE` set past the file's size), as every
//!   quit was before the fold moved to a process of its own.
//!
//! ```text
//! cargo bench --bench quit                    # 100k items
//! cargo bench --bench quit -- --full          # also 1M items (~1.9 GB in target/bench-data)
//! cargo bench --bench quit -- --sizes 1000000 --runs 3
//! ```
//!
//! Under `cargo test --all-targets` it runs once on 1,000 items, as a smoke test. The
//! generated files are shared with `benches/store.rs` (`target/bench-data/`); the copy each
//! run works on is deleted after. Results are in `docs/performance.md`.

#[path = "../tests/common/mod.rs"]
mod common;
// Each includer uses part of the generator.
#[allow(dead_code)]
#[path = "support/synth/mod.rs"]
mod synth;

// Quit has no switches of its own.
#[allow(dead_code)]
#[path = "support/args.rs"]
mod args;
use args::Args;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::Pty;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// `target/bench-data/` of this build (the bench binary is `target/<profile>/deps/quit-*`).
fn data_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("VERDICT_BENCH_DIR") {
        return PathBuf::from(d);
    }
    let exe = std::env::current_exe().expect("current_exe");
    exe.ancestors()
        .nth(3)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"))
        .join("bench-data")
}

/// The generated file for `n` items (seed as in `benches/store.rs`), made once.
fn data_file(n: usize) -> PathBuf {
    let dir = data_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!(
        "synth-v{}-n{n}-seed{:x}.jsonl",
        synth::VERSION,
        0x5eed_2026_u64
    ));
    if !path.exists() {
        let tmp = path.with_extension("jsonl.part");
        let mut f = File::create(&tmp).unwrap();
        synth::generate(n, 0x5eed_2026, &mut f).unwrap();
        f.sync_all().unwrap();
        std::fs::rename(&tmp, &path).unwrap();
    }
    path
}

fn locked(path: &Path) -> bool {
    use std::os::fd::AsRawFd;
    let Ok(f) = File::open(path) else {
        return false;
    };
    // SAFETY: flock on a descriptor we own; closing it releases what we took.
    unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) != 0 }
}

struct Run {
    /// `q` → the process has exited.
    exit: f64,
    /// `q` → the file holds the verdict and no fold runs.
    folded: f64,
}

/// Open `file` as "bench", accept the item shown (if `grade`), quit; time the quit.
fn session(dir: &Path, file: &Path, grade: bool, detach_above: u64) -> Run {
    let env = [
        ("VERDICT_DATA_DIR", dir.join("data").display().to_string()),
        (
            "VERDICT_CONFIG_DIR",
            dir.join("config").display().to_string(),
        ),
        ("VERDICT_FOLD_AFTER_MS", "600000".into()),
        ("VERDICT_FOLD_DETACH_ABOVE", detach_above.to_string()),
    ];
    let mut p = Pty::spawn(
        [
            file.display().to_string(),
            "-r".into(),
            "bench".into(),
            "--at".into(),
            "1".into(),
        ],
        &env,
        100,
        30,
    );
    let screen = p.wait_for(" me ");
    if grade {
        // A verdict on the first item whatever its benchmark: accept (C-VQA), or the
        // first model's grade 1 (CHARTOM, CharToM-QA; it toggles, a change either way).
        p.send(if screen.contains("· cvqa ·") {
            "a"
        } else {
            "1"
        });
        p.wait_for("✔ journaled");
    }
    let journal = verdict::journal::journal_path(file, "bench");
    let marker = verdict::journal::fold_marker_path(&journal);
    let t = Instant::now();
    p.send_raw(b"q");
    while p.running() {
        std::thread::sleep(Duration::from_micros(200));
    }
    let exit = t.elapsed();
    assert!(p.child.wait().unwrap().success());
    while journal.exists() || marker.exists() || locked(&marker) {
        assert!(
            t.elapsed() < Duration::from_secs(600),
            "the fold never ended"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    Run {
        exit: ms(exit),
        folded: ms(t.elapsed()),
    }
}

fn cp_fsync(file: &Path, dir: &Path) -> f64 {
    let copy = dir.join("copy.jsonl");
    let t = Instant::now();
    assert!(
        std::process::Command::new("cp")
            .arg(file)
            .arg(&copy)
            .status()
            .unwrap()
            .success()
    );
    File::open(&copy).unwrap().sync_all().unwrap();
    let d = ms(t.elapsed());
    std::fs::remove_file(&copy).unwrap();
    d
}

fn bench_size(n: usize, runs: usize) {
    let src = data_file(n);
    let dir = tempfile::tempdir_in(data_dir()).unwrap();
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::create_dir_all(dir.path().join("config")).unwrap();
    let file = dir.path().join("set.jsonl");
    std::fs::copy(&src, &file).unwrap();
    let size = std::fs::metadata(&file).unwrap().len();
    // Warm the page cache.
    let _ = std::fs::read(&file).map(|b| b.len());
    let (mut idle, mut cp, mut detached, mut detached_fold, mut inline) =
        (vec![], vec![], vec![], vec![], vec![]);
    for _ in 0..runs {
        idle.push(session(dir.path(), &file, false, 0).exit);
        cp.push(cp_fsync(&file, dir.path()));
        let d = session(dir.path(), &file, true, 0);
        detached.push(d.exit);
        detached_fold.push(d.folded);
        inline.push(session(dir.path(), &file, true, u64::MAX).exit);
    }
    let (idle, cp) = (median(idle), median(cp));
    let (detached, detached_fold, inline) =
        (median(detached), median(detached_fold), median(inline));
    println!(
        "\n== {n} items, {:.0} MB, {runs} runs (medians); load average {} ==",
        size as f64 / 1e6,
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    println!("| quit (`q` → …) | median | floor (same run) | × floor | target |");
    println!("| --- | ---: | --- | ---: | --- |");
    println!("| floor: quit with nothing to fold → exit | {idle:.0} ms | | | |");
    println!("| floor: `cp FILE COPY` + fsync | {cp:.0} ms | | | |");
    println!(
        "| one verdict to fold, detached → exit (the shell back) | {detached:.0} ms | quit {idle:.0} ms | {:.2}× | ≤ 0.5 s |",
        detached / idle
    );
    println!(
        "| — → the detached fold done (file holds it, journal gone) | {detached_fold:.0} ms | cp + fsync {cp:.0} ms | {:.2}× | |",
        detached_fold / cp
    );
    println!(
        "| one verdict to fold, folded before exit (as before) → exit | {inline:.0} ms | cp + fsync {cp:.0} ms | {:.2}× | |",
        inline / cp
    );
}

fn main() {
    let args = Args::parse();
    let smoke = args.smoke();
    if smoke {
        println!("smoke run (cargo test); for figures run `cargo bench --bench quit`");
    }
    for n in args.sizes_or(&[100_000], &[100_000, 1_000_000]) {
        let r = args.runs.unwrap_or(if smoke { 1 } else { 3 });
        bench_size(n, r);
    }
}
