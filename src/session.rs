//! Opening a result set for a reviewing session: the file, every journal of it replayed,
//! this reviewer's own journal created and locked, the journals of sessions that ended
//! (to fold and then remove), and copies of the journals holding entries that could not be
//! applied. Domain code: the reviewer calls it before it takes the terminal, and anything
//! else (a command, a process that folds after the reviewer quit) can call it the same way.
//! Folding a session's journal into the file (`fold`) lives here too.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::journal::{self, Journal, Replay};
use crate::store::{Store, StoreError};

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

/// Read the file again after another program changed it, with every journal of this
/// session (and the stale ones) replayed onto it.
pub fn reread(store: &Store, own: &Journal, stale: &[PathBuf]) -> Result<Store, String> {
    let mut fresh = Store::open(store.path()).map_err(|e| e.to_string())?;
    let mut journals: Vec<Journal> = stale.iter().cloned().map(Journal::at).collect();
    journals.push(Journal::at(own.path().to_path_buf()));
    for j in &journals {
        j.replay(&mut fresh).map_err(|e| e.to_string())?;
    }
    Ok(fresh)
}

/// Save the store (atomic) and clear the journals. The journal is cleared only after the
/// save succeeded, so a crash in between replays the same verdicts again (idempotent).
///
/// If another program changed the file since it was read, the save is refused; then the
/// file is read again, this session's journal (and any stale one) is applied to it by
/// item id, and that is saved: their change and our verdicts both survive. If some
/// verdicts cannot be matched to an item of the changed file, nothing is saved and the
/// journal stays.
pub fn fold(
    store: &mut Store,
    own: &mut Journal,
    stale: &mut Vec<PathBuf>,
) -> Result<usize, String> {
    let n = store.edited().count();
    if n > 0 {
        let path = store.path().to_path_buf();
        let prefix = format!("{}: ", path.display());
        let reason = |e: StoreError| match e {
            // The file itself is gone: say so, not just "No such file".
            StoreError::Io { source, .. }
                if source.kind() == std::io::ErrorKind::NotFound && !path.exists() =>
            {
                format!("{} is gone (deleted or moved)", path.display())
            }
            e => e
                .to_string()
                .trim_start_matches(prefix.as_str())
                .to_string(),
        };
        match store.save() {
            Ok(_) => {}
            Err(StoreError::Conflict { .. }) => {
                let mut fresh = Store::open(store.path()).map_err(reason)?;
                let mut skipped = 0;
                let mut journals: Vec<Journal> = stale.iter().cloned().map(Journal::at).collect();
                journals.push(Journal::at(own.path().to_path_buf()));
                for j in &journals {
                    let rep = j.replay(&mut fresh).map_err(|e| e.to_string())?;
                    skipped += rep.skipped.len();
                }
                if skipped > 0 {
                    return Err(format!(
                        "the file was changed by another program and {skipped} verdicts match no item of it now; \
                         nothing saved, they stay in {}",
                        own.path().display()
                    ));
                }
                log::info!("the file changed on disk; re-applied the journal to it");
                fresh.save().map_err(reason)?;
                *store = fresh;
            }
            Err(e) => return Err(reason(e)),
        }
    }
    own.clear()
        .map_err(|e| format!("could not clear {}: {e}", own.path().display()))?;
    for p in std::mem::take(stale) {
        if let Err(e) = journal::remove_if_stale(&p) {
            log::warn!("removing {}: {e}", p.display());
        }
    }
    Ok(n)
}
