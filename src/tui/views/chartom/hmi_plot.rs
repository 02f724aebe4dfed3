//! CHARTOM's plot on the summary page: the HMI ranking (the paper's Figure 3), drawn in text cells.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::bench::chartom::stats::ChartStat;
use crate::tui::app::State;
use crate::tui::summary::finite;
use crate::tui::text::one_line;
use crate::tui::views::chartom::summary::Predictions;
use crate::tui::views::common::block;

/// The paper's Figure 3: charts sorted by HMI, originals and manipulated with their own
/// glyphs (not only colours, so it reads in mono), the model's prediction for each chart
/// in the same column. A point and a prediction in one cell get a glyph of their own, so
/// no point hides under another.
pub(crate) fn draw_hmi_plot(
    state: &State,
    f: &mut Frame,
    area: Rect,
    charts: &[ChartStat],
    predictions: &Predictions,
) {
    let t = &state.theme;
    let preds = |k: usize| predictions.0.get(k).and_then(Option::as_ref);
    // One model's predictions, named in the title: the first (by name) that has any.
    let model: Option<String> = (0..charts.len())
        .filter_map(preds)
        .flat_map(|o| o.keys())
        .min()
        .cloned();
    let mut pts: Vec<(f64, bool, Option<f64>)> = charts
        .iter()
        .enumerate()
        .filter_map(|(k, c)| {
            let h = finite(c.hmi).or_else(|| finite(c.hmi_recomputed))?;
            let manip = c
                .version
                .as_deref()
                .map(|s| s == "manipulated")
                .unwrap_or(c.id.ends_with("_2"));
            let pred = preds(k).and_then(|p| *p.get(model.as_deref()?)?);
            Some((h, manip, pred))
        })
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let b = block(
        t,
        Span::styled(
            match &model {
                Some(m) => format!(
                    " HMI ranking: charts sorted by HMI, with {}'s MIND prediction ",
                    one_line(m)
                ),
                None => " HMI ranking: charts sorted by HMI ".to_string(),
            },
            t.title,
        ),
    );
    let inner = b.inner(area);
    f.render_widget(b, area);
    let gutter = 4u16;
    if inner.height < 4 || inner.width <= gutter + 2 {
        return;
    }
    let pw = (inner.width - gutter) as usize;
    let ph = (inner.height - 2) as usize;
    // per cell: (originals, manipulated, predictions)
    let mut grid = vec![vec![(0u32, 0u32, 0u32); pw]; ph];
    let n = pts.len();
    let row_of = |y: f64| ((1.0 - y.clamp(0.0, 1.0)) * (ph - 1) as f64).round() as usize;
    for (k, (h, manip, pred)) in pts.iter().enumerate() {
        let col = if n > 1 {
            k * (pw - 1) / (n - 1)
        } else {
            pw / 2
        };
        let cell = &mut grid[row_of(*h)][col];
        if *manip {
            cell.1 += 1;
        } else {
            cell.0 += 1;
        }
        if let Some(p) = pred {
            grid[row_of(*p)][col].2 += 1;
        }
    }
    const GLYPHS: [(char, &str); 6] = [
        ('o', "original"),
        ('x', "manipulated"),
        ('+', "model's prediction"),
        ('⊕', "original + prediction"),
        ('⊗', "manipulated + prediction"),
        ('*', "several"),
    ];
    let style_of = |g: char| match g {
        'o' => t.bar,
        'x' => t.bad,
        '+' => t.accent,
        _ => t.warn,
    };
    let mut used = [false; 6];
    let mut lines = Vec::new();
    for (r, row) in grid.iter().enumerate() {
        let label = if r == 0 {
            "1.0"
        } else if r == ph - 1 {
            "0  "
        } else if r == (ph - 1) / 2 {
            "0.5"
        } else {
            "   "
        };
        let mut spans = vec![Span::styled(format!("{label}┤"), t.dim)];
        for &(o, m, p) in row {
            let g = match (o, m, p) {
                (0, 0, 0) => None,
                (1, 0, 0) => Some(0),
                (0, 1, 0) => Some(1),
                (0, 0, _) => Some(2),
                (1, 0, _) => Some(3),
                (0, 1, _) => Some(4),
                _ => Some(5),
            };
            match g {
                None => spans.push(Span::raw(" ")),
                Some(i) => {
                    used[i] = true;
                    spans.push(Span::styled(GLYPHS[i].0.to_string(), style_of(GLYPHS[i].0)));
                }
            }
        }
        lines.push(Line::from(spans));
    }
    let last = format!("{n}");
    let axis = format!(
        "    1{}{last}",
        " ".repeat(pw.saturating_sub(1 + last.len()))
    );
    let mid = "rank";
    let mut axis: Vec<char> = axis.chars().collect();
    let at = gutter as usize + pw / 2 - mid.len() / 2;
    for (i, c) in mid.chars().enumerate() {
        if let Some(x) = axis.get_mut(at + i) {
            *x = c;
        }
    }
    lines.push(Line::from(Span::styled(
        axis.into_iter().collect::<String>(),
        t.dim,
    )));
    let mut legend = vec![Span::styled("    ", t.dim)];
    for (i, (g, label)) in GLYPHS.iter().enumerate() {
        if i < 3 || used[i] {
            legend.push(Span::styled(g.to_string(), style_of(*g)));
            legend.push(Span::styled(format!(" {label}  "), t.dim));
        }
    }
    lines.push(Line::from(legend));
    f.render_widget(Paragraph::new(lines), inner);
}
