//! C-VQA (counterfactual questions on images): question verification, and the model's
//! answers graded as the benchmark's scripts grade them (docs/format.md, "C-VQA").

pub(crate) mod agree;
pub mod check;
pub mod export;
pub mod fields;
pub mod grade;
pub mod import;
pub mod resolve;
pub mod review;
pub mod stats;
pub(crate) mod stats_text;

use serde_json::{Map, Value};

use crate::bench::Facet;
use crate::bench::disagree::AutoGrades;
use crate::bench::kit::check::{BenchInfo, Ctx};
use crate::bench::kit::row::Row;
use crate::bench::{Item, Review};

/// The rules of Cvqa.
pub struct Cvqa;

impl super::Spec for Cvqa {
    fn check(
        &self,
        c: &mut Ctx,
        obj: &Map<String, Value>,
        responses: &[&Map<String, Value>],
        _eval_layout: bool,
    ) -> BenchInfo {
        check::item(c, obj, responses)
    }

    fn export(&self, row: &mut Row, it: &Item, model: &str) {
        export::fill(row, it, model)
    }

    fn model_wrong(&self, item: &Item, model: &str) -> bool {
        grade::response_wrong(item, model)
    }

    fn auto_grades(&self, item: &Item, model: &str) -> AutoGrades {
        use grade::{Question, automatic_correct};
        AutoGrades {
            fact: None,
            original: Some(automatic_correct(item, model, Question::Original)),
            counterfactual: Some(automatic_correct(item, model, Question::Counterfactual)),
        }
    }

    /// A reviewer who verified the question accepted the automatic grades of every
    /// response they did not override.
    fn verdict_accepts_automatic(&self, review: &Review) -> bool {
        review.cvqa.status.is_some()
    }

    /// The question's verification: `status`.
    fn item_verdict(&self) -> Option<fn(&Review) -> bool> {
        Some(|r| r.cvqa.status.is_some())
    }

    fn facets(&self, item: &Item, emit: &mut dyn FnMut(Facet, &str)) {
        if let Some(g) = &item.group {
            emit(Facet::Group, g);
        }
    }

    fn search_texts(&self, item: &Item, push: &mut dyn FnMut(&str)) {
        if let Some(o) = &item.original {
            push(&o.question);
        }
        if let Some(c) = &item.counterfactual {
            push(&c.question);
        }
    }
}
