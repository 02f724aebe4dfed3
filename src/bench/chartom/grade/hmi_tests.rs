//! The HMI, its acceptable interval and the suspect-key check (`grade/hmi.rs`), with
//! the paper's numbers.

use super::tests::*;
use super::*;
use crate::bench::chartom::fields::Strategies;
use serde_json::{Value, json};

/// Human answers are read like the model's, in the question's unit (JSON numbers too).
#[test]
fn hmi_reads_human_texts_in_the_questions_unit() {
    let mut f = number_fact("How many million bags?", json!(1.2));
    f.strategies = Some(Strategies {
        misled: 6.0,
        skim: 300.0,
    });
    f.human_answers = vec![
        (json!("1.2 million").into(), 10),
        (json!(1.2).into(), 5),
        (json!("1,200,000").into(), 1),
        (json!(1_200_000).into(), 1),
        (json!("6 million").into(), 3),
        (json!("1-2").into(), 2),
        (json!("2-3").into(), 1),
    ];
    let h = hmi_from_fact(&f).unwrap();
    // 6 million and the range 2–3 (which reaches past 2.68) are not acceptable
    assert_eq!(
        (h.n_answers, h.n_not_acceptable, h.n_unparsable),
        (23, 4, 0)
    );
    // a misled answer far from the key is not converted into the interval: 300 in a
    // question in thousands stays 300 (not 0.3)
    let mut t = number_fact("How many thousand visitors?", json!(1.2));
    t.strategies = f.strategies;
    t.human_answers = vec![
        (json!(1.2).into(), 3),
        (json!(300).into(), 1),
        (json!("300").into(), 1),
    ];
    assert_eq!(hmi_from_fact(&t).unwrap().n_not_acceptable, 2);
}

#[test]
fn mind_error() {
    assert!((squared_error(0.5, 0.18) - 0.1024).abs() < 1e-12);
    assert_eq!(mse([0.04, 0.16]), Some(0.1));
    assert_eq!(mse(std::iter::empty()), None);
}

/// The paper's Table 2, pair G7_Q1: key 1.2, strategies misled 6 and skim 300.
#[test]
fn hmi_g7_q1_from_the_paper() {
    let (lo, hi) = acceptable_interval(1.2, &[6.0, 300.0]);
    assert_eq!(lo, None);
    let u = hi.unwrap();
    assert!((u - 7.2f64.sqrt()).abs() < 1e-12);
    assert_eq!(format!("{u:.3}"), "2.683");

    // 2.68 itself is still inside (U = 2.6833); 2.69 is not
    assert!(in_interval(2.68, (lo, hi)));
    assert!(!in_interval(2.69, (lo, hi)));

    // original chart: 68 answers, 12 of them above U
    let original = vec![
        (json!(1.2).into(), 40),
        (json!(1).into(), 6),
        (json!("1.5").into(), 5),
        (json!(2).into(), 5),
        (json!(2.69).into(), 2),
        (json!(3).into(), 4),
        (json!(6).into(), 5),
        (json!(300).into(), 1),
    ];
    let h = hmi_number(1.2, &[6.0, 300.0], &original, Unit::NONE).unwrap();
    assert_eq!(h.n_answers, 68);
    assert_eq!(h.n_not_acceptable, 12);
    assert!((h.hmi - 12.0 / 68.0).abs() < 1e-12);
    assert_eq!(format!("{:.2}", h.hmi), "0.18");

    // manipulated chart: 68 answers, 20 not acceptable
    let manipulated = vec![
        (json!(1.2).into(), 30),
        (json!(0.5).into(), 8),
        (json!(2.5).into(), 10),
        (json!(2.7).into(), 3),
        (json!(5).into(), 7),
        (json!(6).into(), 8),
        (json!(50).into(), 2),
    ];
    let h = hmi_number(1.2, &[6.0, 300.0], &manipulated, Unit::NONE).unwrap();
    assert_eq!((h.n_answers, h.n_not_acceptable), (68, 20));
    assert_eq!(format!("{:.2}", h.hmi), "0.29");
    assert_eq!(h.interval, (None, Some(u)));
}

