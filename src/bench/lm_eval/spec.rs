//! lm-eval behind the registry: its `Spec`, and how a sample line becomes an item
//! (docs/format.md, "lm-evaluation-harness sample logs").

use serde_json::{Map, Value};

use super::sample::{Answer, MetricValue, Sample};
use super::{Verdict, is_sample_by};
use crate::bench::Layout;
use crate::bench::kit::check::{BenchInfo, Ctx};
use crate::bench::kit::row::Row;
use crate::bench::{Item, Response, Review};
use crate::model::{FieldError, Keys};

/// The model of a sample until its file names it ([`name_from_file`]).
pub const UNNAMED_MODEL: &str = "model";

/// The rules of lm-eval samples.
pub struct LmEval;

impl crate::bench::Spec for LmEval {
    /// The harness's keys are its own; the reviews are checked as every benchmark's, and
    /// a verdict other than the three is flagged.
    fn check(
        &self,
        c: &mut Ctx,
        obj: &Map<String, Value>,
        _responses: &[&Map<String, Value>],
        _eval_layout: bool,
    ) -> BenchInfo {
        super::check::check_sample(c, obj);
        if let Some(Value::Object(reviews)) = obj.get("reviews") {
            for (name, r) in reviews {
                if let Some(Value::String(v)) = r.get("verdict")
                    && Verdict::parse(v).is_none()
                {
                    c.warn(
                        &format!("reviews.{name}.verdict"),
                        format!(
                            "an lm-eval sample's verdict is correct, incorrect or ambiguous-key, not {v:?}"
                        ),
                    );
                }
            }
        }
        BenchInfo::default()
    }

    /// The generic columns, and the sample's doc_id, filter, target and metrics.
    fn export(&self, row: &mut Row, it: &Item, model: &str) {
        crate::bench::generic::export::fill(row, it, model);
        if let Some(s) = sample(it) {
            // (its JSON text: a number stays a number)
            row.doc_id = Some(
                serde_json::from_str(&s.doc_id).unwrap_or_else(|_| Value::String(s.doc_id.clone())),
            );
            row.filter = s.filter.clone();
            row.target = Some(s.target.clone());
            if let Some((m, v)) = s.primary() {
                row.metric = Some(m.to_string());
                row.harness_score = v;
            }
            row.metrics = Some(Value::Object(
                s.metrics
                    .iter()
                    .map(|m| (m.name.clone(), metric_json(m.value)))
                    .collect(),
            ));
        }
    }

