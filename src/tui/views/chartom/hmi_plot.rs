//! CHARTOM's plot on the summary page: the HMI ranking (the paper's Figure 3), drawn in text cells.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use crate::bench::chartom::stats::ChartStat;
use crate::tui::app::State;
use crate::tui::summary::finite;
use crate::tui::text::one_line;
use crate::tui::theme::Theme;
use crate::tui::views::chartom::summary::Predictions;
use crate::tui::views::common::block;

/// The paper's Figure 3: charts sorted by HMI, originals and manipulated with their own
/// glyphs (not only colours, so it reads in mono), and every model's MIND prediction for
/// each chart with the model's own mark (`1`, `2`, … in its own colour), named in the
/// legend. When there is room, each chart has a column for its point and one per model
/// beside it, so nothing hides under anything; else a prediction goes in the chart's
/// column, or beside it when that cell is taken, and a cell still holding several gets
/// a glyph of its own. The legend explains every mark drawn, on as many lines as it
/// needs. Drawn into `buf` (the summary appends its rows to the page's lines).
pub(crate) fn draw_hmi_plot(
    state: &State,
    buf: &mut Buffer,
    area: Rect,
    charts: &[ChartStat],
    predictions: &Predictions,
) {
    let t = &state.theme;
    let (models, pts) = points(charts, predictions);
    let b = block(t, Span::styled(title(&models), t.title));
    let inner = b.inner(area);
    b.render(area, buf);
    let gutter = 4u16;
    if inner.height < 4 || inner.width <= gutter + 2 {
        return;
    }
    let pw = (inner.width - gutter) as usize;
    let n = pts.len();
    let nm = models.len();
    // a column per chart and per model's prediction of it, when they all fit
    let stride = pw.checked_div(n).unwrap_or(pw);
    let plot = Plot {
        t,
        width: inner.width as usize,
        grouped: nm > 0 && stride > nm,
        models,
        pts,
        pw,
    };
    // The legend takes the rows it needs under the plot (and the axis one): those of the
    // marks always there, then one more if the shared glyphs the plot uses need it.
    let fits = |room: usize| (inner.height as usize) >= room + 1 + 3;
    let room = plot.legend_lines(&plot.legend_items(&[false; 3])).len();
    if !fits(room) {
        return;
    }
    let (mut lines, mut used) = plot.grid_lines(inner.height as usize - 1 - room);
    let need = plot.legend_lines(&plot.legend_items(&used)).len();
    if need > room {
        if !fits(need) {
            return;
        }
        (lines, used) = plot.grid_lines(inner.height as usize - 1 - need);
    }
    lines.push(plot.axis(gutter as usize));
    lines.extend(plot.legend_lines(&plot.legend_items(&used)));
    Paragraph::new(lines).render(inner, buf);
}

/// A chart's point: its HMI, whether it is the manipulated one, and each model's MIND
/// prediction of it.
type Point = (f64, bool, Vec<Option<f64>>);

/// Every model with a prediction, by name; and the charts with an HMI (given, else
/// recomputed), sorted by it.
fn points(charts: &[ChartStat], predictions: &Predictions) -> (Vec<String>, Vec<Point>) {
    let preds = |k: usize| predictions.0.get(k).and_then(Option::as_ref);
    // Every model with a prediction, by name.
    let mut models: Vec<String> = (0..charts.len())
        .filter_map(preds)
        .flat_map(|o| o.keys().cloned())
        .collect();
    models.sort();
    models.dedup();
    let mut pts: Vec<Point> = charts
        .iter()
        .enumerate()
        .filter_map(|(k, c)| {
            let h = finite(c.hmi).or_else(|| finite(c.hmi_recomputed))?;
            let manip = c
                .version
                .as_deref()
                .map(|s| s == "manipulated")
                .unwrap_or(c.id.ends_with("_2"));
            let p = models
                .iter()
                .map(|m| preds(k).and_then(|p| *p.get(m)?))
                .collect();
            Some((h, manip, p))
        })
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    (models, pts)
}

/// The plot's title: whose MIND predictions it shows.
fn title(models: &[String]) -> String {
    match models.len() {
        0 => " HMI ranking: charts sorted by HMI ".to_string(),
        1 => format!(
            " HMI ranking: charts sorted by HMI, with {}'s MIND prediction ",
            one_line(&models[0])
        ),
        _ => " HMI ranking: charts sorted by HMI, with each model's MIND prediction ".to_string(),
    }
}

/// Model `k`'s colour.
fn model_style(t: &Theme, k: usize) -> Style {
    [t.accent, t.accent2, t.warn, t.text][k % 4]
}

/// Model `k`'s mark: `1` .. `9`, then `a` .. `z`.
fn model_mark(k: usize) -> char {
    match k {
        0..=8 => char::from(b'1' + k as u8),
        _ => char::from(b'a' + ((k - 9) % 26) as u8),
    }
}

/// What a cell holds: its chart points and the models whose prediction is there.
#[derive(Clone, Default)]
struct Cell {
    originals: u32,
    manipulated: u32,
    models: Vec<usize>,
}

/// The plot's content and measures.
struct Plot<'t> {
    t: &'t Theme,
    /// The inner width of the block.
    width: usize,
    /// Each chart has a column of its own and one per model beside it.
    grouped: bool,
    models: Vec<String>,
    pts: Vec<Point>,
    /// The plot's width, right of the gutter.
    pw: usize,
}

