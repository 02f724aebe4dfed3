//! Deal the items of a result set out to reviewers.
//!
//! Every item goes to exactly `overlap` distinct reviewers; the reviewers' loads differ by
//! at most one item; the result depends only on the number of items, the reviewers, the
//! overlap and the seed. Items are taken in file order; each of an item's `overlap` places
//! goes to a reviewer with the lowest load so far (which keeps the loads balanced), and
//! among those to the one that has shared the fewest items with the reviewers already
//! chosen for this item (which spreads the pairs evenly, so every pair of reviewers has
//! items in common to compute Cohen's kappa on); remaining ties are broken by a seeded
//! splitmix64 generator.
//!
//! The reviewer files hold the items' bytes unchanged (JSONL lines byte-identical), in the
//! order of the input file.

use std::path::{Path, PathBuf};

use serde_json::value::RawValue;

use crate::store::{Format, Store};

/// The seed used when none is given (`--seed`).
pub const DEFAULT_SEED: u64 = 1;

/// splitmix64 (Steele, Lea & Flood 2014; the seeding generator of xoshiro): a tiny
/// pseudo-random generator, good enough to break ties, identical on every platform.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (`n > 0`), without modulo bias (rejection sampling).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0)");
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SplitError {
    #[error("name at least one reviewer")]
    NoReviewers,
    #[error(
        "reviewer name {0:?} cannot be used: names go into file names, so use letters, digits, `-`, `_`, `.`, `@` or `+`, not starting with `.`"
    )]
    BadName(String),
    #[error("reviewer {0:?} is named twice")]
    Duplicate(String),
    #[error("--overlap must be at least 1")]
    ZeroOverlap,
    #[error(
        "--overlap {overlap} is more than the {reviewers} reviewer(s): every item must go to {overlap} different reviewers"
    )]
    TooMuchOverlap { overlap: usize, reviewers: usize },
    #[error("{path}: cannot read the document again to copy its other keys: {message}")]
    Document { path: PathBuf, message: String },
}

/// Check a list of reviewer names: not empty, no duplicates, usable in file names.
pub fn check_reviewers(reviewers: &[String]) -> Result<(), SplitError> {
    if reviewers.is_empty() {
        return Err(SplitError::NoReviewers);
    }
    for (i, r) in reviewers.iter().enumerate() {
        let ok = !r.is_empty()
            && !r.starts_with('.')
            && r.chars()
                .all(|c| c.is_alphanumeric() || "-_.@+".contains(c));
        if !ok {
            return Err(SplitError::BadName(r.clone()));
        }
        if reviewers[..i].contains(r) {
            return Err(SplitError::Duplicate(r.clone()));
        }
    }
    Ok(())
}

/// Which reviewers each item goes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    overlap: usize,
    n_reviewers: usize,
    /// `overlap` reviewer indices per item, ascending.
    slots: Vec<u32>,
}

impl Assignment {
    pub fn len(&self) -> usize {
        self.slots.len() / self.overlap
    }
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
    pub fn overlap(&self) -> usize {
        self.overlap
    }
    /// The reviewers (indices, ascending) item `i` goes to.
    pub fn reviewers_of(&self, i: usize) -> &[u32] {
        &self.slots[i * self.overlap..(i + 1) * self.overlap]
    }
    /// Items per reviewer.
    pub fn loads(&self) -> Vec<usize> {
        let mut l = vec![0; self.n_reviewers];
        for &r in &self.slots {
            l[r as usize] += 1;
        }
        l
    }
    /// Items shared by reviewers `a` and `b`.
    pub fn shared(&self, a: usize, b: usize) -> usize {
        (0..self.len())
            .filter(|&i| {
                let rs = self.reviewers_of(i);
                rs.contains(&(a as u32)) && rs.contains(&(b as u32))
            })
            .count()
    }
}

