//! The ceiling is never below nucleo's score (and equals it on nearly every text), and a
//! scan that skips with it returns exactly what the full scan returns.

use std::sync::Arc;

use nucleo_matcher::{Config, Matcher};

use super::bound::growth;
use super::candidates::{Candidates, Tail};
use super::ceiling::{Ceiling, Scratch};
use super::reach_tests::{TYPED, texts};
use super::scan::{Opts, scan};
use super::tests::{
    LIMITS, Rng, ascii_texts_for, corpus, full_scan, haystacks_for, index_of, queries, raw_score,
    tunings, type_through,
};
use super::*;

/// Characters of every class nucleo tells apart, and the characters above ASCII it
/// normalises, folds, joins or sees as white space: precomposed and combining accents,
/// the Kelvin sign and the long s (folded to ASCII), a ligature, a non-breaking and an
/// em space, superscript and Roman numerals, letters without case, CJK, curly quotes.
const PIECES: &[&str] = &[
    "a", "e", "i", "o", "u", "r", "l", "x", "A", "E", "R", "L", "0", "4", "9", " ", " ", "  ",
    "\t", "\n", "\r", "\r\n", "-", "_", "/", ",", ":", ";", "|", ".", "(", "'", "é", "É", "ß",
    "\u{2019}", "\u{201c}", "\u{212a}", "\u{17f}", "\u{fb01}", "\u{a0}", "\u{2003}", "\u{b2}",
    "\u{216b}", "\u{aa}", "\u{5d0}", "中", "α", "Ω", "e\u{301}", "i\u{307}", "\u{1c6}",
];

/// Texts of [`PIECES`] and of a query's own characters.
fn piece_texts(q: &str, rng: &mut Rng, n: usize) -> Vec<String> {
    let own: Vec<String> = q.chars().map(String::from).collect();
    (0..n)
        .map(|_| {
            let len = 1 + rng.below(60);
            (0..len)
                .map(|_| {
                    if rng.chance(40) && !own.is_empty() {
                        own[rng.below(own.len())].clone()
                    } else {
                        rng.pick(PIECES).to_string()
                    }
                })
                .collect()
        })
        .collect()
}

/// The queries and texts of the check, each query with the texts to try it on.
pub(super) fn cases() -> Vec<(String, Vec<String>)> {
    let mut rng = Rng::new(61);
    let shared: Vec<String> = texts(1500, 13)
        .into_iter()
        .chain(corpus(500, 17))
        .map(|(id, t)| format!("{id} {t}"))
        .collect();
    let mut qs: Vec<String> = TYPED.iter().map(|s| s.to_string()).collect();
    qs.extend(queries(120, 19));
    qs.extend(["aei", "ii", "eie", "l-0", "0004", "Re", "rE", "e4", "x x"].map(String::from));
    qs.into_iter()
        .map(|q| {
            let mut t = shared.clone();
            t.extend(haystacks_for(&q, &mut rng));
            t.extend(ascii_texts_for(&q, &mut rng, 150));
            t.extend(piece_texts(&q, &mut rng, 150));
            (q, t)
        })
        .collect()
}

/// The first text on which the ceiling less `lower` is below nucleo's score, or says
/// no match where nucleo matches; and how many matches of ASCII texts it was tried on,
/// and on how many it was nucleo's score.
fn check(cases: &[(String, Vec<String>)], lower: u32) -> (Option<String>, usize, usize) {
    let mut m = Matcher::new(Config::DEFAULT);
    let mut s = Scratch::default();
    let (mut ascii, mut equal) = (0, 0);
    for (q, ts) in cases {
        let Some(c) = Ceiling::new(&pattern(q.trim())) else {
            continue;
        };
        for t in ts {
            let Some(score) = raw_score(q.trim(), t, &mut m) else {
                continue;
            };
            let most = c.of(t, &mut s);
            if most.is_none_or(|x| x.saturating_sub(lower) < score) {
                return (
                    Some(format!("{q:?} scores {score} on {t:?}, ceiling {most:?}")),
                    ascii,
                    equal,
                );
            }
            if t.is_ascii() {
                ascii += 1;
                equal += usize::from(most == Some(score));
            }
        }
    }
    (None, ascii, equal)
}

#[test]
fn ceiling_is_never_below_nucleo() {
    let cases = cases();
    let (failed, ascii, equal) = check(&cases, 0);
    assert_eq!(failed, None);
    // Worth something only if it is nucleo's score on nearly every text.
    assert!(equal * 100 >= ascii * 99, "{equal} of {ascii}");
    // And a ceiling one point lower is caught.
    assert!(check(&cases, 1).0.is_some());
}

