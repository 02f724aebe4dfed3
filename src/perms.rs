//! The permissions of files written from other files (docs/teams.md, "Permissions").
//!
//! `split`, `merge`, `export -o` and `import` write a new file that holds (some of) their
//! sources' content. Such a file is never more open than its sources: it is created with
//! the sources' permission bits (read and write only; with several sources, the bits all
//! of them have), less the umask. A file it replaces keeps only the bits both it and the
//! sources have. A folder `split` creates is opened to a class (group, others) only when
//! the source's folder is open to it and the source file is readable or writable by it.

use std::fs;
use std::io;
use std::path::Path;

/// The permissions to give a file (and a folder) derived from some sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Derived {
    /// Mode bits of a new file (the umask still applies).
    pub file: u32,
    /// Mode bits of a new folder (the umask still applies).
    pub dir: u32,
}

impl Default for Derived {
    /// No sources: the usual 0666 / 0777 less the umask.
    fn default() -> Derived {
        Derived {
            file: 0o666,
            dir: 0o777,
        }
    }
}

impl Derived {
    /// The permissions for an output derived from `sources` (files or folders). A source
    /// whose permissions cannot be read is an error: guessing could open a private file.
    pub fn of_sources<P: AsRef<Path>>(sources: &[P]) -> io::Result<Derived> {
        let mut d = Derived::default();
        for s in sources {
            let s = s.as_ref();
            let m = mode_of(s)?;
            d.file &= m & 0o666;
            let folder = crate::store::parent_dir(s);
            d.dir &= mode_of(&folder)? & 0o777;
        }
        // A class (owner, group, others) gets into the folder only if it may use the
        // file: its read or write bit in `file`.
        let mut dir = 0o700;
        for shift in [3, 0] {
            if (d.file >> shift) & 0o6 != 0 {
                dir |= d.dir & (0o7 << shift);
            }
        }
        d.dir = dir;
        Ok(d)
    }

    /// Create the folder `dir` (and its missing parents) with [`Derived::dir`].
    pub fn create_dir_all(&self, dir: &Path) -> io::Result<()> {
        let mut b = fs::DirBuilder::new();
        b.recursive(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            b.mode(self.dir);
        }
        b.create(dir)
    }

    /// A temporary file in `dir`, named after `name`, created with [`Derived::file`]
    /// (less the umask).
    pub fn tempfile_in(&self, dir: &Path, name: &str) -> io::Result<tempfile::NamedTempFile> {
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".verdict-tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(fs::Permissions::from_mode(self.file));
        }
        // Said of the folder the output goes to, never of the temporary file's name
        // (tempfile's error names it: a path nobody asked for).
        builder.tempfile_in(dir).map_err(|e| {
            let why = match e.kind() {
                io::ErrorKind::NotFound => "no such folder".to_string(),
                io::ErrorKind::PermissionDenied => "the folder may not be written".to_string(),
                k => k.to_string(),
            };
            io::Error::new(e.kind(), format!("{why}: {}", dir.display()))
        })
    }

    /// Before a temporary file replaces `target`: when `target` exists, narrow the
    /// temporary file to the bits both `target` and the sources have (a file someone made
    /// private stays private; an open one does not stay open to a private file's content).
    pub fn narrow_to_replaced(&self, tmp: &Path, target: &Path) -> io::Result<()> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            if let Ok(old) = fs::metadata(target) {
                let mode = old.permissions().mode() & self.file & 0o666;
                fs::set_permissions(tmp, fs::Permissions::from_mode(mode))?;
            }
        }
        #[cfg(not(unix))]
        {
            let _ = (tmp, target);
        }
        Ok(())
    }
}

fn mode_of(p: &Path) -> io::Result<u32> {
    let meta =
        fs::metadata(p).map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", p.display())))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Ok(meta.permissions().mode())
    }
    #[cfg(not(unix))]
    {
        Ok(if meta.permissions().readonly() {
            0o444
        } else {
            0o666
        } | 0o111)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn chmod(p: &Path, m: u32) {
        fs::set_permissions(p, fs::Permissions::from_mode(m)).unwrap();
    }

    #[test]
    fn the_most_restrictive_source_wins_and_the_folder_follows_the_file() {
        let d = tempfile::tempdir().unwrap();
        let (a, b) = (d.path().join("a"), d.path().join("b"));
        fs::write(&a, "").unwrap();
        fs::write(&b, "").unwrap();
        chmod(d.path(), 0o755);
        chmod(&a, 0o644);
        chmod(&b, 0o640);
        assert_eq!(
            Derived::of_sources(&[&a, &b]).unwrap(),
            Derived {
                file: 0o640,
                dir: 0o750
            }
        );
        chmod(&b, 0o600);
        assert_eq!(
            Derived::of_sources(&[&a, &b]).unwrap(),
            Derived {
                file: 0o600,
                dir: 0o700
            }
        );
        // An executable source gives no executable output.
        chmod(&a, 0o755);
        assert_eq!(Derived::of_sources(&[&a]).unwrap().file, 0o644);
        // A missing source is an error, not a guess.
        assert!(Derived::of_sources(&[d.path().join("nope")]).is_err());
    }

    #[test]
    fn a_replaced_file_keeps_only_the_bits_both_allow() {
        let d = tempfile::tempdir().unwrap();
        let (tmp, target) = (d.path().join("t"), d.path().join("o"));
        fs::write(&tmp, "").unwrap();
        fs::write(&target, "").unwrap();
        chmod(&tmp, 0o600);
        chmod(&target, 0o644);
        let private = Derived {
            file: 0o600,
            dir: 0o700,
        };
        private.narrow_to_replaced(&tmp, &target).unwrap();
        assert_eq!(
            fs::metadata(&tmp).unwrap().permissions().mode() & 0o777,
            0o600
        );
        // A private target stays private under an open source.
        chmod(&tmp, 0o644);
        chmod(&target, 0o600);
        Derived::default()
            .narrow_to_replaced(&tmp, &target)
            .unwrap();
        assert_eq!(
            fs::metadata(&tmp).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
}
