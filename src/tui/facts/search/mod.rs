//! Search over the index: nucleo fuzzy matching of every item's id and question text,
//! after a cheap subsequence prefilter, and the worker that runs it off the UI thread.
//! The scan ([`scan`]) stops once the best matches are known and skips the candidates
//! that cannot enter them; [`matches_with`] is the full scan it must agree with, result
//! for result (the tests' and the benchmark's reference).

use nucleo_matcher::pattern::{AtomKind, CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher};

use super::Index;

mod bound;
#[cfg(test)]
mod bound_tests;
mod candidates;
mod ceiling;
#[cfg(test)]
mod ceiling_tests;
#[cfg(test)]
mod rank_tests;
mod reach;
#[cfg(test)]
mod reach_tests;
#[cfg(test)]
mod rows_tests;
mod scan;
#[cfg(test)]
mod test_data;
#[cfg(test)]
mod tests;

use bound::growth;
use candidates::{Candidates, Known, NO_ROW, RowStore, Tail, copy_row};
use scan::{Opts, scan};

/// A query as nucleo matches it: words at spaces (`\ ` escapes one), smart case, smart
/// normalisation, every word fuzzy.
fn pattern(q: &str) -> Pattern {
    Pattern::new(
        q,
        CaseMatching::Smart,
        Normalization::Smart,
        AtomKind::Fuzzy,
    )
}

/// How many matches the search lists at most (the best, by score then by item).
pub const SEARCH_SHOWN: usize = 500;

/// Fuzzy-match `query` against ids and question texts (nucleo-matcher: Unicode-aware,
/// smart case); best first, at most `limit`, within `within` when a filter is set.
pub fn search(index: &Index, query: &str, within: Option<&[usize]>, limit: usize) -> Vec<usize> {
    let opts = Opts {
        early_stop: in_item_order(within),
        ..Opts::default()
    };
    scan(index, query, all_of(index, within), limit, &opts).best(limit)
}

/// Every item, or every item of `within`.
fn all_of<'a>(index: &Index, within: Option<&'a [usize]>) -> Candidates<'a> {
    Candidates {
        head: &[],
        growth: None,
        rows: None,
        tail: match within {
            Some(w) => Tail::List(w),
            None => Tail::Range(0, index.len()),
        },
    }
}

/// Are the items of `within` in item order, each once? A scan may stop early only then.
fn in_item_order(within: Option<&[usize]>) -> bool {
    within.is_none_or(|w| w.windows(2).all(|p| p[0] < p[1]))
}

/// The needles of the prefilter: each word of the query (as nucleo splits it: at
/// spaces), lower-cased, its ASCII characters only. None when the query has a backslash
/// (nucleo's escapes: leave it all to nucleo).
pub(super) fn prefilter_needles(q: &str) -> Option<Vec<Vec<u8>>> {
    if q.contains('\\') {
        return None;
    }
    let needles: Vec<Vec<u8>> = q
        .split(' ')
        .map(|w| {
            w.bytes()
                .filter(|b| b.is_ascii() && !b.is_ascii_control())
                .map(|b| b.to_ascii_lowercase())
                .collect::<Vec<u8>>()
        })
        .filter(|n| !n.is_empty())
        .collect();
    (!needles.is_empty()).then_some(needles)
}

/// Could nucleo's fuzzy match find every needle in `hay`? A cheap check that never says
/// no to a text nucleo matches: each needle must be a subsequence of an ASCII text, letters
/// compared without case. A fuzzy match needs its needle's characters in order; nucleo
/// compares ASCII text as it is (or lower-cased), and only a non-ASCII character can
/// match an ASCII one through normalisation (é → e) or case folding, so a text with any
/// non-ASCII byte is always passed on.
pub(super) fn may_match(hay: &[u8], needles: &[Vec<u8>]) -> bool {
    if !hay.is_ascii() {
        return true;
    }
    needles.iter().all(|n| {
        let mut at = 0;
        n.iter().all(|&c| {
            let found = if c.is_ascii_lowercase() {
                memchr::memchr2(c, c.to_ascii_uppercase(), &hay[at..])
            } else {
                memchr::memchr(c, &hay[at..])
            };
            match found {
                Some(k) => {
                    at += k + 1;
                    true
                }
                None => false,
            }
        })
    })
}

