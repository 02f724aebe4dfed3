//! An item with one very long line (a prompt of megabytes, issue 21): a key on it wraps
//! only the rows on screen, not the whole line. The work of a key is counted as the
//! allocations it makes on this thread (the word wrapper allocates per word and per row
//! it wraps): it must not grow with the line's length. And the scroll indicator counts
//! the line's rows right (a count over 65,535 rows wrapped around before).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use verdict::store::Store;
use verdict::tui::app::Msg;
use verdict::tui::draw::render_to_string;
use verdict::tui::keymap::Keymap;

#[path = "support/state.rs"]
mod state;

#[path = "support/counting.rs"]
mod counting;
use counting::{BYTES, allocations};

#[path = "support/words.rs"]
mod words;
use words::words;

/// A C-VQA set whose first item's question is `question`.
fn store_with(dir: &std::path::Path, question: &str) -> Store {
    let item = serde_json::json!({
        "id": "long-1", "benchmark": "cvqa", "split": "real", "group": "direct",
        "image": "none.png",
        "original": {"question": question, "answer": "5"},
        "counterfactual": {"question": "How many now?", "answer": "3"},
        "responses": [{"model": "m", "original": "5", "counterfactual": "3"}]
    });
    let short = serde_json::json!({
        "id": "short-2", "benchmark": "cvqa", "split": "real", "group": "direct",
        "image": "none.png",
        "original": {"question": "How many apples?", "answer": "5"},
        "counterfactual": {"question": "How many now?", "answer": "3"},
        "responses": [{"model": "m", "original": "5", "counterfactual": "3"}]
    });
    let p = dir.join("long.jsonl");
    std::fs::write(&p, format!("{item}\n{short}\n")).unwrap();
    Store::open(&p).unwrap()
}

fn key(c: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(c, KeyModifiers::NONE))
}

/// The allocations of one scroll key and its frame at 80×24 on a question of `bytes`.
fn allocations_per_key(bytes: usize) -> u64 {
    let d = tempfile::tempdir().unwrap();
    let mut s = state::indexed_state(store_with(d.path(), &words(bytes)), Keymap::default());
    s.size = (80, 24);
    // the first frame, then a few keys to settle what is kept between frames
    render_to_string(&s, 80, 24);
    for _ in 0..3 {
        s.update(key(KeyCode::Char('j')));
        render_to_string(&s, 80, 24);
    }
    let (n, _) = allocations(|| {
        s.update(key(KeyCode::Char('j')));
        render_to_string(&s, 80, 24)
    });
    n
}

/// Before the index is ready, a frame on a long item without an id (an lm-eval sample:
/// every one has none) reads nothing of its line again: the header and the pane's title
/// name it from the item on screen. (Each parsed the whole line again for its `#1`, on
/// every frame until the index came: the first frame of a 20 MB prompt paid for three
/// parses of it, issue 21.)
/// An lm-eval run's samples (no ids), the first one's prompt `prompt`, the second short.
fn lm_eval_set(prompt: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("example__m");
    std::fs::create_dir(&dir).unwrap();
    let sample = |doc_id: usize, prompt: &str| {
        serde_json::json!({
            "doc_id": doc_id, "doc": {"question": "q"}, "target": "27",
            "arguments": {"gen_args_0": {"arg_0": format!("Question: {prompt}\nAnswer:"), "arg_1": {}}},
            "resps": [[" 27"]], "filtered_resps": ["27"], "filter": "strict-match",
            "metrics": ["exact_match"], "exact_match": 1.0
        })
    };
    let p = dir.join("samples_gsm8k_2026-11-20T10-15-42.518246.jsonl");
    let text = format!("{}\n{}\n", sample(0, prompt), sample(1, "How many?"));
    std::fs::write(&p, text).unwrap();
    (d, p)
}

