//! Search over the index: every item's id and question text ([`Index::search_text`])
//! fuzzy-matched by nucleo, on nucleo's own threads, as helix's picker does: the texts are
//! handed to a [`Nucleo`] once per index, and a query typed on re-matches only the last
//! query's matches. [`SearchWorker`] runs it off the screen's thread.
//!
//! The order is the one search has always had: score (nucleo's, an item whose id is the
//! query first), then the item's place in the file. nucleo breaks ties by the text's
//! length; [`Search::best`] puts each run of equal scores back in the items' order.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak, mpsc};
use std::thread::JoinHandle;
use std::time::Duration;

use nucleo::pattern::{AtomKind, CaseMatching, Normalization, Pattern};
use nucleo::{Config, Injector, Matcher, Nucleo, Utf32Str, Utf32String};

use super::{BitSet, Index};

/// How many matches the search lists at most (the best, by score then by item).
pub const SEARCH_SHOWN: usize = 500;

/// What an item whose id is the query (ASCII case aside) gets on top of its score.
const ID_HIT: u32 = 1 << 20;

/// A query as search matches it: words at spaces (`\ ` escapes one), smart case, smart
/// normalisation, every word fuzzy (`^`, `'`, `!` and `$` are plain characters).
fn pattern(q: &str) -> Pattern {
    Pattern::new(
        q,
        CaseMatching::Smart,
        Normalization::Smart,
        AtomKind::Fuzzy,
    )
}

