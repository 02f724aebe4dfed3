//! Untrusted text is shown, never executed. Everything `verdict` prints (the reviewer's
//! screen, every command's output, error messages, the log) comes from a file, a file
//! name or an argument someone else may have crafted; this module is the one path that
//! makes it harmless before it can reach a terminal.
//!
//! Two forms, one set of characters ([`is_unsafe`]):
//!
//! - **Text** ([`text`], [`line`]): each unsafe character becomes a visible stand-in
//!   ([`stand_in`]): ESC is `␛`, the other C0 controls and DEL are in caret notation
//!   (`^G`, `^M`, `^@`, `^?`), everything else is its code point, `\u{9b}`, `\u{202e}`.
//!   Newline and tab stay (they are harmless).
//! - **JSON** ([`json`], [`json_pretty`], [`escape_json`]): each unsafe character inside
//!   a string is written as a `\uXXXX` escape, so the JSON stays valid and means exactly
//!   the same when parsed.
//!
//! [`Writer`] applies either form to a stream (an export to standard output).
//!
//! Sanitising is for the terminal, not for data: files that `verdict` writes (results,
//! exports with `-o`, merges, splits, imports) keep the original text.

use std::borrow::Cow;
use std::io::{self, Write};

use serde::Serialize;

/// Characters that must not reach a terminal raw: C0 controls other than newline and
/// tab (ESC starts every escape sequence; a lone carriage return can overwrite a line),
/// DEL, C1 controls (U+009B is CSI, U+009D OSC on many terminals), the bidirectional
/// embeddings, overrides, isolates and marks (they reorder what is shown), the line and
/// paragraph separators, and invisible characters that can hide text: zero-width space,
/// word joiner and invisible operators, deprecated format characters, the byte order
/// mark, interlinear annotation controls and tag characters.
pub fn is_unsafe(c: char) -> bool {
    matches!(c,
        '\0'..='\u{8}'
        | '\u{b}'..='\u{1f}'
        | '\u{7f}'..='\u{9f}'
        | '\u{61c}'
        | '\u{200b}'
        | '\u{200e}'
        | '\u{200f}'
        | '\u{2028}'..='\u{202e}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{206f}'
        | '\u{feff}'
        | '\u{fff9}'..='\u{fffb}'
        | '\u{e0000}'..='\u{e007f}')
}

/// The visible stand-in of an unsafe character (see the module documentation).
pub fn stand_in(c: char, out: &mut String) {
    match c {
        '\u{1b}' => out.push('␛'),
        '\0'..='\u{1f}' => {
            out.push('^');
            out.push(char::from(c as u8 + 0x40));
        }
        '\u{7f}' => out.push_str("^?"),
        c => {
            use std::fmt::Write as _;
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
}

/// Text for a terminal: every unsafe character replaced by its visible stand-in;
/// newlines and tabs kept. Borrowed when nothing needed replacing.
pub fn text(s: &str) -> Cow<'_, str> {
    replace(s, is_unsafe, stand_in)
}

/// Text for one line of a terminal (a table cell, a file name in a message): like
/// [`text`], and newlines shown as ` ⏎ `.
/// A short, harmless rendering of untrusted text for messages, in backquotes: unsafe
/// characters shown as [`crate::sanitize::line`] shows them, long text cut.
pub fn quote(s: &str) -> String {
    const MAX: usize = 80;
    let cut = match s.char_indices().nth(MAX) {
        Some((i, _)) => &s[..i],
        None => s,
    };
    let mut out = String::from("`");
    out.push_str(&line(cut).replace('`', "\\`"));
    if cut.len() < s.len() {
        out.push('…');
    }
    out.push('`');
    out
}

pub fn line(s: &str) -> Cow<'_, str> {
    replace(
        s,
        |c| c == '\n' || is_unsafe(c),
        |c, out| {
            if c == '\n' {
                out.push_str(" ⏎ ");
            } else {
                stand_in(c, out)
            }
        },
    )
}

fn replace(s: &str, hit: impl Fn(char) -> bool, with: impl Fn(char, &mut String)) -> Cow<'_, str> {
    let bytes = s.as_bytes();
    let mut out: Option<String> = None;
    let (mut pos, mut copied) = (0, 0);
    while let Some(at) = next_may_start_unsafe(bytes, pos) {
        // a candidate byte is ASCII or a lead byte, so always the start of a character
        let c = s[at..].chars().next().expect("a character starts here");
        pos = at + c.len_utf8();
        if hit(c) {
            let o = out.get_or_insert_with(|| String::with_capacity(s.len() + 16));
            o.push_str(&s[copied..at]);
            with(c, o);
            copied = pos;
        }
    }
    match out {
        None => Cow::Borrowed(s),
        Some(mut o) => {
            o.push_str(&s[copied..]);
            Cow::Owned(o)
        }
    }
}

