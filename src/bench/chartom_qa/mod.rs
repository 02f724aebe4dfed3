//! CharToM-QA (theory of mind on novel characters): bonus points and penalties, from the
//! LLM judge and from humans (docs/format.md, "CharToM-QA").

pub mod check;
pub mod export;
pub mod grade;
pub mod stats;

use serde_json::{Map, Value};

use crate::check::{BenchInfo, Ctx};
use crate::export::Row;
use crate::model::Item;

/// The rules of ChartomQa.
pub struct ChartomQa;

impl super::Spec for ChartomQa {
    fn check(
        &self,
        c: &mut Ctx,
        obj: &Map<String, Value>,
        responses: &[&Map<String, Value>],
        eval_layout: bool,
    ) -> BenchInfo {
        check::item(c, obj, responses, eval_layout)
    }

    fn export(&self, row: &mut Row, it: &Item, model: &str) {
        export::fill(row, it, model)
    }
}
