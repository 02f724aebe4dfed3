//! [`Loose`]: a JSON value of any shape, as a typed view reads a field whose shape the
//! file does not fix (docs/format.md: CHARTOM's `fact.key` and `fact.human_answers`,
//! CharToM-QA's `judge.bonus` and `judge.penalty` may be numbers, texts, lists or
//! anything a script wrote).
//!
//! It answers every question the grading asks exactly as `serde_json::Value` (with
//! `arbitrary_precision`) answers it — [`Loose::as_u64`], [`Loose::as_f64`],
//! [`Loose::as_str`], and the value's JSON text ([`Loose::to_value`]) — but an integer is
//! kept as the integer serde_json reads, not as its digits in a `String` (a `Value`
//! number is a text: issue 21, the index reads every item's). A typed view is never
//! written back (edits go through `Value`, docs/architecture.md), so nothing here
//! reaches the file's bytes.

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// The key under which serde_json (with `arbitrary_precision`) hands a number that is not
/// a 64-bit integer to a visitor: a map of this one key to the number's text (serde_json's
/// `number::TOKEN`; `loose_tests` checks that such numbers are read).
const NUMBER_TOKEN: &str = "$serde_json::private::Number";
/// The same for a raw value (`raw_value`: serde_json's `raw::TOKEN`).
const RAW_TOKEN: &str = "$serde_json::private::RawValue";

/// A JSON value of any shape (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub enum Loose {
    Null,
    Bool(bool),
    /// A number that serde_json reads as a non-negative 64-bit integer.
    U64(u64),
    /// A number that serde_json reads as a negative 64-bit integer.
    I64(i64),
    /// Any other number (a fraction, an exponent, `-0`, beyond 64 bits), as written.
    Number(String),
    String(String),
    Array(Vec<Loose>),
    /// An object (no rule reads one but as a text), as serde_json reads it.
    Object(Map<String, Value>),
}

impl Loose {
    /// `Value::as_u64`: a number written as an integer in `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Loose::U64(n) => Some(*n),
            Loose::Number(t) => t.parse().ok(),
            _ => None,
        }
    }

    /// `Value::as_f64`: a number's nearest finite `f64`.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            // (both the cast and the text's parse give the nearest f64)
            Loose::U64(n) => Some(*n as f64),
            Loose::I64(n) => Some(*n as f64),
            Loose::Number(t) => t.parse::<f64>().ok().filter(|x| x.is_finite()),
            _ => None,
        }
    }

    /// `Value::as_str`: the text of a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Loose::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_array(&self) -> bool {
        matches!(self, Loose::Array(_))
    }

    pub fn is_number(&self) -> bool {
        matches!(self, Loose::U64(_) | Loose::I64(_) | Loose::Number(_))
    }

    /// The `Value` serde_json reads from the same JSON text (its `to_string` is the
    /// value's JSON text, as shown for an odd value).
    pub fn to_value(&self) -> Value {
        match self {
            Loose::Null => Value::Null,
            Loose::Bool(b) => Value::Bool(*b),
            Loose::U64(n) => Value::Number((*n).into()),
            Loose::I64(n) => Value::Number((*n).into()),
            // what serde_json's own reader does with the text (`NumberFromString`)
            Loose::Number(t) => t
                .parse::<Number>()
                .map_or_else(|_| Value::String(t.clone()), Value::Number),
            Loose::String(s) => Value::String(s.clone()),
            Loose::Array(a) => Value::Array(a.iter().map(Loose::to_value).collect()),
            Loose::Object(m) => Value::Object(m.clone()),
        }
    }
}

impl std::fmt::Display for Loose {
    /// The value's JSON text, as `Value`'s `Display` writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Loose::U64(n) => write!(f, "{n}"),
            Loose::I64(n) => write!(f, "{n}"),
            other => write!(f, "{}", other.to_value()),
        }
    }
}

impl Loose {
    /// A number written as `text`, as serde_json's reader sorts it: an integer that fits
    /// in a `u64` (or, negative, in an `i64`, but `-0`) is that integer; any other is its
    /// text.
    fn number(text: String) -> Loose {
        match text.strip_prefix('-') {
            None => match text.parse() {
                Ok(n) => Loose::U64(n),
                Err(_) => Loose::Number(text),
            },
            Some(_) if text == "-0" => Loose::Number(text),
            Some(_) => match text.parse() {
                Ok(n) => Loose::I64(n),
                Err(_) => Loose::Number(text),
            },
        }
    }
}

