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

    // Charts from the answer keys.
    let mut charts: Vec<Chart> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    for r in &keys.rows {
        let id = keys.get(r, "chart id").to_string();
        let Some((pair, manipulated)) = split_chart_id(&id).map(|(p, m)| (p.to_string(), m)) else {
            return Err(keys.err(
                r,
                "chart id",
                format!(
                    "{} is not a chart id like `G7_Q1_1` (original) or `G7_Q1_2` (manipulated)",
                    quote(&id)
                ),
            ));
        };
        if let Some(&prev) = by_id.get(&id) {
            let p = &charts[prev];
            return Err(keys.err(
                r,
                "chart id",
                format!(
                    "{} already has a key on row {} (line {})",
                    quote(&id),
                    p.key_place.0,
                    p.key_place.1
                ),
            ));
        }
        let raw_type = keys.get(r, "answer type").to_string();
        let format = Format::from_answer_type(&raw_type).ok_or_else(|| {
            keys.err(
                r,
                "answer type",
                format!(
                    "unknown answer type {} (expected `multiple choice`, `rank` or `free text`)",
                    quote(&raw_type)
                ),
            )
        })?;
        let qpath = qdir.join(format!("{id}.txt"));
        let qbytes = match std::fs::read(&qpath) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(keys.err(
                    r,
                    "chart id",
                    format!("no question file {}", qpath.display()),
                ));
            }
            Err(e) => return Err(ImportError::io(&qpath, e)),
        };
        let qtext = std::str::from_utf8(strip_bom(&qbytes)).map_err(|e| ImportError::At {
            path: qpath.clone(),
            at: format!("byte {}", e.valid_up_to()),
            message: "invalid UTF-8".into(),
        })?;
        let question = match format {
            Format::Number => Question {
                text: qtext.replace("\r\n", "\n").trim().to_string(),
                ..Question::default()
            },
            _ => parse_question(qtext),
        };
        let raw_key = keys.get(r, "answer").to_string();
        let key = match format {
            Format::Choice => parse_choice_key(&raw_key, &question).map(|n| json!(n)),
            Format::Rank => parse_rank_key(&raw_key, &question)
                .map(|o| if o.len() == 1 { json!(o[0]) } else { json!(o) }),
            Format::Number => parse_number(&raw_key).map(Value::Number),
        }
        .map_err(|m| keys.err(r, "answer", format!("{id}: {m}")))?;
        by_id.insert(id.clone(), charts.len());
        charts.push(Chart {
            id,
            pair,
            manipulated,
            format,
            raw_type,
            raw_key,
            key_place: (r.row, r.line),
            question,
            key,
        });
    }
    if charts.is_empty() {
        return Err(ImportError::File {
            path: keys.path.clone(),
            message: "has no rows".into(),
        });
    }
    // Question files without a key.
    if let Ok(rd) = std::fs::read_dir(&qdir) {
        let mut extra: Vec<String> = rd
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let stem = name.strip_suffix(".txt")?.to_string();
                (!by_id.contains_key(&stem)).then_some(stem)
            })
            .collect();
        extra.sort();
        if !extra.is_empty() {
            summary.warnings.push(format!(
                "{} question file{} without an answer key, skipped: {}",
                extra.len(),
                if extra.len() == 1 { "" } else { "s" },
                extra.join(", ")
            ));
        }
    }

    // Chart types and manipulations, by chart id or pair id.
    let mut manip_rows: HashMap<String, &TableRow> = HashMap::new();
    for r in &manips.rows {
        let id = manips.get(r, "chart id").to_string();
        if id.is_empty() {
            return Err(manips.err(r, "chart id", "empty chart id"));
        }
        if let Some(prev) = manip_rows.insert(id.clone(), r) {
            return Err(manips.err(
                r,
                "chart id",
                format!("{} is also on {}", quote(&id), manips.place(prev)),
            ));
        }
    }
    struct PairInfo {
        manipulation: Option<String>,
    }
    let mut pairs: IndexMap<String, PairInfo> = IndexMap::new();
    for c in &charts {
        if pairs.contains_key(&c.pair) {
            continue;
        }
        let m2 = manip_rows
            .get(&format!("{}_2", c.pair))
            .map(|r| manips.get(r, "planted manipulation"));
        let mp = manip_rows
            .get(&c.pair)
            .map(|r| manips.get(r, "planted manipulation"));
        let manipulation = [m2, mp]
            .into_iter()
            .flatten()
            .find(|m| !is_no_manipulation(m))
            .map(str::to_string);
        if manipulation.is_none() {
            summary.warnings.push(format!(
                "pair {}: no planted manipulation in {}",
                c.pair,
                manips.path.display()
            ));
        }
        if let Some(r) = manip_rows.get(&format!("{}_1", c.pair)) {
            let m1 = manips.get(r, "planted manipulation");
            if !is_no_manipulation(m1) && Some(m1) != manipulation.as_deref() {
                summary.warnings.push(format!(
                    "{}: the original chart {}_1 lists a manipulation ({}); the pair's is the one of {}_2",
                    manips.place(r),
                    c.pair,
                    quote(m1),
                    c.pair
                ));
            }
        }
        pairs.insert(c.pair.clone(), PairInfo { manipulation });
    }
    let chart_type_of = |c: &Chart| -> Result<&'static str, ImportError> {
        let other = format!("{}_{}", c.pair, if c.manipulated { 1 } else { 2 });
        let row = [c.id.as_str(), c.pair.as_str(), other.as_str()]
            .into_iter()
            .find_map(|k| {
                manip_rows
                    .get(k)
                    .filter(|r| !manips.get(r, "chart type").is_empty())
            });
        let Some(r) = row else {
            return Err(ImportError::File {
                path: manips.path.clone(),
                message: format!("no chart type for {} (nor for its pair)", c.id),
            });
        };
        let t = manips.get(r, "chart type");
        chart_type(t).ok_or_else(|| {
            manips.err(
                r,
                "chart type",
                format!(
                    "unknown chart type {} (expected line, bar, pie, scatter or map)",
                    quote(t)
                ),
            )
        })
    };

    // Images.
    let img_dir = dir.join("chart_images");
    let images = ImagePaths::new(&img_dir, &opts.out)?;
    let mut image_names: HashMap<String, String> = HashMap::new();
    if let Ok(rd) = std::fs::read_dir(&img_dir) {
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some((stem, _)) = name.rsplit_once('.') {
                let better = image_names
                    .get(stem)
                    .is_none_or(|prev| !prev.ends_with(".png"));
                if better {
                    image_names.insert(stem.to_string(), name);
                }
            }
        }
    }

    // Optional inputs.
    let strategies = match &opts.strategies {
        Some(p) => read_strategies(p, &charts, &by_id, &mut summary)?,
        None => HashMap::new(),
    };
    let human = match &opts.human_answers {
        Some(p) => read_human_answers(p, &charts, &by_id)?,
        None => HashMap::new(),
    };
    let hmi_given = match &opts.hmi {
        Some(p) => read_hmi(p, &by_id)?,
        None => HashMap::new(),
    };
    let mut responses: HashMap<String, Vec<Value>> = HashMap::new();
    let mut seen: HashMap<(String, String), String> = HashMap::new();
    for p in &opts.answers {
        read_answers(p, &by_id, &mut responses, &mut seen, &mut summary)?;
    }

    // Items.
    let mut missing_images = Vec::new();
    let mut no_hmi_without_strategies = Vec::new();
    let mut items = Vec::with_capacity(charts.len());
    for c in &charts {
        let ctype = chart_type_of(c)?;
        *summary.types.entry(ctype.to_string()).or_default() += 1;
        *summary
            .formats
            .entry(c.format.name().to_string())
            .or_default() += 1;
        let image_name = image_names
            .get(&c.id)
            .cloned()
            .unwrap_or_else(|| format!("{}.png", c.id));
        if !images.exists(&image_name) {
            missing_images.push(c.id.clone());
        }
        let mut fact = Map::new();
        fact.insert("question".into(), json!(c.question.text));
        fact.insert("format".into(), json!(c.format.name()));
        fact.insert("options".into(), json!(c.question.options));
        fact.insert("key".into(), c.key.clone());
        let strat = strategies
            .get(&c.pair)
            .filter(|_| c.format == Format::Number);
        if let Some((m, s)) = strat {
            fact.insert("strategies".into(), json!({"misled": m, "skim": s}));
        }
        let mut hmi: Option<f64> = None;
        if let Some(ans) = human.get(&c.id) {
            summary.with_human_answers += 1;
            fact.insert(
                "human_answers".into(),
                Value::Array(ans.iter().map(|(a, n)| json!([a, n])).collect()),
            );
            // the one rule of verdict::bench::chartom::grade, on the fact as written
            hmi = serde_json::from_value::<crate::bench::chartom::fields::Fact>(Value::Object(
                fact.clone(),
            ))
            .ok()
            .as_ref()
            .and_then(hmi_from_fact)
            .map(|h| h.hmi);
            if hmi.is_none() && c.format == Format::Number && strat.is_none() {
                no_hmi_without_strategies.push(c.id.clone());
            }
        }
        if let Some(&h) = hmi_given.get(&c.id) {
            hmi = Some(h);
        }
        let mut item = Map::new();
        item.insert("id".into(), json!(c.id));
        item.insert("benchmark".into(), json!("chartom"));
        item.insert("image".into(), json!(images.item_path(&image_name)));
        item.insert(
            "chart".into(),
            json!({
                "pair": c.pair,
                "version": if c.manipulated { "manipulated" } else { "original" },
                "type": ctype,
                "manipulation": pairs[&c.pair].manipulation,
            }),
        );
        item.insert("fact".into(), Value::Object(fact));
        if let Some(h) = hmi {
            summary.with_hmi += 1;
            item.insert("mind".into(), json!({ "hmi": h }));
        }
        item.insert(
            "responses".into(),
            Value::Array(responses.remove(&c.id).unwrap_or_default()),
        );
        item.insert(
            "source".into(),
            json!({
                "question": path_string(&Path::new("FACT_questions").join(format!("{}.txt", c.id))),
                "answer_type": c.raw_type,
                "answer": c.raw_key,
            }),
        );
        items.push(Value::Object(item));
    }
    if !missing_images.is_empty() {
        summary.warnings.push(format!(
            "{} of {} chart images not found in {}: {}",
            missing_images.len(),
            charts.len(),
            img_dir.display(),
            abbreviate(&missing_images)
        ));
    }
    if !no_hmi_without_strategies.is_empty() {
        summary.warnings.push(format!(
            "no HMI for {} number question{} with human answers but no strategies (give --strategies): {}",
            no_hmi_without_strategies.len(),
            if no_hmi_without_strategies.len() == 1 { "" } else { "s" },
            abbreviate(&no_hmi_without_strategies)
        ));
    }
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
