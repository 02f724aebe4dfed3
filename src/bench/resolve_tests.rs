use super::*;
use crate::bench::chartom::fields::JustificationGrade;
use crate::bench::cvqa::fields::{CvqaReason, CvqaStatus};
use crate::bench::cvqa::resolve::resolve_verification;
use crate::grade::resolve::Source;

fn reviews(json: &str) -> IndexMap<String, Review> {
    serde_json::from_str(json).unwrap()
}

#[test]
fn nobody_graded() {
    let r = reviews(r#"{"ann":{"at":"2026-01-01T00:00:00Z","note":"later"}}"#);
    let res = resolve_response(&r, "m", 1);
    assert_eq!(res.source, Source::None);
    assert_eq!(res.reviewers, 0);
    assert!(res.value.is_empty());
}

#[test]
fn single_reviewer() {
    let r = reviews(r#"{"ann":{"at":"2026-01-01T00:00:00Z","fact_correct":false}}"#);
    let res = resolve_response(&r, "m", 1);
    assert_eq!(
        res.source,
        Source::Single {
            reviewer: "ann".into()
        }
    );
    assert_eq!(res.value.chartom.fact_correct, Some(false));
    assert_eq!(res.source.label(), "single:ann");
}

#[test]
fn final_wins_over_majority() {
    let r = reviews(
        r#"{"a":{"at":"2026-01-02T00:00:00Z","justification":"misses"},
                "b":{"at":"2026-01-03T00:00:00Z","justification":"misses"},
                "judge":{"at":"2026-01-01T00:00:00Z","final":true,"justification":"identifies"}}"#,
    );
    let res = resolve_response(&r, "m", 1);
    assert_eq!(
        res.source,
        Source::Final {
            reviewer: "judge".into()
        }
    );
    assert_eq!(
        res.value.chartom.justification,
        Some(JustificationGrade::Identifies)
    );
    assert_eq!(res.reviewers, 3);
}

#[test]
fn several_finals_most_recent_wins() {
    let r = reviews(
        r#"{"x":{"at":"2026-01-05T00:00:00Z","final":true,"fact_correct":true},
                "y":{"at":"2026-01-02T00:00:00Z","final":true,"fact_correct":false}}"#,
    );
    let res = resolve_response(&r, "m", 1);
    assert_eq!(
        res.source,
        Source::Final {
            reviewer: "x".into()
        }
    );
    assert_eq!(res.value.chartom.fact_correct, Some(true));
}

#[test]
fn majority_per_field_with_recency_tiebreak() {
    // fact_correct: 2 true vs 1 false -> true. justification: partial (a), misses (b),
    // none from c -> tie 1:1, b is more recent -> misses.
    let r = reviews(
        r#"{"a":{"at":"2026-01-01T00:00:00Z","fact_correct":true,"justification":"partial"},
                "b":{"at":"2026-01-03T00:00:00Z","fact_correct":false,"justification":"misses"},
                "c":{"at":"2026-01-02T00:00:00Z","fact_correct":true}}"#,
    );
    let res = resolve_response(&r, "m", 1);
    // (the justification's 1–1 went to the most recent: a tie, not a majority)
    assert_eq!(res.source, Source::Tie { n: 3 });
    assert_eq!(res.value.chartom.fact_correct, Some(true));
    assert_eq!(
        res.value.chartom.justification,
        Some(JustificationGrade::Misses)
    );
    assert_eq!(res.value.chartom_qa.penalty, None);
}

#[test]
fn bonus_points_by_more_than_half() {
    // 3 reviewers: point 1 by all, 2 by two (2/3 > 1/2), 3 by one (1/3) -> [1, 2].
    let r = reviews(
        r#"{"a":{"at":"2026-01-01T00:00:00Z","bonus":[1,2],"penalty":null},
                "b":{"at":"2026-01-02T00:00:00Z","bonus":[1,2,3],"penalty":"wrong motive"},
                "c":{"at":"2026-01-03T00:00:00Z","bonus":[1],"penalty":"says X"}}"#,
    );
    let res = resolve_response(&r, "m", 1);
    assert_eq!(res.value.chartom_qa.bonus, Some(vec![1, 2]));
    // penalty: 2 of 3 say there is one; text of the most recent (c)
    assert_eq!(res.value.chartom_qa.penalty, Some(Some("says X".into())));
}

#[test]
fn bonus_tie_goes_to_most_recent() {
    // 2 reviewers: point 2 only by the older one (1/2, a tie) -> not covered;
    // point 3 only by the newer one -> covered.
    let r = reviews(
        r#"{"old":{"at":"2026-01-01T00:00:00Z","bonus":[1,2],"penalty":"p"},
                "new":{"at":"2026-02-01T00:00:00Z","bonus":[1,3],"penalty":null}}"#,
    );
    let res = resolve_response(&r, "m", 1);
    assert_eq!(res.value.chartom_qa.bonus, Some(vec![1, 3]));
    assert_eq!(res.value.chartom_qa.penalty, Some(None));
}

