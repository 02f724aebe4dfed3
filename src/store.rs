//! The result-set store: the file's bytes, the byte span of every item, and the edits.
//!
//! Opening reads the file and finds item spans without parsing items (a newline scan for
//! JSONL; for the JSON document form, one pass that borrows each item as a raw slice).
//! Items are parsed on demand. An edit replaces the text of one item; saving writes every
//! other byte through unchanged, so untouched JSONL lines stay byte-identical. Saves are
//! atomic (temporary file in the same folder, fsync, rename, fsync of the folder), keep
//! the file's permissions, and refuse to overwrite a file another program changed.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::{self, File};
use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use crate::model::{FieldError, Item};

/// The two file forms of FORMAT.md.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Jsonl,
    Json,
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{path}: not a result set: {message}")]
    Document { path: PathBuf, message: String },
    #[error(
        "{path}: the file was changed by another program since it was read; not overwriting it (reopen it to see the changes)"
    )]
    Conflict { path: PathBuf },
    #[error("{path}: the file is read-only for you; not overwriting it (make it writable to save)")]
    ReadOnly { path: PathBuf },
    #[error(
        "{path}: the file belongs to another user (uid {uid}, gid {gid}) and saving would change its owner; not overwriting it"
    )]
    Owner { path: PathBuf, uid: u32, gid: u32 },
    #[error(
        "{path}: not a regular file ({kind}); verdict reads result sets from regular files (or symlinks to them)"
    )]
    NotRegular { path: PathBuf, kind: &'static str },
    #[error("{path}: {what}: {message}")]
    Item {
        path: PathBuf,
        what: String,
        message: String,
    },
}

/// Why one item could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ItemError {
    #[error("invalid UTF-8 at byte {0} of the item")]
    Utf8(usize),
    #[error("malformed JSON: {0}")]
    Syntax(String),
    #[error("{0}")]
    Field(#[from] FieldError),
    #[error("an item must be a JSON object, found {0}")]
    NotObject(&'static str),
}

impl ItemError {
    /// The field the error is about, if it names one.
    pub fn field(&self) -> Option<&str> {
        match self {
            ItemError::Field(f) => Some(&f.field),
            _ => None,
        }
    }
}

/// What identifies the file on disk as the one we read. The status-change time (ctime,
/// to the nanosecond) is set by the kernel on every write and cannot be put back by the
/// writer, so an in-place edit that restores the size and mtime (`rsync --inplace -t`)
/// still shows.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    #[cfg(unix)]
    ino: u64,
    #[cfg(unix)]
    dev: u64,
    #[cfg(unix)]
    ctime: (i64, i64),
}

