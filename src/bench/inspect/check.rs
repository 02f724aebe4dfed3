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
                "scores",
                "the sample has no scores: there is nothing to grade".to_string(),
            );
        } else if s.headline_score().is_none() {
            c.warn(
                "scores",
                format!(
                    "the sample has no score of the headline scorer {:?}: a verdict on it cannot be written back",
                    s.headline
                ),
            );
        }
        if let Some(e) = &s.error {
            c.warn("error", format!("the sample failed: {e}"));
        }
    }
    if let Some(Value::Object(reviews)) = obj.get("reviews") {
        for (name, r) in reviews {
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
