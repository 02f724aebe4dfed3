//! C-VQA's variables in `verdict agree` (docs/teams.md): the question verification
//! verdicts, one unit per item.

use crate::bench::cvqa::fields::{CvqaReason, CvqaStatus};
use crate::bench::kit::agree::{ItemRatings, Variable};

use super::super::Benchmark::Cvqa;

pub(crate) struct Variables {
    status: Variable,
    reason: Variable,
    image_related: Variable,
    answer_ok: Variable,
}

impl Default for Variables {
    fn default() -> Variables {
        let reasons: Vec<&str> = CvqaReason::ALL.iter().map(|r| r.name()).collect();
        Variables {
            status: Variable::new(
                Cvqa,
                "status",
                "item",
                &CvqaStatus::ALL.map(CvqaStatus::name),
                false,
            ),
            reason: Variable::new(Cvqa, "reason", "item", &reasons, false),
            image_related: Variable::new(Cvqa, "image_related", "item", &["yes", "no"], false),
            answer_ok: Variable::new(Cvqa, "answer_ok", "item", &["yes", "no"], false),
        }
    }
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

impl Variables {
    pub(crate) fn rate(&mut self, x: ItemRatings) {
        let item_key = (x.i, String::new(), 0u32);
        for &(r, rv) in x.reviews {
            if let Some(s) = rv.cvqa.status {
                self.status.rate_named(item_key.clone(), r, s.name());
            }
            if let Some(v) = rv.cvqa.reason {
                self.reason.rate_named(item_key.clone(), r, v.name());
            }
            if let Some(b) = rv.cvqa.image_related {
                self.image_related
                    .rate_named(item_key.clone(), r, yes_no(b));
            }
            if let Some(b) = rv.cvqa.answer_ok {
                self.answer_ok.rate_named(item_key.clone(), r, yes_no(b));
            }
        }
    }

    /// The reviewers' variables, in the report's order.
    pub(crate) fn human(&self) -> [&Variable; 4] {
        [
            &self.status,
            &self.reason,
            &self.image_related,
            &self.answer_ok,
        ]
    }
}
