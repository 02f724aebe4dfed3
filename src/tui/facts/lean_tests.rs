//! The index's lean parse (`Item::parse_for_facts`) gives every item exactly the facts and
//! search text the full parse gives it (`Item::parse`, what the item view shows), and
//! leaves every line it cannot be sure of to the full parse: the samples, the index
//! tests' corpus, and each of their fields given every kind of JSON value, twice, or a
//! number beyond `f64`.

use super::*;
use crate::bench::Item;

/// The facts and search text of `item`, as the index keeps them.
fn facts_and_text(item: &Item) -> (Vec<(Kind, String)>, String) {
    let id = item.id.clone().unwrap_or_else(|| "#1".into());
    let mut text = String::new();
    search_text(item, &id, &mut text);
    (collect_facts(item), text)
}

/// A line the lean parse reads is read by the full parse, with the same facts and search
/// text; true when the lean parse read it (false: the index reads it with the full one).
fn same_as_full(line: &str) -> bool {
    let full = Item::parse(line);
    match Item::parse_for_facts(line) {
        Some(lean) => {
            let full = full.unwrap_or_else(|e| {
                panic!("the lean parse read a line the full one does not ({e:?}): {line}")
            });
            assert_eq!(facts_and_text(&lean), facts_and_text(&full), "{line}");
            true
        }
        None => false,
    }
}

fn sample_lines() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/sample-data/");
    let mut out = Vec::new();
    for f in [
        "chartom.jsonl",
        "chartom-qa.jsonl",
        "chartom-qa-eval.jsonl",
        "chartom-qa-long.jsonl",
        "cvqa.jsonl",
        "generic.jsonl",
    ] {
        let text = std::fs::read_to_string(format!("{dir}{f}")).expect("a sample file");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            out.push((f.to_string(), line.to_string()));
        }
    }
    out
}

#[test]
fn every_sample_and_corpus_line_has_the_same_facts_either_way() {
    let mut read = std::collections::BTreeMap::<String, usize>::new();
    for (file, line) in sample_lines() {
        if same_as_full(&line) {
            *read.entry(file).or_default() += 1;
        }
    }
    // The result-set samples are read by the lean parse (else this test proves nothing);
    // the evaluation layout names no benchmark and is left to the full parse.
    for f in [
        "chartom.jsonl",
        "chartom-qa.jsonl",
        "cvqa.jsonl",
        "generic.jsonl",
    ] {
        assert!(read.get(f).copied().unwrap_or(0) >= 3, "{f}: {read:?}");
    }
    assert_eq!(read.get("chartom-qa-eval.jsonl"), None);
    let corpus = super::index_tests::corpus();
    let lean = corpus.lines().filter(|l| same_as_full(l)).count();
    assert!(lean > 80, "{lean}");
}

/// The values each field is given in turn: every kind of JSON value, escapes, blank
/// texts, numbers beyond `f64` and `i64` (`arbitrary_precision` keeps their spelling),
/// and an object that `arbitrary_precision` reads as a number.
const VALUES: &[&str] = &[
    "null",
    "true",
    "false",
    "0",
    "-7",
    "2.50",
    "1e400",
    "123456789012345678901234567890",
    "\"\"",
    "\"  \\n\\t \"",
    "\"x\"",
    "\"A\\\"b\\\" \\u00e9\\ud83d\\ude00 c\"",
    "\"\\ud800\"",
    "[]",
    "[\"a\", \"b\"]",
    "[1, 2]",
    "[null]",
    "{}",
    "{\"a\": \"b\"}",
    "{\"1000\": 5}",
    "{\"$serde_json::private::Number\": \"5\"}",
];

/// Every field the full parse reads, at the top level and in a response.
const ITEM_FIELDS: &[&str] = &[
    "id",
    "benchmark",
    "image",
    "responses",
    "reviews",
    "chart",
    "fact",
    "mind",
    "book",
    "character",
    "dimension",
    "context",
    "question",
    "answer",
    "bonus_points",
    "choices",
    "key",
    "split",
    "group",
    "original",
    "counterfactual",
];
const RESPONSE_FIELDS: &[&str] = &[
    "model",
    "fact",
    "mind",
    "justification",
    "text",
    "choice",
    "judge",
    "original",
    "counterfactual",
];

/// `obj` as a line with `key: value` put first (as the text `value`), once or twice.
fn with_field(
    obj: &serde_json::Map<String, serde_json::Value>,
    key: &str,
    value: &str,
    twice: bool,
) -> String {
    let mut rest = serde_json::Value::Object(obj.clone()).to_string();
    rest.remove(0);
    let key = serde_json::to_string(key).unwrap();
    let sep = if rest == "}" { "" } else { "," };
    if twice {
        // The key twice: `Value` keeps the last, the item's parse says it is there twice.
        format!("{{{key}: {value}, {key}: \"x\"{sep}{rest}")
    } else {
        format!("{{{key}: {value}{sep}{rest}")
    }
}

