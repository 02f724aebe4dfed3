//! The file read again after another program changed it: the screen's thread never reads
//! the new file's items to find this session's items in it (every item of a 1M-item file
//! is seconds); keys pressed meanwhile act on the file shown and follow their items.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::store::{Scan, Store, test_hook};
use crate::tui::keymap::Keymap;
use crate::tui::theme::ThemeName;

use super::*;

/// A generic set `item-01` … `item-NN`, with `item-00` first when `prepended` (every item
/// one further down).
fn set_text(n: usize, prepended: bool) -> String {
    let from = if prepended { 0 } else { 1 };
    (from..=n)
        .map(|k| {
            format!(
                "{{\"id\": \"item-{k:02}\", \"benchmark\": \"mmlu\", \"question\": \"question {k}?\", \
                 \"answer\": \"x\", \"responses\": [{{\"model\": \"m\", \"text\": \"x\"}}]}}\n"
            )
        })
        .collect()
}

pub(super) fn state(p: &std::path::Path) -> State {
    let mut s = State::new(
        Store::open(p).unwrap(),
        "carol".into(),
        Keymap::default(),
        ThemeName::Mono,
        Clock::now(),
    );
    s.size = (80, 24);
    s
}

/// The file as another program left it (a line before every item), read again with its
/// items after the first `after` held back until `gate` exists: a file whose items take
/// long to read.
fn reread_held(p: &std::path::Path, after: usize, gate: &std::path::Path) -> Store {
    std::fs::write(p, set_text(40, true)).unwrap();
    test_hook::gate_scans(Some((after, gate.to_path_buf())));
    let store = Store::open_with(p, Scan::Background).unwrap();
    test_hook::gate_scans(None);
    store
}

/// Open `gate` after `wait`, on a thread of its own; the flag says it was opened.
fn open_later(
    gate: &std::path::Path,
    wait: Duration,
) -> (Arc<AtomicBool>, std::thread::JoinHandle<()>) {
    let opened = Arc::new(AtomicBool::new(false));
    let (o, g) = (opened.clone(), gate.to_path_buf());
    let h = std::thread::spawn(move || {
        std::thread::sleep(wait);
        o.store(true, Ordering::SeqCst);
        std::fs::write(g, "").unwrap();
    });
    (opened, h)
}

#[test]
fn the_file_read_again_is_not_read_on_the_screens_thread() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    std::fs::write(&p, set_text(40, false)).unwrap();
    let mut s = state(&p);
    s.goto(29, &mut Vec::new());
    assert_eq!(s.item_ref(s.pos).id.as_deref(), Some("item-30"));
    let gate = d.path().join("gate");
    let new = reread_held(&p, 5, &gate);
    let (opened, opener) = open_later(&gate, Duration::from_secs(5));
    let fx = s.update(Msg::Reloaded(new));
    assert!(
        !opened.load(Ordering::SeqCst),
        "the screen's thread waited for the new file's items"
    );
    // still on the file as it was, saying what is going on
    assert_eq!(s.pos, 29);
    assert!(s.reloading.is_waiting());
    assert!(status(&s).contains("changed on disk"), "{}", status(&s));
    opener.join().unwrap();
    // the remap thread's answer: item-30 is one further down now
    answer_remaps(&mut s, &fx);
    assert!(!s.reloading.is_waiting());
    assert_eq!(s.len(), 41);
    assert_eq!(s.pos, 30);
    assert_eq!(s.item_ref(s.pos).id.as_deref(), Some("item-30"));
}

fn status(s: &State) -> String {
    s.status.as_ref().map(|s| s.0.clone()).unwrap_or_default()
}

/// Hand `s` its store's index, as the index thread does.
pub(super) fn indexed(s: &mut State) {
    let meta = Arc::new(crate::tui::facts::index(&s.store, 1));
    s.update(Msg::Indexed {
        generation: s.index_generation,
        meta,
    });
}

/// Answer every `Effect::Remap` of `fx` as the remap thread does.
pub(super) fn answer_remaps(s: &mut State, fx: &[Effect]) -> Vec<Effect> {
    let mut out = Vec::new();
    for e in fx {
        if let Effect::Remap { seq, job } = e {
            let moves = Box::new(crate::tui::remap::Moves::work_out(job));
            out.extend(s.update(Msg::Remapped { seq: *seq, moves }));
        }
    }
    out
}

