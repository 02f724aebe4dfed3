//! When reviewers disagree on an item, with each other or with the LLM judge: the rules
//! behind the reviewer's "disagreement" filter and the adjudication queue. What differs
//! per benchmark (which grades are automatic, what a verdict implies, a judge) comes
//! from its [`Spec`](super::Spec).

use crate::bench::{Item, ResponseGrades, Review};

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

/// [`disagreement`] and [`needs_adjudication`] of one item, its reviewers compared once
/// (the index asks both of every item).
pub fn disagreement_and_adjudication(item: &Item) -> (bool, bool) {
    let rd = reviewers_disagree(item);
    let any_final = item.reviews.values().any(|r| r.is_final == Some(true));
    (
        rd || super::spec(item.benchmark()).human_judge_disagree(item),
        !any_final && rd,
    )
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
            if r.cvqa.status != first.cvqa.status
                || r.verdict != first.verdict
                || (n > 1
                    && super::declared::answers_differ(&r.grades.answers, &first.grades.answers))
            {
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
                    && (a.chartom.justification != b.chartom.justification
                        || a.chartom_qa.bonus.as_ref().map(|v| sorted(v))
                            != b.chartom_qa.bonus.as_ref().map(|v| sorted(v))
                        || a.chartom_qa.penalty.as_ref().map(Option::is_some)
                            != b.chartom_qa.penalty.as_ref().map(Option::is_some)
                        || super::declared::answers_differ(&a.answers, &b.answers)
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
        a.chartom.fact_correct.or(self.fact) != b.chartom.fact_correct.or(self.fact)
            || a.cvqa.original_correct.or(self.original)
                != b.cvqa.original_correct.or(self.original)
            || a.cvqa.counterfactual_correct.or(self.counterfactual)
                != b.cvqa.counterfactual_correct.or(self.counterfactual)
    }
}

/// The bonus points of a list, sorted, each once.
pub(crate) fn sorted(v: &[u32]) -> Vec<u32> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index's one-pass answer is the two rules' answers, on every sample item with
    /// reviewers who agree, disagree, and an adjudication.
    #[test]
    fn both_at_once_are_the_two_rules() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/samples/");
        let reviews = [
            serde_json::json!({}),
            serde_json::json!({"a": {"status": "accept"}, "b": {"status": "reject", "reason": "ambiguous"}}),
            serde_json::json!({"a": {"status": "accept"}, "b": {"status": "accept"}}),
            serde_json::json!({"a": {"fact_correct": true}, "b": {"fact_correct": false}}),
            serde_json::json!({"a": {"bonus": [1]}, "b": {"bonus": [2], "penalty": null}}),
            serde_json::json!({"a": {"verdict": "pass"}, "b": {"verdict": "fail"}, "c": {"verdict": "pass", "final": true}}),
        ];
        let mut seen = [0; 4];
        for f in [
            "chartom.jsonl",
            "chartom-qa.jsonl",
            "cvqa.jsonl",
            "generic.jsonl",
        ] {
            let text = std::fs::read_to_string(format!("{dir}{f}")).unwrap();
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                for r in &reviews {
                    let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
                    v["reviews"] = r.clone();
                    let item = Item::parse(&v.to_string()).unwrap();
                    let both = disagreement_and_adjudication(&item);
                    assert_eq!(
                        both,
                        (disagreement(&item), needs_adjudication(&item)),
                        "{v}"
                    );
                    seen[usize::from(both.0) * 2 + usize::from(both.1)] += 1;
                }
            }
        }
        assert!(seen[3] > 0 && seen[2] > 0 && seen[0] > 0, "{seen:?}");
    }

    #[test]
    fn an_override_equal_to_the_automatic_grade_is_no_disagreement() {
        // CHARTOM: "C" names Transport, the key is Rent: automatically wrong. alice's
        // override says wrong too; carol gives no override: the same effective grade.
        let chartom = |alice: &str, carol: &str| {
            Item::parse(&format!(
                    r#"{{"id":"G","benchmark":"chartom",
                       "fact":{{"question":"q","format":"choice","options":["Rent","Food","Transport"],"key":1}},
                       "responses":[{{"model":"m","fact":"C","justification":"j"}},{{"model":"n","fact":"Rent","justification":"j"}}],
                       "reviews":{{"alice":{{"models":{{"m":{alice}}}}},"carol":{{"models":{{"m":{carol}}}}}}}}}"#
                ))
                .unwrap()
        };
        let same = chartom(
            r#"{"justification":"partial","fact_correct":false}"#,
            r#"{"justification":"partial"}"#,
        );
        assert!(!reviewers_disagree(&same));
        assert!(!needs_adjudication(&same));
        assert!(!disagreement(&same));
        let differ = chartom(
            r#"{"justification":"partial","fact_correct":true}"#,
            r#"{"justification":"partial"}"#,
        );
        assert!(reviewers_disagree(&differ));
        // C-VQA: original answered "no" to key "yes" (automatically wrong), the
        // counterfactual right.
        let cvqa = |alice: &str, carol: &str| {
            Item::parse(&format!(
                r#"{{"id":"c","benchmark":"cvqa","group":"boolean",
                       "original":{{"question":"q?","answer":"yes"}},
                       "counterfactual":{{"question":"c?","answer":"no"}},
                       "responses":[{{"model":"m","original":"no","counterfactual":"no"}}],
                       "reviews":{{"alice":{alice},"carol":{carol}}}}}"#
            ))
            .unwrap()
        };
        let same = cvqa(
            r#"{"status":"accept","original_correct":false,"counterfactual_correct":true}"#,
            r#"{"status":"accept"}"#,
        );
        assert!(!reviewers_disagree(&same));
        let differ = cvqa(
            r#"{"status":"accept","original_correct":true}"#,
            r#"{"status":"accept"}"#,
        );
        assert!(reviewers_disagree(&differ));
    }
}
