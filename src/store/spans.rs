//! Where the items are in the file's bytes, found without parsing them: the file's
//! format, a newline scan for JSONL, one borrowing pass for the JSON document form, and
//! line numbers for messages.

use super::*;

pub(super) fn detect_format(path: &Path, buf: &[u8]) -> Format {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("jsonl") | Some("ndjson") => return Format::Jsonl,
        Some("json") => {
            // A .json file that is really JSONL (several top-level objects, one a line).
            let first_line = buf
                .split(|&b| b == b'\n')
                .find(|l| !l.iter().all(u8::is_ascii_whitespace));
            if let Some(l) = first_line {
                let rest = &buf[l.len()..];
                let more = rest.iter().any(|b| !b.is_ascii_whitespace());
                if more && serde_json::from_slice::<serde::de::IgnoredAny>(l).is_ok() {
                    return Format::Jsonl;
                }
            }
            return Format::Json;
        }
        _ => {}
    }
    let first = buf.iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'[') {
        return Format::Json;
    }
    let first_line = buf
        .split(|&b| b == b'\n')
        .find(|l| !l.iter().all(u8::is_ascii_whitespace));
    match first_line {
        Some(l) if serde_json::from_slice::<serde::de::IgnoredAny>(l).is_ok() => Format::Jsonl,
        _ => Format::Json,
    }
}

/// Spans of the non-blank lines, without their `\n` or `\r\n`.
pub(super) fn index_jsonl(buf: &[u8]) -> (Vec<Range<usize>>, Vec<u32>) {
    let mut spans = Vec::with_capacity(buf.len() / 1024 + 1);
    let mut lines = Vec::with_capacity(buf.len() / 1024 + 1);
    each_line(buf, |s, line| {
        spans.push(s);
        lines.push(line);
        true
    });
    (spans, lines)
}

/// Every non-blank line's span (without its `\n` or `\r\n`) and 1-based line number,
/// in order, until `f` says stop.
pub(super) fn each_line(buf: &[u8], mut f: impl FnMut(Range<usize>, u32) -> bool) {
    let mut start = 0;
    let mut line = 1u32;
    let mut push = |s: usize, mut e: usize, line: u32| {
        if e > s && buf[e - 1] == b'\r' {
            e -= 1;
        }
        if buf[s..e].iter().any(|b| !b.is_ascii_whitespace()) {
            f(s..e, line)
        } else {
            true
        }
    };
    for nl in memchr::memchr_iter(b'\n', buf) {
        if !push(start, nl, line) {
            return;
        }
        start = nl + 1;
        line += 1;
    }
    if start < buf.len() {
        push(start, buf.len(), line);
    }
}

/// Spans of the items of a `{"items": [...]}` document (or a bare array).
pub(super) fn index_document(buf: &[u8]) -> Result<(Vec<Range<usize>>, Vec<u32>), String> {
    use serde_json::value::RawValue;
    #[derive(serde::Deserialize)]
    struct Doc<'a> {
        #[serde(borrow)]
        items: Option<Vec<&'a RawValue>>,
    }
    let text = std::str::from_utf8(buf).map_err(|e| {
        let (line, col) = line_col(buf, e.valid_up_to());
        format!("invalid UTF-8 at line {line}, column {col}")
    })?;
    let first = text.trim_start().as_bytes().first().copied();
    let items: Vec<&RawValue> = match first {
        Some(b'[') => serde_json::from_str(text).map_err(|e| format!("malformed JSON: {e}"))?,
        Some(b'{') => {
            let doc: Doc =
                serde_json::from_str(text).map_err(|e| format!("malformed JSON: {e}"))?;
            doc.items
                .ok_or_else(|| "the document has no `items` array".to_string())?
        }
        None => Vec::new(),
        _ => return Err("expected a JSON object with an `items` array, or JSONL".into()),
    };
    let base = text.as_ptr() as usize;
    let spans: Vec<Range<usize>> = items
        .iter()
        .map(|r| {
            let s = r.get().as_ptr() as usize - base;
            s..s + r.get().len()
        })
        .collect();
    let lines = line_numbers(buf, &spans);
    Ok((spans, lines))
}

pub(super) fn line_numbers(buf: &[u8], spans: &[Range<usize>]) -> Vec<u32> {
    let mut out = Vec::with_capacity(spans.len());
    let mut line = 1u32;
    let mut pos = 0;
    for s in spans {
        line += memchr::memchr_iter(b'\n', &buf[pos..s.start]).count() as u32;
        pos = s.start;
        out.push(line);
    }
    out
}

pub(super) fn line_col(buf: &[u8], at: usize) -> (usize, usize) {
    let before = &buf[..at];
    let line = memchr::memchr_iter(b'\n', before).count() + 1;
    let col = at
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map(|p| p + 1)
            .unwrap_or(0)
        + 1;
    (line, col)
}
