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
//!
//! This file holds the rules every target shares, over any review type ([`Ballot`]);
//! what a target is and how its fields are voted is the registry's
//! (`bench::resolve`) and each benchmark's (its `Grades::majority`).

use std::cell::Cell;

use indexmap::IndexMap;
use serde::Serialize;

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

/// What the resolution reads of a review besides the grades it votes on: when it was
/// given and whether it is an adjudicator's final verdict.
pub trait Ballot {
    /// RFC 3339 UTC time of the verdict.
    fn at(&self) -> Option<&str>;
    /// An adjudicator's final verdict (docs/teams.md).
    fn is_final(&self) -> bool;
}

/// One reviewer's vote: its value and its recency rank (higher = more recent).
pub struct Voter<'a, T> {
    pub value: &'a T,
    pub rank: usize,
}

/// Recency ranks of the reviews, by `at` then by position in the file.
fn recency_ranks<'a, R: Ballot>(reviews: &[(&'a str, &'a R)]) -> Vec<usize> {
    let mut order: Vec<(i128, usize)> = reviews
        .iter()
        .enumerate()
        .map(|(i, (_, r))| (timestamp(r.at()), i))
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
pub fn vote<T: PartialEq + Clone>(voters: &[Voter<'_, T>], tied: &Cell<bool>) -> Option<T> {
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

/// The value most of `graders` who set a field gave ([`vote`]); `field` reads it.
pub fn vote_field<'a, G, T: PartialEq + Clone + 'a>(
    graders: &[(&'a G, usize)],
    field: impl Fn(&'a G) -> Option<&'a T>,
    tied: &Cell<bool>,
) -> Option<T> {
    let voters: Vec<Voter<'a, T>> = graders
        .iter()
        .filter_map(|(g, rank)| field(g).map(|value| Voter { value, rank: *rank }))
        .collect();
    vote(&voters, tied)
}

/// Generic resolution: `take` extracts what a review says about the target (None: it says
/// nothing); `majority` combines several (value, recency rank) pairs, and sets its flag
/// when a vote was split evenly.
pub fn resolve_with<'a, R: Ballot, T: Clone + Default>(
    reviews: &'a IndexMap<String, R>,
    take: impl Fn(&'a R) -> Option<T>,
    majority: impl Fn(&[(&T, usize)], &Cell<bool>) -> T,
) -> Resolved<T> {
    let graded: Vec<(&str, &R, T)> = reviews
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
    if n == 1 && !graded[0].1.is_final() {
        let (name, _, t) = graded.into_iter().next().expect("one");
        return Resolved {
            value: t,
            source: Source::Single {
                reviewer: name.to_string(),
            },
            reviewers: 1,
        };
    }
    let pairs: Vec<(&str, &R)> = graded.iter().map(|(n, r, _)| (*n, *r)).collect();
    let ranks = recency_ranks(&pairs);
    let final_one = graded
        .iter()
        .zip(&ranks)
        .filter(|((_, r, _), _)| r.is_final())
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
