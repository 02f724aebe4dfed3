use super::*;

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
