use super::*;
use serde_json::{Value, json};

pub(super) fn opts(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn numbers_in_text() {
    let cases: &[(&str, Option<f64>)] = &[
        ("about 1,200", Some(1200.0)),
        ("1.2", Some(1.2)),
        ("-3", Some(-3.0)),
        ("45%", Some(45.0)),
        ("1.5 million", Some(1_500_000.0)),
        ("1.2 million", Some(1_200_000.0)),
        ("$3k", Some(3000.0)),
        ("2.5bn dollars", Some(2.5e9)),
        ("roughly 12,345,678 people", Some(12_345_678.0)),
        ("1,2", Some(1.0)),
        ("1,2345", Some(1.0)),
        ("between 2-3", Some(2.0)),
        ("G7-3", Some(7.0)),
        (".5", Some(0.5)),
        ("−4.5 degrees", Some(-4.5)),
        ("5 meters", Some(5.0)),
        ("5 m", Some(5.0)),
        ("The value is 7.", Some(7.0)),
        ("no idea", None),
        ("", None),
    ];
    for (text, want) in cases {
        assert_eq!(first_number(text), *want, "{text:?}");
    }
}

#[test]
fn choices() {
    let o = opts(&["Apples", "Pears", "South Asia", "Asia"]);
    let cases: &[(&str, Option<u32>)] = &[
        ("2", Some(2)),
        ("B", Some(2)),
        ("b", Some(2)),
        ("Option 2", Some(2)),
        ("option B.", Some(2)),
        ("(b)", Some(2)),
        ("B) Pears", Some(2)),
        ("2. Pears", Some(2)),
        ("Answer: 1", Some(1)),
        ("The answer is (A)", Some(1)),
        ("pears", Some(2)),
        ("I think it is Pears.", Some(2)),
        ("South Asia", Some(3)),
        ("the region is South Asia", Some(3)),
        ("Asia", Some(4)),
        ("Apples or Pears", None),
        ("I think it is 2", Some(2)),
        ("either 1 or 2", None),
        ("7", None),
        ("E", None),
        ("", None),
    ];
    for (text, want) in cases {
        assert_eq!(parse_choice(text, &o), *want, "{text:?}");
    }
    // options whose text is a number: the text wins over the label
    let years = opts(&["1990", "2000"]);
    assert_eq!(parse_choice("2000", &years), Some(2));
    assert_eq!(parse_choice("2", &years), Some(2));
}

#[test]
fn ranks() {
    let o = opts(&["Apples", "Pears", "Plums"]);
    let cases: &[(&str, Option<Vec<u32>>)] = &[
        ("3, 1, 2", Some(vec![3, 1, 2])),
        ("C > A > B", Some(vec![3, 1, 2])),
        ("[3,1,2]", Some(vec![3, 1, 2])),
        ("Ranking: 3 then 1 then 2", Some(vec![3, 1, 2])),
        ("Plums, Apples, Pears", Some(vec![3, 1, 2])),
        ("Plums > Apples > Pears", Some(vec![3, 1, 2])),
        (
            "Most: plums; then apples; least: pears",
            Some(vec![3, 1, 2]),
        ),
        ("1200, 800, 600", None),
        ("no idea", None),
    ];
    for (text, want) in cases {
        assert_eq!(parse_rank(text, &o), *want, "{text:?}");
    }
}

pub(super) fn fact(format: FactFormat, key: Value, options: &[&str]) -> Fact {
    Fact {
        format: Some(format),
        key: Some(key.into()),
        options: opts(options),
        ..Fact::default()
    }
}

#[test]
fn fact_correctness() {
    let f = fact(FactFormat::Choice, json!(2), &["a", "b", "c"]);
    assert_eq!(grade_fact(&f, Some("B")).correct, Some(true));
    assert_eq!(grade_fact(&f, Some("3")).correct, Some(false));
    let g = grade_fact(&f, Some("dunno"));
    assert_eq!((g.parsed, g.correct), (None, Some(false)));
    assert_eq!(grade_fact(&f, None).correct, Some(false));
    assert_eq!(grade_fact(&f, Some("2")).display.as_deref(), Some("2 (b)"));

    let r = fact(FactFormat::Rank, json!([3, 1, 2]), &["x", "y", "z"]);
    assert_eq!(grade_fact(&r, Some("3,1,2")).correct, Some(true));
    assert_eq!(grade_fact(&r, Some("3,2,1")).correct, Some(false));
    assert_eq!(grade_fact(&r, Some("3,1")).correct, Some(false));
    assert_eq!(
        grade_fact(&r, Some("C > A > B")).display.as_deref(),
        Some("3 > 1 > 2")
    );
    let r2 = fact(
        FactFormat::Rank,
        json!([[1, 2, 3], [2, 1, 3]]),
        &["x", "y", "z"],
    );
    assert_eq!(grade_fact(&r2, Some("2 1 3")).correct, Some(true));
    assert_eq!(grade_fact(&r2, Some("1 2 3")).correct, Some(true));
    assert_eq!(grade_fact(&r2, Some("3 2 1")).correct, Some(false));

    let n = fact(FactFormat::Number, json!(1.2), &[]);
    assert_eq!(grade_fact(&n, Some("1.08")).correct, Some(true)); // 0.9 × 1.2
    assert_eq!(grade_fact(&n, Some("1.32")).correct, Some(true)); // 1.1 × 1.2
    assert_eq!(grade_fact(&n, Some("1.07")).correct, Some(false));
    assert_eq!(grade_fact(&n, Some("1.33")).correct, Some(false));
    assert_eq!(
        grade_fact(&n, Some("about 1.25 trillion")).correct,
        Some(false)
    );
    let neg = fact(FactFormat::Number, json!(-10), &[]);
    assert_eq!(grade_fact(&neg, Some("-9")).correct, Some(true));
    assert_eq!(grade_fact(&neg, Some("-11")).correct, Some(true));
    assert_eq!(grade_fact(&neg, Some("9")).correct, Some(false));
    let zero = fact(FactFormat::Number, json!(0), &[]);
    assert_eq!(grade_fact(&zero, Some("0")).correct, Some(true));
    assert_eq!(grade_fact(&zero, Some("0.01")).correct, Some(false));
    let big = fact(FactFormat::Number, json!(1200), &[]);
    assert_eq!(grade_fact(&big, Some("about 1,200")).correct, Some(true));
    // no key: no grade
    let nokey = Fact {
        format: Some(FactFormat::Number),
        ..Fact::default()
    };
    assert_eq!(grade_fact(&nokey, Some("3")).correct, None);
}

pub(super) fn number_fact(question: &str, key: Value) -> Fact {
    Fact {
        question: Some(question.into()),
        format: Some(FactFormat::Number),
        key: Some(key.into()),
        ..Fact::default()
    }
}

pub(super) fn graded(f: &Fact, answer: &str) -> (Option<String>, Option<bool>) {
    let g = grade_fact(f, Some(answer));
    (g.display, g.correct)
}

/// A question about "1 million bags", key 1.2: answers repeating the question's scale
/// word are read in the question's unit; full counts are converted to it.
#[test]
fn numbers_in_the_questions_unit() {
    let f = number_fact(
        "In 2020 the shop sold 1 million bags. How many million bags did it sell in 2021?",
        json!(1.2),
    );
    assert_eq!(Unit::of_question(f.question.as_deref()).scale, 6);
    for answer in [
        "1.2 million bags",
        "1.2 million",
        "1.2M",
        "1.2m bags",
        "1,200,000",
        "1200000",
        "1.2",
        "~1.2",
        "about 1.2",
        "approximately 1.2 million",
        "≈ 1.25 million",
        "1,200 thousand",
        "1.1-1.3 million",
        "between 1.1 and 1.3 million",
        "1.1 million to 1.3 million",
        "Answer: 1.2 (million bags)",
    ] {
        assert_eq!(graded(&f, answer).1, Some(true), "{answer:?}");
    }
    assert_eq!(graded(&f, "1.2 million bags").0.as_deref(), Some("1.2"));
    assert_eq!(graded(&f, "1,200,000").0.as_deref(), Some("1.2"));
    assert_eq!(graded(&f, "1.1-1.3 million").0.as_deref(), Some("1.1–1.3"));
    for answer in [
        "1.2 billion",
        "12 million",
        "120,000",
        "6",
        "1-1.3 million",
        "0",
        "-1.2",
        "none",
    ] {
        assert_eq!(graded(&f, answer).1, Some(false), "{answer:?}");
    }
    // the key written out in full: the scale word is the answer's own
    let full = number_fact("How many bags did it sell in 2021?", json!(1_200_000));
    for answer in ["1.2 million", "1.2M", "1,200,000", "1.2e6", "1200 thousand"] {
        assert_eq!(graded(&full, answer).1, Some(true), "{answer:?}");
    }
    assert_eq!(graded(&full, "1.2").1, Some(false));
    // a question in millions whose key is written out in full
    let both = number_fact("How many million bags?", json!(1_200_000));
    assert_eq!(graded(&both, "1.2 million").1, Some(true));
    assert_eq!(graded(&both, "1,200,000").1, Some(true));
    // a wrong answer is shown as read in the question's unit, never converted to
    // something else
    assert_eq!(graded(&f, "6 million").0.as_deref(), Some("6"));
    assert_eq!(graded(&f, "2,000,000").0.as_deref(), Some("2000000"));
    let thousands = number_fact("How many thousand visitors?", json!(1.2));
    assert_eq!(graded(&thousands, "300"), (Some("300".into()), Some(false)));
    assert_eq!(graded(&thousands, "1200").1, Some(true));
    // no unit in the question: a scale word is a scale
    let plain = number_fact("How many times larger is A than B?", json!(1.2));
    assert_eq!(graded(&plain, "1.2 million").1, Some(false));
    // two different scale words: no unit
    let two = number_fact("From 500 thousand to how many million?", json!(1.2));
    assert_eq!(Unit::of_question(two.question.as_deref()), Unit::NONE);
    // a key given as text in the question's unit
    let text_key = number_fact("How many million bags?", json!("1.2 million"));
    assert_eq!(fact_key(&text_key), Some(FactKey::Number(1.2)));
    assert_eq!(graded(&text_key, "1.2M").1, Some(true));
}

#[test]
fn ranges_fractions_percentages_and_odd_numbers() {
    let f = number_fact("How many times larger?", json!(1.2));
    // a range is correct only when all of it is within ±10 % (1.08..1.32)
    for (answer, want) in [
        ("1.1-1.3", true),
        ("1.1–1.3", true),
        ("1.1 — 1.3", true),
        ("1.1~1.3", true),
        ("1.1 to 1.3", true),
        ("between 1.1 and 1.3", true),
        ("1.3-1.1", true),
        ("1.0-1.3", false),
        ("1.1-1.4", false),
        ("1-2", false),
        ("1.2 to be exact", true),
    ] {
        assert_eq!(graded(&f, answer).1, Some(want), "{answer:?}");
    }
    assert_eq!(graded(&f, "1.3-1.1").0.as_deref(), Some("1.1–1.3"));
    // fractions
    let half = number_fact("What share of the pie is red?", json!(0.5));
    for (answer, want) in [
        ("1/2", true),
        ("1 / 2", true),
        ("about 1/2", true),
        ("3/4", false),
        ("50%", true),
        ("50 percent", true),
        ("50 per cent", true),
        ("0.5", true),
        ("55%", true),
        ("56%", false),
    ] {
        assert_eq!(graded(&half, answer).1, Some(want), "{answer:?}");
    }
    assert_eq!(graded(&half, "1/2").0.as_deref(), Some("0.5"));
    assert_eq!(graded(&half, "50%").0.as_deref(), Some("0.5"));
    // division by zero and overflow are unparsable, hence wrong
    for answer in ["1/0", "0/0", "1e999", "NaN", "inf", ""] {
        assert_eq!(graded(&half, answer), (None, Some(false)), "{answer:?}");
    }
    // a percentage key: x% is x
    let pct = number_fact("What percentage of voters chose A?", json!(45));
    assert!(Unit::of_question(pct.question.as_deref()).percent);
    assert_eq!(graded(&pct, "45%").1, Some(true));
    assert_eq!(graded(&pct, "45").1, Some(true));
    assert_eq!(graded(&pct, "0.45").1, Some(false));
    // a wrong percentage is shown as a share when the key is one
    assert_eq!(graded(&half, "30%").0.as_deref(), Some("0.3"));
    let rate = number_fact("What was the unemployment rate in 2010?", json!(9.6));
    assert_eq!(graded(&rate, "30%").0.as_deref(), Some("30"));
    assert_eq!(graded(&rate, "9.6%").1, Some(true));
    assert_eq!(graded(&rate, "96%").1, Some(false));
    // negative keys and answers
    let neg = number_fact("By how many degrees did it cool?", json!(-10));
    for (answer, want) in [
        ("-10", true),
        ("−10", true),
        ("about -9.5 degrees", true),
        ("-11 to -9", true),
        ("-11--9", true),
        ("−11 – −9", true),
        ("-12 to -9", false),
        ("-1/0", false),
        ("10", false),
        ("-10%", true),
    ] {
        assert_eq!(graded(&neg, answer).1, Some(want), "{answer:?}");
    }
    assert_eq!(graded(&neg, "-11 to -9").0.as_deref(), Some("-11–-9"));
    // zero: only 0 itself
    let zero = number_fact("How many were left?", json!(0));
    for (answer, want) in [
        ("0", true),
        ("-0", true),
        ("0.0", true),
        ("0%", true),
        ("0 million", true),
        ("0-0.1", false),
        ("0.001", false),
        ("1/2", false),
    ] {
        assert_eq!(graded(&zero, answer).1, Some(want), "{answer:?}");
    }
    // not read: number words, mixed numbers, inequalities
    let one_half = number_fact("How many times larger?", json!(1.5));
    assert_eq!(graded(&one_half, "one and a half"), (None, Some(false)));
    assert_eq!(graded(&one_half, "1 1/2").0.as_deref(), Some("1"));
    assert_eq!(graded(&one_half, "more than 1.5").1, Some(true));
    // exponents, stray signs and separators
    let k = number_fact("How many?", json!(1000));
    for (answer, want) in [
        ("1e3", true),
        ("1E3", true),
        ("1,000", true),
        ("1k", true),
        ("1.0e+3", true),
        ("10e2", true),
        ("1em", false),
        ("1,0000", false),
        ("--1000", false),
        ("1000-", true),
    ] {
        assert_eq!(graded(&k, answer).1, Some(want), "{answer:?}");
    }
}

#[test]
fn effective_grade_with_override() {
    let it = Item::parse(
            r#"{"id":"c","benchmark":"chartom","chart":{"pair":"P","version":"original","type":"bar"},
               "fact":{"format":"number","key":100,"human_answers":[[100,3],[500,1]],"strategies":{"misled":400,"skim":900}},
               "responses":[{"model":"a","fact":"about 105","mind":0.5},{"model":"b","fact":"150","mind":0.25}],
               "reviews":{"r1":{"at":"2026-01-01T00:00:00Z","models":{"b":{"fact_correct":true,"justification":"partial"}}}}}"#,
        )
        .unwrap();
    let a = effective(&it, "a");
    assert_eq!(a.fact.correct, Some(true));
    assert_eq!(a.fact_correct, Some(true));
    assert!(!a.overridden);
    // no mind.hmi: recomputed, interval (−∞, 200): 1 of 4 out
    assert_eq!(a.hmi, Some(0.25));
    assert_eq!(a.squared_error, Some(0.0625));
    let b = effective(&it, "b");
    assert_eq!(b.fact.correct, Some(false));
    assert_eq!(b.fact_correct, Some(true));
    assert!(b.overridden);
    assert_eq!(b.justification, Some(JustificationGrade::Partial));
    assert_eq!(b.squared_error, Some(0.0));
    let none = effective(&it, "zzz");
    assert_eq!(none.fact.correct, Some(false));
    assert_eq!(none.mind, None);
}

