//! An Inspect AI log as a container file (`store::container`): its samples as lines when
//! it is opened, and the reviews written back as Inspect's own score edits when it is
//! saved (docs/format.md, "Inspect AI logs").
//!
//! Two formats: a `.eval` log is a ZIP archive (`header.json`, `samples/<id>_epoch_<n>.json`,
//! `summaries.json`, `reductions.json`, `_journal/…`, entries compressed with Zstandard);
//! a `.json` log is one document (`version`, `eval`, `plan`, `results`, `stats`,
//! `samples`, `reductions`), written with two-space indents.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value, json};

mod edits;
mod line;
use line::line_of;
pub use line::reviews_of;
mod write;
pub use write::write_to_vec;

use super::zip::{self, Archive};
use super::{edit, nonfinite, recompute};
use crate::store::container::{Container, Opened};

/// Where a log's samples are.
#[derive(Debug)]
enum Kind {
    /// A `.eval` archive: each sample in an entry.
    Eval(Archive),
    /// A `.json` document (parsed; its samples in `samples`).
    Json(Box<Value>),
}

/// A sample of the log: where it is, and what the line made of it said.
#[derive(Debug)]
struct At {
    /// `.eval`: the entry's name; `.json`: none.
    entry: Option<String>,
    /// `.eval`: the entry's place in the archive; `.json`: the index in `samples`.
    index: usize,
    /// The sample's `id` as the log writes it (a string or a number).
    id: Value,
    epoch: u64,
    /// Each scorer's value as the log holds it (`NaN` marked, `nonfinite`): a failed
    /// sample has none.
    scores: Vec<(String, Value)>,
}

/// The scores of a sample, by scorer: their values as the log holds them.
fn score_values(s: &Value) -> Vec<(String, Value)> {
    s.get("scores")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), v.get("value").cloned().unwrap_or(Value::Null)))
        .collect()
}

/// An Inspect log, as read.
#[derive(Debug)]
pub struct Log {
    kind: Kind,
    bytes: Arc<Vec<u8>>,
    /// The header: `header.json` (`.eval`), the document without samples (`.json`).
    header: Value,
    samples: Vec<At>,
    /// The scorer the three verdict keys grade.
    pub headline: String,
    /// The lines as opened (what a save compares the current lines with).
    lines: Vec<String>,
    /// The time a withdrawn verdict's edit is given (once per session, so that a second
    /// save writes the same file).
    withdrawn_at: OnceLock<String>,
}

/// Is `bytes` (at `path`) an Inspect log? `None` when not; an error when it is but cannot
/// be read.
pub fn sniff(path: &Path, bytes: &[u8]) -> Option<Result<Opened, String>> {
    if zip::looks_like_zip(bytes) {
        // A ZIP named `.eval` that is not a readable log is said to be so (not read as
        // JSON lines); another ZIP is not Inspect's.
        let eval = path.extension().is_some_and(|x| x == "eval");
        let a = match Archive::read(bytes) {
            Ok(a) => a,
            Err(e) => return eval.then_some(Err(e)),
        };
        if a.entry("header.json").is_none() && a.entry("_journal/start.json").is_none() {
            return eval.then(|| {
                Err(
                    "a ZIP archive without header.json or _journal/start.json: not an Inspect log"
                        .into(),
                )
            });
        }
        return Some(Log::read_eval(bytes, a).map(Log::opened));
    }
    // Inspect writes `{`, a new line, then `"version"` first: a JSON lines file (one
    // object a line) never starts so, and is not parsed as a whole here.
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    let rest = bytes.get(start + 1..)?;
    let key = rest.iter().position(|b| !b.is_ascii_whitespace())?;
    if bytes[start] != b'{'
        || !rest[..key].contains(&b'\n')
        || !rest[key..].starts_with(b"\"version\"")
    {
        return None;
    }
    let doc: Value = match nonfinite::encode(bytes) {
        Ok(b) => serde_json::from_slice(&b).ok()?,
        // (a document that starts as Inspect writes its logs: refused, saying why)
        Err(e) => return Some(Err(e)),
    };
    let o = doc.as_object()?;
    if o.contains_key("items") || o.get("eval").is_none_or(|e| e.get("task").is_none()) {
        return None;
    }
    Some(Log::read_json(bytes, doc).map(Log::opened))
}

/// A JSON entry or document of the log, with bare `NaN` / `Infinity` as marked values
/// (`nonfinite`), written back as they were.
fn parse(b: &[u8], what: &str) -> Result<Value, String> {
    let b = nonfinite::encode(b).map_err(|e| format!("{what}: {e}"))?;
    serde_json::from_slice(&b).map_err(|e| format!("{what}: {e}"))
}

/// The sample id as text: a string as it is, a number as written.
pub fn id_text(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        v => v.to_string(),
    }
}

/// The item id of a sample's epoch: `<id> (epoch <n>)`, one-to-one (the epoch is read
/// back from the end).
pub fn item_id(id: &Value, epoch: u64) -> String {
    format!("{} (epoch {epoch})", id_text(id))
}

