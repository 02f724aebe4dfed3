//! Keypress-to-frame time of the reviewer on a generated result set (100k items by
//! default; `VERDICT_BENCH_ITEMS=N` to change): `State::update` for the key plus a full
//! `draw` into a ratatui TestBackend, at 80×24 and 200×50. Target: ≤ 5 ms per redraw.
//!
//! Run: `cargo bench --bench tui`

use std::io::BufWriter;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use verdict::store::Store;
use verdict::tui::app::{Clock, Effect, Msg, State};
use verdict::tui::keymap::Keymap;
use verdict::tui::theme::ThemeName;

fn key(c: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(c, KeyModifiers::NONE))
}

fn stats(mut v: Vec<Duration>) -> (f64, f64, f64) {
    v.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    (
        ms(v[v.len() / 2]),
        ms(v[v.len() * 99 / 100]),
        ms(*v.last().unwrap()),
    )
}

fn main() {
    let n: usize = std::env::var("VERDICT_BENCH_ITEMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.jsonl");
    {
        let f = std::fs::File::create(&path).unwrap();
        let mut w = BufWriter::new(f);
        verdict::synth::generate(n, 42, &mut w).unwrap();
    }
    let size = std::fs::metadata(&path).unwrap().len();
    let t = Instant::now();
    let store = Store::open(&path).unwrap();
    let open = t.elapsed();
    let t = Instant::now();
    let meta = verdict::tui::facts::index(&store, 2);
    let index = t.elapsed();
    println!(
        "{n} items, {:.0} MB: open {:.0} ms, background index {:.0} ms (2 threads; the screen is usable before it ends)",
        size as f64 / 1e6,
        open.as_secs_f64() * 1e3,
        index.as_secs_f64() * 1e3
    );
    println!(
        "{:<34} {:>9} {:>9} {:>9} {:>9}",
        "keypress → frame", "size", "median", "p99", "max"
    );
    for (w, h) in [(80u16, 24u16), (200, 50)] {
        let mut state = State::new(
            store.clone(),
            "bench".into(),
            Keymap::default(),
            ThemeName::Dark,
            Clock::now(),
        );
        state.update(Msg::Indexed {
            generation: 0,
            meta: meta.clone(),
        });
        state.size = (w, h);
        let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
        term.draw(|f| verdict::tui::draw::draw(&state, f)).unwrap();
        let mut seq = 1u64;
        let only = std::env::var("VERDICT_BENCH_ONLY").unwrap_or_default();
        let mut run = |label: &str, msgs: &mut dyn FnMut(&State) -> Vec<Msg>, reps: usize| {
            if !label.contains(only.as_str()) {
                return;
            }
            let mut times = Vec::with_capacity(reps);
            for _ in 0..reps {
                let batch = msgs(&state);
                let t = Instant::now();
                for m in batch {
                    state.clock = Clock::now();
                    for e in state.update(m) {
                        if let Effect::Record { seq: s, .. } = e {
                            // the IO worker's answer, as the loop would deliver it
                            state.update(Msg::Recorded {
                                seq: s,
                                result: Ok(()),
                            });
                            seq = seq.max(s);
                        }
                    }
                }
                term.draw(|f| verdict::tui::draw::draw(&state, f)).unwrap();
                times.push(t.elapsed());
            }
            let (med, p99, max) = stats(times);
            println!(
                "{label:<34} {:>9} {med:>8.3}ms {p99:>8.3}ms {max:>8.3}ms",
                format!("{w}x{h}")
            );
        };
        run(
            "next item (n)",
            &mut |_| vec![key(KeyCode::Char('n'))],
            2000,
        );
        run(
            "previous item (p)",
            &mut |_| vec![key(KeyCode::Char('p'))],
            2000,
        );
        run(
            "next ungraded (Space)",
            &mut |_| vec![key(KeyCode::Char(' '))],
            500,
        );
        run("scroll (j)", &mut |_| vec![key(KeyCode::Char('j'))], 2000);
        run(
            "grade: accept / 1 / bonus 1",
            &mut |s| {
                let c = match s.item().map(|i| i.benchmark()) {
                    Some(verdict::model::Benchmark::Cvqa) => 'a',
                    _ => '1',
                };
                vec![key(KeyCode::Char(c)), key(KeyCode::Char('n'))]
            },
            1000,
        );
        run("undo (u)", &mut |_| vec![key(KeyCode::Char('u'))], 500);
        run(
            "search: type one letter",
            &mut |s| {
                let mut v = Vec::new();
                if !matches!(s.mode, verdict::tui::app::Mode::Search(_)) {
                    v.push(key(KeyCode::Char('/')));
                }
                v.push(key(KeyCode::Char('e')));
                v
            },
            30,
        );
        run(
            "filter: toggle 'model wrong'",
            &mut |_| {
                vec![
                    key(KeyCode::Esc),
                    key(KeyCode::Char('F')),
                    key(KeyCode::Down),
                    key(KeyCode::Down),
                    key(KeyCode::Enter),
                    key(KeyCode::Esc),
                ]
            },
            20,
        );
        run(
            "help (?) open/close",
            &mut |_| vec![key(KeyCode::Char('?'))],
            200,
        );
    }
    // The search itself runs on the search worker: time from a keystroke to its results.
    for q in ["e", "ex", "exam", "flowers purple", "real-0004"] {
        let t = Instant::now();
        let r = verdict::tui::facts::search(&meta, q, None, 500);
        println!(
            "search worker: {q:<16} {:>8.1} ms ({} results kept)",
            t.elapsed().as_secs_f64() * 1e3,
            r.len()
        );
    }
}
