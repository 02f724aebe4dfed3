//! Combine reviewers' files of the same result set into one.
//!
//! Items are matched by `id` (without one: an lm-eval sample by `doc_id` and `filter`, a
//! CharToM-QA evaluation line by its content, see [`read_item`]) and must be the same item in every file: their JSON without
//! `reviews` must be equal (as JSON values: key order does not matter, number spellings
//! do). The output holds the union of the items in the order of first appearance (the
//! first file's items first). Reviews are keyed by reviewer, so they union; when the same
//! reviewer's verdict on the same item differs between two files, the one with the newer
//! `at` is kept and the replacement is reported. An item whose reviews gain nothing from
//! the other files is written as the first file's bytes; otherwise as the first file's
//! bytes with only the `reviews` value replaced.

use std::fmt;

use indexmap::IndexMap;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::store::Store;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MergeError {
    #[error("{file}, line {line}: cannot read the item: {message}")]
    Unreadable {
        file: String,
        line: u32,
        message: String,
    },
    #[error(
        "{file}, line {line}: {message}; merge matches items by id (an lm-eval sample by its doc_id and filter, a CharToM-QA evaluation line by its content)"
    )]
    NoId {
        file: String,
        line: u32,
        message: String,
    },
    #[error("{file}: item {id:?} appears twice (lines {first} and {second})")]
    DuplicateId {
        file: String,
        id: String,
        first: u32,
        second: u32,
    },
    #[error(
        "item {id:?} differs between {a} and {b} at `{path}`: merge combines files of the same set, so the items must be equal apart from their reviews"
    )]
    Differs {
        id: String,
        a: Box<Place>,
        b: Box<Place>,
        path: String,
    },
    #[error("{file}, line {line}: item {id:?}: `reviews` is not an object")]
    BadReviews { file: String, line: u32, id: String },
    #[error(
        "item {id:?}: reviewer {reviewer:?}: the verdicts in {a} and {b} differ and {why}, so neither can be kept as the newer"
    )]
    Undecidable {
        id: String,
        reviewer: String,
        a: Box<Place>,
        b: Box<Place>,
        why: String,
    },
}

/// Where an item is: a file and a line. Shown as `FILE (line N)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    pub file: String,
    pub line: u32,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (line {})", self.file, self.line)
    }
}

fn place(file: &str, line: u32) -> Box<Place> {
    Box::new(Place {
        file: file.to_string(),
        line,
    })
}

/// One reviewer's verdict replaced by a newer one from another file.
#[derive(Debug, Clone, PartialEq)]
pub struct Replaced {
    pub id: String,
    pub reviewer: String,
    pub kept_at: String,
    pub kept_file: String,
    pub dropped_at: String,
    pub dropped_file: String,
}

impl fmt::Display for Replaced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "item {}: reviewer {}: kept the verdict of {} from {}, dropped the one of {} from {}",
            self.id,
            self.reviewer,
            self.kept_at,
            self.kept_file,
            self.dropped_at,
            self.dropped_file
        )
    }
}

/// The merged set.
#[derive(Debug, Clone, Default)]
pub struct Merged {
    /// One JSON text per item (no newlines), in output order.
    pub lines: Vec<String>,
    /// Reviews per reviewer in the output, by first appearance.
    pub reviews: IndexMap<String, usize>,
    /// Verdicts replaced by newer ones.
    pub replaced: Vec<Replaced>,
    /// Items written as their first file's bytes, unchanged.
    pub unchanged: usize,
}

impl Merged {
    /// The output file's bytes (JSONL).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.lines.iter().map(|l| l.len() + 1).sum());
        for l in &self.lines {
            out.extend_from_slice(l.as_bytes());
            out.push(b'\n');
        }
        out
    }
}

/// A review found in one file.
#[derive(Debug, Clone)]
struct Found {
    review: Value,
    file: usize,
    line: u32,
}

#[derive(Debug)]
struct Entry {
    id: String,
    file: usize,
    index: usize,
    line: u32,
    /// The item without `reviews`.
    content: Value,
    /// The first file's `reviews` (if any), to tell whether anything changed.
    first_reviews: Option<Map<String, Value>>,
    reviews: IndexMap<String, Found>,
}

/// One item as merge reads it.
#[derive(Debug)]
pub struct ReadItem {
    /// What matches it across files: `id:<id>`, `lm-eval:<doc_id>:<filter>`, or for a
    /// CharToM-QA evaluation line, `content:<its JSON without reviews, keys sorted>`.
    pub key: String,
    /// How messages name it: its id, `doc_id 2 (strict-match)`, or for an evaluation
    /// line, its book and the start of its question (`Emma · What does…`).
    pub shown: String,
    pub line: u32,
    /// The item without `reviews`.
    pub content: Value,
    pub reviews: Option<Map<String, Value>>,
}

