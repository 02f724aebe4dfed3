//! The extraction rules read on bytes, on the text as it is (not lowered), in one walk,
//! against the reference (the rules as they were, `reference.rs`), on generated
//! responses: characters of every kind one by one, and words of every kind.

use super::*;

/// A small seeded generator (`split`'s splitmix64).
fn rng(seed: u64) -> impl FnMut() -> usize {
    let mut g = crate::team::split::SplitMix64::new(seed);
    move || g.next_u64() as usize
}

/// Characters lowering changes in every way (to ASCII: the Kelvin sign; to two
/// characters, the second not a word character: `İ`; by context: `Σ`; titlecase `ǅ`),
/// characters it leaves (lower-case, no case, digits of other scripts, marks), separators
/// of every kind, and the ASCII the rules look for.
const CHARS: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'f', 'i', 'n', 'o', 's', 't', 'w', 'y', 'A', 'B', 'C', 'D', 'E', 'F',
    'I', 'N', 'O', 'S', 'T', 'W', 'Y', '0', '1', '2', '3', '7', '_', ',', '.', ':', ';', '(', ')',
    '[', ']', '!', '?', '-', '\'', '"', ' ', ' ', ' ', '\n', '\t', '\r', '\u{a0}', '\u{3000}',
    '\u{2003}', '—', '’', '…', 'é', 'É', 'ß', 'ẞ', 'ô', 'Ô', 'İ', 'ı', '\u{212A}', '\u{212B}', 'Σ',
    'σ', 'ς', 'ǅ', 'ǆ', 'Ǆ', 'ﬀ', 'Ⓐ', 'ⓐ', 'Ⅻ', 'ⅻ', '٣', '½', '²', '\u{307}', '\u{301}', 'Ａ',
    'ａ', '中', '🙂', 'Ω', 'ω', 'К', 'к',
];

const WORDS: &[&str] = &[
    "if",
    "If",
    "IF",
    "İf",
    "İF",
    "ıf",
    "no",
    "No",
    "NO",
    "nO",
    "Nо",
    "not",
    "NOT",
    "false",
    "FALSE",
    "yes",
    "YES",
    "Yes",
    "true",
    "True",
    "be",
    "BE",
    "is",
    "IS",
    "İs",
    "are",
    "ARE",
    "zero",
    "ZERO",
    "none",
    "NONE",
    "NoNe",
    "one",
    "ONE",
    "One",
    "two",
    "TWO",
    "three",
    "Three",
    "four",
    "five",
    "FIVE",
    "six",
    "seven",
    "SEVEN",
    "eight",
    "nine",
    "ten",
    "TEN",
    "Ten",
    "eleven",
    "twelve",
    "0",
    "00",
    "007",
    "1",
    "2",
    "3",
    "10",
    "12",
    "13",
    "16",
    "17",
    "100",
    "3.5",
    "1,200",
    "2x",
    "3rd",
    "٣",
    "²",
    "Ⅻ",
    "answer",
    "Answer",
    "ANSWER",
    "ANSWE\u{212A}",
    "AN\u{212A}WER",
    "option",
    "Option",
    "OPTION",
    "choice",
    "Choice",
    "the",
    "The",
    "would",
    "correct",
    "should",
    "will",
    "A",
    "a",
    "B",
    "b",
    "C",
    "c",
    "D",
    "d",
    "E",
    "e",
    "Z",
    "(A)",
    "(B)",
    "[C]",
    "C:",
    "d.",
    "A)",
    "B,",
    "Σ",
    "ΣΑΣ",
    "ΑΣ",
    "ǅ",
    "É",
    "é",
    "Ünïcode",
    "ＡＢ",
    "Ａ",
    "ﬀ",
    "a_b",
    "_",
    "__",
    "cliff",
    "Cliff",
    "ifs",
    "none_",
    "_no",
    "no_",
    "",
];

const SEPARATORS: &[&str] = &[
    " ", "", ", ", ",", " (", ": ", ". ", "\n", "\t", "  ", "\u{a0}", "\u{3000}", "—", "’", "_",
    ",,", " , ", "-", "İ", "Σ", "é", "\u{212A}", "\u{307}",
];

