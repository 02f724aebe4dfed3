//! Three-way merge of a results file, for git's merge driver (`verdict merge --git`,
//! docs/teams.md, "A team across machines (git)").
//!
//! Given the common ancestor (`base`), our version and theirs, items are matched by their
//! identity (as `verdict merge` matches them: [`super::merge::read_item`]) and merged
//! item by item, relative to the ancestor:
//!
//! - **A reviewer's verdict** changed on one side only (added, changed or removed) takes
//!   that side's value: a verdict removed on one side (an undo) stays removed. Changed on
//!   both sides to the same value: that value. Changed on both sides to different values:
//!   a **conflict**; ours is kept.
//! - **An item's other content** (everything but `reviews`) changed on one side only takes
//!   that side's; changed on both sides differently: a conflict, ours kept.
//! - **Items** added on one side are kept (in that side's place); removed on one side and
//!   unchanged on the other are removed; removed on one side and changed on the other: a
//!   conflict, the changed item kept. A line that is not a JSON object is matched by its
//!   bytes (nobody can grade it; an edit of it is a removal and an addition).
//!
//! Bytes: an item whose merge equals our version is written as our bytes, one that
//! equals theirs as their bytes; otherwise the bytes of the side whose content it has,
//! with only the `reviews` value replaced.

use std::collections::HashMap;
use std::fmt;

use serde_json::{Map, Value};

use super::merge::{
    MergeError, earlier, first_difference, read_item, same_but_when, splice_reviews,
};
use crate::model::canonical;
use crate::store::Store;

/// One side's item. Its content (the item without `reviews`) is not kept, only a hash of
/// it (keys sorted): a large file's items are parsed once, and only the items that differ
/// are parsed again.
struct Side<'a> {
    shown: String,
    line: u32,
    raw: &'a str,
    reviews: Option<Map<String, Value>>,
    hash: u64,
}

impl Side<'_> {
    /// The item without `reviews`.
    fn content(&self) -> Value {
        // (An unreadable line, matched by its bytes, stands for itself.)
        let Ok(mut v) = serde_json::from_str::<Value>(self.raw) else {
            return Value::String(self.raw.to_string());
        };
        if let Some(o) = v.as_object_mut() {
            o.shift_remove("reviews");
        }
        v
    }
}

/// Whether two items have the same content (not counting `reviews`): exact, the hashes
/// only spare the parse when they differ.
fn content_eq(a: &Side, b: &Side) -> bool {
    a.hash == b.hash && (a.raw == b.raw || a.content() == b.content())
}

/// Something both sides changed differently; ours was kept.
#[derive(Debug, Clone, PartialEq)]
pub enum Conflict {
    /// The same reviewer's verdict on the same item changed to two different values
    /// (`None`: removed on that side).
    Review {
        item: String,
        line: u32,
        reviewer: String,
        ours: Option<Value>,
        theirs: Option<Value>,
    },
    /// The item's content (not its reviews) changed differently on both sides.
    Content {
        item: String,
        line: u32,
        path: String,
    },
    /// Removed on one side, changed on the other: the changed item is kept.
    RemovedAndChanged {
        item: String,
        removed_by: &'static str,
    },
}

fn shown(v: &Option<Value>) -> String {
    match v {
        Some(v) => serde_json::to_string(v).expect("a Value serializes"),
        None => "(removed)".into(),
    }
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Conflict::Review {
                item,
                line,
                reviewer,
                ours,
                theirs,
            } => write!(
                f,
                "item {item} (line {line}): reviewer {reviewer}: ours {} | theirs {} (ours kept)",
                shown(ours),
                shown(theirs)
            ),
            Conflict::Content { item, line, path } => write!(
                f,
                "item {item} (line {line}): its content changed on both sides, differently at `{path}` (ours kept)"
            ),
            Conflict::RemovedAndChanged { item, removed_by } => write!(
                f,
                "item {item}: removed by {removed_by}, changed by the other side (the changed item kept)"
            ),
        }
    }
}

/// The result of a three-way merge.
#[derive(Debug, Clone, Default)]
pub struct Merged3 {
    /// One JSON text per item, in output order.
    pub lines: Vec<String>,
    pub conflicts: Vec<Conflict>,
    /// Items written as our bytes.
    pub unchanged: usize,
    /// Verdicts taken from theirs (added, changed or removed there).
    pub from_theirs: usize,
}

