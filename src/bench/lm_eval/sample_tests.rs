use super::*;

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/sample-data/lm-eval/example__tiny-llama-1b/"
);

fn lines(task: &str) -> Vec<Map<String, Value>> {
    let p = format!("{DIR}samples_{task}_2026-11-20T10-15-42.518246.jsonl");
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_generated_answer_reads_its_filter_raw_text_and_metric() {
    let gsm = lines("gsm8k");
    assert_eq!(gsm.len(), 10);
    let s = Sample::read(&gsm[1]);
    assert_eq!(s.doc_id, "1");
    assert_eq!(s.filter.as_deref(), Some("strict-match"));
    assert!(
        s.prompt.starts_with("Question: A baker makes 14 loaves"),
        "{}",
        s.prompt
    );
    assert!(s.target.ends_with("#### 42"), "{}", s.target);
    let Answer::Generated { raw, filtered } = &s.answer else {
        panic!("{:?}", s.answer)
    };
    assert_eq!(filtered, "[invalid]");
    assert_eq!(raw.len(), 1);
    assert!(raw[0].contains("The answer is 42."));
    assert_eq!(s.primary(), Some(("exact_match", Some(0.0))));
    // the same question under the other filter
    let s = Sample::read(&gsm[6]);
    assert_eq!(s.filter.as_deref(), Some("flexible-extract"));
    assert_eq!(s.primary(), Some(("exact_match", Some(1.0))));
}

/// The model's choice by `acc` and by `acc_norm` is the one the harness scored: on every
/// line of the sample, the choice equals the key exactly when the metric is 1.
#[test]
fn multiple_choice_picks_as_acc_and_acc_norm_do() {
    let arc = lines("arc_easy");
    assert_eq!(arc.len(), 8);
    let mut differ = 0;
    for obj in &arc {
        let s = Sample::read(obj);
        let Answer::Choice(c) = &s.answer else {
            panic!("{:?}", s.answer)
        };
        assert_eq!(c.texts.len(), 4);
        assert!(c.texts.iter().all(|t| t.starts_with(' ')));
        let gold = c.gold.expect("the key's choice");
        let metric = |n: &str| s.metrics.iter().find(|(m, _)| m == n).unwrap().1.unwrap();
        assert_eq!(c.picked() == Some(gold), metric("acc") == 1.0, "{obj:?}");
        assert_eq!(
            c.picked_norm() == Some(gold),
            metric("acc_norm") == 1.0,
            "{obj:?}"
        );
        differ += usize::from(c.picked() != c.picked_norm());
        assert_eq!(s.primary().unwrap().0, "acc");
    }
    assert!(
        differ > 0,
        "the sample has questions where acc and acc_norm disagree"
    );
}

#[test]
fn older_and_odd_shapes_read_without_failing() {
    // arguments as lists, log-likelihoods as numbers, the key as a choice's text
    let obj: Map<String, Value> = serde_json::from_str(
        r#"{"doc_id":3,"target":"blue","arguments":[["Sky?"," red"],["Sky?"," blue"]],
            "resps":[[[-2.5,false]],[[-0.5,true]]],"filtered_resps":[[-2.5,false],[-0.5,true]],"acc":1.0}"#,
    )
    .unwrap();
    let s = Sample::read(&obj);
    assert_eq!(s.prompt, "Sky?");
    let Answer::Choice(c) = &s.answer else {
        panic!()
    };
    assert_eq!((c.gold, c.picked()), (Some(1), Some(1)));
    assert_eq!(s.metrics, [("acc".to_string(), Some(1.0))]);
    // nothing but the keys that make a sample
    let bare: Map<String, Value> =
        serde_json::from_str(r#"{"doc_id":"x","arguments":7,"filtered_resps":null}"#).unwrap();
    let s = Sample::read(&bare);
    assert_eq!(s.doc_id, "x");
    assert_eq!(s.primary(), None);
    assert_eq!(
        s.answer,
        Answer::Generated {
            raw: vec![],
            filtered: String::new()
        }
    );
}
