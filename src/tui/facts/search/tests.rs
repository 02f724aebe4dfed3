//! The scan that stops early returns exactly what the full scan returns; the score bound
//! it stops at is never beaten.

use std::sync::Arc;

use nucleo_matcher::{Config, Matcher, Utf32Str};

use super::scan::{Opts, scan};
use super::*;

pub(super) use super::test_data::*;

#[test]
fn the_scan_returns_what_the_full_scan_returns() {
    let rows = corpus(2000, 7);
    let ix = index_of(&rows);
    let mut rng = Rng::new(11);
    let sorted: Vec<usize> = (0..ix.len()).filter(|_| rng.chance(60)).collect();
    let mut shuffled = sorted.clone();
    for k in (1..shuffled.len()).rev() {
        shuffled.swap(k, rng.below(k + 1));
    }
    let (mut scans, mut stopped) = (0, 0);
    for q in queries(200, 3) {
        for within in [None, Some(&sorted[..]), Some(&shuffled[..])] {
            let all = matches_with(&ix, &q, within, None, false);
            for limit in LIMITS {
                let want = rank(all.clone(), limit);
                assert_eq!(search(&ix, &q, within, limit), want, "{q:?} {limit}");
                if !in_item_order(within) {
                    // No early stop: search's full scan was enough.
                    continue;
                }
                for opts in &tunings()[..2] {
                    let found = scan(&ix, &q, all_of(&ix, within), limit, opts);
                    assert_eq!(found.best(limit), want, "{q:?} {limit} {opts:?}");
                    scans += 1;
                    stopped += usize::from(found.tried < all_of(&ix, within).len());
                }
            }
        }
    }
    // The equivalence is worth something only if many scans did stop early.
    assert!(
        stopped * 5 > scans,
        "{stopped} of {scans} scans stopped early"
    );
}

#[test]
fn an_exact_id_hit_after_the_stop_still_ranks_first() {
    // Many texts score the most any can for "cat" before the one whose id is "CAT".
    let mut rows: Vec<(String, String)> = (0..2000)
        .map(|i| (format!("real-{i:05}"), "cat".to_string()))
        .collect();
    rows.push(("CAT".to_string(), "a dog".to_string()));
    rows.push(("cat".to_string(), "no match here".to_string()));
    rows.push(("dog".to_string(), "cat".to_string()));
    let ix = index_of(&rows);
    let opts = Opts {
        threads: 1,
        first_chunk: 16,
        max_chunk: 16,
        ..Opts::default()
    };
    for limit in LIMITS {
        let found = scan(&ix, "cat", all_of(&ix, None), limit, &opts);
        assert!(found.tried < ix.len(), "stopped early");
        let want = full_scan(&ix, "cat", None, limit);
        assert_eq!(want[..limit.min(2)], [2000, 2001][..limit.min(2)]);
        assert_eq!(found.best(limit), want, "{limit}");
    }
}

/// Type each query one letter at a time, then take letters back and type on, through the
/// worker's cache: every keystroke's results are the full scan's.
#[test]
fn typing_through_the_cache_returns_what_the_full_scan_returns() {
    let rows = corpus(2500, 5);
    let ix = Arc::new(index_of(&rows));
    let mut rng = Rng::new(17);
    let within: Vec<usize> = (0..ix.len()).filter(|_| rng.chance(70)).collect();
    let typed = [
        "flowers purple",
        "how many cats",
        "real-00041",
        "cat",
        "e",
        "aeiou",
        "eee e",
        "Café au",
        "straße",
        "back\\ slash",
        "a\\ b",
        "^caret 'quote",
        "KELVIN",
        "x-ray v2",
    ];
    for limit in LIMITS {
        for tuning in tunings() {
            let mut cache = SearchCache {
                tuning: tuning.clone(),
                ..SearchCache::default()
            };
            for (k, word) in typed.iter().enumerate() {
                let w = if k % 3 == 1 {
                    Some(within.clone())
                } else {
                    None
                };
                let chars: Vec<char> = word.chars().collect();
                // typed on, then three letters taken back, then typed on again
                let mut steps: Vec<usize> = (1..=chars.len()).collect();
                steps.extend((chars.len().saturating_sub(3)..chars.len()).rev());
                steps.extend(chars.len().saturating_sub(2)..=chars.len());
                for end in steps {
                    let q: String = chars[..end].iter().collect();
                    let req = SearchRequest {
                        seq: 0,
                        query: q.clone(),
                        meta: ix.clone(),
                        within: w.clone(),
                    };
                    let want = full_scan(&ix, &q, w.as_deref(), limit);
                    assert_eq!(cache.run(&req, limit), want, "{q:?} {limit} {tuning:?}");
                }
            }
        }
    }
}

