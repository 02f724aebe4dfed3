//! The reviewer at scale, on generated result sets (10k and 100k items; 1M with `--full`
//! or `VERDICT_BENCH_FULL=1`, ~1.9 GB written to a temporary folder and deleted after):
//!
//! - the background index (search and filters wait for it) next to its floors: a newline
//!   scan and a plain `serde_json::Value` parse of every line on the same two threads;
//! - search as you type (each keystroke of a query, on the search worker's code);
//! - filter toggles (`State::update` alone, then with the redraw);
//! - keypress → frame (`State::update` plus a full `draw` into a TestBackend) at 80×24 and
//!   200×50, median / p99 / max;
//! - private (anonymous) resident memory of this process from `/proc/self/smaps_rollup`
//!   with the store open and the index built, next to the file size.
//!
//! ```text
//! cargo bench --bench tui                  # 10k and 100k items
//! cargo bench --bench tui -- --full        # also 1M items
//! cargo bench --bench tui -- --sizes 100000
//! cargo bench --bench tui -- --sizes 100000 --keys-only   # filters and keys only
//! cargo bench --bench tui -- --sizes 1000000 --index-only  # floors, open and index only
//! cargo bench --bench tui -- --sizes 1000000 --index-only --busy  # and again with
//!     # another process busy on CPU 0 (`taskset -c 0 sh -c 'while …; do :; done'`)
//! cargo bench --bench tui -- --sizes 100000,1000000 --search-only  # up to the search rows
//!     # (keeps each size's index in target/bench-data/, 188 MB at 1M; a later run reads
//!     # it back and prints only the search rows, with their floor: the full scan)
//! cargo bench --bench tui -- --long-lines  # a 1 MB and a 20 MB line, per key
//! ```
//!
//! Under `cargo test --all-targets` (no `--bench` argument) it runs once on 1,000 items,
//! as a smoke test. Results are in `docs/performance.md`.

use std::hint::black_box;
use std::io::BufWriter;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use verdict::bench::Facet;
use verdict::store::Store;
use verdict::tui::app::{Clock, Effect, FilterOption, Mode, Msg, State};
use verdict::tui::facts::{self, SearchRequest};
use verdict::tui::keymap::Keymap;
use verdict::tui::theme::ThemeName;

// Each includer uses part of the generator.
#[allow(dead_code)]
#[path = "support/synth/mod.rs"]
mod synth;

#[path = "support/floors.rs"]
mod floors;
use floors::parse_lines_2t;

#[path = "support/args.rs"]
mod args;
use args::Args;

fn key(c: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(c, KeyModifiers::NONE))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// (median, p99, max) in ms.
fn spread(mut v: Vec<Duration>) -> (f64, f64, f64) {
    v.sort();
    (
        ms(v[v.len() / 2]),
        ms(v[(v.len() * 99 / 100).min(v.len() - 1)]),
        ms(*v.last().unwrap()),
    )
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// [`time`], with the median run's CPU time (all threads): on a machine shared with other
/// work, the CPU time is what one core alone would take (near enough).
fn time_cpu<T>(runs: usize, mut f: impl FnMut() -> T) -> (f64, f64) {
    let mut v: Vec<(f64, f64)> = (0..runs)
        .map(|_| {
            let (t, c) = (Instant::now(), cpu_ms());
            black_box(f());
            (ms(t.elapsed()), cpu_ms() - c)
        })
        .collect();
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    v[v.len() / 2]
}

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> f64 {
    let mut v: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            black_box(f());
            ms(t.elapsed())
        })
        .collect();
    median(&mut v)
}

