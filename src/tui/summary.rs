//! The summary page's figures (`s`): those of `verdict stats`, typed as the command computes
//! them, computed on a thread (`threads::spawn_summary`) from the file and its journals
//! (and an lm-eval group's other tasks' files and journals).
//! Each benchmark's view draws its own block of the page from its own figures
//! ([`SummaryBlock`], as `bench/<name>/stats_text.rs` is its block of `verdict stats`);
//! the page around them is `overlays/summary.rs`.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::stats::Stats;
use crate::store::Store;
use crate::tui::theme::Theme;
use crate::tui::views::SummaryExtras;

/// What the summary page shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// The figures of `verdict stats` (`stats::compute`); boxed, as `Msg::Summary` carries
    /// them.
    pub stats: Box<Stats>,
    /// What the benchmarks' views add for the page (a plot's data).
    pub extras: SummaryExtras,
    /// The lines of the agreement report (`team::agree::text::summary_lines`).
    pub agreement: Vec<String>,
    /// A folder read as one set: `verdict stats DIR`'s text (every file's figures in
    /// the harness's layout), in place of one file's blocks.
    pub set: Option<String>,
}

/// The summary page's figures for the file in `store`, or for the files of a folder's
/// set, each read as on disk with its journals (every verdict recorded so far).
pub fn compute(store: &Store) -> Summary {
    if let Some(parts) = store.parts() {
        // each file as it is now, once: its figures and the set's agreement
        let files: Vec<Store> = parts
            .iter()
            .filter_map(|p| Some(crate::session::open_with_journal(p.path()).ok()?.0))
            .collect();
        let all: Vec<_> = files
            .iter()
            .map(|f| (f.path().to_path_buf(), with_run(f)))
            .collect();
        let n = all.len();
        let now = Store::set(store.path().to_path_buf(), files);
        return Summary {
            stats: Box::default(),
            extras: SummaryExtras::default(),
            agreement: crate::team::agree::text::summary_lines(&crate::team::agree::report(&now)),
            set: Some(crate::stats::text::set(
                &store.path().display().to_string(),
                all,
                n,
            )),
        };
    }
    let stats = with_run(store);
    let extras = SummaryExtras::compute(store, &stats.benchmarks);
    let agreement = crate::team::agree::text::summary_lines(&crate::team::agree::report(store));
    Summary {
        stats: Box::new(stats),
        extras,
        agreement,
        set: None,
    }
}

/// The figures of the file in `store`, with the other files of its run where a figure is
/// over several (an lm-eval group's: their verdicts count too, as in `verdict stats`).
fn with_run(store: &Store) -> crate::stats::Stats {
    let mut stats = crate::stats::compute(store);
    stats.benchmarks.with_other_files(|p| {
        let (other, _, _) = crate::session::open_with_journal(p).ok()?;
        Some(crate::stats::compute(&other).benchmarks)
    });
    stats
}

/// A benchmark's block of the summary page, drawn from its typed figures.
pub trait SummaryBlock {
    /// Its lines (a blank line, its heading, its rows) for a page `width` cells wide.
    fn summary_lines(&self, t: &Theme, width: u16, lines: &mut Vec<Line<'static>>);
}

/// What a bar may take of a row of a page `width` wide whose text takes `fixed` cells:
/// rows fit the width, never cut.
pub(crate) fn fit(width: u16, fixed: usize) -> usize {
    (width as usize).saturating_sub(fixed).clamp(2, 40)
}

/// A figure as the page shows it: a finite number (as in `verdict stats --json`, which
/// writes null for any other).
pub(crate) fn finite(x: Option<f64>) -> Option<f64> {
    x.filter(|x| x.is_finite())
}

/// A share as a percentage, "–" when there is none.
pub(crate) fn pct(x: Option<f64>) -> String {
    finite(x)
        .map(|x| format!("{:5.1}%", x * 100.0))
        .unwrap_or_else(|| "    –".into())
}

/// A share as a bar of at most `width` cells.
pub(crate) fn bar(x: Option<f64>, width: usize, style: Style) -> Span<'static> {
    let x = finite(x).unwrap_or(0.0).clamp(0.0, 1.0);
    Span::styled("█".repeat((x * width as f64).round() as usize), style)
}
