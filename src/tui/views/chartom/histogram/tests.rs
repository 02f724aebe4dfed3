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
