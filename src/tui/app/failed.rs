//! A helper thread that stopped on a panic (`Msg::WorkerFailed`, logged with the panic):
//! the screen stops waiting for what it would have answered and says what is not coming,
//! and every key that does not need it goes on working. (The IO worker's and the
//! terminal reader's end the session: the loop ends it, `run::event_loop::session_goes_on`.)

use super::*;
use crate::tui::app::Worker;

/// What a reviewer is told when the index is not there: still coming, or not at all.
pub(crate) const INDEX_FAILED: &str = "the index could not be built (see the log)";

impl State {
    pub(super) fn worker_failed(&mut self, w: Worker) {
        match w {
            Worker::Index { generation } => {
                if generation != self.index_generation || self.meta.is_some() {
                    return;
                }
                self.index_failed = true;
                // What waited for the index to be found by id is not found.
                let lost = self.restoring.is_pending();
                self.restoring = Restoring::default();
                let lost = if lost {
                    "; your last session's undo history and skips could not be found"
                } else {
                    ""
                };
                self.set_status(
                    format!(
                        "{INDEX_FAILED}: search, filters and jumps by id are unavailable{lost}; \
                         stepping and grading work"
                    ),
                    Level::Error,
                );
            }
            Worker::Search => {
                self.search_failed = true;
                self.set_status(
                    "search stopped on an error (see the log); stepping, filters and grading work",
                    Level::Error,
                );
            }
            Worker::Locate { seq } => {
                if !self.restoring.is_pending_seq(seq) {
                    return;
                }
                self.restoring = Restoring::default();
                self.set_status(
                    "your last session's place, skips and undo history could not be found \
                     (see the log)",
                    Level::Error,
                );
            }
            Worker::Remap { seq } => {
                if !self.reloading.give_up(seq) {
                    return;
                }
                self.set_status(
                    "the file changed on disk and could not be taken up here (see the log): \
                     this is the file as it was; your verdicts are still recorded in it by id",
                    Level::Error,
                );
            }
            Worker::Io | Worker::Input => self.set_status(
                "the session stopped on an error (see the log)",
                Level::Error,
            ),
        }
    }

    /// Why something that needs the index cannot be done now: `wait` while it is built.
    pub(super) fn no_index(&self, wait: &str) -> String {
        if self.index_failed {
            format!("{INDEX_FAILED}: not available")
        } else {
            wait.to_string()
        }
    }
}
