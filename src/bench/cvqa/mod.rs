//! C-VQA (counterfactual questions on images): question verification, and the model's
//! answers graded as the benchmark's scripts grade them (docs/format.md, "C-VQA").

pub mod check;
pub mod grade;
pub mod import;
pub mod stats;
