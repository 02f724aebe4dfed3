//! C-VQA's fields in the verdicts under an item and in the adjudication table (listed in
//! `views::REVIEW_FIELDS` and `views::GRADE_FIELDS`).

use crate::bench::cvqa::fields::CvqaStatus;
use crate::bench::{ResponseGrades, Review};
use crate::tui::facts::ReviewStatus;
use crate::tui::views::common::shown_fix;
use crate::tui::views::verdicts::{Field, correct_or_wrong};

pub(crate) fn status(r: &Review) -> Field {
    Field {
        label: "status",
        cell: r.cvqa.status.map(|s| s.name().to_string()),
        line: r.cvqa.status.map(|s| format!("{s:?}").to_lowercase()),
    }
}

pub(crate) fn reason(r: &Review) -> Field {
    let name = r.cvqa.reason.map(|x| x.name().to_string());
    Field {
        label: "reason",
        cell: name.clone(),
        line: name,
    }
}

pub(crate) fn reason_text(r: &Review) -> Field {
    Field {
        label: "reason text",
        cell: r.cvqa.reason_text.clone(),
        line: r.cvqa.reason_text.as_ref().map(|t| format!("“{t}”")),
    }
}

/// A fix: the corrected counterfactual question (docs/format.md).
pub(crate) fn fixed_question(r: &Review) -> Field {
    Field {
        label: "fixed question",
        cell: r.cvqa.fixed_question.clone(),
        line: (r.cvqa.fixed_question.as_ref())
            .map(|q| format!("fixed question {}", shown_fix(q, true))),
    }
}

/// A fix: the corrected counterfactual answer.
pub(crate) fn fixed_answer(r: &Review) -> Field {
    Field {
        label: "fixed answer",
        cell: r.cvqa.fixed_answer.clone(),
        line: (r.cvqa.fixed_answer.as_ref())
            .map(|a| format!("fixed answer {}", shown_fix(a, true))),
    }
}

fn tick(c: bool) -> &'static str {
    if c { "✔" } else { "✘" }
}

pub(crate) fn original(g: &ResponseGrades) -> Field {
    Field {
        label: "original",
        cell: correct_or_wrong(g.cvqa.original_correct),
        line: g.cvqa.original_correct.map(|c| format!("orig {}", tick(c))),
    }
}

pub(crate) fn counterfactual(g: &ResponseGrades) -> Field {
    Field {
        label: "counterfactual",
        cell: correct_or_wrong(g.cvqa.counterfactual_correct),
        line: g
            .cvqa
            .counterfactual_correct
            .map(|c| format!("cf {}", tick(c))),
    }
}

impl From<CvqaStatus> for ReviewStatus {
    fn from(s: CvqaStatus) -> ReviewStatus {
        ReviewStatus {
            name: s.name(),
            done: s.done(),
        }
    }
}

/// The verification status of review `r`.
pub(crate) fn status_of(r: &Review) -> Option<ReviewStatus> {
    r.cvqa.status.map(ReviewStatus::from)
}