#[test]
fn odd_values_of_every_field_are_read_alike_or_left_to_the_full_parse() {
    let (mut lean, mut full) = (0, 0);
    let mut count = |line: &str| {
        if same_as_full(line) {
            lean += 1;
        } else {
            full += 1;
        }
    };
    for (_, line) in sample_lines().iter().step_by(3) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let obj = v.as_object().unwrap();
        for key in ITEM_FIELDS {
            let mut without = obj.clone();
            without.shift_remove(*key);
            for value in VALUES {
                count(&with_field(&without, key, value, false));
            }
            if obj.contains_key(*key) {
                count(&with_field(&without, key, &obj[*key].to_string(), true));
            }
        }
        let Some(first) = obj
            .get("responses")
            .and_then(|r| r.get(0))
            .and_then(|r| r.as_object())
        else {
            continue;
        };
        for key in RESPONSE_FIELDS {
            let mut r = first.clone();
            r.shift_remove(*key);
            for value in VALUES
                .iter()
                .copied()
                .chain(["\"About 12.0\"", "\"(B) 3\""])
            {
                for twice in [false, true] {
                    let response = with_field(&r, key, value, twice);
                    let mut o = obj.clone();
                    o.shift_remove("responses");
                    count(&with_field(
                        &o,
                        "responses",
                        &format!("[{response}]"),
                        false,
                    ));
                }
            }
        }
    }
    // Both paths were taken, many times over.
    assert!(lean > 500 && full > 500, "lean {lean}, full {full}");
}

#[test]
fn lines_of_other_shapes_are_left_to_the_full_parse_or_read_alike() {
    for line in [
        "{}",
        "[]",
        "5",
        "null",
        "",
        "{\"id\": \"a\"}",
        "{\"benchmark\": \"cvqa\"}",
        "{\"benchmark\": \"cvqa\", \"id\": \"a\", \"id\": \"b\"}",
        "{\"benchmark\": \"cvqa\", \"unknown\": 1, \"unknown\": 2}",
        "{\"benchmark\": \"lm-eval\", \"id\": \"a\", \"question\": \"q\"}",
        "{\"benchmark\": \"inspect\", \"id\": \"a\"}",
        "{\"benchmark\": \"nobody-knows\", \"id\": \"a\", \"reviews\": {\"r\": {\"verdict\": \"pass\"}}}",
        "{\"benchmark\": \"cvqa\", \"id\": \"a\"} trailing",
        "{\"benchmark\": \"cvqa\", \"id\": \"a\"",
        "{\"benchmark\": \"cvqa\", \"reviews\": {\"r\": {\"status\": \"accept\", \"status\": \"fix\"}}}",
        "{\"benchmark\": \"chartom-qa\", \"bonus_points\": [\"a\"], \"responses\": [{\"model\": \"m\", \"text\": \"t\", \"judge\": {\"bonus\": [1], \"penalty\": \"None\"}}], \"reviews\": {\"r\": {\"bonus\": [1], \"penalty\": null}}}",
        "{\"benchmark\": \"chartom\", \"id\": \"\\u0000\\n\", \"fact\": {\"format\": \"number\", \"key\": 1e3, \"question\": \"How many millions?\"}, \"responses\": [{\"model\": \"m\\\"q\", \"fact\": 1000.000000000000000001, \"justification\": \"\\u2003\"}], \"reviews\": {\"r\": {\"justification\": \"partial\"}}}",
    ] {
        same_as_full(line);
    }
    // Deep nesting: the same limit on both (serde_json's 128 levels).
    for depth in [100, 126, 127, 128, 200] {
        for field in ["context", "judge_x", "reviews"] {
            let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            let line = format!(
                "{{\"benchmark\": \"chartom-qa\", \"id\": \"d\", \"{field}\": {{\"r\": {deep}}}}}"
            );
            same_as_full(&line);
        }
    }
}

/// The whole index is the same with either parse: the corpus of the index tests (forty
/// models, disagreeing reviewers, odd texts, a broken item) and a line that is not UTF-8.
#[test]
fn the_index_is_the_same_with_either_parse() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("set.jsonl");
    let mut bytes = super::index_tests::corpus().into_bytes();
    bytes.extend_from_slice(b"{\"id\": \"bad\xff\", \"benchmark\": \"cvqa\"}\n");
    std::fs::write(&path, bytes).unwrap();
    let store = Store::open(&path).unwrap();
    let lean = index_parsed(&store, 2, Parse::Lean, &|_| {});
    let full = index_parsed(&store, 2, Parse::Full, &|_| {});
    assert!(lean.broken(store.len() - 1));
    assert_eq!(lean, full);
}
