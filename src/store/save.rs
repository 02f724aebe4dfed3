//! What a save writes with: the sink that gathers small pieces and copies long unchanged
//! runs in the kernel, the cancel flag, the locked temporary file and its clean-up, and
//! the checks before a file is replaced (docs/format.md, "Saving").

use std::fs::{self, File};
use std::io::{self, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::*;

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
            use std::os::unix::fs::MetadataExt;
            tmp.as_file().lock()?;
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
            if f.try_lock().is_err() {
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

/// Saving a store: the atomic replace of its file.
impl super::Store {
    /// Write the current contents atomically to the store's path.
    pub fn save(&mut self) -> Result<SaveReport, StoreError> {
        self.save_until(&AtomicBool::new(false))
    }

    /// [`Store::save`] that gives up, leaving the file as it was, once `cancel` is set
    /// (checked between pieces of at most 64 MiB, before the fsync and before the
    /// rename): an error of kind `Interrupted`, and [`is_cancelled`] says so.
    pub fn save_until(&mut self, cancel: &AtomicBool) -> Result<SaveReport, StoreError> {
        let path = self.path.clone();
        self.check_unchanged()?;
        let io_err = |source| StoreError::Io {
            path: path.clone(),
            source,
        };
        // A symlinked results file: write the file it points to, keep the link.
        let target = match fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => fs::canonicalize(&path).map_err(io_err)?,
            _ => path.clone(),
        };
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let old_meta = fs::metadata(&target).ok();
        let old_perms = old_meta.as_ref().map(|m| m.permissions());
        if let Some(m) = &old_meta {
            may_replace(&path, &target, m)?;
        }
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        remove_stale_temporaries(&dir, &name);
        let mut tmp = create_locked_temporary(&dir, &name).map_err(io_err)?;
        let bytes = self.write_to(tmp.as_file_mut(), cancel).map_err(io_err)?;
        #[cfg(unix)]
        if let Some(m) = &old_meta {
            // The replacement gets the file's owner and group, or the save is refused: a
            // file must not change hands because someone else saved it. (Owner first: a
            // chown clears set-id bits that the mode below puts back.)
            use std::os::unix::fs::MetadataExt;
            if std::os::unix::fs::fchown(tmp.as_file(), Some(m.uid()), Some(m.gid())).is_err() {
                return Err(StoreError::Owner {
                    path,
                    uid: m.uid(),
                    gid: m.gid(),
                });
            }
        }
        if let Some(p) = old_perms {
            tmp.as_file().set_permissions(p).map_err(io_err)?;
        }
        check_cancel(cancel).map_err(io_err)?;
        tmp.as_file().sync_all().map_err(io_err)?;
        check_cancel(cancel).map_err(io_err)?;
        // Check again just before the rename: the window for a lost update is the rename
        // itself.
        self.check_unchanged()?;
        // Hold the old file open across the rename and let go of it on another thread: the
        // rename then only unlinks the name, and freeing the old blocks (a TRIM on disks
        // mounted with discard) happens off the save's path.
        let old_file = File::open(&target).ok();
        #[cfg(test)]
        super::test_hook::at("before-rename");
        let written = tmp.persist(&target).map_err(|e| io_err(e.error))?;
        if let Some(f) = old_file {
            std::thread::spawn(move || drop(f));
        }
        #[cfg(test)]
        super::test_hook::at("after-rename");
        // The stamp of the file this save wrote, from its own descriptor (after the
        // rename, which sets its ctime): never of whatever the name holds by now, which
        // may already be another session's save.
        let meta = written.metadata().map_err(io_err)?;
        sync_dir(&dir).map_err(io_err)?;
        let report = SaveReport {
            items_written: self.dirty.len(),
            bytes,
        };
        self.dirty.clear();
        self.saved_edits = self.edits.keys().copied().collect();
        self.stamp = Some(Stamp::of(&meta));
        Ok(report)
    }

    /// Fail with `Conflict` if the file on disk is not the one we read.
    pub fn check_unchanged(&self) -> Result<(), StoreError> {
        let Some(stamp) = &self.stamp else {
            return Ok(());
        };
        if self.buf.damaged() {
            return Err(StoreError::Conflict {
                path: self.path.clone(),
            });
        }
        match fs::metadata(&self.path) {
            Ok(m) if Stamp::of(&m) == *stamp => Ok(()),
            Ok(_) => Err(StoreError::Conflict {
                path: self.path.clone(),
            }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Err(StoreError::Conflict {
                path: self.path.clone(),
            }),
            Err(source) => Err(StoreError::Io {
                path: self.path.clone(),
                source,
            }),
        }
    }

    /// Write the current contents: the file's bytes, with edited items' text in place of
    /// theirs and appended items (JSONL) on lines of their own. Returns the bytes written.
    /// Unchanged runs of a mapped file are copied by the kernel (`copy_file_range`) where
    /// the file system allows, else written from the mapping.
    pub(super) fn write_to(&self, out: &mut File, cancel: &AtomicBool) -> io::Result<u64> {
        if let Some(c) = &self.container {
            let current = |i: usize| {
                self.raw_bytes(i)
                    .map(|b| String::from_utf8_lossy(b).into_owned())
            };
            return c.write(&current, out, cancel);
        }
        let mut o = Sink {
            out,
            pending: Vec::with_capacity(1 << 20),
            n: 0,
            last: None,
            src: self.buf.file(),
            cancel,
        };
        let mut pos = 0;
        let table = self.offsets.complete();
        let appended_from = table
            .spans()
            .position(|s| s.start == self.buf.len() && s.is_empty() && self.format == Format::Jsonl)
            .unwrap_or(table.len());
        // Unchanged runs go out as one range each, however many items they hold.
        for (&i, text) in self.edits.range(..appended_from) {
            let span = table.span(i).expect("an edited item is in the table");
            o.copy(&self.buf, pos..span.start)?;
            o.put(text.as_bytes())?;
            pos = span.end;
        }
        o.copy(&self.buf, pos..self.buf.len())?;
        for i in appended_from..table.len() {
            if o.last.is_some_and(|l| l != b'\n') {
                o.put(b"\n")?;
            }
            o.put(self.edits.get(&i).map(String::as_bytes).unwrap_or_default())?;
            o.put(b"\n")?;
        }
        o.flush()?;
        Ok(o.n)
    }
}
