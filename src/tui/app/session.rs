//! The session saved between runs: position, skips, undo history (taken up again by
//! `restore.rs`).

use super::*;
use crate::bench::Items;

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

    /// What the next session needs of this one: the skipped items and the undo history
    /// (with what an earlier session left and is not found yet, as it was saved).
    pub(super) fn session_effect(&self) -> Effect {
        use crate::tui::config::{SAVED_UNDO, SavedChange, Session};
        let earlier = self.unrestored();
        let from = self.rec.undo.len().saturating_sub(SAVED_UNDO);
        let mut undo: Vec<SavedChange> = earlier.map(|s| s.undo.clone()).unwrap_or_default();
        undo.extend(self.rec.undo[from..].iter().flat_map(|c| {
            c.parts().enumerate().map(|(k, p)| SavedChange {
                item: self.item_ref(p.item),
                before: p.before.as_ref().map(review_value),
                after: p.after.as_ref().map(review_value),
                joined: k > 0,
            })
        }));
        undo.drain(..undo.len().saturating_sub(SAVED_UNDO));
        let mut skipped = self.unrestored_skips();
        skipped.extend(self.skipped.iter().map(|&i| self.item_ref(i)));
        Effect::SaveSession(Session { skipped, undo })
    }
}
