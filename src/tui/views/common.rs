//! Small pieces every view draws with: bordered blocks, headings, marks, the scroll
//! indicator. Every text from the file goes through `text::sanitize`.

use std::borrow::Cow;

use indexmap::IndexMap;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};

use crate::bench::{Item, ResponseGrades, Review};
use crate::tui::app::State;
use crate::tui::text::sanitize;
use crate::tui::theme::Theme;

pub(crate) fn block<'a>(t: &Theme, title: impl Into<Line<'a>>) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(t.border)
        .title(title.into())
}

/// Where the scrolled text is, on the pane's bottom border: `▲ 12–24 of 40 ▼`.
pub(crate) fn scroll_indicator(
    t: &Theme,
    scroll: impl Into<usize>,
    max: impl Into<usize>,
    visible: impl Into<usize>,
) -> Line<'static> {
    let (scroll, max, visible) = (scroll.into(), max.into(), visible.into());
    let total = max + visible;
    let first = scroll + 1;
    let last = (scroll + visible).min(total);
    let up = if scroll > 0 { "▲" } else { " " };
    let down = if scroll < max { "▼" } else { " " };
    Line::from(Span::styled(
        format!(" {up} lines {first}–{last} of {total} {down} "),
        t.accent2,
    ))
    .right_aligned()
}

pub(crate) fn heading(t: &Theme, s: &str) -> Line<'static> {
    Line::from(Span::styled(s.to_string(), t.title))
}

pub(crate) fn kv(t: &Theme, k: &str, v: &str) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!("{k}: "), t.dim),
        Span::styled(sanitize(v), t.text),
    ])
}

pub(crate) fn text_lines(s: &str, style: Style) -> Vec<Line<'static>> {
    crate::tui::text::sanitized(s)
        .split('\n')
        .map(|l| Line::from(Span::styled(l.to_string(), style)))
        .collect()
}

pub(crate) fn mark(t: &Theme, ok: Option<bool>) -> Span<'static> {
    match ok {
        Some(true) => Span::styled("✔ correct", t.good),
        Some(false) => Span::styled("✘ wrong", t.bad),
        None => Span::styled("– ungraded", t.dim),
    }
}

/// The three states an override key cycles through, the current one bracketed:
/// `x: [auto] correct wrong`.
pub(crate) fn override_cycle(t: &Theme, key: &str, current: Option<bool>) -> Vec<Span<'static>> {
    let mut spans = vec![Span::styled(format!("  {key}:"), t.title)];
    for (label, v) in [
        ("auto", None),
        ("correct", Some(true)),
        ("wrong", Some(false)),
    ] {
        if v == current {
            spans.push(Span::styled(format!(" [{label}]"), t.accent));
        } else {
            spans.push(Span::styled(format!(" {label}"), t.dim));
        }
    }
    spans
}

/// The effective grade and where it comes from: the rule, my override, or others'.
pub(crate) fn effective_spans(
    t: &Theme,
    effective: Option<bool>,
    auto: Option<bool>,
    overridden: bool,
    mine: Option<bool>,
) -> Vec<Span<'static>> {
    let mut spans = vec![mark(t, effective)];
    if overridden {
        let who = if mine.is_some() && mine == effective {
            "my override"
        } else {
            "reviewers' override"
        };
        spans.push(Span::styled(
            format!(" ({who}; rule: {})", ok_word(auto)),
            t.warn,
        ));
    } else {
        spans.push(Span::styled(" (rule)", t.dim));
    }
    spans
}

pub(crate) fn tick(ok: bool) -> &'static str {
    if ok { "✔" } else { "✘" }
}

pub(crate) fn ok_word(b: Option<bool>) -> &'static str {
    match b {
        Some(true) => "correct",
        Some(false) => "wrong",
        None => "ungradable",
    }
}

/// A fixed question or answer as shown: a blank one (written by hand or by an older
/// version) says so rather than showing nothing.
pub(crate) fn shown_fix(s: &str, quoted: bool) -> String {
    if s.trim().is_empty() {
        "(empty)".to_string()
    } else if quoted {
        format!("“{s}”")
    } else {
        s.to_string()
    }
}

/// The current item as the reviewer should see it: with my review as it stands now (this
/// session's changes included, which the item read from the file does not have yet), and
/// with only what blind mode reveals of others' reviews (`State::reviews`).
///
/// The item itself when its reviews are those (an item nobody reviewed, or one whose
/// reviews are all shown and unchanged this session): a copy of an item with a text of
/// megabytes is one of the passes showing it costs (issue 21).
pub(crate) fn view_item<'a>(state: &State, item: &'a Item) -> Cow<'a, Item> {
    let reviews: IndexMap<String, Review> = state.reviews().into_iter().collect();
    // in the same order too (an `IndexMap`'s `==` is the maps', whatever their order)
    if reviews.iter().eq(item.reviews.iter()) {
        return Cow::Borrowed(item);
    }
    let mut it = item.clone();
    it.reviews = reviews;
    Cow::Owned(it)
}

/// My grades of `model`'s response on the current item.
pub(crate) fn my_grades_for(state: &State, item: &Item, model: &str) -> Option<ResponseGrades> {
    state
        .my_review(state.pos)?
        .for_model(model, item.responses.len())
        .cloned()
}

/// An override's key, named only on the selected response: keys act on it alone.
pub(crate) fn override_key(state: &State, a: crate::tui::keymap::Action, selected: bool) -> String {
    if selected {
        format!("{} override", state.keymap.hint(state.context(), a))
    } else {
        "override".to_string()
    }
}
