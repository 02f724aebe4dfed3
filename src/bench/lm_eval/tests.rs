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

#[test]
fn a_sample_line_is_read_as_an_lm_eval_item_and_other_lines_are_not() {
    use crate::bench::{Benchmark, Item};
    let line = r#"{"doc_id": 3, "arguments": {"gen_args_0": {"arg_0": "Q?", "arg_1": {}}}, "resps": [["x 7"]], "filtered_resps": ["7"], "filter": "strict-match", "target": "7", "metrics": ["exact_match"], "exact_match": 1.0}"#;
    let mut it = Item::parse(line).unwrap();
    assert_eq!(it.benchmark(), Benchmark::LmEval);
    assert_eq!(it.id, None, "the line is named #<line>, never given an id");
    assert_eq!(it.responses.len(), 1);
    assert_eq!(it.responses[0].text.as_deref(), Some("7"));
    it.name_eval_model(Path::new(
        "out/org__m-1b/samples_gsm8k_2026-11-20T10-15-42.5.jsonl",
    ));
    assert_eq!(it.responses[0].model, "org__m-1b");
    assert_eq!(spec::sample(&it).unwrap().doc_id, "3");
    // a line naming a benchmark, or missing a sample key, is not a sample
    let named = line.replacen('{', r#"{"benchmark": "mmlu", "#, 1);
    assert_eq!(Item::parse(&named).unwrap().benchmark(), Benchmark::Other);
    let partial = line.replace(r#""filtered_resps": ["7"], "#, "");
    assert_eq!(Item::parse(&partial).unwrap().benchmark(), Benchmark::Other);
}

/// A group's tasks: a subgroup's in its place, each group expanded once (groups that
/// name each other end).
#[test]
fn a_groups_tasks_include_its_subgroups_and_a_cycle_ends() {
    let g = serde_json::json!({
        "mmlu": ["mmlu_stem", "mmlu_other"],
        "mmlu_stem": ["abstract_algebra", "anatomy", "mmlu"],
        "mmlu_other": ["anatomy", "marketing", "mmlu_stem"],
    });
    let mut out = Vec::new();
    super::run::leaves(g.as_object().unwrap(), "mmlu", &mut Vec::new(), &mut out);
    assert_eq!(out, ["abstract_algebra", "anatomy", "marketing"]);
}
