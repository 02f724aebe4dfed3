//! The index kept between sessions (docs/architecture.md, "The kept index"): the
//! filter index of a results file, written to the data folder once it is built, and read
//! back at the next open instead of reading every item again, when the file is exactly
//! the one it describes.
//!
//! **Keyed by the file's stamp** (`Store::stamp_text`: device, inode, size and the
//! status-change time to the nanosecond, which every write and every rename sets and no
//! program can put back). A cache is used only when its stamp is the stamp of the file
//! the session read, and only for a read with no verdicts replayed from journals on it
//! (those change facts). A stale cache is never used: filters are always what the items
//! say, and the index of a file saved since is built again.
//!
//! **Used in place** (issue 21, private memory ≤ 0.1× the file): the cache is mapped, not
//! read, and the ids and search texts stay in the mapping (the page cache's pages, not
//! the reviewer's private memory); the facets' bit sets are copied. A session that builds
//! the index hands it to the screen at once, then writes the cache and, once it is read
//! back equal, uses it the same way in place of what it built (`tui::threads`).
//!
//! **Checked before use**: every byte of the mapping is read and every length, bound,
//! text (UTF-8, each text ending at a character's end) and order checked, with a checksum
//! of the whole; a cache that does not pass (cut short, written by another version,
//! damaged) is not used. A text read later from the mapping is checked again as it is
//! read (a file changed under a mapping shows through it): a text that is no longer
//! UTF-8 reads as empty. Written atomically (a temporary renamed over it), readable by the
//! user only (it holds the items' questions).
//!
//! Layout (little-endian; every table at a multiple of 8 bytes from the start): the head
//! of `store::kept` (its magic `verdict index 12`, the stamp, the item count `n`, the
//! items' offsets, which let the store open the file without scanning it, and the head's
//! checksum); what the file's path tells its items ([`told`]: its length (u64), the
//! text, zeros to a multiple of 8; format 4); then the ids and the search texts, each as
//! the length of all texts (u64), the texts one after the other, zeros to a multiple of
//! 8, and where each text ends (`n` u64); the facets (count; per facet its kind (u64), its name (u64 length, bytes,
//! zeros), its words (u64 count, words)); the broken, no-id and no-grade sets (words;
//! no-grade: format 6); a checksum of all that (`store::kept::Sum`: any one byte changed
//! changes it); `END`.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{Arena, BitSet, Index, KINDS, Kind, Run, Texts};
use crate::store::kept::{Reader, Summed};
use crate::store::{FileBytes, Store};

const END: &[u8] = b"end\n";

/// Where the cache of `results` goes in the data folder `data_dir`: `index/<hash>.idx`,
/// the hash (FNV-1a) of the file's absolute path.
pub fn path_for(data_dir: &Path, results: &Path) -> PathBuf {
    let abs = fs::canonicalize(results).unwrap_or_else(|_| results.to_path_buf());
    let h = crate::hash::fnv1a64(abs.to_string_lossy().as_bytes());
    data_dir.join("index").join(format!("{h:016x}.idx"))
}

/// Writes in blocks of this size (the sum and the writer see a few large writes).
const BLOCK: usize = 64 << 10;

fn put_words<W: Write>(out: &mut Summed<W>, b: &BitSet) -> io::Result<()> {
    out.u64(b.words.len() as u64)?;
    let mut buf = Vec::with_capacity(BLOCK);
    for w in &b.words {
        buf.extend_from_slice(&w.to_le_bytes());
        if buf.len() >= BLOCK {
            out.put(&buf)?;
            buf.clear();
        }
    }
    out.put(&buf)
}

fn put_arena<W: Write>(out: &mut Summed<W>, a: &Arena) -> io::Result<()> {
    let total: usize = a.runs.iter().map(|r| r.bytes().len()).sum();
    out.u64(total as u64)?;
    for r in &a.runs {
        out.put(r.bytes())?;
    }
    out.pad()?;
    let mut buf = Vec::with_capacity(BLOCK);
    let mut base = 0;
    for r in &a.runs {
        for j in 0..r.count() {
            buf.extend_from_slice(&((base + r.end(j)) as u64).to_le_bytes());
            if buf.len() >= BLOCK {
                out.put(&buf)?;
                buf.clear();
            }
        }
        base += r.bytes().len();
    }
    out.put(&buf)
}

