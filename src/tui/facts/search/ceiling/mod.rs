//! A ceiling on nucleo's score of a text: a number never below what nucleo gives it, and
//! in nearly every text equal to it, computed without nucleo's matrix (issue 21: `aeiou`
//! scored a million texts on every keystroke, most of them within 20 points of the
//! 500th best, so no check cheaper than the score itself could rule them out).
//!
//! nucleo-matcher (0.3, `fuzzy_optimal.rs`, `score.rs`, `Config::DEFAULT`) scores a fuzzy
//! word with a matrix: a row per character of the word, a column per character of the
//! text. The cell of row `k` at column `j` (the word's `k`-th character matched at `j`)
//! holds a score and the bonus its run carries (`next_m_cell`): from the cell of row
//! `k − 1` at `j − 1` (the run goes on: `16 + max(carried, bonus(j))`, the carried bonus
//! at least 4 and raised to `bonus(j)` when that is 8 or more) or from the best cell of
//! row `k − 1` before `j − 1` less its gap (a new run: `16 + bonus(j)`, the gap costing 3
//! for its first character and 1 for each further one, a running score never below 0);
//! the first row scores `16 + 2 bonus(j)`; the word's score is the best cell of its last
//! row. nucleo keeps, of the two ways into a cell, the higher score *and that way's
//! carried bonus*; the ceiling keeps the higher score and the *higher* carried bonus.
//! Every step is monotone in the score and the carried bonus of the cells it comes from,
//! so every cell here is at least nucleo's cell (and at least any path's score that ends
//! there: nucleo's one-character, whole-text, contiguous and greedy ways of scoring
//! score one path each). Nucleo only leaves cells out (those before the first place each
//! character can be, and after the last place the word's last character is): leaving out
//! lowers a maximum.
//!
//! Only the places where a character of the word occurs hold a cell, so the ceiling
//! walks those places (bit sets of the text's positions, one per character) rather than
//! every cell of the matrix; what nucleo does per cell, it does per occurrence.
//!
//! A text that is not ASCII is walked as nucleo sees it (one position per grapheme, see
//! [`super::scan::utf32`]), each character above ASCII as nucleo compares it with a word
//! of ASCII characters: with its class (`char_class_non_ascii`) and, normalised (`é` →
//! `e`), as the ASCII character it becomes, or as a character that matches none. One
//! for which that cannot be told is a joker: it matches any character of the word, its
//! own bonus is the highest (10), and so is the bonus of a character after it, as far as
//! that character's class allows; a joker can only raise the ceiling. The ceiling is
//! the sum of its words' ceilings; a text in which some word has no match (jokers
//! included) has none: nucleo does not match it either.
//!
//! `ceiling_is_never_below_nucleo` in the tests checks this against nucleo on many texts
//! and queries, and fails when the ceiling is lowered by one point.

mod classes;
mod positions;

use nucleo_matcher::Utf32Str;
use nucleo_matcher::pattern::{AtomKind, Pattern};

use classes::{BONUS, BONUS_BOUNDARY, BONUS_MAX, CLASS, Class, as_nucleo_sees};
use positions::{bits_from, positions_of};

const SCORE_MATCH: u32 = 16;
const PENALTY_GAP_START: u32 = 3;
const BONUS_CONSECUTIVE: u8 = 4;
/// The bonus of a letter or digit after one (`BONUS_CAMEL123`: an upper-case letter
/// after a lower-case one, a digit after a letter), or 0.
const BONUS_CAMEL: u8 = 5;
/// The most a character after the first adds to a word's score: a match and the
/// highest bonus.
const PER_CHAR: u32 = SCORE_MATCH + BONUS_MAX as u32;
/// The first character's bonus counts twice.
const FIRST_CHAR_EXTRA: u32 = BONUS_MAX as u32;
/// Words longer than this get no ceiling (the scan scores them with nucleo).
const MAX_WORD: usize = 64;

/// One fuzzy word of the query.
struct Word {
    /// Its distinct characters, as nucleo compares them (lower case when matched
    /// without case).
    distinct: Vec<u8>,
    /// Which of them each of its characters is.
    which: Vec<usize>,
    ignore_case: bool,
    /// The most the words after it can score (`26 n + 10` each).
    rest: u32,
}

