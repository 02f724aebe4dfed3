use super::*;

#[test]
fn the_task_and_model_come_from_where_lm_eval_writes_the_file() {
    let p =
        Path::new("out/example__tiny-llama-1b/samples_arc_easy_2026-11-20T10-15-42.518246.jsonl");
    assert_eq!(task_of(p), "arc_easy");
    assert_eq!(model_of(p).as_deref(), Some("example__tiny-llama-1b"));
    assert_eq!(
        task_of(Path::new("samples_gsm8k_2024-05-23T19-52-10.517312.jsonl")),
        "gsm8k"
    );
    assert_eq!(task_of(Path::new("mine.jsonl")), "mine");
    assert_eq!(
        task_of(Path::new("samples_mmlu_abstract_algebra.jsonl")),
        "mmlu_abstract_algebra"
    );
}

#[test]
fn a_sample_is_told_from_other_lines_by_its_keys() {
    let obj = |s: &str| serde_json::from_str::<Map<String, Value>>(s).unwrap();
    assert!(is_sample(&obj(
        r#"{"doc_id":0,"arguments":{},"filtered_resps":[]}"#
    )));
    assert!(!is_sample(&obj(
        r#"{"doc_id":0,"arguments":{},"filtered_resps":[],"benchmark":"x"}"#
    )));
    assert!(!is_sample(&obj(r#"{"doc_id":0,"filtered_resps":[]}"#)));
    assert!(!is_sample(&obj(r#"{"book_name":"Emma"}"#)));
}

#[test]
fn verdicts_round_trip_and_score() {
    for v in Verdict::ALL {
        assert_eq!(Verdict::parse(v.name()), Some(v));
    }
    assert_eq!(Verdict::parse("pass"), None);
    assert_eq!(Verdict::Correct.score(), Some(1.0));
    assert_eq!(Verdict::Incorrect.score(), Some(0.0));
    assert_eq!(Verdict::AmbiguousKey.score(), None);
}
