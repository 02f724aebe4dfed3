use super::*;
use crate::store::Format;

fn store(name: &str, text: &str) -> Store {
    Store::from_bytes(name.into(), Format::Jsonl, text.as_bytes().to_vec()).unwrap()
}

fn run(files: &[(&str, &str)]) -> Result<Merged, MergeError> {
    let stores: Vec<Store> = files.iter().map(|(n, t)| store(n, t)).collect();
    let inputs: Vec<(String, &Store)> = files
        .iter()
        .zip(&stores)
        .map(|((n, _), s)| (n.to_string(), s))
        .collect();
    merge(&inputs)
}

#[test]
fn union_in_order_of_first_appearance() {
    let a = "{\"id\":\"1\", \"x\": 1.0,\"reviews\":{\"a\":{\"at\":\"2026-01-01T00:00:00Z\",\"status\":\"accept\"}}}\n{\"id\":\"2\",\"x\":2}\n";
    let b = "{\"id\":\"3\",\"x\":3}\n{\"x\": 1.0,\"id\":\"1\",\"reviews\":{\"b\":{\"at\":\"2026-01-02T00:00:00Z\",\"status\":\"reject\"}}}\n";
    let m = run(&[("A", a), ("B", b)]).unwrap();
    assert_eq!(
        m.lines,
        vec![
            "{\"id\":\"1\", \"x\": 1.0,\"reviews\":{\"a\":{\"at\":\"2026-01-01T00:00:00Z\",\"status\":\"accept\"},\"b\":{\"at\":\"2026-01-02T00:00:00Z\",\"status\":\"reject\"}}}",
            "{\"id\":\"2\",\"x\":2}",
            "{\"id\":\"3\",\"x\":3}",
        ]
    );
    assert_eq!(m.unchanged, 2);
    assert!(m.replaced.is_empty());
    assert_eq!(m.reviews.get("a"), Some(&1));
}

#[test]
fn reviews_are_added_as_the_last_key() {
    let a = "{\"id\":\"1\",  \"n\": 1e3}\n";
    let b = "{\"id\":\"1\",\"n\":1e3,\"reviews\":{\"b\":{\"at\":\"2026-01-02T00:00:00Z\"}}}\n";
    let m = run(&[("A", a), ("B", b)]).unwrap();
    // (after the item's own `,  `, as the store inserts a review)
    assert_eq!(
        m.lines[0],
        "{\"id\":\"1\",  \"n\": 1e3,  \"reviews\":{\"b\":{\"at\":\"2026-01-02T00:00:00Z\"}}}"
    );
}

#[test]
fn differing_item_is_an_error_naming_it() {
    let a = "{\"id\":\"q1\",\"counterfactual\":{\"question\":\"q\",\"answer\":\"3\"}}\n";
    let b = "{\"id\":\"q0\"}\n{\"id\":\"q1\",\"counterfactual\":{\"question\":\"q\",\"answer\":\"4\"}}\n";
    let e = run(&[("A", a), ("B", b)]).unwrap_err();
    assert_eq!(
        e,
        MergeError::Differs {
            id: "q1".into(),
            a: place("A", 1),
            b: place("B", 2),
            path: "counterfactual.answer".into()
        }
    );
    // number spelling counts; key order does not
    let e = run(&[
        ("A", "{\"id\":\"x\",\"v\":1.0}"),
        ("B", "{\"id\":\"x\",\"v\":1}"),
    ]);
    assert!(matches!(e, Err(MergeError::Differs { path, .. }) if path == "v"));
    assert!(
        run(&[
            ("A", "{\"id\":\"x\",\"v\":1,\"w\":2}"),
            ("B", "{\"w\":2,\"id\":\"x\",\"v\":1}")
        ])
        .is_ok()
    );
}

#[test]
fn same_reviewer_twice_keeps_the_newer() {
    let a = "{\"id\":\"1\",\"reviews\":{\"r\":{\"at\":\"2026-03-01T10:00:00Z\",\"status\":\"accept\"}}}\n";
    let b = "{\"id\":\"1\",\"reviews\":{\"r\":{\"at\":\"2026-03-01T11:00:00+00:00\",\"status\":\"reject\"}}}\n";
    let m = run(&[("A", a), ("B", b)]).unwrap();
    assert!(m.lines[0].contains("reject") && !m.lines[0].contains("accept"));
    assert_eq!(
        m.replaced[0].to_string(),
        "item 1: reviewer r: kept the verdict of 2026-03-01T11:00:00+00:00 from B, dropped the one of 2026-03-01T10:00:00Z from A"
    );
    // and the other way round: the first file's verdict is newer
    let m = run(&[("B", b), ("A", a)]).unwrap();
    assert!(m.lines[0].contains("reject"));
    assert_eq!(m.replaced[0].kept_file, "B");
    assert_eq!(m.unchanged, 1);
    // identical duplicates are silent
    let m = run(&[("A", a), ("A2", a)]).unwrap();
    assert!(m.replaced.is_empty());
    assert_eq!(m.lines[0], a.trim_end());
}

