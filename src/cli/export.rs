use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use crate::cli::out::{self, errln};
use crate::export::{ExportFormat, export_set};
use crate::sanitize;

/// One row per item x model, with the automatic grades, the grades that count after
/// human review (overrides, adjudication, majority), the resolved human verdict and the
/// item's reviews as JSON. Items without responses give one row with an empty model.
/// Verdicts still in the journal (after a crash) are included.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("format").required(true).args(["csv", "jsonl"])))]
pub struct Args {
    /// The result set, or a folder of lm-eval output or of Inspect logs: one export of
    /// every samples file or log in it (each task's latest run unless `--all-runs`), its
    /// rows told apart by the `task`, `model` and `run` columns.
    pub file: PathBuf,
    /// A folder: every run of each task, not only the latest.
    #[arg(long)]
    pub all_runs: bool,
    /// Write CSV (lists and objects as JSON text in their cells).
    #[arg(long)]
    pub csv: bool,
    /// Write JSON Lines, one object per row.
    #[arg(long)]
    pub jsonl: bool,
    /// Write to this file (atomically) instead of standard output. On standard output,
    /// unsafe characters (escape sequences, control and bidi characters) are escaped so
    /// they cannot act on a terminal: `\uXXXX` in JSONL (the same value when parsed),
    /// visible stand-ins such as `␛` in CSV (a changed cell, counted on standard error).
    /// The file gets the exact text.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let files = super::set_files(&args.file, args.all_runs)?;
    let sources: Vec<PathBuf> = files.unwrap_or_else(|| vec![args.file.clone()]);
    let stores = sources
        .iter()
        .map(|f| super::open_with_journal(f))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let stores: Vec<&crate::store::Store> = stores.iter().collect();
    let format = if args.csv {
        ExportFormat::Csv
    } else {
        ExportFormat::Jsonl
    };
    let report = match &args.output {
        None => {
            let mut w = out::stdout(match format {
                ExportFormat::Csv => sanitize::Form::Text,
                ExportFormat::Jsonl => sanitize::Form::Json,
            });
            let r = export_set(&stores, format, &mut w)?;
            w.flush()?;
            if format == ExportFormat::Csv && w.replaced() > 0 {
                errln!(
                    "verdict: {} unsafe character(s) (escape sequences, control or bidi characters) shown escaped, as `␛` or `\\u{{..}}`; `-o FILE` writes the exact text",
                    w.replaced()
                )?;
            }
            r
        }
        Some(out) => {
            let dir = match out.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            // The export holds the set's content: no more open than the set.
            let perms = crate::perms::Derived::of_sources(
                &sources.iter().map(PathBuf::as_path).collect::<Vec<_>>(),
            )?;
            let name = out
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let tmp = perms
                .tempfile_in(&dir, &name)
                .with_context(|| format!("{}: cannot create a file here", dir.display()))?;
            let mut w = BufWriter::new(tmp);
            let r = export_set(&stores, format, &mut w)
                .with_context(|| format!("writing {}", out.display()))?;
            let tmp = w
                .into_inner()
                .map_err(|e| e.into_error())
                .with_context(|| format!("writing {}", out.display()))?;
            tmp.as_file().sync_all()?;
            perms
                .narrow_to_replaced(tmp.path(), out)
                .with_context(|| format!("writing {}", out.display()))?;
            tmp.persist(out)
                .map_err(|e| e.error)
                .with_context(|| format!("writing {}", out.display()))?;
            r
        }
    };
    if args.output.is_some() {
        errln!("verdict: wrote {} rows", report.rows)?;
    }
    if report.unreadable > 0 {
        errln!(
            "verdict: {} unreadable item(s) exported with their error (column `error`); run `verdict check` for details",
            report.unreadable
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
