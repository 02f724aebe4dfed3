//! Appends cut short, unreadable lines and invalid records.

use super::*;

/// The child of `a_record_after_a_torn_append_is_never_lost`: a verdict journaled, one
/// cut short by a file-size limit (a full disk), then one more after the limit is lifted.
#[test]
#[ignore = "run by a_record_after_a_torn_append_is_never_lost in a child process"]
fn child_appends_across_a_torn_write() {
    let Some(dir) = std::env::var_os("VERDICT_TEST_DIR") else {
        return;
    };
    let p = Path::new(&dir).join("r.jsonl");
    // SAFETY: process-wide settings, in a child that runs only this test.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let set_limit = |cur: libc::rlim_t| {
        let mut l = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: plain getrlimit/setrlimit on this process.
        unsafe {
            libc::getrlimit(libc::RLIMIT_FSIZE, &mut l);
            l.rlim_cur = cur.min(l.rlim_max);
            assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &l), 0);
        }
    };
    let mut j = Journal::for_session(&p, "ann").unwrap();
    j.append(&rec(0, "a", "ann", json!({"verdict": "first"})))
        .unwrap();
    let len = fs::metadata(j.path()).unwrap().len();
    set_limit((len + 20) as libc::rlim_t);
    assert!(
        j.append(&rec(1, "b", "ann", json!({"verdict": "torn"})))
            .is_err(),
        "the limit cuts this append short"
    );
    set_limit(libc::RLIM_INFINITY);
    j.append(&rec(2, "c", "ann", json!({"verdict": "third"})))
        .unwrap();
}

/// A full disk cuts an append short; the next acknowledged record must not be glued to
/// the torn half (and so lost on replay).
#[test]
fn a_record_after_a_torn_append_is_never_lost() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("r.jsonl");
    fs::write(&p, "{\"id\":\"a\"}\n{\"id\":\"b\"}\n{\"id\":\"c\"}\n").unwrap();
    run_child(
        "journal::tests::torn::child_appends_across_a_torn_write",
        &[("VERDICT_TEST_DIR", d.path())],
    );
    let (s, _, rep) = open_with_journal(&p).unwrap();
    assert_eq!(rep.applied, 2, "{rep:?}");
    assert_eq!(rep.not_applied(), 0, "the torn half was cut off: {rep:?}");
    let verdict = |i| {
        s.item(i)
            .unwrap()
            .reviews
            .get("ann")
            .and_then(|r| r.verdict.clone())
    };
    assert_eq!(verdict(0).as_deref(), Some("first"));
    assert_eq!(verdict(1), None, "the failed append was never acknowledged");
    assert_eq!(verdict(2).as_deref(), Some("third"));
}

/// Replay lists every line it cannot read; a record glued to a torn one by earlier
/// versions is still read; a session never appends after half a line.
#[test]
fn unreadable_lines_are_reported_and_glued_records_read() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("r.jsonl");
    fs::write(&p, "{\"id\":\"a\"}\n{\"id\":\"b\"}\n{\"id\":\"c\"}\n").unwrap();
    let jp = journal_path(&p, "ann");
    let good = |i: usize, id: &str| {
        serde_json::to_string(&rec(i, id, "ann", json!({"verdict": id}))).unwrap()
    };
    fs::write(
        &jp,
        format!(
            "{}\nnot json at all\n{{\"item\":1,\"id\":\"b\",\"rev{}\n{{\"item\":2,",
            good(0, "a"),
            good(1, "b")
        ),
    )
    .unwrap();
    let (s, paths, rep) = open_with_journal(&p).unwrap();
    assert_eq!(paths, vec![jp.clone()]);
    assert_eq!(rep.applied, 2, "{rep:?}");
    assert!(rep.torn_tail);
    assert_eq!(rep.unreadable.len(), 3, "{rep:?}");
    assert!(rep.unreadable[0].contains("line 2: not a journal record"));
    assert!(rep.unreadable[1].contains("line 3: half a record"));
    assert!(rep.unreadable[2].contains("line 4: an unfinished last line"));
    assert_eq!(rep.to_keep, vec![jp.clone()]);
    assert!(s.item(1).unwrap().reviews.contains_key("ann"));
    // A session of ann appends on a new line after the torn tail: its record is read.
    let mut j = Journal::for_session(&p, "ann").unwrap();
    j.append(&rec(2, "c", "ann", json!({"verdict": "c"})))
        .unwrap();
    let (s, _, rep) = open_with_journal(&p).unwrap();
    assert_eq!(rep.applied, 3, "{rep:?}");
    assert!(s.item(2).unwrap().reviews.contains_key("ann"));
}

/// A journal record is applied only if its review passes the checks the file's own
/// reviews get; the others are reported and their journal marked to be kept.
#[test]
fn invalid_records_are_not_applied() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("r.jsonl");
    let item = r#"{"id":"q","benchmark":"cvqa","split":"real","group":"direct","original":{"question":"q","answer":"1"},"counterfactual":{"question":"q2","answer":"2"},"responses":[{"model":"m","original":"1","counterfactual":"2"}]}"#;
    fs::write(&p, format!("{item}\n")).unwrap();
    let mut j = Journal::at(journal_path(&p, "ann"));
    j.append(&rec(0, "q", "ann", json!(5))).unwrap();
    j.append(&rec(
        0,
        "q",
        "ann",
        json!({"at": "2026-01-01T00:00:00Z", "status": "bogus"}),
    ))
    .unwrap();
    let (s, _, rep) = open_with_journal(&p).unwrap();
    assert_eq!(rep.applied, 0);
    assert_eq!(rep.invalid.len(), 2, "{rep:?}");
    assert!(rep.invalid[1].contains("reviews.ann.status"), "{rep:?}");
    assert_eq!(rep.to_keep, vec![j.path().to_path_buf()]);
    assert!(!s.is_dirty(), "nothing was applied");
    // a valid one after them is applied
    j.append(&rec(
        0,
        "q",
        "ann",
        json!({"at": "2026-01-01T00:00:00Z", "status": "accept"}),
    ))
    .unwrap();
    let (s, _, rep) = open_with_journal(&p).unwrap();
    assert_eq!(rep.applied, 1);
    assert!(crate::check::check_store_with(&s, crate::check::Options::default()).errors() == 0);
}