const QUESTIONS: &[&str] = &[
    "How many cats are there?",
    "How many cats? Select the correct answer:A:16  B:17  C:12 D:13",
    "Count them. select the CORRECT answer: A:1 B:2 C:3",
    "Select the correct answer:A:one B:two",
    "Which? Select the correct answer: B:1 C:2",
    "Select the correct answer:A:0 B:7 C:10 D:3 E:2",
    "Select the correct answer:A:12 B:12",
    "",
];

fn check(r: &str) {
    assert_eq!(extract_number(r), reference::extract_number(r), "{r:?}");
    assert_eq!(extract_boolean(r), reference::extract_boolean(r), "{r:?}");
    for q in QUESTIONS {
        assert_eq!(
            extract_choice(r, q),
            reference::extract_choice(r, q),
            "{r:?} to {q:?}"
        );
    }
}

/// Does the walk on the text as it is stop at a character lowering changes?
fn walk_changes(r: &str) -> bool {
    let mut t = Tokens::unlowered(r, true);
    t.by_ref().for_each(drop);
    t.changed
}

#[test]
fn responses_of_any_characters_read_as_the_reference_reads_them() {
    let mut next = rng(21);
    let (mut changed, mut answered) = (0, 0);
    for _ in 0..30_000 {
        let n = next() % 24;
        let r: String = (0..n).map(|_| CHARS[next() % CHARS.len()]).collect();
        check(&r);
        changed += walk_changes(&r) as usize;
        answered += extract_number(&r).is_some() as usize;
    }
    // both walks, and answers, are exercised
    assert!(changed > 3_000 && changed < 27_000, "{changed}");
    assert!(answered > 1_000, "{answered}");
}

#[test]
fn responses_of_any_words_read_as_the_reference_reads_them() {
    let mut next = rng(2026);
    let (mut changed, mut booleans, mut choices) = (0, 0, 0);
    for _ in 0..30_000 {
        let n = next() % 12;
        let mut r = String::new();
        for k in 0..n {
            if k > 0 {
                r.push_str(SEPARATORS[next() % SEPARATORS.len()]);
            }
            r.push_str(WORDS[next() % WORDS.len()]);
        }
        check(&r);
        changed += walk_changes(&r) as usize;
        booleans += extract_boolean(&r).is_some() as usize;
        choices += extract_choice(&r, QUESTIONS[1]).is_some() as usize;
    }
    assert!(changed > 3_000 && changed < 27_000, "{changed}");
    assert!(booleans > 3_000 && choices > 3_000, "{booleans} {choices}");
}

/// Long responses (a model's paragraphs), where the rules walk far.
#[test]
fn long_responses_read_as_the_reference_reads_them() {
    let mut next = rng(7);
    for _ in 0..2_000 {
        let n = 50 + next() % 300;
        let mut r = String::new();
        for _ in 0..n {
            let w = WORDS[next() % WORDS.len()];
            // mostly ordinary words, so that the decisive ones come late
            if next().is_multiple_of(8) {
                r.push_str(w);
            } else {
                r.push_str(["readers", "chart", "rôle", "axis", "Bars", "x-axis"][next() % 6]);
            }
            r.push_str(SEPARATORS[next() % SEPARATORS.len()]);
        }
        check(&r);
    }
}

/// The walk on the text as it is gives the lowered text's tokens, at the same places
/// and ASCII case aside, up to where it stops.
#[test]
fn the_unlowered_walk_gives_the_lowered_tokens() {
    let mut next = rng(99);
    let mut compared = 0;
    for _ in 0..30_000 {
        let n = next() % 24;
        let r: String = (0..n).map(|_| CHARS[next() % CHARS.len()]).collect();
        let lower = r.to_lowercase();
        for commas in [false, true] {
            let mut fast = Tokens::unlowered(&r, commas);
            let got: Vec<(usize, &str)> = fast.by_ref().collect();
            let want: Vec<(usize, &str)> = Tokens::lowered(&lower, commas).collect();
            if fast.changed {
                assert!(got.len() <= want.len(), "{r:?}");
            } else {
                assert_eq!(got.len(), want.len(), "{r:?}");
            }
            for (g, w) in got.iter().zip(&want) {
                assert!(g.0 == w.0 && g.1.eq_ignore_ascii_case(w.1), "{r:?}");
                compared += 1;
            }
        }
    }
    assert!(compared > 50_000, "{compared}");
}

