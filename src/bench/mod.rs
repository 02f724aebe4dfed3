//! The benchmarks, each in its own folder, behind one registry.
//!
//! A benchmark's folder holds what is particular to it: its grading rules, its checks,
//! its sums for `verdict stats`, its export columns, its agreement variables and its
//! import. The shared machinery (`check`, `stats`, `export`, `team::agree`) walks the
//! items and asks this registry for the benchmark's part; this file is the one place
//! that names every benchmark, with `sums.rs` (`verdict stats`) and `agreement.rs`
//! (`verdict agree`) beside it.
//!
//! - [`chartom`]: CHARTOM (misleading charts).
//! - [`chartom_qa`]: CharToM-QA (theory of mind on novel characters).
//! - [`cvqa`]: C-VQA (counterfactual questions on images).
//! - [`lm_eval`]: lm-evaluation-harness per-sample logs (a correct / incorrect /
//!   ambiguous-key verdict on each sample).
//! - [`inspect`]: Inspect AI eval logs (`.eval`, `.json`), a container file each: a
//!   correct / incorrect / ambiguous-target verdict on each sample's epoch, written back
//!   as Inspect's own score edit.
//! - [`declared`]: the benchmark a TOML spec declares (`--benchmark`): its fields and its
//!   questions.
//! - [`generic`]: any other benchmark: a free verdict and a note.

use serde_json::{Map, Value};

use crate::bench::kit::check::{BenchInfo, Ctx};
use crate::bench::kit::row::Row;
use crate::model::FieldError;
use crate::store::Store;
use disagree::AutoGrades;

mod agreement;
pub mod chartom;
pub mod chartom_qa;
pub(crate) mod check;
pub mod cvqa;
pub mod declared;
mod disagree;
pub mod generic;
pub mod inspect;
pub mod item;
pub mod kit;
pub mod lm_eval;
pub mod resolve;
mod sums;

pub use disagree::{
    disagreement, disagreement_and_adjudication, needs_adjudication, reviewers_disagree,
};

pub(crate) use agreement::{AgreementVariables, JudgeVariables};
pub use item::{Item, Response, ResponseGrades, Review};
pub use kit::benchmark::Benchmark;
pub use sums::Benchmarks;
pub(crate) use sums::Sums;

/// Read the spec of a declared benchmark (`--benchmark SPEC.toml`): every item this
/// process reads is then of it. The error lists every mistake of the spec.
pub fn register_spec(path: &std::path::Path) -> Result<(), String> {
    declared::register(path)
}

/// The spec registered with [`register_spec`], for a process this one starts.
pub fn spec_path() -> Option<&'static std::path::Path> {
    declared::spec_path()
}

/// Register the container file formats of the benchmarks with the store (once, at
/// start-up): the files a benchmark reads as a whole and writes back in its own format.
pub fn register_containers() {
    crate::store::container::register(&[inspect::log::sniff]);
}

// ---------------------------------------------------------------------------------------
// Lines in a benchmark's own layout

/// A line in a benchmark's own layout rather than a result set's (it names no
/// `benchmark`), with what the benchmark keeps of it.
#[derive(Debug, Clone, PartialEq)]
pub enum Layout {
    /// The CharToM-QA evaluation JSONL.
    ChartomQaEval(chartom_qa::eval::EvalLine),
    /// An lm-evaluation-harness logged sample, shared by the item's copies (its prompt
    /// may be megabytes: the reviewer copies the item it shows when my verdict changes
    /// the reviews shown, issue 21).
    LmEvalSample(std::sync::Arc<lm_eval::sample::Sample>),
    /// A line made from an Inspect AI log's sample (its container, `inspect::log`).
    InspectSample(Box<inspect::sample::Sample>),
    /// An item of the declared benchmark: its whole object (its fields are the spec's).
    Declared(std::sync::Arc<Value>),
}

