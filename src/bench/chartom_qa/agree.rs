//! CharToM-QA's variables in `verdict agree` (docs/teams.md): each bonus point covered or
//! not and the penalty present or absent, by the reviewers and, as one more rater, by
//! the LLM judge.

use crate::bench::chartom_qa::fields::JudgeBonus;
use crate::bench::kit::agree::{ItemRatings, Variable};

use super::super::Benchmark::ChartomQa;

const COVERED: [&str; 2] = ["covered", "not covered"];
const PENALTY: [&str; 2] = ["present", "absent"];

pub(crate) struct Variables {
    bonus: Variable,
    penalty: Variable,
    /// The same two with the judge as one more rater.
    pub(crate) j_bonus: Variable,
    pub(crate) j_penalty: Variable,
    /// Responses with a judge grading.
    pub(crate) judged: usize,
    /// Of which the judge's bonus could not be parsed.
    pub(crate) unparsable: usize,
}

impl Default for Variables {
    fn default() -> Variables {
        let unit = "item × model × bonus point";
        Variables {
            bonus: Variable::new(ChartomQa, "bonus", unit, &COVERED, false),
            penalty: Variable::new(ChartomQa, "penalty", "item × model", &PENALTY, false),
            j_bonus: Variable::new(ChartomQa, "bonus", unit, &COVERED, false),
            j_penalty: Variable::new(ChartomQa, "penalty", "item × model", &PENALTY, false),
            judged: 0,
            unparsable: 0,
        }
    }
}

impl Variables {
    pub(crate) fn rate(&mut self, x: ItemRatings) {
        let (i, item, label, raters, judge) = (x.i, x.item, x.label, x.raters, x.judge);
        let n_resp = item.responses.len();
        let warnings = x.warnings;
        let points = item.bonus_points.len() as u32;
        for resp in &item.responses {
            let m = &resp.model;
            for &(r, rv) in x.reviews {
                let Some(g) = rv.for_model(m, n_resp) else {
                    continue;
                };
                if let Some(list) = &g.chartom_qa.bonus {
                    for &p in list.iter().filter(|&&p| p == 0 || p > points) {
                        warnings.push(format!(
                            "item {label}: model {m}: reviewer {}: bonus point {p} is not one of the item's {points} points; left out",
                            raters[r]
                        ));
                    }
                    for p in 1..=points {
                        let c = if list.contains(&p) { 0 } else { 1 };
                        self.bonus.rate((i, m.clone(), p), r, c);
                        self.j_bonus.rate((i, m.clone(), p), r, c);
                    }
                }
                if let Some(pen) = &g.chartom_qa.penalty {
                    let c = if pen.is_some() { 0 } else { 1 };
                    self.penalty.rate((i, m.clone(), 0), r, c);
                    self.j_penalty.rate((i, m.clone(), 0), r, c);
                }
            }
            if let Some(jg) = &resp.judge {
                self.judged += 1;
                match jg.bonus_list() {
                    JudgeBonus::Points(list) => {
                        for &p in list.iter().filter(|&&p| p > points) {
                            warnings.push(format!(
                                "item {label}: model {m}: the judge's bonus point {p} is not one of the item's {points} points; left out"
                            ));
                        }
                        for p in 1..=points {
                            let c = if list.contains(&p) { 0 } else { 1 };
                            self.j_bonus.rate((i, m.clone(), p), judge, c);
                        }
                    }
                    JudgeBonus::Unparsable(_) => self.unparsable += 1,
                }
                let c = if jg.penalty_text().is_some() { 0 } else { 1 };
                self.j_penalty.rate((i, m.clone(), 0), judge, c);
            }
        }
    }

    /// The reviewers' variables, in the report's order.
    pub(crate) fn human(&self) -> [&Variable; 2] {
        [&self.bonus, &self.penalty]
    }
}
