//! Reading numbers in raw answers: scale words, ranges, percents, the question's unit
//! (docs/format.md, "CHARTOM").

use super::*;

// ---------------------------------------------------------------------------------------
// Parsing of raw answers

/// The first number in a text: `about 1,200` → 1200, `1.2`, `-3`, `45%` → 45,
/// `1.5 million` → 1500000, `3k` → 3000. Thousands separators are commas followed by
/// exactly three digits (`1,2` is 1). Scale words: thousand, million, billion, trillion
/// (after a space or attached), and attached `k`, `m`/`mn`, `b`/`bn`. The full value, with
/// no question unit and no range: grading reads answers with [`read_number`] and [`Unit`].
pub fn first_number(text: &str) -> Option<f64> {
    let (x, scale, _, _) = number_at(text, number_start(text)?)?;
    Some(x * 10f64.powi(scale)).filter(|x| x.is_finite())
}

/// A number answer as read: one value or a range (low ≤ high).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NumberValue {
    One(f64),
    Range(f64, f64),
}

impl NumberValue {
    fn map(self, f: impl Fn(f64) -> f64) -> NumberValue {
        match self {
            NumberValue::One(x) => NumberValue::One(f(x)),
            NumberValue::Range(a, b) => {
                let (a, b) = (f(a), f(b));
                NumberValue::Range(a.min(b), a.max(b))
            }
        }
    }

    /// The value, or a range's midpoint.
    pub fn center(self) -> f64 {
        match self {
            NumberValue::One(x) => x,
            NumberValue::Range(a, b) => (a + b) / 2.0,
        }
    }

    fn finite(self) -> bool {
        match self {
            NumberValue::One(x) => x.is_finite(),
            NumberValue::Range(a, b) => a.is_finite() && b.is_finite(),
        }
    }
}

impl From<NumberValue> for ParsedFact {
    fn from(v: NumberValue) -> ParsedFact {
        match v {
            NumberValue::One(x) => ParsedFact::Number(x),
            NumberValue::Range(a, b) => ParsedFact::Range(a, b),
        }
    }
}

/// A number as written in an answer, before any unit is applied.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Written {
    /// The digits' value (a fraction `1/2` is 0.5), or a range of them.
    pub value: NumberValue,
    /// The power of ten named after it: `million`, `M` → 6; 0 for none.
    pub scale: i32,
    /// Followed by `%`, `percent` or `per cent`.
    pub percent: bool,
}

pub use crate::bench::chartom::fields::Unit;

impl crate::bench::chartom::fields::Fact {
    /// The unit of the question ([`Unit::of_question`]), read once per item read and
    /// shared by its clones: a question of megabytes was read word by word again by each
    /// grade, the HMI, the suspect key and the histogram, on every lay-out (issue 21).
    pub fn unit(&self) -> Unit {
        *self
            .unit
            .get_or_init(|| Unit::of_question(self.question.as_deref()))
    }
}

impl Unit {
    pub const NONE: Unit = Unit {
        scale: 0,
        percent: false,
    };

    /// The unit of a question text.
    pub fn of_question(question: Option<&str>) -> Unit {
        let Some(q) = question else {
            return Unit::NONE;
        };
        // no allocation: this runs for every number answer `stats` grades. An ASCII
        // question (nearly all) is split on bytes, not decoded character by character: a
        // 20 MB question was ~60 ms a show (issue 21); for ASCII, `is_ascii_alphanumeric`
        // is `char::is_alphanumeric`.
        let percent = q.contains('%');
        if q.is_ascii() {
            let words = q.as_bytes().split(|b| !b.is_ascii_alphanumeric());
            Unit::of_words(words, percent)
        } else {
            let words = q.split(|c: char| !c.is_alphanumeric()).map(str::as_bytes);
            Unit::of_words(words, percent)
        }
    }

