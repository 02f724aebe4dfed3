//! Skipping the candidates that tie with the worst of the best found and lose on their
//! item, starting a query typed on from a seed, and giving a scan up for a newer
//! request: the results stay the full scan's.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::candidates::{Candidates, Tail};
use super::reach_tests::{TYPED, texts};
use super::scan::{Opts, scan};
use super::tests::{LIMITS, Rng, corpus, full_scan, index_of, request, tunings, type_through};
use super::*;

/// Items like the generated sets' C-VQA ones, most of which score alike for `real` (the
/// word after `-` in the id), and now and then one that scores higher (`real` after a
/// space) or lower, late in the set as well as early.
fn tied(n: usize, seed: u64) -> Vec<(String, String)> {
    let mut rng = Rng::new(seed);
    let questions = [
        "Is the plate empty?",
        "How many apples are there?",
        "What colour is the car?",
        "Is this a real photo?",
        "Which is larger, the area or the idea?",
    ];
    (0..n)
        .map(|i| {
            let id = match rng.below(10) {
                0 => format!("cvqa-synthetic-{i:05}"),
                1 => format!("item{i}"),
                _ => format!("cvqa-real-{i:05}"),
            };
            (id, rng.pick(&questions).to_string())
        })
        .collect()
}

#[test]
fn a_scan_that_skips_ties_returns_the_full_scans_results() {
    let ix = index_of(&tied(3000, 3));
    let (mut with, mut without) = (0usize, 0usize);
    for q in ["real", "real-0", "cvqa", "rea", "plate", "a"] {
        for limit in LIMITS {
            let want = full_scan(&ix, q, None, limit);
            for opts in tunings() {
                for ties in [true, false] {
                    let opts = Opts {
                        ties,
                        ..opts.clone()
                    };
                    let cands = Candidates {
                        head: &[],
                        growth: None,
                        rows: None,
                        tail: Tail::Range(0, ix.len()),
                    };
                    let found = scan(&ix, q, cands, limit, &opts);
                    assert_eq!(found.best(limit), want, "{q:?} {limit} {opts:?}");
                    let skipped = found.kept.iter().filter(|k| !k.2).count();
                    if ties {
                        with += skipped;
                    } else {
                        without += skipped;
                    }
                }
            }
        }
    }
    // Worth something only if the ties skip texts the ceiling alone does not.
    assert!(
        with > without + without / 2,
        "{with} with ties, {without} without"
    );
}

#[test]
fn typing_with_ties_and_seeds_returns_the_full_scans_results() {
    let mut rows = tied(1200, 5);
    rows.extend(texts(1200, 7));
    rows.extend(corpus(300, 11));
    let ix = Arc::new(index_of(&rows));
    let words: Vec<&str> = TYPED
        .iter()
        .copied()
        .chain(["cvqa-real-0004", "plate", "aeiou"])
        .collect();
    for limit in LIMITS {
        for tuning in tunings() {
            for seed in [true, false] {
                for word in &words {
                    let mut cache = SearchCache {
                        tuning: Opts {
                            seed,
                            ..tuning.clone()
                        },
                        ..SearchCache::default()
                    };
                    let what = format!("seed {seed} {tuning:?}");
                    type_through(&mut cache, &ix, word, limit, (3, 1, 150), &what);
                }
            }
        }
    }
}

#[test]
fn the_seed_never_ranks_above_the_full_scans_worst() {
    let mut rows = tied(1500, 13);
    rows.extend(texts(1500, 17));
    let ix = Arc::new(index_of(&rows));
    let mut seeded = 0;
    for word in ["aeiou", "real-0004", "cvqa-real", "plate"] {
        for limit in [1, 10, 100] {
            let mut cache = SearchCache {
                tuning: tunings()[0].clone(),
                ..SearchCache::default()
            };
            for end in 1..=word.len() {
                let q = &word[..end];
                let last = cache.last.as_ref().filter(|l| narrows(&l.query, q));
                if let Some(l) = last {
                    let cands = l.candidates(ix.len(), None, q);
                    let opts = Opts {
                        early_stop: false,
                        ..Opts::default()
                    };
                    let s = scan::seed_for_tests(&ix, q, &cands, limit, &opts);
                    let mut all = matches_with(&ix, q, None, None, false);
                    all.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
                    if s > 0 {
                        seeded += 1;
                        let (score, item) = all[limit - 1];
                        assert!(
                            s <= scan::rank_key(score, item),
                            "{q:?} {limit}: the seed ranks above the {limit}th best"
                        );
                    }
                }
                cache.run(&request(q, &ix), limit);
            }
        }
    }
    assert!(seeded > 10, "seeded {seeded} times");
}