/// Texts ordered from the lowest score to the highest, one chunk per text: a scan that
/// took a score below the highest possible for the highest would stop before the best
/// text and return another.
#[test]
fn a_scan_stops_only_at_the_highest_score() {
    let mut m = Matcher::new(Config::DEFAULT);
    let mut rng = Rng::new(31);
    let texts: Vec<String> = (0..200).map(|_| text(&mut rng)).collect();
    let one_per_chunk = Opts {
        threads: 1,
        first_chunk: 1,
        max_chunk: 1,
        ..Opts::default()
    };
    let mut qs = queries(150, 37);
    qs.extend(["e", "x", "1", "é", "E", "how many", "v2 x"].map(String::from));
    for q in &qs {
        let mut scored: Vec<(u32, String)> = haystacks_for(q, &mut rng)
            .into_iter()
            .chain(texts.iter().cloned())
            .filter_map(|t| Some((raw_score(q, &t, &mut m)?, t)))
            .collect();
        scored.sort();
        // Ids that are not the query and match nothing of it.
        let rows: Vec<(String, String)> = scored
            .into_iter()
            .enumerate()
            .map(|(k, (_, t))| (format!("#{k}"), t))
            .collect();
        let ix = index_of(&rows);
        for limit in [1, 10] {
            let found = scan(&ix, q, all_of(&ix, None), limit, &one_per_chunk);
            assert_eq!(found.best(limit), full_scan(&ix, q, None, limit), "{q:?}");
        }
    }
}

/// A letter more, through the cache, on texts ordered from the lowest score to the
/// highest (one chunk each, no early stop: `within` is out of order at its start): the
/// best text comes last, when the worst of the best found so far is highest, so a bound
/// on what a letter adds that is too low would skip it. Then from the highest to the
/// lowest, where most texts are skipped.
#[test]
fn a_letter_more_skips_only_what_cannot_enter() {
    let mut m = Matcher::new(Config::DEFAULT);
    let mut rng = Rng::new(47);
    let one_per_chunk = Opts {
        threads: 1,
        first_chunk: 1,
        max_chunk: 1,
        ..Opts::default()
    };
    let mut qs: Vec<String> = queries(120, 53)
        .into_iter()
        .filter(|q| q.is_ascii())
        .collect();
    qs.extend(["ee", "eee", "aeiou", "how many", "ab cd"].map(String::from));
    let mut skipped = 0;
    for q in &qs {
        let Some(k) = (1..q.len()).rev().find(|&k| {
            let last = q[..k].trim();
            narrows(last, q) && growth(&pattern(last), &pattern(q)).is_some()
        }) else {
            continue;
        };
        let last = q[..k].trim();
        let mut hays = haystacks_for(q, &mut rng);
        hays.extend(ascii_texts_for(q, &mut rng, 100));
        let mut scored: Vec<(Option<u32>, String)> = hays
            .into_iter()
            .map(|t| (raw_score(q, &t, &mut m), t))
            .collect();
        scored.sort();
        let rows: Vec<(String, String)> = scored
            .into_iter()
            .enumerate()
            .map(|(k, (_, t))| (format!("#{k}"), t))
            .collect();
        let ix = Arc::new(index_of(&rows));
        let mut up: Vec<usize> = (0..ix.len()).collect();
        up.swap(0, 1);
        // Best first too: then most texts are skipped.
        let down: Vec<usize> = (0..ix.len()).rev().collect();
        for (within, limit) in [(&up, 1), (&up, 10), (&down, 1), (&down, 10)] {
            let mut cache = SearchCache {
                tuning: one_per_chunk.clone(),
                ..SearchCache::default()
            };
            for typed in [last, q] {
                let req = SearchRequest {
                    seq: 0,
                    query: typed.to_string(),
                    meta: ix.clone(),
                    within: Some(within.clone()),
                };
                let want = full_scan(&ix, typed, Some(within), limit);
                assert_eq!(cache.run(&req, limit), want, "{last:?} → {typed:?} {limit}");
            }
            let head = &cache.last.as_ref().expect("a last search").head;
            skipped += head
                .iter()
                .filter(|&&(b, i, _)| raw_score(q, ix.search_text(i), &mut m) != Some(b))
                .count();
        }
    }
    assert!(skipped > 1000, "{skipped} texts skipped");
}

