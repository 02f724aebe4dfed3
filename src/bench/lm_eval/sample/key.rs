//! The harness's key rule: which choices a multiple-choice target names.

use super::*;

/// The choice text of a request's continuation: without the task's target delimiter.
pub(super) fn choice_text<'a>(t: &'a str, delimiter: &str) -> &'a str {
    t.strip_prefix(delimiter).unwrap_or(t)
}

/// The choices the target names, read as `key`.
pub(super) fn gold(target: &str, key: Key, ch: &Choices, delimiter: &str) -> Vec<usize> {
    let n = ch.texts.len();
    match key {
        Key::Index => target
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|&g| g < n)
            .into_iter()
            .collect(),
        Key::Text => ch
            .texts
            .iter()
            .position(|t| choice_text(t, delimiter) == target)
            .into_iter()
            .collect(),
        Key::List => {
            let mut out: Vec<usize> = serde_json::from_str::<Vec<Value>>(target)
                .unwrap_or_default()
                .iter()
                .filter_map(Value::as_u64)
                .filter_map(|g| usize::try_from(g).ok())
                .filter(|&g| g < n)
                .collect();
            out.dedup();
            out
        }
    }
}

/// The key's reading when neither the configuration nor the `doc` says: a list is a
/// list; a target that is a choice's text but no index is text, and the reverse an
/// index; when it could be both, the reading that agrees with the harness's own scores
/// on this line (`acc`, `acc_norm`, `exact_match`); else an index.
pub(super) fn guess_key(target: &str, ch: &Choices, delimiter: &str, metrics: &[Metric]) -> Key {
    let t = target.trim();
    if t.starts_with('[') && t.ends_with(']') {
        return Key::List;
    }
    let as_index = gold(target, Key::Index, ch, delimiter);
    let as_text = gold(target, Key::Text, ch, delimiter);
    match (as_index.is_empty(), as_text.is_empty()) {
        (false, true) => return Key::Index,
        (true, false) => return Key::Text,
        (true, true) => return Key::Index,
        (false, false) => {}
    }
    let agrees = |g: &[usize]| {
        metrics.iter().all(|m| {
            let want = match m.name.as_str() {
                "acc" => ch.picked().map(|p| g.contains(&p)),
                "acc_norm" => ch.picked_norm().map(|p| g.contains(&p)),
                "exact_match" => g.first().and_then(|&i| ch.greedy.get(i).copied().flatten()),
                _ => return true,
            };
            match (want, m.value.number()) {
                (Some(w), Some(v)) => (v == 1.0) == w,
                _ => true,
            }
        })
    };
    if !agrees(&as_index) && agrees(&as_text) {
        Key::Text
    } else {
        Key::Index
    }
}

/// A JSON value as Python's `str()` writes it, for the values a target can be: text,
/// an integer, a list of integers or of texts.
pub(super) fn python_str(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
        Value::Array(a) => {
            let parts: Option<Vec<String>> = a
                .iter()
                .map(|x| match x {
                    Value::String(s) if !s.contains('\'') => Some(format!("'{s}'")),
                    Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
                    _ => None,
                })
                .collect();
            Some(format!("[{}]", parts?.join(", ")))
        }
        _ => None,
    }
}
