//! Which human verdict counts when several reviewers graded the same item.
//!
//! For one target (an item × model's response grades, or a C-VQA item's question
//! verification), only the reviews that say something about it take part:
//!
//! 1. **Final**: a review with `"final": true` (an adjudicator's) wins whole. When several
//!    final reviews grade the target, the most recent (`at`) wins.
//! 2. **Single**: exactly one reviewer graded the target: that verdict.
//! 3. **Majority**: several reviewers, no final one: each field separately takes the value
//!    most of the reviewers who set that field gave. A CharToM-QA bonus point is covered
//!    when more than half of the reviewers who ticked bonus points cover it. Ties (equal
//!    vote counts, or exactly half for a bonus point) go to the most recent reviewer among
//!    the tied ones. A review without a parsable `at` counts as older than any with one;
//!    between equal times, the later review in the file wins. A target where any field
//!    went to the most recent review that way is a **tie**, not a majority.
//! 4. **None**: nobody graded the target.
//!
//! Human grades win over automatic ones: a resolved `fact_correct`, `original_correct` or
//! `counterfactual_correct` replaces the automatic grade (see each benchmark's
//! `effective`).

use std::cell::Cell;

use indexmap::IndexMap;
use serde::Serialize;

use crate::model::{CvqaReason, CvqaStatus, ResponseGrades, Review};

/// Where a resolved verdict comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Source {
    /// An adjudicated (`"final": true`) review.
    Final { reviewer: String },
    /// The only reviewer who graded it.
    Single { reviewer: String },
    /// Field by field majority of `n` reviewers.
    Majority { n: usize },
    /// As `Majority`, but at least one field was split evenly and went to the most
    /// recent review among the tied ones (docs/stats.md): no majority decided it.
    Tie { n: usize },
    /// Nobody graded it.
    None,
}

impl Source {
    /// Short text for tables and CSV: `final:ann`, `single:bob`, `majority:3`, `tie:2`,
    /// `none`.
    pub fn label(&self) -> String {
        match self {
            Source::Final { reviewer } => format!("final:{reviewer}"),
            Source::Single { reviewer } => format!("single:{reviewer}"),
            Source::Majority { n } => format!("majority:{n}"),
            Source::Tie { n } => format!("tie:{n}"),
            Source::None => "none".into(),
        }
    }
    pub fn is_none(&self) -> bool {
        matches!(self, Source::None)
    }
}

/// A resolved verdict: the value that counts, where it comes from, and how many reviewers
/// graded the target (the final reviewer included).
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved<T> {
    pub value: T,
    pub source: Source,
    pub reviewers: usize,
}

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

/// One reviewer's vote: its value and its recency rank (higher = more recent).
struct Voter<'a, T> {
    value: &'a T,
    rank: usize,
}

/// Recency ranks of the reviews, by `at` then by position in the file.
fn recency_ranks<'a>(reviews: &[(&'a str, &'a Review)]) -> Vec<usize> {
    let mut order: Vec<(i128, usize)> = reviews
        .iter()
        .enumerate()
        .map(|(i, (_, r))| (timestamp(r.at.as_deref()), i))
        .collect();
    order.sort();
    let mut ranks = vec![0; reviews.len()];
    for (rank, (_, i)) in order.into_iter().enumerate() {
        ranks[i] = rank;
    }
    ranks
}

/// Unix nanoseconds of an RFC 3339 time; missing or unparsable → the oldest possible.
fn timestamp(at: Option<&str>) -> i128 {
    at.and_then(|s| {
        time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).ok()
    })
    .map(|t| t.unix_timestamp_nanos())
    .unwrap_or(i128::MIN)
}

