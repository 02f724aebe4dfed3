//! CHARTOM (misleading charts): FACT answers graded by the paper's rules, MIND
//! predictions against the Human Misleadingness Index, justifications graded by hand
//! (docs/format.md, "CHARTOM").

pub(crate) mod agree;
pub mod check;
pub mod export;
pub mod fields;
pub mod grade;
pub mod import;
pub mod review;
pub mod stats;
pub(crate) mod stats_text;

use serde_json::{Map, Value};

use crate::bench::Facet;
use crate::bench::disagree::AutoGrades;
use crate::bench::kit::check::{BenchInfo, Ctx};
use crate::bench::kit::row::Row;
use crate::bench::{Item, Response, ResponseGrades};

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

    fn model_wrong(&self, item: &Item, model: &str) -> bool {
        grade::fact_wrong(item, model)
    }

    fn auto_grades(&self, item: &Item, model: &str) -> AutoGrades {
        AutoGrades {
            fact: item.fact.as_ref().and_then(|f| {
                grade::fact_correct(f, item.response(model).and_then(|r| r.fact.as_deref()))
            }),
            ..AutoGrades::default()
        }
    }

    /// A response with a justification needs its grade.
    fn response_required(&self, resp: &Response) -> bool {
        resp.justification
            .as_deref()
            .is_some_and(|t| !t.trim().is_empty())
    }

    fn response_done(&self, _item: &Item, g: Option<&ResponseGrades>) -> bool {
        g.is_some_and(|g| g.chartom.justification.is_some())
    }

    fn facets(&self, item: &Item, emit: &mut dyn FnMut(Facet, &str)) {
        if grade::suspect_key(item).is_some() {
            emit(Facet::SuspectKey, "");
        }
        if let Some(c) = &item.chart {
            if let Some(t) = &c.chart_type {
                emit(Facet::ChartType, t);
            }
            if let Some(v) = c.version {
                emit(Facet::Version, v.name());
            }
        }
    }

    fn search_texts(&self, item: &Item, push: &mut dyn FnMut(&str)) {
        if let Some(q) = item.fact.as_ref().and_then(|f| f.question.as_deref()) {
            push(q);
        }
    }
}
