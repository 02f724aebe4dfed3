//! The item-level rules of `verdict check` (docs/format.md): one item's JSON object walked
//! field by field, the benchmark's own checks asked of its spec, and a review's checks
//! (which a journal's verdict passes before it is replayed). The file-level walk (lines,
//! ids, duplicate keys, the journals) is the `check` module's.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::bench::Benchmark;
use crate::bench::kit::check::{BenchInfo, Ctx, Severity, join};
use crate::model::kind;
use crate::sanitize::quote;

/// Checks items of one file: what its path names (an evaluation line's model) and the
/// images already looked at.
pub(crate) struct ItemCheck {
    eval_model: Option<String>,
    /// The folder relative image paths are relative to, when images are checked.
    images: Option<PathBuf>,
    seen: HashMap<String, Option<&'static str>>,
}

impl ItemCheck {
    /// For the items of the file at `naming_path` (its origin's path, when it has one),
    /// with image paths checked against `base` when `images`.
    pub(crate) fn new(naming_path: &Path, base: &Path, images: bool) -> ItemCheck {
        ItemCheck {
            // An evaluation line without `model` is named from the file, as the loader does.
            eval_model: crate::bench::chartom_qa::eval::eval_model_name(naming_path),
            images: images.then(|| base.to_path_buf()),
            seen: HashMap::new(),
        }
    }

    /// Report the problems of the item `obj` into `c`.
    pub(crate) fn check(&mut self, c: &mut Ctx, obj: &Map<String, Value>) {
        let images = self.images.as_deref().map(|b| (b, &mut self.seen));
        check_item(c, obj, images, self.eval_model.as_deref());
    }
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
    ItemCheck::new(file, Path::new("."), false).check(&mut c, &one);
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

const BENCHMARKS: [&str; 3] = ["chartom", "chartom-qa", "cvqa"];

/// What is wrong with an image path, from its type alone (nothing is opened: a FIFO
/// would block): `None` for a regular file.
fn image_problem(path: &Path) -> Option<&'static str> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Some("not found");
    };
    let ft = meta.file_type();
    if ft.is_file() {
        return None;
    }
    if ft.is_dir() {
        return Some("not a regular file (a directory)");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return Some("not a regular file (a FIFO)");
        }
        if ft.is_char_device() || ft.is_block_device() {
            return Some("not a regular file (a device)");
        }
        if ft.is_socket() {
            return Some("not a regular file (a socket)");
        }
    }
    Some("not a regular file")
}

/// Check one item's JSON object: its benchmark, image, responses and reviews, and the
/// benchmark's own fields (its `check`).
fn check_item(
    c: &mut Ctx,
    obj: &Map<String, Value>,
    images: Option<(&Path, &mut HashMap<String, Option<&'static str>>)>,
    eval_model: Option<&str>,
) {
    // A line that names no benchmark may be in a benchmark's own layout (the registry's
    // rule, `bench::layout_of_object`).
    // Given a declared benchmark, every item is one of its, its responses where it says.
    let declared = crate::bench::declared::registered();
    let own_layout = crate::bench::layout_of_object(obj).filter(|_| declared.is_none());
    let eval_layout = own_layout == Some(Benchmark::ChartomQa);
    let bench = match declared {
        Some(_) => "",
        None => benchmark_of(c, obj, own_layout),
    };
    if declared.is_none() {
        check_image(c, obj, images);
    }

    // Responses: models named, once each.
    let mut models: Vec<String> = Vec::new();
    let (list, at, model) = match declared {
        Some(d) => d.responses.as_ref().map_or((None, "", "model"), |r| {
            let list = crate::bench::declared::lookup(obj, &r.path);
            (list, r.path.as_str(), r.model.as_str())
        }),
        None => (obj.get("responses"), "responses", "model"),
    };
    let responses = responses(c, list, at, model, &mut models);
    // An evaluation line's `response` is its one response when given and the line has no
    // `responses` (as the loader reads it, `bench::chartom_qa::eval`).
    let eval_response =
        eval_layout && responses.is_empty() && obj.get("response").is_some_and(|v| !v.is_null());
    let n_responses = if eval_response { 1 } else { responses.len() };
    if eval_response {
        // Named as the loader names it (`Item::name_eval_model`).
        let m = match obj.get("model") {
            Some(Value::String(s)) => s.clone(),
            _ => eval_model
                .unwrap_or(crate::bench::chartom_qa::eval::EVAL_DEFAULT_MODEL)
                .to_string(),
        };
        models.push(m);
    }

    let spec: &dyn crate::bench::Spec = match declared {
        Some(d) => d,
        None => crate::bench::spec(Benchmark::from_name(Some(bench))),
    };
    let info = spec.check(c, obj, &responses, eval_layout);

    if let Some(reviews) = c.obj(obj, "reviews", "reviews") {
        for (name, r) in reviews {
            let f = format!("reviews.{name}");
            match r {
                Value::Object(r) => check_review(c, r, &f, &models, n_responses, &info),
                other => c.wrong_type(&f, "an object", other),
            }
        }
    }
}

/// The item's benchmark (`""`: the generic view), from `benchmark` or its own layout.
fn benchmark_of<'o>(
    c: &mut Ctx,
    obj: &'o Map<String, Value>,
    own_layout: Option<Benchmark>,
) -> &'o str {
    match obj.get("benchmark") {
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
        None | Some(Value::Null) if own_layout.is_some() => own_layout.map_or("", Benchmark::name),
        None | Some(Value::Null) => {
            if let Some(m) = crate::bench::lm_eval::check::near_miss(obj) {
                c.warn("", m);
            }
            c.notice("benchmark", "no benchmark: shown with the generic view");
            ""
        }
        Some(v) => {
            c.wrong_type("benchmark", "a string", v);
            ""
        }
    }
}

