//! The index's texts (ids and search texts): built in memory, or used in place from a
//! kept index's mapping ([`super::cache`]), in runs of consecutive items.

/// Texts of every item, one after the other: one run per thread that indexed them,
/// kept as they are (joining them would copy every text once more at the end).
#[derive(Debug, Clone, Default)]
pub(super) struct Arena {
    pub(super) runs: Vec<Run>,
}

/// The same texts, however they are split into runs.
impl PartialEq for Arena {
    fn eq(&self, o: &Arena) -> bool {
        self.len() == o.len() && (0..self.len()).all(|i| self.get(i) == o.get(i))
    }
}

/// The texts of items `first..first + count()`.
#[derive(Debug, Clone, Default)]
pub(super) struct Run {
    pub(super) first: usize,
    pub(super) texts: Texts,
}

/// Where a run's texts are.
#[derive(Debug, Clone)]
pub(super) enum Texts {
    /// Built here: the texts one after the other, and where each ends.
    Owned { text: String, ends: Vec<usize> },
    /// In a kept index, used in place ([`super::cache`]): the texts at `text` in `map`, and
    /// where each of the `count` ends as u64s (little-endian) from `ends` on, less
    /// `base` (a run of part of the kept index's texts, carried across another
    /// program's save: where its first text begins among them). Checked when the cache
    /// was read; read through checks again (a file changed under its mapping shows
    /// through it).
    Kept {
        map: std::sync::Arc<crate::store::FileBytes>,
        text: std::ops::Range<usize>,
        ends: usize,
        count: usize,
        base: usize,
    },
}

impl Default for Texts {
    fn default() -> Texts {
        Texts::Owned {
            text: String::new(),
            ends: Vec::new(),
        }
    }
}

impl Run {
    /// How many texts the run holds.
    pub(super) fn count(&self) -> usize {
        match &self.texts {
            Texts::Owned { ends, .. } => ends.len(),
            Texts::Kept { count, .. } => *count,
        }
    }
    /// Where the run's `j`-th text ends in [`Run::bytes`].
    pub(super) fn end(&self, j: usize) -> usize {
        match &self.texts {
            Texts::Owned { ends, .. } => ends[j],
            Texts::Kept {
                map, ends, base, ..
            } => map
                .get(ends + 8 * j..ends + 8 * j + 8)
                .and_then(|b| b.try_into().ok())
                .map_or(0, |b| {
                    (u64::from_le_bytes(b) as usize).saturating_sub(*base)
                }),
        }
    }
    /// The run's texts, one after the other.
    pub(super) fn bytes(&self) -> &[u8] {
        match &self.texts {
            Texts::Owned { text, .. } => text.as_bytes(),
            Texts::Kept { map, text, .. } => map.get(text.clone()).unwrap_or_default(),
        }
    }
    /// The run's `j`-th text.
    pub(super) fn get(&self, j: usize) -> &str {
        match &self.texts {
            Texts::Owned { text, .. } => {
                let lo = if j == 0 { 0 } else { self.end(j - 1) };
                &text[lo..self.end(j)]
            }
            Texts::Kept { .. } => std::str::from_utf8(self.get_bytes(j)).unwrap_or_default(),
        }
    }
    /// The run's `j`-th text as bytes, not checked again (see [`Arena::get_bytes`]).
    pub(super) fn get_bytes(&self, j: usize) -> &[u8] {
        let lo = if j == 0 { 0 } else { self.end(j - 1) };
        let hi = self.end(j);
        self.bytes().get(lo..hi).unwrap_or_default()
    }
    /// How many of the run's texts end at or before byte `p`.
    pub(super) fn ends_upto(&self, p: usize) -> usize {
        let (mut lo, mut hi) = (0, self.count());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.end(mid) <= p {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

impl Arena {
    pub(super) fn push(&mut self, s: &str) {
        if !matches!(
            self.runs.last(),
            Some(Run {
                texts: Texts::Owned { .. },
                ..
            })
        ) {
            let first = self.len();
            self.runs.push(Run {
                first,
                texts: Texts::default(),
            });
        }
        if let Some(Run {
            texts: Texts::Owned { text, ends },
            ..
        }) = self.runs.last_mut()
        {
            text.push_str(s);
            ends.push(text.len());
        }
    }
    pub(super) fn get(&self, i: usize) -> &str {
        // The last run starting at or before `i` (a handful of runs).
        let k = self.runs.partition_point(|r| r.first <= i) - 1;
        let r = &self.runs[k];
        r.get(i - r.first)
    }
    /// Text `i`'s bytes as they are, without [`Arena::get`]'s check that a mapped text is
    /// still UTF-8: when they are ASCII, they are what `get` gives; otherwise `get` is
    /// the text.
    pub(super) fn get_bytes(&self, i: usize) -> &[u8] {
        let k = self.runs.partition_point(|r| r.first <= i) - 1;
        let r = &self.runs[k];
        r.get_bytes(i - r.first)
    }
    pub(super) fn len(&self) -> usize {
        self.runs.last().map_or(0, |r| r.first + r.count())
    }
    /// `o`'s texts after this one's.
    pub(super) fn append(&mut self, o: Arena) {
        let base = self.len();
        for mut r in o.runs.into_iter().filter(|r| r.count() > 0) {
            r.first += base;
            self.runs.push(r);
        }
    }
}