/// Deal `n_items` items to `n_reviewers` reviewers, `overlap` each (see the module doc).
pub fn assign(
    n_items: usize,
    n_reviewers: usize,
    overlap: usize,
    seed: u64,
) -> Result<Assignment, SplitError> {
    if n_reviewers == 0 {
        return Err(SplitError::NoReviewers);
    }
    if overlap == 0 {
        return Err(SplitError::ZeroOverlap);
    }
    if overlap > n_reviewers {
        return Err(SplitError::TooMuchOverlap {
            overlap,
            reviewers: n_reviewers,
        });
    }
    let mut rng = SplitMix64::new(seed);
    let mut load = vec![0usize; n_reviewers];
    let mut together = vec![0usize; n_reviewers * n_reviewers];
    let mut slots = Vec::with_capacity(n_items * overlap);
    let mut chosen: Vec<usize> = Vec::with_capacity(overlap);
    let mut best: Vec<usize> = Vec::with_capacity(n_reviewers);
    for _ in 0..n_items {
        chosen.clear();
        for _ in 0..overlap {
            // Lowest load first, then fewest items shared with those already chosen.
            let key = |r: usize| {
                let shared: usize = chosen.iter().map(|&c| together[c * n_reviewers + r]).sum();
                (load[r], shared)
            };
            best.clear();
            let mut best_key = (usize::MAX, usize::MAX);
            for r in 0..n_reviewers {
                if chosen.contains(&r) {
                    continue;
                }
                let k = key(r);
                if k < best_key {
                    best_key = k;
                    best.clear();
                }
                if k == best_key {
                    best.push(r);
                }
            }
            let pick = best[rng.below(best.len() as u64) as usize];
            chosen.push(pick);
        }
        for &a in &chosen {
            load[a] += 1;
            for &b in &chosen {
                if a != b {
                    together[a * n_reviewers + b] += 1;
                }
            }
        }
        chosen.sort_unstable();
        slots.extend(chosen.iter().map(|&r| r as u32));
    }
    Ok(Assignment {
        overlap,
        n_reviewers,
        slots,
    })
}

/// Where reviewer `reviewer`'s file goes: `DIR/<stem>.<reviewer>.jsonl` (or `.json` for a
/// JSON document).
pub fn output_path(input: &Path, dir: &Path, reviewer: &str, format: Format) -> PathBuf {
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "results".into());
    let ext = match format {
        Format::Jsonl => "jsonl",
        Format::Json => "json",
    };
    dir.join(format!("{stem}.{reviewer}.{ext}"))
}

/// One reviewer's file, ready to write.
#[derive(Debug, Clone)]
pub struct ReviewerFile {
    pub reviewer: String,
    pub path: PathBuf,
    pub items: usize,
    pub bytes: Vec<u8>,
}

/// What a split produced.
#[derive(Debug, Clone)]
pub struct Split {
    pub files: Vec<ReviewerFile>,
    pub assignment: Assignment,
    /// Items that are not valid JSON objects (named by id fallback `#<line>`); they were
    /// dealt out as they are.
    pub unreadable: Vec<String>,
}

