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

mod key;
mod metric;
mod read;
use key::*;
pub use metric::*;
use read::*;

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
    /// Which of the doc's generations this line's answer is (issue 39): the only one when
    /// the model generated once, else the first when the filter's pipeline takes it (the
    /// run's configuration says: [`takes_first`]). None for an answer of several
    /// generations (`majority_vote`: maj@k), an answer that is no generation, or a
    /// pipeline not known (no results file).
    pub generation: Option<usize>,
}

impl Sample {
    pub fn read(obj: &Map<String, Value>) -> Sample {
        let prompt = requests(obj.get("arguments"))
            .first()
            .and_then(|r| r.first())
            .map(|v| text(v))
            .unwrap_or_default();
        Sample::with_prompt(obj, prompt)
    }

    /// [`Sample::read`], the prompt moved out of `obj` rather than copied (a prompt of
    /// megabytes is the line's largest part: issue 21).
    pub fn take(mut obj: Map<String, Value>) -> Sample {
        let prompt = match first_argument(obj.get_mut("arguments")) {
            Some(Value::String(s)) => std::mem::take(s),
            Some(v) => text(v),
            None => String::new(),
        };
        Sample::with_prompt(&obj, prompt)
    }

    /// The sample of `obj` whose prompt is `prompt` (the first request's `arg_0`, which
    /// nothing else here reads).
    fn with_prompt(obj: &Map<String, Value>, prompt: String) -> Sample {
        let requests = requests(obj.get("arguments"));
        let target = obj.get("target").map(text).unwrap_or_default();
        let metrics = metrics_of(obj);
        let answer = answer_of(obj, &requests, &metrics);
        let target_fields = target_fields(obj, &target);
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
            generation: None,
        };
        s.apply(None);
        s
    }

    /// Read the key and the metrics' aggregations as the task's configuration says
    /// (from the run's `results_*.json`; `None`: from the line alone).
    pub fn apply(&mut self, config: Option<&TaskConfig>) {
        self.generation = self.generation_of(config);
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

    /// [`Sample::generation`], as the configuration (if any) gives the filter's pipeline.
    fn generation_of(&self, config: Option<&TaskConfig>) -> Option<usize> {
        let Answer::Generated { raw, .. } = &self.answer else {
            return None;
        };
        match raw.len() {
            0 => None,
            1 => Some(0),
            _ => {
                let filter = self.filter.as_deref().unwrap_or("none");
                takes_first(config?.filters.get(filter)?).then_some(0)
            }
        }
    }

    /// Does `other`, another filter's line of the same doc, answer with the same
    /// generation (the same text, taken the same way)? Then a verdict on one is a verdict
    /// on the other (issue 39): strict-match and flexible-extract of one doc; not maj@k.
    pub fn same_generation(&self, other: &Sample) -> bool {
        let same_raw = match (&self.answer, &other.answer) {
            (Answer::Generated { raw: a, .. }, Answer::Generated { raw: b, .. }) => a == b,
            _ => false,
        };
        self.generation.is_some()
            && self.generation == other.generation
            && self.doc_id == other.doc_id
            && self.filter != other.filter
            && same_raw
            && self.prompt == other.prompt
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

/// Is a filter pipeline's answer the first generation? Its functions up to its first
/// `take_first` each keep one answer per generation (lm-eval 0.4's `lm_eval/filters/`:
/// `regex`, `regex_pos`, `multi_choice_regex`, `remove_whitespace`, `lowercase`,
/// `uppercase`, `map`, `format_span`); not after `majority_vote`, `take_first_k` or a
/// function of the task's own (`custom`).
pub fn takes_first(pipeline: &[String]) -> bool {
    const PER_GENERATION: [&str; 8] = [
        "regex",
        "regex_pos",
        "multi_choice_regex",
        "remove_whitespace",
        "lowercase",
        "uppercase",
        "map",
        "format_span",
    ];
    for f in pipeline {
        match f.as_str() {
            "take_first" => return true,
            f if PER_GENERATION.contains(&f) => {}
            _ => return false,
        }
    }
    false
}

/// The line's metrics: those `metrics` names, else the usual ones present, each with
/// its value and its default aggregation.
fn metrics_of(obj: &Map<String, Value>) -> Vec<Metric> {
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
    names
        .into_iter()
        .map(|n| {
            let value = obj.get(&n).map_or(MetricValue::Other, metric_value);
            Metric {
                agg: Agg::default_for(&n),
                name: n,
                value,
            }
        })
        .collect()
}

/// The answer the filtered responses give: log-likelihoods of choices (or of one
/// continuation), a rolling log-likelihood, or a generated text.
fn answer_of(obj: &Map<String, Value>, requests: &[Vec<&Value>], metrics: &[Metric]) -> Answer {
    match obj.get("filtered_resps").and_then(Value::as_array) {
        Some(f) if !f.is_empty() && f.iter().all(is_loglikelihood) => {
            loglikelihood_answer(f, requests, metrics)
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
    }
}

/// Log-likelihood pairs `f`, one per request: the choices (their texts from the
/// requests), or one continuation when the metrics compare no choices.
fn loglikelihood_answer(f: &[Value], requests: &[Vec<&Value>], metrics: &[Metric]) -> Answer {
    let texts: Vec<String> = (0..f.len())
        .map(|i| {
            requests
                .get(i)
                .and_then(|r| r.get(1))
                .map(|v| text(v))
                .unwrap_or_default()
        })
        .collect();
    let loglikelihoods: Vec<Option<f64>> = f.iter().map(|p| p.get(0).and_then(number)).collect();
    let greedy: Vec<Option<bool>> = f.iter().map(|p| p.get(1).and_then(boolean)).collect();
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

/// The `doc` fields whose value prints as the target (Python's `str`), with their kind.
fn target_fields(obj: &Map<String, Value>, target: &str) -> Vec<(String, Kind)> {
    match obj.get("doc") {
        Some(Value::Object(doc)) => doc
            .iter()
            .filter_map(|(k, v)| {
                let kind = match v {
                    Value::Number(n) if n.is_i64() || n.is_u64() => Kind::Int,
                    Value::String(_) => Kind::Str,
                    Value::Array(_) => Kind::List,
                    _ => return None,
                };
                (python_str(v).as_deref() == Some(target)).then(|| (k.clone(), kind))
            })
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests;
