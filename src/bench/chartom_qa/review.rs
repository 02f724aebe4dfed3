//! CharToM-QA's grading operations: what its keys do to its own review type
//! (docs/format.md, "What the default keys write").

use std::cell::Cell;

use super::fields::Grades;
use crate::grade::resolve::{Voter, vote};

impl Grades {
    /// The same grades with the bonus points in order, once each (as reviewers who agree
    /// may have ticked them in any order).
    pub fn normalized(&self) -> Grades {
        let mut g = self.clone();
        if let Some(b) = &mut g.bonus {
            b.sort_unstable();
            b.dedup();
        }
        g
    }

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

impl Grades {
    /// Several reviewers' grades of one response, voted (docs/stats.md): each bonus point
    /// by more than half of those who ticked bonus points, the penalty by majority of
    /// "has a penalty" (its text the most recent such reviewer's).
    pub fn majority(graders: &[(&Grades, usize)], tied: &Cell<bool>) -> Grades {
        Grades {
            bonus: vote_bonus(graders, tied),
            penalty: vote_penalty(graders, tied),
        }
    }
}

/// Bonus points by per-point majority of the reviewers who ticked bonus points.
fn vote_bonus(graders: &[(&Grades, usize)], tied: &Cell<bool>) -> Option<Vec<u32>> {
    let voters: Vec<(&Vec<u32>, usize)> = graders
        .iter()
        .filter_map(|(g, rank)| g.bonus.as_ref().map(|b| (b, *rank)))
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
fn vote_penalty(graders: &[(&Grades, usize)], tied: &Cell<bool>) -> Option<Option<String>> {
    let voters: Vec<(bool, usize)> = graders
        .iter()
        .filter_map(|(g, rank)| g.penalty.as_ref().map(|p| (p.is_some(), *rank)))
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
        .filter_map(|(g, rank)| match &g.penalty {
            Some(Some(t)) => Some((t, *rank)),
            _ => None,
        })
        .max_by_key(|(_, rank)| *rank)
        .map(|(t, _)| t.clone());
    Some(text)
}
