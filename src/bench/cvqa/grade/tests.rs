use super::*;

#[test]
fn numbers_as_the_script_reads_them() {
    let cases: &[(&str, Option<&str>)] = &[
        ("If the TV was off, there would be 3 cats.", Some("3")),
        ("There are two, if any", Some("2")),
        ("3", Some("3")),
        ("3 cats", Some("3")),
        ("Three.", Some("3")),
        ("TEN", Some("10")),
        ("There are no cats", Some("0")),
        ("None", Some("0")),
        ("zero", Some("0")),
        ("007", Some("7")),
        ("0", Some("0")),
        ("1,200", Some("1")),
        ("3.5", Some("3")),
        ("twelve", None),
        ("", None),
        ("   ", None),
        ("...", None),
        // starts with `if`, no comma: failed
        ("if 2 were added 5", None),
        // starts with `if`, nothing after the comma
        ("If they left,", None),
        // only the first comma counts
        ("If two left, then, 4 remain", Some("4")),
        // `if` later: only what comes before it
        ("I see 4 if you count the dog 5", Some("4")),
        ("If you count, if any, 6", Some("6")),
        ("I count 2 if not 3", Some("2")),
        ("There would be if 3", None),
        // words glued to digits are not all-digit tokens
        ("3rd row has 5", Some("5")),
        ("2x", None),
        // `if` inside a word is not `if`
        ("Cliff has 2", Some("2")),
        // the article "a" is not a number word
        ("a dozen", None),
        ("It is one", Some("1")),
        ("No.", Some("0")),
        ("There would be 12 apples, if 3 more were added", Some("12")),
    ];
    for (text, want) in cases {
        assert_eq!(extract_number(text).as_deref(), *want, "{text:?}");
    }
}

#[test]
fn booleans_as_the_script_reads_them() {
    let cases: &[(&str, Option<&str>)] = &[
        ("Yes", Some("yes")),
        ("yes.", Some("yes")),
        ("Yes, it is not", Some("no")),
        ("No", Some("no")),
        ("NO!", Some("no")),
        ("False", Some("no")),
        ("True", Some("yes")),
        ("It would be.", Some("yes")),
        ("They are", Some("yes")),
        ("Nope", None),
        ("I don't know", None),
        ("isn't", None),
        ("There is nothing", Some("yes")),
        ("cannot say", None),
        ("not sure", Some("no")),
        ("", None),
        // a boolean reads no `if` rule: "is" then "no"
        ("If it is on, no", Some("no")),
    ];
    for (text, want) in cases {
        assert_eq!(extract_boolean(text), *want, "{text:?}");
    }
}

const Q: &str = "How many flowers are outside the purple polygons? Select the correct answer:A:16  B:17  C:12  D:13";

#[test]
fn synthetic_options() {
    let o = options(Q);
    assert_eq!(o, vec![('A', "16"), ('B', "17"), ('C', "12"), ('D', "13")]);
    assert_eq!(
        question_stem(Q),
        "How many flowers are outside the purple polygons?"
    );
    assert!(options("How many cats?").is_empty());
    assert_eq!(question_stem("How many cats?"), "How many cats?");
}

#[test]
fn synthetic_letters() {
    let cases: &[(&str, Option<char>)] = &[
        ("C", Some('C')),
        ("c", Some('C')),
        ("C.", Some('C')),
        ("(B)", Some('B')),
        ("D: 13", Some('D')),
        ("B) 17", Some('B')),
        ("The answer is C", Some('C')),
        ("answer: d", Some('D')),
        ("Option b is right", Some('B')),
        ("I think B", Some('B')),
        ("A", Some('A')),
        ("A: 16", Some('A')),
        ("A total of 13 flowers", Some('D')),
        ("12", Some('C')),
        ("There are twelve flowers", None),
        ("There are 12 flowers", Some('C')),
        ("B or C", None),
        ("E", None),
        ("", None),
        ("I am not sure", None),
    ];
    for (text, want) in cases {
        assert_eq!(extract_choice(text, Q), *want, "{text:?}");
    }
}

#[test]
fn grading_is_exact() {
    let g = grade(CvqaKind::Number, Some("There are 3."), "", "3");
    assert_eq!(
        g,
        CvqaGrade {
            parsed: Some("3".into()),
            correct: true
        }
    );
    assert!(!grade(CvqaKind::Number, Some("3"), "", "3.0").correct);
    assert!(grade(CvqaKind::Number, Some("3"), "", " 3 ").correct);
    assert!(!grade(CvqaKind::Boolean, Some("Yes"), "", "Yes").correct);
    assert!(grade(CvqaKind::Boolean, Some("Yes"), "", "yes").correct);
    assert!(grade(CvqaKind::Choice, Some("13"), Q, "D").correct);
    let missing = grade(CvqaKind::Number, None, "", "3");
    assert_eq!((missing.parsed, missing.correct), (None, false));
}

#[test]
fn kinds() {
    assert_eq!(kind(Some("real"), Some("direct")), CvqaKind::Number);
    assert_eq!(kind(Some("real"), Some("indirect")), CvqaKind::Number);
    assert_eq!(kind(Some("real"), Some("boolean")), CvqaKind::Boolean);
    assert_eq!(kind(None, Some("abs_counting_3")), CvqaKind::Choice);
    assert_eq!(kind(Some("synthetic"), None), CvqaKind::Choice);
}

