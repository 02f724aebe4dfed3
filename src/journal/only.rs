//! Where `flock` does nothing (some network and FUSE file systems accept it without
//! locking), neither the save lock nor the journals' locks keep sessions apart: two saves
//! interleave and one session takes another's live journal for a dead one's. verdict
//! notices it when a session opens (a second descriptor's `LOCK_EX|LOCK_NB` is granted
//! while the first holds it) and then lets only one session at a time have the file open:
//! the one that created `.<file name>.verdict-session` beside it with `O_EXCL`, holding its
//! process id and host, as git's `index.lock` (docs/format.md, "Several sessions on one
//! file").

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

const SUFFIX: &str = ".verdict-session";

/// Where the marker of the one session of `results` is: beside the file it names.
pub fn only_session_path(results: &Path) -> PathBuf {
    super::paths::beside_real_file(results, SUFFIX)
}

/// This session is the only one with the file open (where `flock` does nothing): the
/// marker is removed when it is dropped, at the end of the session.
#[derive(Debug)]
pub struct OnlySession {
    path: PathBuf,
    file: File,
}

impl Drop for OnlySession {
    fn drop(&mut self) {
        // Only the marker this session made (not one another session made after taking
        // this one for a dead session's).
        if super::same_file(&self.file, &self.path) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// If `flock` does nothing where `results` is, make this session the only one with the
/// file open (`Ok(Some)`), or say why it cannot be (another session has it: who, and what
/// to do). `Ok(None)` where `flock` works (or cannot be tried: a folder the user may not
/// write, where no save can happen anyway).
pub fn only_session_if_needed(results: &Path, who: &str) -> Result<Option<OnlySession>, String> {
    if super::flock_works(results) {
        return Ok(None);
    }
    log::warn!(
        "flock does not lock in the folder of {}: only one session at a time may open it",
        results.display()
    );
    take(results, who).map(Some)
}

fn take(results: &Path, who: &str) -> Result<OnlySession, String> {
    let path = only_session_path(results);
    let me = format!("pid {} on {} ({who})\n", std::process::id(), host());
    let mode = super::side_file_mode(results);
    for _ in 0..3 {
        let mut o = OpenOptions::new();
        o.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(mode & 0o666);
        }
        match o.open(&path) {
            Ok(mut f) => {
                f.write_all(me.as_bytes())
                    .and_then(|_| f.sync_all())
                    .and_then(|_| super::sync_dir(&path))
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                return Ok(OnlySession { path, file: f });
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                let holder = holder(&path, results)?;
                if is_dead_here(&holder) {
                    log::info!("{}: its session ended ({holder}); taken", path.display());
                    let _ = std::fs::remove_file(&path);
                    continue;
                }
                return Err(format!(
                    "{} is open in another verdict session ({holder}). File locks do not work in \
                     its folder (flock is accepted but does not lock, as on some network and \
                     FUSE file systems), so only one session at a time may have it open. If \
                     that session is gone (its machine stopped), remove {}",
                    results.display(),
                    path.display()
                ));
            }
            Err(e) => return Err(format!("{}: {e}", path.display())),
        }
    }
    Err(format!(
        "{}: keeps being replaced by another session",
        path.display()
    ))
}

/// What the marker says of its session, if its owner could have written the results file
/// (else why it is not used, and what to do).
fn holder(path: &Path, results: &Path) -> Result<String, String> {
    let refused = |why: String| {
        format!(
            "{} is {why}: verdict does not use it; remove it (rm {path:?}), or ask its owner \
             or an administrator to",
            path.display()
        )
    };
    let f = super::open_checked(path, OpenOptions::new().read(true))
        .map_err(|e| refused(super::unsafe_reason(&e).unwrap_or_else(|| e.to_string())))?;
    if let Some(why) = super::distrust_file(&f, results).map_err(|e| e.to_string())? {
        return Err(refused(why));
    }
    let mut s = String::new();
    let _ = (&f).take(200).read_to_string(&mut s);
    Ok(crate::sanitize::line(s.lines().next().unwrap_or("").trim()).into_owned())
}

/// Does `holder` (`pid N on HOST (who)`) name a process of this host that is gone?
fn is_dead_here(holder: &str) -> bool {
    let Some(rest) = holder.strip_prefix("pid ") else {
        return false;
    };
    let Some((pid, rest)) = rest.split_once(" on ") else {
        return false;
    };
    let (Ok(pid), Some(h)) = (pid.parse::<i32>(), rest.split(' ').next()) else {
        return false;
    };
    h == host() && pid > 0 && !alive(pid)
}

#[cfg(unix)]
fn alive(pid: i32) -> bool {
    // SAFETY: kill with signal 0 only checks that the process exists.
    let sent = unsafe { libc::kill(pid, 0) == 0 };
    sent || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(not(unix))]
fn alive(_pid: i32) -> bool {
    true
}

/// This machine's name.
fn host() -> String {
    #[cfg(unix)]
    {
        let mut buf = [0u8; 256];
        // SAFETY: the buffer is valid for its length.
        if unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0 {
            let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            let h = String::from_utf8_lossy(&buf[..end]).replace(' ', "_");
            if !h.is_empty() {
                return h;
            }
        }
    }
    "localhost".into()
}
