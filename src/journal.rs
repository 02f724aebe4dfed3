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

use std::ffi::{OsStr, OsString};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::store::Store;

/// One change: `reviews.<reviewer>` of an item set to `review`, or removed when `None`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// 0-based item index in the file when the change was made.
    pub item: usize,
    /// The item's id (to find it again if the file's order changed).
    pub id: Option<String>,
    pub reviewer: String,
    pub review: Option<Value>,
}

/// What a replay did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Replay {
    pub applied: usize,
    /// Records that could not be applied, with why (item gone, item unreadable).
    pub skipped: Vec<String>,
    /// A last line cut short by a crash while it was being written (never acknowledged).
    pub torn_tail: bool,
}

pub struct Journal {
    path: PathBuf,
    file: Option<File>,
}

const SUFFIX: &str = ".verdict-journal";

fn dir_of(results: &Path) -> &Path {
    results
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// The results file's name as bytes (a name that is not UTF-8 is kept exactly, so two
/// such files never share journals).
fn file_name(results: &Path) -> Vec<u8> {
    results.file_name().map(os_bytes).unwrap_or_default()
}

#[cfg(unix)]
fn os_bytes(s: &OsStr) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    s.as_bytes().to_vec()
}

#[cfg(not(unix))]
fn os_bytes(s: &OsStr) -> Vec<u8> {
    s.to_string_lossy().into_owned().into_bytes()
}

#[cfg(unix)]
fn os_string(b: Vec<u8>) -> OsString {
    use std::os::unix::ffi::OsStringExt;
    OsString::from_vec(b)
}

#[cfg(not(unix))]
fn os_string(b: Vec<u8>) -> OsString {
    OsString::from(String::from_utf8_lossy(&b).into_owned())
}

/// The reviewer's name as it appears in a journal's file name (docs/format.md, "The
/// verdict journal"): letters, digits, `-` and `_` stay as they are; every other byte of
/// the name's UTF-8 is written `%XX` (upper-case hex), and the empty name is `%`. The
/// mapping is injective and never gives a `.` or a `/`, so a journal's name says exactly
/// which results file and which reviewer it belongs to.
pub fn encode_reviewer(reviewer: &str) -> String {
    if reviewer.is_empty() {
        return "%".into();
    }
    let mut out = String::with_capacity(reviewer.len());
    for c in reviewer.chars() {
        if c.is_alphanumeric() || c == '-' || c == '_' {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

/// Is `s` a name `encode_reviewer` gives (or gave in earlier versions, which wrote only
/// letters, digits, `-` and `_`)?
fn is_encoded_reviewer(s: &str) -> bool {
    if s == "%" {
        return true;
    }
    let b = s.as_bytes();
    let mut i = 0;
    let mut any = false;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = |x: u8| x.is_ascii_digit() || (b'A'..=b'F').contains(&x);
            if i + 2 >= b.len() || !hex(b[i + 1]) || !hex(b[i + 2]) {
                return false;
            }
            i += 3;
        } else {
            let c = s[i..].chars().next().expect("in bounds");
            if !(c.is_alphanumeric() || c == '-' || c == '_') {
                return false;
            }
            i += c.len_utf8();
        }
        any = true;
    }
    any
}

/// Where `reviewer`'s journal of a results file lives.
pub fn journal_path(results: &Path, reviewer: &str) -> PathBuf {
    dir_of(results).join(journal_name(&file_name(results), reviewer))
}

fn journal_name(file: &[u8], reviewer: &str) -> OsString {
    let mut n = Vec::with_capacity(file.len() + reviewer.len() + 24);
    n.push(b'.');
    n.extend_from_slice(file);
    n.push(b'.');
    n.extend_from_slice(encode_reviewer(reviewer).as_bytes());
    n.extend_from_slice(SUFFIX.as_bytes());
    os_string(n)
}

/// Is `n` the name of a journal of the results file named `file` (exactly: the part
/// between the file's name and the suffix is one encoded reviewer name)?
fn is_journal_name_of(n: &[u8], file: &[u8]) -> bool {
    n.strip_prefix(b".")
        .and_then(|n| n.strip_prefix(file))
        .and_then(|n| n.strip_prefix(b"."))
        .and_then(|n| n.strip_suffix(SUFFIX.as_bytes()))
        .and_then(|who| std::str::from_utf8(who).ok())
        .is_some_and(is_encoded_reviewer)
}

/// Every journal of a results file that exists now (any reviewer's, live or left behind),
/// in name order.
pub fn journal_paths(results: &Path) -> Vec<PathBuf> {
    let file = file_name(results);
    let mut out: Vec<PathBuf> = fs::read_dir(dir_of(results))
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter(|e| is_journal_name_of(&os_bytes(&e.file_name()), &file))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("another verdict session of this reviewer has {0} open (its journal {1} is locked)")]
    Busy(PathBuf, PathBuf),
    #[error("{0}: {1}")]
    Io(PathBuf, io::Error),
}

