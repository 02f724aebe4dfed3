//! `verdict import`: the benchmarks' own files turned into a result set (JSONL).
//!
//! Each benchmark's importer is in its folder (`bench/cvqa/import.rs`: the C-VQA question
//! CSVs and model-output CSVs, merged by row; `bench/chartom/import.rs`: the CHARTOM folder
//! its authors distribute on request); this module has what they share.
//!
//! Importers build the items in memory, then [`write_jsonl`] writes them atomically
//! (temporary file in the output's folder, fsync, rename, fsync of the folder): the output
//! is either complete or absent, never half-written, and an existing file is only
//! replaced when the caller asks for it.

use crate::sanitize::quote;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

/// Why an import failed. Every variant names the file it is about.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// A problem at a place in an input file: `at` is e.g. "row 3 (line 4), column `answer`".
    #[error("{path}: {at}: {message}")]
    At {
        path: PathBuf,
        at: String,
        message: String,
    },
    /// A problem with a whole input file (missing column, no rows, ...).
    #[error("{path}: {message}")]
    File { path: PathBuf, message: String },
    /// A problem between inputs, or with the options (the message names the files).
    #[error("{0}")]
    Invalid(String),
    #[error("{path}: already exists; not overwriting it (use --force to replace it)")]
    Exists { path: PathBuf },
    #[error(
        "{path}: has unsaved verdicts in its journal {journal}; open it in verdict to save them, \
         or move the journal away, before replacing the file"
    )]
    PendingJournal { path: PathBuf, journal: PathBuf },
}

impl ImportError {
    pub(crate) fn io(path: &Path, source: io::Error) -> ImportError {
        ImportError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Read a whole input file.
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, ImportError> {
    std::fs::read(path).map_err(|e| ImportError::io(path, e))
}

/// The bytes without a leading UTF-8 byte order mark.
pub(crate) fn strip_bom(b: &[u8]) -> &[u8] {
    b.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(b)
}

/// What an import wrote, to be printed: lines for standard output and warnings.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Imported {
    pub out: Vec<String>,
    pub warnings: Vec<String>,
}

/// Fail early when `out` cannot be written: it exists (and `force` is off), or a verdict
/// journal is pending beside it (replacing the file would replay those verdicts onto the
/// new items).
pub fn check_output(out: &Path, force: bool) -> Result<(), ImportError> {
    if let Some(journal) = crate::journal::journal_paths(out).into_iter().next() {
        return Err(ImportError::PendingJournal {
            path: out.to_path_buf(),
            journal,
        });
    }
    if !force && std::fs::symlink_metadata(out).is_ok() {
        return Err(ImportError::Exists {
            path: out.to_path_buf(),
        });
    }
    Ok(())
}

/// Write `lines` (one JSON item each, without newlines) to `out` atomically. Without
/// `force`, an existing `out` is never replaced, even one created while the import ran.
/// The file gets `perms`, the permissions of the files it is made from (see
/// [`crate::perms`]). Returns the number of bytes written.
pub fn write_jsonl<I, S>(
    out: &Path,
    lines: I,
    force: bool,
    perms: &crate::perms::Derived,
) -> Result<u64, ImportError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    check_output(out, force)?;
    let dir = crate::store::parent_dir(out);
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut tmp = perms
        .tempfile_in(&dir, &name)
        .map_err(|e| ImportError::io(out, e))?;
    let mut bytes = 0u64;
    {
        let mut w = io::BufWriter::with_capacity(1 << 20, tmp.as_file_mut());
        for l in lines {
            let l = l.as_ref();
            w.write_all(l.as_bytes())
                .and_then(|_| w.write_all(b"\n"))
                .map_err(|e| ImportError::io(out, e))?;
            bytes += l.len() as u64 + 1;
        }
        w.flush().map_err(|e| ImportError::io(out, e))?;
    }
    tmp.as_file()
        .sync_all()
        .map_err(|e| ImportError::io(out, e))?;
    perms
        .narrow_to_replaced(tmp.path(), out)
        .map_err(|e| ImportError::io(out, e))?;
    if force {
        tmp.persist(out)
            .map_err(|e| ImportError::io(out, e.error))?;
    } else {
        tmp.persist_noclobber(out).map_err(|e| {
            if e.error.kind() == io::ErrorKind::AlreadyExists {
                ImportError::Exists {
                    path: out.to_path_buf(),
                }
            } else {
                ImportError::io(out, e.error)
            }
        })?;
    }
    #[cfg(unix)]
    File::open(&dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| ImportError::io(&dir, e))?;
    Ok(bytes)
}

