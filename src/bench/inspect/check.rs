//! `verdict check` on the lines of an Inspect log: a verdict other than the three, a
//! sample without the headline scorer's score, a failed sample.

use serde_json::{Map, Value};

use super::sample::Sample;
use super::{LINE_KEY, Verdict};
use crate::bench::kit::check::Ctx;

pub(crate) fn check_line(c: &mut Ctx, obj: &Map<String, Value>) {
    let s: Option<Sample> = obj
        .get(LINE_KEY)
        .and_then(|v| serde_json::from_value(v.clone()).ok());
    if let Some(s) = &s {
        if s.scores.is_empty() {
            c.warn(
                "sample.scores",
                "the sample has no scores: there is nothing to grade".to_string(),
            );
        } else if s.headline_score().is_none() {
            c.warn(
                "sample.scores",
                format!(
                    "the sample has no score of the headline scorer {:?}: a verdict on it cannot be written back",
                    s.headline
                ),
            );
        }
        if let Some(e) = &s.error {
            c.warn("sample.error", format!("the sample failed: {e}"));
        }
    }
    if let Some(Value::Object(reviews)) = obj.get("reviews") {
        for (name, r) in reviews {
            if let Some(s) = &s {
                check_headline(c, s, name, r);
                check_scorers(c, s, name, r);
            }
            if r.get("verdict").and_then(Value::as_str) == Some(Verdict::AmbiguousTarget.name())
                && r.get("note")
                    .and_then(Value::as_str)
                    .is_none_or(|n| n.trim().is_empty())
            {
                c.warn(
                    &format!("reviews.{name}.note"),
                    "an ambiguous-target verdict without a note: the score edit's reason should say what is wrong with the target".to_string(),
                );
            }
            if let Some(Value::String(v)) = r.get("verdict")
                && Verdict::parse(v).is_none()
            {
                c.warn(
                    &format!("reviews.{name}.verdict"),
                    format!(
                        "an Inspect sample's verdict is correct, incorrect or ambiguous-target, not {v:?}"
                    ),
                );
            }
        }
    }
}

/// [`Sample::no_score`], as `check` says it.
fn no_score(s: &Sample, scorer: &str, what: &str) -> String {
    let why = s.no_score(scorer, what).unwrap_or_default();
    format!("{why} (refused; a save would refuse it too)")
}

/// The review's own verdict and note are on the headline scorer: an error when the
/// sample has no score of it (a sample that failed).
fn check_headline(c: &mut Ctx, s: &Sample, who: &str, r: &Value) {
    if s.headline_score().is_some() {
        return;
    }
    for (k, what) in [("verdict", "a verdict"), ("note", "a note")] {
        if r.get(k).is_some_and(|v| !v.is_null()) {
            c.error(
                &format!("reviews.{who}.{k}"),
                no_score(s, &s.headline, what),
            );
        }
    }
}

/// `scorers` of a review: verdicts on scorers other than the headline one, each on a
/// scorer the sample has, each one of the three, an `ambiguous-target` with a note.
fn check_scorers(c: &mut Ctx, s: &Sample, who: &str, r: &Value) {
    let Some(scorers) = r.get("scorers") else {
        return;
    };
    let f = format!("reviews.{who}.scorers");
    let Some(scorers) = scorers.as_object() else {
        c.error(
            &f,
            "not an object of scorer name → verdict: a save refuses it".to_string(),
        );
        return;
    };
    for (name, v) in scorers {
        let f = format!("{f}.{name}");
        if *name == s.headline {
            c.error(
                &f,
                format!(
                    "{name:?} is the headline scorer: its verdict is the review's own `verdict` (a save refuses this)"
                ),
            );
        } else if !s.scores.iter().any(|x| x.name == *name) {
            c.error(
                &f,
                if s.scores.is_empty() {
                    no_score(s, name, "a verdict")
                } else {
                    format!(
                        "the sample has no score of scorer {name:?} (scorers: {}): a save refuses this verdict",
                        s.scores
                            .iter()
                            .map(|x| format!("{:?}", x.name))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                },
            );
        }
        match v.get("verdict") {
            None | Some(Value::Null) => {}
            Some(Value::String(x)) if Verdict::parse(x).is_some() => {
                if x == Verdict::AmbiguousTarget.name()
                    && v.get("note")
                        .and_then(Value::as_str)
                        .is_none_or(|n| n.trim().is_empty())
                {
                    c.warn(
                        &format!("{f}.note"),
                        "an ambiguous-target verdict without a note: the score edit's reason should say what is wrong with the target".to_string(),
                    );
                }
            }
            Some(x) => c.error(
                &format!("{f}.verdict"),
                format!("a verdict on a scorer is correct, incorrect or ambiguous-target, not {x}"),
            ),
        }
    }
}
