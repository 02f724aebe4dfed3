//! C-VQA's block of the summary page (`s`): per model and group the accuracy on the
//! original and the counterfactual question and their difference, and the verification.

use ratatui::text::{Line, Span};

use crate::bench::cvqa::stats::CvqaStats;
use crate::tui::summary::{SummaryBlock, bar, finite, fit, pct};
use crate::tui::text::{one_line, truncate};
use crate::tui::theme::Theme;
use crate::tui::views::common::heading;

impl SummaryBlock for CvqaStats {
    fn summary_lines(&self, t: &Theme, width: u16, lines: &mut Vec<Line<'static>>) {
        lines.push(Line::from(""));
        lines.push(heading(
            t,
            "C-VQA · accuracy original vs counterfactual, by group",
        ));
        for (m, mv) in &self.models {
            lines.push(Line::from(Span::styled(
                format!("  {}", one_line(m)),
                t.accent,
            )));
            for (k, gv) in &mv.groups {
                lines.push(Line::from(vec![
                    Span::styled(
                        format!(
                            "    {:<15} n={:<5} ",
                            truncate(&one_line(k), 15),
                            gv.n.to_string()
                        ),
                        t.dim,
                    ),
                    Span::raw(format!("orig {} ", pct(gv.original_accuracy))),
                    bar(gv.original_accuracy, fit(width, 60) / 2, t.bar),
                    Span::raw(format!("  cf {} ", pct(gv.counterfactual_accuracy))),
                    bar(gv.counterfactual_accuracy, fit(width, 60) / 2, t.bar_other),
                    Span::styled(
                        format!(
                            "  Δ {}",
                            finite(gv.difference)
                                .map(|d| format!("{:+.1}", d * 100.0))
                                .unwrap_or("–".into())
                        ),
                        t.warn,
                    ),
                ]));
            }
        }
        let ver = &self.verification;
        let parts: Vec<String> = [
            ("accepted", ver.accepted),
            ("fixed", ver.fixed),
            ("rejected", ver.rejected),
            ("unreviewed", ver.unreviewed),
            ("not_image_related", ver.not_image_related),
            ("answer_not_ok", ver.answer_not_ok),
        ]
        .iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
        lines.push(Line::from(Span::styled(
            format!(
                "  verification (the verdict that counts): {}",
                parts.join(" · ")
            ),
            t.dim,
        )));
    }
}
