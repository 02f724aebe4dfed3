//! The store's part of a kept index (docs/architecture.md, "The kept
//! index"): the file the reviewer keeps in its data folder for a results file
//! begins with what the store needs to open that file without scanning it, the head:
//!
//! - `MAGIC` (17 bytes);
//! - the stamp of the file it describes (`Store::stamp_text`): its length (u64), its
//!   bytes, zeros to the next multiple of 8;
//! - the item count `n` (u64);
//! - the offsets: `n` spans (start, end: two u64 each; a JSONL line without its
//!   terminator), then `n` first lines (u32 each, 1-based), zeros to a multiple of 8;
//! - a checksum ([`Sum`]) of every byte before it (u64).
//!
//! Integers are little-endian, and every table starts at a multiple of 8 bytes from the
//! start, so the file can be used in place from a mapping. What follows the head is its
//! user's (the reviewer's facts: `tui::facts::cache`).
//!
//! A store opened with a kept index ([`Scan::Kept`]) takes its offsets from the head,
//! without scanning the file, only when the head describes exactly the file opened (its
//! stamp: device, inode, size and change time to the nanosecond, which every write sets)
//! and passes every check: the checksum, spans in order inside the file, each at a line's
//! start and end, lines in order. Anything else scans the file, as without a kept index.

use std::io::{self, Write};
use std::ops::Range;

use super::offsets::Table;

/// The kept index's first bytes: its format (of the head and of what follows).
pub const MAGIC: &[u8; 17] = b"verdict index 12\n";

/// A word-at-a-time hash of a stream of bytes (fast enough for a kept index of 2 GB):
/// each step is a bijection of the running value for a given word, so changing any one
/// word (any one byte) changes the result; the length is mixed in at the end.
#[derive(Debug, Clone, Default)]
pub struct Sum {
    h: u64,
    len: u64,
    pending: [u8; 8],
    np: usize,
}

const PRIME: u64 = 0x0000_0100_0000_01b3;

impl Sum {
    pub fn new() -> Sum {
        Sum {
            h: 0xcbf2_9ce4_8422_2325,
            ..Sum::default()
        }
    }

    fn word(&mut self, w: u64) {
        self.h = (self.h ^ w).wrapping_mul(PRIME).rotate_left(23);
    }

