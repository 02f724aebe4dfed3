//! The checks of a review and of its grades (docs/format.md, "Reviews").

use super::*;

pub(crate) fn check_review(
    c: &mut Ctx,
    r: &Map<String, Value>,
    f: &str,
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

    // The benchmarks' item-level review fields (docs/format.md).
    crate::bench::check_review_fields(c, r, f, info);

    // Grades of responses.
    let top_level = check_grades(c, r, f, info);
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
                    check_grades(c, g, &mf, info);
                }
                other => c.wrong_type(&mf, "an object", other),
            }
        }
    }
}

/// Check the response-grade fields of `g`; true when it has any.
pub(crate) fn check_grades(c: &mut Ctx, g: &Map<String, Value>, f: &str, info: &BenchInfo) -> bool {
    crate::bench::check_grade_fields(c, g, f, info)
}
