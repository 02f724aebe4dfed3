//! What an earlier session left (its skipped items, its undo history, its position) and the
//! item `--at` asks for, taken up once they are found (`Msg::Located`): they are looked for
//! off the screen's thread (`tui::locate`), so the first frame never waits for them.
//!
//! Until they are found nothing of them is lost or misapplied: the session saved meanwhile
//! keeps what is not restored yet; undo says the history is coming; the position the
//! screen started at is not saved over the one looked for; a skip the reviewer changed
//! meanwhile is theirs. Once found, the saved place is taken up only if the reviewer has
//! pressed nothing yet; else the status line says where it is and how to go there. A key
//! pressed just after the screen moved there by itself is not acted on (it was meant for
//! the item before).

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::bench::{Items, Review};
use crate::tui::config::{Position, Session};
use crate::tui::keymap::{Action, Context};
use crate::tui::locate::{Located, Start, Wanted};

use super::*;

/// An item shown this long before the screen moves to the saved place by itself may have
/// been read: keys pressed in the next [`GRACE`] are not acted on.
const SHOWN: Duration = Duration::from_millis(150);
/// How long after moving by itself the screen takes no key (the reviewer's reaction to
/// what was on screen before).
const GRACE: Duration = Duration::from_millis(500);

/// The restore under way, and what the reviewer did meanwhile.
#[derive(Debug, Default)]
pub struct Restoring {
    pending: Option<Pending>,
    next_seq: u64,
    /// A key, a click or a paste has reached the state since it started.
    input_seen: bool,
    /// The position the screen started at while the saved one was looked for: not saved
    /// as the position while the screen is still there (the saved one would be lost).
    held: Option<usize>,
    /// When the screen moved to the saved place by itself (keys are not taken for
    /// [`GRACE`] after).
    moved_at: Option<Instant>,
}

#[derive(Debug)]
struct Pending {
    seq: u64,
    wanted: Arc<Wanted>,
    /// The session as saved (kept in the session saved meanwhile).
    saved: Session,
    /// When the lookup started.
    since: Instant,
    /// What the status line said while the start was looked for.
    finding: Option<String>,
    /// Items whose skip the reviewer changed meanwhile: theirs, not restored.
    skips_changed: BTreeSet<usize>,
}

impl Restoring {
    /// Items of the saved undo history are still being looked for.
    pub fn undo_pending(&self) -> bool {
        self.pending
            .as_ref()
            .is_some_and(|p| !p.saved.undo.is_empty())
    }

    /// Anything is still being looked for.
    pub fn is_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// Waiting for the lookup `seq` (`Msg::Located`).
    pub fn is_pending_seq(&self, seq: u64) -> bool {
        self.pending.as_ref().is_some_and(|p| p.seq == seq)
    }
}

impl State {
    /// Start on the store: at once on the first item, the item `start` names when it is
    /// among the items read so far and in its place (one item read), else while it is
    /// looked for; the saved `session` and anything not known yet are looked for off this
    /// thread (`Effect::Locate`, answered by `Msg::Located`).
    pub fn begin(&mut self, session: Session, start: Option<Start>) -> Vec<Effect> {
        let (at, look) = self.start_now(start);
        let wanted = Wanted {
            skipped: session.skipped.clone(),
            undo: session.undo.iter().map(|c| c.item.clone()).collect(),
            start: look,
        };
        let finding = wanted.start.as_ref().map(finding_notice);
        if wanted.skipped.is_empty() && wanted.undo.is_empty() && wanted.start.is_none() {
            return self.start_at(at);
        }
        let wanted = Arc::new(wanted);
        self.restoring.next_seq += 1;
        let seq = self.restoring.next_seq;
        self.restoring.pending = Some(Pending {
            seq,
            wanted: wanted.clone(),
            saved: session,
            since: self.clock.instant,
            finding: finding.clone(),
            skips_changed: BTreeSet::new(),
        });
        if finding.is_some() {
            self.restoring.held = Some(at.min(self.len().saturating_sub(1)));
        }
        let mut fx = self.start_at(at);
        if let Some(f) = finding {
            self.set_status(f, Level::Info);
        }
        fx.push(Effect::Locate {
            seq,
            wanted,
            meta: self.meta.clone(),
        });
        fx
    }

