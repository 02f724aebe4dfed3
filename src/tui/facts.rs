//! The background index of a result set: per item, what filters, progress and search need.
//! Built on a worker thread after the file opens, so opening never waits for it.

use nucleo_matcher::pattern::{AtomKind, CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher};

use crate::model::{Benchmark, Item};
use crate::store::Store;

/// What the reviewer knows about an item without loading it.
#[derive(Debug, Clone, PartialEq)]
pub struct Meta {
    pub id: String,
    pub benchmark: Benchmark,
    /// Group / chart type and version / dimension: the filterable categories.
    pub categories: Vec<String>,
    pub models: Vec<String>,
    pub reviewers: Vec<String>,
    /// Reviewers who are done with the item (every required grade given,
    /// `review::item_done`).
    pub done: Vec<String>,
    /// Models whose answer is wrong (after reviewer overrides).
    pub wrong_models: Vec<String>,
    /// Reviewers disagree, or a human disagrees with the LLM judge.
    pub disagreement: bool,
    /// Reviewers disagree and none gave the final verdict (the adjudication queue).
    pub adjudicate: bool,
    /// Id and question text, for fuzzy search.
    pub search: String,
    /// The item could not be read.
    pub broken: bool,
}

/// Index every item of `store`, on up to `threads` threads.
pub fn index(store: &Store, threads: usize) -> Vec<Meta> {
    index_with(store, threads, &|_| {})
}