/// The ceiling for one query.
pub(super) struct Ceiling {
    words: Vec<Word>,
    /// The most a row adds to a cell's score, as the walk that leaves out cells counts
    /// it ([`PER_CHAR`]; the tests lower it to see the walk fail).
    per_row: u32,
    /// The last word ends in an ASCII letter or digit ([`Ceiling::typed_on_less`]).
    ends_in_word: bool,
    /// Added to [`Ceiling::typed_on_less`] (the tests raise it to see the check fail).
    less_more: u32,
}

/// Buffers reused from text to text.
#[derive(Default)]
pub(super) struct Scratch {
    bytes: Vec<u8>,
    chars: Vec<char>,
    /// One bit set of positions per distinct character of a word, each made when its
    /// row is first reached (`made`).
    masks: Vec<u64>,
    made: Vec<bool>,
    /// The cells of two rows: position, score, carried bonus; in position order. After
    /// a walk, `rows[0]` is its last word's last row (the cells that can reach `need`).
    rows: [Vec<Cell>; 2],
    /// What the last walk leaves to extend ([`Ceiling::keep`]): None when it did not walk
    /// its last word (an earlier word stopped it, or some word has no match).
    last: Option<LastWalk>,
    /// The most the cells the last word's walk left out lead to in its last row.
    dropped: Option<u32>,
    /// And in the row of a letter or digit typed on ([`Ceiling::typed_on_less`]).
    dropped_next: Option<u32>,
}

/// The last walk's last word, but for its last row (in [`Scratch::rows`]).
#[derive(Clone, Copy)]
struct LastWalk {
    /// The ceilings of the words before it.
    prefix: u32,
    /// The most a cell left out could have led to in its last row.
    dropped: Option<u32>,
    /// And in the row of a letter or digit typed on ([`Ceiling::typed_on_less`]).
    dropped_next: Option<u32>,
    /// Its rows: the characters of the word walked.
    n: usize,
}

/// A cell of a row of the matrix.
#[derive(Clone, Copy)]
struct Cell {
    at: u32,
    score: u32,
    carried: u8,
}

impl Ceiling {
    /// None when it does not apply: a word of another kind than fuzzy, negated, empty,
    /// longer than 64 characters or not ASCII.
    pub(super) fn new(pattern: &Pattern) -> Option<Ceiling> {
        let mut words = Vec::new();
        for atom in &pattern.atoms {
            if atom.negative || atom.kind != AtomKind::Fuzzy {
                return None;
            }
            let Utf32Str::Ascii(needle) = atom.needle_text() else {
                return None;
            };
            if needle.is_empty() || needle.len() > MAX_WORD {
                return None;
            }
            // Smart case: without case unless the word has a capital (nucleo keeps such
            // a word as typed, and lower-cases the text's capitals only without case).
            let ignore_case = !needle.iter().any(u8::is_ascii_uppercase);
            let mut distinct = Vec::new();
            let which = needle
                .iter()
                .map(|c| match distinct.iter().position(|x| x == c) {
                    Some(d) => d,
                    None => {
                        distinct.push(*c);
                        distinct.len() - 1
                    }
                })
                .collect();
            words.push(Word {
                distinct,
                which,
                ignore_case,
                rest: 0,
            });
        }
        let mut rest = 0;
        for w in words.iter_mut().rev() {
            w.rest = rest;
            rest += PER_CHAR * w.which.len() as u32 + FIRST_CHAR_EXTRA;
        }
        let ends_in_word = words.last().is_some_and(|w| {
            w.which
                .last()
                .is_some_and(|&d| w.distinct[d].is_ascii_alphanumeric())
        });
        (!words.is_empty()).then_some(Ceiling {
            words,
            per_row: PER_CHAR,
            ends_in_word,
            less_more: 0,
        })
    }

    /// The same, its walk counting `by` points less a row than a row can add: a walk
    /// that is wrong (for the tests).
    #[cfg(test)]
    pub(super) fn counting_less(self, by: u32) -> Ceiling {
        Ceiling {
            per_row: self.per_row - by,
            ..self
        }
    }

    /// The same, its [`Ceiling::typed_on_less`] `by` points more: a bound that is wrong
    /// (for the tests).
    #[cfg(test)]
    pub(super) fn less_by_more(self, by: u32) -> Ceiling {
        Ceiling {
            less_more: by,
            ..self
        }
    }

