//! `verdict check`'s rules for CharToM-QA items (docs/format.md, "CharToM-QA").

use serde_json::{Map, Value};

use crate::bench::chartom_qa::fields::JudgeBonus;
use crate::bench::kit::check::{BenchInfo, Ctx, describe, index_in, join};
use crate::sanitize::quote;

const DIMENSIONS: [&str; 4] = ["belief", "intention", "emotion", "desire"];

/// Check a CharToM-QA item's own fields (docs/format.md, "CharToM-QA").
pub(crate) fn item(
    c: &mut Ctx,
    obj: &Map<String, Value>,
    responses: &[&Map<String, Value>],
    eval: bool,
) -> BenchInfo {
    question_fields(c, obj, eval);
    let bonus_points = bonus_points(c, obj);
    let n_choices = choices(c, obj, eval);
    if eval {
        c.str(obj, "response", "response");
        if obj.contains_key("bonus") || obj.contains_key("penalty") {
            judge_check(c, obj, "", "bonus", "penalty", bonus_points);
        }
    }
    for (i, r) in responses.iter().enumerate() {
        response(c, i, r, n_choices, bonus_points);
    }
    BenchInfo {
        bonus_points,
        ..BenchInfo::default()
    }
}

/// The dimension, book, character, question, answer and context (an evaluation line's
/// keys when `eval`).
fn question_fields(c: &mut Ctx, obj: &Map<String, Value>, eval: bool) {
    let (dim_key, book_key) = if eval {
        ("tom_dimension", "book_name")
    } else {
        ("dimension", "book")
    };
    match c.one_of(obj, dim_key, dim_key, &DIMENSIONS) {
        None if obj.get(dim_key).is_none_or(Value::is_null) => {
            c.error(dim_key, "missing (belief, intention, emotion or desire)")
        }
        _ => {}
    }
    c.str(obj, book_key, book_key);
    c.str(obj, "character", "character");
    for k in ["question", "answer"] {
        if c.text(obj, k, k).is_none() && obj.get(k).is_none_or(Value::is_null) {
            c.warn(k, "missing");
        }
    }
    if eval {
        for k in ["context_0", "context_1000", "context_2000"] {
            c.str(obj, k, k);
        }
    } else {
        match obj.get("context") {
            None | Some(Value::Null) => c.warn("context", "missing: no plot context to show"),
            Some(Value::String(_)) => {}
            Some(Value::Object(m)) => {
                for (k, v) in m {
                    if !v.is_string() {
                        c.wrong_type(&format!("context.{k}"), "a string", v);
                    }
                }
            }
            Some(v) => c.wrong_type("context", "an object of texts or a text", v),
        }
    }
}

/// `bonus_points`: how many the item has (none when missing or empty).
fn bonus_points(c: &mut Ctx, obj: &Map<String, Value>) -> Option<usize> {
    match c.strings(obj, "bonus_points", "bonus_points") {
        Some(b) if b.len() > 9 => {
            c.warn(
                "bonus_points",
                format!(
                    "{} bonus points: the digit keys reach 9; points 10 and up are ticked by number (a digit, then Enter)",
                    b.len()
                ),
            );
            Some(b.len())
        }
        Some(b) if !b.is_empty() => Some(b.len()),
        Some(_) => {
            c.error("bonus_points", "empty: nothing to grade a response against");
            None
        }
        None => {
            if obj.get("bonus_points").is_none_or(Value::is_null) {
                c.error("bonus_points", "missing");
            }
            None
        }
    }
}

/// The choices (`misleading_choices` of an evaluation line) and the key among them: how
/// many choices the item has.
fn choices(c: &mut Ctx, obj: &Map<String, Value>, eval: bool) -> Option<usize> {
    let choices_key = if eval {
        "misleading_choices"
    } else {
        "choices"
    };
    let n_choices = c.strings(obj, choices_key, choices_key).map(|v| v.len());
    if !eval && let Some(k) = obj.get("key").filter(|k| !k.is_null()) {
        match n_choices {
            Some(n) => {
                if let Err(m) = index_in(k, n) {
                    c.error("key", m);
                }
            }
            None => c.error("key", "a key without choices"),
        }
    }
    n_choices
}

