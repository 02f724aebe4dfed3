//! `verdict check --benchmark SPEC`: an item against its declared fields, and the answers
//! in its reviews against the questions (docs/format.md, "Declared benchmarks").

use serde_json::{Map, Value};

use super::{Declared, FieldKind, lookup};
use crate::bench::kit::check::{BenchInfo, Ctx, join};
use crate::question::Per;
use crate::sanitize::quote;

/// The item's fields, each of the kind the spec declares, and its checklists' points.
pub(crate) fn item(
    d: &Declared,
    c: &mut Ctx,
    obj: &Map<String, Value>,
    responses: &[&Map<String, Value>],
) -> BenchInfo {
    for f in &d.fields {
        let wrong = match (lookup(obj, &f.path), f.kind) {
            (None | Some(Value::Null), _) => {
                c.warn(&f.path, "missing");
                continue;
            }
            (Some(Value::String(_) | Value::Number(_)), FieldKind::Text) => None,
            (Some(Value::String(_)), FieldKind::Image) => None,
            (Some(Value::Number(_)), FieldKind::Number) => None,
            (Some(Value::Array(a)), FieldKind::Chat) => a
                .iter()
                .any(|t| !t.get("content").is_some_and(Value::is_string))
                .then_some("an array of turns, each with a \"content\" text"),
            (Some(Value::Array(_)), FieldKind::List) => None,
            (Some(_), FieldKind::Text) => Some("a string"),
            (Some(_), FieldKind::Image) => Some("an image path"),
            (Some(_), FieldKind::Number) => Some("a number"),
            (Some(_), FieldKind::Chat) => Some("an array of turns"),
            (Some(_), FieldKind::List) => Some("an array"),
        };
        if let (Some(want), Some(v)) = (wrong, lookup(obj, &f.path)) {
            c.wrong_type(&f.path, want, v);
        }
    }
    if let Some(spec) = &d.responses {
        for (n, r) in responses.iter().enumerate() {
            if r.get(&spec.text).is_none_or(Value::is_null) {
                c.warn(&format!("{}[{n}].{}", spec.path, spec.text), "missing");
            }
        }
    }
    let mut info = BenchInfo::default();
    for q in &d.questions {
        if let Some(p) = d.points(q, Some(obj)) {
            if let crate::question::Kind::MultiLabel(crate::question::Points::From(path)) = &q.kind
                && !lookup(obj, path).is_some_and(Value::is_array)
            {
                c.warn(
                    path,
                    format!("missing: the points of question {}", quote(&q.name)),
                );
            }
            info.points.insert(q.name.clone(), p);
        }
    }
    info
}

/// The `answers` of a review's level `g` at `f` (the review's top level when `top`, else
/// `models.<model>`): each names a question and answers it as its type says. True when
/// they answer a response's question (a response grade: docs/format.md).
pub(crate) fn answers(
    d: &Declared,
    c: &mut Ctx,
    g: &Map<String, Value>,
    f: &str,
    info: &BenchInfo,
    top: bool,
) -> bool {
    let f = join(f, "answers");
    let Some(answers) = c.obj(g, "answers", &f) else {
        return false;
    };
    let mut graded = false;
    for (name, v) in answers {
        let af = join(&f, name);
        let Some(q) = d.questions.iter().find(|q| &q.name == name) else {
            c.error(&af, format!("no question is named {}", quote(name)));
            continue;
        };
        if q.per == Per::Item && !top {
            c.error(
                &af,
                "a question of the item, answered for one model: put it at the review's top level",
            );
            continue;
        }
        graded |= q.per == Per::Response;
        if v.is_null() {
            continue;
        }
        if let Some(p) = q.problem(v, info.points.get(name).copied()) {
            c.error(
                &af,
                format!("{p}; found {}", crate::sanitize::line(&v.to_string())),
            );
        }
    }
    graded
}
