//! nucleo's character classes and bonuses (`chars.rs`, `score.rs`, `Config::DEFAULT`),
//! and a text's characters as the ceiling walks them: one byte per position as nucleo
//! sees it (see the ceiling's comment).

use nucleo_matcher::Utf32Str;

pub(super) const BONUS_BOUNDARY: u8 = 8;
/// The highest bonus of any character (`bonus_boundary_white`).
pub(super) const BONUS_MAX: u8 = 10;
/// A character above ASCII that might match any character of a word, in the byte form
/// of a text.
pub(super) const JOKER: u8 = 0x80;
/// A character above ASCII that matches no character of a word: `NONE + class`.
pub(super) const NONE: u8 = 0x88;

/// nucleo's character classes (`chars.rs`, with `Config::DEFAULT`'s delimiters), in its
/// order, and the joker.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Class {
    Whitespace = 0,
    NonWord = 1,
    Delimiter = 2,
    Lower = 3,
    Upper = 4,
    Letter = 5,
    Number = 6,
    Joker = 7,
}

const CLASSES: [Class; 7] = [
    Class::Whitespace,
    Class::NonWord,
    Class::Delimiter,
    Class::Lower,
    Class::Upper,
    Class::Letter,
    Class::Number,
];

const fn class_of(b: u8) -> Class {
    match b {
        b'a'..=b'z' => Class::Lower,
        b'A'..=b'Z' => Class::Upper,
        b'0'..=b'9' => Class::Number,
        b' ' | b'\t' | b'\n' | 0x0c | b'\r' => Class::Whitespace,
        b'/' | b',' | b':' | b';' | b'|' => Class::Delimiter,
        0x88 => Class::Whitespace,
        0x89 => Class::NonWord,
        0x8a => Class::Delimiter,
        0x8b => Class::Lower,
        0x8c => Class::Upper,
        0x8d => Class::Letter,
        0x8e => Class::Number,
        0x80..=0xff => Class::Joker,
        _ => Class::NonWord,
    }
}

/// `Config::bonus_for` (nucleo's `score.rs`) for classes of nucleo's own.
const fn bonus_for(prev: Class, class: Class) -> u8 {
    let word = matches!(
        class,
        Class::Lower | Class::Upper | Class::Letter | Class::Number
    );
    if word {
        match prev {
            Class::Whitespace => return 10,
            Class::Delimiter => return 9,
            Class::NonWord => return BONUS_BOUNDARY,
            _ => {}
        }
    }
    let camel = matches!((prev, class), (Class::Lower, Class::Upper));
    let number = !matches!(prev, Class::Number) && matches!(class, Class::Number);
    if camel || number {
        5
    } else {
        match class {
            Class::Whitespace => 10,
            Class::NonWord => BONUS_BOUNDARY,
            _ => 0,
        }
    }
}

/// The bonus of a character of class `class` after one of class `prev`, the joker being
/// any class (its highest bonus).
const fn bonus(prev: Class, class: Class) -> u8 {
    match (prev, class) {
        (_, Class::Joker) => BONUS_MAX,
        (Class::Joker, c) => {
            let mut best = 0;
            let mut k = 0;
            while k < CLASSES.len() {
                let b = bonus_for(CLASSES[k], c);
                if b > best {
                    best = b;
                }
                k += 1;
            }
            best
        }
        (p, c) => bonus_for(p, c),
    }
}

/// Each byte's class.
pub(super) const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = class_of(b as u8) as u8;
        b += 1;
    }
    t
};

/// The bonus of a character after another, by their classes (`[prev * 8 + class]`).
pub(super) const BONUS: [u8; 64] = {
    const ALL: [Class; 8] = [
        Class::Whitespace,
        Class::NonWord,
        Class::Delimiter,
        Class::Lower,
        Class::Upper,
        Class::Letter,
        Class::Number,
        Class::Joker,
    ];
    let mut t = [0u8; 64];
    let mut p = 0;
    while p < 8 {
        let mut c = 0;
        while c < 8 {
            t[p * 8 + c] = bonus(ALL[p], ALL[c]);
            c += 1;
        }
        p += 1;
    }
    t
};

