//! What merge compares and writes at the level of an item's JSON: where two items
//! differ, an item's text with its `reviews` replaced, one line per item.

use indexmap::IndexMap;
use serde_json::Map;
use serde_json::Value;
use serde_json::value::RawValue;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// The path of the first place where `a` and `b` differ (`counterfactual.answer`,
/// `responses[1]`), or `None` when they are equal.
pub fn first_difference(a: &Value, b: &Value, path: String) -> Option<String> {
    let here = || {
        if path.is_empty() {
            "(item)".to_string()
        } else {
            path.clone()
        }
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match y.get(k) {
                    None => return Some(p),
                    Some(vb) => {
                        if let Some(d) = first_difference(va, vb, p) {
                            return Some(d);
                        }
                    }
                }
            }
            y.keys().find(|k| !x.contains_key(*k)).map(|k| {
                if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                }
            })
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                if let Some(d) = first_difference(va, vb, format!("{}[{i}]", here())) {
                    return Some(d);
                }
            }
            (x.len() != y.len()).then(here)
        }
        _ => (a != b).then(here),
    }
}

/// `raw` (an item's JSON text) with its `reviews` value replaced by `reviews`, or
/// `reviews` added as the last key, written in the item's own layout (its `": "` or
/// `":"`, `, ` or `,`, as the store splices a review); every other byte stays as it was.
pub(crate) fn splice_reviews(raw: &str, reviews: &Value) -> String {
    if let Ok(text) = crate::store::set_member_like(raw, "reviews", reviews) {
        return text;
    }
    let new = serde_json::to_string(reviews).expect("a Value always serializes");
    if let Ok(map) = serde_json::from_str::<IndexMap<&str, &RawValue>>(raw) {
        if let Some(old) = map.get("reviews") {
            let start = old.get().as_ptr() as usize - raw.as_ptr() as usize;
            let end = start + old.get().len();
            return format!("{}{}{}", &raw[..start], new, &raw[end..]);
        }
        if let Some(close) = raw.rfind('}') {
            let sep = if map.is_empty() { "" } else { "," };
            return format!("{}{sep}\"reviews\":{new}{}", &raw[..close], &raw[close..]);
        }
    }
    // Not reached for the objects `merge` reads; fall back to re-serializing.
    let mut v: Value = serde_json::from_str(raw).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.insert("reviews".into(), reviews.clone());
    }
    serde_json::to_string(&v).expect("a Value always serializes")
}

/// JSONL needs one line per item: a multi-line item (from a JSON document) is written
/// compactly, keeping key order and number spellings.
pub(super) fn one_line(text: String) -> String {
    if !text.contains(['\n', '\r']) {
        return text;
    }
    match serde_json::from_str::<Value>(&text) {
        Ok(v) => serde_json::to_string(&v).expect("a Value always serializes"),
        Err(_) => text.replace(['\n', '\r'], " "),
    }
}

/// Are two verdicts the same but for when they were given (`at`) and how long the
/// reviewer took (`seconds`)? The same verdict given on two machines, or twice.
pub fn same_but_when(a: &Value, b: &Value) -> bool {
    match (a.as_object(), b.as_object()) {
        (Some(a), Some(b)) => {
            let rest = |m: &Map<String, Value>| {
                m.iter()
                    .filter(|(k, _)| !matches!(k.as_str(), "at" | "seconds"))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect::<std::collections::BTreeMap<_, _>>()
            };
            rest(a) == rest(b)
        }
        _ => a == b,
    }
}

/// Of two verdicts the same but for when: the one given first (the earlier `at`; on a
/// tie or without times, the smaller text), so every merge of them keeps the same one.
pub fn earlier<'a>(a: &'a Value, b: &'a Value) -> &'a Value {
    let when = |v: &Value| at_of(v).and_then(|t| OffsetDateTime::parse(&t, &Rfc3339).ok());
    match (when(a), when(b)) {
        (Some(x), Some(y)) if x != y => {
            if x < y {
                a
            } else {
                b
            }
        }
        _ => {
            let (ta, tb) = (a.to_string(), b.to_string());
            if ta <= tb { a } else { b }
        }
    }
}

pub(super) fn at_of(review: &Value) -> Option<String> {
    review.get("at").and_then(Value::as_str).map(str::to_string)
}
