//! C-VQA in `verdict stats` text (docs/stats.md).

use std::fmt::Write as _;

use super::stats::{AccFigures, CvqaStats};
use crate::bench::Benchmark;
use crate::bench::kit::text::{clean, counts, pct, pts, table};

pub(crate) fn acc_row(name: &str, f: &AccFigures) -> Vec<String> {
    vec![
        clean(name),
        f.n.to_string(),
        pct(f.original_accuracy),
        pct(f.counterfactual_accuracy),
        pts(f.difference),
        format!("{}/{}", f.original_failed, f.counterfactual_failed),
    ]
}

/// Its block of `verdict stats` text, when the file has items of it.
pub(crate) fn render(stats: &Option<CvqaStats>, o: &mut String) {
    if let Some(c) = stats {
        let _ = writeln!(o, "\n{} ({} items)", Benchmark::Cvqa.title(), c.items);
        for (model, m) in &c.models {
            let _ = writeln!(
                o,
                "\n  model {}  (accuracy after reviewer overrides; difference = original - counterfactual, points)",
                clean(model)
            );
            let mut rows: Vec<Vec<String>> = m.groups.iter().map(|(g, f)| acc_row(g, f)).collect();
            rows.push(acc_row("overall", &m.overall));
            rows.push(acc_row("automatic (scripts)", &m.automatic.overall));
            rows.push(acc_row("fixed keys", &m.fixed_key));
            table(
                o,
                &[
                    "group",
                    "n",
                    "original",
                    "counterfactual",
                    "diff",
                    "failed o/c",
                ],
                &rows,
            );
        }
        let v = &c.verification;
        let reasons = counts(&v.by_reason);
        let _ = writeln!(
            o,
            "\n  question verification (the verdict that counts): {} accepted, {} fixed, {} rejected, {} unreviewed{}",
            v.accepted,
            v.fixed,
            v.rejected,
            v.unreviewed,
            if reasons.is_empty() {
                String::new()
            } else {
                format!(" (reasons: {reasons})")
            }
        );
    }
}
