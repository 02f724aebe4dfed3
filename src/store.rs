//! The result-set store: the file's bytes, the byte span of every item, and the edits.
//!
//! Opening maps the file (its pages stay the page cache's; see `map` for a file truncated
//! under us) and finds item spans without parsing items (a newline scan for JSONL; for
//! the JSON document form, one pass that borrows each item as a raw slice). Items are
//! parsed on demand. Grading splices one review into an item's text; saving writes every
//! other byte through unchanged (copied in the kernel where the file system allows), so
//! untouched JSONL lines stay byte-identical. Saves are atomic (temporary file in the same
//! folder, fsync, rename, fsync of the folder), keep the file's owner and permissions, and
//! refuse to overwrite a file another program changed or the user may not write.

use std::any::Any;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use serde_json::Value;

// What the tests module (`super::*`) uses of what moved to `disk` and `error`.
#[cfg(test)]
use std::fs::{self, File};
#[cfg(test)]
use std::io;

/// Files of this size or more are mapped rather than read into memory.
const MAP_FROM: u64 = 64 << 20;

/// The two file forms of docs/format.md (JSONL and the JSON document).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Jsonl,
    Json,
}

mod error;
pub use error::{ItemError, StoreError, classify_parse_error};
mod disk;
mod text;
use disk::{Stamp, open_regular, sync_dir};
pub use disk::{parent_dir, special_kind, stamp_text_of};
pub use text::ItemText;

/// An item's text with one review set or removed, from `Store::prepare_review`.
#[derive(Debug)]
pub struct ReviewEdit {
    item: usize,
    text: String,
}

/// An open result set. Cloning is cheap (the file's bytes are shared): the reviewer keeps
/// a read-only clone for display while its IO worker owns the one that is edited and saved.
#[derive(Debug, Clone)]
pub struct Store {
    path: PathBuf,
    format: Format,
    buf: Arc<map::Bytes>,
    /// Byte span and 1-based first line of each item in `buf` (JSONL: the line without
    /// its terminator), shared by the clones ([`offsets`]).
    offsets: Arc<offsets::Offsets>,
    /// Replacement text of edited items.
    edits: BTreeMap<usize, String>,
    /// Items changed since the last save. Edits stay after a save (the buffer keeps the
    /// bytes as read; `buf` + `edits` is the current content), so a save never has to
    /// rebuild the buffer.
    dirty: BTreeSet<usize>,
    /// Items whose text in the file on disk is their edit (saved), not the bytes read.
    saved_edits: BTreeSet<usize>,
    stamp: Option<Stamp>,
    /// The file `split` or `merge` took this file's items from ([`origin`]), if any.
    origin: Option<PathBuf>,
    /// The folder relative image paths are relative to, when it is not this file's own.
    image_dir: Option<PathBuf>,
    /// What the reader of the items worked out from the naming path (the registry's
    /// `bench::FileInfo`: an lm-eval run's model and results file), kept for it; the
    /// store does not look inside. Emptied when the origin changes.
    naming: Arc<OnceLock<Arc<dyn Any + Send + Sync>>>,
    /// The file is in a container format ([`container`]): `buf` holds its items as
    /// lines, and a save writes the file through it.
    container: Option<Arc<dyn container::Container>>,
    /// A folder's files read as one set ([`set`]): every question about an item is its
    /// file's store's.
    parts: Option<Arc<set::Parts>>,
}

/// What a save did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaveReport {
    pub items_written: usize,
    pub bytes: u64,
}

impl Store {
    /// Open a result set; the format follows the extension (`.jsonl`/`.ndjson` vs
    /// `.json`), else the content.
    pub fn open(path: impl AsRef<Path>) -> Result<Store, StoreError> {
        Store::open_with(path, Scan::Whole)
    }

    /// `open`, finding the items as `scan` says: with [`Scan::Background`], a large JSONL
    /// file's store is returned once its first items are found, and every question about
    /// an item not found yet waits for the scan (`len` and a save wait for all of it;
    /// only [`Store::len_so_far`] does not wait).
    pub fn open_with(path: impl AsRef<Path>, scan: Scan) -> Result<Store, StoreError> {
        let path = path.as_ref().to_path_buf();
        #[cfg(test)]
        if test_hook::maps_every_file() {
            return Store::open_mapping_from(path, 0, scan);
        }
        let map_from = if scan == Scan::WholeMapped {
            0
        } else {
            MAP_FROM
        };
        Store::open_mapping_from(path, map_from, scan)
    }

