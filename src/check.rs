//! `verdict check`: validate a result set and report every problem with its line, item
//! and field.
//!
//! Each item is read as JSON and walked field by field (so one bad field does not hide
//! the next), against docs/format.md's rules for its benchmark; the typed loader
//! ([`crate::model::Item::parse`]) runs too, so a file that checks clean also loads.
//! Severities: an *error* makes the item unusable or wrong for grading; a *warning* is
//! suspicious but usable (a missing image, a judge's `"Null"` bonus); a *notice* is
//! information (no id, an unknown benchmark, a pending verdict journal).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::import::quote;
use crate::journal::Journal;
use crate::model::{Benchmark, CvqaReason, CvqaStatus, Item, JustificationGrade, kind};
use crate::store::{ItemError, Store, StoreError};

pub use crate::bench::cvqa::check::cvqa_answer_problem;

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

/// The result of checking a file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Report {
    pub file: PathBuf,
    pub items: usize,
    pub problems: Vec<Problem>,
}

impl Report {
    fn count(&self, s: Severity) -> usize {
        self.problems.iter().filter(|p| p.severity == s).count()
    }
    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }
    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }
    pub fn notices(&self) -> usize {
        self.count(Severity::Notice)
    }
    pub fn is_clean(&self) -> bool {
        self.errors() == 0
    }
}

/// What to check besides the items themselves.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Check that image files exist (relative to the results file's folder).
    pub images: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { images: true }
    }
}

/// Open `path` and check it, noting a pending verdict journal beside it.
pub fn check_file(path: &Path, opts: Options) -> Result<Report, StoreError> {
    let store = Store::open(path)?;
    let mut report = check_store_with(&store, opts);
    for jp in crate::journal::journal_paths(path) {
        let journal = Journal::at(jp);
        // An empty journal belongs to a session with nothing pending.
        if journal
            .read()
            .map(|(r, torn)| r.is_empty() && !torn)
            .unwrap_or(false)
        {
            continue;
        }
        let message = match journal.read() {
            Ok((records, torn)) => format!(
                "a verdict journal is pending ({}): {} not yet saved into the file{}; open the file in verdict to save them",
                journal.path().display(),
                crate::journal::verdicts(records.len()),
                if torn { " (and a torn last line)" } else { "" }
            ),
            Err(e) => format!(
                "a verdict journal is pending ({}) but cannot be read: {e}",
                journal.path().display()
            ),
        };
        report.problems.insert(
            0,
            Problem {
                line: None,
                id: None,
                field: None,
                severity: Severity::Notice,
                message,
            },
        );
    }
    Ok(report)
}

/// Check every item of an open store, with options.
pub fn check_store_with(store: &Store, opts: Options) -> Report {
    let base = crate::import::parent_dir(store.path());
    let mut report = Report {
        file: store.path().to_path_buf(),
        items: store.len(),
        problems: Vec::new(),
    };
    if store.is_empty() {
        report.problems.push(Problem {
            line: None,
            id: None,
            field: None,
            severity: Severity::Warning,
            message: "the file has no items".into(),
        });
    }
    let mut ids: HashMap<String, u32> = HashMap::new();
    let mut images: HashMap<String, bool> = HashMap::new();
    // An evaluation line without `model` is named from the file, as the loader does.
    let eval_model = crate::model::eval_model_name(store.path());
    for i in 0..store.len() {
        let line = store.line(i);
        let fallback = store.fallback_id(i);
        let mut c = Ctx {
            out: &mut report.problems,
            line,
            id: fallback.clone(),
            errors: 0,
        };
        let text = match store.raw(i) {
            Ok(t) => t,
            Err(e) => {
                c.error("", e.to_string());
                continue;
            }
        };
        let v: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                let msg = e.to_string();
                let typed = msg
                    .contains("recursion limit")
                    .then(|| Item::parse(text).ok())
                    .flatten();
                if let Some(it) = typed {
                    if let Some(id) = it.id {
                        c.id = id;
                    }
                    c.error(
                        "",
                        format!(
                            "nested too deeply ({msg}): verdict can show this item but cannot save verdicts into it"
                        ),
                    );
                } else {
                    c.error("", format!("malformed JSON: {msg}"));
                }
                continue;
            }
        };
        let Value::Object(obj) = &v else {
            c.error(
                "",
                format!("an item must be a JSON object, found {}", kind(&v)),
            );
            continue;
        };
        match obj.get("id") {
            Some(Value::String(s)) => {
                c.id = s.clone();
                if s.trim().is_empty() {
                    c.warn("id", "empty id");
                }
                if let Some(&first) = ids.get(s) {
                    c.error(
                        "id",
                        format!("duplicate id {} (also on line {first})", quote(s)),
                    );
                } else {
                    ids.insert(s.clone(), line);
                }
            }
            None | Some(Value::Null) => c.notice(
                "id",
                format!(
                    "no id; verdict calls this item {fallback} and does not write that name back"
                ),
            ),
            Some(other) => c.error("id", format!("expected a string, found {}", kind(other))),
        }
        check_item(&mut c, obj, opts, &base, eval_model.as_deref(), &mut images);
        // The typed loader must agree: a file that checks clean loads.
        if c.errors == 0
            && let Err(e) = store.item(i)
        {
            let field = match &e {
                ItemError::Field(f) => f.field.clone(),
                _ => String::new(),
            };
            let msg = match e {
                ItemError::Field(f) => f.message,
                other => other.to_string(),
            };
            c.error(&field, msg);
        }
    }
    report
}

