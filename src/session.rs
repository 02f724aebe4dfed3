//! Opening a result set for a reviewing session: the file, every journal of it replayed,
//! this reviewer's own journal created and locked, the journals of sessions that ended
//! (to fold and then remove), and copies of the journals holding entries that could not be
//! applied. Domain code: the reviewer calls it before it takes the terminal, and anything
//! else (a command, a process that folds after the reviewer quit) can call it the same way.
//! Folding a session's journal into the file (`fold`) lives here too.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use anyhow::Context as _;

use crate::journal::{self, Journal};

// Which item a record is about, and whether its review applies there.
mod apply;
pub use apply::*;

// What a replay did, and how it is worded.
mod replay;
pub use replay::*;

// Reading a file with its journals, in step with saves.
mod read;
pub use read::*;

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

/// Open a result set's file, a folder named for one said in the registry's words (what
/// to open in it, or how to import it: [`crate::bench::folder_error`]).
pub fn open_store(path: &Path, scan: crate::store::Scan) -> Result<Store, StoreError> {
    Store::open_with(path, scan).map_err(|e| match e {
        StoreError::Folder { path } => crate::bench::folder_error(&path),
        e => e,
    })
}

/// Open `file` for `reviewer`'s session. The file is opened first, so a failed open
/// leaves no journal behind. Journals of other sessions still running stay theirs; those
/// left by sessions that ended (killed) are to be folded by this one. Journals holding
/// entries that were not applied are copied aside first, so folding never deletes them.
pub fn open(file: &Path, reviewer: &str) -> anyhow::Result<Opened> {
    open_as(file, reviewer, crate::store::Scan::Whole)
}

/// [`open`], the file's items found as `scan` says (the reviewer: in the background, so
/// its first screen does not wait for a large file's scan).
pub fn open_as(file: &Path, reviewer: &str, scan: crate::store::Scan) -> anyhow::Result<Opened> {
    let mut tries = 0;
    loop {
        wait_for_fold(file, reviewer, |j| {
            log::info!("waiting for the fold of {} to end", j.display())
        });
        let (store, replayed, replay) = crate::session::open_with_journal_as(file, scan.clone())
            .with_context(|| format!("cannot open {}", file.display()))?;
        match Journal::for_session(file, reviewer) {
            Ok(mut own) => {
                own.only = journal::only_session_if_needed(file, reviewer)
                    .map_err(|e| anyhow::anyhow!(e))?;
                return opened(file, reviewer, store, own, replayed, replay);
            }
            // The session that held it ended meanwhile and handed it to a folder: wait
            // for that fold, then read the file it wrote.
            Err(journal::SessionError::Busy(_, j)) if tries < 3 && journal::fold_running(&j) => {
                tries += 1;
            }
            Err(e) => return Err(e.into()),
        }
    }
}

