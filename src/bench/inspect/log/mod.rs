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

mod write;
pub use write::write_to_vec;

use super::zip::{self, Archive};
use super::{edit, nonfinite};
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
pub fn sniff(_path: &Path, bytes: &[u8]) -> Option<Result<Opened, String>> {
    if zip::looks_like_zip(bytes) {
        let a = Archive::read(bytes).ok()?;
        if a.entry("header.json").is_none() && a.entry("_journal/start.json").is_none() {
            return None;
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

/// The header's figures, per scorer and metric: `[{scorer, metric, value}]`.
fn harness_figures(header: &Value) -> Value {
    let mut out = Vec::new();
    for s in header
        .pointer("/results/scores")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = s.get("name").cloned().unwrap_or(Value::Null);
        for (m, v) in s
            .get("metrics")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            out.push(json!({"scorer": name, "metric": m, "value": v.get("value").map(nonfinite::shown).unwrap_or(Value::Null)}));
        }
    }
    Value::Array(out)
}

/// Text of a message's or an input's `content`: a string, or the text of its parts.
fn content_text(c: &Value, attachments: Option<&Value>) -> String {
    let resolve = |s: &str| -> String {
        match s.strip_prefix("attachment://") {
            Some(k) => attachments
                .and_then(|a| a.get(k))
                .and_then(Value::as_str)
                .unwrap_or(s)
                .to_string(),
            None => s.to_string(),
        }
    };
    match c {
        Value::String(s) => resolve(s),
        Value::Array(parts) => parts
            .iter()
            .map(|p| match p.get("type").and_then(Value::as_str) {
                Some("text") => resolve(p.get("text").and_then(Value::as_str).unwrap_or("")),
                Some("reasoning") => format!(
                    "(reasoning) {}",
                    resolve(p.get("reasoning").and_then(Value::as_str).unwrap_or(""))
                ),
                Some(t) => format!("({t})"),
                None => String::new(),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Null => String::new(),
        v => v.to_string(),
    }
}

fn messages(v: Option<&Value>, attachments: Option<&Value>) -> Value {
    Value::Array(
        v.and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|m| {
                json!({
                    "role": m.get("role").and_then(Value::as_str).unwrap_or("?"),
                    "text": content_text(m.get("content").unwrap_or(&Value::Null), attachments),
                })
            })
            .collect(),
    )
}

/// The reviews a score's edit history holds: each author's latest edit with provenance,
/// as a verdict (`C`/`I` or 1/0 as correct/incorrect, a marked ambiguous target), the
/// edit's time as `at` and its reason as `note`. A withdrawn verdict gives none.
pub fn reviews_of(score: &Value) -> Map<String, Value> {
    let mut by_author: Map<String, Value> = Map::new();
    for e in score
        .get("history")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(p) = e.get("provenance").filter(|p| p.is_object()) else {
            continue;
        };
        let Some(author) = p.get("author").and_then(Value::as_str) else {
            continue;
        };
        let marked = p.pointer("/metadata/verdict").and_then(Value::as_str);
        let verdict = match marked {
            Some(v) => Some(v.to_string()),
            None => match e.get("value").map(edit::to_float) {
                Some(Some(1.0)) => Some("correct".to_string()),
                Some(Some(0.0)) => Some("incorrect".to_string()),
                _ => None,
            },
        };
        match verdict.as_deref() {
            Some(v) if super::Verdict::parse(v).is_some() || v == "none" => {
                let mut r = Map::new();
                if v != "none" {
                    r.insert("verdict".into(), json!(v));
                }
                if let Some(t) = p.get("timestamp").and_then(Value::as_str) {
                    r.insert("at".into(), json!(t));
                }
                if let Some(n) = p.get("reason").and_then(Value::as_str) {
                    r.insert("note".into(), json!(n));
                }
                if p.pointer("/metadata/final") == Some(&Value::Bool(true)) {
                    r.insert("final".into(), json!(true));
                }
                by_author.shift_remove(author);
                by_author.insert(author.to_string(), Value::Object(r));
            }
            // Withdrawn, or another value set by hand: no verdict of this author.
            _ => {
                by_author.shift_remove(author);
            }
        }
    }
    by_author
}

/// One sample as a line: what the view shows, the id, and the reviews from the headline
/// scorer's edit history.
fn line_of(s: &Value, headline: &str, run: &Value, harness: &Value) -> String {
    let att = s.get("attachments");
    let input = match s.get("input") {
        Some(Value::Array(_)) => messages(s.get("input"), att),
        Some(v) => json!(content_text(v, att)),
        None => json!(""),
    };
    let target = match s.get("target") {
        Some(Value::Array(a)) => Value::Array(a.clone()),
        Some(Value::String(t)) => json!([t]),
        Some(v) if !v.is_null() => json!([v.to_string()]),
        _ => json!([]),
    };
    let choices: Vec<String> = s
        .get("choices")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|c| content_text(c, att))
        .collect();
    let completion = s
        .pointer("/output/completion")
        .map(|c| content_text(c, att))
        .unwrap_or_default();
    let mut scores = Vec::new();
    let mut reviews = Map::new();
    for (name, sc) in s
        .get("scores")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        scores.push(score_shown(name, sc));
        merge_reviews(&mut reviews, name, sc, headline);
    }
    let id = s.get("id").cloned().unwrap_or(Value::Null);
    let epoch = s.get("epoch").and_then(Value::as_u64).unwrap_or(1);
    let mut line = Map::new();
    line.insert("id".into(), json!(item_id(&id, epoch)));
    line.insert(
        super::LINE_KEY.into(),
        json!({
            "sample": id,
            "epoch": epoch,
            "input": input,
            "target": target,
            "choices": choices,
            "completion": completion,
            "messages": messages(s.get("messages"), att),
            "scores": scores,
            "headline": headline,
            "run": run,
            "harness": harness,
            "error": s.pointer("/error/message").cloned().unwrap_or(Value::Null),
        }),
    );
    if !reviews.is_empty() {
        line.insert("reviews".into(), Value::Object(reviews));
    }
    serde_json::to_string(&Value::Object(line)).expect("a Value always serializes")
}

