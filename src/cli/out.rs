//! The command line's output. Every byte it prints goes through [`crate::out`] (shared
//! with the reviewer's messages before and after its screen): text through
//! [`sanitize::text`](crate::sanitize::text), JSON through
//! [`sanitize::json_pretty`](crate::sanitize::json_pretty), streams through
//! [`sanitize::Writer`](crate::sanitize::Writer). Commands never use `println!` or
//! `eprintln!` (clippy's `print_stdout` and `print_stderr` lints are on for the crate).
//!
//! Writing to a closed pipe (`verdict export FILE --csv | head -1`) is not an error: the
//! write fails with `BrokenPipe`, the command stops, and `verdict` exits quietly with
//! status [`BROKEN_PIPE`] (128 + SIGPIPE, what a shell reports for a program that
//! `SIGPIPE` stopped), so `set -o pipefail` scripts see that the output was cut short.

use std::io;

pub use crate::out::{eprint, print, print_json, stdout};
pub(crate) use crate::out::{errln, outln};

/// The exit status after standard output or standard error was closed early.
pub const BROKEN_PIPE: u8 = 141;

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
