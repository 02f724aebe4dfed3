use super::*;

fn g7(answers: serde_json::Value) -> Item {
    Item::parse(
        &serde_json::json!({
            "id": "G7_Q1_1", "benchmark": "chartom",
            "fact": {"question": "q", "format": "number", "key": 1.2,
                     "strategies": {"misled": 6, "skim": 300}, "human_answers": answers},
            "responses": [{"model": "m", "fact": "about 6"}]
        })
        .to_string(),
    )
    .unwrap()
}

#[test]
fn shaded_buckets_hold_exactly_the_acceptable_answers() {
    // The paper's G7_Q1: 12 of 68 and 20 of 68 answers outside (−∞, 2.68).
    for (answers, bad) in [
        (
            serde_json::json!([
                [1.2, 38],
                [1.1, 6],
                [1.25, 5],
                [1.3, 4],
                [2, 3],
                [5, 3],
                [6, 5],
                [300, 4]
            ]),
            12,
        ),
        (
            serde_json::json!([
                [1.2, 30],
                [1.1, 6],
                [1.3, 6],
                [2.5, 6],
                [4, 3],
                [6, 12],
                [300, 5]
            ]),
            20,
        ),
    ] {
        let h = histogram(&g7(answers), Some("m"), 10).unwrap();
        assert!(h.log_scale, "1.1 to 300 spans orders of magnitude");
        assert_eq!(h.n, 68);
        let shaded: u64 = h
            .buckets
            .iter()
            .filter(|b| b.acceptable)
            .map(|b| b.count)
            .sum();
        assert_eq!(shaded, 68 - bad);
        assert_eq!(h.buckets.iter().filter(|b| b.has_key).count(), 1);
        let model = h.buckets.iter().find(|b| b.has_model).unwrap();
        assert!(!model.acceptable, "the model's 6 is outside the interval");
        assert_eq!(h.buckets.iter().map(|b| b.count).sum::<u64>(), 68);
    }
}

#[test]
fn a_single_value_makes_one_bucket() {
    let h = histogram(&g7(serde_json::json!([[1.2, 5]])), None, 10).unwrap();
    assert_eq!(h.buckets.len(), 1);
    assert_eq!(h.buckets[0].count, 5);
    assert!(!h.log_scale);
}

#[test]
fn an_override_equal_to_the_automatic_grade_is_no_disagreement() {
    // CHARTOM: "C" names Transport, the key is Rent: automatically wrong. alice's
    // override says wrong too; carol gives no override: the same effective grade.
    let chartom = |alice: &str, carol: &str| {
        Item::parse(&format!(
                r#"{{"id":"G","benchmark":"chartom",
                   "fact":{{"question":"q","format":"choice","options":["Rent","Food","Transport"],"key":1}},
                   "responses":[{{"model":"m","fact":"C","justification":"j"}},{{"model":"n","fact":"Rent","justification":"j"}}],
                   "reviews":{{"alice":{{"models":{{"m":{alice}}}}},"carol":{{"models":{{"m":{carol}}}}}}}}}"#
            ))
            .unwrap()
    };
    let same = chartom(
        r#"{"justification":"partial","fact_correct":false}"#,
        r#"{"justification":"partial"}"#,
    );
    assert!(!reviewers_disagree(&same));
    assert!(!needs_adjudication(&same));
    assert!(!disagreement(&same));
    let differ = chartom(
        r#"{"justification":"partial","fact_correct":true}"#,
        r#"{"justification":"partial"}"#,
    );
    assert!(reviewers_disagree(&differ));
    // C-VQA: original answered "no" to key "yes" (automatically wrong), the
    // counterfactual right.
    let cvqa = |alice: &str, carol: &str| {
        Item::parse(&format!(
            r#"{{"id":"c","benchmark":"cvqa","group":"boolean",
                   "original":{{"question":"q?","answer":"yes"}},
                   "counterfactual":{{"question":"c?","answer":"no"}},
                   "responses":[{{"model":"m","original":"no","counterfactual":"no"}}],
                   "reviews":{{"alice":{alice},"carol":{carol}}}}}"#
        ))
        .unwrap()
    };
    let same = cvqa(
        r#"{"status":"accept","original_correct":false,"counterfactual_correct":true}"#,
        r#"{"status":"accept"}"#,
    );
    assert!(!reviewers_disagree(&same));
    let differ = cvqa(
        r#"{"status":"accept","original_correct":true}"#,
        r#"{"status":"accept"}"#,
    );
    assert!(reviewers_disagree(&differ));
}

/// The key line of the item screen says the key as `verdict stats` says it (one rule,
/// `bench::chartom::grade::key_display`), with the tolerance of a number key.
#[test]
fn the_key_line_is_the_key_as_stats_shows_it() {
    let fact = |format: &str, key: serde_json::Value, options: serde_json::Value| {
        let it = Item::parse(
            &serde_json::json!({
                "benchmark": "chartom",
                "fact": {"question": "q", "format": format, "key": key, "options": options},
            })
            .to_string(),
        )
        .unwrap();
        fact_key_display(it.fact.as_ref().unwrap())
    };
    // Alternative rankings: " or ", as in the suspect-key list.
    assert_eq!(
        fact(
            "rank",
            serde_json::json!([[3, 1, 2], [1, 3, 2]]),
            serde_json::json!(["a", "b", "c"])
        ),
        "3 > 1 > 2 or 1 > 3 > 2"
    );
    // An option without a text shows its number alone.
    assert_eq!(
        fact("choice", serde_json::json!(2), serde_json::json!(["x", ""])),
        "2"
    );
    assert_eq!(
        fact(
            "choice",
            serde_json::json!(2),
            serde_json::json!(["x", "Spain"])
        ),
        "2 (Spain)"
    );
    assert_eq!(
        fact("number", serde_json::json!(1.2), serde_json::json!([])),
        "1.2 (correct within ±10%)"
    );
    assert_eq!(
        fact("number", serde_json::Value::Null, serde_json::json!([])),
        "missing or unusable"
    );
}
