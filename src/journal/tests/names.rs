//! Which journals are a file's, their names and paths, who may read them, and stale ones.

use super::*;

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

/// A journal path that is a symbolic link, a FIFO or a hard link is never written,
/// read, emptied or waited on.
#[cfg(unix)]
#[test]
fn journal_paths_that_are_not_plain_files_are_refused() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("r.jsonl");
    fs::write(&p, "{\"id\":\"a\"}\n").unwrap();
    let victim = d.path().join("victim");
    let line = serde_json::to_string(&rec(0, "a", "x", json!({"verdict": "v"}))).unwrap();
    fs::write(&victim, format!("{line}\n")).unwrap();
    let link = journal_path(&p, "sym");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let hard = journal_path(&p, "hard");
    fs::hard_link(&victim, &hard).unwrap();
    let fifo = journal_path(&p, "fifo");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: mkfifo with a valid C string.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    for (path, why) in [
        (&link, "a symbolic link"),
        (&hard, "a file with other hard links"),
        (&fifo, "not a regular file"),
    ] {
        let e = open_append(path, 0o600, None).unwrap_err();
        assert_eq!(unsafe_reason(&e).as_deref(), Some(why), "{path:?}");
        assert!(!is_live(path));
        let mut j = Journal::at(path.clone());
        assert!(j.append(&rec(0, "a", "x", json!({}))).is_err());
    }
    let (s, paths, rep) = open_with_journal(&p).unwrap();
    assert!(paths.is_empty(), "{paths:?}");
    assert_eq!(rep.applied, 0);
    assert_eq!(rep.unreadable.len(), 3, "{rep:?}");
    assert!(
        rep.unreadable
            .iter()
            .any(|u| u.contains("it is a symbolic link"))
    );
    assert!(s.item(0).unwrap().reviews.is_empty());
    assert_eq!(fs::read_to_string(&victim).unwrap(), format!("{line}\n"));
}

/// Journals and their copies are no more readable than the results file; a new
/// journal's folder is synced (its name is durable).
#[cfg(unix)]
#[test]
fn side_files_are_no_more_readable_than_the_results_file() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("r.jsonl");
    fs::write(&p, "{\"id\":\"a\"}\n").unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o600)).unwrap();
    let mode = |q: &Path| fs::metadata(q).unwrap().permissions().mode() & 0o777;
    let mut j = Journal::for_session(&p, "ann").unwrap();
    j.append(&rec(0, "a", "ann", json!({"verdict": "secret"})))
        .unwrap();
    assert_eq!(mode(j.path()) & 0o077, 0, "{:o}", mode(j.path()));
    let aside = j.keep_aside(side_file_mode(&p)).unwrap();
    assert_eq!(mode(&aside) & 0o077, 0, "{:o}", mode(&aside));
    drop(j);
    // a journal left readable by all is restricted when a session takes it
    let other = journal_path(&p, "bob");
    fs::write(&other, "").unwrap();
    fs::set_permissions(&other, fs::Permissions::from_mode(0o644)).unwrap();
    let _bob = Journal::for_session(&p, "bob").unwrap();
    assert_eq!(mode(&other), 0o600);
}

/// A journal left behind is removed only under its lock; a session that started on it
/// meanwhile keeps it, and a session opened on a removed journal writes to the new one.
#[test]
fn a_stale_journal_is_removed_only_under_its_lock() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("r.jsonl");
    fs::write(&p, "{\"id\":\"a\"}\n").unwrap();
    let jp = journal_path(&p, "ann");
    fs::write(&jp, "").unwrap();
    let mut live = Journal::for_session(&p, "ann").unwrap();
    assert!(
        !remove_if_stale(&jp).unwrap(),
        "a live session's journal stays"
    );
    assert!(jp.exists());
    // the live session's journal is replaced under it: its next open follows the name
    drop(live);
    // Another test of this binary may be starting a child process right now: until it
    // execs, the child holds a copy of every descriptor, and so the lock, for a moment.
    let gone = (0..400).any(|_| {
        remove_if_stale(&jp).unwrap() || {
            std::thread::sleep(std::time::Duration::from_millis(5));
            false
        }
    });
    assert!(gone, "no session holds it: it is removed");
    assert!(!jp.exists());
    live = Journal::for_session(&p, "ann").unwrap();
    live.append(&rec(0, "a", "ann", json!({"verdict": "v"})))
        .unwrap();
    assert_eq!(Journal::at(jp.clone()).read().unwrap().0.len(), 1);
    assert!(same_file(live.file.as_ref().unwrap(), &jp));
}