/// Offer a line that names no benchmark, already parsed into `item`, to each benchmark
/// that opens a layout of its own; the first that recognises it maps it onto `item`.
pub(crate) fn sniff(text: &str, item: &mut Item) -> Result<(), FieldError> {
    // The line's keys, read once (its values skipped, not copied): each benchmark asks
    // them whether the line is one of its.
    let keys = crate::model::Keys::of(text).map_err(|e| FieldError {
        field: "(item)".into(),
        message: e.to_string(),
    })?;
    if !chartom_qa::eval::sniff(text, &keys, item)? && !lm_eval::spec::sniff(&keys, item)? {
        inspect::spec::sniff(&keys, item)?;
    }
    Ok(())
}

/// For `verdict check`: the benchmark whose own layout a parsed line that names no
/// benchmark is in, as [`sniff`] would read it.
pub(crate) fn layout_of_object(obj: &Map<String, Value>) -> Option<Benchmark> {
    if chartom_qa::eval::is_eval_object(obj) {
        return Some(Benchmark::ChartomQa);
    }
    if lm_eval::is_sample(obj) {
        return Some(Benchmark::LmEval);
    }
    if inspect::spec::is_line(obj) {
        return Some(Benchmark::Inspect);
    }
    None
}

/// The error for a folder given where a result set is expected: for lm-eval's output or
/// Inspect logs, each file with the command that opens it and the commands that read the
/// folder as one set; else how to import a CHARTOM folder.
pub fn folder_error(path: &std::path::Path) -> crate::store::StoreError {
    let set = |h: String| {
        format!(
            "{h}\nOr read them as one set: verdict {p} (the reviewer), verdict stats|export|check {p}",
            p = kit::text::shell_word(&path.to_string_lossy())
        )
    };
    crate::store::StoreError::Document {
        path: path.to_path_buf(),
        message: lm_eval::folder::hint(path)
            .or_else(|| inspect::folder::hint(path))
            .map(set)
            .unwrap_or_else(|| {
                "is a folder (to import a CHARTOM folder, use `verdict import chartom`)".into()
            }),
    }
}

/// The files of a folder read as one set (`verdict stats|export|check DIR`, docs/format.md
/// "A folder as a set"): lm-eval's samples files in it and its model folders (each task's
/// latest run per folder unless `all_runs`), else the Inspect logs in it; `None` when it
/// holds neither.
pub fn folder_set(dir: &std::path::Path, all_runs: bool) -> Option<Vec<std::path::PathBuf>> {
    let samples = lm_eval::folder::samples_in(dir);
    let files = match (samples.is_empty(), all_runs) {
        (false, true) => samples,
        (false, false) => lm_eval::folder::latest_runs(samples),
        (true, _) => inspect::folder::logs_in(dir),
    };
    (!files.is_empty()).then_some(files)
}

/// `verdict merge`: how a line in a benchmark's own layout that has no id is matched
/// across files (its key and how messages name it), as that benchmark says; `None` when
/// no benchmark matches lines like it.
pub(crate) fn merge_identity(obj: &Map<String, Value>) -> Option<(String, String)> {
    lm_eval::merge_identity(obj).or_else(|| chartom_qa::eval::merge_identity(obj))
}

/// The words of [`merge_identity`]'s rules, for `verdict merge`'s messages.
pub(crate) const MERGE_IDENTITIES: &str =
    "an lm-eval sample by its doc_id and filter, a CharToM-QA evaluation line by its content";

/// The bundled samples `verdict` without a file suggests trying.
pub const SAMPLES: [&str; 3] = [
    "sample-data/cvqa.jsonl",
    "sample-data/chartom.jsonl",
    "sample-data/chartom-qa.jsonl",
];

/// `verdict import`: the benchmarks whose authors' files verdict turns into a result set,
/// each with its own command line (`bench/<name>/import/command.rs`).
#[derive(clap::Subcommand, Debug)]
pub enum ImportSource {
    /// C-VQA: question CSVs and model-output CSVs, merged by row into items.
    ///
    /// Each CSV is either bare questions (img_path,query,answer,new query,new answer,type)
    /// or a model's output (the same plus response,new_response). CSVs of the same split
    /// (real: direct/indirect/boolean; synthetic: abs_counting_1..6) must describe the same
    /// questions row by row; the real and the synthetic set may be imported together.
    /// Item ids are `<split>-<row>` (e.g. `real-00017`).
    Cvqa(cvqa::import::command::Args),
    /// CHARTOM: the folder its authors distribute on request.
    ///
    /// DIR holds FACT_questions/<chart id>.txt, FACT_answer_keys.csv,
    /// chart_manipulations.csv and chart_images/<chart id>.png. See docs/import.md for the
    /// optional model answers, human answers, strategies and HMI files.
    Chartom(chartom::import::command::Args),
}

