//! A declared benchmark's variables in `verdict agree` (docs/teams.md): each question but
//! a text, its answers as the reviewers gave them: a label's labels (nominal), a rating's
//! values (ranked: ordinal alpha too), a checklist point by point (covered or not).

use super::{Declared, item_answer, object, registered, response_answer};
use crate::bench::kit::agree::{ItemRatings, Variable};
use crate::bench::kit::benchmark::Benchmark::Declared as This;
use crate::question::{Kind, Per, Question, points_of};

pub(crate) struct Variables {
    /// Each question the spec asks but a text's, with its variable.
    vars: Vec<(&'static Question, Variable)>,
    spec: Option<&'static Declared>,
}

impl Default for Variables {
    fn default() -> Variables {
        let spec = registered();
        let vars = spec
            .into_iter()
            .flat_map(|d| &d.questions)
            .filter_map(|q| {
                let (cats, ranked) = q.categories()?;
                let cats: Vec<&str> = cats.iter().map(String::as_str).collect();
                let unit = match (q.per, &q.kind) {
                    (Per::Item, Kind::MultiLabel(_)) => "item × point",
                    (Per::Item, _) => "item",
                    (Per::Response, Kind::MultiLabel(_)) => "item × model × point",
                    (Per::Response, _) => "item × model",
                };
                Some((q, Variable::new(This, &q.name, unit, &cats, ranked)))
            })
            .collect();
        Variables { vars, spec }
    }
}

impl Variables {
    pub(crate) fn rate(&mut self, x: ItemRatings) {
        let Some(d) = self.spec else { return };
        let (i, item) = (x.i, x.item);
        let n = item.responses.len();
        for (q, var) in &mut self.vars {
            let points = d.points(q, object(item)).unwrap_or(0) as u64;
            for m in super::asked_of(q, item) {
                for &(r, rv) in x.reviews {
                    let v = match m {
                        None => item_answer(rv, q),
                        Some(m) => response_answer(rv.for_model(m, n), q),
                    };
                    let Some(v) = v else { continue };
                    let unit = m.unwrap_or_default().to_string();
                    if let Kind::MultiLabel(_) = q.kind {
                        let ticked = points_of(v);
                        for p in 1..=points {
                            let c = usize::from(!ticked.contains(&p));
                            var.rate((i, unit.clone(), p as u32), r, c);
                        }
                    } else if let Some(c) = q.category(v) {
                        var.rate((i, unit, 0), r, c);
                    }
                }
            }
        }
    }

    /// The reviewers' variables, in the spec's order.
    pub(crate) fn human(&self) -> Vec<&Variable> {
        self.vars.iter().map(|(_, v)| v).collect()
    }
}
