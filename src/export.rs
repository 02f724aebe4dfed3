//! `verdict export`: one row per item × model with the automatic grades, the grades that
//! count after human review, and the reviews themselves, as CSV or JSONL (for pandas).
//!
//! An item without responses still gives one row (empty model); an unreadable item gives
//! one row with its id, line and `error`. The columns are [`COLUMNS`], in that order; in
//! CSV, lists and objects are written as compact JSON, booleans as `true`/`false`, missing
//! values as empty cells.

use crate::bench::Items;
use std::io::{self, Write};

use serde_json::Value;

use crate::bench::Item;
pub use crate::bench::kit::row::Row;
use crate::bench::kit::text::format_number;
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
    "task",
    "run",
    "epoch",
    "scorer",
    "doc_id",
    "filter",
    "target",
    "metric",
    "harness_score",
    "metrics",
];

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
        task: store.file_info().task(),
        run: store
            .path()
            .file_name()
            .map(|n| n.to_string_lossy().into_owned()),
        ..Row::default()
    };
    let models: Vec<String> = if it.responses.is_empty() {
        vec![String::new()]
    } else {
        it.responses.iter().map(|r| r.model.clone()).collect()
    };
    let spec = crate::bench::spec(it.benchmark());
    models
        .into_iter()
        .flat_map(|m| {
            let rows = spec.export_rows(base.clone(), &it, &m);
            rows.into_iter().map(move |mut row| {
                row.model = m.clone();
                row
            })
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

/// The columns of the export: [`COLUMNS`], or a benchmark's own when every readable item
/// is of that one benchmark and it names its own (`Spec::columns`: a harness's log, with
/// no other benchmark's empty columns).
pub fn columns(store: &Store) -> Vec<&'static str> {
    let first = (0..store.len()).find_map(|i| store.item(i).ok().map(|it| it.benchmark()));
    if let Some(b) = first
        && let Some(cols) = crate::bench::export_columns(b)
        && (0..store.len()).all(|i| store.item(i).map_or(true, |it| it.benchmark() == b))
    {
        return cols.to_vec();
    }
    COLUMNS.to_vec()
}

/// Write every row of the store to `out`.
pub fn export(
    store: &Store,
    format: ExportFormat,
    out: &mut dyn Write,
) -> Result<ExportReport, ExportError> {
    export_set(&[store], format, out)
}

/// Write every row of each store in turn to `out`, as one export (`verdict export DIR`:
/// a folder's files): one header, the columns [`columns`] gives each store when they all
/// get the same (a harness's files), else [`COLUMNS`].
pub fn export_set(
    stores: &[&Store],
    format: ExportFormat,
    out: &mut dyn Write,
) -> Result<ExportReport, ExportError> {
    let mut rep = ExportReport::default();
    let each: Vec<Vec<&'static str>> = stores.iter().map(|s| columns(s)).collect();
    let cols = match each.split_first() {
        Some((first, rest)) if rest.iter().all(|c| c == first) => first.clone(),
        _ => COLUMNS.to_vec(),
    };
    let all_rows = || {
        stores
            .iter()
            .flat_map(|store| (0..store.len()).flat_map(move |i| rows(store, i)))
    };
    // A row as its columns' values, in order.
    let values = |row: &Row| -> io::Result<serde_json::Map<String, Value>> {
        let v = serde_json::to_value(row).map_err(io::Error::other)?;
        let mut obj = match v {
            Value::Object(o) => o,
            _ => unreachable!("a Row serializes to an object"),
        };
        Ok(cols
            .iter()
            .map(|c| (c.to_string(), obj.shift_remove(*c).unwrap_or(Value::Null)))
            .collect())
    };
    match format {
        ExportFormat::Csv => {
            let mut w = csv::Writer::from_writer(out);
            w.write_record(&cols)?;
            for row in all_rows() {
                rep.rows += 1;
                rep.unreadable += row.error.is_some() as u64;
                w.write_record(values(&row)?.values().map(cell))?;
            }
            w.flush()?;
        }
        ExportFormat::Jsonl => {
            for row in all_rows() {
                rep.rows += 1;
                rep.unreadable += row.error.is_some() as u64;
                serde_json::to_writer(&mut *out, &values(&row)?).map_err(io::Error::other)?;
                out.write_all(b"\n")?;
            }
            out.flush()?;
        }
    }
    Ok(rep)
}

#[cfg(test)]
mod tests;