impl Plot<'_> {
    /// Every mark of the legend: the points, the models, and the shared glyphs `used`.
    fn legend_items(&self, used: &[bool]) -> Vec<(char, Style, String)> {
        let t = self.t;
        let mut items = vec![
            ('o', t.bar, "original".to_string()),
            ('x', t.bad, "manipulated".to_string()),
        ];
        for (k, m) in self.models.iter().enumerate() {
            items.push((model_mark(k), model_style(t, k), one_line(m)));
        }
        for (i, (g, label)) in SHARED.iter().enumerate() {
            if used[i] {
                items.push((*g, t.warn, (*label).to_string()));
            }
        }
        items
    }

    /// The legend's lines, on as many as its marks need.
    fn legend_lines(&self, items: &[(char, Style, String)]) -> Vec<Line<'static>> {
        let t = self.t;
        let width = self.width;
        let mut lines: Vec<Line<'static>> = Vec::new();
        let mut cur: Vec<Span<'static>> = vec![Span::styled("    ", t.dim)];
        let mut used_w = 4;
        for (g, st, label) in items {
            let w = 1 + 1 + label.chars().count() + 2;
            if used_w + w > width && used_w > 4 {
                lines.push(Line::from(std::mem::take(&mut cur)));
                cur.push(Span::styled("    ", t.dim));
                used_w = 4;
            }
            cur.push(Span::styled(g.to_string(), *st));
            cur.push(Span::styled(format!(" {label}  "), t.dim));
            used_w += w;
        }
        lines.push(Line::from(cur));
        lines
    }

    /// The plot over `ph` rows, and which shared glyphs it used.
    fn grid_lines(&self, ph: usize) -> (Vec<Line<'static>>, [bool; 3]) {
        let grid = self.grid(ph);
        let t = self.t;
        let nm = self.models.len();
        let mut used = [false; 3];
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
            for cell in row {
                let one_model = cell.models.len() == 1;
                let (g, st) = match (cell.originals, cell.manipulated, one_model) {
                    (0, 0, _) if cell.models.is_empty() => (' ', t.text),
                    (1, 0, _) if cell.models.is_empty() => ('o', t.bar),
                    (0, 1, _) if cell.models.is_empty() => ('x', t.bad),
                    (0, 0, true) => (model_mark(cell.models[0]), model_style(t, cell.models[0])),
                    (1, 0, true) if nm == 1 => {
                        used[0] = true;
                        (SHARED[0].0, t.warn)
                    }
                    (0, 1, true) if nm == 1 => {
                        used[1] = true;
                        (SHARED[1].0, t.warn)
                    }
                    _ => {
                        used[2] = true;
                        (SHARED[2].0, t.warn)
                    }
                };
                spans.push(Span::styled(g.to_string(), st));
            }
            lines.push(Line::from(spans));
        }
        (lines, used)
    }

    /// The cells of a plot `ph` rows high: each chart's point and its predictions.
    fn grid(&self, ph: usize) -> Vec<Vec<Cell>> {
        let (pw, grouped) = (self.pw, self.grouped);
        let n = self.pts.len();
        let nm = self.models.len();
        let mut grid = vec![vec![Cell::default(); pw]; ph];
        let row_of = |y: f64| ((1.0 - y.clamp(0.0, 1.0)) * (ph - 1) as f64).round() as usize;
        // spread over the width; a group keeps its columns (stride > models)
        let col_of = |k: usize| {
            if grouped && n > 1 {
                k * (pw - 1 - nm) / (n - 1)
            } else if grouped {
                (pw - 1 - nm) / 2
            } else if n > 1 {
                k * (pw - 1) / (n - 1)
            } else {
                pw / 2
            }
        };
        // The charts' points first, then the predictions: one sharing its chart's
        // column goes beside it (right, else left) when its own cell is taken.
        for (k, (h, manip, _)) in self.pts.iter().enumerate() {
            let cell = &mut grid[row_of(*h)][col_of(k)];
            if *manip {
                cell.manipulated += 1;
            } else {
                cell.originals += 1;
            }
        }
        let taken = |c: &Cell| c.originals + c.manipulated > 0 || !c.models.is_empty();
        for (k, (_, _, preds)) in self.pts.iter().enumerate() {
            let col = col_of(k);
            for (m, p) in preds.iter().enumerate() {
                let Some(p) = p else { continue };
                let row = &mut grid[row_of(*p)];
                let c = if grouped {
                    (col + 1 + m).min(pw - 1)
                } else {
                    [col, col + 1, col.wrapping_sub(1)]
                        .into_iter()
                        .find(|&c| c < pw && !taken(&row[c]))
                        .unwrap_or(col)
                };
                row[c].models.push(m);
            }
        }
        grid
    }

    /// The rank axis under the plot: `1` .. the number of charts, `rank` in the middle.
    fn axis(&self, gutter: usize) -> Line<'static> {
        let pw = self.pw;
        let last = format!("{}", self.pts.len());
        let axis = format!(
            "    1{}{last}",
            " ".repeat(pw.saturating_sub(1 + last.len()))
        );
        let mid = "rank";
        let mut axis: Vec<char> = axis.chars().collect();
        let at = gutter + pw / 2 - mid.len() / 2;
        for (i, c) in mid.chars().enumerate() {
            if let Some(x) = axis.get_mut(at + i) {
                *x = c;
            }
        }
        Line::from(Span::styled(
            axis.into_iter().collect::<String>(),
            self.t.dim,
        ))
    }
}

/// The glyphs of a cell that holds more than one thing: a point and the one model's
/// prediction (with one model), or several.
const SHARED: [(char, &str); 3] = [
    ('⊕', "original + prediction"),
    ('⊗', "manipulated + prediction"),
    ('*', "several in one cell"),
];