/// The first position from `pos` on whose byte [`may_start_unsafe`]: 32 bytes at a time
/// while all are printable ASCII (the compiler checks those with vector instructions),
/// then byte by byte.
fn next_may_start_unsafe(bytes: &[u8], mut pos: usize) -> Option<usize> {
    // Printable ASCII (0x20..=0x7e) never starts one: one comparison a byte.
    while let Some(chunk) = bytes.get(pos..pos + 32) {
        if chunk
            .iter()
            .fold(false, |any, &b| any | (b.wrapping_sub(0x20) >= 0x5f))
        {
            break;
        }
        pos += 32;
    }
    bytes[pos..]
        .iter()
        .position(|&b| may_start_unsafe(b))
        .map(|off| pos + off)
}

/// Whether a character starting with byte `b` can be one of [`is_unsafe`] (or a newline
/// or tab): a fast filter, so that long safe text is only scanned byte by byte.
fn may_start_unsafe(b: u8) -> bool {
    // C0 and DEL; lead bytes of U+0080..U+009F (C2), U+061C (D8), U+200B..U+206F (E2),
    // U+FEFF and U+FFF9..U+FFFB (EF), U+E0000..U+E007F (F3)
    b < 0x20 || matches!(b, 0x7f | 0xc2 | 0xd8 | 0xe2 | 0xef | 0xf3)
}

/// JSON text (as `serde_json` writes it) with every unsafe character escaped as
/// `\uXXXX`. Outside strings JSON text holds only ASCII punctuation, digits, letters and
/// white space (space, tab, newline, carriage return, which stay), so every replaced
/// character is inside a string and the escape keeps its meaning.
pub fn escape_json(s: &str) -> Cow<'_, str> {
    replace(s, |c| is_unsafe(c) && !matches!(c, '\r'), json_escape_char)
}

fn json_escape_char(c: char, out: &mut String) {
    use std::fmt::Write as _;
    let mut units = [0u16; 2];
    for u in c.encode_utf16(&mut units) {
        let _ = write!(out, "\\u{u:04x}");
    }
}

/// `v` as compact JSON, safe for a terminal (see [`escape_json`]).
pub fn json<T: Serialize + ?Sized>(v: &T) -> serde_json::Result<String> {
    let s = serde_json::to_string(v)?;
    Ok(escape_json(&s).into_owned())
}

/// `v` as indented JSON, safe for a terminal (see [`escape_json`]).
pub fn json_pretty<T: Serialize + ?Sized>(v: &T) -> serde_json::Result<String> {
    let s = serde_json::to_string_pretty(v)?;
    Ok(escape_json(&s).into_owned())
}

/// What a [`Writer`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Text: unsafe characters as visible stand-ins ([`text`]).
    Text,
    /// JSON text: unsafe characters as `\uXXXX` escapes ([`escape_json`]). Only correct
    /// for a stream of JSON text.
    Json,
}

/// A stream that sanitises what goes through it, for output that may reach a terminal.
/// Characters split across writes are put back together; bytes that are not UTF-8 are
/// shown as `\x9b` (text) or `\ufffd` (JSON). Buffered: call [`Writer::flush`] at the end
/// to see errors (a drop writes what is left and ignores them, as `BufWriter` does).
pub struct Writer<W: Write> {
    inner: W,
    form: Form,
    /// The start of a character that a later write completes.
    pending: Vec<u8>,
    replaced: u64,
}

impl<W: Write> Drop for Writer<W> {
    fn drop(&mut self) {
        if !self.pending.is_empty() {
            let _ = self.drain(true);
        }
    }
}

impl<W: Write> Writer<W> {
    pub fn new(inner: W, form: Form) -> Writer<W> {
        Writer {
            inner,
            form,
            pending: Vec::new(),
            replaced: 0,
        }
    }

    /// How many characters (or bytes that were not UTF-8) were replaced so far (in what
    /// was passed on: flush first for the total).
    pub fn replaced(&self) -> u64 {
        self.replaced
    }

    fn emit(&mut self, s: &str) -> io::Result<()> {
        let safe = match self.form {
            Form::Text => text(s),
            Form::Json => escape_json(s),
        };
        if let Cow::Owned(_) = safe {
            self.replaced += s
                .chars()
                .filter(|&c| is_unsafe(c) && !(self.form == Form::Json && c == '\r'))
                .count() as u64;
        }
        self.inner.write_all(safe.as_bytes())
    }

    fn emit_invalid(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.replaced += bytes.len() as u64;
        let mut s = String::new();
        for b in bytes {
            match self.form {
                Form::Text => s.push_str(&format!("\\x{b:02x}")),
                Form::Json => s.push_str("\\ufffd"),
            }
        }
        self.inner.write_all(s.as_bytes())
    }

