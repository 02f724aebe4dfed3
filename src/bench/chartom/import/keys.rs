//! Answer keys, numbers and chart ids, as the CHARTOM folder writes them.

use super::*;

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

pub(crate) fn split_alternatives(key: &str) -> Vec<String> {
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

pub(crate) fn is_no_manipulation(s: &str) -> bool {
    matches!(
        s.trim().to_lowercase().as_str(),
        "" | "none" | "n/a" | "na" | "-" | "null" | "no" | "no manipulation" | "original"
    )
}
