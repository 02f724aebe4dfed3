//! Reading choice and number answers without copies (issue 21: the index reads every
//! one) against the code as it was, kept here as the reference, on generated answers.

use super::*;

/// The functions as they were before they stopped allocating.
mod before {
    use super::super::choice::{core, label, normalize, option_in_text};
    use super::super::number::{mantissa_at, scale_suffix, sign_before, skip_scale};
    use super::{NumberValue, Written};

    pub fn parse_choice(raw: &str, options: &[String]) -> Option<u32> {
        let norm = normalize(raw);
        if norm.is_empty() {
            return None;
        }
        let opts: Vec<String> = options.iter().map(|o| normalize(o)).collect();
        if let Some(i) = opts.iter().position(|o| !o.is_empty() && *o == norm) {
            return Some(i as u32 + 1);
        }
        let c = core(raw);
        let inner = c.trim_matches(|ch: char| matches!(ch, '(' | ')' | '[' | ']' | '{' | '}'));
        if let Some(v) = label(inner.trim(), options.len()) {
            return Some(v);
        }
        let lead = c.trim_start_matches(['(', '[']);
        let tok: String = lead.chars().take_while(|ch| ch.is_alphanumeric()).collect();
        let after = lead[tok.len()..].chars().next();
        if (matches!(after, Some('.' | ')' | ':' | ']' | ','))
            || (c.starts_with('(') && after.is_some()))
            && let Some(v) = label(&tok, options.len())
        {
            return Some(v);
        }
        if let Some(i) = option_in_text(&norm, &opts) {
            return Some(i as u32 + 1);
        }
        let mut nums = norm
            .split(' ')
            .filter(|t| t.bytes().all(|b| b.is_ascii_digit()))
            .filter_map(|t| label(t, options.len()));
        match (nums.next(), nums.next()) {
            (Some(v), None) => Some(v),
            _ => None,
        }
    }

    pub fn number_at(text: &str, i: usize) -> Option<(f64, i32, bool, usize)> {
        let b = text.as_bytes();
        let n = b.len();
        let (mantissa, mut j) = mantissa_at(text, i)?;
        let negative = sign_before(text, i);
        let mut value: f64 = mantissa.parse().ok()?;
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
                && (b[d].is_ascii_digit()
                    || (b[d] == b'.' && d + 1 < n && b[d + 1].is_ascii_digit()))
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

    pub fn read_number(text: &str) -> Option<Written> {
        let start = super::super::number::number_start(text)?;
        let (a, sa, pa, end) = number_at(text, start)?;
        let between = text[..start]
            .trim_end()
            .to_ascii_lowercase()
            .ends_with("between");
        if let Some((b, sb, pb)) = range_end(text, end, between) {
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
}

/// A small seeded generator (`split`'s splitmix64).
fn rng(seed: u64) -> impl FnMut() -> usize {
    let mut g = crate::team::split::SplitMix64::new(seed);
    move || g.next_u64() as usize
}

const PIECES: &[&str] = &[
    "1",
    "2",
    "3",
    "4",
    "12",
    "007",
    "1.5",
    ".5",
    "1,200",
    "1,2",
    "1e3",
    "2E-2",
    "1/2",
    " / ",
    "-",
    "−",
    "–",
    "—",
    "~",
    " to ",
    " TO ",
    "To ",
    "between ",
    "BETWEEN ",
    "Between",
    " and ",
    " AND ",
    "%",
    " %",
    " percent",
    " PERCENT",
    " per cent",
    " Per Cent",
    " pct",
    "PCT",
    "percentage",
    " million",
    "M",
    "k",
    "bn",
    " thousand",
    "B",
    "b",
    "A",
    "a",
    "C",
    "c",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ".",
    ":",
    ",",
    " ",
    "  ",
    "\u{a0}",
    "\n",
    "\t",
    "Option",
    "option ",
    "Answer:",
    "The answer is ",
    "answer is",
    "Ranking",
    "choice",
    "North 2010",
    "north",
    "South 2013",
    "SOUTH 2013",
    "East",
    "West 2019",
    "Apples",
    "apples",
    "Asia",
    "South Asia",
    "é",
    "É",
    "İ",
    "Σ",
    "ß",
    "ǅ",
    "\u{212A}",
    "中",
    "٣",
    "²",
    "Ⅻ",
    "’",
    "'",
    "\"",
    "*",
    "`",
    "=",
    "then",
    "and",
    "or",
    "I think it is ",
    "",
];

const OPTIONS: &[&[&str]] = &[
    &[],
    &["North 2010", "South 2013", "East 2016", "West 2019"],
    &["Apples", "Pears"],
    &["Asia", "South Asia", "Europe"],
    &["", "É", "1", "b"],
    &["İstanbul", "ΣΑΣ", "ß"],
];

fn answer(next: &mut impl FnMut() -> usize) -> String {
    let n = next() % 7;
    (0..n).map(|_| PIECES[next() % PIECES.len()]).collect()
}

#[test]
fn choice_answers_read_as_before() {
    let mut next = rng(11);
    let options: Vec<Vec<String>> = OPTIONS
        .iter()
        .map(|o| o.iter().map(|s| s.to_string()).collect())
        .collect();
    let mut read = 0;
    for _ in 0..40_000 {
        let raw = answer(&mut next);
        for opts in &options {
            let got = parse_choice(&raw, opts);
            assert_eq!(got, before::parse_choice(&raw, opts), "{raw:?} {opts:?}");
            read += got.is_some() as usize;
        }
    }
    assert!(read > 20_000, "{read}");
}

/// Pieces of numbers, ranges and their words, for answers where they meet often.
const NUMBERS: &[&str] = &[
    "1", "12", "1.5", ".5", "1,200", "1e3", "1/2", "-", "−", "–", "—", "~", " to ", "-3",
    "between ", " and ", "%", " percent", " million", "k", " ",
];

#[test]
fn number_answers_read_as_before() {
    let mut next = rng(12);
    let (mut ranges, mut percents) = (0, 0);
    for _ in 0..60_000 {
        let n = next() % 7;
        let raw: String = (0..n)
            .map(|_| match next() % 3 {
                0 => PIECES[next() % PIECES.len()],
                _ => NUMBERS[next() % NUMBERS.len()],
            })
            .collect();
        let got = read_number(&raw);
        assert_eq!(got, before::read_number(&raw), "{raw:?}");
        if let Some(i) = number_start(&raw) {
            assert_eq!(number_at(&raw, i), before::number_at(&raw, i), "{raw:?}");
        }
        ranges += matches!(
            got,
            Some(Written {
                value: NumberValue::Range(..),
                ..
            })
        ) as usize;
        percents += got.is_some_and(|w| w.percent) as usize;
    }
    assert!(ranges > 500 && percents > 500, "{ranges} {percents}");
}

/// The normalized text, one character at a time, is the normalized `String`.
#[test]
fn normalized_is_normalize() {
    let mut next = rng(13);
    for _ in 0..40_000 {
        let raw = answer(&mut next);
        assert_eq!(
            choice::normalized(&raw).collect::<String>(),
            choice::normalize(&raw),
            "{raw:?}"
        );
    }
}