    /// The unit the words of a question say (empty words skipped): one scale word, or
    /// several different ones (no scale); a percent word, or `percent` already.
    fn of_words<'a>(words: impl Iterator<Item = &'a [u8]>, mut percent: bool) -> Unit {
        let (mut scale, mut several) = (0, false);
        let mut previous: &[u8] = b"";
        for w in words.filter(|w| !w.is_empty()) {
            // (only words as long as one of the words below can be one: the byte length,
            // as `eq_ignore_ascii_case` compares)
            if matches!(w.len(), 4 | 7..=11) {
                let e = scale_word_bytes(w);
                if e > 0 {
                    if scale != 0 && scale != e {
                        several = true;
                    }
                    scale = e;
                }
                let is = |word: &str| w.eq_ignore_ascii_case(word.as_bytes());
                if is("percent")
                    || is("percentage")
                    || is("percentages")
                    || (is("cent") && previous.eq_ignore_ascii_case(b"per"))
                {
                    percent = true;
                }
            }
            previous = w;
        }
        Unit {
            scale: if several { 0 } else { scale },
            percent,
        }
    }

    /// [`Unit::of_question`] as it was written before its byte path: every character
    /// decoded (the tests compare the two).
    #[cfg(test)]
    pub(crate) fn of_question_by_chars(question: Option<&str>) -> Unit {
        let Some(q) = question else {
            return Unit::NONE;
        };
        let (mut scale, mut several) = (0, false);
        let mut percent = q.contains('%');
        let mut previous = "";
        for w in q
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            let e = scale_word(w);
            if e > 0 {
                if scale != 0 && scale != e {
                    several = true;
                }
                scale = e;
            }
            let is = |word: &str| w.eq_ignore_ascii_case(word);
            if is("percent")
                || is("percentage")
                || is("percentages")
                || (is("cent") && previous.eq_ignore_ascii_case("per"))
            {
                percent = true;
            }
            previous = w;
        }
        Unit {
            scale: if several { 0 } else { scale },
            percent,
        }
    }

    /// The values an answer may stand for, in the key's unit, the primary one first:
    ///
    /// - with a scale word of its own (`1.2 million`, `1.2M`, `1,200 thousand`): the number
    ///   converted to the question's unit (`1.2` when the question counts in millions),
    ///   then the full value (1 200 000, for a key written out in full);
    /// - without one: the number as written, then (when the question counts in a scale)
    ///   the number as a full count converted to the question's unit (`1,200,000` → 1.2);
    /// - a percentage `x%`: x; and, unless the question itself asks for a percentage,
    ///   also x/100 (a key written as a share, 0.45 for 45 %), first when the key is a
    ///   share (|key| ≤ 1).
    pub fn readings(self, w: &Written, key: Option<f64>) -> Vec<NumberValue> {
        let e = self.scale;
        let mut out: Vec<NumberValue> = Vec::with_capacity(4);
        let mut push = |v: NumberValue| {
            if v.finite() && !out.contains(&v) {
                out.push(v);
            }
        };
        let pow = |k: i32| 10f64.powi(k);
        let scaled: Vec<NumberValue> = if w.scale > 0 {
            if e > 0 {
                vec![
                    w.value.map(|x| x * pow(w.scale - e)),
                    w.value.map(|x| x * pow(w.scale)),
                ]
            } else {
                vec![w.value.map(|x| x * pow(w.scale))]
            }
        } else if e > 0 {
            vec![w.value, w.value.map(|x| x / pow(e))]
        } else {
            vec![w.value]
        };
        let share_key = key.is_some_and(|k| k.abs() <= 1.0);
        for v in scaled {
            let share = v.map(|x| x / 100.0);
            match (w.percent && !self.percent, share_key) {
                (true, true) => {
                    push(share);
                    push(v);
                }
                (true, false) => {
                    push(v);
                    push(share);
                }
                (false, _) => push(v),
            }
        }
        out
    }
}

/// Of an answer's readings, the one that counts: the one within the key's tolerance when
/// there is one (readings differ by a factor of 100 or more, so at most one is), else the
/// primary (first) reading. A conversion is thus never used to move a wrong answer
/// somewhere else: `300` stays 300 in a question in thousands.
pub fn choose(readings: &[NumberValue], key: Option<f64>) -> Option<NumberValue> {
    let first = *readings.first()?;
    let within = |v: &NumberValue, k: f64| match *v {
        NumberValue::One(x) => number_correct(x, k),
        NumberValue::Range(a, b) => number_correct(a, k) && number_correct(b, k),
    };
    Some(
        key.and_then(|k| readings.iter().copied().find(|v| within(v, k)))
            .unwrap_or(first),
    )
}

/// The power of ten a scale word names: thousand 3, million 6, billion 9, trillion 12
/// (singular or plural, any case); 0 for any other word.
pub(crate) fn scale_word(w: &str) -> i32 {
    scale_word_bytes(w.as_bytes())
}

/// [`scale_word`] of a word's bytes.
fn scale_word_bytes(w: &[u8]) -> i32 {
    const WORDS: [(&str, i32); 8] = [
        ("thousand", 3),
        ("thousands", 3),
        ("million", 6),
        ("millions", 6),
        ("billion", 9),
        ("billions", 9),
        ("trillion", 12),
        ("trillions", 12),
    ];
    WORDS
        .iter()
        .find(|(word, _)| w.eq_ignore_ascii_case(word.as_bytes()))
        .map_or(0, |(_, e)| *e)
}