#[test]
fn utf32_is_nucleos_conversion() {
    let pool: Vec<&str> = vec![
        "a",
        "Z",
        "0",
        " ",
        "\r",
        "\n",
        "\t",
        "-",
        "é",
        "É",
        "ß",
        "’",
        "—",
        "“",
        "©",
        "®",
        "\u{AD}",
        "\u{A0}",
        "\u{2B0}",
        "\u{2FF}",
        "\u{2010}",
        "\u{203C}",
        "\u{205E}",
        "\u{300}",
        "\u{301}",
        "\u{200C}",
        "\u{200D}",
        "\u{2028}",
        "\u{2060}",
        "👍",
        "\u{1F3FB}",
        "한",
        "\u{1100}",
        "\u{1161}",
        "🇦",
        "🇧",
        "क",
        "\u{94D}",
        "ष",
        "\u{600}",
        "中",
        "\u{FE0F}",
        "\u{E0041}",
    ];
    let mut rng = Rng::new(59);
    let mut one_each = 0;
    for _ in 0..20_000 {
        let s: String = (0..rng.below(10)).map(|_| rng.pick(&pool)).collect();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        assert_eq!(scan::utf32(&s, &mut a), Utf32Str::new(&s, &mut b), "{s:?}");
        one_each += usize::from(!s.is_ascii() && a.len() == s.chars().count());
    }
    assert!(one_each > 1000);
}

/// The worker goes on with the last search between keystrokes: typing with any amount
/// of that between letters returns what the full scan returns.
#[test]
fn going_on_between_letters_changes_no_result() {
    let rows = corpus(2500, 61);
    let ix = Arc::new(index_of(&rows));
    let mut rng = Rng::new(67);
    let within: Vec<usize> = (0..ix.len()).filter(|_| rng.chance(70)).collect();
    let typed = [
        "flowers purple",
        "real-00041",
        "e",
        "aeiou",
        "how many c",
        "Café",
    ];
    let mut went_on = 0;
    for limit in LIMITS {
        let mut cache = SearchCache {
            tuning: tunings()[0].clone(),
            ..SearchCache::default()
        };
        for (k, word) in typed.iter().enumerate() {
            let w = (k % 2 == 1).then(|| within.clone());
            let chars: Vec<char> = word.chars().collect();
            let mut steps: Vec<usize> = (1..=chars.len()).collect();
            steps.extend((chars.len().saturating_sub(2)..chars.len()).rev());
            steps.push(chars.len());
            for end in steps {
                let q: String = chars[..end].iter().collect();
                let req = SearchRequest {
                    seq: 0,
                    query: q.clone(),
                    meta: ix.clone(),
                    within: w.clone(),
                };
                let want = full_scan(&ix, &q, w.as_deref(), limit);
                assert_eq!(cache.run(&req, limit), want, "{q:?} {limit}");
                for _ in 0..rng.below(4) {
                    went_on +=
                        usize::from(cache.last.as_ref().is_some_and(|l| l.tail_from.is_some()));
                    cache.go_on(1 + rng.below(400));
                }
            }
        }
    }
    assert!(went_on > 30, "went on {went_on} times");
}

/// The worker, which goes on with a search between requests, answers every request it
/// keeps with the full scan's results.
#[test]
fn the_worker_answers_with_the_full_scans_results() {
    let rows = corpus(20_000, 71);
    let ix = Arc::new(index_of(&rows));
    let (tx, rx) = std::sync::mpsc::channel();
    let worker = SearchWorker::spawn(Box::new(move |seq, results| {
        let _ = tx.send((seq, results));
    }));
    let typed = ["e", "ee", "eee", "eee e", "a", "ae", "aei", "how", "how m"];
    for (seq, q) in typed.iter().enumerate() {
        worker.request(SearchRequest {
            seq: seq as u64,
            query: q.to_string(),
            meta: ix.clone(),
            within: None,
        });
        let (got, results) = rx.recv().expect("an answer");
        assert_eq!(got, seq as u64);
        assert_eq!(results, full_scan(&ix, q, None, 500), "{q:?}");
    }
}

/// The worker does not go on with an empty query, nor with one ending in a backslash:
/// no next query narrows from them.
#[test]
fn no_query_is_gone_on_with_that_nothing_narrows_from() {
    let rows = corpus(3000, 73);
    let ix = Arc::new(index_of(&rows));
    let mut cache = SearchCache {
        tuning: tunings()[0].clone(),
        ..SearchCache::default()
    };
    let req = SearchRequest {
        seq: 0,
        query: " ".to_string(),
        meta: ix.clone(),
        within: None,
    };
    assert_eq!(cache.run(&req, 10), (0..10).collect::<Vec<_>>());
    assert!(!cache.go_on(100));
    assert!(cache.last.as_ref().unwrap().head.len() < 100);
    let req = SearchRequest {
        query: "back\\".to_string(),
        ..req
    };
    cache.run(&req, 1);
    assert!(cache.last.as_ref().unwrap().tail_from.is_some());
    assert!(!cache.go_on(100));
}
