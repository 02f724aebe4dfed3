//! A reviewer's verdict as Inspect's own score edit, as
//! `inspect_ai.log.edit_score(log, id, scorer, ScoreEdit(value=…,
//! provenance=ProvenanceData(author=…, reason=…)), epoch=…)` then `write_eval_log` write
//! it (inspect_ai 0.3.285, `log/_score.py`): the score's value set, its original and the
//! edit in `history`, a `score_edit` event before the end of the sample's last `scorers`
//! span; the value in `summaries.json`. The figures recomputed after it: [`super::recompute`].

use serde_json::{Map, Value, json};

use super::Verdict;

/// One score edit to write.
#[derive(Debug, Clone, PartialEq)]
pub struct Edit {
    /// `provenance.author`: the reviewer.
    pub author: String,
    /// `provenance.timestamp`: the review's `at` (RFC 3339).
    pub at: String,
    /// `provenance.reason`: the review's note.
    pub note: Option<String>,
    /// The verdict; `None`: a note alone (the value kept, marked `none`).
    pub verdict: Option<Verdict>,
    /// The reviewer took their verdict back: the original value, marked `withdrawn`.
    pub withdrawn: bool,
    /// An adjudicator's final verdict (docs/teams.md): `provenance.metadata.final`.
    pub is_final: bool,
}

/// Inspect's `value_to_float()`: `C` 1, `I` 0, `P` 0.5, `N` 0, numbers and booleans as
/// numbers, `yes`/`true` 1, `no`/`false` 0, numeric strings; `None` for what it warns on
/// (lists, objects, other strings: it counts them 0) and for `null`.
pub fn to_float(v: &Value) -> Option<f64> {
    if let Some(t) = super::nonfinite::token(v) {
        return Some(match t {
            "NaN" => f64::NAN,
            "Infinity" => f64::INFINITY,
            _ => f64::NEG_INFINITY,
        });
    }
    match v {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        Value::String(s) => match s.as_str() {
            "C" => Some(1.0),
            "I" | "N" => Some(0.0),
            "P" => Some(0.5),
            t => match t.to_ascii_lowercase().as_str() {
                "yes" | "true" => Some(1.0),
                "no" | "false" => Some(0.0),
                t => t.parse::<f64>().ok(),
            },
        },
        _ => None,
    }
}

/// The value a verdict writes, in the kind of value the score has: `"C"`/`"I"` for a
/// string (and by default), 1/0 for a number, true/false for a boolean.
pub fn value_for(v: Verdict, current: Option<&Value>) -> Value {
    let good = v == Verdict::Correct;
    // (NaN or Infinity: a float)
    let number = current.is_some_and(|c| super::nonfinite::token(c).is_some());
    match current {
        Some(Value::Number(_)) => json!(if good { 1 } else { 0 }),
        _ if number => json!(if good { 1 } else { 0 }),
        Some(Value::Bool(_)) => json!(good),
        _ => json!(if good { "C" } else { "I" }),
    }
}