#[test]
fn missing_at_is_oldest_and_file_order_breaks_equal_times() {
    let r = reviews(r#"{"a":{"fact_correct":true},"b":{"fact_correct":false}}"#);
    // same (missing) time: b is later in the file
    assert_eq!(
        resolve_response(&r, "m", 1).value.chartom.fact_correct,
        Some(false)
    );
    let r = reviews(
        r#"{"a":{"at":"2026-01-01T00:00:00Z","fact_correct":true},"b":{"fact_correct":false}}"#,
    );
    assert_eq!(
        resolve_response(&r, "m", 1).value.chartom.fact_correct,
        Some(true)
    );
}

#[test]
fn per_model_grades() {
    let r = reviews(
        r#"{"a":{"at":"2026-01-01T00:00:00Z","models":{"m1":{"fact_correct":true},"m2":{"fact_correct":false}}},
                "b":{"at":"2026-01-02T00:00:00Z","models":{"m1":{"fact_correct":true}}}}"#,
    );
    let m1 = resolve_response(&r, "m1", 2);
    assert_eq!(m1.source, Source::Majority { n: 2 });
    let m2 = resolve_response(&r, "m2", 2);
    assert_eq!(
        m2.source,
        Source::Single {
            reviewer: "a".into()
        }
    );
    assert_eq!(m2.value.chartom.fact_correct, Some(false));
    assert_eq!(graders(&r, "m1", 2).collect::<Vec<_>>(), vec!["a", "b"]);
    assert_eq!(resolve_response(&r, "m3", 2).source, Source::None);
}

#[test]
fn final_review_without_grades_for_target_does_not_count() {
    let r = reviews(
        r#"{"adj":{"at":"2026-01-09T00:00:00Z","final":true,"status":"accept"},
                "a":{"at":"2026-01-01T00:00:00Z","original_correct":false}}"#,
    );
    let res = resolve_response(&r, "m", 1);
    assert_eq!(
        res.source,
        Source::Single {
            reviewer: "a".into()
        }
    );
    let v = resolve_verification(&r);
    assert_eq!(
        v.source,
        Source::Final {
            reviewer: "adj".into()
        }
    );
    assert_eq!(v.value.status, Some(CvqaStatus::Accept));
}

#[test]
fn verification_majority() {
    let r = reviews(
        r#"{"a":{"at":"2026-01-01T00:00:00Z","status":"fix","fixed_answer":"3","reason":"wrong-answer","answer_ok":false},
                "b":{"at":"2026-01-02T00:00:00Z","status":"fix","fixed_answer":"4","reason":"wrong-answer","answer_ok":false},
                "c":{"at":"2026-01-03T00:00:00Z","status":"reject","reason":"ambiguous","answer_ok":true}}"#,
    );
    let v = resolve_verification(&r);
    // (the fixed answers' 1–1 went to the most recent: a tie, not a majority)
    assert_eq!(v.source, Source::Tie { n: 3 });
    assert_eq!(v.value.status, Some(CvqaStatus::Fix));
    // fixed answers 3 vs 4 tie among the fixers; b is more recent
    assert_eq!(v.value.fixed_answer.as_deref(), Some("4"));
    // reason voted among the fixers only
    assert_eq!(v.value.reason, Some(CvqaReason::WrongAnswer));
    assert_eq!(v.value.answer_ok, Some(false));
}

/// A 1–1 split is no majority: it goes to the most recent review (docs/stats.md) and is
/// named for what it is, `tie:2`, in every count and label (it read "majority reject").
#[test]
fn a_tie_is_named_a_tie_not_a_majority() {
    let r = reviews(
        r#"{"ann":{"at":"2026-01-01T00:00:00Z","status":"accept"},
            "bob":{"at":"2026-01-02T00:00:00Z","status":"reject","reason":"ambiguous"}}"#,
    );
    let v = resolve_verification(&r);
    assert_eq!(v.value.status, Some(CvqaStatus::Reject));
    assert_eq!(v.source, Source::Tie { n: 2 });
    assert_eq!(v.source.label(), "tie:2");
    // a field split 1–1 among per-field votes makes the whole a tie
    let r = reviews(
        r#"{"a":{"at":"2026-01-01T00:00:00Z","fact_correct":true,"justification":"misses"},
            "b":{"at":"2026-01-02T00:00:00Z","fact_correct":true,"justification":"identifies"}}"#,
    );
    assert_eq!(resolve_response(&r, "m", 1).source, Source::Tie { n: 2 });
    // a bonus point covered by exactly half
    let r = reviews(
        r#"{"a":{"at":"2026-01-01T00:00:00Z","bonus":[1]},"b":{"at":"2026-01-02T00:00:00Z","bonus":[]}}"#,
    );
    assert_eq!(resolve_response(&r, "m", 1).source, Source::Tie { n: 2 });
    // 2–1 is a majority
    let r = reviews(
        r#"{"a":{"at":"2026-01-01T00:00:00Z","status":"accept"},
            "b":{"at":"2026-01-02T00:00:00Z","status":"accept"},
            "c":{"at":"2026-01-03T00:00:00Z","status":"reject","reason":"ambiguous"}}"#,
    );
    let v = resolve_verification(&r);
    assert_eq!(v.value.status, Some(CvqaStatus::Accept));
    assert_eq!(v.source, Source::Majority { n: 3 });
    // counted apart, and said apart
    let mut c = crate::stats::ResolutionCounts::default();
    c.add(&Source::Tie { n: 2 });
    assert_eq!((c.majority, c.tie), (0, 1));
    let text = crate::stats::resolution_text(&c);
    assert!(text.contains("1 tie (most recent)"), "{text}");
    assert!(text.contains("0 majority"), "{text}");
}
