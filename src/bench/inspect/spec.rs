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

/// The notes of `reviews` (on one scorer: `stats::reviews_on`), `reviewer: note` one a
/// line, in their order.
fn notes(reviews: &indexmap::IndexMap<String, Review>) -> Option<String> {
    let lines: Vec<String> = reviews
        .iter()
        .filter_map(|(who, r)| r.note.as_ref().map(|n| format!("{who}: {n}")))
        .collect();
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

/// A row's columns of one scorer: its name, its value as scored, the verdict resolved
/// over the reviewers on it (the review's own for the headline, `scorers.<name>` for
/// another, as `verdict stats` resolves it) and their notes on it.
fn scorer_columns(row: &mut Row, it: &Item, s: &Sample, scorer: &str) {
    let reviews = super::stats::reviews_on(it, &s.headline, scorer);
    let v = crate::bench::resolve::resolve_verdict(&reviews);
    row.scorer = Some(scorer.to_string());
    row.metric = Some(scorer.to_string());
    row.harness_score = s
        .scores
        .iter()
        .find(|sc| sc.name == scorer)
        .and_then(|sc| super::edit::to_float(&sc.original));
    row.verdict = v.value;
    row.verdict_resolution = Some(v.source.label());
    row.notes = notes(&reviews);
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

    /// The generic columns, the sample's target and every scorer's value now; the
    /// headline scorer's figures ([`Spec::export_rows`] gives one row per scorer).
    fn export(&self, row: &mut Row, it: &Item, model: &str) {
        crate::bench::generic::export::fill(row, it, model);
        if let Some(s) = sample(it) {
            row.doc_id = Some(s.sample.clone());
            row.task = s.run.task.clone();
            row.epoch = Some(s.epoch);
            row.target = Some(s.target_text());
            row.metrics = Some(Value::Object(
                s.scores
                    .iter()
                    .map(|sc| (sc.name.clone(), sc.value.clone()))
                    .collect(),
            ));
            scorer_columns(row, it, s, &s.headline);
        }
    }

    /// One row per scorer of the sample, in its order (docs/stats.md, "Export columns"):
    /// a sample without scores (it failed) gives one, the headline scorer's.
    fn export_rows(&self, base: Row, it: &Item, model: &str) -> Vec<Row> {
        let mut row = base;
        self.export(&mut row, it, model);
        let Some(s) = sample(it).filter(|s| s.scores.len() > 1) else {
            return vec![row];
        };
        s.scores
            .iter()
            .map(|sc| {
                let mut r = row.clone();
                scorer_columns(&mut r, it, s, &sc.name);
                r
            })
            .collect()
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

    /// The sample's id (its epochs share it: `:` goes to the first).
    fn harness_id(&self, item: &Item) -> Option<String> {
        sample(item).map(Sample::id_text)
    }

    /// The epoch.
    fn variant(&self, item: &Item) -> Option<String> {
        sample(item).map(|s| format!("epoch {}", s.epoch))
    }

    /// The epoch, a failed sample, each two scorers whose grades differ (`choice ≠
    /// includes`, in the sample's order; a grade is right, wrong or partly right), and
    /// each key of the metadata whose value is a string, number or boolean (`key\0value`;
    /// a null, an array or an object is no value).
    fn facets(&self, item: &Item, emit: &mut dyn FnMut(crate::bench::Facet, &str)) {
        use crate::bench::Facet;
        let Some(s) = sample(item) else { return };
        emit(Facet::Epoch, &s.epoch.to_string());
        if s.scores.is_empty() {
            emit(Facet::Failed, "");
        }
        // right, wrong or partly right (C, I, P; 1, 0, 0.5): a confidence or a NaN is no
        // grade to disagree with
        let grades: Vec<(&str, f64)> = s
            .scores
            .iter()
            .filter_map(|x| Some((x.name.as_str(), super::edit::to_float(&x.value)?)))
            .filter(|(_, v)| [0.0, 0.5, 1.0].contains(v))
            .collect();
        for pair in crate::bench::kit::grades::disagreements(&grades) {
            emit(Facet::Disagree, &pair);
        }
        for (key, v) in s.metadata.iter().filter_map(Value::as_object).flatten() {
            let v = match v {
                Value::String(x) => x.clone(),
                Value::Number(_) | Value::Bool(_) => v.to_string(),
                _ => continue,
            };
            emit(Facet::Metadata, &format!("{key}\0{v}"));
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
