//! The verdict journal: how a verdict becomes durable before the screen shows it.
//!
//! Rewriting a large results file on every key press is too slow, so each verdict is first
//! appended to a small journal beside the file (`.<file name>.<reviewer>.verdict-journal`,
//! one JSON line per change) and fsynced. A live session holds an exclusive `flock` on its
//! journal, so two sessions never share one and a crashed session's journal is recognised
//! as stale. The journal is folded into the results file by an atomic
//! save, then cleared. Opening a result set replays a journal left behind (after `kill -9`,
//! a lost SSH connection, a full disk), so no acknowledged verdict is ever lost. Replaying is
//! idempotent: a crash between the save and the clearing applies the same verdicts again.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One change: `reviews.<reviewer>` of an item set to `review`, or removed when `None`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// 0-based item index in the file when the change was made.
    pub item: usize,
    /// The item's id (to find it again if the file's order changed).
    pub id: Option<String>,
    pub reviewer: String,
    pub review: Option<Value>,
    /// For an item without an id, or whose id another item shares: what its content was
    /// (`content_key`), to find it again by that if lines were added or removed before it. Absent in journals of earlier
    /// versions (their id-less records are placed by position).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// One line of a journal as read.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    Record(Record),
    /// A line that is not a record: why.
    Unreadable(Unreadable),
}

/// Why a journal line is not a record.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Unreadable {
    /// The last line, cut short by a crash while it was written.
    #[error("an unfinished last line, cut short while it was written (never shown as recorded)")]
    TornTail,
    /// A cut-short record with a whole one after it on the same line.
    #[error("half a record (never shown as recorded) before a whole one, which was read")]
    HalfRecord,
    #[error("not a journal record: {0}")]
    NotARecord(String),
}

pub struct Journal {
    path: PathBuf,
    file: Option<File>,
    /// The journal's length up to the end of its last whole line: a failed append is cut
    /// back to it, so the next record never follows half a line.
    good_len: u64,
    /// The journal ends with half a line left by an earlier crash: the next record starts
    /// on a new line.
    needs_newline: bool,
    /// Why appends are refused (a failed append could not be cut back).
    broken: Option<String>,
    /// Permission bits a journal is created with: no more than the results file's.
    mode: u32,
    /// Set when the journal beside the file could not be used (a symbolic link, not a
    /// regular file) and this one, in the user's data folder, is used instead: says so.
    pub moved: Option<String>,
    /// The results file whose journal this is (a session's): an existing journal is
    /// appended to only if it is trusted against it.
    results: Option<PathBuf>,
    /// Where `flock` does nothing: this session is the only one with the file open, for
    /// as long as its journal lives.
    pub only: Option<OnlySession>,
}

mod paths;
pub use paths::*;

mod files;
pub use files::*;

// Who may put a side file beside a results file.
mod trust;
pub use trust::*;

// One session at a time where flock does nothing.
mod only;
pub use only::*;

// The save lock beside the results file.
mod lock;
pub use lock::*;

// Reading a results file with its journals, in step with saves.

impl Journal {
    /// A journal at `path` (to read, replay or remove; appends open it lazily).
    pub fn at(path: PathBuf) -> Journal {
        Journal {
            path,
            file: None,
            good_len: 0,
            needs_newline: false,
            broken: None,
            mode: 0o600,
            moved: None,
            results: None,
            only: None,
        }
    }

    /// The journal of a reviewing session: opened (created if needed) now and locked for
    /// the session's life. Call it once the results file has been opened, so a failed open
    /// leaves nothing behind. If the folder is not writable the journal stays unopened and
    /// the first verdict reports the error (the reviewer can still read the set). If the
    /// path beside the file is a symbolic link or not a regular file, it is not touched:
    /// the journal goes to the user's data folder instead and `moved` says so.
    pub fn for_session(results: &Path, reviewer: &str) -> Result<Journal, SessionError> {
        let path = journal_path(results, reviewer);
        let mode = side_file_mode(results);
        let mut j = Journal::at(path.clone());
        j.mode = mode;
        j.results = Some(results.to_path_buf());
        let why = match open_append(&path, mode, Some(results)) {
            Ok((f, _)) => {
                j.adopt(f, results)?;
                return Ok(j);
            }
            Err(e) => match unsafe_reason(&e) {
                Some(why) => why,
                // Not writable here: the first verdict reports it.
                None => return Ok(j),
            },
        };
        let Some(dir) = fallback_dir(results) else {
            return Err(SessionError::Io(
                path,
                io::Error::other(format!(
                    "is {why}; not using it, and there is no data folder to keep the journal in instead"
                )),
            ));
        };
        create_private_dir(&dir).map_err(|e| SessionError::Io(dir.clone(), e))?;
        let alt = dir.join(journal_name(&file_name(results), reviewer));
        let (f, _) =
            open_append(&alt, mode, Some(results)).map_err(|e| SessionError::Io(alt.clone(), e))?;
        j.path = alt;
        j.adopt(f, results)?;
        let moved = format!(
            "journal {} is {why}, not used: your verdicts are journaled in {}",
            path.file_name().unwrap_or_default().to_string_lossy(),
            j.path.display()
        );
        log::warn!("{moved}");
        j.moved = Some(moved);
        Ok(j)
    }

