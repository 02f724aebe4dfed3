//! Recording my verdicts: grades, reviews, skips, the journal writes under way, undo and redo.

use crate::bench::Items;
use std::collections::BTreeMap;

use crate::bench::{ResponseGrades, Review};
use crate::review;
use crate::tui::facts::Kind;
use crate::tui::keymap::{Action, Context};

use super::*;

/// My verdicts of this session, and what it takes to record them, undo and redo them.
#[derive(Debug)]
pub struct Recording {
    /// My verdicts recorded (or being recorded) in this session: item → review (None =
    /// removed).
    pub mine: HashMap<usize, Option<Review>>,
    /// Whether each item of `mine` is done (`review::item_done`), kept with it so that
    /// progress costs no parse per frame.
    pub mine_done: HashMap<usize, bool>,
    /// Journal writes under way: seq → (item, review before the change).
    pub pending: HashMap<u64, (usize, Option<Review>)>,
    pub next_seq: u64,
    pub undo: Vec<Change>,
    pub redo: Vec<Change>,
    /// What each journal write under way did to `undo` and `redo`: a write refused takes
    /// exactly that back (seq → step).
    pub(super) steps: HashMap<u64, Step>,
    /// This update's grading cleared a skip: the status line says so.
    pub(super) skip_cleared: bool,
    /// The running tally a view keeps of my grades (`View::tally`: CharToM-QA's bonus
    /// point coverage, BPC), per item graded, and the sum (kept up to date as verdicts
    /// are recorded). Per item, per model: covered and total of my grades.
    pub bpc_items: HashMap<usize, BTreeMap<String, (u64, u64)>>,
    /// Per model: the sums of `bpc_items`.
    pub tally: BTreeMap<String, (u64, u64)>,
}

impl Default for Recording {
    fn default() -> Recording {
        Recording {
            mine: HashMap::new(),
            mine_done: HashMap::new(),
            pending: HashMap::new(),
            next_seq: 1,
            undo: vec![],
            redo: vec![],
            steps: HashMap::new(),
            skip_cleared: false,
            bpc_items: HashMap::new(),
            tally: BTreeMap::new(),
        }
    }
}

/// What a change did to the undo history.
#[derive(Debug)]
pub(super) enum Step {
    /// A new change, pushed to `undo`; `redo` was this, and was cleared.
    Made(Change, Vec<Change>),
    /// A change moved from `undo` to `redo`.
    Undone(Change),
    /// A change moved from `redo` to `undo`.
    Redone(Change),
}

impl Recording {
    /// The journal refused the write of `step`'s change: the history as it was before.
    /// (After a reload moved the items, a change no longer found is left as it is.)
    pub(super) fn take_back(&mut self, step: Step) {
        fn take(v: &mut Vec<Change>, c: &Change) -> bool {
            v.iter()
                .rposition(|x| x == c)
                .map(|at| v.remove(at))
                .is_some()
        }
        match step {
            Step::Made(c, redo) => {
                if take(&mut self.undo, &c) && self.redo.is_empty() {
                    self.redo = redo;
                }
            }
            Step::Undone(c) => {
                if take(&mut self.redo, &c) {
                    self.undo.push(c);
                }
            }
            Step::Redone(c) => {
                if take(&mut self.undo, &c) {
                    self.redo.push(c);
                }
            }
        }
    }
}

impl State {
    /// The model whose response is selected.
    pub fn model_name(&self) -> Option<String> {
        self.item()
            .and_then(|i| i.responses.get(self.model))
            .map(|r| r.model.clone())
    }

    /// My grades of the selected response.
    pub fn my_grades(&self) -> Option<ResponseGrades> {
        let it = self.item()?;
        let model = self.model_name()?;
        self.my_review(self.pos)?
            .for_model(&model, it.responses.len())
            .cloned()
    }

    /// Change the grades of the selected response (top level for single-response items,
    /// under `models.<model>` otherwise).
    pub(crate) fn change_grades(
        &mut self,
        fx: &mut Vec<Effect>,
        f: impl FnOnce(&mut ResponseGrades),
    ) -> bool {
        let Some(model) = self.model_name() else {
            self.set_status("this item has no response to grade", Level::Warn);
            return false;
        };
        self.change_review(fx, |r, n_responses| {
            review::change_grades(r, &model, n_responses, f)
        })
    }

