//! Every byte the command line prints goes through here: text through
//! [`sanitize::text`], JSON through [`sanitize::json_pretty`], streams through
//! [`sanitize::Writer`]. Commands never use `println!` or `eprintln!` (clippy's
//! `print_stdout` and `print_stderr` lints are on for the crate).
//!
//! Writing to a closed pipe (`verdict export FILE --csv | head -1`) is not an error: the
//! write fails with `BrokenPipe`, the command stops, and `verdict` exits quietly with
//! status [`BROKEN_PIPE`] (128 + SIGPIPE, what a shell reports for a program that
//! `SIGPIPE` stopped), so `set -o pipefail` scripts see that the output was cut short.

// The one way out: clippy.toml keeps the rest of the code off raw stdout and stderr.
#![allow(clippy::disallowed_methods)]

use std::io::{self, Write};

use serde::Serialize;

use crate::sanitize;

/// The exit status after standard output or standard error was closed early.
pub const BROKEN_PIPE: u8 = 141;

/// Print `s` on standard output, made harmless.
pub fn print(s: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(sanitize::text(s).as_bytes())?;
    out.flush()
}

/// Print `s` on standard error, made harmless.
pub fn eprint(s: &str) -> io::Result<()> {
    let mut err = io::stderr().lock();
    err.write_all(sanitize::text(s).as_bytes())?;
    err.flush()
}

/// Print `v` as indented JSON on standard output, safe for a terminal and equal in
/// meaning.
pub fn print_json<T: Serialize + ?Sized>(v: &T) -> io::Result<()> {
    let mut s = sanitize::json_pretty(v).map_err(io::Error::other)?;
    s.push('\n');
    let mut out = io::stdout().lock();
    out.write_all(s.as_bytes())?;
    out.flush()
}

/// Standard output as a sanitising stream, buffered.
pub fn stdout(form: sanitize::Form) -> sanitize::Writer<io::BufWriter<io::StdoutLock<'static>>> {
    sanitize::Writer::new(io::BufWriter::new(io::stdout().lock()), form)
}

/// `println!` through [`print`]: `outln!("...", ...)?`.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::out::print(&format!("{}\n", format_args!($($arg)*)))
    };
}
/// `eprintln!` through [`eprint`]: `errln!("...", ...)?`.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::cli::out::eprint(&format!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use {errln, outln};

/// Whether `e` (or any error in its chain) is a write to a closed pipe.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(broken_pipe)
}

/// Also through the errors that wrap an `io::Error` without naming it as their source
/// (`io::Error::other(serde_json::Error)`, `csv::Error`).
fn broken_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    if let Some(io) = e.downcast_ref::<io::Error>() {
        return io.kind() == io::ErrorKind::BrokenPipe
            || io.get_ref().is_some_and(|i| broken_pipe(i));
    }
    if let Some(j) = e.downcast_ref::<serde_json::Error>() {
        return j.io_error_kind() == Some(io::ErrorKind::BrokenPipe);
    }
    if let Some(c) = e.downcast_ref::<csv::Error>() {
        return matches!(c.kind(), csv::ErrorKind::Io(io) if io.kind() == io::ErrorKind::BrokenPipe);
    }
    false
}

/// An error and its causes on one line, `outer: inner: innermost`, leaving out a cause
/// that the message before it already says (an error that prints its source, as
/// `path: No such file or directory (os error 2)` does, would print it twice).
pub fn error_message(e: &anyhow::Error) -> String {
    let mut msg = String::new();
    for cause in e.chain() {
        let s = cause.to_string();
        if s.is_empty() || msg.contains(&s) {
            continue;
        }
        if !msg.is_empty() {
            msg.push_str(": ");
        }
        msg.push_str(&s);
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cause_is_said_once() {
        let io = io::Error::from(io::ErrorKind::NotFound);
        let text = io.to_string();
        let e = anyhow::Error::new(crate::store::StoreError::Io {
            path: "r.jsonl".into(),
            source: io,
        })
        .context("cannot open r.jsonl");
        let m = error_message(&e);
        assert_eq!(m.matches(&text).count(), 1, "{m}");
        assert!(m.starts_with("cannot open r.jsonl: r.jsonl: "), "{m}");
    }

    #[test]
    fn broken_pipes_are_found_in_the_chain() {
        let e = anyhow::Error::new(crate::export::ExportError::Io(io::Error::from(
            io::ErrorKind::BrokenPipe,
        )));
        assert!(is_broken_pipe(&e));
        let e = anyhow::Error::new(crate::export::ExportError::Csv(csv::Error::from(
            io::Error::from(io::ErrorKind::BrokenPipe),
        )));
        assert!(is_broken_pipe(&e));
        let json = serde_json::Error::io(io::Error::from(io::ErrorKind::BrokenPipe));
        let e = anyhow::Error::new(crate::export::ExportError::Io(io::Error::other(json)));
        assert!(is_broken_pipe(&e));
        assert!(!is_broken_pipe(&anyhow::anyhow!("Broken pipe")));
    }
}
