//! A ceiling's last row kept between keystrokes ([`Ceiling::keep`], [`Ceiling::extend`]):
//! extended by the letters typed since, it is never below nucleo's score, and it is the
//! ceiling walked whole when nothing was left out; a scan that extends kept rows returns
//! what the full scan returns, whatever the typing (letters typed on, taken back, edited
//! in the middle, a scan given up, the file changed).

use std::sync::Arc;

use nucleo_matcher::{Config, Matcher};

use super::ceiling::{Ceiling, Scratch};
use super::ceiling_tests::cases;
use super::reach_tests::texts;
use super::scan::Opts;
use super::tests::{LIMITS, Rng, corpus, full_scan, index_of, raw_score, request, tunings};
use super::*;

/// The queries `q` is typed on from, letter by letter: each non-empty prefix that ends
/// neither at a space nor at a backslash, the shortest first.
fn typed_from(q: &str) -> Vec<&str> {
    let q = q.trim();
    q.char_indices()
        .map(|(i, c)| &q[..i + c.len_utf8()])
        .filter(|p| !p.ends_with(' ') && !p.ends_with('\\'))
        .collect()
}

/// Walk each case's first prefix, then extend the kept row letter by letter (keeping
/// the cells from `floor(score)` on, with `need(score)` at each step, `score` nucleo's
/// for that prefix): the first text where a step is below nucleo's score or says no
/// match where nucleo matches; how many steps extended a row, and how many steps
/// differed from the ceiling walked whole (cells were left out).
fn check_extending(
    cases: &[(String, Vec<String>)],
    less: u32,
    floor: impl Fn(u32) -> u32,
    need: impl Fn(u32) -> u32,
) -> (Option<String>, usize, usize) {
    let mut m = Matcher::new(Config::DEFAULT);
    let (mut s, mut whole) = (Scratch::default(), Scratch::default());
    let (mut extended, mut differ) = (0, 0);
    for (q, ts) in cases {
        let steps: Vec<(&str, Ceiling)> = typed_from(q)
            .into_iter()
            .filter_map(|p| Some((p, Ceiling::new(&pattern(p))?.counting_less(less))))
            .collect();
        for t in ts.iter().filter(|t| t.is_ascii() && t.len() <= 2048) {
            let mut kept: Option<Vec<u32>> = None;
            for (p, c) in &steps {
                let score = raw_score(p, t, &mut m);
                let at = score.unwrap_or(40);
                let got = match &kept {
                    Some(k) => match c.extend(t.as_bytes(), k, &mut s, need(at)) {
                        Some(r) => {
                            extended += 1;
                            r.map(|(v, _)| v)
                        }
                        // Not a query the row's extends: another number of words, or
                        // another case rule.
                        None => {
                            let capital = p.chars().any(|c| c.is_ascii_uppercase());
                            assert!(p.contains(' ') || capital, "{q:?} {p:?}");
                            c.of_at_least(t, &mut s, need(at))
                        }
                    },
                    None => c.of_at_least(t, &mut s, need(at)),
                };
                if score.is_some_and(|x| got.is_none_or(|g| g < x)) {
                    return (
                        Some(format!("{p:?} scores {score:?} on {t:?}: {got:?}")),
                        extended,
                        differ,
                    );
                }
                differ += usize::from(got != c.of(t, &mut whole));
                let mut k = Vec::new();
                kept = c.keep(&s, floor(at), usize::MAX, &mut k).then_some(k);
            }
        }
    }
    (None, extended, differ)
}

/// Extended from a row with nothing left out, the ceiling is the one walked whole.
#[test]
fn a_whole_row_extended_is_the_ceiling_walked_whole() {
    let mut s = Scratch::default();
    let mut whole = Scratch::default();
    let mut extended = 0;
    for (q, ts) in cases() {
        let steps: Vec<(&str, Ceiling)> = typed_from(&q)
            .into_iter()
            .filter_map(|p| Some((p, Ceiling::new(&pattern(p))?)))
            .collect();
        for t in ts.iter().filter(|t| t.is_ascii() && t.len() <= 2048) {
            for (a, (_, short)) in steps.iter().enumerate() {
                if short.of(t, &mut s).is_none() {
                    break;
                }
                let mut k = Vec::new();
                assert!(short.keep(&s, 0, usize::MAX, &mut k));
                for (p, long) in &steps[a..] {
                    if let Some(got) = long.extend(t.as_bytes(), &k, &mut s, 0) {
                        extended += 1;
                        let want = long.of(t, &mut whole);
                        assert_eq!(got.map(|g| g.0), want, "{q:?} from {a} to {p:?} on {t:?}");
                    }
                }
            }
        }
    }
    assert!(extended > 100_000, "{extended} extended");
}