#[test]
fn interval_edges() {
    // strategies on both sides
    let (lo, hi) = acceptable_interval(10.0, &[2.5, 40.0]);
    assert!((lo.unwrap() - 5.0).abs() < 1e-12);
    assert!((hi.unwrap() - 20.0).abs() < 1e-12);
    // the closest above is chosen
    assert_eq!(acceptable_interval(10.0, &[1000.0, 40.0]).1, Some(20.0));
    // a strategy equal to the key bounds nothing
    assert_eq!(acceptable_interval(10.0, &[10.0]), (None, None));
    // negative key and strategy: sign kept
    let (lo, hi) = acceptable_interval(-4.0, &[-1.0, -16.0]);
    assert_eq!((lo, hi), (Some(-8.0), Some(-2.0)));
    // signs differ: arithmetic mean
    assert_eq!(acceptable_interval(2.0, &[-4.0]).0, Some(-1.0));
    // bounds are exclusive
    assert!(!in_interval(20.0, (Some(5.0), Some(20.0))));
    assert!(in_interval(19.99, (Some(5.0), Some(20.0))));
    assert!(!in_interval(5.0, (Some(5.0), Some(20.0))));
}

/// What √(c·x) means away from two positive numbers (docs/stats.md): the same-sign
/// geometric mean keeps the sign; across zero (different signs, or a 0) the bound is
/// the arithmetic mean. The bound always lies strictly between c and x.
#[test]
fn interval_for_negative_zero_and_mixed_signs() {
    // negative key, negative strategies: the mirror image of key 10 with 2.5 and 40
    assert_eq!(
        acceptable_interval(-10.0, &[-40.0, -2.5]),
        (Some(-20.0), Some(-5.0))
    );
    // key 0: arithmetic means
    assert_eq!(
        acceptable_interval(0.0, &[5.0, -3.0]),
        (Some(-1.5), Some(2.5))
    );
    assert_eq!(acceptable_interval(0.0, &[5.0, 300.0]), (None, Some(2.5)));
    // a strategy answer of 0
    assert_eq!(acceptable_interval(4.0, &[0.0]), (Some(2.0), None));
    assert_eq!(acceptable_interval(-4.0, &[0.0]), (None, Some(-2.0)));
    // mixed signs
    assert_eq!(
        acceptable_interval(2.0, &[-4.0, 8.0]),
        (Some(-1.0), Some(4.0))
    );
    assert_eq!(
        acceptable_interval(-2.0, &[4.0, -8.0]),
        (Some(-4.0), Some(1.0))
    );
    // strategies that are not numbers bound nothing
    assert_eq!(
        acceptable_interval(1.2, &[f64::NAN, f64::INFINITY]),
        (None, None)
    );
    // the key always lies inside
    for c in [-10.0, -1.2, 0.0, 1.2, 10.0] {
        for x in [-300.0, -6.0, -1.0, 0.0, 0.5, 6.0, 300.0] {
            let iv = acceptable_interval(c, &[x]);
            assert!(in_interval(c, iv), "c {c} x {x}: {iv:?}");
            if x != c {
                assert!(!in_interval(x, iv), "c {c} x {x}: {iv:?}");
            }
        }
    }
    // HMI with negative answers: −30 and −3 lie outside (−20, −5)
    let h = hmi_number(
        -10.0,
        &[-40.0, -2.5],
        &[
            (json!(-10).into(), 3),
            (json!(-30).into(), 1),
            (json!("-3").into(), 1),
        ],
        Unit::NONE,
    )
    .unwrap();
    assert_eq!((h.n_answers, h.n_not_acceptable), (5, 2));
    assert_eq!(h.interval, (Some(-20.0), Some(-5.0)));
    let h = hmi_number(
        0.0,
        &[5.0, -3.0],
        &[
            (json!(0).into(), 2),
            (json!(3).into(), 1),
            (json!(-2).into(), 1),
        ],
        Unit::NONE,
    )
    .unwrap();
    assert_eq!(h.hmi, 0.5);
}

#[test]
fn hmi_unparsable_answers_are_not_acceptable() {
    let h = hmi_number(
        10.0,
        &[40.0],
        &[(json!(10).into(), 3), (json!("dunno").into(), 1)],
        Unit::NONE,
    )
    .unwrap();
    assert_eq!((h.n_not_acceptable, h.n_unparsable), (1, 1));
    assert_eq!(h.hmi, 0.25);
    assert_eq!(hmi_number(10.0, &[40.0], &[], Unit::NONE), None);
}

