//! A declared benchmark in `verdict stats` text (docs/stats.md): one line per question.

use std::fmt::Write as _;

use super::stats::DeclaredStats;
use crate::bench::kit::text::clean;

/// Its block of `verdict stats` text, when the file has items of it.
pub(crate) fn render(stats: &Option<DeclaredStats>, o: &mut String) {
    let Some(x) = stats else { return };
    let _ = writeln!(
        o,
        "\n{}: {} items, {} responses",
        clean(&x.name),
        x.items,
        x.responses
    );
    for q in &x.questions {
        let t = &q.tally;
        let mut line = format!(
            "  {} ({}, per {}): {} of {} answered",
            clean(&q.name),
            q.kind,
            if q.per == crate::question::Per::Item {
                "item"
            } else {
                "response"
            },
            t.answered,
            q.asked
        );
        if !t.counts.is_empty() {
            let counts: Vec<String> = t
                .counts
                .iter()
                .map(|(k, n)| format!("{} {n}", clean(k)))
                .collect();
            let _ = write!(line, "; {}", counts.join(", "));
        }
        if let Some(m) = t.mean {
            let _ = write!(line, "; mean {m:.2}");
        }
        if !t.points.is_empty() {
            let points: Vec<String> = t.points.iter().map(|(p, n)| format!("#{p} {n}")).collect();
            let _ = write!(line, "; points ticked: {}", points.join(", "));
        }
        let _ = writeln!(o, "{line}");
    }
}
