//! The typed view of one item, holding each benchmark's fields as this registry lists
//! them (docs/format.md).
//!
//! An [`Item`] is parsed from the raw JSON text of one item. Keys no benchmark knows are
//! ignored here; the store keeps the raw text, so nothing is lost on save. Edits go
//! through `serde_json::Value` (see `store`), never through these structs.

use std::sync::Arc;

use indexmap::IndexMap;
use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::bench::chartom::fields::{Chart, Fact, Mind};
use crate::bench::chartom_qa::fields::{Context, Judge};
use crate::bench::cvqa::fields::QuestionAnswer;
use crate::bench::{Benchmark, FileInfo, Layout};
use crate::model::{FieldError, FlatFields, Key, opt_string_or_number, parse_with_path};

/// One benchmark item with its responses and reviews.
///
/// Its reviews are its own; everything else ([`ItemFields`], read and written through
/// the item as if they were its fields) is shared by its clones: a clone with other
/// reviews (the reviewer's item as shown, its facts with my verdict) does not copy a
/// question or a context of megabytes (issue 21). Writing a field of a clone copies the
/// fields first (`Arc::make_mut`).
#[derive(Debug, Clone, Default)]
pub struct Item {
    pub reviews: IndexMap<String, Review>,
    fields: Arc<ItemFields>,
}

/// An [`Item`]'s fields but its reviews: the result-set fields of docs/format.md.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ItemFields {
    pub id: Option<String>,
    /// The raw `benchmark` value; use [`Item::benchmark`] for the parsed kind.
    #[serde(rename = "benchmark")]
    pub benchmark_name: Option<String>,
    pub image: Option<String>,
    pub responses: Vec<Response>,
    /// The reviews as parsed, moved into [`Item::reviews`] at once.
    #[serde(rename = "reviews")]
    parsed_reviews: IndexMap<String, Review>,

    // CHARTOM
    pub chart: Option<Box<Chart>>,
    pub fact: Option<Box<Fact>>,
    pub mind: Option<Mind>,

    // CharToM-QA
    pub book: Option<String>,
    pub character: Option<String>,
    pub dimension: Option<String>,
    pub context: Option<Box<Context>>,
    pub question: Option<String>,
    #[serde(deserialize_with = "opt_string_or_number")]
    pub answer: Option<String>,
    pub bonus_points: Vec<String>,
    pub choices: Vec<String>,
    pub key: Option<i64>,

    // C-VQA
    pub split: Option<String>,
    pub group: Option<String>,
    pub original: Option<Box<QuestionAnswer>>,
    pub counterfactual: Option<Box<QuestionAnswer>>,

    /// The line is in a benchmark's own layout, not a result set's: which, and what of it
    /// the benchmark keeps (set by [`crate::bench::sniff`]).
    #[serde(skip)]
    pub layout: Option<Layout>,
    /// In a folder read as one set: which task, model and run the item's file is of
    /// ([`crate::bench::PartLabel`]).
    #[serde(skip)]
    pub part: Option<Arc<crate::bench::PartLabel>>,
}

impl<'de> Deserialize<'de> for Item {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Item, D::Error> {
        let mut fields = ItemFields::deserialize(d)?;
        Ok(Item {
            reviews: std::mem::take(&mut fields.parsed_reviews),
            fields: Arc::new(fields),
        })
    }
}

impl std::ops::Deref for Item {
    type Target = ItemFields;
    fn deref(&self) -> &ItemFields {
        &self.fields
    }
}

impl std::ops::DerefMut for Item {
    fn deref_mut(&mut self) -> &mut ItemFields {
        Arc::make_mut(&mut self.fields)
    }
}

impl Item {
    /// The item's fields, taken from it (copied only when a clone shares them).
    pub fn into_fields(self) -> ItemFields {
        Arc::unwrap_or_clone(self.fields)
    }

    /// Parse one item from its JSON text. Errors carry the path of the offending field.
    /// A line that names no benchmark may be in a benchmark's own layout: the registry
    /// ([`crate::bench::sniff`]) maps it onto the result-set fields.
    pub fn parse(text: &str) -> Result<Item, FieldError> {
        // Given a declared benchmark, every line is one of its items (its own keys only).
        if let Some(d) = crate::bench::declared::registered() {
            let (fields, reviews) = d.read(text)?;
            return Ok(Item {
                reviews,
                fields: Arc::new(fields),
            });
        }
        let mut item: Item = parse_with_path(text)?;
        if item.benchmark_name.is_none() {
            crate::bench::sniff(text, &mut item)?;
        }
        Ok(item)
    }

