use super::*;
use serde_json::{Map, Value};

fn sample(filter: &str, metric: &str, v: f64) -> Sample {
    let obj: Map<String, Value> = serde_json::from_str(&format!(
        r#"{{"doc_id":0,"arguments":{{}},"filtered_resps":["x"],"filter":"{filter}","metrics":["{metric}"],"{metric}":{v}}}"#
    ))
    .unwrap();
    Sample::read(&obj)
}

/// gsm8k's strict filter missed two right answers and scored one wrong key: the reviewer
/// marks them, and the corrected figure counts the first two and leaves the third out.
#[test]
fn verdicts_correct_the_harness_metric_and_an_ambiguous_key_is_left_out() {
    let mut s = Sums::default();
    s.add(&sample("strict-match", "exact_match", 1.0), None);
    s.add(
        &sample("strict-match", "exact_match", 0.0),
        Some(Verdict::Correct),
    );
    s.add(
        &sample("strict-match", "exact_match", 0.0),
        Some(Verdict::Correct),
    );
    s.add(
        &sample("strict-match", "exact_match", 0.0),
        Some(Verdict::AmbiguousKey),
    );
    s.add(
        &sample("strict-match", "exact_match", 1.0),
        Some(Verdict::Incorrect),
    );
    s.add(&sample("strict-match", "exact_match", 0.0), None);
    let f = &s.finish().unwrap()["strict-match"];
    assert_eq!(f.samples, 6);
    assert_eq!(f.harness["exact_match"], 2.0 / 6.0);
    assert_eq!(f.metric.as_deref(), Some("exact_match"));
    // 1 + 1 + 1 + 0 + 0 over the 5 samples whose key stands
    assert_eq!(f.corrected, Some(3.0 / 5.0));
    assert_eq!(
        (
            f.reviewed,
            f.correct_but_scored_0,
            f.incorrect_but_scored_1,
            f.ambiguous_key
        ),
        (4, 2, 1, 1)
    );
}

#[test]
fn blocks_merge_to_the_same_figures_and_filters_stay_apart() {
    let all = [
        ("strict-match", 1.0, None),
        ("flexible-extract", 0.0, Some(Verdict::Correct)),
        ("strict-match", 0.0, Some(Verdict::Incorrect)),
        ("flexible-extract", 1.0, None),
        ("strict-match", 0.0, Some(Verdict::AmbiguousKey)),
    ];
    let mut one = Sums::default();
    for (f, v, r) in all {
        one.add(&sample(f, "exact_match", v), r);
    }
    let (mut a, mut b) = (Sums::default(), Sums::default());
    for (k, (f, v, r)) in all.into_iter().enumerate() {
        if k < 2 { &mut a } else { &mut b }.add(&sample(f, "exact_match", v), r);
    }
    a.merge(b);
    let (one, two) = (one.finish().unwrap(), a.finish().unwrap());
    assert_eq!(one, two);
    assert_eq!(one["strict-match"].samples, 3);
    assert_eq!(one["flexible-extract"].corrected, Some(1.0));
    assert_eq!(one["strict-match"].corrected, Some(0.5));
    assert!(Sums::default().finish().is_none());
}
