//! CharToM-QA's block of the summary page (`s`): BPC and PR per model and dimension,
//! human vs the LLM judge, as `verdict stats` gives them.

use ratatui::text::{Line, Span};

use crate::bench::chartom_qa::stats::QaStats;
use crate::tui::summary::{SummaryBlock, bar, fit, pct};
use crate::tui::text::{one_line, truncate};
use crate::tui::theme::Theme;
use crate::tui::views::common::heading;

impl SummaryBlock for QaStats {
    fn summary_lines(&self, t: &Theme, width: u16, lines: &mut Vec<Line<'static>>) {
        lines.push(Line::from(""));
        lines.push(heading(t, "CharToM-QA · BPC and PR, human vs LLM judge"));
        for (m, mv) in &self.models {
            lines.push(Line::from(vec![
                Span::styled(format!("  {:<18}", truncate(&one_line(m), 18)), t.accent),
                Span::raw(format!(
                    "human BPC {} PR {}   judge BPC {} PR {}",
                    pct(mv.human.bpc),
                    pct(mv.human.pr),
                    pct(mv.judge.bpc),
                    pct(mv.judge.pr)
                )),
            ]));
            for (k, dv) in &mv.dimensions {
                lines.push(Line::from(vec![
                    Span::styled(format!("    {:<14}", truncate(&one_line(k), 14)), t.dim),
                    Span::raw(format!("human {} ", pct(dv.human.bpc))),
                    bar(dv.human.bpc, fit(width, 45) / 2, t.bar),
                    Span::raw(format!("  judge {} ", pct(dv.judge.bpc))),
                    bar(dv.judge.bpc, fit(width, 45) / 2, t.bar_other),
                ]));
            }
        }
    }
}
