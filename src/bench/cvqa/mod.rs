//! C-VQA (counterfactual questions on images): question verification, and the model's
//! answers graded as the benchmark's scripts grade them (docs/format.md, "C-VQA").

pub mod check;
pub mod export;
pub mod grade;
pub mod import;
pub mod stats;

use serde_json::{Map, Value};

use crate::check::{BenchInfo, Ctx};
use crate::export::Row;
use crate::model::Item;

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
}
