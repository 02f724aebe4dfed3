//! The session saved between runs: position, skips, undo history.

use crate::bench::Items;
use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use crate::bench::Review;

use super::*;

impl State {
    pub(super) fn item_ref(&self, i: usize) -> crate::tui::config::ItemRef {
        let id = if i == self.pos {
            self.item().and_then(|it| it.id.clone())
        } else {
            self.meta
                .as_ref()
                .and_then(|m| m.item_id(i))
                .map(str::to_string)
                .or_else(|| self.store.item(i).ok().and_then(|it| it.into_fields().id))
        };
        crate::tui::config::ItemRef { index: i, id }
    }

    /// What the next session needs of this one: the skipped items and the undo history.
    pub(super) fn session_effect(&self) -> Effect {
        use crate::tui::config::{SAVED_UNDO, SavedChange, Session};
        let from = self.rec.undo.len().saturating_sub(SAVED_UNDO);
        Effect::SaveSession(Session {
            skipped: self.skipped.iter().map(|&i| self.item_ref(i)).collect(),
            undo: self.rec.undo[from..]
                .iter()
                .map(|c| SavedChange {
                    item: self.item_ref(c.item),
                    before: c.before.as_ref().map(review_value),
                    after: c.after.as_ref().map(review_value),
                })
                .collect(),
        })
    }

    /// Find an item saved by a session (by index when its id still matches, else by id).
    pub(super) fn locate(&self, r: &crate::tui::config::ItemRef) -> Option<usize> {
        let id_at = |i: usize| self.store.item(i).ok().and_then(|it| it.into_fields().id);
        // (Waits for the file's scan to reach the item, or every item for an id.)
        if self.store.has(r.index) && id_at(r.index) == r.id {
            return Some(r.index);
        }
        let id = r.id.as_ref()?;
        (0..self.store.len()).find(|&i| id_at(i).as_ref() == Some(id))
    }

    /// Take up what an earlier session left: its skipped items, and its undo history as
    /// far as it still matches my reviews in the file (a change someone else overwrote
    /// since, and everything before it on that item, is dropped).
    pub fn restore_session(&mut self, s: &crate::tui::config::Session) {
        for r in &s.skipped {
            if let Some(i) = self.locate(r) {
                self.skipped.insert(i);
            }
        }
        let parse = |v: &Option<Value>| -> Result<Option<Review>, ()> {
            match v {
                None => Ok(None),
                Some(v) => serde_json::from_value(v.clone()).map(Some).map_err(|_| ()),
            }
        };
        let mut expected: HashMap<usize, Option<Review>> = HashMap::new();
        let mut broken: BTreeSet<usize> = BTreeSet::new();
        let mut kept = Vec::new();
        for c in s.undo.iter().rev() {
            let Some(i) = self.locate(&c.item) else {
                continue;
            };
            if broken.contains(&i) {
                continue;
            }
            let (Ok(before), Ok(after)) = (parse(&c.before), parse(&c.after)) else {
                broken.insert(i);
                continue;
            };
            let now = expected
                .entry(i)
                .or_insert_with(|| self.my_review(i))
                .clone();
            if now != after {
                broken.insert(i);
                continue;
            }
            expected.insert(i, before.clone());
            kept.push(Change {
                item: i,
                before,
                after,
                unskipped: false,
            });
        }
        kept.reverse();
        kept.append(&mut self.rec.undo);
        self.rec.undo = kept;
    }
}
