//! When reviewers disagree on an item, with each other or with the LLM judge: the rules
//! behind the reviewer's "disagreement" filter and the adjudication queue. What differs
//! per benchmark (which grades are automatic, what a verdict implies, a judge) comes
//! from its [`Spec`](super::Spec).

use crate::model::{Item, ResponseGrades, Review};

/// Do reviewers disagree on this item (leaving out adjudications), or a human with the
/// LLM judge?
pub fn disagreement(item: &Item) -> bool {
    reviewers_disagree(item) || super::spec(item.benchmark()).human_judge_disagree(item)
}

/// Does the item belong in the adjudication queue: its reviewers disagree and none of
/// them has given the final verdict?
pub fn needs_adjudication(item: &Item) -> bool {
    !item.reviews.values().any(|r| r.is_final == Some(true)) && reviewers_disagree(item)
}

/// Do two reviewers (leaving out adjudications) give different grades to the item?
pub fn reviewers_disagree(item: &Item) -> bool {
    let spec = super::spec(item.benchmark());
    let n = item.responses.len();
    let reviews: Vec<_> = item
        .reviews
        .values()
        .filter(|r| r.is_final != Some(true))
        .collect();
    if reviews.len() >= 2 {
        let autos: Vec<AutoGrades> = item
            .responses
            .iter()
            .map(|resp| spec.auto_grades(item, &resp.model))
            .collect();
        let none = ResponseGrades::default();
        let first = reviews[0];
        for r in &reviews[1..] {
            if r.status != first.status || r.verdict != first.verdict {
                return true;
            }
            for (resp, auto) in item.responses.iter().zip(&autos) {
                // A reviewer whose item verdict stands for the automatic grades (C-VQA)
                // accepted those of every response they did not override.
                let implied = |r: &Review| spec.verdict_accepts_automatic(r);
                let a = first
                    .for_model(&resp.model, n)
                    .or(implied(first).then_some(&none));
                let b = r.for_model(&resp.model, n).or(implied(r).then_some(&none));
                if let (Some(a), Some(b)) = (a, b)
                    && (a.justification != b.justification
                        || a.bonus.as_ref().map(|v| sorted(v))
                            != b.bonus.as_ref().map(|v| sorted(v))
                        || a.penalty.as_ref().map(Option::is_some)
                            != b.penalty.as_ref().map(Option::is_some)
                        || auto.differ(a, b))
                {
                    return true;
                }
            }
        }
    }
    false
}

/// The automatic grades of one response, which an absent override stands for
/// (docs/format.md: an override only replaces the automatic grade).
#[derive(Debug, Default)]
pub(crate) struct AutoGrades {
    pub(crate) fact: Option<bool>,
    pub(crate) original: Option<bool>,
    pub(crate) counterfactual: Option<bool>,
}

impl AutoGrades {
    /// Do two reviewers' effective grades differ: an override equal to the automatic
    /// grade is that grade, and no override means the automatic grade.
    fn differ(&self, a: &ResponseGrades, b: &ResponseGrades) -> bool {
        a.fact_correct.or(self.fact) != b.fact_correct.or(self.fact)
            || a.original_correct.or(self.original) != b.original_correct.or(self.original)
            || a.counterfactual_correct.or(self.counterfactual)
                != b.counterfactual_correct.or(self.counterfactual)
    }
}

/// The bonus points of a list, sorted, each once.
pub(crate) fn sorted(v: &[u32]) -> Vec<u32> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v.dedup();
    v
}
