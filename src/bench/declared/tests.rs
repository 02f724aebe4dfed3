use serde_json::json;

use super::spec::parse;
use super::*;

const GOOD: &str = r#"
name = "my-bench"
guidelines = "Judge whether the answer is supported by the passage."
[[field]]
path = "passage"
kind = "text"
[[field]]
path = "meta.figure"
kind = "image"
label = "Figure"
[responses]
path = "outputs"
text = "answer"
[[question]]
name = "correct"
kind = "label"
labels = ["yes", "no", "unsure"]
per = "response"
required = true
[[question]]
name = "rubric"
kind = "multi_label"
points_from = "rubric"
per = "response"
[[question]]
name = "quality"
kind = "rating"
values = [1, 5]
[[question]]
name = "comment"
kind = "text"
"#;

#[test]
fn a_good_spec_reads_whole() {
    let d = parse(GOOD).unwrap();
    assert_eq!(d.name, "my-bench");
    assert_eq!(d.fields.len(), 2);
    assert_eq!(d.fields[1].path, "meta.figure");
    assert_eq!(d.fields[1].kind, FieldKind::Image);
    assert_eq!(d.fields[1].label.as_deref(), Some("Figure"));
    let r = d.responses.as_ref().unwrap();
    assert_eq!(
        (r.path.as_str(), r.model.as_str(), r.text.as_str()),
        ("outputs", "model", "answer")
    );
    let names: Vec<&str> = d.questions.iter().map(|q| q.name.as_str()).collect();
    assert_eq!(names, ["correct", "rubric", "quality", "comment"]);
    assert_eq!(d.questions[0].per, Per::Response);
    assert!(d.questions[0].required);
    assert_eq!(
        d.questions[1].kind,
        Kind::MultiLabel(Points::From("rubric".into()))
    );
    assert_eq!(d.questions[2].kind, Kind::Rating { lo: 1, hi: 5 });
    assert_eq!(d.questions[2].per, Per::Item);
    assert!(!d.questions[2].required);
}

/// Each mistake gets its own error, with its line and key.
#[test]
fn every_mistake_is_reported_with_its_line_and_key() {
    let spec = r#"name = "b"
colour = "red"
[[field]]
path = "passage"
kind = "paragraph"
[[field]]
kind = "text"
[[question]]
name = "correct"
kind = "label"
per = "response"
[[question]]
name = "correct"
kind = "text"
[[question]]
name = "q3"
kind = "rating"
values = [5, 1]
[[question]]
name = "q4"
kind = "multi_label"
[[question]]
name = "q5"
kind = "label"
labels = ["a", "b", "a"]
required = "yes"
[[question]]
name = "q6"
kind = "checkbox"
"#;
    let errors = parse(spec).unwrap_err();
    let got: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        got,
        [
            "line 2: colour: unknown key (known: name, guidelines, field, responses, question)",
            r#"line 5: field[1].kind: "paragraph" is not one of text, image, number, chat, list"#,
            "line 6: field[2].path: missing",
            "line 10: question[1] (correct).labels: a label question needs `labels`, one or more",
            "line 11: question[1] (correct).per: asked per response, but the spec has no [responses]",
            "line 13: question[2] (correct).name: a second question named \"correct\"",
            "line 18: question[3] (q3).values: expected [lowest, highest], two integers, the lowest first",
            "line 21: question[4] (q4).points: a multi_label question needs `points` (one or more) or `points_from` (the item's list)",
            r#"line 25: question[5] (q5).labels: "a" given twice"#,
            "line 26: question[5] (q5).required: expected true or false, found string",
            r#"line 29: question[6] (q6).kind: "checkbox" is not one of label, multi_label, rating, text"#,
        ]
    );
}

#[test]
fn a_spec_without_a_name_or_a_question_says_so_and_bad_toml_gives_its_line() {
    let got: Vec<String> = parse("guidelines = \"g\"\n")
        .unwrap_err()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        got,
        [
            "line 1: name: missing",
            "line 1: question: no [[question]]: a benchmark asks at least one",
        ]
    );
    let e = parse("name = \"b\"\n[[question]]\nname = \n").unwrap_err();
    assert_eq!(e[0].line, 3, "{e:?}");
}

#[test]
fn a_path_is_a_key_a_dotted_path_or_a_json_pointer() {
    let v = json!({"a.b": 1, "a": {"b": 2, "l": [10, 20]}, "x/y": 3});
    let o = v.as_object().unwrap();
    assert_eq!(lookup(o, "a.b"), Some(&json!(1)), "a key first");
    assert_eq!(lookup(o, "a.l.1"), Some(&json!(20)));
    assert_eq!(lookup(o, "/a/b"), Some(&json!(2)));
    assert_eq!(lookup(o, "/x~1y"), Some(&json!(3)));
    assert_eq!(lookup(o, "a.c"), None);
}

#[test]
fn an_item_is_read_as_the_spec_says_whatever_its_other_keys() {
    let d = parse(GOOD).unwrap();
    // `question` as an object and `context` as a number would make the item unreadable
    // to the result-set reader; the declared benchmark reads its own keys only.
    let line = r#"{"id": "r1", "question": {"x": 1}, "context": 3, "passage": "P", "outputs": [{"model": "m1", "answer": "A"}, {"model": "m2", "answer": 7}], "reviews": {"ann": {"at": "2026-11-01T10:00:00Z", "answers": {"quality": 4}, "models": {"m1": {"answers": {"correct": "yes"}}}}}}"#;
    let (f, reviews) = d.read(line).unwrap();
    assert_eq!(f.id.as_deref(), Some("r1"));
    assert_eq!(f.benchmark_name.as_deref(), Some("my-bench"));
    let models: Vec<(&str, Option<&str>)> = f
        .responses
        .iter()
        .map(|r| (r.model.as_str(), r.text.as_deref()))
        .collect();
    assert_eq!(models, [("m1", Some("A")), ("m2", Some("7"))]);
    let ann = &reviews["ann"];
    assert_eq!(item_answer(ann, &d.questions[2]), Some(&json!(4)));
    assert_eq!(
        response_answer(ann.for_model("m1", 2), &d.questions[0]),
        Some(&json!("yes"))
    );
    let bad = r#"{"outputs": [{"answer": "A"}]}"#;
    let e = d.read(bad).unwrap_err();
    assert_eq!(e.field, "outputs[0].model");
}

#[test]
fn the_answer_that_counts_is_the_majority_of_those_who_answered() {
    let d = parse(GOOD).unwrap();
    let line = r#"{"passage": "P", "outputs": [{"model": "m1", "answer": "A"}], "reviews": {
        "a": {"at": "2026-11-01T10:00:00Z", "answers": {"correct": "yes", "quality": 2}},
        "b": {"at": "2026-11-01T10:01:00Z", "answers": {"correct": "no"}},
        "c": {"at": "2026-11-01T10:02:00Z", "answers": {"correct": "yes"}}}}"#;
    let (f, reviews) = d.read(line).unwrap();
    let mut it = Item::default();
    *it = f;
    it.reviews = reviews;
    assert_eq!(
        resolved(&it, &d.questions[0], Some("m1")).value,
        Some(json!("yes"))
    );
    let q = resolved(&it, &d.questions[2], None);
    assert_eq!(q.value, Some(json!(2)));
    assert_eq!(q.source.label(), "single:a");
    // The response's grades voted field by field keep the answers too.
    let g = crate::bench::resolve::resolve_response(&it.reviews, "m1", 1);
    assert_eq!(g.value.answers.get("correct"), Some(&json!("yes")));
}