    /// `open_with`, mapping files of `map_from` bytes or more.
    fn open_mapping_from(path: PathBuf, map_from: u64, scan: Scan) -> Result<Store, StoreError> {
        let io_err = |source| StoreError::Io {
            path: path.clone(),
            source,
        };
        let (f, meta) = open_regular(&path)?;
        // A large file is mapped, not copied: its pages are the page cache's, and only the
        // items' offsets are kept in memory. (A file changed or truncated under us: see
        // `map`.) A smaller one is read: a private copy costs little and keeps showing
        // what was read whatever other programs do to the file.
        let bytes = map::Bytes::map(f, meta.len(), meta.len() >= map_from).map_err(io_err)?;
        let mut s = match container::sniff(&path, &bytes) {
            // A container file: its items as lines, written back by its own reader.
            Some(Ok(c)) => {
                let mut s = Store::from_backing(path, Format::Jsonl, map::Bytes::Owned(c.lines))?;
                s.container = Some(c.container);
                s
            }
            Some(Err(message)) => return Err(StoreError::Document { path, message }),
            None => {
                let format = detect_format(&path, &bytes);
                let gate = scan::Gate::from_env();
                if !matches!(scan, Scan::Whole | Scan::WholeMapped)
                    && format == Format::Jsonl
                    && (bytes.file().is_some() || gate.is_some())
                {
                    let kept = match &scan {
                        Scan::Kept(k) => kept::open(k, &Stamp::of(&meta).text(), &bytes),
                        _ => None,
                    };
                    match kept {
                        Some(t) => Store::of(
                            path,
                            Format::Jsonl,
                            Arc::new(bytes),
                            Arc::new(offsets::Offsets::whole(t)),
                        ),
                        None => Store::scanning(path, bytes, gate),
                    }
                } else {
                    Store::from_backing(path, format, bytes)?
                }
            }
        };
        s.stamp = Some(Stamp::of(&meta));
        s.set_origin(origin::source_of(&s.path));
        Ok(s)
    }

    /// Build a store over bytes already in memory (the file at `path` is not read; a
    /// later save will create or replace it without a conflict check).
    pub fn from_bytes(path: PathBuf, format: Format, buf: Vec<u8>) -> Result<Store, StoreError> {
        Store::from_backing(path, format, map::Bytes::Owned(buf))
    }

    fn from_backing(path: PathBuf, format: Format, buf: map::Bytes) -> Result<Store, StoreError> {
        let (spans, lines) = match format {
            Format::Jsonl => index_jsonl(&buf),
            Format::Json => index_document(&buf).map_err(|message| StoreError::Document {
                path: path.clone(),
                message,
            })?,
        };
        Ok(Store::of(
            path,
            format,
            Arc::new(buf),
            Arc::new(offsets::Offsets::whole(offsets::Table::from_vecs(
                spans, lines,
            ))),
        ))
    }

    /// A store of `buf`'s items at `offsets`, with no edit, stamp or origin yet.
    fn of(
        path: PathBuf,
        format: Format,
        buf: Arc<map::Bytes>,
        offsets: Arc<offsets::Offsets>,
    ) -> Store {
        Store {
            naming: Arc::default(),
            path,
            format,
            buf,
            offsets,
            edits: BTreeMap::new(),
            dirty: BTreeSet::new(),
            saved_edits: BTreeSet::new(),
            stamp: None,
            origin: None,
            image_dir: None,
            container: None,
            parts: None,
        }
    }

    /// A JSONL store whose lines a scan finds in the background.
    fn scanning(path: PathBuf, buf: map::Bytes, gate: Option<scan::Gate>) -> Store {
        let buf = Arc::new(buf);
        let offsets = Arc::new(offsets::Offsets::default());
        scan::spawn(Arc::clone(&buf), Arc::clone(&offsets), gate);
        // Its first items (or its end): what the first screen shows.
        offsets.get(0);
        Store::of(path, Format::Jsonl, buf, offsets)
    }

    /// Take names and images from `source` (see [`origin`]): its folder holds the images
    /// when it exists; else this file's folder does.
    pub fn set_origin(&mut self, source: Option<PathBuf>) {
        self.image_dir = source
            .as_deref()
            .map(|s| s.parent().unwrap_or(Path::new("")).to_path_buf())
            .filter(|d| d.as_os_str().is_empty() || d.is_dir());
        if source != self.origin {
            self.naming = Arc::default();
        }
        self.origin = source;
    }

