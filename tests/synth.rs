//! The seeded generator of large result sets the benches use (`benches/support/synth/`),
//! tested here (its own unit tests run in this test crate), and the tests that need a
//! large realistic set.

// `VERSION` is for the benches' cache of generated files.
#[allow(dead_code)]
#[path = "../benches/support/synth/mod.rs"]
mod synth;

use verdict::bench::Item;
use verdict::stats::compute_with;
use verdict::store::{Format, Store};
use verdict::tui::facts;

/// The items `stats` sums per thread (`BLOCK` in `src/stats.rs`): the set below spans
/// more than two blocks, so that threads split it.
const BLOCK: usize = 8192;

#[test]
fn any_number_of_threads_gives_the_same_figures() {
    let mut buf = Vec::new();
    synth::generate(2 * BLOCK + 1001, 7, &mut buf).unwrap();
    let s = Store::from_bytes("t.jsonl".into(), Format::Jsonl, buf).unwrap();
    let one = serde_json::to_value(compute_with(&s, 1)).unwrap();
    fn diff(a: &serde_json::Value, b: &serde_json::Value, path: String, out: &mut Vec<String>) {
        match (a, b) {
            (serde_json::Value::Object(x), serde_json::Value::Object(y)) => {
                for (k, v) in x {
                    diff(v, &y[k], format!("{path}.{k}"), out);
                }
            }
            (serde_json::Value::Array(x), serde_json::Value::Array(y)) if x.len() == y.len() => {
                for (k, (v, w)) in x.iter().zip(y).enumerate() {
                    diff(v, w, format!("{path}[{k}]"), out);
                }
            }
            _ if a != b => out.push(format!("{path}: {a} vs {b}")),
            _ => {}
        }
    }
    for t in [2, 3, 7] {
        let mut out = Vec::new();
        diff(
            &serde_json::to_value(compute_with(&s, t)).unwrap(),
            &one,
            String::new(),
            &mut out,
        );
        assert!(out.is_empty(), "{t} threads: {out:#?}");
    }
}

/// The index's lean parse (`Item::parse_for_facts`) gives every generated item the facts
/// and search text of the full parse (what the item view shows): the whole index is the
/// same either way, and the lean parse reads the lines (else this would prove nothing).
#[test]
fn the_index_of_a_generated_set_is_the_same_with_either_parse() {
    let mut buf = Vec::new();
    synth::generate(3000, 11, &mut buf).unwrap();
    let lines = buf.split(|&b| b == b'\n').filter(|l| !l.is_empty());
    let lean_read = lines
        .filter(|l| Item::parse_for_facts(std::str::from_utf8(l).unwrap()).is_some())
        .count();
    assert_eq!(lean_read, 3000);
    let s = Store::from_bytes("t.jsonl".into(), Format::Jsonl, buf).unwrap();
    let lean = facts::index_parsed(&s, 2, facts::Parse::Lean, &|_| {});
    let full = facts::index_parsed(&s, 2, facts::Parse::Full, &|_| {});
    for i in 0..s.len() {
        assert_eq!(lean.facts(i), full.facts(i), "item {i}");
        assert_eq!(lean.search_text(i), full.search_text(i), "item {i}");
    }
    assert!(full.names(facts::Kind::Reviewer).count() >= 2);
    assert!(full.facet(facts::Kind::Wrong, "gpt-4o").is_some());
    assert_eq!(lean, full);
}