/// Write the cache of `index`, the index of `store`'s items, to `w`, for the file whose
/// stamp is `stamp` (the store's).
pub fn encode_to<W: Write>(w: W, index: &Index, store: &Store, stamp: &str) -> io::Result<()> {
    let mut out = Summed::new(w);
    store.write_kept_head(&mut out, stamp)?;
    let told = told(store);
    out.u64(told.len() as u64)?;
    out.put(told.as_bytes())?;
    out.pad()?;
    put_arena(&mut out, &index.ids)?;
    put_arena(&mut out, &index.search)?;
    put_arena(&mut out, &index.harness)?;
    out.u64(index.facets.len() as u64)?;
    for (kind, name, b) in &index.facets {
        out.u64(kind.index() as u64)?;
        out.u64(name.len() as u64)?;
        out.put(name.as_bytes())?;
        out.pad()?;
        put_words(&mut out, b)?;
    }
    put_words(&mut out, &index.broken)?;
    put_words(&mut out, &index.no_id)?;
    put_words(&mut out, &index.no_grade)?;
    out.put_sum()?;
    out.put(END)?;
    out.into_inner().flush()
}

/// The cache's bytes (tests and the benchmark).
pub fn encode(index: &Index, store: &Store, stamp: &str) -> Vec<u8> {
    let mut v = Vec::new();
    let _ = encode_to(&mut v, index, store, stamp);
    v
}

/// A cache written to a temporary file beside its place, not yet in its place.
pub struct Written {
    tmp: tempfile::NamedTempFile,
    path: PathBuf,
    /// What the path told the items it holds ([`told`]).
    told: String,
}

impl Written {
    /// Make it durable and put it in its place (atomically: renamed over the old one).
    pub fn persist(self) -> io::Result<()> {
        self.tmp.as_file().sync_all()?;
        self.tmp.persist(&self.path).map_err(|e| e.error)?;
        Ok(())
    }

    /// The index it holds, used in place (mapped and checked; see the module's comment).
    pub fn index(&self, stamp: &str) -> Option<Index> {
        let f = self.tmp.reopen().ok()?;
        let len = f.metadata().ok()?.len();
        decode(
            Arc::new(FileBytes::map(f, len, true).ok()?),
            stamp,
            &self.told,
        )
    }
}

/// A temporary cache this old is one a session did not finish (it quit, or was killed,
/// while writing it: ~2 GB at 10M items), never one being written.
const ABANDONED: std::time::Duration = std::time::Duration::from_secs(3600);

