//! Where a file's items come from when `verdict split` or `verdict merge` wrote them into
//! another file (docs/format.md, "Paths"; docs/teams.md).
//!
//! Such a file holds the source's items byte for byte, so their relative `image` paths
//! are relative to the **source's** folder, and what the source's file name and folder
//! say (a CharToM-QA evaluation file's model, an lm-eval log's model) is the source's.
//! The writer records the source in `.verdict-origin.json` beside the files it wrote:
//!
//! ```json
//! {"version": 1, "files": {"cvqa.ann.jsonl": {"source": "../cvqa.jsonl"}}}
//! ```
//!
//! `source` is relative to the folder of the origin file (so the tree can move, or be a
//! git clone elsewhere), or absolute when there is no relative path. A file not named in
//! it, or without an origin file beside it, is its own source.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Read as _};
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The origin file's name, in the folder of the files it describes.
pub const FILE_NAME: &str = ".verdict-origin.json";

/// Larger origin files are not read (one is a few hundred bytes).
const MAX_BYTES: u64 = 1 << 20;

#[derive(Debug, Default, Serialize, Deserialize)]
struct Manifest {
    version: u32,
    files: BTreeMap<String, Entry>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Entry {
    source: String,
}

fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The origin file for files in `dir`.
pub fn file_in(dir: &Path) -> PathBuf {
    dir.join(FILE_NAME)
}

fn read_manifest(dir: &Path) -> Option<Manifest> {
    let p = file_in(dir);
    let meta = fs::metadata(&p).ok()?;
    if !meta.is_file() || meta.len() > MAX_BYTES {
        return None;
    }
    let mut text = String::new();
    fs::File::open(&p)
        .ok()?
        .take(MAX_BYTES)
        .read_to_string(&mut text)
        .ok()?;
    match serde_json::from_str::<Manifest>(&text) {
        Ok(m) if m.version == 1 => Some(m),
        Ok(m) => {
            log::warn!("{}: version {} not known; ignored", p.display(), m.version);
            None
        }
        Err(e) => {
            log::warn!("{}: not read ({e}); ignored", p.display());
            None
        }
    }
}

/// The source of the file at `path`, if an origin file beside it names one.
pub fn source_of(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    let dir = folder_of(path);
    let entry = read_manifest(&dir)?.files.remove(name)?;
    let source = Path::new(&entry.source);
    Some(if source.is_absolute() {
        source.to_path_buf()
    } else {
        normalize(&dir.join(source))
    })
}

/// The origin file of folder `dir` with `files` (names in `dir`) recorded as coming from
/// `source`: the bytes to write (atomically) to [`file_in`]`(dir)`. Other files' entries
/// stay. `dir` must exist.
pub fn recorded(dir: &Path, files: &[String], source: &Path) -> io::Result<Vec<u8>> {
    let dir_abs = fs::canonicalize(dir)?;
    let source_abs = match fs::canonicalize(source) {
        Ok(p) => p,
        Err(_) => std::path::absolute(source)?,
    };
    let shown = match relative(&source_abs, &dir_abs) {
        Some(r) => r,
        None => source_abs,
    };
    let shown = shown.to_string_lossy().replace('\\', "/");
    let mut m = read_manifest(dir).unwrap_or_default();
    m.version = 1;
    for f in files {
        m.files.insert(
            f.clone(),
            Entry {
                source: shown.clone(),
            },
        );
    }
    let mut bytes = serde_json::to_vec_pretty(&m).map_err(io::Error::other)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// `path` without `.` components and with `x/..` folded (no file system access).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    if out.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        out
    }
}

/// `target` relative to the folder `base` (both absolute), if they share a root.
fn relative(target: &Path, base: &Path) -> Option<PathBuf> {
    let t: Vec<Component> = target.components().collect();
    let b: Vec<Component> = base.components().collect();
    if t.first() != b.first() {
        return None;
    }
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_source_is_found_relative_to_the_folder() {
        let d = tempfile::tempdir().unwrap();
        let src = d.path().join("set.jsonl");
        fs::write(&src, "").unwrap();
        let out = d.path().join("split/deeper");
        fs::create_dir_all(&out).unwrap();
        let bytes = recorded(&out, &["set.a.jsonl".into()], &src).unwrap();
        assert!(
            String::from_utf8_lossy(&bytes).contains("\"source\": \"../../set.jsonl\""),
            "{}",
            String::from_utf8_lossy(&bytes)
        );
        fs::write(file_in(&out), &bytes).unwrap();
        let found = source_of(&out.join("set.a.jsonl")).unwrap();
        assert_eq!(
            fs::canonicalize(found).unwrap(),
            fs::canonicalize(&src).unwrap()
        );
        // Another file of the folder, or a file elsewhere: its own source.
        assert_eq!(source_of(&out.join("other.jsonl")), None);
        assert_eq!(source_of(&src), None);
        // A second record keeps the first.
        let bytes = recorded(&out, &["set.b.jsonl".into()], &src).unwrap();
        fs::write(file_in(&out), &bytes).unwrap();
        assert!(source_of(&out.join("set.a.jsonl")).is_some());
        assert!(source_of(&out.join("set.b.jsonl")).is_some());
        // A broken origin file is ignored.
        fs::write(file_in(&out), "{").unwrap();
        assert_eq!(source_of(&out.join("set.a.jsonl")), None);
    }

    #[test]
    fn normalize_folds_parents() {
        assert_eq!(normalize(Path::new("a/b/../../c")), PathBuf::from("c"));
        assert_eq!(
            normalize(Path::new("split/../x.png")),
            PathBuf::from("x.png")
        );
        assert_eq!(normalize(Path::new("../x")), PathBuf::from("../x"));
        assert_eq!(normalize(Path::new("./")), PathBuf::from("."));
    }
}
