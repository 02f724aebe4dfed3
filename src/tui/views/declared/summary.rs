//! The declared benchmark's block of the summary page (`s`): per question, how many of
//! the items or responses it is asked of are answered, and its answers as `verdict stats`
//! counts them (`bench::declared::stats`).

use ratatui::text::{Line, Span};

use crate::bench::declared::stats::DeclaredStats;
use crate::tui::summary::{SummaryBlock, bar, fit};
use crate::tui::text::{one_line, truncate};
use crate::tui::theme::Theme;
use crate::tui::views::common::heading;

impl SummaryBlock for DeclaredStats {
    fn summary_lines(&self, t: &Theme, width: u16, lines: &mut Vec<Line<'static>>) {
        lines.push(Line::from(""));
        lines.push(heading(
            t,
            &format!(
                "{} · {} items, {} responses",
                one_line(&self.name),
                self.items,
                self.responses
            ),
        ));
        let room = usize::from(width).saturating_sub(6);
        for q in &self.questions {
            let tally = &q.tally;
            let share = (q.asked > 0).then(|| tally.answered as f64 / q.asked as f64);
            lines.push(Line::from(vec![
                Span::styled(
                    format!("  {:<16} ", truncate(&one_line(&q.name), 16)),
                    t.accent,
                ),
                Span::raw(format!("{} of {} answered ", tally.answered, q.asked)),
                bar(share, fit(width, 45), t.bar),
            ]));
            let mut answers: Vec<String> = tally
                .counts
                .iter()
                .map(|(k, n)| format!("{} {n}", one_line(k)))
                .collect();
            if let Some(m) = tally.mean {
                answers.push(format!("mean {m:.2}"));
            }
            if !tally.points.is_empty() {
                let points: Vec<String> = tally
                    .points
                    .iter()
                    .map(|(p, n)| format!("#{p} {n}"))
                    .collect();
                answers.push(format!("points ticked: {}", points.join(", ")));
            }
            if !answers.is_empty() {
                lines.push(Line::from(Span::styled(
                    format!("    {}", truncate(&answers.join(", "), room)),
                    t.dim,
                )));
            }
        }
    }
}