    pub fn benchmark(&self) -> Benchmark {
        // A declared benchmark's item (`--benchmark`) is named by its spec, not the file.
        if matches!(self.layout, Some(Layout::Declared(_))) {
            return Benchmark::Declared;
        }
        match Benchmark::from_name(self.benchmark_name.as_deref()) {
            // A benchmark known by the shape of its lines (`bench::sniff`), never by a name
            // (lm-eval's samples): a result-set line that names it is an unknown
            // benchmark, shown and graded with the generic view (docs/format.md).
            b if b.by_layout_only() && self.layout.is_none() => Benchmark::Other,
            b => b,
        }
    }

    /// True when this line is in the CharToM-QA evaluation JSONL layout.
    pub fn is_chartom_qa_eval(&self) -> bool {
        matches!(self.layout, Some(Layout::ChartomQaEval(_)))
    }

    /// Name the model of a line that names none from its file, as its layout says
    /// ([`crate::bench::chartom_qa::eval::eval_model_name`]).
    pub fn name_eval_model(&mut self, path: &std::path::Path) {
        crate::bench::name_from_file(self, &FileInfo::of(path));
    }

    /// [`Item::name_eval_model`] with what was worked out when the file was opened.
    pub fn name_from_file(&mut self, file: &FileInfo) {
        crate::bench::name_from_file(self, file);
    }

    /// The `misleading_choices` of an evaluation line, when they are what `choices` shows
    /// (they are wrong answers, not options with a key).
    pub fn shows_misleading_choices(&self) -> bool {
        match &self.layout {
            Some(Layout::ChartomQaEval(l)) => {
                l.shows_misleading_choices(self.choices.len()) && self.key.is_none()
            }
            _ => false,
        }
    }

    /// The response of `model`, if any.
    pub fn response(&self, model: &str) -> Option<&Response> {
        self.responses.iter().find(|r| r.model == model)
    }
}

/// One model's answer to an item. Which fields are present depends on the benchmark.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Response {
    pub model: String,
    // CHARTOM
    #[serde(deserialize_with = "opt_string_or_number")]
    pub fact: Option<String>,
    pub mind: Option<f64>,
    pub justification: Option<String>,
    // CharToM-QA
    pub text: Option<String>,
    pub choice: Option<i64>,
    pub judge: Option<Box<Judge>>,
    // C-VQA
    #[serde(deserialize_with = "opt_string_or_number")]
    pub original: Option<String>,
    #[serde(deserialize_with = "opt_string_or_number")]
    pub counterfactual: Option<String>,
}

/// A reviewer's verdict on one item (`reviews.<name>` in the file).
///
/// Grades of a response live at the top level when the item has one response, and under
/// `models.<model>` when it has several (see docs/format.md); [`Review::for_model`]
/// resolves which applies.
///
/// Written with serde's `flatten`; read in one pass over its keys ([`FlatFields`], below:
/// what `flatten` reads, without its buffer of every other key).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Review {
    /// RFC 3339 UTC time of the verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Seconds the reviewer spent on the item.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    /// An adjudicator's final verdict (docs/teams.md).
    #[serde(rename = "final", skip_serializing_if = "Option::is_none")]
    pub is_final: Option<bool>,
    /// A free verdict for items of unknown benchmarks (`"pass"`, `"fail"`, anything).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,

    /// C-VQA: the verification of the item's generated question (flat in the review).
    #[serde(flatten)]
    pub cvqa: crate::bench::cvqa::fields::Verification,
    /// Inspect: verdicts on scorers other than the headline one (`scorers`).
    #[serde(flatten)]
    pub inspect: crate::bench::inspect::fields::Grades,

    /// Response grades (single-response items); see `models` for several.
    #[serde(flatten)]
    pub grades: ResponseGrades,
    /// Response grades per model, for items with several responses.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub models: IndexMap<String, ResponseGrades>,
}

/// A reviewer's grades of one model response (read as [`Review`] is).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct ResponseGrades {
    /// CHARTOM: the FACT override and the justification grade.
    #[serde(flatten)]
    pub chartom: crate::bench::chartom::fields::Grades,
    /// CharToM-QA: the bonus points covered and the penalty.
    #[serde(flatten)]
    pub chartom_qa: crate::bench::chartom_qa::fields::Grades,
    /// C-VQA: overrides of the automatic grading.
    #[serde(flatten)]
    pub cvqa: crate::bench::cvqa::fields::Grades,
    /// A declared benchmark's answers, by question (docs/format.md, "Declared
    /// benchmarks"). The review's top-level `answers` holds the item's questions' too.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub answers: IndexMap<String, serde_json::Value>,
}

