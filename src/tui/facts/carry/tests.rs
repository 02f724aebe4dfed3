//! The carried index is the index a fresh build of the new file gives (every id, search
//! text, fact, bit and sum), whatever another program did to the file: items changed,
//! added, removed, moved, duplicated, broken, cut short, lines put before items without
//! an id; and only the items that are not byte for byte in the old file are read.

use std::path::{Path, PathBuf};

use super::*;
use crate::tui::facts::index;

use crate::test_support::Rng;

/// The lines of the samples of every result-set benchmark (CharToM-QA's evaluation layout,
/// named from its file, too), each three times with ids of its own, some of them without
/// an id, some with reviews, one broken.
fn base_lines() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/samples/");
    let mut out = Vec::new();
    for f in [
        "chartom.jsonl",
        "chartom-qa.jsonl",
        "cvqa.jsonl",
        "generic.jsonl",
        "chartom-qa-eval.jsonl",
    ] {
        let text = std::fs::read_to_string(format!("{dir}{f}")).expect("a sample file");
        for (k, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
            for copy in 0..3 {
                let mut v: serde_json::Value = serde_json::from_str(line).expect("json");
                let Some(obj) = v.as_object_mut() else {
                    continue;
                };
                if obj.contains_key("id") {
                    if (k + copy) % 7 == 3 {
                        obj.remove("id");
                    } else {
                        obj.insert("id".into(), format!("{f}-{k}-{copy}").into());
                    }
                }
                if copy == 1 {
                    obj.insert(
                        "reviews".into(),
                        serde_json::json!({"ann": {"note": "seen", "verdict": "pass"}}),
                    );
                }
                out.push(v.to_string());
            }
        }
    }
    out.push("{\"id\": \"broken-1\", \"benchmark\": \"cvqa\", \"responses\": 5}".into());
    out
}

/// A line changed as a colleague's verdict changes it: a review of theirs (a reviewer
/// and a model the set may not have had).
fn reviewed(line: &str, who: &str) -> String {
    match serde_json::from_str::<serde_json::Value>(line) {
        Ok(serde_json::Value::Object(mut obj)) => {
            let reviews = obj
                .entry("reviews")
                .or_insert_with(|| serde_json::json!({}));
            if let Some(r) = reviews.as_object_mut() {
                r.insert(
                    who.into(),
                    serde_json::json!({"verdict": "fail", "note": "checked"}),
                );
            }
            if let Some(serde_json::Value::Array(rs)) = obj.get_mut("responses")
                && let Some(first) = rs.first().cloned()
            {
                let mut r = first;
                r["model"] = format!("model-{who}").into();
                rs.push(r);
            }
            serde_json::Value::Object(obj).to_string()
        }
        _ => format!("{line} "),
    }
}

/// The file at `p` as another program saves it: `text` written aside and renamed over it.
fn save(p: &Path, text: &str) {
    let aside = p.with_extension("new");
    std::fs::write(&aside, text).unwrap();
    std::fs::rename(&aside, p).unwrap();
}

fn text_of(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// A folder with the file `r.jsonl` holding `lines`; its store and index.
fn opened(lines: &[String]) -> (tempfile::TempDir, PathBuf, Store, Index) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("r.jsonl");
    std::fs::write(&p, text_of(lines)).unwrap();
    let s = Store::open(&p).unwrap();
    let ix = index(&s, 2);
    (d, p, s, ix)
}

/// Carry `old` across to the file at `p` now holding `text`: the same as a fresh build,
/// having read at most `most` items. The new store and index.
fn carried_to(p: &Path, old: &Index, text: &str, most: usize) -> (Store, Index) {
    save(p, text);
    let new = Store::open(p).unwrap();
    let fresh = index(&new, 2);
    let c = carry(old, &new, 2).expect("carried");
    assert_same(&c.index, &fresh);
    assert!(
        c.read <= most,
        "{} items read, at most {most} wanted",
        c.read
    );
    (new, c.index)
}

