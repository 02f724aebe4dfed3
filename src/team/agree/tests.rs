use super::*;
use crate::store::Format;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// Cohen's kappa, the textbook 2×2 example (Wikipedia, "Cohen's kappa", simple
/// example): 50 grant proposals, both "yes" 20, A yes / B no 5, A no / B yes 10, both
/// "no" 15. p_o = 0.7, p_e = 0.5·0.6 + 0.5·0.4 = 0.5, κ = 0.4.
#[test]
fn cohen_kappa_textbook_example() {
    let t = vec![vec![20.0, 5.0], vec![10.0, 15.0]];
    let k = cohen_kappa(&t).unwrap();
    assert!(close(k, 0.4, 1e-12), "{k}");
    // perfect agreement, and the undefined case
    assert_eq!(cohen_kappa(&[vec![3.0, 0.0], vec![0.0, 2.0]]), Some(1.0));
    assert_eq!(cohen_kappa(&[vec![5.0, 0.0], vec![0.0, 0.0]]), None);
    assert_eq!(cohen_kappa(&[vec![0.0]]), None);
}

/// Fleiss' kappa, the worked example of Wikipedia's "Fleiss' kappa" article (after
/// Fleiss 1971): 10 subjects, 14 raters, 5 categories. Published: p_j = 0.143, 0.200,
/// 0.279, 0.150, 0.229; P_2 = 0.253; P̄ = 0.378; P̄e = 0.213; κ = 0.210. The table was
/// checked against several independent implementations' tests (search: "[0, 2, 6, 4, 2]").
#[test]
fn fleiss_kappa_published_example() {
    let table: Vec<Vec<u64>> = vec![
        vec![0, 0, 0, 0, 14],
        vec![0, 2, 6, 4, 2],
        vec![0, 0, 3, 5, 6],
        vec![0, 3, 9, 2, 0],
        vec![2, 2, 8, 1, 1],
        vec![7, 7, 0, 0, 0],
        vec![3, 2, 6, 3, 0],
        vec![2, 5, 3, 2, 2],
        vec![6, 5, 2, 1, 0],
        vec![0, 2, 2, 3, 7],
    ];
    let f = fleiss_kappa(&table).unwrap();
    for (got, want) in f.p_j.iter().zip([0.143, 0.200, 0.279, 0.150, 0.229]) {
        assert!(close(*got, want, 5e-4), "p_j {got} vs {want}");
    }
    assert!(close(f.p_i[0], 1.0, 1e-12));
    assert!(close(f.p_i[1], 0.253, 5e-4), "{}", f.p_i[1]);
    assert!(close(f.p_bar, 0.378, 5e-4), "{}", f.p_bar);
    assert!(close(f.pe_bar, 0.213, 5e-4), "{}", f.pe_bar);
    assert!(close(f.kappa, 0.210, 5e-4), "{}", f.kappa);
    // a varying number of raters is refused
    assert_eq!(fleiss_kappa(&[vec![2, 0], vec![1, 2]]), None);
    assert_eq!(fleiss_kappa(&[]), None);
}

/// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", Annenberg School
/// for Communication, University of Pennsylvania, example C: 4 observers × 12 units,
/// values 1–5, 7 missing; nominal α = 0.743, ordinal 0.815, interval 0.849, ratio
/// 0.797. (The ordinal and ratio values and the data are also asserted in the tests of
/// the `krippendorff` Python package, pln-fing-udelar/fast-krippendorff.)
#[test]
fn krippendorff_alpha_published_example() {
    const N: Option<usize> = None;
    let obs: [[Option<usize>; 12]; 4] = [
        [
            Some(1),
            Some(2),
            Some(3),
            Some(3),
            Some(2),
            Some(1),
            Some(4),
            Some(1),
            Some(2),
            N,
            N,
            N,
        ],
        [
            Some(1),
            Some(2),
            Some(3),
            Some(3),
            Some(2),
            Some(2),
            Some(4),
            Some(1),
            Some(2),
            Some(5),
            N,
            Some(3),
        ],
        [
            N,
            Some(3),
            Some(3),
            Some(3),
            Some(2),
            Some(3),
            Some(4),
            Some(2),
            Some(2),
            Some(5),
            Some(1),
            N,
        ],
        [
            Some(1),
            Some(2),
            Some(3),
            Some(3),
            Some(2),
            Some(4),
            Some(4),
            Some(1),
            Some(2),
            Some(5),
            Some(1),
            N,
        ],
    ];
    // categories 0..5 are the values 1..5
    let units: Vec<Vec<usize>> = (0..12)
        .map(|u| obs.iter().filter_map(|o| o[u]).map(|v| v - 1).collect())
        .collect();
    let values = [1.0, 2.0, 3.0, 4.0, 5.0];
    let a = |l| krippendorff_alpha(&units, &values, l).unwrap();
    assert!(
        close(a(Level::Nominal), 0.743, 5e-4),
        "{}",
        a(Level::Nominal)
    );
    assert!(
        close(a(Level::Ordinal), 0.815, 5e-4),
        "{}",
        a(Level::Ordinal)
    );
    assert!(
        close(a(Level::Interval), 0.849, 5e-4),
        "{}",
        a(Level::Interval)
    );
    assert!(close(a(Level::Ratio), 0.797, 5e-4), "{}", a(Level::Ratio));
    // unit 12 has a single value and is not pairable: dropping it changes nothing
    let mut fewer = units.clone();
    fewer.pop();
    assert_eq!(
        krippendorff_alpha(&fewer, &values, Level::Nominal),
        krippendorff_alpha(&units, &values, Level::Nominal)
    );
}