impl Merged3 {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for l in &self.lines {
            out.extend_from_slice(l.as_bytes());
            out.push(b'\n');
        }
        out
    }
}

type Items<'a> = (Vec<String>, HashMap<String, Side<'a>>);

fn read_all<'a>(name: &str, store: &'a Store) -> Result<Items<'a>, MergeError> {
    use std::hash::{Hash, Hasher};
    let mut order = Vec::with_capacity(store.len());
    let mut by_key: HashMap<String, Side> = HashMap::with_capacity(store.len());
    let mut text = String::new();
    for i in 0..store.len() {
        let item = match read_item(name, store, i) {
            Ok(item) => item,
            // A line that is not a JSON object (nobody can grade it) is matched by its
            // bytes: it passes through, or goes where one side moved or removed it.
            Err(MergeError::Unreadable { .. }) if store.raw(i).is_ok() => {
                let raw = store.raw(i).expect("checked");
                let line = store.line(i);
                let key = format!("raw:{raw}");
                if let Some(first) = by_key.get(&key) {
                    return Err(MergeError::DuplicateId {
                        file: name.to_string(),
                        id: format!("unreadable line {line}"),
                        first: first.line,
                        second: line,
                    });
                }
                let mut h = std::collections::hash_map::DefaultHasher::new();
                raw.hash(&mut h);
                order.push(key.clone());
                by_key.insert(
                    key,
                    Side {
                        shown: format!("unreadable line {line}"),
                        line,
                        raw,
                        reviews: None,
                        hash: h.finish(),
                    },
                );
                continue;
            }
            Err(e) => return Err(e),
        };
        let raw = store
            .raw(i)
            .expect("read_item succeeded, so the text is UTF-8");
        if let Some(first) = by_key.get(&item.key) {
            return Err(MergeError::DuplicateId {
                file: name.to_string(),
                id: item.shown,
                first: first.line,
                second: item.line,
            });
        }
        text.clear();
        canonical(&item.content, &mut text);
        let mut h = std::collections::hash_map::DefaultHasher::new();
        text.hash(&mut h);
        order.push(item.key.clone());
        by_key.insert(
            item.key,
            Side {
                shown: item.shown,
                line: item.line,
                raw,
                reviews: item.reviews,
                hash: h.finish(),
            },
        );
    }
    Ok((order, by_key))
}

fn same(a: &Side, b: &Side) -> bool {
    content_eq(a, b) && a.reviews == b.reviews
}

/// Merge `ours` and `theirs` relative to `base` (see the module doc). An error when an
/// item of one of them cannot be read or has no identity.
pub fn merge3(base: &Store, ours: &Store, theirs: &Store) -> Result<Merged3, MergeError> {
    let (_, b) = read_all("the ancestor", base)?;
    let (o_order, o) = read_all("ours", ours)?;
    let (t_order, t) = read_all("theirs", theirs)?;
    let mut out = Merged3::default();
    // Keys in output order: ours, then each item only theirs has, after the item that
    // precedes it in theirs.
    let keys: Vec<&String> = o_order.iter().collect();
    let pos: HashMap<&String, usize> = keys.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    let mut inserted: Vec<(usize, &String)> = Vec::new();
    let mut after: Option<usize> = None;
    for k in &t_order {
        if let Some(&p) = pos.get(k) {
            after = Some(p);
        } else {
            inserted.push((after.map_or(0, |p| p + 1), k));
        }
    }
    // Theirs may order the items differently from ours: by place, keeping theirs' order.
    inserted.sort_by_key(|&(p, _)| p);
    let mut merged_keys: Vec<&String> = Vec::with_capacity(keys.len() + inserted.len());
    let mut ins = inserted.into_iter().peekable();
    for (i, k) in keys.iter().enumerate() {
        while let Some(&(p, nk)) = ins.peek() {
            if p > i {
                break;
            }
            merged_keys.push(nk);
            ins.next();
        }
        merged_keys.push(k);
    }
    merged_keys.extend(ins.map(|(_, k)| k));

    for k in merged_keys {
        let (bs, os, ts) = (b.get(k), o.get(k), t.get(k));
        match (os, ts) {
            (Some(os), Some(ts)) => {
                let line = merge_item(bs, os, ts, &mut out);
                out.lines.push(line);
            }
            (Some(os), None) => match bs {
                // Added by us.
                None => {
                    out.unchanged += 1;
                    out.lines.push(os.raw.to_string());
                }
                // Removed by them: gone, unless we changed it.
                Some(bs) if same(bs, os) => {}
                Some(_) => {
                    out.conflicts.push(Conflict::RemovedAndChanged {
                        item: os.shown.clone(),
                        removed_by: "theirs",
                    });
                    out.unchanged += 1;
                    out.lines.push(os.raw.to_string());
                }
            },
            (None, Some(ts)) => match bs {
                None => out.lines.push(ts.raw.to_string()),
                Some(bs) if same(bs, ts) => {}
                Some(_) => {
                    out.conflicts.push(Conflict::RemovedAndChanged {
                        item: ts.shown.clone(),
                        removed_by: "ours",
                    });
                    out.lines.push(ts.raw.to_string());
                }
            },
            (None, None) => {}
        }
    }
    Ok(out)
}