/// The item's `image`: a path, and with `images` (the base folder and the paths already
/// looked at) a regular file.
fn check_image(
    c: &mut Ctx,
    obj: &Map<String, Value>,
    images: Option<(&Path, &mut HashMap<String, Option<&'static str>>)>,
) {
    if let Some(img) = c.str(obj, "image", "image") {
        if img.trim().is_empty() {
            c.warn("image", "empty image path");
        } else if let Some((base, images)) = images {
            let problem = *images
                .entry(img.to_string())
                .or_insert_with(|| image_problem(&base.join(img)));
            if let Some(problem) = problem {
                c.warn(
                    "image",
                    format!(
                        "image file {problem}: {}",
                        quote(&base.join(img).to_string_lossy())
                    ),
                );
            }
        }
    }
}

/// The item's responses (`list`, at `at`: its `responses`), each an object with a model
/// of its own (its key `model`; pushed to `models`).
fn responses<'o>(
    c: &mut Ctx,
    list: Option<&'o Value>,
    at: &str,
    model: &str,
    models: &mut Vec<String>,
) -> Vec<&'o Map<String, Value>> {
    let list = match list {
        None | Some(Value::Null) => None,
        Some(Value::Array(a)) => Some(a),
        Some(v) => {
            c.wrong_type(at, "an array", v);
            None
        }
    };
    match list {
        Some(a) => a
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let f = format!("{at}[{i}]");
                match r {
                    Value::Object(o) => {
                        match c.str(o, model, &join(&f, model)) {
                            Some(m) if !m.trim().is_empty() => {
                                if models.iter().any(|x| x == m) {
                                    c.error(
                                        &join(&f, model),
                                        format!("a second response of model {}", quote(m)),
                                    );
                                }
                                models.push(m.to_string());
                            }
                            Some(_) => c.error(&join(&f, model), "empty model name"),
                            None if o.get(model).is_none_or(Value::is_null) => {
                                c.error(&join(&f, model), "missing")
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
    }
}

pub(crate) fn check_review(
    c: &mut Ctx,
    r: &Map<String, Value>,
    f: &str,
    models: &[String],
    n_responses: usize,
    info: &BenchInfo,
) {
    check_at(c, r, f);
    c.str(r, "note", &join(f, "note"));
    c.str(r, "verdict", &join(f, "verdict"));
    c.bool(r, "final", &join(f, "final"));
    if let Some(s) = c.num(r, "seconds", &join(f, "seconds"))
        && s < 0.0
    {
        c.error(&join(f, "seconds"), "negative");
    }

    // The benchmarks' item-level review fields (docs/format.md).
    crate::bench::check_review_fields(c, r, f, info);

    // Grades of responses.
    let top_level = check_grades(c, r, f, info) | crate::bench::check_answers(c, r, f, info, true);
    if top_level && n_responses > 1 {
        c.warn(
            f,
            format!(
                "grades at the top level of a review of an item with {n_responses} responses: put them under models.<model>"
            ),
        );
    }
    per_model_grades(c, r, f, models, info);
}

/// A review's `at`: an RFC 3339 time, in UTC.
fn check_at(c: &mut Ctx, r: &Map<String, Value>, f: &str) {
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
}

/// A review's `models`: grades per model, each a model with a response on the item.
fn per_model_grades(
    c: &mut Ctx,
    r: &Map<String, Value>,
    f: &str,
    models: &[String],
    info: &BenchInfo,
) {
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
                    check_grades(c, g, &mf, info);
                    crate::bench::check_answers(c, g, &mf, info, false);
                }
                other => c.wrong_type(&mf, "an object", other),
            }
        }
    }
}

/// Check the response-grade fields of `g`; true when it has any.
pub(crate) fn check_grades(c: &mut Ctx, g: &Map<String, Value>, f: &str, info: &BenchInfo) -> bool {
    crate::bench::check_grade_fields(c, g, f, info)
}
