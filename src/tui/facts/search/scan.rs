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
//! (or a bound on it) plus what the query can add to it ([`growth`](super::bound::growth)) is a bound on its
//! score now; below the `limit`-th best score found so far, it cannot enter. It stays a
//! candidate for the next letter, with that bound. A letter or digit typed on a word
//! that ends in one adds at most 23, not 26, to a cell of its ceiling's last row that
//! carries less than 8: a candidate whose ceiling was walked keeps how much less than 26
//! its next letter can add ([`Known::less`], [`Ceiling::typed_on_less`]).
//!
//! Once it has `limit` matches, a scan also skips, without nucleo, a text that cannot
//! reach the worst of them: by its [`Ceiling`] (nucleo's score or above, at a fraction
//! of its cost), which it keeps as the text's bound for the next letter (or, when asked,
//! by the reach check, [`Reach`]).
//!
//! "Cannot enter" counts the item too ([`Opts::ties`]): the best `limit` of the candidates
//! tried so far rank at or above the full scan's `limit`-th (a set's `limit`-th best is
//! never above a larger set's), so a candidate whose bound ranks below the worst of
//! them — a lower score, or the same score and a later item — cannot enter. Many texts tie
//! at the worst score (`real` matches every `cvqa-real-…` id alike): they are skipped on
//! their ceiling where nucleo scored each of them before.
//!
//! A query typed on from the last one starts with that worst not at nothing but at the
//! `limit`-th best of a few hundred candidates picked by their bound ([`Opts::seed`]):
//! real matches among the candidates, so the same argument holds, and the scan skips from
//! its first chunk on what it would only skip once it had found its best otherwise.
//!
//! A scan ends, leaving its candidates from there on not tried, as soon as `cancel` says
//! a newer request waits (the worker's): what it kept is what a scan that stopped there
//! keeps, so the next query still narrows from it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use nucleo_matcher::pattern::Pattern;
use nucleo_matcher::{Config, Matcher, Utf32Str};

use super::super::Index;
use super::bound::{Growth, score_bound};
use super::candidates::{Candidates, Known, NO_ROW, PLAIN_LEN, RowStore, copy_row, plain};
use super::ceiling::{Ceiling, Scratch};
use super::reach::Reach;
use super::{may_match, pattern, prefilter_needles, rank};

/// Added to the score of an item whose id is the query (ASCII case aside): exact id hits first.
pub(super) const ID_BONUS: u32 = 1 << 20;

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
    /// Walk, for a candidate tried for the first time (no bound from the last query),
    /// only the cells of the ceiling's matrix that can reach the worst of the best
    /// `limit` ([`Ceiling::of_at_least`]); a candidate with a bound is walked whole. At
    /// 1M it halves the "real" keystroke (a million `cvqa-real-…` ids and texts after
    /// "rea" stopped early; docs/performance.md). Walking every candidate so leaves
    /// bounds near the worst's score, and the next letter walks them all again.
    pub walk_stops: bool,
    /// Keep, for each candidate with a bound whose ceiling is walked (whole), the last
    /// row of its walk ([`Ceiling::keep`]), so that the next letter walks from it only
    /// the rows of the letters typed since ([`Ceiling::extend`]): "aeiou"'s last letter
    /// walks ~0.4M texts that way (docs/performance.md). Plain texts, rows of at most
    /// [`ROW_CELLS`] cells. A candidate tried for the first time keeps none: its walk
    /// leaves out what cannot reach the worst, and a row extended from it says little
    /// more than its bound.
    pub rows: bool,
    /// Skip, once `limit` matches are found, a candidate whose bound ties with the worst
    /// of them when its item comes after that one's (it would lose on its item).
    pub ties: bool,
    /// Start a query typed on from the last one with the worst of the best `limit` among
    /// the candidates with the highest bounds, scored first.
    pub seed: bool,
    /// Stop once the best `limit` are known (only when candidates are in item order).
    pub early_stop: bool,
    /// Give up (the candidates from there on not tried) when this is above 0: a newer
    /// request waits.
    pub cancel: Option<Arc<AtomicUsize>>,
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
            walk_stops: true,
            rows: true,
            ties: true,
            seed: true,
            early_stop: true,
            cancel: None,
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
    /// a match, with its score. The last: what is known of its text ([`Known`]).
    pub kept: Vec<(u32, usize, bool, Known)>,
    /// For each of `kept`, its ceiling's last row ([`Opts::rows`]).
    pub rows: RowStore,
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