fn opened(
    file: &Path,
    reviewer: &str,
    store: Store,
    own: Journal,
    replayed: Vec<PathBuf>,
    replay: Replay,
) -> anyhow::Result<Opened> {
    let (found, all) = store.len_so_far();
    log::info!(
        "opened {} ({found} items{}) as {reviewer}",
        file.display(),
        if all { "" } else { " so far: still reading it" }
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
            // This session's fold would clear the journal and lose them: don't start.
            Err(e) => anyhow::bail!(
                "{} in {} could not be applied, and could not be copied aside ({e}); \
                 the session did not start and nothing was changed: free some space \
                 (or make the folder writable) and open the file again",
                crate::session::verdicts(replay.not_applied_in(p)),
                p.display()
            ),
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
/// session (and the stale ones) replayed onto it: under the save lock, held shared, so no
/// session's save falls between the file and the journals; a large file changed in place
/// while it is read is read again.
pub fn reread(store: &Store, own: &Journal, stale: &[PathBuf]) -> Result<Store, String> {
    crate::journal::read_in_step(store.path(), || {
        replayed(store, own, stale)
            .map(|(fresh, _)| fresh)
            .map_err(|e| anyhow::anyhow!(e.to_string()))
    })
    .map_err(|e| e.to_string())
}

/// The error of a fold that was cancelled.
pub const CANCELLED: &str = "cancelled";

/// Save the store (atomic) and clear the journals. The journal is cleared only after the
/// save succeeded, so a crash in between replays the same verdicts again (idempotent).
///
/// The whole fold holds the file's save lock (`journal::lock_for_save`), so the saves of
/// several sessions on one file never interleave: each one writes, renames and clears its
/// journal before the next one reads the file. If the file is not the one this session
/// read (another session saved, or another program changed it), it is read again, this
/// session's journal (and any stale one) is applied to it by item, and that is saved:
/// their change and our verdicts both survive. If some verdicts cannot be matched to an
/// item of the changed file, or no longer pass the checks on it, nothing is saved and the
/// journal stays.
///
/// A fold whose `cancel` flag is set gives up before it replaces the file (the journal
/// stays as it is); its error then starts with [`CANCELLED`].
pub fn fold(
    store: &mut Store,
    own: &mut Journal,
    stale: &mut Vec<PathBuf>,
    cancel: &AtomicBool,
) -> Result<usize, String> {
    match fold_within(store, own, stale, cancel, journal::LOCK_WAIT)? {
        Folded::Done(n) => Ok(n),
        Folded::Busy(e) => Err(e),
    }
}

/// What [`fold_within`] did.
#[derive(Debug, Clone, PartialEq)]
pub enum Folded {
    /// Folded: this many items written.
    Done(usize),
    /// Another session held the save lock for the whole wait: nothing was done (the
    /// journal keeps every verdict); the words say whose save it is.
    Busy(String),
}

/// [`fold`], waiting at most `wait` for another session's save (a reviewer's session
/// folds with no wait, so its journal keeps taking verdicts while a colleague's save
/// runs or a stopped colleague holds the lock: docs/format.md, "Several sessions on one
/// file").
pub fn fold_within(
    store: &mut Store,
    own: &mut Journal,
    stale: &mut Vec<PathBuf>,
    cancel: &AtomicBool,
    wait: std::time::Duration,
) -> Result<Folded, String> {
    let path = store.path().to_path_buf();
    let who = journal::reviewer_of(own.path(), &path).unwrap_or_default();
    let mut lock = match journal::lock_for_save(&path, &who, wait, cancel) {
        Ok(l) => l,
        Err(journal::LockError::Cancelled) => return Err(CANCELLED.to_string()),
        Err(journal::LockError::Busy { holder, .. }) => return Ok(Folded::Busy(holder)),
        Err(e) => return Err(e.to_string()),
    };
    let n = store.edited().count();
    if n > 0 {
        save_rebasing(store, own, stale, &mut lock, &who, cancel)?;
        if store.container().is_some() {
            // A container file's items are what its reader makes of the file (an
            // Inspect log's samples show the score edits this save wrote, and the
            // recomputed figures), and its next save starts from the file as it now is:
            // read it again (under the lock, so it is the file this save wrote).
            match Store::open(&path) {
                Ok(s) => *store = s,
                Err(e) => log::warn!("reading {} again after the save: {e}", path.display()),
            }
        }
    }
    own.clear()
        .map_err(|e| format!("could not clear {}: {e}", own.path().display()))?;
    for p in std::mem::take(stale) {
        if let Err(e) = journal::remove_if_stale(&p) {
            log::warn!("removing {}: {e}", p.display());
        }
    }
    Ok(Folded::Done(n))
}

/// Save the store under the save lock `lock` (held by `who`), noting the save in it.
/// Under the lock no other session saves; only a program that does not take it can change
/// the file between our look and our rename: then the journals are applied to the file
/// as it is now (`rebased`) and the save tried again, up to `REBASES` times.
fn save_rebasing(
    store: &mut Store,
    own: &Journal,
    stale: &[PathBuf],
    lock: &mut Option<journal::SaveLock>,
    who: &str,
    cancel: &AtomicBool,
) -> Result<(), String> {
    let path = store.path().to_path_buf();
    let mut rebases = 0;
    loop {
        match store.save_until(cancel) {
            Ok(_) => {
                if let (Some(l), Some(stamp)) = (lock.as_mut(), store.stamp_text()) {
                    l.note_written(who, &stamp);
                }
                return Ok(());
            }
            Err(StoreError::Conflict { .. }) if rebases < REBASES => {
                rebases += 1;
                *store = rebased(store, own, stale).map_err(|e| match e {
                    Rebase::Store(e) => save_error(&path, e),
                    Rebase::Other(e) => e,
                })?;
                log::info!(
                    "the file changed on disk (last saved by {}); re-applied the journal to it",
                    lock.as_ref().map(|l| l.last_saver()).unwrap_or_default()
                );
            }
            Err(StoreError::Conflict { .. }) => {
                return Err(format!(
                    "the file keeps being changed by another program ({REBASES} tries); \
                     nothing saved, your verdicts stay in {}",
                    own.path().display()
                ));
            }
            Err(e) => return Err(save_error(&path, e)),
        }
    }
}

/// Why the save of `path` failed, in words: the file gone, the fold cancelled, or the
/// store's error without the path it starts with.
fn save_error(path: &Path, e: StoreError) -> String {
    let prefix = format!("{}: ", path.display());
    match e {
        // The file itself is gone: say so, not just "No such file".
        StoreError::Io { source, .. }
            if source.kind() == std::io::ErrorKind::NotFound && !path.exists() =>
        {
            format!("{} is gone (deleted or moved)", path.display())
        }
        e if crate::store::is_cancelled(&e) => CANCELLED.to_string(),
        e => e
            .to_string()
            .trim_start_matches(prefix.as_str())
            .to_string(),
    }
}

/// How many times a fold reads the file again after it changed under it.
const REBASES: usize = 5;

enum Rebase {
    Store(StoreError),
    Other(String),
}

impl std::fmt::Display for Rebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rebase::Store(e) => e.fmt(f),
            Rebase::Other(e) => f.write_str(e),
        }
    }
}