/// The errors `check` would report in `reviewer`'s review if `review` were that reviewer's
/// review of `item` (a journal record is validated with this before it is replayed, like
/// the file's own reviews). Other reviewers' reviews and problems of the item itself are
/// not looked at. `file` is the item's file (it names an evaluation line's model).
pub fn review_errors(item: &Value, reviewer: &str, review: &Value, file: &Path) -> Vec<String> {
    let Value::Object(obj) = item else {
        return vec![format!("the item is {}, not an object", kind(item))];
    };
    let mut one = obj.clone();
    let mut reviews = Map::new();
    reviews.insert(reviewer.to_string(), review.clone());
    one.insert("reviews".into(), Value::Object(reviews));
    let mut problems = Vec::new();
    let mut c = Ctx {
        out: &mut problems,
        line: 0,
        id: String::new(),
        errors: 0,
    };
    check_item(
        &mut c,
        &one,
        Options { images: false },
        Path::new("."),
        crate::model::eval_model_name(file).as_deref(),
        &mut HashMap::new(),
    );
    problems
        .into_iter()
        .filter(|p| p.severity == Severity::Error)
        .filter_map(|p| {
            let f = p.field?;
            f.starts_with("reviews.")
                .then(|| format!("{f}: {}", p.message))
        })
        .collect()
}

pub(crate) struct Ctx<'a> {
    out: &'a mut Vec<Problem>,
    line: u32,
    pub(crate) id: String,
    errors: usize,
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

const BENCHMARKS: [&str; 3] = ["chartom", "chartom-qa", "cvqa"];

