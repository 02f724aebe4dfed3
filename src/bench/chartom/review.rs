//! CHARTOM's grading operations: what its keys do to its own review type (docs/format.md,
//! "What the default keys write").

use super::fields::{Grades, JustificationGrade};
use crate::bench::kit::grades::cycle;

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
