//! Where each item is in the file's bytes: its span and its line, in a table shared by
//! every clone of a store (a clone costs nothing, however many items), filled either at
//! once or by a scan that goes on in the background while the items already found are
//! read (`Store::open_scanning`: the reviewer draws its first screen from the first
//! lines).
//!
//! Every question about an item waits until the scan has found it, or has ended without
//! it; a question about the whole table (`len`, a save) waits for the whole scan. Only
//! [`Offsets::so_far`] answers without waiting, for the one reader that must not wait
//! (the reviewer's screen).

use std::ops::Range;
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock};

/// Items per chunk of the table: a chunk is filled in place and never moved, so the table
/// grows without copying what it holds.
const CHUNK_BITS: u32 = 16;
const CHUNK: usize = 1 << CHUNK_BITS;

/// The spans (JSONL: the line without its terminator) and 1-based first lines of items
/// `0..len`, in chunks of `CHUNK`.
#[derive(Debug, Default, Clone)]
pub(super) struct Table {
    spans: Vec<Vec<Range<usize>>>,
    lines: Vec<Vec<u32>>,
    len: usize,
}

impl Table {
    pub(super) fn from_vecs(spans: Vec<Range<usize>>, lines: Vec<u32>) -> Table {
        let mut t = Table::default();
        for (s, l) in spans.into_iter().zip(lines) {
            t.push(s, l);
        }
        t
    }

    pub(super) fn push(&mut self, span: Range<usize>, line: u32) {
        if self.len.is_multiple_of(CHUNK) {
            self.spans.push(Vec::with_capacity(CHUNK));
            self.lines.push(Vec::with_capacity(CHUNK));
        }
        let c = self.len >> CHUNK_BITS;
        self.spans[c].push(span);
        self.lines[c].push(line);
        self.len += 1;
    }

    fn append(&mut self, batch: &mut Vec<(Range<usize>, u32)>) {
        for (s, l) in batch.drain(..) {
            self.push(s, l);
        }
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn span(&self, i: usize) -> Option<Range<usize>> {
        (i < self.len).then(|| self.spans[i >> CHUNK_BITS][i & (CHUNK - 1)].clone())
    }

    pub(super) fn line(&self, i: usize) -> Option<u32> {
        (i < self.len).then(|| self.lines[i >> CHUNK_BITS][i & (CHUNK - 1)])
    }

    /// The spans in item order.
    pub(super) fn spans(&self) -> impl Iterator<Item = &Range<usize>> + '_ {
        self.spans.iter().flatten()
    }
}

/// The table of a store, whole or still being scanned.
#[derive(Debug, Default)]
pub(super) struct Offsets {
    /// The whole table, once the scan has ended (at once for a store opened whole).
    whole: OnceLock<Table>,
    /// The items found so far while the scan runs (emptied into `whole` at its end).
    scanning: Mutex<Table>,
    /// Told when the scan finds more items or ends.
    grown: Condvar,
}

impl Offsets {
    pub(super) fn whole(t: Table) -> Offsets {
        let o = Offsets::default();
        let _ = o.whole.set(t);
        o
    }

    fn lock(&self) -> MutexGuard<'_, Table> {
        self.scanning.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The table once item `i` is in it or the scan has ended, whichever comes first.
    fn when_has<T>(&self, i: usize, f: impl Fn(&Table) -> T) -> T {
        if let Some(t) = self.whole.get() {
            return f(t);
        }
        let mut g = self.lock();
        loop {
            // Set under the lock: seen here once the scan has handed over its table.
            if let Some(t) = self.whole.get() {
                return f(t);
            }
            if i < g.len() {
                return f(&g);
            }
            g = self.grown.wait(g).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Item `i`'s span and line; `None` when the file has no item `i` (once the scan
    /// has ended).
    pub(super) fn get(&self, i: usize) -> Option<(Range<usize>, u32)> {
        self.when_has(i, |t| t.span(i).zip(t.line(i)))
    }

    /// The whole table (waits for the scan to end).
    pub(super) fn complete(&self) -> &Table {
        if let Some(t) = self.whole.get() {
            return t;
        }
        let mut g = self.lock();
        while self.whole.get().is_none() {
            g = self.grown.wait(g).unwrap_or_else(|e| e.into_inner());
        }
        drop(g);
        self.whole.get().expect("set before the scan says it ended")
    }

    /// The whole table to change (a store of its own, its scan ended).
    pub(super) fn complete_mut(&mut self) -> &mut Table {
        self.complete();
        self.whole.get_mut().expect("the scan has ended")
    }

    /// How many items the scan has found so far, and whether it has ended: no waiting.
    pub(super) fn so_far(&self) -> (usize, bool) {
        if let Some(t) = self.whole.get() {
            return (t.len(), true);
        }
        let g = self.lock();
        match self.whole.get() {
            Some(t) => (t.len(), true),
            None => (g.len(), false),
        }
    }

    /// The scanner found `batch` (emptied).
    pub(super) fn found(&self, batch: &mut Vec<(Range<usize>, u32)>) {
        if batch.is_empty() {
            return;
        }
        self.lock().append(batch);
        self.grown.notify_all();
    }

    /// The scan has ended with `batch`, the last items it found.
    pub(super) fn ended(&self, batch: &mut Vec<(Range<usize>, u32)>) {
        let mut g = self.lock();
        g.append(batch);
        let t = std::mem::take(&mut *g);
        let _ = self.whole.set(t);
        drop(g);
        self.grown.notify_all();
    }
}