/// Read item `i` of `store` (named `name` in messages) for merging.
///
/// Items are matched across files by their identity: the `id` when there is one (it
/// must be a string); an lm-eval sample (no id) by its `doc_id` and `filter`; a
/// CharToM-QA evaluation line (no id: one line per question and response) by its
/// content, the line without `reviews` as a JSON value (key order does not matter).
/// Any other item without an id cannot be matched: an error.
pub fn read_item(name: &str, store: &Store, i: usize) -> Result<ReadItem, MergeError> {
    let line = store.line(i);
    let mut v = store.value(i).map_err(|e| MergeError::Unreadable {
        file: name.to_string(),
        line,
        message: e.to_string(),
    })?;
    let obj = v.as_object_mut().expect("value() returns objects");
    let reviews = match obj.shift_remove("reviews") {
        None => None,
        Some(Value::Object(m)) => Some(m),
        Some(_) => {
            return Err(MergeError::BadReviews {
                file: name.to_string(),
                line,
                id: identity(obj)
                    .map(|(_, shown)| shown)
                    .unwrap_or_else(|_| format!("#{line}")),
            });
        }
    };
    let (key, shown) = identity(obj).map_err(|message| MergeError::NoId {
        file: name.to_string(),
        line,
        message,
    })?;
    Ok(ReadItem {
        key,
        shown,
        line,
        content: v,
        reviews,
    })
}

/// An item's identity (see [`read_item`]): its key and how messages name it. `obj` is
/// the item without `reviews`.
fn identity(obj: &Map<String, Value>) -> Result<(String, String), String> {
    match obj.get("id") {
        Some(Value::String(s)) => return Ok((format!("id:{s}"), s.clone())),
        Some(Value::Null) | None => {}
        Some(_) => return Err("the item's `id` is not a string".into()),
    }
    if let (Some(doc), Some(filter)) = (obj.get("doc_id"), obj.get("filter"))
        && crate::bench::lm_eval::is_sample(obj)
    {
        let doc = match doc {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let filter = match filter {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        return Ok((
            format!("lm-eval:{doc}:{filter}"),
            format!("doc_id {doc} ({filter})"),
        ));
    }
    if !crate::bench::chartom_qa::eval::is_eval_object(obj) {
        return Err("the item has no `id`".into());
    }
    let mut key = String::from("content:");
    canonical(&Value::Object(obj.clone()), &mut key);
    // Named by its book and question (the lines are in every message that names it).
    let short = |k: &str| {
        let t = obj.get(k).and_then(Value::as_str).unwrap_or("");
        let mut s: String = t.chars().take(40).collect();
        if s.len() < t.len() {
            s.push('…');
        }
        s
    };
    Ok((
        key,
        format!("{} · {}", short("book_name"), short("question")),
    ))
}

/// `v` as JSON text with every object's keys sorted (two values equal as JSON, whatever
/// their key order, give the same text; number spellings are kept).
pub(crate) fn canonical(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push('{');
            for (n, k) in keys.into_iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(k).expect("a string serializes"));
                out.push(':');
                canonical(&m[k], out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (n, x) in a.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                canonical(x, out);
            }
            out.push(']');
        }
        other => out.push_str(&serde_json::to_string(other).expect("a Value serializes")),
    }
}

/// Whether the files `split` would write from `store` can be merged back: every item
/// readable by merge has an identity, no identity twice, `reviews` an object. Items
/// that are not valid JSON objects are left out here (split deals them out and warns).
pub fn check_mergeable(name: &str, store: &Store) -> Result<(), MergeError> {
    let mut seen: std::collections::HashMap<String, u32> = std::collections::HashMap::new();
    for i in 0..store.len() {
        let it = match read_item(name, store, i) {
            Ok(it) => it,
            Err(MergeError::Unreadable { .. }) => continue,
            Err(e) => return Err(e),
        };
        if let Some(&first) = seen.get(&it.key) {
            return Err(MergeError::DuplicateId {
                file: name.to_string(),
                id: it.shown,
                first,
                second: it.line,
            });
        }
        seen.insert(it.key, it.line);
    }
    Ok(())
}