/// `q` written in nucleo's query syntax (which [`Nucleo`] parses) so that it parses to
/// [`pattern`]`(q)`: a word's leading `!`, `^` or `'` and its trailing `$` escaped. One
/// word cannot be written so: one that begins with a backslash and then `!`, `^` or `'`,
/// which nucleo reads as that character escaped.
fn in_nucleo_syntax(q: &str) -> String {
    let mut out = String::with_capacity(q.len() + 4);
    let mut word = String::new();
    let mut backslash = false;
    let put = |word: &mut String, out: &mut String| {
        if word.starts_with(['!', '^', '\'']) {
            out.push('\\');
        }
        if let Some(w) = word.strip_suffix('$') {
            out.push_str(w);
            out.push_str("\\$");
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    // Words end where nucleo's end: at a space with no backslash before it.
    for c in q.chars() {
        if c == ' ' && !backslash {
            put(&mut word, &mut out);
            out.push(' ');
        } else {
            word.push(c);
        }
        backslash = c == '\\';
    }
    put(&mut word, &mut out);
    out
}

/// May a query typed on from `last` re-match only `last`'s matches? When `q` is `last`
/// typed on, unless `last` ends in a backslash: the next character may be an escaped
/// space (`a\ b` is the one word "a b", which `a\` does not match).
fn narrows(last: &str, q: &str) -> bool {
    q.starts_with(last) && !last.ends_with('\\')
}

/// The characters of `text` that `query` matches (char indices, ascending), with the
/// same matching as [`search`], for highlighting.
pub fn match_indices(text: &str, query: &str) -> Vec<usize> {
    let q = query.trim();
    if q.is_empty() {
        return vec![];
    }
    let mut matcher = Matcher::new(Config::DEFAULT);
    let mut buf = Vec::new();
    let mut idx = Vec::new();
    pattern(q).indices(Utf32Str::new(text, &mut buf), &mut matcher, &mut idx);
    let mut out: Vec<usize> = idx.into_iter().map(|i| i as usize).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Fuzzy-match `query` against ids and question texts; best first, at most `limit`,
/// within `within` when a filter is set. The worker's search, waited for.
pub fn search(index: &Index, query: &str, within: Option<&[usize]>, limit: usize) -> Vec<usize> {
    let mut s = Search::new(Arc::new(|| {}));
    feed(&s.nucleo.injector(), index, &AtomicBool::new(false));
    s.set_query(query);
    while s.nucleo.tick(10).running {}
    let within = within.map(|w| bits_of(index.len(), w));
    s.best(index, within.as_ref(), limit).unwrap_or_default()
}

fn bits_of(n: usize, items: &[usize]) -> BitSet {
    let mut b = BitSet::new(n);
    for &i in items.iter().filter(|&&i| i < n) {
        b.set(i, true);
    }
    b
}

/// Give nucleo every search text of `ix`, in item order (an item's place in nucleo is its
/// place in the file), until `stop`.
fn feed(to: &Injector<u32>, ix: &Index, stop: &AtomicBool) {
    for i in 0..ix.len() {
        if i % 4096 == 0 && stop.load(Ordering::Relaxed) {
            return;
        }
        to.push(i as u32, |_, cols| {
            cols[0] = Utf32String::from(ix.search_text(i))
        });
    }
}

/// nucleo over one index's search texts, and the query it matches.
struct Search {
    nucleo: Nucleo<u32>,
    /// The index whose texts nucleo holds or is being given.
    texts: Weak<Index>,
    /// The thread giving them, and what stops it.
    feeding: Option<(JoinHandle<()>, Arc<AtomicBool>)>,
    /// The query, trimmed.
    query: String,
}

impl Search {
    /// `notify`: called from nucleo's threads when a match is ready for [`Nucleo::tick`].
    fn new(notify: Arc<dyn Fn() + Sync + Send>) -> Search {
        Search {
            // One column, the search text; a thread per core.
            nucleo: Nucleo::new(Config::DEFAULT, notify, None, 1),
            texts: Weak::new(),
            feeding: None,
            query: String::new(),
        }
    }

    /// Match the texts of `ix` from now on: handed to nucleo on a thread of their own,
    /// unless nucleo holds them already (the same texts: the kept index that takes the
    /// place of the one built, equal to it).
    fn set_index(&mut self, ix: &Arc<Index>) {
        if self.texts.ptr_eq(&Arc::downgrade(ix)) {
            return;
        }
        self.texts = Arc::downgrade(ix);
        if self.feeding.is_some() && !self.feeding() && self.holds_texts_of(ix) {
            return;
        }
        if let Some((_, stop)) = self.feeding.take() {
            stop.store(true, Ordering::Relaxed);
        }
        self.nucleo.restart(true);
        let (to, ix, stop) = (self.nucleo.injector(), ix.clone(), Arc::default());
        let stopped = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("verdict-search-feed".into())
            .spawn(move || feed(&to, &ix, &stopped))
            .expect("spawn the search's feed");
        self.feeding = Some((thread, stop));
    }

    /// Is the feed thread still handing texts to nucleo?
    fn feeding(&self) -> bool {
        self.feeding.as_ref().is_some_and(|(t, _)| !t.is_finished())
    }

    /// Does nucleo hold exactly the search texts of `ix` (as `Utf32String::from` makes
    /// them)?
    fn holds_texts_of(&self, ix: &Index) -> bool {
        let held = self.nucleo.injector();
        held.injected_items() as usize == ix.len()
            && (0..ix.len()).all(|i| {
                let text = ix.search_text(i);
                held.get(i as u32)
                    .is_some_and(|it| match &it.matcher_columns[0] {
                        Utf32String::Ascii(a) => text.is_ascii() && a.as_bytes() == text.as_bytes(),
                        Utf32String::Unicode(u) => {
                            u.iter().copied().eq(nucleo::chars::graphemes(text))
                        }
                    })
            })
    }

    /// Match `query` from the next tick on: only the last query's matches when it
    /// [`narrows`] them.
    fn set_query(&mut self, query: &str) {
        let q = query.trim();
        if q == self.query {
            return;
        }
        let append = narrows(&self.query, q);
        self.nucleo.pattern.reparse(
            0,
            &in_nucleo_syntax(q),
            CaseMatching::Smart,
            Normalization::Smart,
            append,
        );
        self.query = q.to_string();
    }

    /// The best `limit` matches of the query among the texts nucleo has matched so far
    /// (of `ix`, `within` it when given): None while nucleo has no match of this query
    /// yet.
    fn best(&self, ix: &Index, within: Option<&BitSet>, limit: usize) -> Option<Vec<usize>> {
        let passes = |i: usize| within.is_none_or(|w| i < w.len() && w.get(i));
        if self.query.is_empty() {
            return Some((0..ix.len()).filter(|&i| passes(i)).take(limit).collect());
        }
        let snap = self.nucleo.snapshot();
        let pattern = snap.pattern().column_pattern(0);
        let matched = snap.item_count() > 0 || ix.is_empty();
        if !matched || pattern.atoms != self.nucleo.pattern.column_pattern(0).atoms {
            return None;
        }
        // nucleo's scores are not in its snapshot: scored again where needed, by the
        // pattern the snapshot was matched with.
        let mut m = Matcher::new(Config::DEFAULT);
        let mut score = |text: &Utf32String| pattern.score(text.slice(..), &mut m);
        let item = |k: u32| snap.get_matched_item(k).expect("a match of the snapshot");
        // The items whose id is the query, first.
        let q = self.query.as_bytes();
        let held = (snap.item_count() as usize).min(ix.len());
        let mut hits: Vec<(u32, usize)> = (0..held)
            .filter(|&i| ix.id_bytes(i).eq_ignore_ascii_case(q) && passes(i))
            .filter_map(|i| {
                let it = snap.get_item(i as u32)?;
                score(&it.matcher_columns[0]).map(|s| (s + ID_HIT, i))
            })
            .collect();
        hits.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut out: Vec<usize> = hits.iter().map(|h| h.1).take(limit).collect();
        let mut hit_items: Vec<usize> = hits.iter().map(|h| h.1).collect();
        hit_items.sort_unstable();
        let is_hit = |i: usize| hit_items.binary_search(&i).is_ok();
        // Then the matches, one run of equal scores at a time (nucleo lists them by
        // score, highest first), each run in the items' order.
        let n = snap.matched_item_count();
        let mut k = 0;
        while k < n && out.len() < limit {
            let s = score(&item(k).matcher_columns[0]);
            // The end of the run: the first match after it scoring less.
            let (mut lo, mut hi) = (k + 1, n);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if score(&item(mid).matcher_columns[0]) == s {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            let mut run: Vec<usize> = (k..lo)
                .map(|j| *item(j).data as usize)
                .filter(|&i| passes(i) && !is_hit(i))
                .collect();
            let room = limit - out.len();
            if run.len() > room {
                run.select_nth_unstable(room);
                run.truncate(room);
            }
            run.sort_unstable();
            out.extend(run);
            k = lo;
        }
        Some(out)
    }
}

/// A search request for the worker.
pub struct SearchRequest {
    pub seq: u64,
    pub query: String,
    pub meta: Arc<Index>,
    pub within: Option<Vec<usize>>,
}

enum Wake {
    Request(SearchRequest),
    /// The index to search from now on (before any request: its texts are handed to
    /// nucleo meanwhile).
    Index(Arc<Index>),
}

/// How long the worker waits for a request while nucleo matches or is given texts, before
/// it looks at nucleo again (which waits up to as long for a match).
const POLL: Duration = Duration::from_millis(10);

/// Runs the search off the screen's thread. The newest request wins; its matches are sent
/// as soon as nucleo has matched the query over every text, and again whenever they
/// change.
pub struct SearchWorker {
    tx: mpsc::Sender<Wake>,
    /// The index last handed over by [`SearchWorker::index`].
    told: Weak<Index>,
}

impl SearchWorker {
    pub fn spawn(send: Box<dyn Fn(u64, Vec<usize>) + Send>) -> SearchWorker {
        let (tx, rx) = mpsc::channel::<Wake>();
        std::thread::Builder::new()
            .name("verdict-search".into())
            .spawn(move || {
                let mut search = Search::new(Arc::new(|| {}));
                // The request being answered, its filter, and whether it had an answer.
                let mut live: Option<(SearchRequest, Option<BitSet>, bool)> = None;
                loop {
                    let first = if live.is_some() || search.feeding() {
                        match rx.recv_timeout(POLL) {
                            Err(mpsc::RecvTimeoutError::Disconnected) => return,
                            w => w.ok(),
                        }
                    } else {
                        match rx.recv() {
                            Err(_) => return,
                            w => w.ok(),
                        }
                    };
                    let waiting = std::iter::from_fn(|| rx.try_recv().ok());
                    for w in first.into_iter().chain(waiting) {
                        match w {
                            Wake::Request(r) => {
                                search.set_index(&r.meta);
                                search.set_query(&r.query);
                                let within = r.within.as_deref();
                                let within = within.map(|w| bits_of(r.meta.len(), w));
                                live = Some((r, within, false));
                            }
                            Wake::Index(ix) => search.set_index(&ix),
                        }
                    }
                    // Matched once every text is there: each match while they come in
                    // would sort every match so far again (at 1M items, most of a
                    // first search's CPU).
                    if search.feeding() {
                        continue;
                    }
                    let status = search.nucleo.tick(POLL.as_millis() as u64);
                    let Some((req, within, answered)) = &mut live else {
                        continue;
                    };
                    if (status.changed || !*answered)
                        && let Some(found) = search.best(&req.meta, within.as_ref(), SEARCH_SHOWN)
                    {
                        send(req.seq, found);
                        *answered = true;
                    }
                    if *answered && !status.running {
                        live = None;
                    }
                }
            })
            .expect("spawn the search worker");
        SearchWorker {
            tx,
            told: Weak::new(),
        }
    }

    /// The index search will be asked about: its texts are handed to nucleo now, so
    /// that the first query finds them there. Nothing when it is the one last told.
    pub fn index(&mut self, meta: Option<&Arc<Index>>) {
        let Some(ix) = meta else { return };
        if self.told.ptr_eq(&Arc::downgrade(ix)) {
            return;
        }
        self.told = Arc::downgrade(ix);
        let _ = self.tx.send(Wake::Index(ix.clone()));
    }

    pub fn request(&self, req: SearchRequest) {
        let _ = self.tx.send(Wake::Request(req));
    }
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
