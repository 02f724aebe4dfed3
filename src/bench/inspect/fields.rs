//! Inspect's own review fields (docs/format.md, "Inspect AI logs", REVIEW): the verdicts
//! on scorers other than the headline one. The review's `verdict`, `note` and `at` are the
//! headline scorer's; `scorers.<name>` holds a verdict on another scorer of the sample.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// `scorers` of a review: scorer name → the verdict on that scorer's score.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(default)]
pub struct Grades {
    #[serde(skip_serializing_if = "IndexMap::is_empty")]
    pub scorers: IndexMap<String, ScorerReview>,
}

/// A verdict on one scorer's score: written back as an edit of that scorer only.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(default)]
pub struct ScorerReview {
    /// When this scorer's verdict or note was last changed (RFC 3339, UTC).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// `correct`, `incorrect` or `ambiguous-target`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// Why: the edit's `provenance.reason`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Grades {
    pub fn is_empty(&self) -> bool {
        self.scorers.is_empty()
    }
}

impl ScorerReview {
    pub fn is_empty(&self) -> bool {
        self.verdict.is_none() && self.note.is_none()
    }
}

crate::model::flat_fields!(Grades { scorers: "scorers" });
