//! Questions and their options, as the CHARTOM folder writes them (C-VQA's check reads its
//! generated questions with it too).

// ---------------------------------------------------------------------------------------
// Questions and their options

/// How options are labelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelStyle {
    /// `A`, `B`, ...
    Upper,
    /// `a`, `b`, ...
    Lower,
    /// `1`, `2`, ...
    Number,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bracket {
    /// `(a)`
    Paren,
    /// `a.`
    Dot,
    /// `a)`
    Close,
    /// `a:`
    Colon,
}

/// An option label at the start of some text: style, bracket, 1-based number, and the
/// byte length of the label with its bracket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Label {
    style: LabelStyle,
    bracket: Bracket,
    pub(crate) n: usize,
    pub(crate) len: usize,
}

impl Label {
    fn same_kind(&self, o: &Label) -> bool {
        self.style == o.style && self.bracket == o.bracket
    }
}

/// The label value of `s` (one letter, or one or two digits).
pub(crate) fn label_value(s: &str) -> Option<(LabelStyle, usize)> {
    let b = s.as_bytes();
    match b {
        [c] if c.is_ascii_uppercase() => Some((LabelStyle::Upper, (c - b'A') as usize + 1)),
        [c] if c.is_ascii_lowercase() => Some((LabelStyle::Lower, (c - b'a') as usize + 1)),
        _ if !b.is_empty() && b.len() <= 2 && b.iter().all(u8::is_ascii_digit) => {
            let n: usize = s.parse().ok()?;
            (n >= 1).then_some((LabelStyle::Number, n))
        }
        _ => None,
    }
}

/// A label at the very start of `t`: `(A)`, `A.`, `A)`, `A:`. A `.` must be followed by
/// white space (so `1.5 million` is not a label).
pub(crate) fn label_at(t: &str) -> Option<Label> {
    if let Some(rest) = t.strip_prefix('(') {
        let close = rest.find(')')?;
        let (style, n) = label_value(&rest[..close])?;
        return Some(Label {
            style,
            bracket: Bracket::Paren,
            n,
            len: close + 2,
        });
    }
    let end = t
        .char_indices()
        .find(|(_, c)| !c.is_ascii_alphanumeric())
        .map(|(i, _)| i)?;
    let (style, n) = label_value(&t[..end])?;
    let after = &t[end..];
    let bracket = match after.as_bytes().first()? {
        b'.' => {
            let next = after[1..].chars().next();
            if !next.is_none_or(char::is_whitespace) {
                return None;
            }
            Bracket::Dot
        }
        b')' => Bracket::Close,
        b':' => Bracket::Colon,
        _ => return None,
    };
    Some(Label {
        style,
        bracket,
        n,
        len: end + 1,
    })
}

/// A FACT question split into its text and its options.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Question {
    /// The question without its options (text after the options is appended after a
    /// blank line).
    pub text: String,
    pub options: Vec<String>,
    /// How the options were labelled, when there are any.
    pub style: Option<LabelStyle>,
}

/// Split a question file into the question and its options.
///
/// Options are lines starting with a label: `A. x`, `A) x`, `(a) x`, `a: x`, `1. x`, with
/// consecutive labels of one kind starting at `A`/`a`/`1`. A line that is not an option,
/// between two options, continues the option before it. When several such lists occur,
/// the last one is the options (a numbered preamble is question text). Without option
/// lines, options written inline on one line (`... (A) x (B) y`, `... A: 16  B: 17`) are
/// recognised too. Fewer than two options means none.
pub fn parse_question(src: &str) -> Question {
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    let norm = src.replace("\r\n", "\n").replace('\r', "\n");
    let lines: Vec<&str> = norm.lines().map(str::trim_end).collect();
    if let Some(q) = options_by_line(&lines) {
        return q;
    }
    if let Some(q) = options_inline(&norm) {
        return q;
    }
    Question {
        text: norm.trim().to_string(),
        options: vec![],
        style: None,
    }
}

