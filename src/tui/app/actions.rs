//! The keymap's actions: what each does to the state.

use crate::bench::Items;
use crate::review;
use crate::tui::edit::TextEdit;
use crate::tui::keymap::{Action, Context};

use super::*;

impl State {
    pub fn act(&mut self, action: Action, fx: &mut Vec<Effect>) {
        match action {
            // The overlays' own actions do nothing in the item view.
            Action::Close
            | Action::Submit
            | Action::Cancel
            | Action::SelectNext
            | Action::SelectPrev
            | Action::Toggle
            | Action::FindChar
            | Action::Row(_) => {}
            Action::Quit => self.request_quit(fx),
            Action::Next => self.step(1, fx),
            Action::Prev => self.step(-1, fx),
            Action::First => self.first(fx),
            Action::Last => self.last(fx),
            Action::NextUngraded => self.next_ungraded(fx),
            Action::Jump => self.mode = Mode::Jump(TextEdit::new("", false)),
            Action::Search => self.open_search(fx),
            Action::Filter => self.open_filters(),
            Action::ClearFilters => self.clear_filters(fx),
            Action::Help => self.mode = Mode::Help { scroll: 0 },
            Action::Summary => self.open_summary(fx),
            Action::Undo => self.undo(fx),
            Action::Redo => self.redo(fx),
            Action::Note => self.open_note(),
            Action::ScrollDown => self.scroll_down(1),
            Action::ScrollUp => self.scroll = self.scroll.saturating_sub(1),
            // The page is worked out (a layout of the screen) only for these two keys.
            Action::PageDown => self.scroll_down(crate::tui::geometry::page_rows(self)),
            Action::PageUp => self.page_up(),
            Action::NextModel => self.next_model(),
            Action::NextRun => self.next_run(fx),
            Action::SideBySide => self.toggle_side_by_side(),
            Action::ZoomImage => self.zoom_image(),
            Action::HideImage => self.hide_image(),
            Action::OpenImage => self.open_image(fx),
            Action::Blind => self.toggle_blind(fx),
            Action::Theme => self.next_theme(),
            Action::Suspend => fx.push(Effect::Suspend),
            Action::Skip => self.toggle_skip(fx),
            // The benchmark's own grading keys: its view says what they do.
            Action::Verb(_) | Action::Answer(_) | Action::NextQuestion | Action::PrevQuestion => {
                crate::tui::views::current(self).act(self, action, fx);
            }
            Action::Pass | Action::Fail | Action::Unsure => self.free_verdict(action, fx),
            Action::Adjudicate => self.adjudicate(fx),
            Action::AdjudicationQueue => self.adjudication_queue(fx),
        }
    }

    /// Quit: every verdict is on disk already.
    fn request_quit(&mut self, fx: &mut Vec<Effect>) {
        self.quit = true;
        self.push_position(fx);
        fx.push(Effect::Quit);
    }

    /// The first item shown.
    fn first(&mut self, fx: &mut Vec<Effect>) {
        if let Some(t) = self.first_visible() {
            self.goto(t, fx)
        }
    }

    /// The last item shown (not known until the whole file is read).
    fn last(&mut self, fx: &mut Vec<Effect>) {
        if self.visible.is_none() && self.still_reading() {
            // The last item is not known until the whole file is read.
            self.set_reading_status(self.reading_notice());
            return;
        }
        if let Some(t) = self.last_visible() {
            self.goto(t, fx)
        }
    }

    /// Open the search.
    fn open_search(&mut self, fx: &mut Vec<Effect>) {
        self.mode = Mode::Search(SearchState::new());
        self.refresh_search(fx);
    }

    /// Open the filter menu on the row it was closed on.
    fn open_filters(&mut self) {
        self.count_filters();
        // on the row it was closed on (switching a filter of one kind is then a
        // key or two, not a walk from the top)
        let rows = self.filter_options().len();
        self.mode = Mode::Filter {
            selected: self.filter_row.min(rows.saturating_sub(1)),
        };
    }

    /// Every filter off.
    fn clear_filters(&mut self, fx: &mut Vec<Effect>) {
        self.filters = Filters::default();
        self.apply_filters(fx);
    }

    /// Open the summary page (not in blind mode: it holds others' figures).
    fn open_summary(&mut self, fx: &mut Vec<Effect>) {
        if self.blind {
            let key = self.keymap.hint(Context::Global, Action::Blind);
            self.set_status(
                format!(
                    "the summary holds others' and the judge's figures: hidden in blind mode ({key} leaves it)"
                ),
                Level::Warn,
            );
            return;
        }
        self.mode = Mode::Summary { scroll: 0 };
        self.request_summary(fx);
    }

    /// Open my note on the item for editing.
    fn open_note(&mut self) {
        // (a view may keep notes per graded part: `View::note`)
        let note = self
            .my_review(self.pos)
            .and_then(|r| crate::tui::views::current(self).note(self, &r))
            .unwrap_or_default();
        self.mode = Mode::Note(TextEdit::new(&note, true));
    }

    /// Scroll a page up.
    fn page_up(&mut self) {
        self.scroll = self
            .scroll
            .saturating_sub(crate::tui::geometry::page_rows(self))
    }

