use super::*;
use crate::bench::lm_eval::sample::MetricValue;
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
    let f = &s.finish().unwrap().filters["strict-match"];
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
    let (one, two) = (one.finish().unwrap().filters, a.finish().unwrap().filters);
    assert_eq!(one, two);
    assert_eq!(one["strict-match"].samples, 3);
    assert_eq!(one["flexible-extract"].corrected, Some(1.0));
    assert_eq!(one["strict-match"].corrected, Some(0.5));
    assert!(Sums::default().finish().is_none());
}

fn real(task: &str) -> Vec<Sample> {
    let p = format!(
        "{}/tests/fixtures/real-logs/lm-eval/out/example__fixed-1b/samples_{task}_2026-11-26T19-41-47.622322.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| Sample::read(&serde_json::from_str(l).unwrap()))
        .collect()
}

/// A perplexity is exp(−mean ll), not a mean; a verdict stands in for `acc` only, and
/// leaves the perplexity as the harness has it (issue 18: one "correct" gave −3.045).
#[test]
fn a_verdict_corrects_acc_and_leaves_a_perplexity_alone() {
    let lines = real("vr_cloze");
    let mut s = Sums::default();
    for (i, x) in lines.iter().enumerate() {
        s.add(x, (i == 2).then_some(Verdict::Correct));
    }
    let f = &s.finish().unwrap().filters["none"];
    assert_eq!(format!("{:.4}", f.harness["perplexity"]), "5.8650");
    assert_eq!(format!("{:.4}", f.harness["acc"]), "0.6000");
    assert_eq!(f.metric.as_deref(), Some("acc"));
    assert_eq!(f.not_corrected, ["perplexity"]);
    assert_eq!(f.aggregation["perplexity"], "perplexity");
    // doc 2 is not greedy: acc 0 → the verdict makes it 1
    assert_eq!(lines[2].metric("acc"), Some(MetricValue::Number(0.0)));
    assert_eq!(f.corrected, Some(0.8));
    assert_eq!((f.reviewed, f.correct_but_scored_0), (1, 1));
    assert!(
        !f.stderr.contains_key("perplexity"),
        "a bootstrap, not computed"
    );
}

/// The rolling metrics are weighted by the pairs each line logs; no verdict changes them.
#[test]
fn rolling_metrics_are_weighted_and_never_corrected() {
    let mut s = Sums::default();
    for x in real("vr_prose") {
        s.add(&x, Some(Verdict::Incorrect));
    }
    let f = &s.finish().unwrap().filters["none"];
    let four = |m: &str| format!("{:.4}", f.harness[m]);
    assert_eq!(
        (
            four("word_perplexity"),
            four("byte_perplexity"),
            four("bits_per_byte")
        ),
        ("3.6699".into(), "1.2568".into(), "0.3298".into())
    );
    assert_eq!((f.metric.clone(), f.corrected), (None, None));
    assert_eq!(f.not_corrected.len(), 3);
    assert_eq!(f.reviewed, 3);
    assert!(f.stderr.is_empty(), "the harness has none: N/A");
}

/// A figure verdict does not work out from the samples (an aggregation it does not
/// recompute, such as `f1`; a perplexity's bootstrap stderr) is reported from the run's
/// results file, and marked so, in `--json` and in the text.
#[test]
fn figures_not_from_the_samples_are_the_results_files_and_marked() {
    let mut s = Sums {
        run: Some(crate::bench::lm_eval::run::Run {
            task: "t".into(),
            results_file: Some("results_x.json".into()),
            reported: [(
                "none".to_string(),
                [
                    ("f1".to_string(), serde_json::json!(0.8125)),
                    ("f1_stderr".to_string(), serde_json::json!("N/A")),
                    ("perplexity".to_string(), serde_json::json!(7.3891)),
                    ("perplexity_stderr".to_string(), serde_json::json!(3.25)),
                ]
                .into_iter()
                .collect(),
            )]
            .into_iter()
            .collect(),
            ..Default::default()
        }),
        ..Sums::default()
    };
    s.add(&sample("none", "f1", 1.0), None);
    s.add(&sample("none", "f1", 0.0), None);
    s.add(&sample("none", "perplexity", -2.0), None);
    s.add(&sample("none", "perplexity", -2.0), None);
    let x = s.finish().unwrap();
    let f = &x.filters["none"];
    assert_eq!(f.aggregation["f1"], "f1");
    assert_eq!(f.harness["f1"], 0.8125);
    assert_eq!(f.stderr.get("f1"), None, "N/A stays absent");
    assert_eq!(f.harness["perplexity"], 2.0f64.exp());
    assert_eq!(f.stderr["perplexity"], 3.25);
    assert_eq!(f.from_results_file, ["f1", "perplexity_stderr"]);
    let mut text = String::new();
    crate::bench::lm_eval::stats_text::render(&Some(x), &mut text);
    let row = |m: &str| {
        text.lines()
            .find(|l| l.split_whitespace().nth(1) == Some(m))
            .unwrap_or_else(|| panic!("{text}"))
            .to_string()
    };
    assert!(row("f1").contains("0.8125 (results)"), "{text}");
    assert!(row("perplexity").contains("3.2500 (results)"), "{text}");
    assert!(
        text.contains("(results): not worked out from the samples"),
        "{text}"
    );
}
