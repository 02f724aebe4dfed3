//! CharToM-QA in `verdict stats` text (docs/stats.md).

use std::fmt::Write as _;

use super::stats::{QaFigures, QaStats};
use crate::bench::Benchmark;
use crate::bench::kit::text::{clean, pct, table};

pub(crate) fn qa_row(name: &str, j: &QaFigures, h: &QaFigures) -> Vec<String> {
    vec![
        clean(name),
        j.n.to_string(),
        pct(j.bpc),
        pct(j.pr),
        j.unparsable.to_string(),
        h.points.to_string(),
        pct(h.bpc),
        h.n.to_string(),
        pct(h.pr),
    ]
}

/// Its block of `verdict stats` text, when the file has items of it.
pub(crate) fn render(stats: &Option<QaStats>, o: &mut String) {
    if let Some(q) = stats {
        let _ = writeln!(o, "\n{} ({} items)", Benchmark::ChartomQa.title(), q.items);
        let header = [
            "model / dimension",
            "judge n",
            "BPC",
            "PR",
            "unparsable",
            "human points",
            "BPC",
            "human n",
            "PR",
        ];
        let mut rows = Vec::new();
        for (name, m) in &q.models {
            rows.push(qa_row(name, &m.judge, &m.human));
            for (d, f) in &m.dimensions {
                rows.push(qa_row(&format!("  {}", d), &f.judge, &f.human));
            }
        }
        table(o, &header, &rows);
    }
}
