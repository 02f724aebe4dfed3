//! Offsets from a kept index: used only for exactly the file it describes.

use super::*;

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