    /// Where to start now, without waiting for the file: the item `start` names when it is
    /// among the items read so far (and for a saved position, still has its id), else the
    /// item at the saved index (or the first) while `start` is looked for (the second).
    fn start_now(&self, start: Option<Start>) -> (usize, Option<Start>) {
        let found = self.found.items;
        match start {
            None => (0, None),
            Some(Start::Saved(p)) if p.index < found => {
                // (one item read, as the screen reads the item it shows)
                let here = p.id.is_none()
                    || self
                        .store
                        .item(p.index)
                        .ok()
                        .and_then(|it| it.into_fields().id)
                        == p.id;
                (p.index, (!here).then_some(Start::Saved(p)))
            }
            Some(Start::At(s)) => match s.parse::<usize>() {
                Ok(n) if n >= 1 && n <= found => (n - 1, None),
                _ => (0, Some(Start::At(s))),
            },
            Some(s) => (0, Some(s)),
        }
    }

    /// The saved session's items and the start were found in the store (`seq` is the
    /// lookup they answer; an answer to an older one, e.g. of the file before a reload,
    /// is dropped).
    pub(super) fn on_located(&mut self, seq: u64, located: Located, fx: &mut Vec<Effect>) {
        if self.restoring.pending.as_ref().is_none_or(|p| p.seq != seq) {
            return;
        }
        let Some(p) = self.restoring.pending.take() else {
            return;
        };
        for i in located.skipped.iter().flatten() {
            // (grading it done this session cleared its skip; a skip changed meanwhile is
            // the reviewer's)
            if !self.timing.finished.contains(i) && !p.skips_changed.contains(i) {
                self.skipped.insert(*i);
            }
        }
        self.restore_undo(&p.saved, &located);
        if let Some(start) = &p.wanted.start {
            self.take_up_start(start, located.start, p.finding.as_deref(), p.since, fx);
        }
    }

    /// Take up the saved undo history as far as it still matches my reviews in the file (a
    /// change someone else overwrote since, and everything before it on that item, is
    /// dropped), before this session's changes.
    fn restore_undo(&mut self, saved: &Session, located: &Located) {
        let parse = |v: &Option<Value>| -> Result<Option<Review>, ()> {
            match v {
                None => Ok(None),
                Some(v) => serde_json::from_value(v.clone()).map(Some).map_err(|_| ()),
            }
        };
        let mut expected: HashMap<usize, Option<Review>> = HashMap::new();
        let mut broken: BTreeSet<usize> = BTreeSet::new();
        // Each saved change kept, in its place (one part of a change of several items
        // may be dropped, the others kept).
        let mut kept: Vec<Option<Change>> = vec![None; saved.undo.len()];
        for (k, (c, at)) in saved.undo.iter().zip(&located.undo).enumerate().rev() {
            let Some(i) = *at else {
                continue;
            };
            if broken.contains(&i) {
                continue;
            }
            let (Ok(before), Ok(after)) = (parse(&c.before), parse(&c.after)) else {
                broken.insert(i);
                continue;
            };
            // My review in the file as opened: what this session's first change of the
            // item started from too.
            let now = expected
                .entry(i)
                .or_insert_with(|| located.reviews.get(&i).cloned().flatten())
                .clone();
            // (compared as the file keeps a review: an Inspect log keeps no `seconds`)
            let as_kept = |r: &Option<Review>| match located.kinds.get(&i) {
                Some(b) => crate::bench::kept_review(*b, r.as_ref()),
                None => r.clone(),
            };
            if as_kept(&now) != as_kept(&after) {
                broken.insert(i);
                continue;
            }
            expected.insert(i, before.clone());
            kept[k] = Some(Change::of(i, before, after));
        }
        // The parts saved as one change (the first, then those `joined` to it), one again.
        let mut changes = Vec::new();
        let mut parts = Vec::new();
        for (c, part) in saved.undo.iter().zip(kept) {
            if !c.joined {
                changes.extend(Change::of_parts(std::mem::take(&mut parts)));
            }
            parts.extend(part);
        }
        changes.extend(Change::of_parts(parts));
        changes.append(&mut self.rec.undo);
        self.rec.undo = changes;
    }

