//! CharToM-QA (theory of mind on novel characters): bonus points and penalties, from the
//! LLM judge and from humans (docs/format.md, "CharToM-QA").

pub mod check;
pub mod grade;
pub mod stats;
