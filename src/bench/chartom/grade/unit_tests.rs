//! The question's unit read on bytes and on characters.

use super::*;

/// The unit read from a question's bytes (ASCII) or characters is the one the character
/// walk reads, on questions with every kind of unit word, split by every kind of
/// separator, in both cases, beside non-ASCII letters and digits.
#[test]
fn the_unit_read_on_bytes_is_the_unit_read_on_characters() {
    let words = [
        "per",
        "cent",
        "percent",
        "Percentage",
        "PERCENTAGES",
        "thousand",
        "Thousands",
        "million",
        "MILLIONS",
        "billion",
        "billions",
        "trillion",
        "Trillions",
        "k",
        "M",
        "percents",
        "cents",
        "per-cent",
        "millionth",
        "milliona",
        "é",
        "millionsé",
        "ßillion",
        "perécent",
        "١٢",
        "how",
        "many",
        "in",
        "the",
        "of",
        "2020",
        "x1",
        "%",
        "",
    ];
    let seps = [" ", "-", ", ", "\n", "é", "’", "_", "__", "/", "\u{a0}"];
    let mut texts: Vec<String> = Vec::new();
    // every pair and triple of words, with each separator
    for a in words {
        for b in words {
            for sep in seps {
                texts.push(format!("{a}{sep}{b}"));
                texts.push(format!("How many {a}{sep}{b} in 2020{sep}per cent?"));
            }
        }
    }
    for (i, a) in words.iter().enumerate() {
        for (j, b) in words.iter().enumerate() {
            let c = words[(i * 7 + j * 3) % words.len()];
            texts.push(format!("{a} {b} {c}"));
            texts.push(format!("{a}é{b}.{c}"));
        }
    }
    let mut read = 0;
    for t in &texts {
        let q = Some(t.as_str());
        assert_eq!(Unit::of_question(q), Unit::of_question_by_chars(q), "{t:?}");
        read += 1;
    }
    assert!(read > 10_000);
    // the rule itself, both ways
    for (t, scale, percent) in [
        ("How many millions of dollars?", 6, false),
        ("In thousands, or millions?", 0, false),
        ("What per cent grew?", 0, true),
        ("what perécent", 0, false),
        ("millionsé of people", 0, false),
    ] {
        let u = Unit::of_question(Some(t));
        assert_eq!((u.scale, u.percent), (scale, percent), "{t}");
    }
}