pub(crate) fn options_by_line(lines: &[&str]) -> Option<Question> {
    let labels: Vec<Option<Label>> = lines
        .iter()
        .map(|l| {
            let t = l.trim_start();
            label_at(t).filter(|lab| !t[lab.len..].trim().is_empty())
        })
        .collect();
    for start in (0..lines.len()).rev() {
        let Some(first) = labels[start].filter(|l| l.n == 1) else {
            continue;
        };
        let text_of = |i: usize, lab: &Label| lines[i].trim_start()[lab.len..].trim().to_string();
        let mut options = vec![text_of(start, &first)];
        let mut last = start;
        let mut pending: Vec<&str> = Vec::new();
        for i in start + 1..lines.len() {
            match labels[i] {
                Some(l) if l.same_kind(&first) && l.n == options.len() + 1 => {
                    let cont: Vec<&str> = pending
                        .drain(..)
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .collect();
                    if !cont.is_empty() {
                        let o = options.last_mut().expect("one option at least");
                        o.push(' ');
                        o.push_str(&cont.join(" "));
                    }
                    options.push(text_of(i, &l));
                    last = i;
                }
                _ => pending.push(lines[i]),
            }
        }
        if options.len() < 2 {
            continue;
        }
        let mut text = lines[..start].join("\n").trim().to_string();
        let trailing = lines[last + 1..].join("\n").trim().to_string();
        if !trailing.is_empty() {
            if !text.is_empty() {
                text.push_str("\n\n");
            }
            text.push_str(&trailing);
        }
        return Some(Question {
            text,
            options,
            style: Some(first.style),
        });
    }
    None
}

pub(crate) fn options_inline(text: &str) -> Option<Question> {
    // Every label preceded by the start, white space or `:` (`answer:A:16`).
    let mut found: Vec<(usize, Label)> = Vec::new();
    let mut prev: Option<char> = None;
    for (i, c) in text.char_indices() {
        if prev.is_none_or(|p| p.is_whitespace() || p == ':')
            && (c == '(' || c.is_ascii_alphanumeric())
            && let Some(l) = label_at(&text[i..])
        {
            found.push((i, l));
        }
        prev = Some(c);
    }
    // For each kind of label, the chain 1, 2, 3, ... from the last `1` that has a `2`
    // after it; the longest chain wins (ties: the later one).
    let mut best: Option<Vec<(usize, Label)>> = None;
    for (k, &(_, first)) in found.iter().enumerate().rev() {
        if first.n != 1 {
            continue;
        }
        let mut chain = vec![found[k]];
        for &(pos, l) in &found[k + 1..] {
            if l.same_kind(&first) && l.n == chain.len() + 1 {
                chain.push((pos, l));
            }
        }
        if chain.len() >= 2 && best.as_ref().is_none_or(|b| chain.len() > b.len()) {
            best = Some(chain);
        }
    }
    let chain = best?;
    let mut options = Vec::new();
    for (j, &(pos, l)) in chain.iter().enumerate() {
        let from = pos + l.len;
        let to = match chain.get(j + 1) {
            Some(&(next, _)) => next,
            None => text[from..].find('\n').map_or(text.len(), |e| from + e),
        };
        options.push(text[from..to].trim().to_string());
    }
    if options.iter().any(String::is_empty) {
        return None;
    }
    let last_end = {
        let &(pos, l) = chain.last().expect("two at least");
        let from = pos + l.len;
        text[from..].find('\n').map_or(text.len(), |e| from + e)
    };
    let mut q = text[..chain[0].0].trim().to_string();
    let trailing = text[last_end..].trim();
    if !trailing.is_empty() {
        if !q.is_empty() {
            q.push_str("\n\n");
        }
        q.push_str(trailing);
    }
    Some(Question {
        text: q,
        options,
        style: Some(chain[0].1.style),
    })
}