pub(super) fn key(s: &mut State, c: char) -> Vec<Effect> {
    s.update(Msg::Key(crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char(c),
        crossterm::event::KeyModifiers::NONE,
    )))
}

fn recorded_items(fx: &[Effect]) -> Vec<(usize, Option<String>)> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Record { item, id, .. } => Some((*item, id.clone())),
            _ => None,
        })
        .collect()
}

/// Keys pressed while the items are looked for act on the file shown (a verdict on the
/// item on screen, by its id); once the answer is taken up, that verdict, its undo and the
/// position follow their items, though none of them was held when the remap was asked.
#[test]
fn keys_pressed_while_the_file_is_taken_up_act_on_the_item_shown_and_follow_it() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    std::fs::write(&p, set_text(40, false)).unwrap();
    let mut s = state(&p);
    s.goto(4, &mut Vec::new());
    // item-06 skipped before the change
    s.goto(5, &mut Vec::new());
    key(&mut s, 'S');
    assert!(s.is_skipped(5));
    std::fs::write(&p, set_text(40, true)).unwrap();
    let fx = s.update(Msg::Reloaded(Store::open(&p).unwrap()));
    // meanwhile: on to item-10, fail it, on to item-11
    s.goto(9, &mut Vec::new());
    let rec = key(&mut s, '2');
    assert_eq!(recorded_items(&rec), vec![(9, Some("item-10".into()))]);
    s.goto(10, &mut Vec::new());
    assert_eq!(s.item_ref(s.pos).id.as_deref(), Some("item-11"));
    answer_remaps(&mut s, &fx);
    assert_eq!(s.pos, 11, "item-11, one further down");
    assert!(s.is_skipped(6), "item-06 stays skipped");
    assert!(!s.is_skipped(5));
    assert!(
        s.rec.mine.contains_key(&10),
        "my verdict on item-10 follows it"
    );
    assert!(s.rec.pending.values().all(|(i, _)| *i == 10));
    let undo = key(&mut s, 'u');
    assert_eq!(s.pos, 10, "undo goes to item-10");
    assert_eq!(recorded_items(&undo), vec![(10, Some("item-10".into()))]);
}

/// A second change read before the first is taken up replaces it: the answer about the
/// first is dropped, and the items follow into the newest file.
#[test]
fn a_newer_read_of_the_file_replaces_one_still_waiting() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    std::fs::write(&p, set_text(40, false)).unwrap();
    let mut s = state(&p);
    s.goto(19, &mut Vec::new());
    std::fs::write(&p, set_text(40, true)).unwrap();
    let first = s.update(Msg::Reloaded(Store::open(&p).unwrap()));
    s.update(Msg::ColleagueSaved("dave".into()));
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(
        &p,
        format!("{}{text}", set_text(0, true).replace("item-00", "item-x")),
    )
    .unwrap();
    let second = s.update(Msg::Reloaded(Store::open(&p).unwrap()));
    answer_remaps(&mut s, &first);
    assert!(
        s.reloading.is_waiting(),
        "the answer about the first read is dropped"
    );
    assert_eq!(s.pos, 19);
    answer_remaps(&mut s, &second);
    assert_eq!(s.len(), 42);
    assert_eq!(s.pos, 21, "item-20, two further down");
    assert!(
        status(&s).contains("dave's verdicts came in (42 items"),
        "{}",
        status(&s)
    );
}

/// Taking the file up lets go of the file as it was (closing the last descriptor of a file
/// renamed over frees its pages: 0.3 s of CPU at 1M items, measured) and of the ids read
/// (a million allocations) on a thread of its own (`Effect::Release`), not here.
#[test]
fn the_file_as_it_was_is_let_go_of_off_the_screens_thread() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    std::fs::write(&p, set_text(40, false)).unwrap();
    let mut s = state(&p);
    std::fs::write(&p, set_text(40, true)).unwrap();
    let fx = s.update(Msg::Reloaded(Store::open(&p).unwrap()));
    let taken_up = answer_remaps(&mut s, &fx);
    assert_eq!(s.len(), 41);
    assert!(
        taken_up.iter().any(|e| matches!(e, Effect::Release(_))),
        "{taken_up:?}"
    );
}