/// One number at byte `i` of `text` (a digit, or `.` before a digit): sign, digits with
/// comma thousands, decimals, an exponent (`1e3`), a fraction (`1/2`), then a scale
/// (`million`, `M`, `k`) and a percent sign. Returns the number, its scale, whether it is
/// a percentage, and the byte after it. `None` when it is not a finite number (`1/0`).
pub(crate) fn number_at(text: &str, i: usize) -> Option<(f64, i32, bool, usize)> {
    let b = text.as_bytes();
    let n = b.len();
    let (mantissa, mut j) = mantissa_at(text, i)?;
    let negative = sign_before(text, i);
    let mut value: f64 = mantissa.parse().ok()?;
    // a fraction: "1/2", "3 / 4"
    let mut k = j;
    while k < n && b[k] == b' ' {
        k += 1;
    }
    if k < n && b[k] == b'/' {
        let mut d = k + 1;
        while d < n && b[d] == b' ' {
            d += 1;
        }
        if d < n
            && (b[d].is_ascii_digit() || (b[d] == b'.' && d + 1 < n && b[d + 1].is_ascii_digit()))
            && let Some((den, after)) = mantissa_at(text, d)
        {
            let den: f64 = den.parse().ok()?;
            value /= den;
            j = after;
        }
    }
    if negative {
        value = -value;
    }
    let scale = scale_suffix(&text[j..]);
    if scale > 0 {
        j = skip_scale(text, j);
    }
    // percent: "45%", "45 %", "45 percent", "45 per cent"
    let mut percent = false;
    let rest = &text[j..];
    let trimmed = rest.trim_start_matches([' ', '\u{a0}']);
    for word in ["%", "percent", "per cent", "pct"] {
        if starts_with_ignore_ascii_case(trimmed, word)
            && !trimmed
                .as_bytes()
                .get(word.len())
                .is_some_and(u8::is_ascii_alphanumeric)
        {
            percent = true;
            j += rest.len() - trimmed.len() + word.len();
            break;
        }
    }
    value.is_finite().then_some((value, scale, percent, j))
}

/// The digits of a number at byte `i` as Rust can parse them (`1,200.5e3` → `1200.5e3`),
/// and the byte after them.
pub(crate) fn mantissa_at(text: &str, mut i: usize) -> Option<(String, usize)> {
    let b = text.as_bytes();
    let n = b.len();
    let mut digits = String::new();
    while i < n && b[i].is_ascii_digit() {
        digits.push(b[i] as char);
        i += 1;
    }
    while i + 3 < n && b[i] == b',' && !digits.is_empty() {
        let grp = &b[i + 1..i + 4];
        let after_digit = i + 4 < n && b[i + 4].is_ascii_digit();
        if grp.iter().all(u8::is_ascii_digit) && !after_digit {
            digits.extend(grp.iter().map(|&c| c as char));
            i += 4;
        } else {
            break;
        }
    }
    if i + 1 < n && b[i] == b'.' && b[i + 1].is_ascii_digit() {
        if digits.is_empty() {
            digits.push('0');
        }
        digits.push('.');
        i += 1;
        while i < n && b[i].is_ascii_digit() {
            digits.push(b[i] as char);
            i += 1;
        }
    }
    if digits.is_empty() {
        return None;
    }
    // an exponent: "1e3", "2.5E-2", not followed by a letter or digit ("1em")
    if i < n && (b[i] == b'e' || b[i] == b'E') {
        let mut k = i + 1;
        if k < n && (b[k] == b'-' || b[k] == b'+') {
            k += 1;
        }
        let start = k;
        while k < n && b[k].is_ascii_digit() {
            k += 1;
        }
        if k > start && !(k < n && b[k].is_ascii_alphanumeric()) {
            digits.push_str(&text[i..k]);
            i = k;
        }
    }
    Some((digits, i))
}

/// A minus sign (`-` or U+2212) right before byte `i`, not itself after a letter or digit
/// (`G7-3` is not −3).
pub(crate) fn sign_before(text: &str, i: usize) -> bool {
    let mut rev = text[..i].chars().rev();
    match rev.next() {
        Some('-') | Some('\u{2212}') => !rev.next().is_some_and(char::is_alphanumeric),
        _ => false,
    }
}

/// The byte after the scale word or letter that follows a number at byte `j`.
pub(crate) fn skip_scale(text: &str, j: usize) -> usize {
    let rest = &text[j..];
    let attached = rest.len()
        - rest
            .trim_start_matches(|c: char| c.is_ascii_alphabetic())
            .len();
    if attached > 0 {
        return j + attached;
    }
    let trimmed = rest.trim_start_matches([' ', '\u{a0}']);
    let word = trimmed.len()
        - trimmed
            .trim_start_matches(|c: char| c.is_ascii_alphabetic())
            .len();
    j + (rest.len() - trimmed.len()) + word
}

