//! What a save writes with: the sink that gathers small pieces and copies long unchanged
//! runs in the kernel, the cancel flag, the locked temporary file and its clean-up, and
//! the checks before a file is replaced (docs/format.md, "Saving").

use std::fs::{self, File};
use std::io::{self, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::StoreError;

/// Where a save writes: small pieces are gathered, long unchanged runs are copied from
/// the source file in the kernel.
pub(super) struct Sink<'a> {
    pub(super) out: &'a mut File,
    pub(super) pending: Vec<u8>,
    pub(super) n: u64,
    pub(super) last: Option<u8>,
    /// The file the unchanged bytes come from (at the same offsets), when mapped.
    pub(super) src: Option<&'a File>,
    /// Give up when set (checked between pieces of at most `PIECE` bytes).
    pub(super) cancel: &'a AtomicBool,
}

/// The most a save copies between two looks at its cancel flag.
pub(super) const PIECE: usize = 64 << 20;

/// The error a cancelled save gives.
pub(super) fn check_cancel(cancel: &AtomicBool) -> io::Result<()> {
    if cancel.load(std::sync::atomic::Ordering::Relaxed) {
        Err(io::Error::new(io::ErrorKind::Interrupted, CANCELLED))
    } else {
        Ok(())
    }
}

pub(super) const CANCELLED: &str = "save cancelled";

/// Did this save error come from its cancel flag?
pub fn is_cancelled(e: &StoreError) -> bool {
    matches!(e, StoreError::Io { source, .. }
        if source.kind() == io::ErrorKind::Interrupted && source.to_string() == CANCELLED)
}

impl Sink<'_> {
    pub(super) fn put(&mut self, b: &[u8]) -> io::Result<()> {
        self.n += b.len() as u64;
        if let Some(&l) = b.last() {
            self.last = Some(l);
        }
        if self.pending.len() + b.len() > self.pending.capacity() {
            self.flush()?;
        }
        if b.len() >= self.pending.capacity() {
            self.out.write_all(b)
        } else {
            self.pending.extend_from_slice(b);
            Ok(())
        }
    }

    pub(super) fn flush(&mut self) -> io::Result<()> {
        self.out.write_all(&self.pending)?;
        self.pending.clear();
        Ok(())
    }

    /// Copy `bytes[r]`, which is also the source file's `r`.
    pub(super) fn copy(&mut self, bytes: &[u8], r: Range<usize>) -> io::Result<()> {
        #[cfg(target_os = "linux")]
        if r.len() >= 1 << 16
            && let Some(src) = self.src
        {
            use std::os::fd::AsRawFd;
            self.flush()?;
            let mut off = r.start as libc::loff_t;
            let end = r.end as libc::loff_t;
            while off < end {
                check_cancel(self.cancel)?;
                let want = ((end - off) as usize).min(PIECE);
                // SAFETY: two open descriptors; `off` is ours; the output's own offset is
                // used and advanced.
                let got = unsafe {
                    libc::copy_file_range(
                        src.as_raw_fd(),
                        &mut off,
                        self.out.as_raw_fd(),
                        std::ptr::null_mut(),
                        want,
                        0,
                    )
                };
                if got > 0 {
                    continue;
                }
                let e = io::Error::last_os_error();
                if got < 0
                    && !matches!(
                        e.raw_os_error(),
                        Some(libc::ENOSYS)
                            | Some(libc::EXDEV)
                            | Some(libc::EINVAL)
                            | Some(libc::EOPNOTSUPP)
                            | Some(libc::EPERM)
                            | Some(libc::ETXTBSY)
                            | Some(libc::EBADF)
                    )
                {
                    return Err(e);
                }
                // Not supported here (or the source ended early): the rest from memory.
                self.src = None;
                break;
            }
            let done = off as usize - r.start;
            self.n += done as u64;
            if done > 0 {
                self.last = Some(bytes[r.start + done - 1]);
            }
            return self.put_pieces(&bytes[r.start + done..r.end]);
        }
        self.put_pieces(&bytes[r])
    }

    /// `put`, a piece at a time, looking at the cancel flag before each.
    pub(super) fn put_pieces(&mut self, b: &[u8]) -> io::Result<()> {
        for piece in b.chunks(PIECE) {
            check_cancel(self.cancel)?;
            self.put(piece)?;
        }
        Ok(())
    }
}