    /// The start was found at `found`: gone to when the reviewer has pressed nothing yet,
    /// else said on the status line with the keys that go there.
    fn take_up_start(
        &mut self,
        start: &Start,
        found: Option<usize>,
        finding: Option<&str>,
        since: Instant,
        fx: &mut Vec<Effect>,
    ) {
        let still_finding =
            finding.is_some() && self.status.as_ref().map(|s| s.0.as_str()) == finding;
        if still_finding {
            self.status = None;
        }
        let Some(i) = found.filter(|&i| i < self.len()) else {
            if let Start::At(s) = start
                && !self.is_empty()
            {
                let opened = if self.restoring.input_seen {
                    ""
                } else {
                    ": opened item 1"
                };
                let notice = format!(
                    "--at: no item {} (1–{} or an id){opened}",
                    crate::tui::text::one_line(s),
                    self.len()
                );
                match self.status.take() {
                    Some((w, l)) if l != Level::Info => {
                        self.status = Some((format!("{w} · {notice}"), l))
                    }
                    _ => self.set_status(notice, Level::Warn),
                }
            }
            return;
        };
        if !self.restoring.input_seen {
            self.restoring.held = None;
            if i != self.pos {
                self.goto(i, fx);
                self.scroll = crate::tui::geometry::target_scroll(self);
                if self.clock.instant.saturating_duration_since(since) >= SHOWN {
                    self.restoring.moved_at = Some(self.clock.instant);
                    self.add_status(format!("now at {}", what_was_found(start)));
                }
            }
            return;
        }
        if i == self.pos {
            return;
        }
        // (its id: the index's, or the one it was found by in its place)
        let saved_id = match start {
            Start::Saved(p) => p.id.as_deref(),
            Start::At(_) => None,
        };
        let id = self
            .meta
            .as_ref()
            .and_then(|m| m.item_id(i))
            .or(saved_id)
            .map(|id| format!(" ({})", crate::tui::text::one_line(id)))
            .unwrap_or_default();
        let jump = self.keymap.hint(Context::Global, Action::Jump);
        let submit = self.keymap.hint(Context::Jump, Action::Submit);
        self.add_status(format!(
            "{} is item {}{id}: {jump}{} {submit} goes there",
            what_was_found(start),
            i + 1,
            i + 1
        ));
    }

    /// Say `s` on the status line, after a warning shown there (the start's notices: a
    /// verdict of the journal not applied, say), not over it.
    fn add_status(&mut self, s: String) {
        match self.status.take() {
            Some((w, level)) if level != Level::Info => {
                self.status = Some((format!("{w} · {s}"), level));
            }
            _ => self.set_status(s, Level::Info),
        }
    }

    /// A key, a click or a paste arrived: true when it must not be acted on, because the
    /// screen moved to the saved place by itself a moment ago (the key was meant for the
    /// item before: said on the status line).
    pub(super) fn input_arrived(&mut self) -> bool {
        self.restoring.input_seen = true;
        let Some(at) = self.restoring.moved_at else {
            return false;
        };
        if self.clock.instant.saturating_duration_since(at) < GRACE {
            self.set_status(
                "the screen just moved to your place from last session: look, then press again",
                Level::Info,
            );
            return true;
        }
        self.restoring.moved_at = None;
        false
    }

    /// Push the position to save, unless the screen is still where it started while the
    /// saved position is looked for (it would be saved over).
    pub(super) fn push_position(&mut self, fx: &mut Vec<Effect>) {
        match self.restoring.held {
            Some(h) if h == self.pos => {}
            _ => {
                self.restoring.held = None;
                fx.push(self.position_effect());
            }
        }
    }

    /// The items whose skip the reviewer changed while the saved skips are looked for.
    pub(super) fn skips_changed(&self) -> Vec<usize> {
        self.restoring
            .pending
            .as_ref()
            .map(|p| p.skips_changed.iter().copied().collect())
            .unwrap_or_default()
    }

    /// The file was read again: the items whose skip the reviewer changed follow them
    /// (`to` says where each is now; one that is gone is dropped).
    pub(super) fn move_skips_changed(&mut self, mut to: impl FnMut(usize) -> Option<usize>) {
        if let Some(p) = &mut self.restoring.pending {
            p.skips_changed = p.skips_changed.iter().filter_map(|&i| to(i)).collect();
        }
    }

