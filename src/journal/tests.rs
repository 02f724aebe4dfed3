use super::*;
use crate::bench::Items;
use crate::session::*;
use crate::store::Store;
use serde_json::json;

fn rec(item: usize, id: &str, who: &str, review: Value) -> Record {
    Record {
        item,
        id: Some(id.into()),
        reviewer: who.into(),
        review: Some(review),
        key: None,
    }
}

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

use crate::test_support::run_child;

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
        "journal::tests::child_appends_across_a_torn_write",
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
        let e = open_append(path, 0o600).unwrap_err();
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

#[test]
fn replay_restores_and_is_idempotent() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("r.jsonl");
    fs::write(&p, "{\"id\":\"a\"}\n{\"id\":\"b\"}\n").unwrap();
    let mut j = Journal::for_session(&p, "ann").unwrap();
    j.append(&rec(1, "b", "ann", json!({"verdict": "ok"})))
        .unwrap();
    // a torn tail from a crash mid-write
    OpenOptions::new()
        .append(true)
        .open(j.path())
        .unwrap()
        .write_all(b"{\"item\":0,\"id\":")
        .unwrap();
    let (mut s, paths, rep) = open_with_journal(&p).unwrap();
    assert_eq!(paths, vec![journal_path(&p, "ann")]);
    assert_eq!(rep.applied, 1);
    assert!(rep.torn_tail);
    assert_eq!(
        s.item(1).unwrap().reviews["ann"].verdict.as_deref(),
        Some("ok")
    );
    s.save().unwrap();
    // replaying again after the save changes nothing
    let rep2 = j.replay(&mut s).unwrap();
    assert_eq!(rep2.applied, 1);
    assert!(!s.is_dirty());
    j.clear().unwrap();
    assert_eq!(j.read().unwrap().0, vec![]);
    j.remove().unwrap();
    assert!(!j.exists());
}

#[test]
fn replay_follows_ids_when_order_changed() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("r.jsonl");
    fs::write(&p, "{\"id\":\"b\"}\n{\"id\":\"a\"}\n").unwrap();
    let mut j = Journal::at(journal_path(&p, "r"));
    j.append(&rec(0, "a", "r", json!({}))).unwrap();
    j.append(&rec(5, "zz", "r", json!({}))).unwrap();
    let (s, _j, rep) = open_with_journal(&p).unwrap();
    assert_eq!(rep.applied, 1);
    assert_eq!(rep.skipped.len(), 1);
    assert!(s.item(1).unwrap().reviews.contains_key("r"));
    let aside = j.keep_aside(0o600).unwrap();
    assert_eq!(fs::read(&aside).unwrap(), fs::read(j.path()).unwrap());
}

#[test]
fn one_live_session_per_reviewer_and_all_journals_replay() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("r.jsonl");
    fs::write(&p, "{\"id\":\"a\"}\n").unwrap();
    let mut ann = Journal::for_session(&p, "ann").unwrap();
    assert!(is_live(ann.path()));
    assert!(matches!(
        Journal::for_session(&p, "ann"),
        Err(SessionError::Busy(..))
    ));
    let mut bob = Journal::for_session(&p, "bob/evil name").unwrap();
    assert!(
        bob.path()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .contains(".bob%2Fevil%20name.")
    );
    ann.append(&rec(0, "a", "ann", json!({"verdict": "pass"})))
        .unwrap();
    bob.append(&rec(0, "a", "bob", json!({"verdict": "fail"})))
        .unwrap();
    let (s, paths, rep) = open_with_journal(&p).unwrap();
    assert_eq!(paths.len(), 2);
    assert_eq!(rep.applied, 2);
    let it = s.item(0).unwrap();
    assert_eq!(it.reviews["ann"].verdict.as_deref(), Some("pass"));
    assert_eq!(it.reviews["bob"].verdict.as_deref(), Some("fail"));
    drop(bob);
    assert!(
        !is_live(&journal_path(&p, "bob/evil name")),
        "a dead session's journal is stale"
    );
}

