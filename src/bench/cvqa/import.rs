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

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::Serialize;

use crate::import::{
    ImagePaths, ImportError, LineCounter, norm_column, quote, read_file, strip_bom,
};

/// The question columns, as matched (see [`norm_column`]) and as named in messages.
const COLUMNS: [(&str, &str); 6] = [
    ("img path", "img_path"),
    ("query", "query"),
    ("answer", "answer"),
    ("new query", "new query"),
    ("new answer", "new answer"),
    ("type", "type"),
];
const RESPONSE_COLUMNS: [(&str, &str); 2] =
    [("response", "response"), ("new response", "new_response")];

/// One data row of a C-VQA CSV, text exactly as in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub img_path: String,
    pub query: String,
    pub answer: String,
    pub new_query: String,
    pub new_answer: String,
    pub qtype: String,
    /// `(response, new_response)` in a model-output CSV.
    pub response: Option<(String, String)>,
    /// 1-based data row in the file (not counting the header).
    pub row: usize,
    /// 1-based line of the row's first byte in the file.
    pub line: u64,
}

impl Row {
    /// The question columns, in [`COLUMNS`] order.
    fn question_fields(&self) -> [&str; 6] {
        [
            &self.img_path,
            &self.query,
            &self.answer,
            &self.new_query,
            &self.new_answer,
            &self.qtype,
        ]
    }
}

/// A parsed C-VQA CSV.
#[derive(Debug, Clone)]
pub struct CsvFile {
    pub path: PathBuf,
    pub rows: Vec<Row>,
    /// True for a model-output CSV (it has `response` and `new_response`).
    pub has_responses: bool,
    /// Columns that are neither question nor response columns (ignored).
    pub ignored_columns: Vec<String>,
}

/// Read and parse one CSV.
pub fn read_csv(path: &Path) -> Result<CsvFile, ImportError> {
    let bytes = read_file(path)?;
    parse_csv(path, &bytes)
}

