use super::*;

#[test]
fn bpc_is_micro_and_pr_a_share() {
    let mut s = BpcPr::default();
    s.add(Some(2), 3, false); // 2 of 3
    s.add(Some(1), 5, true); // 1 of 5
    s.add(None, 4, true); // unparsable: not in the BPC
    assert_eq!(s.bpc(), Some(3.0 / 8.0));
    assert_eq!(s.pr(), Some(2.0 / 3.0));
    assert_eq!(s.unparsable, 1);
    let mut t = BpcPr::default();
    t.add(Some(0), 2, false);
    s.merge(&t);
    assert_eq!(s.bpc(), Some(0.3));
    assert_eq!(s.pr(), Some(0.5));
    assert_eq!(BpcPr::default().bpc(), None);
}

#[test]
fn covered_points_are_distinct_and_in_range() {
    assert_eq!(covered_count(&[1, 1, 3, 4, 0], 3), 2);
    assert_eq!(covered_count(&[], 3), 0);
}

#[test]
fn judge_and_human() {
    let it = Item::parse(
            r#"{"id":"q","benchmark":"chartom-qa","dimension":"belief","question":"?","answer":"a",
               "bonus_points":["p1","p2","p3"],"key":2,
               "responses":[{"model":"m","text":"t","choice":2,"judge":{"bonus":[1,3],"penalty":"None"}},
                            {"model":"n","text":"u","judge":{"bonus":"Null","penalty":"Wrong character"}}],
               "reviews":{"a":{"at":"2026-01-01T00:00:00Z","models":{"m":{"bonus":[1],"penalty":null},"n":{"penalty":"off topic"}}}}}"#,
        )
        .unwrap();
    let m = effective(&it, "m");
    let j = m.judge.unwrap();
    assert_eq!((j.covered, j.n_points, j.penalty), (Some(2), 3, None));
    let h = m.human_grade.unwrap();
    assert_eq!((h.covered, h.penalty), (Some(1), Some(None)));
    assert_eq!(m.choice_correct, Some(true));
    let n = effective(&it, "n");
    let j = n.judge.unwrap();
    assert_eq!(j.covered, None);
    assert_eq!(j.penalty.as_deref(), Some("Wrong character"));
    let h = n.human_grade.unwrap();
    assert_eq!(
        (h.covered, h.penalty),
        (None, Some(Some("off topic".into())))
    );
    assert_eq!(n.choice_correct, None);
}

#[test]
fn human_fields_count_only_where_graded() {
    let it = Item::parse(
            r#"{"id":"q","benchmark":"chartom-qa","bonus_points":["p1","p2"],
               "responses":[{"model":"m","text":"t"},{"model":"n","text":"u"}],
               "reviews":{"a":{"at":"2026-01-01T00:00:00Z","models":{"m":{"bonus":[1,2]},"n":{"penalty":"off"}}}}}"#,
        )
        .unwrap();
    let mut s = BpcPr::default();
    for m in ["m", "n"] {
        s.add_human(&effective(&it, m).human_grade.unwrap());
    }
    // BPC over m only (n's bonus is not graded): 2 of 2, not 2 of 4
    assert_eq!((s.covered, s.points), (2, 2));
    // PR over n only (m's penalty is not graded): 1 of 1, not 1 of 2
    assert_eq!((s.penalized, s.responses), (1, 1));
    assert_eq!((s.bpc(), s.pr()), (Some(1.0), Some(1.0)));
}
