//! The rows of a scrolled pane, wrapped lazily: a frame wraps the lines on screen, not
//! the ones scrolled past or below (issue 21: a 20 MB prompt on one line took seconds
//! per key when the whole line was word-wrapped on every frame).
//!
//! A line of up to [`LONG_LINE`] bytes is word-wrapped exactly as ratatui's `Paragraph`
//! wraps it (`Wrap { trim: false }`), so every usual item looks as before. A longer line
//! is cut into rows of the pane's width, character by character (a character that does
//! not fit starts the next row): its rows are counted without wrapping it (at once when
//! it is printable ASCII, by one pass over its characters when not), and only the rows on
//! screen are laid out.
//!
//! [`measure`] counts a pane's rows once, line by line, with where a long line's rows
//! begin ([`LineRows`]); the item's panes keep it between frames (`tui::laid`), so a key
//! that only scrolls draws the rows on screen without another pass over the text.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// Lines longer than this (in bytes) are cut into rows by characters, not words.
pub const LONG_LINE: usize = 32 * 1024;

fn byte_len(l: &Line) -> usize {
    l.spans.iter().map(|s| s.content.len()).sum()
}

/// The same line, its spans borrowed (no copy of the text).
fn borrowed<'a>(l: &'a Line) -> Line<'a> {
    let mut out = Line::from(
        l.spans
            .iter()
            .map(|s| Span::styled(s.content.as_ref(), s.style))
            .collect::<Vec<_>>(),
    )
    .style(l.style);
    out.alignment = l.alignment;
    out
}

/// Rows `l` takes in a pane `width` columns wide.
pub fn line_rows(l: &Line, width: u16) -> usize {
    let width = width.max(1);
    if byte_len(l) <= LONG_LINE {
        Paragraph::new(borrowed(l))
            .wrap(Wrap { trim: false })
            .line_count(width)
    } else {
        long_rows(l, width as usize)
    }
}

/// Every this many rows of a long line that is not printable ASCII, [`LineRows`] notes
/// where the row begins: drawing a row far down the line starts from the mark before it.
const MARK: usize = 64;

/// How one line is cut into rows at one width, measured once by [`measure`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineRows {
    /// The rows the line takes.
    pub rows: usize,
    long: Long,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Long {
    /// Up to [`LONG_LINE`] bytes: word-wrapped as ratatui's `Paragraph` does.
    No,
    /// Printable ASCII: row `r` is bytes `r * width ..` of the spans one after the other.
    Ascii,
    /// Where rows `0, MARK, 2 MARK, …` begin: (span, byte in the span).
    Marks(Vec<(usize, usize)>),
}

/// The rows of each of `lines` in a pane `width` columns wide: one pass over each line.
pub fn measure(lines: &[Line], width: u16) -> Vec<LineRows> {
    lines.iter().map(|l| measure_line(l, width)).collect()
}

/// [`measure`] of one line.
pub fn measure_line(l: &Line, width: u16) -> LineRows {
    let width = width.max(1);
    if byte_len(l) <= LONG_LINE {
        return LineRows {
            rows: line_rows(l, width),
            long: Long::No,
        };
    }
    if plain_ascii(l) {
        return LineRows {
            rows: byte_len(l).div_ceil(usize::from(width)).max(1),
            long: Long::Ascii,
        };
    }
    let width = usize::from(width);
    let mut marks = vec![(0, 0)];
    let (mut rows, mut col) = (1, 0);
    for (k, s) in l.spans.iter().enumerate() {
        for (i, c) in s.content.char_indices() {
            let w = char_width(c);
            if col + w > width && col > 0 {
                if rows % MARK == 0 {
                    marks.push((k, i));
                }
                rows += 1;
                col = 0;
            }
            col += w;
        }
    }
    LineRows {
        rows,
        long: Long::Marks(marks),
    }
}

/// The rows of a measured pane, in all.
pub fn total(rows: &[LineRows]) -> usize {
    rows.iter().map(|r| r.rows).sum()
}

/// [`render`] of lines measured at `area.width` ([`measure`]): only the rows on screen
/// are touched, however long the lines scrolled past.
pub fn render_measured(
    lines: &[Line],
    rows: &[LineRows],
    scroll: usize,
    area: Rect,
    buf: &mut Buffer,
) {
    debug_assert_eq!(lines.len(), rows.len());
    let mut above = 0usize;
    let mut y = 0u16;
    for (l, m) in lines.iter().zip(rows) {
        if y >= area.height {
            break;
        }
        let n = m.rows;
        if above + n <= scroll {
            above += n;
            continue;
        }
        let skip = scroll.saturating_sub(above);
        let take = (n - skip).min(usize::from(area.height - y));
        let r = Rect::new(area.x, area.y + y, area.width, take as u16);
        draw_line(l, Some(m), skip, r, buf);
        y += take as u16;
        above += n;
    }
}

