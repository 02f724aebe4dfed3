//! The papers' grading rules (docs/format.md, "Grading"), as pure functions over the typed
//! items of [`crate::model`]. Nothing here does IO or knows about terminals.
//!
//! - [`chartom`]: FACT answer parsing and correctness, MIND squared error, the HMI
//!   recomputed from human answers with its acceptable interval.
//! - [`cvqa`]: answer extraction and exact-match grading as the C-VQA scripts do it.
//! - [`chartom_qa`]: bonus-point coverage (BPC) and penalty rate (PR), from the LLM judge
//!   and from humans.
//! - [`resolve`]: which human verdict counts when several reviewers graded an item.
//!
//! Each benchmark module has an `effective(item, model)` function: the automatic grade of
//! one response beside the grade that counts after human overrides (what the reviewer
//! screen shows and what `verdict stats` adds up).

// Each benchmark's rules live in its folder under `crate::bench`; these names keep the
// `grade::<benchmark>` paths working.
pub use crate::bench::chartom::grade as chartom;
pub use crate::bench::chartom_qa::grade as chartom_qa;
pub use crate::bench::cvqa::grade as cvqa;
pub mod resolve;

/// `part / whole` as a fraction, `None` when `whole` is 0 (no data).
pub fn ratio(part: u64, whole: u64) -> Option<f64> {
    if whole == 0 {
        None
    } else {
        Some(part as f64 / whole as f64)
    }
}

#[cfg(test)]
mod tests;
