//! Edits and saves: every byte not changed kept as it was, conflicts refused, odd lines.

use super::*;

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
