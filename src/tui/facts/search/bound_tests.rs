//! The score bounds the search stops and skips by (`bound.rs`), brute-forced on texts
//! built to score high: no text may score above them.

use nucleo_matcher::pattern::{AtomKind, CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher};

use super::bound::{growth, score_bound};
use super::tests::*;
use super::{narrows, pattern};

#[test]
fn bound_holds_for_every_text() {
    let mut m = Matcher::new(Config::DEFAULT);
    let mut rng = Rng::new(23);
    let texts: Vec<String> = (0..300).map(|_| text(&mut rng)).collect();
    let mut qs = queries(400, 29);
    qs.extend([
        "a".repeat(300),
        "ab".repeat(200),
        "é".repeat(50),
        "x y".repeat(40),
    ]);
    let (mut tried, mut reached) = (0, 0);
    for q in &qs {
        let p = Pattern::new(
            q,
            CaseMatching::Smart,
            Normalization::Smart,
            AtomKind::Fuzzy,
        );
        let Some(bound) = score_bound(&p) else {
            panic!("no bound for {q:?}")
        };
        let mut best = None;
        for hay in haystacks_for(q, &mut rng).iter().chain(&texts) {
            if let Some(s) = raw_score(q, hay, &mut m) {
                assert!(s <= bound, "{q:?} scores {s} > {bound} on {hay:?}");
                best = best.max(Some(s));
            }
        }
        tried += 1;
        reached += usize::from(best == Some(bound));
        // The bound is reached by the query itself when it starts a word with a letter
        // or digit (the case the scan can stop for).
        let one_char_each = nucleo_matcher::chars::graphemes(q).count() == q.chars().count();
        if !q.contains(' ') && one_char_each && q.starts_with(char::is_alphanumeric) {
            assert_eq!(raw_score(q, q, &mut m), Some(bound), "{q:?}");
        }
    }
    assert!(
        reached * 2 > tried,
        "the bound is reached for {reached} of {tried}"
    );
}

#[test]
fn growth_holds_for_every_text() {
    let mut m = Matcher::new(Config::DEFAULT);
    let mut rng = Rng::new(41);
    let texts: Vec<String> = (0..300)
        .map(|_| text(&mut rng))
        .filter(|t| t.is_ascii())
        .collect();
    let mut qs: Vec<String> = queries(300, 43)
        .into_iter()
        .filter(|q| q.is_ascii())
        .collect();
    qs.extend(
        [
            "aeiou",
            "eeeee",
            "how many c",
            "Flowers Purple",
            "a b c",
            "ab\\ cd",
        ]
        .map(String::from),
    );
    let (mut pairs, mut checked) = (0, 0);
    for q in &qs {
        let long = pattern(q);
        let mut hays = haystacks_for(q, &mut rng);
        hays.extend(ascii_texts_for(q, &mut rng, 200));
        hays.extend(texts.iter().cloned());
        hays.retain(|h| h.is_ascii());
        for k in 1..q.len() {
            let last = q[..k].trim();
            if !narrows(last, q) {
                continue;
            }
            let Some(g) = growth(&pattern(last), &long) else {
                continue;
            };
            pairs += 1;
            for hay in &hays {
                if hay.len() > 2048 || hay.len() * g.word > 100 * 1024 {
                    continue;
                }
                if let Some(s) = raw_score(q, hay, &mut m) {
                    let before = raw_score(last, hay, &mut m).expect("a match of the shorter");
                    assert!(
                        s <= before + g.add,
                        "{last:?} {before} → {q:?} {s} > +{} on {hay:?}",
                        g.add
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(
        pairs > 300 && checked > 10_000,
        "{pairs} pairs, {checked} checks"
    );
}

/// A bound kept less its `Known::less` holds only for a letter or digit typed on a word
/// that ends in one (see `Ceiling::typed_on_less`).
#[test]
fn growth_says_a_letter_is_typed_on_a_word_only_then() {
    let letter = |last: &str, q: &str| growth(&pattern(last), &pattern(q)).map(|g| g.letter);
    assert_eq!(letter("ae", "aei"), Some(true));
    assert_eq!(letter("ae", "aei x"), Some(true));
    assert_eq!(letter("real-00", "real-000"), Some(true));
    assert_eq!(letter("re4", "re4l"), Some(true));
    assert_eq!(letter("real", "real-"), Some(false));
    assert_eq!(letter("real-", "real-0"), Some(false));
    assert_eq!(letter("ae", "ae"), Some(false));
    assert_eq!(letter("ae", "ae x"), Some(false));
    assert_eq!(letter("a", "a\\ b"), Some(false));
}
