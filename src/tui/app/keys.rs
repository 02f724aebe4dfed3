//! Keys and the mouse: what each does to the state.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent, MouseEventKind};

use crate::tui::keymap::{Action, Context, Key};
use crate::tui::layout::{Screen, contains};
use crate::tui::overlays::{Outcome, filter, jump, note, page, search};

use super::*;

impl State {
    pub(super) fn on_mouse(&mut self, m: MouseEvent, fx: &mut Vec<Effect>) {
        match m.kind {
            MouseEventKind::ScrollDown => self.on_wheel(m, true),
            MouseEventKind::ScrollUp => self.on_wheel(m, false),
            MouseEventKind::Down(_) => {
                // A click lands on what is drawn under it, in the rectangles the screen
                // is drawn in: a search result opens, a filter row toggles, a point of
                // the progress bar jumps to the item that far through the list.
                let screen = Screen::of(self);
                if screen.too_small {
                    return;
                }
                if let Some(list) = &screen.search {
                    if let (Some(k), Mode::Search(s)) = (list.hit(m.column, m.row), &mut self.mode)
                    {
                        s.selected = k;
                        let target = s.results[k];
                        self.mode = Mode::Normal;
                        self.goto(target, fx);
                    }
                    return;
                }
                if let Some(list) = &screen.filter {
                    if let (Some(k), Mode::Filter { selected }) =
                        (list.hit(m.column, m.row), &mut self.mode)
                    {
                        *selected = k;
                        self.filter_row = k;
                        self.toggle_filter_row(k, fx);
                    }
                    return;
                }
                let bar = screen.bar;
                if matches!(self.mode, Mode::Normal) && contains(bar, m.column, m.row) {
                    let frac = (m.column - bar.x) as f64 / bar.width as f64;
                    let n = self.visible.as_ref().map(|v| v.len()).unwrap_or(self.len());
                    if n > 0 {
                        let k = ((frac * n as f64) as usize).min(n - 1);
                        let target = match &self.visible {
                            Some(v) => v.nth(k),
                            None => Some(k),
                        };
                        if let Some(target) = target {
                            self.goto(target, fx);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// The wheel scrolls what is drawn under the pointer, in the screen's rectangles: the
    /// search popup's or the filter menu's list (one entry a notch, the list following),
    /// the help or summary page, the context pane beside the item (at 160 columns and
    /// more), or else the item's text. Nothing over the rest of a search or
    /// filter popup's screen (the item it hides), nor on a terminal too small to show
    /// anything but the size message (where every scroll is clamped to 0 anyway).
    fn on_wheel(&mut self, m: MouseEvent, down: bool) {
        let screen = Screen::of(self);
        if screen.too_small {
            return;
        }
        let step = |k: usize, len: usize| {
            if down {
                (k + 1).min(len.saturating_sub(1))
            } else {
                k.saturating_sub(1)
            }
        };
        if let Some(list) = &screen.search {
            if let Mode::Search(s) = &mut self.mode
                && contains(list.frame, m.column, m.row)
                && list.len > 0
            {
                s.selected = step(s.selected, list.len);
            }
            return;
        }
        if let Some(list) = &screen.filter {
            if let Mode::Filter { selected } = &mut self.mode
                && contains(list.frame, m.column, m.row)
            {
                *selected = step(*selected, list.len);
            }
            return;
        }
        let over_context = crate::tui::geometry::aside_at(self, m.column, m.row);
        match &mut self.mode {
            Mode::Help { .. } | Mode::Summary { .. } if down => {
                let max = crate::tui::geometry::page_max_scroll(self);
                if let Mode::Help { scroll } | Mode::Summary { scroll } = &mut self.mode {
                    *scroll = scroll.saturating_add(3).min(max.max(*scroll));
                }
            }
            Mode::Help { scroll } | Mode::Summary { scroll } => *scroll = scroll.saturating_sub(3),
            // the context pane beside the item scrolls on its own
            _ if over_context => {
                let (_, max) = crate::tui::geometry::aside_geometry(self);
                self.aside_scroll = if down {
                    self.aside_scroll.saturating_add(3).min(max)
                } else {
                    self.aside_scroll.saturating_sub(3)
                };
            }
            _ if down => self.scroll_down(3),
            _ => self.scroll = self.scroll.saturating_sub(3),
        }
    }

    /// For an Alt + letter that nothing here takes: the letter without Alt, to be read
    /// after an Esc. A lone Esc held back by the terminal's way comes glued to the next
    /// key (`ESC n` in one read: GNU screen before 5.0 with the mouse on, tmux's
    /// `escape-time`), which reads as Alt + it; taken as Esc and the key, a popup closes
    /// without recording anything and the key does what it does. An Alt key the keymap
    /// binds here, or a text field's own (Alt-b, Alt-f), stays what it is; Alt and a
    /// character the field has is `find_char` (`alt-char`), one it has not is the Esc and
    /// the key (a glued `ESC n` in a field with an `n` is a find: the popup stays open).
    pub(super) fn glued_to_esc(&mut self, k: &KeyEvent) -> Option<KeyEvent> {
        let KeyCode::Char(c) = k.code else {
            return None;
        };
        if !k.modifiers.contains(KeyModifiers::ALT) || k.modifiers.contains(KeyModifiers::CONTROL) {
            return None;
        }
        let action = match crate::tui::overlays::keys(&self.mode) {
            Some(context) => self.keymap.in_overlay(context, k, false),
            None => self.keymap.lookup(self.context(), Key::from_event(k)),
        };
        let bound = match action {
            Some(Action::FindChar) => self.mode.text_field().is_some_and(|e| e.has(c)),
            a => a.is_some(),
        };
        if bound || (self.mode.has_text_field() && crate::tui::edit::ALT_KEYS.contains(&c)) {
            return None;
        }
        Some(KeyEvent::new_with_kind(
            k.code,
            k.modifiers - KeyModifiers::ALT,
            k.kind,
        ))
    }

    pub(super) fn on_key(&mut self, k: KeyEvent, fx: &mut Vec<Effect>) {
        self.status = None;
        let filter_rows = if matches!(self.mode, Mode::Filter { .. }) {
            self.filter_options().len()
        } else {
            0
        };
        let global = self.keymap.lookup(Context::Global, Key::from_event(&k));
        // The help and the summary scroll no further than their end.
        let page_max = crate::tui::geometry::page_max_scroll(self);
        let page_rows = crate::tui::geometry::page_rows_of_page(self);
        // The key that opened the help or the summary closes it.
        let toggles = matches!(
            (&self.mode, global),
            (Mode::Help { .. }, Some(Action::Help)) | (Mode::Summary { .. }, Some(Action::Summary))
        );
        // The overlay's own action for the key (in its table of the keymap).
        let own = crate::tui::overlays::keys(&self.mode)
            .and_then(|c| self.keymap.in_overlay(c, &k, false));
        // Overlays take the keys first; each says what should happen.
        match &mut self.mode {
            Mode::Normal => {}
            Mode::Help { scroll } | Mode::Summary { scroll } => {
                if page::handle_key(scroll, own, page_max, page_rows, toggles) == Outcome::Close {
                    self.mode = Mode::Normal;
                }
                return;
            }
            Mode::Search(s) => {
                match search::handle_key(s, &self.keymap, &k) {
                    Outcome::Close => self.mode = Mode::Normal,
                    Outcome::Submit(target) => {
                        self.mode = Mode::Normal;
                        match target {
                            Some(t) => self.goto(t, fx),
                            None => self.set_status("no match", Level::Warn),
                        }
                    }
                    Outcome::Changed => self.refresh_search(fx),
                    Outcome::Stay => {}
                }
                return;
            }
            Mode::Jump(e) => {
                match jump::handle_key(e, &self.keymap, &k) {
                    Outcome::Close => self.mode = Mode::Normal,
                    Outcome::Submit(q) => {
                        self.mode = Mode::Normal;
                        self.jump(&q, fx);
                    }
                    _ => {}
                }
                return;
            }
            Mode::Note(e) => {
                match note::handle_key(e, &self.keymap, &k) {
                    Outcome::Close => self.mode = Mode::Normal,
                    Outcome::Submit(t) => {
                        self.mode = Mode::Normal;
                        let set = crate::tui::views::current(self).note_setter(self);
                        self.change_review(fx, |r, _| set(r, &t));
                    }
                    _ => {}
                }
                return;
            }
            // A benchmark's popups: its view says what their outcome records.
            Mode::Popup(_) => {
                crate::tui::views::popup_key(self, &k, fx);
                return;
            }
            Mode::Filter { selected } => {
                let outcome = filter::handle_key(selected, filter_rows, own, global);
                self.filter_row = *selected;
                match outcome {
                    Outcome::Close => self.mode = Mode::Normal,
                    Outcome::Submit(filter::Pick::Clear) => {
                        self.filters = Filters::default();
                        self.apply_filters(fx);
                    }
                    Outcome::Submit(filter::Pick::Toggle(row)) => self.toggle_filter_row(row, fx),
                    _ => {}
                }
                return;
            }
        }

        let Some(action) = self.keymap.lookup(self.context(), Key::from_event(&k)) else {
            return;
        };
        self.act(action, fx);
    }

    /// Scroll the item's text down, no further than its end at the current size.
    pub(crate) fn scroll_down(&mut self, by: usize) {
        let max = crate::tui::geometry::max_scroll(self);
        self.scroll = self.scroll.saturating_add(by).min(max.max(self.scroll));
    }
}
