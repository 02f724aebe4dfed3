//! The scan for a query's best matches: candidates in chunks, in order, on two threads,
//! stopping once no candidate after the chunks done can enter the best `limit`.
//!
//! Matches rank by score, then by item (lower first), and candidates are tried in item
//! order. So once `limit` matches found so far have the highest score any text can get
//! for the query ([`score_bound`]), a later candidate can only tie with them and lose on
//! its item: the scan stops, and its best `limit` are those of the full scan. The one
//! score above that bound is an exact id hit's (`ID_BONUS`): the candidates not tried are
//! looked at for one (a cheap id comparison) and scored when found.
//!
//! A query typed on from the last one also skips, once it has `limit` matches, the
//! candidates that cannot beat the worst of them: a candidate's score for the last query
//! (or a bound on it) plus what the query can add to it ([`growth`]) is a bound on its
//! score now; below the `limit`-th best score found so far, it cannot enter. It stays a
//! candidate for the next letter, with that bound.
//!
//! Once it has `limit` matches, a scan also skips, without nucleo, a text that cannot
//! reach the worst of them: by its [`Ceiling`] (nucleo's score or above, at a fraction
//! of its cost), which it keeps as the text's bound for the next letter (or, when asked,
//! by the reach check, [`Reach`]).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};

use nucleo_matcher::pattern::Pattern;
use nucleo_matcher::{Config, Matcher, Utf32Str};

use super::super::Index;
use super::bound::{Growth, score_bound};
use super::ceiling::{Ceiling, Scratch};
use super::reach::Reach;
use super::{may_match, pattern, prefilter_needles, rank};

/// Added to the score of an item whose id is the query (ASCII case aside): exact id hits first.
pub(super) const ID_BONUS: u32 = 1 << 20;

/// The items a scan tries, in this order: `head`, then `tail`.
#[derive(Clone, Copy)]
pub(super) struct Candidates<'a> {
    /// Items with a bound on their score for the last query (`u32::MAX`: none).
    pub head: &'a [(u32, usize)],
    /// How much more than that this query can score on them, when it can be told.
    pub growth: Option<Growth>,
    pub tail: Tail<'a>,
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
            (Some(&(_, i)), _) => i,
            (None, Tail::Range(a, _)) => a + p - self.head.len(),
            (None, Tail::List(l)) => l[p - self.head.len()],
        }
    }

    /// Call `f` with the candidates at positions `at`, in order, each with its bound
    /// for this query when there is one.
    fn each(&self, at: Range<usize>, mut f: impl FnMut(Option<u32>, usize)) {
        let h = self.head.len();
        if at.start < h {
            for &(b, i) in &self.head[at.start..at.end.min(h)] {
                f(self.growth.map(|g| b.saturating_add(g.add)), i);
            }
        }
        let (s, e) = (at.start.max(h) - h, at.end.max(h) - h);
        match self.tail {
            Tail::Range(a, _) => (a + s..a + e).for_each(|i| f(None, i)),
            Tail::List(l) => l[s..e].iter().for_each(|&i| f(None, i)),
        }
    }
}

/// How a scan runs; the results are the same whatever these are.
#[derive(Clone, Debug)]
pub(super) struct Opts {
    /// Skip texts that the cheap subsequence check says nucleo cannot match.
    pub prefilter: bool,
    /// Skip, once `limit` matches are found, the texts that cannot reach the worst of
    /// them ([`Reach`]). Off unless asked for: once the ceiling skips, the reach check
    /// costs more than it saves (its walk over the text is as long as the ceiling's, and
    /// a text it skips keeps only "below the worst" as its bound for the next letter).
    pub reach: bool,
    /// Skip, once `limit` matches are found, the texts whose [`Ceiling`] is below the
    /// worst of them.
    pub ceiling: bool,
    /// Stop once the best `limit` are known (only when candidates are in item order).
    pub early_stop: bool,
    /// Threads, the caller's included; 0: two when there are 20,000 candidates or more.
    pub threads: usize,
    /// The first two chunks' size; each next two are twice the size, up to `max_chunk`
    /// (two threads start on chunks of the same size).
    pub first_chunk: usize,
    pub max_chunk: usize,
}

impl Default for Opts {
    fn default() -> Opts {
        Opts {
            prefilter: true,
            reach: false,
            ceiling: true,
            early_stop: true,
            threads: 0,
            first_chunk: 1024,
            max_chunk: 32768,
        }
    }
}

/// What a scan found.
pub(super) struct Scan {
    /// Every candidate tried that matches, with its score, or that was skipped (it
    /// could not enter the best), with a bound on its score; in candidate order. True:
    /// a match, with its score.
    pub kept: Vec<(u32, usize, bool)>,
    /// How many candidates were tried, from the first: all unless the scan stopped early.
    pub tried: usize,
    /// Candidates not tried whose id is the query and that match, with their scores.
    pub id_hits: Vec<(u32, usize)>,
}

