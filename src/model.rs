//! Typed views of result-set items (docs/format.md).
//!
//! An [`Item`] is parsed from the raw JSON text of one item. Keys this module does not
//! know are ignored here; the store keeps the raw text, so nothing is lost on save.
//! Edits go through `serde_json::Value` (see `store`), never through these structs.

use indexmap::IndexMap;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

pub use crate::bench::Benchmark;

/// One benchmark item with its responses and reviews.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Item {
    pub id: Option<String>,
    /// The raw `benchmark` value; use [`Item::benchmark`] for the parsed kind.
    #[serde(rename = "benchmark")]
    pub benchmark_name: Option<String>,
    pub image: Option<String>,
    pub responses: Vec<Response>,
    pub reviews: IndexMap<String, Review>,

    // CHARTOM
    pub chart: Option<Chart>,
    pub fact: Option<Fact>,
    pub mind: Option<Mind>,

    // CharToM-QA
    pub book: Option<String>,
    pub character: Option<String>,
    pub dimension: Option<String>,
    pub context: Option<Context>,
    pub question: Option<String>,
    #[serde(deserialize_with = "opt_string_or_number")]
    pub answer: Option<String>,
    pub bonus_points: Vec<String>,
    pub choices: Vec<String>,
    pub key: Option<i64>,

    // C-VQA
    pub split: Option<String>,
    pub group: Option<String>,
    pub original: Option<QuestionAnswer>,
    pub counterfactual: Option<QuestionAnswer>,

    /// The line is in a benchmark's own layout, not a result set's: which, and what of it
    /// the benchmark keeps (set by [`crate::bench::sniff`]).
    #[serde(skip)]
    pub layout: Option<crate::bench::Layout>,
}

pub use crate::bench::chartom_qa::eval::{EVAL_DEFAULT_MODEL, eval_model_name};
// Each benchmark's typed fields live in its folder.
pub use crate::bench::chartom::fields::{
    Chart, ChartVersion, Fact, FactFormat, JustificationGrade, Mind, Strategies,
};
pub use crate::bench::chartom_qa::fields::{Context, Judge, JudgeBonus};
pub use crate::bench::cvqa::fields::{CvqaReason, CvqaStatus, QuestionAnswer};

impl Item {
    /// Parse one item from its JSON text. Errors carry the path of the offending field.
    /// A line that names no benchmark may be in a benchmark's own layout: the registry
    /// ([`crate::bench::sniff`]) maps it onto the result-set fields.
    pub fn parse(text: &str) -> Result<Item, FieldError> {
        let mut item: Item = parse_with_path(text)?;
        if item.benchmark_name.is_none() {
            crate::bench::sniff(text, &mut item)?;
        }
        Ok(item)
    }

    pub fn benchmark(&self) -> Benchmark {
        match Benchmark::from_name(self.benchmark_name.as_deref()) {
            // A benchmark known by the shape of its lines (`bench::sniff`), never by a name
            // (lm-eval's samples): a result-set line that names it is an unknown
            // benchmark, shown and graded with the generic view (docs/format.md).
            b if b.by_layout_only() && self.layout.is_none() => Benchmark::Other,
            b => b,
        }
    }

    /// True when this line is in the CharToM-QA evaluation JSONL layout.
    pub fn is_chartom_qa_eval(&self) -> bool {
        matches!(self.layout, Some(crate::bench::Layout::ChartomQaEval(_)))
    }

    /// Name the model of a line that names none from its file, as its layout says
    /// ([`eval_model_name`]).
    pub fn name_eval_model(&mut self, path: &std::path::Path) {
        crate::bench::name_from_file(self, &crate::bench::FileInfo::of(path));
    }

    /// [`Item::name_eval_model`] with what was worked out when the file was opened.
    pub fn name_from_file(&mut self, file: &crate::bench::FileInfo) {
        crate::bench::name_from_file(self, file);
    }

    /// The `misleading_choices` of an evaluation line, when they are what `choices` shows
    /// (they are wrong answers, not options with a key).
    pub fn shows_misleading_choices(&self) -> bool {
        match &self.layout {
            Some(crate::bench::Layout::ChartomQaEval(l)) => {
                l.shows_misleading_choices(self.choices.len()) && self.key.is_none()
            }
            _ => false,
        }
    }

    /// The response of `model`, if any.
    pub fn response(&self, model: &str) -> Option<&Response> {
        self.responses.iter().find(|r| r.model == model)
    }
}

/// A field-level parse error: `field` is a JSON path like `fact.key` or `responses[1].mind`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("field `{field}`: {message}")]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