/// The file as it is on disk now, with this session's journals (the stale ones, then its
/// own) replayed onto it, and how many of their records were not applied. A large file
/// changed in place while it is read is read again (up to [`REBASES`] reads).
fn replayed(store: &Store, own: &Journal, stale: &[PathBuf]) -> Result<(Store, usize), Rebase> {
    let mut journals: Vec<Journal> = stale.iter().cloned().map(Journal::at).collect();
    journals.push(Journal::at(own.path().to_path_buf()));
    let mut reads = 0;
    loop {
        reads += 1;
        let mut fresh = Store::open(store.path()).map_err(Rebase::Store)?;
        let mut skipped = 0;
        for j in &journals {
            let rep = j
                .replay(&mut fresh)
                .map_err(|e| Rebase::Other(e.to_string()))?;
            skipped += rep.skipped.len() + rep.invalid.len();
        }
        if !fresh.changed_on_disk() || reads >= REBASES {
            return Ok((fresh, skipped));
        }
    }
}

/// [`replayed`] for a save (the caller holds the save lock). A verdict that matches no
/// item of the file now, or no longer fits its item (a graded model is gone), must not be
/// folded away: an error then.
fn rebased(store: &Store, own: &Journal, stale: &[PathBuf]) -> Result<Store, Rebase> {
    let (fresh, skipped) = replayed(store, own, stale)?;
    if skipped > 0 {
        return Err(Rebase::Other(format!(
            "the file was changed by another program and {skipped} verdicts match no item of it now \
             or no longer fit their item; nothing saved, they stay in {}",
            own.path().display()
        )));
    }
    Ok(fresh)
}

