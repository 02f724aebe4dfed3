//! CharToM-QA (theory of mind on novel characters): bonus points and penalties, from the
//! LLM judge and from humans (docs/format.md, "CharToM-QA").

pub(crate) mod agree;
pub mod check;
pub mod eval;
pub mod export;
pub mod fields;
pub mod grade;
pub mod review;
pub mod stats;
pub(crate) mod stats_text;

use serde_json::{Map, Value};

use crate::bench::Facet;
use crate::bench::chartom_qa::fields::JudgeBonus;
use crate::bench::disagree::sorted;
use crate::bench::kit::check::{BenchInfo, Ctx};
use crate::bench::kit::row::Row;
use crate::bench::{Item, Response, ResponseGrades};

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

    fn model_wrong(&self, item: &Item, model: &str) -> bool {
        grade::model_wrong(item, model)
    }

    fn human_judge_disagree(&self, item: &Item) -> bool {
        let n = item.responses.len();
        let reviews: Vec<_> = item
            .reviews
            .values()
            .filter(|r| r.is_final != Some(true))
            .collect();
        for resp in &item.responses {
            let Some(j) = &resp.judge else { continue };
            let JudgeBonus::Points(jb) = j.bonus_list() else {
                continue;
            };
            for r in &reviews {
                if let Some(g) = r.for_model(&resp.model, n) {
                    if let Some(b) = &g.chartom_qa.bonus
                        && sorted(b) != sorted(&jb)
                    {
                        return true;
                    }
                    if let Some(p) = &g.chartom_qa.penalty
                        && p.is_some() != j.penalty_text().is_some()
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// A response with a text needs bonus points and a penalty.
    fn response_required(&self, resp: &Response) -> bool {
        resp.text.as_deref().is_some_and(|t| !t.trim().is_empty())
    }

    fn response_done(&self, item: &Item, g: Option<&ResponseGrades>) -> bool {
        g.is_some_and(|g| {
            (g.chartom_qa.bonus.is_some() || item.bonus_points.is_empty())
                && g.chartom_qa.penalty.is_some()
        })
    }

    fn facets(&self, item: &Item, emit: &mut dyn FnMut(Facet, &str)) {
        if let Some(d) = &item.dimension {
            emit(Facet::Dimension, d);
        }
    }

    fn search_texts(&self, item: &Item, push: &mut dyn FnMut(&str)) {
        if let Some(b) = &item.book {
            push(b);
        }
        if let Some(q) = &item.question {
            push(q);
        }
    }
}
