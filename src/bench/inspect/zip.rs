//! A small ZIP reader and rewriter for Inspect's `.eval` logs: the entries listed from the
//! central directory (ZIP64 read), an entry's data inflated (stored, deflate, or
//! Zstandard, method 93), and a copy of the archive with some entries replaced, every
//! other entry's local record (header, data, descriptor) copied byte for byte.

use std::io::{self, Read, Write};
use std::ops::Range;

/// ZIP's method number for Zstandard (APPNOTE 4.4.5), what Inspect writes.
pub const ZSTD: u16 = 93;
pub const DEFLATE: u16 = 8;
pub const STORED: u16 = 0;

/// One entry, as its central directory record describes it.
#[derive(Debug, Clone)]
pub struct Entry {
    pub name: String,
    pub method: u16,
    pub crc: u32,
    pub compressed: u64,
    pub size: u64,
    /// The entry's local record: header, name, extra, data (and a data descriptor).
    pub record: Range<usize>,
    /// Its central directory record.
    pub central: Range<usize>,
    /// Where its local header starts (`record.start`).
    offset: u64,
}

/// A ZIP archive's table of contents.
#[derive(Debug, Clone)]
pub struct Archive {
    pub entries: Vec<Entry>,
    /// The archive comment.
    comment: Range<usize>,
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}
fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}
fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

const EOCD: u32 = 0x0605_4b50;
const EOCD64: u32 = 0x0606_4b50;
const EOCD64_LOCATOR: u32 = 0x0706_4b50;
const CENTRAL: u32 = 0x0201_4b50;
const LOCAL: u32 = 0x0403_4b50;

/// Does `bytes` start as a ZIP archive does (a local header, or an empty archive)?
pub fn looks_like_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

impl Archive {
    /// Read the table of contents of the ZIP archive `b`.
    pub fn read(b: &[u8]) -> Result<Archive, String> {
        let end = EndRecord::find(b)?;
        let cd_end = end
            .cd_off
            .checked_add(end.cd_size)
            .filter(|&e| e as usize <= b.len())
            .ok_or_else(|| bad("central directory out of the file"))?;
        let mut entries = Vec::new();
        let mut p = end.cd_off as usize;
        for _ in 0..end.count {
            let e = Entry::central_record(b, p)?;
            p = e.central.end;
            entries.push(e);
        }
        if p as u64 > cd_end {
            return Err(bad("central directory longer than said"));
        }
        set_records(b, &mut entries, end.cd_off)?;
        Ok(Archive {
            entries,
            comment: end.comment,
        })
    }

    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }
}

fn bad(what: &str) -> String {
    format!("not a readable ZIP archive ({what})")
}

/// What the end of central directory record (and its ZIP64 record, when there is one)
/// says: where the central directory is, how many entries it lists, the comment.
struct EndRecord {
    comment: Range<usize>,
    count: u64,
    cd_size: u64,
    cd_off: u64,
}

impl EndRecord {
    fn find(b: &[u8]) -> Result<EndRecord, String> {
        // The end of central directory record: in the last 64 KiB + 22 bytes.
        let from = b.len().saturating_sub(22 + 0xFFFF);
        let eocd = (from..b.len().saturating_sub(21))
            .rev()
            .find(|&i| u32_at(b, i) == Some(EOCD))
            .ok_or_else(|| bad("no end of central directory"))?;
        let comment_len = u16_at(b, eocd + 20).ok_or_else(|| bad("short end record"))? as usize;
        let comment = eocd + 22..(eocd + 22 + comment_len).min(b.len());
        let mut count = u16_at(b, eocd + 10).unwrap_or(0) as u64;
        let mut cd_size = u32_at(b, eocd + 12).unwrap_or(0) as u64;
        let mut cd_off = u32_at(b, eocd + 16).unwrap_or(0) as u64;
        if eocd >= 20 && u32_at(b, eocd - 20) == Some(EOCD64_LOCATOR) {
            let at = u64_at(b, eocd - 12).ok_or_else(|| bad("ZIP64 locator"))? as usize;
            if u32_at(b, at) != Some(EOCD64) {
                return Err(bad("ZIP64 end record"));
            }
            count = u64_at(b, at + 32).ok_or_else(|| bad("ZIP64 end record"))?;
            cd_size = u64_at(b, at + 40).ok_or_else(|| bad("ZIP64 end record"))?;
            cd_off = u64_at(b, at + 48).ok_or_else(|| bad("ZIP64 end record"))?;
        }
        Ok(EndRecord {
            comment,
            count,
            cd_size,
            cd_off,
        })
    }
}

