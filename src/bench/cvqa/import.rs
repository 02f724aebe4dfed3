//! C-VQA import: question CSVs and model-output CSVs, merged by row.
//!
//! A question CSV has the columns `img_path,query,answer,new query,new answer,type`; a
//! model-output CSV (what the benchmark's scripts write as `<model>_responses.csv`) has
//! the same columns plus `response,new_response`. Columns are found by name (case,
//! spaces and `_` do not matter), so their order is free; other columns are ignored.
//!
//! Every row belongs to the *set* of its split: `real` when its `type` is `direct`,
//! `indirect` or `boolean`, `synthetic` when it is `abs_counting_1`..`_6`. A CSV usually
//! holds one split; the authors' result files (`C-VQA_<model>_results.csv`, what the
//! benchmark's `calc_acc.py` reads) hold both, and are split row by row, keeping the order.
//! All CSVs of a set must describe the same questions row by row; they merge into one item
//! per row, with one response per model-output CSV. Item ids are `<split>-<n>` (the 1-based
//! position among the set's rows, zero-padded to 5 digits), so one run may import the real
//! and the synthetic set together without clashes.

use crate::sanitize::quote;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::Serialize;

use crate::import::{ImagePaths, ImportError, LineCounter, norm_column, read_file, strip_bom};

pub mod command;
mod files;
pub use files::*;

/// Import options.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Model names for the model-output CSVs, in order; the rest are named after their file.
    pub models: Vec<String>,
    /// Where the images are; `None` writes `img_path` as it is.
    pub images: Option<ImagePaths>,
}

/// An item of the result set (docs/format.md, C-VQA).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Item {
    pub id: String,
    pub benchmark: &'static str,
    pub split: &'static str,
    pub group: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    pub original: QuestionAnswer,
    pub counterfactual: QuestionAnswer,
    pub responses: Vec<Response>,
    pub source: Source,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct QuestionAnswer {
    pub question: String,
    pub answer: String,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Response {
    pub model: String,
    pub original: String,
    pub counterfactual: String,
}

/// Where an item came from: the set's first CSV (file name) and the 1-based data row.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Source {
    pub file: String,
    pub row: usize,
}

/// What an import produced.
#[derive(Debug, Clone, Default)]
pub struct Import {
    pub items: Vec<Item>,
    pub summary: Summary,
}

/// Counts for the summary line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// split → group → items, in order of first appearance.
    pub splits: IndexMap<String, IndexMap<String, usize>>,
    /// model → the splits it answered.
    pub models: IndexMap<String, Vec<String>>,
    /// Things worth knowing that did not stop the import.
    pub warnings: Vec<String>,
}

/// Read the CSVs and merge them into items.
pub fn import(paths: &[PathBuf], opts: &Options) -> Result<Import, ImportError> {
    let files = paths
        .iter()
        .map(|p| read_csv(p))
        .collect::<Result<Vec<_>, _>>()?;
    merge(files, opts)
}

