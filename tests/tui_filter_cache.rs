//! What the screen shows of the filters and progress is made from kept bit sets and
//! counts (for speed at a million items). Here a seeded walk of keys (verdicts, undo,
//! redo, skips, filters, blind mode, the adjudication queue, the file read again) checks
//! after every step that what is kept equals what each item, looked at one by one as it
//! stands now, says: every row's count, the visible items, the position "n/N", the
//! progress figures, and where `Space` (next ungraded) goes.

use std::path::Path;
use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use verdict::store::Store;
use verdict::tui::app::{Clock, Effect, Mode, Msg, State};
use verdict::tui::facts;
use verdict::tui::keymap::Keymap;
use verdict::tui::theme::ThemeName;

#[allow(dead_code)]
#[path = "support/synth/mod.rs"]
mod synth;

fn clock() -> Clock {
    Clock {
        instant: Instant::now(),
        utc: time::macros::datetime!(2026-11-22 10:00:00 UTC),
    }
}

/// Deliver `fx` as the loop would: every journal write succeeds.
fn deliver(s: &mut State, fx: Vec<Effect>) {
    for e in fx {
        if let Effect::Record { seq, .. } = e {
            s.update(Msg::Recorded {
                seq,
                result: Ok(()),
            });
        }
    }
}

fn key(s: &mut State, code: KeyCode, m: KeyModifiers) {
    let fx = s.update(Msg::Key(KeyEvent::new(code, m)));
    deliver(s, fx);
}

fn press(s: &mut State, code: KeyCode) {
    key(s, code, KeyModifiers::NONE);
}

fn indexed(s: &mut State) {
    let meta = facts::index(&s.store, 2);
    let generation = s.index_generation;
    s.update(Msg::Indexed {
        generation,
        meta: meta.into(),
    });
}

fn state_at(p: &Path, reviewer: &str) -> State {
    let mut s = State::new(
        Store::open(p).unwrap(),
        reviewer.into(),
        Keymap::default(),
        ThemeName::Mono,
        clock(),
    );
    indexed(&mut s);
    s
}

/// The filter menu's counts, kept or counted afresh, equal the items counted one by one.
fn check_counts(s: &mut State, step: &str) {
    press(s, KeyCode::Char('F'));
    assert!(matches!(s.mode, Mode::Filter { .. }), "{step}");
    let rows = s.filter_options();
    for (k, o) in rows.iter().enumerate() {
        let by_item = (0..s.len())
            .filter(|&i| s.option_holds(o, i) && s.passes_except(i, Some(o.group())))
            .count();
        assert_eq!(s.filter_counts[k], by_item, "{step}: the count of {o:?}");
    }
    press(s, KeyCode::Esc);
}

/// The visible items (right after the filters were applied) are the items that pass.
fn check_visible(s: &State, step: &str) {
    let by_item: Vec<usize> = (0..s.len()).filter(|&i| s.passes(i)).collect();
    match s.visible_items() {
        Some(v) => assert_eq!(v, by_item, "{step}: the visible items"),
        None => assert_eq!(by_item.len(), s.len(), "{step}: no filter, yet items fail"),
    }
}

/// The position "n/N" and the progress figures.
fn check_position_and_progress(s: &State, step: &str) {
    let want = match s.visible_items() {
        Some(v) => (
            v.iter().position(|&i| i == s.pos).map_or(0, |p| p + 1),
            v.len(),
        ),
        None => (s.pos + 1, s.len()),
    };
    assert_eq!(s.position_in_view(), want, "{step}: the position");
    let me = (0..s.len()).filter(|&i| s.graded_by_me(i)).count();
    let any = (0..s.len()).filter(|&i| s.graded_by_anyone(i)).count();
    assert_eq!(
        s.progress(),
        (me, Some(any), s.len()),
        "{step}: the progress"
    );
}

