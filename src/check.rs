//! `verdict check`: validate a result set and report every problem with its line, item
//! and field.
//!
//! Each item is read as JSON and walked field by field (so one bad field does not hide
//! the next), against docs/format.md's rules for its benchmark; the typed loader
//! ([`crate::bench::Item::parse`]) runs too, so a file that checks clean also loads.
//! Severities: an *error* makes the item unusable or wrong for grading; a *warning* is
//! suspicious but usable (a missing image, a judge's `"Null"` bonus); a *notice* is
//! information (no id, an unknown benchmark, a pending verdict journal).

use crate::bench::Items;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::bench::Item;
use crate::journal::Journal;
use crate::model::kind;
use crate::sanitize::quote;
use crate::store::{ItemError, Store, StoreError};

pub(crate) use crate::bench::kit::check::Ctx;
pub use crate::bench::kit::check::{Problem, Severity};
mod duplicates;

/// The result of checking a file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Report {
    pub file: PathBuf,
    pub items: usize,
    pub problems: Vec<Problem>,
    /// The container format the file was read as (`store::container`), if any.
    pub container: Option<String>,
}

impl Report {
    fn count(&self, s: Severity) -> usize {
        self.problems.iter().filter(|p| p.severity == s).count()
    }
    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }
    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }
    pub fn notices(&self) -> usize {
        self.count(Severity::Notice)
    }
    pub fn is_clean(&self) -> bool {
        self.errors() == 0
    }
}

/// What to check besides the items themselves.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Check that image files exist (relative to the results file's folder).
    pub images: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { images: true }
    }
}

/// Open `path` and check it, noting a pending verdict journal beside it.
pub fn check_file(path: &Path, opts: Options) -> Result<Report, StoreError> {
    let store = crate::session::open_store(path, crate::store::Scan::Whole)?;
    let mut report = check_store_with(&store, opts);
    let mut notice = |message: String| {
        report.problems.insert(
            0,
            Problem {
                line: None,
                id: None,
                field: None,
                severity: Severity::Notice,
                message,
            },
        )
    };
    let kept = crate::session::kept_aside_in(&store, path);
    let aside: Vec<String> = kept
        .iter()
        .flat_map(|(p, why)| match why {
            Ok(v) => v.clone(),
            Err(e) => vec![format!("{}: cannot be read: {e}", p.display())],
        })
        .collect();
    if !aside.is_empty() {
        let files: Vec<String> = kept.iter().map(|(p, _)| p.display().to_string()).collect();
        notice(format!(
            "{} kept aside could not be applied to the file ({}): {}",
            crate::session::verdicts(aside.len()),
            files.join(", "),
            aside.join("; ")
        ));
    }
    for jp in crate::journal::journal_paths(path) {
        let journal = Journal::at(jp);
        let read = journal.read_for(Some(path));
        // An empty journal belongs to a session with nothing pending.
        if read
            .as_ref()
            .map(|(r, torn)| r.is_empty() && !torn)
            .unwrap_or(false)
        {
            continue;
        }
        notice(match read {
            Ok((records, torn)) => format!(
                "a verdict journal is pending ({}): {} not yet saved into the file{}; open the file in verdict to save them",
                journal.path().display(),
                crate::session::verdicts(records.len()),
                if torn { " (and a torn last line)" } else { "" }
            ),
            Err(e) => match crate::journal::untrusted_reason(&e) {
                Some(why) => format!(
                    "{} is named as a verdict journal of this file but is {why}: it is not read, \
                     nor folded into the file",
                    journal.path().display()
                ),
                None => format!(
                    "a verdict journal is pending ({}) but cannot be read: {e}",
                    journal.path().display()
                ),
            },
        });
    }
    Ok(report)
}

/// Check every item of an open store, with options.
pub fn check_store_with(store: &Store, opts: Options) -> Report {
    // Relative image paths: against the folder of the file's origin (a `split` or `merge`
    // output holds its source's items), else its own folder.
    let base = match store.image_dir() {
        d if d.as_os_str().is_empty() => std::path::PathBuf::from("."),
        d => d.to_path_buf(),
    };
    let mut report = Report {
        file: store.path().to_path_buf(),
        items: store.len(),
        problems: Vec::new(),
        container: store.container(),
    };
    if store.is_empty() {
        report.problems.push(Problem {
            line: None,
            id: None,
            field: None,
            severity: Severity::Warning,
            message: "the file has no items".into(),
        });
    }
    let mut ids: HashMap<String, u32> = HashMap::new();
    let mut items = crate::bench::check::ItemCheck::new(store.naming_path(), &base, opts.images);
    for i in 0..store.len() {
        let line = store.line(i);
        let fallback = store.fallback_id(i);
        let mut c = Ctx {
            out: &mut report.problems,
            line,
            id: fallback.clone(),
            errors: 0,
        };
        check_item(store, i, &mut c, &fallback, &mut ids, &mut items);
    }
    report
}

