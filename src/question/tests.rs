use serde_json::json;

use super::*;

fn q(kind: Kind) -> Question {
    Question {
        name: "q".into(),
        kind,
        per: Per::Item,
        required: true,
        guideline: None,
    }
}

fn labels() -> Question {
    q(Kind::Label(vec!["yes".into(), "no".into()]))
}

#[test]
fn a_label_is_one_of_its_labels() {
    let l = labels();
    assert_eq!(l.problem(&json!("yes"), None), None);
    assert_eq!(
        l.problem(&json!("maybe"), None).unwrap(),
        r#"expected one of "yes", "no""#
    );
    assert!(l.problem(&json!(1), None).is_some());
    assert_eq!(l.category(&json!("no")), Some(1));
    assert_eq!(
        l.categories(),
        Some((vec!["yes".into(), "no".into()], false))
    );
}

#[test]
fn a_checklist_is_distinct_point_numbers_from_one() {
    let m = q(Kind::MultiLabel(Points::From("rubric".into())));
    assert_eq!(m.problem(&json!([]), Some(3)), None);
    assert_eq!(m.problem(&json!([1, 3]), Some(3)), None);
    assert_eq!(
        m.problem(&json!([4]), Some(3)).unwrap(),
        "4 is not a point number from 1 to 3"
    );
    assert_eq!(
        m.problem(&json!([0]), None).unwrap(),
        "0 is not a point number (from 1)"
    );
    assert_eq!(
        m.problem(&json!([2, 2]), None).unwrap(),
        "point 2 given twice"
    );
    assert!(m.problem(&json!("1"), None).is_some());
    assert_eq!(m.categories().unwrap().0, ["covered", "not covered"]);
}

#[test]
fn a_rating_is_an_integer_in_its_range_and_ranked() {
    let r = q(Kind::Rating { lo: 1, hi: 5 });
    assert_eq!(r.problem(&json!(5), None), None);
    assert_eq!(
        r.problem(&json!(6), None).unwrap(),
        "expected an integer from 1 to 5"
    );
    assert!(r.problem(&json!(2.5), None).is_some());
    assert_eq!(r.category(&json!(3)), Some(2));
    let (cats, ranked) = r.categories().unwrap();
    assert_eq!(cats, ["1", "2", "3", "4", "5"]);
    assert!(ranked);
}

#[test]
fn a_text_is_a_string_and_not_rated() {
    let t = q(Kind::Text);
    assert_eq!(t.problem(&json!("fine"), None), None);
    assert_eq!(t.problem(&json!(1), None).unwrap(), "expected a string");
    assert_eq!(t.categories(), None);
}

#[test]
fn a_tally_counts_labels_means_ratings_and_ticks_points_across_blocks() {
    let l = labels();
    let mut a = Tally::of(&l);
    a.add(&l, &json!("no"));
    let mut b = Tally::of(&l);
    b.add(&l, &json!("no"));
    a.absorb(b);
    let a = a.finish(&l);
    assert_eq!(a.answered, 2);
    assert_eq!(
        a.counts.into_iter().collect::<Vec<_>>(),
        [("yes".into(), 0), ("no".into(), 2)]
    );
    assert_eq!(a.mean, None);

    let r = q(Kind::Rating { lo: 1, hi: 3 });
    let mut t = Tally::of(&r);
    t.add(&r, &json!(1));
    t.add(&r, &json!(2));
    let t = t.finish(&r);
    assert_eq!(t.mean, Some(1.5));
    assert_eq!(t.counts["2"], 1);

    let m = q(Kind::MultiLabel(Points::Fixed(vec![
        "a".into(),
        "b".into(),
    ])));
    let mut t = Tally::of(&m);
    t.add(&m, &json!([2]));
    t.add(&m, &json!([1, 2]));
    let t = t.finish(&m);
    assert_eq!(t.points.into_iter().collect::<Vec<_>>(), [(1, 1), (2, 2)]);
}
