//! A dialog's frame and its text fields: placement, width, and the field with its cursor.
//! Every text typed goes through `text::sanitize` before it is drawn.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::tui::app::State;
use crate::tui::edit::{ALT_KEYS, EditOutcome, TextEdit};
use crate::tui::keymap::{Action, Context, Key, Keymap};
use crate::tui::overlays::Outcome;
use crate::tui::text::sanitize;
use crate::tui::views::common::block;

/// A dialog of `w_pct` of the width, wider when its title or key hint needs it.
pub(crate) fn centered(area: Rect, w_pct: u16, h: u16, min_w: usize) -> Rect {
    let min_w = u16::try_from(min_w).unwrap_or(u16::MAX);
    let w = (area.width * w_pct / 100)
        .max(30)
        .max(min_w)
        .min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + area.height / 6,
        w,
        h,
    )
}

/// Where a dialog goes on the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// A sixth of the way down (search, note, jump).
    Middle,
    /// On the bottom rows of the area (the body: over the checklist, above the status
    /// line): a grade's dialog (a penalty, a bonus point's number, a C-VQA fix or
    /// reject) leaves the text it is about in view.
    Low,
}

/// [`centered`], at `place`.
pub(crate) fn placed(area: Rect, w_pct: u16, h: u16, min_w: usize, place: Place) -> Rect {
    let mut r = centered(area, w_pct, h, min_w);
    if place == Place::Low {
        r.y = area.bottom().saturating_sub(r.height).max(area.y);
    }
    r
}

/// What a key does in a text field.
pub(crate) enum FieldKey {
    /// The overlay's own key (its table in the keymap): submit, cancel, ...
    Action(Action),
    /// The field's text changed.
    Edited,
    /// Moved the cursor, or nothing.
    Other,
}

/// A key in the text field `e` of the overlay `ctx`: the overlay's keys first, else the
/// field's editing keys. The field's own Enter and Esc do nothing by themselves: saving
/// and cancelling are the keymap's `submit` and `cancel`, so a remapped key replaces them.
/// `find_char` is the field's: Alt and a character finds it (`alt-char`; Alt-b and Alt-f
/// stay the field's word moves), a key of its own takes the next character typed.
pub(crate) fn field_key(km: &Keymap, ctx: Context, e: &mut TextEdit, k: &KeyEvent) -> FieldKey {
    match (km.in_overlay(ctx, k, e.multiline), k.code) {
        (Some(Action::FindChar), KeyCode::Char(c))
            if km.lookup(ctx, Key::from_event(k)) != Some(Action::FindChar) =>
        {
            if !(k.modifiers.contains(KeyModifiers::ALT) && ALT_KEYS.contains(&c)) {
                e.find_back(c);
                return FieldKey::Other;
            }
        }
        (Some(Action::FindChar), _) => {
            e.start_find();
            return FieldKey::Other;
        }
        (Some(a), _) => return FieldKey::Action(a),
        (None, _) => {}
    }
    // In a field of several lines, an Enter the keymap does not bind (submit moved to
    // Ctrl-s, say) is a new line, as Alt-Enter is: never swallowed.
    if e.multiline && k.code == KeyCode::Enter {
        let newline = KeyEvent::new(KeyCode::Enter, KeyModifiers::ALT);
        return match e.handle(&newline) {
            EditOutcome::Changed => FieldKey::Edited,
            _ => FieldKey::Other,
        };
    }
    match e.handle(k) {
        EditOutcome::Changed => FieldKey::Edited,
        _ => FieldKey::Other,
    }
}

/// A key in a dialog of one text field whose keys are the table `ctx`: cancel closes,
/// submit gives the text as typed, any other key stays.
pub(crate) fn text_field_key(
    km: &Keymap,
    ctx: Context,
    e: &mut TextEdit,
    k: &KeyEvent,
) -> Outcome<String> {
    match field_key(km, ctx, e, k) {
        FieldKey::Action(Action::Cancel) => Outcome::Close,
        FieldKey::Action(Action::Submit) => Outcome::Submit(e.text()),
        _ => Outcome::Stay,
    }
}