impl ImportSource {
    /// Read the sources, write the result set, and say what to print.
    pub fn run(self) -> anyhow::Result<crate::import::Imported> {
        match self {
            ImportSource::Cvqa(a) => cvqa::import::command::run(a),
            ImportSource::Chartom(a) => chartom::import::command::run(a),
        }
    }
}

/// The registry's parse step above the store: a result set's items read into their typed
/// view, with what their file leaves unnamed named from its path.
pub trait Items {
    /// Parse item `i` into its typed view.
    fn item(&self, i: usize) -> Result<Item, crate::store::ItemError>;
    /// What the file's path tells about its items (the model of an lm-eval samples file,
    /// its run's results file), worked out once per store and origin.
    fn file_info(&self) -> std::sync::Arc<FileInfo>;
}

impl Items for Store {
    fn item(&self, i: usize) -> Result<Item, crate::store::ItemError> {
        if self.parts().is_some() {
            if !self.has(i) {
                return Err(crate::store::ItemError::NoSuchItem(i));
            }
            let (file, j) = self.part(i);
            let mut it = file.item(j)?;
            let label = PartLabel::of(&file.file_info(), &it);
            it.part = Some(std::sync::Arc::new(label));
            return Ok(it);
        }
        let text = self.raw(i)?;
        match Item::parse(text) {
            Ok(mut it) => {
                // Only a line in a benchmark's own layout is named from its file: a
                // result-set line neither asks for nor pays for what the path tells.
                if it.layout.is_some() {
                    it.name_from_file(&self.file_info());
                }
                Ok(it)
            }
            Err(fe) => Err(crate::store::classify_parse_error(text, fe)),
        }
    }

    fn file_info(&self) -> std::sync::Arc<FileInfo> {
        self.naming_memo(FileInfo::of)
            .unwrap_or_else(|| std::sync::Arc::new(FileInfo::of(self.naming_path())))
    }
}

/// What a file's path tells about the lines in a benchmark's own layout, worked out once
/// when the file is opened (the model a CharToM-QA evaluation file or an lm-eval samples
/// file is of; lm-eval's run beside its samples).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FileInfo {
    /// The path as typed.
    pub path: std::path::PathBuf,
    /// The lm-eval run of a `samples_<task>_<date>.jsonl` ([`lm_eval::run::Run`]).
    pub lm_eval: Option<lm_eval::run::Run>,
    /// The name of the folder the file is in, the path resolved (`.`, `..`, links): the
    /// model of lm-eval samples in a file not named as lm-eval names them.
    pub folder: Option<String>,
}

impl FileInfo {
    /// Look at `path` (and, for an lm-eval samples file, its folder and the run's
    /// results file).
    pub fn of(path: &std::path::Path) -> FileInfo {
        FileInfo {
            path: path.to_path_buf(),
            lm_eval: lm_eval::run::Run::of(path),
            folder: lm_eval::model_of(path),
        }
    }

    /// The harness's task the path names (an lm-eval samples file's), for `export`.
    pub fn task(&self) -> Option<String> {
        self.lm_eval.as_ref().map(|r| r.task.clone())
    }

    /// What the path tells the items, as text: two paths of equal texts name the same
    /// bytes' items alike (the file's own name, its folder, the lm-eval run read beside
    /// it; not the folders above or where the run's results file is). A kept index is of
    /// the items as named under one such text (`tui::facts::cache`).
    pub fn told(&self) -> String {
        let run = self
            .lm_eval
            .as_ref()
            .map(|r| (&r.task, &r.model, &r.config, &r.reported));
        format!("{:?}\n{:?}\n{:?}", self.path.file_name(), self.folder, run)
    }
}

