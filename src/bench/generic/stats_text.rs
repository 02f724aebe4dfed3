//! Other benchmarks in `verdict stats` text (docs/stats.md).

use std::fmt::Write as _;

use super::stats::OtherStats;
use crate::bench::kit::text::clean;

/// Its block of `verdict stats` text, when the file has items of it.
pub(crate) fn render(stats: &Option<OtherStats>, o: &mut String) {
    if let Some(x) = stats {
        let verdicts = x
            .verdicts
            .iter()
            .map(|(k, n)| format!("{} {n}", clean(k)))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(
            o,
            "\nOther benchmarks: {} items; verdicts: {}",
            x.items,
            if verdicts.is_empty() {
                "none".into()
            } else {
                verdicts
            }
        );
    }
}