/// An absolute, normalized form of `p`: canonical when it exists, else made absolute
/// against the current folder with `.` and `..` resolved lexically.
pub fn absolute(p: &Path) -> io::Result<PathBuf> {
    if let Ok(c) = p.canonicalize() {
        return Ok(c);
    }
    let abs = std::path::absolute(p)?;
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    Ok(out)
}

/// `target` relative to the folder `base` (both absolute), or `None` when they share no
/// folder but the root (different drives, or `/data/img` seen from `/home/me`).
pub fn relative_path(target: &Path, base: &Path) -> Option<PathBuf> {
    let t: Vec<Component> = target.components().collect();
    let b: Vec<Component> = base.components().collect();
    if t.first() != b.first() {
        return None;
    }
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    // Sharing only the root (`/`, or a drive): an absolute path says more than `../../..`.
    let root_only = t
        .iter()
        .take(common)
        .all(|c| matches!(c, Component::RootDir | Component::Prefix(_)));
    if root_only && common < b.len() {
        return None;
    }
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c);
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    Some(out)
}

/// How image paths are written into items: relative to the results file's folder when
/// possible (docs/format.md), else absolute.
#[derive(Debug, Clone)]
pub struct ImagePaths {
    /// The image folder, absolute.
    dir: PathBuf,
    /// The image folder relative to the output's folder, when there is such a path.
    rel: Option<PathBuf>,
}

impl ImagePaths {
    /// Images in `dir`, for a result set written at `out`.
    pub fn new(dir: &Path, out: &Path) -> Result<ImagePaths, ImportError> {
        let abs = absolute(dir).map_err(|e| ImportError::io(dir, e))?;
        let out_dir =
            absolute(&crate::store::parent_dir(out)).map_err(|e| ImportError::io(out, e))?;
        let rel = relative_path(&abs, &out_dir);
        Ok(ImagePaths { dir: abs, rel })
    }

    /// The path to write for the image `name` (a path inside the image folder).
    pub fn item_path(&self, name: &str) -> String {
        let p = match &self.rel {
            Some(r) if r == Path::new(".") => PathBuf::from(name),
            Some(r) => r.join(name),
            None => self.dir.join(name),
        };
        path_string(&p)
    }

    /// Whether the image `name` exists on disk.
    pub fn exists(&self, name: &str) -> bool {
        self.dir.join(name).is_file()
    }
}

/// A path as item text, with `/` separators.
pub fn path_string(p: &Path) -> String {
    let s = p.to_string_lossy().into_owned();
    if std::path::MAIN_SEPARATOR == '\\' {
        s.replace('\\', "/")
    } else {
        s
    }
}