    /// Write out everything in `pending` that is complete; keep an unfinished character.
    fn drain(&mut self, at_end: bool) -> io::Result<()> {
        let buf = std::mem::take(&mut self.pending);
        let mut rest = &buf[..];
        while !rest.is_empty() {
            match std::str::from_utf8(rest) {
                Ok(s) => {
                    self.emit(s)?;
                    rest = &[];
                }
                Err(e) => {
                    let (good, bad) = rest.split_at(e.valid_up_to());
                    // SAFETY-free: `good` is valid UTF-8 by `valid_up_to`.
                    self.emit(std::str::from_utf8(good).expect("valid prefix"))?;
                    match e.error_len() {
                        Some(n) => {
                            self.emit_invalid(&bad[..n])?;
                            rest = &bad[n..];
                        }
                        None if at_end => {
                            self.emit_invalid(bad)?;
                            rest = &[];
                        }
                        None => {
                            self.pending = bad.to_vec();
                            rest = &[];
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// Input is gathered up to this many bytes before it is checked and passed on: writers
/// such as `serde_json`'s write a token at a time.
const CHUNK: usize = 64 * 1024;

impl<W: Write> Write for Writer<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        if self.pending.len() >= CHUNK {
            self.drain(false)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.drain(true)?;
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: &str =
        "ok\u{1b}[2J\u{1b}]0;pwned\u{7}\u{9b}31m\r\nnext\u{202e}evil\0\u{7f}\t\u{2066}x\u{e0041}";

    #[test]
    fn text_shows_every_unsafe_character() {
        let s = text(HOSTILE);
        assert_eq!(
            s,
            "ok␛[2J␛]0;pwned^G\\u{9b}31m^M\nnext\\u{202e}evil^@^?\t\\u{2066}x\\u{e0041}"
        );
        assert!(!s.chars().any(is_unsafe));
        assert!(matches!(text("plain, ünïcode ✓\n\t"), Cow::Borrowed(_)));
    }

    #[test]
    fn the_fast_filter_misses_no_unsafe_character() {
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let mut b = [0u8; 4];
            let first = c.encode_utf8(&mut b).as_bytes()[0];
            if is_unsafe(c) {
                assert!(may_start_unsafe(first), "{c:?}");
            }
        }
    }

    #[test]
    fn line_shows_newlines_too() {
        assert_eq!(line("a\nb\u{1b}"), "a ⏎ b␛");
    }

    #[test]
    fn json_keeps_its_meaning() {
        let v = serde_json::json!({ HOSTILE: [HOSTILE, "\u{85}"] });
        for s in [json(&v).unwrap(), json_pretty(&v).unwrap()] {
            assert!(!s.chars().any(|c| is_unsafe(c) && c != '\r'), "{s}");
            let back: serde_json::Value = serde_json::from_str(&s).unwrap();
            assert_eq!(back, v);
        }
        assert!(json(&"\u{e0041}").unwrap().contains("\\udb40\\udc41"));
    }

    #[test]
    fn writer_joins_split_characters() {
        let mut out = Vec::new();
        let mut w = Writer::new(&mut out, Form::Text);
        // U+202E is E2 80 AE; U+0085 is C2 85: written a byte at a time
        for b in "a\u{202e}b\u{85}c✓".as_bytes() {
            w.write_all(std::slice::from_ref(b)).unwrap();
        }
        w.flush().unwrap();
        assert_eq!(w.replaced(), 2);
        drop(w);
        assert_eq!(String::from_utf8(out).unwrap(), "a\\u{202e}b\\u{85}c✓");

        let mut out = Vec::new();
        let mut w = Writer::new(&mut out, Form::Text);
        w.write_all(b"x\x9by\xe2\x80").unwrap();
        w.flush().unwrap();
        drop(w);
        assert_eq!(String::from_utf8(out).unwrap(), "x\\x9by\\xe2\\x80");

        // more than a chunk, a character split across the chunk's end, and a drop
        let big = format!("{}\u{202e}{}", "a".repeat(CHUNK - 1), "b".repeat(10));
        let mut out = Vec::new();
        let mut w = Writer::new(&mut out, Form::Text);
        w.write_all(&big.as_bytes()[..CHUNK]).unwrap();
        w.write_all(&big.as_bytes()[CHUNK..]).unwrap();
        drop(w);
        assert_eq!(String::from_utf8(out).unwrap(), text(&big));

        let mut out = Vec::new();
        let mut w = Writer::new(&mut out, Form::Json);
        let src = serde_json::to_string(&HOSTILE).unwrap();
        w.write_all(src.as_bytes()).unwrap();
        w.flush().unwrap();
        drop(w);
        let out = String::from_utf8(out).unwrap();
        assert_eq!(serde_json::from_str::<String>(&out).unwrap(), HOSTILE);
        assert!(!out.chars().any(is_unsafe));
    }
}
