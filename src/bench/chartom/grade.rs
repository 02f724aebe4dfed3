//! CHARTOM grading (docs/format.md, "CHARTOM"): FACT answers parsed by format and graded
//! against the key, MIND squared error, and the Human Misleadingness Index recomputed from
//! human answers with its acceptable interval.

use serde::Serialize;
use serde_json::Value;

use crate::grade::resolve::{Resolved, resolve_response};
use crate::model::{Fact, FactFormat, Item, JustificationGrade, ResponseGrades};

/// A FACT answer, parsed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ParsedFact {
    /// 1-based option number.
    Choice(u32),
    /// Option numbers, largest first.
    Rank(Vec<u32>),
    /// A number in the key's unit (see [`read_number`]).
    Number(f64),
    /// A range `low–high` (`1.1-1.3`, `between 2 and 3`), low ≤ high, in the key's unit.
    Range(f64, f64),
}

impl ParsedFact {
    /// How the parsed answer is shown: `2 (Apples)`, `3 > 1 > 2`, `1200`.
    pub fn display(&self, options: &[String]) -> String {
        match self {
            ParsedFact::Choice(n) => {
                match (*n as usize).checked_sub(1).and_then(|i| options.get(i)) {
                    Some(t) if !t.is_empty() => format!("{n} ({t})"),
                    _ => n.to_string(),
                }
            }
            ParsedFact::Rank(v) => v.iter().map(u32::to_string).collect::<Vec<_>>().join(" > "),
            ParsedFact::Number(x) => format_number(*x),
            ParsedFact::Range(a, b) => format!("{}–{}", format_number(*a), format_number(*b)),
        }
    }
}

/// A number without needless digits: `1200`, `1.2`, `-3`.
pub fn format_number(x: f64) -> String {
    format!("{x}")
}

/// The answer key of a FACT question.
#[derive(Debug, Clone, PartialEq)]
pub enum FactKey {
    Choice(u32),
    /// Accepted orders (usually one).
    Rank(Vec<Vec<u32>>),
    Number(f64),
}

/// The question's format: `fact.format`, or guessed from the key when missing (an array →
/// rank; an integer with options → choice; else number).
pub fn fact_format(fact: &Fact) -> Option<FactFormat> {
    if let Some(f) = fact.format {
        return Some(f);
    }
    match fact.key.as_ref()? {
        Value::Array(_) => Some(FactFormat::Rank),
        Value::Number(n) if n.as_u64().is_some() && !fact.options.is_empty() => {
            Some(FactFormat::Choice)
        }
        _ => Some(FactFormat::Number),
    }
}

/// The parsed key; `None` when missing or not understood.
pub fn fact_key(fact: &Fact) -> Option<FactKey> {
    let key = fact.key.as_ref()?;
    match fact_format(fact)? {
        FactFormat::Choice => match key {
            Value::Number(n) => n
                .as_u64()
                .filter(|n| *n >= 1 && *n <= u32::MAX as u64)
                .map(|n| FactKey::Choice(n as u32)),
            Value::String(s) => parse_choice(s, &fact.options).map(FactKey::Choice),
            _ => None,
        },
        FactFormat::Rank => match key {
            Value::Array(a) if !a.is_empty() && a.iter().all(Value::is_array) => {
                let lists: Option<Vec<Vec<u32>>> = a
                    .iter()
                    .map(|v| rank_from_value(v, &fact.options))
                    .collect();
                lists.map(FactKey::Rank)
            }
            v => rank_from_value(v, &fact.options).map(|l| FactKey::Rank(vec![l])),
        },
        FactFormat::Number => number_from_value(key, fact.question.as_deref()).map(FactKey::Number),
    }
}

fn rank_from_value(v: &Value, options: &[String]) -> Option<Vec<u32>> {
    match v {
        Value::Array(a) => a
            .iter()
            .map(|x| match x {
                Value::Number(n) => n.as_u64().filter(|n| *n >= 1).map(|n| n as u32),
                Value::String(s) => parse_choice(s, options),
                _ => None,
            })
            .collect(),
        Value::String(s) => parse_rank(s, options),
        _ => None,
    }
}

/// A key or strategy written as a JSON number, or as a text read in the question's unit
/// (the first reading of [`Unit::readings`]; a range is not a key).
fn number_from_value(v: &Value, question: Option<&str>) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => match Unit::of_question(question)
            .readings(&read_number(s)?, None)
            .first()?
        {
            NumberValue::One(x) => Some(*x),
            NumberValue::Range(..) => None,
        },
        _ => None,
    }
}

/// The automatic grade of one FACT answer.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct FactGrade {
    /// `None` when the answer is missing or unparsable.
    pub parsed: Option<ParsedFact>,
    /// The parsed answer as shown to the reviewer.
    pub display: Option<String>,
    /// `None` when the item has no usable key; an unparsable answer is `Some(false)`.
    pub correct: Option<bool>,
}

/// Parse a raw FACT answer by the question's format. A number answer is read in the
/// question's unit ([`Unit`]); of its readings, the one [`choose`] picks counts.
pub fn parse_fact(fact: &Fact, raw: &str) -> Option<ParsedFact> {
    match fact_format(fact)? {
        FactFormat::Choice => parse_choice(raw, &fact.options).map(ParsedFact::Choice),
        FactFormat::Rank => parse_rank(raw, &fact.options).map(ParsedFact::Rank),
        FactFormat::Number => {
            let unit = Unit::of_question(fact.question.as_deref());
            let key = match fact_key(fact) {
                Some(FactKey::Number(k)) => Some(k),
                _ => None,
            };
            let readings = unit.readings(&read_number(raw)?, key);
            Some(choose(&readings, key)?.into())
        }
    }
}

/// Parse and grade a raw FACT answer (`None`: the model gave none, graded wrong).
pub fn grade_fact(fact: &Fact, raw: Option<&str>) -> FactGrade {
    let parsed = raw.and_then(|r| parse_fact(fact, r));
    let display = parsed.as_ref().map(|p| p.display(&fact.options));
    let correct = fact_key(fact).map(|key| parsed.as_ref().is_some_and(|p| is_correct(p, &key)));
    FactGrade {
        parsed,
        display,
        correct,
    }
}

/// FACT correctness: choice exact; rank the whole order equal to an accepted order;
/// number within [0.9·key, 1.1·key] (bounds ordered for negative keys; key 0 → exact).
pub fn is_correct(parsed: &ParsedFact, key: &FactKey) -> bool {
    match (parsed, key) {
        (ParsedFact::Choice(a), FactKey::Choice(k)) => a == k,
        (ParsedFact::Rank(a), FactKey::Rank(ks)) => ks.iter().any(|k| k == a),
        (ParsedFact::Number(x), FactKey::Number(k)) => number_correct(*x, *k),
        // a range is correct only when all of it lies within the tolerance
        (ParsedFact::Range(a, b), FactKey::Number(k)) => {
            number_correct(*a, *k) && number_correct(*b, *k)
        }
        _ => false,
    }
}

/// `x` within ±10% of `key`, bounds included.
pub fn number_correct(x: f64, key: f64) -> bool {
    if !x.is_finite() || !key.is_finite() {
        return false;
    }
    if key == 0.0 {
        return x == 0.0;
    }
    let (a, b) = (0.9 * key, 1.1 * key);
    let (lo, hi) = (a.min(b), a.max(b));
    // tolerate the rounding of 0.9·key and 1.1·key (1.08 is not exactly 0.9 × 1.2)
    let eps = key.abs() * 1e-12;
    x >= lo - eps && x <= hi + eps
}