/// The byte walk finds the runs the character walk finds.
#[test]
fn the_byte_walk_finds_the_character_walk_runs() {
    fn runs(text: &str, word: impl Fn(char) -> bool, commas: bool) -> Vec<(usize, &str)> {
        let mut out = Vec::new();
        let mut start = None;
        for (i, c) in text.char_indices() {
            if word(c) {
                start.get_or_insert(i);
                continue;
            }
            if let Some(s) = start.take() {
                out.push((s, &text[s..i]));
            }
            if commas && c == ',' {
                out.push((i, ""));
            }
        }
        if let Some(s) = start {
            out.push((s, &text[s..]));
        }
        out
    }
    let mut next = rng(5);
    for _ in 0..30_000 {
        let n = next() % 24;
        let r: String = (0..n).map(|_| CHARS[next() % CHARS.len()]).collect();
        let w = |c: char| c.is_alphanumeric() || c == '_';
        for commas in [false, true] {
            let got: Vec<_> = Tokens::lowered(&r, commas).collect();
            assert_eq!(got, runs(&r, w, commas), "{r:?}");
        }
        let got: Vec<_> = Tokens::alphanumeric(&r).collect();
        assert_eq!(got, runs(&r, char::is_alphanumeric, false), "{r:?}");
    }
}

/// `correct` (no answer kept) is `grade`'s `correct`, for every kind, on keys with and
/// without white space around them, keys no rule gives, and missing responses.
#[test]
fn correct_is_what_the_grade_says() {
    const KEYS: &[&str] = &[
        "0", "1", "2", "3", "7", "10", "12", " 2 ", "2\n", "02", "yes", "no", " yes", "Yes", "A",
        "B", "C", "D", "E", " C ", "c", "", "fail", "two",
    ];
    let mut next = rng(314);
    let (mut right, mut wrong) = (0, 0);
    for _ in 0..20_000 {
        let n = next() % 8;
        let mut r = String::new();
        for k in 0..n {
            if k > 0 {
                r.push_str(SEPARATORS[next() % SEPARATORS.len()]);
            }
            r.push_str(WORDS[next() % WORDS.len()]);
        }
        let response = (!next().is_multiple_of(10)).then_some(r.as_str());
        let key = KEYS[next() % KEYS.len()];
        let question = QUESTIONS[next() % QUESTIONS.len()];
        for kind in [CvqaKind::Number, CvqaKind::Boolean, CvqaKind::Choice] {
            let want = grade(kind, response, question, key).correct;
            assert_eq!(
                correct(kind, response, question, key),
                want,
                "{kind:?} {response:?} {question:?} {key:?}"
            );
            if want {
                right += 1;
            } else {
                wrong += 1;
            }
        }
    }
    assert!(right > 300 && wrong > 1_000, "{right} {wrong}");
}

/// [`number_could_be`] says no only where the number rule cannot give the number: on
/// responses of any words and of any characters, against every number the rule gives and
/// texts it never gives (leading zeros, blanks, words).
#[test]
fn a_number_the_rule_cannot_give_is_known_without_the_walk() {
    const NUMBERS: &[&str] = &[
        "0", "1", "2", "7", "10", "11", "12", "13", "16", "100", "007", "00", "02", "", " 2",
        "two", "2x", "٣", "1,200",
    ];
    let mut next = rng(4242);
    let (mut skipped, mut given) = (0, 0);
    for k in 0..40_000 {
        let mut r = String::new();
        if k % 2 == 0 {
            for j in 0..next() % 10 {
                if j > 0 {
                    r.push_str(SEPARATORS[next() % SEPARATORS.len()]);
                }
                r.push_str(WORDS[next() % WORDS.len()]);
            }
        } else {
            r = (0..next() % 24)
                .map(|_| CHARS[next() % CHARS.len()])
                .collect();
        }
        let got = reference::extract_number(&r);
        for n in NUMBERS {
            if got.as_deref() == Some(*n) {
                given += 1;
                assert!(number_could_be(&r, n), "{r:?} gives {n:?}");
            } else if !number_could_be(&r, n) {
                skipped += 1;
            }
        }
    }
    // both sides are exercised: numbers given, and walks left out
    assert!(given > 3_000 && skipped > 100_000, "{given} {skipped}");
}
