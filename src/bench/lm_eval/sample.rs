//! One logged sample, read from its line: the prompt, the answer key, what the model
//! answered (the raw generation(s) and the filtered answer, each choice's log-likelihood,
//! a continuation's log-likelihood, or a rolling log-likelihood), and the harness's
//! metric values. Reading never fails: a field that is missing or of another shape reads
//! as absent, and the line's JSON stays as it is.
//!
//! The rules are lm-eval's own (`lm_eval/api/task.py`, `ConfigurableTask.process_results`
//! and `doc_to_target`, version 0.4): how a multiple-choice key names its choice(s) and
//! how each metric is aggregated ([`Agg`]).

use serde_json::{Map, Value};

use super::run::TaskConfig;

/// What the model answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// A `generate_until` task (gsm8k): the raw generation(s) (one per repeat, in order)
    /// and the answer the task's filter took from them (`[invalid]` when the filter found
    /// none).
    Generated { raw: Vec<String>, filtered: String },
    /// A `multiple_choice` task (arc_easy, mmlu): one loglikelihood request per choice.
    Choice(Choices),
    /// A `loglikelihood` task (lambada): the continuation's log-likelihood and whether it
    /// is the model's greedy continuation (the harness's `acc` is `is_greedy`).
    Loglikelihood {
        continuation: String,
        loglikelihood: Option<f64>,
        is_greedy: Option<bool>,
    },
    /// A `loglikelihood_rolling` task (wikitext): the text's total log-likelihood.
    Rolling { loglikelihood: Option<f64> },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Choices {
    /// Each choice's continuation (`arg_1` of its request, the leading delimiter kept).
    pub texts: Vec<String>,
    /// Each choice's log-likelihood, when readable.
    pub loglikelihoods: Vec<Option<f64>>,
    /// Each choice's `is_greedy`, when readable.
    pub greedy: Vec<Option<bool>>,
    /// The key's choices, as the harness reads the target ([`Key`]): one, several (a
    /// list target), or none (a target that names no choice: the harness scores 0).
    pub gold: Vec<usize>,
    /// How the target was read.
    pub key: Key,
}

/// How a multiple-choice target names its choice. lm-eval writes every target as text
/// (`str(target)`), so `"2"` may be index 2 or the choice whose text is `2`: the harness
/// reads an `int` as an index, a `str` as a choice's text, a list as several indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Index,
    Text,
    List,
}

impl Key {
    /// What the target was read as: "an index", "a choice's text", "a list of indices".
    pub fn describe(self) -> &'static str {
        match self {
            Key::Index => "an index",
            Key::Text => "a choice's text",
            Key::List => "a list of indices",
        }
    }
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

    pub fn is_gold(&self, i: usize) -> bool {
        self.gold.contains(&i)
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

/// A metric's value on one line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MetricValue {
    Number(f64),
    /// Two numbers: `[loglikelihood, words or bytes]` of the rolling metrics, or the
    /// `[gold, pred]` of `f1` and `mcc`.
    Pair(f64, f64),
    /// Anything else (`likelihood`'s `[gold, [lls]]`, text): shown, not aggregated.
    Other,
}

impl MetricValue {
    pub fn number(self) -> Option<f64> {
        match self {
            MetricValue::Number(x) => Some(x),
            _ => None,
        }
    }
}

/// How the harness aggregates a metric over the samples (`lm_eval/api/metrics.py`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Agg {
    /// `mean`: the mean of the values (acc, exact_match).
    Mean,
    /// `perplexity`: exp(−mean loglikelihood).
    Perplexity,
    /// `weighted_perplexity`: exp(−Σ loglikelihood / Σ weight) (word, byte perplexity).
    WeightedPerplexity,
    /// `bits_per_byte`: −Σ loglikelihood / Σ bytes / ln 2.
    BitsPerByte,
    /// Another aggregation (`f1`, `bleu`, a task's own): verdict does not recompute it;
    /// the harness's figure comes from `results_*.json`.
    Other(String),
}

