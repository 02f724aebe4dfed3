//! `verdict check FILE [--json]`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::check::{self, Problem, Severity};
use crate::cli::out::{self, errln};
use crate::sanitize;

/// Exit codes: 0 when the file has no errors (warnings and notices allowed), 1 when it has
/// errors, 2 when it cannot be read at all.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Exit code: 0 when the file has no errors (warnings and notices allowed), \
                  1 when it has errors, 2 when it cannot be read at all, 141 when the output's reader \
                  went away (`| head`). See docs/import.md."
)]
pub struct Args {
    /// The result set, or a folder of lm-eval output or of Inspect logs: every samples
    /// file (every run) or log in it, one report each; the exit code is the worst one's.
    pub file: PathBuf,
    /// Print the report as JSON: {"file", "items", "errors", "warnings", "notices",
    /// "problems": [{"line", "id", "field", "severity", "message"}]} (a folder: one such
    /// line per file).
    #[arg(long)]
    pub json: bool,
    /// Do not check that image files exist.
    #[arg(long)]
    pub no_images: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // (a folder that is no set: the file's own error, in the report's form)
    let Ok(Some(files)) = super::set_files(&args.file, true) else {
        return Ok(ExitCode::from(check_one(&args, &args.file)?));
    };
    let mut worst = 0;
    for f in &files {
        worst = worst.max(check_one(&args, f)?);
    }
    Ok(ExitCode::from(worst))
}

/// Check one file and print its report; its exit code.
fn check_one(args: &Args, file: &std::path::Path) -> anyhow::Result<u8> {
    let opts = check::Options {
        images: !args.no_images,
    };
    let report = match check::check_file(file, opts) {
        Ok(r) => r,
        Err(e) => {
            if args.json {
                let r = check::Report {
                    file: file.to_path_buf(),
                    items: 0,
                    container: None,
                    problems: vec![Problem {
                        line: None,
                        id: None,
                        field: None,
                        severity: Severity::Error,
                        message: format!("cannot read the file: {e}"),
                    }],
                };
                out::print(&format!("{}\n", r.to_json()))?;
            } else {
                errln!("verdict: {e}")?;
            }
            return Ok(2);
        }
    };
    print(&report, args.json)?;
    Ok(if report.is_clean() { 0 } else { 1 })
}

fn print(report: &check::Report, json: bool) -> std::io::Result<()> {
    let mut out = out::stdout(if json {
        sanitize::Form::Json
    } else {
        sanitize::Form::Text
    });
    if json {
        writeln!(out, "{}", report.to_json())?;
    } else {
        let file = sanitize::line(&report.file.to_string_lossy()).into_owned();
        for p in &report.problems {
            let mut s = file.clone();
            match p.line {
                // (a log's items are its samples, not lines of the file)
                Some(l) if report.container.is_some() => s.push_str(&format!(": item {l}")),
                Some(l) => s.push_str(&format!(":{l}")),
                None => {}
            }
            s.push_str(": ");
            if let Some(id) = &p.id {
                s.push_str(&sanitize::line(id));
                s.push_str(": ");
            }
            if let Some(f) = &p.field {
                s.push_str(&sanitize::line(f));
                s.push_str(": ");
            }
            s.push_str(p.severity.name());
            s.push_str(": ");
            s.push_str(&sanitize::line(&p.message));
            writeln!(out, "{s}")?;
        }
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        if let Some(c) = &report.container {
            // what the items are: the file's own records, read by its format's reader
            writeln!(out, "{file}: read as {}", sanitize::line(c))?;
        }
        writeln!(
            out,
            "{file}: {}, {}, {}, {}",
            plural(report.items, "item"),
            plural(report.errors(), "error"),
            plural(report.warnings(), "warning"),
            plural(report.notices(), "notice"),
        )?;
    }
    out.flush()
}
