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
use serde_json::{Map, Value};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::store::Store;

mod json;
use json::at_of;
pub use json::first_difference;
use json::one_line;
pub(crate) use json::splice_reviews;
pub(super) use json::{earlier, same_but_when};

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MergeError {
    #[error("{file}, line {line}: cannot read the item: {message}")]
    Unreadable {
        file: String,
        line: u32,
        message: String,
    },
    #[error(
        "{file}, line {line}: {message}; merge matches items by id ({})",
        crate::bench::MERGE_IDENTITIES
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
/// the item without `reviews`. Without an id, the benchmark of a line in its own layout
/// says how its lines are matched (`bench::merge_identity`).
fn identity(obj: &Map<String, Value>) -> Result<(String, String), String> {
    match obj.get("id") {
        Some(Value::String(s)) => return Ok((format!("id:{s}"), s.clone())),
        Some(Value::Null) | None => {}
        Some(_) => return Err("the item's `id` is not a string".into()),
    }
    crate::bench::merge_identity(obj).ok_or_else(|| "the item has no `id`".into())
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
    let (entries, replaced) = gather(inputs)?;
    Ok(write(inputs, &entries, replaced))
}

/// Every file's items, matched by their identity in order of first appearance, with the
/// union of their reviews; and the verdicts replaced by newer ones.
fn gather(inputs: &[(String, &Store)]) -> Result<(Vec<Entry>, Vec<Replaced>), MergeError> {
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
                    let e = Entry::first(id, f, i, line, v, reviews);
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
                    e.add_reviews(reviews, f, line, inputs, &mut replaced)?;
                }
            }
        }
    }
    Ok((entries, replaced))
}

impl Entry {
    /// An item as its first file has it (file `f`, item `i` at `line`).
    fn first(
        id: String,
        f: usize,
        i: usize,
        line: u32,
        v: Value,
        reviews: Option<Map<String, Value>>,
    ) -> Entry {
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
        e
    }

    /// The reviews of the same item in a later file (`f`, at `line`): a new reviewer's
    /// joins, the same verdict is kept, a different one by the same reviewer: the newer
    /// wins and the replacement is noted in `replaced`.
    fn add_reviews(
        &mut self,
        reviews: Option<Map<String, Value>>,
        f: usize,
        line: u32,
        inputs: &[(String, &Store)],
        replaced: &mut Vec<Replaced>,
    ) -> Result<(), MergeError> {
        let e = self;
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
                // The same verdict given twice (two machines): one, the earlier.
                Some(old) if same_but_when(&old.review, &new.review) => {
                    if std::ptr::eq(earlier(&old.review, &new.review), &new.review) {
                        *old = new;
                    }
                }
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
        Ok(())
    }
}

/// The merged lines: an item whose reviews gained nothing as its first file's bytes,
/// else those bytes with the merged `reviews`; and each reviewer's count.
fn write(inputs: &[(String, &Store)], entries: &[Entry], replaced: Vec<Replaced>) -> Merged {
    let mut out = Merged {
        replaced,
        ..Merged::default()
    };
    for e in entries {
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
    out
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

#[cfg(test)]
mod tests;