/// A scorer's score as the view shows it: its value, the value the scorer gave, its
/// answer and explanation, and the edits with a provenance.
fn score_shown(name: &str, sc: &Value) -> Value {
    let history = sc.get("history").and_then(Value::as_array);
    let edits: Vec<Value> = history
        .into_iter()
        .flatten()
        .filter_map(|e| {
            let p = e.get("provenance").filter(|p| p.is_object())?;
            Some(json!({
                "author": p.get("author").cloned().unwrap_or(Value::Null),
                "at": p.get("timestamp").cloned().unwrap_or(Value::Null),
                "reason": p.get("reason").cloned().unwrap_or(Value::Null),
                "value": e.get("value").map(nonfinite::shown).unwrap_or(Value::Null),
            }))
        })
        .collect();
    let original = history
        .and_then(|h| h.first())
        .filter(|e| e.get("provenance").is_none_or(Value::is_null))
        .and_then(|e| e.get("value"))
        .or_else(|| sc.get("value"))
        .map(nonfinite::shown)
        .unwrap_or(Value::Null);
    json!({
        "name": name,
        "value": sc.get("value").map(nonfinite::shown).unwrap_or(Value::Null),
        "original": original,
        "answer": sc.get("answer").cloned().unwrap_or(Value::Null),
        "explanation": sc.get("explanation").cloned().unwrap_or(Value::Null),
        "edits": edits,
    })
}

/// The reviews `sc`'s history gives, merged into `reviews` by author: the headline's as
/// the review itself, another scorer's as `scorers.<name>` of it (an adjudicator's mark is
/// the headline's only).
fn merge_reviews(reviews: &mut Map<String, Value>, name: &str, sc: &Value, headline: &str) {
    if name == headline {
        for (who, r) in reviews_of(sc) {
            let merged = reviews.entry(who).or_insert_with(|| json!({}));
            if let (Some(m), Value::Object(r)) = (merged.as_object_mut(), r) {
                for (k, v) in r {
                    m.insert(k, v);
                }
            }
        }
    } else {
        // A verdict on another scorer: `scorers.<name>` of its author's review (an
        // adjudicator's mark is the headline's only).
        for (who, mut r) in reviews_of(sc) {
            if let Some(o) = r.as_object_mut() {
                o.shift_remove("final");
            }
            let merged = reviews.entry(who).or_insert_with(|| json!({}));
            if merged.get("scorers").is_none() {
                merged["scorers"] = json!({});
            }
            merged["scorers"][name] = r;
        }
    }
}

/// The reviews of a line (as opened or as it is now).
fn line_reviews(text: &str) -> Map<String, Value> {
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|v| v.get("reviews").and_then(Value::as_object).cloned())
        .unwrap_or_default()
}

/// What a review says of one scorer: the review's own `verdict`, `note`, `at` and `final`
/// for the headline scorer, `scorers.<name>` for another; `None` when it gives that
/// scorer neither a verdict nor a note.
fn part(r: &Value, headline: &str, scorer: &str) -> Option<Value> {
    let p = if scorer == headline {
        let mut m = Map::new();
        for k in ["verdict", "note", "at", "final"] {
            if let Some(v) = r.get(k).filter(|v| !v.is_null()) {
                m.insert(k.into(), v.clone());
            }
        }
        Value::Object(m)
    } else {
        r.get("scorers")?.get(scorer)?.clone()
    };
    let said = |k: &str| p.get(k).is_some_and(|v| !v.is_null());
    (said("verdict") || said("note")).then_some(p)
}

/// Do two verdicts on one scorer say the same to Inspect (verdict, note, the final mark)?
/// The time is not compared: the review's `at` moves with any change to the review (a
/// verdict on another scorer too), and the same verdict given again is no new edit.
fn same_edit(a: &Value, b: &Value) -> bool {
    let fin = |v: &Value| v.get("final") == Some(&Value::Bool(true));
    a.get("verdict") == b.get("verdict") && a.get("note") == b.get("note") && fin(a) == fin(b)
}
