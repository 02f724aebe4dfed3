//! Can a text score at least `t` for a query? A cheap check that never says no to a text
//! that does, so that a scan which already has its `limit` best matches at `t` or more
//! skips, without nucleo's matrix, the texts that cannot reach `t` (issue 21: `real`
//! inside `cvqa-real-…` ids, or `ae`, scored every text of a million on some keystrokes).
//!
//! It follows nucleo-matcher's scoring (0.3, `fuzzy_optimal.rs`, `score.rs`, with
//! `Config::DEFAULT`, see [`super::bound`]): a fuzzy word of `n` characters scores at most
//! `B = 26 n + 10`, and what a match of it loses against `B` is at least the sum of
//! - `2 (10 − own(p))` for its first character at `p` (its bonus counts twice),
//! - for each later character that is not right after the one before (a new run, at
//!   `q`): `10 − own(q)` (its bonus is its own, not the run's) and the gap before it,
//!   `3` for the first character skipped and `1` for each further one (`2 + g` for a
//!   gap of `g ≥ 1` characters),
//! - nothing for a character right after the one before (it can score the full 26),
//!
//! where `own(q)` is nucleo's bonus of the text's character at `q` after the one before
//! it (`bonus_for`). A running score never goes below 0 (`saturating_sub`): a match
//! whose score was held at 0 by a gap keeps at most what its characters after it score,
//! at most `26 (n − 1)`, `36` below `B`. So for a loss budget `L = B − t` under 36, a
//! text scores `t` or more only if it holds a match losing at most `L` by the sum above;
//! [`Reach::may_reach`] looks for one, from each place the word's first character has a
//! bonus high enough, with the gaps the budget allows. A query of several words scores
//! the sum of its words, each at most its `B`: each word must lose at most `B_total − t`.
//!
//! Only for ASCII texts and words of ASCII characters, whose characters nucleo compares
//! as they are (smart case: lower-cased when the word has no capital).
//! `reach_never_says_no_to_a_text_that_scores` in the tests checks it against nucleo on
//! many texts; the scan's tests check that the results are the full scan's.

use nucleo_matcher::Utf32Str;
use nucleo_matcher::pattern::{AtomKind, Pattern};

/// A budget at or over this says yes to every text (see the module's comment; a larger
/// budget would also let the search for a match grow).
const MAX_BUDGET: u32 = 24;

/// One word of the query: its characters (lower case when matched without case).
struct Word {
    needle: Vec<u8>,
    ignore_case: bool,
}

/// The check for one query.
pub(super) struct Reach {
    words: Vec<Word>,
    /// The highest score of the whole query: the sum of its words' `B`.
    bound: u32,
}

impl Reach {
    /// None when the check does not apply: a word of another kind than fuzzy, negated,
    /// longer than 64 characters or not ASCII.
    pub(super) fn new(pattern: &Pattern) -> Option<Reach> {
        let mut words = Vec::new();
        let mut bound = 0u32;
        for atom in &pattern.atoms {
            if atom.negative || atom.kind != AtomKind::Fuzzy {
                return None;
            }
            let Utf32Str::Ascii(needle) = atom.needle_text() else {
                return None;
            };
            if needle.is_empty() || needle.len() > 64 {
                return None;
            }
            // Smart case: without case unless the word has a capital (nucleo keeps such
            // a word as typed).
            let ignore_case = !needle.iter().any(u8::is_ascii_uppercase);
            bound += 26 * needle.len() as u32 + 10;
            words.push(Word {
                needle: needle.to_vec(),
                ignore_case,
            });
        }
        (!words.is_empty()).then_some(Reach { words, bound })
    }

    /// False only when `text` cannot score `t` or more for the query (no id bonus
    /// counted: the caller leaves an item whose id is the query to nucleo).
    pub(super) fn may_reach(&self, text: &str, t: u32) -> bool {
        let Some(budget) = self.bound.checked_sub(t) else {
            // Above the highest score.
            return false;
        };
        if budget >= MAX_BUDGET || !text.is_ascii() {
            return true;
        }
        let text = text.as_bytes();
        self.words.iter().all(|w| word_may_reach(text, w, budget))
    }
}

/// nucleo's character classes for ASCII (`chars.rs`, `Config::DEFAULT`'s delimiters).
#[derive(Clone, Copy, PartialEq)]
enum Class {
    Whitespace,
    NonWord,
    Delimiter,
    Lower,
    Upper,
    Number,
}

fn class(b: u8) -> Class {
    match b {
        b'a'..=b'z' => Class::Lower,
        b'A'..=b'Z' => Class::Upper,
        b'0'..=b'9' => Class::Number,
        _ if b.is_ascii_whitespace() => Class::Whitespace,
        b'/' | b',' | b':' | b';' | b'|' => Class::Delimiter,
        _ => Class::NonWord,
    }
}

/// nucleo's bonus of the character at `p` (`Config::bonus_for`): the text's start counts
/// as after white space.
fn own(text: &[u8], p: usize) -> u32 {
    let prev = if p == 0 {
        Class::Whitespace
    } else {
        class(text[p - 1])
    };
    let c = class(text[p]);
    if matches!(c, Class::Lower | Class::Upper | Class::Number) {
        match prev {
            Class::Whitespace => return 10,
            Class::Delimiter => return 9,
            Class::NonWord => return 8,
            _ => {}
        }
    }
    if prev == Class::Lower && c == Class::Upper || prev != Class::Number && c == Class::Number {
        5
    } else {
        match c {
            Class::Whitespace => 10,
            Class::NonWord => 8,
            _ => 0,
        }
    }
}

/// Does the text hold a match of `w` losing at most `budget` (module comment)?
fn word_may_reach(text: &[u8], w: &Word, budget: u32) -> bool {
    let is = |q: usize, k: usize| {
        let b = text[q];
        let b = if w.ignore_case {
            b.to_ascii_lowercase()
        } else {
            b
        };
        b == w.needle[k]
    };
    let n = w.needle.len();
    // The places a match of the word's first `k + 1` characters can end, each with the
    // most budget left, in text order.
    let mut ends: Vec<(usize, u32)> = Vec::new();
    let mut next: Vec<(usize, u32)> = Vec::new();
    for p in 0..text.len() {
        if !is(p, 0) {
            continue;
        }
        let lost = 2 * (10 - own(text, p));
        if lost > budget {
            continue;
        }
        if n == 1 {
            return true;
        }
        ends.clear();
        ends.push((p, budget - lost));
        for k in 1..n {
            next.clear();
            for &(at, left) in &ends {
                // right after: nothing lost
                let q = at + 1;
                if q < text.len() && is(q, k) {
                    put(&mut next, q, left);
                }
                // after a gap of g characters
                let mut g = 1;
                while 2 + g <= left as usize {
                    let q = at + 1 + g;
                    if q >= text.len() {
                        break;
                    }
                    if is(q, k) {
                        let cost = 2 + g as u32 + (10 - own(text, q));
                        if cost <= left {
                            put(&mut next, q, left - cost);
                        }
                    }
                    g += 1;
                }
            }
            if next.is_empty() {
                break;
            }
            std::mem::swap(&mut ends, &mut next);
            if k == n - 1 {
                return true;
            }
        }
    }
    false
}

/// Note that a match can end at `q` with `left` budget (keeping the most per place).
fn put(v: &mut Vec<(usize, u32)>, q: usize, left: u32) {
    match v.iter_mut().find(|e| e.0 == q) {
        Some(e) => e.1 = e.1.max(left),
        None => v.push((q, left)),
    }
}