    /// After a complete verdict on the item (C-VQA accept, reject, fix; a free verdict):
    /// move on to the next item that still needs my verdict when auto-advance is on,
    /// saying what was recorded where (README, "Auto-advance").
    pub(crate) fn advance_after(&mut self, what: &str, fx: &mut Vec<Effect>) {
        let id = self.display_id(self.pos);
        // In the adjudication queue the next step on the item is `A`: stay.
        if !self.auto_advance || self.queue {
            return;
        }
        let from = self.pos;
        self.next_ungraded(fx);
        let msg = if self.pos == from {
            let why = self
                .status
                .take()
                .map(|(m, _)| m)
                .unwrap_or_else(|| "no item after it needs you".into());
            format!("{what} on {id} · {why}")
        } else {
            format!("{what} on {id}")
        };
        self.set_status(msg, Level::Info);
    }

    /// After a grade of one response (a CHARTOM justification, a CharToM-QA penalty or
    /// no penalty, a free verdict): with auto-advance, once that response's required
    /// grades are given, on to the next response of the item that still needs them, and
    /// when none does and the item is done, on to the next item that still needs work.
    pub(crate) fn advance_after_grade(&mut self, fx: &mut Vec<Effect>) {
        if !self.auto_advance || self.queue {
            return;
        }
        let Some(item) = self.item() else { return };
        let mine = self.my_review(self.pos);
        let done = review::models_done(item, mine.as_ref());
        let required = review::models_required(item);
        let n = item.responses.len();
        let here = self.model.min(n.saturating_sub(1));
        if n > 0 && required.get(here) == Some(&true) && done.get(here) == Some(&false) {
            // This response still needs a grade (a CharToM-QA penalty, say): stay.
            return;
        }
        let next = (1..n)
            .map(|k| (here + k) % n)
            .find(|&k| required[k] && !done[k]);
        if let Some(k) = next {
            let from = self.model_name().unwrap_or_default();
            self.model = k;
            self.scroll = crate::tui::geometry::target_scroll(self);
            let to = self.model_name().unwrap_or_default();
            self.set_status(
                format!(
                    "graded {} · now {} ({}/{n})",
                    crate::tui::text::one_line(&from),
                    crate::tui::text::one_line(&to),
                    k + 1
                ),
                Level::Info,
            );
            return;
        }
        if review::item_done(item, mine.as_ref()) {
            self.advance_after("graded", fx);
        }
    }

    pub fn is_skipped(&self, i: usize) -> bool {
        self.skipped.contains(&i)
    }

    pub(super) fn toggle_skip(&mut self, fx: &mut Vec<Effect>) {
        if self.is_empty() || self.current.is_none() {
            return;
        }
        let i = self.pos;
        let id = self.display_id(i);
        self.skip_changed(i);
        if self.skipped.remove(&i) {
            self.set_status(format!("{id} is no longer skipped"), Level::Info);
        } else {
            self.skipped.insert(i);
            self.next_ungraded(fx);
            self.set_status(
                format!(
                    "skipped {id} ({} passes over it; {} on it again unskips)",
                    self.keymap.hint(Context::Global, Action::NextUngraded),
                    self.keymap.hint(Context::Global, Action::Skip)
                ),
                Level::Info,
            );
        }
        fx.push(self.session_effect());
    }

    /// The time a change made now is recorded at (RFC 3339, whole seconds, UTC).
    pub(crate) fn now_at(&self) -> String {
        self.clock
            .utc
            .replace_nanosecond(0)
            .unwrap_or(self.clock.utc)
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default()
    }

    /// Change my review of the current item and record it; false when nothing was
    /// recorded.
    pub(crate) fn change_review(
        &mut self,
        fx: &mut Vec<Effect>,
        f: impl FnOnce(&mut Review, usize),
    ) -> bool {
        let Some((before, after)) = self.review_changed(f) else {
            return false;
        };
        self.push_change(vec![Change::of(self.pos, before, after)], fx);
        true
    }

    /// [`State::change_review`], and the same change of my review of each of `others`
    /// (the items that hold the same answer, issue 39) that it changes, recorded as one
    /// change (one undo). The items of `others` changed; None when nothing was recorded.
    pub(crate) fn change_reviews(
        &mut self,
        fx: &mut Vec<Effect>,
        others: &[usize],
        f: impl Fn(&mut Review, usize),
    ) -> Option<Vec<usize>> {
        let (before, after) = self.review_changed(&f)?;
        let mut parts = vec![Change::of(self.pos, before, after)];
        for &j in others {
            let Ok(item) = self.store.item(j) else {
                continue;
            };
            let before = self.my_review(j);
            let mut r = before.clone().unwrap_or_default();
            f(&mut r, item.responses.len());
            if before.as_ref() == Some(&r) {
                // it has that review already
                continue;
            }
            // (no time spent on it: its `seconds` stay as they were)
            r.at = Some(self.now_at());
            let after = r.has_content().then_some(r);
            if before.is_some() || after.is_some() {
                parts.push(Change::of(j, before, after));
            }
        }
        let changed = parts[1..].iter().map(|c| c.item).collect();
        self.push_change(parts, fx);
        Some(changed)
    }

