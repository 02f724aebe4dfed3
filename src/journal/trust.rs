//! Who may put a side file beside a results file (docs/format.md, "Who may write beside a
//! file"). A folder others may write (a sticky one like /tmp, a team folder open to a
//! group) lets anyone create a file named like a journal, a kept-aside copy or the save
//! lock. Such a file is used only when the user who owns it could have written the results
//! file itself, as OpenSSH refuses a configuration file others can write.

use std::fs::Metadata;
use std::path::Path;

/// Why the side file with metadata `side` must not be read into (or written beside) the
/// results file with metadata `results`, if it must not: its owner may not write the
/// results file, or it may be written by more users than the results file may.
pub fn distrust(side: &Metadata, results: &Metadata) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let owner = side.uid();
        if !could_write(owner, results) {
            return Some(format!(
                "owned by {}, who may not write the results file",
                user_name(owner)
            ));
        }
        let extra = side.mode() & 0o022 & !(results.mode() & 0o022);
        if extra != 0 {
            return Some(format!(
                "writable by {} (the results file is not)",
                if extra & 0o002 != 0 {
                    "every user"
                } else {
                    "its group"
                }
            ));
        }
        None
    }
    #[cfg(not(unix))]
    {
        let _ = (side, results);
        None
    }
}

/// [`distrust`] of the file open at `side` against the results file at `results` (a
/// results file that cannot be looked at trusts only the user's own files).
pub fn distrust_file(side: &std::fs::File, results: &Path) -> std::io::Result<Option<String>> {
    let meta = side.metadata()?;
    Ok(match std::fs::metadata(results) {
        Ok(r) => distrust(&meta, &r),
        Err(_) => (!is_mine(&meta)).then(|| "not the user's own file".to_string()),
    })
}

/// Is the file owned by the user running verdict?
pub fn is_mine(meta: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        // SAFETY: geteuid has no preconditions.
        meta.uid() == unsafe { libc::geteuid() }
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        true
    }
}

/// Could the user `uid` have written the file with metadata `results`: its owner, the
/// superuser, a member of its group when the group may write it, anyone when everyone may?
/// The user running verdict trusts its own side files too (they are its own verdicts, even
/// on a file it may only read).
#[cfg(unix)]
fn could_write(uid: u32, results: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    uid == me
        || uid == results.uid()
        || uid == 0
        || results.mode() & 0o002 != 0
        || (results.mode() & 0o020 != 0 && in_group(uid, results.gid()))
}

/// Is `uid` a member of group `gid` (its primary group, or listed in the group database)?
#[cfg(unix)]
fn in_group(uid: u32, gid: u32) -> bool {
    let Some((name, primary)) = passwd_entry(uid) else {
        return false;
    };
    if primary == gid {
        return true;
    }
    let Ok(cname) = std::ffi::CString::new(name) else {
        return false;
    };
    let mut n: libc::c_int = 64;
    loop {
        let mut groups = vec![0 as libc::gid_t; n as usize];
        // SAFETY: `groups` holds `n` entries; getgrouplist writes at most that many and
        // sets `n` to the number it needs.
        let rc =
            unsafe { libc::getgrouplist(cname.as_ptr(), primary, groups.as_mut_ptr(), &mut n) };
        if rc >= 0 {
            return groups[..n as usize].contains(&gid);
        }
        if n <= groups.len() as libc::c_int || n > 65536 {
            return false;
        }
    }
}

/// The user's name and primary group, from the user database.
#[cfg(unix)]
fn passwd_entry(uid: u32) -> Option<(String, u32)> {
    let mut buf = vec![0 as libc::c_char; 16384];
    // SAFETY: a zeroed passwd is a valid out-parameter for getpwuid_r.
    let mut pw: libc::passwd = unsafe { std::mem::zeroed() };
    let mut res: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: every pointer is valid for the call; `buf` outlives the use of `pw`'s fields.
    let rc = unsafe { libc::getpwuid_r(uid, &mut pw, buf.as_mut_ptr(), buf.len(), &mut res) };
    if rc != 0 || res.is_null() || pw.pw_name.is_null() {
        return None;
    }
    // SAFETY: getpwuid_r succeeded: pw_name points to a NUL-terminated string in `buf`.
    let name = unsafe { std::ffi::CStr::from_ptr(pw.pw_name) }
        .to_string_lossy()
        .into_owned();
    Some((name, pw.pw_gid))
}

/// The name of the user owning a file, for messages.
pub fn owner_name(meta: &Metadata) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        user_name(meta.uid())
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        "another user".into()
    }
}

/// The user's name for messages (`uid N` when it has none).
#[cfg(unix)]
pub fn user_name(uid: u32) -> String {
    passwd_entry(uid).map_or_else(|| format!("uid {uid}"), |(n, _)| n)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn chmod(p: &Path, m: u32) {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
    }

    /// The user's own side files are trusted unless others may write them and the
    /// results file's writers may not.
    #[test]
    fn a_side_file_more_writable_than_the_results_file_is_not_trusted() {
        let d = tempfile::tempdir().unwrap();
        let (r, s) = (d.path().join("r"), d.path().join("s"));
        std::fs::write(&r, "").unwrap();
        std::fs::write(&s, "").unwrap();
        let check = |rm, sm| {
            chmod(&r, rm);
            chmod(&s, sm);
            distrust(
                &std::fs::metadata(&s).unwrap(),
                &std::fs::metadata(&r).unwrap(),
            )
        };
        assert_eq!(check(0o600, 0o600), None);
        assert_eq!(
            check(0o600, 0o644),
            None,
            "more readable is not more writable"
        );
        assert_eq!(check(0o664, 0o664), None);
        assert_eq!(check(0o666, 0o666), None);
        assert_eq!(
            check(0o600, 0o666).as_deref(),
            Some("writable by every user (the results file is not)")
        );
        assert_eq!(
            check(0o644, 0o664).as_deref(),
            Some("writable by its group (the results file is not)")
        );
    }
}