#[test]
fn undecidable_and_malformed_inputs() {
    let a = "{\"id\":\"1\",\"reviews\":{\"r\":{\"at\":\"2026-03-01T10:00:00Z\",\"status\":\"accept\"}}}\n";
    let same_time =
        "{\"id\":\"1\",\"reviews\":{\"r\":{\"at\":\"2026-03-01T10:00:00Z\",\"status\":\"fix\"}}}\n";
    let no_time = "{\"id\":\"1\",\"reviews\":{\"r\":{\"status\":\"fix\"}}}\n";
    assert!(matches!(
        run(&[("A", a), ("B", same_time)]),
        Err(MergeError::Undecidable { .. })
    ));
    let e = run(&[("A", a), ("B", no_time)]).unwrap_err();
    assert!(e.to_string().contains("has no `at`"), "{e}");
    assert!(matches!(
        run(&[("A", "{\"x\":1}")]),
        Err(MergeError::NoId { line: 1, .. })
    ));
    assert!(matches!(
        run(&[("A", "{\"id\":\"a\"}\n{\"id\": oops}")]),
        Err(MergeError::Unreadable { line: 2, .. })
    ));
    assert!(matches!(
        run(&[("A", "{\"id\":\"a\"}\n{\"id\":\"a\"}")]),
        Err(MergeError::DuplicateId {
            first: 1,
            second: 2,
            ..
        })
    ));
    assert!(matches!(
        run(&[("A", "{\"id\":\"a\",\"reviews\":[]}")]),
        Err(MergeError::BadReviews { .. })
    ));
}

#[test]
fn multi_line_items_become_one_line() {
    let doc = "{\"items\": [\n  {\n    \"id\": \"a\",\n    \"v\": 1.50\n  }\n]}";
    let s = Store::from_bytes("d.json".into(), Format::Json, doc.as_bytes().to_vec()).unwrap();
    let m = merge(&[("d.json".to_string(), &s)]).unwrap();
    assert_eq!(m.lines, vec!["{\"id\":\"a\",\"v\":1.50}"]);
}

#[test]
fn items_without_an_id_are_matched_by_their_layouts_identity() {
    // CharToM-QA evaluation lines: by content (key order does not matter).
    let a = "{\"book_name\":\"Emma\",\"question\":\"q\",\"response\":\"r\",\"reviews\":{\"a\":{\"at\":\"2026-01-01T00:00:00Z\",\"penalty\":null}}}\n{\"book_name\":\"Emma\",\"question\":\"q2\",\"response\":\"r\"}\n";
    let b = "{\"question\":\"q\",\"book_name\":\"Emma\",\"response\":\"r\",\"reviews\":{\"b\":{\"at\":\"2026-01-02T00:00:00Z\",\"penalty\":\"x\"}}}\n";
    let m = run(&[("A", a), ("B", b)]).unwrap();
    assert_eq!(m.lines.len(), 2);
    assert!(m.lines[0].contains("\"a\":") && m.lines[0].contains("\"b\":"));
    // The same line twice in one file cannot be told apart.
    let twice = "{\"book_name\":\"Emma\",\"question\":\"q\"}\n{\"book_name\":\"Emma\",\"question\":\"q\"}\n";
    let e = run(&[("A", twice)]).unwrap_err();
    assert!(
        e.to_string()
            .contains("item \"Emma · q\" appears twice (lines 1 and 2)"),
        "{e}"
    );
    // lm-eval samples: by doc_id and filter, and a changed sample is named so.
    let s = |doc: u32, filter: &str, target: &str| {
        format!(
            "{{\"doc_id\":{doc},\"doc\":{{}},\"target\":\"{target}\",\"arguments\":{{}},\"resps\":[],\"filtered_resps\":[],\"filter\":\"{filter}\"}}\n"
        )
    };
    let a = s(1, "strict-match", "3") + &s(1, "flexible-extract", "3");
    let b = s(1, "flexible-extract", "3");
    assert_eq!(run(&[("A", &a), ("B", &b)]).unwrap().lines.len(), 2);
    let b = s(1, "strict-match", "4");
    let e = run(&[("A", &a), ("B", &b)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "item \"doc_id 1 (strict-match)\" differs between A (line 1) and B (line 1) at `target`: merge combines files of the same set, so the items must be equal apart from their reviews"
    );
    // Any other item without an id: an error naming file and line.
    let e = run(&[("A", "{\"id\":\"a\"}\n{\"q\":1}\n")]).unwrap_err();
    assert!(
        matches!(&e, MergeError::NoId { line: 2, .. })
            && e.to_string().contains("the item has no `id`"),
        "{e}"
    );
}

/// The same verdict in two files, given at different times: one verdict, the earlier,
/// and no replacement to report.
#[test]
fn the_same_verdict_at_different_times_is_one_verdict() {
    let a = r#"{"id":"q1","reviews":{"ann":{"at":"2026-01-02T00:00:00Z","seconds":4,"status":"accept"}}}"#;
    let b = r#"{"id":"q1","reviews":{"ann":{"at":"2026-01-01T00:00:00Z","seconds":7,"status":"accept"}}}"#;
    for (x, y) in [(a, b), (b, a)] {
        let m = run(&[
            ("x.jsonl", &format!("{x}\n")),
            ("y.jsonl", &format!("{y}\n")),
        ])
        .unwrap();
        assert!(m.replaced.is_empty(), "{:?}", m.replaced);
        assert_eq!(m.lines, vec![b.to_string()]);
    }
}