    /// My review of the current item before and after `f`, timed; None when there is
    /// nothing to record (said when the item cannot be read).
    fn review_changed(
        &mut self,
        f: impl FnOnce(&mut Review, usize),
    ) -> Option<(Option<Review>, Option<Review>)> {
        let Some(item) = self.item() else {
            self.set_status(
                "this item cannot be read, so it cannot be graded",
                Level::Error,
            );
            return None;
        };
        let n = item.responses.len();
        let before = self.my_review(self.pos);
        let mut r = before.clone().unwrap_or_default();
        f(&mut r, n);
        r.at = Some(self.now_at());
        // Each stretch without a key counts at most two minutes (timing::IDLE_CAP).
        let secs = self.timing.on_item();
        r.seconds = Some((secs * 10.0).round() / 10.0);
        // A review left saying nothing is removed, not written empty.
        let after = r.has_content().then_some(r);
        if before.is_none() && after.is_none() {
            return None;
        }
        Some((before, after))
    }

    /// Record the changes `parts` (of distinct items, the first the one graded) as one
    /// change of the undo history.
    fn push_change(&mut self, parts: Vec<Change>, fx: &mut Vec<Effect>) {
        let was_skipped: Vec<bool> = parts
            .iter()
            .map(|c| self.skipped.contains(&c.item))
            .collect();
        let Some(change) = Change::of_parts(parts) else {
            return;
        };
        // Pushed before recording: the session effect `record` sends keeps the history.
        self.rec.undo.push(change.clone());
        let redo = std::mem::take(&mut self.rec.redo);
        let seqs: Vec<u64> = change
            .into_parts()
            .into_iter()
            .map(|c| self.record(c.item, c.before, c.after, fx))
            .collect();
        let unskipped: Vec<bool> = self
            .rec
            .undo
            .last()
            .map(|c| {
                c.parts()
                    .zip(&was_skipped)
                    .map(|(p, was)| *was && !self.skipped.contains(&p.item))
                    .collect()
            })
            .unwrap_or_default();
        if let Some(c) = self.rec.undo.last_mut() {
            c.unskipped = unskipped[0];
            for (p, u) in c.with.iter_mut().zip(&unskipped[1..]) {
                p.unskipped = *u;
            }
            // A write refused, whichever part's, takes the whole change back.
            for seq in seqs {
                self.rec
                    .steps
                    .insert(seq, Step::Made(c.clone(), redo.clone()));
            }
        }
    }

    /// Keep the running BPC in step with my review of item `i`.
    pub(super) fn retally(&mut self, i: usize, review: &Option<Review>) {
        for (m, (c, t)) in self.rec.bpc_items.remove(&i).unwrap_or_default() {
            let sum = self.rec.tally.entry(m.clone()).or_default();
            *sum = (sum.0 - c, sum.1 - t);
            if sum.1 == 0 && self.rec.bpc_items.values().all(|per| !per.contains_key(&m)) {
                self.rec.tally.remove(&m);
            }
        }
        if let Some(per) = self.coverage(i, review) {
            for (m, (c, t)) in &per {
                let sum = self.rec.tally.entry(m.clone()).or_default();
                *sum = (sum.0 + c, sum.1 + t);
            }
            self.rec.bpc_items.insert(i, per);
        }
    }

    /// Per model: the running tally of `review` on item `i` that its view keeps
    /// (`View::tally`: CharToM-QA's covered and total bonus points).
    pub(super) fn coverage(
        &self,
        i: usize,
        review: &Option<Review>,
    ) -> Option<BTreeMap<String, (u64, u64)>> {
        let r = review.as_ref()?;
        let parsed;
        let item = if i == self.pos {
            self.item()?
        } else {
            parsed = self.store.item(i).ok()?;
            &parsed
        };
        crate::tui::views::view_of(item.benchmark()).tally(item, r)
    }

