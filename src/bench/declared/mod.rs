//! A benchmark declared in a TOML file (`verdict FILE --benchmark SPEC.toml`,
//! docs/format.md "Declared benchmarks"): the fields each item shows, where its responses
//! are, and the questions (`crate::question`) the reviewer answers, per item or per
//! response. The spec is given once per process ([`register`]); every item of the file is
//! then read as this benchmark, whatever its keys.
//!
//! The answers go into the review's `answers` object: the item's questions at the top
//! level of the review, a response's under its grades (top level when the item has one
//! response, `models.<model>` when several), read as every response grade is.

pub(crate) mod agree;
pub(crate) mod check;
pub mod spec;
pub mod stats;
pub(crate) mod stats_text;

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::bench::item::ItemFields;
use crate::bench::kit::check::{BenchInfo, Ctx};
use crate::bench::kit::row::Row;
use crate::bench::{Item, Layout, Response, ResponseGrades, Review};
use crate::grade::resolve::{Resolved, Voter, resolve_with, vote};
use crate::model::FieldError;
use crate::question::{Kind, Per, Points, Question};
pub use spec::{Declared, Field, FieldKind, SpecError};

static DECLARED: OnceLock<(Declared, PathBuf)> = OnceLock::new();

/// Read the spec at `path` and make it the benchmark of every item this process reads.
/// The error lists every mistake, one a line (`SPEC:LINE: key: what`).
pub fn register(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read the benchmark spec: {e}", path.display()))?;
    let d = spec::parse(&text).map_err(|errors| {
        errors
            .iter()
            .map(|e| {
                let key = if e.key.is_empty() {
                    String::new()
                } else {
                    format!(" {}:", e.key)
                };
                format!("{}:{}:{key} {}", path.display(), e.line, e.message)
            })
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    DECLARED
        .set((d, path.to_path_buf()))
        .map_err(|_| "a benchmark spec was given twice".to_string())
}

/// The declared benchmark of this process, if a spec was given.
pub fn registered() -> Option<&'static Declared> {
    DECLARED.get().map(|(d, _)| d)
}

/// The file the declared benchmark was read from (a fold after quitting reads it too).
pub fn spec_path() -> Option<&'static Path> {
    DECLARED.get().map(|(_, p)| p.as_path())
}

/// The value at `path` in `obj`: a key, else a dotted path (`a.b`, `list.0`), or a JSON
/// pointer (`/a/b`).
pub fn lookup<'v>(obj: &'v Map<String, Value>, path: &str) -> Option<&'v Value> {
    if let Some(p) = path.strip_prefix('/') {
        return walk(
            obj,
            p.split('/')
                .map(|s| s.replace("~1", "/").replace("~0", "~")),
        );
    }
    obj.get(path)
        .or_else(|| walk(obj, path.split('.').map(str::to_string)))
}

fn walk(obj: &Map<String, Value>, mut segs: impl Iterator<Item = String>) -> Option<&Value> {
    let first = obj.get(&segs.next()?)?;
    segs.try_fold(first, |v, s| match v {
        Value::Object(o) => o.get(&s),
        Value::Array(a) => a.get(s.parse::<usize>().ok()?),
        _ => None,
    })
}

/// A value shown or exported as text: a string as it is, anything else as JSON.
pub fn as_text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// The item's JSON object, as a declared item keeps it.
pub fn object(item: &Item) -> Option<&Map<String, Value>> {
    match &item.layout {
        Some(Layout::Declared(v)) => v.as_object(),
        _ => None,
    }
}

