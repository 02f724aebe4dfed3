use super::*;
use crate::bench::chartom::fields::{ChartVersion, FactFormat, JustificationGrade};
use crate::bench::chartom_qa::eval::{EVAL_DEFAULT_MODEL, eval_model_name};
use crate::bench::chartom_qa::fields::JudgeBonus;
use crate::bench::cvqa::fields::{CvqaReason, CvqaStatus};
use serde_json::Value;

#[test]
fn context_is_a_text_or_texts_by_length_and_errors_name_it() {
    let it = Item::parse(r#"{"context": {"0": "a", "1000": "b"}}"#).unwrap();
    assert_eq!(it.context.as_ref().unwrap().get("1000"), Some("b"));
    let it = Item::parse(r#"{"context": "one text"}"#).unwrap();
    assert_eq!(it.context.as_ref().unwrap().get("0"), Some("one text"));
    for bad in [
        r#"{"context": 5}"#,
        r#"{"context": {"0": 1}}"#,
        r#"{"context": ["a"]}"#,
    ] {
        let e = Item::parse(bad).unwrap_err();
        assert!(e.field.starts_with("context"), "{bad}: {e}");
    }
    // A type error deep down still names its field (the slow path runs only then).
    let e = Item::parse(r#"{"responses": [{"model": "a"}, {"model": 3}]}"#).unwrap_err();
    assert_eq!(e.field, "responses[1].model");
}

#[test]
fn parses_chartom_item() {
    let t = r#"{"id":"G7_Q1_1","benchmark":"chartom","image":"a.png","extra":{"x":1.0},
            "chart":{"pair":"G7_Q1","version":"original","type":"line","manipulation":null},
            "fact":{"question":"q","format":"number","options":[],"key":1.2,
                    "strategies":{"misled":6,"skim":300},"human_answers":[[1.2,50],["3",2]]},
            "mind":{"hmi":0.18},
            "responses":[{"model":"m","fact":"1.2","mind":0.2,"justification":"j"}],
            "reviews":{"ann":{"at":"2026-01-01T00:00:00Z","justification":"partial","fact_correct":true}}}"#;
    let it = Item::parse(t).unwrap();
    assert_eq!(it.benchmark(), Benchmark::Chartom);
    assert_eq!(it.fact.as_ref().unwrap().format, Some(FactFormat::Number));
    assert_eq!(it.fact.as_ref().unwrap().human_answers.len(), 2);
    let r = &it.reviews["ann"];
    assert_eq!(
        r.for_model("m", 1).unwrap().chartom.justification,
        Some(JustificationGrade::Partial)
    );
    assert_eq!(r.for_model("m", 2), None);
}

#[test]
fn wrong_type_names_the_field() {
    let e = Item::parse(r#"{"id":"x","responses":[{"model":"m","mind":"high"}]}"#).unwrap_err();
    assert_eq!(e.field, "responses[0].mind");
    let e = Item::parse(r#"{"id":3}"#).unwrap_err();
    assert_eq!(e.field, "id");
}

#[test]
fn eval_model_is_named_from_the_file_name() {
    use std::path::Path;
    let name = |p: &str| eval_model_name(Path::new(p));
    assert_eq!(
        name("out/gpt-4o_belief_c1000_eval_penalty.jsonl").as_deref(),
        Some("gpt-4o")
    );
    assert_eq!(
        name("Llama-3.1-8B_Instruct_emotion_c0_eval_penalty.jsonl").as_deref(),
        Some("Llama-3.1-8B_Instruct")
    );
    // the copy `verdict split` writes for a reviewer keeps the model
    assert_eq!(
        name("gpt-4o_belief_c2000_eval_penalty.alice.jsonl").as_deref(),
        Some("gpt-4o")
    );
    // not the pattern: the stem
    assert_eq!(
        name("chartom-qa-eval.jsonl").as_deref(),
        Some("chartom-qa-eval")
    );
    assert_eq!(
        name("x_belief_cabc_eval_penalty.jsonl").as_deref(),
        Some("x_belief_cabc_eval_penalty")
    );
    let line = r#"{"book_name":"Emma","question":"q","response":"r"}"#;
    let mut it = Item::parse(line).unwrap();
    it.name_eval_model(Path::new("d/gpt-4o_belief_c0_eval_penalty.jsonl"));
    assert_eq!(it.responses[0].model, "gpt-4o");
    // a line that names its model keeps it
    let mut it = Item::parse(r#"{"book_name":"E","response":"r","model":"m1"}"#).unwrap();
    it.name_eval_model(Path::new("gpt-4o_belief_c0_eval_penalty.jsonl"));
    assert_eq!(it.responses[0].model, "m1");
}

#[test]
fn chartom_qa_eval_line_is_mapped() {
    let t = r#"{"book_name":"Emma","tom_dimension":"belief","context_0":"c0","context_1000":"c1",
            "question":"q","answer":"a","bonus_points":["p1","p2"],"misleading_choices":["x"],
            "response":"resp","bonus":[1],"penalty":"None"}"#;
    let it = Item::parse(t).unwrap();
    assert_eq!(it.benchmark(), Benchmark::ChartomQa);
    assert_eq!(it.book.as_deref(), Some("Emma"));
    assert_eq!(it.dimension.as_deref(), Some("belief"));
    assert_eq!(it.context.as_ref().unwrap().get("1000"), Some("c1"));
    let r = &it.responses[0];
    assert_eq!(r.model, EVAL_DEFAULT_MODEL);
    let j = r.judge.as_ref().unwrap();
    assert_eq!(j.bonus_list(), JudgeBonus::Points(vec![1]));
    assert_eq!(j.penalty_text(), None);
}

/// The keys of the CharToM-QA evaluation layout are that layout's: on an item of a
/// result set (it names its benchmark) they are unknown keys, ignored like any other.
#[test]
fn evaluation_keys_on_a_result_set_item_are_ignored() {
    let it = Item::parse(
            r#"{"benchmark":"cvqa","model":3,"book_name":["x"],"response":{"a":1},"original":{"question":"q","answer":"a"}}"#,
        )
        .unwrap();
    assert_eq!(it.benchmark(), Benchmark::Cvqa);
    assert!(it.responses.is_empty());
    // On a line without a benchmark they make it an evaluation line, and are checked.
    let e = Item::parse(r#"{"book_name":"E","model":3,"response":"r"}"#).unwrap_err();
    assert_eq!(e.field, "model");
}

/// A line without a benchmark that has no `book_name` is no evaluation line, whatever
/// else it holds: the evaluation layout's keys on it are unknown keys, as on an item of
/// a result set, with or without an escape in its text. (Any escape made the evaluation
/// sniffer parse the line, and its `response` as a text: the line was unreadable.)
#[test]
fn evaluation_keys_on_a_line_without_book_name_are_ignored() {
    for t in [
        r#"{"id":"a","question":"one line","response":{"text":"x"},"model":3}"#,
        r#"{"id":"a","question":"two\nlines","response":{"text":"x"},"model":3}"#,
        r#"{"id":"a","question":"two\nlines","book_name":null,"response":{"text":"x"}}"#,
    ] {
        let it = Item::parse(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert_eq!(it.benchmark(), Benchmark::Other, "{t}");
        assert!(it.responses.is_empty(), "{t}");
        assert!(it.layout.is_none(), "{t}");
    }
    // With a `book_name` it is one, escaped or not, and its keys are checked.
    for t in [
        r#"{"book_name":"E","model":3,"response":"r"}"#,
        r#"{"book\u005fname":"E","q":"a\nb","model":3,"response":"r"}"#,
    ] {
        assert_eq!(Item::parse(t).unwrap_err().field, "model", "{t}");
    }
    let it = Item::parse(r#"{"book\u005fname":"E","response":"r"}"#).unwrap();
    assert_eq!(it.benchmark(), Benchmark::ChartomQa);
}

#[test]
fn judge_null_bonus_is_unparsable() {
    let j = Judge {
        bonus: Some(Value::String("Null".into()).into()),
        penalty: Some(Value::String("says X".into()).into()),
    };
    assert!(matches!(j.bonus_list(), JudgeBonus::Unparsable(_)));
    assert_eq!(j.penalty_text().as_deref(), Some("says X"));
}

#[test]
fn penalty_null_vs_absent() {
    let r: Review = serde_json::from_str(r#"{"penalty":null,"bonus":[1]}"#).unwrap();
    assert_eq!(r.grades.chartom_qa.penalty, Some(None));
    let r: Review = serde_json::from_str(r#"{"bonus":[1]}"#).unwrap();
    assert_eq!(r.grades.chartom_qa.penalty, None);
    let back = serde_json::to_string(&Review {
        grades: ResponseGrades {
            chartom_qa: crate::bench::chartom_qa::fields::Grades {
                penalty: Some(None),
                ..Default::default()
            },
            ..Default::default()
        },
        ..Default::default()
    })
    .unwrap();
    assert_eq!(back, r#"{"penalty":null}"#);
}

/// Every enum's `name` is the name serde reads and writes in the file, so the checks,
/// the export and the screens that use `name` say what the file says.
#[test]
fn enum_names_are_the_file_names() {
    fn same<T: Serialize + std::fmt::Debug>(all: &[T], name: impl Fn(&T) -> &'static str) {
        for v in all {
            assert_eq!(serde_json::to_value(v).unwrap(), name(v), "{v:?}");
        }
    }
    same(&CvqaStatus::ALL, |s| s.name());
    same(&CvqaReason::ALL, |s| s.name());
    same(&JustificationGrade::ALL, |s| s.name());
    same(&ChartVersion::ALL, |s| s.name());
    same(&FactFormat::ALL, |s| s.name());
}

#[test]
fn cvqa_answers_may_be_numbers() {
    let it = Item::parse(r#"{"benchmark":"cvqa","original":{"question":"q","answer":3},"counterfactual":{"question":"q2","answer":"yes"}}"#).unwrap();
    assert_eq!(it.original.as_ref().unwrap().answer, "3");
}