/// After a line is inserted at the top, every record finds its item by id: the first item
/// with that id, a broken line never, an id no item has is reported, all in one replay.
#[test]
fn replay_finds_every_moved_item_by_its_first_id() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("r.jsonl");
    let mut lines = vec!["{\"id\":\"new\"}".to_string()];
    for k in 0..50 {
        lines.push(format!("{{\"id\":\"i{k}\"}}"));
    }
    lines.push("{\"id\":\"i7\",\"note\":\"a second i7\"}".into());
    lines.push("{\"id\":\"gone\",\"responses\":5}".into());
    fs::write(&p, lines.join("\n") + "\n").unwrap();
    let mut j = Journal::at(journal_path(&p, "r"));
    for k in 0..50 {
        // recorded before the insertion: item k was i{k}
        j.append(&rec(
            k,
            &format!("i{k}"),
            "r",
            json!({"verdict": format!("v{k}")}),
        ))
        .unwrap();
    }
    j.append(&rec(50, "gone", "r", json!({"verdict": "x"})))
        .unwrap();
    j.append(&rec(51, "nowhere", "r", json!({"verdict": "x"})))
        .unwrap();
    let (s, _j, rep) = open_with_journal(&p).unwrap();
    assert_eq!(rep.applied, 50, "{rep:?}");
    assert_eq!(rep.skipped.len(), 2, "{rep:?}");
    for k in 0..50 {
        let it = s.item(k + 1).unwrap();
        assert_eq!(
            it.reviews["r"].verdict.as_deref(),
            Some(format!("v{k}").as_str())
        );
    }
    assert!(
        s.item(51).unwrap().reviews.is_empty(),
        "the second i7 keeps none"
    );
    assert!(s.item(0).unwrap().reviews.is_empty());
}

/// An id-less set: `{"benchmark": "x", "question": "<q>"}` per line.
fn idless(qs: &[&str]) -> String {
    qs.iter()
        .map(|q| format!("{{\"benchmark\": \"x\", \"question\": \"{q}\"}}\n"))
        .collect()
}

fn idless_rec(store: &Store, item: usize, who: &str) -> Record {
    Record {
        item,
        id: None,
        reviewer: who.into(),
        review: Some(json!({"verdict": "pass"})),
        key: content_key(store, item),
    }
}

fn graded_questions(s: &Store, who: &str) -> Vec<String> {
    (0..s.len())
        .filter_map(|i| s.value(i).ok())
        .filter(|v| v["reviews"].get(who).is_some())
        .map(|v| v["question"].as_str().unwrap().to_string())
        .collect()
}

/// Issue 16, item 5: a verdict on an item without an id (every lm-eval sample line) went
/// to whatever item took its place after another program added a line above it.
#[test]
fn a_verdict_on_an_item_without_id_follows_its_content() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("r.jsonl");
    fs::write(&p, idless(&["a", "b", "c"])).unwrap();
    let s = Store::open(&p).unwrap();
    Journal::at(journal_path(&p, "ann"))
        .append(&idless_rec(&s, 2, "ann"))
        .unwrap();
    fs::write(&p, idless(&["new", "a", "b", "c"])).unwrap();
    let (s, _, rep) = open_with_journal(&p).unwrap();
    assert_eq!(rep.applied, 1, "{rep:?}");
    assert_eq!(graded_questions(&s, "ann"), ["c"]);
}

/// Two items alike in everything, neither at the verdict's place any more: which one was
/// graded cannot be told, and the verdict is not applied (and says why).
#[test]
fn a_verdict_on_one_of_two_identical_items_that_moved_is_refused_with_why() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("r.jsonl");
    fs::write(&p, idless(&["a", "same", "same"])).unwrap();
    let s = Store::open(&p).unwrap();
    Journal::at(journal_path(&p, "ann"))
        .append(&idless_rec(&s, 2, "ann"))
        .unwrap();
    fs::write(&p, idless(&["new", "a", "x", "same", "same", "y"])).unwrap();
    let (s, _, rep) = open_with_journal(&p).unwrap();
    assert_eq!(rep.applied, 0);
    assert!(graded_questions(&s, "ann").is_empty());
    assert_eq!(rep.skipped.len(), 1);
    assert!(
        rep.skipped[0].contains("2 items alike"),
        "{:?}",
        rep.skipped
    );
}

/// The content key ignores the reviews (given, changed or taken back) but nothing else.
#[test]
fn the_content_key_ignores_reviews_only() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("r.jsonl");
    fs::write(
        &p,
        "{\"benchmark\": \"x\", \"reviews\": {\"bo\": {\"verdict\": \"fail\"}}, \"question\": \"a\"}\n\
         {\"benchmark\": \"x\", \"question\": \"a\"}\n\
         {\"benchmark\": \"x\", \"question\": \"a \"}\n\
         {\"benchmark\": \"x\", \"question\": \"a\", \"n\": 1.0}\n\
         {\"benchmark\": \"x\", \"question\": \"a\", \"n\": 1}\n",
    )
    .unwrap();
    let s = Store::open(&p).unwrap();
    let k: Vec<String> = (0..5).map(|i| content_key(&s, i).unwrap()).collect();
    assert_eq!(k[0], k[1]);
    assert_ne!(k[1], k[2]);
    assert_ne!(k[3], k[4], "1.0 is not 1");
    assert_eq!(k[0].len(), 16);
}