    /// The file `split` or `merge` took this file's items from, if an origin file beside
    /// it says so (docs/format.md, "Paths").
    pub fn origin(&self) -> Option<&Path> {
        self.origin.as_deref()
    }

    /// The path whose name and folder name the set's implicit names (a CharToM-QA
    /// evaluation file's model, an lm-eval log's model): the origin, else the file.
    pub fn naming_path(&self) -> &Path {
        self.origin.as_deref().unwrap_or(&self.path)
    }

    /// The folder relative `image` paths are relative to: the origin's folder when it
    /// exists, else the file's own folder (empty for a bare file name: the current one).
    pub fn image_dir(&self) -> &Path {
        match &self.image_dir {
            Some(d) => d,
            None => self.path.parent().unwrap_or(Path::new("")),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
    /// What `make` works out from the naming path ([`Store::naming_path`]), worked out
    /// once and kept until the origin changes: the reader of the items keeps there what
    /// the path tells about them (`bench::FileInfo`). `None` when what is kept is not a
    /// `T` (another reader's).
    pub fn naming_memo<T: Any + Send + Sync>(
        &self,
        make: impl FnOnce(&Path) -> T,
    ) -> Option<Arc<T>> {
        let kept = self
            .naming
            .get_or_init(|| Arc::new(make(self.naming_path())) as Arc<dyn Any + Send + Sync>);
        Arc::clone(kept).downcast::<T>().ok()
    }
    pub fn format(&self) -> Format {
        self.format
    }
    /// The container format the file is in, if it is in one: what it is called.
    pub fn container(&self) -> Option<String> {
        self.container.as_ref().map(|c| c.describe())
    }
    pub fn len(&self) -> usize {
        if let Some(p) = &self.parts {
            return p.len();
        }
        self.offsets.complete().len()
    }
    pub fn is_empty(&self) -> bool {
        if let Some(p) = &self.parts {
            return p.len() == 0;
        }
        self.offsets.get(0).is_none()
    }
    /// How many items the open has found so far, without waiting for a scan still
    /// running ([`Scan::Background`]), and whether it has found them all.
    pub fn len_so_far(&self) -> (usize, bool) {
        if let Some(p) = &self.parts {
            return (p.len(), true);
        }
        self.offsets.so_far()
    }
    /// Let go of the page tables of a mapped file once every item has been read (the
    /// index built): the file's pages stay in the page cache, but quitting no longer
    /// pays for unmapping them (101 ms at 1M items). Waits for the scan.
    pub fn release_pages(&self) {
        for s in self.parts().unwrap_or_default() {
            s.release_pages();
        }
        self.offsets.complete();
        self.buf.release_pages();
    }
    /// Is there an item `i`? Waits until the scan has found it or has ended.
    pub fn has(&self, i: usize) -> bool {
        if let Some(p) = &self.parts {
            return i < p.len();
        }
        self.offsets.get(i).is_some()
    }
    pub fn is_dirty(&self) -> bool {
        !self.dirty.is_empty()
    }
    pub fn edited(&self) -> impl Iterator<Item = usize> + '_ {
        self.dirty.iter().copied()
    }

    /// 1-based line of item `i` in the file (JSONL: its line; JSON: where it starts).
    /// 0 when there is no item `i` (lines are 1-based).
    pub fn line(&self, i: usize) -> u32 {
        if let Some(at) = self.in_set(i) {
            return at.map_or(0, |(s, j)| s.line(j));
        }
        self.offsets.get(i).map_or(0, |(_, line)| line)
    }

    /// How messages name item `i` when it has no id: `#<line>` (JSONL) or `#<index>`
    /// (JSON, 1-based).
    /// (Without an item `i`, `#<index>`.)
    pub fn fallback_id(&self, i: usize) -> String {
        if let Some(Some((s, j))) = self.in_set(i) {
            return s.fallback_id(j);
        }
        match (self.format, self.offsets.get(i)) {
            (Format::Jsonl, Some((_, line))) => format!("#{line}"),
            _ => format!("#{}", i + 1),
        }
    }

    /// The item's current bytes (its edit if edited); `None` if there is no item `i`.
    pub fn raw_bytes(&self, i: usize) -> Option<&[u8]> {
        if let Some(at) = self.in_set(i) {
            return at.and_then(|(s, j)| s.raw_bytes(j));
        }
        match self.edits.get(&i) {
            Some(t) => Some(t.as_bytes()),
            None => self.offsets.get(i).map(|(s, _)| &self.buf[s]),
        }
    }

    /// Write the head of the kept index of this store's file ([`kept`]): the stamp of
    /// the file it describes (this store's, `stamp_text`, but for a benchmark's) and
    /// where its items are. Waits for the scan.
    pub fn write_kept_head<W: std::io::Write>(
        &self,
        w: &mut kept::Summed<W>,
        stamp: &str,
    ) -> std::io::Result<()> {
        kept::write_head(w, stamp, self.offsets.complete())
    }

    /// The stamp of the file as this store last read or saved it, as text.
    pub fn stamp_text(&self) -> Option<String> {
        self.stamp.as_ref().map(Stamp::text)
    }

    /// Has another program written the file in place since it was read (a mapped file:
    /// its items may no longer read as they were indexed)? A rename over it does not
    /// count (the mapping keeps the file read).
    pub fn changed_on_disk(&self) -> bool {
        if let Some(p) = self.parts() {
            return p.iter().any(Store::changed_on_disk);
        }
        self.buf.changed_on_disk()
    }

    /// The item's current text.
    pub fn raw(&self, i: usize) -> Result<&str, ItemError> {
        if let Some(at) = self.in_set(i) {
            let (s, j) = at.ok_or(ItemError::NoSuchItem(i))?;
            return s.raw(j);
        }
        if !self.edits.contains_key(&i) && self.buf.changed_on_disk() {
            return Err(ItemError::ChangedOnDisk);
        }
        let b = self.raw_bytes(i).ok_or(ItemError::NoSuchItem(i))?;
        std::str::from_utf8(b).map_err(|e| ItemError::Utf8(e.valid_up_to()))
    }

    /// The item's current text as [`Store::raw`] reads it, to hand to another thread
    /// without copying the file's bytes.
    pub fn raw_shared(&self, i: usize) -> Result<ItemText, ItemError> {
        if let Some(at) = self.in_set(i) {
            let (s, j) = at.ok_or(ItemError::NoSuchItem(i))?;
            return s.raw_shared(j);
        }
        self.raw(i)?;
        Ok(match self.edits.get(&i) {
            Some(t) => ItemText::edited(t),
            None => {
                let (span, _) = self.offsets.get(i).ok_or(ItemError::NoSuchItem(i))?;
                ItemText::read(self.buf.clone(), span)
            }
        })
    }

    /// Parse item `i` as JSON, keeping key order and number spellings.
    pub fn value(&self, i: usize) -> Result<Value, ItemError> {
        let text = self.raw(i)?;
        let v: Value = serde_json::from_str(text).map_err(|e| ItemError::Syntax(e.to_string()))?;
        if !v.is_object() {
            return Err(ItemError::NotObject(crate::model::kind(&v)));
        }
        Ok(v)
    }

    /// Set (or with `None`, remove) `reviews.<reviewer>` of item `i`.
    ///
    /// Only the bytes of that one review change: it is spliced into the item's text, so
    /// every other byte of the item (number spellings, escapes, spacing, key order, other
    /// reviewers' reviews) stays as it was (docs/format.md, "Bytes kept"). A `reviews`
    /// object that empties is removed (unless the file's item had it empty), so removing
    /// one's last review gives back the item as it was before it was graded.
    pub fn set_review(
        &mut self,
        i: usize,
        reviewer: &str,
        review: Option<Value>,
    ) -> Result<(), ItemError> {
        let edit = self.prepare_review(i, reviewer, review.as_ref())?;
        self.apply_review(edit);
        Ok(())
    }

    /// `set_review` in two steps: work out the item's new text without changing the
    /// store (every refusal happens here), so that a verdict can be made durable in the
    /// journal only once it is known to apply; then `apply_review` it.
    pub fn prepare_review(
        &self,
        i: usize,
        reviewer: &str,
        review: Option<&Value>,
    ) -> Result<ReviewEdit, ItemError> {
        let cur = self.raw(i)?;
        // An empty `reviews` in the file's item stays when one's last review goes.
        let orig_empty_reviews = match std::str::from_utf8(self.orig_bytes(i)) {
            Ok(o) => object_members(o).is_ok_and(|m| {
                m.iter().any(|m| {
                    m.key == "reviews"
                        && object_members(&o[m.value.clone()]).is_ok_and(|r| r.is_empty())
                })
            }),
            Err(_) => false,
        };
        let text = splice_review(cur, reviewer, review, orig_empty_reviews)?;
        Ok(ReviewEdit { item: i, text })
    }

    /// Apply an edit `prepare_review` made on this store (nothing changed it since).
    pub fn apply_review(&mut self, edit: ReviewEdit) {
        self.set_text(edit.item, edit.text);
    }

    /// The item's bytes in the file as read.
    fn orig_bytes(&self, i: usize) -> &[u8] {
        self.offsets.get(i).map_or(&[], |(s, _)| &self.buf[s])
    }

    /// Make `text` the current text of item `i`; back to the file's bytes when it equals
    /// them (as JSON: a review changed and changed back may be spelled differently).
    fn set_text(&mut self, i: usize, text: String) {
        let orig = self.orig_bytes(i);
        let same = orig == text.as_bytes()
            || matches!(
                (serde_json::from_slice::<Value>(orig), serde_json::from_str::<Value>(&text)),
                (Ok(a), Ok(b)) if a == b
            ) && !has_duplicate_keys(&text);
        if same {
            if self.edits.remove(&i).is_some() {
                if self.saved_edits.contains(&i) {
                    self.dirty.insert(i);
                } else {
                    self.dirty.remove(&i);
                }
            }
            return;
        }
        if self.edits.get(&i) == Some(&text) {
            return;
        }
        self.edits.insert(i, text);
        self.dirty.insert(i);
    }

    /// Append a new item (for imports). The text must be one line of JSON.
    pub fn push_raw(&mut self, text: String) {
        let end = self.buf.len();
        let table = match Arc::get_mut(&mut self.offsets) {
            Some(o) => o.complete_mut(),
            // Shared with a clone: this store's own copy from now on.
            None => {
                let t = self.offsets.complete().clone();
                self.offsets = Arc::new(offsets::Offsets::whole(t));
                Arc::get_mut(&mut self.offsets)
                    .expect("just made")
                    .complete_mut()
            }
        };
        let i = table.len();
        table.push(end..end, i as u32 + 1);
        self.edits.insert(i, text);
        self.dirty.insert(i);
    }
}

pub mod container;
pub mod origin;

mod save;
pub use save::is_cancelled;

/// Tests stop a save at a named point (`before-rename`, `after-rename`) to let another
/// save run there: a hook of the calling thread only.
#[cfg(test)]
pub(crate) mod test_hook {
    use std::cell::RefCell;

