//! Opening a result set for a reviewing session: the file, every journal of it replayed,
//! this reviewer's own journal created and locked, the journals of sessions that ended
//! (to fold and then remove), and copies of the journals holding entries that could not be
//! applied. Domain code: the reviewer calls it before it takes the terminal, and anything
//! else (a command, a process that folds after the reviewer quit) can call it the same way.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::journal::{self, Journal, Replay};
use crate::store::Store;

/// A result set opened for a session.
pub struct Opened {
    /// The file with every journal's verdicts applied (in memory).
    pub store: Store,
    /// This reviewer's journal, locked for the session's life.
    pub own: Journal,
    /// Journals of sessions that are gone, replayed here: removed once folded.
    pub stale: Vec<PathBuf>,
    /// What the replay did, and what it could not use.
    pub replay: Replay,
    /// Copies of the journals holding entries that were not applied (never deleted).
    pub kept_aside: Vec<PathBuf>,
}

/// Open `file` for `reviewer`'s session. The file is opened first, so a failed open
/// leaves no journal behind. Journals of other sessions still running stay theirs; those
/// left by sessions that ended (killed) are to be folded by this one. Journals holding
/// entries that were not applied are copied aside first, so folding never deletes them.
pub fn open(file: &Path, reviewer: &str) -> anyhow::Result<Opened> {
    let (store, replayed, replay) = journal::open_with_journal(file)
        .with_context(|| format!("cannot open {}", file.display()))?;
    let own = Journal::for_session(file, reviewer)?;
    log::info!(
        "opened {} ({} items) as {reviewer}",
        file.display(),
        store.len()
    );
    let stale: Vec<PathBuf> = replayed
        .into_iter()
        .filter(|p| p.as_path() != own.path() && !journal::is_live(p))
        .collect();
    let mut kept_aside = Vec::new();
    let mode = journal::side_file_mode(file);
    for p in replay
        .to_keep
        .iter()
        .filter(|p| p.as_path() == own.path() || stale.contains(p))
    {
        match Journal::at(p.to_path_buf()).keep_aside(mode) {
            Ok(a) => kept_aside.push(a),
            Err(e) => log::error!("keeping {} aside: {e}", p.display()),
        }
    }
    Ok(Opened {
        store,
        own,
        stale,
        replay,
        kept_aside,
    })
}
