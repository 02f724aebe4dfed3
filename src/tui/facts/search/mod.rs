//! Search over the index: nucleo fuzzy matching of every item's id and question text,
//! after a cheap subsequence prefilter, and the worker that runs it off the UI thread.

use nucleo_matcher::pattern::{AtomKind, CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher};

use super::Index;

/// Fuzzy-match `query` against ids and question texts (nucleo-matcher: Unicode-aware,
/// smart case); best first, at most `limit`, within `within` when a filter is set.
pub fn search(index: &Index, query: &str, within: Option<&[usize]>, limit: usize) -> Vec<usize> {
    let all = matches(index, query, within, None);
    rank(all, limit)
}

/// Every item matching `query` with its score, in item order; only `candidates` are
/// tried when given (the matches of a query this one extends).
fn matches(
    index: &Index,
    query: &str,
    within: Option<&[usize]>,
    candidates: Option<&[(u32, usize)]>,
) -> Vec<(u32, usize)> {
    matches_with(index, query, within, candidates, true)
}

/// The needles of the prefilter: each word of the query (as nucleo splits it: at
/// spaces), lower-cased, its ASCII characters only. None when the query has a backslash
/// (nucleo's escapes: leave it all to nucleo).
fn prefilter_needles(q: &str) -> Option<Vec<Vec<u8>>> {
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
fn may_match(hay: &[u8], needles: &[Vec<u8>]) -> bool {
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

pub(super) fn matches_with(
    index: &Index,
    query: &str,
    within: Option<&[usize]>,
    candidates: Option<&[(u32, usize)]>,
    prefilter: bool,
) -> Vec<(u32, usize)> {
    let q = query.trim();
    let ids: Vec<usize> = match (candidates, within) {
        (Some(c), _) => c.iter().map(|&(_, i)| i).collect(),
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

fn rank(mut scored: Vec<(u32, usize)>, limit: usize) -> Vec<usize> {
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
/// time only looks at the previous query's matches (a fuzzy match of the longer query is
/// always a match of the shorter one).
#[derive(Default)]
pub struct SearchCache {
    last: Option<LastSearch>,
    index: Option<std::sync::Weak<Index>>,
    /// Score every candidate with nucleo, without the prefilter (the benchmark's
    /// comparison; the results are the same).
    #[doc(hidden)]
    pub no_prefilter: bool,
}

impl SearchCache {
    /// The best `limit` matches of the request.
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
        let candidates = match &self.last {
            Some(l) if narrows(&l.query, q) && l.within == req.within => Some(l.matches.as_slice()),
            _ => None,
        };
        let all = matches_with(
            &req.meta,
            q,
            req.within.as_deref(),
            candidates,
            !self.no_prefilter,
        );
        let out = rank(all.clone(), limit);
        self.last = Some(LastSearch {
            query: q.to_string(),
            within: req.within.clone(),
            matches: all,
        });
        out
    }
}

/// Is every match of `q` a match of `last`, so that `q` need only try `last`'s matches?
/// When `q` is `last` typed on: its words are `last`'s, the last one longer. Not when
/// `last` ends in a backslash: the next character may be an escaped space (`a\ b` is the
/// one word "a b", which `a\` does not contain).
fn narrows(last: &str, q: &str) -> bool {
    !last.is_empty() && !last.ends_with('\\') && q.starts_with(last)
}

struct LastSearch {
    query: String,
    within: Option<Vec<usize>>,
    /// Every match (score, item), in item order.
    matches: Vec<(u32, usize)>,
}

/// Runs fuzzy searches off the UI thread. Requests that pile up while one runs are
/// dropped but for the newest, so typing fast never queues work.
pub struct SearchWorker {
    tx: std::sync::mpsc::Sender<SearchRequest>,
}

impl SearchWorker {
    pub fn spawn(send: Box<dyn Fn(u64, Vec<usize>) + Send>) -> SearchWorker {
        let (tx, rx) = std::sync::mpsc::channel::<SearchRequest>();
        std::thread::Builder::new()
            .name("verdict-search".into())
            .spawn(move || {
                let mut cache = SearchCache::default();
                while let Ok(mut req) = rx.recv() {
                    while let Ok(newer) = rx.try_recv() {
                        req = newer;
                    }
                    let results = cache.run(&req, 500);
                    send(req.seq, results);
                }
            })
            .expect("spawn the search worker");
        SearchWorker { tx }
    }

    pub fn request(&self, req: SearchRequest) {
        let _ = self.tx.send(req);
    }
}
