//! CHARTOM (misleading charts): FACT answers graded by the paper's rules, MIND
//! predictions against the Human Misleadingness Index, justifications graded by hand
//! (docs/format.md, "CHARTOM").

pub mod check;
pub mod export;
pub mod grade;
pub mod import;
pub mod stats;

use serde_json::{Map, Value};

use crate::check::{BenchInfo, Ctx};
use crate::export::Row;
use crate::model::Item;

/// The rules of Chartom.
pub struct Chartom;

impl super::Spec for Chartom {
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