/// The value as read from the JSON text the `Value` stands for (tests build items from
/// `json!`).
impl From<Value> for Loose {
    fn from(v: Value) -> Loose {
        match v {
            Value::Null => Loose::Null,
            Value::Bool(b) => Loose::Bool(b),
            Value::Number(n) => Loose::number(n.to_string()),
            Value::String(s) => Loose::String(s),
            Value::Array(a) => Loose::Array(a.into_iter().map(Loose::from).collect()),
            Value::Object(m) => Loose::Object(m),
        }
    }
}

impl<'de> Deserialize<'de> for Loose {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Loose, D::Error> {
        d.deserialize_any(LooseVisitor)
    }
}

struct LooseVisitor;

impl<'de> Visitor<'de> for LooseVisitor {
    type Value = Loose;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Loose, E> {
        Ok(Loose::Bool(b))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Loose, E> {
        Ok(Loose::U64(n))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Loose, E> {
        // (serde_json gives a non-negative integer as a u64; another deserializer may not)
        Ok(match u64::try_from(n) {
            Ok(u) => Loose::U64(u),
            Err(_) => Loose::I64(n),
        })
    }
    fn visit_f64<E>(self, x: f64) -> Result<Loose, E> {
        // as `Value` reads it: a finite float is a number, else null
        Ok(Number::from_f64(x).map_or(Loose::Null, |n| Loose::Number(n.to_string())))
    }
    fn visit_str<E>(self, s: &str) -> Result<Loose, E> {
        Ok(Loose::String(s.to_string()))
    }
    fn visit_string<E>(self, s: String) -> Result<Loose, E> {
        Ok(Loose::String(s))
    }
    fn visit_unit<E>(self) -> Result<Loose, E> {
        Ok(Loose::Null)
    }
    fn visit_none<E>(self) -> Result<Loose, E> {
        Ok(Loose::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Loose, D::Error> {
        Loose::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Loose, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element()? {
            out.push(v);
        }
        Ok(Loose::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Loose, A::Error> {
        match map.next_key_seed(FirstKeySeed)? {
            None => Ok(Loose::Object(Map::new())),
            Some(FirstKey::Number) => {
                let text: String = map.next_value()?;
                // serde_json's own reader refuses a text that is no JSON number
                // (`NumberFromString`: an object of this key written in the file)
                if !is_json_number(&text) {
                    return Err(de::Error::custom(format!("invalid number: {text:?}")));
                }
                Ok(Loose::number(text))
            }
            Some(FirstKey::Raw) => {
                let text: String = map.next_value()?;
                serde_json::from_str(&text).map_err(de::Error::custom)
            }
            Some(FirstKey::Key(first)) => {
                let mut m = Map::new();
                m.insert(first, map.next_value()?);
                while let Some((k, v)) = map.next_entry()? {
                    m.insert(k, v);
                }
                Ok(Loose::Object(m))
            }
        }
    }
}

/// Is `text` a JSON number, all of it (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`):
/// what `serde_json::Number`'s `from_str` accepts, without building one.
fn is_json_number(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

/// An object's first key, told from serde_json's number and raw-value markers without a
/// copy of the marker.
enum FirstKey {
    Number,
    Raw,
    Key(String),
}

struct FirstKeySeed;

impl<'de> DeserializeSeed<'de> for FirstKeySeed {
    type Value = FirstKey;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<FirstKey, D::Error> {
        d.deserialize_str(FirstKeyVisitor)
    }
}

struct FirstKeyVisitor;

impl<'de> Visitor<'de> for FirstKeyVisitor {
    type Value = FirstKey;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E>(self, s: &str) -> Result<FirstKey, E> {
        Ok(match s {
            NUMBER_TOKEN => FirstKey::Number,
            RAW_TOKEN => FirstKey::Raw,
            _ => FirstKey::Key(s.to_string()),
        })
    }
    fn visit_string<E>(self, s: String) -> Result<FirstKey, E> {
        Ok(match s.as_str() {
            NUMBER_TOKEN => FirstKey::Number,
            RAW_TOKEN => FirstKey::Raw,
            _ => FirstKey::Key(s),
        })
    }
}

#[cfg(test)]
#[path = "loose_tests.rs"]
mod tests;
