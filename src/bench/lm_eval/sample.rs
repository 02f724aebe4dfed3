//! One logged sample, read from its line: the prompt, the answer key, what the model
//! answered (the raw generation and the filtered answer, or each choice's
//! log-likelihood), and the harness's metric values. Reading never fails: a field that is
//! missing or of another shape reads as absent, and the line's JSON stays as it is.

use serde_json::{Map, Value};

/// What the model answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A `generate_until` task (gsm8k): the raw generation(s) and the answer the task's
    /// filter took from them (`[invalid]` when the filter found none).
    Generated { raw: Vec<String>, filtered: String },
    /// A multiple-choice task (arc_easy, mmlu): one loglikelihood request per choice.
    Choice(Choices),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Choices {
    /// Each choice's continuation (`arg_1` of its request, the leading space kept).
    pub texts: Vec<String>,
    /// Each choice's log-likelihood, when readable.
    pub loglikelihoods: Vec<Option<f64>>,
    /// The key's choice (the `target` as a 0-based index, or the choice whose text it is).
    pub gold: Option<usize>,
}

impl Choices {
    /// The model's choice as `acc` scores it: the highest log-likelihood.
    pub fn picked(&self) -> Option<usize> {
        argmax(self.loglikelihoods.iter().copied())
    }

    /// The model's choice as `acc_norm` scores it: the highest log-likelihood per
    /// character of the choice (lm-eval divides by the choice's length).
    pub fn picked_norm(&self) -> Option<usize> {
        argmax(self.loglikelihoods.iter().zip(&self.texts).map(|(l, t)| {
            let n = t.trim_start().chars().count().max(1) as f64;
            l.map(|l| l / n)
        }))
    }
}

/// The first index of the largest value, when every value is there.
fn argmax(xs: impl Iterator<Item = Option<f64>>) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, x) in xs.enumerate() {
        let x = x?;
        if best.is_none_or(|(_, b)| x > b) {
            best = Some((i, x));
        }
    }
    best.map(|(i, _)| i)
}

#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// `doc_id`, as its JSON text.
    pub doc_id: String,
    /// The filter this line's `filtered_resps` and metrics come from (`strict-match`).
    pub filter: Option<String>,
    /// The answer key, as text.
    pub target: String,
    /// The prompt the model was given (the first request's `arg_0`).
    pub prompt: String,
    pub answer: Answer,
    /// The harness's metrics, in the order of `metrics`, with their values on this line.
    pub metrics: Vec<(String, Option<f64>)>,
}

impl Sample {
    pub fn read(obj: &Map<String, Value>) -> Sample {
        let requests = requests(obj.get("arguments"));
        let prompt = requests
            .first()
            .and_then(|r| r.first())
            .map(|v| text(v))
            .unwrap_or_default();
        let target = obj.get("target").map(text).unwrap_or_default();
        let filtered = obj.get("filtered_resps").and_then(Value::as_array);
        let answer = match filtered.filter(|f| !f.is_empty() && f.iter().all(is_loglikelihood)) {
            Some(f) => {
                let texts: Vec<String> = (0..f.len())
                    .map(|i| {
                        requests
                            .get(i)
                            .and_then(|r| r.get(1))
                            .map(|v| text(v))
                            .unwrap_or_default()
                    })
                    .collect();
                let loglikelihoods = f.iter().map(|p| p.get(0).and_then(number)).collect();
                let gold = target
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|&g| g < f.len())
                    .or_else(|| texts.iter().position(|t| t.trim() == target.trim()));
                Answer::Choice(Choices {
                    texts,
                    loglikelihoods,
                    gold,
                })
            }
            None => Answer::Generated {
                raw: strings(obj.get("resps")),
                filtered: strings(obj.get("filtered_resps"))
                    .into_iter()
                    .next()
                    .unwrap_or_default(),
            },
        };
        let names: Vec<String> = match obj.get("metrics").and_then(Value::as_array) {
            Some(m) => m
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
            // Older harness versions do not list them: the usual ones present.
            None => ["acc", "acc_norm", "exact_match", "em", "f1", "mc1", "mc2"]
                .into_iter()
                .filter(|k| obj.contains_key(*k))
                .map(str::to_string)
                .collect(),
        };
        let metrics = names
            .into_iter()
            .map(|n| {
                let v = obj.get(&n).and_then(number);
                (n, v)
            })
            .collect();
        Sample {
            doc_id: obj.get("doc_id").map(text).unwrap_or_default(),
            filter: obj
                .get("filter")
                .and_then(Value::as_str)
                .map(str::to_string),
            target,
            prompt,
            answer,
            metrics,
        }
    }

    /// The metric the reviewer's verdict corrects: the first the harness lists
    /// (`exact_match` for gsm8k, `acc` for multiple choice), with its value.
    pub fn primary(&self) -> Option<(&str, Option<f64>)> {
        self.metrics.first().map(|(n, v)| (n.as_str(), *v))
    }
}

/// The requests' arguments: `{"gen_args_0": {"arg_0": …, "arg_1": …}, …}` as the harness
/// writes them, or the older `[[arg_0, arg_1], …]`.
fn requests(v: Option<&Value>) -> Vec<Vec<&Value>> {
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

/// `[loglikelihood, is_greedy]`, as numbers and booleans or as their text.
fn is_loglikelihood(v: &Value) -> bool {
    matches!(v.as_array(), Some(p) if p.len() == 2 && number(&p[0]).is_some()
        && matches!(&p[1], Value::Bool(_) | Value::String(_)) && p[1].as_str().is_none_or(|s| s == "True" || s == "False"))
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

/// A value as text: a string as it is, anything else as its JSON.
fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Every string in a (nested) array, in order.
fn strings(v: Option<&Value>) -> Vec<String> {
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

#[cfg(test)]
#[path = "sample_tests.rs"]
mod tests;