/// Every CHARTOM item of the samples, with answers of every kind and each override: the
/// index's shortcut says "wrong" exactly when the effective grade does.
#[test]
fn fact_wrong_is_what_the_effective_grade_says() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/samples/chartom.jsonl"
    ))
    .expect("tests/fixtures/samples/chartom.jsonl");
    let answers = [
        None,
        Some("1"),
        Some("2"),
        Some("B"),
        Some("(a)"),
        Some("12.5"),
        Some("1.2 million"),
        Some("3, 1, 2"),
        Some("[1, 2, 3]"),
        Some(""),
        Some("none of them"),
    ];
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let base = Item::parse(line).expect("a sample item");
        for a in answers {
            for over in [None, Some(true), Some(false)] {
                let mut item = base.clone();
                item.responses.push(crate::bench::Response {
                    model: "probe".into(),
                    fact: a.map(String::from),
                    ..Default::default()
                });
                let g = ResponseGrades {
                    chartom: crate::bench::chartom::fields::Grades {
                        fact_correct: over,
                        ..Default::default()
                    },
                    ..Default::default()
                };
                let mut r = crate::bench::Review::default();
                if item.responses.len() == 1 {
                    r.grades = g;
                } else {
                    r.models.insert("probe".into(), g);
                }
                item.reviews.insert("t".into(), r);
                let models = item.responses.iter().map(|r| r.model.clone());
                for m in models.chain(["absent".to_string()]) {
                    let raw = item.response(&m).and_then(|r| r.fact.as_deref());
                    assert_eq!(
                        item.fact.as_ref().and_then(|f| fact_correct(f, raw)),
                        effective(&item, &m).fact.correct,
                        "{m} on {line}"
                    );
                    assert_eq!(
                        fact_wrong(&item, &m),
                        effective(&item, &m).fact_correct == Some(false),
                        "{m} on {line}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 300, "{checked}");
}