/// A JSON pointer token for `s`.
pub fn pointer_escape(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// A float as pydantic writes one: the shortest digits that read back, never in
/// exponent form, and `.0` on whole numbers.
pub fn float(x: f64) -> Value {
    if !x.is_finite() {
        // written back bare, as Python's json writes it
        return super::nonfinite::value(x);
    }
    let text = if x.is_finite() && x.fract() == 0.0 && x.abs() < 1e16 {
        format!("{x:.1}")
    } else {
        format!("{x}")
    };
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

/// The timestamp of an event as Python's `isoformat()` writes it (`+00:00`, not `Z`).
fn event_time(at: &str) -> String {
    match at.strip_suffix('Z') {
        Some(t) => format!("{t}+00:00"),
        None => at.to_string(),
    }
}

/// An event id in shortuuid's alphabet, 22 letters, from what the edit is (so that the
/// same edit written twice is the same event).
fn uuid(seed: &str) -> String {
    const ALPHABET: &[u8] = b"23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    let mut out = String::with_capacity(22);
    let mut k = 0u64;
    while out.len() < 22 {
        let mut h = crate::hash::fnv1a64(format!("{seed}\u{0}{k}").as_bytes());
        for _ in 0..5 {
            if out.len() == 22 {
                break;
            }
            out.push(ALPHABET[(h % ALPHABET.len() as u64) as usize] as char);
            h /= ALPHABET.len() as u64;
        }
        k += 1;
    }
    out
}

/// Apply `e` to score `scorer` of sample `s` (a sample of the log, as JSON).
pub fn apply(s: &mut Value, scorer: &str, e: &Edit) {
    let Some(score) = s
        .get_mut("scores")
        .and_then(|m| m.get_mut(scorer))
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    let mut history = score
        .get("history")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let edit = json!({
        "value": edit_value(score, &history, e),
        "answer": "UNCHANGED",
        "explanation": "UNCHANGED",
        "reason": "UNCHANGED",
        "metadata": "UNCHANGED",
        "provenance": provenance(e),
    });
    // The original score first, when the history is empty (as `edit_score` does).
    if history.is_empty() {
        history.push(original_entry(score));
    }
    if edit["value"] != json!("UNCHANGED") {
        score.insert("value".into(), edit["value"].clone());
    }
    history.push(edit.clone());
    score.insert("history".into(), Value::Array(history));
    let id = s.get("id").cloned().unwrap_or(Value::Null);
    let epoch = s.get("epoch").cloned().unwrap_or(Value::Null);
    insert_event(
        s,
        scorer,
        edit,
        &e.at,
        &format!(
            "{id}\u{0}{epoch}\u{0}{scorer}\u{0}{}\u{0}{}",
            e.author, e.at
        ),
    );
}

/// The value an edit writes: the value before any edit for a withdrawal, `UNCHANGED`
/// for a note alone or an ambiguous target, else the verdict's value.
fn edit_value(score: &Map<String, Value>, history: &[Value], e: &Edit) -> Value {
    // The value before any edit.
    let original = history
        .first()
        .and_then(|h| h.get("value"))
        .or_else(|| score.get("value"))
        .cloned()
        .unwrap_or(Value::Null);
    match e.verdict {
        _ if e.withdrawn => original,
        Some(Verdict::AmbiguousTarget) | None => json!("UNCHANGED"),
        Some(v) => value_for(v, score.get("value")),
    }
}

/// The edit's `provenance`: the time, the author, the note as the reason, and in its
/// `metadata` what the value does not say (the verdict when it is not a value, the final
/// mark).
fn provenance(e: &Edit) -> Map<String, Value> {
    let mut provenance = Map::new();
    provenance.insert("timestamp".into(), json!(e.at));
    provenance.insert("author".into(), json!(e.author));
    if let Some(n) = &e.note {
        provenance.insert("reason".into(), json!(n));
    }
    let mut meta = match e.verdict {
        _ if e.withdrawn => json!({"verdict": "withdrawn"}),
        Some(Verdict::AmbiguousTarget) => json!({"verdict": Verdict::AmbiguousTarget.name()}),
        None => json!({"verdict": "none"}),
        _ => json!({}),
    };
    if e.is_final {
        meta["final"] = json!(true);
    }
    provenance.insert("metadata".into(), meta);
    provenance
}

/// The score as the scorer gave it, as the first entry of its history: its value, answer,
/// explanation, reason and metadata.
fn original_entry(score: &Map<String, Value>) -> Value {
    let mut first = Map::new();
    first.insert(
        "value".into(),
        score.get("value").cloned().unwrap_or(Value::Null),
    );
    for k in ["answer", "explanation", "reason"] {
        if let Some(v) = score.get(k).filter(|v| !v.is_null()) {
            first.insert(k.into(), v.clone());
        }
    }
    first.insert(
        "metadata".into(),
        score
            .get("metadata")
            .filter(|m| !m.is_null())
            .cloned()
            .unwrap_or_else(|| json!({})),
    );
    Value::Object(first)
}

/// The `score_edit` event, just before the end of the sample's last `scorers` span (in
/// that span), or at the end of the events when there is none.
fn insert_event(s: &mut Value, scorer: &str, edit: Value, at: &str, seed: &str) {
    let Some(events) = s.get_mut("events").and_then(Value::as_array_mut) else {
        return;
    };
    let span = events
        .iter()
        .rev()
        .find(|e| {
            e.get("event").and_then(Value::as_str) == Some("span_begin")
                && e.get("type").and_then(Value::as_str) == Some("scorers")
                && e.get("name").and_then(Value::as_str) == Some("scorers")
        })
        .and_then(|e| e.get("id").cloned());
    let end = span.as_ref().and_then(|id| {
        events.iter().rposition(|e| {
            e.get("event").and_then(Value::as_str) == Some("span_end") && e.get("id") == Some(id)
        })
    });
    let at_index = end.unwrap_or(events.len());
    let working_start = events[..at_index]
        .iter()
        .rev()
        .find_map(|e| e.get("working_start").cloned())
        .unwrap_or(json!(0.0));
    let mut ev = Map::new();
    ev.insert("uuid".into(), json!(uuid(seed)));
    if let Some(id) = span {
        ev.insert("span_id".into(), id);
    }
    ev.insert("timestamp".into(), json!(event_time(at)));
    ev.insert("working_start".into(), working_start);
    ev.insert("event".into(), json!("score_edit"));
    ev.insert("score_name".into(), json!(scorer));
    ev.insert("edit".into(), edit);
    events.insert(at_index, Value::Object(ev));
}

/// Set the value of `scorer` in the summary of sample `s` (`summaries.json`).
pub fn update_summary(sums: &mut Value, s: &Value, scorer: &str) {
    let value = s
        .pointer(&format!("/scores/{}/value", pointer_escape(scorer)))
        .cloned();
    let Some(value) = value else { return };
    for sum in sums.as_array_mut().into_iter().flatten() {
        if sum.get("id") == s.get("id")
            && sum.get("epoch") == s.get("epoch")
            && let Some(sc) = sum
                .get_mut("scores")
                .and_then(|m| m.get_mut(scorer))
                .and_then(Value::as_object_mut)
        {
            sc.insert("value".into(), value.clone());
        }
    }
}