/// MIND squared error.
pub fn squared_error(mind: f64, hmi: f64) -> f64 {
    (mind - hmi) * (mind - hmi)
}

/// Mean of squared errors; `None` for none.
pub fn mse(errors: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0u64);
    for e in errors {
        sum += e;
        n += 1;
    }
    (n > 0).then(|| sum / n as f64)
}

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

/// The unit a number question's key is in, from the question's words: a scale word
/// (`How many million bags ...?` → 10⁶) and whether it asks for a percentage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Unit {
    /// The power of ten of the one scale word the question uses (thousand 3, million 6,
    /// billion 9, trillion 12); 0 when it uses none, or several different ones.
    pub scale: i32,
    /// The question names a percentage (`%`, `percent`, `percentage`, `per cent`).
    pub percent: bool,
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
        // no allocation: this runs for every number answer `stats` grades
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
fn scale_word(w: &str) -> i32 {
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
        .find(|(word, _)| w.eq_ignore_ascii_case(word))
        .map_or(0, |(_, e)| *e)
}

/// One number at byte `i` of `text` (a digit, or `.` before a digit): sign, digits with
/// comma thousands, decimals, an exponent (`1e3`), a fraction (`1/2`), then a scale
/// (`million`, `M`, `k`) and a percent sign. Returns the number, its scale, whether it is
/// a percentage, and the byte after it. `None` when it is not a finite number (`1/0`).
fn number_at(text: &str, i: usize) -> Option<(f64, i32, bool, usize)> {
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
    let lower = trimmed.to_ascii_lowercase();
    for word in ["%", "percent", "per cent", "pct"] {
        if lower.starts_with(word)
            && !lower[word.len()..].starts_with(|c: char| c.is_ascii_alphanumeric())
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
fn mantissa_at(text: &str, mut i: usize) -> Option<(String, usize)> {
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
fn sign_before(text: &str, i: usize) -> bool {
    let mut rev = text[..i].chars().rev();
    match rev.next() {
        Some('-') | Some('\u{2212}') => !rev.next().is_some_and(char::is_alphanumeric),
        _ => false,
    }
}

/// The byte after the scale word or letter that follows a number at byte `j`.
fn skip_scale(text: &str, j: usize) -> usize {
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
fn number_start(text: &str) -> Option<usize> {
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
    let between = text[..start]
        .trim_end()
        .to_ascii_lowercase()
        .ends_with("between");
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
fn range_end(text: &str, end: usize, between: bool) -> Option<(f64, i32, bool)> {
    let rest = &text[end..];
    let t = rest.trim_start_matches([' ', '\u{a0}']);
    let lower = t.to_ascii_lowercase();
    let mut seps = vec!["-", "–", "—", "~", "to "];
    if between {
        seps.push("and ");
    }
    let sep = seps.into_iter().find(|s| lower.starts_with(s))?;
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

/// Powers of ten named right after a number.
fn scale_suffix(rest: &str) -> i32 {
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

/// Lower case, every run of non-alphanumeric characters one space, trimmed.
fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if c.is_alphanumeric() {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.extend(c.to_lowercase());
        } else {
            space = true;
        }
    }
    out
}

const PREFIXES: [&str; 12] = [
    "the correct answer is",
    "the correct option is",
    "the answer is",
    "correct answer",
    "my answer is",
    "answer is",
    "final answer",
    "answer",
    "options",
    "option",
    "choice",
    "ranking",
];

/// Strip "Answer:", "The answer is", "Option" and surrounding punctuation.
fn core(raw: &str) -> &str {
    let mut s = raw.trim();
    loop {
        let before = s.len();
        s = s.trim_matches(|c: char| {
            c.is_whitespace() || matches!(c, ':' | '"' | '\'' | '*' | '`' | '.' | '=' | '-')
        });
        for p in PREFIXES {
            if s.len() >= p.len()
                && s.is_char_boundary(p.len())
                && s[..p.len()].eq_ignore_ascii_case(p)
                && !s[p.len()..].starts_with(|c: char| c.is_alphanumeric())
            {
                s = &s[p.len()..];
                break;
            }
        }
        if s.len() == before {
            return s;
        }
    }
}

/// A label naming an option: an integer or a single letter (`B` → 2), within the options
/// when there are any.
fn label(tok: &str, n_options: usize) -> Option<u32> {
    let v = if !tok.is_empty() && tok.bytes().all(|c| c.is_ascii_digit()) {
        tok.parse::<u32>().ok()?
    } else if tok.len() == 1 && tok.as_bytes()[0].is_ascii_alphabetic() {
        (tok.as_bytes()[0].to_ascii_lowercase() - b'a') as u32 + 1
    } else {
        return None;
    };
    (v >= 1 && (n_options == 0 || v as usize <= n_options)).then_some(v)
}

/// Parse a choice answer into a 1-based option number: `2`, `B`, `Option 2`, `(b)`,
/// `B) apples`, or the option's text.
pub fn parse_choice(raw: &str, options: &[String]) -> Option<u32> {
    let norm = normalize(raw);
    if norm.is_empty() {
        return None;
    }
    let opts: Vec<String> = options.iter().map(|o| normalize(o)).collect();
    // the option's text exactly
    if let Some(i) = opts.iter().position(|o| !o.is_empty() && *o == norm) {
        return Some(i as u32 + 1);
    }
    let c = core(raw);
    let inner = c.trim_matches(|ch: char| matches!(ch, '(' | ')' | '[' | ']' | '{' | '}'));
    if let Some(v) = label(inner.trim(), options.len()) {
        return Some(v);
    }
    // a leading label: "2. Apples", "B) apples", "(b) apples", "C: 12"
    let lead = c.trim_start_matches(['(', '[']);
    let tok: String = lead.chars().take_while(|ch| ch.is_alphanumeric()).collect();
    let after = lead[tok.len()..].chars().next();
    if (matches!(after, Some('.' | ')' | ':' | ']' | ','))
        || (c.starts_with('(') && after.is_some()))
        && let Some(v) = label(&tok, options.len())
    {
        return Some(v);
    }
    // a single option's text inside the answer
    if let Some(i) = option_in_text(&norm, &opts) {
        return Some(i as u32 + 1);
    }
    // one option number standing alone in a sentence ("I think it is 2")
    let mut nums = norm
        .split(' ')
        .filter(|t| t.bytes().all(|b| b.is_ascii_digit()))
        .filter_map(|t| label(t, options.len()));
    match (nums.next(), nums.next()) {
        (Some(v), None) => Some(v),
        _ => None,
    }
}

/// The one option whose text occurs in `norm` (as whole words); when several occur and
/// one contains all the others ("South Asia" vs "Asia"), that one.
fn option_in_text(norm: &str, opts: &[String]) -> Option<usize> {
    let padded = format!(" {norm} ");
    let found: Vec<usize> = opts
        .iter()
        .enumerate()
        .filter(|(_, o)| !o.is_empty() && padded.contains(&format!(" {o} ")))
        .map(|(i, _)| i)
        .collect();
    match found.len() {
        0 => None,
        1 => Some(found[0]),
        _ => found
            .iter()
            .copied()
            .find(|&i| found.iter().all(|&j| j == i || opts[i].contains(&opts[j]))),
    }
}

/// Parse a ranking: option labels in order (`3, 1, 2`, `C > A > B`, `[3,1,2]`) or option
/// texts in the order they appear.
pub fn parse_rank(raw: &str, options: &[String]) -> Option<Vec<u32>> {
    let c = core(raw);
    let toks: Vec<&str> = c
        .split(|ch: char| !ch.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .filter(|t| !matches!(t.to_ascii_lowercase().as_str(), "then" | "and" | "option"))
        .collect();
    if !toks.is_empty() {
        let labels: Option<Vec<u32>> = toks.iter().map(|t| label(t, options.len())).collect();
        if let Some(l) = labels
            && (l.len() >= 2 || options.len() <= 1)
        {
            return Some(l);
        }
    }
    // option texts, by position; longer texts first so "South Asia" masks "Asia"
    let mut norm = format!(" {} ", normalize(raw));
    let mut order: Vec<usize> = (0..options.len()).collect();
    let opts: Vec<String> = options.iter().map(|o| normalize(o)).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(opts[i].len()));
    let mut found: Vec<(usize, u32)> = Vec::new();
    for i in order {
        if opts[i].is_empty() {
            continue;
        }
        let needle = format!(" {} ", opts[i]);
        if let Some(pos) = norm.find(&needle) {
            found.push((pos, i as u32 + 1));
            // mask it (same length, so later positions stay comparable)
            let mask: String = needle
                .chars()
                .map(|ch| if ch == ' ' { ' ' } else { '\u{1}' })
                .collect();
            norm.replace_range(pos..pos + needle.len(), &mask);
        }
    }
    if found.is_empty() {
        return None;
    }
    found.sort();
    Some(found.into_iter().map(|(_, n)| n).collect())
}

// ---------------------------------------------------------------------------------------
// HMI

/// The Human Misleadingness Index recomputed from human answers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hmi {
    /// Share of answers (weighted by their counts) that are not acceptable.
    pub hmi: f64,
    pub n_answers: u64,
    pub n_not_acceptable: u64,
    /// Answers that could not be read as a number / option / ranking (counted as not
    /// acceptable: an answer that names no value does not lie in the interval).
    pub n_unparsable: u64,
    /// The acceptable interval (L, U) of a number question; `None` = −∞ / +∞. Choice and
    /// rank questions have no interval: (None, None).
    pub interval: (Option<f64>, Option<f64>),
}

/// The boundary between the key `c` and a strategy answer `x`: √(c·x), the geometric mean,
/// when both have the same sign (with the sign kept: −√(c·x) for negatives); the
/// arithmetic mean (c + x)/2 when the signs differ or one is 0, where √(c·x) is undefined
/// or collapses onto 0.
fn boundary(c: f64, x: f64) -> f64 {
    if c * x > 0.0 {
        c.signum() * (c * x).sqrt()
    } else {
        (c + x) / 2.0
    }
}

/// The acceptable interval (L, U) around the key `c`: U = √(c·a) for a the closest
/// strategy answer above c (+∞ if none), L = √(c·b) for b the closest below (−∞ if none).
pub fn acceptable_interval(c: f64, strategies: &[f64]) -> (Option<f64>, Option<f64>) {
    let above = strategies
        .iter()
        .copied()
        .filter(|&s| s.is_finite() && s > c)
        .reduce(f64::min);
    let below = strategies
        .iter()
        .copied()
        .filter(|&s| s.is_finite() && s < c)
        .reduce(f64::max);
    (below.map(|b| boundary(c, b)), above.map(|a| boundary(c, a)))
}

/// Whether `x` lies strictly inside the interval.
pub fn in_interval(x: f64, (lo, hi): (Option<f64>, Option<f64>)) -> bool {
    lo.is_none_or(|l| l < x) && hi.is_none_or(|u| x < u)
}

/// A human answer to a number question, as the HMI reads it: like a model's answer, in the
/// question's `unit`, by [`choose`] (a JSON number is read as a plain number written without
/// scale: `1200000` is 1.2 for a question in millions and key 1.2).
pub fn human_number(v: &Value, key: Option<f64>, unit: Unit) -> Option<NumberValue> {
    let written = match v {
        Value::Number(n) => Written {
            value: NumberValue::One(n.as_f64()?),
            scale: 0,
            percent: false,
        },
        Value::String(s) => read_number(s)?,
        _ => return None,
    };
    choose(&unit.readings(&written, key), key)
}

/// Whether a human answer lies in the acceptable interval; a range only when all of it
/// does.
pub fn acceptable(v: NumberValue, interval: (Option<f64>, Option<f64>)) -> bool {
    match v {
        NumberValue::One(x) => in_interval(x, interval),
        NumberValue::Range(a, b) => in_interval(a, interval) && in_interval(b, interval),
    }
}

/// HMI of a number question: the share of human answers outside the acceptable interval.
/// Answers may be numbers or texts (read by [`human_number`] in the question's `unit`).
/// `None` without answers.
pub fn hmi_number(
    key: f64,
    strategies: &[f64],
    answers: &[(Value, u64)],
    unit: Unit,
) -> Option<Hmi> {
    let interval = acceptable_interval(key, strategies);
    let mut h = Hmi {
        hmi: 0.0,
        n_answers: 0,
        n_not_acceptable: 0,
        n_unparsable: 0,
        interval,
    };
    for (v, count) in answers {
        h.n_answers += count;
        match human_number(v, Some(key), unit) {
            Some(x) if acceptable(x, interval) => {}
            Some(_) => h.n_not_acceptable += count,
            None => {
                h.n_unparsable += count;
                h.n_not_acceptable += count;
            }
        }
    }
    finish(h)
}

fn finish(mut h: Hmi) -> Option<Hmi> {
    if h.n_answers == 0 {
        return None;
    }
    h.hmi = h.n_not_acceptable as f64 / h.n_answers as f64;
    Some(h)
}

/// HMI of a question from its human answers: number questions by the acceptable interval
/// (needs `strategies`); choice and rank questions as the share of answers that differ from
/// the key. `None` when it cannot be recomputed (no answers, no key, or a number question
/// without strategies).
pub fn hmi_from_fact(fact: &Fact) -> Option<Hmi> {
    if fact.human_answers.is_empty() {
        return None;
    }
    let key = fact_key(fact)?;
    match key {
        FactKey::Number(c) => {
            let s = fact.strategies?;
            let unit = Unit::of_question(fact.question.as_deref());
            hmi_number(c, &[s.misled, s.skim], &fact.human_answers, unit)
        }
        key => {
            let mut h = Hmi {
                hmi: 0.0,
                n_answers: 0,
                n_not_acceptable: 0,
                n_unparsable: 0,
                interval: (None, None),
            };
            for (v, count) in &fact.human_answers {
                h.n_answers += count;
                let parsed = match &key {
                    FactKey::Choice(_) => match v {
                        Value::Number(n) => n.as_u64().map(|n| ParsedFact::Choice(n as u32)),
                        Value::String(s) => parse_choice(s, &fact.options).map(ParsedFact::Choice),
                        _ => None,
                    },
                    _ => rank_from_value(v, &fact.options).map(ParsedFact::Rank),
                };
                match parsed {
                    Some(p) if is_correct(&p, &key) => {}
                    Some(_) => h.n_not_acceptable += count,
                    None => {
                        h.n_unparsable += count;
                        h.n_not_acceptable += count;
                    }
                }
            }
            finish(h)
        }
    }
}

// ---------------------------------------------------------------------------------------
// Suspect answer keys

/// Below this share of human answers agreeing with a number question's key (within its
/// ±10 % tolerance), the key is suspect.
pub const SUSPECT_SHARE: f64 = 0.25;

/// Why a key is suspect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SuspicionReason {
    /// More human answers agree on one other answer than on the key.
    ModalAnswerDiffers,
    /// Number questions: fewer than [`SUSPECT_SHARE`] of the human answers are within the
    /// key's tolerance.
    FewAgree,
}

/// An answer key that the human answers put in doubt (docs/stats.md, "Suspect answer
/// keys"): worth checking, not necessarily wrong (a chart that misleads most readers
/// is suspect by this rule too).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Suspicion {
    pub reason: SuspicionReason,
    /// The key as shown (`2 (Pears)`, `1 > 4 > 2`, `1.2`).
    pub key: String,
    /// Human answers that could be read.
    pub n_answers: u64,
    /// Of which agree with the key (graded correct by the FACT rule).
    pub n_agree: u64,
    pub share_agree: f64,
    /// The most common human answer that disagrees with the key (for numbers: the centre
    /// of the densest ±10 % bucket), as shown; its count.
    pub modal_answer: Option<String>,
    pub modal_count: u64,
    /// Rank questions: the most common answer is the key in reverse order (a key written
    /// least-first, say).
    pub reversed: bool,
}

/// Whether the item's FACT key is suspect, judged by its human answers:
///
/// - choice and rank: another answer is more common than the key (a tie is not suspect);
/// - number: the densest ±10 % bucket around another answer holds more answers than the
///   key's bucket (answers within ±10 % of the key), or fewer than [`SUSPECT_SHARE`] of
///   the answers are in the key's bucket.
///
/// Answers are read like model answers; unreadable ones are left out. `None` when the
/// item has no FACT key, no readable human answers, or nothing is suspect.
pub fn suspect_key(item: &Item) -> Option<Suspicion> {
    let fact = item.fact.as_ref()?;
    let key = fact_key(fact)?;
    // the human answers as (parsed, count), equal answers merged, in order
    let mut answers: Vec<(ParsedFact, u64)> = Vec::new();
    let unit = Unit::of_question(fact.question.as_deref());
    for (v, count) in &fact.human_answers {
        let parsed = match &key {
            FactKey::Choice(_) => match v {
                Value::Number(n) => n
                    .as_u64()
                    .filter(|n| (1..=u32::MAX as u64).contains(n))
                    .map(|n| ParsedFact::Choice(n as u32)),
                Value::String(s) => parse_choice(s, &fact.options).map(ParsedFact::Choice),
                _ => None,
            },
            FactKey::Rank(_) => rank_from_value(v, &fact.options).map(ParsedFact::Rank),
            FactKey::Number(k) => human_number(v, Some(*k), unit).map(ParsedFact::from),
        };
        let Some(p) = parsed else { continue };
        match answers.iter_mut().find(|(q, _)| *q == p) {
            Some((_, c)) => *c += count,
            None => answers.push((p, *count)),
        }
    }
    let n_answers: u64 = answers.iter().map(|a| a.1).sum();
    if n_answers == 0 {
        return None;
    }
    let n_agree: u64 = answers
        .iter()
        .filter(|(p, _)| is_correct(p, &key))
        .map(|a| a.1)
        .sum();
    // the most common disagreeing answer (numbers: by its ±10 % bucket); first on ties
    let bucket = |p: &ParsedFact| -> u64 {
        match (p, &key) {
            (ParsedFact::Number(_) | ParsedFact::Range(..), FactKey::Number(_)) => {
                let centre = parsed_center(p);
                answers
                    .iter()
                    .filter(|(q, _)| number_correct(parsed_center(q), centre))
                    .map(|a| a.1)
                    .sum()
            }
            _ => answers.iter().filter(|(q, _)| q == p).map(|a| a.1).sum(),
        }
    };
    let mut modal: Option<(&ParsedFact, u64)> = None;
    for (p, _) in answers.iter().filter(|(p, _)| !is_correct(p, &key)) {
        let c = bucket(p);
        if modal.is_none_or(|(_, m)| c > m) {
            modal = Some((p, c));
        }
    }
    let share_agree = n_agree as f64 / n_answers as f64;
    let reason = if modal.is_some_and(|(_, c)| c > n_agree) {
        SuspicionReason::ModalAnswerDiffers
    } else if matches!(key, FactKey::Number(_)) && share_agree < SUSPECT_SHARE {
        SuspicionReason::FewAgree
    } else {
        return None;
    };
    let reversed = match (&key, modal) {
        (FactKey::Rank(orders), Some((ParsedFact::Rank(m), _))) => orders
            .iter()
            .any(|k| k.len() > 1 && k.iter().rev().eq(m.iter())),
        _ => false,
    };
    Some(Suspicion {
        reason,
        key: key_display(&key, &fact.options),
        n_answers,
        n_agree,
        share_agree,
        modal_answer: modal.map(|(p, _)| p.display(&fact.options)),
        modal_count: modal.map_or(0, |m| m.1),
        reversed,
    })
}

fn parsed_center(p: &ParsedFact) -> f64 {
    match p {
        ParsedFact::Number(x) => *x,
        ParsedFact::Range(a, b) => (a + b) / 2.0,
        _ => f64::NAN,
    }
}

/// A key as shown: `2 (Pears)`, `1 > 4 > 2` (accepted orders joined by `or`), `1.2`.
pub fn key_display(key: &FactKey, options: &[String]) -> String {
    match key {
        FactKey::Choice(n) => ParsedFact::Choice(*n).display(options),
        FactKey::Rank(orders) => orders
            .iter()
            .map(|o| ParsedFact::Rank(o.clone()).display(options))
            .collect::<Vec<_>>()
            .join(" or "),
        FactKey::Number(x) => format_number(*x),
    }
}

// ---------------------------------------------------------------------------------------
// Effective grade

/// One CHARTOM response as graded automatically and after human review.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartomEffective {
    /// The automatic FACT grade.
    pub fact: FactGrade,
    /// The human grades that count, and where they come from.
    pub human: Resolved<ResponseGrades>,
    /// FACT correctness after overrides: the resolved `fact_correct` if any, else automatic.
    pub fact_correct: Option<bool>,
    /// True when a reviewer's `fact_correct` decided `fact_correct`.
    pub overridden: bool,
    /// The model's MIND answer.
    pub mind: Option<f64>,
    /// The item's HMI: `mind.hmi`, else the HMI recomputed from human answers.
    pub hmi: Option<f64>,
    pub squared_error: Option<f64>,
    /// The resolved justification grade.
    pub justification: Option<JustificationGrade>,
}

/// The item's HMI key: `mind.hmi` when given, else recomputed from the human answers.
pub fn item_hmi(item: &Item) -> Option<f64> {
    item.mind
        .map(|m| m.hmi)
        .or_else(|| item.fact.as_ref().and_then(hmi_from_fact).map(|h| h.hmi))
}

/// Automatic vs effective grade of `model`'s response to a CHARTOM item.
pub fn effective(item: &Item, model: &str) -> ChartomEffective {
    let resp = item.response(model);
    let fact = match &item.fact {
        Some(f) => grade_fact(f, resp.and_then(|r| r.fact.as_deref())),
        None => FactGrade::default(),
    };
    let human = resolve_response(&item.reviews, model, item.responses.len());
    let overridden = human.value.fact_correct.is_some();
    let fact_correct = human.value.fact_correct.or(fact.correct);
    let mind = resp.and_then(|r| r.mind);
    let hmi = item_hmi(item);
    let squared_error = match (mind, hmi) {
        (Some(m), Some(h)) => Some(squared_error(m, h)),
        _ => None,
    };
    let justification = human.value.justification;
    ChartomEffective {
        fact,
        human,
        fact_correct,
        overridden,
        mind,
        hmi,
        squared_error,
        justification,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Strategies;
    use serde_json::json;

    fn opts(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn numbers_in_text() {
        let cases: &[(&str, Option<f64>)] = &[
            ("about 1,200", Some(1200.0)),
            ("1.2", Some(1.2)),
            ("-3", Some(-3.0)),
            ("45%", Some(45.0)),
            ("1.5 million", Some(1_500_000.0)),
            ("1.2 million", Some(1_200_000.0)),
            ("$3k", Some(3000.0)),
            ("2.5bn dollars", Some(2.5e9)),
            ("roughly 12,345,678 people", Some(12_345_678.0)),
            ("1,2", Some(1.0)),
            ("1,2345", Some(1.0)),
            ("between 2-3", Some(2.0)),
            ("G7-3", Some(7.0)),
            (".5", Some(0.5)),
            ("−4.5 degrees", Some(-4.5)),
            ("5 meters", Some(5.0)),
            ("5 m", Some(5.0)),
            ("The value is 7.", Some(7.0)),
            ("no idea", None),
            ("", None),
        ];
        for (text, want) in cases {
            assert_eq!(first_number(text), *want, "{text:?}");
        }
    }

    #[test]
    fn choices() {
        let o = opts(&["Apples", "Pears", "South Asia", "Asia"]);
        let cases: &[(&str, Option<u32>)] = &[
            ("2", Some(2)),
            ("B", Some(2)),
            ("b", Some(2)),
            ("Option 2", Some(2)),
            ("option B.", Some(2)),
            ("(b)", Some(2)),
            ("B) Pears", Some(2)),
            ("2. Pears", Some(2)),
            ("Answer: 1", Some(1)),
            ("The answer is (A)", Some(1)),
            ("pears", Some(2)),
            ("I think it is Pears.", Some(2)),
            ("South Asia", Some(3)),
            ("the region is South Asia", Some(3)),
            ("Asia", Some(4)),
            ("Apples or Pears", None),
            ("I think it is 2", Some(2)),
            ("either 1 or 2", None),
            ("7", None),
            ("E", None),
            ("", None),
        ];
        for (text, want) in cases {
            assert_eq!(parse_choice(text, &o), *want, "{text:?}");
        }
        // options whose text is a number: the text wins over the label
        let years = opts(&["1990", "2000"]);
        assert_eq!(parse_choice("2000", &years), Some(2));
        assert_eq!(parse_choice("2", &years), Some(2));
    }

    #[test]
    fn ranks() {
        let o = opts(&["Apples", "Pears", "Plums"]);
        let cases: &[(&str, Option<Vec<u32>>)] = &[
            ("3, 1, 2", Some(vec![3, 1, 2])),
            ("C > A > B", Some(vec![3, 1, 2])),
            ("[3,1,2]", Some(vec![3, 1, 2])),
            ("Ranking: 3 then 1 then 2", Some(vec![3, 1, 2])),
            ("Plums, Apples, Pears", Some(vec![3, 1, 2])),
            ("Plums > Apples > Pears", Some(vec![3, 1, 2])),
            (
                "Most: plums; then apples; least: pears",
                Some(vec![3, 1, 2]),
            ),
            ("1200, 800, 600", None),
            ("no idea", None),
        ];
        for (text, want) in cases {
            assert_eq!(parse_rank(text, &o), *want, "{text:?}");
        }
    }

    fn fact(format: FactFormat, key: Value, options: &[&str]) -> Fact {
        Fact {
            format: Some(format),
            key: Some(key),
            options: opts(options),
            ..Fact::default()
        }
    }

    #[test]
    fn fact_correctness() {
        let f = fact(FactFormat::Choice, json!(2), &["a", "b", "c"]);
        assert_eq!(grade_fact(&f, Some("B")).correct, Some(true));
        assert_eq!(grade_fact(&f, Some("3")).correct, Some(false));
        let g = grade_fact(&f, Some("dunno"));
        assert_eq!((g.parsed, g.correct), (None, Some(false)));
        assert_eq!(grade_fact(&f, None).correct, Some(false));
        assert_eq!(grade_fact(&f, Some("2")).display.as_deref(), Some("2 (b)"));

        let r = fact(FactFormat::Rank, json!([3, 1, 2]), &["x", "y", "z"]);
        assert_eq!(grade_fact(&r, Some("3,1,2")).correct, Some(true));
        assert_eq!(grade_fact(&r, Some("3,2,1")).correct, Some(false));
        assert_eq!(grade_fact(&r, Some("3,1")).correct, Some(false));
        assert_eq!(
            grade_fact(&r, Some("C > A > B")).display.as_deref(),
            Some("3 > 1 > 2")
        );
        let r2 = fact(
            FactFormat::Rank,
            json!([[1, 2, 3], [2, 1, 3]]),
            &["x", "y", "z"],
        );
        assert_eq!(grade_fact(&r2, Some("2 1 3")).correct, Some(true));
        assert_eq!(grade_fact(&r2, Some("1 2 3")).correct, Some(true));
        assert_eq!(grade_fact(&r2, Some("3 2 1")).correct, Some(false));

        let n = fact(FactFormat::Number, json!(1.2), &[]);
        assert_eq!(grade_fact(&n, Some("1.08")).correct, Some(true)); // 0.9 × 1.2
        assert_eq!(grade_fact(&n, Some("1.32")).correct, Some(true)); // 1.1 × 1.2
        assert_eq!(grade_fact(&n, Some("1.07")).correct, Some(false));
        assert_eq!(grade_fact(&n, Some("1.33")).correct, Some(false));
        assert_eq!(
            grade_fact(&n, Some("about 1.25 trillion")).correct,
            Some(false)
        );
        let neg = fact(FactFormat::Number, json!(-10), &[]);
        assert_eq!(grade_fact(&neg, Some("-9")).correct, Some(true));
        assert_eq!(grade_fact(&neg, Some("-11")).correct, Some(true));
        assert_eq!(grade_fact(&neg, Some("9")).correct, Some(false));
        let zero = fact(FactFormat::Number, json!(0), &[]);
        assert_eq!(grade_fact(&zero, Some("0")).correct, Some(true));
        assert_eq!(grade_fact(&zero, Some("0.01")).correct, Some(false));
        let big = fact(FactFormat::Number, json!(1200), &[]);
        assert_eq!(grade_fact(&big, Some("about 1,200")).correct, Some(true));
        // no key: no grade
        let nokey = Fact {
            format: Some(FactFormat::Number),
            ..Fact::default()
        };
        assert_eq!(grade_fact(&nokey, Some("3")).correct, None);
    }

    fn number_fact(question: &str, key: Value) -> Fact {
        Fact {
            question: Some(question.into()),
            format: Some(FactFormat::Number),
            key: Some(key),
            ..Fact::default()
        }
    }

    fn graded(f: &Fact, answer: &str) -> (Option<String>, Option<bool>) {
        let g = grade_fact(f, Some(answer));
        (g.display, g.correct)
    }

    /// A question about "1 million bags", key 1.2: answers repeating the question's scale
    /// word are read in the question's unit; full counts are converted to it.
    #[test]
    fn numbers_in_the_questions_unit() {
        let f = number_fact(
            "In 2020 the shop sold 1 million bags. How many million bags did it sell in 2021?",
            json!(1.2),
        );
        assert_eq!(Unit::of_question(f.question.as_deref()).scale, 6);
        for answer in [
            "1.2 million bags",
            "1.2 million",
            "1.2M",
            "1.2m bags",
            "1,200,000",
            "1200000",
            "1.2",
            "~1.2",
            "about 1.2",
            "approximately 1.2 million",
            "≈ 1.25 million",
            "1,200 thousand",
            "1.1-1.3 million",
            "between 1.1 and 1.3 million",
            "1.1 million to 1.3 million",
            "Answer: 1.2 (million bags)",
        ] {
            assert_eq!(graded(&f, answer).1, Some(true), "{answer:?}");
        }
        assert_eq!(graded(&f, "1.2 million bags").0.as_deref(), Some("1.2"));
        assert_eq!(graded(&f, "1,200,000").0.as_deref(), Some("1.2"));
        assert_eq!(graded(&f, "1.1-1.3 million").0.as_deref(), Some("1.1–1.3"));
        for answer in [
            "1.2 billion",
            "12 million",
            "120,000",
            "6",
            "1-1.3 million",
            "0",
            "-1.2",
            "none",
        ] {
            assert_eq!(graded(&f, answer).1, Some(false), "{answer:?}");
        }
        // the key written out in full: the scale word is the answer's own
        let full = number_fact("How many bags did it sell in 2021?", json!(1_200_000));
        for answer in ["1.2 million", "1.2M", "1,200,000", "1.2e6", "1200 thousand"] {
            assert_eq!(graded(&full, answer).1, Some(true), "{answer:?}");
        }
        assert_eq!(graded(&full, "1.2").1, Some(false));
        // a question in millions whose key is written out in full
        let both = number_fact("How many million bags?", json!(1_200_000));
        assert_eq!(graded(&both, "1.2 million").1, Some(true));
        assert_eq!(graded(&both, "1,200,000").1, Some(true));
        // a wrong answer is shown as read in the question's unit, never converted to
        // something else
        assert_eq!(graded(&f, "6 million").0.as_deref(), Some("6"));
        assert_eq!(graded(&f, "2,000,000").0.as_deref(), Some("2000000"));
        let thousands = number_fact("How many thousand visitors?", json!(1.2));
        assert_eq!(graded(&thousands, "300"), (Some("300".into()), Some(false)));
        assert_eq!(graded(&thousands, "1200").1, Some(true));
        // no unit in the question: a scale word is a scale
        let plain = number_fact("How many times larger is A than B?", json!(1.2));
        assert_eq!(graded(&plain, "1.2 million").1, Some(false));
        // two different scale words: no unit
        let two = number_fact("From 500 thousand to how many million?", json!(1.2));
        assert_eq!(Unit::of_question(two.question.as_deref()), Unit::NONE);
        // a key given as text in the question's unit
        let text_key = number_fact("How many million bags?", json!("1.2 million"));
        assert_eq!(fact_key(&text_key), Some(FactKey::Number(1.2)));
        assert_eq!(graded(&text_key, "1.2M").1, Some(true));
    }

    #[test]
    fn ranges_fractions_percentages_and_odd_numbers() {
        let f = number_fact("How many times larger?", json!(1.2));
        // a range is correct only when all of it is within ±10 % (1.08..1.32)
        for (answer, want) in [
            ("1.1-1.3", true),
            ("1.1–1.3", true),
            ("1.1 — 1.3", true),
            ("1.1~1.3", true),
            ("1.1 to 1.3", true),
            ("between 1.1 and 1.3", true),
            ("1.3-1.1", true),
            ("1.0-1.3", false),
            ("1.1-1.4", false),
            ("1-2", false),
            ("1.2 to be exact", true),
        ] {
            assert_eq!(graded(&f, answer).1, Some(want), "{answer:?}");
        }
        assert_eq!(graded(&f, "1.3-1.1").0.as_deref(), Some("1.1–1.3"));
        // fractions
        let half = number_fact("What share of the pie is red?", json!(0.5));
        for (answer, want) in [
            ("1/2", true),
            ("1 / 2", true),
            ("about 1/2", true),
            ("3/4", false),
            ("50%", true),
            ("50 percent", true),
            ("50 per cent", true),
            ("0.5", true),
            ("55%", true),
            ("56%", false),
        ] {
            assert_eq!(graded(&half, answer).1, Some(want), "{answer:?}");
        }
        assert_eq!(graded(&half, "1/2").0.as_deref(), Some("0.5"));
        assert_eq!(graded(&half, "50%").0.as_deref(), Some("0.5"));
        // division by zero and overflow are unparsable, hence wrong
        for answer in ["1/0", "0/0", "1e999", "NaN", "inf", ""] {
            assert_eq!(graded(&half, answer), (None, Some(false)), "{answer:?}");
        }
        // a percentage key: x% is x
        let pct = number_fact("What percentage of voters chose A?", json!(45));
        assert!(Unit::of_question(pct.question.as_deref()).percent);
        assert_eq!(graded(&pct, "45%").1, Some(true));
        assert_eq!(graded(&pct, "45").1, Some(true));
        assert_eq!(graded(&pct, "0.45").1, Some(false));
        // a wrong percentage is shown as a share when the key is one
        assert_eq!(graded(&half, "30%").0.as_deref(), Some("0.3"));
        let rate = number_fact("What was the unemployment rate in 2010?", json!(9.6));
        assert_eq!(graded(&rate, "30%").0.as_deref(), Some("30"));
        assert_eq!(graded(&rate, "9.6%").1, Some(true));
        assert_eq!(graded(&rate, "96%").1, Some(false));
        // negative keys and answers
        let neg = number_fact("By how many degrees did it cool?", json!(-10));
        for (answer, want) in [
            ("-10", true),
            ("−10", true),
            ("about -9.5 degrees", true),
            ("-11 to -9", true),
            ("-11--9", true),
            ("−11 – −9", true),
            ("-12 to -9", false),
            ("-1/0", false),
            ("10", false),
            ("-10%", true),
        ] {
            assert_eq!(graded(&neg, answer).1, Some(want), "{answer:?}");
        }
        assert_eq!(graded(&neg, "-11 to -9").0.as_deref(), Some("-11–-9"));
        // zero: only 0 itself
        let zero = number_fact("How many were left?", json!(0));
        for (answer, want) in [
            ("0", true),
            ("-0", true),
            ("0.0", true),
            ("0%", true),
            ("0 million", true),
            ("0-0.1", false),
            ("0.001", false),
            ("1/2", false),
        ] {
            assert_eq!(graded(&zero, answer).1, Some(want), "{answer:?}");
        }
        // not read: number words, mixed numbers, inequalities
        let one_half = number_fact("How many times larger?", json!(1.5));
        assert_eq!(graded(&one_half, "one and a half"), (None, Some(false)));
        assert_eq!(graded(&one_half, "1 1/2").0.as_deref(), Some("1"));
        assert_eq!(graded(&one_half, "more than 1.5").1, Some(true));
        // exponents, stray signs and separators
        let k = number_fact("How many?", json!(1000));
        for (answer, want) in [
            ("1e3", true),
            ("1E3", true),
            ("1,000", true),
            ("1k", true),
            ("1.0e+3", true),
            ("10e2", true),
            ("1em", false),
            ("1,0000", false),
            ("--1000", false),
            ("1000-", true),
        ] {
            assert_eq!(graded(&k, answer).1, Some(want), "{answer:?}");
        }
    }

    /// Human answers are read like the model's, in the question's unit (JSON numbers too).
    #[test]
    fn hmi_reads_human_texts_in_the_questions_unit() {
        let mut f = number_fact("How many million bags?", json!(1.2));
        f.strategies = Some(Strategies {
            misled: 6.0,
            skim: 300.0,
        });
        f.human_answers = vec![
            (json!("1.2 million"), 10),
            (json!(1.2), 5),
            (json!("1,200,000"), 1),
            (json!(1_200_000), 1),
            (json!("6 million"), 3),
            (json!("1-2"), 2),
            (json!("2-3"), 1),
        ];
        let h = hmi_from_fact(&f).unwrap();
        // 6 million and the range 2–3 (which reaches past 2.68) are not acceptable
        assert_eq!(
            (h.n_answers, h.n_not_acceptable, h.n_unparsable),
            (23, 4, 0)
        );
        // a misled answer far from the key is not converted into the interval: 300 in a
        // question in thousands stays 300 (not 0.3)
        let mut t = number_fact("How many thousand visitors?", json!(1.2));
        t.strategies = f.strategies;
        t.human_answers = vec![(json!(1.2), 3), (json!(300), 1), (json!("300"), 1)];
        assert_eq!(hmi_from_fact(&t).unwrap().n_not_acceptable, 2);
    }

    #[test]
    fn mind_error() {
        assert!((squared_error(0.5, 0.18) - 0.1024).abs() < 1e-12);
        assert_eq!(mse([0.04, 0.16]), Some(0.1));
        assert_eq!(mse(std::iter::empty()), None);
    }

    /// The paper's Table 2, pair G7_Q1: key 1.2, strategies misled 6 and skim 300.
    #[test]
    fn hmi_g7_q1_from_the_paper() {
        let (lo, hi) = acceptable_interval(1.2, &[6.0, 300.0]);
        assert_eq!(lo, None);
        let u = hi.unwrap();
        assert!((u - 7.2f64.sqrt()).abs() < 1e-12);
        assert_eq!(format!("{u:.3}"), "2.683");

        // 2.68 itself is still inside (U = 2.6833); 2.69 is not
        assert!(in_interval(2.68, (lo, hi)));
        assert!(!in_interval(2.69, (lo, hi)));

        // original chart: 68 answers, 12 of them above U
        let original = vec![
            (json!(1.2), 40),
            (json!(1), 6),
            (json!("1.5"), 5),
            (json!(2), 5),
            (json!(2.69), 2),
            (json!(3), 4),
            (json!(6), 5),
            (json!(300), 1),
        ];
        let h = hmi_number(1.2, &[6.0, 300.0], &original, Unit::NONE).unwrap();
        assert_eq!(h.n_answers, 68);
        assert_eq!(h.n_not_acceptable, 12);
        assert!((h.hmi - 12.0 / 68.0).abs() < 1e-12);
        assert_eq!(format!("{:.2}", h.hmi), "0.18");

        // manipulated chart: 68 answers, 20 not acceptable
        let manipulated = vec![
            (json!(1.2), 30),
            (json!(0.5), 8),
            (json!(2.5), 10),
            (json!(2.7), 3),
            (json!(5), 7),
            (json!(6), 8),
            (json!(50), 2),
        ];
        let h = hmi_number(1.2, &[6.0, 300.0], &manipulated, Unit::NONE).unwrap();
        assert_eq!((h.n_answers, h.n_not_acceptable), (68, 20));
        assert_eq!(format!("{:.2}", h.hmi), "0.29");
        assert_eq!(h.interval, (None, Some(u)));
    }

    #[test]
    fn interval_edges() {
        // strategies on both sides
        let (lo, hi) = acceptable_interval(10.0, &[2.5, 40.0]);
        assert!((lo.unwrap() - 5.0).abs() < 1e-12);
        assert!((hi.unwrap() - 20.0).abs() < 1e-12);
        // the closest above is chosen
        assert_eq!(acceptable_interval(10.0, &[1000.0, 40.0]).1, Some(20.0));
        // a strategy equal to the key bounds nothing
        assert_eq!(acceptable_interval(10.0, &[10.0]), (None, None));
        // negative key and strategy: sign kept
        let (lo, hi) = acceptable_interval(-4.0, &[-1.0, -16.0]);
        assert_eq!((lo, hi), (Some(-8.0), Some(-2.0)));
        // signs differ: arithmetic mean
        assert_eq!(acceptable_interval(2.0, &[-4.0]).0, Some(-1.0));
        // bounds are exclusive
        assert!(!in_interval(20.0, (Some(5.0), Some(20.0))));
        assert!(in_interval(19.99, (Some(5.0), Some(20.0))));
        assert!(!in_interval(5.0, (Some(5.0), Some(20.0))));
    }

    /// What √(c·x) means away from two positive numbers (docs/stats.md): the same-sign
    /// geometric mean keeps the sign; across zero (different signs, or a 0) the bound is
    /// the arithmetic mean. The bound always lies strictly between c and x.
    #[test]
    fn interval_for_negative_zero_and_mixed_signs() {
        // negative key, negative strategies: the mirror image of key 10 with 2.5 and 40
        assert_eq!(
            acceptable_interval(-10.0, &[-40.0, -2.5]),
            (Some(-20.0), Some(-5.0))
        );
        // key 0: arithmetic means
        assert_eq!(
            acceptable_interval(0.0, &[5.0, -3.0]),
            (Some(-1.5), Some(2.5))
        );
        assert_eq!(acceptable_interval(0.0, &[5.0, 300.0]), (None, Some(2.5)));
        // a strategy answer of 0
        assert_eq!(acceptable_interval(4.0, &[0.0]), (Some(2.0), None));
        assert_eq!(acceptable_interval(-4.0, &[0.0]), (None, Some(-2.0)));
        // mixed signs
        assert_eq!(
            acceptable_interval(2.0, &[-4.0, 8.0]),
            (Some(-1.0), Some(4.0))
        );
        assert_eq!(
            acceptable_interval(-2.0, &[4.0, -8.0]),
            (Some(-4.0), Some(1.0))
        );
        // strategies that are not numbers bound nothing
        assert_eq!(
            acceptable_interval(1.2, &[f64::NAN, f64::INFINITY]),
            (None, None)
        );
        // the key always lies inside
        for c in [-10.0, -1.2, 0.0, 1.2, 10.0] {
            for x in [-300.0, -6.0, -1.0, 0.0, 0.5, 6.0, 300.0] {
                let iv = acceptable_interval(c, &[x]);
                assert!(in_interval(c, iv), "c {c} x {x}: {iv:?}");
                if x != c {
                    assert!(!in_interval(x, iv), "c {c} x {x}: {iv:?}");
                }
            }
        }
        // HMI with negative answers: −30 and −3 lie outside (−20, −5)
        let h = hmi_number(
            -10.0,
            &[-40.0, -2.5],
            &[(json!(-10), 3), (json!(-30), 1), (json!("-3"), 1)],
            Unit::NONE,
        )
        .unwrap();
        assert_eq!((h.n_answers, h.n_not_acceptable), (5, 2));
        assert_eq!(h.interval, (Some(-20.0), Some(-5.0)));
        let h = hmi_number(
            0.0,
            &[5.0, -3.0],
            &[(json!(0), 2), (json!(3), 1), (json!(-2), 1)],
            Unit::NONE,
        )
        .unwrap();
        assert_eq!(h.hmi, 0.5);
    }

    #[test]
    fn hmi_unparsable_answers_are_not_acceptable() {
        let h = hmi_number(
            10.0,
            &[40.0],
            &[(json!(10), 3), (json!("dunno"), 1)],
            Unit::NONE,
        )
        .unwrap();
        assert_eq!((h.n_not_acceptable, h.n_unparsable), (1, 1));
        assert_eq!(h.hmi, 0.25);
        assert_eq!(hmi_number(10.0, &[40.0], &[], Unit::NONE), None);
    }

    #[test]
    fn hmi_choice_and_rank() {
        let mut f = fact(FactFormat::Choice, json!(2), &["a", "b", "c"]);
        f.human_answers = vec![(json!(2), 6), (json!(1), 3), (json!("B"), 1)];
        let h = hmi_from_fact(&f).unwrap();
        assert_eq!((h.n_answers, h.n_not_acceptable), (10, 3));
        assert_eq!(h.interval, (None, None));
        let mut r = fact(FactFormat::Rank, json!([3, 1, 2]), &["a", "b", "c"]);
        r.human_answers = vec![(json!([3, 1, 2]), 3), (json!("1,3,2"), 1)];
        assert_eq!(hmi_from_fact(&r).unwrap().hmi, 0.25);
        // number question without strategies: not recomputable
        let mut n = fact(FactFormat::Number, json!(5), &[]);
        n.human_answers = vec![(json!(5), 1)];
        assert_eq!(hmi_from_fact(&n), None);
        n.strategies = Some(Strategies {
            misled: 50.0,
            skim: 500.0,
        });
        assert_eq!(hmi_from_fact(&n).unwrap().hmi, 0.0);
    }

    fn with_answers(mut f: Fact, answers: Value) -> Item {
        f.human_answers = serde_json::from_value(answers).unwrap();
        Item {
            fact: Some(f),
            ..Item::default()
        }
    }

    #[test]
    fn suspect_keys() {
        let choice = fact(FactFormat::Choice, json!(2), &["a", "b", "c"]);
        // the key is the most common answer, or tied with it: not suspect
        assert_eq!(
            suspect_key(&with_answers(choice.clone(), json!([[2, 5], [3, 5]]))),
            None
        );
        assert_eq!(suspect_key(&with_answers(choice.clone(), json!([]))), None);
        // another answer is more common ("C" and 3 are one answer); 0 is no option
        let s = suspect_key(&with_answers(
            choice.clone(),
            json!([[2, 5], [3, 4], ["C", 2], [0, 9], ["dunno", 9]]),
        ))
        .unwrap();
        assert_eq!(s.reason, SuspicionReason::ModalAnswerDiffers);
        assert_eq!((s.n_answers, s.n_agree, s.modal_count), (11, 5, 6));
        assert_eq!(s.modal_answer.as_deref(), Some("3 (c)"));
        assert_eq!(s.key, "2 (b)");
        // rank: the key reversed
        let rank = fact(FactFormat::Rank, json!([1, 3, 2]), &["x", "y", "z"]);
        let s = suspect_key(&with_answers(rank, json!([[[2, 3, 1], 6], ["1,3,2", 4]]))).unwrap();
        assert!(s.reversed);
        assert_eq!(s.key, "1 > 3 > 2");
        // numbers: the key's bucket (±10 %) against the densest other bucket
        let num = |key: Value| number_fact("How many?", key);
        let item = with_answers(
            num(json!(100)),
            json!([[100, 5], [95, 2], [300, 3], [310, 3], [290, 2]]),
        );
        let s = suspect_key(&item).unwrap();
        assert_eq!((s.n_agree, s.modal_count), (7, 8));
        assert_eq!(s.modal_answer.as_deref(), Some("300"));
        // the key holds its bucket: not suspect
        let item = with_answers(
            num(json!(100)),
            json!([[100, 9], [300, 3], [310, 3], [290, 2]]),
        );
        assert_eq!(suspect_key(&item), None);
        // scattered answers, few near the key: few agree (2 of 10 < 25 %)
        let item = with_answers(
            num(json!(100)),
            json!([
                [100, 2],
                [10, 1],
                [20, 1],
                [40, 1],
                [200, 1],
                [400, 1],
                [800, 1],
                [1600, 1],
                [3200, 1]
            ]),
        );
        let s = suspect_key(&item).unwrap();
        assert_eq!(s.reason, SuspicionReason::FewAgree);
        assert_eq!(s.share_agree, 0.2);
        // negative and zero keys, texts in the question's unit, ranges
        let item = with_answers(num(json!(-10)), json!([[-10, 3], ["-9.5", 1], [10, 5]]));
        assert_eq!(
            suspect_key(&item).unwrap().modal_answer.as_deref(),
            Some("10")
        );
        let item = with_answers(num(json!(0)), json!([[0, 3], [0.001, 2], [1, 1]]));
        assert_eq!(suspect_key(&item), None);
        let mut millions = number_fact("How many million bags?", json!(1.2));
        millions.human_answers = serde_json::from_value(json!([
            ["1.2 million", 4],
            ["1,200,000", 3],
            ["1.1-1.3", 1],
            [6, 5]
        ]))
        .unwrap();
        let item = Item {
            fact: Some(millions),
            ..Item::default()
        };
        assert_eq!(suspect_key(&item), None);
        // no key: nothing to suspect
        let mut nokey = num(json!(null));
        nokey.key = None;
        assert_eq!(suspect_key(&with_answers(nokey, json!([[1, 5]]))), None);
    }

    #[test]
    fn effective_grade_with_override() {
        let it = Item::parse(
            r#"{"id":"c","benchmark":"chartom","chart":{"pair":"P","version":"original","type":"bar"},
               "fact":{"format":"number","key":100,"human_answers":[[100,3],[500,1]],"strategies":{"misled":400,"skim":900}},
               "responses":[{"model":"a","fact":"about 105","mind":0.5},{"model":"b","fact":"150","mind":0.25}],
               "reviews":{"r1":{"at":"2026-01-01T00:00:00Z","models":{"b":{"fact_correct":true,"justification":"partial"}}}}}"#,
        )
        .unwrap();
        let a = effective(&it, "a");
        assert_eq!(a.fact.correct, Some(true));
        assert_eq!(a.fact_correct, Some(true));
        assert!(!a.overridden);
        // no mind.hmi: recomputed, interval (−∞, 200): 1 of 4 out
        assert_eq!(a.hmi, Some(0.25));
        assert_eq!(a.squared_error, Some(0.0625));
        let b = effective(&it, "b");
        assert_eq!(b.fact.correct, Some(false));
        assert_eq!(b.fact_correct, Some(true));
        assert!(b.overridden);
        assert_eq!(b.justification, Some(JustificationGrade::Partial));
        assert_eq!(b.squared_error, Some(0.0));
        let none = effective(&it, "zzz");
        assert_eq!(none.fact.correct, Some(false));
        assert_eq!(none.mind, None);
    }
}
