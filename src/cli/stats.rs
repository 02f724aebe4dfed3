use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::bench::kit::text::{clean, table};
use crate::cli::out;
use crate::stats::*;

/// The papers' figures for a result set: C-VQA accuracy on original and counterfactual
/// questions and their difference, per group; CHARTOM FACT accuracy by chart type and
/// version, MIND MSE and the HMI recomputed from human answers; CharToM-QA BPC and PR by
/// dimension, from the LLM judge and from human reviews; review progress per reviewer.
///
/// Verdicts still in the journal (after a crash) are counted. `--json` prints the
/// document described in docs/stats.md.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The result set.
    pub file: PathBuf,
    /// Print the figures as JSON (shape documented in docs/stats.md).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let store = super::open_with_journal(&args.file)?;
    let mut stats = compute(&store);
    // (a figure over several files of the run: their verdicts count too)
    stats
        .benchmarks
        .with_other_files(|p| Some(compute(&super::open_with_journal(p).ok()?).benchmarks));
    if args.json {
        out::print_json(&stats)?;
    } else {
        out::print(&render(&stats, &args.file.display().to_string()))?;
    }
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
    if !s.reviews.is_empty() {
        let _ = writeln!(o, "\nReviews");
        let rows: Vec<Vec<String>> = s
            .reviews
            .iter()
            .map(|(name, r)| {
                vec![
                    clean(name),
                    r.reviewed.to_string(),
                    r.done.to_string(),
                    r.final_.to_string(),
                    r.by_benchmark
                        .iter()
                        .map(|(b, n)| format!("{} {n}", clean(b)))
                        .collect::<Vec<_>>()
                        .join(", "),
                ]
            })
            .collect();
        table(
            &mut o,
            &["reviewer", "items", "done", "final", "by benchmark"],
            &rows,
        );
        let r = &s.resolution;
        let _ = writeln!(o, "\n  {}", crate::stats::resolution_text(r));
    }
    o
}
