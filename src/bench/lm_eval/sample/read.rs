//! Readers of a logged line's values, forgiving of shapes: a value of another shape
//! reads as absent.

use super::*;

/// The requests' arguments: `{"gen_args_0": {"arg_0": …, "arg_1": …}, …}` as the harness
/// writes them, or the older `[[arg_0, arg_1], …]`.
pub(super) fn requests(v: Option<&Value>) -> Vec<Vec<&Value>> {
    match v {
        Some(Value::Object(m)) => {
            let mut out = Vec::new();
            while let Some(Value::Object(args)) = m.get(&format!("gen_args_{}", out.len())) {
                let mut r = Vec::new();
                while let Some(a) = args.get(&format!("arg_{}", r.len())) {
                    r.push(a);
                }
                out.push(r);
            }
            out
        }
        Some(Value::Array(a)) => a
            .iter()
            .map(|r| match r {
                Value::Array(args) => args.iter().collect(),
                other => vec![other],
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The first request's first argument (its prompt), as [`requests`] finds it.
pub(super) fn first_argument(v: Option<&mut Value>) -> Option<&mut Value> {
    match v? {
        Value::Object(m) => match m.get_mut("gen_args_0")? {
            Value::Object(args) => args.get_mut("arg_0"),
            _ => None,
        },
        Value::Array(a) => match a.first_mut()? {
            Value::Array(args) => args.first_mut(),
            other => Some(other),
        },
        _ => None,
    }
}

/// `[loglikelihood, is_greedy]`, as numbers and booleans or as their text.
pub(super) fn is_loglikelihood(v: &Value) -> bool {
    matches!(v.as_array(), Some(p) if p.len() == 2 && number(&p[0]).is_some()
        && matches!(&p[1], Value::Bool(_) | Value::String(_)) && p[1].as_str().is_none_or(|s| s == "True" || s == "False"))
}

/// A metric's value: a number (or `true`/`false`), a pair of numbers, or other.
pub(super) fn metric_value(v: &Value) -> MetricValue {
    match v {
        Value::Array(p) if p.len() == 2 => match (number(&p[0]), number(&p[1])) {
            (Some(a), Some(b)) if !p[0].is_string() && !p[1].is_string() => MetricValue::Pair(a, b),
            _ => MetricValue::Other,
        },
        Value::Number(_) | Value::Bool(_) => {
            number(v).map_or(MetricValue::Other, MetricValue::Number)
        }
        _ => MetricValue::Other,
    }
}

pub(super) fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

pub(super) fn boolean(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s == "True" => Some(true),
        Value::String(s) if s == "False" => Some(false),
        _ => None,
    }
}

/// A value as text: a string as it is, anything else as its JSON.
pub(super) fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Every string in a (nested) array, in order.
pub(super) fn strings(v: Option<&Value>) -> Vec<String> {
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            Value::Null => {}
            other => out.push(text(other)),
        }
    }
    let mut out = Vec::new();
    if let Some(v) = v {
        walk(v, &mut out);
    }
    out
}
