//! The store benchmark (targets in docs/performance.md): open, parse-all, stats, save after one
//! change and after changing every item, on generated result sets of 10k and 100k items
//! (and 1M with `--full` or `VERDICT_BENCH_FULL=1`), next to the floor on the same
//! machine: `cat` and `cp` of the file (with and without fsync), a newline scan (in
//! memory, and of the mapped file), a plain serde_json parse of every line, a plain write
//! with and without fsync. It also reports the private (anonymous) memory of a fresh
//! process that opens the file, parses every item and saves after one change.
//!
//! ```text
//! cargo bench --bench store                 # 10k and 100k items
//! cargo bench --bench store -- --full       # also 1M items (writes ~1.9 GB)
//! cargo bench --bench store -- --sizes 10000 --runs 3
//! VERDICT_BENCH_DIR=/work/big10m cargo bench --bench store -- --sizes 10000000 --generate-only
//! ```
//!
//! Under `cargo test --all-targets` (no `--bench` argument) it only runs once on 1,000
//! items in a temporary folder, as a smoke test.
//!
//! A plain binary (no criterion): every operation runs several times and the table shows
//! the median and the minimum. All figures are warm-cache (the file is read once before
//! timing, and `cat`/`cp` are measured the same way), since dropping the page cache needs
//! root. Generated files are kept in `target/bench-data/` and reused when the generator
//! version, size and seed match; files over 1 GB are deleted afterwards unless
//! `--keep-data` is given. Results are in `docs/performance.md`.

use std::fs::{self, File};
use std::hint::black_box;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use verdict::bench::Items;
use verdict::stats;
use verdict::store::Store;

// Each includer uses part of the generator.
#[allow(dead_code)]
#[path = "support/synth/mod.rs"]
mod synth;

#[path = "support/floors.rs"]
mod floors;
use floors::{parse_lines, parse_lines_2t};

#[path = "support/args.rs"]
mod args;
use args::Args;

const SEED: u64 = 0x5EED_2026;

/// Open ≤ 2× the newline scan of the file (map + memchr), save after one change
/// ≤ 1.2× (cp + fsync of the copy), private memory ≤ 0.3× the file.
const OPEN_VS_SCAN_FILE: f64 = 2.0;
const SAVE_ONE_VS_CP_FSYNC: f64 = 1.2;
const ANON_VS_FILE: f64 = 0.3;
/// stats ≤ 2× a plain parse.
const STATS_VS_PARSE: f64 = 2.0;

struct Options {
    sizes: Vec<usize>,
    runs: Option<usize>,
    keep_data: bool,
    /// Run by `cargo test --all-targets` (no `--bench` argument): one small size, once,
    /// in a temporary folder, to check that the benchmark still works.
    smoke: bool,
    /// `--stats-only`: only `stats::compute` and its floors, the plain parse of every line
    /// on one thread and on two (a 1M run in a minute or two, not ten).
    stats_only: bool,
    /// `--generate-only`: write the generated file of each size (kept) and stop: the
    /// 10M set measured by hand (docs/performance.md, "10M items").
    generate_only: bool,
}

fn options() -> Options {
    let args = Args::parse();
    let smoke = args.smoke();
    Options {
        sizes: args.sizes_or(&[10_000, 100_000], &[10_000, 100_000, 1_000_000]),
        runs: if smoke { Some(1) } else { args.runs },
        keep_data: args.has("--keep-data"),
        stats_only: args.has("--stats-only"),
        generate_only: args.has("--generate-only"),
        smoke,
    }
}

/// `target/` of this build (the bench binary is `target/<profile>/deps/store-*`).
fn data_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("VERDICT_BENCH_DIR") {
        return PathBuf::from(d);
    }
    let exe = std::env::current_exe().expect("current_exe");
    let target = exe
        .ancestors()
        .nth(3)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("bench-data")
}

