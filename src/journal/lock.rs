//! The save lock of a results file (docs/format.md, "Several reviewers on one file"): one
//! file beside the results file, `.<file name>.verdict-lock`, locked with `flock`, as git's
//! `index.lock` or SQLite's lock of its database file. A session that saves holds it
//! exclusively across re-read → rebase → write → fsync → rename → stamp → clearing its
//! journal, so saves of several sessions are serialised and each one rebases on the file
//! the previous one wrote. A command that reads the file with its journals (`stats`,
//! `merge`, `export`, `split`, `agree`, opening a session) holds it shared across reading
//! both, so it never sees the old file with an emptied journal.
//!
//! The file is never removed (removing a lock file races with whoever opens it next) and
//! holds no state: the kernel drops a `flock` when its process dies, so a killed session
//! never leaves the file locked. It says which process and reviewer saved last, for
//! messages only.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub(super) const LOCK_SUFFIX: &str = ".verdict-lock";

/// How long a save or a reader waits for the lock before it gives up and says who holds
/// it (a session stopped with Ctrl-Z in the middle of a save keeps it).
pub const LOCK_WAIT: Duration = Duration::from_secs(20);

/// Where the save lock of `results` is: beside the file it names (a symbolic link is
/// followed, so every path to one file shares one lock).
pub fn lock_path(results: &Path) -> PathBuf {
    super::paths::beside_real_file(results, LOCK_SUFFIX)
}

/// A held save lock; dropping it lets go.
#[derive(Debug)]
pub struct SaveLock {
    file: File,
    path: PathBuf,
}

/// Why a lock could not be had.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error(
        "another verdict session ({holder}) has been saving {file} for over {secs} s; \
         nothing was changed, try again"
    )]
    Busy {
        file: PathBuf,
        holder: String,
        secs: u64,
    },
    /// The lock file is not one verdict may trust (docs/format.md, "Who may write beside a
    /// file"): a symbolic link, not a regular file, or planted by a user who may not write
    /// the results file.
    #[error(
        "the save lock {path} is {why}: verdict does not use it, so {file} can be neither \
         read in step with saves nor saved; remove it (rm {path:?}), or ask its owner or an \
         administrator to"
    )]
    Untrusted {
        path: PathBuf,
        file: PathBuf,
        why: String,
    },
    #[error("cancelled")]
    Cancelled,
}

fn open_lock_file(path: &Path, create: bool, mode: u32) -> io::Result<File> {
    let mut o = OpenOptions::new();
    o.read(true).write(true).create(create);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(mode & 0o666);
    }
    match super::open_checked(path, &mut o) {
        Ok(f) => Ok(f),
        // Not ours to write (another user's, a read-only folder): a read-only descriptor
        // takes a flock as well.
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
            super::open_checked(path, OpenOptions::new().read(true))
        }
        Err(e) => Err(e),
    }
}

/// Take the lock (`flock` on Unix), exclusive or shared, if it can be had now.
fn try_flock(f: &File, exclusive: bool) -> io::Result<bool> {
    let got = if exclusive {
        f.try_lock()
    } else {
        f.try_lock_shared()
    };
    match got {
        Ok(()) => Ok(true),
        Err(std::fs::TryLockError::WouldBlock) => Ok(false),
        Err(std::fs::TryLockError::Error(e)) => Err(e),
    }
}

/// Does `flock` lock where `results` is? A second descriptor of the lock file must be
/// refused the lock the first holds; some network and FUSE file systems grant both. True
/// where it cannot be tried (no lock file can be made: no save can happen there), or
/// where another process holds the lock now (which only a working lock tells).
pub fn flock_works(results: &Path) -> bool {
    let path = lock_path(results);
    let Ok(first) = open_lock_file(&path, true, super::side_file_mode(results)) else {
        return true;
    };
    if !matches!(try_flock(&first, true), Ok(true)) {
        return true;
    }
    let Ok(second) = super::open_checked(&path, OpenOptions::new().read(true)) else {
        return true;
    };
    !matches!(try_flock(&second, true), Ok(true))
}

const WROTE: &str = "wrote ";
const BY: &str = "by ";

fn holder(f: &File) -> String {
    let mut s = String::new();
    let mut r = f;
    if r.seek(SeekFrom::Start(0)).is_ok() {
        let _ = r.take(200).read_to_string(&mut s);
    }
    let s = crate::sanitize::line(s.lines().next().unwrap_or("").trim()).into_owned();
    if s.is_empty() {
        "another process".into()
    } else {
        s
    }
}