/// The full scan, as search was before it could stop early: every item matching `query`
/// with its score, in candidate order; only `candidates` are tried when given (the
/// matches of a query this one extends). Its best `limit` (`rank`) are what [`search`]
/// returns.
pub(super) fn matches_with(
    index: &Index,
    query: &str,
    within: Option<&[usize]>,
    candidates: Option<&[usize]>,
    prefilter: bool,
) -> Vec<(u32, usize)> {
    let q = query.trim();
    let ids: Vec<usize> = match (candidates, within) {
        (Some(c), _) => c.to_vec(),
        (None, Some(w)) => w.to_vec(),
        (None, None) => (0..index.len()).collect(),
    };
    if q.is_empty() {
        return ids.into_iter().map(|i| (0, i)).collect();
    }
    let pattern = Pattern::new(
        q,
        CaseMatching::Smart,
        Normalization::Smart,
        AtomKind::Fuzzy,
    );
    let needles = if prefilter {
        prefilter_needles(q)
    } else {
        None
    };
    let score_slice = |slice: &[usize]| {
        let mut matcher = Matcher::new(Config::DEFAULT);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        for &i in slice {
            let text = index.search_text(i);
            if let Some(n) = &needles
                && !may_match(text.as_bytes(), n)
            {
                continue;
            }
            let hay = nucleo_matcher::Utf32Str::new(text, &mut buf);
            if let Some(score) = pattern.score(hay, &mut matcher) {
                // Exact id hits first.
                let bonus = if index.id(i).eq_ignore_ascii_case(q) {
                    1 << 20
                } else {
                    0
                };
                out.push((score + bonus, i));
            }
        }
        out
    };
    if ids.len() < 20_000 {
        return score_slice(&ids);
    }
    let (a, b) = ids.split_at(ids.len() / 2);
    std::thread::scope(|s| {
        let h = s.spawn(|| score_slice(b));
        let mut out = score_slice(a);
        out.extend(h.join().expect("search thread"));
        out
    })
}

pub(super) fn rank(mut scored: Vec<(u32, usize)>, limit: usize) -> Vec<usize> {
    let by = |a: &(u32, usize), b: &(u32, usize)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
    if scored.len() > limit && limit > 0 {
        scored.select_nth_unstable_by(limit - 1, by);
        scored.truncate(limit);
    }
    scored.sort_by(by);
    scored.truncate(limit);
    scored.into_iter().map(|(_, i)| i).collect()
}