/// The generated file for `n` items, made once and reused.
fn data_file(dir: &Path, n: usize) -> PathBuf {
    let path = dir.join(format!("synth-v{}-n{n}-seed{SEED:x}.jsonl", synth::VERSION));
    if path.exists() {
        println!("using {}", path.display());
        return path;
    }
    let tmp = path.with_extension("jsonl.part");
    let t = Instant::now();
    let mut f = File::create(&tmp).expect("create data file");
    synth::generate(n, SEED, &mut f).expect("generate");
    f.sync_all().expect("sync");
    drop(f);
    fs::rename(&tmp, &path).expect("rename data file");
    println!(
        "generated {} ({:.0} MB) in {:.1} s",
        path.display(),
        mb(fs::metadata(&path).unwrap().len()),
        t.elapsed().as_secs_f64()
    );
    path
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

/// Times of one operation.
struct Sample(Vec<Duration>);

impl Sample {
    fn median(&self) -> f64 {
        let mut v: Vec<f64> = self.0.iter().map(Duration::as_secs_f64).collect();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        }
    }
    fn min(&self) -> f64 {
        self.0
            .iter()
            .map(Duration::as_secs_f64)
            .fold(f64::INFINITY, f64::min)
    }
}

/// Run `f` `runs` times (after `setup`, which is not timed).
fn measure<S, T>(runs: usize, mut setup: impl FnMut() -> S, mut f: impl FnMut(S) -> T) -> Sample {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let s = setup();
        let t = Instant::now();
        let out = f(s);
        times.push(t.elapsed());
        black_box(out);
    }
    Sample(times)
}

fn run_process(cmd: &mut Command) {
    let st = cmd.stdout(Stdio::null()).status().expect("spawn");
    assert!(st.success(), "{cmd:?} failed");
}

struct Row {
    op: &'static str,
    sample: Sample,
    /// Name of the floor this row is compared with, and the floor's median.
    floor: Option<(&'static str, f64)>,
    /// Target budget in seconds and its description.
    target: Option<(f64, String)>,
}

fn fmt_secs(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 0.01 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{:.2} ms", s * 1e3)
    }
}

/// `stats::compute` (every core) next to the plain parse of every line, on one thread
/// (the target's floor) and on two, in the same run.
fn bench_stats(dir: &Path, n: usize, runs_opt: Option<usize>, keep_data: bool) {
    let path = data_file(dir, n);
    let runs = runs_opt.unwrap_or(if n <= 100_000 { 5 } else { 3 });
    println!(
        "\n== stats, {n} items, {:.1} MB, {runs} runs; load average before: {} ==",
        mb(fs::metadata(&path).unwrap().len()),
        loadavg()
    );
    // Mapped, not read: at 10M items (19 GB) a copy in memory would not fit beside the
    // store's own mapping on a 23 GB machine.
    let file = File::open(&path).unwrap();
    // SAFETY: a read-only map of a file nothing else writes during the benchmark.
    let bytes = unsafe { memmap2::Mmap::map(&file) }.unwrap();
    let plain = measure(runs, || (), |_| parse_lines(&bytes));
    let plain_2t = measure(runs, || (), |_| parse_lines_2t(&bytes));
    drop(bytes);
    let store = Store::open(&path).expect("open");
    let stats_t = measure(runs, || (), |_| stats::compute(&store));
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    println!("| operation | median | min | × plain parse (median) |");
    println!("| --- | ---: | ---: | ---: |");
    for (name, t) in [
        ("floor: plain parse (`Value`, one thread)", &plain),
        ("floor: plain parse, two threads", &plain_2t),
    ] {
        println!(
            "| {name} | {} | {} | {:.2}× |",
            fmt_secs(t.median()),
            fmt_secs(t.min()),
            t.median() / plain.median()
        );
    }
    println!(
        "| stats (`stats::compute`, {threads} threads) | {} | {} | {:.2}× |",
        fmt_secs(stats_t.median()),
        fmt_secs(stats_t.min()),
        stats_t.median() / plain.median()
    );
    println!("load average after: {}", loadavg());
    if !keep_data && fs::metadata(&path).map_or(0, |m| m.len()) > 1_000_000_000 {
        let _ = fs::remove_file(&path);
    }
}

