//! Which human verdict counts when several reviewers graded the same item, for the
//! targets every benchmark shares: a response's grades (each benchmark votes its own
//! fields: its `Grades::majority`) and the free verdict. The rules are
//! [`crate::grade::resolve`]'s.

use std::cell::Cell;

use indexmap::IndexMap;

use crate::bench::{ResponseGrades, Review};
use crate::grade::resolve::{Ballot, Resolved, Voter, resolve_with, vote, vote_field};

impl Ballot for Review {
    fn at(&self) -> Option<&str> {
        self.at.as_deref()
    }
    fn is_final(&self) -> bool {
        self.is_final == Some(true)
    }
}

/// Each benchmark's fields voted among the reviewers who set them.
fn majority_grades(graders: &[(&ResponseGrades, usize)], tied: &Cell<bool>) -> ResponseGrades {
    let chartom: Vec<_> = graders.iter().map(|(g, r)| (&g.chartom, *r)).collect();
    let chartom_qa: Vec<_> = graders.iter().map(|(g, r)| (&g.chartom_qa, *r)).collect();
    let cvqa: Vec<_> = graders.iter().map(|(g, r)| (&g.cvqa, *r)).collect();
    // A declared benchmark's answers, question by question.
    let mut answers = IndexMap::new();
    for (g, _) in graders {
        for q in g.answers.keys() {
            if !answers.contains_key(q)
                && let Some(v) = vote_field(graders, |g| g.answers.get(q), tied)
            {
                answers.insert(q.clone(), v);
            }
        }
    }
    ResponseGrades {
        chartom: crate::bench::chartom::fields::Grades::majority(&chartom, tied),
        chartom_qa: crate::bench::chartom_qa::fields::Grades::majority(&chartom_qa, tied),
        cvqa: crate::bench::cvqa::fields::Grades::majority(&cvqa, tied),
        answers,
    }
}

/// The human grades that count for `model`'s response on an item with `n_responses`
/// responses (see the module documentation for the order of precedence).
pub fn resolve_response(
    reviews: &IndexMap<String, Review>,
    model: &str,
    n_responses: usize,
) -> Resolved<ResponseGrades> {
    resolve_with(
        reviews,
        |r| {
            r.for_model(model, n_responses)
                .filter(|g| !g.is_empty())
                .cloned()
        },
        majority_grades,
    )
}

/// The free verdict that counts for an item of an unknown benchmark (`verdict`, set on the
/// item, not per model): the final review's, else the single reviewer's, else the value
/// most reviewers gave (ties to the most recent), as for every other grade.
pub fn resolve_verdict(reviews: &IndexMap<String, Review>) -> Resolved<Option<String>> {
    resolve_with(
        reviews,
        |r| r.verdict.clone().map(Some),
        |votes, tied| {
            let voters: Vec<Voter<'_, String>> = votes
                .iter()
                .filter_map(|(v, rank)| v.as_ref().map(|value| Voter { value, rank: *rank }))
                .collect();
            vote(&voters, tied)
        },
    )
}

/// Names of the reviewers whose review grades `model`'s response (in file order).
pub fn graders<'a>(
    reviews: &'a IndexMap<String, Review>,
    model: &'a str,
    n_responses: usize,
) -> impl Iterator<Item = &'a str> + 'a {
    reviews.iter().filter_map(move |(name, r)| {
        r.for_model(model, n_responses)
            .filter(|g| !g.is_empty())
            .map(|_| name.as_str())
    })
}

#[cfg(test)]
#[path = "resolve_tests.rs"]
mod tests;