impl Agg {
    /// The harness's name of the aggregation.
    pub fn from_name(name: &str) -> Agg {
        match name {
            "mean" => Agg::Mean,
            "perplexity" => Agg::Perplexity,
            "weighted_perplexity" => Agg::WeightedPerplexity,
            "bits_per_byte" => Agg::BitsPerByte,
            other => Agg::Other(other.to_string()),
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Agg::Mean => "mean",
            Agg::Perplexity => "perplexity",
            Agg::WeightedPerplexity => "weighted_perplexity",
            Agg::BitsPerByte => "bits_per_byte",
            Agg::Other(s) => s,
        }
    }

    /// The aggregation lm-eval registers for a metric of its own (`register_metric`);
    /// any other metric aggregates by `mean`.
    pub fn default_for(metric: &str) -> Agg {
        match metric {
            "perplexity" => Agg::Perplexity,
            "word_perplexity" | "byte_perplexity" => Agg::WeightedPerplexity,
            "bits_per_byte" => Agg::BitsPerByte,
            "f1" => Agg::Other("f1".into()),
            "mcc" => Agg::Other("matthews_corrcoef".into()),
            "brier_score" | "bleu" | "chrf" | "chrf++" | "ter" | "bypass" => {
                Agg::Other(metric.into())
            }
            _ => Agg::Mean,
        }
    }

