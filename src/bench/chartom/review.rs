//! CHARTOM's grading operations: what its keys do to its own review type (docs/format.md,
//! "What the default keys write").

use super::fields::{Grades, JustificationGrade};
use crate::bench::kit::grades::cycle;
use crate::grade::resolve::vote_field;

impl Grades {
    /// CHARTOM: the justification grade.
    pub fn set_justification(&mut self, j: JustificationGrade) {
        self.justification = Some(j);
    }

    /// CHARTOM `x`: cycle the FACT grade override.
    pub fn cycle_fact(&mut self) {
        self.fact_correct = cycle(self.fact_correct);
    }
}

impl Grades {
    /// Several reviewers' grades of one response, each field voted among those who set
    /// it (docs/stats.md).
    pub fn majority(graders: &[(&Grades, usize)], tied: &std::cell::Cell<bool>) -> Grades {
        Grades {
            fact_correct: vote_field(graders, |g| g.fact_correct.as_ref(), tied),
            justification: vote_field(graders, |g| g.justification.as_ref(), tied),
        }
    }
}
