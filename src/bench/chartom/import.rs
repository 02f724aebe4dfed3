//! CHARTOM import: the folder its authors distribute on request.
//!
//! ```text
//! DIR/FACT_questions/<chart id>.txt   the FACT question, then its options (if any)
//! DIR/FACT_answer_keys.csv            chart id, answer type, answer
//! DIR/chart_manipulations.csv         chart id, chart type, planted manipulation
//! DIR/chart_images/<chart id>.png
//! ```
//!
//! Chart ids end in `_1` (the original chart) or `_2` (the manipulated one); the rest is
//! the pair (`G7_Q1_2` → pair `G7_Q1`). One item per chart id of the answer keys.
//! Optional inputs: model answers (JSONL), human answers, strategy answers and HMI values
//! (small CSVs, described in docs/import.md).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde_json::{Map, Number, Value, json};

use crate::grade::chartom::hmi_from_fact;

use crate::import::{
    ImagePaths, ImportError, Table, TableRow, path_string, quote, read_file, strip_bom,
};

/// Import options.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Model answers: JSONL files of `{"id", "model", "fact", "mind", "justification"}`.
    pub answers: Vec<PathBuf>,
    /// Human answers: CSV `chart id, answer[, count]`.
    pub human_answers: Option<PathBuf>,
    /// Strategy answers of number questions: CSV `chart id, misled, skim` (pair or chart id).
    pub strategies: Option<PathBuf>,
    /// HMI values: CSV `chart id, hmi`; they win over HMIs computed from human answers.
    pub hmi: Option<PathBuf>,
    /// Where the result set will be written (image paths are made relative to its folder).
    pub out: PathBuf,
}

/// What an import produced.
#[derive(Debug, Clone, Default)]
pub struct Import {
    /// The items, in the order of `FACT_answer_keys.csv`.
    pub items: Vec<Value>,
    pub summary: Summary,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    pub items: usize,
    pub pairs: usize,
    /// chart type → charts.
    pub types: IndexMap<String, usize>,
    /// FACT format → charts.
    pub formats: IndexMap<String, usize>,
    /// Charts with a human answer distribution.
    pub with_human_answers: usize,
    /// Charts with an HMI (`mind.hmi`).
    pub with_hmi: usize,
    /// model → responses.
    pub models: IndexMap<String, usize>,
    pub warnings: Vec<String>,
}

