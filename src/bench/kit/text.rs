//! The text of `verdict stats`: the helpers every benchmark's block uses (each
//! benchmark's block is its folder's `stats_text.rs`).

use crate::sanitize;

pub(crate) fn pct(x: Option<f64>) -> String {
    match x {
        Some(v) => format!("{:.1}%", v * 100.0),
        None => "-".into(),
    }
}

pub(crate) fn pts(x: Option<f64>) -> String {
    match x {
        Some(v) => format!("{:+.1}", v * 100.0),
        None => "-".into(),
    }
}

pub(crate) fn num(x: Option<f64>) -> String {
    match x {
        Some(v) => format!("{v:.4}"),
        None => "-".into(),
    }
}

/// A table: the first column left-aligned, the others right-aligned.
pub(crate) fn table(out: &mut String, header: &[&str], rows: &[Vec<String>]) {
    let mut w: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let line = |out: &mut String, cells: &[String]| {
        let mut s = String::from("  ");
        for (i, c) in cells.iter().enumerate() {
            let pad = w[i] - c.chars().count();
            if i == 0 {
                s.push_str(c);
                s.push_str(&" ".repeat(pad));
            } else {
                s.push_str("  ");
                s.push_str(&" ".repeat(pad));
                s.push_str(c);
            }
        }
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(
        out,
        &header.iter().map(|h| h.to_string()).collect::<Vec<_>>(),
    );
    for r in rows {
        line(out, r);
    }
}

/// Model names and other file text are shown, never interpreted (and cleaned before the
/// table measures them, so columns line up).
pub(crate) fn clean(s: &str) -> String {
    sanitize::line(s).into_owned()
}

/// A number without needless digits: `1200`, `1.2`, `-3`.
pub fn format_number(x: f64) -> String {
    format!("{x}")
}

/// Counts as `name n, name n`, each name cleaned ([`clean`]), in the order given.
pub(crate) fn counts<'a, K: AsRef<str> + 'a, N: std::fmt::Display + 'a>(
    items: impl IntoIterator<Item = (&'a K, &'a N)>,
) -> String {
    items
        .into_iter()
        .map(|(k, n)| format!("{} {n}", clean(k.as_ref())))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `s` as one shell word: as it is when it needs no quoting, else in single quotes.
pub(crate) fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:,=@%".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// What to tell a reviewer who gave a folder holding `files` (each opened on its own):
/// `is a folder of …` as `what(n, "s" or "")` says, then the command that opens each (at
/// most 12, then how many more: a run of a few hundred tasks lists the first); `None`
/// when there are none.
pub(crate) fn open_each_hint(
    files: &[std::path::PathBuf],
    what: impl Fn(usize, &str) -> String,
) -> Option<String> {
    const LISTED: usize = 12;
    if files.is_empty() {
        return None;
    }
    let mut o = format!(
        "is a folder of {}. Open one:",
        what(files.len(), if files.len() == 1 { "" } else { "s" })
    );
    for f in files.iter().take(LISTED) {
        o.push_str("\n  verdict ");
        o.push_str(&shell_word(&f.to_string_lossy()));
    }
    if files.len() > LISTED {
        o.push_str(&format!("\n  … and {} more", files.len() - LISTED));
    }
    Some(o)
}
