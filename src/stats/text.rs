//! The text of `verdict stats` that more than one front end prints: a folder's set (the
//! command's, and the reviewer's summary page of a set) and the reviewers' table.

use std::fmt::Write as _;
use std::path::PathBuf;

use super::{ResolutionCounts, ReviewerStats, Stats};
use crate::bench::kit::sums::Merge;
use crate::bench::kit::text::{clean, table};

/// `verdict stats DIR`'s text: the set `folder` of files `all` (each with its figures),
/// `total` the files of every run.
pub fn set(folder: &str, all: Vec<(PathBuf, Stats)>, total: usize) -> String {
    let mut o = String::new();
    let items: u64 = all.iter().map(|(_, s)| s.items).sum();
    let unreadable: u64 = all.iter().map(|(_, s)| s.unreadable).sum();
    let _ = writeln!(
        o,
        "{}: {} files, {items} items{}{}",
        clean(folder),
        all.len(),
        if unreadable > 0 {
            format!(" ({unreadable} unreadable, left out)")
        } else {
            String::new()
        },
        match total {
            n if n > all.len() => format!(
                " (each task's latest run: {} of {n} samples files; --all-runs for every run)",
                all.len()
            ),
            _ => String::new(),
        }
    );
    let parts: Vec<(&std::path::Path, &crate::bench::Benchmarks)> = all
        .iter()
        .map(|(f, s)| (f.as_path(), &s.benchmarks))
        .collect();
    crate::bench::Benchmarks::render_set(&parts, &mut o);
    let mut by_reviewer = std::collections::BTreeMap::new();
    let mut resolution = ResolutionCounts::default();
    for (_, s) in all {
        by_reviewer.absorb(s.reviews);
        resolution.absorb(s.resolution);
    }
    reviews(&by_reviewer, &resolution, &mut o);
    o
}

/// The reviewers' table and how the human verdicts were resolved.
pub fn reviews(
    reviews: &std::collections::BTreeMap<String, ReviewerStats>,
    resolution: &ResolutionCounts,
    o: &mut String,
) {
    if !reviews.is_empty() {
        let _ = writeln!(o, "\nReviews");
        let rows: Vec<Vec<String>> = reviews
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
            o,
            &["reviewer", "items", "done", "final", "by benchmark"],
            &rows,
        );
        let _ = writeln!(o, "\n  {}", crate::stats::resolution_text(resolution));
    }
}
