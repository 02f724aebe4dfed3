//! CHARTOM's grades in the verdicts under an item and in the adjudication table (listed
//! in `views::GRADE_FIELDS`).

use crate::bench::ResponseGrades;
use crate::tui::views::verdicts::{Field, correct_or_wrong};

pub(crate) fn justification(g: &ResponseGrades) -> Field {
    let name = g.chartom.justification.map(|j| j.name().to_string());
    Field {
        label: "justification",
        cell: name.clone(),
        line: name,
    }
}

pub(crate) fn fact(g: &ResponseGrades) -> Field {
    let word = correct_or_wrong(g.chartom.fact_correct);
    Field {
        label: "FACT",
        line: word.as_ref().map(|w| format!("FACT {w}")),
        cell: word,
    }
}