/// Where an item of a folder read as one set comes from: its harness's task, its model
/// and its run (an lm-eval samples file's date, an Inspect log's name), for its label on
/// screen and the filters by each.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PartLabel {
    pub task: Option<String>,
    pub model: Option<String>,
    pub run: String,
}

impl PartLabel {
    fn of(file: &FileInfo, item: &Item) -> PartLabel {
        let stem = file
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (task, run) = match (&file.lm_eval, &item.layout) {
            (Some(r), _) => {
                let date = stem
                    .strip_prefix("samples_")
                    .and_then(lm_eval::run::split_date)
                    // (to the second: the fraction tells no two runs apart)
                    .map_or(stem.clone(), |(_, d)| {
                        d.split_once('.').map_or(d, |(s, _)| s).to_string()
                    });
                (Some(r.task.clone()), date)
            }
            (None, Some(Layout::InspectSample(s))) => (s.run.task.clone(), stem),
            _ => (None, stem),
        };
        PartLabel {
            task,
            model: item.responses.first().map(|r| r.model.clone()),
            run,
        }
    }

    /// `task · model · run`, what is known of them.
    pub fn text(&self) -> String {
        [
            self.task.as_deref(),
            self.model.as_deref(),
            Some(self.run.as_str()),
        ]
        .into_iter()
        .flatten()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" · ")
    }
}

/// Name what a line in a benchmark's own layout leaves unnamed from its file.
pub(crate) fn name_from_file(item: &mut Item, file: &FileInfo) {
    match item.layout {
        Some(Layout::ChartomQaEval(_)) => chartom_qa::eval::name_model(item, &file.path),
        Some(Layout::LmEvalSample(_)) => lm_eval::spec::name_from_file(item, file),
        Some(Layout::InspectSample(_) | Layout::Declared(_)) | None => {}
    }
}

// ---------------------------------------------------------------------------------------
// What varies per benchmark

/// The rules of one benchmark that the shared machinery asks for, item by item. Each
/// benchmark's folder implements it on a unit struct; [`spec`] is the one `match` that
/// picks it.
pub(crate) trait Spec: Sync {
    /// `verdict check`: the checks of the benchmark's own item fields (docs/format.md),
    /// with what the review checks need to know about the item. `obj` is the item,
    /// `responses` its readable responses; `eval_layout` is true for a line in the
    /// CharToM-QA evaluation layout.
    fn check(
        &self,
        c: &mut Ctx,
        obj: &Map<String, Value>,
        responses: &[&Map<String, Value>],
        eval_layout: bool,
    ) -> BenchInfo;

    /// `verdict export`: fill `row` with `model`'s response to `it`.
    fn export(&self, row: &mut Row, it: &Item, model: &str);

    /// `verdict export`: the rows of `model`'s response to `it`, from `base` (the item's
    /// columns): one, [`Spec::export`]'s, unless an item holds several figures of its own
    /// (an Inspect sample: one row per scorer).
    fn export_rows(&self, base: Row, it: &Item, model: &str) -> Vec<Row> {
        let mut row = base;
        self.export(&mut row, it, model);
        vec![row]
    }

