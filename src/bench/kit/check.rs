//! What a check reports through: the item being checked, its problems, and readers of
//! typed fields that report a wrong type.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::model::kind;
use crate::sanitize::quote;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Notice,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Notice => "notice",
        }
    }
}

/// One problem. `line` is the item's line (`None` for the whole file); `id` the item's
/// id, or the name verdict gives an item without one (`#<line>`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Problem {
    pub line: Option<u32>,
    pub id: Option<String>,
    pub field: Option<String>,
    pub severity: Severity,
    pub message: String,
}

/// What review checks need to know about the item.
#[derive(Debug, Default)]
pub(crate) struct BenchInfo {
    /// CharToM-QA: the number of bonus points.
    pub(crate) bonus_points: Option<usize>,
    /// C-VQA: the group, for checking a fixed answer.
    pub(crate) group: Option<String>,
    /// A declared benchmark: each checklist question's number of points on the item.
    pub(crate) points: std::collections::HashMap<String, usize>,
}

pub(crate) struct Ctx<'a> {
    pub(crate) out: &'a mut Vec<Problem>,
    pub(crate) line: u32,
    pub(crate) id: String,
    pub(crate) errors: usize,
}

impl Ctx<'_> {
    pub(crate) fn push(&mut self, severity: Severity, field: &str, message: String) {
        if severity == Severity::Error {
            self.errors += 1;
        }
        self.out.push(Problem {
            line: Some(self.line),
            id: Some(self.id.clone()),
            field: (!field.is_empty()).then(|| field.to_string()),
            severity,
            message,
        });
    }
    pub(crate) fn error(&mut self, field: &str, message: impl Into<String>) {
        self.push(Severity::Error, field, message.into());
    }
    pub(crate) fn warn(&mut self, field: &str, message: impl Into<String>) {
        self.push(Severity::Warning, field, message.into());
    }
    pub(crate) fn notice(&mut self, field: &str, message: impl Into<String>) {
        self.push(Severity::Notice, field, message.into());
    }

    pub(crate) fn wrong_type(&mut self, field: &str, want: &str, v: &Value) {
        self.error(field, format!("expected {want}, found {}", kind(v)));
    }

    /// A string field; `null` reads as absent.
    pub(crate) fn str<'v>(
        &mut self,
        obj: &'v Map<String, Value>,
        key: &str,
        field: &str,
    ) -> Option<&'v str> {
        match obj.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            Some(v) => {
                self.wrong_type(field, "a string", v);
                None
            }
        }
    }
    /// A string or number field (answers, raw model outputs), as text.
    pub(crate) fn text(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        field: &str,
    ) -> Option<String> {
        match obj.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            Some(Value::Bool(b)) => Some(if *b { "yes".into() } else { "no".into() }),
            Some(v) => {
                self.wrong_type(field, "a string or a number", v);
                None
            }
        }
    }
    pub(crate) fn bool(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        field: &str,
    ) -> Option<bool> {
        match obj.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(v) => {
                self.wrong_type(field, "true or false", v);
                None
            }
        }
    }
    pub(crate) fn num(&mut self, obj: &Map<String, Value>, key: &str, field: &str) -> Option<f64> {
        match obj.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::Number(n)) => match n.as_f64().filter(|x| x.is_finite()) {
                Some(x) => Some(x),
                None => {
                    self.error(field, format!("the number {n} is out of range"));
                    None
                }
            },
            Some(v) => {
                self.wrong_type(field, "a number", v);
                None
            }
        }
    }
    pub(crate) fn share(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        field: &str,
    ) -> Option<f64> {
        let x = self.num(obj, key, field)?;
        if !(0.0..=1.0).contains(&x) {
            self.error(field, format!("{x} is not in [0, 1]"));
            return None;
        }
        Some(x)
    }
    pub(crate) fn obj<'v>(
        &mut self,
        obj: &'v Map<String, Value>,
        key: &str,
        field: &str,
    ) -> Option<&'v Map<String, Value>> {
        match obj.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::Object(o)) => Some(o),
            Some(v) => {
                self.wrong_type(field, "an object", v);
                None
            }
        }
    }
    pub(crate) fn arr<'v>(
        &mut self,
        obj: &'v Map<String, Value>,
        key: &str,
        field: &str,
    ) -> Option<&'v Vec<Value>> {
        match obj.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::Array(a)) => Some(a),
            Some(v) => {
                self.wrong_type(field, "an array", v);
                None
            }
        }
    }
    /// An array of strings (each wrong element reported).
    pub(crate) fn strings(
        &mut self,
        obj: &Map<String, Value>,
        key: &str,
        field: &str,
    ) -> Option<Vec<String>> {
        let a = self.arr(obj, key, field)?;
        let mut out = Vec::with_capacity(a.len());
        for (i, v) in a.iter().enumerate() {
            match v {
                Value::String(s) => out.push(s.clone()),
                other => self.wrong_type(&format!("{field}[{i}]"), "a string", other),
            }
        }
        Some(out)
    }
    /// One of `allowed`.
    pub(crate) fn one_of<'v>(
        &mut self,
        obj: &'v Map<String, Value>,
        key: &str,
        field: &str,
        allowed: &[&str],
    ) -> Option<&'v str> {
        let s = self.str(obj, key, field)?;
        if allowed.contains(&s) {
            Some(s)
        } else {
            self.error(
                field,
                format!("{} is not one of {}", quote(s), allowed.join(", ")),
            );
            None
        }
    }
}

pub(crate) fn join(base: &str, key: &str) -> String {
    if base.is_empty() {
        key.to_string()
    } else {
        format!("{base}.{key}")
    }
}

/// A 1-based number in 1..=n from a JSON value.
pub(crate) fn index_in(v: &Value, n: usize) -> Result<usize, String> {
    match v.as_u64() {
        Some(k) if k >= 1 && (k as usize) <= n => Ok(k as usize),
        Some(k) => Err(format!(
            "{k} is not in 1..{n} (the item has {n} option{})",
            if n == 1 { "" } else { "s" }
        )),
        None => Err(format!(
            "expected a whole number ≥ 1, found {}",
            describe(v)
        )),
    }
}

pub(crate) fn describe(v: &Value) -> String {
    match v {
        Value::Number(n) => format!("{n}"),
        Value::String(s) => format!("the string {}", quote(s)),
        other => kind(other).to_string(),
    }
}

/// A ranking: every option number 1..=n once.
pub(crate) fn rank_order(v: &Value, n: usize) -> Result<(), String> {
    let Value::Array(a) = v else {
        return Err(format!(
            "expected an array of option numbers, found {}",
            kind(v)
        ));
    };
    let mut seen = vec![false; n + 1];
    for x in a {
        let k = index_in(x, n)?;
        if seen[k] {
            return Err(format!("option {k} appears twice"));
        }
        seen[k] = true;
    }
    if a.len() != n {
        return Err(format!(
            "ranks {} of the {n} options; a ranking orders all of them",
            a.len()
        ));
    }
    Ok(())
}
