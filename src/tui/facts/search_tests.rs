//! The search's order is the one search has always had: every item scored by nucleo's
//! pattern, an item whose id is the query first, then by score, then by the item's place
//! (`full_scan`, what the hand-written scan before nucleo was held to, result for
//! result), on the corpus and queries its tests used; typed one letter at a time, taken
//! back and typed on, with and without a filter.

use std::sync::Arc;
use std::time::Duration;

use super::*;
use crate::test_support::Rng;

fn index_of(rows: &[(String, String)]) -> Index {
    Index::of_texts(rows)
}

/// Words of the corpus: repeated ones (so that many texts tie at the top score), case,
/// camelCase, delimiters, digits, nucleo's special characters, non-ASCII (precomposed and
/// combining accents, ligatures, the Kelvin sign, scripts without case).
const WORDS: &[&str] = &[
    "How",
    "how",
    "many",
    "flowers",
    "purple",
    "polygons",
    "are",
    "outside",
    "the",
    "cat",
    "Cat",
    "CAT",
    "cats",
    "scatter",
    "Café",
    "café",
    "cafe",
    "CAFE",
    "naïve",
    "straße",
    "ﬁle",
    "\u{212A}elvin",
    "Kelvin",
    "camelCase",
    "snake_case",
    "kebab-case",
    "path/to/file",
    "a.b.c",
    "x,y;z|w",
    "12.5%",
    "(approx.)",
    "^caret",
    "'quote",
    "!bang",
    "dollar$",
    "back\\slash",
    "中文",
    "ÉCOLE",
    "e\u{301}cole",
    "ee",
    "aeiou",
    "real-00041",
    "e",
    "E",
    "éé",
    "ü",
    "Über",
    "über",
    "eee",
    "ae",
    "io",
    "ou",
    "a",
    "b",
    "tab\there",
    "x-ray",
    "X_RAY",
    "v2",
    "v10",
    "2nd",
    "α",
    "Ω",
    "ω",
    "ǅemal",
    "İstanbul",
    "ﬀ",
    "ff",
    "How-many",
];

const SEPARATORS: &[&str] = &[" ", " ", " ", "  ", "-", "_", "/", "", ".", ", ", "\t"];

fn text(rng: &mut Rng) -> String {
    let mut t = String::new();
    for k in 0..1 + rng.below(14) {
        if k > 0 {
            t.push_str(rng.pick(SEPARATORS));
        }
        t.push_str(rng.pick(WORDS));
    }
    t
}

fn corpus(n: usize, seed: u64) -> Vec<(String, String)> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|i| {
            let id = match rng.below(40) {
                0 => "cat".to_string(),
                1 => "Cat".to_string(),
                2 => "flowers purple".to_string(),
                3 => "e".to_string(),
                4 => format!("real-{:05}", rng.below(100)),
                _ => format!("real-{i:05}"),
            };
            (id, text(&mut rng))
        })
        .collect()
}