/// Item `i` (named `fallback` without an id): its JSON, its id, its keys, its
/// benchmark's rules, and the typed loader's word on it.
fn check_item(
    store: &Store,
    i: usize,
    c: &mut Ctx,
    fallback: &str,
    ids: &mut HashMap<String, u32>,
    items: &mut crate::bench::check::ItemCheck,
) {
    let text = match store.raw(i) {
        Ok(t) => t,
        Err(e) => {
            c.error("", e.to_string());
            return;
        }
    };
    let Some(v) = parse(c, text) else {
        return;
    };
    let Value::Object(obj) = &v else {
        c.error(
            "",
            format!("an item must be a JSON object, found {}", kind(&v)),
        );
        return;
    };
    // (an item of a benchmark that never writes ids gets no notice for having none)
    let quiet = !obj.contains_key("id")
        && store
            .item(i)
            .is_ok_and(|it| !crate::bench::spec(it.benchmark()).items_have_ids());
    check_id(c, obj, ids, fallback, quiet);
    for path in duplicates::duplicate_keys(text) {
        c.error(
            &path,
            "this key is in its object twice: verdict, Python and jq read the last, \
             other tools the first; keep one",
        );
    }
    items.check(c, obj);
    // The typed loader must agree: a file that checks clean loads.
    if c.errors == 0
        && let Err(e) = store.item(i)
    {
        let field = match &e {
            ItemError::Field(f) => f.field.clone(),
            _ => String::new(),
        };
        let msg = match e {
            ItemError::Field(f) => f.message,
            other => other.to_string(),
        };
        c.error(&field, msg);
    }
}

/// The item's JSON; `None` (with its error) when it is malformed or nested too deeply.
fn parse(c: &mut Ctx, text: &str) -> Option<Value> {
    match serde_json::from_str(text) {
        Ok(v) => Some(v),
        Err(e) => {
            let msg = e.to_string();
            let typed = msg
                .contains("recursion limit")
                .then(|| Item::parse(text).ok())
                .flatten();
            if let Some(it) = typed {
                if let Some(id) = it.into_fields().id {
                    c.id = id;
                }
                c.error(
                    "",
                    format!(
                        "nested too deeply ({msg}): verdict can show this item but cannot save verdicts into it"
                    ),
                );
            } else {
                c.error("", format!("malformed JSON: {msg}"));
            }
            None
        }
    }
}

/// The item's `id`: a string, not empty, not on an earlier line (`ids`: id → line);
/// none is a notice unless `quiet`.
fn check_id(
    c: &mut Ctx,
    obj: &serde_json::Map<String, Value>,
    ids: &mut HashMap<String, u32>,
    fallback: &str,
    quiet: bool,
) {
    let line = c.line;
    match obj.get("id") {
        Some(Value::String(s)) => {
            c.id = s.clone();
            if s.trim().is_empty() {
                c.warn("id", "empty id");
            }
            if let Some(&first) = ids.get(s) {
                c.error(
                    "id",
                    format!("duplicate id {} (also on line {first})", quote(s)),
                );
            } else {
                ids.insert(s.clone(), line);
            }
        }
        None | Some(Value::Null) if quiet => {}
        None | Some(Value::Null) => c.notice(
            "id",
            format!("no id; verdict calls this item {fallback} and does not write that name back"),
        ),
        Some(other) => c.error("id", format!("expected a string, found {}", kind(other))),
    }
}

/// The `--json` form of a report.
#[derive(Debug, Serialize)]
pub struct JsonReport<'a> {
    pub file: String,
    pub items: usize,
    pub errors: usize,
    pub warnings: usize,
    pub notices: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub container: Option<&'a str>,
    pub problems: &'a [Problem],
}

impl Report {
    pub fn to_json(&self) -> String {
        crate::sanitize::json(&JsonReport {
            file: self.file.to_string_lossy().into_owned(),
            items: self.items,
            errors: self.errors(),
            warnings: self.warnings(),
            notices: self.notices(),
            container: self.container.as_deref(),
            problems: &self.problems,
        })
        .expect("a report always serializes")
    }
}

#[cfg(test)]
mod tests;