/// The temporary a save writes: `.NAME.XXXXXX.verdict-tmp` (six letters or digits) in the
/// file's folder, held under an exclusive `flock` until it is renamed or removed, so that
/// another run can tell a live save's temporary from one a killed save left behind.
pub(super) const TMP_SUFFIX: &str = ".verdict-tmp";
pub(super) const TMP_RAND: usize = 6;

pub(super) fn create_locked_temporary(
    dir: &Path,
    name: &str,
) -> io::Result<tempfile::NamedTempFile> {
    for _ in 0..8 {
        let tmp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(TMP_SUFFIX)
            .rand_bytes(TMP_RAND)
            .tempfile_in(dir)?;
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            use std::os::unix::fs::MetadataExt;
            // SAFETY: flock on a descriptor we own.
            if unsafe { libc::flock(tmp.as_file().as_raw_fd(), libc::LOCK_EX) } != 0 {
                return Err(io::Error::last_os_error());
            }
            // Between its creation and our lock, another run may have taken it for stale
            // and removed it: then make another.
            if tmp.as_file().metadata()?.nlink() == 0 {
                continue;
            }
        }
        return Ok(tmp);
    }
    Err(io::Error::other("could not create a temporary file"))
}

/// Is `file_name` the name of a save temporary of `name` (exactly, see above)?
pub(super) fn is_our_temporary(file_name: &str, name: &str) -> bool {
    file_name
        .strip_prefix('.')
        .and_then(|r| r.strip_prefix(name))
        .and_then(|r| r.strip_prefix('.'))
        .and_then(|r| r.strip_suffix(TMP_SUFFIX))
        .is_some_and(|r| r.len() == TMP_RAND && r.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// Remove the temporaries that saves of `name` killed midway left in `dir`: only regular
/// files named as ours, and only those no live process holds locked. Best effort: what
/// cannot be checked is left alone.
pub(super) fn remove_stale_temporaries(dir: &Path, name: &str) {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let file_name = e.file_name();
            if !is_our_temporary(&file_name.to_string_lossy(), name) {
                continue;
            }
            let p = e.path();
            let Ok(f) = fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
                .open(&p)
            else {
                continue;
            };
            let Ok(m) = f.metadata() else { continue };
            if !m.is_file() {
                continue;
            }
            // SAFETY: flock on a descriptor we own.
            if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
                continue; // a live save is writing it
            }
            // Still the file we locked under that name?
            if fs::symlink_metadata(&p).is_ok_and(|l| l.ino() == m.ino() && l.dev() == m.dev()) {
                let _ = fs::remove_file(&p);
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (dir, name);
    }
}

/// Refuse to replace a file the user may not write, or whose owner a replacement could
/// not keep (only root may give a file away). `path` names it in messages.
pub(super) fn may_replace(
    path: &Path,
    target: &Path,
    meta: &fs::Metadata,
) -> Result<(), StoreError> {
    if meta.permissions().readonly() {
        // Even for root, who may write anything: a read-only file is a "do not touch".
        return Err(StoreError::ReadOnly {
            path: path.to_path_buf(),
        });
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        use std::os::unix::fs::MetadataExt;
        let c =
            std::ffi::CString::new(target.as_os_str().as_bytes()).map_err(|_| StoreError::Io {
                path: path.to_path_buf(),
                source: io::Error::new(io::ErrorKind::InvalidInput, "NUL in the path"),
            })?;
        // The effective ids' write access, as the kernel would judge an open for writing.
        // SAFETY: a valid NUL-terminated path.
        let rc =
            unsafe { libc::faccessat(libc::AT_FDCWD, c.as_ptr(), libc::W_OK, libc::AT_EACCESS) };
        if rc != 0 {
            let e = io::Error::last_os_error();
            return Err(match e.raw_os_error() {
                Some(libc::EACCES) | Some(libc::EPERM) | Some(libc::EROFS) => {
                    StoreError::ReadOnly {
                        path: path.to_path_buf(),
                    }
                }
                _ => StoreError::Io {
                    path: path.to_path_buf(),
                    source: e,
                },
            });
        }
        // SAFETY: geteuid has no preconditions.
        let euid = unsafe { libc::geteuid() };
        if euid != 0 && meta.uid() != euid {
            return Err(StoreError::Owner {
                path: path.to_path_buf(),
                uid: meta.uid(),
                gid: meta.gid(),
            });
        }
    }
    Ok(())
}
