//! lm-evaluation-harness per-sample logs (docs/format.md, "lm-evaluation-harness sample
//! logs"): what `lm_eval --log_samples` writes, `<output>/<model>/samples_<task>_<date>.jsonl`,
//! one JSON object a line, one line per document and filter.
//!
//! A reviewer marks each sample `correct`, `incorrect` or `ambiguous-key` (the REVIEW's
//! `verdict`), with a note; [`stats`] puts the harness's own metric next to the
//! human-corrected one.

pub(crate) mod check;
pub mod corrected;
pub mod folder;
pub mod run;
pub mod sample;
pub mod spec;
pub mod stats;
pub(crate) mod stats_text;

use std::path::Path;

use serde_json::{Map, Value};

/// How `verdict merge` matches a sample across files, having no id: by its `doc_id` and
/// `filter` (key and how messages name it); `None` for a line that is no sample.
pub fn merge_identity(obj: &Map<String, Value>) -> Option<(String, String)> {
    let (Some(doc), Some(filter)) = (obj.get("doc_id"), obj.get("filter")) else {
        return None;
    };
    if !is_sample(obj) {
        return None;
    }
    let doc = match doc {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let filter = match filter {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    Some((
        format!("lm-eval:{doc}:{filter}"),
        format!("doc_id {doc} ({filter})"),
    ))
}

/// A line is an lm-eval sample when it names no `benchmark` and has the keys every
/// logged sample has: `doc_id`, `arguments` and `filtered_resps`.
pub fn is_sample(obj: &Map<String, Value>) -> bool {
    is_sample_by(|k| obj.contains_key(k))
}

/// [`is_sample`], asking `has` whether the line has a key.
pub(crate) fn is_sample_by(has: impl Fn(&str) -> bool) -> bool {
    !has("benchmark") && has("doc_id") && has("arguments") && has("filtered_resps")
}

/// The reviewer's verdict on a sample (the REVIEW's `verdict`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// The model's answer is right, whatever the harness scored.
    Correct,
    /// The model's answer is wrong, whatever the harness scored.
    Incorrect,
    /// The answer key is wrong or the question has no single right answer: the sample
    /// is left out of the human-corrected figure.
    AmbiguousKey,
}

impl Verdict {
    pub const ALL: [Verdict; 3] = [Verdict::Correct, Verdict::Incorrect, Verdict::AmbiguousKey];

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Correct => "correct",
            Verdict::Incorrect => "incorrect",
            Verdict::AmbiguousKey => "ambiguous-key",
        }
    }

    pub fn parse(s: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.name() == s)
    }

    /// The sample's score once a person has looked at it: `None` when it is left out.
    pub fn score(self) -> Option<f64> {
        match self {
            Verdict::Correct => Some(1.0),
            Verdict::Incorrect => Some(0.0),
            Verdict::AmbiguousKey => None,
        }
    }
}

/// The task in a file name as lm-eval writes it, `samples_<task>_<date>.jsonl`
/// (`samples_arc_easy_2026-11-20T10-15-42.518246.jsonl`: `arc_easy`); else the stem.
pub fn task_of(path: &Path) -> String {
    let stem = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = stem
        .strip_suffix(".jsonl")
        .or_else(|| stem.strip_suffix(".json"))
        .unwrap_or(&stem);
    let body = stem.strip_prefix("samples_").unwrap_or(stem);
    match run::split_date(body) {
        Some((task, _)) => task.to_string(),
        None => body.to_string(),
    }
}

/// The model, from the folder lm-eval writes the samples into: the model's name with
/// `/` (and other characters a path cannot hold) written `__`
/// (`example__tiny-llama-1b`), however the path is typed (`.`, `..` and links are
/// resolved); `None` for a file without a folder name. (A run's results file names the
/// model better: [`run::Run`].)
pub fn model_of(path: &Path) -> Option<String> {
    let real = run::resolve(path);
    let dir = real.parent()?.file_name()?;
    Some(dir.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests;
