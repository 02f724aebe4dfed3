//! A sample of the log as a line of verdict's own layout (`inspect::LINE_KEY`): what
//! the view shows of it, and the reviews its scores' edit histories hold.

use super::*;

/// Text of a message's or an input's `content`: a string, or the text of its parts.
fn content_text(c: &Value, attachments: Option<&Value>) -> String {
    let resolve = |s: &str| -> String {
        match s.strip_prefix("attachment://") {
            Some(k) => attachments
                .and_then(|a| a.get(k))
                .and_then(Value::as_str)
                .unwrap_or(s)
                .to_string(),
            None => s.to_string(),
        }
    };
    match c {
        Value::String(s) => resolve(s),
        Value::Array(parts) => parts
            .iter()
            .map(|p| match p.get("type").and_then(Value::as_str) {
                Some("text") => resolve(p.get("text").and_then(Value::as_str).unwrap_or("")),
                Some("reasoning") => format!(
                    "(reasoning) {}",
                    resolve(p.get("reasoning").and_then(Value::as_str).unwrap_or(""))
                ),
                Some(t) => format!("({t})"),
                None => String::new(),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Null => String::new(),
        v => v.to_string(),
    }
}

fn messages(v: Option<&Value>, attachments: Option<&Value>) -> Value {
    Value::Array(
        v.and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|m| {
                json!({
                    "role": m.get("role").and_then(Value::as_str).unwrap_or("?"),
                    "text": content_text(m.get("content").unwrap_or(&Value::Null), attachments),
                })
            })
            .collect(),
    )
}

/// The reviews a score's edit history holds: each author's latest edit with provenance,
/// as a verdict (`C`/`I` or 1/0 as correct/incorrect, a marked ambiguous target), the
/// edit's time as `at` and its reason as `note`. A withdrawn verdict gives none.
pub fn reviews_of(score: &Value) -> Map<String, Value> {
    let mut by_author: Map<String, Value> = Map::new();
    for e in score
        .get("history")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(p) = e.get("provenance").filter(|p| p.is_object()) else {
            continue;
        };
        let Some(author) = p.get("author").and_then(Value::as_str) else {
            continue;
        };
        let marked = p.pointer("/metadata/verdict").and_then(Value::as_str);
        let verdict = match marked {
            Some(v) => Some(v.to_string()),
            None => match e.get("value").map(edit::to_float) {
                Some(Some(1.0)) => Some("correct".to_string()),
                Some(Some(0.0)) => Some("incorrect".to_string()),
                _ => None,
            },
        };
        match verdict.as_deref() {
            Some(v) if crate::bench::inspect::Verdict::parse(v).is_some() || v == "none" => {
                let mut r = Map::new();
                if v != "none" {
                    r.insert("verdict".into(), json!(v));
                }
                if let Some(t) = p.get("timestamp").and_then(Value::as_str) {
                    r.insert("at".into(), json!(t));
                }
                if let Some(n) = p.get("reason").and_then(Value::as_str) {
                    r.insert("note".into(), json!(n));
                }
                if p.pointer("/metadata/final") == Some(&Value::Bool(true)) {
                    r.insert("final".into(), json!(true));
                }
                by_author.shift_remove(author);
                by_author.insert(author.to_string(), Value::Object(r));
            }
            // Withdrawn, or another value set by hand: no verdict of this author.
            _ => {
                by_author.shift_remove(author);
            }
        }
    }
    by_author
}