/// The two indexes are the same, told item by item first (a readable failure).
fn assert_same(got: &Index, want: &Index) {
    assert_eq!(got.len(), want.len());
    for i in 0..want.len() {
        assert_eq!(got.id(i), want.id(i), "id of {i}");
        assert_eq!(got.item_id(i), want.item_id(i), "own id of {i}");
        assert_eq!(
            got.search_text(i),
            want.search_text(i),
            "search text of {i}"
        );
        assert_eq!(got.facts(i), want.facts(i), "facts of {i}");
        assert_eq!(got.broken(i), want.broken(i), "broken {i}");
        assert_eq!(got.sum(i), want.sum(i), "sum of {i}");
    }
    assert_eq!(got, want);
}

#[test]
fn a_colleagues_verdicts_are_carried_reading_only_their_items() {
    let lines = base_lines();
    let (_d, p, _s, old) = opened(&lines);
    let mut new = lines.clone();
    for k in [0, 5, 40, new.len() - 2] {
        new[k] = reviewed(&new[k], "dave");
    }
    let (_, ix) = carried_to(&p, &old, &text_of(&new), 4);
    // the new reviewer and model are facts now, the old ones still there
    assert!(ix.names(Kind::Reviewer).any(|r| r == "dave"));
    assert!(ix.names(Kind::Model).any(|m| m == "model-dave"));
    // and taken back: no item has them any more, and no fact names them
    let (_, back) = carried_to(&p, &ix, &text_of(&lines), 4);
    assert!(!back.names(Kind::Reviewer).any(|r| r == "dave"));
    assert!(!back.names(Kind::Model).any(|m| m == "model-dave"));
}

#[test]
fn the_same_file_saved_again_reads_no_item() {
    let lines = base_lines();
    let (_d, p, _s, old) = opened(&lines);
    carried_to(&p, &old, &text_of(&lines), 0);
}

#[test]
fn items_added_removed_and_moved_keep_their_entries_and_ids_of_lines_follow() {
    let lines = base_lines();
    let (_d, p, _s, old) = opened(&lines);
    // a line before every item (ids `#line` of the items without one all change), a
    // blank line in the middle, an item removed, two swapped, one moved to the end
    let mut new = lines.clone();
    new.insert(0, reviewed(&lines[3], "erin").replace("\"id\"", "\"was\""));
    new.remove(10);
    new.swap(20, 30);
    let moved = new.remove(2);
    new.push(moved);
    let mut text = text_of(&new);
    let mid = text.len() / 2;
    let at = mid + text[mid..].find('\n').unwrap() + 1;
    text.insert_str(at, "\n\r\n");
    carried_to(&p, &old, &text, 1);
}

#[test]
fn duplicate_lines_and_duplicate_ids_each_get_their_entry() {
    let lines = base_lines();
    let (_d, p, _s, old) = opened(&lines);
    let mut new = lines.clone();
    // a line twice (one without an id, whose `#line` ids differ), and a new line with the
    // id of another
    new.insert(7, lines[7].clone());
    let no_id = lines
        .iter()
        .position(|l| !l.contains("\"id\""))
        .expect("a line without an id");
    new.insert(no_id + 2, lines[no_id].clone());
    new.push(reviewed(&lines[1], "finn"));
    carried_to(&p, &old, &text_of(&new), 1);
}

#[test]
fn a_line_that_breaks_and_a_tail_cut_short_are_read_as_a_fresh_build_reads_them() {
    let lines = base_lines();
    let (_d, p, _s, old) = opened(&lines);
    let mut new = lines.clone();
    new[12] = new[12][..new[12].len() / 2].to_string();
    new[13] = new[13].replacen('{', "[", 1);
    let mut text = text_of(&new);
    text.truncate(text.len() - lines.last().unwrap().len() / 2 - 1);
    carried_to(&p, &old, &text, 3);
    // and a broken line mended again
    let (_, ix) = carried_to(&p, &old, &text_of(&lines), 0);
    assert_eq!(ix.len(), lines.len());
}

