//! What a benchmark is built with: the types and helpers every benchmark folder
//! implements against, below the benchmarks and below the registry (`bench/mod.rs`), so
//! that imports run one way: front ends → shared machinery (`check`, `stats`, `export`,
//! `team`, …) → the registry → each benchmark → this kit → `model` / `store`.
//!
//! - [`benchmark`]: the `Benchmark` names.
//! - [`check`]: what a benchmark's checks report through (`Ctx`, `Problem`, `BenchInfo`).
//! - [`grades`]: the overrides' cycle the grading operations share, and which two grades
//!   of a sample disagree.
//! - [`question`]: a multiple-choice question's text and options, read from its text.
//! - [`row`]: the `verdict export` row a benchmark fills its columns of.
//! - [`agree`]: a categorical variable a benchmark rates for `verdict agree`.
//! - [`sums`]: partial sums of `verdict stats` and the count of human verdicts used.
//! - [`text`]: the helpers of each benchmark's block of `verdict stats` text.

pub mod agree;
pub mod benchmark;
pub mod check;
pub mod grades;
pub mod question;
pub mod row;
pub mod sums;
pub mod text;
