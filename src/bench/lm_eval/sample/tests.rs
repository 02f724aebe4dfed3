use super::*;

const DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/samples/lm-eval/example__tiny-llama-1b/"
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
        assert_eq!(c.gold.len(), 1, "{obj:?}");
        let gold = c.gold[0];
        let metric = |n: &str| s.metric(n).and_then(MetricValue::number).unwrap();
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
    assert_eq!((c.gold.clone(), c.picked()), (vec![1], Some(1)));
    assert_eq!(c.key, Key::Text);
    assert_eq!(s.metrics.len(), 1);
    assert_eq!(s.metric("acc"), Some(MetricValue::Number(1.0)));
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

// ----- logs written by lm_eval 0.4.13 (tests/fixtures/real-logs/README.md) -------------

const REAL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/real-logs/lm-eval/out/example__fixed-1b/"
);

fn real(task: &str) -> Vec<Map<String, Value>> {
    let p = format!("{REAL}samples_{task}_2026-11-26T19-41-47.622322.jsonl");
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The run's configuration of `task`, from its results file.
fn config(task: &str) -> crate::bench::lm_eval::run::TaskConfig {
    let p = format!("{REAL}samples_{task}_2026-11-26T19-41-47.622322.jsonl");
    crate::bench::lm_eval::run::Run::of(std::path::Path::new(&p))
        .unwrap()
        .config
        .expect("the task's configuration in the results file")
}

/// The key on every multiple-choice line is the harness's: the model's pick is a key
/// exactly when the harness scored `acc` 1 and `acc_norm`'s pick likewise, read from the
/// line alone and with the run's configuration. `vr_pick`'s target is a choice's text
/// (`"2"` among `"1".."4"` is choice 1, not 2); `vr_multi`'s lists several choices.
#[test]
fn the_key_is_the_harnesss_on_real_multiple_choice_lines() {
    for task in ["vr_pick", "vr_multi"] {
        let cfg = config(task);
        for obj in real(task) {
            let mut s = Sample::read(&obj);
            for pass in 0..2 {
                if pass == 1 {
                    s.apply(Some(&cfg));
                }
                let Answer::Choice(c) = &s.answer else {
                    panic!("{task}: {:?}", s.answer)
                };
                let metric = |n: &str| s.metric(n).and_then(MetricValue::number).unwrap();
                assert!(!c.gold.is_empty(), "{task} {obj:?}");
                assert_eq!(
                    c.picked().is_some_and(|p| c.is_gold(p)),
                    metric("acc") == 1.0,
                    "{task} pass {pass}: {obj:?} {c:?}"
                );
                assert_eq!(
                    c.picked_norm().is_some_and(|p| c.is_gold(p)),
                    metric("acc_norm") == 1.0,
                    "{task} pass {pass}: {obj:?}"
                );
            }
        }
    }
    let first = Sample::read(&real("vr_pick")[0]);
    let Answer::Choice(c) = &first.answer else {
        panic!()
    };
    assert_eq!((first.target.as_str(), c.gold.as_slice()), ("2", &[1][..]));
    assert_eq!(c.key, Key::Text);
    let multi = Sample::read(&real("vr_multi")[0]);
    let Answer::Choice(c) = &multi.answer else {
        panic!()
    };
    assert_eq!((c.gold.as_slice(), c.key), (&[0, 2][..], Key::List));
}

/// The harness's rule for a target in text (`doc_to_target` a field, a template):
/// the kind the configuration or the `doc` gives decides, not the look of the text.
#[test]
fn a_digit_target_is_an_index_or_a_text_as_the_harness_had_it() {
    let line = |doc: &str| -> Map<String, Value> {
        serde_json::from_str(&format!(
            r#"{{"doc_id":0,"doc":{doc},"target":"2","arguments":{{"gen_args_0":{{"arg_0":"Q","arg_1":" 1"}},"gen_args_1":{{"arg_0":"Q","arg_1":" 2"}},"gen_args_2":{{"arg_0":"Q","arg_1":" 3"}}}},"filtered_resps":[["-1","False"],["-2","False"],["-3","False"]],"filter":"none","metrics":["acc"],"acc":0.0}}"#
        ))
        .unwrap()
    };
    let gold = |s: &Sample| match &s.answer {
        Answer::Choice(c) => c.gold.clone(),
        _ => panic!(),
    };
    // the doc's field is a number: an index
    assert_eq!(gold(&Sample::read(&line(r#"{"label":2}"#))), [2]);
    // the doc's field is text: the choice whose text it is
    assert_eq!(gold(&Sample::read(&line(r#"{"label":"2"}"#))), [1]);
    // a template (`{{label}}`) renders digits, which the harness reads as an index
    let mut s = Sample::read(&line(r#"{"label":"2"}"#));
    s.apply(Some(&crate::bench::lm_eval::run::TaskConfig {
        doc_to_target: Some(Value::String("{{label}}".into())),
        ..Default::default()
    }));
    assert_eq!(gold(&s), [2]);
    // no doc: the reading that agrees with the harness's acc (pick 0, acc 0: both do;
    // then an index)
    assert_eq!(gold(&Sample::read(&line("null"))), [2]);
    // a target that names no choice: no key (the harness scores 0)
    let mut none = line(r#"{"label":"7"}"#);
    none.insert("target".into(), Value::String("7".into()));
    assert!(gold(&Sample::read(&none)).is_empty());
}

/// A loglikelihood task's line: the continuation, its log-likelihood and `is_greedy`
/// (what `acc` is); `perplexity`'s per-line value is the log-likelihood.
#[test]
fn a_loglikelihood_line_reads_its_continuation_and_is_greedy() {
    let lines = real("vr_cloze");
    assert_eq!(lines.len(), 5);
    for obj in &lines {
        let s = Sample::read(obj);
        let Answer::Loglikelihood {
            continuation,
            loglikelihood,
            is_greedy,
        } = &s.answer
        else {
            panic!("{:?}", s.answer)
        };
        assert_eq!(continuation, &s.target);
        let acc = s.metric("acc").and_then(MetricValue::number).unwrap();
        assert_eq!(*is_greedy, Some(acc == 1.0), "{obj:?}");
        assert_eq!(
            s.metric("perplexity"),
            loglikelihood.map(MetricValue::Number)
        );
        // the verdict stands in for acc, never for the perplexity
        assert_eq!(s.primary().map(|p| p.0), Some("acc"));
    }
}

#[test]
fn a_rolling_line_reads_its_loglikelihood_and_the_weighted_pairs() {
    for obj in real("vr_prose") {
        let s = Sample::read(&obj);
        let Answer::Rolling { loglikelihood } = s.answer else {
            panic!("{:?}", s.answer)
        };
        let Some(MetricValue::Pair(ll, bytes)) = s.metric("bits_per_byte") else {
            panic!()
        };
        assert_eq!(Some(ll), loglikelihood);
        assert_eq!(bytes as usize, s.target.len());
        assert_eq!(s.primary(), None, "no metric a verdict stands in for");
        assert_eq!(
            s.metrics.iter().map(|m| m.agg.name()).collect::<Vec<_>>(),
            [
                "weighted_perplexity",
                "weighted_perplexity",
                "bits_per_byte"
            ]
        );
    }
}

#[test]
fn repeats_keep_each_raw_answer_apart() {
    let s = Sample::read(&real("vr_arith")[0]);
    let Answer::Generated { raw, filtered } = &s.answer else {
        panic!()
    };
    assert_eq!(
        raw,
        &["2 + 3 = 5. The answer is 5.", "The answer is 5.", "5"]
    );
    assert_eq!(filtered, "5");
}

/// `Sample::take` (the prompt moved out of the parsed line) reads what `Sample::read`
/// reads, on every sample file lm-eval wrote here and on the older and odd shapes of
/// `arguments`.
#[test]
fn taking_the_prompt_reads_the_same_sample_as_reading_it() {
    let mut objs: Vec<Map<String, Value>> = Vec::new();
    for dir in [
        DIR.to_string(),
        REAL.to_string(),
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/real-logs/lm-eval/flat/"
        )
        .into(),
    ] {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "jsonl") {
                let text = std::fs::read_to_string(&p).unwrap();
                objs.extend(
                    text.lines()
                        .map(|l| serde_json::from_str::<Map<_, _>>(l).unwrap()),
                );
            }
        }
    }
    assert!(objs.len() > 40, "{}", objs.len());
    for arguments in [
        r#"[["Question: old\nAnswer:", " 4"], ["Question: old", " 5"]]"#,
        r#"["a bare prompt", ["p", " c"]]"#,
        r#"[[12, " c"]]"#,
        r#"{"gen_args_0": {"arg_0": {"a": 1}, "arg_1": " c"}}"#,
        r#"{"gen_args_0": "not an object"}"#,
        r#"{"gen_args_1": {"arg_0": "no first request"}}"#,
        r#"[]"#,
        r#"null"#,
    ] {
        let mut o = objs[0].clone();
        o.insert("arguments".into(), serde_json::from_str(arguments).unwrap());
        objs.push(o.clone());
        o.remove("arguments");
        objs.push(o);
    }
    for obj in &objs {
        let read = Sample::read(obj);
        assert_eq!(Sample::take(obj.clone()), read, "{obj:?}");
    }
}

/// Issue 39: which lines of a doc answer with the same generation. vr_filters (lm_eval
/// 0.4.13, three repeats): strict-match and flexible-extract take the first, maj@3 votes
/// over the three; without the run's configuration only a single generation is known
/// to be shared.
#[test]
fn the_lines_of_a_doc_that_share_a_generation() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/real-logs/lm-eval/filters/example__fixed-1b/"
    );
    let p = format!("{dir}samples_vr_filters_2026-11-29T15-47-32.200512.jsonl");
    let cfg = crate::bench::lm_eval::run::Run::of(std::path::Path::new(&p))
        .unwrap()
        .config
        .unwrap();
    assert_eq!(
        cfg.filters["maj@3"],
        ["regex", "majority_vote", "take_first"]
    );
    let lines: Vec<Sample> = std::fs::read_to_string(&p)
        .unwrap()
        .lines()
        .map(|l| Sample::read(&serde_json::from_str(l).unwrap()))
        .collect();
    let configured: Vec<Sample> = lines
        .iter()
        .cloned()
        .map(|mut s| {
            s.apply(Some(&cfg));
            s
        })
        .collect();
    // lines 0-3 strict-match, 4-7 flexible-extract, 8-11 maj@3 (docs 0-3)
    let taken = |v: &[Sample]| v.iter().map(|s| s.generation).collect::<Vec<_>>();
    assert_eq!(
        taken(&configured)[..],
        [Some(0); 8]
            .into_iter()
            .chain([None; 4])
            .collect::<Vec<_>>()[..]
    );
    assert_eq!(
        taken(&lines),
        vec![None; 12],
        "three repeats, no pipeline known"
    );
    for doc in 0..4 {
        let (strict, flexible, maj) =
            (&configured[doc], &configured[4 + doc], &configured[8 + doc]);
        assert!(strict.same_generation(flexible) && flexible.same_generation(strict));
        assert!(!strict.same_generation(maj) && !maj.same_generation(flexible));
        assert!(!strict.same_generation(strict), "another filter's line");
        assert!(!lines[doc].same_generation(&lines[4 + doc]));
    }
    assert!(
        !configured[0].same_generation(&configured[5]),
        "another doc"
    );
    // one generation: every filter of the doc takes it (gsm8k's hand-made file, no config)
    let gsm: Vec<Sample> = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/samples/lm-eval/example__tiny-llama-1b/samples_gsm8k_2026-11-20T10-15-42.518246.jsonl"
    ))
    .unwrap()
    .lines()
    .map(|l| Sample::read(&serde_json::from_str(l).unwrap()))
    .collect();
    assert!(gsm[1].same_generation(&gsm[6]));
    // the pipelines lm-eval 0.4 ships
    let p = |fs: &[&str]| takes_first(&fs.iter().map(|f| f.to_string()).collect::<Vec<_>>());
    assert!(
        p(&["regex", "take_first"]) && p(&["take_first"]) && p(&["lowercase", "map", "take_first"])
    );
    assert!(!p(&["regex", "majority_vote", "take_first"]) && !p(&["take_first_k"]));
    assert!(!p(&["custom", "take_first"]) && !p(&["regex"]));
}