/// The merge of one item present on both sides: its text.
fn merge_item(bs: Option<&Side>, os: &Side, ts: &Side, out: &mut Merged3) -> String {
    // Content: whose do we take?
    let theirs_content = if content_eq(os, ts) {
        false
    } else {
        match bs {
            Some(b) if content_eq(b, os) => true,
            Some(b) if content_eq(b, ts) => false,
            _ => {
                out.conflicts.push(Conflict::Content {
                    item: os.shown.clone(),
                    line: os.line,
                    path: first_difference(&os.content(), &ts.content(), String::new())
                        .unwrap_or_else(|| "(item)".into()),
                });
                false
            }
        }
    };
    // Reviews, reviewer by reviewer: ours' order, then reviewers only theirs has.
    let empty = Map::new();
    let br = bs.and_then(|b| b.reviews.as_ref()).unwrap_or(&empty);
    let or = os.reviews.as_ref().unwrap_or(&empty);
    let tr = ts.reviews.as_ref().unwrap_or(&empty);
    let mut names: Vec<&String> = or.keys().collect();
    names.extend(tr.keys().filter(|k| !or.contains_key(*k)));
    names.extend(
        br.keys()
            .filter(|k| !or.contains_key(*k) && !tr.contains_key(*k)),
    );
    let mut merged = Map::new();
    for r in names {
        let (bv, ov, tv) = (br.get(r), or.get(r), tr.get(r));
        let keep = if ov == tv || tv == bv {
            ov
        } else if let (Some(o), Some(t)) = (ov, tv)
            && same_but_when(o, t)
        {
            // The same verdict given on both sides (two machines): the earlier, whichever
            // side is ours.
            Some(earlier(o, t))
        } else if ov == bv {
            out.from_theirs += 1;
            tv
        } else {
            out.conflicts.push(Conflict::Review {
                item: os.shown.clone(),
                line: os.line,
                reviewer: r.clone(),
                ours: ov.cloned(),
                theirs: tv.cloned(),
            });
            ov
        };
        if let Some(v) = keep {
            merged.insert(r.clone(), v.clone());
        }
    }
    let chosen = if theirs_content { ts } else { os };
    // A side equal to the result gives its bytes (an empty `reviews` counts as none).
    let reviews_match = |s: &Side| match &s.reviews {
        Some(r) if r.is_empty() => merged.is_empty(),
        Some(r) => *r == merged,
        None => merged.is_empty(),
    };
    if (!theirs_content || content_eq(os, ts)) && reviews_match(os) {
        out.unchanged += 1;
        return os.raw.to_string();
    }
    if (theirs_content || content_eq(os, ts)) && reviews_match(ts) {
        return ts.raw.to_string();
    }
    if merged.is_empty() {
        // Every verdict removed: the item without `reviews` (its other bytes as serde
        // keeps them: key order and number spellings).
        return serde_json::to_string(&chosen.content()).expect("a Value serializes");
    }
    splice_reviews(chosen.raw, &Value::Object(merged))
}

#[cfg(test)]
mod tests;