fn bench_size(dir: &Path, n: usize, runs_opt: Option<usize>, keep_data: bool) {
    let path = data_file(dir, n);
    let bytes_len = fs::metadata(&path).unwrap().len();
    let (runs, runs_all) = match runs_opt {
        Some(r) => (r, r),
        None if n <= 10_000 => (15, 7),
        None if n <= 100_000 => (9, 5),
        None => (3, 2),
    };
    println!(
        "\n== {n} items, {:.1} MB, {runs} runs ({runs_all} for save-all); load average before: {} ==",
        mb(bytes_len),
        loadavg()
    );
    let work = dir.join("work");
    fs::create_dir_all(&work).unwrap();
    let copy = work.join("copy.jsonl");

    // Warm the page cache.
    let bytes = fs::read(&path).unwrap();

    // ----- floors
    let cat = measure(runs, || (), |_| run_process(Command::new("cat").arg(&path)));
    let cp = measure(
        runs,
        || {
            let _ = fs::remove_file(&copy);
        },
        |_| run_process(Command::new("cp").arg(&path).arg(&copy)),
    );
    let cp_fsync = measure(
        runs,
        || {
            let _ = fs::remove_file(&copy);
        },
        |_| {
            run_process(Command::new("cp").arg(&path).arg(&copy));
            File::open(&copy).unwrap().sync_all().unwrap();
        },
    );
    // What replacing a file costs beyond writing the new one: freeing the old one, whose
    // blocks are on disk (fsynced), as a saved results file's are. (On a file system
    // mounted with `discard` this includes the TRIM of its blocks.)
    let rm = measure(
        runs,
        || {
            run_process(Command::new("cp").arg(&path).arg(&copy));
            File::open(&copy).unwrap().sync_all().unwrap();
        },
        |_| run_process(Command::new("rm").arg(&copy)),
    );
    let write = measure(
        runs,
        || {
            let _ = fs::remove_file(&copy);
        },
        |_| {
            let mut f = File::create(&copy).unwrap();
            f.write_all(&bytes).unwrap();
        },
    );
    let write_fsync = measure(
        runs,
        || {
            let _ = fs::remove_file(&copy);
        },
        |_| {
            let mut f = File::create(&copy).unwrap();
            f.write_all(&bytes).unwrap();
            f.sync_all().unwrap();
        },
    );
    let _ = fs::remove_file(&copy);
    // What `Store::save` does before writing: the whole file copied into a new buffer.
    let copy_vec = measure(
        runs,
        || (),
        |_| {
            let mut v = Vec::with_capacity(bytes.len() + 1024);
            v.extend_from_slice(&bytes);
            v
        },
    );
    let scan = measure(
        runs,
        || (),
        |_| memchr::memchr_iter(b'\n', black_box(&bytes)).count(),
    );
    assert_eq!(memchr::memchr_iter(b'\n', &bytes).count(), n);
    // The open's floor: find every line of the file, from the file (mapped, warm cache).
    let scan_file = measure(
        runs,
        || (),
        |_| {
            let f = File::open(&path).unwrap();
            // SAFETY: a read-only map of a file nothing else writes during the benchmark.
            let m = unsafe { memmap2::Mmap::map(&f) }.unwrap();
            memchr::memchr_iter(b'\n', black_box(&m[..])).count()
        },
    );
    let plain_parse = measure(runs, || (), |_| parse_lines(&bytes));
    let plain_parse_2t = measure(runs, || (), |_| parse_lines_2t(&bytes));
    drop(bytes);

    // ----- the store
    let open = measure(runs, || (), |_| Store::open(&path).expect("open"));
    let store = Store::open(&path).unwrap();
    assert_eq!(store.len(), n);
    let parse_all = measure(
        runs,
        || (),
        |_| {
            let mut ok = 0usize;
            for i in 0..store.len() {
                if store.item(i).is_ok() {
                    ok += 1;
                }
            }
            assert_eq!(ok, n, "every generated item parses");
            ok
        },
    );
    let stats_t = measure(runs, || (), |_| stats::compute(&store));
    let st = stats::compute(&store);
    assert_eq!(st.items, n as u64);
    assert_eq!(st.unreadable, 0);
    drop(store);

    // save after one change: a copy of the file, one review set (a different item and
    // note each run, so the edit is never a no-op), then save.
    let work_file = work.join("store.jsonl");
    fs::copy(&path, &work_file).unwrap();
    let mut ws = Store::open(&work_file).unwrap();
    let mut k = 0usize;
    let save_one = measure(
        runs,
        || {
            k += 1;
            k
        },
        |k| {
            let i = (k * 7919) % n;
            ws.set_review(i, "bench", Some(review(k))).unwrap();
            ws.save().unwrap()
        },
    );
    drop(ws);
    // Private memory, in a process of its own (this one holds the floors' buffers).
    let mem = memory_child(&path, &work_file);

    // save after changing every item: a fresh copy each run (not timed); the edits and
    // the save are timed together, and the save alone.
    let mut edit_all_times = Vec::new();
    let save_all = measure(
        runs_all,
        || {
            fs::copy(&path, &work_file).unwrap();
            Store::open(&work_file).unwrap()
        },
        |mut s| {
            let t = Instant::now();
            for i in 0..n {
                s.set_review(i, "bench", Some(review(i))).unwrap();
            }
            edit_all_times.push(t.elapsed());
            let r = s.save().unwrap();
            assert_eq!(r.items_written, n);
            r
        },
    );
    let edit_all = Sample(edit_all_times);
    let save_all_write = Sample(
        save_all
            .0
            .iter()
            .zip(&edit_all.0)
            .map(|(a, e)| *a - *e)
            .collect(),
    );
    let _ = fs::remove_file(&work_file);
    let _ = fs::remove_dir(&work);
    if !keep_data && bytes_len > 1_000_000_000 {
        let _ = fs::remove_file(&path);
        println!(
            "deleted {} (over 1 GB; --keep-data keeps it)",
            path.display()
        );
    }

    let parse_m = plain_parse.median();
    let cp_m = cp.median();
    let wf_m = write_fsync.median();
    let cp_fsync_m = cp_fsync.median();
    let scan_file_m = scan_file.median();
    let rows = vec![
        Row {
            op: "floor: cat FILE > /dev/null",
            sample: cat,
            floor: None,
            target: None,
        },
        Row {
            op: "floor: cp FILE COPY",
            sample: cp,
            floor: None,
            target: None,
        },
        Row {
            op: "floor: cp FILE COPY, then fsync COPY",
            sample: cp_fsync,
            floor: Some(("cp", cp_m)),
            target: None,
        },
        Row {
            op: "floor: rm COPY (fsynced; free its blocks)",
            sample: rm,
            floor: None,
            target: None,
        },
        Row {
            op: "floor: write FILE (no fsync)",
            sample: write,
            floor: None,
            target: None,
        },
        Row {
            op: "floor: write FILE + fsync",
            sample: write_fsync,
            floor: None,
            target: None,
        },
        Row {
            op: "floor: copy into a new Vec",
            sample: copy_vec,
            floor: None,
            target: None,
        },
        Row {
            op: "floor: memchr newline scan",
            sample: scan,
            floor: None,
            target: None,
        },
        Row {
            op: "floor: serde_json Value parse, every line",
            sample: plain_parse,
            floor: None,
            target: None,
        },
        Row {
            op: "floor: same parse, 2 threads",
            sample: plain_parse_2t,
            floor: Some(("parse", parse_m)),
            target: None,
        },
        Row {
            op: "floor: newline scan of the file (map + memchr)",
            sample: scan_file,
            floor: None,
            target: None,
        },
        Row {
            op: "open (map + index)",
            sample: open,
            floor: Some(("scan", scan_file_m)),
            target: Some((OPEN_VS_SCAN_FILE * scan_file_m, "≤ 2× scan".into())),
        },
        Row {
            op: "parse-all (Store::item × n)",
            sample: parse_all,
            floor: Some(("parse", parse_m)),
            target: None,
        },
        Row {
            op: "stats (stats::compute)",
            sample: stats_t,
            floor: Some(("parse", parse_m)),
            target: Some((STATS_VS_PARSE * parse_m, "≤ 2× parse".into())),
        },
        Row {
            op: "save after one change",
            sample: save_one,
            floor: Some(("cp+fsync", cp_fsync_m)),
            target: Some((SAVE_ONE_VS_CP_FSYNC * cp_fsync_m, "≤ 1.2× cp+fsync".into())),
        },
        Row {
            op: "save after changing all: edits + save",
            sample: save_all,
            floor: Some(("write+fsync", wf_m)),
            target: None,
        },
        Row {
            op: "  of which set_review × n",
            sample: edit_all,
            floor: None,
            target: None,
        },
        Row {
            op: "  of which save",
            sample: save_all_write,
            floor: Some(("write+fsync", wf_m)),
            target: None,
        },
    ];
    print_table(n, bytes_len, &rows);
    // Private (anonymous) resident memory of a fresh process that opens the file, parses
    // every item once (stepping through the set) and saves after one change; see
    // `memory_child`.
    let file_kb = bytes_len / 1024;
    println!(
        "\nprivate memory (smaps_rollup Anonymous, own process), file {:.1} MB:",
        file_kb as f64 / 1024.0
    );
    for (what, kb) in [
        ("before open", mem[0]),
        ("after open (store alive)", mem[1]),
        ("after parsing every item once", mem[2]),
        ("peak during a save after one change", mem[3]),
    ] {
        let ratio = kb as f64 / file_kb.max(1) as f64;
        println!(
            "| {what} | {:.1} MB | {:.3}× file | {} |",
            kb as f64 / 1024.0,
            ratio,
            if ratio <= ANON_VS_FILE {
                "≤ 0.3× yes"
            } else {
                "≤ 0.3× **no**"
            }
        );
    }
    println!("load average after: {}", loadavg());
}