/// Merge parsed CSVs into items (see the module documentation for the rules).
pub fn merge(files: Vec<CsvFile>, opts: &Options) -> Result<Import, ImportError> {
    if files.is_empty() {
        return Err(ImportError::Invalid("no CSV files given".into()));
    }
    let mut summary = Summary::default();

    // Each file's rows by split, in order (a file holding both splits, as the authors'
    // result files do, takes part in both sets).
    let mut parts: Vec<Part> = Vec::with_capacity(files.len());
    for (fi, f) in files.iter().enumerate() {
        if f.rows.is_empty() {
            return Err(ImportError::File {
                path: f.path.clone(),
                message: "has a header but no rows".into(),
            });
        }
        let mut mine: IndexMap<&'static str, Vec<usize>> = IndexMap::new();
        for (ri, r) in f.rows.iter().enumerate() {
            let split = split_of(&r.qtype).expect("parse_csv checks the types");
            mine.entry(split).or_default().push(ri);
        }
        let whole = mine.len() == 1;
        for (split, rows) in mine {
            parts.push(Part {
                file: fi,
                split,
                rows,
                whole,
            });
        }
        for c in &f.ignored_columns {
            summary.warnings.push(format!(
                "{}: ignored the column {}",
                f.path.display(),
                quote(c)
            ));
        }
    }

    // Model names for the output CSVs.
    let n_outputs = files.iter().filter(|f| f.has_responses).count();
    if opts.models.len() > n_outputs {
        return Err(ImportError::Invalid(format!(
            "{} --model name{} given but only {n_outputs} of the CSVs {} a model's output (with response,new_response columns)",
            opts.models.len(),
            if opts.models.len() == 1 { "" } else { "s" },
            if n_outputs == 1 { "is" } else { "are" }
        )));
    }
    let mut given = opts.models.iter();
    let models: Vec<Option<String>> = files
        .iter()
        .map(|f| {
            f.has_responses.then(|| {
                given
                    .next()
                    .cloned()
                    .unwrap_or_else(|| model_from_path(&f.path))
            })
        })
        .collect();
    for m in models.iter().flatten() {
        if m.trim().is_empty() {
            return Err(ImportError::Invalid("a model name is empty".into()));
        }
    }

    // Sets, in order of first appearance: split → parts.
    let mut sets: IndexMap<&'static str, Vec<&Part>> = IndexMap::new();
    for p in &parts {
        sets.entry(p.split).or_default().push(p);
    }

    let mut items = Vec::with_capacity(files.iter().map(|f| f.rows.len()).sum());
    let mut missing_images = 0usize;
    for (split, members) in &sets {
        let reference = members[0];
        let ref_file = &files[reference.file];
        // Every CSV of the set must describe the same questions.
        for m in &members[1..] {
            check_same_questions(&files, reference, m)?;
        }
        // One model, one CSV per set.
        let mut seen: IndexMap<&str, &Path> = IndexMap::new();
        for m in members {
            if let Some(name) = &models[m.file] {
                if let Some(prev) = seen.insert(name, &files[m.file].path) {
                    return Err(ImportError::Invalid(format!(
                        "model {} is given twice for the {split} questions: {} and {} (name them with --model)",
                        quote(name),
                        prev.display(),
                        files[m.file].path.display()
                    )));
                }
                let entry = summary.models.entry(name.clone()).or_default();
                if !entry.iter().any(|s| s == split) {
                    entry.push(split.to_string());
                }
            }
        }
        let file_name = ref_file
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let groups = summary.splits.entry(split.to_string()).or_default();
        for (r, &ri) in reference.rows.iter().enumerate() {
            let row = &ref_file.rows[ri];
            *groups.entry(row.qtype.clone()).or_default() += 1;
            let image = if row.img_path.is_empty() {
                None
            } else {
                Some(match &opts.images {
                    Some(ip) => {
                        if !ip.exists(&row.img_path) {
                            missing_images += 1;
                        }
                        ip.item_path(&row.img_path)
                    }
                    None => row.img_path.clone(),
                })
            };
            let responses = members
                .iter()
                .filter_map(|m| {
                    let (a, b) = files[m.file].rows[m.rows[r]].response.as_ref()?;
                    Some(Response {
                        model: models[m.file].clone().expect("output CSVs have a model"),
                        original: a.clone(),
                        counterfactual: b.clone(),
                    })
                })
                .collect();
            items.push(Item {
                id: format!("{split}-{:05}", r + 1),
                benchmark: "cvqa",
                split,
                group: row.qtype.clone(),
                image,
                original: QuestionAnswer {
                    question: row.query.clone(),
                    answer: row.answer.clone(),
                },
                counterfactual: QuestionAnswer {
                    question: row.new_query.clone(),
                    answer: row.new_answer.clone(),
                },
                responses,
                source: Source {
                    file: file_name.clone(),
                    row: row.row,
                },
            });
        }
    }
    if missing_images > 0 {
        summary.warnings.push(format!(
            "{missing_images} of {} images were not found in the --images folder",
            items.iter().filter(|i| i.image.is_some()).count()
        ));
    }
    Ok(Import { items, summary })
}

/// The rows of one file that belong to one split (all of them unless the file mixes
/// splits), as indices into the file's rows.
struct Part {
    file: usize,
    split: &'static str,
    rows: Vec<usize>,
    /// The file holds no other split.
    whole: bool,
}

fn check_same_questions(files: &[CsvFile], pa: &Part, pb: &Part) -> Result<(), ImportError> {
    let (a, b) = (&files[pa.file], &files[pb.file]);
    // "rows" of a whole file; "real rows" of a file that also holds the other split
    let rows = |p: &Part| {
        if p.whole {
            "rows".to_string()
        } else {
            format!("{} rows", p.split)
        }
    };
    if pa.rows.len() != pb.rows.len() {
        return Err(ImportError::Invalid(format!(
            "{} has {} {} but {} has {}: all CSVs of a set must describe the same questions row by row",
            a.path.display(),
            pa.rows.len(),
            rows(pa),
            b.path.display(),
            pb.rows.len()
        )));
    }
    let row_name = |i: usize| {
        if pa.whole && pb.whole {
            format!("row {}", i + 1)
        } else {
            format!("{} row {}", pa.split, i + 1)
        }
    };
    for (i, (&ia, &ib)) in pa.rows.iter().zip(&pb.rows).enumerate() {
        let (ra, rb) = (&a.rows[ia], &b.rows[ib]);
        let (fa, fb) = (ra.question_fields(), rb.question_fields());
        for k in 0..fa.len() {
            if fa[k] != fb[k] {
                return Err(ImportError::Invalid(format!(
                    "{} differs in column `{}`: {} (line {}) has {} but {} (line {}) has {}; all CSVs of a set must describe the same questions row by row",
                    row_name(i),
                    COLUMNS[k].1,
                    a.path.display(),
                    ra.line,
                    quote(fa[k]),
                    b.path.display(),
                    rb.line,
                    quote(fb[k])
                )));
            }
        }
    }
    Ok(())
}

/// Items as JSONL lines.
pub fn to_lines(items: &[Item]) -> impl Iterator<Item = String> + '_ {
    items
        .iter()
        .map(|i| serde_json::to_string(i).expect("items always serialize"))
}

#[cfg(test)]
mod tests;