/// A generic item with `id` (none: no id) and `question`.
fn line(id: Option<&str>, question: &str) -> String {
    let id = id
        .map(|id| format!("\"id\": \"{id}\", "))
        .unwrap_or_default();
    format!(
        "{{{id}\"benchmark\": \"mmlu\", \"question\": \"{question}\", \"answer\": \"x\", \
         \"responses\": [{{\"model\": \"m\", \"text\": \"x\"}}]}}\n"
    )
}

/// Where the IO worker applies a verdict given on the old file's item `i` once the file
/// is read again (`session::reread` replays the journal with `session::Locator`).
fn where_the_worker_applies(old: &Store, new: &Store, i: usize) -> Option<usize> {
    let id = crate::bench::Items::item(old, i)
        .ok()
        .and_then(|it| it.into_fields().id);
    // (Recorded with its content when it has no id or another item has its id.)
    let shared = |id: &str| {
        let n = (0..old.len())
            .filter(|&j| {
                crate::bench::Items::item(old, j)
                    .ok()
                    .and_then(|it| it.into_fields().id)
                    .as_deref()
                    == Some(id)
            })
            .count();
        Some(n > 1)
    };
    let key = crate::session::needs_key(id.as_deref(), shared)
        .then(|| crate::session::content_key(old, i))
        .flatten();
    let r = crate::journal::Record {
        item: i,
        id,
        reviewer: String::new(),
        review: None,
        key,
    };
    crate::session::locate(new, &r).ok()
}

/// `set.jsonl` in `dir`: "a", "b", "a" (the first and the second a), and its text.
fn two_items_sharing_an_id(dir: &std::path::Path) -> (std::path::PathBuf, String) {
    let p = dir.join("set.jsonl");
    let text = [
        line(Some("a"), "first a?"),
        line(Some("b"), "b?"),
        line(Some("a"), "second a?"),
    ]
    .concat();
    std::fs::write(&p, &text).unwrap();
    (p, text)
}

/// Two items share an id (`check` warns of it, but such files are opened): my verdict on
/// the first of them, while another program appends an item, stays where the IO worker
/// applies it to the file (the item in its place), not on the other item with that id.
/// (Failed before: the screen took the last item with the id, the file got the first.)
#[test]
fn a_verdict_on_an_item_whose_id_another_shares_stays_where_the_file_gets_it() {
    let d = tempfile::tempdir().unwrap();
    let (p, text) = two_items_sharing_an_id(d.path());
    let mut s = state(&p);
    let old = Store::open(&p).unwrap();
    let rec = key(&mut s, '2');
    assert_eq!(recorded_items(&rec), vec![(0, Some("a".into()))]);
    std::fs::write(&p, format!("{text}{}", line(Some("c"), "c?"))).unwrap();
    let new = Store::open(&p).unwrap();
    let fx = s.update(Msg::Reloaded(new.clone()));
    answer_remaps(&mut s, &fx);
    assert_eq!(s.len(), 4);
    assert_eq!(where_the_worker_applies(&old, &new, 0), Some(0));
    let mine: Vec<usize> = s.rec.mine.keys().copied().collect();
    assert_eq!(
        mine,
        vec![0],
        "my verdict is on the first \"a\", as in the file"
    );
    assert_eq!(s.pos, 0);
}

/// Two items share an id and another program adds a line above them: my verdict on the
/// second stays on the second, on the screen and where the IO worker applies it (the
/// session records what the item is when another item has its id; an item whose id is
/// its own is recorded by id alone). Before, both took the first item with the id.
#[test]
fn a_verdict_on_the_second_of_two_items_sharing_an_id_follows_it_when_lines_are_added() {
    let d = tempfile::tempdir().unwrap();
    let (p, text) = two_items_sharing_an_id(d.path());
    let mut s = state(&p);
    indexed(&mut s);
    let old = Store::open(&p).unwrap();
    // Whether the IO worker keeps what the item is with the verdict's record.
    let content = |fx: &[Effect]| {
        fx.iter()
            .find_map(|e| match e {
                Effect::Record {
                    id, content, index, ..
                } => Some(
                    crate::tui::worker::record_key(
                        id.as_deref(),
                        content.as_ref(),
                        index.as_deref(),
                    )
                    .is_some(),
                ),
                _ => None,
            })
            .expect("a verdict recorded")
    };
    s.goto(1, &mut Vec::new());
    assert!(!content(&key(&mut s, '2')), "b's id is its own");
    s.goto(2, &mut Vec::new());
    assert!(content(&key(&mut s, '2')), "a's id is shared");
    std::fs::write(&p, format!("{}{text}", line(Some("c"), "c?"))).unwrap();
    let new = Store::open(&p).unwrap();
    let fx = s.update(Msg::Reloaded(new.clone()));
    answer_remaps(&mut s, &fx);
    assert_eq!(s.len(), 4);
    let mut mine: Vec<usize> = s.rec.mine.keys().copied().collect();
    mine.sort();
    assert_eq!(mine, vec![2, 3], "on b and on the second a");
    assert_eq!(where_the_worker_applies(&old, &new, 2), Some(3));
    assert_eq!(s.pos, 3);
}