#[test]
fn hmi_choice_and_rank() {
    let mut f = fact(FactFormat::Choice, json!(2), &["a", "b", "c"]);
    f.human_answers = vec![
        (json!(2).into(), 6),
        (json!(1).into(), 3),
        (json!("B").into(), 1),
    ];
    let h = hmi_from_fact(&f).unwrap();
    assert_eq!((h.n_answers, h.n_not_acceptable), (10, 3));
    assert_eq!(h.interval, (None, None));
    let mut r = fact(FactFormat::Rank, json!([3, 1, 2]), &["a", "b", "c"]);
    r.human_answers = vec![(json!([3, 1, 2]).into(), 3), (json!("1,3,2").into(), 1)];
    assert_eq!(hmi_from_fact(&r).unwrap().hmi, 0.25);
    // number question without strategies: not recomputable
    let mut n = fact(FactFormat::Number, json!(5), &[]);
    n.human_answers = vec![(json!(5).into(), 1)];
    assert_eq!(hmi_from_fact(&n), None);
    n.strategies = Some(Strategies {
        misled: 50.0,
        skim: 500.0,
    });
    assert_eq!(hmi_from_fact(&n).unwrap().hmi, 0.0);
}

fn with_answers(mut f: Fact, answers: Value) -> Item {
    f.human_answers = serde_json::from_value(answers).unwrap();
    let mut item = Item::default();
    item.fact = Some(Box::new(f));
    item
}

#[test]
fn suspect_keys() {
    let choice = fact(FactFormat::Choice, json!(2), &["a", "b", "c"]);
    // the key is the most common answer, or tied with it: not suspect
    assert_eq!(
        suspect_key(&with_answers(choice.clone(), json!([[2, 5], [3, 5]]))),
        None
    );
    assert_eq!(suspect_key(&with_answers(choice.clone(), json!([]))), None);
    // another answer is more common ("C" and 3 are one answer); 0 is no option
    let s = suspect_key(&with_answers(
        choice.clone(),
        json!([[2, 5], [3, 4], ["C", 2], [0, 9], ["dunno", 9]]),
    ))
    .unwrap();
    assert_eq!(s.reason, SuspicionReason::ModalAnswerDiffers);
    assert_eq!((s.n_answers, s.n_agree, s.modal_count), (11, 5, 6));
    assert_eq!(s.modal_answer.as_deref(), Some("3 (c)"));
    assert_eq!(s.key, "2 (b)");
    // rank: the key reversed
    let rank = fact(FactFormat::Rank, json!([1, 3, 2]), &["x", "y", "z"]);
    let s = suspect_key(&with_answers(rank, json!([[[2, 3, 1], 6], ["1,3,2", 4]]))).unwrap();
    assert!(s.reversed);
    assert_eq!(s.key, "1 > 3 > 2");
    // numbers: the key's bucket (±10 %) against the densest other bucket
    let num = |key: Value| number_fact("How many?", key);
    let item = with_answers(
        num(json!(100)),
        json!([[100, 5], [95, 2], [300, 3], [310, 3], [290, 2]]),
    );
    let s = suspect_key(&item).unwrap();
    assert_eq!((s.n_agree, s.modal_count), (7, 8));
    assert_eq!(s.modal_answer.as_deref(), Some("300"));
    // the key holds its bucket: not suspect
    let item = with_answers(
        num(json!(100)),
        json!([[100, 9], [300, 3], [310, 3], [290, 2]]),
    );
    assert_eq!(suspect_key(&item), None);
    // scattered answers, few near the key: few agree (2 of 10 < 25 %)
    let item = with_answers(
        num(json!(100)),
        json!([
            [100, 2],
            [10, 1],
            [20, 1],
            [40, 1],
            [200, 1],
            [400, 1],
            [800, 1],
            [1600, 1],
            [3200, 1]
        ]),
    );
    let s = suspect_key(&item).unwrap();
    assert_eq!(s.reason, SuspicionReason::FewAgree);
    assert_eq!(s.share_agree, 0.2);
    // negative and zero keys, texts in the question's unit, ranges
    let item = with_answers(num(json!(-10)), json!([[-10, 3], ["-9.5", 1], [10, 5]]));
    assert_eq!(
        suspect_key(&item).unwrap().modal_answer.as_deref(),
        Some("10")
    );
    let item = with_answers(num(json!(0)), json!([[0, 3], [0.001, 2], [1, 1]]));
    assert_eq!(suspect_key(&item), None);
    let mut millions = number_fact("How many million bags?", json!(1.2));
    millions.human_answers = serde_json::from_value(json!([
        ["1.2 million", 4],
        ["1,200,000", 3],
        ["1.1-1.3", 1],
        [6, 5]
    ]))
    .unwrap();
    let mut item = Item::default();
    item.fact = Some(Box::new(millions));
    assert_eq!(suspect_key(&item), None);
    // no key: nothing to suspect
    let mut nokey = num(json!(null));
    nokey.key = None;
    assert_eq!(suspect_key(&with_answers(nokey, json!([[1, 5]]))), None);
}