    /// The columns of an lm-eval samples file's rows (`verdict export`): its files hold
    /// nothing else.
    fn columns(&self) -> Option<&'static [&'static str]> {
        Some(&[
            "id",
            "line",
            "benchmark",
            "task",
            "run",
            "model",
            "doc_id",
            "filter",
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

    /// The verdict on the sample.
    fn item_verdict(&self) -> Option<fn(&Review) -> bool> {
        Some(|r| r.verdict.is_some())
    }

    fn verdicts(&self) -> [&'static str; 3] {
        Verdict::ALL.map(Verdict::name)
    }

    /// A sample none of whose metrics is a mean of scores (a rolling perplexity's
    /// log-likelihoods): no figure uses a verdict on it.
    fn no_grade(&self, item: &Item) -> Option<String> {
        sample(item)?.primary().is_none().then(|| {
            "no figure uses a correct / incorrect verdict on this sample (its metrics are not means of scores: a perplexity's log-likelihood); a note (i) is kept".to_string()
        })
    }

    /// Wrong after review: the verdict that counts is `incorrect`, or nobody reviewed it
    /// and the harness scored it 0.
    fn model_wrong(&self, item: &Item, _model: &str) -> bool {
        let v = crate::bench::resolve::resolve_verdict(&item.reviews).value;
        match v.as_deref().and_then(Verdict::parse) {
            Some(v) => v == Verdict::Incorrect,
            None => sample(item)
                .and_then(Sample::primary)
                .is_some_and(|(_, v)| v == Some(0.0)),
        }
    }

    /// A line has no id: its doc_id and filter name it.
    fn items_have_ids(&self) -> bool {
        false
    }

    /// `doc <doc_id>` (a number alone is an item number to `:`).
    fn harness_id(&self, item: &Item) -> Option<String> {
        sample(item).map(|s| format!("doc {}", s.doc_id))
    }

    /// Another filter's line of the same doc and model that takes the same generation:
    /// its filter.
    fn same_answer(&self, item: &Item, other: &Item) -> Option<String> {
        let (a, b) = (sample(item)?, sample(other)?);
        let model = |i: &Item| i.responses.first().map(|r| r.model.clone());
        (a.same_generation(b) && model(item) == model(other))
            .then(|| b.filter.clone().unwrap_or_else(|| "none".into()))
    }

    /// The filter: strict-match and flexible-extract of one doc are not the same answer.
    fn variant(&self, item: &Item) -> Option<String> {
        sample(item).map(|s| s.filter.clone().unwrap_or_else(|| "none".into()))
    }

    /// The sample's filter, and each two of its right-or-wrong metrics that disagree
    /// (`acc ≠ acc_norm`), for the reviewer's filter menu.
    fn facets(&self, item: &Item, emit: &mut dyn FnMut(crate::bench::Facet, &str)) {
        use crate::bench::Facet;
        let Some(s) = sample(item) else { return };
        emit(Facet::LmEvalFilter, s.filter.as_deref().unwrap_or("none"));
        let scored: Vec<(&str, f64)> = s
            .metrics
            .iter()
            .filter_map(|m| Some((m.name.as_str(), m.value.number()?)))
            .filter(|(_, x)| *x == 0.0 || *x == 1.0)
            .collect();
        for pair in crate::bench::kit::grades::disagreements(&scored) {
            emit(Facet::Disagree, &pair);
        }
    }

    fn search_texts(&self, item: &Item, push: &mut dyn FnMut(&str)) {
        if let Some(s) = sample(item) {
            push(&s.prompt);
        }
    }
}

fn metric_json(v: MetricValue) -> Value {
    match v {
        MetricValue::Number(x) => serde_json::json!(x),
        MetricValue::Pair(a, b) => serde_json::json!([a, b]),
        MetricValue::Other => Value::Null,
    }
}

/// The sample an item was read from.
pub fn sample(item: &Item) -> Option<&Sample> {
    match &item.layout {
        Some(Layout::LmEvalSample(s)) => Some(s),
        _ => None,
    }
}

/// If `line`, a line that names no benchmark, is a logged sample (it has `doc_id`,
/// `arguments` and `filtered_resps`), map it onto `item` and return true. The sample is
/// read from the line's values parsed once, its prompt moved out of them (issue 21).
pub(crate) fn sniff(line: &Keys, item: &mut Item) -> Result<bool, FieldError> {
    if !is_sample_by(|k| line.contains(k)) {
        return Ok(false);
    }
    let obj = line.map().map_err(|e| FieldError {
        field: "(item)".into(),
        message: e.to_string(),
    })?;
    let s = Sample::take(obj);
    item.benchmark_name = Some("lm-eval".into());
    // The line has no id: it is named `#<line>`, as every line without one
    // (docs/format.md); the view shows its `doc_id` and `filter`.
    item.responses = vec![Response {
        model: UNNAMED_MODEL.into(),
        text: Some(response_text(&s)),
        ..Response::default()
    }];
    item.layout = Some(Layout::LmEvalSample(std::sync::Arc::new(s)));
    Ok(true)
}

/// The model's answer as one text: the filtered answer, the picked choice, or the
/// log-likelihood of a loglikelihood task.
fn response_text(s: &Sample) -> String {
    match &s.answer {
        Answer::Generated { filtered, .. } => filtered.clone(),
        Answer::Choice(c) => c
            .picked()
            .and_then(|i| c.texts.get(i))
            .map(|t| t.trim().to_string())
            .unwrap_or_default(),
        Answer::Loglikelihood {
            loglikelihood,
            is_greedy,
            ..
        } => format!(
            "loglikelihood {}, is_greedy {}",
            loglikelihood.map_or_else(|| "-".into(), |x| x.to_string()),
            match is_greedy {
                Some(true) => "True",
                Some(false) => "False",
                None => "-",
            }
        ),
        Answer::Rolling { loglikelihood } => format!(
            "loglikelihood {}",
            loglikelihood.map_or_else(|| "-".into(), |x| x.to_string())
        ),
    }
}

/// Complete a sample from its file: read its key and metrics as the run's configuration
/// says (the run's `results_*.json`), and name its model (lm-eval's
/// `model_name_sanitized`, else the folder lm-eval wrote the file into).
pub(crate) fn name_from_file(item: &mut Item, file: &crate::bench::FileInfo) {
    let run = file.lm_eval.as_ref();
    if let Some(Layout::LmEvalSample(s)) = &mut item.layout
        && let Some(c) = run.and_then(|r| r.config.as_ref())
    {
        // Not shared yet (the item was just read): no copy.
        let s = std::sync::Arc::make_mut(s);
        s.apply(Some(c));
        let text = response_text(s);
        if let [r] = item.responses.as_mut_slice() {
            r.text = Some(text);
        }
    }
    let model = match run {
        Some(r) => r.model.clone(),
        None => file.folder.clone(),
    };
    if let (Some(m), [r]) = (model, item.responses.as_mut_slice())
        && r.model == UNNAMED_MODEL
        && !m.is_empty()
    {
        r.model = m;
    }
}