/// A judge's bonus (a list of the item's `bonus_points` numbers) and penalty in
/// `judge_obj` at `f`.
fn judge_check(
    c: &mut Ctx,
    judge_obj: &Map<String, Value>,
    f: &str,
    bonus_key: &str,
    penalty_key: &str,
    bonus_points: Option<usize>,
) {
    let judge = crate::bench::chartom_qa::fields::Judge {
        bonus: judge_obj.get(bonus_key).cloned().map(Into::into),
        penalty: judge_obj.get(penalty_key).cloned().map(Into::into),
    };
    let bf = join(f, bonus_key);
    match judge.bonus_list() {
        JudgeBonus::Unparsable(s) if s.trim() == "Null" => c.warn(
            &bf,
            "the judge's bonus is \"Null\" (unparsable): the benchmark's script counts it as 3 hits, verdict counts it as unparsable",
        ),
        JudgeBonus::Unparsable(s) => c.error(
            &bf,
            format!("the judge's bonus {} is not a list of bonus point numbers", quote(&s)),
        ),
        JudgeBonus::Points(p) => {
            if let Some(n) = bonus_points
                && let Some(bad) = p.iter().find(|&&k| k as usize > n)
            {
                c.warn(
                    &bf,
                    format!("the judge names bonus point {bad}, but the item has {n}"),
                );
            }
        }
    }
    match judge_obj.get(penalty_key) {
        None | Some(Value::Null) | Some(Value::String(_)) => {}
        Some(v) => c.wrong_type(&join(f, penalty_key), "a string or null", v),
    }
}

/// Response `i`: its text, its choice among the item's `n_choices`, its judge.
fn response(
    c: &mut Ctx,
    i: usize,
    r: &Map<String, Value>,
    n_choices: Option<usize>,
    bonus_points: Option<usize>,
) {
    let f = format!("responses[{i}]");
    if c.str(r, "text", &join(&f, "text")).is_none() && r.get("text").is_none_or(Value::is_null) {
        c.warn(&join(&f, "text"), "missing");
    }
    if let Some(ch) = r.get("choice").filter(|v| !v.is_null()) {
        match n_choices {
            Some(n) => {
                if let Err(m) = index_in(ch, n) {
                    c.error(&join(&f, "choice"), m);
                }
            }
            None => c.error(&join(&f, "choice"), "a choice on an item without choices"),
        }
    }
    if let Some(j) = c.obj(r, "judge", &join(&f, "judge")) {
        judge_check(c, j, &join(&f, "judge"), "bonus", "penalty", bonus_points);
    }
}

/// CharToM-QA's bonus points and penalty among a response's grades `g` at `f`; true
/// when it has any.
pub(crate) fn grade_fields(c: &mut Ctx, g: &Map<String, Value>, f: &str, info: &BenchInfo) -> bool {
    let mut any = false;
    if let Some(b) = c.arr(g, "bonus", &join(f, "bonus")) {
        any = true;
        let mut seen = Vec::new();
        for (i, v) in b.iter().enumerate() {
            let bf = format!("{}[{i}]", join(f, "bonus"));
            match (v.as_u64(), info.bonus_points) {
                (Some(k), Some(n)) if k >= 1 && k as usize <= n => {
                    if seen.contains(&k) {
                        c.warn(&bf, format!("bonus point {k} listed twice"));
                    }
                    seen.push(k);
                }
                (Some(k), Some(n)) => c.error(
                    &bf,
                    format!(
                        "bonus point {k} is not in 1..{n} (the item has {n} bonus point{})",
                        if n == 1 { "" } else { "s" }
                    ),
                ),
                // The item's bonus points are missing or broken: reported on the item.
                (Some(k), None) if k >= 1 => {}
                _ => c.error(
                    &bf,
                    format!("expected a bonus point number ≥ 1, found {}", describe(v)),
                ),
            }
        }
    }
    match g.get("penalty") {
        None => {}
        Some(Value::Null) | Some(Value::String(_)) => any = true,
        Some(v) => c.wrong_type(&join(f, "penalty"), "a string or null", v),
    }
    any
}