#[test]
fn a_frame_before_the_index_does_not_read_a_long_item_without_an_id_again() {
    let (_d, p) = lm_eval_set(&words(2_000_000));
    let s = verdict::tui::app::State::new(
        Store::open(&p).unwrap(),
        "carol".into(),
        Keymap::default(),
        verdict::tui::theme::ThemeName::Mono,
        state::clock(),
    );
    assert!(s.meta.is_none(), "no index yet");
    let (_, screen) = allocations(|| render_to_string(&s, 80, 24));
    let bytes = BYTES.with(|b| b.get());
    assert!(screen.contains("lm-eval · #1"), "{screen}");
    assert!(screen.contains("Question: "), "{screen}");
    assert!(
        bytes < 1_000_000,
        "the first frame allocated {bytes} bytes on a 2 MB prompt"
    );
}

/// A verdict on a long item without an id (an lm-eval sample: every one has none) works
/// out the item's content key (`session::content_key`, what finds it again if lines are
/// added above it) off the screen's thread: the key press hands the IO worker the item's
/// text, shared, not copied (`Store::raw_shared`; before, a copy of the text; before that,
/// the whole line parsed into a `Value` and written out again: 256 ms on the screen's
/// thread for a 20 MB prompt, issue 21). The worker's key is the one `content_key` gives.
#[test]
fn a_verdict_on_a_long_item_without_an_id_leaves_its_key_to_the_worker() {
    let mb = 2_000_000;
    let (_d, p) = lm_eval_set(&words(mb));
    let mut s = state::indexed_state(Store::open(&p).unwrap(), Keymap::default());
    render_to_string(&s, 80, 24);
    let (_, fx) = allocations(|| s.update(key(KeyCode::Char('1'))));
    let bytes = BYTES.with(|b| b.get());
    let content = fx.iter().find_map(|e| match e {
        verdict::tui::app::Effect::Record { content, .. } => Some(content.clone()),
        _ => None,
    });
    let content = content
        .expect("a verdict is recorded")
        .expect("with the item's text");
    assert_eq!(
        content.as_str().and_then(verdict::session::content_key_of),
        verdict::session::content_key(&s.store, 0)
    );
    assert!(
        bytes < (mb / 10) as u64,
        "a verdict allocated {bytes} bytes on the screen's thread for a 2 MB item"
    );
}

#[test]
fn a_key_on_a_long_line_wraps_only_what_is_on_screen() {
    let small = allocations_per_key(200_000);
    let large = allocations_per_key(2_000_000);
    // Ten times the text: the same work, give or take a few allocations (today the
    // word wrapper's allocations grow with every word of the line).
    assert!(
        large <= small + small / 4 + 64,
        "allocations per key: {small} on 200 KB, {large} on 2 MB"
    );
    assert!(large < 20_000, "allocations per key on 2 MB: {large}");
}

#[test]
fn the_rows_of_a_long_line_are_counted_right() {
    let d = tempfile::tempdir().unwrap();
    // 78 columns inside the borders: a line of 78 × 70,000 ASCII letters (no spaces) is
    // 70,000 rows, more than a u16 counts.
    let text = "x".repeat(78 * 70_000);
    let s = state::indexed_state(store_with(d.path(), &text), Keymap::default());
    let screen = render_to_string(&s, 80, 24);
    let last = screen
        .lines()
        .rfind(|l| l.contains("lines "))
        .unwrap_or_default()
        .to_string();
    let total: u64 = last
        .split(" of ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no total in {last:?}\n{screen}"));
    assert!(total >= 70_000, "rows counted: {total}\n{screen}");
}

/// The total and the last row shown in the scroll indicator (`lines A–B of N`).
fn indicator(screen: &str) -> (u64, u64) {
    let last = screen
        .lines()
        .rfind(|l| l.contains("lines "))
        .unwrap_or_else(|| panic!("no indicator\n{screen}"));
    let range = last.split("lines ").nth(1).unwrap();
    let shown_to: u64 = range
        .split('–')
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no range in {last:?}"));
    let total: u64 = range
        .split(" of ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no total in {last:?}"));
    (shown_to, total)
}

#[test]
fn the_last_row_of_a_line_of_more_than_65535_rows_can_be_reached() {
    let d = tempfile::tempdir().unwrap();
    // 66,000 rows of 78 columns, the last one marked: more than a u16 scrolls to.
    let mut text = "x".repeat(78 * 65_999);
    text.push_str(&"z".repeat(77));
    text.push('!');
    let mut s = state::indexed_state(store_with(d.path(), &text), Keymap::default());
    s.scroll = 65_000;
    for _ in 0..80 {
        s.update(key(KeyCode::PageDown));
    }
    let screen = render_to_string(&s, 80, 24);
    let (shown_to, total) = indicator(&screen);
    assert!(total >= 66_000, "rows counted: {total}\n{screen}");
    assert_eq!(shown_to, total, "the last row is on screen\n{screen}");
    assert!(
        screen.contains("zzz!"),
        "the line's end is on screen\n{screen}"
    );
}

