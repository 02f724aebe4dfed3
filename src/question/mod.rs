//! The questions a reviewer answers (docs/format.md, "Declared benchmarks"): a label (one
//! of several), a multi-label checklist, a rating, a text. Each type knows its answer's
//! JSON value in a review, which values are valid, and how `verdict stats` and `verdict
//! agree` count it. Nothing here knows a benchmark, a review or the terminal: the
//! benchmark that asks the question keeps its answers (`bench::declared`).

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;

/// What a question is asked of: the item, or each response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Per {
    Item,
    Response,
}

/// The points of a checklist: given by the spec, or read from a list field of the item.
#[derive(Debug, Clone, PartialEq)]
pub enum Points {
    Fixed(Vec<String>),
    /// The path of the item's list of points.
    From(String),
}

/// A question's type and what it answers with.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// One of these labels: the label's text.
    Label(Vec<String>),
    /// Any of these points: their numbers, from 1, sorted (as CharToM-QA's `bonus`).
    MultiLabel(Points),
    /// An integer from `lo` to `hi`.
    Rating { lo: i64, hi: i64 },
    /// A free text.
    Text,
}

/// One question of a declared benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// Its key in the review's `answers`.
    pub name: String,
    pub kind: Kind,
    pub per: Per,
    /// An item is not done until it is answered.
    pub required: bool,
    pub guideline: Option<String>,
}

impl Kind {
    /// The type's name, as a spec writes it.
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Label(_) => "label",
            Kind::MultiLabel(_) => "multi_label",
            Kind::Rating { .. } => "rating",
            Kind::Text => "text",
        }
    }
}

impl Question {
    /// What is wrong with `v` as an answer, `None` when it is valid. `points`: how many
    /// points a checklist has on this item (`None`: not known).
    pub fn problem(&self, v: &Value, points: Option<usize>) -> Option<String> {
        match &self.kind {
            Kind::Label(labels) => match v.as_str() {
                Some(s) if labels.iter().any(|l| l == s) => None,
                _ => Some(format!("expected one of {}", labels_text(labels))),
            },
            Kind::MultiLabel(_) => {
                let Some(a) = v.as_array() else {
                    return Some("expected an array of point numbers".into());
                };
                let mut seen = Vec::new();
                for x in a {
                    match x.as_u64() {
                        Some(n) if n >= 1 && points.is_none_or(|p| n as usize <= p) => {
                            if seen.contains(&n) {
                                return Some(format!("point {n} given twice"));
                            }
                            seen.push(n);
                        }
                        _ => {
                            return Some(match points {
                                Some(p) => format!("{x} is not a point number from 1 to {p}"),
                                None => format!("{x} is not a point number (from 1)"),
                            });
                        }
                    }
                }
                None
            }
            Kind::Rating { lo, hi } => match v.as_i64() {
                Some(n) if (*lo..=*hi).contains(&n) => None,
                _ => Some(format!("expected an integer from {lo} to {hi}")),
            },
            Kind::Text => (!v.is_string()).then(|| "expected a string".into()),
        }
    }

    /// The categories `verdict agree` rates it on (`None`: a text, not rated), and
    /// whether they are ranked (a rating's values: ordinal alpha). A checklist is rated
    /// point by point: each point covered or not.
    pub fn categories(&self) -> Option<(Vec<String>, bool)> {
        match &self.kind {
            Kind::Label(labels) => Some((labels.clone(), false)),
            Kind::MultiLabel(_) => Some((vec!["covered".into(), "not covered".into()], false)),
            Kind::Rating { lo, hi } => Some(((*lo..=*hi).map(|n| n.to_string()).collect(), true)),
            Kind::Text => None,
        }
    }

    /// The category of answer `v` ([`Question::categories`]), for a label or a rating.
    pub fn category(&self, v: &Value) -> Option<usize> {
        match &self.kind {
            Kind::Label(labels) => labels.iter().position(|l| Some(l.as_str()) == v.as_str()),
            Kind::Rating { lo, hi } => v
                .as_i64()
                .filter(|n| (*lo..=*hi).contains(n))
                .map(|n| (n - lo) as usize),
            _ => None,
        }
    }
}

/// A checklist answer's points (the valid ones).
pub fn points_of(v: &Value) -> Vec<u64> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default()
}

fn labels_text(labels: &[String]) -> String {
    labels
        .iter()
        .map(|l| format!("{l:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The answers to one question that count, summed for `verdict stats` (docs/stats.md):
/// how many units (items or responses) have one, and per type the labels' or ratings'
/// counts, the mean rating, how often each point was ticked.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct Tally {
    pub answered: u64,
    /// Label or rating → answers.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub counts: IndexMap<String, u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean: Option<f64>,
    /// Point n (from 1) → answers that tick it.
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub points: IndexMap<u64, u64>,
    #[serde(skip)]
    sum: f64,
}

impl Tally {
    /// An empty tally of `q`, its labels or values listed in order (a count may be 0).
    pub fn of(q: &Question) -> Tally {
        let mut t = Tally::default();
        if let Some((cats, _)) = q.categories()
            && !matches!(q.kind, Kind::MultiLabel(_))
        {
            t.counts = cats.into_iter().map(|c| (c, 0)).collect();
        }
        if let Kind::MultiLabel(Points::Fixed(p)) = &q.kind {
            t.points = (1..=p.len() as u64).map(|n| (n, 0)).collect();
        }
        t
    }

    /// Count answer `v` to `q` (one that passed [`Question::problem`]).
    pub fn add(&mut self, q: &Question, v: &Value) {
        self.answered += 1;
        match &q.kind {
            Kind::Label(_) | Kind::Rating { .. } => {
                let key = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                *self.counts.entry(key).or_default() += 1;
                if let Some(n) = v.as_f64().filter(|_| matches!(q.kind, Kind::Rating { .. })) {
                    self.sum += n;
                }
            }
            Kind::MultiLabel(_) => {
                for p in points_of(v) {
                    *self.points.entry(p).or_default() += 1;
                }
            }
            Kind::Text => {}
        }
    }

    /// Add the tally of the block of items that follows.
    pub fn absorb(&mut self, o: Tally) {
        self.answered += o.answered;
        self.sum += o.sum;
        for (k, n) in o.counts {
            *self.counts.entry(k).or_default() += n;
        }
        for (k, n) in o.points {
            *self.points.entry(k).or_default() += n;
        }
    }

    /// The figures, the mean worked out for a rating.
    pub fn finish(mut self, q: &Question) -> Tally {
        if matches!(q.kind, Kind::Rating { .. }) && self.answered > 0 {
            self.mean = Some(self.sum / self.answered as f64);
        }
        self.points.sort_keys();
        self
    }
}

#[cfg(test)]
mod tests;