    /// The next model's response.
    fn next_model(&mut self) {
        let n = self.item().map(|i| i.responses.len()).unwrap_or(0);
        if n > 1 {
            self.model = (self.model + 1) % n;
            if !self.side_by_side {
                self.scroll = crate::tui::geometry::target_scroll(self);
            }
        } else {
            self.set_status(one_response(n, "no other model to switch to"), Level::Info);
        }
    }

    /// Responses side by side, or one at a time.
    fn toggle_side_by_side(&mut self) {
        let n = self.item().map(|i| i.responses.len()).unwrap_or(0);
        if n > 1 || self.side_by_side {
            self.side_by_side = !self.side_by_side;
            self.scroll = 0;
        } else {
            self.set_status(one_response(n, "nothing to set side by side"), Level::Info);
        }
    }

    /// The image fills the screen, or back.
    fn zoom_image(&mut self) {
        if self.image_path().is_some() {
            self.zoom = !self.zoom;
            self.scroll = 0;
        } else {
            self.set_status("this item has no image", Level::Warn);
        }
    }

    /// Hide the picture for the session, or show it.
    fn hide_image(&mut self) {
        // (the loop asks for the picture at its pane's new size, as for zoom)
        self.image_hidden = !self.image_hidden;
        self.zoom = false;
        // what is graded stays in sight in the pane's new height
        self.scroll = crate::tui::geometry::target_scroll(self);
    }

    /// Open the image in the system viewer.
    fn open_image(&mut self, fx: &mut Vec<Effect>) {
        match self.image_path() {
            Some(p) => fx.push(Effect::OpenExternal(p)),
            None => self.set_status("this item has no image", Level::Warn),
        }
    }

    /// Blind mode on or off.
    fn toggle_blind(&mut self, fx: &mut Vec<Effect>) {
        self.blind = !self.blind;
        let dropped = if self.blind {
            self.blind_filters_off(fx)
        } else {
            if !self.filters.is_empty() {
                self.apply_filters(fx);
            }
            false
        };
        self.set_status(
            match (self.blind, dropped) {
                (true, false) => {
                    "blind mode: others' verdicts and the judge are hidden until you grade"
                }
                (true, true) => {
                    "blind mode: others' verdicts and the judge are hidden until you grade; the filters on them are off"
                }
                (false, _) => "blind mode off",
            },
            Level::Info,
        );
        self.count_filters();
    }

    /// The next theme.
    fn next_theme(&mut self) {
        self.theme = Theme::new(self.theme.name.next());
        let key = self.keymap.hint(Context::Global, Action::Theme);
        self.set_status(
            format!("theme: {} ({key} switches)", self.theme.name.name()),
            Level::Info,
        );
    }

    /// A free verdict (`pass`, `fail`, `unsure`: the benchmark's values).
    fn free_verdict(&mut self, action: Action, fx: &mut Vec<Effect>) {
        // An item no figure would use a verdict on (`review::no_grade`): why.
        if let Some(why) = self.item().and_then(review::no_grade) {
            let id = crate::tui::text::one_line(&self.display_id(self.pos));
            self.set_status(format!("nothing recorded on {id}: {why}"), Level::Warn);
            return;
        }
        // A view whose verdict is on a part of the item it lets the reviewer
        // choose records it itself.
        if crate::tui::views::current(self).act(self, action, fx) {
            return;
        }
        // The value each of the three verdict keys writes is the benchmark's.
        let slot = match action {
            Action::Pass => 0,
            Action::Fail => 1,
            _ => 2,
        };
        let b = self
            .item()
            .map_or(crate::bench::Benchmark::Other, |it| it.benchmark());
        let v = crate::bench::spec(b).verdicts()[slot];
        // The items that hold the same answer get the same verdict, as one change.
        let same = self.same_answer();
        let others: Vec<usize> = same.iter().skip(1).map(|(j, _)| *j).collect();
        let of = self
            .item()
            .and_then(|it| crate::bench::spec(it.benchmark()).harness_id(it))
            .unwrap_or_default();
        let Some(changed) = self.change_reviews(fx, &others, |r, _| review::set_verdict(r, v))
        else {
            return;
        };
        self.advance_after_grade(fx);
        if !changed.is_empty() {
            let on: Vec<&(usize, String)> = same
                .iter()
                .enumerate()
                .filter(|(k, (j, _))| *k == 0 || changed.contains(j))
                .map(|(_, x)| x)
                .collect();
            self.say_same_answer(v, &of, &on);
        }
    }

    /// The status line after verdict `v` went to the items `on` (each with what tells it
    /// apart; the one graded first) of harness id `of`: `correct on doc 1's strict-match
    /// (#2) and flexible-extract (#6), one answer · u undoes both`, after what it said.
    fn say_same_answer(&mut self, v: &str, of: &str, on: &[&(usize, String)]) {
        let mut names: Vec<String> = on
            .iter()
            .map(|(j, name)| {
                let id = crate::tui::text::one_line(&self.display_id(*j));
                format!("{} ({id})", crate::tui::text::one_line(name))
            })
            .collect();
        let last = names.pop().unwrap_or_default();
        let undo = self.keymap.hint(Context::Global, Action::Undo);
        let all = match on.len() {
            2 => "both".to_string(),
            n => format!("all {n}"),
        };
        let said = format!(
            "{v} on {}'s {} and {last}, one answer · {undo} undoes {all}",
            crate::tui::text::one_line(of),
            names.join(", "),
        );
        let msg = match self.status.take() {
            Some((m, _)) => format!("{m} · {said}"),
            None => said,
        };
        self.set_status(msg, Level::Info);
    }

