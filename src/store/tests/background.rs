//! The scan in the background: the first items at once, saves and pushes wait for it, pages let go.

use super::*;

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