/// The text as nucleo's positions, one byte each (see [`nucleo_byte`]).
pub(super) fn as_nucleo_sees(text: &str, chars: &mut Vec<char>, out: &mut Vec<u8>) {
    out.clear();
    // The texts `utf32` converts without segmenting (every character one grapheme, but
    // `\r\n`), each character looked up in a table made once.
    if !text.is_ascii() {
        let mut cr = false;
        let all = text.chars().all(|c| {
            let b = if c.is_ascii() {
                c as u8
            } else {
                match one_each_byte(c) {
                    Some(b) => b,
                    None => return false,
                }
            };
            if !(cr && c == '\n') {
                out.push(b);
            }
            cr = c == '\r';
            true
        });
        if all {
            return;
        }
        out.clear();
    }
    match super::super::scan::utf32(text, chars) {
        Utf32Str::Ascii(b) => out.extend_from_slice(b),
        Utf32Str::Unicode(c) => out.extend(c.iter().map(|&c| nucleo_byte(c))),
    }
}

/// The characters above ASCII that `utf32` keeps one a grapheme without segmenting
/// (U+00A0–U+02FF, U+2010–U+205E), as [`nucleo_byte`] has them.
const ONE_EACH: [std::ops::RangeInclusive<u32>; 2] = [0xA0..=0x2FF, 0x2010..=0x205E];

/// [`nucleo_byte`] of a character of [`ONE_EACH`] (from a table made once), None for
/// any other.
fn one_each_byte(c: char) -> Option<u8> {
    static TABLE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        ONE_EACH
            .iter()
            .flat_map(|r| r.clone())
            .map(|u| nucleo_byte(char::from_u32(u).expect("a character")))
            .collect()
    });
    let u = u32::from(c);
    let mut at = 0;
    for r in &ONE_EACH {
        if r.contains(&u) {
            return Some(table[at + (u - r.start()) as usize]);
        }
        at += (r.end() - r.start() + 1) as usize;
    }
    None
}

/// A character of the text as one byte: an ASCII character as it is; another as the ASCII
/// character nucleo turns it into (`é` → `e`, `É` → `E`: nucleo's normalisation, then its
/// case folding when the word has no capital) when that character has its class; as
/// [`NONE`] plus its class when it can become no ASCII character (it matches no
/// character of a word, which are all ASCII here); a [`JOKER`] otherwise.
fn nucleo_byte(c: char) -> u8 {
    use nucleo_matcher::chars::{is_upper_case, normalize, to_lower_case};
    if c.is_ascii() {
        return c as u8;
    }
    // nucleo's `char_class_non_ascii`.
    let class = if c.is_lowercase() {
        Class::Lower
    } else if is_upper_case(c) {
        Class::Upper
    } else if c.is_numeric() {
        Class::Number
    } else if c.is_alphabetic() {
        Class::Letter
    } else if c.is_whitespace() {
        Class::Whitespace
    } else {
        Class::NonWord
    };
    let norm = normalize(c);
    let folded = to_lower_case(norm);
    if norm.is_ascii() {
        let b = norm as u8;
        if class_of(b) == class && folded == norm.to_ascii_lowercase() {
            return b;
        }
        return JOKER;
    }
    if folded.is_ascii() {
        return JOKER;
    }
    NONE + class as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text as nucleo's positions the long way: `utf32`, then each character.
    fn the_long_way(text: &str) -> Vec<u8> {
        let mut chars = Vec::new();
        match super::super::super::scan::utf32(text, &mut chars) {
            Utf32Str::Ascii(b) => b.to_vec(),
            Utf32Str::Unicode(c) => c.iter().map(|&c| nucleo_byte(c)).collect(),
        }
    }

    #[test]
    fn the_table_sees_texts_as_nucleo_does() {
        // Every character of both ranges and their neighbours outside them, after an
        // ASCII letter and a `\r` (a `\r\n` is one position), and texts segmented.
        let mut texts: Vec<String> = (0x7Fu32..=0x310)
            .chain(0x2000..=0x2070)
            .filter_map(char::from_u32)
            .flat_map(|c| [format!("a{c}b"), format!("\r\n{c}\r\n"), format!("{c}\r")])
            .collect();
        texts.extend(
            [
                "é\r\nx",
                "e\u{301}é",
                "déjà vu “café”",
                "\u{2019}\r\n\r\n",
                "中é",
                "\u{2010}\u{205e}\u{205f}",
            ]
            .map(String::from),
        );
        let (mut chars, mut out) = (Vec::new(), Vec::new());
        for t in &texts {
            as_nucleo_sees(t, &mut chars, &mut out);
            assert_eq!(out, the_long_way(t), "{t:?}");
        }
    }
}
