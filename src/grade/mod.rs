//! Grading rules shared by every benchmark (docs/format.md, "Grading"), as pure functions
//! over the typed items of [`crate::model`]. Nothing here does IO or knows about
//! terminals. Each benchmark's own rules are in its folder (`bench/<name>/grade.rs`), with
//! an `effective(item, model)` function: the automatic grade of one response beside the
//! grade that counts after human overrides.
//!
//! - [`resolve`]: which human verdict counts when several reviewers graded an item.

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
