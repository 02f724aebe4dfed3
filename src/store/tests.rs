use super::*;
use crate::bench::Items;
use std::hint::black_box;
use std::io::Write;
use std::sync::atomic::AtomicBool;

fn tmpfile(name: &str, content: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join(name);
    fs::write(&p, content).unwrap();
    (d, p)
}

#[test]
fn jsonl_index_skips_blank_lines_and_handles_crlf() {
    let (spans, lines) = index_jsonl(b"{\"a\":1}\r\n\n  \n{\"b\":2}");
    assert_eq!(spans, vec![0..7, 13..20]);
    assert_eq!(lines, vec![1, 4]);
}

#[test]
fn untouched_lines_are_byte_identical() {
    let content = b"{\"id\":\"a\",  \"x\": 1.0, \"n\":1e3}\r\n\n{\"id\":\"b\",\"z\":{\"k\":[1,2]},\"y\":0.10}\n{\"id\":\"c\"}";
    let (_d, p) = tmpfile("s.jsonl", content);
    let mut s = Store::open(&p).unwrap();
    assert_eq!(s.len(), 3);
    s.set_review(
        1,
        "ann",
        Some(serde_json::json!({"at": "2026-01-01T00:00:00Z"})),
    )
    .unwrap();
    s.save().unwrap();
    let out = fs::read(&p).unwrap();
    let text = String::from_utf8(out.clone()).unwrap();
    assert!(text.starts_with("{\"id\":\"a\",  \"x\": 1.0, \"n\":1e3}\r\n\n"));
    assert!(text.ends_with("\n{\"id\":\"c\"}"));
    // the edited line keeps key order and number spelling
    assert!(
        text.contains(
            r#"{"id":"b","z":{"k":[1,2]},"y":0.10,"reviews":{"ann":{"at":"2026-01-01T00:00:00Z"}}}"#
        ),
        "{text}"
    );
    // removing the review restores the original bytes
    let mut s = Store::open(&p).unwrap();
    s.set_review(1, "ann", None).unwrap();
    s.save().unwrap();
    assert_eq!(fs::read(&p).unwrap(), content);
}

