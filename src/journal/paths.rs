//! Where a results file's journals live and what they are called (docs/format.md, "The
//! verdict journal"): beside the file, or in the user's data folder when that path
//! cannot be used safely.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::{Path, PathBuf};

pub(super) const SUFFIX: &str = ".verdict-journal";

pub(super) fn dir_of(results: &Path) -> &Path {
    results
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// The results file's name as bytes (a name that is not UTF-8 is kept exactly, so two
/// such files never share journals).
pub(super) fn file_name(results: &Path) -> Vec<u8> {
    results.file_name().map(os_bytes).unwrap_or_default()
}

#[cfg(unix)]
pub(super) fn os_bytes(s: &OsStr) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    s.as_bytes().to_vec()
}

#[cfg(not(unix))]
pub(super) fn os_bytes(s: &OsStr) -> Vec<u8> {
    s.to_string_lossy().into_owned().into_bytes()
}

#[cfg(unix)]
pub(super) fn os_string(b: Vec<u8>) -> OsString {
    use std::os::unix::ffi::OsStringExt;
    OsString::from_vec(b)
}

#[cfg(not(unix))]
pub(super) fn os_string(b: Vec<u8>) -> OsString {
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
pub(super) fn is_encoded_reviewer(s: &str) -> bool {
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

/// A side file of `results` shared by every path to it: `.<file name><suffix>` beside
/// the file a symbolic link names (the save lock, the one session's marker).
pub(super) fn beside_real_file(results: &Path, suffix: &str) -> PathBuf {
    let real = fs::canonicalize(results).unwrap_or_else(|_| results.to_path_buf());
    let mut n = vec![b'.'];
    n.extend_from_slice(&file_name(&real));
    n.extend_from_slice(suffix.as_bytes());
    dir_of(&real).join(os_string(n))
}

/// Where `reviewer`'s journal of a results file lives.
pub fn journal_path(results: &Path, reviewer: &str) -> PathBuf {
    dir_of(results).join(journal_name(&file_name(results), reviewer))
}

pub(super) fn journal_name(file: &[u8], reviewer: &str) -> OsString {
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
pub(super) fn is_journal_name_of(n: &[u8], file: &[u8]) -> bool {
    n.strip_prefix(b".")
        .and_then(|n| n.strip_prefix(file))
        .and_then(|n| n.strip_prefix(b"."))
        .and_then(|n| n.strip_suffix(SUFFIX.as_bytes()))
        .and_then(|who| std::str::from_utf8(who).ok())
        .is_some_and(is_encoded_reviewer)
}

/// The user's data folder (`VERDICT_DATA_DIR`, else the platform's, e.g.
/// `~/.local/share/verdict`).
pub fn user_data_dir() -> Option<PathBuf> {
    std::env::var_os("VERDICT_DATA_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            directories::ProjectDirs::from("", "", "verdict").map(|p| p.data_dir().to_path_buf())
        })
}

/// Where a results file's journals go when the path beside the file cannot be used
/// safely (docs/format.md, "The verdict journal"): `journals/<key>` in the user's data
/// folder, `<key>` a hash of the file's absolute path (its folder resolved).
pub fn fallback_dir(results: &Path) -> Option<PathBuf> {
    let dir = fs::canonicalize(dir_of(results)).ok()?;
    let mut key = os_bytes(dir.as_os_str());
    key.push(b'/');
    key.extend(file_name(results));
    let h = crate::hash::fnv1a64(&key);
    Some(user_data_dir()?.join("journals").join(format!("{h:016x}")))
}

/// Every journal of a results file that exists now (any reviewer's, live or left behind),
/// beside the file and in its fallback folder, in name order.
pub fn journal_paths(results: &Path) -> Vec<PathBuf> {
    let file = file_name(results);
    side_files(results, |n| is_journal_name_of(n, &file))
}

/// Every copy a session kept aside of a journal of `results` holding entries that could
/// not be applied (`Journal::keep_aside`: the journal's name and `.unapplied-<time>`),
/// beside the file and in its fallback folder, in name order.
pub fn kept_aside_paths(results: &Path) -> Vec<PathBuf> {
    let file = file_name(results);
    side_files(results, |n| {
        find(n, UNAPPLIED.as_bytes()).is_some_and(|at| is_journal_name_of(&n[..at], &file))
    })
}

/// The files beside `results` and in its fallback folder whose names `is_ours`, each
/// folder's in name order.
fn side_files(results: &Path, is_ours: impl Fn(&[u8]) -> bool) -> Vec<PathBuf> {
    let list = |dir: &Path| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = fs::read_dir(dir)
            .map(|rd| {
                rd.filter_map(|e| e.ok())
                    .filter(|e| is_ours(&os_bytes(&e.file_name())))
                    .map(|e| e.path())
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    };
    let mut out = list(dir_of(results));
    if let Some(fb) = fallback_dir(results) {
        out.extend(list(&fb));
    }
    out
}

/// What `Journal::keep_aside` puts after a journal's name.
pub(super) const UNAPPLIED: &str = ".unapplied-";

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

/// The reviewer whose journal of `results` is at `journal` (by its name; the inverse of
/// `journal_name`), if it is named as one.
pub fn reviewer_of(journal: &Path, results: &Path) -> Option<String> {
    let name = os_bytes(journal.file_name()?);
    if !is_journal_name_of(&name, &file_name(results)) {
        return None;
    }
    let enc = &name[1 + file_name(results).len() + 1..name.len() - SUFFIX.len()];
    if enc == b"%" {
        return Some(String::new());
    }
    let mut out = Vec::with_capacity(enc.len());
    let mut i = 0;
    while i < enc.len() {
        if enc[i] == b'%' {
            let h = std::str::from_utf8(&enc[i + 1..i + 3]).ok()?;
            out.push(u8::from_str_radix(h, 16).ok()?);
            i += 3;
        } else {
            out.push(enc[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

impl super::Journal {
    /// The reviewer this journal (or a copy of it kept aside) of `results` is named for,
    /// if it is named as one.
    pub fn named_reviewer(&self, results: &Path) -> Option<String> {
        let name = os_bytes(self.path().file_name()?);
        let journal = match find(&name, UNAPPLIED.as_bytes()) {
            Some(at) => os_string(name[..at].to_vec()),
            None => os_string(name),
        };
        reviewer_of(Path::new(&journal), results)
    }
}