impl Entry {
    /// The entry the central directory record at `p` describes (its local record not
    /// yet known: `set_records`).
    fn central_record(b: &[u8], p: usize) -> Result<Entry, String> {
        if u32_at(b, p) != Some(CENTRAL) {
            return Err(bad("central directory record"));
        }
        let method = u16_at(b, p + 10).ok_or_else(|| bad("central record"))?;
        let crc = u32_at(b, p + 16).ok_or_else(|| bad("central record"))?;
        let mut compressed = u32_at(b, p + 20).ok_or_else(|| bad("central record"))? as u64;
        let mut size = u32_at(b, p + 24).ok_or_else(|| bad("central record"))? as u64;
        let nlen = u16_at(b, p + 28).ok_or_else(|| bad("central record"))? as usize;
        let xlen = u16_at(b, p + 30).ok_or_else(|| bad("central record"))? as usize;
        let clen = u16_at(b, p + 32).ok_or_else(|| bad("central record"))? as usize;
        let mut offset = u32_at(b, p + 42).ok_or_else(|| bad("central record"))? as u64;
        let name_bytes = b.get(p + 46..p + 46 + nlen).ok_or_else(|| bad("name"))?;
        let name = String::from_utf8_lossy(name_bytes).into_owned();
        let extra = b
            .get(p + 46 + nlen..p + 46 + nlen + xlen)
            .ok_or_else(|| bad("extra field"))?;
        // ZIP64: the fields that overflowed, in this order, in extra block 0x0001.
        if let Some(z) = zip64_block(extra) {
            let mut q = 0;
            for field in [&mut size, &mut compressed, &mut offset] {
                if *field == 0xFFFF_FFFF {
                    *field = u64_at(z, q).ok_or_else(|| bad("ZIP64 extra"))?;
                    q += 8;
                }
            }
        }
        let end = p + 46 + nlen + xlen + clen;
        Ok(Entry {
            name,
            method,
            crc,
            compressed,
            size,
            record: 0..0,
            central: p..end,
            offset,
        })
    }
}

/// Each entry's local record: from its local header to the next one (or to the central
/// directory at `cd_off`).
fn set_records(b: &[u8], entries: &mut [Entry], cd_off: u64) -> Result<(), String> {
    let mut starts: Vec<u64> = entries.iter().map(|e| e.offset).collect();
    starts.sort_unstable();
    for e in entries {
        let next = starts
            .get(starts.partition_point(|&s| s <= e.offset))
            .copied()
            .unwrap_or(cd_off);
        if e.offset >= next || next > b.len() as u64 {
            return Err(bad("local record out of place"));
        }
        if u32_at(b, e.offset as usize) != Some(LOCAL) {
            return Err(bad("local header"));
        }
        e.record = e.offset as usize..next as usize;
    }
    Ok(())
}

fn zip64_block(extra: &[u8]) -> Option<&[u8]> {
    let mut q = 0;
    while q + 4 <= extra.len() {
        let id = u16_at(extra, q)?;
        let len = u16_at(extra, q + 2)? as usize;
        let data = extra.get(q + 4..q + 4 + len)?;
        if id == 0x0001 {
            return Some(data);
        }
        q += 4 + len;
    }
    None
}

/// The entry's compressed bytes.
fn data<'a>(b: &'a [u8], e: &Entry) -> Result<&'a [u8], String> {
    let h = e.record.start;
    let nlen = u16_at(b, h + 26).ok_or("short local header")? as usize;
    let xlen = u16_at(b, h + 28).ok_or("short local header")? as usize;
    let start = h + 30 + nlen + xlen;
    b.get(start..start + e.compressed as usize)
        .ok_or_else(|| format!("{}: data out of the file", e.name))
}

