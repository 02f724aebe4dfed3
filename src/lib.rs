//! verdict: review benchmark results by hand.
//!
//! Domain code (`bench`, `model`, `review`, `store`, `journal`, `session`, `grade`, `stats`,
//! `import`, `check`, `export`, `team`) knows nothing about terminals; `tui`
//! knows nothing about file bytes. `sanitize` makes untrusted text harmless for any output
//! that a terminal may show. Each benchmark lives in its folder under `bench`, behind one
//! registry (`bench/mod.rs`); docs/architecture.md draws the layers.

// Everything printed goes through `out` (and so through `sanitize`).
#![warn(clippy::print_stdout, clippy::print_stderr)]

pub mod bench;
pub mod check;
pub mod cli;
pub mod export;
pub mod grade;
pub mod hash;
pub mod import;
pub mod journal;
pub mod model;
pub mod out;
pub mod par;
pub mod perms;
pub mod question;
pub mod review;
pub mod sanitize;
pub mod session;
pub mod stats;
pub mod store;
pub mod team;
#[cfg(test)]
mod test_support;
pub mod tui;
