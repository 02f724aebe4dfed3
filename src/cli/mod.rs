//! The command line: one module per subcommand. Each has `Args` (clap) and
//! `run(Args) -> anyhow::Result<ExitCode>`. Everything they print goes through [`out`].

pub mod out;

pub mod agree;
pub mod check;
pub mod export;
pub mod import;
pub mod merge;
pub mod review;
pub mod split;
pub mod stats;

use std::path::{Path, PathBuf};

/// A folder given to a command that reads it as one set (`stats`, `export`, `check`;
/// docs/format.md, "A folder as a set"): its files, each task's latest run unless
/// `all_runs`; `None` when `path` is not a folder; an error, listing what it holds, when
/// it holds no lm-eval output nor Inspect logs.
pub fn set_files(path: &Path, all_runs: bool) -> anyhow::Result<Option<Vec<PathBuf>>> {
    if !path.is_dir() {
        return Ok(None);
    }
    match crate::bench::folder_set(path, all_runs) {
        Some(files) => Ok(Some(files)),
        None => Err(crate::bench::folder_error(path).into()),
    }
}

/// Open a result set for a command that reads it, with every verdict of its journals
/// (docs/format.md, "The verdict journal"), and say on standard error what the journals
/// added and what in them could not be used: one wording for every command.
pub fn open_with_journal(path: &Path) -> anyhow::Result<crate::store::Store> {
    let (store, _journals, replay) = crate::session::open_with_journal(path)?;
    for line in journal_notices(path, &replay) {
        out::errln!("{line}")?;
    }
    Ok(store)
}

/// The lines `open_with_journal` prints.
pub fn journal_notices(path: &Path, replay: &crate::session::Replay) -> Vec<String> {
    let file = crate::sanitize::line(&path.display().to_string()).into_owned();
    let mut out = Vec::new();
    if replay.applied > 0 {
        out.push(format!("verdict: {file}: {}", replay.recovered_notice()));
    }
    if replay.not_applied() > 0 {
        out.push(format!(
            "verdict: {file}: {} (open the file in verdict to keep them aside):",
            replay.not_applied_notice()
        ));
        for p in replay.problems() {
            out.push(format!("verdict:   {}", crate::sanitize::line(p)));
        }
    }
    if let Some(n) = replay.kept_aside_notice() {
        out.push(format!("verdict: {file}: {}", crate::sanitize::line(&n)));
    }
    if let Some(n) = replay.untrusted_notice() {
        out.push(format!("verdict: {file}: {}", crate::sanitize::line(&n)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Replay;

    #[test]
    fn journal_notices_count_in_the_singular_and_the_plural() {
        let mut r = Replay {
            applied: 1,
            ..Replay::default()
        };
        let p = Path::new("set.jsonl");
        assert_eq!(
            journal_notices(p, &r),
            [
                "verdict: set.jsonl: recovered 1 verdict from the journal (not yet saved into the file)"
            ]
        );
        r.applied = 3;
        assert_eq!(
            journal_notices(p, &r),
            [
                "verdict: set.jsonl: recovered 3 verdicts from the journal (not yet saved into the file)"
            ]
        );
        r.applied = 0;
        r.invalid = vec!["bad".into()];
        assert_eq!(
            journal_notices(p, &r)[0],
            "verdict: set.jsonl: 1 journal entry not applied: 0 unreadable, 1 invalid, 0 match no item (open the file in verdict to keep them aside):"
        );
    }
}