/// Parse `text` as a `T`. The plain parse is the fast path; the path of the offending
/// field is worked out (a second, slower parse) only when it fails.
pub(crate) fn parse_with_path<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, FieldError> {
    match serde_json::from_str(text) {
        Ok(v) => Ok(v),
        Err(_) => {
            let de = &mut serde_json::Deserializer::from_str(text);
            match serde_path_to_error::deserialize::<_, T>(de) {
                Err(e) => Err(FieldError {
                    field: path_string(e.path()),
                    message: e.into_inner().to_string(),
                }),
                // Both parsers read the same JSON; should they ever differ, trust the one
                // that names the field.
                Ok(v) => Ok(v),
            }
        }
    }
}

fn path_string(p: &serde_path_to_error::Path) -> String {
    let s = p.to_string();
    if s == "." { "(item)".into() } else { s }
}

/// One model's answer to an item. Which fields are present depends on the benchmark.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Response {
    pub model: String,
    // CHARTOM
    #[serde(deserialize_with = "opt_string_or_number")]
    pub fact: Option<String>,
    pub mind: Option<f64>,
    pub justification: Option<String>,
    // CharToM-QA
    pub text: Option<String>,
    pub choice: Option<i64>,
    pub judge: Option<Judge>,
    // C-VQA
    #[serde(deserialize_with = "opt_string_or_number")]
    pub original: Option<String>,
    #[serde(deserialize_with = "opt_string_or_number")]
    pub counterfactual: Option<String>,
}

/// A reviewer's verdict on one item (`reviews.<name>` in the file).
///
/// Grades of a response live at the top level when the item has one response, and under
/// `models.<model>` when it has several (see docs/format.md); [`Review::for_model`]
/// resolves which applies.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(default)]
pub struct Review {
    /// RFC 3339 UTC time of the verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Seconds the reviewer spent on the item.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    /// An adjudicator's final verdict (docs/teams.md).
    #[serde(rename = "final", skip_serializing_if = "Option::is_none")]
    pub is_final: Option<bool>,
    /// A free verdict for items of unknown benchmarks (`"pass"`, `"fail"`, anything).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,

    /// C-VQA: the verification of the item's generated question (flat in the review).
    #[serde(flatten)]
    pub cvqa: crate::bench::cvqa::fields::Verification,
    /// Inspect: verdicts on scorers other than the headline one (`scorers`).
    #[serde(flatten)]
    pub inspect: crate::bench::inspect::fields::Grades,

    /// Response grades (single-response items); see `models` for several.
    #[serde(flatten)]
    pub grades: ResponseGrades,
    /// Response grades per model, for items with several responses.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub models: IndexMap<String, ResponseGrades>,
}

/// A reviewer's grades of one model response.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(default)]
pub struct ResponseGrades {
    /// CHARTOM: the FACT override and the justification grade.
    #[serde(flatten)]
    pub chartom: crate::bench::chartom::fields::Grades,
    /// CharToM-QA: the bonus points covered and the penalty.
    #[serde(flatten)]
    pub chartom_qa: crate::bench::chartom_qa::fields::Grades,
    /// C-VQA: overrides of the automatic grading.
    #[serde(flatten)]
    pub cvqa: crate::bench::cvqa::fields::Grades,
}

impl ResponseGrades {
    pub fn is_empty(&self) -> bool {
        *self == ResponseGrades::default()
    }
}

impl Review {
    /// The grades this review gives to `model`'s response, on an item with `n_responses`
    /// responses: `models.<model>` when present, else the top-level grades when the item
    /// has exactly one response.
    pub fn for_model(&self, model: &str, n_responses: usize) -> Option<&ResponseGrades> {
        if let Some(g) = self.models.get(model) {
            return Some(g);
        }
        if n_responses <= 1 && !self.grades.is_empty() {
            return Some(&self.grades);
        }
        None
    }
}

fn value_to_text(v: Value) -> Result<Option<String>, String> {
    match v {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s)),
        Value::Number(n) => Ok(Some(n.to_string())),
        Value::Bool(b) => Ok(Some(if b { "yes".into() } else { "no".into() })),
        other => Err(format!(
            "expected a string or number, found {}",
            kind(&other)
        )),
    }
}

pub(crate) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub(crate) fn opt_string_or_number<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<String>, D::Error> {
    let v = Value::deserialize(d)?;
    value_to_text(v).map_err(serde::de::Error::custom)
}

pub(crate) fn string_or_number<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(opt_string_or_number(d)?.unwrap_or_default())
}

pub(crate) fn double_option<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<Option<String>>, D::Error> {
    Ok(Some(Option::<String>::deserialize(d)?))
}

pub(crate) fn ser_double_option<S: serde::Serializer>(
    v: &Option<Option<String>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match v {
        Some(Some(t)) => s.serialize_str(t),
        _ => s.serialize_none(),
    }
}

/// `v` as JSON text with every object's keys sorted (two values equal as JSON, whatever
/// their key order, give the same text; number spellings are kept).
pub fn canonical(v: &Value, out: &mut String) {
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

#[cfg(test)]
mod tests;
