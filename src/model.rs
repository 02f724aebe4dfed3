//! What every typed view of an item is read with (docs/format.md): the parse that names
//! the offending field, the readers of a text that may be a number, and the canonical
//! JSON text. The item itself, holding each benchmark's fields as the registry lists
//! them, is `bench::Item`.

use serde::{Deserialize, Deserializer};
use serde_json::Value;

mod flat;
mod keys;
mod loose;
pub(crate) use flat::{FlatFields, Key, flat_fields};
pub(crate) use keys::Keys;
pub use loose::Loose;

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

/// [`opt_string_or_number`]'s value as a type of its own (a field of [`flat_fields!`]).
pub(crate) struct TextOrNumber(pub Option<String>);

impl<'de> Deserialize<'de> for TextOrNumber {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TextOrNumber, D::Error> {
        opt_string_or_number(d).map(TextOrNumber)
    }
}

/// [`double_option`]'s value as a type of its own (a field of [`flat_fields!`]).
pub(crate) struct DoubleOption(pub Option<Option<String>>);

impl<'de> Deserialize<'de> for DoubleOption {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<DoubleOption, D::Error> {
        double_option(d).map(DoubleOption)
    }
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
