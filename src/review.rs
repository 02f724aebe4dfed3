//! What the reviewer's keys do to a review that is not one benchmark's (each benchmark's
//! grading operations are methods of its own review types, in `bench/<name>/review.rs`):
//! plain functions on [`Review`] and [`ResponseGrades`], with no terminal and no file in
//! sight. The reviewer (`tui::app`)
//! calls these; what each key writes is specified in docs/format.md ("What the default
//! keys write").

use crate::bench::{Item, Response, ResponseGrades, Review};

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

/// Adjudication: the grades every other reviewer (adjudications left out) agrees on, for
/// the responses `mine` has no grades of, and the item-level verdict (a free `verdict`)
/// when `mine` has none and they all give the same. Returns the review with them, and the
/// models whose grades were taken. Only unanimous grades are taken: where reviewers
/// disagree the adjudicator grades.
pub fn with_agreed(item: &Item, me: &str, mine: &Review) -> (Review, Vec<String>) {
    let n = item.responses.len();
    let others: Vec<&Review> = item
        .reviews
        .iter()
        .filter(|(name, r)| name.as_str() != me && r.is_final != Some(true))
        .map(|(_, r)| r)
        .collect();
    let mut out = mine.clone();
    let mut taken = vec![];
    if others.len() < 2 {
        return (out, taken);
    }
    for resp in &item.responses {
        if mine
            .for_model(&resp.model, n)
            .is_some_and(|g| !g.is_empty())
        {
            continue;
        }
        let grades: Vec<Option<ResponseGrades>> = others
            .iter()
            .map(|r| r.for_model(&resp.model, n).map(ResponseGrades::normalized))
            .collect();
        if let Some(Some(first)) = grades.first()
            && !first.is_empty()
            && grades.iter().all(|g| g.as_ref() == Some(first))
        {
            let agreed = first.clone();
            change_grades(&mut out, &resp.model, n, |g| *g = agreed);
            taken.push(resp.model.clone());
        }
    }
    if mine.verdict.is_none()
        && let Some(v) = &others[0].verdict
        && others.iter().all(|r| r.verdict.as_ref() == Some(v))
    {
        out.verdict = Some(v.clone());
    }
    (out, taken)
}

// ----- when an item is done (docs/format.md, "When an item is done") ----------------------

/// Does `resp` need grades of its own on this item? CHARTOM: responses with a
/// justification (its grade). CharToM-QA: responses with a text (bonus points, penalty).
/// C-VQA and other benchmarks: none (their verdict is on the item; overrides are
/// optional).
fn response_required(item: &Item, resp: &Response) -> bool {
    crate::bench::spec(item.benchmark()).response_required(resp)
}

/// Are the required grades of one response given?
fn response_done(item: &Item, g: Option<&ResponseGrades>) -> bool {
    crate::bench::spec(item.benchmark()).response_done(item, g)
}

/// Is the item-level verdict given? C-VQA: `status`; other benchmarks: `verdict`;
/// CHARTOM and CharToM-QA have none.
fn item_level_done(item: &Item, r: &Review) -> bool {
    match crate::bench::spec(item.benchmark()).item_verdict() {
        Some(given) => given(r),
        None => true,
    }
}

/// Per response of `item`: are the grades that response requires given by `review`,
/// along with the item-level verdict (C-VQA `status`, other benchmarks' `verdict`)?
pub fn models_done(item: &Item, review: Option<&Review>) -> Vec<bool> {
    let n = item.responses.len();
    let Some(r) = review else {
        return vec![false; n];
    };
    let item_level = item_level_done(item, r);
    item.responses
        .iter()
        .map(|resp| {
            item_level
                && (!response_required(item, resp)
                    || response_done(item, r.for_model(&resp.model, n)))
        })
        .collect()
}

/// Per response of `item`: does it require grades of its own (a CHARTOM justification, a
/// CharToM-QA response text)? A response that requires none is never "done" on screen.
pub fn models_required(item: &Item) -> Vec<bool> {
    item.responses
        .iter()
        .map(|resp| response_required(item, resp))
        .collect()
}

/// Why `item` needs no grade (`Spec::no_grade`): not work to do, never done.
pub fn no_grade(item: &Item) -> Option<String> {
    crate::bench::spec(item.benchmark()).no_grade(item)
}

/// Is the item done by the reviewer of `review`: every required grade given (the
/// item-level verdict and each response's grades). An item that requires nothing (a
/// CHARTOM item without justifications) is done once the review says anything; otherwise
/// a note alone never makes an item done.
pub fn item_done(item: &Item, review: Option<&Review>) -> bool {
    let Some(r) = review else { return false };
    if no_grade(item).is_some() {
        return false;
    }
    let required = crate::bench::spec(item.benchmark())
        .item_verdict()
        .is_some()
        || item
            .responses
            .iter()
            .any(|resp| response_required(item, resp));
    if !required {
        return r.has_content();
    }
    item_level_done(item, r) && models_done(item, Some(r)).into_iter().all(|d| d)
}

#[cfg(test)]
mod tests;
