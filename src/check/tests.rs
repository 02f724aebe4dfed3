use super::*;
use crate::store::Format;

fn check(text: &str) -> Report {
    let s = Store::from_bytes(
        PathBuf::from("/nonexistent/t.jsonl"),
        Format::Jsonl,
        text.as_bytes().to_vec(),
    )
    .unwrap();
    check_store_with(&s, Options { images: false })
}

fn lines(r: &Report) -> Vec<String> {
    r.problems
        .iter()
        .map(|p| {
            format!(
                "{}:{}:{}:{}: {}",
                p.line.unwrap_or(0),
                p.id.as_deref().unwrap_or(""),
                p.field.as_deref().unwrap_or(""),
                p.severity.name(),
                p.message
            )
        })
        .collect()
}

const CHARTOM: &str = r#"{"id":"G7_Q1_1","benchmark":"chartom","chart":{"pair":"G7_Q1","version":"original","type":"line","manipulation":"truncated axis"},"fact":{"question":"q","format":"number","options":[],"key":1.2,"strategies":{"misled":6,"skim":300},"human_answers":[[1.2,56],[6,12]]},"mind":{"hmi":0.18},"responses":[{"model":"m","fact":"1.2","mind":0.2,"justification":"j"}],"reviews":{"ann":{"at":"2026-01-01T00:00:00Z","justification":"partial"}}}"#;

#[test]
fn a_clean_chartom_item() {
    let r = check(CHARTOM);
    assert_eq!(lines(&r), Vec::<String>::new());
    assert!(r.is_clean());
}

/// Human answers written as texts are valid when the grading can read them: a number
/// with a scale or percent sign, a fraction, a range.
#[test]
fn number_human_answers_as_the_grading_reads_them() {
    let t = CHARTOM.replace(
        r#""human_answers":[[1.2,56],[6,12]]"#,
        r#""human_answers":[["1.2 million",5],["1.1-1.3",2],["1/2",1],["about 6",3],["dunno",1]]"#,
    );
    let r = check(&t);
    assert_eq!(
        lines(&r),
        ["1:G7_Q1_1:fact.human_answers[4][0]:error: expected a number, found the string `dunno`"]
    );
}

#[test]
fn chartom_rules() {
    let t = r#"{"id":"G1_Q1_2","benchmark":"chartom","chart":{"pair":"G1_Q1","version":"original","type":"donut"},"fact":{"format":"rank","options":["a","b","c"],"key":[2,1,2],"human_answers":[[[1,2,3],4],[[1,2],1],[1]]},"mind":{"hmi":1.5},"responses":[{"model":"m","mind":"high"},{"model":"m","mind":2}]}"#;
    let r = check(t);
    assert_eq!(
        lines(&r),
        [
            "1:G1_Q1_2:responses[1].model:error: a second response of model `m`",
            "1:G1_Q1_2:chart.type:error: `donut` is not one of line, bar, pie, scatter, map",
            "1:G1_Q1_2:chart.version:warning: `original` disagrees with the id (`_1` is the original chart, `_2` the manipulated one)",
            "1:G1_Q1_2:fact.question:warning: missing",
            "1:G1_Q1_2:fact.key:error: option 2 appears twice",
            "1:G1_Q1_2:fact.human_answers[1][0]:error: ranks 2 of the 3 options; a ranking orders all of them",
            "1:G1_Q1_2:fact.human_answers[2]:error: expected [answer, count], found an array of 1",
            "1:G1_Q1_2:responses[0].mind:error: expected a number, found a string",
            "1:G1_Q1_2:responses[1].mind:error: 2 is not in [0, 1]",
            "1:G1_Q1_2:mind.hmi:error: 1.5 is not in [0, 1]",
        ]
    );
    let r = check(
        r#"{"id":"x","benchmark":"chartom","fact":{"question":"q","options":["a"],"key":3}}"#,
    );
    assert_eq!(
        lines(&r),
        [
            "1:x:chart:warning: missing: no chart type, version or planted manipulation to show",
            "1:x:fact.format:error: missing (choice, rank or number)",
        ]
    );
    let r = check(
        r#"{"id":"x","benchmark":"chartom","chart":{"version":"original","type":"bar"},"fact":{"question":"q","format":"choice","options":["a","b"],"key":3}}"#,
    );
    assert_eq!(
        lines(&r),
        ["1:x:fact.key:error: 3 is not in 1..2 (the item has 2 options)"]
    );
}