impl ResponseGrades {
    pub fn is_empty(&self) -> bool {
        *self == ResponseGrades::default()
    }

    /// The same grades written alike whatever order they were given in (two reviewers'
    /// grades that agree compare equal).
    pub fn normalized(&self) -> ResponseGrades {
        ResponseGrades {
            chartom_qa: self.chartom_qa.normalized(),
            ..self.clone()
        }
    }
}

impl Review {
    /// Does the review say anything? `at`, `seconds` and `final` alone are not a verdict: a
    /// review left with nothing else is removed rather than written empty.
    pub fn has_content(&self) -> bool {
        self.note.is_some()
            || self.verdict.is_some()
            || !self.cvqa.is_empty()
            || !self.inspect.is_empty()
            || !self.grades.is_empty()
            || self.models.values().any(|g| !g.is_empty())
    }

    /// The grades this review gives to `model`'s response, on an item with `n_responses`
    /// responses: `models.<model>` when present, else the top-level grades when the item
    /// has exactly one response.
    pub fn for_model(&self, model: &str, n_responses: usize) -> Option<&ResponseGrades> {
        if let Some(g) = self.models.get(model) {
            return Some(g);
        }
        if n_responses <= 1 && !self.grades.is_empty() {
            return Some(&self.grades);
        }
        None
    }
}

// ----- reading a review: its own fields, then each group's, in the order they were flattened

/// A review's own fields, each read once (`duplicate field` otherwise, as serde says).
fn own_field<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
    map: &mut A,
    name: &'static str,
    bit: u8,
    seen: &mut u8,
    slot: &mut T,
) -> Result<(), A::Error> {
    if *seen & bit != 0 {
        return Err(serde::de::Error::duplicate_field(name));
    }
    *seen |= bit;
    *slot = map.next_value()?;
    Ok(())
}

impl<'de> Deserialize<'de> for Review {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Review, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Review;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("struct Review")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Review, A::Error> {
                let mut r = Review::default();
                let mut own = 0u8;
                let mut seen = [0u64; 3];
                while let Some(Key(key)) = map.next_key()? {
                    let m = &mut map;
                    match &*key {
                        "at" => own_field(m, "at", 1, &mut own, &mut r.at)?,
                        "note" => own_field(m, "note", 2, &mut own, &mut r.note)?,
                        "seconds" => own_field(m, "seconds", 4, &mut own, &mut r.seconds)?,
                        "final" => own_field(m, "final", 8, &mut own, &mut r.is_final)?,
                        "verdict" => own_field(m, "verdict", 16, &mut own, &mut r.verdict)?,
                        "models" => own_field(m, "models", 32, &mut own, &mut r.models)?,
                        k => {
                            let [a, b, c] = &mut seen;
                            if !(r.cvqa.read_field(k, m, a)?
                                || r.inspect.read_field(k, m, b)?
                                || r.grades.read_field(k, m, c)?)
                            {
                                m.next_value::<IgnoredAny>()?;
                            }
                        }
                    }
                }
                Ok(r)
            }
        }
        d.deserialize_map(V)
    }
}

/// Each benchmark's grades of a response, read flat: 16 bits of `seen` each.
impl FlatFields for ResponseGrades {
    fn read_field<'de, A: MapAccess<'de>>(
        &mut self,
        key: &str,
        map: &mut A,
        seen: &mut u64,
    ) -> Result<bool, A::Error> {
        if key == "answers" {
            if *seen & 1 << 48 != 0 {
                return Err(serde::de::Error::duplicate_field("answers"));
            }
            *seen |= 1 << 48;
            self.answers = map.next_value()?;
            return Ok(true);
        }
        let mut part = [
            *seen & 0xffff,
            (*seen >> 16) & 0xffff,
            (*seen >> 32) & 0xffff,
        ];
        let [a, b, c] = &mut part;
        let took = self.chartom.read_field(key, map, a)?
            || self.chartom_qa.read_field(key, map, b)?
            || self.cvqa.read_field(key, map, c)?;
        *seen = part[0] | part[1] << 16 | part[2] << 32 | *seen & 1 << 48;
        Ok(took)
    }
}

impl<'de> Deserialize<'de> for ResponseGrades {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ResponseGrades, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ResponseGrades;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("struct ResponseGrades")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ResponseGrades, A::Error> {
                let mut g = ResponseGrades::default();
                let mut seen = 0;
                while let Some(Key(key)) = map.next_key()? {
                    if !g.read_field(&key, &mut map, &mut seen)? {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(g)
            }
        }
        d.deserialize_map(V)
    }
}

#[cfg(test)]
#[path = "item_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "review_read_tests.rs"]
mod review_read_tests;
