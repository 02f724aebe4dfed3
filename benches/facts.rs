//! The facts the background index keeps of every item (`tui::facts::facts_of_item`), and
//! the automatic grading inside them, on items already read: their CPU time on one thread
//! with nothing else of the index around them (the parse, the arenas, the merge).
//!
//! ```text
//! cargo bench --bench facts                     # 100k generated items (seed 42)
//! cargo bench --bench facts -- --sizes 200000 --runs 5
//! VERDICT_BENCH_FILE=/work/bench-data/synth-v1-n1000000-seed5eed2026.jsonl \
//!   cargo bench --bench facts -- --sizes 200000 # the first 200k items of that file
//! ```
//!
//! `--cvqa-only`, `--chartom-only`, `--facts-only`: that row alone (to profile it);
//! `--setup-only`: no row (what `perf stat` of a row less this is the row).
//!
//! Rows: every fact of every item; C-VQA's `response_wrong` of every C-VQA response;
//! CHARTOM's `fact_wrong` of every CHARTOM response. Each the median of the runs, in ms of
//! this thread's CPU (getrusage `RUSAGE_THREAD`) and wall. Under `cargo test` (no
//! `--bench`) it runs once on 1,000 items, as a smoke test. Results are in
//! `docs/performance.md`.

use std::hint::black_box;
use std::io::BufWriter;
use std::time::Instant;

use verdict::bench::{Benchmark, Item, Items};
use verdict::store::Store;
use verdict::tui::facts;

#[allow(dead_code)]
#[path = "support/synth/mod.rs"]
mod synth;

#[allow(dead_code)]
#[path = "support/args.rs"]
mod args;
use args::Args;

fn thread_cpu_ms() -> f64 {
    // SAFETY: getrusage fills the struct it is given.
    let r = unsafe {
        let mut r: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_THREAD, &mut r);
        r
    };
    let t = |v: libc::timeval| v.tv_sec as f64 * 1e3 + v.tv_usec as f64 / 1e3;
    t(r.ru_utime) + t(r.ru_stime)
}

/// Median (wall, CPU) in ms over `runs` runs, sorted by CPU.
fn time_cpu<T>(runs: usize, mut f: impl FnMut() -> T) -> (f64, f64) {
    let mut v: Vec<(f64, f64)> = (0..runs)
        .map(|_| {
            let (t, c) = (Instant::now(), thread_cpu_ms());
            black_box(f());
            (t.elapsed().as_secs_f64() * 1e3, thread_cpu_ms() - c)
        })
        .collect();
    v.sort_by(|a, b| a.1.total_cmp(&b.1));
    v.get(v.len() / 2).copied().unwrap_or((0.0, 0.0))
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() {
    let args = Args::parse();
    let smoke = !args.bench;
    let n = if smoke {
        1_000
    } else {
        args.sizes
            .as_ref()
            .and_then(|s| s.first().copied())
            .unwrap_or(100_000)
    };
    let runs = if smoke {
        1
    } else {
        args.runs.unwrap_or(5).max(1)
    };
    let dir = tempfile::tempdir().unwrap();
    let path = match std::env::var_os("VERDICT_BENCH_FILE").filter(|_| !smoke) {
        Some(p) => std::path::PathBuf::from(p),
        None => {
            let path = dir.path().join("bench.jsonl");
            let mut w = BufWriter::new(std::fs::File::create(&path).unwrap());
            synth::generate(n, 42, &mut w).unwrap();
            drop(w);
            path
        }
    };
    let store = Store::open(&path).unwrap();
    let n = n.min(store.len());
    let items: Vec<Item> = (0..n).filter_map(|i| store.item(i).ok()).collect();
    let count = |b: Benchmark| items.iter().filter(|i| i.benchmark() == b).count();
    let responses = |b: Benchmark| -> usize {
        items
            .iter()
            .filter(|i| i.benchmark() == b)
            .map(|i| i.responses.len())
            .sum()
    };
    println!(
        "\n== facts of {} items ({} C-VQA with {} responses, {} CHARTOM with {}), {runs} runs (medians), load {} ==",
        items.len(),
        count(Benchmark::Cvqa),
        responses(Benchmark::Cvqa),
        count(Benchmark::Chartom),
        responses(Benchmark::Chartom),
        load_average()
    );
    println!("| step | CPU (one thread) | wall |");
    println!("| --- | ---: | ---: |");
    // `--cvqa-only` etc.: one row (for a profile of it); `--setup-only`: none
    let only = ["facts", "cvqa", "chartom", "setup"]
        .into_iter()
        .find(|o| args.has(&format!("--{o}-only")));
    let row = |name: &str| only.is_none_or(|o| o == name);
    let (wall, cpu) = time_cpu(if row("facts") { runs } else { 0 }, || {
        let mut k = 0usize;
        for item in &items {
            facts::facts_of_item(item, &mut |_, name| k += name.len());
        }
        k
    });
    println!("| every fact of every item (`facts_of_item`) | {cpu:.0} ms | {wall:.0} ms |");
    let (cvqa, chartom): (Vec<&Item>, Vec<&Item>) = (
        items
            .iter()
            .filter(|i| i.benchmark() == Benchmark::Cvqa)
            .collect(),
        items
            .iter()
            .filter(|i| i.benchmark() == Benchmark::Chartom)
            .collect(),
    );
    let (wall, cpu) = time_cpu(if row("cvqa") { runs } else { 0 }, || {
        let mut k = 0usize;
        for item in &cvqa {
            for r in &item.responses {
                k += verdict::bench::cvqa::grade::response_wrong(item, &r.model) as usize;
            }
        }
        k
    });
    println!("| C-VQA `response_wrong`, every response | {cpu:.0} ms | {wall:.0} ms |");
    let (wall, cpu) = time_cpu(if row("chartom") { runs } else { 0 }, || {
        let mut k = 0usize;
        for item in &chartom {
            for r in &item.responses {
                k += verdict::bench::chartom::grade::fact_wrong(item, &r.model) as usize;
            }
        }
        k
    });
    println!("| CHARTOM `fact_wrong`, every response | {cpu:.0} ms | {wall:.0} ms |");
    println!("(load after: {})", load_average());
}