/// `{submit} saves · {cancel} cancels` in the overlay `ctx`, after `before` and with
/// `middle` between them (each ending in " · " when not empty).
pub(crate) fn save_cancel(km: &Keymap, ctx: Context, before: &str, middle: &str) -> String {
    format!(
        "{before}{} saves · {middle}{} cancels",
        km.hint(ctx, Action::Submit),
        km.hint(ctx, Action::Cancel)
    )
}

/// A menu's keys that move the selection up and down, as one hint (`↑↓`).
pub(crate) fn move_keys(km: &Keymap, ctx: Context) -> String {
    format!(
        "{}{}",
        km.hint(ctx, Action::SelectPrev),
        km.hint(ctx, Action::SelectNext)
    )
}

/// Width a dialog needs to show its title and its key hint whole.
pub(crate) fn dialog_width(title: &str, keys: &str) -> usize {
    title.chars().count().max(keys.chars().count()) + 6
}

pub(crate) fn draw_input(
    state: &State,
    f: &mut Frame,
    (area, place): (Rect, Place),
    (title, keys): (&str, &str),
    e: &crate::tui::edit::TextEdit,
    second: Option<(&str, &str, &crate::tui::edit::TextEdit, bool, &str)>,
) {
    let t = &state.theme;
    let h = if second.is_some() { 10 } else { 7 };
    let r = placed(area, 80, h, dialog_width(title, keys), place);
    f.render_widget(Clear, r);
    let b = block(t, Span::styled(format!(" {title} "), t.title))
        .title_bottom(Line::from(Span::styled(format!(" {keys} "), t.dim)).right_aligned());
    let inner = b.inner(r);
    f.render_widget(b, r);
    let field = |e: &crate::tui::edit::TextEdit, active: bool| -> Vec<Line<'static>> {
        let (a, z) = e.split();
        let (a, z) = (sanitize(&a), sanitize(&z));
        let a_lines: Vec<&str> = a.split('\n').collect();
        let z_lines: Vec<&str> = z.split('\n').collect();
        let mut lines: Vec<Line<'static>> = a_lines[..a_lines.len() - 1]
            .iter()
            .map(|l| Line::from(l.to_string()))
            .collect();
        let first_z = z_lines[0];
        let cursor = first_z
            .chars()
            .next()
            .map(String::from)
            .unwrap_or_else(|| " ".into());
        lines.push(Line::from(vec![
            Span::raw(a_lines[a_lines.len() - 1].to_string()),
            Span::styled(cursor, if active { t.selected } else { t.text }),
            Span::raw(first_z.chars().skip(1).collect::<String>()),
        ]));
        lines.extend(z_lines[1..].iter().map(|l| Line::from(l.to_string())));
        lines
    };
    match second {
        None => f.render_widget(
            Paragraph::new(field(e, true)).wrap(Wrap { trim: false }),
            inner,
        ),
        Some((qt, at, ans, on_answer, last)) => {
            let parts = Layout::vertical([
                Constraint::Length(1),
                Constraint::Length(3),
                Constraint::Length(1),
                Constraint::Min(1),
                Constraint::Length(1),
            ])
            .split(inner);
            f.render_widget(
                Paragraph::new(Span::styled(last.to_string(), t.text)),
                parts[4],
            );
            f.render_widget(
                Paragraph::new(Span::styled(qt.to_string(), t.dim)),
                parts[0],
            );
            f.render_widget(
                Paragraph::new(field(e, !on_answer)).wrap(Wrap { trim: false }),
                parts[1],
            );
            f.render_widget(
                Paragraph::new(Span::styled(at.to_string(), t.dim)),
                parts[2],
            );
            f.render_widget(
                Paragraph::new(field(ans, on_answer)).wrap(Wrap { trim: false }),
                parts[3],
            );
        }
    }
}