    /// A mean of per-sample scores: the one kind of figure a reviewer's verdict (1 or 0)
    /// can stand in for. A perplexity is not a mean of scores: verdicts leave it alone.
    pub fn is_mean(&self) -> bool {
        *self == Agg::Mean
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    pub name: String,
    pub value: MetricValue,
    pub agg: Agg,
}

/// The JSON kind of a `doc` field whose text is the target: how the harness had it
/// before writing it as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Int,
    Str,
    List,
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
    pub metrics: Vec<Metric>,
    /// The `doc` fields whose text is the target, with their JSON kind.
    target_fields: Vec<(String, Kind)>,
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
        let names: Vec<String> = match obj.get("metrics").and_then(Value::as_array) {
            Some(m) => m
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect(),
            // Older harness versions do not list them: the usual ones present.
            None => [
                "acc",
                "acc_norm",
                "exact_match",
                "em",
                "f1",
                "mc1",
                "mc2",
                "perplexity",
                "word_perplexity",
                "byte_perplexity",
                "bits_per_byte",
            ]
            .into_iter()
            .filter(|k| obj.contains_key(*k))
            .map(str::to_string)
            .collect(),
        };
        let metrics: Vec<Metric> = names
            .into_iter()
            .map(|n| {
                let value = obj.get(&n).map_or(MetricValue::Other, metric_value);
                Metric {
                    agg: Agg::default_for(&n),
                    name: n,
                    value,
                }
            })
            .collect();
        let answer = match filtered {
            Some(f) if !f.is_empty() && f.iter().all(is_loglikelihood) => {
                let texts: Vec<String> = (0..f.len())
                    .map(|i| {
                        requests
                            .get(i)
                            .and_then(|r| r.get(1))
                            .map(|v| text(v))
                            .unwrap_or_default()
                    })
                    .collect();
                let loglikelihoods: Vec<Option<f64>> =
                    f.iter().map(|p| p.get(0).and_then(number)).collect();
                let greedy: Vec<Option<bool>> =
                    f.iter().map(|p| p.get(1).and_then(boolean)).collect();
                let single = f.len() == 1
                    && !metrics.iter().any(|m| {
                        matches!(
                            m.name.as_str(),
                            "acc_norm" | "acc_bytes" | "acc_mutual_info" | "brier_score"
                        )
                    });
                if single {
                    Answer::Loglikelihood {
                        continuation: texts.into_iter().next().unwrap_or_default(),
                        loglikelihood: loglikelihoods[0],
                        is_greedy: greedy[0],
                    }
                } else {
                    Answer::Choice(Choices {
                        texts,
                        loglikelihoods,
                        greedy,
                        gold: Vec::new(),
                        key: Key::Index,
                    })
                }
            }
            // A number (lm-eval writes it as text, `"-15.4"`; a generated answer can be
            // `"42"` too: text is a log-likelihood only beside the rolling metrics' pairs).
            Some(f)
                if f.len() == 1
                    && number(&f[0]).is_some()
                    && (f[0].is_number()
                        || metrics
                            .iter()
                            .any(|m| matches!(m.value, MetricValue::Pair(..)))) =>
            {
                Answer::Rolling {
                    loglikelihood: number(&f[0]),
                }
            }
            _ => Answer::Generated {
                raw: strings(obj.get("resps")),
                filtered: strings(obj.get("filtered_resps"))
                    .into_iter()
                    .next()
                    .unwrap_or_default(),
            },
        };
        let target_fields = match obj.get("doc") {
            Some(Value::Object(doc)) => doc
                .iter()
                .filter_map(|(k, v)| {
                    let kind = match v {
                        Value::Number(n) if n.is_i64() || n.is_u64() => Kind::Int,
                        Value::String(_) => Kind::Str,
                        Value::Array(_) => Kind::List,
                        _ => return None,
                    };
                    (python_str(v).as_deref() == Some(target.as_str())).then(|| (k.clone(), kind))
                })
                .collect(),
            _ => Vec::new(),
        };
        let mut s = Sample {
            doc_id: obj.get("doc_id").map(text).unwrap_or_default(),
            filter: obj
                .get("filter")
                .and_then(Value::as_str)
                .map(str::to_string),
            target,
            prompt,
            answer,
            metrics,
            target_fields,
        };
        s.apply(None);
        s
    }

    /// Read the key and the metrics' aggregations as the task's configuration says
    /// (from the run's `results_*.json`; `None`: from the line alone).
    pub fn apply(&mut self, config: Option<&TaskConfig>) {
        if let Some(c) = config {
            for m in &mut self.metrics {
                if let Some(a) = c.aggregations.get(&m.name) {
                    m.agg = Agg::from_name(a);
                }
            }
            // A task the configuration says is multiple choice with one choice, or a
            // loglikelihood task read as a choice: as the configuration says.
            match (c.output_type.as_deref(), &self.answer) {
                (Some("multiple_choice"), Answer::Loglikelihood { .. }) => {
                    if let Answer::Loglikelihood {
                        continuation,
                        loglikelihood,
                        is_greedy,
                    } = self.answer.clone()
                    {
                        self.answer = Answer::Choice(Choices {
                            texts: vec![continuation],
                            loglikelihoods: vec![loglikelihood],
                            greedy: vec![is_greedy],
                            gold: Vec::new(),
                            key: Key::Index,
                        });
                    }
                }
                (Some("loglikelihood"), Answer::Choice(ch)) if ch.texts.len() == 1 => {
                    self.answer = Answer::Loglikelihood {
                        continuation: ch.texts[0].clone(),
                        loglikelihood: ch.loglikelihoods[0],
                        is_greedy: ch.greedy[0],
                    };
                }
                _ => {}
            }
        }
        let key = self.key_kind(config);
        let target = self.target.clone();
        let metrics = self.metrics.clone();
        if let Answer::Choice(ch) = &mut self.answer {
            let delimiter = config
                .and_then(|c| c.target_delimiter.as_deref())
                .unwrap_or(" ");
            let key = key.unwrap_or_else(|| guess_key(&target, ch, delimiter, &metrics));
            ch.key = key;
            ch.gold = gold(&target, key, ch, delimiter);
        }
    }

    /// How the harness had the target, when the configuration or the `doc` says.
    fn key_kind(&self, config: Option<&TaskConfig>) -> Option<Key> {
        let field_kind = |name: &str| {
            self.target_fields
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, k)| *k)
        };
        let from_kind = |k: Kind| match k {
            Kind::Int => Key::Index,
            Kind::Str => Key::Text,
            Kind::List => Key::List,
        };
        if let Some(dt) = config.and_then(|c| c.doc_to_target.as_ref()) {
            match dt {
                Value::Number(_) => return Some(Key::Index),
                Value::Array(_) => return Some(Key::List),
                Value::String(s) => {
                    if let Some(k) = field_kind(s) {
                        return Some(from_kind(k));
                    }
                    // A template: its text is the target; the harness reads digits as an
                    // index when the task has choices, `[...]` as a list.
                    if s.contains("{{") {
                        let t = self.target.as_str();
                        return Some(if !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()) {
                            Key::Index
                        } else if t.starts_with('[') && t.ends_with(']') && t.len() >= 2 {
                            Key::List
                        } else {
                            Key::Text
                        });
                    }
                }
                _ => {}
            }
        }
        // The doc's fields whose text is the target: when they agree on a kind, the
        // target was that kind (a task's `doc_to_target` names a field far more often
        // than it renders a template).
        let mut kinds = self.target_fields.iter().map(|(_, k)| *k);
        let first = kinds.next()?;
        kinds.all(|k| k == first).then(|| from_kind(first))
    }

    /// The metric a reviewer's verdict stands in for: the first the harness lists that
    /// is a mean of per-sample scores (`exact_match` for gsm8k, `acc` for multiple
    /// choice and for a loglikelihood task after its `perplexity`), with its value here.
    /// A perplexity, or a task with no such metric, has none: verdicts do not change it.
    pub fn primary(&self) -> Option<(&str, Option<f64>)> {
        self.metrics
            .iter()
            .find(|m| m.agg.is_mean() && !matches!(m.value, MetricValue::Pair(..)))
            .map(|m| (m.name.as_str(), m.value.number()))
    }

    /// The value of metric `name` here.
    pub fn metric(&self, name: &str) -> Option<MetricValue> {
        self.metrics
            .iter()
            .find(|m| m.name == name)
            .map(|m| m.value)
    }
}

