//! What the search tests share: the corpus and query generators, haystacks built to score
//! high, the full scan every result is compared with, and the scan's tunings.

use std::sync::Arc;

use nucleo_matcher::pattern::{AtomKind, CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Matcher, Utf32Str};

use super::super::Index;
use super::scan::Opts;
use super::*;

pub(super) use crate::test_support::Rng;

pub(super) fn index_of(rows: &[(String, String)]) -> Index {
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

pub(super) fn text(rng: &mut Rng) -> String {
    let mut t = String::new();
    for k in 0..1 + rng.below(14) {
        if k > 0 {
            t.push_str(rng.pick(SEPARATORS));
        }
        t.push_str(rng.pick(WORDS));
    }
    t
}

pub(super) fn corpus(n: usize, seed: u64) -> Vec<(String, String)> {
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
pub(super) fn queries(n: usize, seed: u64) -> Vec<String> {
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

pub(super) fn full_scan(ix: &Index, q: &str, within: Option<&[usize]>, limit: usize) -> Vec<usize> {
    rank(matches_with(ix, q, within, None, false), limit)
}

pub(super) const LIMITS: [usize; 3] = [1, 10, 500];

/// A search request for `q` over the whole of `ix`.
pub(super) fn request(q: &str, ix: &Arc<Index>) -> SearchRequest {
    SearchRequest {
        seq: 0,
        query: q.to_string(),
        meta: ix.clone(),
        within: None,
    }
}

/// Type `word` into `cache` one character at a time: every prefix finds what the full
/// scan finds. After the `k`-th character (from 0) with `k % every == at`, the cache goes
/// on with `go_on` items, as between keystrokes. `what` names the case in a failure.
pub(super) fn type_through(
    cache: &mut SearchCache,
    ix: &Arc<Index>,
    word: &str,
    limit: usize,
    (every, at, go_on): (usize, usize, usize),
    what: &str,
) {
    let ends = word.char_indices().map(|(i, c)| i + c.len_utf8());
    for (k, end) in ends.enumerate() {
        let q = &word[..end];
        assert_eq!(
            cache.run(&request(q, ix), limit),
            full_scan(ix, q, None, limit),
            "{q:?} {limit} {what}"
        );
        if k % every == at {
            cache.go_on(go_on);
        }
    }
}

/// The scan's options the tests try: one thread and small chunks, three threads and odd
/// chunk sizes, one chunk per candidate, and the defaults.
pub(super) fn tunings() -> Vec<Opts> {
    vec![
        Opts {
            threads: 1,
            first_chunk: 16,
            max_chunk: 256,
            ..Opts::default()
        },
        Opts {
            threads: 3,
            first_chunk: 7,
            max_chunk: 61,
            ..Opts::default()
        },
        Opts {
            threads: 2,
            first_chunk: 1,
            max_chunk: 1,
            ..Opts::default()
        },
        Opts::default(),
    ]
}

/// Haystacks built to score high for `needle`: it spelled out at word starts, after
/// delimiters, in camelCase, with case changed, accents added, and gaps between.
pub(super) fn haystacks_for(needle: &str, rng: &mut Rng) -> Vec<String> {
    let pre = [
        "", " ", "x", "-", "_", "/", ":", ".", "A", "a1", "é", "\t", "中",
    ];
    let mut v = Vec::new();
    for p in pre {
        v.push(format!("{p}{needle}"));
        v.push(format!("{p}{needle} tail"));
        v.push(format!("{p}{}", needle.to_uppercase()));
        v.push(format!("{p}{}", needle.to_lowercase()));
    }
    let chars: Vec<char> = needle.chars().collect();
    for _ in 0..20 {
        let mut h = String::new();
        for &c in &chars {
            match rng.below(8) {
                0 => h.push(' '),
                1 => h.push_str(rng.pick(&["-", "_", "/", ".", ",", "|", "é"])),
                2 => h.push(rng.pick(&['a', 'Z', '9'])),
                _ => {}
            }
            match rng.below(6) {
                0 => h.extend(c.to_uppercase()),
                1 => h.extend(c.to_lowercase()),
                2 if c == 'e' => h.push('é'),
                2 if c == 'E' => h.push('É'),
                _ => h.push(c),
            }
        }
        v.push(h);
    }
    // Longer than nucleo's matrix: the greedy fallback.
    v.push(format!("{}{needle}", "ab cd ".repeat(700)));
    v.push(format!("{needle}{}", " x".repeat(20_000)));
    v
}

pub(super) fn raw_score(q: &str, hay: &str, m: &mut Matcher) -> Option<u32> {
    let p = Pattern::new(
        q,
        CaseMatching::Smart,
        Normalization::Smart,
        AtomKind::Fuzzy,
    );
    let mut buf = Vec::new();
    p.score(Utf32Str::new(hay, &mut buf), m)
}

/// ASCII texts from the query's own characters and word breaks: many ways to match it,
/// with and without gaps, at and off word starts.
pub(super) fn ascii_texts_for(q: &str, rng: &mut Rng, n: usize) -> Vec<String> {
    let mut alphabet: Vec<char> = q.chars().filter(char::is_ascii).collect();
    alphabet.extend(q.to_ascii_uppercase().chars());
    alphabet.extend(" -_/.,:;|aZ9".chars());
    (0..n)
        .map(|_| {
            let len = 1 + rng.below(40);
            (0..len).map(|_| rng.pick(&alphabet)).collect()
        })
        .collect()
}