    type Hook = Box<dyn FnMut(&'static str)>;
    thread_local! {
        static HOOK: RefCell<Option<Hook>> = const { RefCell::new(None) };
    }

    pub(crate) fn set(h: Hook) {
        HOOK.with(|x| *x.borrow_mut() = Some(h));
    }

    pub(crate) fn clear() {
        HOOK.with(|x| *x.borrow_mut() = None);
    }

    thread_local! {
        static MAP_ALL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }

    thread_local! {
        static SCAN_GATE: RefCell<Option<(usize, std::path::PathBuf)>> =
            const { RefCell::new(None) };
    }

    /// Hold the background scans of the files this thread opens after their first
    /// `after` items until `path` exists (`VERDICT_TEST_SCAN_GATE` for this thread).
    pub(crate) fn gate_scans(gate: Option<(usize, std::path::PathBuf)>) {
        SCAN_GATE.with(|g| *g.borrow_mut() = gate);
    }

    pub(crate) fn scan_gate() -> Option<(usize, std::path::PathBuf)> {
        SCAN_GATE.with(|g| g.borrow().clone())
    }

    /// Map every file this thread opens, however small (as a large one is).
    pub(crate) fn map_every_file(on: bool) {
        MAP_ALL.with(|m| m.set(on));
    }

    pub(crate) fn maps_every_file() -> bool {
        MAP_ALL.with(|m| m.get())
    }

    pub(crate) fn at(point: &'static str) {
        HOOK.with(|x| {
            if let Some(h) = x.borrow_mut().as_mut() {
                h(point)
            }
        });
    }
}

mod splice;
pub(crate) use splice::set_member_like;
use splice::*;

pub mod kept;
mod offsets;
mod scan;
mod set;
pub use scan::Scan;
mod spans;
use spans::*;

/// The file's bytes: mapped from the file (the page cache's pages, not private memory),
/// or owned (stores built in memory).
///
/// A mapped file that another program truncates would make reading the lost pages raise
/// SIGBUS and kill the process. A SIGBUS handler (installed once) puts zero-filled pages
/// in place of the lost ones in our mappings, and marks the mapping damaged: the reviewer
/// then sees unreadable items instead of crashing, and the store refuses to save over the
/// changed file (its stamp differs as well). A SIGBUS elsewhere keeps its default action.
mod map;
pub use map::Bytes as FileBytes;

#[cfg(test)]
mod tests;