impl Declared {
    /// Read one line as an item of this benchmark: its id, its responses (model and text),
    /// its reviews; the whole object kept for the fields (`Item::layout`).
    pub(crate) fn read(
        &self,
        text: &str,
    ) -> Result<(ItemFields, IndexMap<String, Review>), FieldError> {
        #[derive(Deserialize)]
        struct Own {
            #[serde(default)]
            id: Option<String>,
            #[serde(default)]
            reviews: IndexMap<String, Review>,
        }
        let own: Own = crate::model::parse_with_path(text)?;
        let v: Value = serde_json::from_str(text).map_err(|e| FieldError {
            field: "(item)".into(),
            message: e.to_string(),
        })?;
        let obj = v.as_object().ok_or_else(|| FieldError {
            field: "(item)".into(),
            message: "expected an object".into(),
        })?;
        let mut f = ItemFields::default();
        if let Some(spec) = &self.responses {
            match lookup(obj, &spec.path) {
                None | Some(Value::Null) => {}
                Some(Value::Array(a)) => {
                    for (n, r) in a.iter().enumerate() {
                        let at = |k: &str| format!("{}[{n}].{k}", spec.path);
                        let model =
                            r.get(&spec.model).and_then(Value::as_str).ok_or_else(|| {
                                FieldError {
                                    field: at(&spec.model),
                                    message: "missing, or not a string: a response names its model"
                                        .into(),
                                }
                            })?;
                        f.responses.push(Response {
                            model: model.to_string(),
                            text: r.get(&spec.text).filter(|t| !t.is_null()).map(as_text),
                            ..Response::default()
                        });
                    }
                }
                Some(_) => {
                    return Err(FieldError {
                        field: spec.path.clone(),
                        message: "expected an array of responses".into(),
                    });
                }
            }
        }
        f.id = own.id;
        // The first image field is the item's picture (the reviewer's image pane).
        f.image = self
            .fields
            .iter()
            .filter(|x| x.kind == FieldKind::Image)
            .find_map(|x| lookup(obj, &x.path)?.as_str().map(str::to_string));
        f.benchmark_name = Some(self.name.clone());
        f.layout = Some(Layout::Declared(Arc::new(v)));
        Ok((f, own.reviews))
    }

    /// The number of points question `q` has on the item (a checklist's; `None`
    /// otherwise, or when the item has no such list).
    pub fn points(&self, q: &Question, obj: Option<&Map<String, Value>>) -> Option<usize> {
        match &q.kind {
            Kind::MultiLabel(Points::Fixed(p)) => Some(p.len()),
            Kind::MultiLabel(Points::From(path)) => Some(
                obj.and_then(|o| lookup(o, path))
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len),
            ),
            _ => None,
        }
    }

    /// Does the item require an answer to `q`? A required checklist of no points on the
    /// item does not (as CharToM-QA's bonus without bonus points).
    fn requires(&self, q: &Question, item: &Item) -> bool {
        q.required && self.points(q, object(item)) != Some(0)
    }
}

/// The review's answer to a question of the item (its top-level `answers`).
pub fn item_answer<'r>(r: &'r Review, q: &Question) -> Option<&'r Value> {
    r.grades.answers.get(&q.name).filter(|v| !v.is_null())
}

/// The answer in a response's grades (`Review::for_model`).
pub fn response_answer<'g>(g: Option<&'g ResponseGrades>, q: &Question) -> Option<&'g Value> {
    g?.answers.get(&q.name).filter(|v| !v.is_null())
}

/// The answer that counts among the reviewers' (final, single, else the majority of
/// those who answered, as every grade: docs/stats.md), `take` reading one review's.
pub fn resolve_answer<'a>(
    reviews: &'a IndexMap<String, Review>,
    take: impl Fn(&'a Review) -> Option<&'a Value>,
) -> Resolved<Option<Value>> {
    resolve_with(
        reviews,
        |r| take(r).cloned().map(Some),
        |votes, tied| {
            let voters: Vec<Voter<'_, Value>> = votes
                .iter()
                .filter_map(|(v, rank)| v.as_ref().map(|value| Voter { value, rank: *rank }))
                .collect();
            vote(&voters, tied)
        },
    )
}

/// What question `q` is asked of in `item`: the item (`None`), or each response's model.
pub(crate) fn asked_of<'a>(q: &Question, item: &'a Item) -> Vec<Option<&'a str>> {
    match q.per {
        Per::Item => vec![None],
        Per::Response => item
            .responses
            .iter()
            .map(|r| Some(r.model.as_str()))
            .collect(),
    }
}