/// Split an open result set for `reviewers` into files under `dir` (nothing is written
/// here; see [`super::write_atomic`]). For a JSON document, `document` is the file's
/// bytes as on disk, to copy its other top-level keys.
pub fn split(
    store: &Store,
    document: Option<&[u8]>,
    reviewers: &[String],
    overlap: usize,
    seed: u64,
    dir: &Path,
) -> Result<Split, SplitError> {
    check_reviewers(reviewers)?;
    let assignment = assign(store.len(), reviewers.len(), overlap, seed)?;
    let mut per_reviewer: Vec<Vec<usize>> = vec![Vec::new(); reviewers.len()];
    let mut unreadable = Vec::new();
    for i in 0..store.len() {
        for &r in assignment.reviewers_of(i) {
            per_reviewer[r as usize].push(i);
        }
        let raw = store.raw_bytes(i).unwrap_or_default();
        let is_object = serde_json::from_slice::<serde::de::IgnoredAny>(raw).is_ok()
            && raw.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
        if !is_object {
            unreadable.push(store.fallback_id(i));
        }
    }
    let header = match (store.format(), document) {
        (Format::Json, Some(doc)) => {
            Some(
                DocumentLayout::parse(doc).map_err(|message| SplitError::Document {
                    path: store.path().to_path_buf(),
                    message,
                })?,
            )
        }
        (Format::Json, None) => Some(DocumentLayout::default()),
        (Format::Jsonl, _) => None,
    };
    let mut files = Vec::with_capacity(reviewers.len());
    for (r, items) in per_reviewer.iter().enumerate() {
        let bytes = match &header {
            None => {
                let mut out = Vec::new();
                for &i in items {
                    out.extend_from_slice(store.raw_bytes(i).unwrap_or_default());
                    out.push(b'\n');
                }
                out
            }
            Some(layout) => layout.render(
                items
                    .iter()
                    .map(|&i| store.raw_bytes(i).unwrap_or_default()),
            ),
        };
        files.push(ReviewerFile {
            reviewer: reviewers[r].clone(),
            path: output_path(store.path(), dir, &reviewers[r], store.format()),
            items: items.len(),
            bytes,
        });
    }
    Ok(Split {
        files,
        assignment,
        unreadable,
    })
}

/// The top level of a JSON document: its keys in order with their raw values (`items`
/// replaced on output), or a bare array.
#[derive(Debug, Default)]
struct DocumentLayout {
    /// `None` for a bare array.
    keys: Option<Vec<(String, String)>>,
}

impl DocumentLayout {
    fn parse(doc: &[u8]) -> Result<DocumentLayout, String> {
        let text = std::str::from_utf8(doc).map_err(|e| e.to_string())?;
        if text.trim_start().starts_with('[') {
            return Ok(DocumentLayout { keys: None });
        }
        let map: indexmap::IndexMap<String, &RawValue> =
            serde_json::from_str(text).map_err(|e| e.to_string())?;
        Ok(DocumentLayout {
            keys: Some(
                map.into_iter()
                    .map(|(k, v)| (k, v.get().to_string()))
                    .collect(),
            ),
        })
    }

    fn render<'a>(&self, items: impl Iterator<Item = &'a [u8]>) -> Vec<u8> {
        let Some(keys) = &self.keys else {
            let mut out = item_list(items, "");
            out.push(b'\n');
            return out;
        };
        let list = item_list(items, "  ");
        let mut out = Vec::new();
        out.extend_from_slice(b"{");
        let mut has_items = false;
        let mut sep = "\n  ";
        for (k, v) in keys {
            out.extend_from_slice(sep.as_bytes());
            out.extend_from_slice(serde_json::to_string(k).unwrap_or_default().as_bytes());
            out.extend_from_slice(b": ");
            if k == "items" {
                out.extend_from_slice(&list);
                has_items = true;
            } else {
                out.extend_from_slice(v.as_bytes());
            }
            sep = ",\n  ";
        }
        if !has_items {
            out.extend_from_slice(sep.as_bytes());
            out.extend_from_slice(b"\"items\": ");
            out.extend_from_slice(&list);
        }
        out.extend_from_slice(b"\n}\n");
        out
    }
}

/// A JSON array of the items' raw texts, one per line, indented by `indent` + two spaces.
fn item_list<'a>(items: impl Iterator<Item = &'a [u8]>, indent: &str) -> Vec<u8> {
    let mut list = Vec::new();
    list.push(b'[');
    let mut first = true;
    for it in items {
        list.extend_from_slice(if first { b"\n" } else { b",\n" });
        list.extend_from_slice(indent.as_bytes());
        list.extend_from_slice(b"  ");
        list.extend_from_slice(it);
        first = false;
    }
    if !first {
        list.push(b'\n');
        list.extend_from_slice(indent.as_bytes());
    }
    list.push(b']');
    list
}

#[cfg(test)]
mod tests;