#[cfg(unix)]
fn try_lock(f: &File) -> io::Result<bool> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a file descriptor we own.
    let rc = unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if rc == 0 {
        return Ok(true);
    }
    let e = io::Error::last_os_error();
    if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
        Ok(false)
    } else {
        Err(e)
    }
}

#[cfg(not(unix))]
fn try_lock(_f: &File) -> io::Result<bool> {
    Ok(true)
}

/// Is a live session holding this journal?
pub fn is_live(path: &Path) -> bool {
    match OpenOptions::new().append(true).open(path) {
        Ok(f) => matches!(try_lock(&f), Ok(false)),
        Err(_) => false,
    }
}

impl Journal {
    /// A journal at `path` (to read, replay or remove; appends open it lazily).
    pub fn at(path: PathBuf) -> Journal {
        Journal { path, file: None }
    }

    /// The journal of a reviewing session: created now and locked for the session's life.
    /// If the folder is not writable the journal stays unopened and the first verdict
    /// reports the error (the reviewer can still read the set).
    pub fn for_session(results: &Path, reviewer: &str) -> Result<Journal, SessionError> {
        let path = journal_path(results, reviewer);
        match OpenOptions::new().create(true).append(true).open(&path) {
            Ok(f) => match try_lock(&f) {
                Ok(true) => Ok(Journal {
                    path,
                    file: Some(f),
                }),
                Ok(false) => Err(SessionError::Busy(results.to_path_buf(), path)),
                Err(e) => Err(SessionError::Io(path, e)),
            },
            Err(_) => Ok(Journal { path, file: None }),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn exists(&self) -> bool {
        self.path.exists()
    }

    /// Append one record and make it durable (write + fsync) before returning.
    pub fn append(&mut self, rec: &Record) -> io::Result<()> {
        if self.file.is_none() {
            let f = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.path)?;
            let _ = try_lock(&f);
            // Make the journal's directory entry durable the first time.
            if let Some(dir) = self.path.parent()
                && let Ok(d) = File::open(if dir.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    dir
                })
            {
                let _ = d.sync_all();
            }
            self.file = Some(f);
        }
        let mut line = serde_json::to_vec(rec).map_err(io::Error::other)?;
        line.push(b'\n');
        let f = self.file.as_mut().expect("opened above");
        let res = f.write_all(&line).and_then(|_| f.sync_data());
        if res.is_err() {
            // A partial line may be on disk; drop the handle so the next append starts a
            // new line after it (replay ignores a torn line).
            if let Some(f) = self.file.as_mut() {
                let _ = f.write_all(b"\n");
            }
        }
        res
    }