/// The answer to `q` that counts for `model`'s response (`None`: the item's question).
pub fn resolved(item: &Item, q: &Question, model: Option<&str>) -> Resolved<Option<Value>> {
    let n = item.responses.len();
    match model {
        Some(m) if q.per == Per::Response => {
            resolve_answer(&item.reviews, |r| response_answer(r.for_model(m, n), q))
        }
        _ => resolve_answer(&item.reviews, |r| item_answer(r, q)),
    }
}

/// Do two reviewers' answers differ on a question both answered (a text's answers
/// never do: they are comments, not verdicts)?
pub(crate) fn answers_differ(a: &IndexMap<String, Value>, b: &IndexMap<String, Value>) -> bool {
    let Some(d) = registered() else { return false };
    d.questions
        .iter()
        .filter(|q| q.kind != Kind::Text)
        .any(|q| match (a.get(&q.name), b.get(&q.name)) {
            (Some(x), Some(y)) => x != y,
            _ => false,
        })
}

impl super::Spec for Declared {
    fn check(
        &self,
        c: &mut Ctx,
        obj: &Map<String, Value>,
        responses: &[&Map<String, Value>],
        _eval_layout: bool,
    ) -> BenchInfo {
        check::item(self, c, obj, responses)
    }

    fn export(&self, row: &mut Row, it: &Item, model: &str) {
        let resp = it.response(model);
        row.raw_answer = resp.and_then(|r| r.text.clone());
        let mut answers = Map::new();
        for q in &self.questions {
            let m = (q.per == Per::Response).then_some(model);
            if m.is_some() && resp.is_none() {
                continue;
            }
            if let Some(v) = resolved(it, q, m).value {
                answers.insert(q.name.clone(), v);
            }
        }
        row.answers = Some(Value::Object(answers));
        if resp.is_some() {
            let r = crate::bench::resolve::resolve_response(&it.reviews, model, it.responses.len());
            row.resolution = Some(r.source.label());
        }
    }

    fn columns(&self) -> Option<&'static [&'static str]> {
        Some(&[
            "id",
            "line",
            "benchmark",
            "model",
            "raw_answer",
            "answers",
            "resolution",
            "n_reviewers",
            "reviews",
            "notes",
            "error",
        ])
    }

    fn response_required(&self, _resp: &Response) -> bool {
        self.questions
            .iter()
            .any(|q| q.per == Per::Response && q.required)
    }

    fn response_done(&self, item: &Item, g: Option<&ResponseGrades>) -> bool {
        self.questions
            .iter()
            .filter(|q| q.per == Per::Response && self.requires(q, item))
            .all(|q| response_answer(g, q).is_some())
    }

    fn item_verdict(&self) -> Option<fn(&Review) -> bool> {
        let any = self
            .questions
            .iter()
            .any(|q| q.per == Per::Item && q.required);
        let given: fn(&Review) -> bool = |r| {
            registered().is_none_or(|d| {
                d.questions
                    .iter()
                    .filter(|q| q.per == Per::Item && q.required)
                    .all(|q| item_answer(r, q).is_some())
            })
        };
        any.then_some(given)
    }

    /// Each question's answer that counts, per response for a response's question.
    fn facets(&self, item: &Item, emit: &mut dyn FnMut(crate::bench::Facet, &str)) {
        for q in &self.questions {
            for m in asked_of(q, item) {
                let Some(v) = resolved(item, q, m).value else {
                    continue;
                };
                let mut one =
                    |a: &str| emit(crate::bench::Facet::Answer, &format!("{} = {a}", q.name));
                match (&q.kind, &v) {
                    (Kind::Text, _) => one("answered"),
                    (_, Value::Array(points)) => points.iter().for_each(|p| one(&format!("#{p}"))),
                    (_, Value::String(s)) => one(s),
                    (_, other) => one(&other.to_string()),
                }
            }
        }
    }

    fn search_texts(&self, item: &Item, push: &mut dyn FnMut(&str)) {
        let Some(obj) = object(item) else { return };
        for f in self.fields.iter().filter(|f| f.kind == FieldKind::Text) {
            if let Some(Value::String(s)) = lookup(obj, &f.path) {
                push(s);
            }
        }
    }
}

#[cfg(test)]
mod tests;
