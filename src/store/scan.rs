//! The background scan of a large JSONL file's lines ([`Store::open_with`] and
//! [`Scan::Background`]): readers are handed the items found so far while it goes on, so
//! the reviewer draws the first screen from the first lines of a file of any size.

use super::offsets::Offsets;
use super::*;

/// How a store finds its items when it opens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scan {
    /// Every item before the open returns.
    Whole,
    /// As `Whole`, the file mapped however small (a folder's set: its files' bytes are
    /// the page cache's, not copied).
    WholeMapped,
    /// A large JSONL file (one that is mapped): the items found so far at once, the rest
    /// by a scan on a thread of its own. Every other file is scanned whole.
    Background,
    /// As `Background`, but every item at once from the kept index at this path
    /// ([`super::kept`]) when it describes exactly the file opened and passes its checks
    /// (no scan then); else as `Background`.
    Kept(PathBuf),
}

/// Items found before the first hand-over to readers (the first screen needs one).
const FIRST: usize = 16;
/// Then at most this many items, or bytes of the file, between hand-overs.
const BATCH: usize = 4096;
const BATCH_BYTES: usize = 8 << 20;

/// Tests stop the background scan after its first `after` items until the file `path`
/// exists (`VERDICT_TEST_SCAN_GATE=after:path`), and scan every JSONL file in the
/// background whatever its size: what the reviewer does before the scan ends is then
/// checked by order, not by timing.
pub(super) struct Gate {
    after: usize,
    path: PathBuf,
}

impl Gate {
    pub(super) fn from_env() -> Option<Gate> {
        #[cfg(test)]
        if let Some((after, path)) = super::test_hook::scan_gate() {
            return Some(Gate { after, path });
        }
        #[cfg(feature = "test-seams")]
        {
            let v = std::env::var("VERDICT_TEST_SCAN_GATE").ok()?;
            let (after, path) = v.split_once(':')?;
            Some(Gate {
                after: after.parse().ok()?,
                path: PathBuf::from(path),
            })
        }
        #[cfg(not(feature = "test-seams"))]
        None
    }

    fn wait(&self) {
        let start = std::time::Instant::now();
        while !self.path.exists() && start.elapsed() < std::time::Duration::from_secs(120) {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

/// Scan `buf`'s lines into `offsets` on a thread of its own (here, when no thread can be
/// started), handing the items found over in batches.
pub(super) fn spawn(buf: Arc<map::Bytes>, offsets: Arc<Offsets>, gate: Option<Gate>) {
    let (b, o) = (Arc::clone(&buf), Arc::clone(&offsets));
    let started = std::thread::Builder::new()
        .name("verdict-scan".into())
        .spawn(move || scan(&b, &o, gate.as_ref()));
    if started.is_err() {
        scan(&buf, &offsets, None);
    }
}

fn scan(buf: &[u8], offsets: &Offsets, gate: Option<&Gate>) {
    let mut batch = Vec::with_capacity(BATCH);
    let mut limit = FIRST;
    let mut handed = 0;
    let mut found = 0;
    each_line(buf, |span, line| {
        let end = span.end;
        batch.push((span, line));
        found += 1;
        if batch.len() >= limit || end - handed >= BATCH_BYTES {
            offsets.found(&mut batch);
            handed = end;
            limit = BATCH;
        }
        if let Some(g) = gate
            && found == g.after
        {
            offsets.found(&mut batch);
            g.wait();
        }
        true
    });
    offsets.ended(&mut batch);
}
