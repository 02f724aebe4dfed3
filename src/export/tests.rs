use super::*;
use crate::store::Format;

fn store(text: &str) -> Store {
    Store::from_bytes("t.jsonl".into(), Format::Jsonl, text.as_bytes().to_vec()).unwrap()
}

#[test]
fn columns_match_row_fields() {
    let v = serde_json::to_value(Row::default()).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, COLUMNS);
}

#[test]
fn one_row_per_item_and_model() {
    let s = store(concat!(
        r#"{"id":"a","benchmark":"cvqa","split":"real","group":"direct","original":{"question":"q","answer":"2"},"counterfactual":{"question":"q","answer":"3"},"responses":[{"model":"m","original":"2","counterfactual":"If so, 4"},{"model":"n","original":"x","counterfactual":"3"}],"reviews":{"r":{"at":"2026-01-01T00:00:00Z","status":"accept","models":{"n":{"original_correct":true}}}}}"#,
        "\n",
        r#"{"id":"b","benchmark":"cvqa","split":"real","group":"boolean","original":{"question":"q","answer":"yes"},"counterfactual":{"question":"q","answer":"no"}}"#,
        "\n",
        "not json\n",
    ));
    let mut out = Vec::new();
    let rep = export(&s, ExportFormat::Jsonl, &mut out).unwrap();
    assert_eq!(
        rep,
        ExportReport {
            rows: 4,
            unreadable: 1
        }
    );
    let rows: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["model"], "m");
    assert_eq!(rows[0]["parsed_counterfactual"], "4");
    assert_eq!(rows[0]["counterfactual_correct"], false);
    assert_eq!(rows[0]["status"], "accept");
    assert_eq!(rows[0]["resolution"], "none");
    assert_eq!(rows[1]["auto_correct"], false);
    assert_eq!(rows[1]["correct"], true);
    assert_eq!(rows[1]["resolution"], "single:r");
    assert_eq!(rows[1]["reviews"]["r"]["status"], "accept");
    assert_eq!(rows[2]["model"], "");
    assert_eq!(rows[2]["verification_resolution"], "none");
    assert_eq!(rows[3]["id"], "#3");
    assert_eq!(rows[3]["line"], 3);
    assert!(rows[3]["error"].as_str().unwrap().contains("JSON"));

    let mut csv_out = Vec::new();
    export(&s, ExportFormat::Csv, &mut csv_out).unwrap();
    let mut r = csv::Reader::from_reader(csv_out.as_slice());
    assert_eq!(r.headers().unwrap().len(), COLUMNS.len());
    let recs: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(recs.len(), 4);
    let col = |name: &str| COLUMNS.iter().position(|c| *c == name).unwrap();
    assert_eq!(&recs[0][col("raw_counterfactual")], "If so, 4");
    assert_eq!(&recs[1][col("correct")], "true");
    assert_eq!(&recs[2][col("parsed_answer")], "");
    assert!(recs[0][col("reviews")].starts_with("{\"r\":"));
}

#[test]
fn chartom_qa_human_fields_empty_where_not_graded() {
    let s = store(concat!(
        r#"{"id":"q","benchmark":"chartom-qa","bonus_points":["p1","p2"],"responses":[{"model":"m","text":"t"},{"model":"n","text":"u"}],"reviews":{"a":{"at":"2026-01-01T00:00:00Z","models":{"m":{"bonus":[1]},"n":{"penalty":null}}}}}"#,
        "\n"
    ));
    let mut out = Vec::new();
    export(&s, ExportFormat::Jsonl, &mut out).unwrap();
    let rows: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // m: bonus graded, penalty not
    assert_eq!(rows[0]["human_covered"], 1);
    assert_eq!(rows[0]["human_penalized"], Value::Null);
    // n: penalty graded (none), bonus not
    assert_eq!(rows[1]["human_bonus"], Value::Null);
    assert_eq!(rows[1]["human_covered"], Value::Null);
    assert_eq!(rows[1]["human_penalized"], false);
}

/// Issue 19: squared errors were exported with floating-point noise
/// (`0.0004000000000000007` for 0.22 against 0.20).
#[test]
fn squared_errors_are_exported_without_float_noise() {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/samples/chartom.jsonl");
    let s = Store::open(&p).unwrap();
    let mut out = Vec::new();
    export(&s, ExportFormat::Csv, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("0.0004"), "{text}");
    for noise in ["0000000000", "9999999999"] {
        assert!(!text.contains(noise), "noise {noise} in {text}");
    }
}