    pub(super) fn record(
        &mut self,
        item: usize,
        before: Option<Review>,
        after: Option<Review>,
        fx: &mut Vec<Effect>,
    ) -> u64 {
        let seq = self.rec.next_seq;
        self.rec.next_seq += 1;
        self.rec.pending.insert(seq, (item, before));
        self.set_mine(item, after.clone());
        self.saved = SaveState::Writing;
        let id = if item == self.pos {
            self.item().and_then(|i| i.id.clone())
        } else {
            self.store.item(item).ok().and_then(|i| i.into_fields().id)
        };
        // Its text and the index go with it: the IO worker works out whether it needs its
        // content to be found again (`session::needs_key`) and what that is.
        fx.push(Effect::Record {
            seq,
            item,
            id,
            content: self.store.raw_shared(item).ok(),
            index: self.meta.clone(),
            reviewer: self.reviewer.clone(),
            review: after.map(|r| review_value(&r)),
        });
        fx.push(self.session_effect());
        self.push_position(fx);
        seq
    }

    /// My review of item `i` as this session has it now, with what follows from it.
    pub(super) fn set_mine(&mut self, i: usize, review: Option<Review>) {
        self.facts_rev += 1;
        self.retally(i, &review);
        // The item on screen is parsed already; any other (or the one on screen while it
        // is not loaded: during a reload) is read from the store.
        let done = match self.item().filter(|_| i == self.pos) {
            Some(it) => review::item_done(it, review.as_ref()),
            None => self
                .store
                .item(i)
                .is_ok_and(|it| review::item_done(&it, review.as_ref())),
        };
        let done_before = self.rec.mine_done.get(&i).copied().unwrap_or_else(|| {
            self.meta
                .as_ref()
                .is_some_and(|m| m.has(i, Kind::Done, &self.reviewer))
        });
        if done && !done_before {
            self.timing.finished.insert(i);
        } else if !done {
            self.timing.finished.remove(&i);
        }
        self.rec.mine_done.insert(i, done);
        // Only grading that makes the item done clears my skip of it (a note on a
        // finished item does not), and the status line says so.
        if done && !done_before && self.skipped.remove(&i) {
            self.rec.skip_cleared = true;
        }
        self.rec.mine.insert(i, review);
        self.refresh_live(i);
    }

    pub(super) fn undo(&mut self, fx: &mut Vec<Effect>) {
        let Some(c) = self.rec.undo.pop() else {
            if self.restoring.undo_pending() {
                self.set_status(
                    "your undo history from last session is still being found in the file: in a moment",
                    Level::Info,
                );
            } else {
                self.set_status("nothing to undo", Level::Info);
            }
            return;
        };
        if c.item != self.pos {
            self.goto(c.item, fx);
        }
        for p in c.parts() {
            let seq = self.record(p.item, p.after.clone(), p.before.clone(), fx);
            self.rec.steps.insert(seq, Step::Undone(c.clone()));
        }
        if self.queue {
            // An undone adjudication puts the item back in the queue.
            self.apply_filters(fx);
        }
        let mut again = false;
        for p in c.parts() {
            again |= p.unskipped && self.skipped.insert(p.item);
        }
        let again = if again { " · skipped again" } else { "" };
        let on = self.items_of(&c);
        self.set_status(format!("undone on {on}{again}"), Level::Info);
        self.rec.redo.push(c);
        fx.push(self.session_effect());
    }

    pub(super) fn redo(&mut self, fx: &mut Vec<Effect>) {
        let Some(c) = self.rec.redo.pop() else {
            self.set_status("nothing to redo", Level::Info);
            return;
        };
        if c.item != self.pos {
            self.goto(c.item, fx);
        }
        for p in c.parts() {
            let seq = self.record(p.item, p.before.clone(), p.after.clone(), fx);
            self.rec.steps.insert(seq, Step::Redone(c.clone()));
        }
        if self.queue {
            // A redone adjudication takes the item out of the queue again.
            self.apply_filters(fx);
        }
        let on = self.items_of(&c);
        self.set_status(format!("redone on {on}"), Level::Info);
        self.rec.undo.push(c);
        fx.push(self.session_effect());
    }

    /// The items a change is on, as the status line names them: `#2`, or `2 items at
    /// once: #2, #6`.
    fn items_of(&self, c: &Change) -> String {
        let ids: Vec<String> = c.parts().map(|p| self.display_id(p.item)).collect();
        match ids.as_slice() {
            [one] => one.clone(),
            _ => format!("{} items at once: {}", ids.len(), ids.join(", ")),
        }
    }
}
