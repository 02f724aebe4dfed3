//! A folder read as one set (docs/format.md, "A folder as a set"): a session of each of
//! its files, as `verdict FILE` opens one, and their IO workers behind one sender. The
//! screen reads the set's store (`Store::set`); each verdict goes to the worker of its
//! item's file, which journals it and folds it into that file as for a file opened alone.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Sender};
use std::thread::JoinHandle;

use crate::session::Replay;
use crate::store::Store;
use crate::tui::app::Msg;
use crate::tui::{config, worker};

/// Every file of a folder opened for a reviewer's session.
pub(super) struct OpenedSet {
    /// The set's store: every file's items, in order.
    pub store: Store,
    /// Every file's journals' replay.
    pub replay: Replay,
    pub kept_aside: Vec<PathBuf>,
    /// The first file's journal (where the exit message says verdicts wait).
    pub own_path: PathBuf,
    /// Journals that could not be beside their file, and where they went instead.
    pub moved: Vec<String>,
    /// Each file's session, for its worker (`spawn_io`).
    pub sessions: Vec<worker::Session>,
}

/// Open every file of the set for `reviewer`'s session, in order.
pub(super) fn open(
    folder: &Path,
    files: &[PathBuf],
    reviewer: &str,
    dirs: &config::Dirs,
) -> anyhow::Result<OpenedSet> {
    let mut replay = Replay::default();
    let mut kept_aside = Vec::new();
    let mut sessions = Vec::new();
    let mut moved = Vec::new();
    // (the files on as many threads as there are cores: each open reads its whole file)
    let t0 = std::time::Instant::now();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let per = files.len().div_ceil(threads).max(1);
    let opened: Vec<anyhow::Result<crate::session::Opened>> = std::thread::scope(|s| {
        let handles: Vec<_> = files
            .chunks(per)
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|f| {
                            crate::session::open_as(f, reviewer, crate::store::Scan::WholeMapped)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a set's open thread"))
            .collect()
    });
    for (f, o) in files.iter().zip(opened) {
        let o = o?;
        replay.add(o.replay);
        kept_aside.extend(o.kept_aside);
        moved.extend(o.own.moved.clone());
        sessions.push(worker::Session {
            keep: worker::Keep {
                dirs: dirs.clone(),
                file: f.clone(),
                reviewer: reviewer.to_string(),
            },
            store: o.store,
            own: o.own,
            stale: o.stale,
        });
    }
    log::info!(
        "a set of {} files opened in {} ms",
        files.len(),
        t0.elapsed().as_millis()
    );
    let own_path = sessions
        .first()
        .map(|s| s.own.path().to_path_buf())
        .ok_or_else(|| anyhow::anyhow!("{}: no file to open", folder.display()))?;
    let store = Store::set(
        folder.to_path_buf(),
        sessions.iter().map(|s| s.store.clone()).collect(),
    );
    Ok(OpenedSet {
        store,
        replay,
        kept_aside,
        own_path,
        moved,
        sessions,
    })
}

/// Start each file's IO worker on `sessions`, and one in front of them that hands each
/// verdict to its file's and keeps the set's place and session under `keep` (the
/// folder's); `set` is the screen's store of them: the sender of its requests and its
/// thread.
pub(super) fn spawn_io(
    sessions: Vec<worker::Session>,
    mut set: Store,
    keep: worker::Keep,
    out: &Sender<Msg>,
) -> (Sender<worker::Req>, JoinHandle<()>) {
    let (from_parts, parts_rx) = mpsc::channel::<Msg>();
    let mut parts = Vec::new();
    for s in sessions {
        let (tx, rx) = mpsc::channel();
        parts.push((tx, worker::spawn(s, from_parts.clone(), rx)));
    }
    drop(from_parts);
    // A file read again (another session's save, or a container's own): the screen
    // gets the set with that file's new items.
    let screen = out.clone();
    std::thread::Builder::new()
        .name("verdict-set".into())
        .spawn(move || {
            for msg in parts_rx {
                let msg = match msg {
                    Msg::Reloaded(s) => Msg::Reloaded(take_up(&mut set, s)),
                    Msg::Resaved(s) => Msg::Resaved(take_up(&mut set, s)),
                    m => m,
                };
                if screen.send(msg).is_err() {
                    break;
                }
            }
        })
        .expect("spawn the set's messenger");
    let (tx, rx) = mpsc::channel::<worker::Req>();
    let io = std::thread::Builder::new()
        .name("verdict-io".into())
        .spawn(move || {
            for req in rx {
                match req {
                    worker::Req::Record { part, .. } => {
                        if let Some((p, _)) = parts.get(part) {
                            let _ = p.send(req);
                        }
                    }
                    worker::Req::SaveSession(s) => keep.save_session(&s),
                    worker::Req::SavePosition(p) => keep.save_position(p),
                    worker::Req::Shutdown(reply) => {
                        let _ = reply.send(shut_down(parts));
                        return;
                    }
                }
            }
            // The screen went away: each worker folds what it has, as it would alone.
            for (p, io) in parts {
                drop(p);
                let _ = io.join();
            }
        })
        .expect("spawn the set's IO worker");
    (tx, io)
}

/// The set `set` with the file `fresh` was read from replaced by it.
fn take_up(set: &mut Store, fresh: Store) -> Store {
    let p = set
        .parts()
        .unwrap_or_default()
        .iter()
        .position(|s| s.path() == fresh.path());
    if let Some(p) = p {
        *set = set.with_part(p, fresh);
    }
    set.clone()
}

/// Every file's worker folds (or hands its fold on) and ends: the set's end is the
/// worst of theirs.
fn shut_down(parts: Vec<(Sender<worker::Req>, JoinHandle<()>)>) -> Result<worker::Ended, String> {
    let replies: Vec<_> = parts
        .iter()
        .map(|(p, _)| {
            let (tx, rx) = mpsc::channel();
            let sent = p.send(worker::Req::Shutdown(tx)).is_ok();
            (sent, rx)
        })
        .collect();
    let mut folded = 0;
    let mut detached = false;
    let mut errors = Vec::new();
    for (sent, rx) in replies {
        match rx.recv().map_err(|_| "the IO worker stopped".to_string()) {
            _ if !sent => errors.push("the IO worker stopped".to_string()),
            Ok(Ok(worker::Ended::Folded(n))) => folded += n,
            Ok(Ok(worker::Ended::Detached)) => detached = true,
            Ok(Err(e)) | Err(e) => errors.push(e),
        }
    }
    for (p, io) in parts {
        drop(p);
        let _ = io.join();
    }
    match (errors.is_empty(), detached) {
        (false, _) => Err(errors.join("; ")),
        (true, true) => Ok(worker::Ended::Detached),
        (true, false) => Ok(worker::Ended::Folded(folded)),
    }
}