/// A C-VQA item whose question is `question`, with two responses and another reviewer's
/// verdict (blind mode hides it until mine is done).
fn reviewed_item(question: &str) -> String {
    serde_json::json!({
        "id": "long-1", "benchmark": "cvqa", "split": "real", "group": "direct",
        "image": "none.png",
        "original": {"question": question, "answer": "5"},
        "counterfactual": {"question": "How many now?", "answer": "3"},
        "responses": [
            {"model": "m", "original": "5", "counterfactual": "3"},
            {"model": "n", "original": "4", "counterfactual": "3"}
        ],
        "reviews": {"dave": {"verification": "accepted", "note": "dave's note"}}
    })
    .to_string()
}

/// The screen drawn from the panes kept between frames, and drawn again from panes laid
/// out anew: they must be the same.
fn same_kept_and_anew(s: &verdict::tui::app::State, what: &str) {
    let (w, h) = s.size;
    let kept = {
        render_to_string(s, w, h);
        render_to_string(s, w, h)
    };
    s.forget_layout();
    let anew = render_to_string(s, w, h);
    assert_eq!(kept, anew, "{what}: the kept panes are stale");
}

#[test]
fn the_kept_layout_is_the_one_laid_out_anew_at_every_scroll_and_after_every_change() {
    let d = tempfile::tempdir().unwrap();
    // A long line of ASCII words and one of other letters (cut by characters, with marks
    // every 64 rows), each past the 32 KiB of a word-wrapped line.
    let question = format!(
        "{}\n{}",
        words(40_000),
        "日本語のテキスト é à ".repeat(1_500)
    );
    let p = d.path().join("long.jsonl");
    std::fs::write(&p, format!("{}\n", reviewed_item(&question))).unwrap();
    let mut s = state::indexed_state(Store::open(&p).unwrap(), Keymap::default());
    s.size = (80, 24);
    same_kept_and_anew(&s, "open");
    // every scroll, to the end
    let max = verdict::tui::draw::max_scroll(&s);
    assert!(max > 800, "{max}");
    s.scroll = 0;
    while s.scroll < max {
        s.update(key(KeyCode::Char('j')));
        same_kept_and_anew(&s, &format!("scroll {}", s.scroll));
    }
    s.update(key(KeyCode::PageUp));
    same_kept_and_anew(&s, "page up");
    let seq_before = s.rec.next_seq;
    // each change the panes are built from
    let steps: Vec<(&str, Msg)> = vec![
        ("next response", key(KeyCode::Char('m'))),
        ("side by side", key(KeyCode::Char('M'))),
        ("side by side off", key(KeyCode::Char('M'))),
        ("blind on", key(KeyCode::Char('b'))),
        ("a verdict (accept)", key(KeyCode::Char('a'))),
        (
            "the verdict recorded",
            Msg::Recorded {
                seq: seq_before,
                result: Ok(()),
            },
        ),
        ("undo", key(KeyCode::Char('u'))),
        (
            "the undo recorded",
            Msg::Recorded {
                seq: seq_before + 1,
                result: Ok(()),
            },
        ),
        ("blind off", key(KeyCode::Char('b'))),
        ("theme", key(KeyCode::Char('T'))),
        ("resize to 200×50", Msg::Resize(200, 50)),
        ("image hidden", key(KeyCode::Char('H'))),
        ("resize to 80×24", Msg::Resize(80, 24)),
    ];
    for (what, msg) in steps {
        let before = render_to_string(&s, s.size.0, s.size.1);
        s.update(msg);
        same_kept_and_anew(&s, what);
        if what != "the verdict recorded" && what != "the undo recorded" {
            assert_ne!(
                render_to_string(&s, s.size.0, s.size.1),
                before,
                "{what} changes the screen"
            );
        }
        s.update(key(KeyCode::PageDown));
        same_kept_and_anew(&s, &format!("{what}, then page down"));
    }
    // reloads: another program changed only the question's text; then a colleague's save
    // added a verdict
    s.scroll = 0;
    let changed = question.replacen("alpha", "OMEGA", 1);
    std::fs::write(&p, format!("{}\n", reviewed_item(&changed))).unwrap();
    let before = render_to_string(&s, 80, 24);
    state::reloaded(&mut s, Store::open(&p).unwrap());
    same_kept_and_anew(&s, "reload, the text changed");
    assert_ne!(
        before,
        render_to_string(&s, 80, 24),
        "the new text is shown"
    );
    let mut item: serde_json::Value = serde_json::from_str(&reviewed_item(&changed)).unwrap();
    item["reviews"]["erin"] = serde_json::json!({"verification": "rejected", "note": "erin's"});
    std::fs::write(&p, format!("{item}\n")).unwrap();
    state::reloaded(&mut s, Store::open(&p).unwrap());
    same_kept_and_anew(&s, "reload, a colleague's verdict");
}