    /// The reviewer changed item `i`'s skip while the saved skips are looked for.
    pub(super) fn skip_changed(&mut self, i: usize) {
        if let Some(p) = &mut self.restoring.pending {
            p.skips_changed.insert(i);
        }
    }

    /// Item `i` was skipped last session, as far as can be told while the saved skips are
    /// looked for: a saved skip names its id (without an id: its place), and the reviewer
    /// has not changed its skip meanwhile. `Space` passes over it, as it will once they
    /// are found. Reads the item's id (the index's, else its line): asked only of an item
    /// `Space` would stop on.
    pub(super) fn skipped_last_session(&self, i: usize) -> bool {
        let Some(p) = &self.restoring.pending else {
            return false;
        };
        if p.saved.skipped.is_empty() || p.skips_changed.contains(&i) {
            return false;
        }
        let id = self.item_ref(i).id;
        p.saved.skipped.iter().any(|r| match (&r.id, &id) {
            (Some(a), Some(b)) => a == b,
            (None, None) => r.index == i,
            _ => false,
        })
    }

    /// The saved skips still looked for that the session to save keeps: not those of
    /// items the reviewer skipped or unskipped meanwhile, or graded done (theirs, as
    /// `on_located` leaves them once found).
    pub(super) fn unrestored_skips(&self) -> Vec<crate::tui::config::ItemRef> {
        let Some(p) = &self.restoring.pending else {
            return Vec::new();
        };
        let theirs: Vec<crate::tui::config::ItemRef> = p
            .skips_changed
            .iter()
            .chain(self.timing.finished.iter())
            .map(|&i| self.item_ref(i))
            .collect();
        // (the same item: by id where both have one, by place where neither has)
        let same =
            |a: &crate::tui::config::ItemRef, b: &crate::tui::config::ItemRef| match (&a.id, &b.id)
            {
                (Some(x), Some(y)) => x == y,
                (None, None) => a.index == b.index,
                _ => false,
            };
        p.saved
            .skipped
            .iter()
            .filter(|r| !theirs.iter().any(|t| same(t, r)))
            .cloned()
            .collect()
    }

    /// What the session to save holds of the saved one while it is looked for: its skips
    /// and its undo history, as saved (found again the same way by the next session).
    pub(super) fn unrestored(&self) -> Option<&Session> {
        self.restoring.pending.as_ref().map(|p| &p.saved)
    }

    /// The index arrived: what is still looked for is looked up by id in it.
    pub(super) fn locate_with_index(&self, fx: &mut Vec<Effect>) {
        if let (Some(p), Some(meta)) = (&self.restoring.pending, &self.meta) {
            fx.push(Effect::Locate {
                seq: p.seq,
                wanted: p.wanted.clone(),
                meta: Some(meta.clone()),
            });
        }
    }

    /// The file was read again (`reload`): what is still looked for is looked for in it
    /// (an answer about the file before is dropped); `held` follows the position.
    pub(super) fn locate_again(&mut self, held: bool, fx: &mut Vec<Effect>) {
        if held {
            self.restoring.held = Some(self.pos);
        }
        self.restoring.next_seq += 1;
        let seq = self.restoring.next_seq;
        if let Some(p) = &mut self.restoring.pending {
            p.seq = seq;
            fx.push(Effect::Locate {
                seq,
                wanted: p.wanted.clone(),
                meta: None,
            });
        }
    }

    /// The screen is at the position it started at while the saved one is looked for.
    pub(super) fn position_held(&self) -> bool {
        self.restoring.held == Some(self.pos)
    }
}

/// What the status line says while `start` is looked for.
fn finding_notice(start: &Start) -> String {
    match start {
        Start::Saved(p) => format!("finding your place from last session ({})…", saved_name(p)),
        Start::At(s) => match s.parse::<usize>() {
            Ok(n) => format!("finding item {n}…"),
            Err(_) => format!("finding {}…", crate::tui::text::one_line(s)),
        },
    }
}

/// What was found, for the status line.
fn what_was_found(start: &Start) -> String {
    match start {
        Start::Saved(_) => "your place from last session".into(),
        Start::At(s) => format!("--at {}", crate::tui::text::one_line(s)),
    }
}

fn saved_name(p: &Position) -> String {
    match &p.id {
        Some(id) => crate::tui::text::one_line(id).to_string(),
        None => format!("item {}", p.index + 1),
    }
}
