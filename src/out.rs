//! Every byte verdict prints on standard output and error goes through here, made
//! harmless: text through [`sanitize::text`], JSON through [`sanitize::json_pretty`],
//! streams through [`sanitize::Writer`]. The command line prints with it (`cli::out`), and
//! so does the reviewer before and after its screen (its waiting and exit messages).

// The one way out: clippy.toml keeps the rest of the code off raw stdout and stderr.
#![allow(clippy::disallowed_methods)]

use std::io::{self, Write};

use serde::Serialize;

use crate::sanitize;

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
        $crate::out::print(&format!("{}\n", format_args!($($arg)*)))
    };
}
/// `eprintln!` through [`eprint`]: `errln!("...", ...)?`.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::out::eprint(&format!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use {errln, outln};
