//! `verdict agree`: each benchmark's categorical variables (docs/teams.md), as the
//! registry lists them.

use super::{Benchmark, chartom, chartom_qa, cvqa, declared, generic};
use crate::bench::kit::agree::{ItemRatings, Variable};

/// Every benchmark's agreement variables, rated item by item.
#[derive(Default)]
pub(crate) struct AgreementVariables {
    cvqa: cvqa::agree::Variables,
    chartom: chartom::agree::Variables,
    chartom_qa: chartom_qa::agree::Variables,
    declared: declared::agree::Variables,
    other: generic::agree::Variables,
}

/// The variables an LLM judge rated beside the reviewers, and how many responses it
/// judged (for the human-vs-judge figures of `verdict agree`).
pub(crate) struct JudgeVariables<'a> {
    /// The benchmark whose responses carry the judge's grading.
    pub(crate) benchmark: Benchmark,
    /// The bonus points covered, with the judge as one more rater.
    pub(crate) bonus: &'a Variable,
    /// The penalty present, with the judge as one more rater.
    pub(crate) penalty: &'a Variable,
    /// Responses with a judge grading.
    pub(crate) judged: usize,
    /// Of which the judge's bonus could not be parsed.
    pub(crate) unparsable: usize,
}

impl AgreementVariables {
    /// Rate one item's reviews on its benchmark's variables.
    pub(crate) fn rate(&mut self, x: ItemRatings) {
        match x.item.benchmark() {
            Benchmark::Cvqa => self.cvqa.rate(x),
            Benchmark::Chartom => self.chartom.rate(x),
            Benchmark::ChartomQa => self.chartom_qa.rate(x),
            Benchmark::Declared => self.declared.rate(x),
            Benchmark::LmEval | Benchmark::Inspect | Benchmark::Other => self.other.rate(x),
        }
    }

    /// The reviewers' variables of every benchmark, in the report's order.
    pub(crate) fn human(&self) -> Vec<&Variable> {
        let mut v: Vec<&Variable> = Vec::new();
        v.extend(self.cvqa.human());
        v.extend(self.chartom.human());
        v.extend(self.chartom_qa.human());
        v.extend(self.declared.human());
        v.extend(self.other.human());
        v
    }

    /// What the LLM judge rated (CharToM-QA's), `None` when no response had a judge.
    pub(crate) fn judge(&self) -> Option<JudgeVariables<'_>> {
        let q = &self.chartom_qa;
        (q.judged > 0).then_some(JudgeVariables {
            benchmark: Benchmark::ChartomQa,
            bonus: &q.j_bonus,
            penalty: &q.j_penalty,
            judged: q.judged,
            unparsable: q.unparsable,
        })
    }
}