/// If a process is folding `reviewer`'s journal of `file` (the session ended and handed
/// its journal over), wait until it is done; `on_wait` is told once, with the journal,
/// when there is something to wait for. A marker left by a folder that was killed is
/// removed (its journal stays, and is replayed like any other).
pub fn wait_for_fold(file: &Path, reviewer: &str, on_wait: impl FnOnce(&Path)) {
    let mut on_wait = Some(on_wait);
    for j in journal::journal_candidates(file, reviewer) {
        while journal::fold_running(&j) {
            if let Some(f) = on_wait.take() {
                f(&j);
            }
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
        if journal::fold_marker_path(&j).exists()
            && let Err(e) = journal::remove_fold_marker_if_stale(&j)
        {
            log::warn!("removing {}: {e}", journal::fold_marker_path(&j).display());
        }
    }
}

/// Fold a session's journal into `file` after the session ended (in the process it
/// handed its journal to, still locked): the file read again, every journal of it
/// replayed, the result saved, and the journal removed. Journals of sessions that are
/// gone are folded and removed too, and whatever a replay could not apply is copied
/// aside first; if that copy fails, nothing is folded. On any failure the journal stays
/// and the next session (or `stats`) replays it.
pub fn fold_detached(file: &Path, mut own: Journal) -> Result<usize, String> {
    let (mut store, replayed, replay) =
        crate::session::open_with_journal(file).map_err(|e| format!("{e:#}"))?;
    let mut stale: Vec<PathBuf> = replayed
        .into_iter()
        .filter(|p| p.as_path() != own.path() && !journal::is_live(p))
        .collect();
    let mode = journal::side_file_mode(file);
    for p in replay
        .to_keep
        .iter()
        .filter(|p| p.as_path() == own.path() || stale.contains(p))
    {
        Journal::at(p.to_path_buf())
            .keep_aside(mode)
            .map_err(|e| format!("keeping {} aside: {e}", p.display()))?;
    }
    let n = fold(&mut store, &mut own, &mut stale, &AtomicBool::new(false))?;
    own.remove()
        .map_err(|e| format!("removing {}: {e}", own.path().display()))?;
    Ok(n)
}

/// The hidden command a session runs to fold its journal after the reviewer quit.
pub const FOLD_COMMAND: &str = "__fold";

/// Hand the fold of `own` (locked) into `file` to a new process of this program, in a
/// session of its own (no terminal; standard streams to /dev/null) that outlives this
/// one. The journal's lock passes to it with the open journal, and a fold marker, also
/// locked, is created for it (`journal::fold_marker_path`): there is no moment at which
/// neither process holds them. Returns the new process's id.
#[cfg(target_os = "linux")]
pub fn spawn_fold(file: &Path, own: &Journal) -> std::io::Result<u32> {
    use std::os::fd::AsRawFd;
    use std::os::unix::process::CommandExt;
    let jf = own
        .file()
        .ok_or_else(|| std::io::Error::other("the journal is not open"))?;
    let marker = journal::take_fold_marker(own.path())?;
    let (jfd, mfd) = (jf.as_raw_fd(), marker.as_raw_fd());
    // /proc/self/exe is this very program even if its file was replaced since.
    let mut cmd = std::process::Command::new("/proc/self/exe");
    // A declared benchmark's items are read as its spec says, in the fold too.
    if let Some(spec) = crate::bench::spec_path() {
        cmd.arg("--benchmark").arg(spec);
    }
    cmd.arg(FOLD_COMMAND)
        .arg("--journal-fd")
        .arg(jfd.to_string())
        .arg("--marker-fd")
        .arg(mfd.to_string())
        .arg("--journal")
        .arg(own.path())
        .arg("--")
        .arg(file)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    // SAFETY: only async-signal-safe calls (setsid, fcntl) between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            // Only the new process inherits these two descriptors.
            for fd in [jfd, mfd] {
                if libc::fcntl(fd, libc::F_SETFD, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    let child = cmd.spawn();
    if child.is_err() {
        // Nobody folds: no marker may say otherwise.
        let _ = std::fs::remove_file(journal::fold_marker_path(own.path()));
    }
    Ok(child?.id())
}

/// Only where /proc/self/exe exists; elsewhere the session folds before it ends.
#[cfg(not(target_os = "linux"))]
pub fn spawn_fold(_file: &Path, _own: &Journal) -> std::io::Result<u32> {
    Err(std::io::Error::other("not on this platform"))
}

#[cfg(test)]
mod tests;