/// Stepping between long items of different texts shows each one's own text, never the
/// one shown before (issue 21: the view borrows the item it shows when nothing of it
/// changed this session, and keeps the line's text only for a view that shows it): two
/// C-VQA questions of the same length (the same rows), an item of no known benchmark
/// (its line shown as JSON), a verdict on one of them (the view's item then differs
/// from the file's), each checked against the screen laid out anew.
#[test]
fn each_long_item_shows_its_own_text_when_stepping_between_them() {
    let d = tempfile::tempdir().unwrap();
    let text = words(200_000);
    let cvqa = |id: &str, first: &str| {
        serde_json::json!({
            "id": id, "benchmark": "cvqa", "split": "real", "group": "direct",
            "image": "none.png",
            "original": {"question": format!("{first} {text}"), "answer": "5"},
            "counterfactual": {"question": "How many now?", "answer": "3"},
            "responses": [{"model": "m", "original": "5", "counterfactual": "3"}]
        })
        .to_string()
    };
    let other = format!(
        r#"{{"prompt":"THIRDTEXT {text}","id":"other-3","benchmark":"some-bench","responses":[{{"model":"m","response":"x"}}]}}"#
    );
    let p = d.path().join("long.jsonl");
    std::fs::write(
        &p,
        format!(
            "{}\n{}\n{other}\n",
            cvqa("one-1", "FIRSTTEXT"),
            cvqa("two-2", "SECONDTEXT")
        ),
    )
    .unwrap();
    let mut s = state::indexed_state(Store::open(&p).unwrap(), Keymap::default());
    s.size = (80, 24);
    let marks = ["FIRSTTEXT", "SECONDTEXT", "THIRDTEXT"];
    let shows = |s: &verdict::tui::app::State, pos: usize, what: &str| {
        same_kept_and_anew(s, what);
        let screen = render_to_string(s, 80, 24);
        assert_eq!(s.pos, pos, "{what}");
        for (k, m) in marks.iter().enumerate() {
            assert_eq!(
                screen.contains(m),
                k == pos,
                "{what}: item {pos} shows {m}: {}\n{screen}",
                screen.contains(m)
            );
        }
        screen
    };
    shows(&s, 0, "open");
    for (k, pos) in [('n', 1), ('n', 2), ('p', 1), ('p', 0)] {
        s.update(key(KeyCode::Char(k)));
        shows(&s, pos, &format!("{k} to item {pos}"));
    }
    // my verdict on the first: the view's item now has my review, the file's has none
    let before = shows(&s, 0, "before the verdict");
    s.update(key(KeyCode::Char('a')));
    let graded = shows(&s, 0, "the verdict");
    assert_ne!(before, graded, "the verdict is shown");
    s.update(key(KeyCode::Char('n')));
    let second = shows(&s, 1, "n after the verdict");
    s.update(key(KeyCode::Char('p')));
    assert_eq!(shows(&s, 0, "back to the graded item"), graded);
    s.update(key(KeyCode::Char('n')));
    assert_eq!(shows(&s, 1, "the second again"), second);
}