    /// `verdict export`'s columns for a file of this benchmark's items only, in order
    /// (`None`: every column, as for a result set that may mix benchmarks). A benchmark
    /// whose files are its own (a harness's logs) names its own, so that no other
    /// benchmark's empty columns are written.
    fn columns(&self) -> Option<&'static [&'static str]> {
        None
    }

    /// When an item is done (docs/format.md, "When an item is done"): does `resp` need
    /// grades of its own? None by default: the verdict is on the item.
    fn response_required(&self, _resp: &Response) -> bool {
        false
    }

    /// Are the grades a response requires given?
    fn response_done(&self, _item: &Item, _g: Option<&ResponseGrades>) -> bool {
        true
    }

    /// The item-level verdict a review must give, as a test of the review: `None` when
    /// the benchmark has none.
    fn item_verdict(&self) -> Option<fn(&Review) -> bool> {
        None
    }

    /// Is `model`'s answer on this item wrong (after reviewer overrides)?
    fn model_wrong(&self, _item: &Item, _model: &str) -> bool {
        false
    }

    /// Why `item` needs no grade (no figure would use one: an Inspect sample that failed,
    /// an lm-eval rolling-perplexity sample): it is no work to do, never done, and a
    /// verdict key says this instead. `None`: it needs one.
    fn no_grade(&self, _item: &Item) -> Option<String> {
        None
    }

    /// The automatic grades of `model`'s response, which a reviewer who gives no override
    /// accepts.
    fn auto_grades(&self, _item: &Item, _model: &str) -> AutoGrades {
        AutoGrades::default()
    }

    /// Does this review's item-level verdict accept the automatic grades of every response
    /// it does not override?
    fn verdict_accepts_automatic(&self, _review: &Review) -> bool {
        false
    }

    /// Does a reviewer's grade differ from the LLM judge's?
    fn human_judge_disagree(&self, _item: &Item) -> bool {
        false
    }

    /// The values of the item's free `verdict` (docs/format.md) that the reviewer's three
    /// verdict keys write, first to third (`pass`, `fail`, `unsure` by default).
    fn verdicts(&self) -> [&'static str; 3] {
        ["pass", "fail", "unsure"]
    }

    /// What the file keeps of review `r` of an item, as a review read back from it gives
    /// it: the review itself by default; a format that writes reviews its own way keeps
    /// less (Inspect's score edits: no `seconds`, each scorer's verdict, note and final
    /// mark). `None`: nothing. An earlier session's undo history is compared with the file
    /// through this.
    fn kept_review(&self, r: &Review) -> Option<Review> {
        Some(r.clone())
    }

    /// Do its items carry an id of their own? `verdict check` gives a notice for an item
    /// without one, unless the benchmark never writes one (lm-eval's lines are named by
    /// their doc_id and filter).
    fn items_have_ids(&self) -> bool {
        true
    }

    /// The harness's own id of `item`, which the reviewer's jump (`:`) also finds when it
    /// is not the item's id (Inspect: the sample's id, its first epoch; lm-eval: `doc
    /// <doc_id>`). None by default.
    fn harness_id(&self, _item: &Item) -> Option<String> {
        None
    }

    /// When `other`, an item of the same [`Spec::harness_id`], holds the very answer
    /// `item` holds, so that a verdict on one is a verdict on the other (issue 39;
    /// lm-eval: another filter's line of the same doc taking the same generation): what
    /// tells it apart (its filter). None by default.
    fn same_answer(&self, _item: &Item, _other: &Item) -> Option<String> {
        None
    }

    /// Which of the lines of one sample (one [`Spec::harness_id`]) `item` is (lm-eval:
    /// its filter; Inspect: its epoch): the lines of a sample whose harness scores
    /// disagree are a filter (`Facet::LinesDisagree`), and in a folder read as one set
    /// the same harness id and variant in another file is the same sample of another
    /// model or run. None by default.
    fn variant(&self, _item: &Item) -> Option<String> {
        None
    }

    /// The reviewer's filters: the benchmark's own facets of `item` (none by default).
    fn facets(&self, _item: &Item, _emit: &mut dyn FnMut(Facet, &str)) {}

    /// The search: the texts of `item` a reviewer searches, in order (its `question` by
    /// default).
    fn search_texts(&self, item: &Item, push: &mut dyn FnMut(&str)) {
        if let Some(q) = &item.question {
            push(q);
        }
    }
}

/// `verdict check`: every benchmark's item-level fields of review `r` at `f`, whatever the
/// item's benchmark (a field of another benchmark's is checked too: docs/format.md).
pub(crate) fn check_review_fields(c: &mut Ctx, r: &Map<String, Value>, f: &str, info: &BenchInfo) {
    cvqa::check::review_fields(c, r, f, info);
}