/// The byte where the first number of `text` starts: a digit, or `.` before a digit that
/// does not follow one.
pub(crate) fn number_start(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let n = b.len();
    (0..n).find(|&i| {
        b[i].is_ascii_digit()
            || (b[i] == b'.'
                && i + 1 < n
                && b[i + 1].is_ascii_digit()
                && (i == 0 || !b[i - 1].is_ascii_digit()))
    })
}

/// The number an answer gives, as written (no unit applied): the first number of the
/// text, with its scale and percent sign, and when a second number follows after `-`,
/// `–`, `—`, `~` or `to` (`1.1-1.3`, `1.1 to 1.3 million`, `between 2 and 3`), the range of
/// the two. A scale or percent sign written only after the second number applies to both
/// (`1.1-1.3 million`). `None` when the text holds no number.
pub fn read_number(text: &str) -> Option<Written> {
    let start = number_start(text)?;
    let (a, sa, pa, end) = number_at(text, start)?;
    let before = text[..start].trim_end().as_bytes();
    let between = before.len() >= 7 && before[before.len() - 7..].eq_ignore_ascii_case(b"between");
    if let Some((b, sb, pb)) = range_end(text, end, between) {
        // a scale or percent written once, after the range, applies to both ends
        let (sa, pa) = (if sa == 0 { sb } else { sa }, pa || pb);
        let pow = |k: i32| 10f64.powi(k);
        let (lo, hi) = (a * pow(sa - sa.min(sb)), b * pow(sb - sa.min(sb)));
        let scale = sa.min(sb);
        return Some(Written {
            value: NumberValue::Range(lo.min(hi), lo.max(hi)),
            scale,
            percent: pa,
        });
    }
    Some(Written {
        value: NumberValue::One(a),
        scale: sa,
        percent: pa,
    })
}

/// The second number of a range starting after byte `end`, if one follows: separators
/// `-`, `–`, `—`, `~`, `to`, and `and` after `between`.
pub(crate) fn range_end(text: &str, end: usize, between: bool) -> Option<(f64, i32, bool)> {
    let rest = &text[end..];
    let t = rest.trim_start_matches([' ', '\u{a0}']);
    let sep = ["-", "–", "—", "~", "to "]
        .into_iter()
        .chain(between.then_some("and "))
        .find(|s| starts_with_ignore_ascii_case(t, s))?;
    let after_sep = end + (rest.len() - t.len()) + sep.len();
    let t2 = text[after_sep..].trim_start_matches([' ', '\u{a0}']);
    let mut i = after_sep + (text.len() - after_sep - t2.len());
    let b = text.as_bytes();
    // the second number may carry its own sign: "-5 to -3", "-5--3", "−5 – −3"
    for sign in ["-", "\u{2212}"] {
        if text[i..].starts_with(sign) {
            i += sign.len();
            break;
        }
    }
    let digit = i < b.len()
        && (b[i].is_ascii_digit()
            || (b[i] == b'.' && i + 1 < b.len() && b[i + 1].is_ascii_digit()));
    if !digit {
        return None;
    }
    let (v, s, p, _) = number_at(text, i)?;
    Some((v, s, p))
}

/// Does `text` start with `prefix`, ASCII case aside (what `text.to_ascii_lowercase()
/// .starts_with(prefix)` says of a lower-case `prefix`, without the copy)?
fn starts_with_ignore_ascii_case(text: &str, prefix: &str) -> bool {
    text.as_bytes()
        .get(..prefix.len())
        .is_some_and(|t| t.eq_ignore_ascii_case(prefix.as_bytes()))
}

/// Powers of ten named right after a number.
pub(crate) fn scale_suffix(rest: &str) -> i32 {
    let letters = |t: &str| {
        t.len()
            - t.trim_start_matches(|c: char| c.is_ascii_alphabetic())
                .len()
    };
    let attached = &rest[..letters(rest)];
    if !attached.is_empty() {
        return match attached {
            "k" | "K" => 3,
            "m" | "M" | "mn" | "Mn" | "mln" => 6,
            "b" | "B" | "bn" | "Bn" => 9,
            w => scale_word(w),
        };
    }
    let trimmed = rest.trim_start_matches([' ', '\u{a0}']);
    if trimmed.len() == rest.len() {
        return 0;
    }
    scale_word(&trimmed[..letters(trimmed)])
}
