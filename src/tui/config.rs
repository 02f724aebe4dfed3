//! The user's config (`config.toml` in the config directory) and the per-file resume
//! positions (in the data directory), both located with `directories`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Config {
    pub reviewer: Option<String>,
    /// dark | light | mono
    pub theme: Option<String>,
    /// auto | kitty | sixel | iterm2 | halfblocks | none
    pub image_protocol: Option<String>,
    /// Move to the next item after a C-VQA accept or reject (default: on).
    pub auto_advance: Option<bool>,
    /// Action name (or `context.action`) → keys, e.g. `accept = ["y"]`.
    pub keys: BTreeMap<String, Vec<String>>,
}

#[derive(Debug, Clone)]
pub struct Dirs {
    pub config_file: Option<PathBuf>,
    pub data_dir: Option<PathBuf>,
}

impl Dirs {
    /// `VERDICT_CONFIG_DIR` / `VERDICT_DATA_DIR` override the platform folders (tests use
    /// them to stay out of the user's home).
    pub fn locate() -> Dirs {
        let proj = directories::ProjectDirs::from("", "", "verdict");
        let config_dir = std::env::var_os("VERDICT_CONFIG_DIR")
            .map(PathBuf::from)
            .or_else(|| proj.as_ref().map(|p| p.config_dir().to_path_buf()));
        let data_dir = std::env::var_os("VERDICT_DATA_DIR")
            .map(PathBuf::from)
            .or_else(|| proj.as_ref().map(|p| p.data_dir().to_path_buf()));
        Dirs {
            config_file: config_dir.map(|d| d.join("config.toml")),
            data_dir,
        }
    }

    pub fn log_file(&self) -> Option<PathBuf> {
        self.data_dir.as_ref().map(|d| d.join("verdict.log"))
    }

    fn positions_file(&self) -> Option<PathBuf> {
        self.data_dir.as_ref().map(|d| d.join("positions.json"))
    }

    /// The session file of a results file and reviewer: `sessions/<hash>.json` in the data
    /// directory (the hash of the file's absolute path and the reviewer's name).
    fn session_file(&self, file: &Path, reviewer: &str) -> Option<PathBuf> {
        let h = crate::hash::fnv1a64(position_key(file, reviewer).as_bytes());
        self.data_dir
            .as_ref()
            .map(|d| d.join("sessions").join(format!("{h:016x}.json")))
    }
}

/// Create a folder of the data directory (and its parents) readable by the user only:
/// what it holds (notes, skipped items, the log) is the reviewer's.
pub fn create_private_dir(d: &Path) -> std::io::Result<()> {
    let mut b = fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(d)
}

/// Open the log for appending, created readable by the user only (an older log that
/// others could read is narrowed too).
pub fn open_log(path: &Path) -> std::io::Result<fs::File> {
    if let Some(d) = path.parent() {
        create_private_dir(d)?;
    }
    let mut o = fs::OpenOptions::new();
    o.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    let f = o.open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if f.metadata()?.permissions().mode() & 0o077 != 0 {
            f.set_permissions(fs::Permissions::from_mode(0o600))?;
        }
    }
    Ok(f)
}

/// Read the config; a missing file is the default, a broken one is an error.
pub fn load_config(path: Option<&Path>) -> anyhow::Result<Config> {
    let Some(path) = path else {
        return Ok(Config::default());
    };
    match fs::read_to_string(path) {
        Ok(text) => toml::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
        Err(e) => Err(anyhow::anyhow!("{}: {e}", path.display())),
    }
}

/// Where a reviewer left a file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Position {
    pub index: usize,
    pub id: Option<String>,
}

fn position_key(file: &Path, reviewer: &str) -> String {
    let abs = fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    format!("{}\u{1f}{reviewer}", abs.display())
}

pub fn load_position(dirs: &Dirs, file: &Path, reviewer: &str) -> Option<Position> {
    let text = fs::read_to_string(dirs.positions_file()?).ok()?;
    let map: BTreeMap<String, Position> = serde_json::from_str(&text).ok()?;
    map.get(&position_key(file, reviewer)).cloned()
}

