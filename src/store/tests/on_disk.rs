//! The file on disk: temporaries, a file cut or rewritten under the mapping, permissions, links.

use super::*;

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

/// Another program truncates the file while it is mapped: reading the lost items
/// gives unreadable items instead of a SIGBUS, and saving is refused.
#[cfg(unix)]
#[test]
fn a_file_truncated_under_us_does_not_crash_and_is_not_saved_over() {
    let line = format!("{{\"id\":\"a\",\"pad\":\"{}\"}}\n", "x".repeat(5000));
    let content = line.repeat(8);
    let (_d, p) = tmpfile("t.jsonl", content.as_bytes());
    let mut s = Store::open_mapping_from(p.clone(), 0, Scan::Whole).unwrap();
    assert!(s.buf.file().is_some(), "opened files are mapped");
    fs::OpenOptions::new()
        .write(true)
        .open(&p)
        .unwrap()
        .set_len(100)
        .unwrap();
    // Reading the lost pages is safe (zeros), whether or not the change is seen first.
    assert_eq!(black_box(&s.buf[..])[content.len() - 1], 0);
    assert!(s.buf.damaged());
    assert!(matches!(s.item(7), Err(ItemError::ChangedOnDisk)));
    s.set_review(0, "me", Some(serde_json::json!({}))).ok();
    assert!(matches!(s.save(), Err(StoreError::Conflict { .. })));
    assert_eq!(fs::metadata(&p).unwrap().len(), 100);
}

/// An item's text handed to another thread (`Store::raw_shared`: the IO worker works out
/// an id-less item's content key from it) reads as `raw` does: the item's bytes, an
/// edit's text; and nothing once another program has rewritten the mapped file in place
/// (the bytes at its offsets are no longer the item's), as `raw` then refuses.
#[cfg(unix)]
#[test]
fn an_items_shared_text_reads_as_raw_and_not_after_a_change_in_place() {
    let content = b"{\"q\":\"a\"}\n{\"q\":\"b\"}\n";
    let (_d, p) = tmpfile("t.jsonl", content);
    let mut s = Store::open_mapping_from(p.clone(), 0, Scan::Whole).unwrap();
    s.set_review(0, "me", Some(serde_json::json!({}))).unwrap();
    let (edited, read) = (s.raw_shared(0).unwrap(), s.raw_shared(1).unwrap());
    assert_eq!(edited.as_str(), Some(s.raw(0).unwrap()));
    assert_eq!(read.as_str(), Some("{\"q\":\"b\"}"));
    assert!(matches!(s.raw_shared(2), Err(ItemError::NoSuchItem(2))));
    std::thread::sleep(std::time::Duration::from_millis(25));
    fs::write(&p, b"{\"q\":\"new\"}\n{\"q\":\"c\"}\n").unwrap();
    assert_eq!(
        read.as_str(),
        None,
        "the bytes at its offsets are not the item's"
    );
    assert!(edited.as_str().unwrap().contains("\"me\""));
}

/// A mapped file rewritten in place (truncate and write, as `open(path, "w")` does)
/// while open: its items are reported as changed, not shown from the new bytes at the
/// old offsets; edits stay readable; saving is refused.
#[cfg(unix)]
#[test]
fn a_mapped_file_rewritten_in_place_shows_no_mixed_content() {
    let content = b"{\"id\":\"a\"}\n{\"id\":\"b\"}\n";
    let (_d, p) = tmpfile("m.jsonl", content);
    let mut s = Store::open_mapping_from(p.clone(), 0, Scan::Whole).unwrap();
    assert_eq!(s.item(1).unwrap().id.as_deref(), Some("b"));
    s.set_review(0, "me", Some(serde_json::json!({}))).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(25));
    fs::write(&p, b"{\"id\":\"new\"}\n{\"id\":\"c\"}\n").unwrap();
    assert!(matches!(s.item(1), Err(ItemError::ChangedOnDisk)));
    assert!(s.raw(0).unwrap().contains("\"me\""));
    assert!(matches!(s.save(), Err(StoreError::Conflict { .. })));
    // our own save (a rename over the mapped file) is not a change in place
    let (_d3, p3) = tmpfile("own.jsonl", content);
    let mut s3 = Store::open_mapping_from(p3.clone(), 0, Scan::Whole).unwrap();
    let view = s3.clone();
    s3.set_review(0, "me", Some(serde_json::json!({}))).unwrap();
    s3.save().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(25));
    assert_eq!(view.item(1).unwrap().id.as_deref(), Some("b"));
    assert_eq!(s3.item(1).unwrap().id.as_deref(), Some("b"));
    s3.set_review(1, "me", Some(serde_json::json!({}))).unwrap();
    s3.save().unwrap();
    // small files are read, not mapped: they keep showing what was read
    let (_d2, p2) = tmpfile("r.jsonl", content);
    let s2 = Store::open(&p2).unwrap();
    assert!(s2.buf.file().is_none());
    fs::write(&p2, b"{\"id\":\"new\"}\n{\"id\":\"c\"}\n").unwrap();
    assert_eq!(s2.item(1).unwrap().id.as_deref(), Some("b"));
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
