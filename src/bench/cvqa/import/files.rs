//! Reading C-VQA's CSV files: the question columns, the model-output columns, a
//! file's rows and its model.

use super::*;

/// The question columns, as matched (see [`norm_column`]) and as named in messages.
pub(crate) const COLUMNS: [(&str, &str); 6] = [
    ("img path", "img_path"),
    ("query", "query"),
    ("answer", "answer"),
    ("new query", "new query"),
    ("new answer", "new answer"),
    ("type", "type"),
];
pub(crate) const RESPONSE_COLUMNS: [(&str, &str); 2] =
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
    pub(crate) fn question_fields(&self) -> [&str; 6] {
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
    let names = header_names(path, &header)?;
    let cols = Columns::find(path, &names)?;
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
        rows.push(cols.row(path, &names, &rec, row_no, line)?);
    }
    Ok(CsvFile {
        path: path.to_path_buf(),
        rows,
        has_responses: cols.resp_idx.is_some(),
        ignored_columns: cols.ignored_columns,
    })
}

/// The header's column names (UTF-8).
fn header_names(path: &Path, header: &csv::ByteRecord) -> Result<Vec<String>, ImportError> {
    let mut names = Vec::with_capacity(header.len());
    for (i, h) in header.iter().enumerate() {
        let name = std::str::from_utf8(h).map_err(|_| ImportError::At {
            path: path.into(),
            at: format!("line 1, column {}", i + 1),
            message: "the header is not valid UTF-8".into(),
        })?;
        names.push(name.to_string());
    }
    Ok(names)
}

/// Where the header has each column.
struct Columns {
    /// The question columns, in [`COLUMNS`] order.
    idx: [usize; 6],
    /// `response` and `new_response`, in a model-output CSV.
    resp_idx: Option<(usize, usize)>,
    ignored_columns: Vec<String>,
}

impl Columns {
    /// Every question column, once; both response columns or neither.
    fn find(path: &Path, names: &[String]) -> Result<Columns, ImportError> {
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
        Ok(Columns {
            idx,
            resp_idx,
            ignored_columns,
        })
    }

    /// Data row `row_no` (at `line`): its fields (UTF-8) and a known question type.
    fn row(
        &self,
        path: &Path,
        names: &[String],
        rec: &csv::ByteRecord,
        row_no: usize,
        line: u64,
    ) -> Result<Row, ImportError> {
        let idx = &self.idx;
        let field = |i: usize| -> Result<String, ImportError> {
            std::str::from_utf8(&rec[i])
                .map(str::to_string)
                .map_err(|e| ImportError::At {
                    path: path.into(),
                    at: format!("row {row_no} (line {line}), column {}", quote(&names[i])),
                    message: format!("invalid UTF-8 at byte {} of the field", e.valid_up_to()),
                })
        };
        let response = match self.resp_idx {
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
        Ok(row)
    }
}

pub(crate) fn csv_error(path: &Path, e: csv::Error) -> ImportError {
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