#[test]
fn effective_with_fix_override_and_reject() {
    let it = Item::parse(
            r#"{"id":"x","benchmark":"cvqa","split":"real","group":"direct",
               "original":{"question":"How many cats?","answer":"2"},
               "counterfactual":{"question":"How many cats if one left?","answer":"3"},
               "responses":[{"model":"m","original":"2 cats","counterfactual":"1"},
                            {"model":"n","original":"three","counterfactual":"3"}],
               "reviews":{"a":{"at":"2026-01-01T00:00:00Z","status":"fix","fixed_answer":"1","reason":"wrong-answer",
                               "models":{"n":{"original_correct":true}}}}}"#,
        )
        .unwrap();
    let m = effective(&it, "m");
    assert!(m.original.correct && m.original_correct);
    assert!(!m.counterfactual.correct);
    assert_eq!(m.fixed_key, "1");
    assert_eq!(m.counterfactual_fixed_correct, Some(true));
    assert!(!m.rejected);
    let n = effective(&it, "n");
    assert!(!n.original.correct);
    assert!(n.original_correct && n.original_overridden);
    assert!(n.counterfactual_correct);
    assert_eq!(n.counterfactual_fixed_correct, Some(false));

    let mut rej = it.clone();
    rej.reviews["a"].cvqa.status = Some(CvqaStatus::Reject);
    rej.reviews["a"].cvqa.fixed_answer = None;
    let m = effective(&rej, "m");
    assert!(m.rejected);
    assert_eq!(m.counterfactual_fixed_correct, None);
}

/// Every C-VQA item of the samples, with responses of every kind and every combination of
/// overrides: the index's shortcut says "wrong" exactly when the effective grades do.
#[test]
fn response_wrong_is_what_the_effective_grades_say() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/samples/cvqa.jsonl"
    ))
    .expect("tests/fixtures/samples/cvqa.jsonl");
    let answers = [
        None,
        Some("The answer is C."),
        Some("3"),
        Some("yes"),
        Some("No"),
        Some("If the TV was off, 2"),
        Some("D: 13"),
        Some(""),
        Some("A"),
        Some("two"),
    ];
    let overrides = [None, Some(true), Some(false)];
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let base = Item::parse(line).expect("a sample item");
        for (o, c) in answers.iter().zip(answers.iter().rev()) {
            for oo in overrides {
                for co in overrides {
                    let mut item = base.clone();
                    item.responses.push(crate::bench::Response {
                        model: "probe".into(),
                        original: o.map(String::from),
                        counterfactual: c.map(String::from),
                        ..Default::default()
                    });
                    let n = item.responses.len();
                    let mut r = crate::bench::Review::default();
                    let g = ResponseGrades {
                        cvqa: crate::bench::cvqa::fields::Grades {
                            original_correct: oo,
                            counterfactual_correct: co,
                        },
                        ..Default::default()
                    };
                    if n == 1 {
                        r.grades = g;
                    } else {
                        r.models.insert("probe".into(), g);
                    }
                    item.reviews.insert("t".into(), r);
                    for m in item
                        .responses
                        .iter()
                        .map(|r| r.model.clone())
                        .chain(["absent".to_string()])
                    {
                        let e = effective(&item, &m);
                        assert_eq!(
                            (
                                automatic(&item, &m, Question::Original).correct,
                                automatic(&item, &m, Question::Counterfactual).correct
                            ),
                            (e.original.correct, e.counterfactual.correct),
                            "{m} on {line}"
                        );
                        assert_eq!(
                            response_wrong(&item, &m),
                            !e.original_correct || !e.counterfactual_correct,
                            "{m} on {line}"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// The options and the marker found with memchr are those the byte-by-byte scans found
/// (the scans of before, kept here as the reference), on many generated questions.
#[test]
fn options_are_found_as_the_byte_scan_found_them() {
    fn marker_ref(q: &str) -> Option<usize> {
        let m = MARKER.as_bytes();
        q.as_bytes()
            .windows(m.len())
            .position(|w| w.eq_ignore_ascii_case(m))
    }
    fn options_ref(question: &str) -> Vec<(char, &str)> {
        let from = marker_ref(question).map(|i| i + MARKER.len()).unwrap_or(0);
        let text = &question[from..];
        let b = text.as_bytes();
        let mut marks = Vec::new();
        for i in 0..b.len().saturating_sub(1) {
            if b[i].is_ascii_uppercase()
                && b[i + 1] == b':'
                && (i == 0 || b[i - 1].is_ascii_whitespace() || b[i - 1] == b':')
            {
                marks.push(i);
            }
        }
        let mut out = Vec::new();
        for (k, &i) in marks.iter().enumerate() {
            let end = marks.get(k + 1).copied().unwrap_or(text.len());
            out.push((b[i] as char, text[i + 2..end].trim()));
        }
        let proper = out.len() >= 2
            && out
                .iter()
                .enumerate()
                .all(|(k, (c, _))| *c as u32 == 'A' as u32 + k as u32);
        if proper { out } else { Vec::new() }
    }
    let pieces = [
        "A:",
        "B:",
        "C:",
        "D:",
        ":",
        "::",
        " ",
        "\n",
        "x",
        "12",
        "Select the correct answer",
        "SELECT THE CORRECT ANSWER:",
        "select the",
        "sel",
        "SeLeCt",
        "é",
        "s",
        "S",
        "A",
        "b:",
        "\t",
    ];
    let mut seed = 0x1234_5678_u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..20_000 {
        // up to 40 pieces: markers across the 32-byte blocks of `find_marker`'s scan
        let n = (next() % 40) as usize;
        let q: String = (0..n)
            .map(|_| pieces[(next() % pieces.len() as u64) as usize])
            .collect();
        assert_eq!(find_marker(&q), marker_ref(&q), "{q:?}");
        assert_eq!(options(&q), options_ref(&q), "{q:?}");
    }
}