/// Grading touches only `reviews.<me>`: every other byte of the edited item stays as
/// it was (number spellings, escapes, duplicate keys, spacing, other reviewers), in
/// JSONL and in the JSON document form, and removing the review restores the item.
#[test]
fn grading_keeps_every_other_byte_of_the_item() {
    let items = [
        r#"{"id":"a","n":1e3,"m":1E+2,"k":-0.0e-0,"t":"caf\u00e9 \ud83d\ude00","d":1,"d":2,"reviews":{"bob":{"x":1e3,"s":"\u00e9"}}}"#,
        r#"{ "id" : "b" , "big" : 12345678901234567890123 , "f" : 1.50 }"#,
        r#"{}"#,
        r#"{"id":"d","reviews":{}}"#,
    ];
    let me = || Some(serde_json::json!({"at": "2026-01-01T00:00:00Z", "v": 1}));
    // JSONL with CRLF lines and no final newline
    let content = items.join("\r\n");
    let (_d, p) = tmpfile("s.jsonl", content.as_bytes());
    let mut s = Store::open(&p).unwrap();
    for i in 0..items.len() {
        s.set_review(i, "me", me()).unwrap();
    }
    s.save().unwrap();
    let text = fs::read_to_string(&p).unwrap();
    let lines: Vec<&str> = text.split("\r\n").collect();
    assert_eq!(lines.len(), 4, "{text:?}");
    let mine = r#""me":{"at":"2026-01-01T00:00:00Z","v":1}"#;
    assert_eq!(
        lines[0],
        format!("{},{mine}}}}}", &items[0][..items[0].len() - 2])
    );
    // (the item's own ` : `, ` , ` and padding inside braces, in what is inserted too)
    assert_eq!(
        lines[1],
        r#"{ "id" : "b" , "big" : 12345678901234567890123 , "f" : 1.50 , "reviews" : { "me" : { "at" : "2026-01-01T00:00:00Z" , "v" : 1 } } }"#
    );
    assert_eq!(lines[2], format!(r#"{{"reviews":{{{mine}}}}}"#));
    assert_eq!(lines[3], format!(r#"{{"id":"d","reviews":{{{mine}}}}}"#));
    assert!(!text.ends_with('\n'));
    for i in 0..items.len() {
        s.set_review(i, "me", None).unwrap();
    }
    s.save().unwrap();
    assert_eq!(fs::read_to_string(&p).unwrap(), content);
    // a second reviewer's review goes beside the first, and is replaced in place
    let mut s = Store::open(&p).unwrap();
    s.set_review(0, "bob", Some(serde_json::json!({"x": 2})))
        .unwrap();
    assert_eq!(
        s.raw(0).unwrap(),
        items[0].replace(r#""bob":{"x":1e3,"s":"\u00e9"}"#, r#""bob":{"x":2}"#)
    );

    // the JSON document form, pretty-printed items
    let doc = format!(
        "{{\n  \"verdict\": 1,\n  \"items\": [\n    {{\n      \"id\": \"a\",\n      \"n\": 1e3,\n      \"m\": 1E+2,\n      \"t\": \"\\u00e9\"\n    }},\n    {}\n  ]\n}}\n",
        items[1]
    );
    let (_d2, p2) = tmpfile("s.json", doc.as_bytes());
    let mut s = Store::open(&p2).unwrap();
    s.set_review(0, "me", me()).unwrap();
    s.set_review(1, "me", me()).unwrap();
    s.save().unwrap();
    let text = fs::read_to_string(&p2).unwrap();
    assert!(
            text.contains("      \"t\": \"\\u00e9\",\n      \"reviews\": {\n        \"me\": {\n          \"at\": \"2026-01-01T00:00:00Z\",\n          \"v\": 1\n        }\n      }\n    },"),
            "{text}"
        );
    assert!(text.contains("\"n\": 1e3,\n      \"m\": 1E+2,"), "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["items"][1]["reviews"]["me"]["v"], 1);
    s.set_review(0, "me", None).unwrap();
    s.set_review(1, "me", None).unwrap();
    s.save().unwrap();
    assert_eq!(fs::read_to_string(&p2).unwrap(), doc);
}

/// Two `reviews` keys, or two reviews of the reviewer: which one counts is not ours to
/// guess; refused, the item untouched.
#[test]
fn duplicate_reviews_keys_are_refused() {
    let mut s = Store::from_bytes(
        "t.jsonl".into(),
        Format::Jsonl,
        br#"{"id":"a","reviews":{},"reviews":{"me":1}}
{"id":"b","reviews":{"me":{},"me":{"x":1}}}
"#
        .to_vec(),
    )
    .unwrap();
    assert!(s.set_review(0, "me", Some(serde_json::json!({}))).is_err());
    assert!(s.set_review(1, "me", None).is_err());
    assert!(!s.is_dirty());
}

#[test]
fn saves_after_saves_write_the_current_content() {
    let content = b"{\"id\":\"a\", \"x\": 1.0}\n{\"id\":\"b\"}\n";
    let (_d, p) = tmpfile("s.jsonl", content);
    let mut s = Store::open(&p).unwrap();
    s.set_review(0, "r", Some(serde_json::json!({"n": 1})))
        .unwrap();
    s.save().unwrap();
    assert!(!s.is_dirty());
    // the same verdict again changes nothing
    s.set_review(0, "r", Some(serde_json::json!({"n": 1})))
        .unwrap();
    assert!(!s.is_dirty());
    s.set_review(1, "r", Some(serde_json::json!({"n": 2})))
        .unwrap();
    s.save().unwrap();
    let text = fs::read_to_string(&p).unwrap();
    assert!(
        text.contains(r#""reviews":{"r":{"n":1}}"#) && text.contains(r#""reviews":{"r":{"n":2}}"#),
        "{text}"
    );
    // reverting a saved edit writes the original bytes back
    s.set_review(0, "r", None).unwrap();
    s.set_review(1, "r", None).unwrap();
    assert!(s.is_dirty());
    s.save().unwrap();
    assert_eq!(fs::read(&p).unwrap(), content);
    assert_eq!(Store::open(&p).unwrap().raw(0).unwrap(), s.raw(0).unwrap());
}

/// An empty set (or any index past the end): errors, never a panic.
#[test]
fn an_index_past_the_end_is_an_error_not_a_panic() {
    for (name, content) in [
        ("e.jsonl", &b""[..]),
        ("b.jsonl", b"\n  \n"),
        ("d.json", br#"{"verdict":1,"items":[]}"#),
    ] {
        let (_d, p) = tmpfile(name, content);
        let mut s = Store::open(&p).unwrap();
        assert!(s.is_empty());
        assert_eq!(s.raw(0), Err(ItemError::NoSuchItem(0)));
        assert_eq!(s.raw_bytes(0), None);
        assert!(matches!(s.item(0), Err(ItemError::NoSuchItem(0))));
        assert!(matches!(s.value(0), Err(ItemError::NoSuchItem(0))));
        assert!(s.set_review(0, "me", Some(serde_json::json!({}))).is_err());
        assert_eq!(s.line(0), 0);
        assert_eq!(s.fallback_id(0), "#1");
        assert!(!s.is_dirty());
        s.save().unwrap();
        assert_eq!(fs::read(&p).unwrap(), content);
    }
}

#[test]
fn undoing_an_edit_drops_it() {
    let (_d, p) = tmpfile("s.jsonl", b"{\"id\":\"a\"}\n");
    let mut s = Store::open(&p).unwrap();
    s.set_review(0, "r", Some(serde_json::json!({}))).unwrap();
    assert!(s.is_dirty());
    s.set_review(0, "r", None).unwrap();
    assert!(!s.is_dirty());
}

#[test]
fn json_document_keeps_other_keys_and_layout() {
    let content = "{\n  \"verdict\": 1,\n  \"title\": \"t\",\n  \"items\": [\n    {\"id\": \"a\", \"v\": 1.50},\n    {\n      \"id\": \"b\"\n    }\n  ],\n  \"zz\": [1e2]\n}\n";
    let (_d, p) = tmpfile("s.json", content.as_bytes());
    let mut s = Store::open(&p).unwrap();
    assert_eq!(s.format(), Format::Json);
    assert_eq!(s.len(), 2);
    assert_eq!(s.line(1), 6);
    s.set_review(1, "r", Some(serde_json::json!({"note": "x"})))
        .unwrap();
    s.save().unwrap();
    let text = fs::read_to_string(&p).unwrap();
    assert!(text.starts_with("{\n  \"verdict\": 1,\n  \"title\": \"t\",\n  \"items\": [\n    {\"id\": \"a\", \"v\": 1.50},\n    {\n      \"id\": \"b\",\n      \"reviews\""), "{text}");
    assert!(text.ends_with("  ],\n  \"zz\": [1e2]\n}\n"));
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["items"][1]["reviews"]["r"]["note"], "x");
}

#[test]
fn conflict_is_refused() {
    let (_d, p) = tmpfile("s.jsonl", b"{\"id\":\"a\"}\n");
    let mut s = Store::open(&p).unwrap();
    s.set_review(0, "r", Some(serde_json::json!({}))).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(10));
    fs::write(&p, b"{\"id\":\"a\"}\n{\"id\":\"other\"}\n").unwrap();
    assert!(matches!(s.save(), Err(StoreError::Conflict { .. })));
    assert_eq!(
        fs::read(&p).unwrap(),
        b"{\"id\":\"a\"}\n{\"id\":\"other\"}\n"
    );
}

/// `rsync --inplace -t`: same size, bytes changed in place, mtime put back.
#[test]
fn an_in_place_edit_with_its_mtime_put_back_is_a_conflict() {
    let (_d, p) = tmpfile("s.jsonl", b"{\"id\":\"a\"}\n{\"id\":\"b\"}\n");
    let mtime = fs::metadata(&p).unwrap().modified().unwrap();
    let mut s = Store::open(&p).unwrap();
    s.set_review(0, "r", Some(serde_json::json!({}))).unwrap();
    {
        use std::io::{Seek, SeekFrom};
        let mut f = fs::OpenOptions::new().write(true).open(&p).unwrap();
        f.seek(SeekFrom::Start(18)).unwrap();
        f.write_all(b"c").unwrap();
        f.set_times(fs::FileTimes::new().set_modified(mtime))
            .unwrap();
    }
    assert_eq!(fs::metadata(&p).unwrap().modified().unwrap(), mtime);
    assert!(matches!(s.save(), Err(StoreError::Conflict { .. })));
    assert_eq!(fs::read(&p).unwrap(), b"{\"id\":\"a\"}\n{\"id\":\"c\"}\n");
}

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

/// A save whose cancel flag is set replaces nothing, leaves no temporary, and keeps
/// its edits for the next save.
#[test]
fn a_cancelled_save_leaves_the_file_and_keeps_the_edits() {
    let (d, p) = tmpfile("c.jsonl", b"{\"id\":\"a\"}\n{\"id\":\"b\"}\n");
    let before = fs::read(&p).unwrap();
    let mut s = Store::open(&p).unwrap();
    s.set_review(1, "r", Some(serde_json::json!({"verdict": "pass"})))
        .unwrap();
    let e = s.save_until(&AtomicBool::new(true)).unwrap_err();
    assert!(is_cancelled(&e), "{e}");
    assert_eq!(fs::read(&p).unwrap(), before);
    let names: Vec<_> = fs::read_dir(d.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "no temporary left");
    assert!(s.is_dirty());
    s.save().unwrap();
    assert!(fs::read_to_string(&p).unwrap().contains("\"pass\""));
    assert!(!is_cancelled(&StoreError::Io {
        path: p.clone(),
        source: io::Error::new(io::ErrorKind::Interrupted, "EINTR")
    }));
}

/// A large file: unchanged runs go through the kernel copy; the result is the same
/// bytes as writing everything from memory.
#[test]
fn a_save_of_a_large_mapped_file_copies_unchanged_runs_exactly() {
    let lines: Vec<String> = (0..3000)
        .map(|k| {
            format!(
                "{{\"id\":\"i{k}\",\"pad\":\"{}\",\"n\":1e3}}",
                "x".repeat(k % 300)
            )
        })
        .collect();
    let content = lines.join("\n") + "\n";
    let (_d, p) = tmpfile("big.jsonl", content.as_bytes());
    let mut s = Store::open_mapping_from(p.clone(), 0, Scan::Whole).unwrap();
    assert!(s.buf.file().is_some(), "opened files are mapped");
    let mut mem =
        Store::from_bytes(p.clone(), Format::Jsonl, content.clone().into_bytes()).unwrap();
    for i in [0, 1, 1500, 2999] {
        let r = Some(serde_json::json!({"k": i}));
        s.set_review(i, "me", r.clone()).unwrap();
        mem.set_review(i, "me", r).unwrap();
    }
    s.push_raw("{\"id\":\"new\"}".into());
    mem.push_raw("{\"id\":\"new\"}".into());
    let out = tempfile::tempfile().unwrap();
    let mut out2 = out.try_clone().unwrap();
    mem.write_to(&mut out2, &AtomicBool::new(false)).unwrap();
    drop(out2);
    let n = s.save().unwrap().bytes;
    let saved = fs::read(&p).unwrap();
    let mut want = Vec::new();
    {
        use std::io::{Read, Seek};
        let mut out = out;
        out.seek(io::SeekFrom::Start(0)).unwrap();
        out.read_to_end(&mut want).unwrap();
    }
    assert_eq!(n as usize, saved.len());
    assert!(saved == want, "mapped save differs from the in-memory one");
    assert!(
        String::from_utf8(saved)
            .unwrap()
            .contains(r#""id":"i1500","pad":"#)
    );
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

#[test]
fn bad_lines_do_not_stop_the_rest() {
    let mut content = b"{\"id\":\"a\"}\n{\"id\": oops}\n".to_vec();
    content.extend_from_slice(b"{\"id\":\"\xff\"}\n[1]\n{\"id\":\"d\",\"responses\":[{\"model\":\"m\",\"mind\":\"x\"}]}\n");
    let (_d, p) = tmpfile("s.jsonl", &content);
    let s = Store::open(&p).unwrap();
    assert_eq!(s.len(), 5);
    assert!(s.item(0).is_ok());
    assert!(matches!(s.item(1), Err(ItemError::Syntax(_))));
    assert!(matches!(s.item(2), Err(ItemError::Utf8(_))));
    assert!(matches!(s.item(3), Err(ItemError::NotObject(_))));
    assert_eq!(s.item(4).unwrap_err().field(), Some("responses[0].mind"));
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!(
        "{{\"id\":\"a\",\"x\":{}{}}}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let (_d, p) = tmpfile("s.jsonl", deep.as_bytes());
    let mut s = Store::open(&p).unwrap();
    // The typed view skips the unknown key without recursing; the editable view hits
    // serde_json's recursion limit and says so instead of overflowing the stack.
    assert_eq!(s.item(0).unwrap().id.as_deref(), Some("a"));
    assert!(matches!(s.value(0), Err(ItemError::Syntax(m)) if m.contains("recursion")));
    // Grading splices the review in without parsing the rest into a tree.
    s.set_review(0, "r", Some(Value::Null)).unwrap();
    assert_eq!(
        s.raw(0).unwrap(),
        format!(
            "{},\"reviews\":{{\"r\":null}}}}",
            deep.trim_end().strip_suffix('}').unwrap()
        )
    );
}

#[test]
fn appended_items_get_their_own_lines() {
    let (_d, p) = tmpfile("s.jsonl", b"{\"id\":\"a\"}");
    let mut s = Store::open(&p).unwrap();
    s.push_raw("{\"id\":\"b\"}".into());
    s.save().unwrap();
    assert_eq!(fs::read(&p).unwrap(), b"{\"id\":\"a\"}\n{\"id\":\"b\"}\n");
    assert_eq!(s.len(), 2);
    assert_eq!(s.raw(1).unwrap(), "{\"id\":\"b\"}");
}

/// Every byte a review inserts follows the item's own separators (docs/format.md, "Bytes
/// kept"): `":"` or `": "` (or `" : "`), `,` or `, `, the padding inside braces, in the
/// new `reviews`, in a reviewer added beside another and in the review's nested objects
/// and arrays (issue 19 item 14: `"carol":{"at"` was inserted beside `"carol": {"at"`).
/// Through a file and back: removing the reviews gives back every byte.
#[test]
fn inserted_reviews_follow_the_items_own_separators() {
    let review = || serde_json::json!({"at": "T", "ticks": [1, 2], "fix": {"k": 1}});
    let cases = [
        (
            r#"{"id":"a","x":[1,2]}"#,
            r#"{"id":"a","x":[1,2],"reviews":{"me":{"at":"T","ticks":[1,2],"fix":{"k":1}}}}"#,
        ),
        (
            r#"{"id": "b", "reviews": {"carol": {"at": "S"}}}"#,
            r#"{"id": "b", "reviews": {"carol": {"at": "S"}, "me": {"at": "T", "ticks": [1, 2], "fix": {"k": 1}}}}"#,
        ),
        (
            r#"{"id": "c", "n": 1}"#,
            r#"{"id": "c", "n": 1, "reviews": {"me": {"at": "T", "ticks": [1, 2], "fix": {"k": 1}}}}"#,
        ),
        (
            r#"{"id": "d"}"#,
            r#"{"id": "d", "reviews": {"me": {"at": "T", "ticks": [1, 2], "fix": {"k": 1}}}}"#,
        ),
        (
            r#"{"id": "e", "reviews": {}}"#,
            r#"{"id": "e", "reviews": {"me": {"at": "T", "ticks": [1, 2], "fix": {"k": 1}}}}"#,
        ),
        (
            r#"{ "id" : "f" , "v" : 1.50 }"#,
            r#"{ "id" : "f" , "v" : 1.50 , "reviews" : { "me" : { "at" : "T" , "ticks" : [1 , 2] , "fix" : { "k" : 1 } } } }"#,
        ),
        (
            r#"{"id":"g","reviews":{"carol":{"at":"S"}}}"#,
            r#"{"id":"g","reviews":{"carol":{"at":"S"},"me":{"at":"T","ticks":[1,2],"fix":{"k":1}}}}"#,
        ),
    ];
    let content: String = cases.iter().map(|(a, _)| format!("{a}\n")).collect();
    let (_d, p) = tmpfile("s.jsonl", content.as_bytes());
    let mut s = Store::open(&p).unwrap();
    for i in 0..cases.len() {
        s.set_review(i, "me", Some(review())).unwrap();
    }
    s.save().unwrap();
    let text = fs::read_to_string(&p).unwrap();
    for (line, (_, want)) in text.lines().zip(cases.iter()) {
        assert_eq!(line, *want);
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["reviews"]["me"], review());
    }
    let mut s = Store::open(&p).unwrap();
    for i in 0..cases.len() {
        s.set_review(i, "me", None).unwrap();
    }
    s.save().unwrap();
    // (the reopened file's `e` had a review in `reviews`: emptied, it goes)
    let back = content.replace(r#""e", "reviews": {}"#, r#""e""#);
    assert_eq!(fs::read_to_string(&p).unwrap(), back);
}

/// A JSONL file of `n` items and its path.
fn lines_file(n: usize) -> (tempfile::TempDir, PathBuf) {
    let text: String = (0..n)
        .map(|k| format!("{{\"id\": \"i{k}\", \"benchmark\": \"mmlu\"}}\n"))
        .collect();
    tmpfile("set.jsonl", text.as_bytes())
}

/// `path` opened with its background scan held after `after` items until `gate` exists.
fn open_held(path: &Path, after: usize, gate: &Path) -> Store {
    test_hook::gate_scans(Some((after, gate.to_path_buf())));
    let s = Store::open_with(path, Scan::Background);
    test_hook::gate_scans(None);
    s.unwrap()
}

/// Runs `f` on a thread; `Some` of its answer if it came within `ms`.
fn within<T: Send + 'static>(
    ms: u64,
    f: impl FnOnce() -> T + Send + 'static,
) -> (std::sync::mpsc::Receiver<T>, Option<T>) {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    let got = rx.recv_timeout(std::time::Duration::from_millis(ms)).ok();
    (rx, got)
}

#[test]
fn a_background_scan_hands_out_the_first_items_before_it_ends() {
    let (d, p) = lines_file(40);
    let gate = d.path().join("gate");
    let s = open_held(&p, 3, &gate);
    // The open returned with the scan held: the first items, and no claim about the rest.
    assert_eq!(s.len_so_far(), (3, false));
    assert!(!s.is_empty());
    assert_eq!(
        s.raw(2).unwrap(),
        "{\"id\": \"i2\", \"benchmark\": \"mmlu\"}"
    );
    assert_eq!(s.line(2), 3);
    // Whatever needs the rest waits for it: the count, an item not found yet, a clone's.
    let c = s.clone();
    let (len_rx, len) = within(200, move || c.len());
    assert_eq!(len, None, "the count waited for the scan");
    let c = s.clone();
    let (item_rx, item) = within(50, move || c.raw(30).map(str::to_string));
    assert_eq!(item, None);
    fs::write(&gate, "").unwrap();
    let wait = std::time::Duration::from_secs(10);
    assert_eq!(len_rx.recv_timeout(wait).unwrap(), 40);
    assert_eq!(
        item_rx.recv_timeout(wait).unwrap().unwrap(),
        "{\"id\": \"i30\", \"benchmark\": \"mmlu\"}"
    );
    // Every clone sees the whole table, the same as a store opened whole.
    let whole = Store::open(&p).unwrap();
    assert_eq!(s.len_so_far(), (40, true));
    for i in 0..41 {
        assert_eq!(s.raw_bytes(i), whole.raw_bytes(i), "item {i}");
        assert_eq!(s.line(i), whole.line(i));
        assert_eq!(s.has(i), whole.has(i));
    }
}

#[test]
fn a_save_of_a_store_still_scanned_waits_for_every_item() {
    let (d, p) = lines_file(40);
    let before = fs::read(&p).unwrap();
    let gate = d.path().join("gate");
    let mut s = open_held(&p, 3, &gate);
    s.set_review(1, "ann", Some(serde_json::json!({"verdict": "pass"})))
        .unwrap();
    let (done_rx, done) = within(200, move || {
        s.save().map(|r| r.items_written).map_err(|e| e.to_string())
    });
    assert_eq!(done, None, "the save waited for the scan");
    assert_eq!(fs::read(&p).unwrap(), before, "nothing written meanwhile");
    fs::write(&gate, "").unwrap();
    let r = done_rx
        .recv_timeout(std::time::Duration::from_secs(10))
        .unwrap();
    assert!(r.is_ok(), "{r:?}");
    let after = Store::open(&p).unwrap();
    assert_eq!(after.len(), 40);
    let v = after.value(1).unwrap();
    assert_eq!(v["reviews"]["ann"]["verdict"], "pass");
    for i in (0..40).filter(|&i| i != 1) {
        assert_eq!(
            after.raw_bytes(i),
            Store::from_bytes(p.clone(), Format::Jsonl, before.clone())
                .unwrap()
                .raw_bytes(i)
        );
    }
}

#[test]
fn a_small_file_or_a_document_is_read_whole_even_when_asked_in_the_background() {
    let (_d, p) = lines_file(40);
    let s = Store::open_with(&p, Scan::Background).unwrap();
    assert_eq!(s.len_so_far(), (40, true));
    let (_d, p) = tmpfile("set.json", br#"{"items": [{"id": "a"}, {"id": "b"}]}"#);
    test_hook::gate_scans(Some((1, p.with_extension("gate"))));
    let s = Store::open_with(&p, Scan::Background);
    test_hook::gate_scans(None);
    assert_eq!(s.unwrap().len_so_far(), (2, true));
}

#[test]
fn an_item_pushed_onto_a_store_still_scanned_goes_after_every_item() {
    let (d, p) = lines_file(40);
    let gate = d.path().join("gate");
    let s = open_held(&p, 3, &gate);
    let mut c = s.clone();
    let (rx, pushed) = within(200, move || {
        c.push_raw("{\"id\": \"new\"}".into());
        c
    });
    assert!(pushed.is_none(), "the push waited for the scan");
    fs::write(&gate, "").unwrap();
    let c = rx.recv_timeout(std::time::Duration::from_secs(10)).unwrap();
    assert_eq!(c.len(), 41);
    assert_eq!(c.raw(40).unwrap(), "{\"id\": \"new\"}");
    // The clone it was taken from is not changed.
    assert_eq!(s.len(), 40);
}

/// Resident kB of this process's mapping that starts at `addr` (`Rss:` in smaps).
#[cfg(target_os = "linux")]
fn mapped_rss_kb(addr: usize) -> Option<u64> {
    let smaps = fs::read_to_string("/proc/self/smaps").ok()?;
    let mut inside = false;
    for l in smaps.lines() {
        if let Some((range, _)) = l.split_once(' ')
            && let Some((start, _)) = range.split_once('-')
            && start.chars().all(|c| c.is_ascii_hexdigit())
            && !start.is_empty()
            && !l.starts_with("Rss")
        {
            inside = usize::from_str_radix(start, 16).ok() == Some(addr);
            continue;
        }
        if inside && let Some(v) = l.strip_prefix("Rss:") {
            return v.trim().trim_end_matches(" kB").trim().parse().ok();
        }
    }
    None
}

#[cfg(target_os = "linux")]
#[test]
fn releasing_a_mapped_files_pages_keeps_every_item_and_unmaps_them() {
    let (_d, p) = lines_file(20_000);
    test_hook::map_every_file(true);
    let s = Store::open(&p).unwrap();
    test_hook::map_every_file(false);
    let before: Vec<Vec<u8>> = (0..s.len())
        .map(|i| s.raw_bytes(i).unwrap().to_vec())
        .collect();
    let addr = s.buf.as_ptr() as usize;
    let touched = mapped_rss_kb(addr).expect("the mapping in smaps");
    assert!(touched > 100, "every page read: {touched} kB");
    s.release_pages();
    let released = mapped_rss_kb(addr).unwrap();
    assert!(released < touched / 10, "{touched} kB → {released} kB");
    for (i, b) in before.iter().enumerate() {
        assert_eq!(s.raw_bytes(i).unwrap(), b.as_slice(), "item {i}");
    }
    assert_eq!(s.len(), 20_000);
}

/// The head of a kept index of `s`'s file (as the reviewer writes it before its facts),
/// written to `at`.
fn keep_head(s: &Store, at: &Path) {
    let mut w = kept::Summed::new(Vec::new());
    s.write_kept_head(&mut w, &s.stamp_text().unwrap()).unwrap();
    fs::write(at, w.into_inner()).unwrap();
}

/// `path` opened with the kept index at `kept`, its scan (if it needs one) held after
/// `after` items until `gate` exists.
fn open_kept_held(path: &Path, kept: &Path, after: usize, gate: &Path) -> Store {
    test_hook::gate_scans(Some((after, gate.to_path_buf())));
    let s = Store::open_with(path, Scan::Kept(kept.to_path_buf()));
    test_hook::gate_scans(None);
    s.unwrap()
}

#[test]
fn a_kept_index_of_the_file_gives_every_item_at_once() {
    let (d, p) = lines_file(40);
    let kept = d.path().join("set.idx");
    keep_head(&Store::open(&p).unwrap(), &kept);
    let gate = d.path().join("gate");
    let s = open_kept_held(&p, &kept, 3, &gate);
    // No scan: every item is known, the last one too, with the scan's gate never opened.
    assert_eq!(s.len_so_far(), (40, true));
    let whole = Store::open(&p).unwrap();
    for i in 0..41 {
        assert_eq!(s.raw_bytes(i), whole.raw_bytes(i), "item {i}");
        assert_eq!(s.line(i), whole.line(i));
    }
    // A file with blank lines and CRLF ends: the same spans and lines as a scan's.
    let (d, p) = tmpfile(
        "crlf.jsonl",
        b"\r\n{\"id\": \"a\"}\r\n\n  \n{\"id\": \"b\"}\r",
    );
    let kept = d.path().join("crlf.idx");
    keep_head(&Store::open(&p).unwrap(), &kept);
    let s = open_kept_held(&p, &kept, 1, &d.path().join("gate"));
    assert_eq!(s.len_so_far(), (2, true));
    let whole = Store::open(&p).unwrap();
    for i in 0..3 {
        assert_eq!(s.raw_bytes(i), whole.raw_bytes(i), "item {i}");
        assert_eq!(s.line(i), whole.line(i));
    }
}

#[test]
fn a_stale_or_damaged_kept_index_is_never_used_to_find_items() {
    let (d, p) = lines_file(40);
    let kept = d.path().join("set.idx");
    keep_head(&Store::open(&p).unwrap(), &kept);
    let good = fs::read(&kept).unwrap();
    let gate = d.path().join("gate");
    let scanned = |s: &Store| {
        // Not from the kept index: the scan is held after 3 items.
        assert_eq!(s.len_so_far(), (3, false));
        fs::write(&gate, "").unwrap();
        let whole = Store::open(&p).unwrap();
        assert_eq!(s.len(), whole.len());
        for i in 0..=whole.len() {
            assert_eq!(s.raw_bytes(i), whole.raw_bytes(i), "item {i}");
        }
        fs::remove_file(&gate).unwrap();
    };
    // any one byte of it changed (the stamp, the count, a span, a line, the checksum)
    for i in (0..good.len()).step_by(23) {
        let mut b = good.clone();
        b[i] ^= 0x21;
        fs::write(&kept, &b).unwrap();
        scanned(&open_kept_held(&p, &kept, 3, &gate));
    }
    // cut short
    fs::write(&kept, &good[..good.len() - 1]).unwrap();
    scanned(&open_kept_held(&p, &kept, 3, &gate));
    // spans that are not the file's lines, under the file's own stamp and a good
    // checksum (the store's own check, whatever the stamp says)
    let s = Store::open(&p).unwrap();
    let mut t = offsets::Table::default();
    for i in 0..40 {
        let (span, line) = s.offsets.get(i).unwrap();
        t.push(span.start + 1..span.end, line);
    }
    let mut w = kept::Summed::new(Vec::new());
    kept::write_head(&mut w, &s.stamp_text().unwrap(), &t).unwrap();
    fs::write(&kept, w.into_inner()).unwrap();
    scanned(&open_kept_held(&p, &kept, 3, &gate));
    // the file changed since (an item before the others: every offset moved)
    fs::write(&kept, &good).unwrap();
    let mut text = fs::read_to_string(&p).unwrap();
    text.insert_str(0, "{\"id\": \"new\", \"benchmark\": \"mmlu\"}\n");
    fs::write(&p, &text).unwrap();
    let s = open_kept_held(&p, &kept, 3, &gate);
    assert_eq!(s.len_so_far(), (3, false));
    fs::write(&gate, "").unwrap();
    assert_eq!(s.len(), 41);
    assert_eq!(
        s.raw(0).unwrap(),
        "{\"id\": \"new\", \"benchmark\": \"mmlu\"}"
    );
    assert_eq!(
        s.raw(40).unwrap(),
        "{\"id\": \"i39\", \"benchmark\": \"mmlu\"}"
    );
    // no kept index at all
    fs::remove_file(&gate).unwrap();
    let s = open_kept_held(&p, &d.path().join("none.idx"), 3, &gate);
    assert_eq!(s.len_so_far(), (3, false));
    fs::write(&gate, "").unwrap();
    assert_eq!(s.len(), 41);
}