/// The value most voters gave; ties go to the most recent voter among the tied values,
/// and set `tied`.
fn vote<T: PartialEq + Clone>(voters: &[Voter<'_, T>], tied: &Cell<bool>) -> Option<T> {
    // (value, count, most recent rank)
    let mut tally: Vec<(&T, usize, usize)> = Vec::new();
    for v in voters {
        match tally.iter_mut().find(|(t, _, _)| *t == v.value) {
            Some(e) => {
                e.1 += 1;
                e.2 = e.2.max(v.rank);
            }
            None => tally.push((v.value, 1, v.rank)),
        }
    }
    let top = tally.iter().map(|(_, count, _)| *count).max().unwrap_or(0);
    if tally.iter().filter(|(_, count, _)| *count == top).count() > 1 {
        tied.set(true);
    }
    tally
        .into_iter()
        .max_by_key(|(_, count, rank)| (*count, *rank))
        .map(|(t, _, _)| t.clone())
}

fn vote_field<'a, T: PartialEq + Clone + 'a>(
    graders: &[(&'a ResponseGrades, usize)],
    field: impl Fn(&'a ResponseGrades) -> Option<&'a T>,
    tied: &Cell<bool>,
) -> Option<T> {
    let voters: Vec<Voter<'a, T>> = graders
        .iter()
        .filter_map(|(g, rank)| field(g).map(|value| Voter { value, rank: *rank }))
        .collect();
    vote(&voters, tied)
}

/// Bonus points by per-point majority of the reviewers who ticked bonus points.
fn vote_bonus(graders: &[(&ResponseGrades, usize)], tied: &Cell<bool>) -> Option<Vec<u32>> {
    let voters: Vec<(&Vec<u32>, usize)> = graders
        .iter()
        .filter_map(|(g, rank)| g.chartom_qa.bonus.as_ref().map(|b| (b, *rank)))
        .collect();
    if voters.is_empty() {
        return None;
    }
    let latest = voters
        .iter()
        .max_by_key(|(_, rank)| *rank)
        .map(|(b, _)| *b)
        .expect("not empty");
    let mut points: Vec<u32> = voters.iter().flat_map(|(b, _)| b.iter().copied()).collect();
    points.sort_unstable();
    points.dedup();
    let total = voters.len();
    let covered = points
        .into_iter()
        .filter(|p| {
            let yes = voters.iter().filter(|(b, _)| b.contains(p)).count();
            if 2 * yes == total {
                tied.set(true);
                latest.contains(p)
            } else {
                2 * yes > total
            }
        })
        .collect();
    Some(covered)
}

/// Penalty by majority of "has a penalty"; the text is the most recent such reviewer's.
fn vote_penalty(graders: &[(&ResponseGrades, usize)], tied: &Cell<bool>) -> Option<Option<String>> {
    let voters: Vec<(bool, usize)> = graders
        .iter()
        .filter_map(|(g, rank)| g.chartom_qa.penalty.as_ref().map(|p| (p.is_some(), *rank)))
        .collect();
    let flags: Vec<Voter<'_, bool>> = voters
        .iter()
        .map(|(v, rank)| Voter {
            value: v,
            rank: *rank,
        })
        .collect();
    let has = vote(&flags, tied)?;
    if !has {
        return Some(None);
    }
    let text = graders
        .iter()
        .filter_map(|(g, rank)| match &g.chartom_qa.penalty {
            Some(Some(t)) => Some((t, *rank)),
            _ => None,
        })
        .max_by_key(|(_, rank)| *rank)
        .map(|(t, _)| t.clone());
    Some(text)
}

fn majority_grades(graders: &[(&ResponseGrades, usize)], tied: &Cell<bool>) -> ResponseGrades {
    let mut g = ResponseGrades::default();
    g.chartom.fact_correct = vote_field(graders, |g| g.chartom.fact_correct.as_ref(), tied);
    g.chartom.justification = vote_field(graders, |g| g.chartom.justification.as_ref(), tied);
    g.chartom_qa.bonus = vote_bonus(graders, tied);
    g.chartom_qa.penalty = vote_penalty(graders, tied);
    g.cvqa.original_correct = vote_field(graders, |g| g.cvqa.original_correct.as_ref(), tied);
    g.cvqa.counterfactual_correct =
        vote_field(graders, |g| g.cvqa.counterfactual_correct.as_ref(), tied);
    g
}

/// Generic resolution: `take` extracts what a review says about the target (None: it says
/// nothing); `majority` combines several (value, recency rank) pairs, and sets its flag
/// when a vote was split evenly.
fn resolve_with<'a, T: Clone + Default>(
    reviews: &'a IndexMap<String, Review>,
    take: impl Fn(&'a Review) -> Option<T>,
    majority: impl Fn(&[(&T, usize)], &Cell<bool>) -> T,
) -> Resolved<T> {
    let graded: Vec<(&str, &Review, T)> = reviews
        .iter()
        .filter_map(|(name, r)| take(r).map(|t| (name.as_str(), r, t)))
        .collect();
    if graded.is_empty() {
        return Resolved {
            value: T::default(),
            source: Source::None,
            reviewers: 0,
        };
    }
    let n = graded.len();
    if n == 1 && graded[0].1.is_final != Some(true) {
        let (name, _, t) = graded.into_iter().next().expect("one");
        return Resolved {
            value: t,
            source: Source::Single {
                reviewer: name.to_string(),
            },
            reviewers: 1,
        };
    }
    let pairs: Vec<(&str, &Review)> = graded.iter().map(|(n, r, _)| (*n, *r)).collect();
    let ranks = recency_ranks(&pairs);
    let final_one = graded
        .iter()
        .zip(&ranks)
        .filter(|((_, r, _), _)| r.is_final == Some(true))
        .max_by_key(|(_, rank)| **rank);
    if let Some(((name, _, t), _)) = final_one {
        return Resolved {
            value: t.clone(),
            source: Source::Final {
                reviewer: name.to_string(),
            },
            reviewers: n,
        };
    }
    if n == 1 {
        let (name, _, t) = &graded[0];
        return Resolved {
            value: t.clone(),
            source: Source::Single {
                reviewer: name.to_string(),
            },
            reviewers: 1,
        };
    }
    let votes: Vec<(&T, usize)> = graded
        .iter()
        .zip(&ranks)
        .map(|((_, _, t), rank)| (t, *rank))
        .collect();
    let tied = Cell::new(false);
    let value = majority(&votes, &tied);
    Resolved {
        value,
        source: if tied.get() {
            Source::Tie { n }
        } else {
            Source::Majority { n }
        },
        reviewers: n,
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
mod tests;