    /// The items that hold the current item's answer (`Spec::same_answer`), each with
    /// what tells it apart, the current item first; none when no other does. Looked for
    /// among the items of its harness id in the index (none before the index is built).
    fn same_answer(&self) -> Vec<(usize, String)> {
        let (Some(item), Some(m)) = (self.item(), self.meta.as_ref()) else {
            return vec![];
        };
        let spec = crate::bench::spec(item.benchmark());
        let Some(h) = spec.harness_id(item) else {
            return vec![];
        };
        let mut own = None;
        let mut out = vec![];
        // (in a folder's set, lines of the item's own file only: another file's line is
        // another run's generation, however alike)
        let file = self.store.part_number(self.pos);
        let h = crate::tui::facts::harness_key(item, h);
        for j in m.items_of_harness_id(&h) {
            let Some(other) = (j != self.pos && self.store.part_number(j) == file)
                .then(|| self.store.item(j).ok())
                .flatten()
            else {
                continue;
            };
            if let Some(name) = spec.same_answer(item, &other) {
                // (the relation goes both ways: what tells this item apart from it)
                own = own.or_else(|| spec.same_answer(&other, item));
                out.push((j, name));
            }
        }
        match own {
            Some(own) => std::iter::once((self.pos, own)).chain(out).collect(),
            None => vec![],
        }
    }

    /// Mark my verdict final (with the grades the others agree on).
    fn adjudicate(&mut self, fx: &mut Vec<Effect>) {
        let Some(item) = self.item() else { return };
        let mine = self.my_review(self.pos);
        let done = review::item_done(item, mine.as_ref());
        // Marking final (not unmarking): the grades the other reviewers all agree
        // on are taken for the responses I have not graded, so the adjudicator
        // grades only where they disagree.
        let marking = mine.as_ref().is_none_or(|r| r.is_final != Some(true));
        let (filled, taken) = if marking && !done {
            review::with_agreed(item, &self.reviewer, &mine.clone().unwrap_or_default())
        } else {
            (mine.clone().unwrap_or_default(), vec![])
        };
        if !done && !review::item_done(item, Some(&filled)) {
            let key = self.keymap.hint(Context::Global, Action::Adjudicate);
            let n = item.responses.len();
            let open: Vec<String> = item
                .responses
                .iter()
                .filter(|r| filled.for_model(&r.model, n).is_none_or(|g| g.is_empty()))
                .map(|r| crate::tui::text::one_line(&r.model))
                .collect();
            let what = if open.is_empty() || n <= 1 {
                "the item".to_string()
            } else {
                open.join(", ")
            };
            self.set_status(
                format!(
                    "grade {what} first (where the reviewers disagree); {key} then marks your verdict as the final one"
                ),
                Level::Warn,
            );
            return;
        }
        let id = self.display_id(self.pos);
        self.change_review(fx, |r, _| {
            *r = filled;
            review::toggle_final(r)
        });
        if self.queue {
            // An adjudicated item leaves the queue: on to the next one.
            self.apply_filters(fx);
        }
        if !taken.is_empty() {
            let after = self
                .status
                .take()
                .map(|(m, _)| format!(" · {m}"))
                .unwrap_or_default();
            self.set_status(
                format!(
                    "final on {id}, with the agreed grades of {}{after}",
                    taken
                        .iter()
                        .map(|m| crate::tui::text::one_line(m))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Level::Info,
            );
        }
    }

    /// Enter or leave the adjudication queue.
    fn adjudication_queue(&mut self, fx: &mut Vec<Effect>) {
        if self.meta.is_none() {
            self.set_status(
                self.no_index("the index is still being built; try again in a moment"),
                Level::Warn,
            );
            return;
        }
        if self.blind && !self.queue {
            let key = self.keymap.hint(Context::Global, Action::Blind);
            self.set_status(
                format!(
                    "the adjudication queue is others' disagreements: hidden in blind mode ({key} leaves it)"
                ),
                Level::Warn,
            );
            return;
        }
        self.queue = !self.queue;
        self.scroll = 0;
        self.apply_filters(fx);
        if self.queue && self.visible.as_ref().is_some_and(Visible::is_empty) {
            // An empty queue is not entered.
            self.queue = false;
            self.apply_filters(fx);
            self.set_status("no item to adjudicate", Level::Info);
            return;
        }
        if !self.queue {
            self.set_status("left the adjudication queue", Level::Info);
        } else if let Some(k) = self.first_disputed() {
            // on the response to decide, the reviewers' table in view
            self.model = k;
            self.scroll = crate::tui::geometry::target_scroll(self);
        }
    }
}
