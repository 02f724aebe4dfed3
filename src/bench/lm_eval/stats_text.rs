//! lm-eval samples in `verdict stats` text (docs/stats.md): per filter, the harness's
//! metric next to the human-corrected one.

use std::fmt::Write as _;

use super::stats::LmEvalStats;
use crate::bench::Benchmark;
use crate::stats::text::{clean, pct, table};

/// Its block of `verdict stats` text, when the file has samples.
pub(crate) fn render(stats: &Option<LmEvalStats>, o: &mut String) {
    let Some(x) = stats else {
        return;
    };
    let n: u64 = x.filters.values().map(|f| f.samples).sum();
    let _ = writeln!(
        o,
        "\n{} ({n} samples; corrected: correct 1, incorrect 0, ambiguous-key left out, unreviewed as scored)",
        Benchmark::LmEval.title()
    );
    let rows: Vec<Vec<String>> = x
        .filters
        .iter()
        .map(|(name, f)| {
            let metric = f.metric.as_deref().unwrap_or("-");
            vec![
                clean(name),
                f.samples.to_string(),
                clean(metric),
                pct(f.metric.as_ref().and_then(|m| f.harness.get(m).copied())),
                pct(f.corrected),
                f.reviewed.to_string(),
                format!(
                    "{}/{}/{}",
                    f.correct_but_scored_0, f.incorrect_but_scored_1, f.ambiguous_key
                ),
            ]
        })
        .collect();
    table(
        o,
        &[
            "filter",
            "n",
            "metric",
            "harness",
            "corrected",
            "reviewed",
            "0→correct/1→incorrect/ambiguous",
        ],
        &rows,
    );
}
