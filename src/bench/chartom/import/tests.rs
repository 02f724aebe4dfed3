use super::*;

fn q(opts: &[&str]) -> Question {
    Question {
        text: "q".into(),
        options: opts.iter().map(|s| s.to_string()).collect(),
        style: Some(LabelStyle::Upper),
    }
}

#[test]
fn questions_with_option_lines() {
    for src in [
        "Which year had the most sales?\nA. 2015\nB. 2016\nC. 2017\n",
        "Which year had the most sales?\r\n\r\nA) 2015\r\nB) 2016\r\nC) 2017\r\n",
        "Which year had the most sales?\n(a) 2015\n(b) 2016\n(c) 2017",
        "Which year had the most sales?\n  1. 2015\n  2. 2016\n\n  3. 2017\n",
        "\u{feff}Which year had the most sales?\nA: 2015\nB: 2016\nC: 2017",
    ] {
        let p = parse_question(src);
        assert_eq!(p.text, "Which year had the most sales?", "{src:?}");
        assert_eq!(p.options, ["2015", "2016", "2017"], "{src:?}");
    }
    let p = parse_question("Q?\n(a) x\n(b) y");
    assert_eq!(p.style, Some(LabelStyle::Lower));
}

#[test]
fn continuation_trailing_text_and_preambles() {
    let p = parse_question(
        "1. Look at the chart.\n2. Then answer:\nWhich is larger?\nA. the red\n   bar\nB. the blue bar\n\nAnswer with a letter.",
    );
    assert_eq!(
        p.text,
        "1. Look at the chart.\n2. Then answer:\nWhich is larger?\n\nAnswer with a letter."
    );
    assert_eq!(p.options, ["the red bar", "the blue bar"]);
    // a single "option" is none; decimals are not labels
    let p = parse_question("About 1.5 million?\nA. yes");
    assert!(p.options.is_empty());
    assert_eq!(p.text, "About 1.5 million?\nA. yes");
}

#[test]
fn inline_options() {
    let p = parse_question("Which is largest? (A) Ohio (B) Utah (C) Iowa");
    assert_eq!(p.text, "Which is largest?");
    assert_eq!(p.options, ["Ohio", "Utah", "Iowa"]);
    let p =
        parse_question("How many? Select the correct answer:A:16  B:17  C:12  D:13\nThink first.");
    assert_eq!(
        p.text,
        "How many? Select the correct answer:\n\nThink first."
    );
    assert_eq!(p.options, ["16", "17", "12", "13"]);
}

#[test]
fn choice_keys() {
    let qq = q(&["2015", "2016", "2017"]);
    for k in [
        "B", "b", "(B)", "B.", "B) ", "2", "B. 2016", "2016", " 2016 ",
    ] {
        assert_eq!(parse_choice_key(k, &qq), Ok(2), "{k}");
    }
    assert!(
        parse_choice_key("D", &qq)
            .unwrap_err()
            .contains("names option 4")
    );
    assert!(parse_choice_key("2018", &qq).is_err());
    assert!(parse_choice_key("B", &q(&[])).is_err());
    // "1" is option 1 or the option whose text is "1"
    let nums = q(&["3", "1", "2"]);
    assert!(
        parse_choice_key("1", &nums)
            .unwrap_err()
            .contains("ambiguous")
    );
    assert_eq!(parse_choice_key("A", &nums), Ok(1));
}

#[test]
fn rank_keys() {
    let qq = q(&["Ohio", "Utah", "Iowa"]);
    for k in [
        "B, A, C",
        "2>1>3",
        "B > A > C",
        "B A C",
        "BAC",
        "C < A < B",
        "Utah, Ohio, Iowa",
    ] {
        assert_eq!(parse_rank_key(k, &qq), Ok(vec![vec![2, 1, 3]]), "{k}");
    }
    assert_eq!(
        parse_rank_key("B,A,C | A,B,C", &qq),
        Ok(vec![vec![2, 1, 3], vec![1, 2, 3]])
    );
    assert_eq!(
        parse_rank_key("BAC or ABC", &qq),
        Ok(vec![vec![2, 1, 3], vec![1, 2, 3]])
    );
    assert!(
        parse_rank_key("B, A", &qq)
            .unwrap_err()
            .contains("not an order")
    );
    assert!(parse_rank_key("B, A, A", &qq).is_err());
    assert!(parse_rank_key("B, A, D", &qq).is_err());
}

#[test]
fn numbers() {
    let n = |s: &str| parse_number(s).map(|n| n.to_string());
    assert_eq!(n("1.2").as_deref(), Ok("1.2"));
    assert_eq!(n(" 0.50 ").as_deref(), Ok("0.50"));
    assert_eq!(n("1,200").as_deref(), Ok("1200"));
    assert_eq!(n("$3.5 million").as_deref(), Ok("3.5"));
    assert_eq!(n("45%").as_deref(), Ok("45"));
    assert_eq!(n("-7").as_deref(), Ok("-7"));
    assert_eq!(n(".5").as_deref(), Ok("0.5"));
    assert_eq!(n("007").as_deref(), Ok("7"));
    assert_eq!(parse_number("1e3").unwrap().as_f64(), Some(1000.0));
    assert!(n("about twelve").is_err());
    assert!(n("3 to 4").unwrap_err().contains("2 numbers"));
    assert!(n("1,2").is_err());
}

#[test]
fn chart_types_and_ids() {
    assert_eq!(chart_type("Bar chart"), Some("bar"));
    assert_eq!(chart_type("scatter plot"), Some("scatter"));
    assert_eq!(chart_type("3D pie"), Some("pie"));
    assert_eq!(chart_type("Line"), Some("line"));
    assert_eq!(chart_type("table"), None);
    assert_eq!(chart_type("bar and line"), None);
    assert_eq!(split_chart_id("G7_Q1_2"), Some(("G7_Q1", true)));
    assert_eq!(split_chart_id("G7_Q1_1"), Some(("G7_Q1", false)));
    assert_eq!(split_chart_id("G7_Q1_3"), None);
    assert_eq!(split_chart_id("_1"), None);
}