fn check_item(
    c: &mut Ctx,
    obj: &Map<String, Value>,
    opts: Options,
    base: &Path,
    eval_model: Option<&str>,
    images: &mut HashMap<String, bool>,
) {
    let eval_layout = !obj.contains_key("benchmark") && obj.contains_key("book_name");
    let bench = match obj.get("benchmark") {
        Some(Value::String(s)) if BENCHMARKS.contains(&s.as_str()) => s.as_str(),
        Some(Value::String(s)) => {
            c.notice(
                "benchmark",
                format!(
                    "unknown benchmark {}: shown with the generic view",
                    quote(s)
                ),
            );
            ""
        }
        None | Some(Value::Null) if eval_layout => "chartom-qa",
        None | Some(Value::Null) => {
            c.notice("benchmark", "no benchmark: shown with the generic view");
            ""
        }
        Some(v) => {
            c.wrong_type("benchmark", "a string", v);
            ""
        }
    };

    if let Some(img) = c.str(obj, "image", "image") {
        if img.trim().is_empty() {
            c.warn("image", "empty image path");
        } else if opts.images {
            let exists = *images
                .entry(img.to_string())
                .or_insert_with(|| base.join(img).is_file());
            if !exists {
                c.warn(
                    "image",
                    format!(
                        "image file not found: {}",
                        quote(&base.join(img).to_string_lossy())
                    ),
                );
            }
        }
    }

    // Responses: models named, once each.
    let mut models: Vec<String> = Vec::new();
    let responses: Vec<&Map<String, Value>> = match c.arr(obj, "responses", "responses") {
        Some(a) => a
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let f = format!("responses[{i}]");
                match r {
                    Value::Object(o) => {
                        match c.str(o, "model", &join(&f, "model")) {
                            Some(m) if !m.trim().is_empty() => {
                                if models.iter().any(|x| x == m) {
                                    c.error(
                                        &join(&f, "model"),
                                        format!("a second response of model {}", quote(m)),
                                    );
                                }
                                models.push(m.to_string());
                            }
                            Some(_) => c.error(&join(&f, "model"), "empty model name"),
                            None if o.get("model").is_none_or(Value::is_null) => {
                                c.error(&join(&f, "model"), "missing")
                            }
                            None => {}
                        }
                        Some(o)
                    }
                    other => {
                        c.wrong_type(&f, "an object", other);
                        None
                    }
                }
            })
            .collect(),
        None => Vec::new(),
    };
    let n_responses = if eval_layout && obj.contains_key("response") {
        1
    } else {
        responses.len()
    };
    if eval_layout && obj.contains_key("response") && responses.is_empty() {
        // Named as the loader names it (`Item::name_eval_model`).
        let m = match obj.get("model") {
            Some(Value::String(s)) => s.clone(),
            _ => eval_model
                .unwrap_or(crate::model::EVAL_DEFAULT_MODEL)
                .to_string(),
        };
        models.push(m);
    }

    let info = crate::bench::spec(Benchmark::from_name(Some(bench))).check(
        c,
        obj,
        &responses,
        eval_layout,
    );

    if let Some(reviews) = c.obj(obj, "reviews", "reviews") {
        for (name, r) in reviews {
            let f = format!("reviews.{name}");
            match r {
                Value::Object(r) => check_review(c, r, &f, bench, &models, n_responses, &info),
                other => c.wrong_type(&f, "an object", other),
            }
        }
    }
}

/// What review checks need to know about the item.
#[derive(Debug, Default)]
pub(crate) struct BenchInfo {
    /// CharToM-QA: the number of bonus points.
    pub(crate) bonus_points: Option<usize>,
    /// C-VQA: the group, for checking a fixed answer.
    pub(crate) group: Option<String>,
}

fn check_review(
    c: &mut Ctx,
    r: &Map<String, Value>,
    f: &str,
    bench: &str,
    models: &[String],
    n_responses: usize,
    info: &BenchInfo,
) {
    match c.str(r, "at", &join(f, "at")) {
        None if r.get("at").is_none_or(Value::is_null) => {
            c.warn(&join(f, "at"), "missing: when the verdict was given")
        }
        None => {}
        Some(at) => {
            match time::OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339) {
                Ok(t) if t.offset().is_utc() => {}
                Ok(_) => c.warn(
                    &join(f, "at"),
                    format!("{} is not in UTC (write it with `Z`)", quote(at)),
                ),
                Err(e) => c.error(
                    &join(f, "at"),
                    format!("{} is not an RFC 3339 time: {e}", quote(at)),
                ),
            }
        }
    }
    c.str(r, "note", &join(f, "note"));
    c.str(r, "verdict", &join(f, "verdict"));
    c.bool(r, "final", &join(f, "final"));
    if let Some(s) = c.num(r, "seconds", &join(f, "seconds"))
        && s < 0.0
    {
        c.error(&join(f, "seconds"), "negative");
    }

    // C-VQA question verification.
    let status = c.one_of(
        r,
        "status",
        &join(f, "status"),
        &CvqaStatus::ALL.map(CvqaStatus::name),
    );
    let reason = c.one_of(
        r,
        "reason",
        &join(f, "reason"),
        &CvqaReason::ALL.map(CvqaReason::name),
    );
    c.bool(r, "image_related", &join(f, "image_related"));
    c.bool(r, "answer_ok", &join(f, "answer_ok"));
    let fixed_q = c.str(r, "fixed_question", &join(f, "fixed_question"));
    let fixed_a = c.text(r, "fixed_answer", &join(f, "fixed_answer"));
    if status == Some("reject") && reason.is_none() && r.get("reason").is_none_or(Value::is_null) {
        c.error(&join(f, "reason"), "a rejection needs a reason");
    }
    for (k, present) in [
        ("fixed_question", fixed_q.is_some()),
        ("fixed_answer", fixed_a.is_some()),
    ] {
        if present && status != Some("fix") {
            c.error(
                &join(f, k),
                format!(
                    "only a `fix` has {k}; this review's status is {}",
                    status.map_or("missing".to_string(), |s| format!("`{s}`"))
                ),
            );
        }
    }
    if status == Some("fix") && fixed_q.is_none() && fixed_a.is_none() {
        c.warn(
            &join(f, "status"),
            "`fix` without fixed_question or fixed_answer",
        );
    }
    if reason.is_some() && status == Some("accept") {
        c.warn(&join(f, "reason"), "a reason on an accepted question");
    }
    if let (Some(a), Some(g)) = (&fixed_a, &info.group)
        && let Some(m) = cvqa_answer_problem(g, fixed_q, a)
    {
        c.warn(&join(f, "fixed_answer"), m);
    }

    // Grades of responses.
    let top_level = check_grades(c, r, f, bench, info);
    if top_level && n_responses > 1 {
        c.warn(
            f,
            format!(
                "grades at the top level of a review of an item with {n_responses} responses: put them under models.<model>"
            ),
        );
    }
    if let Some(per_model) = c.obj(r, "models", &join(f, "models")) {
        for (m, g) in per_model {
            let mf = format!("{f}.models.{m}");
            if !models.iter().any(|x| x == m) {
                c.error(
                    &mf,
                    format!(
                        "grades for model {}, which has no response on this item{}",
                        quote(m),
                        if models.is_empty() {
                            String::new()
                        } else {
                            format!(
                                " (models: {})",
                                models
                                    .iter()
                                    .map(|x| quote(x))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )
                        }
                    ),
                );
            }
            match g {
                Value::Object(g) => {
                    check_grades(c, g, &mf, bench, info);
                }
                other => c.wrong_type(&mf, "an object", other),
            }
        }
    }
}

