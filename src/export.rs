//! `verdict export`: one row per item × model with the automatic grades, the grades that
//! count after human review, and the reviews themselves, as CSV or JSONL (for pandas).
//!
//! An item without responses still gives one row (empty model); an unreadable item gives
//! one row with its id, line and `error`. The columns are [`COLUMNS`], in that order; in
//! CSV, lists and objects are written as compact JSON, booleans as `true`/`false`, missing
//! values as empty cells.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::Value;

use crate::grade::chartom::format_number;
use crate::model::Item;
use crate::store::Store;

/// Column names, in order (the fields of [`Row`]).
pub const COLUMNS: &[&str] = &[
    "id",
    "line",
    "benchmark",
    "split",
    "group",
    "chart_pair",
    "chart_type",
    "chart_version",
    "dimension",
    "model",
    "raw_answer",
    "raw_counterfactual",
    "parsed_answer",
    "parsed_counterfactual",
    "auto_correct",
    "auto_counterfactual_correct",
    "correct",
    "counterfactual_correct",
    "counterfactual_fixed_correct",
    "mind",
    "hmi",
    "squared_error",
    "judge_bonus",
    "judge_covered",
    "judge_penalty",
    "human_bonus",
    "human_covered",
    "n_bonus_points",
    "human_penalty",
    "human_justification",
    "status",
    "reason",
    "fixed_question",
    "fixed_answer",
    "resolution",
    "verification_resolution",
    "n_reviewers",
    "reviews",
    "error",
    "verdict",
    "verdict_resolution",
    "human_fact_correct",
    "human_original_correct",
    "human_counterfactual_correct",
    "image_related",
    "answer_ok",
    "reason_text",
    "notes",
    "human_penalized",
    "doc_id",
    "filter",
    "target",
    "metric",
    "harness_score",
    "metrics",
];

/// One exported row. Which fields are filled depends on the benchmark:
///
/// - CHARTOM: `raw_answer` = FACT answer, `parsed_answer` its parsed display,
///   `auto_correct` the automatic FACT grade, `correct` after a reviewer's `fact_correct`;
///   `mind`, `hmi` (given, else recomputed), `squared_error`, `human_justification`.
/// - C-VQA: `raw_answer`/`raw_counterfactual` the two raw responses, `parsed_*` what the
///   benchmark's rule reads (empty = failed), `auto_*` exact-match grades, `correct` /
///   `counterfactual_correct` after overrides, `counterfactual_fixed_correct` against the
///   reviewer-fixed key (empty when rejected); `status`, `reason`, `fixed_*`.
/// - CharToM-QA: `raw_answer` = response text, `parsed_answer` = its `choice`, `correct` =
///   choice vs key; judge and human bonus lists, covered counts and penalties.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Row {
    pub id: String,
    pub line: u32,
    pub benchmark: Option<String>,
    pub split: Option<String>,
    pub group: Option<String>,
    pub chart_pair: Option<String>,
    pub chart_type: Option<String>,
    pub chart_version: Option<String>,
    pub dimension: Option<String>,
    /// Empty for an item without responses.
    pub model: String,
    pub raw_answer: Option<String>,
    pub raw_counterfactual: Option<String>,
    pub parsed_answer: Option<String>,
    pub parsed_counterfactual: Option<String>,
    pub auto_correct: Option<bool>,
    pub auto_counterfactual_correct: Option<bool>,
    pub correct: Option<bool>,
    pub counterfactual_correct: Option<bool>,
    pub counterfactual_fixed_correct: Option<bool>,
    pub mind: Option<f64>,
    pub hmi: Option<f64>,
    pub squared_error: Option<f64>,
    /// The judge's bonus list, or its unparsable text.
    pub judge_bonus: Option<Value>,
    pub judge_covered: Option<u64>,
    pub judge_penalty: Option<String>,
    pub human_bonus: Option<Vec<u32>>,
    pub human_covered: Option<u64>,
    pub n_bonus_points: Option<u64>,
    pub human_penalty: Option<String>,
    pub human_justification: Option<String>,
    pub status: Option<String>,
    pub reason: Option<String>,
    pub fixed_question: Option<String>,
    pub fixed_answer: Option<String>,
    /// Where the response's human grades come from: `final:<r>`, `single:<r>`,
    /// `majority:<n>`, `tie:<n>`, `none`.
    pub resolution: Option<String>,
    /// The same for a C-VQA item's question verification.
    pub verification_resolution: Option<String>,
    /// Reviews on the item.
    pub n_reviewers: u64,
    /// The item's `reviews` object as in the file.
    pub reviews: Option<Value>,
    /// Why the item could not be read.
    pub error: Option<String>,
    /// Other benchmarks: the resolved free verdict (`pass`, `fail`, `unsure`, any text).
    pub verdict: Option<String>,
    /// Where it comes from: `final:<r>`, `single:<r>`, `majority:<n>`, `tie:<n>`, `none`.
    pub verdict_resolution: Option<String>,
    /// CHARTOM: the resolved reviewer's `fact_correct` (empty when no one overrode).
    pub human_fact_correct: Option<bool>,
    /// C-VQA: the resolved reviewers' `original_correct` / `counterfactual_correct`.
    pub human_original_correct: Option<bool>,
    pub human_counterfactual_correct: Option<bool>,
    /// C-VQA: the resolved verification's `image_related` and `answer_ok`.
    pub image_related: Option<bool>,
    pub answer_ok: Option<bool>,
    /// C-VQA: the resolved rejection's short text (reason `other`).
    pub reason_text: Option<String>,
    /// Every reviewer's note on the item, one `reviewer: note` a line, in file order.
    pub notes: Option<String>,
    /// Whether the resolved human grade has a penalty; empty when no reviewer graded the
    /// penalty (an empty `human_penalty` alone cannot tell "none" from "not graded").
    pub human_penalized: Option<bool>,
    /// lm-eval: the sample's `doc_id` (as its JSON text) and `filter`; two filters' rows
    /// of one doc share the doc_id.
    pub doc_id: Option<String>,
    pub filter: Option<String>,
    /// lm-eval: the answer key as logged.
    pub target: Option<String>,
    /// lm-eval: the metric a verdict stands in for (`acc`, `exact_match`), empty when
    /// none does (perplexities), and the harness's value of it on this line.
    pub metric: Option<String>,
    pub harness_score: Option<f64>,
    /// lm-eval: every metric of the line as logged, a JSON object.
    pub metrics: Option<Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    Csv,
    Jsonl,
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("writing the export: {0}")]
    Io(#[from] io::Error),
    #[error("writing the CSV: {0}")]
    Csv(#[from] csv::Error),
}

/// What an export wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExportReport {
    pub rows: u64,
    pub unreadable: u64,
}