/// [`index`], calling `progress` with the number of items read so far now and then.
pub fn index_with(store: &Store, threads: usize, progress: &(dyn Fn(usize) + Sync)) -> Vec<Meta> {
    let n = store.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let done = &done;
    let threads = threads.clamp(1, 8).min(n.max(1));
    let chunk = n.div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let lo = (t * chunk).min(n);
                let hi = ((t + 1) * chunk).min(n);
                s.spawn(move || {
                    (lo..hi)
                        .map(|i| {
                            if (i - lo) % 4096 == 4095 {
                                let d = done.fetch_add(4096, std::sync::atomic::Ordering::Relaxed);
                                progress(d + 4096);
                            }
                            meta_of(store, i)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("index thread"))
            .collect()
    })
}

pub fn meta_of(store: &Store, i: usize) -> Meta {
    match store.item(i) {
        Ok(item) => meta_of_item(&item, store.fallback_id(i)),
        Err(e) => Meta {
            id: store.fallback_id(i),
            benchmark: Benchmark::Other,
            categories: vec![],
            models: vec![],
            reviewers: vec![],
            done: vec![],
            wrong_models: vec![],
            disagreement: false,
            adjudicate: false,
            search: format!("{} {e}", store.fallback_id(i)),
            broken: true,
        },
    }
}

pub fn meta_of_item(item: &Item, fallback_id: String) -> Meta {
    let id = item.id.clone().unwrap_or(fallback_id);
    let benchmark = item.benchmark();
    let mut categories = Vec::new();
    let mut question = String::new();
    match benchmark {
        Benchmark::Chartom => {
            if let Some(c) = &item.chart {
                if let Some(t) = &c.chart_type {
                    categories.push(t.clone());
                }
                if let Some(v) = c.version {
                    categories.push(v.name().to_string());
                }
            }
            if let Some(f) = &item.fact {
                question = f.question.clone().unwrap_or_default();
            }
        }
        Benchmark::ChartomQa => {
            if let Some(d) = &item.dimension {
                categories.push(d.clone());
            }
            question = item.question.clone().unwrap_or_default();
            if let Some(b) = &item.book {
                question = format!("{b} {question}");
            }
        }
        Benchmark::Cvqa => {
            if let Some(g) = &item.group {
                categories.push(g.clone());
            }
            if let Some(o) = &item.original {
                question.push_str(&o.question);
            }
            if let Some(c) = &item.counterfactual {
                question.push(' ');
                question.push_str(&c.question);
            }
        }
        Benchmark::Other => {
            question = item.question.clone().unwrap_or_default();
        }
    }
    let models: Vec<String> = item.responses.iter().map(|r| r.model.clone()).collect();
    let wrong_models = models
        .iter()
        .filter(|m| crate::tui::grading::model_wrong(item, m))
        .cloned()
        .collect();
    let disagreement = crate::tui::grading::disagreement(item);
    let adjudicate = crate::tui::grading::needs_adjudication(item);
    let mut search: String = id.clone();
    search.push(' ');
    search.extend(question.chars().take(400));
    Meta {
        id,
        benchmark,
        categories,
        models,
        reviewers: item.reviews.keys().cloned().collect(),
        done: item
            .reviews
            .iter()
            .filter(|(_, r)| crate::review::item_done(item, Some(r)))
            .map(|(n, _)| n.clone())
            .collect(),
        wrong_models,
        disagreement,
        adjudicate,
        search,
        broken: false,
    }
}

/// Fuzzy-match `query` against ids and question texts (nucleo-matcher: Unicode-aware,
/// smart case); best first, at most `limit`, within `within` when a filter is set.
pub fn search(meta: &[Meta], query: &str, within: Option<&[usize]>, limit: usize) -> Vec<usize> {
    let q = query.trim();
    let candidates: Box<dyn Iterator<Item = usize>> = match within {
        Some(w) => Box::new(w.iter().copied()),
        None => Box::new(0..meta.len()),
    };
    if q.is_empty() {
        return candidates.take(limit).collect();
    }
    let mut matcher = Matcher::new(Config::DEFAULT);
    let pattern = Pattern::new(
        q,
        CaseMatching::Smart,
        Normalization::Smart,
        AtomKind::Fuzzy,
    );
    let mut scored: Vec<(u32, usize)> = Vec::new();
    let mut buf = Vec::new();
    for i in candidates {
        let hay = nucleo_matcher::Utf32Str::new(&meta[i].search, &mut buf);
        if let Some(score) = pattern.score(hay, &mut matcher) {
            // Exact id hits first.
            let bonus = if meta[i].id.eq_ignore_ascii_case(q) {
                1 << 20
            } else {
                0
            };
            scored.push((score + bonus, i));
        }
    }
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.truncate(limit);
    scored.into_iter().map(|(_, i)| i).collect()
}

/// A search request for the worker.
pub struct SearchRequest {
    pub seq: u64,
    pub query: String,
    pub meta: std::sync::Arc<Vec<Meta>>,
    pub within: Option<Vec<usize>>,
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
                while let Ok(mut req) = rx.recv() {
                    while let Ok(newer) = rx.try_recv() {
                        req = newer;
                    }
                    let results = search(&req.meta, &req.query, req.within.as_deref(), 500);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn m(id: &str, search: &str) -> Meta {
        Meta {
            id: id.into(),
            benchmark: Benchmark::Cvqa,
            categories: vec![],
            models: vec![],
            reviewers: vec![],
            done: vec![],
            wrong_models: vec![],
            disagreement: false,
            adjudicate: false,
            search: format!("{id} {search}"),
            broken: false,
        }
    }

    #[test]
    fn fuzzy_search_ranks_and_filters() {
        let meta = vec![
            m("real-00001", "How many plates are there?"),
            m("real-00002", "How many cows can you see?"),
            m("real-00003", "Is the TV on? Würde das Café offen sein?"),
        ];
        assert_eq!(search(&meta, "cows", None, 10), vec![1]);
        assert_eq!(search(&meta, "hmny plt", None, 10)[0], 0);
        // diacritics fold (cafe finds Café); an uppercase query is case-sensitive (smart case)
        assert_eq!(search(&meta, "cafe", None, 10), vec![2]);
        assert_eq!(search(&meta, "Café", None, 10), vec![2]);
        assert!(search(&meta, "CAFE", None, 10).is_empty());
        assert_eq!(search(&meta, "real-00002", None, 10)[0], 1);
        assert_eq!(search(&meta, "how many", Some(&[1]), 10), vec![1]);
        assert_eq!(search(&meta, "", None, 2), vec![0, 1]);
        assert!(search(&meta, "zebra", None, 10).is_empty());
    }
}