/// Where `Space` goes, item by item: the next visible item I have not graded nor skipped
/// after this one, else from the start; nowhere (this item) when there is none.
fn next_ungraded_by_item(s: &State) -> usize {
    let list = s.visible_items().unwrap_or_else(|| (0..s.len()).collect());
    let start = list.partition_point(|&i| i <= s.pos);
    list[start..]
        .iter()
        .chain(&list[..start])
        .copied()
        .find(|&i| i != s.pos && !s.graded_by_me(i) && !s.is_skipped(i))
        .unwrap_or(s.pos)
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

/// One seeded walk of `steps` keys over a generated set of `n` items, as `reviewer`.
fn walk(n: usize, seed: u64, reviewer: &str, steps: usize) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&p).unwrap());
        synth::generate(n, seed, &mut f).unwrap();
    }
    let mut s = state_at(&p, reviewer);
    let mut rng = Rng(seed);
    check_counts(&mut s, "start");
    check_position_and_progress(&s, "start");
    for k in 0..steps {
        let pick = rng.below(25);
        let mut applied = false;
        let what = match pick {
            5 => {
                let want = next_ungraded_by_item(&s);
                press(&mut s, KeyCode::Char(' '));
                assert_eq!(s.pos, want, "step {k}: Space from the item before");
                "Space".into()
            }
            0..=4 => {
                // a grade of whatever benchmark the item is
                let c = ['1', '2', '3', 'x', 'a', 'm'][rng.below(6)];
                press(&mut s, KeyCode::Char(c));
                format!("key {c}")
            }
            6 => {
                press(&mut s, KeyCode::Char('r'));
                press(&mut s, KeyCode::Char('1'));
                "reject".into()
            }
            7 | 8 => {
                press(&mut s, KeyCode::Char('u'));
                "undo".into()
            }
            9 => {
                key(&mut s, KeyCode::Char('r'), KeyModifiers::CONTROL);
                "redo".into()
            }
            10 | 24 => {
                press(&mut s, KeyCode::Char('S'));
                "skip".into()
            }
            11 | 12 => {
                let c = ['n', 'p', ' ', 'g', 'G'][rng.below(5)];
                let want = (c == ' ').then(|| next_ungraded_by_item(&s));
                press(&mut s, KeyCode::Char(c));
                if let Some(want) = want {
                    assert_eq!(s.pos, want, "step {k}: Space from the item before");
                }
                format!("move {c:?}")
            }
            13..=17 => {
                let rows = s.filter_options().len();
                let at = rng.below(rows);
                press(&mut s, KeyCode::Char('F'));
                for _ in 0..at {
                    press(&mut s, KeyCode::Down);
                }
                press(&mut s, KeyCode::Enter);
                press(&mut s, KeyCode::Esc);
                applied = true;
                format!("toggle row {at}")
            }
            18 => {
                press(&mut s, KeyCode::Char('X'));
                applied = true;
                "clear filters".into()
            }
            19 => {
                press(&mut s, KeyCode::Char('b'));
                applied = true;
                "blind".into()
            }
            20 => {
                press(&mut s, KeyCode::Char('D'));
                applied = true;
                "queue".into()
            }
            21 => {
                press(&mut s, KeyCode::Char('A'));
                "adjudicate".into()
            }
            22 => {
                let at = rng.below(n);
                s.goto(at, &mut Vec::new());
                format!("go to {at}")
            }
            23 => {
                // The file read again (as the IO worker does), with its index.
                let store = Store::open(&p).unwrap();
                let fx = s.update(Msg::Reloaded(store));
                // where the session's items are in it, as the remap thread answers
                let mut more = Vec::new();
                for e in &fx {
                    if let Effect::Remap { seq, job } = e {
                        let moves = Box::new(verdict::tui::remap::Moves::work_out(job));
                        more.extend(s.update(Msg::Remapped { seq: *seq, moves }));
                    }
                }
                deliver(&mut s, fx);
                deliver(&mut s, more);
                // its index came with the answer: the one a fresh build gives
                assert_eq!(
                    **s.meta.as_ref().expect("the new file's index"),
                    facts::index(&s.store, 2),
                    "step {k}: the index after the reload"
                );
                applied = true;
                "reload".into()
            }
            _ => unreachable!(),
        };
        if !matches!(s.mode, Mode::Normal) {
            press(&mut s, KeyCode::Esc);
        }
        let step = format!(
            "step {k}: {what} (filters {:?}, blind {})",
            s.filters, s.blind
        );
        if applied {
            check_visible(&s, &step);
        }
        check_position_and_progress(&s, &step);
        check_counts(&mut s, &step);
    }
}