impl Scan {
    /// The best `limit`: score high to low, then item low to high.
    pub fn best(&self, limit: usize) -> Vec<usize> {
        let matches = self.kept.iter().filter(|k| k.2).map(|k| (k.0, k.1));
        rank(matches.chain(self.id_hits.iter().copied()).collect(), limit)
    }
}

/// Is item `i`'s id the query (ASCII case aside)? Its score has [`ID_BONUS`].
fn is_id(index: &Index, i: usize, q: &str) -> bool {
    let id = index.id(i);
    id.len() == q.len() && id.eq_ignore_ascii_case(q)
}

/// The query as every candidate is scored against it.
struct Query<'a> {
    q: &'a str,
    pattern: Pattern,
    needles: Option<Vec<Vec<u8>>>,
    growth: Option<Growth>,
    /// Which texts can reach a score ([`Reach`]); None when it does not apply.
    reach: Option<Reach>,
    /// The most each text can score ([`Ceiling`]); None when it does not apply.
    ceiling: Option<Ceiling>,
}

impl Query<'_> {
    /// Does [`Growth`] hold for item `i`: an ASCII text short enough, and an id that is
    /// not the query (whose bonus it does not count)?
    fn grows_at_most(&self, index: &Index, i: usize) -> bool {
        let Some(g) = self.growth else { return false };
        let text = index.search_text(i);
        text.len() <= 2048
            && text.len() * g.word <= 100 * 1024
            && text.is_ascii()
            && !index.id(i).eq_ignore_ascii_case(self.q)
    }

    /// The score of item `i`, None when it does not match; the same as the full scan's.
    fn score(&self, index: &Index, i: usize, m: &mut Matcher, buf: &mut Vec<char>) -> Option<u32> {
        if self.q.is_empty() {
            return Some(0);
        }
        let text = index.search_text(i);
        if let Some(n) = &self.needles
            && !may_match(text.as_bytes(), n)
        {
            return None;
        }
        let score = self.pattern.score(utf32(text, buf), m)?;
        let bonus = if index.id(i).eq_ignore_ascii_case(self.q) {
            ID_BONUS
        } else {
            0
        };
        Some(score + bonus)
    }
}

/// `Utf32Str::new(text, buf)`, without its Unicode segmentation for the texts that do
/// not need it. Nucleo keeps the first character of each grapheme; a text whose
/// characters are ASCII, Latin (U+00A0–U+02FF, before the combining marks) or general
/// punctuation (U+2010–U+205E) has one grapheme per character, but for `\r\n` (one
/// grapheme: `\r`). None of those characters joins the one before it (no Extend,
/// SpacingMark or ZWJ) or the one after it (no Prepend, Hangul or regional indicator).
/// Test `utf32_is_nucleos_conversion`.
pub(super) fn utf32<'a>(text: &'a str, buf: &'a mut Vec<char>) -> Utf32Str<'a> {
    let one_each =
        |c: char| c.is_ascii() || matches!(c, '\u{A0}'..='\u{2FF}' | '\u{2010}'..='\u{205E}');
    if text.is_ascii() || !text.chars().all(one_each) {
        return Utf32Str::new(text, buf);
    }
    buf.clear();
    let mut cr = false;
    for c in text.chars() {
        if !(cr && c == '\n') {
            buf.push(c);
        }
        cr = c == '\r';
    }
    // A character above ASCII is kept: the text is not ASCII once segmented either.
    Utf32Str::Unicode(buf)
}

/// The end position of every chunk of `total` candidates.
fn chunk_ends(total: usize, first: usize, max: usize) -> Vec<usize> {
    let (mut ends, mut at, mut size) = (Vec::new(), 0, first.max(1));
    while at < total {
        at = (at + size).min(total);
        ends.push(at);
        if ends.len() % 2 == 0 {
            size = (size * 2).min(max.max(1));
        }
    }
    ends
}

/// Which chunks are done, and how many matches at the bound the done ones from the
/// first on (with no chunk missing between) hold; the best `limit` scores found.
struct Progress {
    at_bound: Vec<Option<usize>>,
    prefix: usize,
    prefix_at_bound: usize,
    best: BinaryHeap<Reverse<u32>>,
}

