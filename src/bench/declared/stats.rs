//! A declared benchmark's figures in `verdict stats` (docs/stats.md): per question, the
//! answers that count (final, single, else the majority, as every grade) summed as its
//! type says (`question::Tally`).

use serde::Serialize;

use super::{registered, resolved};
use crate::bench::Item;
use crate::bench::kit::sums::ResolutionCounts;
use crate::bench::resolve::resolve_response;
use crate::question::{Per, Tally};

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct DeclaredStats {
    /// The spec's `name`.
    pub name: String,
    pub items: u64,
    pub responses: u64,
    pub questions: Vec<QuestionStats>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct QuestionStats {
    pub name: String,
    pub kind: &'static str,
    pub per: Per,
    /// The items (per item) or responses (per response) it is asked of.
    pub asked: u64,
    #[serde(flatten)]
    pub tally: Tally,
}

/// The partial sums over a block of items.
#[derive(Debug, Default)]
pub(crate) struct Sums {
    items: u64,
    responses: u64,
    /// One per question, in the spec's order (empty until the first item).
    tallies: Vec<(u64, Tally)>,
}

impl Sums {
    pub(crate) fn add(&mut self, it: &Item, resolution: &mut ResolutionCounts) {
        let Some(d) = registered() else { return };
        if self.tallies.is_empty() {
            self.tallies = d.questions.iter().map(|q| (0, Tally::of(q))).collect();
        }
        self.items += 1;
        self.responses += it.responses.len() as u64;
        for resp in &it.responses {
            let r = resolve_response(&it.reviews, &resp.model, it.responses.len());
            resolution.add(&r.source);
        }
        for (q, (asked, tally)) in d.questions.iter().zip(&mut self.tallies) {
            for m in super::asked_of(q, it) {
                *asked += 1;
                if let Some(v) = resolved(it, q, m).value
                    && q.problem(&v, d.points(q, super::object(it))).is_none()
                {
                    tally.add(q, &v);
                }
            }
        }
    }

    pub(crate) fn merge(&mut self, o: Sums) {
        self.items += o.items;
        self.responses += o.responses;
        if self.tallies.is_empty() {
            self.tallies = o.tallies;
        } else {
            for ((a, t), (b, u)) in self.tallies.iter_mut().zip(o.tallies) {
                *a += b;
                t.absorb(u);
            }
        }
    }

    /// The figures, when the file has items of the declared benchmark.
    pub(crate) fn finish(self) -> Option<DeclaredStats> {
        let d = registered().filter(|_| self.items > 0)?;
        Some(DeclaredStats {
            name: d.name.clone(),
            items: self.items,
            responses: self.responses,
            questions: d
                .questions
                .iter()
                .zip(self.tallies)
                .map(|(q, (asked, t))| QuestionStats {
                    name: q.name.clone(),
                    kind: q.kind.name(),
                    per: q.per,
                    asked,
                    tally: t.finish(q),
                })
                .collect(),
        })
    }
}
