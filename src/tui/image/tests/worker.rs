//! The worker's queues and cache, and image paths that are not regular files.

use super::*;

#[test]
fn queue_keeps_only_the_newest_request() {
    let mut q = Queue::default();
    q.push_prefetch("a.png".into());
    for i in 0..50 {
        q.push_request(key("x.png", i));
    }
    assert_eq!(q.take(), Some(key("x.png", 49)));
    assert!(!q.superseded());
    // A newer request while one is in flight supersedes it...
    q.push_request(key("y.png", 1));
    assert!(q.superseded());
    // ...but asking again for the in-flight key cancels the newer one.
    q.push_request(key("x.png", 49));
    assert!(!q.superseded());
    assert!(q.request.is_none());
    assert!(q.take().is_none());
    // The prefetch is the prefetch thread's, apart.
    assert_eq!(q.take_prefetch(), Some(PathBuf::from("a.png")));
    assert!(q.take_prefetch().is_none());
}

#[test]
fn queue_keeps_only_the_newest_prefetch_wanted() {
    let mut q = Queue::default();
    for i in 0..10 {
        q.push_prefetch(format!("{i}.png").into());
    }
    assert_eq!(q.take_prefetch(), Some(PathBuf::from("9.png")));
    assert!(q.wanted(Path::new("9.png")));
    // Asked again while it decodes: not started twice.
    q.push_prefetch("9.png".into());
    assert!(q.take_prefetch().is_none());
    // The reviewer moved on: 9 is no longer wanted, 10 is next.
    q.push_prefetch("10.png".into());
    assert!(!q.wanted(Path::new("9.png")));
    assert_eq!(q.take_prefetch(), Some(PathBuf::from("10.png")));
}

#[test]
fn queue_wants_the_newest_request_image_only() {
    let mut q = Queue::default();
    q.push_request(key("x.png", 10));
    q.take();
    assert!(q.wanted(Path::new("x.png")));
    // The same image at another size (a zoom) still needs it decoded.
    q.push_request(key("x.png", 20));
    assert!(q.wanted(Path::new("x.png")));
    q.push_request(key("y.png", 10));
    assert!(!q.wanted(Path::new("x.png")));
    assert!(q.wanted(Path::new("y.png")));
    q.shutdown = true;
    assert!(!q.wanted(Path::new("y.png")));
}

#[test]
fn lru_evicts_least_recent_by_count_and_budget() {
    let mut lru: Lru<u32, usize> = Lru::new(3, 100, |v| *v);
    lru.insert(1, 10);
    lru.insert(2, 10);
    lru.insert(3, 10);
    assert_eq!(lru.get(&1), Some(&10)); // 1 is now most recent
    lru.insert(4, 10);
    assert_eq!(lru.keys(), vec![&4, &1, &3]);
    lru.insert(5, 85); // total 115 > 100: drop the oldest until it fits
    assert_eq!(lru.keys(), vec![&5, &4]);
    lru.insert(6, 500); // alone over budget: kept, everything else evicted
    assert_eq!(lru.keys(), vec![&6]);
    lru.clear();
    assert!(lru.get(&6).is_none());
}

#[test]
fn open_external_reports_missing_file_and_missing_viewer() {
    let e = open_external(Path::new("/definitely/not/here.png")).unwrap_err();
    assert_eq!(e, "image not found: /definitely/not/here.png");
    let file = tempfile::NamedTempFile::new().unwrap();
    let e = spawn_viewer(OsStr::new("/no/such/viewer"), &[], file.path()).unwrap_err();
    assert!(e.contains("not found"), "{e}");
    #[cfg(unix)]
    spawn_viewer(OsStr::new("true"), &[], file.path()).unwrap();
}

/// Run `f` on a thread; `None` if it has not returned within 5 s (it is blocked: the
/// thread is left behind, the test fails instead of hanging).
#[cfg(unix)]
fn within_5s<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(std::time::Duration::from_secs(5)).ok()
}

#[cfg(unix)]
fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
}

/// A FIFO, a character device, a socket, a directory or a symlink to one of them as an
/// image path: every function that reads an image refuses it at once, without opening it
/// for a read that would block (a FIFO with no writer) or eat the reviewer's keys
/// (`/dev/tty`), and the message says it is not a regular file.
#[cfg(unix)]
#[test]
fn non_regular_files_are_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.png");
    mkfifo(&fifo);
    let link = dir.path().join("link.png");
    std::os::unix::fs::symlink(&fifo, &link).unwrap();
    let sock = dir.path().join("sock.png");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    let cases: Vec<(PathBuf, &str)> = vec![
        (fifo.clone(), "(not a regular file: a FIFO)"),
        (link, "(not a regular file: a FIFO)"),
        (sock, "(not a regular file: a socket)"),
        (
            PathBuf::from("/dev/zero"),
            "(not a regular file: a character device)",
        ),
        (
            PathBuf::from("/dev/null"),
            "(not a regular file: a character device)",
        ),
        (dir.path().to_path_buf(), "(a directory)"),
    ];
    for (p, why) in cases {
        let q = p.clone();
        let got = within_5s(move || {
            (
                decode_file(&q),
                decodes_in_pieces(&q),
                header_dimensions(&q),
                fingerprint(&q).map(|_| ()),
                open_regular(&q).map(|_| ()),
            )
        })
        .unwrap_or_else(|| panic!("{}: blocked", p.display()));
        let shown = format!("not an image: {} {why}", p.display());
        assert_eq!(got.0.unwrap_err(), shown);
        assert!(!got.1, "{}", p.display());
        assert_eq!(got.2, None, "{}", p.display());
        assert_eq!(got.3.unwrap_err(), shown);
        assert_eq!(got.4.unwrap_err(), shown);
        assert_eq!(open_external(&p).unwrap_err(), shown);
    }
}

/// The worker's prefetch thread, given a FIFO: it refuses it at once and goes on to
/// prefetch the next image (before, it blocked in `open` for the rest of the session).
#[cfg(unix)]
#[test]
fn a_fifo_does_not_block_prefetching() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.png");
    mkfifo(&fifo);
    let good = dir.path().join("good.png");
    RgbImage::new(4, 4).save(&good).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let w = ImageWorker::spawn(
        make_render(ProtocolChoice::Halfblocks).0,
        Box::new(move |e| {
            let _ = tx.send(e);
        }),
    );
    w.prefetch(fifo.clone());
    std::thread::sleep(std::time::Duration::from_millis(100));
    w.prefetch(good.clone());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while w.stats().decodes < 1 {
        assert!(
            std::time::Instant::now() < deadline,
            "the prefetch thread is stuck on the FIFO"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // And the FIFO as the current item's image: a clear message in the pane.
    w.request(ImageKey {
        path: fifo.clone(),
        width: 20,
        height: 10,
    });
    match rx.recv_timeout(std::time::Duration::from_secs(5)) {
        Ok(ImageEvent::Ready(_, r)) => assert_eq!(
            r.err().map(|e| e.to_string()),
            Some(format!(
                "not an image: {} (not a regular file: a FIFO)",
                fifo.display()
            ))
        ),
        other => panic!("no answer for the FIFO: {other:?}"),
    }
}