    /// A session's journal handed to this process already open and locked (by the
    /// session that ended, to the process that folds it): checked to be the file at
    /// `path` and to hold the lock.
    pub fn inherited(path: PathBuf, f: File) -> io::Result<Journal> {
        if !same_file(&f, &path) {
            return Err(io::Error::other(format!(
                "{}: the journal handed over is not the file of that name",
                path.display()
            )));
        }
        if !try_lock(&f)? {
            return Err(io::Error::other(format!(
                "{}: the journal handed over is locked by another session",
                path.display()
            )));
        }
        let mut j = Journal::at(path);
        j.note_end(&f)?;
        j.file = Some(f);
        Ok(j)
    }

    /// The open (and locked) journal file, if it is open.
    pub fn file(&self) -> Option<&File> {
        self.file.as_ref()
    }

    /// Take an opened journal file: lock it, and note where the last whole line ends.
    /// A session that folds a journal left behind removes it while holding its lock
    /// (`remove_if_stale`): if that happens between our open and our lock, the lock is
    /// refused or the file has lost its name; then the journal is opened again, so no
    /// record ever goes to a file without a name. A lock still refused after half a
    /// second belongs to a live session.
    fn adopt(&mut self, mut f: File, results: &Path) -> Result<(), SessionError> {
        let path = self.path.clone();
        let io_err = |e| SessionError::Io(path.clone(), e);
        let mut tries = 0;
        loop {
            tries += 1;
            match try_lock(&f) {
                Ok(true) if same_file(&f, &self.path) => break,
                Ok(true) => {}
                Ok(false) if tries < 20 => std::thread::sleep(std::time::Duration::from_millis(25)),
                Ok(false) => {
                    return Err(SessionError::Busy(results.to_path_buf(), self.path.clone()));
                }
                Err(e) => return Err(io_err(e)),
            }
            if tries >= 20 {
                return Err(io_err(io::Error::other(
                    "the journal keeps being replaced while it is opened",
                )));
            }
            f = open_append(&self.path, self.mode, Some(results))
                .map_err(io_err)?
                .0;
        }
        self.note_end(&f).map_err(io_err)?;
        self.file = Some(f);
        Ok(())
    }

    /// Where appends start: after the file's content, on a new line if it ends in half a
    /// line (left by a crash; replay reports it).
    fn note_end(&mut self, f: &File) -> io::Result<()> {
        let len = f.metadata()?.len();
        self.good_len = len;
        self.needs_newline = false;
        if len > 0 {
            let mut last = [0u8; 1];
            let mut r = File::open(&self.path)?;
            use std::io::{Read, Seek, SeekFrom};
            r.seek(SeekFrom::Start(len - 1))?;
            r.read_exact(&mut last)?;
            self.needs_newline = last[0] != b'\n';
        }
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn exists(&self) -> bool {
        self.path.exists()
    }

    /// Append one record and make it durable (write + fsync) before returning. If that
    /// fails (a full disk), the journal is cut back to its last whole record, so no later
    /// record is ever glued to half a line; if even that fails, later appends are refused.
    pub fn append(&mut self, rec: &Record) -> io::Result<()> {
        if let Some(why) = &self.broken {
            return Err(io::Error::other(why.clone()));
        }
        if self.file.is_none() {
            let (f, _) = open_append(&self.path, self.mode, self.results.as_deref())?;
            let _ = try_lock(&f);
            self.note_end(&f)?;
            self.file = Some(f);
        }
        let mut line = Vec::new();
        if self.needs_newline {
            line.push(b'\n');
        }
        serde_json::to_writer(&mut line, rec).map_err(io::Error::other)?;
        line.push(b'\n');
        let f = self.file.as_mut().expect("opened above");
        let res = f.write_all(&line).and_then(|_| f.sync_data());
        match res {
            Ok(()) => {
                self.good_len += line.len() as u64;
                self.needs_newline = false;
                Ok(())
            }
            Err(e) => {
                // Part of the line (or all of it, unsynced) may be in the file: cut it
                // off, and check that the cut holds.
                let good = self.good_len;
                let cut = f
                    .set_len(good)
                    .and_then(|_| f.sync_data())
                    .and_then(|_| f.metadata())
                    .map(|m| m.len() == good);
                if !matches!(cut, Ok(true)) {
                    self.broken = Some(format!(
                        "{}: a failed write could not be undone; not writing to it again",
                        self.path.display()
                    ));
                }
                Err(e)
            }
        }
    }

    /// Read every line of the journal (a missing journal has none), with its 1-based line
    /// number. A line that holds half a record followed by a whole one (written by earlier
    /// versions after a full disk) gives both: the half as unreadable, the whole record.
    pub fn read_lines(&self) -> io::Result<Vec<(usize, Line)>> {
        self.read_lines_for(None)
    }

    /// [`Journal::read_lines`] of a journal to be read into the results file at
    /// `results`: refused (an error [`untrusted_reason`] explains) when its owner could not
    /// have written that file, or users who may not write it may write the journal
    /// (docs/format.md, "Who may write beside a file").
    pub fn read_lines_for(&self, results: Option<&Path>) -> io::Result<Vec<(usize, Line)>> {
        let f = match open_checked(&self.path, OpenOptions::new().read(true)) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(vec![]),
            Err(e) => return Err(e),
        };
        if let Some(why) = results.map(|r| distrust_file(&f, r)).transpose()?.flatten() {
            return Err(not_trusted(&why));
        }
        let mut out = Vec::new();
        let mut rd = BufReader::new(f);
        let mut n = 0;
        loop {
            let mut line = Vec::new();
            if rd.read_until(b'\n', &mut line)? == 0 {
                break;
            }
            n += 1;
            let whole = line.last() == Some(&b'\n');
            if whole {
                line.pop();
            }
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match serde_json::from_slice::<Record>(&line) {
                Ok(r) => out.push((n, Line::Record(r))),
                Err(_) if !whole => out.push((n, Line::Unreadable(Unreadable::TornTail))),
                Err(e) => match salvage(&line) {
                    Some(r) => {
                        out.push((n, Line::Unreadable(Unreadable::HalfRecord)));
                        out.push((n, Line::Record(r)));
                    }
                    None => out.push((n, Line::Unreadable(Unreadable::NotARecord(e.to_string())))),
                },
            }
        }
        Ok(out)
    }