/// Parse the bytes of one CSV (RFC 4180: quoted fields may hold commas, quotes and line
/// breaks; LF or CRLF; a UTF-8 byte order mark is skipped). `path` names it in messages.
pub fn parse_csv(path: &Path, bytes: &[u8]) -> Result<CsvFile, ImportError> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(strip_bom(bytes));
    let csv_err = |e: csv::Error| csv_error(path, e);
    let header = rdr.byte_headers().map_err(csv_err)?.clone();
    if header.is_empty() || (header.len() == 1 && header[0].is_empty()) {
        return Err(ImportError::File {
            path: path.into(),
            message: "empty file (expected a header line `img_path,query,answer,new query,new answer,type`)".into(),
        });
    }
    let mut names = Vec::with_capacity(header.len());
    for (i, h) in header.iter().enumerate() {
        let name = std::str::from_utf8(h).map_err(|_| ImportError::At {
            path: path.into(),
            at: format!("line 1, column {}", i + 1),
            message: "the header is not valid UTF-8".into(),
        })?;
        names.push(name.to_string());
    }
    let find = |want: &str| -> Result<Option<usize>, ImportError> {
        let hits: Vec<usize> = names
            .iter()
            .enumerate()
            .filter(|(_, n)| norm_column(n) == want)
            .map(|(i, _)| i)
            .collect();
        match hits.len() {
            0 => Ok(None),
            1 => Ok(Some(hits[0])),
            _ => Err(ImportError::File {
                path: path.into(),
                message: format!("the header has the column `{want}` {} times", hits.len()),
            }),
        }
    };
    let mut idx = [0usize; 6];
    let mut missing = Vec::new();
    for (k, (want, shown)) in COLUMNS.iter().enumerate() {
        match find(want)? {
            Some(i) => idx[k] = i,
            None => missing.push(*shown),
        }
    }
    if !missing.is_empty() {
        return Err(ImportError::File {
            path: path.into(),
            message: format!(
                "missing column{} {} (a C-VQA CSV has img_path,query,answer,new query,new answer,type, and a model's output also response,new_response; found: {})",
                if missing.len() > 1 { "s" } else { "" },
                missing
                    .iter()
                    .map(|m| format!("`{m}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                names
                    .iter()
                    .map(|n| quote(n))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    let resp = (find(RESPONSE_COLUMNS[0].0)?, find(RESPONSE_COLUMNS[1].0)?);
    let resp_idx = match resp {
        (Some(a), Some(b)) => Some((a, b)),
        (None, None) => None,
        (Some(_), None) | (None, Some(_)) => {
            return Err(ImportError::File {
                path: path.into(),
                message: "a model-output CSV needs both `response` and `new_response` columns; this one has only one of them".into(),
            });
        }
    };
    let used: Vec<usize> = idx
        .iter()
        .copied()
        .chain(resp_idx.iter().flat_map(|&(a, b)| [a, b]))
        .collect();
    let ignored_columns = names
        .iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(_, n)| n.clone())
        .collect();

    let mut rows = Vec::new();
    let mut rec = csv::ByteRecord::new();
    let mut lines = LineCounter::new(strip_bom(bytes));
    loop {
        match rdr.read_byte_record(&mut rec) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(csv_err(e)),
        }
        let row_no = rows.len() + 1;
        let line = lines.line_at(rec.position().map(|p| p.byte()).unwrap_or(0));
        if rec.len() != header.len() {
            return Err(ImportError::At {
                path: path.into(),
                at: format!("row {row_no} (line {line})"),
                message: format!(
                    "has {} field{}, the header has {}",
                    rec.len(),
                    if rec.len() == 1 { "" } else { "s" },
                    header.len()
                ),
            });
        }
        let field = |i: usize| -> Result<String, ImportError> {
            std::str::from_utf8(&rec[i])
                .map(str::to_string)
                .map_err(|e| ImportError::At {
                    path: path.into(),
                    at: format!("row {row_no} (line {line}), column {}", quote(&names[i])),
                    message: format!("invalid UTF-8 at byte {} of the field", e.valid_up_to()),
                })
        };
        let response = match resp_idx {
            Some((a, b)) => Some((field(a)?, field(b)?)),
            None => None,
        };
        let row = Row {
            img_path: field(idx[0])?,
            query: field(idx[1])?,
            answer: field(idx[2])?,
            new_query: field(idx[3])?,
            new_answer: field(idx[4])?,
            qtype: field(idx[5])?,
            response,
            row: row_no,
            line,
        };
        if split_of(&row.qtype).is_none() {
            return Err(ImportError::At {
                path: path.into(),
                at: format!("row {row_no} (line {line}), column `type`"),
                message: format!(
                    "unknown question type {} (expected direct, indirect, boolean or abs_counting_1..abs_counting_6)",
                    quote(&row.qtype)
                ),
            });
        }
        rows.push(row);
    }
    Ok(CsvFile {
        path: path.to_path_buf(),
        rows,
        has_responses: resp_idx.is_some(),
        ignored_columns,
    })
}

fn csv_error(path: &Path, e: csv::Error) -> ImportError {
    let at = e.position().map(|p| format!("line {}", p.line()));
    let message = match e.kind() {
        csv::ErrorKind::Utf8 { err, .. } => {
            format!("invalid UTF-8 in field {}", err.field() + 1)
        }
        csv::ErrorKind::Io(io) => io.to_string(),
        _ => e.to_string(),
    };
    match at {
        Some(at) => ImportError::At {
            path: path.into(),
            at,
            message,
        },
        None => ImportError::File {
            path: path.into(),
            message,
        },
    }
}

/// The split of a question `type`: `real` or `synthetic`; `None` for an unknown type.
pub fn split_of(qtype: &str) -> Option<&'static str> {
    match qtype {
        "direct" | "indirect" | "boolean" => Some("real"),
        "abs_counting_1" | "abs_counting_2" | "abs_counting_3" | "abs_counting_4"
        | "abs_counting_5" | "abs_counting_6" => Some("synthetic"),
        _ => None,
    }
}

/// The model name a file stands for: its stem without a trailing `_responses` or
/// `_results`, and without the `C-VQA_` / `C_VQA_` prefix of the authors' result files
/// (`C-VQA_minigpt4_7B_results.csv` → `minigpt4_7B`).
pub fn model_from_path(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut name = stem.as_str();
    for suffix in ["_responses", "_results"] {
        if let Some(s) = name.strip_suffix(suffix) {
            name = s;
            break;
        }
    }
    for prefix in ["C-VQA_", "C_VQA_"] {
        if let Some(s) = name.strip_prefix(prefix) {
            name = s;
            break;
        }
    }
    if name.is_empty() {
        stem
    } else {
        name.to_string()
    }
}

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
mod tests {
    use super::*;

    const HEADER: &str = "img_path,query,answer,new query,new answer,type";

    fn csv(name: &str, text: &str) -> CsvFile {
        parse_csv(Path::new(name), text.as_bytes()).unwrap()
    }

    fn questions() -> String {
        format!(
            "{HEADER}\na.jpg,How many cats?,2,\"How many cats, if one left?\",1,direct\n\
             b.jpg,Is it day?,yes,Would it be day if the sun set?,no,boolean\n"
        )
    }

    #[test]
    fn parses_quotes_crlf_bom_and_newlines() {
        let text = format!(
            "\u{feff}{HEADER},response,new_response\r\na.jpg,\"Q \"\"one\"\"\",1,\"line1\r\nline2\",2,direct,\"r, 1\",\r\n"
        );
        let f = csv("m_responses.csv", &text);
        assert!(f.has_responses);
        assert_eq!(f.rows.len(), 1);
        let r = &f.rows[0];
        assert_eq!(r.query, "Q \"one\"");
        assert_eq!(r.new_query, "line1\r\nline2");
        assert_eq!(r.response, Some(("r, 1".into(), String::new())));
        assert_eq!(r.line, 2);
        assert_eq!(model_from_path(&f.path), "m");
    }

    #[test]
    fn columns_by_name_in_any_order() {
        let f = csv(
            "q.csv",
            "type,New_Answer,answer,img_path,new query,query,extra\ndirect,3,2,x.jpg,nq,q,z\n",
        );
        let r = &f.rows[0];
        assert_eq!(
            (r.qtype.as_str(), r.new_answer.as_str(), r.query.as_str()),
            ("direct", "3", "q")
        );
        assert_eq!(f.ignored_columns, vec!["extra".to_string()]);
    }

    #[test]
    fn split_of_types() {
        assert_eq!(split_of("indirect"), Some("real"));
        assert_eq!(split_of("abs_counting_6"), Some("synthetic"));
        assert_eq!(split_of("abs_counting_7"), None);
        assert_eq!(split_of("Direct"), None);
    }

    #[test]
    fn errors_name_file_row_and_column() {
        let e = parse_csv(
            Path::new("q.csv"),
            format!("{HEADER}\na.jpg,q,1,nq,2,direct\na.jpg,q,1,nq,2,sideways\n").as_bytes(),
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "q.csv: row 2 (line 3), column `type`: unknown question type `sideways` (expected direct, indirect, boolean or abs_counting_1..abs_counting_6)"
        );
        let mut bad = format!("{HEADER}\na.jpg,q,1,").into_bytes();
        bad.extend_from_slice(b"n\xffq,2,direct\n");
        let e = parse_csv(Path::new("q.csv"), &bad).unwrap_err().to_string();
        assert_eq!(
            e,
            "q.csv: row 1 (line 2), column `new query`: invalid UTF-8 at byte 1 of the field"
        );
        let e = parse_csv(
            Path::new("q.csv"),
            format!("{HEADER}\na.jpg,q,1,nq,direct\n").as_bytes(),
        )
        .unwrap_err()
        .to_string();
        assert_eq!(e, "q.csv: row 1 (line 2): has 5 fields, the header has 6");
        let e = parse_csv(Path::new("q.csv"), b"").unwrap_err().to_string();
        assert!(e.starts_with("q.csv: empty file"), "{e}");
        let e = parse_csv(Path::new("q.csv"), b"img_path,query,answer\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("q.csv: missing columns `new query`, `new answer`, `type`"),
            "{e}"
        );
    }

    #[test]
    fn merges_models_by_row() {
        let q = csv("q.csv", &questions());
        let m1 = csv(
            "llava_responses.csv",
            &format!(
                "{HEADER},response,new_response\na.jpg,How many cats?,2,\"How many cats, if one left?\",1,direct,Two,One\n\
                 b.jpg,Is it day?,yes,Would it be day if the sun set?,no,boolean,,No\n"
            ),
        );
        let mut m2 = m1.clone();
        m2.path = "other.csv".into();
        let imp = merge(
            vec![q, m1, m2],
            &Options {
                models: vec!["gpt".into()],
                images: None,
            },
        )
        .unwrap();
        assert_eq!(imp.items.len(), 2);
        let it = &imp.items[1];
        assert_eq!(it.id, "real-00002");
        assert_eq!(it.group, "boolean");
        assert_eq!(it.image.as_deref(), Some("b.jpg"));
        assert_eq!(
            it.source,
            Source {
                file: "q.csv".into(),
                row: 2
            }
        );
        let models: Vec<_> = it.responses.iter().map(|r| r.model.as_str()).collect();
        assert_eq!(models, ["gpt", "other"]);
        assert_eq!(it.responses[0].original, "");
        assert_eq!(it.responses[0].counterfactual, "No");
        assert_eq!(imp.summary.splits["real"]["direct"], 1);
        assert_eq!(imp.summary.splits["real"]["boolean"], 1);
        assert_eq!(
            imp.summary.models.keys().collect::<Vec<_>>(),
            ["gpt", "other"]
        );
        let line = serde_json::to_string(&imp.items[0]).unwrap();
        assert_eq!(
            line,
            r#"{"id":"real-00001","benchmark":"cvqa","split":"real","group":"direct","image":"a.jpg","original":{"question":"How many cats?","answer":"2"},"counterfactual":{"question":"How many cats, if one left?","answer":"1"},"responses":[{"model":"gpt","original":"Two","counterfactual":"One"},{"model":"other","original":"Two","counterfactual":"One"}],"source":{"file":"q.csv","row":1}}"#
        );
    }

    #[test]
    fn mismatches_name_both_files_and_the_row() {
        let q = csv("q.csv", &questions());
        let m = csv(
            "m.csv",
            &format!(
                "{HEADER},response,new_response\na.jpg,How many cats?,2,\"How many cats, if one left?\",1,direct,x,y\n\
                 b.jpg,Is it night?,yes,Would it be day if the sun set?,no,boolean,x,y\n"
            ),
        );
        let e = merge(vec![q.clone(), m], &Options::default())
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "row 2 differs in column `query`: q.csv (line 3) has `Is it day?` but m.csv (line 3) has `Is it night?`; all CSVs of a set must describe the same questions row by row"
        );
        let short = csv(
            "s.csv",
            &format!("{HEADER}\na.jpg,How many cats?,2,\"How many cats, if one left?\",1,direct\n"),
        );
        let e = merge(vec![q, short], &Options::default())
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("q.csv has 2 rows but s.csv has 1"), "{e}");
    }

    #[test]
    fn sets_by_split_and_model_name_rules() {
        let q = csv("q.csv", &questions());
        let s = csv(
            "syn.csv",
            &format!(
                "{HEADER}\ns.png,How many? Select the correct answer:A:1  B:2  C:3  D:4,B,nq? Select the correct answer:A:1  B:2  C:3  D:4,C,abs_counting_3\n"
            ),
        );
        let imp = merge(vec![q.clone(), s], &Options::default()).unwrap();
        let ids: Vec<_> = imp.items.iter().map(|i| i.id.as_str()).collect();
        assert_eq!(ids, ["real-00001", "real-00002", "synthetic-00001"]);
        assert_eq!(imp.summary.splits["synthetic"]["abs_counting_3"], 1);

        // too many --model names
        let e = merge(
            vec![q.clone()],
            &Options {
                models: vec!["x".into()],
                images: None,
            },
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("1 --model name given but only 0"), "{e}");

        // the same model twice in one set
        let out = format!(
            "{HEADER},response,new_response\na.jpg,How many cats?,2,\"How many cats, if one left?\",1,direct,1,2\n\
             b.jpg,Is it day?,yes,Would it be day if the sun set?,no,boolean,yes,no\n"
        );
        let a = csv("dir1/m_responses.csv", &out);
        let b = csv("dir2/m.csv", &out);
        let e = merge(vec![q, a, b], &Options::default())
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("model `m` is given twice"), "{e}");
    }

    /// The authors' result files hold both splits: each row joins the set of its type.
    #[test]
    fn a_file_mixing_splits_is_split_per_row() {
        let mixed = format!(
            "{HEADER},response,new_response\nb,sq1,A,nq,B,abs_counting_1,A,fail\n\
             a,q1,1,nq,2,direct,1,2\nb,sq2,C,nq,D,abs_counting_2,3,D\na,q2,yes,nq,no,boolean,yes,no\n"
        );
        let f = csv("C-VQA_m-1_results.csv", &mixed);
        assert_eq!(model_from_path(&f.path), "m-1");
        let imp = merge(vec![f.clone()], &Options::default()).unwrap();
        let got: Vec<(&str, &str, usize, &str)> = imp
            .items
            .iter()
            .map(|i| {
                (
                    i.id.as_str(),
                    i.original.question.as_str(),
                    i.source.row,
                    i.responses[0].original.as_str(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("synthetic-00001", "sq1", 1, "A"),
                ("synthetic-00002", "sq2", 3, "3"),
                ("real-00001", "q1", 2, "1"),
                ("real-00002", "q2", 4, "yes"),
            ]
        );
        assert_eq!(imp.summary.models["m-1"], ["synthetic", "real"]);
        // with the question files of both splits, row by row
        let real = csv(
            "real.csv",
            &format!("{HEADER}\na,q1,1,nq,2,direct\na,q2,yes,nq,no,boolean\n"),
        );
        let syn = csv(
            "syn.csv",
            &format!("{HEADER}\nb,sq1,A,nq,B,abs_counting_1\nb,sq2,C,nq,D,abs_counting_2\n"),
        );
        let imp = merge(vec![real.clone(), syn, f.clone()], &Options::default()).unwrap();
        let ids: Vec<_> = imp.items.iter().map(|i| i.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "real-00001",
                "real-00002",
                "synthetic-00001",
                "synthetic-00002"
            ]
        );
        assert_eq!(imp.items[1].responses[0].original, "yes");
        assert_eq!(imp.items[1].source.row, 2);
        assert_eq!(imp.items[3].responses[0].counterfactual, "D");
        // a mismatch names the split's row and both lines
        let other = csv(
            "real2.csv",
            &format!("{HEADER}\na,q1,1,nq,2,direct\na,q3,yes,nq,no,boolean\n"),
        );
        let e = merge(vec![other, f.clone()], &Options::default())
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "real row 2 differs in column `query`: real2.csv (line 3) has `q3` but C-VQA_m-1_results.csv (line 5) has `q2`; all CSVs of a set must describe the same questions row by row"
        );
        let short = csv("one.csv", &format!("{HEADER}\na,q1,1,nq,2,direct\n"));
        let e = merge(vec![f, short], &Options::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("C-VQA_m-1_results.csv has 2 real rows but one.csv has 1:"),
            "{e}"
        );
    }

    #[test]
    fn model_names_of_the_authors_files() {
        for (file, model) in [
            ("C-VQA_vipergpt_results.csv", "vipergpt"),
            ("C_VQA_LLaVA-7B-v0_results.csv", "LLaVA-7B-v0"),
            ("qwen_results.csv", "qwen"),
            ("llava_responses.csv", "llava"),
            ("_results.csv", "_results"),
            ("C-VQA_.csv", "C-VQA_"),
        ] {
            assert_eq!(model_from_path(Path::new(file)), model, "{file}");
        }
    }
}