    /// How much less than the last walk's ceiling plus [`PER_CHAR`] a query scores at
    /// most on an ASCII text when it is this one with a letter or digit typed on its
    /// last word, which ends in one ([`super::bound::Growth::letter`]): 0 to 3.
    ///
    /// From a cell of the last row that scores `s` and carries `c`, that letter's row
    /// gets at most `s + 16 + max(c, 5)` by a run (nucleo adds `max(carried, 4, bonus)`,
    /// and the bonus of a letter or digit after one is 0 or 5: camel case, or a digit
    /// after a letter) and at most `s − 3 + 10 + 16` by a new run after a gap; so a
    /// cell that carries less than 8 (a run that did not start at a word's start) leads
    /// to at most `s + 23`, not `s + 26`. The ceiling's cells are nucleo's or above,
    /// with the higher carried bonus, so this holds for nucleo's. A way through a cell
    /// the walk left out scores at most what the walk says those lead to
    /// (`LastWalk::dropped_next`: a cell of the last row as above, one of a row before
    /// at what it leads to in the last row plus 26). 0 when the walk did not walk the
    /// last word.
    pub(super) fn typed_on_less(&self, s: &Scratch) -> u8 {
        let Some(l) = s.last else { return 0 };
        if !self.ends_in_word {
            return 0;
        }
        let row = &s.rows[0];
        let top = row.iter().map(|c| c.score).max();
        let next = row.iter().map(|c| c.score + typed_on_step(c.carried)).max();
        // The word's ceiling (the best cell or what the cells left out lead to), and the
        // most its next row gets.
        let (Some(most), Some(next)) = (top.max(l.dropped), next.max(l.dropped_next)) else {
            return 0;
        };
        let less = (most + PER_CHAR).saturating_sub(next) + self.less_more;
        u8::try_from(less).unwrap_or(u8::MAX)
    }

    /// A score nucleo's for `text` is never above; None when nucleo does not match it.
    #[cfg(test)]
    pub(super) fn of(&self, text: &str, s: &mut Scratch) -> Option<u32> {
        self.of_at_least(text, s, 0)
    }

    /// A score nucleo's for `text` is never above, or None when nucleo does not match:
    /// the ceiling (the module's) when `need` is 0, and otherwise walked only through
    /// the cells that can reach `need` (a cell's score plus [`PER_CHAR`] for each row
    /// left); when none does, the most a cell left out could have led to (below `need`).
    /// Each character's bit set of positions is made only when its row is reached.
    pub(super) fn of_at_least(&self, text: &str, s: &mut Scratch, need: u32) -> Option<u32> {
        if text.is_ascii() {
            return self.of_ascii_at_least(text.as_bytes(), s, need);
        }
        let mut bytes = std::mem::take(&mut s.bytes);
        as_nucleo_sees(text, &mut s.chars, &mut bytes);
        let out = self.walk(&bytes, false, s, need);
        s.bytes = bytes;
        out
    }

    /// [`Ceiling::of_at_least`] of a text of ASCII characters, `text` (the caller knows
    /// it is ASCII: then its bytes are the text, with no UTF-8 check).
    pub(super) fn of_ascii_at_least(&self, text: &[u8], s: &mut Scratch, need: u32) -> Option<u32> {
        debug_assert!(text.is_ascii());
        self.walk(text, true, s, need)
    }

    /// The walk of [`Ceiling::of_at_least`] over `h`, the text as nucleo's positions.
    fn walk(&self, h: &[u8], ascii: bool, s: &mut Scratch, need: u32) -> Option<u32> {
        s.last = None;
        let mut sum = 0u32;
        let last = self.words.len() - 1;
        for (x, w) in self.words.iter().enumerate() {
            let need_here = need.saturating_sub(sum + w.rest);
            let (c, stopped) = word_ceiling(h, w, ascii, s, need_here, self.per_row, None)?;
            if x == last {
                s.last = Some(LastWalk {
                    prefix: sum,
                    dropped: s.dropped,
                    dropped_next: s.dropped_next,
                    n: w.which.len(),
                });
            }
            sum += c;
            if stopped {
                // Stopped early: the words after it at their most.
                sum += w.rest;
                break;
            }
        }
        Some(sum)
    }