/// Rows `skip..` of one line into `r` (as many as it is high).
fn draw_line(l: &Line, m: Option<&LineRows>, skip: usize, r: Rect, buf: &mut Buffer) {
    let short = match m {
        Some(m) => m.long == Long::No,
        None => byte_len(l) <= LONG_LINE,
    };
    if short {
        // A line this short has fewer rows than a u16 holds.
        Paragraph::new(borrowed(l))
            .wrap(Wrap { trim: false })
            .scroll((skip as u16, 0))
            .render(r, buf);
    } else {
        render_long(l, m, skip, r, buf);
    }
}

/// Rows `lines` take in a pane `width` columns wide.
pub fn rows(lines: &[Line], width: u16) -> usize {
    lines.iter().map(|l| line_rows(l, width)).sum()
}

/// Draw `lines` into `area`, the first `scroll` rows scrolled away: what
/// `Paragraph::new(lines).wrap(Wrap { trim: false }).scroll((scroll, 0))` draws for lines
/// up to [`LONG_LINE`] bytes, wrapping only the lines on screen.
pub fn render(lines: &[Line], scroll: usize, area: Rect, buf: &mut Buffer) {
    let mut above = 0usize;
    let mut y = 0u16;
    for l in lines {
        if y >= area.height {
            break;
        }
        let n = line_rows(l, area.width);
        if above + n <= scroll {
            above += n;
            continue;
        }
        let skip = scroll.saturating_sub(above);
        let take = (n - skip).min(usize::from(area.height - y));
        let r = Rect::new(area.x, area.y + y, area.width, take as u16);
        draw_line(l, None, skip, r, buf);
        y += take as u16;
        above += n;
    }
}

/// Printable ASCII only (0x20..=0x7e): one column per byte. 32 bytes at a time, which
/// the compiler checks with vector instructions.
fn printable_ascii(s: &str) -> bool {
    let outside = |any: bool, b: &u8| any | (b.wrapping_sub(0x20) >= 0x5f);
    let chunks = s.as_bytes().chunks_exact(32);
    let rest = chunks.remainder();
    for c in chunks {
        if c.iter().fold(false, outside) {
            return false;
        }
    }
    !rest.iter().fold(false, outside)
}

fn plain_ascii(l: &Line) -> bool {
    l.spans.iter().all(|s| printable_ascii(&s.content))
}

/// `l.width()`, at once for the spans of printable ASCII.
pub fn line_width(l: &Line) -> usize {
    l.spans
        .iter()
        .map(|s| {
            if printable_ascii(&s.content) {
                s.content.len()
            } else {
                s.width()
            }
        })
        .sum()
}

/// Columns of one character as ratatui draws it.
fn char_width(c: char) -> usize {
    let mut b = [0u8; 4];
    Span::raw(&*c.encode_utf8(&mut b)).width()
}

/// Rows of a long line cut by characters.
fn long_rows(l: &Line, width: usize) -> usize {
    if plain_ascii(l) {
        return byte_len(l).div_ceil(width).max(1);
    }
    let mut rows = 1;
    let mut col = 0;
    for s in &l.spans {
        for c in s.content.chars() {
            let w = char_width(c);
            if col + w > width && col > 0 {
                rows += 1;
                col = 0;
            }
            col += w;
        }
    }
    rows
}