/// One sample as a line: what the view shows, the id, and the reviews from the headline
/// scorer's edit history.
pub(super) fn line_of(s: &Value, headline: &str, run: &Value, harness: &Value) -> String {
    let att = s.get("attachments");
    let input = match s.get("input") {
        Some(Value::Array(_)) => messages(s.get("input"), att),
        Some(v) => json!(content_text(v, att)),
        None => json!(""),
    };
    let target = match s.get("target") {
        Some(Value::Array(a)) => Value::Array(a.clone()),
        Some(Value::String(t)) => json!([t]),
        Some(v) if !v.is_null() => json!([v.to_string()]),
        _ => json!([]),
    };
    let choices: Vec<String> = s
        .get("choices")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|c| content_text(c, att))
        .collect();
    let completion = s
        .pointer("/output/completion")
        .map(|c| content_text(c, att))
        .unwrap_or_default();
    let mut scores = Vec::new();
    let mut reviews = Map::new();
    for (name, sc) in s
        .get("scores")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        scores.push(score_shown(name, sc));
        merge_reviews(&mut reviews, name, sc, headline);
    }
    let id = s.get("id").cloned().unwrap_or(Value::Null);
    let epoch = s.get("epoch").and_then(Value::as_u64).unwrap_or(1);
    let mut line = Map::new();
    line.insert("id".into(), json!(item_id(&id, epoch)));
    line.insert(
        crate::bench::inspect::LINE_KEY.into(),
        json!({
            "sample": id,
            "epoch": epoch,
            "input": input,
            "target": target,
            "choices": choices,
            "completion": completion,
            "messages": messages(s.get("messages"), att),
            "scores": scores,
            "headline": headline,
            "run": run,
            "harness": harness,
            "error": s.pointer("/error/message").cloned().unwrap_or(Value::Null),
            "metadata": s.get("metadata").filter(|m| m.as_object().is_some_and(|o| !o.is_empty())).cloned().unwrap_or(Value::Null),
        }),
    );
    if !reviews.is_empty() {
        line.insert("reviews".into(), Value::Object(reviews));
    }
    serde_json::to_string(&Value::Object(line)).expect("a Value always serializes")
}

/// A scorer's score as the view shows it: its value, the value the scorer gave, its
/// answer and explanation, and the edits with a provenance.
fn score_shown(name: &str, sc: &Value) -> Value {
    let history = sc.get("history").and_then(Value::as_array);
    let edits: Vec<Value> = history
        .into_iter()
        .flatten()
        .filter_map(|e| {
            let p = e.get("provenance").filter(|p| p.is_object())?;
            Some(json!({
                "author": p.get("author").cloned().unwrap_or(Value::Null),
                "at": p.get("timestamp").cloned().unwrap_or(Value::Null),
                "reason": p.get("reason").cloned().unwrap_or(Value::Null),
                "value": e.get("value").map(nonfinite::shown).unwrap_or(Value::Null),
            }))
        })
        .collect();
    let original = history
        .and_then(|h| h.first())
        .filter(|e| e.get("provenance").is_none_or(Value::is_null))
        .and_then(|e| e.get("value"))
        .or_else(|| sc.get("value"))
        .map(nonfinite::shown)
        .unwrap_or(Value::Null);
    json!({
        "name": name,
        "value": sc.get("value").map(nonfinite::shown).unwrap_or(Value::Null),
        "original": original,
        "answer": sc.get("answer").cloned().unwrap_or(Value::Null),
        "explanation": sc.get("explanation").cloned().unwrap_or(Value::Null),
        "edits": edits,
    })
}

/// The reviews `sc`'s history gives, merged into `reviews` by author: the headline's as
/// the review itself, another scorer's as `scorers.<name>` of it (an adjudicator's mark is
/// the headline's only).
fn merge_reviews(reviews: &mut Map<String, Value>, name: &str, sc: &Value, headline: &str) {
    if name == headline {
        for (who, r) in reviews_of(sc) {
            let merged = reviews.entry(who).or_insert_with(|| json!({}));
            if let (Some(m), Value::Object(r)) = (merged.as_object_mut(), r) {
                for (k, v) in r {
                    m.insert(k, v);
                }
            }
        }
    } else {
        // A verdict on another scorer: `scorers.<name>` of its author's review (an
        // adjudicator's mark is the headline's only).
        for (who, mut r) in reviews_of(sc) {
            if let Some(o) = r.as_object_mut() {
                o.shift_remove("final");
            }
            let merged = reviews.entry(who).or_insert_with(|| json!({}));
            if merged.get("scorers").is_none() {
                merged["scorers"] = json!({});
            }
            merged["scorers"][name] = r;
        }
    }
}