/// Remove the temporary caches in `dir` that were abandoned ([`ABANDONED`]).
fn remove_abandoned(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let old = e
            .metadata()
            .ok()
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > ABANDONED);
        if old && e.file_name().to_string_lossy().starts_with(".index.") {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// Write the cache of `index` (of `store`'s items, the file whose stamp is `stamp`) to a
/// temporary file beside `path`.
pub fn write(path: &Path, index: &Index, store: &Store, stamp: &str) -> io::Result<Written> {
    let dir = path.parent().unwrap_or(Path::new("."));
    crate::tui::config::create_private_dir(dir)?;
    remove_abandoned(dir);
    // tempfile creates it 0600.
    let tmp = tempfile::Builder::new()
        .prefix(".index.")
        .tempfile_in(dir)?;
    encode_to(
        BufWriter::with_capacity(1 << 20, tmp.as_file()),
        index,
        store,
        stamp,
    )?;
    Ok(Written {
        tmp,
        path: path.to_path_buf(),
        told: told(store),
    })
}

/// Write the cache of `index` (of `store`'s items, the file whose stamp is `stamp`) to
/// `path`, atomically.
pub fn save(path: &Path, index: &Index, store: &Store, stamp: &str) -> io::Result<()> {
    write(path, index, store, stamp)?.persist()
}

/// The index the cache at `path` holds, used in place, if it describes the file whose
/// stamp is `stamp`, its items as what its path tells them names them (`told`,
/// [`told`]), and passes every check; `None` otherwise (then the items are read).
pub fn load(path: &Path, stamp: &str, told: &str) -> Option<Index> {
    decode(Arc::new(crate::store::kept::map(path)?), stamp, told)
}

/// What `store`'s path tells its items (`bench::FileInfo::told`: an lm-eval run's model
/// and results, a CharToM-QA evaluation file's model from its name): the same bytes
/// name other models under another, so a kept index is used or carried only under the
/// text it was kept with.
pub fn told(store: &Store) -> String {
    use crate::bench::Items;
    store.file_info().told()
}

fn words(r: &mut Reader, n: usize) -> Option<BitSet> {
    let k = r.count(8)?;
    if k != n.div_ceil(64) {
        return None;
    }
    let words: Vec<u64> = r
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

/// `n` texts in place in `map`, checked.
fn arena(r: &mut Reader, n: usize, map: &Arc<FileBytes>) -> Option<Arena> {
    let len = r.count(1)?;
    let at = r.at;
    let text = std::str::from_utf8(r.take(len)?).ok()?;
    r.pad()?;
    if n.checked_mul(8)? > r.b.len() - r.at {
        return None;
    }
    let ends = r.at;
    let mut prev = 0;
    for c in r.take(n * 8)?.chunks_exact(8) {
        let e = usize::try_from(u64::from_le_bytes(c.try_into().ok()?)).ok()?;
        if e < prev || e > len || !text.is_char_boundary(e) {
            return None;
        }
        prev = e;
    }
    if prev != len {
        return None;
    }
    let mut a = Arena::default();
    if n > 0 {
        a.runs.push(Run {
            first: 0,
            texts: Texts::Kept {
                map: Arc::clone(map),
                text: at..at + len,
                ends,
                count: n,
                base: 0,
            },
        });
    }
    Some(a)
}

/// [`load`] of a cache already mapped (or read: `FileBytes::Owned`).
pub fn decode(map: Arc<FileBytes>, stamp: &str, told: &str) -> Option<Index> {
    let bytes: &[u8] = &map;
    let body = bytes.len().checked_sub(8 + END.len())?;
    let sum = u64::from_le_bytes(bytes[body..body + 8].try_into().ok()?);
    if &bytes[body + 8..] != END {
        return None;
    }
    // The head first (its stamp, its own checksum): a cache kept for another version of
    // the file is refused before the whole is summed.
    let head = crate::store::kept::read_head(&bytes[..body], stamp)?;
    let mut r = Reader::new(&bytes[..body]);
    r.at = head.end;
    // (What the path tells before the sum too: the same bytes named otherwise.)
    let k = r.count(1)?;
    if r.take(k)? != told.as_bytes() {
        return None;
    }
    r.pad()?;
    if crate::store::kept::Sum::of(&bytes[..body]) != sum || map.damaged() {
        return None;
    }
    let n = head.n;
    let ids = arena(&mut r, n, &map)?;
    let search = arena(&mut r, n, &map)?;
    let harness = arena(&mut r, n, &map)?;
    let nf = r.count(1)?;
    let mut facets: Vec<(Kind, String, BitSet)> = Vec::with_capacity(nf);
    for _ in 0..nf {
        let kind = *Kind::ALL.get(usize::try_from(r.u64()?).ok()?)?;
        let k = r.count(1)?;
        let name = std::str::from_utf8(r.take(k)?).ok()?.to_string();
        r.pad()?;
        let b = words(&mut r, n)?;
        // Sorted by (kind, name), each once: `Index::facet` searches them.
        if facets
            .last()
            .is_some_and(|(k, m, _)| (*k, m.as_str()) >= (kind, name.as_str()))
        {
            return None;
        }
        facets.push((kind, name, b));
    }
    let broken = words(&mut r, n)?;
    let no_id = words(&mut r, n)?;
    let no_grade = words(&mut r, n)?;
    if r.at != r.b.len() || map.damaged() {
        return None;
    }
    debug_assert_eq!(Kind::ALL.len(), KINDS);
    // Every page was read to check it: the page tables go now (they map again when a
    // text is read), so quitting does not pay for unmapping them all.
    map.release_pages();
    Some(Index {
        n,
        ids,
        search,
        harness,
        facets,
        broken,
        no_id,
        no_grade,
        // (kept for a file only: a file has no twins)
        twins: Vec::new(),
        twin_group: Vec::new(),
    })
}

/// [`decode`] of bytes in memory.
pub fn decode_bytes(bytes: Vec<u8>, stamp: &str, told: &str) -> Option<Index> {
    decode(Arc::new(FileBytes::Owned(bytes)), stamp, told)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_index() -> (tempfile::TempDir, Store, Index) {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("cvqa.jsonl");
        fs::copy(
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/samples/cvqa.jsonl"
            ),
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
        save(&p, &ix, &s, &stamp).unwrap();
        let back = load(&p, &stamp, &told(&s)).unwrap();
        assert_eq!(back, ix);
        // used in place: the texts are the mapping's
        assert!(
            back.ids
                .runs
                .iter()
                .all(|r| matches!(r.texts, Texts::Kept { .. }))
        );
        assert!(
            back.search
                .runs
                .iter()
                .all(|r| matches!(r.texts, Texts::Kept { .. }))
        );
        for i in 0..ix.len() {
            assert_eq!(back.id(i), ix.id(i));
            assert_eq!(back.item_id(i), ix.item_id(i));
            assert_eq!(back.search_text(i), ix.search_text(i));
            // the bytes search reads without a check: the same
            assert_eq!(back.search_bytes(i), ix.search_text(i).as_bytes());
            assert_eq!(back.id_bytes(i), ix.id(i).as_bytes());
            assert_eq!(ix.search_bytes(i), ix.search_text(i).as_bytes());
            assert_eq!(back.position_of(ix.id(i)), ix.position_of(ix.id(i)));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        // an index of many runs (threads) too
        let many = crate::tui::facts::index(&s, 8);
        assert_eq!(
            decode_bytes(encode(&many, &s, &stamp), &stamp, &told(&s)),
            Some(many)
        );
        // and the written cache, before it is in its place
        let w = write(&p, &ix, &s, &stamp).unwrap();
        assert_eq!(w.index(&stamp), Some(ix));
    }

    #[test]
    fn a_temporary_cache_left_by_a_session_that_quit_while_writing_it_goes() {
        let (d, s, ix) = sample_index();
        let stamp = s.stamp_text().unwrap();
        let p = path_for(d.path(), s.path());
        let dir = p.parent().unwrap();
        fs::create_dir_all(dir).unwrap();
        let left = dir.join(".index.left");
        let writing = dir.join(".index.writing");
        let other = dir.join("other.idx");
        for f in [&left, &writing, &other] {
            fs::write(f, b"x").unwrap();
        }
        let long_ago = std::time::SystemTime::now() - 2 * ABANDONED;
        for f in [&left, &other] {
            fs::File::options()
                .write(true)
                .open(f)
                .unwrap()
                .set_modified(long_ago)
                .unwrap();
        }
        save(&p, &ix, &s, &stamp).unwrap();
        assert!(!left.exists());
        // one being written now, and another file's cache, stay
        assert!(writing.exists() && other.exists());
        assert_eq!(load(&p, &stamp, &told(&s)), Some(ix));
    }

    #[test]
    fn a_cache_of_another_file_state_is_never_used() {
        let (_d, s, ix) = sample_index();
        let stamp = s.stamp_text().unwrap();
        let bytes = encode(&ix, &s, &stamp);
        assert!(decode_bytes(bytes.clone(), "1:2:3:4.5", &told(&s)).is_none());
        assert!(decode_bytes(bytes.clone(), &format!("{stamp}0"), &told(&s)).is_none());
        // the same file's items named otherwise (what its path tells changed)
        assert!(decode_bytes(bytes.clone(), &stamp, &told(&s)).is_some());
        assert!(decode_bytes(bytes.clone(), &stamp, "").is_none());
        assert!(decode_bytes(bytes, &stamp, &format!("{}x", told(&s))).is_none());
    }

    #[test]
    fn a_damaged_or_cut_cache_is_never_used() {
        let (_d, s, ix) = sample_index();
        let stamp = s.stamp_text().unwrap();
        let bytes = encode(&ix, &s, &stamp);
        assert!(decode_bytes(bytes.clone(), &stamp, &told(&s)).is_some());
        // every cut
        for cut in 0..bytes.len() {
            assert!(
                decode_bytes(bytes[..cut].to_vec(), &stamp, &told(&s)).is_none(),
                "cut at {cut}"
            );
        }
        // one more byte
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode_bytes(longer, &stamp, &told(&s)).is_none());
        // any one byte changed (a text, a bit, a length, an offset)
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x5a;
            assert!(
                decode_bytes(b, &stamp, &told(&s)).is_none(),
                "byte {i} changed"
            );
        }
    }
}
