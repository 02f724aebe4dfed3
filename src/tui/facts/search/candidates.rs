//! The candidates a scan tries ([`Candidates`]): the items with a bound from the last
//! query, each with what is known of its text ([`Known`]) and the last row of its
//! ceiling when kept ([`Rows`], [`RowStore`]), then the items not tried yet ([`Tail`]).

use std::ops::Range;

use super::bound::Growth;
use super::ceiling::Kept;

/// The items a scan tries, in this order: `head`, then `tail`.
#[derive(Clone, Copy)]
pub(super) struct Candidates<'a> {
    /// Items with a bound on their score for the last query (`u32::MAX`: none), each
    /// with what is known of its search text ([`Known`]).
    pub head: &'a [(u32, usize, Known)],
    /// How much more than that this query can score on them, when it can be told.
    pub growth: Option<Growth>,
    /// The last rows of the head's ceilings for the last query, when kept ([`Opts::rows`](super::scan::Opts::rows)).
    pub rows: Option<Rows<'a>>,
    pub tail: Tail<'a>,
}

/// The last row of the head candidates' ceilings ([`Ceiling::keep`](super::ceiling::Ceiling::keep)): for each, where its
/// row starts in its part of `data`, or [`NO_ROW`]; the rows are kept in parts, one a
/// chunk of the scan that kept them (no copy into one buffer: at 1M a keystroke keeps
/// 20–40 MB of rows), part `k` holding the rows of the candidates from `starts[k]` on.
#[derive(Clone, Copy)]
pub(super) struct Rows<'a> {
    pub at: &'a [u32],
    pub starts: &'a [usize],
    pub data: &'a [Vec<u32>],
}

/// A candidate without a kept row.
pub(super) const NO_ROW: u32 = u32::MAX;

impl<'a> Rows<'a> {
    /// The part that holds the row of the head candidate at position `p`.
    fn part_of(&self, p: usize) -> usize {
        self.starts.partition_point(|&s| s <= p).saturating_sub(1)
    }

    /// The row kept for the head candidate at position `p`, in part `part`.
    fn of_in(&self, p: usize, part: usize) -> Option<&'a [u32]> {
        let at = *self.at.get(p)?;
        (at != NO_ROW).then(|| {
            let rest = &self.data[part][at as usize..];
            &rest[..Kept::len(rest)]
        })
    }
}

/// The rows a scan keeps ([`Rows`]), owned.
#[derive(Default)]
pub(super) struct RowStore {
    pub at: Vec<u32>,
    pub starts: Vec<usize>,
    pub data: Vec<Vec<u32>>,
}

impl RowStore {
    pub fn rows(&self) -> Rows<'_> {
        Rows {
            at: &self.at,
            starts: &self.starts,
            data: &self.data,
        }
    }

    /// Add the rows of the next candidates (their positions in `part`, or [`NO_ROW`]).
    pub fn push_part(&mut self, at: impl IntoIterator<Item = u32>, part: Vec<u32>) {
        self.starts.push(self.at.len());
        self.at.extend(at);
        self.data.push(part);
    }
}

/// Append `row` (a kept row, or none) to `data`: where it starts there, or [`NO_ROW`].
pub(super) fn copy_row(row: Option<&[u32]>, data: &mut Vec<u32>) -> u32 {
    match row {
        Some(r) if data.len() < NO_ROW as usize => {
            let at = data.len() as u32;
            data.extend_from_slice(r);
            at
        }
        _ => NO_ROW,
    }
}

#[derive(Clone, Copy)]
pub(super) enum Tail<'a> {
    /// The items `start..end`.
    Range(usize, usize),
    List(&'a [usize]),
}

impl Candidates<'_> {
    pub fn len(&self) -> usize {
        self.head.len()
            + match self.tail {
                Tail::Range(a, b) => b - a,
                Tail::List(l) => l.len(),
            }
    }

    /// The candidate at position `p` (< `len`).
    pub fn get(&self, p: usize) -> usize {
        match (self.head.get(p), self.tail) {
            (Some(&(_, i, _)), _) => i,
            (None, Tail::Range(a, _)) => a + p - self.head.len(),
            (None, Tail::List(l)) => l[p - self.head.len()],
        }
    }

    /// Call `f` with the candidates at positions `at`, in order, each with its bound
    /// for this query when there is one, whether its text is known to be [`plain`], and
    /// its kept row when there is one.
    pub(super) fn each(
        &self,
        at: Range<usize>,
        mut f: impl FnMut(Option<u32>, bool, usize, Option<&[u32]>),
    ) {
        let h = self.head.len();
        if at.start < h {
            // The part holding the rows, followed along (positions only grow).
            let mut part = self.rows.map_or(0, |r| r.part_of(at.start));
            for (p, &(b, i, known)) in self.head[..at.end.min(h)].iter().enumerate().skip(at.start)
            {
                let row = self.rows.and_then(|r| {
                    while r.starts.get(part + 1).is_some_and(|&s| s <= p) {
                        part += 1;
                    }
                    r.of_in(p, part)
                });
                // What its ceiling says a letter typed on adds less than 26, only for a
                // candidate with a kept row: one skipped on it is extended from that row
                // at the next letter. A candidate without (its ceiling's first walk left
                // cells out) would be walked whole at the next letter instead of this
                // one: at 1M, "aei" 399 → 271 ms of CPU but "aeio" 338 → 471
                // (docs/performance.md).
                let bound = self.growth.map(|g| {
                    let less = if g.letter && b != u32::MAX && row.is_some() {
                        u32::from(known.less)
                    } else {
                        0
                    };
                    b.saturating_add(g.add) - less
                });
                f(bound, known.plain, i, row);
            }
        }
        let (s, e) = (at.start.max(h) - h, at.end.max(h) - h);
        match self.tail {
            Tail::Range(a, _) => (a + s..a + e).for_each(|i| f(None, false, i, None)),
            Tail::List(l) => l[s..e].iter().for_each(|&i| f(None, false, i, None)),
        }
    }
}

/// Is a search text whose bytes are `raw` (ASCII or not: `ascii`) plain: ASCII, and at
/// most 2048 bytes? [`Growth`] can hold only on such a text (`Query::grows_at_most` in
/// [`super::scan`](mod@super::scan)); a scan keeps this with each candidate for the next letter, which can then skip a
/// candidate on its bound without reading its text.
pub(super) fn plain(raw: &[u8], ascii: bool) -> bool {
    ascii && raw.len() <= PLAIN_LEN
}

/// See [`plain`].
pub(super) const PLAIN_LEN: usize = 2048;

/// What a scan knows of a candidate's search text besides its bound, kept with it for
/// the next letter.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Known {
    /// The text is [`plain`] (false: not known).
    pub plain: bool,
    /// How much less than its bound plus 26 a letter or digit typed on the last word
    /// (when that word ends in one: [`Growth::letter`]) can score at most
    /// ([`Ceiling::typed_on_less`](super::ceiling::Ceiling::typed_on_less)); 0 to 3.
    pub less: u8,
}

impl Known {
    pub(super) const fn of(plain: bool) -> Known {
        Known { plain, less: 0 }
    }
}

// A candidate with its bound and what is known of its text takes no more memory than
// one without (it fits in the bound's padding).
const _: () = assert!(std::mem::size_of::<(u32, usize, Known)>() == 16);