    /// Take in `b`, after what was taken in before.
    pub fn update(&mut self, mut b: &[u8]) {
        self.len += b.len() as u64;
        if self.np > 0 {
            let k = (8 - self.np).min(b.len());
            self.pending[self.np..self.np + k].copy_from_slice(&b[..k]);
            self.np += k;
            b = &b[k..];
            if self.np < 8 {
                return;
            }
            self.word(u64::from_le_bytes(self.pending));
            self.np = 0;
        }
        let mut words = b.chunks_exact(8);
        for c in &mut words {
            self.word(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = words.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.np = rest.len();
    }

    /// The checksum of everything taken in so far.
    pub fn value(&self) -> u64 {
        let mut s = self.clone();
        for k in 0..s.np {
            let x = s.pending[k];
            s.h = (s.h ^ u64::from(x)).wrapping_mul(PRIME).rotate_left(23);
        }
        s.h = (s.h ^ s.len).wrapping_mul(PRIME).rotate_left(23);
        s.h
    }

    /// The checksum of `b`.
    pub fn of(b: &[u8]) -> u64 {
        let mut s = Sum::new();
        s.update(b);
        s.value()
    }
}

/// A writer that sums what it writes and counts it (to pad tables to 8 bytes).
pub struct Summed<W: Write> {
    w: W,
    pub sum: Sum,
    at: u64,
}

impl<W: Write> Summed<W> {
    pub fn new(w: W) -> Summed<W> {
        Summed {
            w,
            sum: Sum::new(),
            at: 0,
        }
    }
    pub fn put(&mut self, b: &[u8]) -> io::Result<()> {
        self.sum.update(b);
        self.at += b.len() as u64;
        self.w.write_all(b)
    }
    pub fn u64(&mut self, x: u64) -> io::Result<()> {
        self.put(&x.to_le_bytes())
    }
    /// Zeros up to the next multiple of 8 bytes from the start.
    pub fn pad(&mut self) -> io::Result<()> {
        let k = (8 - (self.at % 8) as usize) % 8;
        self.put(&[0; 8][..k])
    }
    /// The checksum of everything written so far, written.
    pub fn put_sum(&mut self) -> io::Result<()> {
        let v = self.sum.value();
        self.u64(v)
    }
    pub fn into_inner(self) -> W {
        self.w
    }
}

/// Read little-endian tables from bytes, in place, with every bound checked.
pub struct Reader<'a> {
    pub b: &'a [u8],
    pub at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(b: &'a [u8]) -> Reader<'a> {
        Reader { b, at: 0 }
    }
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let s = self.b.get(self.at..end)?;
        self.at = end;
        Some(s)
    }
    pub fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    /// A count of things of `each` bytes (at least 1) that must fit in what is left.
    pub fn count(&mut self, each: usize) -> Option<usize> {
        let n = usize::try_from(self.u64()?).ok()?;
        (n.checked_mul(each.max(1))? <= self.b.len() - self.at).then_some(n)
    }
    /// Skip the zeros up to the next multiple of 8 (anything else there: None).
    pub fn pad(&mut self) -> Option<()> {
        let k = (8 - self.at % 8) % 8;
        self.take(k)?.iter().all(|&b| b == 0).then_some(())
    }
}

/// Where the head of a kept index says the offsets are.
#[derive(Debug, Clone)]
pub struct Head {
    /// Items.
    pub n: usize,
    /// The spans' table (`n` × 16 bytes) and the lines' (`n` × 4).
    spans: usize,
    lines: usize,
    /// The byte after the head (a multiple of 8).
    pub end: usize,
}

/// Write the head of the kept index of the file whose stamp is `stamp` and whose items
/// are at `table`.
pub(super) fn write_head<W: Write>(w: &mut Summed<W>, stamp: &str, t: &Table) -> io::Result<()> {
    w.put(MAGIC)?;
    w.u64(stamp.len() as u64)?;
    w.put(stamp.as_bytes())?;
    w.pad()?;
    w.u64(t.len() as u64)?;
    let mut buf = Vec::with_capacity(64 << 10);
    for s in t.spans() {
        buf.extend_from_slice(&(s.start as u64).to_le_bytes());
        buf.extend_from_slice(&(s.end as u64).to_le_bytes());
        if buf.len() >= 64 << 10 {
            w.put(&buf)?;
            buf.clear();
        }
    }
    w.put(&buf)?;
    buf.clear();
    for i in 0..t.len() {
        buf.extend_from_slice(&t.line(i).unwrap_or(0).to_le_bytes());
        if buf.len() >= 64 << 10 {
            w.put(&buf)?;
            buf.clear();
        }
    }
    w.put(&buf)?;
    w.pad()?;
    w.put_sum()
}

/// The head of the kept index `b` if it describes the file whose stamp is `stamp` and its
/// checksum holds (the offsets' order is checked by [`table`]).
pub fn read_head(b: &[u8], stamp: &str) -> Option<Head> {
    let mut r = Reader::new(b);
    if r.take(MAGIC.len())? != MAGIC {
        return None;
    }
    let k = r.count(1)?;
    if r.take(k)? != stamp.as_bytes() {
        return None;
    }
    r.pad()?;
    let n = r.count(20)?;
    let spans = r.at;
    r.take(n * 16)?;
    let lines = r.at;
    r.take(n * 4)?;
    r.pad()?;
    let body = r.at;
    let sum = r.u64()?;
    if Sum::of(&b[..body]) != sum {
        return None;
    }
    Some(Head {
        n,
        spans,
        lines,
        end: r.at,
    })
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// The offsets `head` holds, if they can be the lines of `file` (its bytes): in order,
/// inside it, each at a line's start and ending where its line ends; `None` otherwise.
pub(super) fn table(b: &[u8], head: &Head, file: &[u8]) -> Option<Table> {
    let mut t = Table::default();
    let mut prev_end = None::<usize>;
    let mut prev_line = 0u32;
    for i in 0..head.n {
        let start = usize::try_from(u64_at(b, head.spans + 16 * i)).ok()?;
        let end = usize::try_from(u64_at(b, head.spans + 16 * i + 8)).ok()?;
        let line = u32::from_le_bytes(
            b[head.lines + 4 * i..head.lines + 4 * i + 4]
                .try_into()
                .ok()?,
        );
        if start > end || end > file.len() || line <= prev_line {
            return None;
        }
        if prev_end.is_some_and(|e| start <= e) {
            return None;
        }
        prev_end = Some(end);
        prev_line = line;
        t.push(start..end, line);
    }
    // The first and the last item: at a line's start, up to its end (the others are
    // between, in order; the stamp says the file is the one they were found in).
    for s in [t.span(0), t.span(head.n.wrapping_sub(1))]
        .into_iter()
        .flatten()
    {
        if !at_line(file, &s) {
            return None;
        }
    }
    Some(t)
}

/// Is `s` a whole line of `file` (without its `\n` or `\r\n`)?
fn at_line(file: &[u8], s: &Range<usize>) -> bool {
    let starts = s.start == 0 || file.get(s.start - 1) == Some(&b'\n');
    let ends = match file.get(s.end) {
        None => s.end == file.len(),
        Some(b'\n') => true,
        Some(b'\r') => file.get(s.end + 1).is_none_or(|&c| c == b'\n'),
        Some(_) => false,
    };
    starts && ends && s.end > s.start
}

/// Map the kept index at `path` (its pages are the page cache's, not private memory);
/// `None` when it cannot be opened or mapped.
pub fn map(path: &std::path::Path) -> Option<super::map::Bytes> {
    let f = std::fs::File::open(path).ok()?;
    let len = f.metadata().ok()?.len();
    let b = super::map::Bytes::map(f, len, true).ok()?;
    b.file().is_some().then_some(b)
}

/// The offsets of `file` (the bytes of the file whose stamp is `stamp`) from the kept
/// index at `path`, when it describes exactly that file and passes every check.
pub(super) fn open(path: &std::path::Path, stamp: &str, file: &[u8]) -> Option<Table> {
    let b = map(path)?;
    let head = read_head(&b, stamp)?;
    let t = table(&b, &head, file);
    // A kept index truncated under us reads as zeros: not the one checked.
    if b.damaged() {
        return None;
    }
    t
}