/// Save after save, each carried from the index carried before: random edits of every
/// kind, seeded; from an index built in memory, and from one kept on disk (its texts
/// carried in place, run after run of parts of them; kept again now and then, and read
/// back from what was kept).
#[test]
fn saves_one_after_another_carry_the_carried_index_each_time() {
    for kept in [false, true] {
        saves_one_after_another(kept);
    }
}

fn saves_one_after_another(kept: bool) {
    let mut lines = base_lines();
    let (_d, p, s, mut old) = opened(&lines);
    let keep = |ix: &Index, s: &Store| {
        let stamp = s.stamp_text().unwrap();
        let told = crate::tui::facts::cache::told(s);
        let bytes = crate::tui::facts::cache::encode(ix, s, &stamp);
        let back = crate::tui::facts::cache::decode_bytes(bytes, &stamp, &told).expect("kept");
        assert_same(&back, ix);
        back
    };
    if kept {
        old = keep(&old, &s);
    }
    let mut rng = Rng::new(0x5eed_2026);
    for round in 0..40 {
        let mut touched = 0;
        for _ in 0..1 + rng.below_or_zero(4) {
            let n = lines.len();
            let k = rng.below_or_zero(n);
            match rng.below_or_zero(8) {
                0 => {
                    lines[k] = reviewed(&lines[k], &format!("r{}", rng.below_or_zero(5)));
                    touched += 1;
                }
                1 => {
                    lines.insert(k, reviewed(&lines[rng.below_or_zero(n)], "new"));
                    touched += 1;
                }
                2 if n > 20 => {
                    lines.remove(k);
                }
                3 => {
                    let l = lines[k].clone();
                    lines.insert(rng.below_or_zero(n), l);
                }
                4 => {
                    let (a, b) = (rng.below_or_zero(n), rng.below_or_zero(n));
                    lines.swap(a, b);
                }
                5 => {
                    lines[k] = format!(
                        "{{\"id\": \"half-{round}\", {}",
                        &lines[k][1..lines[k].len() / 2]
                    );
                    touched += 1;
                }
                6 => {
                    // an item loses its id (or a broken one is made whole)
                    lines[k] = lines[k].replacen("\"id\"", "\"old_id\"", 1);
                    touched += 1;
                }
                _ => {
                    let block: Vec<String> = lines.drain(k..(k + 5).min(n)).collect();
                    let at = rng.below_or_zero(lines.len());
                    lines.splice(at..at, block);
                }
            }
        }
        let (new, ix) = carried_to(&p, &old, &text_of(&lines), touched);
        old = if kept && round % 7 == 6 {
            keep(&ix, &new)
        } else {
            ix
        };
        if kept {
            assert!(
                old.texts_built_bytes() < old.texts_bytes() / 2,
                "round {round}"
            );
        }
    }
}

#[test]
fn an_index_kept_on_disk_is_carried_from_in_place() {
    let lines = base_lines();
    let (_d, p, s, built) = opened(&lines);
    let stamp = s.stamp_text().unwrap();
    let kept = crate::tui::facts::cache::decode_bytes(
        crate::tui::facts::cache::encode(&built, &s, &stamp),
        &stamp,
        &crate::tui::facts::cache::told(&s),
    )
    .expect("the kept index");
    assert!(kept.texts_in_place());
    let mut new = lines.clone();
    new[9] = reviewed(&new[9], "gus");
    new.insert(0, lines[4].clone());
    let (_, carried) = carried_to(&p, &kept, &text_of(&new), 1);
    // The carried texts stay where they are, in the kept index's mapping (not copied
    // into memory: issue 21's private memory): only the item read again, and the
    // `#line` ids of items without one, are built.
    let read_again = [9 + 1];
    let own: usize = read_again
        .iter()
        .map(|&j| carried.id(j).len() + carried.search_text(j).len())
        .chain(
            (0..carried.len())
                .filter(|&j| carried.item_id(j).is_none())
                .map(|j| carried.id(j).len() + carried.search_text(j).len()),
        )
        .sum();
    assert!(
        carried.texts_built_bytes() <= own,
        "{} bytes of texts built, {own} expected at most",
        carried.texts_built_bytes()
    );
}