/// `verdict check`: a review's `answers` at `f` (its top level when `top`, else
/// `models.<model>`), against the declared benchmark's questions when there is one; true
/// when they answer a response's question.
pub(crate) fn check_answers(
    c: &mut Ctx,
    g: &Map<String, Value>,
    f: &str,
    info: &BenchInfo,
    top: bool,
) -> bool {
    declared::registered().is_some_and(|d| declared::check::answers(d, c, g, f, info, top))
}

/// `verdict check`: every benchmark's fields among a response's grades `g` at `f`, in the
/// order of docs/format.md; true when it has any.
pub(crate) fn check_grade_fields(
    c: &mut Ctx,
    g: &Map<String, Value>,
    f: &str,
    info: &BenchInfo,
) -> bool {
    let mut any = chartom::check::fact_grade(c, g, f);
    any |= cvqa::check::grade_fields(c, g, f);
    any |= chartom::check::justification_grade(c, g, f);
    any |= chartom_qa::check::grade_fields(c, g, f, info);
    any
}

/// A facet of an item that only some benchmarks have, offered by the reviewer's filters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Facet {
    /// CHARTOM: the answer key is far from the human answers.
    SuspectKey,
    /// CHARTOM: the chart's type.
    ChartType,
    /// CHARTOM: the chart's version.
    Version,
    /// CharToM-QA: the question's dimension.
    Dimension,
    /// C-VQA: the item's group.
    Group,
    /// lm-eval: the filter a sample's answer and metrics come from (`strict-match`).
    LmEvalFilter,
    /// A question's answer that counts (final, single, else the majority), as
    /// `question = answer`: a label, a rating, a checklist's point (`#n`), `answered` for
    /// a text.
    Answer,
    /// A harness's epoch of a sample (Inspect).
    Epoch,
    /// Two of a sample's scores that disagree, as `a ≠ b` (Inspect: two scorers; lm-eval:
    /// two metrics of one line).
    Disagree,
    /// A sample that failed: no score (Inspect). A flag.
    Failed,
    /// In a folder read as one set: the harness's task of the item's file.
    Task,
    /// In a folder read as one set: the run of the item's file (an lm-eval samples
    /// file's date, an Inspect log's name).
    Run,
    /// In a folder read as one set: the same sample in another model's or run's file
    /// (the same harness id and `Spec::variant`) is right where this one is wrong, or wrong where it is right.
    /// A flag.
    RunsDisagree,
    /// A key of a sample's metadata and its value (a string, number or boolean), as
    /// `key\0value` (Inspect). The index keeps a key only while it has few short values
    /// (`tui::facts::META_VALUES`).
    Metadata,
    /// Two lines of one sample in one file whose harness scores disagree, by their
    /// variants (`Spec::variant`): `strict-match ≠ flexible-extract`, `maj@3 ≠
    /// strict-match`; an Inspect sample's `epoch 1 ≠ epoch 2`.
    LinesDisagree,
}

/// Is `model`'s answer on this item wrong (after reviewer overrides)?
/// `verdict export`'s own columns for a file of benchmark `b` only (`Spec::columns`).
pub fn export_columns(b: Benchmark) -> Option<&'static [&'static str]> {
    spec(b).columns()
}

/// What the file keeps of review `r` of an item of benchmark `b` (`Spec::kept_review`).
pub fn kept_review(b: Benchmark, r: Option<&Review>) -> Option<Review> {
    spec(b).kept_review(r?)
}

pub fn model_wrong(item: &Item, model: &str) -> bool {
    spec(item.benchmark()).model_wrong(item, model)
}

/// The rules of benchmark `b`.
pub(crate) fn spec(b: Benchmark) -> &'static dyn Spec {
    match b {
        Benchmark::Chartom => &chartom::Chartom,
        Benchmark::ChartomQa => &chartom_qa::ChartomQa,
        Benchmark::Cvqa => &cvqa::Cvqa,
        Benchmark::LmEval => &lm_eval::spec::LmEval,
        Benchmark::Inspect => &inspect::spec::Inspect,
        Benchmark::Declared => match declared::registered() {
            Some(d) => d,
            None => &generic::Generic,
        },
        Benchmark::Other => &generic::Generic,
    }
}
