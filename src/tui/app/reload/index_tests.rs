//! The new file's index across another program's save, and what stands on it: a filter
//! on, the search and the filter menu open, from the moment the changed file is shown.

use crate::store::Store;

use super::tests::{answer_remaps, indexed, key, state};
use super::*;

/// A set whose even items are answered by model `a` and odd ones by `b`, with item
/// `item-00` first when `prepended`.
fn two_models(n: usize, prepended: bool) -> String {
    let from = if prepended { 0 } else { 1 };
    (from..=n)
        .map(|k| {
            let m = if k % 2 == 0 { "a" } else { "b" };
            format!(
                "{{\"id\": \"item-{k:02}\", \"benchmark\": \"mmlu\", \"question\": \"question {k}?\", \
                 \"answer\": \"x\", \"responses\": [{{\"model\": \"{m}\", \"text\": \"x\"}}]}}\n"
            )
        })
        .collect()
}

/// With a filter on, the items shown after another program's save is taken up are the
/// ones that pass it, at once: the screen never steps through items the filter leaves
/// out while the header still names the filter (before: from the takeover until the new
/// file's index arrived, seconds at 1M items, `n` went to every item).
#[test]
fn a_filter_on_still_holds_from_the_moment_the_changed_file_is_shown() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    std::fs::write(&p, two_models(40, false)).unwrap();
    let mut s = state(&p);
    indexed(&mut s);
    let mut fx = Vec::new();
    s.toggle_filter(FilterOption::Model("b".into()));
    s.apply_filters(&mut fx);
    s.goto(4, &mut fx);
    assert_eq!(s.item_ref(s.pos).id.as_deref(), Some("item-05"));
    std::fs::write(&p, two_models(40, true)).unwrap();
    let fx = s.update(Msg::Reloaded(Store::open(&p).unwrap()));
    answer_remaps(&mut s, &fx);
    assert_eq!(s.item_ref(s.pos).id.as_deref(), Some("item-05"));
    assert!(
        s.filters.describe().contains('b'),
        "{}",
        s.filters.describe()
    );
    // Every step lands on an item the filter lets through.
    for _ in 0..6 {
        key(&mut s, 'n');
        let id = s.item_ref(s.pos).id.clone().unwrap_or_default();
        let k: usize = id.trim_start_matches("item-").parse().unwrap();
        assert!(
            k % 2 == 1,
            "{id} is model a's: the filter on b does not hold"
        );
    }
}

fn press(s: &mut State, code: crossterm::event::KeyCode) -> Vec<Effect> {
    s.update(Msg::Key(crossterm::event::KeyEvent::new(
        code,
        crossterm::event::KeyModifiers::NONE,
    )))
}

/// Answer every `Effect::Search` of `fx` as the search worker does.
fn answer_searches(s: &mut State, fx: &[Effect]) {
    for e in fx {
        if let Effect::Search {
            seq,
            query,
            meta,
            within,
        } = e
        {
            let results = crate::tui::facts::search(meta, query, within.as_deref(), 500);
            s.update(Msg::SearchDone { seq: *seq, results });
        }
    }
}

/// The search open when another program's save is taken up stays open: the query as
/// typed, its matches found again in the new file, the match selected still selected
/// (before: the search closed, the query typed was lost).
#[test]
fn a_search_open_stays_open_with_its_query_and_selection_across_another_programs_save() {
    use crossterm::event::KeyCode;
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    std::fs::write(&p, two_models(40, false)).unwrap();
    let mut s = state(&p);
    indexed(&mut s);
    let fx = key(&mut s, '/');
    answer_searches(&mut s, &fx);
    for c in "question 1".chars() {
        let fx = key(&mut s, c);
        answer_searches(&mut s, &fx);
    }
    press(&mut s, KeyCode::Down);
    press(&mut s, KeyCode::Down);
    let picked = |s: &State| match &s.mode {
        Mode::Search(st) => st
            .results
            .get(st.selected)
            .map(|&i| s.item_ref(i).id.clone().unwrap()),
        m => panic!("the search closed: {m:?}"),
    };
    let before = picked(&s).unwrap();
    let Mode::Search(st) = &s.mode else {
        unreachable!()
    };
    let matches = st.results.len();
    assert!(matches > 3, "{matches}");
    std::fs::write(&p, two_models(40, true)).unwrap();
    let fx = s.update(Msg::Reloaded(Store::open(&p).unwrap()));
    let fx = answer_remaps(&mut s, &fx);
    let Mode::Search(st) = &s.mode else {
        panic!("the search closed: {:?}", s.mode)
    };
    assert_eq!(st.query.text(), "question 1");
    // Until the new file's matches arrive, the old ones are shown where they are now.
    assert_eq!(st.results.len(), matches);
    assert_eq!(picked(&s).as_deref(), Some(before.as_str()));
    answer_searches(&mut s, &fx);
    assert_eq!(picked(&s).as_deref(), Some(before.as_str()));
    let Mode::Search(st) = &s.mode else {
        unreachable!()
    };
    let meta = s.meta.clone().unwrap();
    assert_eq!(
        st.results,
        crate::tui::facts::search(&meta, "question 1", None, 500),
        "the matches are the new file's"
    );
    // Enter goes to the item selected, in the new file.
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.item_ref(s.pos).id.as_deref(), Some(before.as_str()));
}

/// The filter menu open when another program's save is taken up stays open on the
/// option selected, though the new file's options put it on another row (before: the
/// menu closed).
#[test]
fn the_filter_menu_stays_open_on_its_option_across_another_programs_save() {
    use crossterm::event::KeyCode;
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    std::fs::write(&p, two_models(40, false)).unwrap();
    let mut s = state(&p);
    indexed(&mut s);
    key(&mut s, 'F');
    let want = FilterOption::Model("b".into());
    let row = s.filter_options().iter().position(|o| *o == want).unwrap();
    for _ in 0..row {
        press(&mut s, KeyCode::Down);
    }
    assert_eq!(s.mode, Mode::Filter { selected: row });
    // The new file has a model named before "b": "b"'s row is one further down.
    let text = two_models(40, true).replacen("\"model\": \"a\"", "\"model\": \"aa\"", 1);
    std::fs::write(&p, text).unwrap();
    let fx = s.update(Msg::Reloaded(Store::open(&p).unwrap()));
    answer_remaps(&mut s, &fx);
    let Mode::Filter { selected } = s.mode else {
        panic!("the filter menu closed: {:?}", s.mode)
    };
    assert_ne!(selected, row, "the test's option did not move");
    assert_eq!(s.filter_options().get(selected), Some(&want));
}