/// Where a match ranks: higher is better (score high to low, then item low to high). An
/// item past `u32::MAX` ranks as the last of its score (see [`Scan`]'s use: only with
/// `ties` off then).
pub(super) fn rank_key(score: u32, i: usize) -> u64 {
    let item = u32::try_from(i).unwrap_or(u32::MAX);
    (u64::from(score) << 32) | u64::from(u32::MAX - item)
}

/// A row of more cells than this is not kept (its text walked whole at the next letter,
/// as without rows): the memory rows take stays within ~140 bytes a candidate whatever
/// the texts (the generated 1M set keeps ~5 cells a row on "aeiou").
const ROW_CELLS: usize = 32;

/// Append the last walk's whole last row to `data` ([`Ceiling::keep`]): where it
/// starts, or [`NO_ROW`] when it has more than [`ROW_CELLS`] cells.
fn keep_row(c: &Ceiling, s: &Scratch, data: &mut Vec<u32>) -> u32 {
    let at = data.len();
    match u32::try_from(at) {
        Ok(a) if a < NO_ROW && c.keep(s, 0, ROW_CELLS, data) => a,
        _ => NO_ROW,
    }
}

/// How many candidates with the highest bounds a seed scores, per result wanted.
const SEED_PER_RESULT: usize = 2;

