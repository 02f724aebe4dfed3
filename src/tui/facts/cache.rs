//! The index kept between sessions (docs/performance.md, "Reopening a large set"): the
//! filter index of a results file, written to the data folder once it is built, and read
//! back at the next open instead of reading every item again, when the file is exactly
//! the one it describes.
//!
//! **Keyed by the file's stamp** (`Store::stamp_text`: device, inode, size and the
//! status-change time to the nanosecond, which every write and every rename sets and no
//! program can put back). A cache is used only when its stamp is the stamp of the file
//! the session read, and only for a read with no verdicts replayed from journals on it
//! (those change facts): anything else reads the items, as without a cache. A stale cache
//! is never used: filters are always what the items say.
//!
//! **Checked before use**: the whole file is read and every length, bound, text and order
//! checked; a cache that does not pass (cut short, written by another version, damaged)
//! is not used. Written atomically (a temporary renamed over it), readable by the user
//! only (it holds the items' questions).
//!
//! Layout (little-endian): `MAGIC`, the stamp (u32 length + bytes), the item count (u64),
//! the ids and the search texts (each: runs count, and per run its first item, its text
//! and its ends), the facets (count; per facet its kind as u8, its name, its words), the
//! broken and no-id sets (words), a checksum of all that (`checksum`: any one byte
//! changed changes it), `END`.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::{Arena, BitSet, Index, KINDS, Kind, Run};

const MAGIC: &[u8] = b"verdict index 1\n";
const END: &[u8] = b"end\n";

/// Where the cache of `results` goes in the data folder `data_dir`: `index/<hash>.idx`,
/// the hash (FNV-1a) of the file's absolute path.
pub fn path_for(data_dir: &Path, results: &Path) -> PathBuf {
    let abs = fs::canonicalize(results).unwrap_or_else(|_| results.to_path_buf());
    let h = crate::hash::fnv1a64(abs.to_string_lossy().as_bytes());
    data_dir.join("index").join(format!("{h:016x}.idx"))
}

fn put_u64(out: &mut Vec<u8>, x: u64) {
    out.extend_from_slice(&x.to_le_bytes());
}

fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    put_u64(out, b.len() as u64);
    out.extend_from_slice(b);
}

fn put_words(out: &mut Vec<u8>, b: &BitSet) {
    put_u64(out, b.words.len() as u64);
    for w in &b.words {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

fn put_arena(out: &mut Vec<u8>, a: &Arena) {
    put_u64(out, a.runs.len() as u64);
    for r in &a.runs {
        put_u64(out, r.first as u64);
        put_bytes(out, r.text.as_bytes());
        put_u64(out, r.ends.len() as u64);
        for &e in &r.ends {
            put_u64(out, e as u64);
        }
    }
}

/// The cache's bytes: `index` of the file whose stamp is `stamp`.
pub fn encode(index: &Index, stamp: &str) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(stamp.len() as u32).to_le_bytes());
    out.extend_from_slice(stamp.as_bytes());
    put_u64(&mut out, index.n as u64);
    put_arena(&mut out, &index.ids);
    put_arena(&mut out, &index.search);
    put_u64(&mut out, index.facets.len() as u64);
    for (kind, name, b) in &index.facets {
        out.push(kind.index() as u8);
        put_bytes(&mut out, name.as_bytes());
        put_words(&mut out, b);
    }
    put_words(&mut out, &index.broken);
    put_words(&mut out, &index.no_id);
    let sum = checksum(&out);
    put_u64(&mut out, sum);
    out.extend_from_slice(END);
    out
}

/// A word-at-a-time hash of `b` (fast enough for a cache of 200 MB): each step is a
/// bijection of the running value for a given word, so changing any one word (any one
/// byte) changes the result.
fn checksum(b: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ b.len() as u64;
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(23);
    }
    for &x in chunks.remainder() {
        h = (h ^ u64::from(x))
            .wrapping_mul(0x0000_0100_0000_01b3)
            .rotate_left(23);
    }
    h
}

/// Write the cache of the file whose stamp is `stamp` to `path`, atomically.
pub fn save(path: &Path, index: &Index, stamp: &str) -> io::Result<()> {
    write(path, &encode(index, stamp))
}

/// Write a cache already encoded (`encode`) to `path`, atomically.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    crate::tui::config::create_private_dir(dir)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".index.")
        .tempfile_in(dir)?;
    // tempfile creates it 0600.
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// The index the cache at `path` holds, if it describes the file whose stamp is `stamp`
/// and passes every check; `None` otherwise (then the items are read).
pub fn load(path: &Path, stamp: &str) -> Option<Index> {
    let bytes = fs::read(path).ok()?;
    decode(&bytes, stamp)
}

