//! Finding a saved session's items again: in their places without the index, by id with
//! it, the same answer either way, and never an item that only looks like it.

use super::*;

/// A store of generic items with these ids (`None`: an item without an id), carol's
/// verdict `pass` on the items marked `true`.
fn store_of(items: &[(Option<&str>, bool)]) -> (tempfile::TempDir, Store) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("set.jsonl");
    let mut text = String::new();
    for (k, (id, graded)) in items.iter().enumerate() {
        let mut v = serde_json::json!({
            "benchmark": "mmlu",
            "question": format!("question {k}?"),
            "responses": [{"model": "m", "text": "x"}],
        });
        if let Some(id) = id {
            v["id"] = (*id).into();
        }
        if *graded {
            v["reviews"] = serde_json::json!({"carol": {"verdict": "pass"}});
        }
        text.push_str(&serde_json::to_string(&v).unwrap());
        text.push('\n');
    }
    std::fs::write(&p, text).unwrap();
    (d, Store::open(&p).unwrap())
}

fn at(index: usize, id: &str) -> ItemRef {
    ItemRef {
        index,
        id: Some(id.into()),
    }
}

#[test]
fn items_in_their_places_are_found_without_the_index() {
    let (_d, store) = store_of(&[(Some("a"), false), (Some("b"), true), (None, false)]);
    let w = Wanted {
        skipped: vec![at(0, "a"), ItemRef { index: 2, id: None }],
        undo: vec![at(1, "b")],
        start: Some(Start::Saved(Position {
            index: 1,
            id: Some("b".into()),
        })),
    };
    let got = in_places(&store, &w, "carol").expect("all in place");
    assert_eq!(got.skipped, vec![Some(0), Some(2)]);
    assert_eq!(got.undo, vec![Some(1)]);
    assert_eq!(got.start, Some(1));
    let pass: Review = serde_json::from_value(serde_json::json!({"verdict": "pass"})).unwrap();
    assert_eq!(got.reviews.get(&1), Some(&Some(pass)));
    let meta = crate::tui::facts::index(&store, 1);
    assert_eq!(with_index(&store, &meta, &w, "carol"), got);
}

#[test]
fn a_moved_item_needs_the_index_and_is_found_by_its_id_there() {
    // "b" was saved at 0; a line came before it
    let (_d, store) = store_of(&[(Some("new"), false), (Some("b"), false), (Some("b"), false)]);
    let w = Wanted {
        skipped: vec![at(0, "b")],
        undo: vec![],
        start: None,
    };
    assert_eq!(in_places(&store, &w, "carol"), None);
    let meta = crate::tui::facts::index(&store, 1);
    let got = with_index(&store, &meta, &w, "carol");
    assert_eq!(got.skipped, vec![Some(1)], "the first item with the id");
}

#[test]
fn an_item_without_an_id_is_found_only_in_its_place() {
    let (_d, store) = store_of(&[(Some("a"), false), (None, false)]);
    let w = Wanted {
        skipped: vec![
            ItemRef { index: 0, id: None },
            ItemRef { index: 1, id: None },
        ],
        undo: vec![],
        start: None,
    };
    let got = in_places(&store, &w, "carol").expect("nothing to look up by id");
    assert_eq!(got.skipped, vec![None, Some(1)]);
}

#[test]
fn an_id_that_is_only_another_items_stand_in_is_not_found() {
    // the item without an id is `#2` in the index (its line); an id "#2" is not it
    let (_d, store) = store_of(&[(Some("a"), false), (None, false)]);
    let w = Wanted {
        skipped: vec![at(0, "#2"), at(5, "a")],
        undo: vec![],
        start: Some(Start::At("#2".into())),
    };
    let meta = crate::tui::facts::index(&store, 1);
    let got = with_index(&store, &meta, &w, "carol");
    assert_eq!(got.skipped, vec![None, Some(0)]);
    assert_eq!(got.start, None);
}

#[test]
fn the_saved_position_falls_back_to_its_index_and_at_takes_numbers_first() {
    let (_d, store) = store_of(&[(Some("2"), false), (Some("x"), false), (Some("y"), false)]);
    let meta = crate::tui::facts::index(&store, 1);
    let start = |s: Start| {
        let w = Wanted {
            start: Some(s),
            ..Wanted::default()
        };
        with_index(&store, &meta, &w, "carol").start
    };
    // gone: the item at its index, or the last one when the file is shorter now
    let gone = |index| {
        Start::Saved(Position {
            index,
            id: Some("gone".into()),
        })
    };
    assert_eq!(start(gone(1)), Some(1));
    assert_eq!(start(gone(7)), Some(2));
    assert_eq!(
        start(Start::Saved(Position { index: 9, id: None })),
        Some(2)
    );
    // a saved id is an id, even one that reads as a number
    assert_eq!(
        start(Start::Saved(Position {
            index: 2,
            id: Some("2".into())
        })),
        Some(0)
    );
    // --at: an item number first, then an id
    assert_eq!(start(Start::At("2".into())), Some(1));
    assert_eq!(start(Start::At("y".into())), Some(2));
    assert_eq!(start(Start::At("4".into())), None);
}