/// Is item `i`'s id the query (ASCII case aside)? Its score has [`ID_BONUS`].
fn is_id(index: &Index, i: usize, q: &str) -> bool {
    // The bytes as they are: equal to the query's (valid UTF-8) but for ASCII case, they
    // are valid UTF-8 too, and `index.id(i)` is them.
    let id = index.id_bytes(i);
    id.len() == q.len() && id.eq_ignore_ascii_case(q.as_bytes())
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
    fn new<'a>(q: &'a str, cands: &Candidates, limit: usize, opts: &Opts) -> Query<'a> {
        let pattern = pattern(q);
        let some = !q.is_empty() && limit > 0;
        Query {
            q,
            needles: if opts.prefilter && !q.is_empty() {
                prefilter_needles(q)
            } else {
                None
            },
            growth: cands.growth.filter(|_| !q.is_empty()),
            reach: (opts.reach && some).then(|| Reach::new(&pattern)).flatten(),
            ceiling: (opts.ceiling && some)
                .then(|| Ceiling::new(&pattern))
                .flatten(),
            pattern,
        }
    }

    /// Does [`Growth`] hold for an item whose search text's bytes are `raw` (ASCII or
    /// not: `ascii`): an ASCII text short enough, and an id that is not the query
    /// (`id_is_q`; its bonus is not counted)?
    fn grows_at_most(&self, raw: &[u8], ascii: bool, id_is_q: bool) -> bool {
        let Some(g) = self.growth else { return false };
        plain(raw, ascii) && raw.len() * g.word <= 100 * 1024 && !id_is_q
    }

    /// [`Query::grows_at_most`] for a text known to be [`plain`], without its bytes:
    /// None when its length matters (a long word).
    fn grows_on_plain(&self, id_is_q: impl FnOnce() -> bool) -> Option<bool> {
        let g = self.growth?;
        (PLAIN_LEN * g.word <= 100 * 1024).then(|| !id_is_q())
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
/// first on (with no chunk missing between) hold; the best `limit` matches found (their
/// [`rank_key`]s).
struct Progress {
    at_bound: Vec<Option<usize>>,
    prefix: usize,
    prefix_at_bound: usize,
    best: BinaryHeap<Reverse<u64>>,
}

/// The rank ([`rank_key`]) of the `limit`-th best match among the head candidates with
/// the highest bounds (`SEED_PER_RESULT × limit` of them, scored), or 0 when fewer match.
/// Every one of them is a candidate of this scan, so the `limit`-th best of all candidates
/// ranks at least as high.
fn seed(index: &Index, query: &Query<'_>, cands: &Candidates<'_>, limit: usize) -> u64 {
    let pick = limit.saturating_mul(SEED_PER_RESULT);
    if limit == 0 || cands.head.len() <= pick {
        return 0;
    }
    // The `pick` highest bounds (ties: the earlier item), in a heap whose top is the
    // lowest of them.
    let mut top: BinaryHeap<Reverse<(u32, Reverse<usize>)>> = BinaryHeap::with_capacity(pick + 1);
    for &(b, i, _) in cands.head {
        if top.len() < pick {
            top.push(Reverse((b, Reverse(i))));
        } else if top.peek().is_some_and(|w| w.0.0 < b) {
            top.pop();
            top.push(Reverse((b, Reverse(i))));
        }
    }
    let mut matcher = Matcher::new(Config::DEFAULT);
    let mut buf = Vec::new();
    let mut keys: Vec<u64> = top
        .into_iter()
        .filter_map(|Reverse((_, Reverse(i)))| {
            let s = query.score(index, i, &mut matcher, &mut buf)?;
            Some(rank_key(s, i))
        })
        .collect();
    if keys.len() < limit {
        return 0;
    }
    keys.select_nth_unstable_by(limit - 1, |a, b| b.cmp(a));
    keys[limit - 1]
}

/// [`seed`] as [`scan`] works it out for `query` (trimmed).
#[cfg(test)]
pub(super) fn seed_for_tests(
    index: &Index,
    query: &str,
    cands: &Candidates,
    limit: usize,
    opts: &Opts,
) -> u64 {
    seed(
        index,
        &Query::new(query.trim(), cands, limit, opts),
        cands,
        limit,
    )
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
    let query = Query::new(q, &cands, limit, opts);
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
    let cancelled = || {
        opts.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed) > 0)
    };
    let skips = query.growth.is_some() || query.reach.is_some() || query.ceiling.is_some();
    // Ties are told apart by the item only when every item has its own rank.
    let ties = opts.ties && index.len() <= u32::MAX as usize;
    // The rank of the `limit`-th best match found so far ([`rank_key`]; 0: fewer found,
    // and no seed): a candidate whose bound ranks below it is skipped.
    let worst_best = AtomicU64::new(if opts.seed && skips && query.growth.is_some() {
        seed(index, &query, &cands, limit)
    } else {
        0
    });
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
        let mut rows = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            if cancelled() {
                stop.store(true, Ordering::Relaxed);
                break;
            }
            let c = next.fetch_add(1, Ordering::Relaxed);
            let Some(&end) = ends.get(c) else { break };
            let start = if c == 0 { 0 } else { ends[c - 1] };
            let mut found = Vec::new();
            let worst = worst_best.load(Ordering::Relaxed);
            // The worst's score, and whether a candidate whose bound is `ub` ranks below
            // the worst (it cannot enter). Not at: the worst may be this candidate's own
            // rank (a seed's, not yet found).
            let worst_score = (worst >> 32) as u32;
            let beaten = |ub: u32, i: usize| {
                worst > 0
                    && if ties {
                        rank_key(ub, i) < worst
                    } else {
                        ub < worst_score
                    }
            };
            cands.each(start..end, |ub, known_plain, i, kept| {
                // A candidate whose text is known to be plain is skipped on its bound
                // without reading the text (its kept row stays as it was: a row of the
                // query it was kept for, which this one extends too).
                if let Some(ub) = ub
                    && known_plain
                    && beaten(ub, i)
                    && query.grows_on_plain(|| is_id(index, i, query.q)) == Some(true)
                {
                    found.push((ub, i, false, Known::of(true), copy_row(kept, &mut rows)));
                    return;
                }
                // The text's bytes, checked to be UTF-8 only when they are not ASCII
                // (`Index::search_bytes`).
                let raw = index.search_bytes(i);
                let ascii = raw.is_ascii();
                let plain = plain(raw, ascii);
                let id_is_q = is_id(index, i, query.q);
                if let Some(ub) = ub
                    && beaten(ub, i)
                    && query.grows_at_most(raw, ascii, id_is_q)
                {
                    found.push((ub, i, false, Known::of(plain), copy_row(kept, &mut rows)));
                    return;
                }
                // The ceiling's last row, kept for the next letter when asked.
                let mut row = NO_ROW;
                // The ceiling, when walked, and how much less than it plus 26 a letter
                // typed on scores at most.
                let mut walked = None;
                // Once `limit` are found, a text that cannot reach the worst of them
                // cannot enter (an exact id hit is left to nucleo: its bonus is not
                // counted).
                if worst > 0 && !id_is_q {
                    if let Some(r) = &query.reach
                        && !r.may_reach(index.search_text(i), worst_score)
                    {
                        found.push((
                            worst_score.saturating_sub(1),
                            i,
                            false,
                            Known::of(plain),
                            NO_ROW,
                        ));
                        return;
                    }
                    if let Some(c) = &query.ceiling {
                        // A candidate with a bound is walked whole, and its last row
                        // kept when asked (of a plain text: its positions fit a kept
                        // row): the next letter walks from it only its own row.
                        let keep = opts.rows && plain && ub.is_some();
                        let from_kept = match (keep, kept) {
                            (true, Some(k)) => c.extend(raw, k, &mut scratch, 0),
                            _ => None,
                        };
                        let most = match from_kept {
                            // Walked whole (need 0): the ceiling itself.
                            Some(m) => m.map(|(m, _)| m),
                            None => {
                                // A candidate tried for the first time walks only what
                                // can reach the worst's score; one with a bound walks it
                                // whole, so that its bound for the next letter is its
                                // ceiling (a walk that stopped leaves a bound near the
                                // worst's score, and the next letter would walk it
                                // again).
                                let need = if opts.walk_stops && ub.is_none() {
                                    worst_score
                                } else {
                                    0
                                };
                                if ascii {
                                    c.of_ascii_at_least(raw, &mut scratch, need)
                                } else {
                                    c.of_at_least(index.search_text(i), &mut scratch, need)
                                }
                            }
                        };
                        match most {
                            // nucleo does not match it.
                            None => return,
                            Some(most) => {
                                if keep {
                                    row = keep_row(c, &scratch, &mut rows);
                                }
                                // (Only a plain text's bound grows by `growth`.)
                                let less = if plain { c.typed_on_less(&scratch) } else { 0 };
                                if beaten(most, i) {
                                    found.push((most, i, false, Known { plain, less }, row));
                                    return;
                                }
                                walked = Some((most, less));
                            }
                        }
                    }
                }
                if let Some(s) = query.score(index, i, &mut matcher, &mut buf) {
                    // Its score is at most its ceiling: a letter typed on scores at most
                    // the ceiling less `less`, plus 26.
                    let less = walked.map_or(0, |(most, less): (u32, u8)| {
                        u8::try_from(u32::from(less).saturating_sub(most - s)).unwrap_or(0)
                    });
                    found.push((s, i, true, Known { plain, less }, row));
                }
            });
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
                    for &(s, i, exact, _, _) in &found {
                        if !exact {
                            continue;
                        }
                        let k = rank_key(s, i);
                        if p.best.len() < limit {
                            p.best.push(Reverse(k));
                        } else if p.best.peek().is_some_and(|w| w.0 < k) {
                            p.best.pop();
                            p.best.push(Reverse(k));
                        }
                    }
                    if p.best.len() == limit
                        && let Some(w) = p.best.peek()
                    {
                        // Never below the seed: both are ranks the final worst reaches.
                        worst_best.fetch_max(w.0, Ordering::Relaxed);
                    }
                }
            }
            // The next chunk's rows, reserved as this one's took per candidate (no
            // doubling and copying as they grow).
            let per = rows.len().div_ceil((end - start).max(1));
            let next_len = ends.get(c + 2).map_or(0, |e| e - ends[c + 1]);
            let part = std::mem::replace(&mut rows, Vec::with_capacity(per * next_len));
            done.push((c, found, part));
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
    let n: usize = chunks.iter().map(|c| c.1.len()).sum();
    let mut kept = Vec::with_capacity(n);
    let mut rows = RowStore::default();
    rows.at.reserve(n);
    for (_, found, part) in chunks {
        // (A part's offsets are below `NO_ROW`: `copy_row` and `keep_row` see to it.)
        rows.push_part(found.iter().map(|f| f.4), part);
        kept.extend(
            found
                .into_iter()
                .map(|(s, i, exact, known, _)| (s, i, exact, known)),
        );
    }
    let mut id_hits = Vec::new();
    // (A scan given up leaves its id hits to the next: they are among its candidates.)
    if tried < total && !q.is_empty() && !cancelled() {
        let mut matcher = Matcher::new(Config::DEFAULT);
        let mut buf = Vec::new();
        cands.each(tried..total, |_, _, i, _| {
            if is_id(index, i, q)
                && let Some(s) = query.score(index, i, &mut matcher, &mut buf)
            {
                id_hits.push((s, i));
            }
        });
    }
    Scan {
        kept,
        rows,
        tried,
        id_hits,
    }
}