    /// Read every record of the journal (a missing journal has none), and whether some
    /// line could not be read.
    pub fn read(&self) -> io::Result<(Vec<Record>, bool)> {
        self.read_for(None)
    }

    /// [`Journal::read`] of a journal to be read into the results file at `results`
    /// (refused as [`Journal::read_lines_for`] says).
    pub fn read_for(&self, results: Option<&Path>) -> io::Result<(Vec<Record>, bool)> {
        let mut bad = false;
        let records = self
            .read_lines_for(results)?
            .into_iter()
            .filter_map(|(_, l)| match l {
                Line::Record(r) => Some(r),
                Line::Unreadable(_) => {
                    bad = true;
                    None
                }
            })
            .collect();
        Ok((records, bad))
    }

    /// Empty the journal once its records are in the results file. A session's own
    /// journal is truncated (it keeps its lock); any other is removed.
    pub fn clear(&mut self) -> io::Result<()> {
        match &self.file {
            Some(f) => {
                f.set_len(0)?;
                f.sync_all()?;
                self.good_len = 0;
                self.needs_newline = false;
                Ok(())
            }
            None => remove_if_exists(&self.path),
        }
    }

    /// Remove the journal file (a session's, when it ends with everything folded).
    pub fn remove(&mut self) -> io::Result<()> {
        let r = remove_if_exists(&self.path);
        self.file = None;
        r
    }

    /// Keep a copy of the journal beside it (records that could not be applied are never
    /// deleted), no more readable than `mode` allows; returns the copy's path.
    pub fn keep_aside(&self, mode: u32) -> io::Result<PathBuf> {
        let mut src = open_checked(&self.path, OpenOptions::new().read(true))?;
        let stamp = time::OffsetDateTime::now_utc().unix_timestamp();
        for k in 0..1000 {
            let aside = PathBuf::from(if k == 0 {
                format!("{}{UNAPPLIED}{stamp}", self.path.display())
            } else {
                format!("{}{UNAPPLIED}{stamp}-{k}", self.path.display())
            });
            let mut o = OpenOptions::new();
            o.write(true).create_new(true);
            #[cfg(unix)]
            {
                use std::os::unix::fs::OpenOptionsExt;
                o.mode(mode & 0o666);
            }
            match o.open(&aside) {
                Ok(mut dst) => {
                    io::copy(&mut src, &mut dst)?;
                    dst.sync_all()?;
                    sync_dir(&aside)?;
                    return Ok(aside);
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::other("too many copies of this journal already"))
    }
}

/// A folder only the user can enter (for journals kept in the data folder).
fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut b = fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        b.mode(0o700);
    }
    b.create(dir)
}

/// The whole record at the end of a line that starts with half of one (earlier versions
/// appended the next record right after a torn write).
fn salvage(line: &[u8]) -> Option<Record> {
    let start = b"{\"item\":";
    (1..line.len())
        .filter(|&i| line[i..].starts_with(start))
        .find_map(|i| serde_json::from_slice::<Record>(&line[i..]).ok())
}

fn remove_if_exists(p: &Path) -> io::Result<()> {
    match fs::remove_file(p) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests;
