//! The index holds, for every item, exactly the facts and search text of the item as
//! `Store::item` reads it, whatever the number of threads and of names per kind.

use super::*;

/// The samples of every result-set benchmark, each item also with forty more models (a
/// kind with many names) and with reviewers who disagree.
fn corpus() -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/samples/");
    let mut out = String::new();
    for f in [
        "chartom.jsonl",
        "chartom-qa.jsonl",
        "cvqa.jsonl",
        "generic.jsonl",
    ] {
        let text = std::fs::read_to_string(format!("{dir}{f}")).expect("a sample file");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            out.push_str(line);
            out.push('\n');
            let mut v: serde_json::Value = serde_json::from_str(line).expect("json");
            let Some(obj) = v.as_object_mut() else {
                continue;
            };
            let first = obj
                .get("responses")
                .and_then(|r| r.get(0))
                .cloned()
                .unwrap_or_else(|| serde_json::json!({}));
            let mut responses = Vec::new();
            for k in 0..40 {
                let mut r = first.clone();
                r["model"] = format!("model-{k:02}").into();
                responses.push(r);
            }
            obj.insert("responses".into(), responses.into());
            obj.insert(
                "reviews".into(),
                serde_json::json!({
                    "ann": {"status": "accept", "models": {"model-01": {"fact_correct": false, "original_correct": true}}},
                    "bob": {"status": "reject", "reason": "ambiguous", "models": {"model-01": {"fact_correct": true}}},
                }),
            );
            out.push_str(&v.to_string());
            out.push('\n');
        }
    }
    // Texts the lean parse does not copy: blank, escaped, and of the wrong type (the
    // item must be as broken, with the same message, as the full parse says).
    for extra in [
        r#""context": "", "responses": [{"model": "m", "text": "  \n "}], "reviews": {"ann": {"note": "seen"}}"#,
        r#""context": "Once \"upon\" a time\u00e9", "responses": [{"model": "m", "text": "\tShe knows."}]"#,
        r#""context": {"0": "", "1000": "a", "2000": "b \" c"}, "responses": [{"model": "m", "text": null}]"#,
        r#""context": 5"#,
        r#""context": {"1000": 5}"#,
        r#""context": ["a"]"#,
        r#""responses": [{"model": "m", "text": 5}]"#,
        r#""responses": [{"model": "m", "text": {"a": 1}}]"#,
        r#""responses": [{"model": "m", "justification": ["x"]}]"#,
        r#""responses": [{"model": "m", "justification": "   "}], "reviews": {"ann": {"note": "seen"}}"#,
        r#""responses": [{"model": "m", "justification": "Because the axis \u2026"}], "reviews": {"ann": {"justification": "correct"}}"#,
        r#""responses": [{"model": "m", "text": "x", "text": ""}]"#,
    ] {
        for bench in ["chartom-qa", "chartom"] {
            out.push_str(&format!(
                "{{\"id\": \"{bench}-lean-{}\", \"benchmark\": \"{bench}\", \"question\": \"Q?\", {extra}}}\n",
                out.len()
            ));
        }
    }
    out.push_str("{\"id\": \"broken\", \"benchmark\": \"cvqa\", \"responses\": 5}\n");
    out
}

#[test]
fn the_index_holds_each_items_own_facts() {
    holds_each_items_own_facts(1);
}

/// Over several chunks (the corpus forty times: ~4,400 items, chunks of 4,096) handed
/// to threads as they come free.
#[test]
fn the_index_of_many_chunks_holds_each_items_own_facts() {
    holds_each_items_own_facts(40);
}

