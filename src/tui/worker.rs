//! The IO worker: owns the writable store and the journal. Each verdict is checked to
//! apply, then appended to the journal and fsynced before the UI is told it is recorded;
//! when the reviewer pauses, the journal is folded into the results file by an atomic
//! save and cleared.

use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::Value;

use std::path::PathBuf;

use crate::journal::{self, Journal, Record};
use crate::store::{Store, StoreError};
use crate::tui::app::Msg;
use crate::tui::config;

mod after_quit;
pub use after_quit::FoldArgs;
#[cfg(unix)]
pub use after_quit::run_fold;

pub enum Req {
    Record {
        seq: u64,
        /// Which of a folder's files the item is in (`run::set`; 0 for a file opened alone),
        /// and its index there.
        part: usize,
        item: usize,
        id: Option<String>,
        /// The item's text as the screen had it: for an item without an id or whose id
        /// another shares (as `index` tells: [`record_key`]), its content key
        /// (`session::content_key_of`) is worked out here, not on the screen's thread.
        content: Option<crate::store::ItemText>,
        /// The index the screen had (`Effect::Record`'s).
        index: Option<std::sync::Arc<crate::tui::facts::Index>>,
        reviewer: String,
        review: Option<Value>,
    },
    /// Keep the skipped items and the undo history for the next session (written here,
    /// never on the UI thread; not activity: it does not put off a fold).
    SaveSession(config::Session),
    /// Keep where the reviewer is in the file (likewise).
    SavePosition(config::Position),
    /// The session ends: fold now, or hand the fold to a process of its own
    /// (`session::spawn_fold`) when the file is large; answers on the channel when done.
    Shutdown(Sender<Result<Ended, String>>),
}

/// How a session's journal was left when it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Folded into the file (this many items written over the session), and removed.
    Folded(usize),
    /// Handed, locked, to a process that folds it into the file after this one exits.
    Detached,
}

