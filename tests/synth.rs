//! The seeded generator of large result sets the benches use (`benches/support/synth/`),
//! tested here (its own unit tests run in this test crate), and the tests that need a
//! large realistic set.

// `VERSION` is for the benches' cache of generated files.
#[allow(dead_code)]
#[path = "../benches/support/synth/mod.rs"]
mod synth;

use verdict::stats::compute_with;
use verdict::store::{Format, Store};

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
