//! Reading choice and rank answers: option labels, option texts, orders
//! (docs/format.md, "CHARTOM").

/// [`normalize`]'s characters, one at a time (no `String`).
pub(crate) fn normalized(s: &str) -> impl Iterator<Item = char> + '_ {
    let mut started = false;
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .flat_map(move |w| {
            let space = std::mem::replace(&mut started, true).then_some(' ');
            space
                .into_iter()
                .chain(w.chars().flat_map(char::to_lowercase))
        })
}

/// Lower case, every run of non-alphanumeric characters one space, trimmed.
pub(crate) fn normalize(s: &str) -> String {
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

pub(crate) const PREFIXES: [&str; 12] = [
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
pub(crate) fn core(raw: &str) -> &str {
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
pub(crate) fn label(tok: &str, n_options: usize) -> Option<u32> {
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
    // The normalized texts are compared character by character, and built only for the
    // last two readings: most answers are a label (the index reads every one).
    normalized(raw).next()?;
    // the option's text exactly
    if let Some(i) = options
        .iter()
        .position(|o| normalized(o).next().is_some() && normalized(o).eq(normalized(raw)))
    {
        return Some(i as u32 + 1);
    }
    let c = core(raw);
    let inner = c.trim_matches(|ch: char| matches!(ch, '(' | ')' | '[' | ']' | '{' | '}'));
    if let Some(v) = label(inner.trim(), options.len()) {
        return Some(v);
    }
    // a leading label: "2. Apples", "B) apples", "(b) apples", "C: 12"
    let lead = c.trim_start_matches(['(', '[']);
    let tok = &lead[..lead
        .find(|ch: char| !ch.is_alphanumeric())
        .unwrap_or(lead.len())];
    let after = lead[tok.len()..].chars().next();
    if (matches!(after, Some('.' | ')' | ':' | ']' | ','))
        || (c.starts_with('(') && after.is_some()))
        && let Some(v) = label(tok, options.len())
    {
        return Some(v);
    }
    let norm = normalize(raw);
    let opts: Vec<String> = options.iter().map(|o| normalize(o)).collect();
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
pub(crate) fn option_in_text(norm: &str, opts: &[String]) -> Option<usize> {
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