/// Each row `row` of the long line from `first` on, until `f` says stop: the row's parts
/// as (span, byte range). `m`: the line measured at `width` (else worked out here, from
/// the line's start).
fn long_row_parts(
    l: &Line,
    m: Option<&LineRows>,
    width: usize,
    first: usize,
    mut f: impl FnMut(usize, Vec<(usize, std::ops::Range<usize>)>) -> bool,
) {
    let mut parts: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    let push = |parts: &mut Vec<(usize, std::ops::Range<usize>)>, k: usize, a: usize, b: usize| {
        match parts.last_mut() {
            Some((j, r)) if *j == k && r.end == a => r.end = b,
            _ => parts.push((k, a..b)),
        }
    };
    let ascii = match m.map(|m| &m.long) {
        Some(Long::Ascii) => true,
        Some(Long::Marks(_)) => false,
        _ => plain_ascii(l),
    };
    if ascii {
        // Row `r` is bytes `r * width ..` of the spans one after the other.
        let total = byte_len(l);
        let mut row = first;
        loop {
            let (lo, hi) = (row * width, ((row + 1) * width).min(total));
            if lo >= total && !(row == 0 && total == 0) {
                return;
            }
            let mut at = 0;
            for (k, s) in l.spans.iter().enumerate() {
                let (a, b) = (at, at + s.content.len());
                let (x, y) = (lo.max(a), hi.min(b));
                if x < y {
                    push(&mut parts, k, x - a, y - a);
                }
                at = b;
            }
            if !f(row, std::mem::take(&mut parts)) {
                return;
            }
            row += 1;
        }
    }
    // From the mark at or before `first`: row `row` begins at byte `from` of span `k0`.
    let (mut row, k0, from) = match m.map(|m| &m.long) {
        Some(Long::Marks(marks)) if !marks.is_empty() => {
            let j = (first / MARK).min(marks.len() - 1);
            (j * MARK, marks[j].0, marks[j].1)
        }
        _ => (0, 0, 0),
    };
    let mut col = 0usize;
    for (k, s) in l.spans.iter().enumerate().skip(k0) {
        let start = if k == k0 { from } else { 0 };
        for (i, c) in s.content[start..].char_indices() {
            let i = i + start;
            let w = char_width(c);
            if col + w > width && col > 0 {
                if row >= first && !f(row, std::mem::take(&mut parts)) {
                    return;
                }
                row += 1;
                col = 0;
            }
            col += w;
            if row >= first {
                push(&mut parts, k, i, i + c.len_utf8());
            }
        }
    }
    if row >= first {
        f(row, parts);
    }
}

