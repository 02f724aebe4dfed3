//! The journal's files: opened safely (no symbolic link, no FIFO, no other hard link),
//! locked by the live session, recognised as stale, and the marker of a fold that runs
//! after its session ended.

use super::*;

#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("another verdict session of this reviewer has {0} open (its journal {1} is locked)")]
    Busy(PathBuf, PathBuf),
    #[error("{0}: {1}")]
    Io(PathBuf, io::Error),
}

/// A journal path that must not be used: it is a symbolic link, not a regular file, or has
/// other hard links (writing to it, then emptying it, would change another file).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NotSafe(String);

pub(super) fn not_safe(why: &str) -> io::Error {
    io::Error::other(NotSafe(why.to_string()))
}

/// A journal (or a copy kept aside) whose owner could not have written the results file,
/// or that more users may write than may write the results file: not read into it
/// (docs/format.md, "Who may write beside a file").
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NotTrusted(String);

pub(super) fn not_trusted(why: &str) -> io::Error {
    io::Error::other(NotTrusted(why.to_string()))
}

/// Why a journal is not trusted, if that is why reading it failed.
pub fn untrusted_reason(e: &io::Error) -> Option<String> {
    e.get_ref()
        .and_then(|x| x.downcast_ref::<NotTrusted>())
        .map(|n| n.0.clone())
}

/// Why a path is unsafe to use as a journal, if that is why opening it failed.
pub fn unsafe_reason(e: &io::Error) -> Option<String> {
    e.get_ref()
        .and_then(|x| x.downcast_ref::<NotSafe>())
        .map(|n| n.0.clone())
}

/// Open a journal without following a symbolic link, without blocking on a FIFO, and only
/// if it is a regular file with no other hard link.
pub(super) fn open_checked(path: &Path, opts: &mut OpenOptions) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC);
    }
    let f = match opts.open(path) {
        Ok(f) => f,
        #[cfg(unix)]
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(not_safe("a symbolic link"));
        }
        #[cfg(unix)]
        Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {
            return Err(not_safe("not a regular file"));
        }
        Err(e) => return Err(e),
    };
    let meta = f.metadata()?;
    if !meta.is_file() {
        return Err(not_safe("not a regular file"));
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return Err(not_safe("a file with other hard links"));
        }
        // SAFETY: fcntl on a file descriptor we own; clears O_NONBLOCK.
        unsafe {
            let fl = libc::fcntl(f.as_raw_fd(), libc::F_GETFL);
            if fl >= 0 {
                libc::fcntl(f.as_raw_fd(), libc::F_SETFL, fl & !libc::O_NONBLOCK);
            }
        }
    }
    Ok(f)
}

/// Open (and if needed create) a journal to append to. Returns the file and whether it
/// was created now; a new journal's folder is fsynced so its name is durable too. A
/// journal that exists is written only if it is the user's own and no more writable than
/// the results file at `results` (docs/format.md, "Who may write beside a file").
pub(super) fn open_append(
    path: &Path,
    mode: u32,
    results: Option<&Path>,
) -> io::Result<(File, bool)> {
    let mut o = OpenOptions::new();
    o.append(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(mode);
    }
    match open_checked(path, &mut o) {
        Ok(f) => {
            sync_dir(path)?;
            Ok((f, true))
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            let f = open_checked(path, OpenOptions::new().append(true))?;
            refuse_unless_mine(&f, results)?;
            restrict_mode(&f, mode);
            Ok((f, false))
        }
        Err(e) => Err(e),
    }
}

/// A journal another user owns is never written to (they could read what is appended, or
/// append to it), nor one that users who may not write the results file may write.
fn refuse_unless_mine(f: &File, results: Option<&Path>) -> io::Result<()> {
    let meta = f.metadata()?;
    if !is_mine(&meta) {
        return Err(not_safe(&format!("owned by {}", owner_name(&meta))));
    }
    if let Some(why) = results.map(|r| distrust_file(f, r)).transpose()?.flatten() {
        return Err(not_safe(&why));
    }
    Ok(())
}

