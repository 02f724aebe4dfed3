//! The CharToM-QA evaluation JSONL, the benchmark's own output, which opens directly
//! (docs/format.md, "CharToM-QA"): one line per question and model response, with
//! `book_name`, `tom_dimension`, `context_<L>`, `misleading_choices`, the `response` and
//! the judge's `bonus` and `penalty`. [`sniff`] recognises such a line and maps it onto
//! the result-set fields of the item.

use indexmap::IndexMap;
use serde::Deserialize;
use serde_json::Value;

use crate::bench::chartom_qa::fields::{Context, Judge};
use crate::bench::{Item, Response};
use crate::model::{FieldError, Keys, parse_with_path};

/// The model name given to the single response of a CharToM-QA evaluation line that
/// does not name its model.
pub const EVAL_DEFAULT_MODEL: &str = "response";

/// The keys of the evaluation layout.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
struct Fields {
    book_name: Option<String>,
    tom_dimension: Option<String>,
    context_0: Option<String>,
    context_1000: Option<String>,
    context_2000: Option<String>,
    misleading_choices: Option<Value>,
    response: Option<String>,
    bonus: Option<crate::model::Loose>,
    penalty: Option<crate::model::Loose>,
    model: Option<String>,
}

/// What an item keeps of its evaluation line.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalLine {
    misleading_choices: Option<Value>,
    /// The line named no model: its response is called [`EVAL_DEFAULT_MODEL`] until
    /// [`name_model`] names it from the file.
    model_unnamed: bool,
}

impl EvalLine {
    /// Are the line's `misleading_choices` the item's `n_choices` choices?
    pub fn shows_misleading_choices(&self, n_choices: usize) -> bool {
        matches!(&self.misleading_choices, Some(Value::Array(a)) if a.len() == n_choices)
    }
}

/// Is this JSON object an evaluation line: it names no benchmark (none, or `null`) and has
/// a `book_name`? The rule [`sniff`] applies to a parsed line, for `verdict check`.
pub fn is_eval_object(obj: &serde_json::Map<String, Value>) -> bool {
    obj.get("benchmark").is_none_or(Value::is_null)
        && obj.get("book_name").is_some_and(|v| !v.is_null())
}

/// If `text`, a line that names no benchmark, is in the evaluation layout (it has a
/// `book_name`, as its keys `line` say), map it onto `item` and return true. Only then are
/// the layout's keys read (and checked): on any other line they are unknown keys.
pub(crate) fn sniff(text: &str, line: &Keys, item: &mut Item) -> Result<bool, FieldError> {
    if !line.has_value("book_name") {
        return Ok(false);
    }
    let f: Fields = parse_with_path(text)?;
    if f.book_name.is_none() {
        return Ok(false);
    }
    normalize(item, f);
    Ok(true)
}

/// Map the evaluation layout onto the result-set fields. The texts are moved, not
/// copied: a context can be megabytes long.
fn normalize(item: &mut Item, f: Fields) {
    let Fields {
        book_name,
        tom_dimension,
        context_0,
        context_1000,
        context_2000,
        misleading_choices,
        response,
        bonus,
        penalty,
        model,
    } = f;
    item.benchmark_name = Some("chartom-qa".into());
    item.book = book_name;
    if item.dimension.is_none() {
        item.dimension = tom_dimension;
    }
    if item.context.is_none() {
        let m: IndexMap<String, String> = [
            ("0", context_0),
            ("1000", context_1000),
            ("2000", context_2000),
        ]
        .into_iter()
        .filter_map(|(k, v)| Some((k.to_string(), v?)))
        .collect();
        if !m.is_empty() {
            item.context = Some(Box::new(Context::ByLength(m)));
        }
    }
    if item.choices.is_empty()
        && let Some(Value::Array(a)) = &misleading_choices
    {
        item.choices = a
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| v.to_string())
            })
            .collect();
    }
    let mut model_unnamed = false;
    if item.responses.is_empty() && response.is_some() {
        let judge =
            (bonus.is_some() || penalty.is_some()).then_some(Box::new(Judge { bonus, penalty }));
        model_unnamed = model.is_none();
        item.responses.push(Response {
            model: model.unwrap_or_else(|| EVAL_DEFAULT_MODEL.to_string()),
            text: response,
            judge,
            ..Response::default()
        });
    }
    item.layout = Some(crate::bench::Layout::ChartomQaEval(EvalLine {
        misleading_choices,
        model_unnamed,
    }));
}

/// Name the model of an evaluation line that names none, from its file
/// ([`eval_model_name`]).
pub(crate) fn name_model(item: &mut Item, path: &std::path::Path) {
    let item = &mut **item;
    let Some(crate::bench::Layout::ChartomQaEval(line)) = &mut item.layout else {
        return;
    };
    if !line.model_unnamed {
        return;
    }
    if let (Some(name), [r]) = (eval_model_name(path), item.responses.as_mut_slice()) {
        r.model = name;
        line.model_unnamed = false;
    }
}

/// The model of a CharToM-QA evaluation file, from its name as the benchmark's script
/// writes it, `{model}_{dim}_c{L}_eval_penalty.jsonl` (also with a suffix before the
/// extension, as `verdict split` adds); else the file's stem (docs/format.md).
pub fn eval_model_name(path: &std::path::Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    if let Some(i) = name.find("_eval_penalty") {
        let head = &name[..i];
        let is_len = |c: &str| {
            c.strip_prefix('c')
                .is_some_and(|l| !l.is_empty() && l.bytes().all(|d| d.is_ascii_digit()))
        };
        if let Some((rest, c)) = head.rsplit_once('_')
            && is_len(c)
            && let Some((model, dim)) = rest.rsplit_once('_')
            && !model.is_empty()
            && !dim.is_empty()
        {
            return Some(model.to_string());
        }
    }
    let stem = path.file_stem()?.to_str()?;
    (!stem.is_empty()).then(|| stem.to_string())
}

/// How `verdict merge` matches an evaluation line across files, having no id (one line
/// per question and response): by its content, the line without `reviews` as a JSON value
/// (key order does not matter), named by its book and question; `None` for another line.
pub fn merge_identity(obj: &serde_json::Map<String, Value>) -> Option<(String, String)> {
    if !is_eval_object(obj) {
        return None;
    }
    let mut key = String::from("content:");
    crate::model::canonical(&Value::Object(obj.clone()), &mut key);
    // Named by its book and question (the lines are in every message that names it).
    let short = |k: &str| {
        let t = obj.get(k).and_then(Value::as_str).unwrap_or("");
        let mut s: String = t.chars().take(40).collect();
        if s.len() < t.len() {
            s.push('…');
        }
        s
    };
    Some((
        key,
        format!("{} · {}", short("book_name"), short("question")),
    ))
}
