//! The search popup: a query over ids and questions, the matches listed below it.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use crate::tui::app::State;
use crate::tui::edit::TextEdit;
use crate::tui::keymap::{Action, Context, Keymap};
use crate::tui::layout::ListArea;
use crate::tui::overlays::Outcome;
use crate::tui::overlays::dialog::{FieldKey, field_key};
use crate::tui::text::{one_line, sanitize};
use crate::tui::views::common::block;

/// The search: the query typed, the matching items (indices into the file), and the
/// selected match.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchState {
    pub query: TextEdit,
    pub results: Vec<usize>,
    pub selected: usize,
    /// The item to select again once the matches arrive: the one selected when another
    /// program's save was taken up (its index in the new file). Gone once the reviewer
    /// moves the selection or edits the query.
    pub reselect: Option<usize>,
}

impl SearchState {
    /// An empty query, no matches yet.
    pub fn new() -> SearchState {
        SearchState {
            query: TextEdit::new("", false),
            results: vec![],
            selected: 0,
            reselect: None,
        }
    }

    /// The matches as the worker found them, the item to select again selected when it
    /// is among them.
    pub fn found(&mut self, results: Vec<usize>) {
        self.results = results;
        if let Some(i) = self.reselect.take()
            && let Some(k) = self.results.iter().position(|&r| r == i)
        {
            self.selected = k;
        }
        self.selected = self.selected.min(self.results.len().saturating_sub(1));
    }
}

impl Default for SearchState {
    fn default() -> SearchState {
        SearchState::new()
    }
}

/// The search's keys: its table in the keymap.
const KEYS: Context = Context::Search;

/// A key in the search: `select_next` / `select_prev` (arrows, Ctrl-n / Ctrl-p) move
/// through the matches, other keys edit the query; `submit` gives the selected match
/// (None: there is none).
pub fn handle_key(s: &mut SearchState, km: &Keymap, k: &KeyEvent) -> Outcome<Option<usize>> {
    let last = s.results.len().saturating_sub(1);
    let key = field_key(km, KEYS, &mut s.query, k);
    if matches!(
        key,
        FieldKey::Edited | FieldKey::Action(Action::SelectNext | Action::SelectPrev)
    ) {
        s.reselect = None;
    }
    match key {
        FieldKey::Action(Action::SelectNext) => s.selected = (s.selected + 1).min(last),
        FieldKey::Action(Action::SelectPrev) => s.selected = s.selected.saturating_sub(1),
        FieldKey::Action(Action::Cancel) => return Outcome::Close,
        FieldKey::Action(Action::Submit) => {
            return Outcome::Submit(s.results.get(s.selected).copied());
        }
        FieldKey::Edited => return Outcome::Changed,
        _ => {}
    }
    Outcome::Stay
}

/// Where the search popup is in `area`, and where its matches are listed: below the
/// query line and a blank line, scrolled so that the selected match is in sight.
pub fn list_area(state: &State, area: Rect, s: &SearchState) -> ListArea {
    let frame = Rect::new(
        area.x + 2,
        area.y + area.height / 6,
        area.width.saturating_sub(4),
        (area.height * 2 / 3).max(6),
    );
    let inner = Block::default().borders(Borders::ALL).inner(frame);
    let avail = inner.height.saturating_sub(2);
    let first = s
        .selected
        .saturating_sub((avail as usize).saturating_sub(1));
    ListArea {
        frame,
        rows: Rect::new(inner.x, inner.y + 2.min(inner.height), inner.width, avail),
        first,
        // no index, no matches drawn
        len: if state.meta.is_some() {
            s.results.len()
        } else {
            0
        },
    }
}

pub fn draw(state: &State, f: &mut Frame, list: &ListArea, s: &SearchState) {
    let t = &state.theme;
    let r = list.frame;
    f.render_widget(Clear, r);
    let title = match &state.meta {
        Some(_) if state.search_failed => {
            " Search · search stopped on an error (see the log) ".to_string()
        }
        // The worker lists the best SEARCH_SHOWN: a full list may stand for more.
        Some(_) if s.results.len() >= crate::tui::facts::SEARCH_SHOWN => format!(
            " Search ids and questions · the best {} matches ",
            s.results.len()
        ),
        Some(_) => format!(" Search ids and questions · {} matches ", s.results.len()),
        None => format!(" Search · {} ", indexing_note(state)),
    };
    let b = block(t, Span::styled(title, t.title));
    let inner = b.inner(r);
    f.render_widget(b, r);
    let mut lines = vec![
        Line::from(vec![
            Span::styled("/ ", t.accent),
            Span::raw(sanitize(&s.query.text())),
            Span::styled(" ", t.selected),
        ]),
        Line::from(""),
    ];
    let avail = list.rows.height as usize;
    let start = list.first;
    if let Some(meta) = &state.meta {
        let query = s.query.text();
        for (k, &i) in s.results.iter().enumerate().skip(start).take(avail) {
            let st = if k == s.selected { t.selected } else { t.text };
            let hit = st
                .patch(t.accent)
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
            lines.push(highlighted(
                &format!(" {:>6}  ", i + 1),
                meta.search_text(i),
                &crate::tui::facts::match_indices(meta.search_text(i), &query),
                (st, hit),
                inner.width as usize,
            ));
        }
    }
    f.render_widget(Paragraph::new(lines), inner);
}

/// `prefix` then `text` on one line, the characters at `hits` (char indices into `text`)
/// in the `hit` style, cut at `width` with an ellipsis.
pub(crate) fn highlighted(
    prefix: &str,
    text: &str,
    hits: &[usize],
    (style, hit): (Style, Style),
    width: usize,
) -> Line<'static> {
    let mut spans = vec![Span::styled(prefix.to_string(), style)];
    let mut used = prefix.chars().count();
    let mut hits = hits.iter().peekable();
    for (k, c) in text.chars().enumerate() {
        let shown = one_line(&c.to_string());
        let n = shown.chars().count();
        let is_hit = hits.next_if(|&&h| h == k).is_some();
        if used + n >= width && text.chars().count() > k + 1 {
            spans.push(Span::styled("…", style));
            break;
        }
        used += n;
        spans.push(Span::styled(shown, if is_hit { hit } else { style }));
    }
    Line::from(spans)
}

/// What the reviewer sees while the background index is being built (or that it could not
/// be).
pub fn indexing_note(state: &State) -> String {
    if state.index_failed {
        return crate::tui::app::INDEX_FAILED.to_string();
    }
    let (done, total) = state.index_progress;
    match (done * 100).checked_div(total) {
        Some(pct) => format!("indexing the file… {}%", pct.min(100)),
        None => "indexing the file…".to_string(),
    }
}
