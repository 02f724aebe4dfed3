use super::*;
use crate::bench::cvqa::fields::CvqaReason;

#[test]
fn toggling_a_bonus_leaves_the_penalty_ungraded() {
    let mut g = ResponseGrades::default();
    g.chartom_qa.toggle_bonus(2);
    assert_eq!(g.chartom_qa.bonus, Some(vec![2]));
    assert_eq!(g.chartom_qa.penalty, None);
    g.chartom_qa.set_penalty(None);
    assert_eq!(g.chartom_qa.penalty, Some(None));
    g.chartom_qa.toggle_bonus(2);
    assert_eq!(
        g.chartom_qa.bonus,
        Some(vec![]),
        "unticked: graded, none covered"
    );
}

#[test]
fn a_penalty_leaves_the_bonus_ungraded() {
    let mut g = ResponseGrades::default();
    g.chartom_qa.set_penalty(Some("  wrong  "));
    assert_eq!(g.chartom_qa.penalty, Some(Some("wrong".into())));
    assert_eq!(g.chartom_qa.bonus, None);
}

#[test]
fn an_empty_field_is_no_fix_of_it() {
    let mut r = Review::default();
    r.cvqa
        .fix(("q?", "3"), ("q2?", " "), CvqaReason::Ambiguous, None);
    assert_eq!(r.cvqa.fixed_question.as_deref(), Some("q2?"));
    assert_eq!(r.cvqa.fixed_answer, None);
    assert_eq!(r.cvqa.answer_ok, Some(true));
    r.cvqa
        .fix(("q?", "3"), ("", "4"), CvqaReason::WrongAnswer, None);
    assert_eq!(r.cvqa.fixed_question, None);
    assert_eq!(r.cvqa.fixed_answer.as_deref(), Some("4"));
    assert_eq!(r.cvqa.answer_ok, Some(false));
}
