//! Which question verification counts when several reviewers verified a C-VQA item (the
//! rules: [`crate::grade::resolve`]).

use indexmap::IndexMap;
use serde::Serialize;

use super::fields::{CvqaReason, CvqaStatus};
use crate::bench::Review;
use crate::grade::resolve::{Resolved, Voter, resolve_with, vote};

/// A C-VQA item's question verification (item-level fields of a review).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Verification {
    pub status: Option<CvqaStatus>,
    pub image_related: Option<bool>,
    pub answer_ok: Option<bool>,
    pub fixed_question: Option<String>,
    pub fixed_answer: Option<String>,
    pub reason: Option<CvqaReason>,
    /// The short text of a rejection for reason `other`.
    pub reason_text: Option<String>,
}

impl Verification {
    pub fn of(r: &Review) -> Verification {
        Verification {
            status: r.cvqa.status,
            image_related: r.cvqa.image_related,
            answer_ok: r.cvqa.answer_ok,
            fixed_question: r.cvqa.fixed_question.clone(),
            fixed_answer: r.cvqa.fixed_answer.clone(),
            reason: r.cvqa.reason,
            reason_text: r.cvqa.reason_text.clone(),
        }
    }
    pub fn is_empty(&self) -> bool {
        *self == Verification::default()
    }
}

/// The question verification that counts for a C-VQA item. A review takes part when it
/// sets any verification field. Under a majority, `fixed_question`, `fixed_answer` and
/// `reason` are voted among the reviewers whose status is the winning status.
pub fn resolve_verification(reviews: &IndexMap<String, Review>) -> Resolved<Verification> {
    resolve_with(
        reviews,
        |r| Some(Verification::of(r)).filter(|v| !v.is_empty()),
        |votes, tied| {
            let field_vote = |f: &dyn Fn(&Verification) -> bool| -> Vec<usize> {
                votes
                    .iter()
                    .enumerate()
                    .filter(|(_, (v, _))| f(v))
                    .map(|(i, _)| i)
                    .collect()
            };
            let pick = |idx: &[usize], get: &dyn Fn(&Verification) -> Option<String>| {
                let vals: Vec<(String, usize)> = idx
                    .iter()
                    .filter_map(|&i| get(votes[i].0).map(|s| (s, votes[i].1)))
                    .collect();
                let voters: Vec<Voter<'_, String>> = vals
                    .iter()
                    .map(|(s, rank)| Voter {
                        value: s,
                        rank: *rank,
                    })
                    .collect();
                vote(&voters, tied)
            };
            let status = {
                let voters: Vec<Voter<'_, CvqaStatus>> = votes
                    .iter()
                    .filter_map(|(v, rank)| {
                        v.status.as_ref().map(|value| Voter { value, rank: *rank })
                    })
                    .collect();
                vote(&voters, tied)
            };
            let bool_vote = |get: &dyn Fn(&Verification) -> Option<bool>| {
                let vals: Vec<(bool, usize)> = votes
                    .iter()
                    .filter_map(|(v, rank)| get(v).map(|b| (b, *rank)))
                    .collect();
                let voters: Vec<Voter<'_, bool>> = vals
                    .iter()
                    .map(|(b, rank)| Voter {
                        value: b,
                        rank: *rank,
                    })
                    .collect();
                vote(&voters, tied)
            };
            let same_status = field_vote(&|v| v.status == status);
            let reason_name = pick(&same_status, &|v| v.reason.map(|r| r.name().to_string()));
            let reason =
                reason_name.and_then(|n| CvqaReason::ALL.into_iter().find(|r| r.name() == n));
            // the text goes with the reason it explains
            let same_reason = field_vote(&|v| v.status == status && v.reason == reason);
            Verification {
                status,
                image_related: bool_vote(&|v| v.image_related),
                answer_ok: bool_vote(&|v| v.answer_ok),
                fixed_question: pick(&same_status, &|v| v.fixed_question.clone()),
                fixed_answer: pick(&same_status, &|v| v.fixed_answer.clone()),
                reason,
                reason_text: pick(&same_reason, &|v| v.reason_text.clone()),
            }
        },
    )
}