pub fn save_position(
    dirs: &Dirs,
    file: &Path,
    reviewer: &str,
    pos: Position,
) -> std::io::Result<()> {
    let Some(pf) = dirs.positions_file() else {
        return Ok(());
    };
    let mut map: BTreeMap<String, Position> = fs::read_to_string(&pf)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    map.insert(position_key(file, reviewer), pos);
    write_private_json(&pf, &map)
}

/// Replace `path` atomically (temporary file, rename) with `value` as JSON, readable by
/// the user only, in a folder only the user may enter.
fn write_private_json<T: Serialize + ?Sized>(path: &Path, value: &T) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    create_private_dir(dir)?;
    // A temporary file is created readable by the user only (tempfile's 0600).
    let tmp = tempfile::NamedTempFile::new_in(dir)?;
    serde_json::to_writer(&tmp, value).map_err(std::io::Error::other)?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// An item named by its index and id (found again by id when the file's order changed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ItemRef {
    pub index: usize,
    pub id: Option<String>,
}

/// One verdict change, for undo across restarts: my review of the item before and after.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedChange {
    pub item: ItemRef,
    pub before: Option<serde_json::Value>,
    pub after: Option<serde_json::Value>,
    /// Made with the change before it, and undone with it: the same verdict on an item
    /// that holds the same answer (issue 39). Absent (false) in session files before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub joined: bool,
}

/// What a reviewer's session on a file leaves for the next one, besides the verdicts
/// (which are in the file and the journal): the items skipped and the undo history. Kept
/// in the data directory, never beside the results file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Session {
    pub skipped: Vec<ItemRef>,
    /// Oldest first.
    pub undo: Vec<SavedChange>,
}

/// The undo history kept across restarts is capped at this many changes.
pub const SAVED_UNDO: usize = 200;

pub fn load_session(dirs: &Dirs, file: &Path, reviewer: &str) -> Session {
    dirs.session_file(file, reviewer)
        .and_then(|p| fs::read_to_string(p).ok())
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// Replace the session file atomically (temporary file, rename), readable by the user
/// only: it holds notes.
pub fn save_session(
    dirs: &Dirs,
    file: &Path,
    reviewer: &str,
    session: &Session,
) -> std::io::Result<()> {
    let Some(pf) = dirs.session_file(file, reviewer) else {
        return Ok(());
    };
    write_private_json(&pf, session)
}

/// The reviewer's name: `--reviewer`, else the config, else the login name.
pub fn reviewer_name(flag: Option<&str>, config: &Config) -> String {
    let env = |k: &str| std::env::var(k).ok().filter(|s| !s.trim().is_empty());
    flag.map(str::to_string)
        .or_else(|| config.reviewer.clone())
        .or_else(|| env("USER"))
        .or_else(|| env("LOGNAME"))
        .or_else(|| env("USERNAME"))
        .or_else(account_name)
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| "reviewer".into())
}

/// The name of this process's account in the password database (what `id -un` says).
#[cfg(unix)]
fn account_name() -> Option<String> {
    let mut buf = vec![0u8; 16 * 1024];
    // SAFETY: getpwuid_r writes into `pw` and `buf` (of the size given) only; the name it
    // points to lives in `buf`, read before `buf` goes.
    unsafe {
        let mut pw: libc::passwd = std::mem::zeroed();
        let mut out: *mut libc::passwd = std::ptr::null_mut();
        let rc = libc::getpwuid_r(
            libc::geteuid(),
            &mut pw,
            buf.as_mut_ptr().cast(),
            buf.len(),
            &mut out,
        );
        if rc != 0 || out.is_null() || pw.pw_name.is_null() {
            return None;
        }
        std::ffi::CStr::from_ptr(pw.pw_name)
            .to_str()
            .ok()
            .map(str::to_string)
    }
}

