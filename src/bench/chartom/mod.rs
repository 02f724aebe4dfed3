//! CHARTOM (misleading charts): FACT answers graded by the paper's rules, MIND
//! predictions against the Human Misleadingness Index, justifications graded by hand
//! (docs/format.md, "CHARTOM").

pub mod check;
pub mod grade;
pub mod import;
pub mod stats;
