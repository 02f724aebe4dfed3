//! One row of `verdict export` (docs/format.md, "Export"): the columns every benchmark
//! fills its part of (`Spec::export`).

use serde::Serialize;
use serde_json::Value;

/// One exported row. Which fields are filled depends on the benchmark:
///
/// - CHARTOM: `raw_answer` = FACT answer, `parsed_answer` its parsed display,
///   `auto_correct` the automatic FACT grade, `correct` after a reviewer's `fact_correct`;
///   `mind`, `hmi` (given, else recomputed), `squared_error`, `human_justification`.
/// - C-VQA: `raw_answer`/`raw_counterfactual` the two raw responses, `parsed_*` what the
///   benchmark's rule reads (empty = failed), `auto_*` exact-match grades, `correct` /
///   `counterfactual_correct` after overrides, `counterfactual_fixed_correct` against the
///   reviewer-fixed key (empty when rejected); `status`, `reason`, `fixed_*`.
/// - CharToM-QA: `raw_answer` = response text, `parsed_answer` = its `choice`, `correct` =
///   choice vs key; judge and human bonus lists, covered counts and penalties.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Row {
    pub id: String,
    pub line: u32,
    pub benchmark: Option<String>,
    pub split: Option<String>,
    pub group: Option<String>,
    pub chart_pair: Option<String>,
    pub chart_type: Option<String>,
    pub chart_version: Option<String>,
    pub dimension: Option<String>,
    /// Empty for an item without responses.
    pub model: String,
    pub raw_answer: Option<String>,
    pub raw_counterfactual: Option<String>,
    pub parsed_answer: Option<String>,
    pub parsed_counterfactual: Option<String>,
    pub auto_correct: Option<bool>,
    pub auto_counterfactual_correct: Option<bool>,
    pub correct: Option<bool>,
    pub counterfactual_correct: Option<bool>,
    pub counterfactual_fixed_correct: Option<bool>,
    pub mind: Option<f64>,
    pub hmi: Option<f64>,
    pub squared_error: Option<f64>,
    /// The judge's bonus list, or its unparsable text.
    pub judge_bonus: Option<Value>,
    pub judge_covered: Option<u64>,
    pub judge_penalty: Option<String>,
    pub human_bonus: Option<Vec<u32>>,
    pub human_covered: Option<u64>,
    pub n_bonus_points: Option<u64>,
    pub human_penalty: Option<String>,
    pub human_justification: Option<String>,
    pub status: Option<String>,
    pub reason: Option<String>,
    pub fixed_question: Option<String>,
    pub fixed_answer: Option<String>,
    /// Where the response's human grades come from: `final:<r>`, `single:<r>`,
    /// `majority:<n>`, `tie:<n>`, `none`.
    pub resolution: Option<String>,
    /// The same for a C-VQA item's question verification.
    pub verification_resolution: Option<String>,
    /// Reviews on the item.
    pub n_reviewers: u64,
    /// The item's `reviews` object as in the file.
    pub reviews: Option<Value>,
    /// Why the item could not be read.
    pub error: Option<String>,
    /// Other benchmarks: the resolved free verdict (`pass`, `fail`, `unsure`, any text).
    pub verdict: Option<String>,
    /// Where it comes from: `final:<r>`, `single:<r>`, `majority:<n>`, `tie:<n>`, `none`.
    pub verdict_resolution: Option<String>,
    /// CHARTOM: the resolved reviewer's `fact_correct` (empty when no one overrode).
    pub human_fact_correct: Option<bool>,
    /// C-VQA: the resolved reviewers' `original_correct` / `counterfactual_correct`.
    pub human_original_correct: Option<bool>,
    pub human_counterfactual_correct: Option<bool>,
    /// C-VQA: the resolved verification's `image_related` and `answer_ok`.
    pub image_related: Option<bool>,
    pub answer_ok: Option<bool>,
    /// C-VQA: the resolved rejection's short text (reason `other`).
    pub reason_text: Option<String>,
    /// Every reviewer's note on the item, one `reviewer: note` a line, in file order.
    pub notes: Option<String>,
    /// Whether the resolved human grade has a penalty; empty when no reviewer graded the
    /// penalty (an empty `human_penalty` alone cannot tell "none" from "not graded").
    pub human_penalized: Option<bool>,
    /// The harness's task: lm-eval's (from the samples file's name), Inspect's
    /// (`eval.task`).
    pub task: Option<String>,
    /// The run: the file the rows come from (lm-eval's samples file names its date, an
    /// Inspect log its own), so that two runs of a task are told apart.
    pub run: Option<String>,
    /// Inspect: the sample's epoch.
    pub epoch: Option<u64>,
    /// Inspect: the scorer whose value, verdict and notes the row holds (one row per
    /// scorer of a sample).
    pub scorer: Option<String>,
    /// lm-eval: the sample's `doc_id`, Inspect: the sample's `id`, typed as the harness
    /// types it (a number stays a number); lm-eval's `filter`: two filters' rows of one
    /// doc share the doc_id.
    pub doc_id: Option<Value>,
    pub filter: Option<String>,
    /// lm-eval: the answer key as logged.
    pub target: Option<String>,
    /// lm-eval: the metric a verdict stands in for (`acc`, `exact_match`), empty when
    /// none does (perplexities), and the harness's value of it on this line.
    pub metric: Option<String>,
    pub harness_score: Option<f64>,
    /// lm-eval: every metric of the line as logged, a JSON object.
    pub metrics: Option<Value>,
    /// A declared benchmark: the answers that count, the item's and the response's
    /// questions', a JSON object by question. Only in a declared benchmark's own columns
    /// (`Spec::columns`), not in every benchmark's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answers: Option<Value>,
}