/// Rows kept with cells left out below a floor, walked with a need, extended letter by
/// letter, are never below nucleo; a walk counting one point less a row is caught.
#[test]
fn a_kept_row_extended_is_never_below_nucleo() {
    let cases = cases();
    // (The floor, and the need, from nucleo's score.)
    type From = fn(u32) -> u32;
    let ways: [(From, From); 4] = [
        (|_| 0, |_| 0),
        (|x| x.saturating_sub(26), |x| x.saturating_sub(26)),
        (|x| x, |x| x + 3),
        (|x| x + 12, |x| x.saturating_sub(9)),
    ];
    for (floor, need) in ways {
        let (failed, extended, _) = check_extending(&cases, 0, floor, need);
        assert_eq!(failed, None);
        assert!(extended > 50_000, "{extended} extended");
    }
    // Rows that left cells out are extended: the bound they give is not the ceiling.
    let (_, _, differ) = check_extending(&cases, 0, |x| x + 12, |x| x + 12);
    assert!(differ > 1000, "{differ} differ");
    // A walk that counts one point less a row than a row can add is caught.
    assert!(
        check_extending(&cases, 1, |x| x + 12, |x| x + 12)
            .0
            .is_some()
    );
}

/// Type, take letters back, edit in the middle, and type on: every query finds what the
/// full scan finds, with rows kept and without.
#[test]
fn typing_with_kept_rows_returns_the_full_scans_results_whatever_the_edits() {
    let mut rows = texts(1500, 43);
    rows.extend(corpus(300, 47));
    let ix = Arc::new(index_of(&rows));
    let edits: &[&[&str]] = &[
        &[
            "a", "ae", "aei", "aeio", "aeiou", "aeio", "aei", "aeix", "aeixo", "aeixou",
        ],
        &["aei", "aeio", "aXio", "aXiou", "aXio", "aeio", "aeiou"],
        &[
            "r", "re", "rea", "real", "real-", "real-0", "rel-0", "rel-00", "real-00", "real-004",
        ],
        &[
            "how", "how ", "how m", "how ma", "ho ma", "how ma", "how man", "how many",
        ],
        &["ae", "aE", "aEi", "aei", "aeiO", "aeiOu", "aeiou"],
        &["e", "ei", "e", "ea", "eai", "ai", "aio", "aiou"],
    ];
    let mut rng = Rng::new(53);
    for limit in LIMITS {
        for tuning in tunings() {
            for rows_on in [true, false] {
                for typed in edits {
                    let mut cache = SearchCache {
                        tuning: Opts {
                            rows: rows_on,
                            ..tuning.clone()
                        },
                        ..SearchCache::default()
                    };
                    for (k, q) in typed.iter().enumerate() {
                        assert_eq!(
                            cache.run(&request(q, &ix), limit),
                            full_scan(&ix, q, None, limit),
                            "{typed:?} at {k} {limit} {tuning:?} rows {rows_on}"
                        );
                        if rng.chance(30) {
                            cache.go_on(1 + rng.below(200));
                        }
                    }
                }
            }
        }
    }
}

/// A query typed on after the file changed (a new index, texts changed under the same
/// items) finds what the full scan finds in the new texts: no row kept for the old texts
/// is extended.
#[test]
fn rows_kept_for_another_index_are_not_extended() {
    let old_rows = texts(1500, 59);
    // The same items and ids, each text changed (most of them no longer match as they did).
    let mut rng = Rng::new(61);
    let new_rows: Vec<(String, String)> = old_rows
        .iter()
        .map(|(id, t)| {
            let mut t: Vec<char> = t.chars().collect();
            t.reverse();
            if rng.chance(50) {
                t.retain(|c| !"aeiou".contains(*c));
            }
            (id.clone(), t.into_iter().collect())
        })
        .collect();
    let (old, new) = (Arc::new(index_of(&old_rows)), Arc::new(index_of(&new_rows)));
    for limit in LIMITS {
        for word in ["aeiou", "real-0004", "eai"] {
            let mut cache = SearchCache::default();
            for end in 1..=word.len() {
                // The file changes after a few letters.
                let ix = if end <= 2 { &old } else { &new };
                let q = &word[..end];
                assert_eq!(
                    cache.run(&request(q, ix), limit),
                    full_scan(ix, q, None, limit),
                    "{q:?} {limit}"
                );
            }
        }
    }
}