/// The choice text of a request's continuation: without the task's target delimiter.
fn choice_text<'a>(t: &'a str, delimiter: &str) -> &'a str {
    t.strip_prefix(delimiter).unwrap_or(t)
}

/// The choices the target names, read as `key`.
fn gold(target: &str, key: Key, ch: &Choices, delimiter: &str) -> Vec<usize> {
    let n = ch.texts.len();
    match key {
        Key::Index => target
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|&g| g < n)
            .into_iter()
            .collect(),
        Key::Text => ch
            .texts
            .iter()
            .position(|t| choice_text(t, delimiter) == target)
            .into_iter()
            .collect(),
        Key::List => {
            let mut out: Vec<usize> = serde_json::from_str::<Vec<Value>>(target)
                .unwrap_or_default()
                .iter()
                .filter_map(Value::as_u64)
                .filter_map(|g| usize::try_from(g).ok())
                .filter(|&g| g < n)
                .collect();
            out.dedup();
            out
        }
    }
}

/// The key's reading when neither the configuration nor the `doc` says: a list is a
/// list; a target that is a choice's text but no index is text, and the reverse an
/// index; when it could be both, the reading that agrees with the harness's own scores
/// on this line (`acc`, `acc_norm`, `exact_match`); else an index.
fn guess_key(target: &str, ch: &Choices, delimiter: &str, metrics: &[Metric]) -> Key {
    let t = target.trim();
    if t.starts_with('[') && t.ends_with(']') {
        return Key::List;
    }
    let as_index = gold(target, Key::Index, ch, delimiter);
    let as_text = gold(target, Key::Text, ch, delimiter);
    match (as_index.is_empty(), as_text.is_empty()) {
        (false, true) => return Key::Index,
        (true, false) => return Key::Text,
        (true, true) => return Key::Index,
        (false, false) => {}
    }
    let agrees = |g: &[usize]| {
        metrics.iter().all(|m| {
            let want = match m.name.as_str() {
                "acc" => ch.picked().map(|p| g.contains(&p)),
                "acc_norm" => ch.picked_norm().map(|p| g.contains(&p)),
                "exact_match" => g.first().and_then(|&i| ch.greedy.get(i).copied().flatten()),
                _ => return true,
            };
            match (want, m.value.number()) {
                (Some(w), Some(v)) => (v == 1.0) == w,
                _ => true,
            }
        })
    };
    if !agrees(&as_index) && agrees(&as_text) {
        Key::Text
    } else {
        Key::Index
    }
}

/// A JSON value as Python's `str()` writes it, for the values a target can be: text,
/// an integer, a list of integers or of texts.
fn python_str(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
        Value::Array(a) => {
            let parts: Option<Vec<String>> = a
                .iter()
                .map(|x| match x {
                    Value::String(s) if !s.contains('\'') => Some(format!("'{s}'")),
                    Value::Number(n) if n.is_i64() || n.is_u64() => Some(n.to_string()),
                    _ => None,
                })
                .collect();
            Some(format!("[{}]", parts?.join(", ")))
        }
        _ => None,
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

/// A metric's value: a number (or `true`/`false`), a pair of numbers, or other.
fn metric_value(v: &Value) -> MetricValue {
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

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

fn boolean(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s == "True" => Some(true),
        Value::String(s) if s == "False" => Some(false),
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
