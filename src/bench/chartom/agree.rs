//! CHARTOM's variable in `verdict agree` (docs/teams.md): the justification grade of each
//! response, an ordinal scale.

use crate::bench::chartom::fields::JustificationGrade;
use crate::bench::kit::agree::{ItemRatings, Variable};

use super::super::Benchmark::Chartom;

pub(crate) struct Variables {
    justification: Variable,
}

impl Default for Variables {
    fn default() -> Variables {
        let grades = JustificationGrade::ALL.map(JustificationGrade::name);
        Variables {
            justification: Variable::new(Chartom, "justification", "item × model", &grades, true),
        }
    }
}

impl Variables {
    pub(crate) fn rate(&mut self, x: ItemRatings) {
        let (i, item) = (x.i, x.item);
        let n_resp = item.responses.len();
        for resp in &item.responses {
            for &(r, rv) in x.reviews {
                if let Some(g) = rv
                    .for_model(&resp.model, n_resp)
                    .and_then(|g| g.chartom.justification)
                {
                    self.justification
                        .rate_named((i, resp.model.clone(), 0), r, g.name());
                }
            }
        }
    }

    /// The reviewers' variables, in the report's order.
    pub(crate) fn human(&self) -> [&Variable; 1] {
        [&self.justification]
    }
}
