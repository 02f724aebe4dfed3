//! Teams: several reviewers on one result set, with files alone and no server.
//!
//! - [`split`] deals the items of a set out to reviewers, each item to `overlap` of them,
//!   balanced and deterministic for a seed.
//! - [`merge`] combines the reviewers' files back into one set, checking that the items
//!   agree and keeping the newer of two verdicts by the same reviewer.
//! - [`agree`] measures how far the reviewers (and an LLM judge) agree: percent
//!   agreement, Cohen's kappa, Fleiss' kappa, Krippendorff's alpha, and time per item.
//!
//! docs/teams.md describes the files and the figures for users.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

pub mod agree;
pub mod merge;
pub mod merge3;
pub mod split;

/// Write `bytes` to `path` atomically: a temporary file in the same folder, fsync,
/// rename, fsync of the folder. Unless `overwrite`, an existing `path` is never replaced
/// (the rename itself refuses, so a file created meanwhile is safe too); the error then
/// has kind [`io::ErrorKind::AlreadyExists`]. The file gets `perms` (the permissions of
/// the files it is made from, less the umask; a replaced file keeps only the bits both
/// it and `perms` allow: see [`crate::perms`]).
pub fn write_atomic(
    path: &Path,
    bytes: &[u8],
    overwrite: bool,
    perms: &crate::perms::Derived,
) -> io::Result<()> {
    let dir = crate::store::parent_dir(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Replacing a results file that reviewers have saved: in step with their saves (the
    // file's save lock, docs/format.md "Several sessions on one file"), so neither rename
    // lands between the other's last look at the file and its rename. (No lock file: no
    // session ever saved it, and none is left beside an output.)
    let _lock = if overwrite && crate::journal::lock_file_exists(path) {
        crate::journal::lock_for_save(
            path,
            "verdict",
            crate::journal::LOCK_WAIT,
            &std::sync::atomic::AtomicBool::new(false),
        )
        .map_err(io::Error::other)?
    } else {
        None
    };
    let mut tmp = perms.tempfile_in(&dir, &name)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    if overwrite {
        perms.narrow_to_replaced(tmp.path(), path)?;
        tmp.persist(path).map_err(|e| e.error)?;
    } else {
        tmp.persist_noclobber(path).map_err(|e| e.error)?;
    }
    sync_dir(&dir)
}

fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        fs::File::open(dir)?.sync_all()
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

    #[test]
    fn replacing_a_file_waits_for_a_save_under_way() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("set.jsonl");
        fs::write(&p, "{}\n").unwrap();
        let held = crate::journal::lock_for_save(
            &p,
            "ann",
            crate::journal::LOCK_WAIT,
            &std::sync::atomic::AtomicBool::new(false),
        )
        .unwrap()
        .unwrap();
        let p2 = p.clone();
        let t = std::thread::spawn(move || {
            write_atomic(&p2, b"new\n", true, &crate::perms::Derived::default()).unwrap()
        });
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert_eq!(
            fs::read_to_string(&p).unwrap(),
            "{}\n",
            "not while ann saves"
        );
        drop(held);
        t.join().unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "new\n");
    }

    #[test]
    fn write_atomic_refuses_to_clobber_unless_asked() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("out.jsonl");
        let perms = crate::perms::Derived::default();
        write_atomic(&p, b"one\n", false, &perms).unwrap();
        let e = write_atomic(&p, b"two\n", false, &perms).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read(&p).unwrap(), b"one\n");
        write_atomic(&p, b"two\n", true, &perms).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two\n");
        // no temporary files left behind
        assert_eq!(fs::read_dir(d.path()).unwrap().count(), 1);
    }
}