/// A FACT answer format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Choice,
    Rank,
    Number,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Choice => "choice",
            Format::Rank => "rank",
            Format::Number => "number",
        }
    }

    /// The key file's `answer type`: `multiple choice`, `rank` or `free text` (a few
    /// spellings of each are accepted).
    pub fn from_answer_type(s: &str) -> Option<Format> {
        let t: String = s
            .trim()
            .to_lowercase()
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { ' ' })
            .collect();
        let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
        match t.as_str() {
            "multiple choice" | "multiplechoice" | "choice" | "mc" | "mcq" => Some(Format::Choice),
            "rank" | "ranking" | "rank order" => Some(Format::Rank),
            "free text" | "freetext" | "free response" | "number" | "numeric" | "numerical" => {
                Some(Format::Number)
            }
            _ => None,
        }
    }
}

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
enum Bracket {
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
struct Label {
    style: LabelStyle,
    bracket: Bracket,
    n: usize,
    len: usize,
}

impl Label {
    fn same_kind(&self, o: &Label) -> bool {
        self.style == o.style && self.bracket == o.bracket
    }
}

/// The label value of `s` (one letter, or one or two digits).
fn label_value(s: &str) -> Option<(LabelStyle, usize)> {
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
fn label_at(t: &str) -> Option<Label> {
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

fn options_by_line(lines: &[&str]) -> Option<Question> {
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

fn options_inline(text: &str) -> Option<Question> {
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

// ---------------------------------------------------------------------------------------
// Answer keys

/// The option a key or answer token names (1-based): a letter (`B`, `(b)`, `B.`), an
/// option number (`2`), a label with the option's text (`B. 2016`), or the option's text.
/// A number that is also another option's text is refused as ambiguous.
pub fn option_number(token: &str, q: &Question) -> Result<usize, String> {
    let n_opts = q.options.len();
    let t = token.trim();
    if t.is_empty() {
        return Err("empty answer".into());
    }
    let by_text = |s: &str| {
        q.options
            .iter()
            .position(|o| o.trim().eq_ignore_ascii_case(s.trim()))
            .map(|i| i + 1)
    };
    let in_range = |n: usize| -> Result<usize, String> {
        if n >= 1 && n <= n_opts {
            Ok(n)
        } else {
            Err(format!(
                "{} names option {n}, but the question has {n_opts} option{}",
                quote(t),
                if n_opts == 1 { "" } else { "s" }
            ))
        }
    };
    // A bare label, with or without its bracket.
    let bare = t
        .trim_start_matches(['(', '['])
        .trim_end_matches([')', ']', '.', ':']);
    if let Some((style, n)) = label_value(bare) {
        if style == LabelStyle::Number
            && let Some(i) = by_text(bare)
            && i != n
        {
            return Err(format!(
                "{} is ambiguous: option {n}, or option {i} whose text is {}? Write the key as a letter",
                quote(t),
                quote(bare)
            ));
        }
        if style != LabelStyle::Number && n_opts == 0 {
            return Err(format!(
                "{} names an option, but the question has none",
                quote(t)
            ));
        }
        return in_range(n);
    }
    // A label followed by the option's text.
    if let Some(l) = label_at(t)
        && !t[l.len..].trim().is_empty()
    {
        return in_range(l.n);
    }
    by_text(t).ok_or_else(|| {
        format!(
            "{} is not an option letter, an option number or the text of an option",
            quote(t)
        )
    })
}

/// A multiple-choice key → the 1-based option number.
pub fn parse_choice_key(key: &str, q: &Question) -> Result<usize, String> {
    if q.options.is_empty() {
        return Err("a multiple-choice question without options (no lines like `A. ...` in its question file)".into());
    }
    option_number(key, q)
}

/// A rank key → the accepted orders of option numbers, as written (largest first when
/// the question asks so). Forms: `B, A, C`, `B > A > C`, `2>1>3`, `B A C`, `BAC`,
/// `C < A < B` (read backwards); several accepted orders separated by `|`, `;` or ` or `.
pub fn parse_rank_key(key: &str, q: &Question) -> Result<Vec<Vec<usize>>, String> {
    let n = q.options.len();
    if n < 2 {
        return Err(
            "a rank question needs two options at least (lines like `A. ...` in its question file)"
                .into(),
        );
    }
    let mut orders = Vec::new();
    for alt in split_alternatives(key) {
        let alt = alt.trim();
        if alt.is_empty() {
            continue;
        }
        let mut tokens: Vec<&str> = if alt.contains('>') {
            alt.split('>').collect()
        } else if alt.contains('<') {
            alt.split('<').rev().collect()
        } else if alt.contains(',') {
            alt.split(',').collect()
        } else {
            alt.split_whitespace().collect()
        };
        tokens.retain(|t| !t.trim().is_empty());
        let compact: Vec<String>;
        if tokens.len() == 1
            && tokens[0].chars().count() == n
            && tokens[0].chars().all(|c| c.is_ascii_alphabetic())
        {
            compact = tokens[0].chars().map(String::from).collect();
            tokens = compact.iter().map(String::as_str).collect();
        }
        let order = tokens
            .iter()
            .map(|t| option_number(t, q))
            .collect::<Result<Vec<_>, _>>()?;
        let mut sorted = order.clone();
        sorted.sort_unstable();
        if sorted != (1..=n).collect::<Vec<_>>() {
            return Err(format!(
                "{} is not an order of all {n} options (each once)",
                quote(alt)
            ));
        }
        orders.push(order);
    }
    if orders.is_empty() {
        return Err("empty rank key".into());
    }
    Ok(orders)
}

fn split_alternatives(key: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in key.split(['|', ';']) {
        let words: Vec<&str> = part.split_whitespace().collect();
        let mut cur: Vec<&str> = Vec::new();
        for w in words {
            if w.eq_ignore_ascii_case("or") {
                out.push(cur.join(" "));
                cur.clear();
            } else {
                cur.push(w);
            }
        }
        out.push(cur.join(" "));
    }
    out
}

/// The one number in `text` (free-text keys, human answers, strategies): thousands
/// separators (`1,200`), a sign, decimals and an exponent are read; surrounding text
/// (`$`, `%`, `million`) is ignored. The number keeps its spelling (`0.50` stays `0.50`).
pub fn parse_number(text: &str) -> Result<Number, String> {
    let b = text.as_bytes();
    let mut found: Vec<String> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts =
            b[i].is_ascii_digit() || (b[i] == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit));
        if !starts || (i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'.')) {
            i += 1;
            continue;
        }
        let neg = i > 0 && b[i - 1] == b'-' && (i < 2 || !b[i - 2].is_ascii_alphanumeric());
        let mut j = i;
        let mut int = String::new();
        while j < b.len() {
            if b[j].is_ascii_digit() {
                int.push(b[j] as char);
                j += 1;
            } else if b[j] == b','
                && !int.is_empty()
                && b.len() >= j + 4
                && b[j + 1..j + 4].iter().all(u8::is_ascii_digit)
                && b.get(j + 4).is_none_or(|c| !c.is_ascii_digit())
            {
                j += 1;
            } else {
                break;
            }
        }
        let mut frac = String::new();
        if j + 1 < b.len() && b[j] == b'.' && b[j + 1].is_ascii_digit() {
            j += 1;
            while j < b.len() && b[j].is_ascii_digit() {
                frac.push(b[j] as char);
                j += 1;
            }
        }
        let mut exp = String::new();
        if j < b.len() && (b[j] == b'e' || b[j] == b'E') {
            let mut k = j + 1;
            let mut e = String::from("e");
            if k < b.len() && (b[k] == b'+' || b[k] == b'-') {
                e.push(b[k] as char);
                k += 1;
            }
            let digits_from = k;
            while k < b.len() && b[k].is_ascii_digit() {
                e.push(b[k] as char);
                k += 1;
            }
            if k > digits_from && b.get(k).is_none_or(|c| !c.is_ascii_alphabetic()) {
                exp = e;
                j = k;
            }
        }
        let int = int.trim_start_matches('0');
        let mut s = String::new();
        if neg {
            s.push('-');
        }
        s.push_str(if int.is_empty() { "0" } else { int });
        if !frac.is_empty() {
            s.push('.');
            s.push_str(&frac);
        }
        s.push_str(&exp);
        found.push(s);
        i = j;
    }
    match found.as_slice() {
        [one] => serde_json::from_str::<Number>(one).map_err(|e| format!("{}: {e}", quote(text))),
        [] => Err(format!("{} is not a number", quote(text))),
        _ => Err(format!(
            "{} holds {} numbers; expected one",
            quote(text),
            found.len()
        )),
    }
}

/// The chart type named by the manipulations file: `line`, `bar`, `pie`, `scatter` or
/// `map`, found as a word (`Bar chart`, `scatter plot`, `choropleth map`).
pub fn chart_type(s: &str) -> Option<&'static str> {
    let lower = s.to_lowercase();
    let mut found: Vec<&'static str> = Vec::new();
    for w in lower.split(|c: char| !c.is_alphanumeric()) {
        let t = match w {
            "line" | "lines" => "line",
            "bar" | "bars" | "column" => "bar",
            "pie" | "donut" | "doughnut" => "pie",
            "scatter" | "scatterplot" => "scatter",
            "map" | "choropleth" => "map",
            _ => continue,
        };
        if !found.contains(&t) {
            found.push(t);
        }
    }
    match found.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

/// `G7_Q1_2` → (`G7_Q1`, manipulated?).
pub fn split_chart_id(id: &str) -> Option<(&str, bool)> {
    let (pair, v) = id.rsplit_once('_')?;
    if pair.is_empty() {
        return None;
    }
    match v {
        "1" => Some((pair, false)),
        "2" => Some((pair, true)),
        _ => None,
    }
}

fn is_no_manipulation(s: &str) -> bool {
    matches!(
        s.trim().to_lowercase().as_str(),
        "" | "none" | "n/a" | "na" | "-" | "null" | "no" | "no manipulation" | "original"
    )
}

// ---------------------------------------------------------------------------------------
// The import

struct Chart {
    id: String,
    pair: String,
    manipulated: bool,
    format: Format,
    raw_type: String,
    raw_key: String,
    key_place: (usize, u64),
    question: Question,
    key: Value,
}

/// Read the folder `dir` (and the optional inputs) into items.
pub fn import(dir: &Path, opts: &Options) -> Result<Import, ImportError> {
    if !dir.is_dir() {
        return Err(ImportError::File {
            path: dir.into(),
            message: "not a folder (expected the CHARTOM folder with FACT_questions/, FACT_answer_keys.csv, chart_manipulations.csv, chart_images/)".into(),
        });
    }
    let mut summary = Summary::default();
    let keys = Table::read(
        &dir.join("FACT_answer_keys.csv"),
        &["chart id", "answer type", "answer"],
    )?;
    let manips = Table::read(
        &dir.join("chart_manipulations.csv"),
        &["chart id", "chart type", "planted manipulation"],
    )?;
    let qdir = dir.join("FACT_questions");
    if !qdir.is_dir() {
        return Err(ImportError::File {
            path: qdir,
            message: "missing folder of question files".into(),
        });
    }

    // Charts from the answer keys.
    let mut charts: Vec<Chart> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    for r in &keys.rows {
        let id = keys.get(r, "chart id").to_string();
        let Some((pair, manipulated)) = split_chart_id(&id).map(|(p, m)| (p.to_string(), m)) else {
            return Err(keys.err(
                r,
                "chart id",
                format!(
                    "{} is not a chart id like `G7_Q1_1` (original) or `G7_Q1_2` (manipulated)",
                    quote(&id)
                ),
            ));
        };
        if let Some(&prev) = by_id.get(&id) {
            let p = &charts[prev];
            return Err(keys.err(
                r,
                "chart id",
                format!(
                    "{} already has a key on row {} (line {})",
                    quote(&id),
                    p.key_place.0,
                    p.key_place.1
                ),
            ));
        }
        let raw_type = keys.get(r, "answer type").to_string();
        let format = Format::from_answer_type(&raw_type).ok_or_else(|| {
            keys.err(
                r,
                "answer type",
                format!(
                    "unknown answer type {} (expected `multiple choice`, `rank` or `free text`)",
                    quote(&raw_type)
                ),
            )
        })?;
        let qpath = qdir.join(format!("{id}.txt"));
        let qbytes = match std::fs::read(&qpath) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(keys.err(
                    r,
                    "chart id",
                    format!("no question file {}", qpath.display()),
                ));
            }
            Err(e) => return Err(ImportError::io(&qpath, e)),
        };
        let qtext = std::str::from_utf8(strip_bom(&qbytes)).map_err(|e| ImportError::At {
            path: qpath.clone(),
            at: format!("byte {}", e.valid_up_to()),
            message: "invalid UTF-8".into(),
        })?;
        let question = match format {
            Format::Number => Question {
                text: qtext.replace("\r\n", "\n").trim().to_string(),
                ..Question::default()
            },
            _ => parse_question(qtext),
        };
        let raw_key = keys.get(r, "answer").to_string();
        let key = match format {
            Format::Choice => parse_choice_key(&raw_key, &question).map(|n| json!(n)),
            Format::Rank => parse_rank_key(&raw_key, &question)
                .map(|o| if o.len() == 1 { json!(o[0]) } else { json!(o) }),
            Format::Number => parse_number(&raw_key).map(Value::Number),
        }
        .map_err(|m| keys.err(r, "answer", format!("{id}: {m}")))?;
        by_id.insert(id.clone(), charts.len());
        charts.push(Chart {
            id,
            pair,
            manipulated,
            format,
            raw_type,
            raw_key,
            key_place: (r.row, r.line),
            question,
            key,
        });
    }
    if charts.is_empty() {
        return Err(ImportError::File {
            path: keys.path.clone(),
            message: "has no rows".into(),
        });
    }
    // Question files without a key.
    if let Ok(rd) = std::fs::read_dir(&qdir) {
        let mut extra: Vec<String> = rd
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let stem = name.strip_suffix(".txt")?.to_string();
                (!by_id.contains_key(&stem)).then_some(stem)
            })
            .collect();
        extra.sort();
        if !extra.is_empty() {
            summary.warnings.push(format!(
                "{} question file{} without an answer key, skipped: {}",
                extra.len(),
                if extra.len() == 1 { "" } else { "s" },
                extra.join(", ")
            ));
        }
    }

    // Chart types and manipulations, by chart id or pair id.
    let mut manip_rows: HashMap<String, &TableRow> = HashMap::new();
    for r in &manips.rows {
        let id = manips.get(r, "chart id").to_string();
        if id.is_empty() {
            return Err(manips.err(r, "chart id", "empty chart id"));
        }
        if let Some(prev) = manip_rows.insert(id.clone(), r) {
            return Err(manips.err(
                r,
                "chart id",
                format!("{} is also on {}", quote(&id), manips.place(prev)),
            ));
        }
    }
    struct PairInfo {
        manipulation: Option<String>,
    }
    let mut pairs: IndexMap<String, PairInfo> = IndexMap::new();
    for c in &charts {
        if pairs.contains_key(&c.pair) {
            continue;
        }
        let m2 = manip_rows
            .get(&format!("{}_2", c.pair))
            .map(|r| manips.get(r, "planted manipulation"));
        let mp = manip_rows
            .get(&c.pair)
            .map(|r| manips.get(r, "planted manipulation"));
        let manipulation = [m2, mp]
            .into_iter()
            .flatten()
            .find(|m| !is_no_manipulation(m))
            .map(str::to_string);
        if manipulation.is_none() {
            summary.warnings.push(format!(
                "pair {}: no planted manipulation in {}",
                c.pair,
                manips.path.display()
            ));
        }
        if let Some(r) = manip_rows.get(&format!("{}_1", c.pair)) {
            let m1 = manips.get(r, "planted manipulation");
            if !is_no_manipulation(m1) && Some(m1) != manipulation.as_deref() {
                summary.warnings.push(format!(
                    "{}: the original chart {}_1 lists a manipulation ({}); the pair's is the one of {}_2",
                    manips.place(r),
                    c.pair,
                    quote(m1),
                    c.pair
                ));
            }
        }
        pairs.insert(c.pair.clone(), PairInfo { manipulation });
    }
    let chart_type_of = |c: &Chart| -> Result<&'static str, ImportError> {
        let other = format!("{}_{}", c.pair, if c.manipulated { 1 } else { 2 });
        let row = [c.id.as_str(), c.pair.as_str(), other.as_str()]
            .into_iter()
            .find_map(|k| {
                manip_rows
                    .get(k)
                    .filter(|r| !manips.get(r, "chart type").is_empty())
            });
        let Some(r) = row else {
            return Err(ImportError::File {
                path: manips.path.clone(),
                message: format!("no chart type for {} (nor for its pair)", c.id),
            });
        };
        let t = manips.get(r, "chart type");
        chart_type(t).ok_or_else(|| {
            manips.err(
                r,
                "chart type",
                format!(
                    "unknown chart type {} (expected line, bar, pie, scatter or map)",
                    quote(t)
                ),
            )
        })
    };

    // Images.
    let img_dir = dir.join("chart_images");
    let images = ImagePaths::new(&img_dir, &opts.out)?;
    let mut image_names: HashMap<String, String> = HashMap::new();
    if let Ok(rd) = std::fs::read_dir(&img_dir) {
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some((stem, _)) = name.rsplit_once('.') {
                let better = image_names
                    .get(stem)
                    .is_none_or(|prev| !prev.ends_with(".png"));
                if better {
                    image_names.insert(stem.to_string(), name);
                }
            }
        }
    }

    // Optional inputs.
    let strategies = match &opts.strategies {
        Some(p) => read_strategies(p, &charts, &by_id, &mut summary)?,
        None => HashMap::new(),
    };
    let human = match &opts.human_answers {
        Some(p) => read_human_answers(p, &charts, &by_id)?,
        None => HashMap::new(),
    };
    let hmi_given = match &opts.hmi {
        Some(p) => read_hmi(p, &by_id)?,
        None => HashMap::new(),
    };
    let mut responses: HashMap<String, Vec<Value>> = HashMap::new();
    let mut seen: HashMap<(String, String), String> = HashMap::new();
    for p in &opts.answers {
        read_answers(p, &by_id, &mut responses, &mut seen, &mut summary)?;
    }

    // Items.
    let mut missing_images = Vec::new();
    let mut no_hmi_without_strategies = Vec::new();
    let mut items = Vec::with_capacity(charts.len());
    for c in &charts {
        let ctype = chart_type_of(c)?;
        *summary.types.entry(ctype.to_string()).or_default() += 1;
        *summary
            .formats
            .entry(c.format.name().to_string())
            .or_default() += 1;
        let image_name = image_names
            .get(&c.id)
            .cloned()
            .unwrap_or_else(|| format!("{}.png", c.id));
        if !images.exists(&image_name) {
            missing_images.push(c.id.clone());
        }
        let mut fact = Map::new();
        fact.insert("question".into(), json!(c.question.text));
        fact.insert("format".into(), json!(c.format.name()));
        fact.insert("options".into(), json!(c.question.options));
        fact.insert("key".into(), c.key.clone());
        let strat = strategies
            .get(&c.pair)
            .filter(|_| c.format == Format::Number);
        if let Some((m, s)) = strat {
            fact.insert("strategies".into(), json!({"misled": m, "skim": s}));
        }
        let mut hmi: Option<f64> = None;
        if let Some(ans) = human.get(&c.id) {
            summary.with_human_answers += 1;
            fact.insert(
                "human_answers".into(),
                Value::Array(ans.iter().map(|(a, n)| json!([a, n])).collect()),
            );
            // the one rule of verdict::grade::chartom, on the fact as written
            hmi = serde_json::from_value::<crate::model::Fact>(Value::Object(fact.clone()))
                .ok()
                .as_ref()
                .and_then(hmi_from_fact)
                .map(|h| h.hmi);
            if hmi.is_none() && c.format == Format::Number && strat.is_none() {
                no_hmi_without_strategies.push(c.id.clone());
            }
        }
        if let Some(&h) = hmi_given.get(&c.id) {
            hmi = Some(h);
        }
        let mut item = Map::new();
        item.insert("id".into(), json!(c.id));
        item.insert("benchmark".into(), json!("chartom"));
        item.insert("image".into(), json!(images.item_path(&image_name)));
        item.insert(
            "chart".into(),
            json!({
                "pair": c.pair,
                "version": if c.manipulated { "manipulated" } else { "original" },
                "type": ctype,
                "manipulation": pairs[&c.pair].manipulation,
            }),
        );
        item.insert("fact".into(), Value::Object(fact));
        if let Some(h) = hmi {
            summary.with_hmi += 1;
            item.insert("mind".into(), json!({ "hmi": h }));
        }
        item.insert(
            "responses".into(),
            Value::Array(responses.remove(&c.id).unwrap_or_default()),
        );
        item.insert(
            "source".into(),
            json!({
                "question": path_string(&Path::new("FACT_questions").join(format!("{}.txt", c.id))),
                "answer_type": c.raw_type,
                "answer": c.raw_key,
            }),
        );
        items.push(Value::Object(item));
    }
    if !missing_images.is_empty() {
        summary.warnings.push(format!(
            "{} of {} chart images not found in {}: {}",
            missing_images.len(),
            charts.len(),
            img_dir.display(),
            abbreviate(&missing_images)
        ));
    }
    if !no_hmi_without_strategies.is_empty() {
        summary.warnings.push(format!(
            "no HMI for {} number question{} with human answers but no strategies (give --strategies): {}",
            no_hmi_without_strategies.len(),
            if no_hmi_without_strategies.len() == 1 { "" } else { "s" },
            abbreviate(&no_hmi_without_strategies)
        ));
    }
    summary.items = items.len();
    summary.pairs = pairs.len();
    Ok(Import { items, summary })
}

