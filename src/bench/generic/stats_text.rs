//! Other benchmarks in `verdict stats` text (docs/stats.md).

use std::fmt::Write as _;

use super::stats::OtherStats;
use crate::bench::kit::text::counts;

/// Its block of `verdict stats` text, when the file has items of it.
pub(crate) fn render(stats: &Option<OtherStats>, o: &mut String) {
    if let Some(x) = stats {
        let verdicts = counts(&x.verdicts);
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