    /// Read every record of the journal (a missing journal has none).
    pub fn read(&self) -> io::Result<(Vec<Record>, bool)> {
        let f = match File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((vec![], false)),
            Err(e) => return Err(e),
        };
        let mut out = Vec::new();
        let mut torn = false;
        for line in BufReader::new(f).split(b'\n') {
            let line = line?;
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match serde_json::from_slice::<Record>(&line) {
                Ok(r) => out.push(r),
                Err(_) => torn = true,
            }
        }
        Ok((out, torn))
    }

    /// Apply the journal's records to `store` (in memory; the caller saves).
    pub fn replay(&self, store: &mut Store) -> io::Result<Replay> {
        let (records, torn_tail) = self.read()?;
        let mut rep = Replay {
            torn_tail,
            ..Default::default()
        };
        for r in records {
            match locate(store, &r) {
                Some(i) => match store.set_review(i, &r.reviewer, r.review.clone()) {
                    Ok(()) => rep.applied += 1,
                    Err(e) => rep
                        .skipped
                        .push(format!("item {}: {e}", r.id.as_deref().unwrap_or("?"))),
                },
                None => rep.skipped.push(format!(
                    "item {} (index {}) is no longer in the file",
                    r.id.as_deref().unwrap_or("?"),
                    r.item
                )),
            }
        }
        Ok(rep)
    }

    /// Empty the journal once its records are in the results file. A session's own
    /// journal is truncated (it keeps its lock); any other is removed.
    pub fn clear(&mut self) -> io::Result<()> {
        match &self.file {
            Some(f) => {
                f.set_len(0)?;
                f.sync_all()
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
    /// deleted); returns the copy's path.
    pub fn keep_aside(&self) -> io::Result<PathBuf> {
        let stamp = time::OffsetDateTime::now_utc().unix_timestamp();
        let aside = PathBuf::from(format!("{}.unapplied-{stamp}", self.path.display()));
        fs::copy(&self.path, &aside)?;
        Ok(aside)
    }
}

fn remove_if_exists(p: &Path) -> io::Result<()> {
    match fs::remove_file(p) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

fn item_id(store: &Store, i: usize) -> Option<String> {
    store.item(i).ok().and_then(|it| it.id)
}

/// Find the item a record is about: its index if the id still matches, else by id.
pub fn locate(store: &Store, r: &Record) -> Option<usize> {
    if r.item < store.len() && item_id(store, r.item) == r.id {
        return Some(r.item);
    }
    let id = r.id.as_ref()?;
    (0..store.len()).find(|&i| item_id(store, i).as_ref() == Some(id))
}

/// Open a result set and replay every journal beside it (verdicts of sessions still
/// running or killed). Returns the journals replayed.
pub fn open_with_journal(path: &Path) -> anyhow::Result<(Store, Vec<PathBuf>, Replay)> {
    let mut store = Store::open(path)?;
    let mut total = Replay::default();
    let paths = journal_paths(path);
    for p in &paths {
        let rep = Journal::at(p.clone()).replay(&mut store)?;
        total.applied += rep.applied;
        total.skipped.extend(rep.skipped);
        total.torn_tail |= rep.torn_tail;
    }
    Ok((store, paths, total))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rec(item: usize, id: &str, who: &str, review: Value) -> Record {
        Record {
            item,
            id: Some(id.into()),
            reviewer: who.into(),
            review: Some(review),
        }
    }

    /// Opening `r.jsonl` must not take the journals of `r.jsonl.copy.jsonl` (or of any
    /// other file whose name starts with `r.jsonl.`).
    #[test]
    fn only_a_files_own_journals() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("r.jsonl");
        let copy = d.path().join("r.jsonl.copy.jsonl");
        let x = d.path().join("r.jsonl.x");
        fs::write(&p, "{\"id\":\"a\"}\n").unwrap();
        fs::write(&copy, "{\"id\":\"a\"}\n").unwrap();
        fs::write(&x, "{\"id\":\"a\"}\n").unwrap();
        for (f, who) in [(&copy, "ann"), (&x, "bob"), (&x, "x.y")] {
            Journal::at(journal_path(f, who))
                .append(&rec(0, "a", who, json!({"verdict": "other file"})))
                .unwrap();
        }
        assert_eq!(journal_paths(&p), Vec::<PathBuf>::new());
        let (s, paths, rep) = open_with_journal(&p).unwrap();
        assert!(paths.is_empty());
        assert_eq!(rep.applied, 0);
        assert!(s.item(0).unwrap().reviews.is_empty());
        // each file still sees its own
        assert_eq!(journal_paths(&copy), vec![journal_path(&copy, "ann")]);
        assert_eq!(journal_paths(&x).len(), 2);
        // and its own journal is found
        Journal::at(journal_path(&p, "ann"))
            .append(&rec(0, "a", "ann", json!({"verdict": "mine"})))
            .unwrap();
        assert_eq!(journal_paths(&p), vec![journal_path(&p, "ann")]);
    }

    /// Different reviewers never share a journal; plain names keep the journal name of
    /// earlier versions, so their journals still replay.
    #[test]
    fn reviewer_names_map_injectively_to_journal_names() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("r.jsonl");
        let names = [
            "a/b",
            "a_b",
            "a.b",
            "a b",
            "a%2Fb",
            "a%",
            "%",
            "",
            "a\u{1b}b",
            "José",
            "ann",
            "a-b",
            "..",
            "a\u{2f}b\u{0}",
        ];
        let mut seen = std::collections::BTreeMap::new();
        for n in names {
            let jp = journal_path(&p, n);
            assert_eq!(jp.parent(), Some(d.path()), "{n:?}");
            let file = jp.file_name().unwrap().to_str().unwrap().to_string();
            if let Some(other) = seen.insert(file.clone(), n) {
                panic!("{n:?} and {other:?} share the journal {file}");
            }
            assert!(is_journal_name_of(file.as_bytes(), b"r.jsonl"), "{file}");
        }
        // plain names (letters, digits, `-`, `_`): the name earlier versions gave
        for n in ["ann", "a_b", "a-b", "José", "Bob_2"] {
            assert_eq!(
                journal_path(&p, n),
                d.path().join(format!(".r.jsonl.{n}.verdict-journal"))
            );
        }
    }

    #[test]
    fn replay_restores_and_is_idempotent() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("r.jsonl");
        fs::write(&p, "{\"id\":\"a\"}\n{\"id\":\"b\"}\n").unwrap();
        let mut j = Journal::for_session(&p, "ann").unwrap();
        j.append(&rec(1, "b", "ann", json!({"verdict": "ok"})))
            .unwrap();
        // a torn tail from a crash mid-write
        OpenOptions::new()
            .append(true)
            .open(j.path())
            .unwrap()
            .write_all(b"{\"item\":0,\"id\":")
            .unwrap();
        let (mut s, paths, rep) = open_with_journal(&p).unwrap();
        assert_eq!(paths, vec![journal_path(&p, "ann")]);
        assert_eq!(rep.applied, 1);
        assert!(rep.torn_tail);
        assert_eq!(
            s.item(1).unwrap().reviews["ann"].verdict.as_deref(),
            Some("ok")
        );
        s.save().unwrap();
        // replaying again after the save changes nothing
        let rep2 = j.replay(&mut s).unwrap();
        assert_eq!(rep2.applied, 1);
        assert!(!s.is_dirty());
        j.clear().unwrap();
        assert_eq!(j.read().unwrap().0, vec![]);
        j.remove().unwrap();
        assert!(!j.exists());
    }

    #[test]
    fn replay_follows_ids_when_order_changed() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("r.jsonl");
        fs::write(&p, "{\"id\":\"b\"}\n{\"id\":\"a\"}\n").unwrap();
        let mut j = Journal::at(journal_path(&p, "r"));
        j.append(&rec(0, "a", "r", json!({}))).unwrap();
        j.append(&rec(5, "zz", "r", json!({}))).unwrap();
        let (s, _j, rep) = open_with_journal(&p).unwrap();
        assert_eq!(rep.applied, 1);
        assert_eq!(rep.skipped.len(), 1);
        assert!(s.item(1).unwrap().reviews.contains_key("r"));
        let aside = j.keep_aside().unwrap();
        assert_eq!(fs::read(&aside).unwrap(), fs::read(j.path()).unwrap());
    }

    #[test]
    fn one_live_session_per_reviewer_and_all_journals_replay() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("r.jsonl");
        fs::write(&p, "{\"id\":\"a\"}\n").unwrap();
        let mut ann = Journal::for_session(&p, "ann").unwrap();
        assert!(is_live(ann.path()));
        assert!(matches!(
            Journal::for_session(&p, "ann"),
            Err(SessionError::Busy(..))
        ));
        let mut bob = Journal::for_session(&p, "bob/evil name").unwrap();
        assert!(
            bob.path()
                .file_name()
                .unwrap()
                .to_string_lossy()
                .contains(".bob%2Fevil%20name.")
        );
        ann.append(&rec(0, "a", "ann", json!({"verdict": "pass"})))
            .unwrap();
        bob.append(&rec(0, "a", "bob", json!({"verdict": "fail"})))
            .unwrap();
        let (s, paths, rep) = open_with_journal(&p).unwrap();
        assert_eq!(paths.len(), 2);
        assert_eq!(rep.applied, 2);
        let it = s.item(0).unwrap();
        assert_eq!(it.reviews["ann"].verdict.as_deref(), Some("pass"));
        assert_eq!(it.reviews["bob"].verdict.as_deref(), Some("fail"));
        drop(bob);
        assert!(
            !is_live(&journal_path(&p, "bob/evil name")),
            "a dead session's journal is stale"
        );
    }
}