/// The characters of `text` that `query` matches (char indices, ascending), with the
/// same matching as [`search`], for highlighting.
pub fn match_indices(text: &str, query: &str) -> Vec<usize> {
    let q = query.trim();
    if q.is_empty() {
        return vec![];
    }
    let mut matcher = Matcher::new(Config::DEFAULT);
    let pattern = Pattern::new(
        q,
        CaseMatching::Smart,
        Normalization::Smart,
        AtomKind::Fuzzy,
    );
    let mut buf = Vec::new();
    let mut idx = Vec::new();
    let hay = nucleo_matcher::Utf32Str::new(text, &mut buf);
    pattern.indices(hay, &mut matcher, &mut idx);
    let mut out: Vec<usize> = idx.into_iter().map(|i| i as usize).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// A search request for the worker.
pub struct SearchRequest {
    pub seq: u64,
    pub query: String,
    pub meta: std::sync::Arc<Index>,
    pub within: Option<Vec<usize>>,
}

/// The worker's memory of its last search, so that a query typed one more letter at a
/// time only looks at the items the previous query matched or did not try (a fuzzy match
/// of the longer query is always a match of the shorter one), and skips those whose last
/// score shows they cannot enter the best.
#[derive(Default)]
pub struct SearchCache {
    last: Option<LastSearch>,
    index: Option<std::sync::Weak<Index>>,
    /// Score every candidate with nucleo, without the prefilter (the benchmark's
    /// comparison; the results are the same).
    #[doc(hidden)]
    pub no_prefilter: bool,
    /// Score every candidate, never stopping early, as search did before (the benchmark's
    /// and the tests' reference; the results are the same).
    #[doc(hidden)]
    pub full_scan: bool,
    /// The scan as it was before the ceiling ([`ceiling`]): texts skipped by the reach
    /// check ([`reach`]), not by their ceiling (the benchmark's comparison; the results
    /// are the same).
    #[doc(hidden)]
    pub before_ceiling: bool,
    /// The scan as it was before ties were skipped and a query typed on started from a
    /// seed ([`Opts::ties`], [`Opts::seed`]): the benchmark's "before" (the results are
    /// the same).
    #[doc(hidden)]
    pub before_ties: bool,
    /// The scan as it was before the ceiling's walk left out what cannot reach the worst
    /// of the best found ([`Opts::walk_stops`]): every walk whole (the benchmark's
    /// "before"; the results are the same).
    #[doc(hidden)]
    pub before_pruning: bool,
    /// The scan as it was before each ceiling's last row was kept for the next letter
    /// ([`Opts::rows`]): every text with a bound walked again from its first row (the
    /// benchmark's "before"; the results are the same).
    #[doc(hidden)]
    pub before_rows: bool,
    /// Give up a scan as soon as this is above 0 (the worker: a newer request waits).
    cancel: Option<std::sync::Arc<std::sync::atomic::AtomicUsize>>,
    /// Threads and chunk sizes of the scan (the tests make chunks small).
    tuning: Opts,
}

impl SearchCache {
    /// Go on with the last search where its scan stopped, for up to `items` more
    /// candidates, so that the next letter typed finds them scored (and can skip those
    /// that cannot enter). Its results stay what they were. False when no candidate is
    /// left to try.
    pub fn go_on(&mut self, items: usize) -> bool {
        let Some(ix) = self.index.as_ref().and_then(|w| w.upgrade()) else {
            return false;
        };
        let Some(last) = self.last.as_mut() else {
            return false;
        };
        // Nothing to gain for a query no other narrows from.
        let Some(from) = last.tail_from.filter(|_| typed_on_from(&last.query)) else {
            return false;
        };
        let (part, next) = match &last.within {
            None => {
                let end = from.saturating_add(items).min(ix.len());
                (Tail::Range(from, end), (end < ix.len()).then_some(end))
            }
            Some(w) => {
                let rest = &w[w.partition_point(|&i| i < from)..];
                let k = items.min(rest.len());
                (Tail::List(&rest[..k]), rest.get(k).copied())
            }
        };
        let cands = Candidates {
            head: &[],
            growth: None,
            rows: None,
            tail: part,
        };
        // One thread: the other core stays free for the screen.
        let opts = Opts {
            prefilter: !self.no_prefilter,
            early_stop: false,
            threads: 1,
            ..self.tuning.clone()
        };
        let found = scan(&ix, &last.query, cands, 0, &opts);
        last.head.extend(found.kept.iter().map(|k| (k.0, k.1, k.3)));
        // (No ceiling without a best to reach: no rows.)
        let n = last.head.len() - last.rows.at.len();
        last.rows
            .push_part(std::iter::repeat_n(NO_ROW, n), Vec::new());
        last.tail_from = next;
        next.is_some()
    }

    /// The best `limit` matches of the request (when a scan is given up for a newer
    /// request, the best of what it tried: see [`SearchWorker`]).
    pub fn run(&mut self, req: &SearchRequest, limit: usize) -> Vec<usize> {
        let same_index = self
            .index
            .as_ref()
            .and_then(|w| w.upgrade())
            .is_some_and(|ix| std::sync::Arc::ptr_eq(&ix, &req.meta));
        if !same_index {
            self.last = None;
            self.index = Some(std::sync::Arc::downgrade(&req.meta));
        }
        let q = req.query.trim();
        let within = req.within.as_deref();
        let last = self
            .last
            .as_ref()
            .filter(|l| narrows(&l.query, q) && l.within.as_deref() == within);
        let (out, next) = if self.full_scan {
            let candidates: Option<Vec<usize>> = last
                .filter(|l| l.tail_from.is_none())
                .map(|l| l.head.iter().map(|h| h.1).collect());
            let all = matches_with(
                &req.meta,
                q,
                within,
                candidates.as_deref(),
                !self.no_prefilter,
            );
            let head = all.iter().map(|&(s, i)| (s, i, Known::default())).collect();
            (rank(all, limit), (head, None, RowStore::default()))
        } else {
            let cands = match last {
                Some(l) => l.candidates(req.meta.len(), within, q),
                None => all_of(&req.meta, within),
            };
            let opts = Opts {
                prefilter: !self.no_prefilter,
                reach: self.before_ceiling || self.tuning.reach,
                ceiling: !self.before_ceiling && self.tuning.ceiling,
                ties: !self.before_ties && self.tuning.ties,
                walk_stops: !self.before_pruning && self.tuning.walk_stops,
                rows: !self.before_rows && self.tuning.rows,
                seed: !self.before_ties && self.tuning.seed,
                early_stop: in_item_order(within),
                cancel: self.cancel.clone(),
                ..self.tuning.clone()
            };
            let found = scan(&req.meta, q, cands, limit, &opts);
            // What the next query typed on must try, with a bound on its score for this
            // one: this one's matches and the candidates it skipped, then every candidate
            // not tried.
            let best = found.best(limit);
            let mut head: Vec<(u32, usize, Known)> =
                found.kept.iter().map(|k| (k.0, k.1, k.3)).collect();
            let mut rows = found.rows;
            let tail_from = if found.tried == cands.len() {
                None
            } else if found.tried < cands.head.len() {
                let add = cands.growth.map_or(u32::MAX, |g| g.add);
                let rest = &cands.head[found.tried..];
                // (A bound for this query: what it leaves off a letter typed on is not
                // known.)
                head.extend(
                    rest.iter()
                        .map(|&(b, i, k)| (b.saturating_add(add), i, Known::of(k.plain))),
                );
                // Their rows as they were: rows of a query this one extends.
                let mut part = Vec::new();
                let mut at = Vec::with_capacity(rest.len());
                cands.each(found.tried..cands.head.len(), |_, _, _, row| {
                    at.push(copy_row(row, &mut part));
                });
                rows.push_part(at, part);
                last.and_then(|l| l.tail_from)
            } else {
                Some(cands.get(found.tried))
            };
            (best, (head, tail_from, rows))
        };
        self.last = Some(LastSearch {
            query: q.to_string(),
            within: req.within.clone(),
            head: next.0,
            tail_from: next.1,
            rows: next.2,
        });
        out
    }
}

/// Is every match of `q` a match of `last`, so that `q` need only try `last`'s matches?
/// When `q` is `last` typed on: its words are `last`'s, the last one longer. Not when
/// `last` ends in a backslash: the next character may be an escaped space (`a\ b` is the
/// one word "a b", which `a\` does not contain).
fn narrows(last: &str, q: &str) -> bool {
    typed_on_from(last) && q.starts_with(last)
}

/// Can a query typed on from `last` try only `last`'s matches (see [`narrows`])?
fn typed_on_from(last: &str) -> bool {
    !last.is_empty() && !last.ends_with('\\')
}

/// A search as the next one may build on it: which items could still match a query
/// typed on from it.
struct LastSearch {
    query: String,
    within: Option<Vec<usize>>,
    /// Every match among the items it tried and every item it skipped (it could not
    /// enter the best), then the items it did not try before `tail_from`, in item order
    /// (in `within`'s order when that is not item order); each with its score for the
    /// query, or a bound on it (`u32::MAX`: none), and what is known of its text
    /// ([`Known`]).
    head: Vec<(u32, usize, Known)>,
    /// Where the scan stopped in the items (of `within`, or all): every item from here on
    /// was not tried. None: every candidate was tried.
    tail_from: Option<usize>,
    /// For each of `head` (or its first ones: none for the others), the last row of its
    /// ceiling's walk for this query, or for one this one extends, when kept
    /// ([`scan::Rows`]).
    rows: RowStore,
}

impl LastSearch {
    /// The candidates of `q`, a query typed on from this one.
    fn candidates<'a>(&'a self, n: usize, within: Option<&'a [usize]>, q: &str) -> Candidates<'a> {
        let tail = match (self.tail_from, within) {
            (None, _) => Tail::List(&[]),
            (Some(x), None) => Tail::Range(x, n),
            (Some(x), Some(w)) => Tail::List(&w[w.partition_point(|&i| i < x)..]),
        };
        let growth = growth(&pattern(&self.query), &pattern(q));
        Candidates {
            head: &self.head,
            growth,
            // Rows extend only along a query typed on, which `growth` tells.
            rows: growth.map(|_| self.rows.rows()),
            tail,
        }
    }
}

/// How many more candidates the worker tries at a time while no request waits (a few
/// milliseconds on one thread).
const GO_ON_ITEMS: usize = 4096;

/// Runs fuzzy searches off the UI thread. Requests that pile up while one runs are
/// dropped but for the newest, so typing fast never queues work, and a scan running when
/// a newer request comes is given up where it is (the newer one narrows from what it
/// tried); its results are not sent. Between requests it goes on with the last search
/// where it stopped early ([`SearchCache::go_on`]).
pub struct SearchWorker {
    tx: std::sync::mpsc::Sender<SearchRequest>,
    /// Requests sent and not yet taken by the worker.
    waiting: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl SearchWorker {
    pub fn spawn(send: Box<dyn Fn(u64, Vec<usize>) + Send>) -> SearchWorker {
        use std::sync::atomic::Ordering;
        let (tx, rx) = std::sync::mpsc::channel::<SearchRequest>();
        let waiting = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let pending = waiting.clone();
        std::thread::Builder::new()
            .name("verdict-search".into())
            .spawn(move || {
                let mut cache = SearchCache {
                    cancel: Some(pending.clone()),
                    ..SearchCache::default()
                };
                // Each request taken from the channel is no longer waiting.
                let took = |r: SearchRequest| {
                    pending.fetch_sub(1, Ordering::Relaxed);
                    r
                };
                let mut next = rx.recv().ok().map(took);
                while let Some(mut req) = next.take() {
                    while let Ok(newer) = rx.try_recv() {
                        req = took(newer);
                    }
                    let results = cache.run(&req, SEARCH_SHOWN);
                    if pending.load(Ordering::Relaxed) > 0 {
                        // A newer request came while it ran: its scan may have been given
                        // up, and the newer one is answered instead.
                        next = rx.recv().ok().map(took);
                        continue;
                    }
                    send(req.seq, results);
                    // Until the next request: go on with this search where it stopped,
                    // a few milliseconds at a time, so that the next letter has less to do.
                    next = loop {
                        match rx.try_recv() {
                            Ok(r) => break Some(took(r)),
                            Err(std::sync::mpsc::TryRecvError::Disconnected) => break None,
                            Err(std::sync::mpsc::TryRecvError::Empty) => {
                                if !cache.go_on(GO_ON_ITEMS) {
                                    break rx.recv().ok().map(took);
                                }
                            }
                        }
                    };
                }
            })
            .expect("spawn the search worker");
        SearchWorker { tx, waiting }
    }

    pub fn request(&self, req: SearchRequest) {
        // Counted before it is sent: the worker sees it waiting once it can take it.
        self.waiting
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let _ = self.tx.send(req);
    }
}
