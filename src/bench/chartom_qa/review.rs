//! CharToM-QA's grading operations: what its keys do to its own review type
//! (docs/format.md, "What the default keys write").

use super::fields::Grades;

impl Grades {
    /// CharToM-QA: tick or untick bonus point `n` (1-based).
    pub fn toggle_bonus(&mut self, n: u32) {
        let mut b = self.bonus.take().unwrap_or_default();
        if let Some(p) = b.iter().position(|&x| x == n) {
            b.remove(p);
        } else {
            b.push(n);
            b.sort_unstable();
        }
        self.bonus = Some(b);
    }

    /// CharToM-QA: no bonus point covered (an explicit empty `bonus`).
    pub fn no_bonus(&mut self) {
        self.bonus = Some(vec![]);
    }

    /// CharToM-QA: the penalty text (`None` or blank: graded, no penalty). The bonus points
    /// are left as they are: a penalty is not a bonus grade.
    pub fn set_penalty(&mut self, text: Option<&str>) {
        self.penalty = Some(
            text.map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_string),
        );
    }
}