/// A journal left by an earlier version or session may be more readable than the results
/// file now is: take away what the results file does not allow.
pub(super) fn restrict_mode(f: &File, mode: u32) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(m) = f.metadata() {
            let now = m.permissions().mode() & 0o7777;
            if now & !mode != 0 {
                let _ = f.set_permissions(fs::Permissions::from_mode(now & mode));
            }
        }
    }
    #[cfg(not(unix))]
    let _ = (f, mode);
}

/// Permission bits for the side files of a results file: its own read and write bits
/// (0600 when it cannot be read).
pub fn side_file_mode(results: &Path) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::metadata(results)
            .map(|m| m.permissions().mode() & 0o666)
            .unwrap_or(0o600)
    }
    #[cfg(not(unix))]
    {
        let _ = results;
        0o600
    }
}

pub(super) fn sync_dir(path: &Path) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    File::open(dir)?.sync_all()
}

/// Take the file's exclusive lock (`flock` on Unix) if no one holds it: false if someone
/// does.
pub(super) fn try_lock(f: &File) -> io::Result<bool> {
    match f.try_lock() {
        Ok(()) => Ok(true),
        Err(fs::TryLockError::WouldBlock) => Ok(false),
        Err(fs::TryLockError::Error(e)) => Err(e),
    }
}

/// Does the open file still have the name `path` (not removed or replaced since)?
pub(super) fn same_file(f: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (f.metadata(), fs::symlink_metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = f;
        path.exists()
    }
}

/// Remove the journal of a session that has ended (once its records are in the results
/// file), holding its lock meanwhile, so a session of its reviewer starting at that moment
/// never appends to the removed file. Returns false (and keeps it) if a live session
/// holds it.
pub fn remove_if_stale(path: &Path) -> io::Result<bool> {
    let f = match open_checked(path, OpenOptions::new().append(true)) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(true),
        Err(e) => return Err(e),
    };
    if !try_lock(&f)? {
        return Ok(false);
    }
    remove_if_exists(path)?;
    Ok(true)
}

/// Is a live session holding this journal?
pub fn is_live(path: &Path) -> bool {
    match open_checked(path, OpenOptions::new().append(true)) {
        Ok(f) => matches!(try_lock(&f), Ok(false)),
        Err(_) => false,
    }
}

/// Where the process folding `journal` after its session ended says so: the journal's
/// path with `.folding` added. It holds the folder's process id and is locked (`flock`)
/// by the folder for as long as it runs, so a session of the same reviewer opening the
/// file meanwhile waits for the fold instead of racing it. Not a journal's name, so no
/// replay ever reads it.
pub fn fold_marker_path(journal: &Path) -> PathBuf {
    let mut p = journal.as_os_str().to_owned();
    p.push(".folding");
    PathBuf::from(p)
}

/// Create (or take over a left-behind) fold marker for `journal` and lock it: the caller
/// hands the lock to the process that folds. Refused if a folder already holds it.
pub fn take_fold_marker(journal: &Path) -> io::Result<File> {
    let path = fold_marker_path(journal);
    let mut o = OpenOptions::new();
    o.read(true).write(true).create(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    let f = open_checked(&path, &mut o)?;
    if !try_lock(&f)? {
        return Err(io::Error::other(format!(
            "{}: another process is folding this journal",
            path.display()
        )));
    }
    Ok(f)
}

/// Is a process folding `journal` now (its marker exists and is locked)?
pub fn fold_running(journal: &Path) -> bool {
    is_live(&fold_marker_path(journal))
}

/// Remove the fold marker of `journal` if no process holds it (one whose folder was
/// killed is left behind; the journal itself stays and is replayed).
pub fn remove_fold_marker_if_stale(journal: &Path) -> io::Result<bool> {
    remove_if_stale(&fold_marker_path(journal))
}

/// Every place `reviewer`'s journal of `results` can be: beside the file, and in the
/// fallback folder.
pub fn journal_candidates(results: &Path, reviewer: &str) -> Vec<PathBuf> {
    let mut v = vec![journal_path(results, reviewer)];
    if let Some(dir) = fallback_dir(results) {
        v.push(dir.join(journal_name(&file_name(results), reviewer)));
    }
    v
}