#[test]
fn kept_counts_visible_items_position_and_progress_equal_the_items_one_by_one() {
    // Sets that end inside a 64-item word; ann has verdicts in the file, dora none.
    walk(301, 11, "ann", 150);
    walk(131, 12, "dora", 150);
}

/// `Space` passes over the items I skipped or graded, wraps to the start, and stays put
/// (saying so) when no item within the filters is left; each move as the items one by
/// one say.
#[test]
fn space_passes_over_skipped_and_graded_items_and_wraps() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&p).unwrap());
        synth::generate(131, 5, &mut f).unwrap();
    }
    let mut s = state_at(&p, "dora");
    let space = |s: &mut State, from: usize| {
        s.goto(from, &mut Vec::new());
        let want = next_ungraded_by_item(s);
        press(s, KeyCode::Char(' '));
        assert_eq!(s.pos, want, "Space from {from}");
        s.pos
    };
    s.goto(10, &mut Vec::new());
    press(&mut s, KeyCode::Char('S'));
    assert!(s.is_skipped(10));
    assert_eq!(space(&mut s, 9), 11, "the skipped item is passed over");
    assert_eq!(space(&mut s, 130), 0, "from the last item, the first");
    // Every item but the skipped one and the first graded (from the end, so that the
    // next item is never the one just graded by chance).
    for i in (1..131).rev() {
        if i == 10 {
            continue;
        }
        s.goto(i, &mut Vec::new());
        let Some(it) = s.item() else { continue };
        let keys: &[char] = match it.benchmark() {
            verdict::bench::Benchmark::Cvqa => &['a'],
            verdict::bench::Benchmark::ChartomQa => &['x', '0', 'm'],
            _ => &['1', 'm'],
        };
        for _ in 0..it.responses.len().max(1) {
            for &c in keys {
                press(&mut s, KeyCode::Char(c));
                if !matches!(s.mode, Mode::Normal) {
                    press(&mut s, KeyCode::Esc);
                }
            }
        }
    }
    let left: Vec<usize> = (0..131)
        .filter(|&i| !s.graded_by_me(i) && !s.is_skipped(i))
        .collect();
    assert!(left.contains(&0) && !left.contains(&10), "{left:?}");
    assert!(left.len() < 20, "{} items left", left.len());
    for from in [0, 9, 10, 11, 60, 130] {
        space(&mut s, from);
    }
    // Only the skipped item in view: nowhere to go.
    s.goto(10, &mut Vec::new());
    let rows = s.filter_options();
    let at = rows
        .iter()
        .position(|o| *o == verdict::tui::app::FilterOption::Skipped)
        .unwrap();
    press(&mut s, KeyCode::Char('F'));
    for _ in 0..at {
        press(&mut s, KeyCode::Down);
    }
    press(&mut s, KeyCode::Enter);
    press(&mut s, KeyCode::Esc);
    assert_eq!(s.visible_items(), Some(vec![10]));
    assert_eq!(space(&mut s, 10), 10);
    let said = s.status.as_ref().map(|(t, _)| t.as_str()).unwrap_or("");
    assert!(
        said.contains("every item here is graded by you or skipped"),
        "{said}"
    );
}
