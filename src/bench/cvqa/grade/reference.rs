//! The extraction rules as they were before their fast paths (ASCII lower-casing, byte
//! tokens, no allocation per token, the text not lowered, one walk for the choice rules,
//! the options read when needed): the reference the tests compare them with. It shares
//! nothing with the rules but [`options`] (tested against its own reference).

use super::options;

/// Python's `\w`: letters, digits, underscore.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn number_word(w: &str) -> Option<u32> {
    Some(match w {
        "no" | "zero" | "none" => 0,
        "one" => 1,
        "two" => 2,
        "three" => 3,
        "four" => 4,
        "five" => 5,
        "six" => 6,
        "seven" => 7,
        "eight" => 8,
        "nine" => 9,
        "ten" => 10,
        _ => return None,
    })
}

/// `get_numbers` over a token list: the first all-digit token (as `int()` prints it) or
/// number word.
fn get_numbers<'a>(words: impl IntoIterator<Item = &'a str>) -> Option<String> {
    for w in words {
        if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) {
            let t = w.trim_start_matches('0');
            return Some(if t.is_empty() { "0".into() } else { t.into() });
        }
        if let Some(n) = number_word(w) {
            return Some(n.to_string());
        }
    }
    None
}

fn tokens(text: &str, commas: bool) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        if is_word(c) {
            if start.is_none() {
                start = Some(i);
            }
            continue;
        }
        if let Some(s) = start.take() {
            out.push(&text[s..i]);
        }
        if commas && c == ',' {
            out.push("");
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

pub(super) fn extract_number(response: &str) -> Option<String> {
    let lower = response.to_lowercase();
    let words = tokens(&lower, true);
    let kept: &[&str] = if words.is_empty() {
        return None;
    } else if words[0] == "if" {
        match words.iter().position(|w| w.is_empty()) {
            Some(i) => &words[i + 1..],
            None => return None,
        }
    } else if let Some(i) = words.iter().position(|w| *w == "if") {
        &words[..i]
    } else {
        &words
    };
    get_numbers(kept.iter().copied())
}

/// `yes` or `no` as the script reads a response; `None` = `"fail"`.
pub(super) fn extract_boolean(response: &str) -> Option<&'static str> {
    let lower = response.to_lowercase();
    let words = tokens(&lower, false);
    let has = |w: &str| words.contains(&w);
    if has("no") || has("false") || has("not") {
        Some("no")
    } else if has("yes") || has("true") || has("be") || has("is") || has("are") {
        Some("yes")
    } else {
        None
    }
}

pub(super) fn extract_choice(response: &str, question: &str) -> Option<char> {
    let opts = options(question);
    let letters: Vec<char> = if opts.is_empty() {
        vec!['A', 'B', 'C', 'D']
    } else {
        opts.iter().map(|(c, _)| *c).collect()
    };
    let as_letter = |t: &str| -> Option<char> {
        let mut cs = t.chars();
        let c = cs.next()?.to_ascii_uppercase();
        (cs.next().is_none() && letters.contains(&c)).then_some(c)
    };
    let toks: Vec<(usize, &str)> = {
        let mut v = Vec::new();
        let mut start: Option<usize> = None;
        for (i, c) in response.char_indices() {
            if c.is_alphanumeric() {
                start.get_or_insert(i);
            } else if let Some(s) = start.take() {
                v.push((s, &response[s..i]));
            }
        }
        if let Some(s) = start {
            v.push((s, &response[s..]));
        }
        v
    };
    let (first_pos, first) = *toks.first()?;
    // 1
    if let Some(c) = as_letter(first) {
        let before = response[..first_pos].trim_end().chars().last();
        let after = response[first_pos + first.len()..].chars().next();
        if toks.len() == 1
            || matches!(after, None | Some(':' | '.' | ')' | ']' | ','))
            || matches!(before, Some('(' | '['))
        {
            return Some(c);
        }
    }
    // 2
    for (k, (_, t)) in toks.iter().enumerate() {
        let lt = t.to_lowercase();
        if matches!(lt.as_str(), "answer" | "option" | "choice") {
            for (_, next) in toks.iter().skip(k + 1).take(4) {
                let ln = next.to_lowercase();
                if matches!(
                    ln.as_str(),
                    "is" | "would" | "be" | "the" | "correct" | "should" | "will"
                ) {
                    continue;
                }
                if let Some(c) = as_letter(next) {
                    return Some(c);
                }
                break;
            }
        }
    }
    // 3
    let mut seen: Vec<char> = Vec::new();
    for (pos, t) in &toks {
        let mut cs = t.chars();
        let (Some(c), None) = (cs.next(), cs.next()) else {
            continue;
        };
        if !c.is_ascii_uppercase() || !letters.contains(&c) {
            continue;
        }
        if c == 'A' {
            let rest = &response[pos + 1..];
            let article =
                rest.starts_with(' ') && rest[1..].chars().next().is_some_and(char::is_lowercase);
            if article {
                continue;
            }
        }
        if !seen.contains(&c) {
            seen.push(c);
        }
    }
    if seen.len() == 1 {
        return Some(seen[0]);
    }
    if seen.len() > 1 {
        return None;
    }
    // 4
    if opts.is_empty() {
        return None;
    }
    let n = extract_number(response)?;
    let hits: Vec<char> = opts
        .iter()
        .filter(|(_, v)| v.trim() == n)
        .map(|(c, _)| *c)
        .collect();
    (hits.len() == 1).then(|| hits[0])
}
