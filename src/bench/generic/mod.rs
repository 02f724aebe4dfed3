//! Any other benchmark (`"other"`): a free verdict and a note (docs/format.md).

pub(crate) mod agree;
pub mod export;
pub mod stats;
pub(crate) mod stats_text;

use serde_json::{Map, Value};

use crate::bench::kit::check::{BenchInfo, Ctx};
use crate::bench::kit::row::Row;
use crate::bench::{Item, Review};

/// The rules of any other benchmark.
pub struct Generic;

impl super::Spec for Generic {
    fn check(
        &self,
        _c: &mut Ctx,
        _obj: &Map<String, Value>,
        _responses: &[&Map<String, Value>],
        _eval_layout: bool,
    ) -> BenchInfo {
        BenchInfo::default()
    }

    fn export(&self, row: &mut Row, it: &Item, model: &str) {
        export::fill(row, it, model)
    }

    /// The free `verdict`.
    fn item_verdict(&self) -> Option<fn(&Review) -> bool> {
        Some(|r| r.verdict.is_some())
    }
}