/// The name of a column as matched by importers: lower case, trimmed, `_` read as a space.
pub(crate) fn norm_column(name: &str) -> String {
    name.trim()
        .to_lowercase()
        .replace('_', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Line numbers of CSV records. The csv crate's own record line is off by one after a
/// CRLF terminator (the `\n` is consumed with the next record), so count from the record's
/// byte offset instead, skipping the line breaks it starts on. Offsets must not decrease.
pub(crate) struct LineCounter<'a> {
    buf: &'a [u8],
    pos: usize,
    line: u64,
}

impl<'a> LineCounter<'a> {
    pub(crate) fn new(buf: &'a [u8]) -> LineCounter<'a> {
        LineCounter {
            buf,
            pos: 0,
            line: 1,
        }
    }

    /// The 1-based line of the first byte of the record that starts at `byte`.
    pub(crate) fn line_at(&mut self, byte: u64) -> u64 {
        let mut at = (byte as usize).min(self.buf.len());
        while at < self.buf.len() && (self.buf[at] == b'\n' || self.buf[at] == b'\r') {
            at += 1;
        }
        if at >= self.pos {
            self.line += memchr::memchr_iter(b'\n', &self.buf[self.pos..at]).count() as u64;
            self.pos = at;
        }
        self.line
    }
}

/// A small CSV table read by column names (for the CHARTOM files): header names matched
/// with [`norm_column`], fully blank rows skipped, every cell valid UTF-8.
#[derive(Debug, Clone)]
pub(crate) struct Table {
    pub path: PathBuf,
    /// Normalized column name → index.
    columns: Vec<String>,
    /// Column names as written.
    names: Vec<String>,
    pub rows: Vec<TableRow>,
}

#[derive(Debug, Clone)]
pub(crate) struct TableRow {
    /// 1-based data row.
    pub row: usize,
    /// 1-based line of the row in the file.
    pub line: u64,
    pub fields: Vec<String>,
}

impl Table {
    /// Parse `bytes` (the file `path`); `required` columns must be present.
    pub(crate) fn parse(
        path: &Path,
        bytes: &[u8],
        required: &[&str],
    ) -> Result<Table, ImportError> {
        let body = strip_bom(bytes);
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(true)
            .from_reader(body);
        let file_err = |message: String| ImportError::File {
            path: path.into(),
            message,
        };
        let header = rdr
            .byte_headers()
            .map_err(|e| file_err(e.to_string()))?
            .clone();
        let mut names = Vec::new();
        for h in header.iter() {
            names.push(
                std::str::from_utf8(h)
                    .map_err(|_| file_err("the header line is not valid UTF-8".into()))?
                    .to_string(),
            );
        }
        let columns: Vec<String> = names.iter().map(|n| norm_column(n)).collect();
        let missing: Vec<String> = required
            .iter()
            .filter(|r| !columns.iter().any(|c| c == *r))
            .map(|r| format!("`{r}`"))
            .collect();
        if !missing.is_empty() {
            return Err(file_err(format!(
                "missing column{} {} (found: {})",
                if missing.len() > 1 { "s" } else { "" },
                missing.join(", "),
                names
                    .iter()
                    .map(|n| quote(n))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        for (i, c) in columns.iter().enumerate() {
            if columns[..i].contains(c) {
                return Err(file_err(format!("the header has the column `{c}` twice")));
            }
        }
        let mut lines = LineCounter::new(body);
        let mut rows = Vec::new();
        let mut rec = csv::ByteRecord::new();
        let mut row = 0;
        loop {
            match rdr.read_byte_record(&mut rec) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    let at = e
                        .position()
                        .map(|p| format!("line {}", lines.line_at(p.byte())))
                        .unwrap_or_else(|| "?".into());
                    return Err(ImportError::At {
                        path: path.into(),
                        at,
                        message: e.to_string(),
                    });
                }
            }
            row += 1;
            let line = lines.line_at(rec.position().map(|p| p.byte()).unwrap_or(0));
            if rec.iter().all(|f| f.iter().all(u8::is_ascii_whitespace)) {
                continue;
            }
            if rec.len() > names.len() {
                return Err(ImportError::At {
                    path: path.into(),
                    at: format!("row {row} (line {line})"),
                    message: format!("has {} fields, the header has {}", rec.len(), names.len()),
                });
            }
            let mut fields = Vec::with_capacity(names.len());
            for (i, f) in rec.iter().enumerate() {
                fields.push(
                    std::str::from_utf8(f)
                        .map_err(|e| ImportError::At {
                            path: path.into(),
                            at: format!("row {row} (line {line}), column {}", quote(&names[i])),
                            message: format!(
                                "invalid UTF-8 at byte {} of the field",
                                e.valid_up_to()
                            ),
                        })?
                        .to_string(),
                );
            }
            // Short rows (a spreadsheet dropping trailing empty cells) read as empty cells.
            fields.resize(names.len(), String::new());
            rows.push(TableRow { row, line, fields });
        }
        Ok(Table {
            path: path.to_path_buf(),
            columns,
            names,
            rows,
        })
    }

    pub(crate) fn read(path: &Path, required: &[&str]) -> Result<Table, ImportError> {
        let bytes = read_file(path)?;
        Table::parse(path, &bytes, required)
    }

    pub(crate) fn has(&self, column: &str) -> bool {
        self.columns.iter().any(|c| c == column)
    }

    /// The trimmed cell of `column` (empty when the table has no such column).
    pub(crate) fn get<'r>(&self, r: &'r TableRow, column: &str) -> &'r str {
        match self.columns.iter().position(|c| c == column) {
            Some(i) => r.fields[i].trim(),
            None => "",
        }
    }

    /// An error at a cell.
    pub(crate) fn err(
        &self,
        r: &TableRow,
        column: &str,
        message: impl Into<String>,
    ) -> ImportError {
        let name = self
            .columns
            .iter()
            .position(|c| c == column)
            .map(|i| self.names[i].clone())
            .unwrap_or_else(|| column.to_string());
        ImportError::At {
            path: self.path.clone(),
            at: format!("row {} (line {}), column {}", r.row, r.line, quote(&name)),
            message: message.into(),
        }
    }

    /// "FILE row N (line L)", for messages that name two places.
    pub(crate) fn place(&self, r: &TableRow) -> String {
        format!("{} row {} (line {})", self.path.display(), r.row, r.line)
    }
}

#[cfg(test)]
mod tests;