/// The screen finds the old file's items in the new one exactly where the IO worker
/// applies a verdict on them: every index of files with shared ids, items without id
/// (alike and not), moved, removed and added items.
#[test]
fn the_screen_finds_every_item_where_the_worker_applies_its_verdicts() {
    let (a, b, c) = (Some("a"), Some("b"), Some("c"));
    let old = [
        line(a, "a1"),
        line(b, "b"),
        line(a, "a2"),
        line(None, "n1"),
        line(None, "n2"),
        line(None, "n2"),
        line(c, "c"),
    ];
    let news: [Vec<String>; 5] = [
        // the same items, one more at the end
        [old.to_vec(), vec![line(Some("d"), "d")]].concat(),
        // one more first: every item one further down
        [vec![line(Some("d"), "d")], old.to_vec()].concat(),
        // the first "a" gone
        old[1..].to_vec(),
        // reversed
        old.iter().rev().cloned().collect(),
        // the second "a" and an item without id moved first
        [
            vec![old[2].clone(), old[3].clone()],
            old[..2].to_vec(),
            old[4..].to_vec(),
        ]
        .concat(),
    ];
    let d = tempfile::tempdir().unwrap();
    let (po, pn) = (d.path().join("old.jsonl"), d.path().join("new.jsonl"));
    std::fs::write(&po, old.concat()).unwrap();
    let old_store = Store::open(&po).unwrap();
    for (k, new) in news.iter().enumerate() {
        std::fs::write(&pn, new.concat()).unwrap();
        let new_store = Store::open(&pn).unwrap();
        let job = crate::tui::remap::Job {
            old: old_store.clone(),
            new: new_store.clone(),
            meta: None,
            held: (0..old.len()).step_by(2).collect(),
        };
        let mut moves = crate::tui::remap::Moves::work_out(&job);
        for i in 0..old.len() {
            assert_eq!(
                moves.map(i),
                where_the_worker_applies(&old_store, &new_store, i),
                "new file {k}, old item {i}"
            );
        }
    }
}

/// The remap thread stopped on an error: the screen stops waiting for it, says so, and
/// stays on the file as it was, every key acting there (the IO worker records verdicts
/// by id). A later read of the file is taken up as usual.
#[test]
fn a_remap_thread_that_stops_on_an_error_is_not_waited_for() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    std::fs::write(&p, set_text(40, false)).unwrap();
    let mut s = state(&p);
    s.goto(9, &mut Vec::new());
    std::fs::write(&p, set_text(40, true)).unwrap();
    let fx = s.update(Msg::Reloaded(Store::open(&p).unwrap()));
    let seq = fx
        .iter()
        .find_map(|e| match e {
            Effect::Remap { seq, .. } => Some(*seq),
            _ => None,
        })
        .unwrap();
    s.update(Msg::WorkerFailed(crate::tui::app::Worker::Remap {
        seq: seq + 1,
    }));
    assert!(
        s.reloading.is_waiting(),
        "another ask's failure is not this one's"
    );
    s.update(Msg::WorkerFailed(crate::tui::app::Worker::Remap { seq }));
    assert!(!s.reloading.is_waiting());
    assert!(
        status(&s).contains("could not be taken up"),
        "{}",
        status(&s)
    );
    assert_eq!(s.len(), 40, "the file as it was");
    let rec = key(&mut s, '2');
    assert_eq!(recorded_items(&rec), vec![(9, Some("item-10".into()))]);
    // the next read of the file is taken up
    let fx = s.update(Msg::Reloaded(Store::open(&p).unwrap()));
    answer_remaps(&mut s, &fx);
    assert_eq!(s.len(), 41);
    assert!(s.rec.mine.contains_key(&10), "my verdict follows item-10");
}