/// Queries: words and pieces of words, several words, escaped spaces, case, the
/// characters nucleo's other syntax uses (plain characters to `Pattern::new`), ids.
fn queries(n: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut v: Vec<String> = [
        "e",
        "ee",
        "eee",
        "aeiou",
        "how many",
        "How many",
        "flowers purple",
        "cat",
        "Cat",
        "CAT",
        "real-0004",
        "real-00041",
        "real-00007",
        "cafe",
        "Café",
        "é",
        "ü",
        "straße",
        "ß",
        "kelvin",
        "Kelvin",
        "file",
        "^caret",
        "'quote",
        "!bang",
        "dollar$",
        "^",
        "$",
        "!",
        "'",
        "back\\ slash",
        "how\\ many",
        "a\\",
        "a\\ b",
        "x-r",
        "x_r",
        "XR",
        "v1",
        "12.5",
        "(appro",
        "中",
        "α",
        "ω",
        "Ω",
        "zzz",
        "q",
        "flowers purple",
        "e e e",
        "How-many",
        "e\u{301}",
        "ǆ",
        "i̇",
        "ff",
        "-",
        "/",
        ".",
        ", ",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    while v.len() < n {
        let mut q = String::new();
        for k in 0..1 + rng.below(3) {
            if k > 0 {
                q.push_str(if rng.chance(20) { "\\ " } else { " " });
            }
            let w: Vec<char> = rng.pick(WORDS).chars().collect();
            let (a, b) = (rng.below(w.len()), rng.below(w.len()));
            let mut piece: String = if rng.chance(50) {
                w.iter().collect()
            } else {
                w[a.min(b)..=a.max(b)].iter().collect()
            };
            if rng.chance(15) {
                piece = piece.to_uppercase();
            }
            if rng.chance(15) {
                // a subsequence: a fuzzier query
                piece = piece.chars().step_by(2).collect();
            }
            q.push_str(&piece);
        }
        v.push(q);
    }
    v
}

/// Every match of `q` among `within` (or all), scored one by one: an exact id
/// [`ID_HIT`] more, then best first, then by item.
fn full_scan(ix: &Index, q: &str, within: Option<&[usize]>, limit: usize) -> Vec<usize> {
    Scan::of(ix).best(q, within, limit)
}

/// [`full_scan`] with the index's texts made nucleo's once.
struct Scan {
    texts: Vec<Utf32String>,
    ids: Vec<String>,
}

impl Scan {
    fn of(ix: &Index) -> Scan {
        Scan {
            texts: (0..ix.len())
                .map(|i| Utf32String::from(ix.search_text(i)))
                .collect(),
            ids: (0..ix.len()).map(|i| ix.id(i).to_string()).collect(),
        }
    }

    fn best(&self, q: &str, within: Option<&[usize]>, limit: usize) -> Vec<usize> {
        let q = q.trim();
        let items: Vec<usize> = match within {
            Some(w) => w.to_vec(),
            None => (0..self.texts.len()).collect(),
        };
        let p = pattern(q);
        let mut m = Matcher::new(Config::DEFAULT);
        let mut scored: Vec<(std::cmp::Reverse<u32>, usize)> = items
            .into_iter()
            .filter_map(|i| {
                if q.is_empty() {
                    return Some((std::cmp::Reverse(0), i));
                }
                let s = p.score(self.texts[i].slice(..), &mut m)?;
                let hit = if self.ids[i].eq_ignore_ascii_case(q) {
                    ID_HIT
                } else {
                    0
                };
                Some((std::cmp::Reverse(s + hit), i))
            })
            .collect();
        scored.sort_unstable();
        scored.into_iter().map(|x| x.1).take(limit).collect()
    }
}

const LIMITS: [usize; 3] = [1, 10, 500];

/// A search of `ix` with every text handed to nucleo.
fn fed(ix: &Arc<Index>) -> Search {
    let mut s = Search::new(Arc::new(|| {}));
    s.set_index(ix);
    while s.feeding() {
        std::thread::sleep(Duration::from_millis(1));
    }
    s
}

/// Type `q` into `s` and wait for nucleo's match.
fn typed(s: &mut Search, q: &str) {
    s.set_query(q);
    while s.nucleo.tick(10).running {}
}

/// Some of the items (in item order) and the same in another order.
fn filters(n: usize, seed: u64) -> (Vec<usize>, Vec<usize>) {
    let mut rng = Rng::new(seed);
    let sorted: Vec<usize> = (0..n).filter(|_| rng.chance(60)).collect();
    let mut shuffled = sorted.clone();
    for k in (1..shuffled.len()).rev() {
        shuffled.swap(k, rng.below(k + 1));
    }
    (sorted, shuffled)
}

/// Does a word begin with a backslash and then a character nucleo's syntax escapes?
fn unwritable(q: &str) -> bool {
    q.split(' ')
        .any(|w| w.starts_with("\\!") || w.starts_with("\\^") || w.starts_with("\\'"))
}

#[test]
fn the_query_in_nucleos_syntax_parses_to_the_same_words() {
    let mut qs = queries(400, 3);
    qs.extend(
        [
            "!", "!$", "^$", "a$ $b", "\\$", "x\\$", "'a' b'", "!a\\ b$", "a\\ !b", "$$", "^^",
        ]
        .map(String::from),
    );
    let mut checked = 0;
    for q in qs.iter().map(|q| q.trim()).filter(|q| !unwritable(q)) {
        let parsed = Pattern::parse(
            &in_nucleo_syntax(q),
            CaseMatching::Smart,
            Normalization::Smart,
        );
        assert_eq!(
            parsed.atoms,
            pattern(q).atoms,
            "{q:?} as {:?}",
            in_nucleo_syntax(q)
        );
        checked += 1;
    }
    assert!(checked > 390, "{checked}");
    // The one word it cannot write: nucleo reads the backslash as an escape.
    let parsed = Pattern::parse(
        &in_nucleo_syntax("\\!x"),
        CaseMatching::Smart,
        Normalization::Smart,
    );
    assert_ne!(parsed.atoms, pattern("\\!x").atoms);
}

/// The headline: every keystroke's matches, in the order the full scan gives them.
#[test]
fn typing_finds_the_full_scans_matches_in_its_order() {
    let ix = Arc::new(index_of(&corpus(2000, 7)));
    let (sorted, shuffled) = filters(ix.len(), 11);
    let bits = bits_of(ix.len(), &shuffled);
    let mut s = fed(&ix);
    let scan = Scan::of(&ix);
    let mut compared = 0;
    for q in queries(200, 3).iter().filter(|q| !unwritable(q)) {
        let ends: Vec<usize> = q.char_indices().map(|(i, c)| i + c.len_utf8()).collect();
        // typed on, three letters taken back, typed on again
        let mut steps = ends.clone();
        steps.extend(ends.iter().rev().skip(1).take(3).rev());
        steps.extend(ends.iter().rev().take(2).rev());
        for (k, &end) in steps.iter().enumerate() {
            let p = &q[..end];
            typed(&mut s, p);
            let (within, w) = if k % 2 == 0 {
                (None, None)
            } else {
                (Some(&sorted[..]), Some(&bits))
            };
            let want = scan.best(p, within, SEARCH_SHOWN);
            assert_eq!(s.best(&ix, w, SEARCH_SHOWN), Some(want), "typed {p:?}");
            compared += 1;
        }
        for within in [None, Some(&sorted[..]), Some(&shuffled[..])] {
            let w = within.map(|w| bits_of(ix.len(), w));
            for limit in LIMITS {
                let want = scan.best(q, within, limit);
                assert_eq!(s.best(&ix, w.as_ref(), limit), Some(want), "{q:?} {limit}");
                compared += 1;
            }
        }
    }
    assert!(compared > 2000, "{compared}");
}

#[test]
fn search_gives_the_full_scans_matches() {
    let ix = index_of(&corpus(1500, 13));
    let (sorted, _) = filters(ix.len(), 5);
    for q in [
        "e",
        "how many",
        "Cat",
        "real-0004",
        "",
        "  e  ",
        "zzz",
        "a\\ b",
        "dollar$",
    ] {
        for within in [None, Some(&sorted[..])] {
            for limit in LIMITS {
                let want = full_scan(&ix, q, within, limit);
                assert_eq!(search(&ix, q, within, limit), want, "{q:?} {limit}");
            }
        }
    }
}

#[test]
fn an_exact_id_ranks_first() {
    // Many texts score the most any can for "cat" before the ones whose id is "cat".
    let mut rows: Vec<(String, String)> = (0..2000)
        .map(|i| (format!("real-{i:05}"), "cat".to_string()))
        .collect();
    rows.push(("CAT".to_string(), "a dog".to_string()));
    rows.push(("cat".to_string(), "no match here".to_string()));
    rows.push(("dog".to_string(), "cat".to_string()));
    let ix = index_of(&rows);
    for limit in LIMITS {
        let found = search(&ix, "cat", None, limit);
        assert_eq!(found[..limit.min(2)], [2000, 2001][..limit.min(2)]);
        assert_eq!(found, full_scan(&ix, "cat", None, limit), "{limit}");
    }
}

/// A query that ends in a backslash is not narrowed from by the next letter: a space typed
/// after it escapes that space (`a\ b` is one word, "a b"), so a match of `a\ b` need not
/// have a backslash at all.
#[test]
fn a_backslash_then_a_space_finds_what_a_fresh_search_finds() {
    let rows: Vec<(String, String)> = [
        ("x-1", "a b"),
        ("x-2", "a\\b"),
        ("x-3", "back\\slash and a space"),
    ]
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .to_vec();
    let ix = Arc::new(index_of(&rows));
    let mut s = fed(&ix);
    for q in ["a", "a\\", "a\\ ", "a\\ b", "a\\ b\\", "a\\ b\\ "] {
        typed(&mut s, q);
        assert_eq!(
            s.best(&ix, None, 10),
            Some(search(&ix, q, None, 10)),
            "{q:?}"
        );
    }
    assert_eq!(search(&ix, "a\\ b", None, 10), vec![0]);
}

/// The kept index that takes the built one's place holds the same texts: nucleo keeps
/// what it has. Another text: nucleo is given the new index's.
#[test]
fn the_same_texts_are_not_given_again() {
    let rows = corpus(3000, 17);
    let ix = Arc::new(index_of(&rows));
    let mut s = fed(&ix);
    typed(&mut s, "e");
    let before = s.best(&ix, None, 500);
    let kept = Arc::new(index_of(&rows));
    s.set_index(&kept);
    assert_eq!(s.nucleo.snapshot().item_count(), 3000, "not cleared");
    assert_eq!(s.best(&kept, None, 500), before);
    let mut changed = rows.clone();
    changed[5].1 = "something else".into();
    let other = Arc::new(index_of(&changed));
    s.set_index(&other);
    assert_eq!(
        s.nucleo.snapshot().item_count(),
        0,
        "cleared for the new texts"
    );
    while s.feeding() {}
    typed(&mut s, "e");
    assert_eq!(
        s.best(&other, None, 500),
        Some(full_scan(&other, "e", None, 500))
    );
}

/// The worker answers each request, typed fast or slow, with the full scan's results.
#[test]
fn the_worker_answers_with_the_full_scans_results() {
    let ix = Arc::new(index_of(&corpus(20_000, 71)));
    let (tx, rx) = std::sync::mpsc::channel();
    let mut worker = SearchWorker::spawn(Box::new(move |seq, results| {
        let _ = tx.send((seq, results));
    }));
    worker.index(Some(&ix));
    let typed = ["e", "ee", "eee", "eee e", "a", "ae", "aei", "how", "how m"];
    let request = |seq: usize, q: &str| SearchRequest {
        seq: seq as u64,
        query: q.to_string(),
        meta: ix.clone(),
        within: None,
    };
    // Each waited for: its answers end with the full scan's.
    for (seq, q) in typed.iter().enumerate() {
        worker.request(request(seq, q));
        let want = full_scan(&ix, q, None, SEARCH_SHOWN);
        loop {
            let (got, results) = rx.recv_timeout(Duration::from_secs(60)).expect("an answer");
            assert_eq!(got, seq as u64, "only the request's answers");
            if results == want {
                break;
            }
        }
    }
    // All at once: the last one is answered, with the full scan's.
    for (seq, q) in typed.iter().enumerate() {
        worker.request(request(100 + seq, q));
    }
    let last = 100 + typed.len() - 1;
    let want = full_scan(&ix, typed[typed.len() - 1], None, SEARCH_SHOWN);
    while rx.recv_timeout(Duration::from_secs(60)).expect("an answer")
        != (last as u64, want.clone())
    {}
}
