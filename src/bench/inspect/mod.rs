//! Inspect AI eval logs (docs/format.md, "Inspect AI logs"): a `.eval` log (a ZIP archive
//! of JSON entries compressed with Zstandard) or a `.json` log, recognised by content.
//! Each sample's epoch is an item; the reviewer marks the headline scorer's score
//! `correct`, `incorrect` or `ambiguous-target`, with a note; a save writes each verdict
//! back into the log as Inspect's own score edit ([`edit`]), with the log's figures
//! recomputed, so that `inspect view` and `read_eval_log` see who graded what.
//!
//! - [`zip`]: the archive, read and rewritten (unchanged entries copied byte for byte).
//! - [`log`]: the log as a container file of the store (its samples as lines; the save).
//! - [`edit`]: a verdict as a score edit; [`recompute`]: the figures recomputed.
//! - [`spec`]: the lines as items (`Spec`, `sniff`), [`stats`]: the harness's figures
//!   beside the human-corrected ones.

pub(crate) mod check;
pub mod edit;
pub mod fields;
pub mod folder;
pub mod log;
pub mod nonfinite;
pub mod recompute;
pub mod review;
pub mod sample;
pub mod spec;
pub mod stats;
pub(crate) mod stats_text;
pub mod zip;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_figures;
#[cfg(test)]
mod tests_nan;
#[cfg(test)]
mod tests_scorers;
#[cfg(test)]
mod tests_write;

/// The key of a line made from a sample (`log::line_of`): what it holds of the sample.
pub const LINE_KEY: &str = "inspect_sample";

/// The reviewer's verdict on the headline scorer's score (the REVIEW's `verdict`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// The answer is right: the score becomes `C` (1, true).
    Correct,
    /// The answer is wrong: the score becomes `I` (0, false).
    Incorrect,
    /// The target is wrong or the question has no single answer: the value stays, the
    /// edit is marked (`provenance.metadata.verdict`), the note says why.
    AmbiguousTarget,
}

impl Verdict {
    pub const ALL: [Verdict; 3] = [
        Verdict::Correct,
        Verdict::Incorrect,
        Verdict::AmbiguousTarget,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Correct => "correct",
            Verdict::Incorrect => "incorrect",
            Verdict::AmbiguousTarget => "ambiguous-target",
        }
    }

    pub fn parse(s: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.name() == s)
    }

    /// The sample's score once a person has looked at it: `None` when it is left out.
    pub fn score(self) -> Option<f64> {
        match self {
            Verdict::Correct => Some(1.0),
            Verdict::Incorrect => Some(0.0),
            Verdict::AmbiguousTarget => None,
        }
    }
}