/// Run this binary as `--memory-child FILE WORK`: it prints the anonymous memory (KiB)
/// before open, after open, after parsing every item, and the peak (sampled every 2 ms)
/// during a save of WORK (a copy of FILE) after one change.
fn memory_child(path: &Path, work: &Path) -> [u64; 4] {
    fs::copy(path, work).unwrap();
    let out = Command::new(std::env::current_exe().unwrap())
        .arg("--memory-child")
        .arg(path)
        .arg(work)
        .output()
        .expect("run the memory child");
    let _ = fs::remove_file(work);
    let text = String::from_utf8_lossy(&out.stdout);
    let v: Vec<u64> = text
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert!(
        v.len() == 4,
        "memory child: {text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    [v[0], v[1], v[2], v[3]]
}

fn memory_child_main(path: &Path, work: &Path) {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    let before = anon_kb();
    let store = Store::open(path).unwrap();
    let after_open = anon_kb();
    let mut ok = 0;
    for i in 0..store.len() {
        ok += store.item(i).is_ok() as usize;
    }
    black_box(ok);
    let after_step = anon_kb();
    drop(store);
    let mut ws = Store::open(work).unwrap();
    let peak = Arc::new(AtomicU64::new(anon_kb()));
    let on = Arc::new(AtomicBool::new(true));
    let sampler = {
        let (peak, on) = (peak.clone(), on.clone());
        std::thread::spawn(move || {
            while on.load(Ordering::Relaxed) {
                peak.fetch_max(anon_kb(), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(2));
            }
        })
    };
    ws.set_review(ws.len() / 2, "bench", Some(review(1)))
        .unwrap();
    ws.save().unwrap();
    peak.fetch_max(anon_kb(), Ordering::Relaxed);
    on.store(false, Ordering::Relaxed);
    sampler.join().unwrap();
    println!(
        "{before} {after_open} {after_step} {}",
        peak.load(Ordering::Relaxed)
    );
}

/// Anonymous resident memory of this process in KiB (0 where /proc is not there).
fn anon_kb() -> u64 {
    fs::read_to_string("/proc/self/smaps_rollup")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Anonymous:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

fn loadavg() -> String {
    fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn review(k: usize) -> Value {
    json!({"at": "2026-03-01T12:00:00Z", "note": format!("bench run {k}")})
}

/// serde_json::Value of every line (the baseline the stats target is measured against).
fn print_table(n: usize, bytes: u64, rows: &[Row]) {
    println!();
    println!("| operation | items | median | min | MB/s | × floor | target | met |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |");
    for r in rows {
        let med = r.sample.median();
        let floor = r
            .floor
            .map(|(name, f)| format!("{:.2}× {name}", med / f))
            .unwrap_or_default();
        let (target, met) = match &r.target {
            Some((budget, desc)) => (
                format!("{desc} ({:.2} of budget)", med / budget),
                if med <= *budget { "yes" } else { "**no**" }.to_string(),
            ),
            None => (String::new(), String::new()),
        };
        println!(
            "| {} | {n} | {} | {} | {:.0} | {floor} | {target} | {met} |",
            r.op,
            fmt_secs(med),
            fmt_secs(r.sample.min()),
            mb(bytes) / med,
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 4 && args[1] == "--memory-child" {
        memory_child_main(Path::new(&args[2]), Path::new(&args[3]));
        return;
    }
    let opts = options();
    let tmp;
    let dir = if opts.smoke {
        println!("smoke run (cargo test); for figures run `cargo bench --bench store`");
        tmp = tempfile::tempdir().expect("temporary folder");
        tmp.path().to_path_buf()
    } else {
        data_dir()
    };
    fs::create_dir_all(&dir).expect("create bench data dir");
    println!(
        "verdict store benchmark: sizes {:?}, seed {SEED:#x}, data in {}",
        opts.sizes,
        dir.display()
    );
    for &n in &opts.sizes {
        if opts.generate_only {
            let path = data_file(&dir, n);
            println!("{}", path.display());
        } else if opts.stats_only {
            bench_stats(&dir, n, opts.runs, opts.keep_data);
        } else {
            bench_size(&dir, n, opts.runs, opts.keep_data);
        }
    }
}
