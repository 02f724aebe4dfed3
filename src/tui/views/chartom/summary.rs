//! CHARTOM's block of the summary page (`s`): per model the FACT accuracy, by chart type
//! and by version, the MIND MSE and the justification grades; and the MIND predictions
//! the HMI plot draws.

use std::collections::BTreeMap;

use ratatui::text::{Line, Span};

use crate::bench::chartom::stats::ChartomStats;
use crate::store::Store;
use crate::tui::summary::{SummaryBlock, bar, finite, fit, pct};
use crate::tui::text::{one_line, truncate};
use crate::tui::theme::Theme;
use crate::tui::views::common::heading;

impl SummaryBlock for ChartomStats {
    fn summary_lines(&self, t: &Theme, width: u16, lines: &mut Vec<Line<'static>>) {
        lines.push(Line::from(""));
        lines.push(heading(
            t,
            "CHARTOM · FACT accuracy, MIND MSE, justification grades",
        ));
        for (m, mv) in &self.models {
            lines.push(Line::from(vec![
                Span::styled(format!("  {:<18}", truncate(&one_line(m), 18)), t.accent),
                Span::raw(format!("FACT {}  ", pct(mv.fact_accuracy))),
                bar(mv.fact_accuracy, fit(width, 46), t.bar),
                Span::raw(format!(
                    "  MSE {}",
                    finite(mv.mind_mse)
                        .map(|x| format!("{x:.4}"))
                        .unwrap_or("–".into())
                )),
            ]));
            for (by_version, figures) in [(false, &mv.by_type), (true, &mv.by_version)] {
                for (k, kv) in figures {
                    let acc = kv.fact_accuracy;
                    lines.push(Line::from(vec![
                        Span::styled(format!("    {:<16}", truncate(&one_line(k), 16)), t.dim),
                        Span::raw(format!("{}  ", pct(acc))),
                        bar(
                            acc,
                            fit(width, 29),
                            if by_version && k == "manipulated" {
                                t.bar_other
                            } else {
                                t.bar
                            },
                        ),
                    ]));
                }
            }
            let j = &mv.justification;
            let parts: Vec<String> = [
                ("identifies", j.identifies),
                ("partial", j.partial),
                ("misses", j.misses),
                ("ungraded", j.ungraded),
            ]
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
            lines.push(Line::from(Span::styled(
                format!("    justification: {}", parts.join(" · ")),
                t.dim,
            )));
        }
    }
}

/// The models' MIND predictions (model → prediction) of each chart of
/// [`ChartomStats::charts`], in its order, for the summary's HMI plot: a chart whose id
/// an earlier chart has too has none.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Predictions(pub(crate) Vec<Option<BTreeMap<String, Option<f64>>>>);

impl Predictions {
    pub(crate) fn compute(store: &Store, stats: &ChartomStats) -> Predictions {
        let mut preds = crate::bench::chartom::stats::mind_predictions(store);
        Predictions(
            stats
                .charts
                .iter()
                .map(|c| {
                    preds.remove(&c.id).map(|m| {
                        m.into_iter()
                            .map(|(model, x)| (model, x.as_f64()))
                            .collect()
                    })
                })
                .collect(),
        )
    }
}