fn abbreviate(ids: &[String]) -> String {
    if ids.len() <= 8 {
        ids.join(", ")
    } else {
        format!("{}, ... ({} more)", ids[..8].join(", "), ids.len() - 8)
    }
}

fn chart_for<'c>(
    t: &Table,
    r: &TableRow,
    charts: &'c [Chart],
    by_id: &HashMap<String, usize>,
) -> Result<&'c Chart, ImportError> {
    let id = t.get(r, "chart id");
    by_id.get(id).map(|&i| &charts[i]).ok_or_else(|| {
        t.err(
            r,
            "chart id",
            format!("{} is not a chart of FACT_answer_keys.csv", quote(id)),
        )
    })
}

/// `chart id, answer[, count]` → chart id → merged `(answer, count)`.
fn read_human_answers(
    path: &Path,
    charts: &[Chart],
    by_id: &HashMap<String, usize>,
) -> Result<HashMap<String, Vec<(Value, u64)>>, ImportError> {
    let t = Table::read(path, &["chart id", "answer"])?;
    let has_count = t.has("count");
    let mut out: HashMap<String, Vec<(Value, u64)>> = HashMap::new();
    for r in &t.rows {
        let c = chart_for(&t, r, charts, by_id)?;
        let raw = t.get(r, "answer");
        let answer = match c.format {
            Format::Choice => option_number(raw, &c.question).map(|n| json!(n)),
            Format::Rank => parse_rank_key(raw, &c.question).and_then(|o| {
                if o.len() == 1 {
                    Ok(json!(o[0]))
                } else {
                    Err("a human answer is one order".to_string())
                }
            }),
            Format::Number => parse_number(raw).map(Value::Number),
        }
        .map_err(|m| t.err(r, "answer", m))?;
        let count: u64 = if has_count {
            let s = t.get(r, "count");
            s.parse().map_err(|_| {
                t.err(
                    r,
                    "count",
                    format!("{} is not a whole number ≥ 0", quote(s)),
                )
            })?
        } else {
            1
        };
        let list = out.entry(c.id.clone()).or_default();
        match list.iter_mut().find(|(a, _)| same_answer(a, &answer)) {
            Some(e) => e.1 += count,
            None => list.push((answer, count)),
        }
    }
    Ok(out)
}

