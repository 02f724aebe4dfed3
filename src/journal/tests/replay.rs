//! Replay: restored, idempotent, following items that moved, by id or by content.

use super::*;

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
    // (a record's reviewer is its journal's: issue 33)
    bob.append(&rec(0, "a", "bob/evil name", json!({"verdict": "fail"})))
        .unwrap();
    let (s, paths, rep) = open_with_journal(&p).unwrap();
    assert_eq!(paths.len(), 2);
    assert_eq!(rep.applied, 2);
    let it = s.item(0).unwrap();
    assert_eq!(it.reviews["ann"].verdict.as_deref(), Some("pass"));
    assert_eq!(it.reviews["bob/evil name"].verdict.as_deref(), Some("fail"));
    drop(bob);
    assert!(
        !is_live(&journal_path(&p, "bob/evil name")),
        "a dead session's journal is stale"
    );
}

/// After a line is inserted at the top, every record finds its item by id (an id two
/// items share: the one with the content recorded), a broken line never, an id no item has is reported, all in one replay.
#[test]
fn replay_finds_every_moved_item_by_its_id() {
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
        // recorded before the insertion: item k was i{k} (i7, whose id another item
        // shares, with its content, as the session records it)
        let mut r = rec(
            k,
            &format!("i{k}"),
            "r",
            json!({"verdict": format!("v{k}")}),
        );
        if k == 7 {
            r.key = crate::session::content_key_of("{\"id\":\"i7\"}");
        }
        j.append(&r).unwrap();
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

/// Two items share an id (`check` warns of it; such files are opened) and another program
/// adds a line above them: a verdict on the second, recorded with what it was (the
/// session keeps the content of an item whose id another shares), lands on the second,
/// not the first; one recorded without it (an earlier version's) cannot tell which of
/// them was graded and is not applied, saying why. (Both went to the first before.)
#[test]
fn a_verdict_on_one_of_two_items_sharing_an_id_that_moved_follows_its_content() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("r.jsonl");
    let line = |id: &str, q: &str| format!("{{\"id\": \"{id}\", \"question\": \"{q}\"}}\n");
    let before = [line("x", "first"), line("y", "y"), line("x", "second")].concat();
    fs::write(&p, &before).unwrap();
    let s = Store::open(&p).unwrap();
    let keyed = Record {
        key: content_key(&s, 2),
        ..rec(2, "x", "ann", json!({"verdict": "pass"}))
    };
    Journal::at(journal_path(&p, "ann")).append(&keyed).unwrap();
    Journal::at(journal_path(&p, "bob"))
        .append(&rec(2, "x", "bob", json!({"verdict": "fail"})))
        .unwrap();
    // unmoved: each in its place, the one without a key too
    let (s, _, rep) = open_with_journal(&p).unwrap();
    assert_eq!(rep.applied, 2, "{rep:?}");
    assert_eq!(graded_questions(&s, "ann"), ["second"]);
    assert_eq!(graded_questions(&s, "bob"), ["second"]);
    drop(s);
    fs::write(&p, format!("{}{before}", line("new", "new"))).unwrap();
    let (s, _, rep) = open_with_journal(&p).unwrap();
    assert_eq!(graded_questions(&s, "ann"), ["second"]);
    assert!(graded_questions(&s, "bob").is_empty());
    assert_eq!(rep.applied, 1, "{rep:?}");
    assert_eq!(rep.skipped.len(), 1, "{rep:?}");
    assert!(
        rep.skipped[0].contains("2 items share its id"),
        "{:?}",
        rep.skipped
    );
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