/// Score `cands` against `query` (trimmed); see the module's comment for when it stops.
pub(super) fn scan(
    index: &Index,
    query: &str,
    cands: Candidates,
    limit: usize,
    opts: &Opts,
) -> Scan {
    let q = query.trim();
    let query = Query {
        q,
        pattern: pattern(q),
        needles: if opts.prefilter && !q.is_empty() {
            prefilter_needles(q)
        } else {
            None
        },
        growth: cands.growth.filter(|_| !q.is_empty()),
        reach: None,
        ceiling: None,
    };
    let query = Query {
        reach: (opts.reach && !q.is_empty() && limit > 0)
            .then(|| Reach::new(&query.pattern))
            .flatten(),
        ceiling: (opts.ceiling && !q.is_empty() && limit > 0)
            .then(|| Ceiling::new(&query.pattern))
            .flatten(),
        ..query
    };
    let bound = match q.is_empty() {
        _ if !opts.early_stop => None,
        // Every candidate matches with 0.
        true => Some(0),
        false => score_bound(&query.pattern),
    };
    let total = cands.len();
    let ends = chunk_ends(total, opts.first_chunk, opts.max_chunk);
    let threads = match opts.threads {
        0 if total >= 20_000 => 2,
        0 => 1,
        t => t,
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // The `limit`-th best score found so far (0: fewer found): a candidate whose bound
    // is below it is skipped.
    let worst_best = AtomicU32::new(0);
    let progress = Mutex::new(Progress {
        at_bound: vec![None; ends.len()],
        prefix: 0,
        prefix_at_bound: 0,
        best: BinaryHeap::new(),
    });
    let work = || {
        let mut matcher = Matcher::new(Config::DEFAULT);
        let mut buf = Vec::new();
        let mut scratch = Scratch::default();
        let mut done = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            let c = next.fetch_add(1, Ordering::Relaxed);
            let Some(&end) = ends.get(c) else { break };
            let start = if c == 0 { 0 } else { ends[c - 1] };
            let mut found = Vec::new();
            let worst = worst_best.load(Ordering::Relaxed);
            cands.each(start..end, |ub, i| {
                if let Some(ub) = ub
                    && ub < worst
                    && query.grows_at_most(index, i)
                {
                    found.push((ub, i, false));
                    return;
                }
                // Once `limit` are found, a text that cannot reach the worst of them
                // cannot enter (an exact id hit is left to nucleo: its bonus is not
                // counted).
                if worst > 0 && !is_id(index, i, query.q) {
                    let text = index.search_text(i);
                    if let Some(r) = &query.reach
                        && !r.may_reach(text, worst)
                    {
                        found.push((worst - 1, i, false));
                        return;
                    }
                    if let Some(c) = &query.ceiling {
                        match c.of(text, &mut scratch) {
                            // nucleo does not match it.
                            None => return,
                            Some(most) if most < worst => {
                                found.push((most, i, false));
                                return;
                            }
                            Some(_) => {}
                        }
                    }
                }
                if let Some(s) = query.score(index, i, &mut matcher, &mut buf) {
                    found.push((s, i, true));
                }
            });
            let skips = query.growth.is_some() || query.reach.is_some() || query.ceiling.is_some();
            if bound.is_some() || skips {
                let mut p = progress.lock().expect("search progress");
                if let Some(b) = bound {
                    p.at_bound[c] = Some(found.iter().filter(|m| m.2 && m.0 >= b).count());
                    while let Some(&Some(n)) = p.at_bound.get(p.prefix) {
                        p.prefix_at_bound += n;
                        p.prefix += 1;
                    }
                    if p.prefix_at_bound >= limit {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                if skips && limit > 0 {
                    for &(s, _, exact) in &found {
                        if !exact {
                            continue;
                        }
                        if p.best.len() < limit {
                            p.best.push(Reverse(s));
                        } else if p.best.peek().is_some_and(|w| w.0 < s) {
                            p.best.pop();
                            p.best.push(Reverse(s));
                        }
                    }
                    if p.best.len() == limit
                        && let Some(w) = p.best.peek()
                    {
                        worst_best.store(w.0, Ordering::Relaxed);
                    }
                }
            }
            done.push((c, found));
        }
        done
    };
    let mut chunks = if threads <= 1 {
        work()
    } else {
        std::thread::scope(|s| {
            let helpers: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
            let mut all = work();
            for h in helpers {
                all.extend(h.join().expect("search thread"));
            }
            all
        })
    };
    // Every chunk taken was finished, and they were taken in order: the chunks done are
    // the first ones.
    chunks.sort_unstable_by_key(|c| c.0);
    debug_assert!(chunks.iter().enumerate().all(|(k, c)| k == c.0));
    let tried = chunks.len().checked_sub(1).map_or(0, |last| ends[last]);
    let kept = chunks.into_iter().flat_map(|c| c.1).collect();
    let mut id_hits = Vec::new();
    if tried < total && !q.is_empty() {
        let mut matcher = Matcher::new(Config::DEFAULT);
        let mut buf = Vec::new();
        cands.each(tried..total, |_, i| {
            let id = index.id(i);
            if id.len() == q.len()
                && id.eq_ignore_ascii_case(q)
                && let Some(s) = query.score(index, i, &mut matcher, &mut buf)
            {
                id_hits.push((s, i));
            }
        });
    }
    Scan {
        kept,
        tried,
        id_hits,
    }
}