#[cfg(not(unix))]
fn account_name() -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 19: with `USER` and `LOGNAME` unset (cron, some containers, `env -i`), the
    /// reviewer was named `reviewer` though the account has a name: it is the account's
    /// name (`id -un`), from `LOGNAME` or the password database.
    #[cfg(unix)]
    #[test]
    fn without_user_the_reviewer_is_the_accounts_name() {
        crate::test_support::run_child(
            "tui::config::tests::child_names_the_reviewer_without_user",
            &[("VERDICT_TEST_CHILD", Path::new("1"))],
        );
    }

    #[cfg(unix)]
    #[test]
    #[ignore = "run by without_user_the_reviewer_is_the_accounts_name"]
    fn child_names_the_reviewer_without_user() {
        if std::env::var_os("VERDICT_TEST_CHILD").is_none() {
            return;
        }
        let id = std::process::Command::new("id")
            .arg("-un")
            .output()
            .unwrap();
        let account = String::from_utf8(id.stdout).unwrap().trim().to_string();
        // SAFETY: this child process runs this one test on one thread.
        unsafe {
            std::env::remove_var("USER");
            std::env::remove_var("USERNAME");
            std::env::set_var("LOGNAME", "logname-x");
        }
        assert_eq!(reviewer_name(None, &Config::default()), "logname-x");
        unsafe { std::env::remove_var("LOGNAME") };
        assert_eq!(reviewer_name(None, &Config::default()), account);
    }

    #[cfg(unix)]
    fn mode(p: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[cfg(unix)]
    #[test]
    fn data_dir_files_are_private() {
        let d = tempfile::tempdir().unwrap();
        let data = d.path().join("data");
        let dirs = Dirs {
            config_file: None,
            data_dir: Some(data.clone()),
        };
        let f = d.path().join("r.jsonl");
        fs::write(&f, "").unwrap();
        save_position(&dirs, &f, "ann", Position { index: 1, id: None }).unwrap();
        save_session(&dirs, &f, "ann", &Session::default()).unwrap();
        let log = dirs.log_file().unwrap();
        drop(open_log(&log).unwrap());
        assert_eq!(mode(&data), 0o700);
        assert_eq!(mode(&data.join("sessions")), 0o700);
        assert_eq!(mode(&data.join("positions.json")), 0o600);
        assert_eq!(mode(dirs.session_file(&f, "ann").as_ref().unwrap()), 0o600);
        assert_eq!(mode(&log), 0o600);
        // an older log that others could read is narrowed
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&log, fs::Permissions::from_mode(0o644)).unwrap();
        drop(open_log(&log).unwrap());
        assert_eq!(mode(&log), 0o600);
    }

    #[test]
    fn positions_round_trip() {
        let d = tempfile::tempdir().unwrap();
        let dirs = Dirs {
            config_file: None,
            data_dir: Some(d.path().join("data")),
        };
        let f = d.path().join("r.jsonl");
        fs::write(&f, "").unwrap();
        assert_eq!(load_position(&dirs, &f, "ann"), None);
        save_position(
            &dirs,
            &f,
            "ann",
            Position {
                index: 7,
                id: Some("x".into()),
            },
        )
        .unwrap();
        save_position(&dirs, &f, "bob", Position { index: 2, id: None }).unwrap();
        assert_eq!(load_position(&dirs, &f, "ann").unwrap().index, 7);
        assert_eq!(load_position(&dirs, &f, "bob").unwrap().index, 2);
    }

    #[test]
    fn sessions_round_trip_per_file_and_reviewer() {
        let d = tempfile::tempdir().unwrap();
        let dirs = Dirs {
            config_file: None,
            data_dir: Some(d.path().join("data")),
        };
        let f = d.path().join("r.jsonl");
        fs::write(&f, "").unwrap();
        assert_eq!(load_session(&dirs, &f, "ann"), Session::default());
        let s = Session {
            skipped: vec![ItemRef {
                index: 3,
                id: Some("x".into()),
            }],
            undo: vec![],
        };
        save_session(&dirs, &f, "ann", &s).unwrap();
        assert_eq!(load_session(&dirs, &f, "ann"), s);
        assert_eq!(load_session(&dirs, &f, "bob"), Session::default());
    }

    #[test]
    fn config_parses_keys() {
        let c: Config =
            toml::from_str("reviewer = \"ann\"\ntheme = \"light\"\n[keys]\naccept = [\"y\"]\n")
                .unwrap();
        assert_eq!(c.reviewer.as_deref(), Some("ann"));
        assert_eq!(c.keys["accept"], vec!["y"]);
        assert_eq!(reviewer_name(Some("zed"), &c), "zed");
        assert_eq!(reviewer_name(None, &c), "ann");
    }
}
