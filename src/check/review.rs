//! The checks of a review and of its grades (docs/format.md, "Reviews").

use super::*;
use crate::bench::cvqa::check::cvqa_answer_problem;

pub(crate) fn check_review(
    c: &mut Ctx,
    r: &Map<String, Value>,
    f: &str,
    bench: &str,
    models: &[String],
    n_responses: usize,
    info: &BenchInfo,
) {
    match c.str(r, "at", &join(f, "at")) {
        None if r.get("at").is_none_or(Value::is_null) => {
            c.warn(&join(f, "at"), "missing: when the verdict was given")
        }
        None => {}
        Some(at) => {
            match time::OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339) {
                Ok(t) if t.offset().is_utc() => {}
                Ok(_) => c.warn(
                    &join(f, "at"),
                    format!("{} is not in UTC (write it with `Z`)", quote(at)),
                ),
                Err(e) => c.error(
                    &join(f, "at"),
                    format!("{} is not an RFC 3339 time: {e}", quote(at)),
                ),
            }
        }
    }
    c.str(r, "note", &join(f, "note"));
    c.str(r, "verdict", &join(f, "verdict"));
    c.bool(r, "final", &join(f, "final"));
    if let Some(s) = c.num(r, "seconds", &join(f, "seconds"))
        && s < 0.0
    {
        c.error(&join(f, "seconds"), "negative");
    }

    // C-VQA question verification.
    let status = c.one_of(
        r,
        "status",
        &join(f, "status"),
        &CvqaStatus::ALL.map(CvqaStatus::name),
    );
    let reason = c.one_of(
        r,
        "reason",
        &join(f, "reason"),
        &CvqaReason::ALL.map(CvqaReason::name),
    );
    c.bool(r, "image_related", &join(f, "image_related"));
    c.bool(r, "answer_ok", &join(f, "answer_ok"));
    let fixed_q = c.str(r, "fixed_question", &join(f, "fixed_question"));
    let fixed_a = c.text(r, "fixed_answer", &join(f, "fixed_answer"));
    if status == Some("reject") && reason.is_none() && r.get("reason").is_none_or(Value::is_null) {
        c.error(&join(f, "reason"), "a rejection needs a reason");
    }
    for (k, present) in [
        ("fixed_question", fixed_q.is_some()),
        ("fixed_answer", fixed_a.is_some()),
    ] {
        if present && status != Some("fix") {
            c.error(
                &join(f, k),
                format!(
                    "only a `fix` has {k}; this review's status is {}",
                    status.map_or("missing".to_string(), |s| format!("`{s}`"))
                ),
            );
        }
    }
    if status == Some("fix") && fixed_q.is_none() && fixed_a.is_none() {
        c.warn(
            &join(f, "status"),
            "`fix` without fixed_question or fixed_answer",
        );
    }
    if reason.is_some() && status == Some("accept") {
        c.warn(&join(f, "reason"), "a reason on an accepted question");
    }
    if let (Some(a), Some(g)) = (&fixed_a, &info.group)
        && let Some(m) = cvqa_answer_problem(g, fixed_q, a)
    {
        c.warn(&join(f, "fixed_answer"), m);
    }

    // Grades of responses.
    let top_level = check_grades(c, r, f, bench, info);
    if top_level && n_responses > 1 {
        c.warn(
            f,
            format!(
                "grades at the top level of a review of an item with {n_responses} responses: put them under models.<model>"
            ),
        );
    }
    if let Some(per_model) = c.obj(r, "models", &join(f, "models")) {
        for (m, g) in per_model {
            let mf = format!("{f}.models.{m}");
            if !models.iter().any(|x| x == m) {
                c.error(
                    &mf,
                    format!(
                        "grades for model {}, which has no response on this item{}",
                        quote(m),
                        if models.is_empty() {
                            String::new()
                        } else {
                            format!(
                                " (models: {})",
                                models
                                    .iter()
                                    .map(|x| quote(x))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )
                        }
                    ),
                );
            }
            match g {
                Value::Object(g) => {
                    check_grades(c, g, &mf, bench, info);
                }
                other => c.wrong_type(&mf, "an object", other),
            }
        }
    }
}

/// Check the response-grade fields of `g`; true when it has any.
pub(crate) fn check_grades(
    c: &mut Ctx,
    g: &Map<String, Value>,
    f: &str,
    bench: &str,
    info: &BenchInfo,
) -> bool {
    let mut any = false;
    for k in ["fact_correct", "original_correct", "counterfactual_correct"] {
        any |= c.bool(g, k, &join(f, k)).is_some();
    }
    any |= c
        .one_of(
            g,
            "justification",
            &join(f, "justification"),
            &JustificationGrade::ALL.map(JustificationGrade::name),
        )
        .is_some();
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
                (Some(k), None) if k >= 1 => {
                    if bench == "chartom-qa" {
                        // the item's bonus points are broken; reported there
                    }
                }
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