#[test]
fn ceiling_says_no_match_only_when_nucleo_does() {
    // (A ceiling of None is a claim that nucleo does not match: checked above for every
    // text nucleo matches; here the claim is seen to be made.)
    let mut s = Scratch::default();
    let c = Ceiling::new(&pattern("aeiou")).unwrap();
    assert_eq!(c.of("a e i o", &mut s), None);
    assert_eq!(c.of("uoiea", &mut s), None);
    assert!(c.of("a e i o u", &mut s).is_some());
    // A character above ASCII that becomes `u` matches.
    assert!(c.of("a e i o ü", &mut s).is_some());
    assert_eq!(Ceiling::new(&pattern("中")).map(|_| ()), None);
}

/// The scan with the ceiling as its only skip below the best found (the default), with
/// the reach check before it, and with the ceiling's walk stopped early.
fn ceiling_tunings() -> Vec<Opts> {
    tunings()
        .into_iter()
        .flat_map(|t| {
            [
                Opts {
                    reach: true,
                    ..t.clone()
                },
                Opts {
                    walk_stops: true,
                    ..t.clone()
                },
                t,
            ]
        })
        .collect()
}

#[test]
fn a_scan_that_skips_below_the_ceiling_returns_the_full_scans_results() {
    let mut rows = texts(1500, 23);
    rows.extend(corpus(300, 29));
    let ix = index_of(&rows);
    let mut qs: Vec<String> = TYPED.iter().map(|s| s.to_string()).collect();
    qs.extend(queries(60, 31));
    let (mut skipped, mut scored) = (0usize, 0usize);
    for q in &qs {
        for limit in LIMITS {
            let want = full_scan(&ix, q, None, limit);
            for opts in ceiling_tunings() {
                let cands = Candidates {
                    head: &[],
                    growth: None,
                    rows: None,
                    tail: Tail::Range(0, ix.len()),
                };
                let found = scan(&ix, q, cands, limit, &opts);
                assert_eq!(found.best(limit), want, "{q:?} {limit} {opts:?}");
                if !opts.reach {
                    skipped += found.kept.iter().filter(|k| !k.2).count();
                    scored += found.kept.iter().filter(|k| k.2).count();
                }
            }
        }
    }
    // Worth something only if the ceiling skipped many texts.
    assert!(skipped > scored / 4, "{skipped} skipped, {scored} scored");
}

#[test]
fn typing_with_the_ceiling_returns_the_full_scans_results() {
    let mut rows = texts(1500, 37);
    rows.extend(corpus(300, 41));
    let ix = Arc::new(index_of(&rows));
    for limit in LIMITS {
        for tuning in ceiling_tunings() {
            for word in TYPED.iter().chain(&["aeiou", "real-0004"]) {
                let mut cache = SearchCache {
                    tuning: tuning.clone(),
                    ..SearchCache::default()
                };
                let what = format!("{tuning:?}");
                type_through(&mut cache, &ix, word, limit, (3, 2, 100), &what);
            }
        }
    }
}

/// A walk stopped early is still a ceiling: the exact one whenever that reaches what is
/// needed, and otherwise a score below it that nucleo's is never above.
#[test]
fn a_ceiling_stopped_early_is_still_a_ceiling() {
    let mut m = Matcher::new(Config::DEFAULT);
    let mut s = Scratch::default();
    let (mut stopped, mut tried) = (0usize, 0usize);
    for (q, ts) in cases() {
        let Some(c) = Ceiling::new(&pattern(q.trim())) else {
            continue;
        };
        for t in &ts {
            let exact = c.of(t, &mut s);
            let score = raw_score(q.trim(), t, &mut m);
            let around = exact.unwrap_or(60);
            for need in (around.saturating_sub(40)..around + 40).step_by(7) {
                tried += 1;
                let got = c.of_at_least(t, &mut s, need);
                match (exact, got) {
                    (Some(e), _) if e >= need => assert_eq!(got, exact, "{q:?} {t:?} {need}"),
                    (_, Some(g)) => {
                        assert!(g < need, "{q:?} {t:?} {need}: {g}");
                        assert!(exact.is_none_or(|e| e <= g), "{q:?} {t:?} {need}: {g}");
                        assert!(score.is_none_or(|x| x <= g), "{q:?} {t:?} {need}: {g}");
                        stopped += usize::from(got != exact);
                    }
                    (_, None) => assert_eq!(score, None, "{q:?} {t:?} {need}"),
                }
            }
        }
    }
    // Worth something only if walks stop early.
    assert!(stopped * 20 > tried, "{stopped} of {tried} stopped early");
}

