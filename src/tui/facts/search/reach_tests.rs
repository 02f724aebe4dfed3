//! The reach check never says no to a text that scores, and a search that skips with it
//! returns exactly what the full scan returns (on queries that it skips most texts of).

use std::sync::Arc;

use nucleo_matcher::{Config, Matcher, Utf32Str};

use super::candidates::{Candidates, Tail};
use super::reach::Reach;
use super::scan::Opts;
use super::scan::scan;
use super::tests::{LIMITS, Rng, corpus, full_scan, index_of, queries, tunings, type_through};
use super::*;

/// Texts like the generated sets': ids such as `cvqa-real-00041`, words, capitals,
/// digits, delimiters and other punctuation, several spaces.
pub(super) fn texts(n: usize, seed: u64) -> Vec<(String, String)> {
    let words = [
        "how",
        "many",
        "are",
        "real",
        "really",
        "area",
        "reveal",
        "the",
        "apples",
        "plate",
        "Real",
        "REAL",
        "aeiou",
        "idea",
        "audio",
        "Each",
        "eat",
        "in",
        "of",
        "us",
        "over",
        "under",
        "answer",
        "select",
        "correct",
        "A:16",
        "B:17",
        "x-ray",
        "v2",
        "a/b",
        "c,d",
        "e;f",
        "g|h",
        "camelCase",
        "snake_case",
        "0004",
        "400",
        "re-al",
        "re al",
        "(real)",
        "[e]",
        "i.e.",
        "  ",
        "\n",
        "\t",
        "…",
        "é",
        "straße",
        "e",
        "a",
        "o",
        "u",
        "i",
    ];
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|i| {
            let id = match rng.below(4) {
                0 => format!("cvqa-real-{:05}", rng.below(2000)),
                1 => format!("cvqa-synthetic-{i:05}"),
                2 => format!("chartom-{i}"),
                _ => format!("qa_{i}"),
            };
            let k = rng.below(30);
            let mut q = String::new();
            for j in 0..k {
                if j > 0 && !rng.chance(10) {
                    q.push(' ');
                }
                q.push_str(rng.pick(&words));
            }
            (id, q)
        })
        .collect()
}

pub(super) const TYPED: &[&str] = &[
    "real",
    "re",
    "rea",
    "ae",
    "aei",
    "aeio",
    "aeiou",
    "real-0004",
    "a",
    "e",
    "R",
    "Real",
    "real ae",
    "ea l",
    "x-ray",
    "camel",
    "Case",
    "0004",
    "a:16",
    "straße",
    "how many",
];

/// nucleo's score of `q` on `text`, as the search scores it (no id bonus).
fn nucleo_score(q: &str, text: &str) -> Option<u32> {
    let mut m = Matcher::new(Config::DEFAULT);
    let mut buf = Vec::new();
    pattern(q).score(Utf32Str::new(text, &mut buf), &mut m)
}

/// The scan's tunings with the reach check as its only skip below the best found.
fn reach_tunings() -> Vec<Opts> {
    tunings()
        .into_iter()
        .map(|t| Opts {
            reach: true,
            ceiling: false,
            ..t
        })
        .collect()
}

#[test]
fn reach_never_says_no_to_a_text_that_scores() {
    let rows = texts(3000, 3);
    let mut qs: Vec<String> = TYPED.iter().map(|s| s.to_string()).collect();
    qs.extend(queries(150, 9));
    let (mut tried, mut said_no) = (0, 0);
    for q in &qs {
        let Some(r) = Reach::new(&pattern(q.trim())) else {
            continue;
        };
        for (id, t) in &rows {
            let text = format!("{id} {t}");
            let Some(s) = nucleo_score(q.trim(), &text) else {
                continue;
            };
            assert!(r.may_reach(&text, s), "{q:?} scores {s} on {text:?}");
            assert!(r.may_reach(&text, s.saturating_sub(3)), "{q:?} {text:?}");
            tried += 1;
            said_no += usize::from(!r.may_reach(&text, s + 1));
        }
    }
    // The check is worth something only if it often says no just above a text's score.
    assert!(said_no * 4 > tried, "no to {said_no} of {tried} texts");
}

#[test]
fn a_scan_that_skips_what_cannot_reach_returns_the_full_scans_results() {
    let mut rows = texts(2500, 5);
    rows.extend(corpus(500, 7));
    let ix = index_of(&rows);
    let mut qs: Vec<String> = TYPED.iter().map(|s| s.to_string()).collect();
    qs.extend(queries(120, 21));
    let (mut skipped, mut scored) = (0usize, 0usize);
    for q in &qs {
        for limit in LIMITS {
            let want = full_scan(&ix, q, None, limit);
            assert_eq!(search(&ix, q, None, limit), want, "{q:?} {limit}");
            for opts in reach_tunings() {
                let cands = Candidates {
                    head: &[],
                    growth: None,
                    rows: None,
                    tail: Tail::Range(0, ix.len()),
                };
                let found = scan(&ix, q, cands, limit, &opts);
                assert_eq!(found.best(limit), want, "{q:?} {limit} {opts:?}");
                skipped += found.kept.iter().filter(|k| !k.2).count();
                scored += found.kept.iter().filter(|k| k.2).count();
            }
        }
    }
    // Worth something only if many texts were skipped.
    assert!(skipped > scored / 4, "{skipped} skipped, {scored} scored");
}

#[test]
fn typing_with_skips_returns_the_full_scans_results() {
    let rows = texts(3000, 8);
    let ix = Arc::new(index_of(&rows));
    for limit in LIMITS {
        for tuning in reach_tunings() {
            for word in TYPED {
                let mut cache = SearchCache {
                    tuning: tuning.clone(),
                    ..SearchCache::default()
                };
                let what = format!("{tuning:?}");
                type_through(&mut cache, &ix, word, limit, (2, 1, 100), &what);
            }
        }
    }
}
