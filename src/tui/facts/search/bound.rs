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

use nucleo_matcher::pattern::{AtomKind, Pattern};

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
    let mut bound = 0;
    for atom in &pattern.atoms {
        if atom.negative || atom.kind != AtomKind::Fuzzy {
            return None;
        }
        let n = atom.needle_text().len();
        if n > MAX_WORD {
            return None;
        }
        bound += PER_CHAR * n as u32 + FIRST_CHAR_EXTRA;
    }
    Some(bound)
}