/// Draw rows `skip..` of a long line into `area`, one row per line of `area`.
fn render_long(l: &Line, m: Option<&LineRows>, skip: usize, area: Rect, buf: &mut Buffer) {
    let width = usize::from(area.width.max(1));
    long_row_parts(l, m, width, skip, |row, parts| {
        let y = row - skip;
        if y >= usize::from(area.height) {
            return false;
        }
        let spans: Vec<Span> = parts
            .into_iter()
            .map(|(k, r)| Span::styled(&l.spans[k].content[r], l.spans[k].style))
            .collect();
        let r = Rect::new(area.x, area.y + y as u16, area.width, 1);
        Paragraph::new(Line::from(spans).style(l.style)).render(r, buf);
        y + 1 < usize::from(area.height)
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::{Color, Style};

    fn drawn(lines: &[Line], scroll: usize, w: u16, h: u16, lazy: bool) -> Buffer {
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        if lazy {
            render(lines, scroll, area, &mut buf);
        } else {
            Paragraph::new(lines.to_vec())
                .wrap(Wrap { trim: false })
                .scroll((scroll as u16, 0))
                .render(area, &mut buf);
        }
        buf
    }

    fn measured(lines: &[Line], m: &[LineRows], scroll: usize, w: u16, h: u16) -> Buffer {
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        render_measured(lines, m, scroll, area, &mut buf);
        buf
    }

    /// A long line measured once draws, at every scroll, what it draws measured anew on
    /// every frame: printable ASCII and not, one span and several, rows past the marks.
    #[test]
    fn a_measured_long_line_draws_as_one_measured_anew() {
        let mut rng = Rng::new(11);
        for (k, w) in [(0, 13u16), (1, 9), (2, 80), (3, 1), (4, 40)] {
            let pieces: &[&str] = match k {
                0 => &["abc ", "defgh", " ", "xy"],
                1 => &["日本語", " a", "é", "👍", "x"],
                2 => &["é", "word ", "\u{301}", "ab"],
                3 => &["a", "é", "日"],
                _ => &["tab ", "日本", "zz", "q"],
            };
            let mut spans = Vec::new();
            let mut bytes = 0;
            while bytes < LONG_LINE + 3000 {
                let text: String = (0..1 + rng.below(400))
                    .map(|_| pieces[rng.below(pieces.len())])
                    .collect();
                bytes += text.len();
                let style = if rng.below(2) == 0 {
                    Style::default()
                } else {
                    Style::default().fg(Color::Red)
                };
                spans.push(Span::styled(text, style));
            }
            let lines = vec![Line::from("top"), Line::from(spans), Line::from("end")];
            let m = measure(&lines, w);
            assert_eq!(total(&m), rows(&lines, w), "width {w}");
            assert!(m[1].rows > 2 * MARK, "width {w}: {} rows", m[1].rows);
            let h = 5u16;
            let n = total(&m);
            // every scroll near the marks of the first rows and at the end; a stride between
            let scrolls = (0..=3 * MARK + 1)
                .chain((0..n).step_by(97))
                .chain(n.saturating_sub(3 * MARK)..=n);
            for scroll in scrolls {
                assert_eq!(
                    measured(&lines, &m, scroll, w, h),
                    drawn(&lines, scroll, w, h, true),
                    "width {w}, scroll {scroll}"
                );
            }
        }
    }

    use crate::test_support::Rng;

    fn random_line(rng: &mut Rng) -> Line<'static> {
        let pieces = [
            "a",
            "word",
            " ",
            "  ",
            "longerword",
            "é",
            "日本",
            "x",
            "👍",
            "-",
            "\u{301}",
            "ab cd",
        ];
        let styles = [
            Style::default(),
            Style::default().fg(Color::Red),
            Style::default().bg(Color::Blue),
        ];
        let spans: Vec<Span<'static>> = (0..rng.below(6))
            .map(|_| {
                let text: String = (0..rng.below(12))
                    .map(|_| pieces[rng.below(pieces.len())])
                    .collect();
                Span::styled(text, styles[rng.below(styles.len())])
            })
            .collect();
        let mut l = Line::from(spans);
        if rng.below(5) == 0 {
            l = l.right_aligned();
        }
        l
    }

    #[test]
    fn short_lines_draw_and_count_as_the_paragraph_does() {
        let mut rng = Rng::new(7);
        for _ in 0..400 {
            let lines: Vec<Line> = (0..rng.below(8)).map(|_| random_line(&mut rng)).collect();
            let w = 4 + rng.below(30) as u16;
            let h = 1 + rng.below(12) as u16;
            let whole = Paragraph::new(lines.clone())
                .wrap(Wrap { trim: false })
                .line_count(w);
            assert_eq!(rows(&lines, w), whole, "{lines:?} at {w}");
            let m = measure(&lines, w);
            assert_eq!(total(&m), whole, "{lines:?} at {w}");
            for scroll in 0..=whole + 1 {
                let paragraph = drawn(&lines, scroll, w, h, false);
                assert_eq!(
                    drawn(&lines, scroll, w, h, true),
                    paragraph,
                    "{lines:?} at {w}×{h}, scroll {scroll}"
                );
                assert_eq!(
                    measured(&lines, &m, scroll, w, h),
                    paragraph,
                    "measured: {lines:?} at {w}×{h}, scroll {scroll}"
                );
            }
        }
    }

    /// Every character of a long line is drawn once, in order, rows filled to the width.
    #[test]
    fn a_long_line_is_cut_into_rows_of_the_width() {
        for (text, w) in [
            ("abcdefghij".repeat(LONG_LINE / 10 + 7), 13u16),
            ("日本語のテキスト a".repeat(LONG_LINE / 20), 9),
            ("é".repeat(LONG_LINE), 80),
        ] {
            let cut = text.char_indices().nth(10).unwrap().0;
            let l = Line::from(vec![
                Span::raw(text[..cut].to_string()),
                Span::styled(text[cut..].to_string(), Style::default().fg(Color::Red)),
            ]);
            let lines = vec![Line::from("top"), l];
            let n = rows(&lines, w);
            let mut seen = String::new();
            let h = 7u16;
            let mut scroll = 0;
            while scroll < n {
                let buf = drawn(&lines, scroll, w, h, true);
                for y in 0..h.min((n - scroll) as u16) {
                    if scroll + (y as usize) == 0 {
                        continue;
                    }
                    for x in 0..w {
                        seen.push_str(buf[(x, y)].symbol());
                    }
                }
                scroll += h as usize;
            }
            let want: String = text.chars().filter(|c| *c != ' ').collect();
            let got: String = seen.chars().filter(|c| *c != ' ').collect();
            assert_eq!(got, want, "width {w}");
        }
        // printable ASCII: counted at once
        let l = Line::from("x".repeat(LONG_LINE + 1));
        assert_eq!(line_rows(&l, 10), (LONG_LINE + 1).div_ceil(10));
    }
}