impl Log {
    fn read_eval(bytes: &[u8], a: Archive) -> Result<Log, String> {
        let header = match a.entry("header.json") {
            Some(e) => parse(&zip::read(bytes, e)?, "header.json")?,
            // A log still being written: its start record.
            None => parse(
                &zip::read(bytes, a.entry("_journal/start.json").expect("sniffed"))?,
                "_journal/start.json",
            )?,
        };
        let mut samples = Vec::new();
        let mut log = Log {
            kind: Kind::Json(Box::new(Value::Null)), // set below
            bytes: Arc::new(Vec::new()),
            header,
            samples: Vec::new(),
            headline: String::new(),
            lines: Vec::new(),
            withdrawn_at: OnceLock::new(),
        };
        let mut lines = Vec::new();
        let (run, harness) = log.run_and_harness("eval");
        for (k, e) in a.entries.iter().enumerate() {
            if !(e.name.starts_with("samples/") && e.name.ends_with(".json")) {
                continue;
            }
            let v = parse(&zip::read(bytes, e)?, &e.name)?;
            samples.push(At {
                entry: Some(e.name.clone()),
                index: k,
                id: v.get("id").cloned().unwrap_or(Value::Null),
                epoch: v.get("epoch").and_then(Value::as_u64).unwrap_or(1),
                scores: score_values(&v),
            });
            if lines.is_empty() {
                log.headline = log.find_headline(Some(&v));
            }
            lines.push(line_of(&v, &log.headline, &run, &harness));
        }
        if lines.is_empty() {
            log.headline = log.find_headline(None);
        }
        log.kind = Kind::Eval(a);
        log.bytes = Arc::new(bytes.to_vec());
        log.samples = samples;
        log.lines = lines;
        Ok(log)
    }

    fn read_json(bytes: &[u8], mut doc: Value) -> Result<Log, String> {
        let list = doc
            .get("samples")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let samples = list
            .iter()
            .enumerate()
            .map(|(i, v)| At {
                entry: None,
                index: i,
                id: v.get("id").cloned().unwrap_or(Value::Null),
                epoch: v.get("epoch").and_then(Value::as_u64).unwrap_or(1),
                scores: score_values(v),
            })
            .collect();
        let full = doc.clone();
        if let Some(o) = doc.as_object_mut() {
            o.shift_remove("samples");
        }
        let mut log = Log {
            kind: Kind::Json(Box::new(full)),
            bytes: Arc::new(bytes.to_vec()),
            header: doc,
            samples,
            headline: String::new(),
            lines: Vec::new(),
            withdrawn_at: OnceLock::new(),
        };
        let (run, harness) = log.run_and_harness("json");
        log.headline = log.find_headline(list.first());
        log.lines = list
            .iter()
            .map(|s| line_of(s, &log.headline, &run, &harness))
            .collect();
        Ok(log)
    }

    fn opened(self) -> Opened {
        let mut lines = Vec::new();
        for l in &self.lines {
            lines.extend_from_slice(l.as_bytes());
            lines.push(b'\n');
        }
        Opened {
            lines,
            container: Arc::new(self),
        }
    }

    /// The sample `k` as the log has it.
    fn sample(&self, k: usize) -> Result<Value, String> {
        let at = &self.samples[k];
        match &self.kind {
            Kind::Eval(a) => {
                let e = &a.entries[at.index];
                parse(&zip::read(&self.bytes, e)?, &e.name)
            }
            Kind::Json(doc) => Ok(doc["samples"][at.index].clone()),
        }
    }

    /// The scorer the verdict keys grade: the headline's (`results.headline`), else the
    /// first of `results.scores`, else the first of a sample's scores.
    fn find_headline(&self, first: Option<&Value>) -> String {
        let r = self.header.get("results");
        r.and_then(|r| r.pointer("/headline/score"))
            .and_then(Value::as_str)
            .or_else(|| {
                r.and_then(|r| r.pointer("/scores/0/name"))
                    .and_then(Value::as_str)
            })
            .map(str::to_string)
            .or_else(|| {
                first
                    .and_then(|s| s.get("scores"))
                    .and_then(Value::as_object)
                    .and_then(|m| m.keys().next().cloned())
            })
            .unwrap_or_default()
    }

    /// What every line says of the run, and the log's figures.
    fn run_and_harness(&self, format: &str) -> (Value, Value) {
        let run = json!({
            "task": self.header.pointer("/eval/task").cloned().unwrap_or(Value::Null),
            "model": self.header.pointer("/eval/model").cloned().unwrap_or(Value::Null),
            "format": format,
            "status": self.header.get("status").cloned().unwrap_or(Value::Null),
        });
        (run, harness_figures(&self.header))
    }
}

/// The header's figures, one per scorer, reducer and metric, in the log's order:
/// `[{scorer, name, reducer, metric, value, scored_samples, unscored_samples,
/// recompute}]`: `name` is the entry's (a key of a scorer whose values are objects, else
/// the scorer), `reducer` as the log names it (`null`: none named), `recompute` how
/// verdict recomputes the figure, `{reducer, metric}`, or `null` when it does not
/// (`recompute::Plan`: the same rule as a save's).
fn harness_figures(header: &Value) -> Value {
    let plan = recompute::Plan::of(header);
    let mut out = Vec::new();
    for s in header
        .pointer("/results/scores")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let scorer = recompute::scorer_of(s).unwrap_or_default();
        let reducer = s.get("reducer").and_then(Value::as_str);
        let reduce_with = plan
            .reducer(reducer)
            .ok()
            .map(|_| reducer.unwrap_or("mean"));
        let own = s.get("name").and_then(Value::as_str) == Some(scorer);
        for (m, v) in s
            .get("metrics")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let recompute = match (own, reduce_with, plan.metric(scorer, m, v)) {
                (true, Some(r), Some(metric)) => json!({"reducer": r, "metric": metric.name()}),
                _ => Value::Null,
            };
            out.push(json!({
                "scorer": scorer,
                "name": s.get("name").cloned().unwrap_or(Value::Null),
                "reducer": reducer,
                "metric": m,
                "value": v.get("value").map(nonfinite::shown).unwrap_or(Value::Null),
                "scored_samples": s.get("scored_samples").cloned().unwrap_or(Value::Null),
                "unscored_samples": s.get("unscored_samples").cloned().unwrap_or(Value::Null),
                "recompute": recompute,
            }));
        }
    }
    Value::Array(out)
}