/// A scan given up (at once, or part of the way through) leaves what the next query
/// typed on narrows from: that one's results are still the full scan's.
#[test]
fn a_scan_given_up_for_a_newer_request_leaves_a_search_to_narrow_from() {
    let mut rows = tied(2000, 19);
    rows.extend(texts(2000, 23));
    let ix = Arc::new(index_of(&rows));
    let mut rng = Rng::new(29);
    let mut given_up = 0;
    for limit in [10, 500] {
        for word in ["aeiou", "real-0004", "plate", "how many"] {
            let waiting = Arc::new(AtomicUsize::new(0));
            let mut cache = SearchCache {
                tuning: Opts {
                    threads: 1 + rng.below(2),
                    first_chunk: 16,
                    max_chunk: 64,
                    ..Opts::default()
                },
                cancel: Some(waiting.clone()),
                ..SearchCache::default()
            };
            for end in 1..=word.len() {
                let q = &word[..end];
                match rng.below(3) {
                    // Given up before it starts.
                    0 => {
                        waiting.store(1, Ordering::Relaxed);
                        cache.run(&request(q, &ix), limit);
                        waiting.store(0, Ordering::Relaxed);
                        given_up += 1;
                    }
                    // Given up part of the way, when another thread says so.
                    1 => {
                        let w = waiting.clone();
                        let after = std::time::Duration::from_micros(rng.below(400) as u64);
                        let t = std::thread::spawn(move || {
                            std::thread::sleep(after);
                            w.store(1, Ordering::Relaxed);
                        });
                        cache.run(&request(q, &ix), limit);
                        t.join().unwrap();
                        waiting.store(0, Ordering::Relaxed);
                        given_up += 1;
                    }
                    _ => assert_eq!(
                        cache.run(&request(q, &ix), limit),
                        full_scan(&ix, q, None, limit),
                        "{q:?} {limit}"
                    ),
                }
            }
            let q = word;
            assert_eq!(
                cache.run(&request(q, &ix), limit),
                full_scan(&ix, q, None, limit),
                "{q:?} {limit}, last"
            );
        }
    }
    assert!(given_up > 5);
}

/// Requests sent faster than the worker answers: each answer it sends is the full
/// scan's for its request (none is what a scan given up had found), and the last
/// request is answered.
#[test]
fn the_worker_sends_no_answer_of_a_scan_given_up() {
    let mut rows = tied(20_000, 31);
    rows.extend(texts(20_000, 37));
    let ix = Arc::new(index_of(&rows));
    let (tx, rx) = std::sync::mpsc::channel();
    let worker = SearchWorker::spawn(Box::new(move |seq, results| {
        let _ = tx.send((seq, results));
    }));
    let typed = [
        "a", "ae", "aei", "aeio", "aeiou", "r", "re", "rea", "real", "real-",
    ];
    for (seq, q) in typed.iter().enumerate() {
        worker.request(SearchRequest {
            seq: seq as u64,
            ..request(q, &ix)
        });
        std::thread::sleep(std::time::Duration::from_micros(300 * (seq as u64 % 3)));
    }
    let last = typed.len() as u64 - 1;
    loop {
        let (seq, results) = rx
            .recv_timeout(std::time::Duration::from_secs(120))
            .expect("the last request answered");
        let q = typed[seq as usize];
        assert_eq!(results, full_scan(&ix, q, None, 500), "{q:?}");
        if seq == last {
            break;
        }
    }
}