/// Krippendorff (2011), example B: two observers, binary data, 10 units; α = 0.095.
#[test]
fn krippendorff_alpha_two_observers_binary() {
    let a = [0, 1, 0, 0, 0, 0, 0, 0, 1, 0];
    let b = [1, 1, 1, 0, 0, 1, 0, 0, 0, 0];
    let units: Vec<Vec<usize>> = a.iter().zip(b).map(|(&x, y)| vec![x, y]).collect();
    let al = krippendorff_alpha(&units, &[0.0, 1.0], Level::Nominal).unwrap();
    assert!(close(al, 0.095, 5e-4), "{al}");
    assert_eq!(
        krippendorff_alpha(&[vec![1, 1], vec![1, 1]], &[0.0, 1.0], Level::Nominal),
        None
    );
}

#[test]
fn percent_agreement_and_median() {
    // units: agree, disagree, 3 raters with 1 agreeing pair of 3, single (ignored)
    let u = vec![vec![0, 0], vec![0, 1], vec![1, 1, 0], vec![2]];
    let p = percent_agreement(&u).unwrap();
    assert!(close(p, (1.0 + 0.0 + 1.0 / 3.0) / 3.0, 1e-12));
    assert_eq!(percent_agreement(&[vec![1]]), None);
    assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
    assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
    assert_eq!(median(&[]), None);
}

fn store(lines: &[String]) -> Store {
    Store::from_bytes(
        "t.jsonl".into(),
        Format::Jsonl,
        lines.join("\n").into_bytes(),
    )
    .unwrap()
}

#[test]
fn chartom_justification_per_model_and_finals_left_out() {
    let item = |id: &str, a: &str, b: &str| {
        format!(
                r#"{{"id":"{id}","benchmark":"chartom","responses":[{{"model":"m1"}},{{"model":"m2"}}],
                "reviews":{{"a":{{"models":{{"m1":{{"justification":"{a}"}},"m2":{{"justification":"identifies"}}}}}},
                "b":{{"models":{{"m1":{{"justification":"{b}"}}}}}},
                "adj":{{"final":true,"models":{{"m1":{{"justification":"misses"}}}}}}}}}}"#
            )
            .replace('\n', "")
    };
    let s = store(&[
        item("1", "identifies", "identifies"),
        item("2", "partial", "misses"),
        item("3", "misses", "misses"),
        item("4", "identifies", "partial"),
    ]);
    let r = report(&s);
    assert_eq!(r.adjudications_left_out, 4);
    assert_eq!(r.reviewers, vec!["a", "b"]);
    let f = &r.fields[0];
    assert_eq!(f.field, "justification");
    assert_eq!(f.units_rated, 8); // 4 items × m1, 4 × m2 (a only)
    assert_eq!(f.units_multi, 4);
    assert_eq!(f.raters, vec!["a", "b"]);
    // a vs b on m1: (I,I) (P,M) (M,M) (I,P)
    let t = vec![
        vec![1.0, 1.0, 0.0],
        vec![0.0, 0.0, 1.0],
        vec![0.0, 0.0, 1.0],
    ];
    assert_eq!(f.pairs[0].units, 4);
    assert!(close(
        f.pairs[0].cohen_kappa.unwrap(),
        cohen_kappa(&t).unwrap(),
        1e-12
    ));
    assert!(close(f.percent_agreement.unwrap(), 0.5, 1e-12));
    let ord = f.krippendorff_alpha.ordinal.unwrap();
    let nom = f.krippendorff_alpha.nominal.unwrap();
    // the disagreements are all between neighbours: ordinal alpha is higher
    assert!(ord > nom, "{ord} {nom}");
    let fl = f.fleiss.as_ref().unwrap();
    assert_eq!((fl.raters_per_unit, fl.units, fl.units_left_out), (2, 4, 0));
}

