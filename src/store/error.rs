//! Why a store could not be opened or saved (`StoreError`), and why one item could not be
//! read (`ItemError`).

use std::io;
use std::path::PathBuf;

use serde_json::Value;

use crate::model::FieldError;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{path}: not a result set: {message}")]
    Document { path: PathBuf, message: String },
    /// A folder where a result set is expected (`bench::folder_error` says what to do).
    #[error("{path}: not a result set: is a folder")]
    Folder { path: PathBuf },
    #[error(
        "{path}: the file was changed by another program since it was read; not overwriting it (reopen it to see the changes)"
    )]
    Conflict { path: PathBuf },
    #[error("{path}: the file is read-only for you; not overwriting it (make it writable to save)")]
    ReadOnly { path: PathBuf },
    #[error(
        "{path}: the file belongs to another user (uid {uid}, gid {gid}) and saving would change its owner; not overwriting it"
    )]
    Owner { path: PathBuf, uid: u32, gid: u32 },
    #[error(
        "{path}: not a regular file ({kind}); verdict reads result sets from regular files (or symlinks to them)"
    )]
    NotRegular { path: PathBuf, kind: &'static str },
    #[error("{path}: {what}: {message}")]
    Item {
        path: PathBuf,
        what: String,
        message: String,
    },
}

/// Why one item could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ItemError {
    #[error("invalid UTF-8 at byte {0} of the item")]
    Utf8(usize),
    #[error("malformed JSON: {0}")]
    Syntax(String),
    #[error("{0}")]
    Field(#[from] FieldError),
    #[error("an item must be a JSON object, found {0}")]
    NotObject(&'static str),
    #[error("no item {0} (the set has fewer items)")]
    NoSuchItem(usize),
    #[error(
        "the file was changed in place by another program since it was opened; reopen it to see it (your verdicts are safe in the journal)"
    )]
    ChangedOnDisk,
}

impl ItemError {
    /// The field the error is about, if it names one.
    pub fn field(&self) -> Option<&str> {
        match self {
            ItemError::Field(f) => Some(&f.field),
            _ => None,
        }
    }
}

/// Why `text` did not parse into a typed view that failed with `fe`: its JSON's syntax, or
/// the field.
pub fn classify_parse_error(text: &str, fe: FieldError) -> ItemError {
    // serde_path_to_error reports syntax errors at the path it had reached; tell them apart
    // from type errors by checking the JSON itself.
    match serde_json::from_str::<serde::de::IgnoredAny>(text) {
        Err(e) => ItemError::Syntax(e.to_string()),
        Ok(_) => {
            let first = text.trim_start().as_bytes().first().copied();
            if first != Some(b'{') {
                let v: Value = serde_json::from_str(text).unwrap_or(Value::Null);
                ItemError::NotObject(crate::model::kind(&v))
            } else {
                ItemError::Field(fe)
            }
        }
    }
}