fn holds_each_items_own_facts(copies: usize) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("set.jsonl");
    std::fs::write(&path, corpus().repeat(copies)).unwrap();
    let store = Store::open(&path).unwrap();
    assert!(store.len() > 60, "{}", store.len());
    for threads in [1, 3] {
        let ix = index(&store, threads);
        assert_eq!(ix.len(), store.len());
        let (mut many_models, mut broken) = (0, 0);
        for i in 0..store.len() {
            match store.item(i) {
                Ok(item) => {
                    assert!(!ix.broken(i), "item {i}");
                    assert_eq!(ix.facts(i), collect_facts(&item), "item {i}");
                    let id = item.id.clone().unwrap_or_else(|| store.fallback_id(i));
                    let mut text = String::new();
                    search_text(&item, &id, &mut text);
                    assert_eq!(ix.search_text(i), text, "item {i}");
                    many_models += usize::from(item.responses.len() > Names::FEW);
                }
                Err(e) => {
                    assert!(ix.broken(i), "item {i}");
                    let want = format!("{} {e}", store.fallback_id(i));
                    assert_eq!(ix.search_text(i), want, "item {i}");
                    broken += 1;
                }
            }
        }
        assert!(many_models > 20 * copies, "{many_models}");
        assert!(broken >= 13 * copies, "{broken}");
        assert!(ix.names(Kind::Model).count() > Names::FEW);
        assert!(ix.facet(Kind::Wrong, "model-01").is_some());
        assert!(ix.facet(Kind::Disagreement, "").is_some());
    }
}

/// The index is the same whatever the number of threads that built it.
#[test]
fn the_index_is_the_same_on_any_number_of_threads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("set.jsonl");
    std::fs::write(&path, corpus()).unwrap();
    let store = Store::open(&path).unwrap();
    let one = index(&store, 1);
    for threads in [2, 3, 8] {
        assert_eq!(index(&store, threads), one, "{threads} threads");
    }
}

/// A metadata key is a facet only while it has at most [`META_VALUES`] values in the
/// whole file, however the items fall into chunks (3 of 4,096 here): `few` has 3 values,
/// `split` 30 in the first chunk and 30 others after it (under the cap in every chunk,
/// over it in all), `each` one per sample. Only `few`'s sets are kept.
#[test]
fn a_metadata_key_over_the_cap_has_no_set_however_the_chunks_fall() {
    let n = 3 * 4096;
    let mut text = String::new();
    for i in 0..n {
        let split = if i < 4096 { i % 30 } else { 30 + i % 30 };
        let meta = serde_json::json!({"few": i % 3, "split": split, "each": format!("r{i}")});
        let sample = serde_json::json!({"sample": i, "metadata": meta});
        text.push_str(
            &serde_json::json!({"id": format!("s{i}"), "inspect_sample": sample}).to_string(),
        );
        text.push('\n');
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("set.jsonl");
    std::fs::write(&path, text).unwrap();
    let store = Store::open(&path).unwrap();
    for threads in [1, 3] {
        let ix = index(&store, threads);
        let names: Vec<&str> = ix.names(CAPPED).collect();
        assert_eq!(
            names,
            ["few\u{0}0", "few\u{0}1", "few\u{0}2"],
            "{threads} threads"
        );
        assert_eq!(
            ix.facet(CAPPED, "few\u{0}1").map(BitSet::count),
            Some(n / 3)
        );
    }
}

/// Within a chunk, a key holds at most [`META_VALUES`] sets, and none once it has more
/// values or a value longer than [`META_VALUE_CHARS`]: a key of free text costs no set
/// per item.
#[test]
fn a_chunk_holds_no_more_sets_of_a_key_than_the_cap() {
    let mut names = Names::default();
    for i in 0..1000 {
        assert!(names.entry("few\u{0}x", 64, true).is_some());
        names.entry(&format!("each\u{0}r{i}"), 64, true);
        assert!(names.sets.len() <= META_VALUES + 1, "{i}");
    }
    assert_eq!(names.sets.len(), 1);
    let long = format!("prose\u{0}{}", "a".repeat(META_VALUE_CHARS + 1));
    assert!(names.entry(&long, 64, true).is_none());
    assert!(names.entry("prose\u{0}short", 64, true).is_none());
    assert_eq!(names.sets.len(), 1);
}