/// Private (anonymous) resident memory of this process, in MB.
fn anon_mb() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/smaps_rollup").ok()?;
    let kb: f64 = s
        .lines()
        .find(|l| l.starts_with("Anonymous:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

fn state_for(store: &Store, meta: &facts::Index, w: u16, h: u16) -> State {
    let mut state = State::new(
        store.clone(),
        "bench".into(),
        Keymap::default(),
        ThemeName::Dark,
        Clock::now(),
    );
    state.update(Msg::Indexed {
        generation: 0,
        meta: meta.clone().into(),
    });
    state.size = (w, h);
    state
}

fn bench_size(n: usize, smoke: bool, keys_only: bool, index_only: bool, search_only: bool) {
    // `--runs n` overrides (a loaded machine, where each 1M run takes a minute).
    let runs = if smoke {
        1
    } else if let Some(r) = Args::parse().runs {
        r.max(1)
    } else if n >= 1_000_000 {
        3
    } else {
        5
    };
    // The search rows need only the index: kept from an earlier run when there is one.
    let kept = index_file(n);
    if search_only
        && !smoke
        && let Ok(told) = std::fs::read_to_string(kept.with_extension("told"))
        && let Some(meta) = facts::cache::load(&kept, &index_stamp(n), &told)
    {
        println!(
            "\n== {n} items, {runs} runs (medians); index read from {} ==",
            kept.display()
        );
        bench_search(&meta, runs, smoke);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // `VERDICT_BENCH_FILE`: a set generated before (the 10M run, benches/big.sh), used
    // as it is instead of generating one here.
    let path = match std::env::var_os("VERDICT_BENCH_FILE") {
        Some(p) => std::path::PathBuf::from(p),
        None => {
            let path = dir.path().join("bench.jsonl");
            let f = std::fs::File::create(&path).unwrap();
            let mut w = BufWriter::new(f);
            synth::generate(n, 42, &mut w).unwrap();
            path
        }
    };
    let size = std::fs::metadata(&path).unwrap().len();
    println!(
        "\n== {n} items, {:.0} MB, {runs} runs (medians) ==",
        size as f64 / 1e6
    );

    if keys_only {
        let store = Store::open(&path).unwrap();
        let meta = facts::index(&store, 2);
        bench_keys(&store, &meta, runs, smoke);
        return;
    }

    // ----- floors, on the file's bytes
    // Mapped, not read: a 10M set (19 GB) does not fit in memory beside the store's.
    let file = std::fs::File::open(&path).unwrap();
    // SAFETY: a read-only map of a file nothing else writes during the benchmark.
    let bytes = unsafe { memmap2::Mmap::map(&file) }.unwrap();
    let scan = time(runs, || memchr::memchr_iter(b'\n', &bytes[..]).count());

    // ----- open and index
    let anon_before = anon_mb();
    let open = time(runs, || Store::open(&path).unwrap());
    let store = Store::open(&path).unwrap();
    println!("| step | median | floor (same run) | × floor | target |");
    println!("| --- | ---: | --- | ---: | --- |");
    println!("| newline scan | {scan:.0} ms | | | |");
    println!(
        "| open (first frame's read) | {open:.0} ms | scan {scan:.0} ms | {:.1}× | ≤ 2× scan (store) |",
        open / scan
    );
    // The index next to its floors, quiet and (`--busy`) with another process busy on
    // one core; each row with the load average before it.
    let busy = std::env::args().any(|a| a == "--busy");
    let mut meta = None;
    for busy in [false, true].into_iter().filter(|&b| !b || busy) {
        let _busy = busy.then(Busy::start);
        let during = if busy { ", one core busy" } else { "" };
        let load = load_average();
        let (parse2, parse2_cpu) = time_cpu(runs, || parse_lines_2t(&bytes));
        let (index, index_cpu) = time_cpu(runs, || {
            meta = None;
            meta = Some(facts::index(&store, 2));
        });
        let after = load_average();
        println!(
            "| serde_json::Value parse, 2 threads{during} | {parse2:.0} ms (CPU {parse2_cpu:.0}) | | | load {load} |"
        );
        println!(
            "| index (search, filters ready){during} | {index:.0} ms (CPU {index_cpu:.0}) | Value parse {parse2:.0} ms | {:.2}× | ≤ 3 s after the first frame (load after: {after}) |",
            index / parse2
        );
    }
    let meta = meta.unwrap();
    let anon_index = anon_mb();
    // ----- reopen: the index kept by the last session, read back (checked) instead of
    // built; the floor is reading the cache file's bytes
    let stamp = store.stamp_text().unwrap();
    let told = facts::cache::told(&store);
    let cache = dir.path().join("bench.idx");
    facts::cache::save(&cache, &meta, &store, &stamp).unwrap();
    let cache_mb = std::fs::metadata(&cache).unwrap().len() as f64 / 1e6;
    let read_floor = time(runs, || std::fs::read(&cache).unwrap().len());
    let reopen = time(runs, || {
        assert!(facts::cache::load(&cache, &stamp, &told).is_some());
    });
    // What a first open does after the built index is handed to the screen (not on the
    // way to a ready screen since open21): the cache written (not yet fsynced), mapped
    // back, checked, and compared with the built index before it takes its place.
    let written = dir.path().join("written.idx");
    let (write, write_cpu) = time_cpu(runs, || {
        let w = facts::cache::write(&written, &meta, &store, &stamp).unwrap();
        assert!(w.index(&stamp).is_some_and(|kept| kept == meta));
    });
    println!(
        "| kept index written, mapped back, checked and compared (after the built index is handed over) | {write:.0} ms (CPU {write_cpu:.0}) | | | |"
    );
    println!(
        "| reopen: kept index read and checked ({cache_mb:.0} MB) | {reopen:.0} ms | read the file {read_floor:.0} ms | {:.1}× | ≤ 0.5 s after the first frame |",
        reopen / read_floor
    );
    // The store's part of a reopen: the offsets taken from the kept index (checked)
    // instead of a scan, so that any item is there at once.
    let kept_open = time(runs, || {
        let s = Store::open_with(&path, verdict::store::Scan::Kept(cache.clone())).unwrap();
        assert_eq!(s.len_so_far(), (store.len(), true));
    });
    println!(
        "| reopen: every item's offset from the kept index (no scan) | {kept_open:.0} ms | newline scan {scan:.0} ms | {:.2}× | |",
        kept_open / scan
    );
    if index_only {
        return;
    }
    if search_only && !smoke {
        // For the next run's search rows (188 MB at 1M).
        let _ = std::fs::create_dir_all(kept.parent().unwrap());
        let _ = facts::cache::save(&kept, &meta, &store, &index_stamp(n));
        // (What the generated file's path told its items, the kept index's too.)
        let _ = std::fs::write(kept.with_extension("told"), facts::cache::told(&store));
    }
    bench_search(&meta, runs, smoke);
    if search_only {
        return;
    }

    let anon_after = bench_keys(&store, &meta, runs, smoke);
    if let (Some(a), Some(b), Some(c)) = (anon_before, anon_index, anon_after) {
        // What opening, indexing, searching and filtering added to this process.
        let (b, c) = ((b - a).max(0.0), (c - a).max(0.0));
        let file_mb = size as f64 / (1024.0 * 1024.0);
        println!(
            "| private memory (Anonymous in smaps_rollup, MiB) | {b:.0} with the store and index; {c:.0} after search and filters | file {file_mb:.0} | {:.2}× | ≤ 0.3× file |",
            b.max(c) / file_mb
        );
    }
}

/// `--busy`: another process busy on one core (a shell's loop, pinned to CPU 0 by
/// `taskset` when there is one) while the index is timed, as when the reviewer's machine
/// is doing something else; killed when dropped.
struct Busy(std::process::Child);

impl Busy {
    fn start() -> Busy {
        // The loop ends with the bench (its parent), should the bench be killed.
        let spin = ["sh", "-c", "while kill -0 $PPID 2>/dev/null; do :; done"];
        let child = std::process::Command::new("taskset")
            .args(["-c", "0"])
            .args(spin)
            .spawn()
            .or_else(|_| std::process::Command::new(spin[0]).args(&spin[1..]).spawn())
            .expect("a busy process");
        // Let it get going before the first timing.
        std::thread::sleep(Duration::from_millis(200));
        Busy(child)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `target/bench-data/` of this build (as `benches/store.rs`), or `VERDICT_BENCH_DIR`.
fn data_dir() -> std::path::PathBuf {
    if let Some(d) = std::env::var_os("VERDICT_BENCH_DIR") {
        return d.into();
    }
    let exe = std::env::current_exe().expect("current_exe");
    exe.ancestors()
        .nth(3)
        .map(std::path::Path::to_path_buf)
        .unwrap_or_else(|| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"))
        .join("bench-data")
}

/// Where `--search-only` keeps the index of the generated set of `n` items.
fn index_file(n: usize) -> std::path::PathBuf {
    data_dir().join(format!("tui-index-{}.idx", index_stamp(n)))
}

/// What the kept index is of: the generator's version, the size and the seed.
fn index_stamp(n: usize) -> String {
    format!("synth-v{}-n{n}-seed42", synth::VERSION)
}

/// CPU time of this process so far (user and system, every thread), in ms: on a machine
/// shared with other work, what a keystroke cost whatever it had to wait for.
fn cpu_ms() -> f64 {
    // SAFETY: getrusage fills the struct it is given.
    let r = unsafe {
        let mut r: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut r);
        r
    };
    let t = |v: libc::timeval| v.tv_sec as f64 * 1e3 + v.tv_usec as f64 / 1e3;
    t(r.ru_utime) + t(r.ru_stime)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The search rows, on the search worker as the screen asks it: the index's texts handed
/// to nucleo and a first letter matched over all of them, then each query typed one letter
/// at a time, each keystroke timed until its matches (the best 500) are all there, the
/// same as `facts::search` finds.
fn bench_search(meta: &facts::Index, runs: usize, smoke: bool) {
    let shared = Arc::new(meta.clone());
    let (tx, rx) = std::sync::mpsc::channel();
    let mut worker = facts::SearchWorker::spawn(Box::new(move |seq, results| {
        let _ = tx.send((seq, results));
    }));
    let request = |seq: u64, query: &str| SearchRequest {
        seq,
        query: query.to_string(),
        meta: shared.clone(),
        within: None,
    };
    let answered = |seq: u64, want: &[usize]| {
        while rx.recv().map(|(s, r)| s != seq || r != want).unwrap() {}
    };
    let want = facts::search(meta, "e", None, facts::SEARCH_SHOWN);
    let t = Instant::now();
    worker.index(Some(&shared));
    worker.request(request(0, "e"));
    answered(0, &want);
    println!(
        "| search ready: every text given to nucleo, \"e\" matched over all | {:.0} ms | | | |",
        ms(t.elapsed())
    );
    println!(
        "| search as you type, each keystroke until its matches (ms) | median | p99 | max | load average before → after |"
    );
    println!("| --- | ---: | ---: | ---: | --- |");
    let queries = if smoke {
        &["how many"][..]
    } else {
        &["flowers purple", "how many", "real-0004", "aeiou", "real"][..]
    };
    let first: Vec<usize> = (0..meta.len().min(facts::SEARCH_SHOWN)).collect();
    let mut seq = 0;
    for q in queries {
        let wants: Vec<Vec<usize>> = (1..=q.len())
            .map(|end| facts::search(meta, &q[..end], None, facts::SEARCH_SHOWN))
            .collect();
        let load = load_average();
        let mut times = Vec::new();
        for _ in 0..runs {
            seq += 1;
            worker.request(request(seq, ""));
            answered(seq, &first);
            for end in 1..=q.len() {
                seq += 1;
                let t = Instant::now();
                worker.request(request(seq, &q[..end]));
                answered(seq, &wants[end - 1]);
                times.push(t.elapsed());
            }
        }
        let (med, p99, max) = spread(times);
        println!(
            "| {q:?} | {med:.0} | {p99:.0} | {max:.0} | {load} → {} |",
            load_average()
        );
    }
}

/// Filter toggles and keypress → frame; returns the private memory after the filter
/// toggles (before the keypress rows).
fn bench_keys(store: &Store, meta: &facts::Index, runs: usize, smoke: bool) -> Option<f64> {
    // ----- filter toggles: update alone
    {
        let mut state = state_for(store, meta, 80, 24);
        let opts = state.filter_options();
        let pick: Vec<FilterOption> = opts
            .iter()
            .filter(|o| {
                matches!(
                    o,
                    FilterOption::ModelWrong
                        | FilterOption::Ungraded
                        | FilterOption::Facet(Facet::ChartType | Facet::Version, _)
                        | FilterOption::Model(_)
                        | FilterOption::Disagreement
                )
            })
            .take(8)
            .cloned()
            .collect();
        let mut times = Vec::new();
        state.update(key(KeyCode::Char('F')));
        for _ in 0..runs.max(2) {
            for o in &pick {
                let at = opts.iter().position(|x| x == o).unwrap();
                if let Mode::Filter { selected } = &mut state.mode {
                    *selected = at;
                }
                let t = Instant::now();
                state.update(key(KeyCode::Enter));
                times.push(t.elapsed());
            }
        }
        let (med, p99, max) = spread(times);
        println!(
            "| filter toggle (update: visible list and every row's count) | {med:.2} ms (p99 {p99:.2}, max {max:.2}) | | | ≤ 5 ms |"
        );
        // Opening the menu again with nothing changed: the counts are kept, not counted.
        let mut times = Vec::new();
        for _ in 0..runs.max(2) {
            state.update(key(KeyCode::Esc));
            let t = Instant::now();
            state.update(key(KeyCode::Char('F')));
            times.push(t.elapsed());
        }
        let (med, p99, max) = spread(times);
        println!(
            "| filter menu opened again, nothing changed (counts kept) | {med:.2} ms (p99 {p99:.2}, max {max:.2}) | | | ≤ 5 ms |"
        );
        // The first menu after a verdict: every row is counted afresh.
        let mut times = Vec::new();
        for _ in 0..if smoke { 2 } else { 20 } {
            state.update(key(KeyCode::Esc));
            let c = match state.item().map(|i| i.benchmark()) {
                Some(verdict::bench::Benchmark::Cvqa) => 'a',
                _ => '1',
            };
            for e in state.update(key(KeyCode::Char(c))) {
                if let Effect::Record { seq, .. } = e {
                    state.update(Msg::Recorded {
                        seq,
                        result: Ok(()),
                    });
                }
            }
            let t = Instant::now();
            state.update(key(KeyCode::Char('F')));
            times.push(t.elapsed());
        }
        let (med, p99, max) = spread(times);
        println!(
            "| filter menu opened after a verdict (every row counted afresh) | {med:.2} ms (p99 {p99:.2}, max {max:.2}) | | | ≤ 5 ms |"
        );
    }
    let anon_after = anon_mb();

    // ----- keypress → frame
    println!();
    println!(
        "{:<34} {:>9} {:>9} {:>9} {:>9}",
        "keypress → frame", "size", "median", "p99", "max"
    );
    let reps = |r: usize| if smoke { 3 } else { r };
    for (w, h) in [(80u16, 24u16), (200, 50)] {
        let mut state = state_for(store, meta, w, h);
        let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
        term.draw(|f| verdict::tui::draw::draw(&state, f)).unwrap();
        let mut run = |label: &str, msgs: &mut dyn FnMut(&State) -> Vec<Msg>, reps: usize| {
            let mut times = Vec::with_capacity(reps);
            for _ in 0..reps {
                let batch = msgs(&state);
                let t = Instant::now();
                for m in batch {
                    state.clock = Clock::now();
                    for e in state.update(m) {
                        if let Effect::Record { seq, .. } = e {
                            // the IO worker's answer, as the loop would deliver it
                            state.update(Msg::Recorded {
                                seq,
                                result: Ok(()),
                            });
                        }
                    }
                }
                term.draw(|f| verdict::tui::draw::draw(&state, f)).unwrap();
                times.push(t.elapsed());
            }
            let (med, p99, max) = spread(times);
            println!(
                "{label:<34} {:>9} {med:>8.3}ms {p99:>8.3}ms {max:>8.3}ms",
                format!("{w}x{h}")
            );
        };
        run(
            "next item (n)",
            &mut |_| vec![key(KeyCode::Char('n'))],
            reps(2000),
        );
        run(
            "previous item (p)",
            &mut |_| vec![key(KeyCode::Char('p'))],
            reps(2000),
        );
        run(
            "next ungraded (Space)",
            &mut |_| vec![key(KeyCode::Char(' '))],
            reps(500),
        );
        run(
            "scroll (j)",
            &mut |_| vec![key(KeyCode::Char('j'))],
            reps(2000),
        );
        run(
            "grade: accept / 1 / bonus 1",
            &mut |s| {
                let c = match s.item().map(|i| i.benchmark()) {
                    Some(verdict::bench::Benchmark::Cvqa) => 'a',
                    _ => '1',
                };
                vec![key(KeyCode::Char(c)), key(KeyCode::Char('n'))]
            },
            reps(1000),
        );
        run(
            "undo (u)",
            &mut |_| vec![key(KeyCode::Char('u'))],
            reps(500),
        );
        run(
            "search: type one letter",
            &mut |s| {
                let mut v = Vec::new();
                if !matches!(s.mode, Mode::Search(_)) {
                    v.push(key(KeyCode::Char('/')));
                }
                v.push(key(KeyCode::Char('e')));
                v
            },
            reps(30),
        );
        run(
            "filter: toggle 'model wrong'",
            &mut |_| {
                vec![
                    key(KeyCode::Esc),
                    key(KeyCode::Char('F')),
                    key(KeyCode::Down),
                    key(KeyCode::Down),
                    key(KeyCode::Down),
                    key(KeyCode::Enter),
                    key(KeyCode::Esc),
                ]
            },
            reps(100),
        );
        let last_id = meta.id(meta.len() - 1).to_string();
        run(
            "jump to the last item's id (: id Enter)",
            &mut |s| {
                let mut v = Vec::new();
                if matches!(s.mode, Mode::Search(_)) {
                    v.push(key(KeyCode::Esc));
                }
                v.push(key(KeyCode::Char(':')));
                v.extend(last_id.chars().map(|c| key(KeyCode::Char(c))));
                v.push(key(KeyCode::Enter));
                v
            },
            reps(50),
        );
        run(
            "search, filter on: one letter",
            &mut |s| {
                let mut v = Vec::new();
                if s.filters.is_empty() {
                    // Once (the first run): "ungraded by me", the menu's first row, on.
                    if matches!(s.mode, Mode::Search(_)) {
                        v.push(key(KeyCode::Esc));
                    }
                    v.extend([
                        key(KeyCode::Char('F')),
                        key(KeyCode::Enter),
                        key(KeyCode::Esc),
                    ]);
                }
                if !matches!(s.mode, Mode::Search(_)) || !v.is_empty() {
                    v.push(key(KeyCode::Char('/')));
                }
                v.push(key(KeyCode::Char('e')));
                v
            },
            reps(200),
        );
        run(
            "help (?) open/close",
            &mut |s| {
                let mut v = Vec::new();
                if matches!(s.mode, Mode::Search(_)) {
                    // Once: out of the search the row above left open.
                    v.push(key(KeyCode::Esc));
                }
                v.push(key(KeyCode::Char('?')));
                v
            },
            reps(200),
        );
    }
    anon_after
}

fn main() {
    let mut args = Args::parse();
    if args.sizes.is_none() {
        args.sizes = std::env::var("VERDICT_BENCH_ITEMS")
            .ok()
            .and_then(|s| s.parse().ok())
            .map(|n| vec![n]);
    }
    let smoke = args.smoke();
    if smoke {
        println!("smoke run (cargo test); for figures run `cargo bench --bench tui`");
    }
    // `--keys-only`: only the filter toggles and keypress → frame (no floors, open, index
    // or search timings), for profiling the screen; `--index-only`: the floors, open and
    // the index.
    let (keys_only, index_only) = (args.has("--keys-only"), args.has("--index-only"));
    println!(
        "verdict reviewer benchmark; load average: {}",
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    if args.has("--long-lines") {
        bench_long_lines(smoke);
        return;
    }
    for n in args.sizes_or(&[10_000, 100_000], &[10_000, 100_000, 1_000_000]) {
        bench_size(n, smoke, keys_only, index_only, args.has("--search-only"));
    }
    if !keys_only && !index_only {
        bench_long_lines(smoke);
    }
}

/// An item whose question is one line of `mb` MB of words (issue 21: a 20 MB prompt), the
/// next item short: showing it (`p` from the next), a scroll key, a page down and a
/// scroll far down the line, each with its frame at 80×24; next to the floor of one pass over
/// the text (`str::is_ascii`) and a copy of it. Twice: a C-VQA question, and an lm-eval
/// gsm8k sample's prompt (a line in the harness's own layout, read by its sniffer), with
/// a verdict on it (`1`, `2`: each changes my review); and, each with a verdict, a
/// generic item's question, a CHARTOM question, a CharToM-QA context and an Inspect
/// sample's input (a text, and messages).
fn bench_long_lines(smoke: bool) {
    println!(
        "\nlong lines; load average: {}",
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    for mb in if smoke { vec![1] } else { vec![1, 20] } {
        let words = [
            "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
        ];
        let mut text = String::with_capacity(mb << 20);
        let mut k = 0usize;
        while text.len() < mb << 20 {
            text.push_str(words[k % words.len()]);
            text.push(' ');
            k = k.wrapping_mul(31).wrapping_add(7) % 1009;
        }
        let cvqa = |id: &str, q: &str| {
            serde_json::json!({
                "id": id, "benchmark": "cvqa", "split": "real", "group": "direct",
                "image": "none.png",
                "original": {"question": q, "answer": "5"},
                "counterfactual": {"question": "How many now?", "answer": "3"},
                "responses": [{"model": "m", "original": "5", "counterfactual": "3"}]
            })
            .to_string()
        };
        // lm-eval's own key order (`doc_id`, `doc`, `target`, `arguments`, `resps`,
        // `filtered_resps`, …): the prompt comes before the keys that say it is a sample.
        let lm_eval = |doc_id: usize, q: &str| {
            serde_json::json!({
                "doc_id": doc_id,
                "doc": {"question": "How many pencils are left?", "answer": "36 - 9 = 27.\n#### 27"},
                "target": "36 - 9 = 27.\n#### 27",
                "arguments": {"gen_args_0": {
                    "arg_0": format!("Question: {q}\nAnswer:"),
                    "arg_1": {"until": ["Question:", "</s>"], "do_sample": false, "temperature": 0.0}
                }},
                "resps": [[" She has 36 - 9 = 27.\n#### 27"]],
                "filtered_resps": ["27"],
                "filter": "strict-match",
                "metrics": ["exact_match"],
                "doc_hash": "16caecc1", "prompt_hash": "300cce62", "target_hash": "bfc265ea",
                "exact_match": 1.0
            })
            .to_string()
        };
        // Every other layout's long field (issue 21: each copied its item on a verdict):
        // a generic item's question, a CHARTOM question, a CharToM-QA context, an
        // Inspect sample's input as a text and as messages.
        let generic = |id: &str, q: &str| {
            serde_json::json!({
                "id": id, "benchmark": "mmlu", "subject": "astronomy", "question": q,
                "choices": ["Mercury", "Venus"], "key": 1,
                "responses": [{"model": "m", "text": "Mercury"}]
            })
            .to_string()
        };
        let chartom = |id: &str, q: &str| {
            serde_json::json!({
                "id": id, "benchmark": "chartom", "image": "none.png",
                "chart": {"pair": "G1_Q1", "version": "original", "type": "line"},
                "fact": {"question": q, "format": "number", "options": [], "key": 1.2,
                         "human_answers": [[1.2, 30], [6, 5]]},
                "mind": {"hmi": 0.2},
                "responses": [{"model": "m", "fact": "1.2", "mind": 0.2, "justification": "a reason"}]
            })
            .to_string()
        };
        let chartom_qa = |id: &str, c: &str| {
            serde_json::json!({
                "id": id, "benchmark": "chartom-qa", "book": "Pride and Prejudice",
                "character": "Elizabeth", "dimension": "belief",
                "context": {"0": "Short.", "1000": "Short, longer.", "2000": c},
                "question": "What does Elizabeth believe?", "answer": "That he is proud.",
                "bonus_points": ["proud", "unjust"],
                "responses": [{"model": "m", "text": "He is proud."}]
            })
            .to_string()
        };
        let inspect = |id: &str, input: serde_json::Value| {
            serde_json::json!({
                "id": id,
                "inspect_sample": {
                    "sample": id, "epoch": 1, "input": input, "target": ["A"],
                    "choices": ["yes", "no"], "completion": "ANSWER: A",
                    "messages": [{"role": "user", "text": "See the input."},
                                 {"role": "assistant", "text": "ANSWER: A"}],
                    "scores": [{"name": "choice", "value": "C", "original": "C", "answer": "A",
                                "explanation": "A", "edits": []}],
                    "headline": "choice",
                    "run": {"task": "t", "model": "mockllm/model", "format": "json", "status": "success"},
                    "harness": [{"scorer": "choice", "metric": "accuracy", "value": 1.0}],
                    "error": null
                }
            })
            .to_string()
        };
        let messages = |t: &str| {
            serde_json::json!([
                {"role": "system", "text": "Answer with a letter."},
                {"role": "user", "text": t}
            ])
        };
        type Make<'a> = &'a dyn Fn(&str, &str) -> String;
        let others: [(&str, Make); 5] = [
            ("generic question", &generic),
            ("CHARTOM question", &chartom),
            ("CharToM-QA context", &chartom_qa),
            ("Inspect input", &|id, t| inspect(id, serde_json::json!(t))),
            ("Inspect messages", &|id, t| inspect(id, messages(t))),
        ];
        for (what, make) in others {
            long_line_rows(
                mb,
                what,
                &text,
                "long.jsonl",
                &make("long", &text),
                &make("short", "How many?"),
                true,
                smoke,
            );
        }
        long_line_rows(
            mb,
            "C-VQA question",
            &text,
            "long.jsonl",
            &cvqa("long", &text),
            &cvqa("short", "How many?"),
            false,
            smoke,
        );
        long_line_rows(
            mb,
            "lm-eval prompt",
            &text,
            "example__m/samples_gsm8k_2026-11-20T10-15-42.518246.jsonl",
            &lm_eval(0, &text),
            &lm_eval(1, "How many?"),
            true,
            smoke,
        );
    }
}

/// The rows of one long item (`long`, its text `text`) followed by a short one, in a file
/// at `name` in a folder of its own; `grade`: also a verdict on it (`1`, then `2`).
#[allow(clippy::too_many_arguments)]
fn long_line_rows(
    mb: usize,
    what: &str,
    text: &str,
    name: &str,
    long: &str,
    short: &str,
    grade: bool,
    smoke: bool,
) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, format!("{long}\n{short}\n")).unwrap();
    let store = Store::open(&path).unwrap();
    let meta = facts::index(&store, 2);
    let mut state = state_for(&store, &meta, 80, 24);
    let mut term = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let reps = if smoke { 2 } else { 20 };
    let floor = time(reps, || text.is_ascii());
    let copy = time(reps, || text.to_string());
    // What showing the item cannot do without: parse its line (a plain `Value`).
    let parse = time(reps, || {
        serde_json::from_str::<serde_json::Value>(long).unwrap()
    });
    println!(
        "load average: {}",
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    // Each run presses `keys[run % keys.len()]` (the keys of one run, then its frame).
    let mut row = |label: &str, keys: &[&[KeyCode]], state: &mut State| {
        let mut times = Vec::new();
        for r in 0..reps {
            let t = Instant::now();
            for &k in keys[r % keys.len()] {
                state.update(key(k));
            }
            term.draw(|f| verdict::tui::draw::draw(state, f)).unwrap();
            times.push(t.elapsed());
        }
        let (med, p99, max) = spread(times);
        println!(
            "| {mb} MB {what}: {label}, with its frame at 80×24 | {med:.1} ms (p99 {p99:.1}, max {max:.1}) | one pass {floor:.1} ms, a copy {copy:.1} ms, the line's `Value` parse {parse:.1} ms | ≤ 50 ms |"
        );
    };
    row(
        "show it (n, p)",
        &[&[KeyCode::Char('n'), KeyCode::Char('p')]],
        &mut state,
    );
    row("scroll (j)", &[&[KeyCode::Char('j')]], &mut state);
    row("page down", &[&[KeyCode::PageDown]], &mut state);
    // Far down the line: three quarters of its rows (past 65,535 at 20 MB).
    let far = verdict::tui::draw::max_scroll(&state) * 3 / 4;
    state.scroll = far;
    row(
        &format!("scroll (j) at row {far}"),
        &[&[KeyCode::Char('j')]],
        &mut state,
    );
    if grade {
        // `1` and `2` in turn: each changes my verdict, so the item as shown changes.
        row(
            "a verdict (1, 2 in turn)",
            &[&[KeyCode::Char('1')], &[KeyCode::Char('2')]],
            &mut state,
        );
    }
}