#[test]
fn a_file_rewritten_or_an_index_without_sums_is_built_afresh() {
    let lines = base_lines();
    let (_d, p, _s, old) = opened(&lines);
    // every item changed
    let all: Vec<String> = lines.iter().map(|l| reviewed(l, "hal")).collect();
    save(&p, &text_of(&all));
    let new = Store::open(&p).unwrap();
    assert!(matches!(
        carry(&old, &new, 2),
        Err(Refused::TooManyChanged { .. })
    ));
    // an index that does not know its items' sums
    let mut unknown = old.clone();
    unknown.sums = Sums::Unknown;
    assert_eq!(carry(&unknown, &new, 2).err(), Some(Refused::NoSums));
    // kept on disk so, it reads back so
    let s = Store::open(&p).unwrap();
    let stamp = s.stamp_text().unwrap();
    let mut fresh = index(&s, 1);
    fresh.sums = Sums::Unknown;
    let back = crate::tui::facts::cache::decode_bytes(
        crate::tui::facts::cache::encode(&fresh, &s, &stamp),
        &stamp,
        &crate::tui::facts::cache::told(&s),
    )
    .expect("kept");
    assert_eq!(carry(&back, &new, 2).err(), Some(Refused::NoSums));
}

/// A mapped file written in place while it is read again is not carried to.
#[test]
fn a_file_changed_in_place_is_not_carried_to() {
    let lines = base_lines();
    let (_d, p, _s, old) = opened(&lines);
    crate::store::test_hook::map_every_file(true);
    let new = Store::open(&p).unwrap();
    crate::store::test_hook::map_every_file(false);
    // the same length, one byte changed, in place
    let mut bytes = std::fs::read(&p).unwrap();
    let at = bytes.iter().position(|&b| b == b'?').unwrap();
    bytes[at] = b'!';
    std::thread::sleep(std::time::Duration::from_millis(30));
    std::fs::OpenOptions::new()
        .write(true)
        .open(&p)
        .and_then(|mut f| std::io::Write::write_all(&mut f, &bytes))
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(30));
    assert_eq!(carry(&old, &new, 2).err(), Some(Refused::ChangedOnDisk));
}

#[test]
fn sums_tell_items_apart_that_differ_in_one_byte_or_in_length() {
    let lines = base_lines();
    let mut seen = std::collections::HashSet::new();
    for l in &lines {
        let b = l.as_bytes();
        assert!(seen.insert(item_sum(b)) || lines.iter().filter(|x| *x == l).count() > 1);
        for k in [0, b.len() / 2, b.len() - 1] {
            for bit in [1u8, 0x80] {
                let mut c = b.to_vec();
                c[k] ^= bit;
                assert_ne!(item_sum(&c), item_sum(b));
            }
        }
        let mut longer = b.to_vec();
        longer.push(0);
        assert_ne!(item_sum(&longer), item_sum(b));
    }
    assert_ne!(item_sum(b""), item_sum(b"\0"));
    assert_ne!(item_sum(b"\0"), item_sum(b"\0\0\0\0\0\0\0\0"));
}

#[test]
fn bits_copied_in_runs_are_the_bits_copied_one_by_one() {
    let mut rng = Rng::new(7);
    for _ in 0..300 {
        let n = 1 + rng.below_or_zero(400);
        let mut from = BitSet::new(n);
        for i in 0..n {
            from.set(i, rng.below_or_zero(3) == 0);
        }
        let m = 1 + rng.below_or_zero(400);
        let (start, at) = (rng.below_or_zero(n), rng.below_or_zero(m));
        let len = rng.below_or_zero((n - start).min(m - at) + 1);
        let mut got = BitSet::new(m);
        got.copy_from(at, &from, start, len);
        let mut want = BitSet::new(m);
        for k in 0..len {
            want.set(at + k, from.get(start + k));
        }
        assert_eq!(got, want, "n {n} m {m} start {start} at {at} len {len}");
    }
}
