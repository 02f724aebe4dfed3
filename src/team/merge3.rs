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
//!   conflict, the changed item kept.
//!
//! Bytes: an item whose merge equals our version is written as our bytes, one that
//! equals theirs as their bytes; otherwise the bytes of the side whose content it has,
//! with only the `reviews` value replaced.

use std::collections::HashMap;
use std::fmt;

use serde_json::{Map, Value};

use super::merge::{MergeError, ReadItem, first_difference, read_item, splice_reviews};
use crate::store::Store;

/// One side's item.
struct Side {
    item: ReadItem,
    raw: String,
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

fn read_all(name: &str, store: &Store) -> Result<(Vec<String>, HashMap<String, Side>), MergeError> {
    let mut order = Vec::with_capacity(store.len());
    let mut by_key: HashMap<String, Side> = HashMap::with_capacity(store.len());
    for i in 0..store.len() {
        let item = read_item(name, store, i)?;
        let raw = store
            .raw(i)
            .expect("read_item succeeded, so the text is UTF-8")
            .to_string();
        if let Some(first) = by_key.get(&item.key) {
            return Err(MergeError::DuplicateId {
                file: name.to_string(),
                id: item.shown,
                first: first.item.line,
                second: item.line,
            });
        }
        order.push(item.key.clone());
        by_key.insert(item.key.clone(), Side { item, raw });
    }
    Ok((order, by_key))
}

fn same(a: &Side, b: &Side) -> bool {
    a.item.content == b.item.content && a.item.reviews == b.item.reviews
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
                    out.lines.push(os.raw.clone());
                }
                // Removed by them: gone, unless we changed it.
                Some(bs) if same(bs, os) => {}
                Some(_) => {
                    out.conflicts.push(Conflict::RemovedAndChanged {
                        item: os.item.shown.clone(),
                        removed_by: "theirs",
                    });
                    out.unchanged += 1;
                    out.lines.push(os.raw.clone());
                }
            },
            (None, Some(ts)) => match bs {
                None => out.lines.push(ts.raw.clone()),
                Some(bs) if same(bs, ts) => {}
                Some(_) => {
                    out.conflicts.push(Conflict::RemovedAndChanged {
                        item: ts.item.shown.clone(),
                        removed_by: "ours",
                    });
                    out.lines.push(ts.raw.clone());
                }
            },
            (None, None) => {}
        }
    }
    Ok(out)
}

/// The merge of one item present on both sides: its text.
fn merge_item(bs: Option<&Side>, os: &Side, ts: &Side, out: &mut Merged3) -> String {
    let (o, t) = (&os.item, &ts.item);
    // Content: whose do we take?
    let theirs_content = if o.content == t.content {
        false
    } else {
        match bs {
            Some(b) if b.item.content == o.content => true,
            Some(b) if b.item.content == t.content => false,
            _ => {
                out.conflicts.push(Conflict::Content {
                    item: o.shown.clone(),
                    line: o.line,
                    path: first_difference(&o.content, &t.content, String::new())
                        .unwrap_or_else(|| "(item)".into()),
                });
                false
            }
        }
    };
    // Reviews, reviewer by reviewer: ours' order, then reviewers only theirs has.
    let empty = Map::new();
    let br = bs.and_then(|b| b.item.reviews.as_ref()).unwrap_or(&empty);
    let or = o.reviews.as_ref().unwrap_or(&empty);
    let tr = t.reviews.as_ref().unwrap_or(&empty);
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
        } else if ov == bv {
            out.from_theirs += 1;
            tv
        } else {
            out.conflicts.push(Conflict::Review {
                item: o.shown.clone(),
                line: o.line,
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
    let content = if theirs_content {
        &t.content
    } else {
        &o.content
    };
    let merged_reviews = (!merged.is_empty()).then_some(merged);
    let equals = |s: &Side| s.item.content == *content && s.item.reviews == merged_reviews;
    // An empty `reviews` object on a side counts as none.
    let equals = |s: &Side| {
        equals(s)
            || (s.item.content == *content
                && merged_reviews.is_none()
                && s.item.reviews.as_ref().is_some_and(Map::is_empty))
    };
    if equals(os) {
        out.unchanged += 1;
        return os.raw.clone();
    }
    if equals(ts) {
        return ts.raw.clone();
    }
    let raw = if theirs_content { &ts.raw } else { &os.raw };
    match merged_reviews {
        Some(m) => splice_reviews(raw, &Value::Object(m)),
        None => {
            // Every verdict removed: the item without `reviews` (its other bytes as
            // serde keeps them: key order and number spellings).
            let mut v = content.clone();
            if let Some(obj) = v.as_object_mut() {
                obj.shift_remove("reviews");
            }
            serde_json::to_string(&v).expect("a Value serializes")
        }
    }
}

#[cfg(test)]
mod tests;