/// Files larger than this are folded by a process of their own after the reviewer
/// quits, so the shell is back at once (a fold rewrites the whole file: seconds at
/// 1 GB); smaller ones are folded before the session ends (tens of milliseconds), so the
/// exit message can say the file holds every verdict. `VERDICT_FOLD_DETACH_ABOVE`
/// (bytes) overrides it.
pub fn detach_above() -> u64 {
    std::env::var("VERDICT_FOLD_DETACH_ABOVE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(64 << 20)
}

/// Set when the reviewer quits (`quitting`): a fold of a pause then under way gives up
/// before it replaces the file, so quitting never waits for it; the fold at shutdown
/// (here or detached) does the work.
static QUITTING: AtomicBool = AtomicBool::new(false);

/// The reviewer is quitting: call it before sending `Req::Shutdown`.
pub fn quitting() {
    QUITTING.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Where the reviewer's session and position files go.
pub struct Keep {
    pub dirs: config::Dirs,
    pub file: PathBuf,
    pub reviewer: String,
}

impl Keep {
    /// Keep the skipped items and the undo history (a failure is logged: the session
    /// goes on).
    pub fn save_session(&self, s: &config::Session) {
        if let Err(e) = config::save_session(&self.dirs, &self.file, &self.reviewer, s) {
            log::warn!("saving the session: {e}");
        }
    }

    /// Keep where the reviewer is (likewise).
    pub fn save_position(&self, p: config::Position) {
        if let Err(e) = config::save_position(&self.dirs, &self.file, &self.reviewer, p) {
            log::warn!("saving the position: {e}");
        }
    }
}

/// How long the reviewer must pause before the journal is folded into the file
/// (`VERDICT_FOLD_AFTER_MS` overrides it; tests use it to control when saves happen).
pub fn fold_after() -> Duration {
    std::env::var("VERDICT_FOLD_AFTER_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map(Duration::from_millis)
        .unwrap_or(Duration::from_millis(1500))
}
/// After a failed fold, wait this long before trying again.
const RETRY_AFTER: Duration = Duration::from_secs(30);
/// A fold that found another session saving tries again after this.
const WAIT_RETRY: Duration = Duration::from_millis(500);

/// What the IO worker owns.
pub struct Session {
    pub store: Store,
    /// This session's journal (locked).
    pub own: Journal,
    /// Journals of sessions that are gone, replayed at open: removed once folded.
    pub stale: Vec<PathBuf>,
    pub keep: Keep,
}

pub fn spawn(session: Session, out: Sender<Msg>, rx: Receiver<Req>) -> JoinHandle<()> {
    std::thread::Builder::new()
        .name("verdict-io".into())
        .spawn(move || {
            let _watch = super::threads::Watch::worker(out.clone(), super::app::Worker::Io);
            run(session, out, rx)
        })
        .expect("spawn the IO worker")
}

fn run(session: Session, out: Sender<Msg>, rx: Receiver<Req>) {
    // Verdicts replayed from an old journal are already "dirty": fold them soon.
    let dirty = session.store.is_dirty() || !session.stale.is_empty();
    let mut io = Io {
        session,
        out,
        dirty,
        folded_total: 0,
        not_before: Instant::now(),
        reread_failed: false,
        waiting: None,
    };
    let fold_after = fold_after();
    // A pause lasts until then (saving the session or the position does not end it).
    let mut pause_ends = Instant::now() + fold_after;
    loop {
        // Idle or not, wake up now and then: to fold when dirty, to notice another
        // program's change to the file when not.
        let req = match rx.recv_timeout(pause_ends.saturating_duration_since(Instant::now())) {
            Ok(Req::SaveSession(s)) => {
                io.session.keep.save_session(&s);
                continue;
            }
            Ok(Req::SavePosition(p)) => {
                io.session.keep.save_position(p);
                continue;
            }
            Ok(r) => Some(r),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                if io.dirty {
                    let _ = crate::session::fold(
                        &mut io.session.store,
                        &mut io.session.own,
                        &mut io.session.stale,
                        &AtomicBool::new(false),
                    );
                }
                return;
            }
        };
        pause_ends = Instant::now() + fold_after;
        if req.is_none() && !io.dirty {
            io.reread_if_changed();
            continue;
        }
        if matches!(req, Some(Req::Record { .. })) {
            super::threads::test_panic("io");
        }
        match req {
            Some(Req::Record {
                seq,
                part: _,
                item,
                id,
                content,
                index,
                reviewer,
                review,
            }) => io.record(
                seq,
                Record {
                    key: record_key(id.as_deref(), content.as_ref(), index.as_deref()),
                    item,
                    id,
                    reviewer,
                    review,
                },
            ),
            Some(Req::SaveSession(_) | Req::SavePosition(_)) => {}
            Some(Req::Shutdown(reply)) => {
                io.shut_down(reply);
                return;
            }
            None => io.fold(),
        }
    }
}

/// What a verdict's record keeps of its item to find it again (`Record::key`): its
/// content key (`session::content_key_of`, from `content`, the item's text) when it has
/// no id or `index` says another item shares its id (`session::needs_key`).
pub fn record_key(
    id: Option<&str>,
    content: Option<&crate::store::ItemText>,
    index: Option<&crate::tui::facts::Index>,
) -> Option<String> {
    if !crate::session::needs_key(id, |id| index.map(|m| m.id_shared(id))) {
        return None;
    }
    content
        .and_then(crate::store::ItemText::as_str)
        .and_then(crate::session::content_key_of)
}

/// The IO worker's session and what it keeps between requests.
struct Io {
    session: Session,
    out: Sender<Msg>,
    /// Verdicts recorded in the journal and not yet folded into the file.
    dirty: bool,
    /// Items written by this session's folds.
    folded_total: usize,
    /// After a failed fold, the next waits until then.
    not_before: Instant,
    /// Log a failed re-read once, not on every idle check.
    reread_failed: bool,
    /// Since when, and how long it has been said, the fold has waited for another
    /// session's save.
    waiting: Option<(Instant, u64)>,
}

impl Io {
    /// Idle and clean: read the file again if another program changed it.
    fn reread_if_changed(&mut self) {
        if matches!(
            self.session.store.check_unchanged(),
            Err(StoreError::Conflict { .. })
        ) {
            match crate::session::reread(
                &self.session.store,
                &self.session.own,
                &self.session.stale,
            ) {
                Ok(fresh) => {
                    self.reread_failed = false;
                    let by = colleague(
                        fresh.path(),
                        fresh.stamp_text(),
                        &self.session.keep.reviewer,
                    );
                    log::info!(
                        "the file changed on disk ({}); read it again",
                        by.as_deref()
                            .map_or("not by a verdict session".into(), |w| format!(
                                "saved by {w}"
                            ))
                    );
                    self.session.store = fresh;
                    let _ = self.out.send(Msg::Reloaded(self.session.store.clone()));
                    if let Some(w) = by {
                        let _ = self.out.send(Msg::ColleagueSaved(w));
                    }
                }
                Err(e) if !self.reread_failed => {
                    self.reread_failed = true;
                    log::warn!("the file changed on disk, and reading it failed: {e}");
                }
                Err(_) => {}
            }
        }
    }

    /// Record one verdict and answer with `Msg::Recorded`.
    fn record(&mut self, seq: u64, rec: Record) {
        let result = record(&mut self.session, &rec);
        if result.is_ok() {
            self.dirty = true;
        }
        if let Err(e) = &result {
            log::error!("verdict {seq} on item {}: {e}", rec.item);
        }
        let _ = self.out.send(Msg::Recorded { seq, result });
    }

    /// Fold (or leave the fold to a detached process) and answer `reply`: the worker
    /// ends after it.
    fn shut_down(&mut self, reply: Sender<Result<Ended, String>>) {
        if self.dirty && detach(&self.session) {
            let _ = reply.send(Ok(Ended::Detached));
            return;
        }
        let r = if self.dirty {
            crate::session::fold(
                &mut self.session.store,
                &mut self.session.own,
                &mut self.session.stale,
                &AtomicBool::new(false),
            )
        } else {
            Ok(0)
        };
        if r.is_ok() {
            // Everything is in the file: the session's journal goes with it.
            let _ = self.session.own.remove();
        }
        let _ = reply.send(r.map(|n| Ended::Folded(n + self.folded_total)));
    }

    /// Fold the journal into the file (unless a failed fold waits), and say so.
    fn fold(&mut self) {
        if Instant::now() < self.not_before {
            return;
        }
        let stamp_before = self.session.store.check_unchanged().is_ok();
        // Whose save this fold will rebase on, if another session's.
        let by = if stamp_before {
            None
        } else {
            let path = self.session.store.path();
            colleague(
                path,
                crate::store::stamp_text_of(path),
                &self.session.keep.reviewer,
            )
        };
        // Never waits for another session's save: verdicts keep being journaled (and
        // acknowledged) meanwhile, and the fold is tried again in a moment.
        match crate::session::fold_within(
            &mut self.session.store,
            &mut self.session.own,
            &mut self.session.stale,
            &QUITTING,
            Duration::ZERO,
        ) {
            Ok(crate::session::Folded::Busy(holder)) => {
                let since = self.waiting.map_or_else(Instant::now, |(t, _)| t);
                let secs = since.elapsed().as_secs();
                // said at first, then every 10 s
                if self.waiting.is_none_or(|(_, said)| secs >= said + 10) {
                    let _ = self.out.send(Msg::SaveWaits(format!(
                        "{} ({holder}){}; your verdicts are safe in the journal",
                        crate::tui::app::SAVE_WAITS,
                        if secs > 0 {
                            format!(" for {secs} s")
                        } else {
                            String::new()
                        }
                    )));
                    self.waiting = Some((since, secs));
                }
                self.not_before = Instant::now() + WAIT_RETRY;
            }
            Ok(crate::session::Folded::Done(n)) => {
                self.waiting = None;
                self.dirty = false;
                self.folded_total += n;
                if stamp_before && n > 0 && self.session.store.container().is_some() {
                    // The fold read the container file again: the screen shows it as
                    // it now is (`session::fold`), as this session's own save.
                    let _ = self.out.send(Msg::Resaved(self.session.store.clone()));
                }
                if !stamp_before {
                    // The fold rebased our verdicts onto another program's change:
                    // the screen must show the file as it is now.
                    let _ = self.out.send(Msg::Reloaded(self.session.store.clone()));
                    if let Some(w) = by {
                        let _ = self.out.send(Msg::ColleagueSaved(w));
                    }
                }
                let _ = self.out.send(Msg::Saved(Ok(format!("{n} items written"))));
            }
            // The reviewer quit during it: the Shutdown waiting behind it folds.
            Err(e) if e == crate::session::CANCELLED => {
                log::info!("fold put off: the reviewer quit");
            }
            Err(e) => {
                log::error!("fold: {e}");
                self.not_before = Instant::now() + RETRY_AFTER;
                let _ = self.out.send(Msg::Saved(Err(e)));
            }
        }
    }
}

/// The reviewer (not `me`) whose verdict session saved the file at `path` whose stamp is
/// `stamp`, if it was one's save.
fn colleague(path: &std::path::Path, stamp: Option<String>, me: &str) -> Option<String> {
    journal::saved_by(path, &stamp?).filter(|w| w != me)
}

/// Record one verdict: check that it applies (the rules replay applies at the next
/// open), then append it to the journal and fsync, then apply it to the store. A verdict
/// refused, or that the journal could not take, leaves neither changed.
fn record(session: &mut Session, rec: &Record) -> Result<(), String> {
    // The item's index in the worker's store can differ from the screen's after a
    // rebase onto a file another program changed: find it by id.
    let i = crate::session::locate(&session.store, rec).map_err(|why| format!("the item {why}"))?;
    let edit = crate::session::prepare(&session.store, i, rec).map_err(|e| e.to_string())?;
    session.own.append(rec).map_err(|e| {
        format!(
            "could not write the journal {}: {e}",
            session.own.path().display()
        )
    })?;
    session.store.apply_review(edit);
    Ok(())
}

/// Hand the fold to a process of its own if the file is large; false (fold here) if it
/// is small or that process could not be started.
fn detach(session: &Session) -> bool {
    let path = session.store.path();
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    // The only session (where flock does nothing) lets go of the file when it ends: its
    // fold must be done by then.
    if size <= detach_above() || session.own.only.is_some() {
        return false;
    }
    match crate::session::spawn_fold(path, &session.own) {
        Ok(pid) => {
            log::info!(
                "folding {} into {} in process {pid}",
                session.own.path().display(),
                path.display()
            );
            true
        }
        Err(e) => {
            log::warn!("could not start the fold in a process of its own ({e}); folding now");
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// A worker started for reviewer ann on `r.jsonl` (holding `content`) in a fresh
    /// temporary folder, its data folder inside it.
    pub(super) struct Started {
        /// The temporary folder: it lives as long as this.
        pub d: tempfile::TempDir,
        pub file: PathBuf,
        pub dirs: config::Dirs,
        /// ann's journal for the file.
        pub journal: PathBuf,
        /// What the worker sends back.
        pub msgs: mpsc::Receiver<Msg>,
        /// Requests to the worker.
        pub tx: mpsc::Sender<Req>,
        pub h: JoinHandle<()>,
    }

    pub(super) fn start(content: &str) -> Started {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join("r.jsonl");
        std::fs::write(&file, content).unwrap();
        let opened = crate::session::open(&file, "ann").unwrap();
        let journal = opened.own.path().to_path_buf();
        let dirs = config::Dirs {
            config_file: None,
            data_dir: Some(d.path().join("data")),
        };
        let keep = Keep {
            dirs: dirs.clone(),
            file: file.clone(),
            reviewer: "ann".into(),
        };
        let (out, msgs) = mpsc::channel();
        let (tx, rx) = mpsc::channel();
        let h = spawn(
            Session {
                store: opened.store,
                own: opened.own,
                stale: opened.stale,
                keep,
            },
            out,
            rx,
        );
        Started {
            d,
            file,
            dirs,
            journal,
            msgs,
            tx,
            h,
        }
    }

    #[test]
    fn the_worker_writes_the_session_and_position_files() {
        let Started {
            d: _d,
            file,
            dirs,
            msgs: _msgs,
            tx,
            h,
            ..
        } = start("{\"id\":\"a\",\"benchmark\":\"other\"}\n");
        let s = config::Session {
            skipped: vec![config::ItemRef {
                index: 0,
                id: Some("a".into()),
            }],
            undo: vec![],
        };
        tx.send(Req::SaveSession(s.clone())).unwrap();
        let pos = config::Position {
            index: 0,
            id: Some("a".into()),
        };
        tx.send(Req::SavePosition(pos.clone())).unwrap();
        let (reply, done) = mpsc::channel();
        tx.send(Req::Shutdown(reply)).unwrap();
        assert_eq!(done.recv().unwrap(), Ok(Ended::Folded(0)));
        h.join().unwrap();
        assert_eq!(config::load_session(&dirs, &file, "ann"), s);
        assert_eq!(config::load_position(&dirs, &file, "ann"), Some(pos));
    }
}

#[cfg(test)]
mod colleagues {
    use super::tests::{Started, start};
    use super::*;
    use std::sync::mpsc;

    fn next_reload(msgs: &mpsc::Receiver<Msg>) -> Option<String> {
        loop {
            match msgs.recv_timeout(Duration::from_secs(10)).unwrap() {
                Msg::Reloaded(_) => break,
                _ => continue,
            }
        }
        match msgs.recv_timeout(Duration::from_millis(300)) {
            Ok(Msg::ColleagueSaved(w)) => Some(w),
            _ => None,
        }
    }

    /// Issue 16: a colleague's save is no foreign edit; the session says whose verdicts came
    /// in, and says nothing of the kind for another program's change.
    #[test]
    fn a_colleagues_save_is_named_and_a_foreign_edit_is_not() {
        let Started {
            d: _d,
            file,
            msgs,
            tx,
            h,
            ..
        } = start(
            "{\"id\":\"a\",\"benchmark\":\"other\"}\n{\"id\":\"b\",\"benchmark\":\"other\"}\n",
        );
        let mut bob = crate::session::open(&file, "bob").unwrap();
        let rec = Record {
            item: 1,
            id: Some("b".into()),
            reviewer: "bob".into(),
            review: Some(serde_json::json!({"verdict": "pass"})),
            key: None,
        };
        let edit = crate::session::prepare(&bob.store, 1, &rec).unwrap();
        bob.own.append(&rec).unwrap();
        bob.store.apply_review(edit);
        crate::session::fold(
            &mut bob.store,
            &mut bob.own,
            &mut bob.stale,
            &AtomicBool::new(false),
        )
        .unwrap();
        assert_eq!(next_reload(&msgs).as_deref(), Some("bob"));
        // another program appends an item
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(
            &file,
            format!("{text}{{\"id\":\"c\",\"benchmark\":\"other\"}}\n"),
        )
        .unwrap();
        assert_eq!(next_reload(&msgs), None);
        let (reply, done) = mpsc::channel();
        tx.send(Req::Shutdown(reply)).unwrap();
        done.recv().unwrap().unwrap();
        h.join().unwrap();
    }
}

#[cfg(test)]
mod refusals {
    use super::*;

    /// Open `content` as a session, send one verdict on item 0 (its id as the screen
    /// read it: none when the item cannot be read), and return the worker's
    /// answer and the journal's text after the session.
    fn record_one(
        content: &str,
        id: Option<&str>,
        review: Option<Value>,
    ) -> (Result<(), String>, String) {
        let super::tests::Started {
            d: _d,
            journal,
            msgs,
            tx,
            h,
            ..
        } = super::tests::start(content);
        tx.send(Req::Record {
            part: 0,
            seq: 1,
            item: 0,
            id: id.map(str::to_string),
            content: None,
            index: None,
            reviewer: "ann".into(),
            review,
        })
        .unwrap();
        let result = loop {
            match msgs.recv_timeout(Duration::from_secs(10)).unwrap() {
                Msg::Recorded { result, .. } => break result,
                _ => continue,
            }
        };
        // What the journal holds now, before any fold could clear it.
        let text = std::fs::read_to_string(&journal).unwrap_or_default();
        drop(tx);
        h.join().unwrap();
        (result, text)
    }

    #[test]
    fn a_review_the_store_refuses_leaves_no_journal_record() {
        let (r, journal) = record_one(
            "{\"id\":\"a\",\"reviews\":{},\"reviews\":{\"me\":1}}\n",
            None,
            Some(serde_json::json!({"status": "accept"})),
        );
        assert!(r.is_err(), "{r:?}");
        assert_eq!(journal, "");
    }

    #[test]
    fn a_review_the_checker_rejects_is_refused_and_leaves_no_journal_record() {
        let (r, journal) = record_one(
            "{\"id\":\"a\",\"benchmark\":\"other\"}\n",
            Some("a"),
            Some(serde_json::json!({"status": "bogus"})),
        );
        assert!(r.is_err(), "{r:?}");
        assert_eq!(journal, "");
    }

    #[test]
    fn an_accepted_review_is_in_the_journal() {
        let (r, journal) = record_one(
            "{\"id\":\"a\",\"benchmark\":\"other\"}\n",
            Some("a"),
            Some(serde_json::json!({"status": "accept"})),
        );
        assert_eq!(r, Ok(()));
        assert!(journal.contains("accept"), "{journal:?}");
    }
}
