//! Items of any shape: every field of real-looking items (the samples' and the generator's)
//! replaced by values of the wrong type, out of range, empty, huge or nested, or by a part
//! of another item. Whatever the shape, the index (facts and search text), `stats`,
//! `check` and the screen at three sizes read the item without panicking (a panic on a
//! worker thread would take the reviewer's screen down with it), and a verdict set then
//! taken back gives back the item's bytes. `HOSTILE_SHAPES_N` and `HOSTILE_SHAPES_SEED`
//! run more cases (15,000 ran clean on 27 Nov, seed 7).

#[path = "support/state.rs"]
mod state;
#[allow(dead_code)]
#[path = "support/synth/mod.rs"]
mod synth;

use serde_json::{Value, json};
use verdict::store::{Format, Store};

/// The same cases on every machine (`team::split::SplitMix64`).
struct R(verdict::team::split::SplitMix64);
impl R {
    fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n as u64) as usize
    }
}

fn hostile(r: &mut R, other: &Value) -> Value {
    let num = |s: &str| serde_json::from_str::<Value>(s).unwrap();
    match r.below(24) {
        0 => Value::Null,
        1 => json!(true),
        2 => json!(-1),
        3 => json!(0),
        4 => num("1e308"),
        5 => num("-1e400"),
        6 => json!(""),
        7 => json!("NaN"),
        8 => json!("x".repeat(5000)),
        9 => json!([]),
        10 => json!({}),
        11 => json!([[[]]]),
        12 => num("99999999999999999999999999"),
        13 => json!(1.5),
        14 => num("-0.0"),
        15 => json!("\u{202e}ab\u{0}c"),
        16 => other.clone(),
        17 => json!("A"),
        18 => json!(["A", "B", 3]),
        19 => json!({"a": 1}),
        20 => num("18446744073709551616"),
        21 => json!(-5),
        22 => num("1e-400"),
        _ => json!("  ,, ; \t"),
    }
}

fn paths(v: &Value, at: Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let mut p = at.clone();
                p.push(k.clone());
                paths(x, p, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let mut p = at.clone();
                p.push(format!("#{i}"));
                paths(x, p, out);
            }
        }
        _ => {}
    }
}

fn at_mut<'a>(v: &'a mut Value, p: &[String]) -> &'a mut Value {
    let mut v = v;
    for k in p {
        v = if let Some(i) = k.strip_prefix('#') {
            &mut v[i.parse::<usize>().unwrap()]
        } else {
            &mut v[k.as_str()]
        };
    }
    v
}

#[test]
fn items_of_any_shape_are_read_shown_and_graded_without_harm() {
    let mut seeds: Vec<Value> = Vec::new();
    for f in std::fs::read_dir("tests/fixtures/samples").unwrap() {
        let p = f.unwrap().path();
        if p.extension().is_some_and(|e| e == "jsonl") {
            for l in std::fs::read_to_string(&p).unwrap().lines() {
                if let Ok(v) = serde_json::from_str::<Value>(l) {
                    seeds.push(v);
                }
            }
        }
    }
    let mut buf = Vec::new();
    synth::generate(300, 3, &mut buf).unwrap();
    for l in String::from_utf8(buf).unwrap().lines() {
        seeds.push(serde_json::from_str(l).unwrap());
    }
    let n: usize = std::env::var("HOSTILE_SHAPES_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1500);
    let seed: u64 = std::env::var("HOSTILE_SHAPES_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut r = R(verdict::team::split::SplitMix64::new(seed));
    let mut failed = Vec::new();
    for case in 0..n {
        let mut v = seeds[r.below(seeds.len())].clone();
        let other = seeds[r.below(seeds.len())].clone();
        let mut ps = Vec::new();
        paths(&other, vec![], &mut ps);
        let sub = at_mut(&mut other.clone(), &ps[r.below(ps.len())]).clone();
        for _ in 0..1 + r.below(4) {
            let mut ps = Vec::new();
            paths(&v, vec![], &mut ps);
            // any part but the whole item
            let p = ps[1 + r.below(ps.len() - 1)].clone();
            let h = hostile(&mut r, &sub);
            *at_mut(&mut v, &p) = h;
        }
        let line = serde_json::to_string(&v).unwrap();
        let res = std::panic::catch_unwind(|| {
            let mut s = Store::from_bytes(
                "t.jsonl".into(),
                Format::Jsonl,
                format!("{line}\n").into_bytes(),
            )
            .unwrap();
            let _ = verdict::tui::facts::index(&s, 1);
            let _ = verdict::stats::compute_with(&s, 1);
            let _ = verdict::check::check_store_with(&s, Default::default());
            let mut st = state::indexed_state(s.clone(), verdict::tui::keymap::Keymap::default());
            for size in [(80u16, 24u16), (200, 50), (20, 5)] {
                st.size = size;
                let backend = ratatui::backend::TestBackend::new(size.0, size.1);
                let mut t = ratatui::Terminal::new(backend).unwrap();
                t.draw(|f| verdict::tui::draw::draw(&st, f)).unwrap();
            }
            // a verdict, then none: the item as it was, byte for byte
            if s.set_review(0, "carol", Some(json!({"verdict": "pass"})))
                .is_ok()
            {
                s.set_review(0, "carol", None).unwrap();
                assert_eq!(
                    s.raw(0).unwrap(),
                    line,
                    "the bytes after a verdict taken back"
                );
            }
        });
        if res.is_err() {
            failed.push(format!("case {case}: {line}"));
        }
    }
    assert!(
        failed.is_empty(),
        "{} cases failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