/// The first text on which the walk that leaves out what cannot reach `need` says less
/// than nucleo's score (or no match where nucleo matches), for a few needs around each
/// text's ceiling; and how often it left cells out.
fn check_leaving_out(cases: &[(String, Vec<String>)], less: u32) -> (Option<String>, usize) {
    let mut m = Matcher::new(Config::DEFAULT);
    let mut s = Scratch::default();
    let mut left_out = 0;
    for (q, ts) in cases {
        let Some(c) = Ceiling::new(&pattern(q.trim())) else {
            continue;
        };
        let c = c.counting_less(less);
        for t in ts {
            let Some(score) = raw_score(q.trim(), t, &mut m) else {
                continue;
            };
            let exact = c.of(t, &mut s);
            for need in [score, score + 1, score + 3, score + 9, score + 27] {
                let got = c.of_at_least(t, &mut s, need);
                if got.is_none_or(|g| g < score) {
                    return (
                        Some(format!(
                            "{q:?} scores {score} on {t:?}, need {need}: {got:?}"
                        )),
                        left_out,
                    );
                }
                left_out += usize::from(got != exact);
            }
        }
    }
    (None, left_out)
}

/// The walk that leaves out the cells that cannot reach what is needed (the scan's, for
/// the candidates it tries first) is never below nucleo, and a walk counting one point
/// less a row than a row can add is caught.
#[test]
fn a_walk_that_leaves_out_cells_is_never_below_nucleo() {
    let cases = cases();
    let (failed, left_out) = check_leaving_out(&cases, 0);
    assert_eq!(failed, None);
    assert!(left_out > 1000, "{left_out} walks left cells out");
    assert!(check_leaving_out(&cases, 1).0.is_some());
}

/// The first text on which a query with a letter or digit typed on scores more than
/// the last query's ceiling less its [`Ceiling::typed_on_less`] (raised by `more`), plus
/// the growth: after a whole walk, a walk that leaves out cells, and a walk extended from
/// a kept row; and how often that less was above 0.
fn check_typed_on(cases: &[(String, Vec<String>)], more: u32) -> (Option<String>, usize) {
    let mut m = Matcher::new(Config::DEFAULT);
    let mut s = Scratch::default();
    let mut rng = Rng::new(67);
    let mut less_seen = 0;
    for (q, ts) in cases {
        let q = q.trim();
        let Some(c) = Ceiling::new(&pattern(q)) else {
            continue;
        };
        let c = c.less_by_more(more);
        // The last query's own last row, to extend ([`Ceiling::extend`]).
        let shorter = (q.len() > 1 && !q.contains(' ') && q.is_ascii())
            .then(|| Ceiling::new(&pattern(&q[..q.len() - 1])))
            .flatten();
        for x in [rng.pick(&['e', 'o', 'a']), rng.pick(&['4', 'x', 'i'])] {
            let long = format!("{q}{x}");
            let Some(g) = growth(&pattern(q), &pattern(&long)) else {
                continue;
            };
            if !g.letter {
                continue;
            }
            let mut texts: Vec<String> = ascii_texts_for(&long, &mut rng, 150);
            texts.extend(ts.iter().cloned());
            texts.retain(|t| t.is_ascii() && t.len() <= 2048 && t.len() * g.word <= 100 * 1024);
            for t in &texts {
                let Some(score) = raw_score(&long, t, &mut m) else {
                    continue;
                };
                let Some(exact) = c.of(t, &mut s) else {
                    return (Some(format!("{q:?} does not match {t:?}")), less_seen);
                };
                let mut walks = vec![(0, exact, c.typed_on_less(&s))];
                for need in [exact, exact + 1, exact.saturating_sub(5), exact + 20] {
                    if let Some(most) = c.of_at_least(t, &mut s, need) {
                        walks.push((need, most, c.typed_on_less(&s)));
                    }
                }
                if let Some(short) = &shorter
                    && short.of(t, &mut s).is_some()
                {
                    let mut kept = Vec::new();
                    if short.keep(&s, 0, 1 << 16, &mut kept)
                        && let Some(Some((most, _))) = c.extend(t.as_bytes(), &kept, &mut s, 0)
                    {
                        walks.push((u32::MAX, most, c.typed_on_less(&s)));
                    }
                }
                for (need, most, less) in walks {
                    less_seen += usize::from(less > 0);
                    if score + u32::from(less) > most + g.add {
                        return (
                            Some(format!(
                                "{q:?} → {long:?} scores {score} on {t:?}: ceiling {most} \
                                 (need {need}) less {less} + {}",
                                g.add
                            )),
                            less_seen,
                        );
                    }
                }
            }
        }
    }
    (None, less_seen)
}

/// A letter or digit typed on a word that ends in one adds at most 23, not 26, to a cell
/// that carries less than 8: the bound the scan keeps for it is never below nucleo's
/// score, and one point tighter is caught.
#[test]
fn a_letter_typed_on_scores_at_most_the_ceiling_less_its_less() {
    let cases = cases();
    let (failed, less_seen) = check_typed_on(&cases, 0);
    assert_eq!(failed, None);
    assert!(less_seen > 1000, "{less_seen} walks with a less");
    assert!(check_typed_on(&cases, 1).0.is_some());
}