/// Merge the items of `inputs` (each a display name and an open store).
pub fn merge(inputs: &[(String, &Store)]) -> Result<Merged, MergeError> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut by_id: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut replaced = Vec::new();
    for (f, (name, store)) in inputs.iter().enumerate() {
        let mut seen_here: std::collections::HashMap<String, u32> =
            std::collections::HashMap::new();
        for i in 0..store.len() {
            let ReadItem {
                key,
                shown: id,
                line,
                content: v,
                reviews,
            } = read_item(name, store, i)?;
            if let Some(&first) = seen_here.get(&key) {
                return Err(MergeError::DuplicateId {
                    file: name.clone(),
                    id,
                    first,
                    second: line,
                });
            }
            seen_here.insert(key.clone(), line);
            match by_id.get(&key) {
                None => {
                    let mut e = Entry {
                        id: id.clone(),
                        file: f,
                        index: i,
                        line,
                        content: v,
                        first_reviews: reviews.clone(),
                        reviews: IndexMap::new(),
                    };
                    for (r, rv) in reviews.into_iter().flatten() {
                        e.reviews.insert(
                            r,
                            Found {
                                review: rv,
                                file: f,
                                line,
                            },
                        );
                    }
                    by_id.insert(key, entries.len());
                    entries.push(e);
                }
                Some(&k) => {
                    let e = &mut entries[k];
                    if e.content != v {
                        let path = first_difference(&e.content, &v, String::new())
                            .unwrap_or_else(|| "(item)".into());
                        return Err(MergeError::Differs {
                            id,
                            a: place(&inputs[e.file].0, e.line),
                            b: place(name, line),
                            path,
                        });
                    }
                    for (r, rv) in reviews.into_iter().flatten() {
                        let new = Found {
                            review: rv,
                            file: f,
                            line,
                        };
                        match e.reviews.get_mut(&r) {
                            None => {
                                e.reviews.insert(r, new);
                            }
                            Some(old) if old.review == new.review => {}
                            Some(old) => {
                                let keep_new = newer(&e.id, &r, old, &new, inputs)?;
                                let (kept, dropped) = if keep_new {
                                    (&new, &*old)
                                } else {
                                    (&*old, &new)
                                };
                                replaced.push(Replaced {
                                    id: e.id.clone(),
                                    reviewer: r.clone(),
                                    kept_at: at_of(&kept.review).unwrap_or_default(),
                                    kept_file: inputs[kept.file].0.clone(),
                                    dropped_at: at_of(&dropped.review).unwrap_or_default(),
                                    dropped_file: inputs[dropped.file].0.clone(),
                                });
                                if keep_new {
                                    *old = new;
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    let mut out = Merged {
        replaced,
        ..Merged::default()
    };
    for e in &entries {
        for r in e.reviews.keys() {
            *out.reviews.entry(r.clone()).or_default() += 1;
        }
        let store = inputs[e.file].1;
        let raw = store
            .raw(e.index)
            .expect("value() succeeded, so the text is UTF-8");
        let merged: Map<String, Value> = e
            .reviews
            .iter()
            .map(|(k, f)| (k.clone(), f.review.clone()))
            .collect();
        let same = match &e.first_reviews {
            Some(first) => {
                first.len() == merged.len() && first.iter().zip(merged.iter()).all(|(a, b)| a == b)
            }
            None => merged.is_empty(),
        };
        let text = if same {
            out.unchanged += 1;
            raw.to_string()
        } else {
            splice_reviews(raw, &Value::Object(merged))
        };
        out.lines.push(one_line(text));
    }
    Ok(out)
}

/// Whether `new` is newer than `old` (both verdicts of `reviewer` on item `id`).
fn newer(
    id: &str,
    reviewer: &str,
    old: &Found,
    new: &Found,
    inputs: &[(String, &Store)],
) -> Result<bool, MergeError> {
    let undecidable = |why: String| MergeError::Undecidable {
        id: id.to_string(),
        reviewer: reviewer.to_string(),
        a: place(&inputs[old.file].0, old.line),
        b: place(&inputs[new.file].0, new.line),
        why,
    };
    let parse = |f: &Found| -> Result<OffsetDateTime, MergeError> {
        let at = at_of(&f.review).ok_or_else(|| {
            undecidable(format!("the one in {} has no `at` time", inputs[f.file].0))
        })?;
        OffsetDateTime::parse(&at, &Rfc3339).map_err(|e| {
            undecidable(format!(
                "the `at` of the one in {} ({at:?}) is not an RFC 3339 time: {e}",
                inputs[f.file].0
            ))
        })
    };
    let (a, b) = (parse(old)?, parse(new)?);
    if a == b {
        return Err(undecidable(format!(
            "both were given at {}",
            at_of(&old.review).unwrap_or_default()
        )));
    }
    Ok(b > a)
}

fn at_of(review: &Value) -> Option<String> {
    review.get("at").and_then(Value::as_str).map(str::to_string)
}

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
fn one_line(text: String) -> String {
    if !text.contains(['\n', '\r']) {
        return text;
    }
    match serde_json::from_str::<Value>(&text) {
        Ok(v) => serde_json::to_string(&v).expect("a Value always serializes"),
        Err(_) => text.replace(['\n', '\r'], " "),
    }
}

#[cfg(test)]
mod tests;