thread_local! {
    static DCTX: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// The entry's content, inflated, checked against its CRC-32.
pub fn read(b: &[u8], e: &Entry) -> Result<Vec<u8>, String> {
    let raw = data(b, e)?;
    let mut out = Vec::with_capacity(e.size as usize);
    let r = match e.method {
        STORED => {
            out.extend_from_slice(raw);
            Ok(0)
        }
        DEFLATE => flate2::read::DeflateDecoder::new(raw).read_to_end(&mut out),
        ZSTD => DCTX.with(|d| {
            // one decompression context per thread, not one per entry
            let mut d = d.borrow_mut();
            let d = match &mut *d {
                Some(d) => d,
                None => d.insert(zstd::bulk::Decompressor::new()?),
            };
            out = d.decompress(raw, e.size as usize)?;
            Ok(out.len())
        }),
        m => {
            return Err(format!(
                "{}: compression method {m} is not supported",
                e.name
            ));
        }
    };
    r.map_err(|err| format!("{}: {err}", e.name))?;
    if crc32fast::hash(&out) != e.crc {
        return Err(format!("{}: its CRC-32 does not match its content", e.name));
    }
    Ok(out)
}

/// Compress `content` with `method`.
fn compress(method: u16, content: &[u8]) -> io::Result<Vec<u8>> {
    match method {
        STORED => Ok(content.to_vec()),
        DEFLATE => {
            let mut e =
                flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(content)?;
            e.finish()
        }
        ZSTD => zstd::stream::encode_all(content, 3),
        m => Err(io::Error::other(format!(
            "compression method {m} is not supported"
        ))),
    }
}

/// Write a copy of archive `a` (read from `b`) to `out`, with the content of the entries
/// named in `replaced` replaced (compressed with the entry's own method); every other
/// entry's local record is copied as it is, and the entries keep their order. Returns
/// the bytes written.
pub fn rewrite(
    b: &[u8],
    a: &Archive,
    replaced: &std::collections::BTreeMap<String, Vec<u8>>,
    out: &mut dyn Write,
) -> io::Result<u64> {
    let mut n: u64 = 0;
    // Local records in the order they are in the file.
    let mut order: Vec<&Entry> = a.entries.iter().collect();
    order.sort_by_key(|e| e.record.start);
    let mut offsets = std::collections::HashMap::new();
    // Each replaced entry compressed once, with its own method.
    let mut packed = std::collections::HashMap::new();
    for e in &a.entries {
        if let Some(content) = replaced.get(&e.name) {
            packed.insert(e.central.start, compress(e.method, content)?);
        }
    }
    for e in order {
        let offset = n;
        offsets.insert(e.central.start, offset);
        match replaced.get(&e.name) {
            None => {
                out.write_all(&b[e.record.clone()])?;
                n += e.record.len() as u64;
            }
            Some(content) => {
                let data = &packed[&e.central.start];
                let head = local_header(b, e, content, data)?;
                out.write_all(&head)?;
                out.write_all(data)?;
                n += (head.len() + data.len()) as u64;
            }
        }
    }
    // The central directory, in its own order.
    let cd_start = n;
    for e in &a.entries {
        let c = &b[e.central.clone()];
        let offset = offsets[&e.central.start];
        let nlen = u16_at(c, 28).unwrap_or(0) as usize;
        let xlen = u16_at(c, 30).unwrap_or(0) as usize;
        match replaced.get(&e.name) {
            None => {
                let rec = moved_central(c, nlen, xlen, offset)?;
                out.write_all(&rec)?;
                n += rec.len() as u64;
            }
            Some(content) => {
                let data_len = packed[&e.central.start].len();
                let rec = replaced_central(c, (nlen, xlen), content, data_len, offset)?;
                out.write_all(&rec)?;
                n += rec.len() as u64;
            }
        }
    }
    let end = end_record(
        a.entries.len(),
        cd_start,
        n - cd_start,
        &b[a.comment.clone()],
    )?;
    out.write_all(&end)?;
    n += end.len() as u64;
    Ok(n)
}

fn too_big() -> io::Error {
    io::Error::other("the log is too large to rewrite (over 4 GiB)")
}

/// The local header of a replaced entry at `b[e.record]`: its name and flags kept, its
/// sizes and CRC those of `content` compressed to `data`, no data descriptor, no extra
/// field.
fn local_header(b: &[u8], e: &Entry, content: &[u8], data: &[u8]) -> io::Result<Vec<u8>> {
    let h = e.record.start;
    let nlen = u16_at(b, h + 26).unwrap_or(0) as usize;
    let name = &b[h + 30..h + 30 + nlen];
    let mut head = Vec::with_capacity(30 + nlen);
    head.extend_from_slice(&b[h..h + 6]); // signature, version needed
    let flags = u16_at(b, h + 6).unwrap_or(0) & !0x0008; // no data descriptor
    head.extend_from_slice(&flags.to_le_bytes());
    head.extend_from_slice(&b[h + 8..h + 14]); // method, time, date
    head.extend_from_slice(&crc32fast::hash(content).to_le_bytes());
    let csize = u32::try_from(data.len()).map_err(|_| too_big())?;
    let usize_ = u32::try_from(content.len()).map_err(|_| too_big())?;
    head.extend_from_slice(&csize.to_le_bytes());
    head.extend_from_slice(&usize_.to_le_bytes());
    head.extend_from_slice(&(nlen as u16).to_le_bytes());
    head.extend_from_slice(&0u16.to_le_bytes()); // no extra field
    head.extend_from_slice(name);
    Ok(head)
}

/// An entry's central record `c` as it was, pointing at its local record's new `offset`
/// (in its ZIP64 block when the offset was there).
fn moved_central(c: &[u8], nlen: usize, xlen: usize, offset: u64) -> io::Result<Vec<u8>> {
    let offset32 = u32::try_from(offset).map_err(|_| too_big())?;
    let mut rec = c.to_vec();
    if u32_at(c, 42) == Some(0xFFFF_FFFF) {
        // The offset is in the ZIP64 block, after the sizes that overflowed.
        let mut q = 46 + nlen;
        let mut done = false;
        while q + 4 <= 46 + nlen + xlen {
            let id = u16_at(c, q).unwrap_or(0);
            let len = u16_at(c, q + 2).unwrap_or(0) as usize;
            if id == 0x0001 {
                let mut at = q + 4;
                at += 8 * usize::from(u32_at(c, 24) == Some(0xFFFF_FFFF));
                at += 8 * usize::from(u32_at(c, 20) == Some(0xFFFF_FFFF));
                rec[at..at + 8].copy_from_slice(&offset.to_le_bytes());
                done = true;
            }
            q += 4 + len;
        }
        if !done {
            return Err(io::Error::other("a ZIP64 record without its offset"));
        }
    } else {
        rec[42..46].copy_from_slice(&offset32.to_le_bytes());
    }
    Ok(rec)
}

/// A replaced entry's central record: `c`'s name, attributes, comment and extra fields
/// but its ZIP64 block, the sizes and CRC of `content` compressed to `data_len` bytes, at
/// `offset`. `(nlen, xlen)`: the name's and the extra field's lengths in `c`.
fn replaced_central(
    c: &[u8],
    (nlen, xlen): (usize, usize),
    content: &[u8],
    data_len: usize,
    offset: u64,
) -> io::Result<Vec<u8>> {
    let extra = &c[46 + nlen..46 + nlen + xlen];
    let offset32 = u32::try_from(offset).map_err(|_| too_big())?;
    let mut rec = Vec::with_capacity(c.len());
    rec.extend_from_slice(&c[..8]); // signature, made by, needed
    let flags = u16_at(c, 8).unwrap_or(0) & !0x0008;
    rec.extend_from_slice(&flags.to_le_bytes());
    rec.extend_from_slice(&c[10..16]); // method, time, date
    rec.extend_from_slice(&crc32fast::hash(content).to_le_bytes());
    rec.extend_from_slice(
        &u32::try_from(data_len)
            .map_err(|_| too_big())?
            .to_le_bytes(),
    );
    rec.extend_from_slice(
        &u32::try_from(content.len())
            .map_err(|_| too_big())?
            .to_le_bytes(),
    );
    // Without its ZIP64 block (the sizes and offset fit).
    let mut kept = Vec::new();
    let mut q = 0;
    while q + 4 <= extra.len() {
        let id = u16_at(extra, q).unwrap_or(0);
        let len = u16_at(extra, q + 2).unwrap_or(0) as usize;
        if id != 0x0001 {
            kept.extend_from_slice(&extra[q..(q + 4 + len).min(extra.len())]);
        }
        q += 4 + len;
    }
    rec.extend_from_slice(&(nlen as u16).to_le_bytes());
    rec.extend_from_slice(&(kept.len() as u16).to_le_bytes());
    rec.extend_from_slice(&c[32..42]); // comment length, disk, attributes
    rec.extend_from_slice(&offset32.to_le_bytes());
    rec.extend_from_slice(&c[46..46 + nlen]);
    rec.extend_from_slice(&kept);
    rec.extend_from_slice(&c[46 + nlen + xlen..]);
    Ok(rec)
}

/// The end of central directory record: `count` entries, the directory's start and size,
/// the archive's comment.
fn end_record(count: usize, cd_start: u64, cd_size: u64, comment: &[u8]) -> io::Result<Vec<u8>> {
    let count = u16::try_from(count).map_err(|_| too_big())?;
    let mut end = Vec::with_capacity(22);
    end.extend_from_slice(&EOCD.to_le_bytes());
    end.extend_from_slice(&[0, 0, 0, 0]);
    end.extend_from_slice(&count.to_le_bytes());
    end.extend_from_slice(&count.to_le_bytes());
    end.extend_from_slice(&u32::try_from(cd_size).map_err(|_| too_big())?.to_le_bytes());
    end.extend_from_slice(
        &u32::try_from(cd_start)
            .map_err(|_| too_big())?
            .to_le_bytes(),
    );
    end.extend_from_slice(&(comment.len() as u16).to_le_bytes());
    end.extend_from_slice(comment);
    Ok(end)
}
