use super::*;
use crate::store::Format;

fn store(lines: &[&str]) -> Store {
    Store::from_bytes(
        "t.jsonl".into(),
        Format::Jsonl,
        lines.join("\n").into_bytes(),
    )
    .unwrap()
}

#[test]
fn cvqa_figures() {
    let s = store(&[
            r#"{"id":"1","benchmark":"cvqa","split":"real","group":"direct","original":{"question":"q","answer":"2"},"counterfactual":{"question":"q","answer":"3"},"responses":[{"model":"m","original":"2","counterfactual":"3"}]}"#,
            r#"{"id":"2","benchmark":"cvqa","split":"real","group":"direct","original":{"question":"q","answer":"2"},"counterfactual":{"question":"q","answer":"3"},"responses":[{"model":"m","original":"two","counterfactual":"4"}],
               "reviews":{"a":{"at":"2026-01-01T00:00:00Z","status":"fix","fixed_answer":"4","reason":"wrong-answer"}}}"#
                .replace('\n', " ")
                .as_str(),
            r#"{"id":"3","benchmark":"cvqa","split":"real","group":"boolean","original":{"question":"q","answer":"yes"},"counterfactual":{"question":"q","answer":"no"},"responses":[{"model":"m","original":"Yes","counterfactual":"hmm"}],"reviews":{"a":{"at":"2026-01-01T00:00:00Z","status":"reject","reason":"ambiguous","counterfactual_correct":true}}}"#,
            "{broken",
        ]);
    let st = compute(&s);
    assert_eq!((st.items, st.unreadable), (4, 1));
    let c = st.benchmarks.cvqa.as_ref().unwrap();
    let m = &c.models["m"];
    let d = &m.groups["direct"];
    // direct: original 2/2, counterfactual 1/2, difference 0.5
    assert_eq!(d.n, 2);
    assert_eq!(d.original_accuracy, Some(1.0));
    assert_eq!(d.counterfactual_accuracy, Some(0.5));
    assert_eq!(d.difference, Some(0.5));
    // boolean: cf "hmm" failed but overridden correct
    let b = &m.groups["boolean"];
    assert_eq!(b.counterfactual_accuracy, Some(1.0));
    assert_eq!((b.counterfactual_failed, b.overridden), (1, 1));
    assert_eq!(
        m.automatic.groups["boolean"].counterfactual_accuracy,
        Some(0.0)
    );
    // overall: original 3/3, cf 2/3
    assert_eq!(m.overall.n, 3);
    assert_eq!(m.overall.counterfactual_accuracy, Some(2.0 / 3.0));
    // fixed key: item 3 rejected, left out; item 2's key is now 4 -> 2/2
    assert_eq!(m.fixed_key.n, 2);
    assert_eq!(m.fixed_key.counterfactual_accuracy, Some(1.0));
    let v = &c.verification;
    assert_eq!(
        (v.accepted, v.fixed, v.rejected, v.unreviewed),
        (0, 1, 1, 1)
    );
    assert_eq!(v.by_reason["wrong-answer"], 1);
    assert_eq!(st.reviews["a"].reviewed, 2);
    assert_eq!(st.reviews["a"].done, 2);
    assert!(st.benchmarks.chartom.is_none());
    let json = serde_json::to_value(&st).unwrap();
    assert!(json["benchmarks"].get("chartom").is_none());
    // item 3's override and item 2's fix (the verification grades its response) are the
    // verdicts used; item 1 has none
    assert_eq!(json["resolution"]["single"], 2);
    assert_eq!(json["resolution"]["none"], 1);
}

#[test]
fn progress_counts_done_items_not_partial_ones() {
    let s = store(&[
        r#"{"id":"1","benchmark":"chartom","responses":[{"model":"a","justification":"j"},{"model":"b","justification":"j"}],"reviews":{"r":{"models":{"a":{"justification":"misses"}}},"q":{"note":"later"}}}"#,
        r#"{"id":"2","benchmark":"chartom","responses":[{"model":"a","justification":"j"},{"model":"b","justification":"j"}],"reviews":{"r":{"models":{"a":{"justification":"misses"},"b":{"justification":"partial"}}}}}"#,
    ]);
    let st = compute(&s);
    assert_eq!((st.reviews["r"].reviewed, st.reviews["r"].done), (2, 1));
    assert_eq!((st.reviews["q"].reviewed, st.reviews["q"].done), (1, 0));
}

#[test]
fn threads_agree_with_one() {
    let line = r#"{"benchmark":"chartom","chart":{"pair":"P","version":"original","type":"bar"},"fact":{"format":"number","key":10},"mind":{"hmi":0.5},"responses":[{"model":"m","fact":"10","mind":0.25}]}"#;
    let bad = r#"{"benchmark":"chartom","chart":{"pair":"P","version":"manipulated","type":"bar"},"fact":{"format":"number","key":10},"mind":{"hmi":0.5},"responses":[{"model":"m","fact":"20","mind":0.75}]}"#;
    let mut lines = Vec::new();
    for k in 0..3000 {
        lines.push(if k % 3 == 0 { bad } else { line });
    }
    let st = compute(&store(&lines));
    let c = st.benchmarks.chartom.unwrap();
    let m = &c.models["m"];
    assert_eq!(m.n, 3000);
    assert_eq!(m.fact_accuracy, Some(2.0 / 3.0));
    assert_eq!(m.mind_mse, Some(0.0625));
    assert_eq!(m.by_version["manipulated"].fact_accuracy, Some(0.0));
    assert_eq!(m.by_type_version["bar"]["original"].n, 2000);
    assert_eq!(c.charts.len(), 3000);
    assert_eq!(c.charts[0].id, "#1");
    assert_eq!(c.charts[2999].id, "#3000");
}
