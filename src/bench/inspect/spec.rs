//! Inspect behind the registry: its `Spec`, and how a line made from a sample becomes an
//! item (docs/format.md, "Inspect AI logs").

use serde_json::{Map, Value};

use super::sample::{Sample, value_text};
use super::{LINE_KEY, Verdict};
use crate::bench::Layout;
use crate::bench::kit::check::{BenchInfo, Ctx};
use crate::bench::kit::row::Row;
use crate::bench::{Item, Response, Review};
use crate::model::{FieldError, Keys};

/// The rules of Inspect samples.
pub struct Inspect;

/// The sample an item was read from.
pub fn sample(item: &Item) -> Option<&Sample> {
    match &item.layout {
        Some(Layout::InspectSample(s)) => Some(s),
        _ => None,
    }
}

/// Every note on the sample, `reviewer: note` (the headline scorer's) or `reviewer on
/// <scorer>: note`, one a line, in the order of the reviews.
fn notes(it: &Item, s: &Sample) -> Option<String> {
    let mut lines = Vec::new();
    for (who, r) in &it.reviews {
        if let Some(n) = &r.note {
            lines.push(format!("{who}: {n}"));
        }
        for (scorer, sr) in &r.inspect.scorers {
            if let Some(n) = sr.note.as_ref().filter(|_| *scorer != s.headline) {
                lines.push(format!("{who} on {scorer}: {n}"));
            }
        }
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// Is a parsed line one made from an Inspect sample?
pub fn is_line(obj: &Map<String, Value>) -> bool {
    !obj.contains_key("benchmark") && obj.get(LINE_KEY).is_some_and(Value::is_object)
}

/// If a line that names no benchmark, its keys `keys`, was made from an Inspect sample,
/// map it onto `item` and return true. The sample is read from its value's text, the one
/// pass that copies it ([`is_line`]'s rule on the keys; issue 21: the line was searched
/// for the key, parsed into a `Value` map, and the sample copied out of it).
pub(crate) fn sniff(keys: &Keys, item: &mut Item) -> Result<bool, FieldError> {
    let Some(line) = keys.get(LINE_KEY) else {
        return Ok(false);
    };
    if keys.contains("benchmark") || !line.get().starts_with('{') {
        return Ok(false);
    }
    let s: Sample = serde_json::from_str(line.get()).map_err(|e| FieldError {
        field: LINE_KEY.into(),
        message: e.to_string(),
    })?;
    item.benchmark_name = Some(crate::bench::Benchmark::Inspect.name().into());
    // The input stays the sample's (`Sample::input_text`): no copy of it as the
    // item's question.
    item.choices = s.choices.clone();
    item.responses = vec![Response {
        model: s.run.model.clone().unwrap_or_else(|| "model".into()),
        text: Some(s.completion.clone()),
        ..Response::default()
    }];
    item.layout = Some(Layout::InspectSample(Box::new(s)));
    Ok(true)
}

impl crate::bench::Spec for Inspect {
    fn check(
        &self,
        c: &mut Ctx,
        obj: &Map<String, Value>,
        _responses: &[&Map<String, Value>],
        _eval_layout: bool,
    ) -> BenchInfo {
        super::check::check_line(c, obj);
        BenchInfo::default()
    }

    /// The generic columns, and the sample's target and the headline score.
    fn export(&self, row: &mut Row, it: &Item, model: &str) {
        crate::bench::generic::export::fill(row, it, model);
        if let Some(s) = sample(it) {
            row.doc_id = Some(s.sample.clone());
            row.task = s.run.task.clone();
            row.epoch = Some(s.epoch);
            row.scorer = Some(s.headline.clone());
            row.notes = notes(it, s);
            row.target = Some(s.target_text());
            if let Some(h) = s.headline_score() {
                row.metric = Some(h.name.clone());
                row.harness_score = super::edit::to_float(&h.original);
            }
            row.metrics = Some(Value::Object(
                s.scores
                    .iter()
                    .map(|sc| (sc.name.clone(), sc.value.clone()))
                    .collect(),
            ));
        }
    }

    /// The columns of an Inspect log's rows (`verdict export`): its files hold nothing else.
    fn columns(&self) -> Option<&'static [&'static str]> {
        Some(&[
            "id",
            "line",
            "benchmark",
            "task",
            "run",
            "model",
            "doc_id",
            "epoch",
            "scorer",
            "target",
            "raw_answer",
            "metric",
            "harness_score",
            "metrics",
            "verdict",
            "verdict_resolution",
            "n_reviewers",
            "reviews",
            "notes",
            "error",
        ])
    }

    /// Done with a verdict on any of its scorers (the headline's, or `scorers.<name>`).
    fn item_verdict(&self) -> Option<fn(&Review) -> bool> {
        Some(|r| r.verdict.is_some() || r.inspect.scorers.values().any(|s| s.verdict.is_some()))
    }

    fn verdicts(&self) -> [&'static str; 3] {
        Verdict::ALL.map(Verdict::name)
    }

    /// A sample without scores (it failed): Inspect leaves it out of every figure, and
    /// no score edit can be written on it.
    fn no_grade(&self, item: &Item) -> Option<String> {
        let s = sample(item)?;
        if !s.scores.is_empty() {
            return None;
        }
        s.no_score(&s.headline, "a verdict")
    }

    /// What the log's score edits keep of a review (docs/format.md, "Inspect AI logs"):
    /// each scorer's verdict, note and the final mark; not `seconds`, and not the times,
    /// which a verdict on another scorer moves (a save compares edits the same way).
    fn kept_review(&self, r: &Review) -> Option<Review> {
        let mut k = Review {
            verdict: r.verdict.clone(),
            note: r.note.clone(),
            is_final: r.is_final.filter(|f| *f),
            ..Review::default()
        };
        for (name, s) in &r.inspect.scorers {
            if !s.is_empty() {
                k.inspect.scorers.insert(
                    name.clone(),
                    super::fields::ScorerReview {
                        at: None,
                        verdict: s.verdict.clone(),
                        note: s.note.clone(),
                    },
                );
            }
        }
        (k != Review::default()).then_some(k)
    }

    /// Wrong after review: the verdict that counts is `incorrect`, or nobody reviewed it
    /// and the headline score is 0.
    fn model_wrong(&self, item: &Item, _model: &str) -> bool {
        let v = crate::bench::resolve::resolve_verdict(&item.reviews).value;
        match v.as_deref().and_then(Verdict::parse) {
            Some(v) => v == Verdict::Incorrect,
            None => sample(item)
                .and_then(Sample::headline_score)
                .and_then(|h| super::edit::to_float(&h.value))
                .is_some_and(|x| x == 0.0),
        }
    }

    fn search_texts(&self, item: &Item, push: &mut dyn FnMut(&str)) {
        if let Some(s) = sample(item) {
            push(&s.input_text());
            push(&s.id_text());
            push(&s.completion);
            push(&s.target_text());
            for sc in &s.scores {
                if let Some(e) = &sc.explanation {
                    push(e);
                }
                push(&value_text(&sc.value));
            }
        }
    }
}
