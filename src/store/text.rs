//! [`ItemText`]: an item's text handed to another thread without copying it.

use std::ops::Range;
use std::sync::Arc;

use super::map;

/// An item's text as a store had it, to be read on another thread (the IO worker works
/// out an id-less item's content key from it): a span of the file's bytes the stores
/// share, or the text of an edit. Cloning it copies no text.
#[derive(Clone)]
pub struct ItemText(Source);

#[derive(Clone)]
enum Source {
    Read {
        buf: Arc<map::Bytes>,
        span: Range<usize>,
    },
    Edited(Arc<str>),
}

impl ItemText {
    pub(super) fn read(buf: Arc<map::Bytes>, span: Range<usize>) -> ItemText {
        ItemText(Source::Read { buf, span })
    }

    pub(super) fn edited(text: &str) -> ItemText {
        ItemText(Source::Edited(text.into()))
    }

    /// The text, as `Store::raw` reads it: `None` when it is not UTF-8, or when another
    /// program has since written the file in place (its bytes may no longer be the
    /// item's).
    pub fn as_str(&self) -> Option<&str> {
        match &self.0 {
            Source::Read { buf, span } => {
                if buf.changed_on_disk() {
                    return None;
                }
                std::str::from_utf8(&buf[span.clone()]).ok()
            }
            Source::Edited(t) => Some(t),
        }
    }
}

impl PartialEq for ItemText {
    fn eq(&self, other: &ItemText) -> bool {
        self.as_str() == other.as_str()
    }
}

impl std::fmt::Debug for ItemText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let len = match &self.0 {
            Source::Read { span, .. } => span.len(),
            Source::Edited(t) => t.len(),
        };
        write!(f, "ItemText({len} bytes)")
    }
}
