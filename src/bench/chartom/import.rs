//! CHARTOM import: the folder its authors distribute on request.
//!
//! ```text
//! DIR/FACT_questions/<chart id>.txt   the FACT question, then its options (if any)
//! DIR/FACT_answer_keys.csv            chart id, answer type, answer
//! DIR/chart_manipulations.csv         chart id, chart type, planted manipulation
//! DIR/chart_images/<chart id>.png
//! ```
//!
//! Chart ids end in `_1` (the original chart) or `_2` (the manipulated one); the rest is
//! the pair (`G7_Q1_2` → pair `G7_Q1`). One item per chart id of the answer keys.
//! Optional inputs: model answers (JSONL), human answers, strategy answers and HMI values
//! (small CSVs, described in docs/import.md).

use crate::sanitize::quote;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde_json::{Map, Number, Value, json};

use crate::bench::chartom::grade::hmi_from_fact;

use crate::import::{ImagePaths, ImportError, Table, TableRow, path_string, read_file, strip_bom};

pub mod command;
pub use crate::bench::kit::question::*;
mod keys;
pub use keys::*;
mod charts;
use charts::*;
mod items;
use items::*;
mod read;
use read::*;

/// Import options.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Model answers: JSONL files of `{"id", "model", "fact", "mind", "justification"}`.
    pub answers: Vec<PathBuf>,
    /// Human answers: CSV `chart id, answer[, count]`.
    pub human_answers: Option<PathBuf>,
    /// Strategy answers of number questions: CSV `chart id, misled, skim` (pair or chart id).
    pub strategies: Option<PathBuf>,
    /// HMI values: CSV `chart id, hmi`; they win over HMIs computed from human answers.
    pub hmi: Option<PathBuf>,
    /// Where the result set will be written (image paths are made relative to its folder).
    pub out: PathBuf,
}

/// What an import produced.
#[derive(Debug, Clone, Default)]
pub struct Import {
    /// The items, in the order of `FACT_answer_keys.csv`.
    pub items: Vec<Value>,
    pub summary: Summary,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    pub items: usize,
    pub pairs: usize,
    /// chart type → charts.
    pub types: IndexMap<String, usize>,
    /// FACT format → charts.
    pub formats: IndexMap<String, usize>,
    /// Charts with a human answer distribution.
    pub with_human_answers: usize,
    /// Charts with an HMI (`mind.hmi`).
    pub with_hmi: usize,
    /// model → responses.
    pub models: IndexMap<String, usize>,
    pub warnings: Vec<String>,
}

/// A FACT answer format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Choice,
    Rank,
    Number,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Choice => "choice",
            Format::Rank => "rank",
            Format::Number => "number",
        }
    }

    /// The key file's `answer type`: `multiple choice`, `rank` or `free text` (a few
    /// spellings of each are accepted).
    pub fn from_answer_type(s: &str) -> Option<Format> {
        let t: String = s
            .trim()
            .to_lowercase()
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { ' ' })
            .collect();
        let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
        match t.as_str() {
            "multiple choice" | "multiplechoice" | "choice" | "mc" | "mcq" => Some(Format::Choice),
            "rank" | "ranking" | "rank order" => Some(Format::Rank),
            "free text" | "freetext" | "free response" | "number" | "numeric" | "numerical" => {
                Some(Format::Number)
            }
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------
// The import

struct Chart {
    id: String,
    pair: String,
    manipulated: bool,
    format: Format,
    raw_type: String,
    raw_key: String,
    key_place: (usize, u64),
    question: Question,
    key: Value,
}

/// Read the folder `dir` (and the optional inputs) into items.
pub fn import(dir: &Path, opts: &Options) -> Result<Import, ImportError> {
    if !dir.is_dir() {
        return Err(ImportError::File {
            path: dir.into(),
            message: "not a folder (expected the CHARTOM folder with FACT_questions/, FACT_answer_keys.csv, chart_manipulations.csv, chart_images/)".into(),
        });
    }
    let mut summary = Summary::default();
    let keys = Table::read(
        &dir.join("FACT_answer_keys.csv"),
        &["chart id", "answer type", "answer"],
    )?;
    let manips = Table::read(
        &dir.join("chart_manipulations.csv"),
        &["chart id", "chart type", "planted manipulation"],
    )?;
    let qdir = dir.join("FACT_questions");
    if !qdir.is_dir() {
        return Err(ImportError::File {
            path: qdir,
            message: "missing folder of question files".into(),
        });
    }
    let (charts, by_id) = read_charts(&keys, &qdir)?;
    warn_questions_without_key(&qdir, &by_id, &mut summary);
    let manips = Manipulations::read(&manips)?;
    let pairs = manips.pairs(&charts, &mut summary);
    let img_dir = dir.join("chart_images");
    let images = ImagePaths::new(&img_dir, &opts.out)?;
    let image_names = image_names(&img_dir);
    let inputs = Inputs::read(opts, &charts, &by_id, &mut summary)?;
    let sources = Sources {
        manips: &manips,
        pairs: &pairs,
        images: &images,
        image_names: &image_names,
    };
    let items = build_items(&charts, &sources, inputs, &img_dir, &mut summary)?;
    summary.items = items.len();
    summary.pairs = pairs.len();
    Ok(Import { items, summary })
}

/// Items as JSONL lines.
pub fn to_lines(items: &[Value]) -> impl Iterator<Item = String> + '_ {
    items
        .iter()
        .map(|v| serde_json::to_string(v).expect("a Value always serializes"))
}

#[cfg(test)]
mod tests;