/// Check the response-grade fields of `g`; true when it has any.
fn check_grades(
    c: &mut Ctx,
    g: &Map<String, Value>,
    f: &str,
    bench: &str,
    info: &BenchInfo,
) -> bool {
    let mut any = false;
    for k in ["fact_correct", "original_correct", "counterfactual_correct"] {
        any |= c.bool(g, k, &join(f, k)).is_some();
    }
    any |= c
        .one_of(
            g,
            "justification",
            &join(f, "justification"),
            &JustificationGrade::ALL.map(JustificationGrade::name),
        )
        .is_some();
    if let Some(b) = c.arr(g, "bonus", &join(f, "bonus")) {
        any = true;
        let mut seen = Vec::new();
        for (i, v) in b.iter().enumerate() {
            let bf = format!("{}[{i}]", join(f, "bonus"));
            match (v.as_u64(), info.bonus_points) {
                (Some(k), Some(n)) if k >= 1 && k as usize <= n => {
                    if seen.contains(&k) {
                        c.warn(&bf, format!("bonus point {k} listed twice"));
                    }
                    seen.push(k);
                }
                (Some(k), Some(n)) => c.error(
                    &bf,
                    format!(
                        "bonus point {k} is not in 1..{n} (the item has {n} bonus point{})",
                        if n == 1 { "" } else { "s" }
                    ),
                ),
                (Some(k), None) if k >= 1 => {
                    if bench == "chartom-qa" {
                        // the item's bonus points are broken; reported there
                    }
                }
                _ => c.error(
                    &bf,
                    format!("expected a bonus point number ≥ 1, found {}", describe(v)),
                ),
            }
        }
    }
    match g.get("penalty") {
        None => {}
        Some(Value::Null) | Some(Value::String(_)) => any = true,
        Some(v) => c.wrong_type(&join(f, "penalty"), "a string or null", v),
    }
    any
}

/// The `--json` form of a report.
#[derive(Debug, Serialize)]
pub struct JsonReport<'a> {
    pub file: String,
    pub items: usize,
    pub errors: usize,
    pub warnings: usize,
    pub notices: usize,
    pub problems: &'a [Problem],
}

impl Report {
    pub fn to_json(&self) -> String {
        crate::sanitize::json(&JsonReport {
            file: self.file.to_string_lossy().into_owned(),
            items: self.items,
            errors: self.errors(),
            warnings: self.warnings(),
            notices: self.notices(),
            problems: &self.problems,
        })
        .expect("a report always serializes")
    }
}

#[cfg(test)]
mod tests;