fn same_answer(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// `chart id, misled, skim` (pair id or either chart id) → pair → strategies.
fn read_strategies(
    path: &Path,
    charts: &[Chart],
    by_id: &HashMap<String, usize>,
    summary: &mut Summary,
) -> Result<HashMap<String, (Number, Number)>, ImportError> {
    let t = Table::read(path, &["chart id", "misled", "skim"])?;
    let pairs: HashMap<&str, bool> = charts
        .iter()
        .map(|c| (c.pair.as_str(), c.format == Format::Number))
        .collect();
    let mut out: HashMap<String, (Number, Number)> = HashMap::new();
    let mut place: HashMap<String, String> = HashMap::new();
    for r in &t.rows {
        let id = t.get(r, "chart id");
        let pair = if pairs.contains_key(id) {
            id.to_string()
        } else if by_id.contains_key(id) {
            charts[by_id[id]].pair.clone()
        } else {
            return Err(t.err(
                r,
                "chart id",
                format!(
                    "{} is neither a chart nor a pair of FACT_answer_keys.csv",
                    quote(id)
                ),
            ));
        };
        let m = parse_number(t.get(r, "misled")).map_err(|e| t.err(r, "misled", e))?;
        let s = parse_number(t.get(r, "skim")).map_err(|e| t.err(r, "skim", e))?;
        if let Some(prev) = out.get(&pair)
            && (prev.0.as_f64() != m.as_f64() || prev.1.as_f64() != s.as_f64())
        {
            return Err(t.err(
                r,
                "chart id",
                format!(
                    "pair {pair} already has other strategies on {}; both charts of a pair use the same",
                    place[&pair]
                ),
            ));
        }
        if !pairs[pair.as_str()] {
            summary.warnings.push(format!(
                "{}: strategies for pair {pair}, which has no number question; ignored",
                t.place(r)
            ));
        }
        place.insert(pair.clone(), t.place(r));
        out.insert(pair, (m, s));
    }
    Ok(out)
}

/// `chart id, hmi` → chart id → HMI in [0, 1].
fn read_hmi(
    path: &Path,
    by_id: &HashMap<String, usize>,
) -> Result<HashMap<String, f64>, ImportError> {
    let t = Table::read(path, &["chart id", "hmi"])?;
    let mut out = HashMap::new();
    for r in &t.rows {
        let id = t.get(r, "chart id");
        if !by_id.contains_key(id) {
            return Err(t.err(
                r,
                "chart id",
                format!("{} is not a chart of FACT_answer_keys.csv", quote(id)),
            ));
        }
        let raw = t.get(r, "hmi");
        let h: f64 = raw
            .parse()
            .ok()
            .filter(|h: &f64| (0.0..=1.0).contains(h))
            .ok_or_else(|| {
                t.err(
                    r,
                    "hmi",
                    format!("{} is not a number in [0, 1]", quote(raw)),
                )
            })?;
        out.insert(id.to_string(), h);
    }
    Ok(out)
}

/// Model answers, one JSON object a line: `{"id", "model", "fact", "mind", "justification"}`.
/// Other keys are kept in the response.
fn read_answers(
    path: &Path,
    by_id: &HashMap<String, usize>,
    responses: &mut HashMap<String, Vec<Value>>,
    seen: &mut HashMap<(String, String), String>,
    summary: &mut Summary,
) -> Result<(), ImportError> {
    let bytes = read_file(path)?;
    let body = strip_bom(&bytes);
    for (n, line) in body.split(|&b| b == b'\n').enumerate() {
        let line_no = n + 1;
        let at = |field: &str| {
            if field.is_empty() {
                format!("line {line_no}")
            } else {
                format!("line {line_no}, field `{field}`")
            }
        };
        let err = |field: &str, message: String| ImportError::At {
            path: path.into(),
            at: at(field),
            message,
        };
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let text = std::str::from_utf8(line)
            .map_err(|e| err("", format!("invalid UTF-8 at byte {}", e.valid_up_to())))?;
        let v: Value =
            serde_json::from_str(text).map_err(|e| err("", format!("malformed JSON: {e}")))?;
        let Value::Object(obj) = v else {
            return Err(err("", "expected a JSON object".into()));
        };
        let id = match obj.get("id") {
            Some(Value::String(s)) => s.clone(),
            _ => return Err(err("id", "missing, or not a string".into())),
        };
        if !by_id.contains_key(&id) {
            return Err(err(
                "id",
                format!("{} is not a chart of FACT_answer_keys.csv", quote(&id)),
            ));
        }
        let model = match obj.get("model") {
            Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
            _ => return Err(err("model", "missing, empty, or not a string".into())),
        };
        let place = format!("{} line {line_no}", path.display());
        if let Some(prev) = seen.insert((id.clone(), model.clone()), place) {
            return Err(err(
                "",
                format!(
                    "a second answer of model {} to {id} (the first is on {prev})",
                    quote(&model)
                ),
            ));
        }
        let mut resp = Map::new();
        resp.insert("model".into(), json!(model));
        for (k, v) in obj {
            match (k.as_str(), v) {
                ("id" | "model", _) | (_, Value::Null) => {}
                ("fact", Value::String(s)) => {
                    resp.insert(k, Value::String(s));
                }
                ("fact", Value::Number(x)) => {
                    resp.insert(k, Value::String(x.to_string()));
                }
                ("fact", _) => return Err(err("fact", "expected a string or a number".into())),
                ("mind", Value::Number(x)) => {
                    match x.as_f64() {
                        Some(m) if (0.0..=1.0).contains(&m) => {}
                        _ => {
                            return Err(err(
                                "mind",
                                format!(
                                    "{x} is not in [0, 1] (the predicted share of people misled, not a percentage)"
                                ),
                            ));
                        }
                    }
                    resp.insert(k, Value::Number(x));
                }
                ("mind", _) => return Err(err("mind", "expected a number in [0, 1]".into())),
                ("justification", Value::String(s)) => {
                    resp.insert(k, Value::String(s));
                }
                ("justification", _) => {
                    return Err(err("justification", "expected a string".into()));
                }
                (_, v) => {
                    resp.insert(k, v);
                }
            }
        }
        *summary.models.entry(model).or_default() += 1;
        responses.entry(id).or_default().push(Value::Object(resp));
    }
    Ok(())
}

/// Items as JSONL lines.
pub fn to_lines(items: &[Value]) -> impl Iterator<Item = String> + '_ {
    items
        .iter()
        .map(|v| serde_json::to_string(v).expect("a Value always serializes"))
}

#[cfg(test)]
mod tests;
