use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::bench::kit::text::clean;
use crate::cli::out;
use crate::stats::*;

/// The papers' figures for a result set: C-VQA accuracy on original and counterfactual
/// questions and their difference, per group; CHARTOM FACT accuracy by chart type and
/// version, MIND MSE and the HMI recomputed from human answers; CharToM-QA BPC and PR by
/// dimension, from the LLM judge and from human reviews; review progress per reviewer.
///
/// Verdicts still in the journal (after a crash) are counted. `--json` prints the
/// document described in docs/stats.md.
///
/// A folder (lm-eval's output, a folder of Inspect logs) is read as one set: every
/// samples file or log in it (each task's latest run unless `--all-runs`), one table.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The result set, or a folder of lm-eval output or of Inspect logs.
    pub file: PathBuf,
    /// Print the figures as JSON (shape documented in docs/stats.md).
    #[arg(long)]
    pub json: bool,
    /// A folder: every run of each task, not only the latest.
    #[arg(long)]
    pub all_runs: bool,
    /// lm-eval: write beside each run's results file `verdict_corrected_<date>.json`, the
    /// same document with each corrected figure as `<metric>_human,<filter>`, which
    /// lm-eval's own tools print (docs/stats.md, "The corrected results file").
    #[arg(long)]
    pub write_corrected: bool,
}

/// `--write-corrected`: write the corrected results files of `all` and say which.
fn write_corrected(all: &[(&Path, &crate::bench::Benchmarks)]) -> anyhow::Result<()> {
    let written =
        crate::bench::Benchmarks::write_corrected(all, |p| Some(file_stats(p).ok()?.benchmarks))?;
    if written.is_empty() {
        out::errln!(
            "verdict: --write-corrected: none of these files has its run's results file beside it to correct; nothing written"
        )?;
    }
    for w in written {
        out::errln!(
            "verdict: wrote {}",
            crate::sanitize::line(&w.display().to_string())
        )?;
    }
    Ok(())
}

/// The figures of one file, the other files of its run counted where a figure is over
/// several (an lm-eval group's tasks).
fn file_stats(path: &Path) -> anyhow::Result<Stats> {
    let store = super::open_with_journal(path)?;
    let mut stats = compute(&store);
    stats
        .benchmarks
        .with_other_files(|p| Some(compute(&super::open_with_journal(p).ok()?).benchmarks));
    Ok(stats)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if let Some(files) = super::set_files(&args.file, args.all_runs)? {
        return run_set(&args, &files);
    }
    let stats = file_stats(&args.file)?;
    if args.write_corrected {
        write_corrected(&[(args.file.as_path(), &stats.benchmarks)])?;
    }
    if args.json {
        out::print_json(&stats)?;
    } else {
        out::print(&render(&stats, &args.file.display().to_string()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One file's figures in `verdict stats DIR --json`: `stats FILE --json` with the file.
#[derive(serde::Serialize)]
struct FileStats<'a> {
    file: String,
    #[serde(flatten)]
    stats: &'a Stats,
}

/// `verdict stats DIR`: every file of the folder, one table.
fn run_set(args: &Args, files: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let all: Vec<(PathBuf, Stats)> = files
        .iter()
        .map(|f| Ok((f.clone(), file_stats(f)?)))
        .collect::<anyhow::Result<_>>()?;
    let parts: Vec<(&Path, &crate::bench::Benchmarks)> = all
        .iter()
        .map(|(f, s)| (f.as_path(), &s.benchmarks))
        .collect();
    if args.write_corrected {
        write_corrected(&parts)?;
    }
    if args.json {
        let files: Vec<FileStats> = all
            .iter()
            .map(|(f, stats)| FileStats {
                file: f.display().to_string(),
                stats,
            })
            .collect();
        out::print_json(&serde_json::json!({
            "folder": args.file.display().to_string(),
            "files": files,
        }))?;
        return Ok(ExitCode::SUCCESS);
    }
    let total = super::set_files(&args.file, true)?.map_or(0, |f| f.len());
    let o = crate::stats::text::set(&args.file.display().to_string(), all, total);
    out::print(&o)?;
    Ok(ExitCode::SUCCESS)
}

/// The human-readable report.
pub fn render(s: &Stats, file: &str) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{}: {} items{}",
        clean(file),
        s.items,
        if s.unreadable > 0 {
            format!(" ({} unreadable, left out)", s.unreadable)
        } else {
            String::new()
        }
    );
    s.benchmarks.render(&mut o);
    crate::stats::text::reviews(&s.reviews, &s.resolution, &mut o);
    o
}
