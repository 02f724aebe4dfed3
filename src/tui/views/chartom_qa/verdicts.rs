//! CharToM-QA's grades of a response in the verdicts under an item and the adjudication
//! table (its `View::grade_fields`).

use crate::bench::ResponseGrades;
use crate::tui::text::truncate;
use crate::tui::views::verdicts::Field;

/// My bonus points of a response, in the verdicts and the adjudication table (listed in
/// `View::grade_fields`, `views::GRADE_FIELDS_LINE`).
pub(crate) fn bonus_field(g: &ResponseGrades) -> Field {
    Field {
        label: "bonus",
        cell: g.chartom_qa.bonus.as_ref().map(|b| format!("{b:?}")),
        line: g.chartom_qa.bonus.as_ref().map(|b| format!("bonus {b:?}")),
    }
}

/// My penalty of a response (`Some(None)`: none), as `bonus_field`.
pub(crate) fn penalty_field(g: &ResponseGrades) -> Field {
    let p = g.chartom_qa.penalty.as_ref();
    Field {
        label: "penalty",
        cell: p.map(|p| p.clone().unwrap_or_else(|| "none".into())),
        line: p.map(|p| match p {
            Some(p) => format!("penalty “{}”", truncate(p, 30)),
            None => "no penalty".into(),
        }),
    }
}