#[test]
fn duplicates_missing_ids_and_unknown_benchmarks() {
    let r =
        check("{\"id\":\"a\"}\n\n{\"benchmark\":\"mmlu\"}\n{\"id\":\"a\",\"benchmark\":\"x\"}\n");
    assert_eq!(
        lines(&r),
        [
            "1:a:benchmark:notice: no benchmark: shown with the generic view",
            "3:#3:id:notice: no id; verdict calls this item #3 and does not write that name back",
            "3:#3:benchmark:notice: unknown benchmark `mmlu`: shown with the generic view",
            "4:a:id:error: duplicate id `a` (also on line 1)",
            "4:a:benchmark:notice: unknown benchmark `x`: shown with the generic view",
        ]
    );
    assert_eq!((r.errors(), r.warnings(), r.notices()), (1, 0, 4));
}

#[test]
fn hostile_lines() {
    let mut text = b"{\"id\": oops}\n\xff\xfe\n[1,2]\n\"s\"\n".to_vec();
    text.extend_from_slice(
        format!(
            "{{\"id\":\"deep\",\"x\":{}{}}}\n",
            "[".repeat(100_000),
            "]".repeat(100_000)
        )
        .as_bytes(),
    );
    text.extend_from_slice(br#"{"id":"\u001b[31mred","benchmark":"\u001b]0;t\u0007\u009b"}"#);
    let s = Store::from_bytes(PathBuf::from("t.jsonl"), Format::Jsonl, text).unwrap();
    let r = check_store_with(&s, Options { images: false });
    let l = lines(&r);
    assert_eq!(l.len(), 6, "{l:#?}");
    assert!(
        l[0].starts_with("1:#1::error: malformed JSON: expected value"),
        "{}",
        l[0]
    );
    assert_eq!(l[1], "2:#2::error: invalid UTF-8 at byte 0 of the item");
    assert_eq!(
        l[2],
        "3:#3::error: an item must be a JSON object, found an array"
    );
    assert_eq!(
        l[3],
        "4:#4::error: an item must be a JSON object, found a string"
    );
    assert!(
        l[4].starts_with("5:deep::error: nested too deeply (recursion limit exceeded"),
        "{}",
        l[4]
    );
    assert!(
        l[5].contains("unknown benchmark `␛]0;t^G\\u{9b}`"),
        "{}",
        l[5]
    );
    // the JSON form escapes every control character
    let j = r.to_json();
    assert!(!j.chars().any(|c| c.is_control()), "{j}");
    let v: Value = serde_json::from_str(&j).unwrap();
    assert_eq!(v["problems"][5]["id"], "\u{1b}[31mred");
    assert_eq!(v["errors"], 5);
}

#[test]
fn cvqa_rules() {
    let ok = r#"{"id":"synthetic-00001","benchmark":"cvqa","split":"synthetic","group":"abs_counting_1","original":{"question":"How many? Select the correct answer:A:16  B:17  C:12  D:13","answer":"C"},"counterfactual":{"question":"And now? Select the correct answer:A:7  B:11  C:3  D:9","answer":"A"},"responses":[{"model":"m","original":"C","counterfactual":"(A) 7"}]}"#;
    assert_eq!(lines(&check(ok)), Vec::<String>::new());
    let bad = r#"{"id":"r1","benchmark":"cvqa","split":"synthetic","group":"boolean","original":{"question":"Is it?","answer":"Yes"},"counterfactual":{"question":"","answer":3}}"#;
    assert_eq!(
        lines(&check(bad)),
        [
            "1:r1:group:error: group boolean belongs to the real split, but the item's split is synthetic",
            "1:r1:original.answer:error: `Yes` is not `yes` or `no`",
            "1:r1:counterfactual.question:error: missing or empty",
            "1:r1:counterfactual.answer:error: `3` is not `yes` or `no`",
        ]
    );
    let bad = r#"{"id":"s","benchmark":"cvqa","split":"synthetic","group":"abs_counting_2","original":{"question":"How many?","answer":"B"},"counterfactual":{"question":"q? Select the correct answer:A:1  B:2","answer":"C"}}"#;
    assert_eq!(
        lines(&check(bad)),
        [
            "1:s:original.answer:error: the question carries no options (`... Select the correct answer:A:16  B:17  C:12  D:13`)",
            "1:s:counterfactual.answer:error: C names option 3, but the question has 2 options",
        ]
    );
    let bad = r#"{"id":"d","benchmark":"cvqa","split":"real","group":"direct","original":{"question":"q","answer":"two"}}"#;
    assert_eq!(
        lines(&check(bad)),
        [
            "1:d:original.answer:error: `two` is not a whole number in digits",
            "1:d:counterfactual:error: missing (question and answer)",
        ]
    );
}

#[test]
fn review_rules() {
    let t = r#"{"id":"d","benchmark":"cvqa","split":"real","group":"direct","original":{"question":"q","answer":"2"},"counterfactual":{"question":"q2","answer":"3"}, "responses":[{"model":"a","original":"2","counterfactual":"3"},{"model":"b","original":"2","counterfactual":"3"}], "reviews":{"ann":{"at":"yesterday","status":"reject","fixed_answer":"4"}, "bob":{"at":"2026-01-01T10:00:00+02:00","status":"fix","reason":"typo","fixed_answer":"x","original_correct":true,"models":{"c":{"original_correct":"yes"}}}, "cy":{"status":"maybe"}}}"#;
    assert_eq!(
        lines(&check(t)),
        [
            "1:d:reviews.ann.at:error: `yesterday` is not an RFC 3339 time: the 'year' component could not be parsed",
            "1:d:reviews.ann.reason:error: a rejection needs a reason",
            "1:d:reviews.ann.fixed_answer:error: only a `fix` has fixed_answer; this review's status is `reject`",
            "1:d:reviews.bob.at:warning: `2026-01-01T10:00:00+02:00` is not in UTC (write it with `Z`)",
            "1:d:reviews.bob.reason:error: `typo` is not one of ambiguous, not-image-related, wrong-answer, ungrammatical, other",
            "1:d:reviews.bob.fixed_answer:warning: `x` is not a whole number in digits",
            "1:d:reviews.bob:warning: grades at the top level of a review of an item with 2 responses: put them under models.<model>",
            "1:d:reviews.bob.models.c:error: grades for model `c`, which has no response on this item (models: `a`, `b`)",
            "1:d:reviews.bob.models.c.original_correct:error: expected true or false, found a string",
            "1:d:reviews.cy.at:warning: missing: when the verdict was given",
            "1:d:reviews.cy.status:error: `maybe` is not one of accept, fix, reject",
        ]
    );
}

#[test]
fn chartom_qa_rules() {
    let t = r#"{"id":"q1","benchmark":"chartom-qa","book":"Emma","dimension":"belief","context":{"0":"c"},"question":"q","answer":"a","bonus_points":["p1","p2"],"responses":[{"model":"m","text":"t","judge":{"bonus":"Null","penalty":null}},{"model":"n","text":"t","judge":{"bonus":[3],"penalty":"None"}}],"reviews":{"ann":{"at":"2026-01-01T00:00:00Z","models":{"m":{"bonus":[1,3],"penalty":null}}}}}"#;
    assert_eq!(
        lines(&check(t)),
        [
            "1:q1:responses[0].judge.bonus:warning: the judge's bonus is \"Null\" (unparsable): the benchmark's script counts it as 3 hits, verdict counts it as unparsable",
            "1:q1:responses[1].judge.bonus:warning: the judge names bonus point 3, but the item has 2",
            "1:q1:reviews.ann.models.m.bonus[1]:error: bonus point 3 is not in 1..2 (the item has 2 bonus points)",
        ]
    );
    let t = r#"{"id":"q2","benchmark":"chartom-qa","dimension":"humour","bonus_points":[],"question":"q","answer":"a","context":"c"}"#;
    assert_eq!(
        lines(&check(t)),
        [
            "1:q2:dimension:error: `humour` is not one of belief, intention, emotion, desire",
            "1:q2:bonus_points:error: empty: nothing to grade a response against",
        ]
    );
    // the benchmark's own evaluation layout
    let t = r#"{"book_name":"Emma","tom_dimension":"desire","context_0":"c","question":"q","answer":"a","bonus_points":["p"],"response":"r","bonus":"[1]","penalty":"None","reviews":{"ann":{"at":"2026-01-01T00:00:00Z","bonus":[1],"penalty":null}}}"#;
    assert_eq!(
        lines(&check(t)),
        ["1:#1:id:notice: no id; verdict calls this item #1 and does not write that name back"]
    );
}

#[test]
fn an_unnamed_evaluation_response_is_named_from_the_file() {
    // the reviewer and stats call the response of `t.jsonl` `t`: so does check
    let line = |models: &str| {
        format!(
            r#"{{"id":"e","book_name":"Emma","tom_dimension":"desire","context_0":"c","question":"q","answer":"a","bonus_points":["p"],"response":"r","reviews":{{"ann":{{"at":"2026-01-01T00:00:00Z","models":{models}}}}}}}"#
        )
    };
    assert_eq!(
        lines(&check(&line(r#"{"t":{"bonus":[1],"penalty":null}}"#))),
        Vec::<String>::new()
    );
    assert_eq!(
        lines(&check(&line(
            r#"{"response":{"bonus":[1],"penalty":null}}"#
        ))),
        [
            "1:e:reviews.ann.models.response:error: grades for model `response`, which has no response on this item (models: `t`)"
        ]
    );
}

#[test]
fn images_relative_to_the_file() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir(d.path().join("img")).unwrap();
    std::fs::write(d.path().join("img/a.png"), b"x").unwrap();
    let p = d.path().join("r.jsonl");
    std::fs::write(
        &p,
        "{\"id\":\"a\",\"image\":\"img/a.png\"}\n{\"id\":\"b\",\"image\":\"img/b.png\"}\n",
    )
    .unwrap();
    let r = check_file(&p, Options::default()).unwrap();
    let w: Vec<_> = r
        .problems
        .iter()
        .filter(|p| p.field.as_deref() == Some("image"))
        .collect();
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].id.as_deref(), Some("b"));
    assert_eq!(w[0].severity, Severity::Warning);
    assert!(w[0].message.contains("img/b.png"));
}

/// An image path that is a FIFO or a folder is named as such, not as missing (and never
/// opened: a FIFO with no writer would block `check`).
#[cfg(unix)]
#[test]
fn images_that_are_not_regular_files_are_named() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir(d.path().join("img")).unwrap();
    let fifo = d.path().join("img/f.png");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let p = d.path().join("r.jsonl");
    std::fs::write(
        &p,
        "{\"id\":\"a\",\"image\":\"img/f.png\"}\n{\"id\":\"b\",\"image\":\"img\"}\n",
    )
    .unwrap();
    let r = check_file(&p, Options::default()).unwrap();
    let w: Vec<_> = r
        .problems
        .iter()
        .filter(|p| p.field.as_deref() == Some("image"))
        .map(|p| p.message.clone())
        .collect();
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[0].contains("not a regular file (a FIFO)"), "{w:?}");
    assert!(w[1].contains("a directory"), "{w:?}");
}