    /// [`Ceiling::of_at_least`] of an ASCII text from the last row that a walk for a
    /// query this one is typed on from left ([`Ceiling::keep`]): only the rows of the
    /// characters typed since are walked. With true when the ceiling is the most that
    /// cells left out (then or now) could lead to, not a cell's. None when `kept` is not
    /// of such a query (another number of words, a longer last word, or another case
    /// rule).
    ///
    /// A kept row is a row of this query's matrix too: its last word starts with the
    /// shorter one's (with the same case rule), the words before it are the same, and a
    /// row only depends on the rows above it and the text. Its cells left out could lead,
    /// in this query's last row, to at most what they could lead to then plus
    /// [`PER_CHAR`] a row since.
    pub(super) fn extend(
        &self,
        text: &[u8],
        kept: &[u32],
        s: &mut Scratch,
        need: u32,
    ) -> Option<Option<(u32, bool)>> {
        debug_assert!(text.is_ascii());
        let w = self.words.last()?;
        let k = Kept::of(kept);
        if k.words != self.words.len()
            || k.ignore_case != w.ignore_case
            || k.n == 0
            || k.n > w.which.len()
        {
            return None;
        }
        s.last = None;
        let mut row = std::mem::take(&mut s.rows[0]);
        row.clear();
        row.extend(k.cells.iter().map(|&x| Kept::cell(x)));
        s.rows[0] = row;
        let need_here = need.saturating_sub(k.prefix);
        let Some((c, stopped)) = word_ceiling(
            text,
            w,
            true,
            s,
            need_here,
            self.per_row,
            Some((k.n, k.dropped)),
        ) else {
            return Some(None);
        };
        s.last = Some(LastWalk {
            prefix: k.prefix,
            dropped: s.dropped,
            dropped_next: s.dropped_next,
            n: w.which.len(),
        });
        Some(Some((k.prefix + c, stopped)))
    }

    /// Append to `out` what the last walk ([`Ceiling::of_at_least`], [`Ceiling::extend`])
    /// leaves for a query typed on from this one to extend: the words before its last
    /// one's ceiling, and its last row, the cells below `floor` left out (counted as the
    /// most they lead to). False, nothing appended, when there is none: the walk stopped
    /// before its last word, or did not match, or a cell is past what a kept row holds
    /// (position 65,535), or there are more than `cells` cells.
    pub(super) fn keep(&self, s: &Scratch, floor: u32, cells: usize, out: &mut Vec<u32>) -> bool {
        let Some(l) = s.last else { return false };
        let words = self.words.len();
        if words > 0x7F || l.n > 0xFF {
            return false;
        }
        let ignore_case = self.words.last().is_some_and(|w| w.ignore_case);
        let start = out.len();
        out.extend([l.prefix, 0, 0]);
        let mut dropped = l.dropped;
        let mut count = 0u32;
        for c in &s.rows[0] {
            if c.score < floor {
                dropped = Some(dropped.map_or(c.score, |d| d.max(c.score)));
                continue;
            }
            if c.at > 0xFFFF
                || c.score > 0xFFF
                || c.carried > 0xF
                || count as usize >= cells.min(0xFFFF)
            {
                out.truncate(start);
                return false;
            }
            out.push(c.at | (c.score << 16) | (u32::from(c.carried) << 28));
            count += 1;
        }
        out[start + 1] = dropped.unwrap_or(u32::MAX);
        out[start + 2] =
            (u32::from(ignore_case) << 31) | ((words as u32) << 24) | ((l.n as u32) << 16) | count;
        true
    }
}

/// The most a letter or digit typed on a word that ends in one adds to a cell of the
/// word's last row that carries `carried` (see [`Ceiling::typed_on_less`]).
fn typed_on_step(carried: u8) -> u32 {
    let run = SCORE_MATCH + u32::from(carried.max(BONUS_CAMEL));
    let gap = SCORE_MATCH - PENALTY_GAP_START + u32::from(BONUS_MAX);
    run.max(gap)
}

/// A row kept by [`Ceiling::keep`], as `u32`s: the words before the last one's ceiling;
/// the most a cell left out leads to in this row (`u32::MAX`: none); whether the last
/// word is matched without case (1 bit), the number of words (7 bits), of rows (8) and of
/// cells (16); then each cell: position (16 bits), score (12) and carried bonus (4).
pub(super) struct Kept<'a> {
    prefix: u32,
    dropped: Option<u32>,
    ignore_case: bool,
    words: usize,
    n: usize,
    cells: &'a [u32],
}

