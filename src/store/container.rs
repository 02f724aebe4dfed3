//! Files in a container format: neither JSON lines nor a JSON document of `items`, but a
//! file whose items a reader of its own can list (a ZIP of JSON entries, a log document
//! with its samples nested in it). The store shows such a file as JSON lines, one a
//! line, made by that reader when the file is opened; the reviews are spliced into those
//! lines as into any other (and journalled the same way); a save hands every line's
//! current text back to the reader, which writes the file anew in its own format.
//!
//! The store knows no container format: the formats are registered once, at start-up,
//! by whoever knows them (`bench::register_containers`), as [`Sniffer`]s. A file no
//! sniffer recognises is read as JSONL or a JSON document, as always.

use std::fs::File;
use std::io;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

/// A file in a container format, as it was read.
pub trait Container: Send + Sync + std::fmt::Debug {
    /// Write the file anew to `out`: `current(i)` is the current text of item `i` (one
    /// of the lines [`Opened::lines`] gave, with the reviews given since). Gives up, with
    /// an `Interrupted` error, once `cancel` is set. Returns the bytes written.
    fn write(
        &self,
        current: &dyn Fn(usize) -> Option<String>,
        out: &mut File,
        cancel: &AtomicBool,
    ) -> io::Result<u64>;

    /// What the format is called, for messages (`an Inspect AI .eval log`).
    fn describe(&self) -> String;
}

/// A container file, read: its items as JSON lines, and the reader that writes it back.
pub struct Opened {
    /// One JSON object a line, each ending with `\n`.
    pub lines: Vec<u8>,
    pub container: Arc<dyn Container>,
}

/// Recognise a file by its path and content: `None` when it is not in this format;
/// `Some(Err(why))` when it is, but cannot be read.
pub type Sniffer = fn(&Path, &[u8]) -> Option<Result<Opened, String>>;

static SNIFFERS: OnceLock<&'static [Sniffer]> = OnceLock::new();

/// Register the container formats (once; later calls are ignored).
pub fn register(sniffers: &'static [Sniffer]) {
    let _ = SNIFFERS.set(sniffers);
}

/// The first registered format that recognises the file.
pub(super) fn sniff(path: &Path, bytes: &[u8]) -> Option<Result<Opened, String>> {
    SNIFFERS
        .get()
        .into_iter()
        .flat_map(|s| s.iter())
        .find_map(|s| s(path, bytes))
}