/// The rows of item `i`.
pub fn rows(store: &Store, i: usize) -> Vec<Row> {
    let line = store.line(i);
    let it = match store.item(i) {
        Ok(it) => it,
        Err(e) => {
            return vec![Row {
                id: store.fallback_id(i),
                line,
                error: Some(e.to_string()),
                ..Row::default()
            }];
        }
    };
    let reviews = store
        .value(i)
        .ok()
        .and_then(|mut v| v.as_object_mut().and_then(|o| o.shift_remove("reviews")));
    let base = Row {
        id: it.id.clone().unwrap_or_else(|| store.fallback_id(i)),
        line,
        benchmark: it.benchmark_name.clone(),
        split: it.split.clone(),
        group: it.group.clone(),
        chart_pair: it.chart.as_ref().and_then(|c| c.pair.clone()),
        chart_type: it.chart.as_ref().and_then(|c| c.chart_type.clone()),
        chart_version: it
            .chart
            .as_ref()
            .and_then(|c| c.version)
            .map(|v| v.name().to_string()),
        dimension: it.dimension.clone(),
        n_reviewers: it.reviews.len() as u64,
        reviews,
        notes: notes(&it),
        ..Row::default()
    };
    let models: Vec<String> = if it.responses.is_empty() {
        vec![String::new()]
    } else {
        it.responses.iter().map(|r| r.model.clone()).collect()
    };
    models
        .into_iter()
        .map(|m| {
            let mut row = base.clone();
            fill(&mut row, &it, &m);
            row.model = m;
            row
        })
        .collect()
}

/// The item's notes, `reviewer: note` one a line, in the order of `reviews`; `None` when
/// there are none.
fn notes(it: &Item) -> Option<String> {
    let lines: Vec<String> = it
        .reviews
        .iter()
        .filter_map(|(name, r)| r.note.as_ref().map(|n| format!("{name}: {n}")))
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

fn fill(row: &mut Row, it: &Item, model: &str) {
    crate::bench::spec(it.benchmark()).export(row, it, model);
}

/// A CSV cell.
fn cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match n.as_f64() {
            Some(x) if n.as_i64().is_none() && n.as_u64().is_none() => format_number(x),
            _ => n.to_string(),
        },
        other => other.to_string(),
    }
}

/// Write every row of the store to `out`.
pub fn export(
    store: &Store,
    format: ExportFormat,
    out: &mut dyn Write,
) -> Result<ExportReport, ExportError> {
    let mut rep = ExportReport::default();
    match format {
        ExportFormat::Csv => {
            let mut w = csv::Writer::from_writer(out);
            w.write_record(COLUMNS)?;
            for i in 0..store.len() {
                for row in rows(store, i) {
                    rep.rows += 1;
                    rep.unreadable += row.error.is_some() as u64;
                    let v = serde_json::to_value(&row).map_err(io::Error::other)?;
                    let obj = v.as_object().expect("a Row serializes to an object");
                    w.write_record(obj.values().map(cell))?;
                }
            }
            w.flush()?;
        }
        ExportFormat::Jsonl => {
            for i in 0..store.len() {
                for row in rows(store, i) {
                    rep.rows += 1;
                    rep.unreadable += row.error.is_some() as u64;
                    serde_json::to_writer(&mut *out, &row).map_err(io::Error::other)?;
                    out.write_all(b"\n")?;
                }
            }
            out.flush()?;
        }
    }
    Ok(rep)
}

#[cfg(test)]
mod tests;