impl Stamp {
    fn of(meta: &fs::Metadata) -> Stamp {
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

/// Open `path` for reading, refusing anything but a regular file (a symlink is followed
/// to its target, which must be one). The open does not block (a FIFO without a writer
/// would), and the type is checked on what was opened, so nothing is read from a FIFO,
/// device or socket.
fn open_regular(path: &Path) -> Result<(File, fs::Metadata), StoreError> {
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
        return Err(StoreError::Document {
            path: path.to_path_buf(),
            message: "is a folder (to import a CHARTOM folder, use `verdict import chartom`)"
                .into(),
        });
    }
    if !ft.is_file() {
        #[cfg(unix)]
        let kind = {
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
        };
        #[cfg(not(unix))]
        let kind = "a special file";
        return Err(StoreError::NotRegular {
            path: path.to_path_buf(),
            kind,
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

/// An open result set. Cloning is cheap (the file's bytes are shared): the reviewer keeps
/// a read-only clone for display while its IO worker owns the one that is edited and saved.
#[derive(Debug, Clone)]
pub struct Store {
    path: PathBuf,
    format: Format,
    buf: Arc<Vec<u8>>,
    /// Byte span of each item in `buf` (JSONL: the line without its terminator).
    spans: Vec<Range<usize>>,
    /// 1-based line number of each item's first byte (JSONL: its line).
    lines: Vec<u32>,
    /// Replacement text of edited items.
    edits: BTreeMap<usize, String>,
    /// Items changed since the last save. Edits stay after a save (the buffer keeps the
    /// bytes as read; `buf` + `edits` is the current content), so a save never has to
    /// rebuild the buffer.
    dirty: BTreeSet<usize>,
    /// Items whose text in the file on disk is their edit (saved), not the bytes read.
    saved_edits: BTreeSet<usize>,
    stamp: Option<Stamp>,
}

/// What a save did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveReport {
    pub items_written: usize,
    pub bytes: u64,
}

impl Store {
    /// Open a result set; the format follows the extension (`.jsonl`/`.ndjson` vs
    /// `.json`), else the content.
    pub fn open(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        let path = path.as_ref().to_path_buf();
        let io_err = |source| StoreError::Io {
            path: path.clone(),
            source,
        };
        let (mut f, meta) = open_regular(&path)?;
        let mut buf = Vec::with_capacity(meta.len() as usize + 1);
        io::Read::read_to_end(&mut f, &mut buf).map_err(io_err)?;
        let format = detect_format(&path, &buf);
        let mut s = Store::from_bytes(path, format, buf)?;
        s.stamp = Some(Stamp::of(&meta));
        Ok(s)
    }

    /// Build a store over bytes already in memory (the file at `path` is not read; a
    /// later save will create or replace it without a conflict check).
    pub fn from_bytes(path: PathBuf, format: Format, buf: Vec<u8>) -> Result<Store, StoreError> {
        let (spans, lines) = match format {
            Format::Jsonl => index_jsonl(&buf),
            Format::Json => index_document(&buf).map_err(|message| StoreError::Document {
                path: path.clone(),
                message,
            })?,
        };
        Ok(Store {
            path,
            format,
            buf: Arc::new(buf),
            spans,
            lines,
            edits: BTreeMap::new(),
            dirty: BTreeSet::new(),
            saved_edits: BTreeSet::new(),
            stamp: None,
        })
    }

    /// A new, empty JSONL result set that will be written at `path`.
    pub fn new_jsonl(path: PathBuf) -> Store {
        Store {
            path,
            format: Format::Jsonl,
            buf: Arc::new(Vec::new()),
            spans: vec![],
            lines: vec![],
            edits: BTreeMap::new(),
            dirty: BTreeSet::new(),
            saved_edits: BTreeSet::new(),
            stamp: None,
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
    pub fn format(&self) -> Format {
        self.format
    }
    pub fn len(&self) -> usize {
        self.spans.len()
    }
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }
    /// Size of the file as read, in bytes.
    pub fn file_len(&self) -> usize {
        self.buf.len()
    }
    pub fn is_dirty(&self) -> bool {
        !self.dirty.is_empty()
    }
    pub fn edited(&self) -> impl Iterator<Item = usize> + '_ {
        self.dirty.iter().copied()
    }

    /// 1-based line of item `i` in the file (JSONL: its line; JSON: where it starts).
    pub fn line(&self, i: usize) -> u32 {
        self.lines[i]
    }

    /// How messages name item `i` when it has no id: `#<line>` (JSONL) or `#<index>`
    /// (JSON, 1-based).
    pub fn fallback_id(&self, i: usize) -> String {
        match self.format {
            Format::Jsonl => format!("#{}", self.lines[i]),
            Format::Json => format!("#{}", i + 1),
        }
    }

    /// The item's current bytes (its edit if edited).
    pub fn raw_bytes(&self, i: usize) -> &[u8] {
        match self.edits.get(&i) {
            Some(t) => t.as_bytes(),
            None => &self.buf[self.spans[i].clone()],
        }
    }

    /// The item's current text.
    pub fn raw(&self, i: usize) -> Result<&str, ItemError> {
        let b = self.raw_bytes(i);
        std::str::from_utf8(b).map_err(|e| ItemError::Utf8(e.valid_up_to()))
    }

    /// Parse item `i` into its typed view.
    pub fn item(&self, i: usize) -> Result<Item, ItemError> {
        let text = self.raw(i)?;
        match Item::parse(text) {
            Ok(it) => Ok(it),
            Err(fe) => Err(classify_parse_error(text, fe)),
        }
    }

    /// Parse item `i` as JSON, keeping key order and number spellings.
    pub fn value(&self, i: usize) -> Result<Value, ItemError> {
        let text = self.raw(i)?;
        let v: Value = serde_json::from_str(text).map_err(|e| ItemError::Syntax(e.to_string()))?;
        if !v.is_object() {
            return Err(ItemError::NotObject(crate::model::kind(&v)));
        }
        Ok(v)
    }

    /// Replace item `i` with `v`. If `v` equals the item as it is in the file, the edit is
    /// dropped, so the item is written back byte-identical.
    pub fn set_value(&mut self, i: usize, v: &Value) {
        let orig = &self.buf[self.spans[i].clone()];
        if let Ok(orig_v) = serde_json::from_slice::<Value>(orig)
            && &orig_v == v
        {
            // Back to the file's bytes (the file may hold a saved edit: write it again).
            if self.edits.remove(&i).is_some() {
                if self.saved_edits.contains(&i) {
                    self.dirty.insert(i);
                } else {
                    self.dirty.remove(&i);
                }
            }
            return;
        }
        let text = match self.format {
            Format::Jsonl => serde_json::to_string(v).expect("a Value always serializes"),
            Format::Json => {
                if orig.contains(&b'\n') {
                    let indent = indent_before(&self.buf, self.spans[i].start);
                    let pretty =
                        serde_json::to_string_pretty(v).expect("a Value always serializes");
                    pretty.replace('\n', &format!("\n{indent}"))
                } else {
                    serde_json::to_string(v).expect("a Value always serializes")
                }
            }
        };
        if self.edits.get(&i) == Some(&text) {
            return;
        }
        self.edits.insert(i, text);
        self.dirty.insert(i);
    }

    /// Set (or with `None`, remove) `reviews.<reviewer>` of item `i`. An empty `reviews`
    /// object that the file did not have before is removed again.
    pub fn set_review(
        &mut self,
        i: usize,
        reviewer: &str,
        review: Option<Value>,
    ) -> Result<(), ItemError> {
        let mut v = self.value(i)?;
        let obj = v.as_object_mut().expect("value() checks for an object");
        match review {
            Some(r) => {
                let reviews = obj
                    .entry("reviews")
                    .or_insert_with(|| Value::Object(Default::default()));
                if !reviews.is_object() {
                    return Err(ItemError::Field(FieldError {
                        field: "reviews".into(),
                        message: "is not an object; refusing to replace it".into(),
                    }));
                }
                reviews
                    .as_object_mut()
                    .unwrap()
                    .insert(reviewer.to_string(), r);
            }
            None => {
                if let Some(Value::Object(reviews)) = obj.get_mut("reviews") {
                    reviews.shift_remove(reviewer);
                    if reviews.is_empty() {
                        obj.shift_remove("reviews");
                    }
                }
            }
        }
        // `set_value` drops the edit when this gives back the original item.
        self.set_value(i, &v);
        Ok(())
    }

    /// Append a new item (for imports). The text must be one line of JSON.
    pub fn push_raw(&mut self, text: String) {
        let i = self.spans.len();
        self.spans.push(self.buf.len()..self.buf.len());
        self.lines.push(i as u32 + 1);
        self.edits.insert(i, text);
        self.dirty.insert(i);
    }

    /// Write the current contents atomically to the store's path.
    pub fn save(&mut self) -> Result<SaveReport, StoreError> {
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
        let bytes = {
            let mut w = io::BufWriter::with_capacity(1 << 20, tmp.as_file_mut());
            let n = self.write_to(&mut w).map_err(io_err)?;
            w.flush().map_err(io_err)?;
            n
        };
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
        tmp.as_file().sync_all().map_err(io_err)?;
        // Check again just before the rename: the window for a lost update is the rename
        // itself.
        self.check_unchanged()?;
        // Hold the old file open across the rename and let go of it on another thread: the
        // rename then only unlinks the name, and freeing the old blocks (a TRIM on disks
        // mounted with discard) happens off the save's path.
        let old_file = File::open(&target).ok();
        tmp.persist(&target).map_err(|e| io_err(e.error))?;
        if let Some(f) = old_file {
            std::thread::spawn(move || drop(f));
        }
        sync_dir(&dir).map_err(io_err)?;
        let meta = fs::metadata(&path).map_err(io_err)?;
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
    fn write_to(&self, out: &mut impl Write) -> io::Result<u64> {
        struct Out<'a, W: Write> {
            w: &'a mut W,
            n: u64,
            last: Option<u8>,
        }
        impl<W: Write> Out<'_, W> {
            fn put(&mut self, b: &[u8]) -> io::Result<()> {
                self.n += b.len() as u64;
                if let Some(&l) = b.last() {
                    self.last = Some(l);
                }
                self.w.write_all(b)
            }
        }
        let mut o = Out {
            w: out,
            n: 0,
            last: None,
        };
        let mut pos = 0;
        let appended_from = self
            .spans
            .iter()
            .position(|s| s.start == self.buf.len() && s.is_empty() && self.format == Format::Jsonl)
            .unwrap_or(self.spans.len());
        // Unchanged runs go out as one slice each, however many items they hold.
        for (&i, text) in self.edits.range(..appended_from) {
            let span = &self.spans[i];
            o.put(&self.buf[pos..span.start])?;
            o.put(text.as_bytes())?;
            pos = span.end;
        }
        o.put(&self.buf[pos..])?;
        for i in appended_from..self.spans.len() {
            if o.last.is_some_and(|l| l != b'\n') {
                o.put(b"\n")?;
            }
            o.put(self.edits.get(&i).map(String::as_bytes).unwrap_or_default())?;
            o.put(b"\n")?;
        }
        Ok(o.n)
    }
}

/// The temporary a save writes: `.NAME.XXXXXX.verdict-tmp` (six letters or digits) in the
/// file's folder, held under an exclusive `flock` until it is renamed or removed, so that
/// another run can tell a live save's temporary from one a killed save left behind.
const TMP_SUFFIX: &str = ".verdict-tmp";
const TMP_RAND: usize = 6;

fn create_locked_temporary(dir: &Path, name: &str) -> io::Result<tempfile::NamedTempFile> {
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
fn is_our_temporary(file_name: &str, name: &str) -> bool {
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
fn remove_stale_temporaries(dir: &Path, name: &str) {
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
fn may_replace(path: &Path, target: &Path, meta: &fs::Metadata) -> Result<(), StoreError> {
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

fn classify_parse_error(text: &str, fe: FieldError) -> ItemError {
    // serde_path_to_error reports syntax errors at the path it had reached; tell them apart
    // from type errors by checking the JSON itself.
    match serde_json::from_str::<serde::de::IgnoredAny>(text) {
        Err(e) => ItemError::Syntax(e.to_string()),
        Ok(_) => {
            let first = text.trim_start().as_bytes().first().copied();
            if first != Some(b'{') {
                let v: Value = serde_json::from_str(text).unwrap_or(Value::Null);
                ItemError::NotObject(crate::model::kind(&v))
            } else {
                ItemError::Field(fe)
            }
        }
    }
}

fn detect_format(path: &Path, buf: &[u8]) -> Format {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("jsonl") | Some("ndjson") => return Format::Jsonl,
        Some("json") => {
            // A .json file that is really JSONL (several top-level objects, one a line).
            let first_line = buf
                .split(|&b| b == b'\n')
                .find(|l| !l.iter().all(u8::is_ascii_whitespace));
            if let Some(l) = first_line {
                let rest = &buf[l.len()..];
                let more = rest.iter().any(|b| !b.is_ascii_whitespace());
                if more && serde_json::from_slice::<serde::de::IgnoredAny>(l).is_ok() {
                    return Format::Jsonl;
                }
            }
            return Format::Json;
        }
        _ => {}
    }
    let first = buf.iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'[') {
        return Format::Json;
    }
    let first_line = buf
        .split(|&b| b == b'\n')
        .find(|l| !l.iter().all(u8::is_ascii_whitespace));
    match first_line {
        Some(l) if serde_json::from_slice::<serde::de::IgnoredAny>(l).is_ok() => Format::Jsonl,
        _ => Format::Json,
    }
}

/// Spans of the non-blank lines, without their `\n` or `\r\n`.
fn index_jsonl(buf: &[u8]) -> (Vec<Range<usize>>, Vec<u32>) {
    let mut spans = Vec::with_capacity(buf.len() / 1024 + 1);
    let mut lines = Vec::with_capacity(buf.len() / 1024 + 1);
    let mut start = 0;
    let mut line = 1u32;
    let mut push = |s: usize, mut e: usize, line: u32| {
        if e > s && buf[e - 1] == b'\r' {
            e -= 1;
        }
        if buf[s..e].iter().any(|b| !b.is_ascii_whitespace()) {
            spans.push(s..e);
            lines.push(line);
        }
    };
    for nl in memchr::memchr_iter(b'\n', buf) {
        push(start, nl, line);
        start = nl + 1;
        line += 1;
    }
    if start < buf.len() {
        push(start, buf.len(), line);
    }
    (spans, lines)
}

/// Spans of the items of a `{"items": [...]}` document (or a bare array).
fn index_document(buf: &[u8]) -> Result<(Vec<Range<usize>>, Vec<u32>), String> {
    use serde_json::value::RawValue;
    #[derive(serde::Deserialize)]
    struct Doc<'a> {
        #[serde(borrow)]
        items: Option<Vec<&'a RawValue>>,
    }
    let text = std::str::from_utf8(buf).map_err(|e| {
        let (line, col) = line_col(buf, e.valid_up_to());
        format!("invalid UTF-8 at line {line}, column {col}")
    })?;
    let first = text.trim_start().as_bytes().first().copied();
    let items: Vec<&RawValue> = match first {
        Some(b'[') => serde_json::from_str(text).map_err(|e| format!("malformed JSON: {e}"))?,
        Some(b'{') => {
            let doc: Doc =
                serde_json::from_str(text).map_err(|e| format!("malformed JSON: {e}"))?;
            doc.items
                .ok_or_else(|| "the document has no `items` array".to_string())?
        }
        None => Vec::new(),
        _ => return Err("expected a JSON object with an `items` array, or JSONL".into()),
    };
    let base = text.as_ptr() as usize;
    let spans: Vec<Range<usize>> = items
        .iter()
        .map(|r| {
            let s = r.get().as_ptr() as usize - base;
            s..s + r.get().len()
        })
        .collect();
    let lines = line_numbers(buf, &spans);
    Ok((spans, lines))
}

fn line_numbers(buf: &[u8], spans: &[Range<usize>]) -> Vec<u32> {
    let mut out = Vec::with_capacity(spans.len());
    let mut line = 1u32;
    let mut pos = 0;
    for s in spans {
        line += memchr::memchr_iter(b'\n', &buf[pos..s.start]).count() as u32;
        pos = s.start;
        out.push(line);
    }
    out
}

fn line_col(buf: &[u8], at: usize) -> (usize, usize) {
    let before = &buf[..at];
    let line = memchr::memchr_iter(b'\n', before).count() + 1;
    let col = at
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map(|p| p + 1)
            .unwrap_or(0)
        + 1;
    (line, col)
}

fn indent_before(buf: &[u8], at: usize) -> String {
    let line_start = buf[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map(|p| p + 1)
        .unwrap_or(0);
    buf[line_start..at]
        .iter()
        .take_while(|b| **b == b' ' || **b == b'\t')
        .map(|&b| b as char)
        .collect()
}

fn sync_dir(dir: &Path) -> io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tmpfile(name: &str, content: &[u8]) -> (tempfile::TempDir, PathBuf) {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join(name);
        fs::write(&p, content).unwrap();
        (d, p)
    }

    #[test]
    fn jsonl_index_skips_blank_lines_and_handles_crlf() {
        let (spans, lines) = index_jsonl(b"{\"a\":1}\r\n\n  \n{\"b\":2}");
        assert_eq!(spans, vec![0..7, 13..20]);
        assert_eq!(lines, vec![1, 4]);
    }

    #[test]
    fn untouched_lines_are_byte_identical() {
        let content = b"{\"id\":\"a\",  \"x\": 1.0, \"n\":1e3}\r\n\n{\"id\":\"b\",\"z\":{\"k\":[1,2]},\"y\":0.10}\n{\"id\":\"c\"}";
        let (_d, p) = tmpfile("s.jsonl", content);
        let mut s = Store::open(&p).unwrap();
        assert_eq!(s.len(), 3);
        s.set_review(
            1,
            "ann",
            Some(serde_json::json!({"at": "2026-01-01T00:00:00Z"})),
        )
        .unwrap();
        s.save().unwrap();
        let out = fs::read(&p).unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        assert!(text.starts_with("{\"id\":\"a\",  \"x\": 1.0, \"n\":1e3}\r\n\n"));
        assert!(text.ends_with("\n{\"id\":\"c\"}"));
        // the edited line keeps key order and number spelling
        assert!(text.contains(r#"{"id":"b","z":{"k":[1,2]},"y":0.10,"reviews":{"ann":{"at":"2026-01-01T00:00:00Z"}}}"#), "{text}");
        // removing the review restores the original bytes
        let mut s = Store::open(&p).unwrap();
        s.set_review(1, "ann", None).unwrap();
        s.save().unwrap();
        assert_eq!(fs::read(&p).unwrap(), content);
    }

    #[test]
    fn saves_after_saves_write_the_current_content() {
        let content = b"{\"id\":\"a\", \"x\": 1.0}\n{\"id\":\"b\"}\n";
        let (_d, p) = tmpfile("s.jsonl", content);
        let mut s = Store::open(&p).unwrap();
        s.set_review(0, "r", Some(serde_json::json!({"n": 1})))
            .unwrap();
        s.save().unwrap();
        assert!(!s.is_dirty());
        // the same verdict again changes nothing
        s.set_review(0, "r", Some(serde_json::json!({"n": 1})))
            .unwrap();
        assert!(!s.is_dirty());
        s.set_review(1, "r", Some(serde_json::json!({"n": 2})))
            .unwrap();
        s.save().unwrap();
        let text = fs::read_to_string(&p).unwrap();
        assert!(
            text.contains(r#""reviews":{"r":{"n":1}}"#)
                && text.contains(r#""reviews":{"r":{"n":2}}"#),
            "{text}"
        );
        // reverting a saved edit writes the original bytes back
        s.set_review(0, "r", None).unwrap();
        s.set_review(1, "r", None).unwrap();
        assert!(s.is_dirty());
        s.save().unwrap();
        assert_eq!(fs::read(&p).unwrap(), content);
        assert_eq!(Store::open(&p).unwrap().raw(0).unwrap(), s.raw(0).unwrap());
    }

    #[test]
    fn undoing_an_edit_drops_it() {
        let (_d, p) = tmpfile("s.jsonl", b"{\"id\":\"a\"}\n");
        let mut s = Store::open(&p).unwrap();
        s.set_review(0, "r", Some(serde_json::json!({}))).unwrap();
        assert!(s.is_dirty());
        s.set_review(0, "r", None).unwrap();
        assert!(!s.is_dirty());
    }

    #[test]
    fn json_document_keeps_other_keys_and_layout() {
        let content = "{\n  \"verdict\": 1,\n  \"title\": \"t\",\n  \"items\": [\n    {\"id\": \"a\", \"v\": 1.50},\n    {\n      \"id\": \"b\"\n    }\n  ],\n  \"zz\": [1e2]\n}\n";
        let (_d, p) = tmpfile("s.json", content.as_bytes());
        let mut s = Store::open(&p).unwrap();
        assert_eq!(s.format(), Format::Json);
        assert_eq!(s.len(), 2);
        assert_eq!(s.line(1), 6);
        s.set_review(1, "r", Some(serde_json::json!({"note": "x"})))
            .unwrap();
        s.save().unwrap();
        let text = fs::read_to_string(&p).unwrap();
        assert!(text.starts_with("{\n  \"verdict\": 1,\n  \"title\": \"t\",\n  \"items\": [\n    {\"id\": \"a\", \"v\": 1.50},\n    {\n      \"id\": \"b\",\n      \"reviews\""), "{text}");
        assert!(text.ends_with("  ],\n  \"zz\": [1e2]\n}\n"));
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["items"][1]["reviews"]["r"]["note"], "x");
    }

    #[test]
    fn conflict_is_refused() {
        let (_d, p) = tmpfile("s.jsonl", b"{\"id\":\"a\"}\n");
        let mut s = Store::open(&p).unwrap();
        s.set_review(0, "r", Some(serde_json::json!({}))).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(10));
        fs::write(&p, b"{\"id\":\"a\"}\n{\"id\":\"other\"}\n").unwrap();
        assert!(matches!(s.save(), Err(StoreError::Conflict { .. })));
        assert_eq!(
            fs::read(&p).unwrap(),
            b"{\"id\":\"a\"}\n{\"id\":\"other\"}\n"
        );
    }

    /// `rsync --inplace -t`: same size, bytes changed in place, mtime put back.
    #[test]
    fn an_in_place_edit_with_its_mtime_put_back_is_a_conflict() {
        let (_d, p) = tmpfile("s.jsonl", b"{\"id\":\"a\"}\n{\"id\":\"b\"}\n");
        let mtime = fs::metadata(&p).unwrap().modified().unwrap();
        let mut s = Store::open(&p).unwrap();
        s.set_review(0, "r", Some(serde_json::json!({}))).unwrap();
        {
            use std::io::{Seek, SeekFrom};
            let mut f = fs::OpenOptions::new().write(true).open(&p).unwrap();
            f.seek(SeekFrom::Start(18)).unwrap();
            f.write_all(b"c").unwrap();
            f.set_times(fs::FileTimes::new().set_modified(mtime))
                .unwrap();
        }
        assert_eq!(fs::metadata(&p).unwrap().modified().unwrap(), mtime);
        assert!(matches!(s.save(), Err(StoreError::Conflict { .. })));
        assert_eq!(fs::read(&p).unwrap(), b"{\"id\":\"a\"}\n{\"id\":\"c\"}\n");
    }

    /// A save killed midway leaves `.NAME.XXXXXX.verdict-tmp`; the next save removes it,
    /// but not a temporary another live save holds locked, nor anything else.
    #[cfg(unix)]
    #[test]
    fn stale_temporaries_are_removed_by_the_next_save_and_only_they() {
        use std::os::fd::AsRawFd;
        let (d, p) = tmpfile("s.jsonl", b"{\"id\":\"a\"}\n");
        let put = |name: &str| {
            let q = d.path().join(name);
            fs::write(&q, vec![b'x'; 4096]).unwrap();
            q
        };
        let stale = put(".s.jsonl.Ab3xY9.verdict-tmp");
        let live = put(".s.jsonl.Qq1234.verdict-tmp");
        let keep = [
            put(".s.jsonl.verdict-tmp"),
            put(".s.jsonl.Ab3xY9.verdict-tmp.bak"),
            put(".s.jsonl.Ab3-Y9.verdict-tmp"),
            put(".s.jsonl.Ab3xY99.verdict-tmp"),
            put(".t.jsonl.Ab3xY9.verdict-tmp"),
            put("s.jsonl.Ab3xY9.verdict-tmp"),
        ];
        let holder = File::open(&live).unwrap();
        // SAFETY: flock on a descriptor we own.
        assert_eq!(
            unsafe { libc::flock(holder.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) },
            0
        );
        let mut s = Store::open(&p).unwrap();
        s.set_review(0, "r", Some(serde_json::json!({}))).unwrap();
        s.save().unwrap();
        assert!(!stale.exists(), "the stale temporary is removed");
        assert!(live.exists(), "a temporary being written is kept");
        for k in &keep {
            assert!(k.exists(), "{} is not ours", k.display());
        }
        // nothing else is left behind: the file, the locked one and the look-alikes
        let mut names: Vec<PathBuf> = fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        let mut want: Vec<PathBuf> = keep.to_vec();
        want.extend([live.clone(), p.clone()]);
        want.sort();
        assert_eq!(names, want);
        drop(holder);
    }

    #[cfg(unix)]
    #[test]
    fn permissions_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let (_d, p) = tmpfile("s.jsonl", b"{\"id\":\"a\"}\n");
        fs::set_permissions(&p, fs::Permissions::from_mode(0o640)).unwrap();
        let mut s = Store::open(&p).unwrap();
        s.set_review(0, "r", Some(serde_json::json!({}))).unwrap();
        s.save().unwrap();
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o640
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_stay_links_and_read_only_files_are_refused() {
        use std::os::unix::fs::PermissionsExt;
        let (d, p) = tmpfile("real.jsonl", b"{\"id\":\"a\"}\n");
        let link = d.path().join("link.jsonl");
        std::os::unix::fs::symlink(&p, &link).unwrap();
        let mut s = Store::open(&link).unwrap();
        s.set_review(0, "r", Some(serde_json::json!({"note": "n"})))
            .unwrap();
        s.save().unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert!(fs::read_to_string(&p).unwrap().contains("\"note\":\"n\""));
        fs::set_permissions(&p, fs::Permissions::from_mode(0o444)).unwrap();
        let mut s = Store::open(&p).unwrap();
        s.set_review(0, "r", None).unwrap();
        assert!(matches!(s.save(), Err(StoreError::ReadOnly { .. })));
        assert!(fs::read_to_string(&p).unwrap().contains("\"note\":\"n\""));
    }

    #[test]
    fn bad_lines_do_not_stop_the_rest() {
        let mut content = b"{\"id\":\"a\"}\n{\"id\": oops}\n".to_vec();
        content.extend_from_slice(b"{\"id\":\"\xff\"}\n[1]\n{\"id\":\"d\",\"responses\":[{\"model\":\"m\",\"mind\":\"x\"}]}\n");
        let (_d, p) = tmpfile("s.jsonl", &content);
        let s = Store::open(&p).unwrap();
        assert_eq!(s.len(), 5);
        assert!(s.item(0).is_ok());
        assert!(matches!(s.item(1), Err(ItemError::Syntax(_))));
        assert!(matches!(s.item(2), Err(ItemError::Utf8(_))));
        assert!(matches!(s.item(3), Err(ItemError::NotObject(_))));
        assert_eq!(s.item(4).unwrap_err().field(), Some("responses[0].mind"));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!(
            "{{\"id\":\"a\",\"x\":{}{}}}\n",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        let (_d, p) = tmpfile("s.jsonl", deep.as_bytes());
        let mut s = Store::open(&p).unwrap();
        // The typed view skips the unknown key without recursing; the editable view hits
        // serde_json's recursion limit and says so instead of overflowing the stack.
        assert_eq!(s.item(0).unwrap().id.as_deref(), Some("a"));
        assert!(matches!(s.value(0), Err(ItemError::Syntax(m)) if m.contains("recursion")));
        assert!(s.set_review(0, "r", Some(Value::Null)).is_err());
    }

    #[test]
    fn appended_items_get_their_own_lines() {
        let (_d, p) = tmpfile("s.jsonl", b"{\"id\":\"a\"}");
        let mut s = Store::open(&p).unwrap();
        s.push_raw("{\"id\":\"b\"}".into());
        s.save().unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"{\"id\":\"a\"}\n{\"id\":\"b\"}\n");
        assert_eq!(s.len(), 2);
        assert_eq!(s.raw(1).unwrap(), "{\"id\":\"b\"}");
    }
}
