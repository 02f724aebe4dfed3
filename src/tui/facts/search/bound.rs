//! The highest score any text can get for a pattern, so that a scan for the best few
//! matches can stop once it has that many at this score.
//!
//! It follows nucleo-matcher's scoring (0.3, `score.rs`, `fuzzy_optimal.rs`, with
//! `Config::DEFAULT`): every matched character scores `SCORE_MATCH` (16) plus a bonus,
//! and the bonus of a character is at most the word-start-after-whitespace bonus
//! (`bonus_boundary_white`, 10) — also inside a consecutive run, which carries at most
//! the largest bonus seen; the first character's bonus counts twice
//! (`BONUS_FIRST_CHAR_MULTIPLIER`); gaps only take points away, and `prefer_prefix` is off.
//! So one fuzzy word of `n` characters scores at most `26 n + 10` — reached by a text
//! with the word spelled out after a space or at the start — whichever path nucleo takes
//! (one character, the whole text, the greedy fallback or the optimal matrix), and a
//! pattern scores the sum of its words. `bound_holds_for_every_text` in the tests checks
//! this on many adversarial texts, so a nucleo upgrade that scores higher fails there.

use nucleo_matcher::Utf32Str;
use nucleo_matcher::pattern::{Atom, AtomKind, Pattern};

/// Points per matched character, at most: `SCORE_MATCH` plus the largest bonus.
const PER_CHAR: u32 = 16 + 10;
/// The first character's bonus counts once more.
const FIRST_CHAR_EXTRA: u32 = 10;
/// Words longer than this get no bound (nucleo's per-word score is a `u16`, and matching
/// falls back to greedy for long needles): such a query scans every candidate.
const MAX_WORD: usize = 1000;

/// The highest score `pattern` can give any text, or None when it cannot be told (a word
/// of another kind than fuzzy, a negated word, a very long word).
pub(super) fn score_bound(pattern: &Pattern) -> Option<u32> {
    pattern.atoms.iter().map(word_bound).sum()
}

/// The highest score one word of a pattern can give any text.
fn word_bound(atom: &Atom) -> Option<u32> {
    if atom.negative || atom.kind != AtomKind::Fuzzy {
        return None;
    }
    let n = atom.needle_text().len();
    (n <= MAX_WORD).then_some(PER_CHAR * n as u32 + FIRST_CHAR_EXTRA)
}

/// How much more a query typed on from another can score on a text: see [`growth`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Growth {
    /// At most this many points more than the shorter query's score.
    pub add: u32,
    /// The longer query's word that grew, in characters: the bound holds for ASCII texts
    /// of at most 2048 characters whose length times this is at most 100 KiB (nucleo
    /// then scores both words with its optimal matrix, not its greedy fallback).
    pub word: usize,
    /// The last word grew, and the character typed first on it and the one before are
    /// ASCII letters or digits: the first grows the score by at most 23 from a cell of
    /// the shorter word's last row that carries less than 8 (see
    /// `Ceiling::typed_on_less`), and a bound known to be that much less holds.
    pub letter: bool,
}

/// On an ASCII text, how much more `q` can score than `last` when `q` is `last` typed on
/// (the same words, the last one longer, maybe more words after it).
///
/// The words `last` and `q` share score the same. The word that grew, from `n` to `m`
/// ASCII characters with the same case rule (smart case: neither or both have a capital),
/// scores at most `26 (m - n)` more: nucleo's matrix for it fills the rows of its first
/// `n` characters exactly as for the shorter word (a row only depends on the rows above
/// and the columns before; the rows start where they did, at the first place each
/// character can be), the shorter word's score is the best cell of its last row, and each
/// further row adds at most `SCORE_MATCH` plus the largest bonus to the best cell before
/// it. A new word scores at most its [`score_bound`]. `growth_holds_for_every_text` in the
/// tests checks this on many texts. None when it cannot be told.
pub(super) fn growth(last: &Pattern, q: &Pattern) -> Option<Growth> {
    let (a, b) = (&last.atoms, &q.atoms);
    let k = a.len().checked_sub(1)?;
    if b.len() < a.len()
        || a.iter()
            .chain(b)
            .any(|x| x.negative || x.kind != AtomKind::Fuzzy)
    {
        return None;
    }
    if a[..k]
        .iter()
        .zip(&b[..k])
        .any(|(x, y)| x.needle_text() != y.needle_text())
    {
        return None;
    }
    let (Utf32Str::Ascii(short), Utf32Str::Ascii(long)) = (a[k].needle_text(), b[k].needle_text())
    else {
        return None;
    };
    let capital = |w: &[u8]| w.iter().any(u8::is_ascii_uppercase);
    if !long.starts_with(short) || capital(short) != capital(long) {
        return None;
    }
    let mut add = PER_CHAR * (long.len() - short.len()) as u32;
    for atom in &b[a.len()..] {
        add += word_bound(atom)?;
    }
    let letter = |c: Option<&u8>| c.is_some_and(u8::is_ascii_alphanumeric);
    Some(Growth {
        add,
        word: long.len(),
        letter: letter(short.last()) && letter(long.get(short.len())),
    })
}