#[test]
fn chartom_qa_human_vs_judge() {
    let item = |id: &str, a: &str, b: &str, judge: &str| {
        format!(
            r#"{{"id":"{id}","benchmark":"chartom-qa","bonus_points":["p1","p2","p3"],
                "responses":[{{"model":"m","text":"t","judge":{judge}}}],
                "reviews":{{"a":{a},"b":{b}}}}}"#
        )
        .replace('\n', "")
    };
    let s = store(&[
        item(
            "1",
            r#"{"bonus":[1,2],"penalty":null,"seconds":30}"#,
            r#"{"bonus":[1],"penalty":null,"seconds":40}"#,
            r#"{"bonus":[1,2],"penalty":"None"}"#,
        ),
        item(
            "2",
            r#"{"bonus":[],"penalty":"wrong","seconds":20}"#,
            r#"{"bonus":[3],"penalty":"wrong","seconds":50}"#,
            r#"{"bonus":"Null","penalty":"says X"}"#,
        ),
        item(
            "3",
            r#"{"bonus":[1,2,3,7],"seconds":25}"#,
            r#"{"bonus":[1,2,3],"penalty":null,"seconds":45}"#,
            r#"{"bonus":[2,3],"penalty":null}"#,
        ),
    ]);
    let r = report(&s);
    let j = r.judge.as_ref().unwrap();
    assert_eq!(j.responses, 3);
    assert_eq!(j.unparsable_bonus, 1);
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    // human-only bonus field: 9 units, all rated by a and b
    let hb = r.fields.iter().find(|f| f.field == "bonus").unwrap();
    assert_eq!((hb.units_rated, hb.units_multi), (9, 9));
    // with the judge: items 1 and 3 have judge bonus units (6 units with 3 raters)
    let jb = j.fields.iter().find(|f| f.field == "bonus").unwrap();
    assert_eq!(jb.raters, vec!["a", "b", JUDGE]);
    let fl = jb.fleiss.as_ref().unwrap();
    assert_eq!((fl.raters_per_unit, fl.units, fl.units_left_out), (3, 6, 3));
    // a vs judge on bonus: units (a, judge) item1: (C,C) (C,C) (N,N); item3: (C,N) (C,C) (C,C)
    let va = j.versus.iter().find(|v| v.reviewer == "a").unwrap();
    let vb = va.bonus.as_ref().unwrap();
    assert_eq!(vb.units, 6);
    let t = vec![vec![4.0, 1.0], vec![0.0, 1.0]];
    assert!(close(
        vb.cohen_kappa.unwrap(),
        cohen_kappa(&t).unwrap(),
        1e-12
    ));
    assert!(close(vb.reviewer, 5.0 / 6.0, 1e-12));
    assert!(close(vb.judge, 4.0 / 6.0, 1e-12));
    // penalty: a graded items 1 and 2 (absent, present); judge all three
    let vp = va.penalty.as_ref().unwrap();
    assert_eq!(vp.units, 2);
    assert!(close(vp.agreement, 1.0, 1e-12));
    assert!(close(vp.reviewer, 0.5, 1e-12));
    // the judge's own BPC and PR over everything it graded
    let jf = j.raters.iter().find(|f| f.rater == JUDGE).unwrap();
    assert_eq!((jf.bonus_points, jf.covered), (6, 4));
    assert_eq!((jf.penalty_graded, jf.with_penalty), (3, 1));
    // too few timed verdicts for a rushing flag
    assert!(r.time.reviewers.iter().all(|t| !t.possibly_rushing));
    assert_eq!(r.time.reviewers[0].median_seconds, Some(25.0));
}

#[test]
fn rushing_rule() {
    let mut s = BTreeMap::new();
    s.insert("a".to_string(), vec![30.0, 40.0, 35.0, 50.0, 45.0]);
    s.insert("b".to_string(), vec![60.0, 20.0, 30.0, 40.0, 36.0]);
    s.insert("c".to_string(), vec![3.0, 4.0, 5.0, 6.0, 100.0]);
    s.insert("d".to_string(), vec![1.0]);
    let t = time_report(&s);
    let by: BTreeMap<&str, &ReviewerTime> = t
        .reviewers
        .iter()
        .map(|r| (r.reviewer.as_str(), r))
        .collect();
    assert_eq!(by["c"].median_seconds, Some(5.0));
    assert_eq!(by["c"].others_median_seconds, Some(38.0)); // median of 40 (a) and 36 (b)
    assert!(by["c"].possibly_rushing);
    assert!(!by["a"].possibly_rushing && !by["b"].possibly_rushing);
    // d has too few timed verdicts to be flagged or to count for others
    assert!(!by["d"].possibly_rushing);
    assert_eq!(by["a"].others_median_seconds, Some(20.5)); // median of 36 and 5
}