/// `check` and the reviewer agree on which lines are CharToM-QA evaluation lines: one
/// with `"benchmark": null` is one (the reviewer shows it as CharToM-QA), one with
/// `"book_name": null` is not (the reviewer shows it with the generic view).
#[test]
fn check_and_the_loader_agree_on_evaluation_lines() {
    for (line, eval) in [
        (
            r#"{"id":"a","benchmark":null,"book_name":"Emma","question":"q","response":"r"}"#,
            true,
        ),
        (
            r#"{"id":"b","book_name":null,"question":"q","response":"r"}"#,
            false,
        ),
        (
            r#"{"id":"c","book_name":"Emma","question":"q","response":"r"}"#,
            true,
        ),
    ] {
        let loaded = Item::parse(line).unwrap().is_chartom_qa_eval();
        assert_eq!(loaded, eval, "{line}");
        let generic = lines(&check(line))
            .iter()
            .any(|l| l.contains("shown with the generic view"));
        assert_eq!(generic, !eval, "{line}: {:?}", lines(&check(line)));
    }
}

/// An evaluation line's `response` is a response only when it is given (not `null`) and
/// the line has no `responses` of its own, as the loader reads it: grades for it are
/// checked against the responses the reviewer will show.
#[test]
fn an_evaluation_response_counts_as_the_loader_counts_it() {
    let line = r#"{"id":"d","book_name":"E","question":"q","response":null,"reviews":{"a":{"at":"2026-01-01T00:00:00Z","models":{"t":{"penalty":null}}}}}"#;
    // the file is t.jsonl: an unnamed response would be model `t`
    assert!(Item::parse(line).unwrap().responses.is_empty());
    let r = lines(&check(line));
    assert!(
        r.iter()
            .any(|l| l.contains("which has no response on this item")),
        "{r:?}"
    );
}

#[test]
fn chartom_qa_more_than_9_bonus_points_is_warned() {
    let points: Vec<String> = (1..=10).map(|k| format!("\"p{k}\"")).collect();
    let t = format!(
        r#"{{"id":"q3","benchmark":"chartom-qa","book":"Emma","dimension":"belief","context":"c","question":"q","answer":"a","bonus_points":[{}]}}"#,
        points.join(",")
    );
    assert_eq!(
        lines(&check(&t)),
        [
            "1:q3:bonus_points:warning: 10 bonus points: the digit keys reach 9; points 10 and up are ticked by number (a digit, then Enter)"
        ]
    );
}
