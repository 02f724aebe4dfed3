//! Other benchmarks' variable in `verdict agree` (docs/teams.md): the free verdict, its
//! categories as the reviewers wrote them.

use crate::bench::kit::agree::{ItemRatings, Variable};

use super::super::Benchmark::Other;

pub(crate) struct Variables {
    verdict: Variable,
}

impl Default for Variables {
    fn default() -> Variables {
        Variables {
            verdict: Variable::new(Other, "verdict", "item", &[], false),
        }
    }
}

impl Variables {
    pub(crate) fn rate(&mut self, x: ItemRatings) {
        let item_key = (x.i, String::new(), 0u32);
        for &(r, rv) in x.reviews {
            if let Some(v) = &rv.verdict {
                self.verdict.rate_named(item_key.clone(), r, v);
            }
        }
    }

    /// The reviewers' variables, in the report's order.
    pub(crate) fn human(&self) -> [&Variable; 1] {
        [&self.verdict]
    }
}
