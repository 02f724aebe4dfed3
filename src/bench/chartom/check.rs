//! `verdict check`'s rules for CHARTOM items (docs/format.md, "CHARTOM").

use serde_json::{Map, Value};

use crate::bench::chartom::fields::{ChartVersion, FactFormat, JustificationGrade};
use crate::bench::kit::check::{BenchInfo, Ctx, describe, index_in, join, rank_order};
use crate::sanitize::quote;

const CHART_TYPES: [&str; 5] = ["line", "bar", "pie", "scatter", "map"];

/// Check a CHARTOM item's own fields (docs/format.md, "CHARTOM").
pub(crate) fn item(
    c: &mut Ctx,
    obj: &Map<String, Value>,
    responses: &[&Map<String, Value>],
) -> BenchInfo {
    match c.obj(obj, "chart", "chart") {
        None if obj.get("chart").is_none_or(Value::is_null) => c.warn(
            "chart",
            "missing: no chart type, version or planted manipulation to show",
        ),
        None => {}
        Some(ch) => {
            c.str(ch, "pair", "chart.pair");
            let version = c.one_of(
                ch,
                "version",
                "chart.version",
                &ChartVersion::ALL.map(ChartVersion::name),
            );
            c.one_of(ch, "type", "chart.type", &CHART_TYPES);
            let manip = c.str(ch, "manipulation", "chart.manipulation");
            let id = c.id.clone();
            let suffix = crate::bench::chartom::import::split_chart_id(&id).map(|(_, m)| m);
            match (version, suffix) {
                (Some(v @ "original"), Some(true)) | (Some(v @ "manipulated"), Some(false)) => c.warn(
                    "chart.version",
                    format!(
                        "`{v}` disagrees with the id (`_1` is the original chart, `_2` the manipulated one)"
                    ),
                ),
                _ => {}
            }
            if version == Some("manipulated") && manip.is_none_or(|m| m.trim().is_empty()) {
                c.warn(
                    "chart.manipulation",
                    "a manipulated chart without its planted manipulation: justifications cannot be graded against it",
                );
            }
        }
    }

    match c.obj(obj, "fact", "fact") {
        None if obj.get("fact").is_none_or(Value::is_null) => c.error("fact", "missing"),
        None => {}
        Some(fact) => {
            match c.str(fact, "question", "fact.question") {
                None if fact.get("question").is_none_or(Value::is_null) => {
                    c.warn("fact.question", "missing")
                }
                _ => {}
            }
            let format = c.one_of(
                fact,
                "format",
                "fact.format",
                &FactFormat::ALL.map(FactFormat::name),
            );
            if format.is_none() && fact.get("format").is_none_or(Value::is_null) {
                c.error("fact.format", "missing (choice, rank or number)");
            }
            let options = c
                .strings(fact, "options", "fact.options")
                .unwrap_or_default();
            let n = options.len();
            if matches!(format, Some("choice" | "rank")) && n < 2 {
                c.error(
                    "fact.options",
                    format!(
                        "a {} question needs two options at least, found {n}",
                        format.unwrap_or_default()
                    ),
                );
            }
            let valid_options = n >= 2;
            match (fact.get("key"), format) {
                (None | Some(Value::Null), _) => {
                    c.warn("fact.key", "missing: FACT answers cannot be graded")
                }
                (_, None) => {}
                (Some(k), Some("choice")) => {
                    if valid_options && let Err(m) = index_in(k, n) {
                        c.error("fact.key", m);
                    }
                }
                (Some(k), Some("rank")) => {
                    if valid_options {
                        let alternatives =
                            matches!(k, Value::Array(a) if a.first().is_some_and(Value::is_array));
                        if alternatives {
                            for (i, alt) in k.as_array().expect("checked").iter().enumerate() {
                                if let Err(m) = rank_order(alt, n) {
                                    c.error(&format!("fact.key[{i}]"), m);
                                }
                            }
                        } else if let Err(m) = rank_order(k, n) {
                            c.error("fact.key", m);
                        }
                    }
                }
                (Some(k), Some(_)) => match k {
                    Value::Number(x) if x.as_f64().is_some_and(f64::is_finite) => {}
                    Value::String(s) if crate::bench::chartom::import::parse_number(s).is_ok() => c
                        .warn(
                            "fact.key",
                            format!("{} is a string; write the key as a JSON number", quote(s)),
                        ),
                    other => c.error(
                        "fact.key",
                        format!("expected a number, found {}", describe(other)),
                    ),
                },
            }
            if let Some(st) = c.obj(fact, "strategies", "fact.strategies") {
                for k in ["misled", "skim"] {
                    let f = format!("fact.strategies.{k}");
                    if c.num(st, k, &f).is_none() && st.get(k).is_none_or(Value::is_null) {
                        c.error(&f, "missing");
                    }
                }
                if format.is_some_and(|f| f != "number") {
                    c.warn(
                        "fact.strategies",
                        "strategies only apply to number questions",
                    );
                }
            }
            if let Some(ha) = c.arr(fact, "human_answers", "fact.human_answers") {
                for (i, pair) in ha.iter().enumerate() {
                    let f = format!("fact.human_answers[{i}]");
                    let Some([answer, count]) = pair
                        .as_array()
                        .map(Vec::as_slice)
                        .and_then(|a| <&[Value; 2]>::try_from(a).ok())
                    else {
                        c.error(
                            &f,
                            format!("expected [answer, count], found {}", describe_short(pair)),
                        );
                        continue;
                    };
                    if count.as_u64().is_none() {
                        c.error(
                            &format!("{f}[1]"),
                            format!(
                                "the count must be a whole number ≥ 0, found {}",
                                describe(count)
                            ),
                        );
                    }
                    let af = format!("{f}[0]");
                    match format {
                        Some("choice") if valid_options => {
                            if let Err(m) = index_in(answer, n) {
                                c.error(&af, m);
                            }
                        }
                        Some("rank") if valid_options => {
                            if let Err(m) = rank_order(answer, n) {
                                c.error(&af, m);
                            }
                        }
                        Some("number") => match answer {
                            Value::Number(_) => {}
                            // a text is read as the grading reads it (docs/stats.md): a
                            // number, a fraction or a range, with scale and percent sign
                            Value::String(s)
                                if crate::bench::chartom::grade::read_number(s).is_some() => {}
                            other => c.error(
                                &af,
                                format!("expected a number, found {}", describe(other)),
                            ),
                        },
                        _ => {}
                    }
                }
            }
        }
    }

    let mut any_mind = false;
    for (i, r) in responses.iter().enumerate() {
        let f = format!("responses[{i}]");
        c.text(r, "fact", &join(&f, "fact"));
        if c.share(r, "mind", &join(&f, "mind")).is_some() {
            any_mind = true;
        }
        c.str(r, "justification", &join(&f, "justification"));
    }
    match c.obj(obj, "mind", "mind") {
        Some(m)
            if c.share(m, "hmi", "mind.hmi").is_none()
                && m.get("hmi").is_none_or(Value::is_null) =>
        {
            c.error("mind.hmi", "missing");
        }
        Some(_) => {}
        None if any_mind && obj.get("mind").is_none_or(Value::is_null) => c.warn(
            "mind",
            "no HMI (mind.hmi): the responses' MIND predictions cannot be scored",
        ),
        None => {}
    }
    BenchInfo::default()
}

fn describe_short(v: &Value) -> String {
    match v {
        Value::Array(a) => format!("an array of {}", a.len()),
        other => describe(other),
    }
}

/// CHARTOM's FACT override among a response's grades `g` at `f`; true when given.
pub(crate) fn fact_grade(c: &mut Ctx, g: &Map<String, Value>, f: &str) -> bool {
    c.bool(g, "fact_correct", &join(f, "fact_correct"))
        .is_some()
}

/// CHARTOM's justification grade among a response's grades `g` at `f`; true when given.
pub(crate) fn justification_grade(c: &mut Ctx, g: &Map<String, Value>, f: &str) -> bool {
    let mut any = false;
    any |= c
        .one_of(
            g,
            "justification",
            &join(f, "justification"),
            &JustificationGrade::ALL.map(JustificationGrade::name),
        )
        .is_some();
    any
}