struct Reader<'a> {
    b: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.b.len() {
            return None;
        }
        let (a, rest) = self.b.split_at(n);
        self.b = rest;
        Some(a)
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    /// A count of things of at least `each` bytes that must fit in what is left.
    fn count(&mut self, each: usize) -> Option<usize> {
        let n = usize::try_from(self.u64()?).ok()?;
        (n.checked_mul(each.max(1))? <= self.b.len()).then_some(n)
    }
    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.count(1)?;
        self.take(n)
    }
    fn words(&mut self, n: usize) -> Option<BitSet> {
        let k = self.count(8)?;
        if k != n.div_ceil(64) {
            return None;
        }
        let words: Vec<u64> = self
            .take(k * 8)?
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        // No bit past the last item.
        if !n.is_multiple_of(64) && words.last().is_some_and(|w| w >> (n % 64) != 0) {
            return None;
        }
        Some(BitSet { words, len: n })
    }
    fn arena(&mut self, n: usize) -> Option<Arena> {
        let runs = self.count(24)?;
        let mut a = Arena::default();
        let mut next = 0;
        for _ in 0..runs {
            let first = usize::try_from(self.u64()?).ok()?;
            if first != next {
                return None;
            }
            let text = String::from_utf8(self.bytes()?.to_vec()).ok()?;
            let k = self.count(8)?;
            let mut ends = Vec::with_capacity(k);
            let mut prev = 0;
            for _ in 0..k {
                let e = usize::try_from(self.u64()?).ok()?;
                if e < prev || e > text.len() || !text.is_char_boundary(e) {
                    return None;
                }
                ends.push(e);
                prev = e;
            }
            if ends.last().copied().unwrap_or(0) != text.len() {
                return None;
            }
            next += k;
            a.runs.push(Run { first, text, ends });
        }
        (next == n).then_some(a)
    }
}

/// [`load`] of bytes already read.
pub fn decode(bytes: &[u8], stamp: &str) -> Option<Index> {
    let body = bytes.len().checked_sub(8 + END.len())?;
    let sum = u64::from_le_bytes(bytes[body..body + 8].try_into().ok()?);
    if &bytes[body + 8..] != END || checksum(&bytes[..body]) != sum {
        return None;
    }
    let mut r = Reader { b: &bytes[..body] };
    if r.take(MAGIC.len())? != MAGIC {
        return None;
    }
    let k = u32::from_le_bytes(r.take(4)?.try_into().ok()?) as usize;
    if r.take(k)? != stamp.as_bytes() {
        return None;
    }
    let n = usize::try_from(r.u64()?).ok()?;
    let ids = r.arena(n)?;
    let search = r.arena(n)?;
    let nf = r.count(1)?;
    let mut facets: Vec<(Kind, String, BitSet)> = Vec::with_capacity(nf);
    for _ in 0..nf {
        let kind = *Kind::ALL.get(usize::from(r.take(1)?[0]))?;
        let name = String::from_utf8(r.bytes()?.to_vec()).ok()?;
        let b = r.words(n)?;
        // Sorted by (kind, name), each once: `Index::facet` searches them.
        if facets
            .last()
            .is_some_and(|(k, m, _)| (*k, m.as_str()) >= (kind, name.as_str()))
        {
            return None;
        }
        facets.push((kind, name, b));
    }
    let broken = r.words(n)?;
    let no_id = r.words(n)?;
    if !r.b.is_empty() {
        return None;
    }
    debug_assert_eq!(Kind::ALL.len(), KINDS);
    Some(Index {
        n,
        ids,
        search,
        facets,
        broken,
        no_id,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    fn sample_index() -> (tempfile::TempDir, Store, Index) {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("cvqa.jsonl");
        fs::copy(
            concat!(env!("CARGO_MANIFEST_DIR"), "/sample-data/cvqa.jsonl"),
            &p,
        )
        .unwrap();
        let s = Store::open(&p).unwrap();
        let ix = crate::tui::facts::index(&s, 2);
        (d, s, ix)
    }

    #[test]
    fn a_cache_gives_back_the_index_it_was_made_of() {
        let (d, s, ix) = sample_index();
        let stamp = s.stamp_text().unwrap();
        let p = path_for(d.path(), s.path());
        save(&p, &ix, &stamp).unwrap();
        assert_eq!(load(&p, &stamp), Some(ix.clone()));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        // an index of many runs (threads) too
        let many = crate::tui::facts::index(&s, 8);
        assert_eq!(decode(&encode(&many, &stamp), &stamp), Some(many));
    }

    #[test]
    fn a_cache_of_another_file_state_is_never_used() {
        let (_d, s, ix) = sample_index();
        let stamp = s.stamp_text().unwrap();
        let bytes = encode(&ix, &stamp);
        assert!(decode(&bytes, "1:2:3:4.5").is_none());
        assert!(decode(&bytes, &format!("{stamp}0")).is_none());
    }

    #[test]
    fn a_damaged_or_cut_cache_is_never_used() {
        let (_d, s, ix) = sample_index();
        let stamp = s.stamp_text().unwrap();
        let bytes = encode(&ix, &stamp);
        // every cut
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut], &stamp).is_none(), "cut at {cut}");
        }
        // one more byte
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&longer, &stamp).is_none());
        // any one byte changed (a text, a bit, a length)
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x5a;
            assert!(decode(&b, &stamp).is_none(), "byte {i} changed");
        }
    }
}
