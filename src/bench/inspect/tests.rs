//! The reader and the writer of Inspect logs, on logs written by inspect_ai 0.3.285
//! (tests/fixtures/real-logs/inspect) and on hand-made odd cases.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::log;
use super::zip::{self, Archive};
use crate::bench::Item;
use crate::store::container::Opened;

pub(super) fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real-logs/inspect/logs")
        .join(name)
}

pub(super) fn open(name: &str) -> (Vec<u8>, Opened) {
    let bytes = std::fs::read(fixture(name)).unwrap();
    let o = log::sniff(&fixture(name), &bytes)
        .expect("an Inspect log")
        .expect("readable");
    (bytes, o)
}

pub(super) fn lines(o: &Opened) -> Vec<String> {
    String::from_utf8(o.lines.clone())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

pub(super) fn items(o: &Opened) -> Vec<Item> {
    lines(o).iter().map(|l| Item::parse(l).unwrap()).collect()
}

#[test]
fn both_real_logs_give_one_item_per_sample_and_epoch() {
    for name in ["vr_mc.eval", "vr_mc.json"] {
        let (_, o) = open(name);
        let its = items(&o);
        assert_eq!(its.len(), 8, "{name}");
        let ids: Vec<String> = its.iter().map(|i| i.id.clone().unwrap()).collect();
        assert!(ids.contains(&"q1 (epoch 1)".to_string()), "{ids:?}");
        assert!(
            ids.contains(&"odd id/é \"quoted\" (epoch 2)".to_string()),
            "{ids:?}"
        );
        let q2 = its
            .iter()
            .find(|i| i.id.as_deref() == Some("q2 (epoch 1)"))
            .unwrap();
        assert_eq!(q2.benchmark(), crate::bench::Benchmark::Inspect);
        let s = super::spec::sample(q2).unwrap();
        assert_eq!(s.headline, "choice");
        assert_eq!(s.target_text(), "A");
        assert_eq!(s.choices, ["42", "36", "48", "49"]);
        assert_eq!(s.completion, "7 x 6 = 36.\n\nANSWER: B");
        let names: Vec<&str> = s.scores.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(names, ["choice", "match"]);
        assert_eq!(s.scores[0].value, json!("I"));
        assert_eq!(s.scores[0].answer.as_deref(), Some("B"));
        assert_eq!(s.run.model.as_deref(), Some("mockllm/model"));
        assert!(
            s.harness
                .iter()
                .any(|f| f.scorer == "choice" && f.metric == "accuracy" && f.value == json!(0.5))
        );
        assert!(q2.reviews.is_empty());
        // hostile text is kept as it is (the screen cleans it)
        let q4 = its
            .iter()
            .find(|i| i.id.as_deref() == Some("q4 (epoch 1)"))
            .unwrap();
        assert!(
            super::spec::sample(q4)
                .unwrap()
                .input_text()
                .contains('\u{1b}')
        );
    }
}

#[test]
fn other_files_are_not_taken_for_inspect_logs() {
    let p = Path::new("x.json");
    assert!(log::sniff(p, br#"{"items": []}"#).is_none());
    assert!(log::sniff(p, br#"{"version": 2, "items": [], "eval": {"task": "t"}}"#).is_none());
    assert!(log::sniff(p, b"{\"id\": 1}\n{\"id\": 2}\n").is_none());
    // JSON lines whose first line starts with `version` are not parsed as a log
    assert!(
        log::sniff(
            p,
            b"{\"version\": 2, \"eval\": {\"task\": \"t\"}}\n{\"version\": 3}\n"
        )
        .is_none()
    );
    assert!(log::sniff(p, b"PK\x03\x04 not a zip").is_none());
    // a ZIP without Inspect's entries
    let mut z = Vec::new();
    let a = Archive::read(&empty_zip()).unwrap();
    zip::rewrite(&empty_zip(), &a, &Default::default(), &mut z).unwrap();
    assert!(log::sniff(p, &z).is_none());
}

fn empty_zip() -> Vec<u8> {
    let mut v = b"PK\x05\x06".to_vec();
    v.extend_from_slice(&[0; 18]);
    v
}

/// A `.json` log with its samples written by hand.
pub(super) fn json_log(samples: Value) -> Vec<u8> {
    let doc = json!({
        "version": 2,
        "status": "success",
        "eval": {"task": "t", "model": "m"},
        "results": {"scores": [{"name": "s", "scorer": "s", "metrics": {
            "accuracy": {"name": "accuracy", "value": 0.5, "params": {}},
            "stderr": {"name": "stderr", "value": 0.1, "params": {}},
            "bootstrap_stderr": {"name": "bootstrap_stderr", "value": 0.2, "params": {}}
        }}]},
        "samples": samples,
    });
    serde_json::to_string_pretty(&doc).unwrap().into_bytes()
}

#[test]
fn odd_samples_read_numeric_values_missing_scores_and_odd_ids() {
    let bytes = json_log(json!([
        {"id": 7, "epoch": 1, "input": [{"role": "user", "content": [{"type": "text", "text": "hi \u{1b}[2J"}]}],
         "target": ["x", "y"], "output": {"completion": ""}, "scores": {"s": {"value": 0.25}}},
        {"id": "a\nb\u{202e}", "epoch": 3, "input": "q", "target": "t"},
        {"id": "z", "epoch": 1, "input": "q", "target": "t", "scores": {"s": {"value": "NAN_HERE"}}}
    ]));
    // Inspect writes NaN for an unscored value
    let text = String::from_utf8(bytes)
        .unwrap()
        .replace("\"NAN_HERE\"", "NaN");
    let o = log::sniff(Path::new("odd.json"), text.as_bytes())
        .unwrap()
        .unwrap();
    let its = items(&o);
    assert_eq!(its.len(), 3);
    assert_eq!(its[0].id.as_deref(), Some("7 (epoch 1)"));
    let s0 = super::spec::sample(&its[0]).unwrap();
    assert_eq!(s0.scores[0].value, json!(0.25));
    assert_eq!(s0.target_text(), "x | y");
    match &s0.input {
        super::sample::Input::Messages(m) => assert_eq!(m[0].text, "hi \u{1b}[2J"),
        other => panic!("{other:?}"),
    }
    assert_eq!(its[1].id.as_deref(), Some("a\nb\u{202e} (epoch 3)"));
    assert!(super::spec::sample(&its[1]).unwrap().scores.is_empty());
    // (shown as Inspect wrote it)
    assert_eq!(
        super::spec::sample(&its[2]).unwrap().scores[0].value,
        json!("NaN")
    );
}

/// The lines of `o` with `reviews` set on the item `id` (as the store splices them).
pub(super) fn graded(
    o: &Opened,
    reviews: &[(&str, Value)],
) -> impl Fn(usize) -> Option<String> + use<> {
    let mut ls = lines(o);
    for (id, r) in reviews {
        let k = ls
            .iter()
            .position(|l| serde_json::from_str::<Value>(l).unwrap()["id"] == json!(id))
            .unwrap_or_else(|| panic!("no item {id}"));
        let mut v: Value = serde_json::from_str(&ls[k]).unwrap();
        v["reviews"] = r.clone();
        ls[k] = serde_json::to_string(&v).unwrap();
    }
    move |i| ls.get(i).cloned()
}

/// An entry's text as written (bare `NaN` kept).
pub(super) fn entry_text(bytes: &[u8], name: &str) -> String {
    let a = Archive::read(bytes).unwrap();
    String::from_utf8(zip::read(bytes, a.entry(name).unwrap()).unwrap()).unwrap()
}

pub(super) fn entry(bytes: &[u8], name: &str) -> Value {
    let a = Archive::read(bytes).unwrap();
    serde_json::from_slice(&zip::read(bytes, a.entry(name).unwrap()).unwrap()).unwrap()
}

/// An entry as it is stored: its method, its CRC-32 and its compressed data.
pub(super) fn raw_record<'a>(
    bytes: &'a [u8],
    name: &str,
) -> (::zip::CompressionMethod, u32, &'a [u8]) {
    let a = Archive::read(bytes).unwrap();
    let e = a.entry(name).unwrap();
    (e.method, e.crc, &bytes[e.data.clone()])
}
