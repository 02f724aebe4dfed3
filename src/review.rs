//! What the reviewer's grading keys do to a review: plain functions on [`Review`] and
//! [`ResponseGrades`], with no terminal and no file in sight. The reviewer (`tui::app`)
//! calls these; what each key writes is specified in docs/format.md ("What the default
//! keys write").

use crate::model::{CvqaReason, CvqaStatus, JustificationGrade, ResponseGrades, Review};

/// C-VQA accept: the generated question is about the image and its answer is right.
pub fn accept(r: &mut Review) {
    r.status = Some(CvqaStatus::Accept);
    r.image_related = Some(true);
    r.answer_ok = Some(true);
    r.reason = None;
    r.fixed_question = None;
    r.fixed_answer = None;
}

/// C-VQA reject with a reason.
pub fn reject(r: &mut Review, reason: CvqaReason) {
    r.status = Some(CvqaStatus::Reject);
    r.reason = Some(reason);
    r.fixed_question = None;
    r.fixed_answer = None;
    match reason {
        CvqaReason::NotImageRelated => r.image_related = Some(false),
        CvqaReason::WrongAnswer => r.answer_ok = Some(false),
        _ => {}
    }
}

/// C-VQA fix: the corrected counterfactual question `q` and answer `a`, against the
/// file's pair (`question`, `answer`). Only the part that changed is written.
pub fn fix(r: &mut Review, question: &str, answer: &str, q: &str, a: &str) {
    r.status = Some(CvqaStatus::Fix);
    r.fixed_question = (q != question).then(|| q.to_string());
    r.fixed_answer = (a != answer).then(|| a.to_string());
    r.answer_ok = Some(a == answer);
    r.image_related = Some(true);
    r.reason = Some(if a != answer {
        CvqaReason::WrongAnswer
    } else {
        CvqaReason::Ungrammatical
    });
}

/// Change the grades of `model`'s response: top level on an item with one response,
/// under `models.<model>` otherwise (docs/format.md, change #12).
pub fn change_grades(
    r: &mut Review,
    model: &str,
    n_responses: usize,
    f: impl FnOnce(&mut ResponseGrades),
) {
    if n_responses <= 1 {
        f(&mut r.grades);
    } else {
        let mut g = r.models.get(model).cloned().unwrap_or_default();
        f(&mut g);
        if g.is_empty() {
            r.models.shift_remove(model);
        } else {
            r.models.insert(model.to_string(), g);
        }
    }
}

/// CHARTOM: the justification grade.
pub fn justification(g: &mut ResponseGrades, j: JustificationGrade) {
    g.justification = Some(j);
}

/// Automatic → correct → wrong → automatic (the overrides' cycle).
pub fn cycle(v: Option<bool>) -> Option<bool> {
    match v {
        None => Some(true),
        Some(true) => Some(false),
        Some(false) => None,
    }
}

/// CHARTOM `x`: cycle the FACT grade override.
pub fn cycle_fact(g: &mut ResponseGrades) {
    g.fact_correct = cycle(g.fact_correct);
}

/// C-VQA `1`: cycle the original answer's grade override.
pub fn cycle_original(g: &mut ResponseGrades) {
    g.original_correct = cycle(g.original_correct);
}

/// C-VQA `2`: cycle the counterfactual answer's grade override.
pub fn cycle_counterfactual(g: &mut ResponseGrades) {
    g.counterfactual_correct = cycle(g.counterfactual_correct);
}

/// CharToM-QA: tick or untick bonus point `n` (1-based).
pub fn toggle_bonus(g: &mut ResponseGrades, n: u32) {
    let mut b = g.bonus.take().unwrap_or_default();
    if let Some(p) = b.iter().position(|&x| x == n) {
        b.remove(p);
    } else {
        b.push(n);
        b.sort_unstable();
    }
    g.bonus = Some(b);
    if g.penalty.is_none() {
        g.penalty = Some(None);
    }
}

/// CharToM-QA: the penalty text (`None` or blank: graded, no penalty).
pub fn set_penalty(g: &mut ResponseGrades, text: Option<&str>) {
    g.penalty = Some(
        text.map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_string),
    );
    if g.bonus.is_none() {
        g.bonus = Some(vec![]);
    }
}

/// Other benchmarks: the free verdict.
pub fn set_verdict(r: &mut Review, v: &str) {
    r.verdict = Some(v.to_string());
}

/// The note (blank: none).
pub fn set_note(r: &mut Review, text: &str) {
    r.note = if text.trim().is_empty() {
        None
    } else {
        Some(text.trim_end().to_string())
    };
}

/// `A`: mark the review as the final (adjudicated) one, or unmark it.
pub fn toggle_final(r: &mut Review) {
    r.is_final = if r.is_final == Some(true) {
        None
    } else {
        Some(true)
    };
}