impl Kept<'_> {
    /// How many `u32`s the kept row at the start of `kept` takes.
    pub(super) fn len(kept: &[u32]) -> usize {
        3 + (kept[2] & 0xFFFF) as usize
    }

    fn of(kept: &[u32]) -> Kept<'_> {
        let meta = kept[2];
        Kept {
            prefix: kept[0],
            dropped: (kept[1] != u32::MAX).then_some(kept[1]),
            ignore_case: meta >> 31 == 1,
            words: ((meta >> 24) & 0x7F) as usize,
            n: ((meta >> 16) & 0xFF) as usize,
            cells: &kept[3..Kept::len(kept)],
        }
    }

    fn cell(x: u32) -> Cell {
        Cell {
            at: x & 0xFFFF,
            score: (x >> 16) & 0xFFF,
            carried: (x >> 28) as u8,
        }
    }
}

/// The ceiling of one word: see the module's comment. Cells that cannot reach `need`
/// (their score plus `per_row` for each row left) are left out, and with them all they
/// lead to: every cell kept is at least nucleo's cell on any way that reaches `need`
/// (each cell of such a way can reach it), so a word nucleo scores `need` or more gets
/// at least that score. With true when the last row is empty but cells were left out:
/// the most those could have led to, below `need`, and nucleo's score no higher.
///
/// `from`: the walk starts not at row 0 but after the first `rows` rows, the last of
/// them in `s.rows[0]`, with the most its cells left out lead to in it
/// ([`Ceiling::extend`]); then the result is that most (with true) when it is above every
/// cell of the last row. The most the last row's cells left out lead to is left in
/// `s.dropped`, the last row in `s.rows[0]`.
fn word_ceiling(
    h: &[u8],
    w: &Word,
    ascii: bool,
    s: &mut Scratch,
    need: u32,
    per_row: u32,
    from: Option<(usize, Option<u32>)>,
) -> Option<(u32, bool)> {
    let n = w.which.len();
    let len = h.len();
    s.dropped = None;
    s.dropped_next = None;
    if n > len {
        return None;
    }
    let blocks = len.div_ceil(64);
    s.masks.clear();
    s.masks.resize(blocks * w.distinct.len(), 0);
    s.made.clear();
    s.made.resize(w.distinct.len(), false);
    // nucleo scores a word of one character in a text that is not ASCII with the bonus
    // after the last place it matched, not after the character before
    // (`substring_match_1_non_ascii`): any class, as after a joker.
    let any_before = n == 1 && !ascii;
    let bonus_at = |j: usize| {
        let prev = match j {
            _ if any_before => Class::Joker as usize,
            0 => Class::Whitespace as usize,
            _ => CLASS[usize::from(h[j - 1])] as usize,
        };
        BONUS[prev * 8 + CLASS[usize::from(h[j])] as usize]
    };
    // The bit set of the `k`-th character's positions, made the first time it is asked,
    // from block `lo` on (no row reads a block before it).
    let mask = |s: &mut Scratch, k: usize, lo: usize| {
        let d = w.which[k];
        let m = &mut s.masks[d * blocks..(d + 1) * blocks];
        if !s.made[d] {
            positions_of(h, w.distinct[d], w.ignore_case, lo, m);
            s.made[d] = true;
        }
    };
    // What a cell scoring `score` in row `k` can lead to: each row after it adds at most
    // [`PER_CHAR`]. A cell that cannot reach `need` this way is left out, and so is all
    // it would lead to; `dropped` keeps the most any cell left out could have led to.
    let ahead = |k: usize| per_row * (n - 1 - k) as u32;
    let mut dropped: Option<u32> = None;
    // And the most they lead to in the row of a letter or digit typed on
    // ([`Ceiling::typed_on_less`]): a cell of the last row by its carried bonus, any other
    // by what it leads to in the last row plus [`PER_CHAR`].
    let mut dropped_next: Option<u32> = None;
    let mut leave_out = |most: u32, next: u32| {
        dropped = Some(dropped.map_or(most, |d| d.max(most)));
        dropped_next = Some(dropped_next.map_or(next, |d| d.max(next)));
    };
    let last_row = n - 1;
    let [mut row, mut next] = std::mem::take(&mut s.rows);
    let rows_done = match from {
        Some((rows, kept_out)) => {
            // What was left out before these rows leads, by the last row, to at most
            // what it led to then plus `per_row` a row.
            if let Some(d) = kept_out {
                let most = d + per_row * (n - rows) as u32;
                leave_out(most, most + PER_CHAR);
            }
            rows
        }
        None => {
            // Row 0: the first character, its bonus counted twice.
            row.clear();
            mask(s, 0, 0);
            let d = w.which[0];
            for j in bits_from(&s.masks[d * blocks..(d + 1) * blocks], 0) {
                let b = bonus_at(j);
                let score = SCORE_MATCH + 2 * u32::from(b);
                if score + ahead(0) < need {
                    let most = score + ahead(0);
                    let next = match last_row {
                        0 => score + typed_on_step(b),
                        _ => most + PER_CHAR,
                    };
                    leave_out(most, next);
                    continue;
                }
                row.push(Cell {
                    at: j as u32,
                    score,
                    carried: b,
                });
            }
            1
        }
    };
    for k in rows_done..n {
        next.clear();
        let Some(first) = row.first() else { break };
        // The previous row's best `score + position` among its cells up to `j - 2` (a
        // gap before `j`), and how many of its cells that takes in.
        let mut best: Option<u32> = None;
        let mut taken = 0;
        // Rows only move right: no row from here on reads a block before this one's.
        mask(s, k, (first.at as usize + 1) / 64);
        let d = w.which[k];
        for j in bits_from(
            &s.masks[d * blocks..(d + 1) * blocks],
            first.at as usize + 1,
        ) {
            while let Some(c) = row.get(taken).filter(|c| c.at as usize + 2 <= j) {
                let v = c.score + c.at;
                best = Some(best.map_or(v, |x| x.max(v)));
                taken += 1;
            }
            // From the best cell before the gap, less the gap: 3 for its first
            // character, 1 for each further one, never below 0 (`best` is only held
            // when `j >= 2`).
            let gap = best.map(|g| g.saturating_sub(j as u32 - 2 + PENALTY_GAP_START));
            let bonus = bonus_at(j);
            let cell = match row.get(taken).filter(|c| c.at as usize + 1 == j) {
                // Right after a cell of the previous row: the run goes on, or starts
                // again here.
                Some(c) => {
                    let mut carry = c.carried.max(BONUS_CONSECUTIVE);
                    if bonus >= BONUS_BOUNDARY && bonus > carry {
                        carry = bonus;
                    }
                    let on = c.score + u32::from(carry.max(bonus));
                    let new = gap.unwrap_or(0) + u32::from(bonus);
                    Some((on.max(new), carry.max(bonus)))
                }
                None => gap.map(|g| (g + u32::from(bonus), bonus)),
            };
            if let Some((score, carried)) = cell {
                let score = score + SCORE_MATCH;
                if score + ahead(k) < need {
                    let most = score + ahead(k);
                    let next = if k == last_row {
                        score + typed_on_step(carried)
                    } else {
                        most + PER_CHAR
                    };
                    leave_out(most, next);
                } else {
                    next.push(Cell {
                        at: j as u32,
                        score,
                        carried,
                    });
                }
            }
            // Once every cell of the row before is behind, a cell further on comes only
            // after a gap, from `best`, at most the highest bonus: the walk of this row
            // ends when the next place can no longer reach `need`, nor any after it.
            if need > 0
                && taken == row.len()
                && let Some(g) = best
            {
                let most = g.saturating_sub(j as u32 - 1 + PENALTY_GAP_START)
                    + u32::from(BONUS_MAX)
                    + SCORE_MATCH
                    + ahead(k);
                if most < need {
                    leave_out(most, most + PER_CHAR);
                    break;
                }
            }
        }
        std::mem::swap(&mut row, &mut next);
    }
    // The best cell of the last row (all at `need` or more), or the most a cell left
    // out could have led to; None when no cell was left out and none is in the last row.
    let top = row.iter().map(|c| c.score).max();
    s.rows = [row, next];
    s.dropped = dropped;
    s.dropped_next = dropped_next;
    match (top, dropped) {
        (Some(t), Some(d)) if d > t => Some((d, true)),
        (Some(t), _) => Some((t, false)),
        (None, Some(d)) => Some((d, true)),
        (None, None) => None,
    }
}
