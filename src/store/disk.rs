//! The file on disk: what identifies it as the one read (`Stamp`), opening it only when
//! it is a regular file, its folder, and syncing the folder after a rename.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use super::StoreError;

/// What identifies the file on disk as the one we read. The status-change time (ctime,
/// to the nanosecond) is set by the kernel on every write and cannot be put back by the
/// writer, so an in-place edit that restores the size and mtime (`rsync --inplace -t`)
/// still shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    #[cfg(unix)]
    ino: u64,
    #[cfg(unix)]
    dev: u64,
    #[cfg(unix)]
    ctime: (i64, i64),
}

/// What identifies the file now at `path` (its stamp, as text), to tell whether it is the
/// file a save wrote; `None` when it cannot be looked at.
pub fn stamp_text_of(path: &Path) -> Option<String> {
    fs::metadata(path).ok().map(|m| Stamp::of(&m).text())
}

impl Stamp {
    pub(super) fn text(&self) -> String {
        #[cfg(unix)]
        return format!(
            "{}:{}:{}:{}.{}",
            self.dev, self.ino, self.len, self.ctime.0, self.ctime.1
        );
        #[cfg(not(unix))]
        return format!("{}:{:?}", self.len, self.modified);
    }

    pub(super) fn of(meta: &fs::Metadata) -> Stamp {
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt;
        Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            #[cfg(unix)]
            ino: meta.ino(),
            #[cfg(unix)]
            dev: meta.dev(),
            #[cfg(unix)]
            ctime: (meta.ctime(), meta.ctime_nsec()),
        }
    }
}

/// The folder a file is in (`.` for a bare file name).
pub fn parent_dir(p: &Path) -> PathBuf {
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// What a file that is neither a regular file nor a folder is, in words: "a FIFO", "a
/// character device", "a block device", "a socket", else "a special file".
pub fn special_kind(ft: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            "a FIFO"
        } else if ft.is_char_device() {
            "a character device"
        } else if ft.is_block_device() {
            "a block device"
        } else if ft.is_socket() {
            "a socket"
        } else {
            "a special file"
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ft;
        "a special file"
    }
}

/// Open `path` for reading, refusing anything but a regular file (a symlink is followed
/// to its target, which must be one). The open does not block (a FIFO without a writer
/// would), and the type is checked on what was opened, so nothing is read from a FIFO,
/// device or socket.
pub(super) fn open_regular(path: &Path) -> Result<(File, fs::Metadata), StoreError> {
    let io_err = |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut opts = fs::OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK | libc::O_CLOEXEC | libc::O_NOCTTY);
    }
    let f = opts.open(path).map_err(io_err)?;
    let meta = f.metadata().map_err(io_err)?;
    let ft = meta.file_type();
    if ft.is_dir() {
        return Err(StoreError::Folder {
            path: path.to_path_buf(),
        });
    }
    if !ft.is_file() {
        return Err(StoreError::NotRegular {
            path: path.to_path_buf(),
            kind: special_kind(&ft),
        });
    }
    #[cfg(unix)]
    {
        // Back to blocking reads (O_NONBLOCK means nothing for a regular file, but keep
        // the descriptor ordinary for whoever reads it).
        // SAFETY: fcntl on a descriptor we own.
        unsafe {
            let fd = std::os::fd::AsRawFd::as_raw_fd(&f);
            let fl = libc::fcntl(fd, libc::F_GETFL);
            if fl >= 0 {
                libc::fcntl(fd, libc::F_SETFL, fl & !libc::O_NONBLOCK);
            }
        }
    }
    Ok((f, meta))
}

pub(super) fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}