fn acquire(
    results: &Path,
    exclusive: bool,
    wait: Duration,
    cancel: &AtomicBool,
) -> Result<Option<SaveLock>, LockError> {
    let path = lock_path(results);
    let io_err = |source| LockError::Io {
        path: path.clone(),
        source,
    };
    // A reader creates nothing beside the file: where no session ever saved there is no
    // lock file, and the reader checks afterwards that none appeared (`lock_file_exists`).
    if !exclusive && std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    let mode = super::side_file_mode(results);
    let untrusted = |why: String| LockError::Untrusted {
        path: path.clone(),
        file: results.to_path_buf(),
        why,
    };
    let file = match open_lock_file(&path, true, mode) {
        Ok(f) => f,
        Err(e) if super::unsafe_reason(&e).is_some() => {
            return Err(untrusted(super::unsafe_reason(&e).unwrap_or_default()));
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        // A reader in a folder it may not write, where no session ever saved (a save
        // needs to create files there): there is nothing to wait for.
        Err(e)
            if !exclusive
                && matches!(
                    e.kind(),
                    io::ErrorKind::PermissionDenied | io::ErrorKind::ReadOnlyFilesystem
                ) =>
        {
            return Ok(None);
        }
        Err(e) => return Err(io_err(e)),
    };
    // Its text is shown in messages, and whoever holds it stops every save: only a lock
    // file of a user who may write the results file is used.
    if let Some(why) = super::distrust_file(&file, results).map_err(io_err)? {
        return Err(untrusted(why));
    }
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        if try_flock(&file, exclusive).map_err(io_err)? {
            return Ok(Some(SaveLock { file, path }));
        }
        if cancel.load(Ordering::Relaxed) {
            return Err(LockError::Cancelled);
        }
        if start.elapsed() >= wait {
            return Err(LockError::Busy {
                file: results.to_path_buf(),
                holder: holder(&file),
                secs: wait.as_secs(),
            });
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

/// Take the save lock of `results` exclusively (creating the lock file if needed),
/// waiting up to `wait` (or until `cancel` is set), and note in it who holds it (`who`:
/// the reviewer). `None` when the file's folder is gone (the save then fails on its own).
pub fn lock_for_save(
    results: &Path,
    who: &str,
    wait: Duration,
    cancel: &AtomicBool,
) -> Result<Option<SaveLock>, LockError> {
    let mut l = acquire(results, true, wait, cancel)?;
    if let Some(l) = &mut l {
        l.note(who);
    }
    Ok(l)
}

/// Take the save lock of `results` shared, to read the file and its journals as one
/// snapshot. `None` when there is no lock file (no session ever saved the file there):
/// nothing is created; after reading, [`lock_file_exists`] says whether a save began
/// meanwhile (every save takes the lock first), and then the read must be done again.
pub fn lock_for_read(results: &Path, wait: Duration) -> Result<Option<SaveLock>, LockError> {
    acquire(results, false, wait, &AtomicBool::new(false))
}

/// Is there a lock file beside `results` (has a session ever saved it)? After a read
/// without the lock (`lock_for_read` gave `None`): has a session created it since, to
/// save?
pub fn lock_file_exists(results: &Path) -> bool {
    std::fs::symlink_metadata(lock_path(results)).is_ok()
}

/// Run `read` (of the file and its journals) in step with saves: under the save lock held
/// shared; where there is no lock file (no session ever saved there), without it, and once
/// more under it if a save began meanwhile (every save takes the lock first).
pub fn read_in_step<T, E: From<LockError>>(
    results: &Path,
    mut read: impl FnMut() -> Result<T, E>,
) -> Result<T, E> {
    let lock = lock_for_read(results, LOCK_WAIT)?;
    let got = read()?;
    if lock.is_some() || !lock_file_exists(results) {
        return Ok(got);
    }
    let _lock = lock_for_read(results, LOCK_WAIT)?;
    read()
}

impl SaveLock {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Who saved last, as the lock file says (for messages).
    pub fn last_saver(&self) -> String {
        holder(&self.file)
    }

    /// Note that `who` wrote the file whose stamp is `stamp` (`Store::stamp_text`): a
    /// session that finds that file later can tell whose save it was.
    pub fn note_written(&mut self, who: &str, stamp: &str) {
        self.note_text(&format!("{WROTE}{stamp}\n{BY}{who}\n"), who);
    }

    /// Note who holds the lock (`pid N (who)`, the first line), before any save.
    fn note(&mut self, who: &str) {
        self.note_text("", who);
    }

    /// The lock file's text: who holds it, then `rest`.
    fn note_text(&mut self, rest: &str, who: &str) {
        let text = format!("pid {} ({who})\n{rest}", std::process::id());
        let f = &mut self.file;
        let _ = f
            .set_len(0)
            .and_then(|_| f.seek(SeekFrom::Start(0)))
            .and_then(|_| f.write_all(text.as_bytes()));
    }
}

/// The reviewer whose session wrote the file now at `results`, if its stamp is `stamp` and
/// the last save noted in the lock file wrote exactly that file (a file another program
/// wrote since is nobody's).
pub fn saved_by(results: &Path, stamp: &str) -> Option<String> {
    let mut s = String::new();
    let f = super::open_checked(&lock_path(results), OpenOptions::new().read(true)).ok()?;
    if super::distrust_file(&f, results).ok()?.is_some() {
        return None;
    }
    f.take(4096).read_to_string(&mut s).ok()?;
    let mut lines = s.lines().skip(1);
    (lines.next()?.strip_prefix(WROTE)? == stamp)
        .then(|| lines.next()?.strip_prefix(BY).map(str::to_string))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no() -> AtomicBool {
        AtomicBool::new(false)
    }

    #[test]
    fn an_exclusive_lock_waits_for_a_reader_and_says_who_holds_it() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("r.jsonl");
        std::fs::write(&p, "{}\n").unwrap();
        let held = lock_for_save(&p, "alice", LOCK_WAIT, &no())
            .unwrap()
            .unwrap();
        let e = lock_for_save(&p, "bob", Duration::from_millis(30), &no()).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("alice") && msg.contains(&std::process::id().to_string()),
            "{msg}"
        );
        assert!(lock_for_read(&p, Duration::from_millis(30)).is_err());
        drop(held);
        let r1 = lock_for_read(&p, LOCK_WAIT).unwrap().unwrap();
        let r2 = lock_for_read(&p, LOCK_WAIT).unwrap().unwrap();
        assert!(lock_for_save(&p, "bob", Duration::from_millis(30), &no()).is_err());
        drop((r1, r2));
        assert!(
            lock_for_save(&p, "bob", Duration::from_millis(30), &no()).is_ok_and(|l| l.is_some())
        );
    }

    #[test]
    fn a_file_is_known_as_a_sessions_save_only_while_it_is_the_file_it_wrote() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("r.jsonl");
        std::fs::write(&p, "{}\n").unwrap();
        let stamp = crate::store::stamp_text_of(&p).unwrap();
        assert_eq!(saved_by(&p, &stamp), None);
        let mut l = lock_for_save(&p, "bo b", LOCK_WAIT, &no())
            .unwrap()
            .unwrap();
        l.note_written("bo b", &stamp);
        drop(l);
        assert_eq!(saved_by(&p, &stamp).as_deref(), Some("bo b"));
        // another program writes the file: nobody's save
        std::thread::sleep(Duration::from_millis(10));
        std::fs::write(&p, "{\"x\": 1}\n").unwrap();
        let now = crate::store::stamp_text_of(&p).unwrap();
        assert_ne!(now, stamp);
        assert_eq!(saved_by(&p, &now), None);
    }

    #[test]
    fn a_reader_creates_nothing_and_notices_a_save_beginning() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("gone.jsonl");
        assert!(lock_for_read(&p, LOCK_WAIT).unwrap().is_none());
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
        let p = d.path().join("r.jsonl");
        std::fs::write(&p, "{}\n").unwrap();
        assert!(lock_for_read(&p, LOCK_WAIT).unwrap().is_none());
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
        assert!(!lock_file_exists(&p));
        let _l = lock_for_save(&p, "a", LOCK_WAIT, &no()).unwrap().unwrap();
        assert!(lock_file_exists(&p));
        assert!(lock_for_read(&p, Duration::from_millis(30)).is_err());
    }

    #[test]
    fn every_path_to_one_file_shares_one_lock() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("r.jsonl");
        std::fs::write(&p, "{}\n").unwrap();
        let link = d.path().join("link.jsonl");
        std::os::unix::fs::symlink(&p, &link).unwrap();
        assert_eq!(lock_path(&p), lock_path(&link));
        let _held = lock_for_save(&link, "alice", LOCK_WAIT, &no())
            .unwrap()
            .unwrap();
        assert!(lock_for_save(&p, "bob", Duration::from_millis(30), &no()).is_err());
    }
}
