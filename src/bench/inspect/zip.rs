//! Inspect's `.eval` logs are ZIP archives (docs/format.md, "Inspect AI logs"), read and
//! rewritten with the `zip` crate: the entries as the central directory lists them, an
//! entry's content inflated (stored, deflate, or Zstandard, method 93, as Inspect writes
//! it) and checked against its CRC-32, and a copy of the archive with some entries
//! replaced, every other entry's data copied as it is (`ZipWriter::raw_copy_file`).

use std::collections::BTreeMap;
use std::io::{self, Cursor, Read, Write};
use std::ops::Range;

use ::zip::read::OwnedZipFileEntry;
use ::zip::{CompressionMethod, ZipArchive, ZipReadOptions, ZipWriter};

/// ZIP's method for Zstandard (APPNOTE 4.4.5: 93), what Inspect writes.
pub const ZSTD: CompressionMethod = CompressionMethod::Zstd;
/// What Inspect wrote before Zstandard.
pub const DEFLATE: CompressionMethod = CompressionMethod::Deflated;

/// One entry, as the central directory describes it.
#[derive(Debug)]
pub struct Entry {
    pub name: String,
    pub method: CompressionMethod,
    /// The CRC-32 of its content.
    pub crc: u32,
    /// Its data, compressed, in the archive.
    pub data: Range<usize>,
    /// Its place in the archive.
    index: usize,
    meta: OwnedZipFileEntry,
}

/// A ZIP archive's table of contents.
#[derive(Debug)]
pub struct Archive {
    pub entries: Vec<Entry>,
}

/// Does `bytes` start as a ZIP archive does (a local header, or an empty archive)?
pub fn looks_like_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

fn bad(e: impl std::fmt::Display) -> String {
    format!("not a readable ZIP archive ({e})")
}

impl Archive {
    /// Read the table of contents of the ZIP archive `b`. Of two entries of one name, the
    /// last is listed, at the first's place: what Inspect's reader sees.
    pub fn read(b: &[u8]) -> Result<Archive, String> {
        let mut z = ZipArchive::new(Cursor::new(b)).map_err(|e| {
            format!(
                "a ZIP archive whose central directory (its list of entries, at its end) is \
                 cut or damaged: a file copied or downloaded in part? ({e})"
            )
        })?;
        let mut entries = Vec::with_capacity(z.len());
        for index in 0..z.len() {
            let f = z.by_index_raw(index).map_err(bad)?;
            let start = f.data_start().unwrap_or(0);
            let end = start.saturating_add(f.compressed_size());
            entries.push(Entry {
                name: f.name().map_err(bad)?.into_owned(),
                method: f.compression(),
                crc: f.crc32(),
                data: start as usize..usize::try_from(end).unwrap_or(usize::MAX),
                index,
                meta: f.entry().into(),
            });
        }
        Ok(Archive { entries })
    }

    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }
}

/// The largest entry verdict inflates: ten times the largest log the Inspect docs speak
/// of (a `.json` log that "grows to 100mb or larger" with its images: inspect_ai's
/// docs/eval-logs.qmd, "Image Logging"), where an entry of a `.eval` is one sample.
pub const MAX_ENTRY: u64 = 1_000_000_000;
/// The largest compression ratio verdict inflates. The entries of real logs are 1.6 to
/// 5.7 to 1 (tests/fixtures/real-logs/inspect); deflate cannot pass 1,032 to 1, and
/// Zstandard reaches 32,768 to 1 on a run of one byte (a bomb's).
pub const MAX_RATIO: u64 = 1000;

/// The entry's content, inflated, checked against its CRC-32: refused, before anything
/// is inflated, when it says it is larger than `MAX_ENTRY` or `MAX_RATIO` times its
/// compressed size, and as soon as it inflates past the size it says.
pub fn read(b: &[u8], e: &Entry) -> Result<Vec<u8>, String> {
    let why = |err: &dyn std::fmt::Display| format!("{}: {err}", e.name);
    if e.meta.is_symlink() {
        return Err(format!("{}: a symbolic link, not a file; not read", e.name));
    }
    let (size, packed) = (e.meta.size(), e.meta.compressed_size());
    if size > MAX_ENTRY || size > MAX_RATIO.saturating_mul(packed) {
        let mb = |n: u64| n / 1_000_000;
        return Err(format!(
            "{}: inflates to {} MB from {} bytes ({}:1): over what verdict inflates \
             ({} MB an entry, {MAX_RATIO}:1); not read (a ZIP bomb?)",
            e.name,
            mb(size),
            packed,
            size / packed.max(1),
            mb(MAX_ENTRY),
        ));
    }
    let mut cursor = Cursor::new(b);
    let mut f = e
        .meta
        .as_ref()
        .with_reader(&mut cursor, ZipReadOptions::new())
        .map_err(|err| why(&err))?;
    // (the reader fails one byte past the declared size, which is within the bounds)
    let mut out = Vec::with_capacity(size as usize);
    f.read_to_end(&mut out).map_err(|err| why(&err))?;
    Ok(out)
}

/// Write a copy of archive `a` (read from `b`) to `out`, with the content of the entries
/// named in `replaced` replaced (compressed with the entry's own method); every other
/// entry's data is copied as it is, and the entries keep their order. Returns the bytes
/// written.
pub fn rewrite(
    b: &[u8],
    a: &Archive,
    replaced: &BTreeMap<String, Vec<u8>>,
    out: &mut dyn Write,
) -> io::Result<u64> {
    let mut z = ZipArchive::new(Cursor::new(b)).map_err(io::Error::other)?;
    // (in memory: a ZIP writer without `Seek` would give every entry a data descriptor)
    let mut w = ZipWriter::new(Cursor::new(Vec::with_capacity(b.len())));
    for e in &a.entries {
        match replaced.get(&e.name) {
            None => w.raw_copy_file(z.by_index_raw(e.index)?)?,
            Some(content) => {
                let options = z.by_index_raw(e.index)?.options();
                w.start_file(e.name.as_str(), options)?;
                w.write_all(content)?;
            }
        }
    }
    let written = w.finish()?.into_inner();
    out.write_all(&written)?;
    Ok(written.len() as u64)
}
