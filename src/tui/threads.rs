//! Helper threads (ticks, the index, the summary) and the log file.

use std::io::Write;
use std::sync::mpsc::Sender;
use std::time::Duration;

use super::app::{Msg, State};
use super::{config, facts};

pub(super) fn spawn_ticks(tx: Sender<Msg>) {
    std::thread::Builder::new()
        .name("verdict-tick".into())
        .spawn(move || {
            loop {
                std::thread::sleep(Duration::from_secs(1));
                if tx.send(Msg::Tick).is_err() {
                    return;
                }
            }
        })
        .expect("spawn the tick thread");
}

/// Index every item on a worker thread; answers with `Msg::Indexed` tagged `generation`.
/// Build the filter index of `store` on a thread of its own and send it. With `cache`
/// (the file's place in the data folder, `facts::cache::path_for`): read it from there when
/// it describes exactly the file read and no journal's verdicts are on it, else build it
/// and keep it there for the next open.
pub(super) fn spawn_index(
    store: crate::store::Store,
    generation: u64,
    tx: Sender<Msg>,
    cache: Option<std::path::PathBuf>,
) {
    let spawned = std::thread::Builder::new()
        .name("verdict-index".into())
        .spawn(move || {
            // The file as it is on disk, nothing replayed onto it: the cache's business.
            let cache = cache.filter(|_| !store.is_dirty()).zip(store.stamp_text());
            if let Some((p, stamp)) = &cache
                && let Some(meta) = facts::cache::load(p, stamp)
                && meta.len() == store.len()
            {
                log::info!(
                    "index of {} read from {}",
                    store.path().display(),
                    p.display()
                );
                let _ = tx.send(Msg::Indexed { generation, meta });
                store.release_pages();
                return;
            }
            let total = store.len();
            // Every core (up to 8): the reviewer waits for search and filters, and the
            // index is the same whatever the number of threads.
            let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
            let meta = facts::index_with(&store, threads, &|done| {
                let _ = tx.send(Msg::IndexProgress {
                    generation,
                    done,
                    total,
                });
            });
            // (A file written in place while it was read is not the file of that stamp.)
            // Kept once a session, at its open: a rebuild after every colleague's save
            // would write the whole index again each time (188 MB at 1M items), and the
            // fold after quitting keeps the index of the file it leaves. Written before
            // the index is handed over, and what is handed over is the index as written,
            // used in place from the cache's mapping: the texts built here are dropped,
            // not kept in private memory (issue 21). Made durable and put in its place
            // after.
            let keep = cache.filter(|_| generation == 0 && !store.changed_on_disk());
            let mut meta = meta;
            let mut written = None;
            if let Some((p, stamp)) = &keep {
                match facts::cache::write(p, &meta, &store, stamp) {
                    Ok(w) => {
                        match w.index(stamp) {
                            Some(kept) if kept.len() == meta.len() => meta = kept,
                            _ => {
                                log::warn!("the index written to {} reads back wrong", p.display())
                            }
                        }
                        written = Some(w);
                    }
                    Err(e) => log::warn!("keeping the index in {}: {e}", p.display()),
                }
            }
            let _ = tx.send(Msg::Indexed { generation, meta });
            if let Some(w) = written
                && let Err(e) = w.persist()
            {
                log::warn!("keeping the index: {e}");
            }
            // Every item was read: the page tables of the file go now, not at quitting.
            store.release_pages();
        });
    if let Err(e) = spawned {
        log::error!("could not start the index thread: {e}");
    }
}

/// Find what an earlier session left (and `--at`) in `store` on a thread of its own
/// (`tui::locate`): with the index `meta`, everything; without it, only when everything
/// is in its place (else nothing is sent: the state asks again when the index arrives).
/// Answers with `Msg::Located` tagged `seq`.
pub(super) fn spawn_locate(
    store: crate::store::Store,
    (seq, wanted, meta): (
        u64,
        std::sync::Arc<super::locate::Wanted>,
        Option<std::sync::Arc<facts::Index>>,
    ),
    reviewer: String,
    tx: Sender<Msg>,
) {
    let spawned = std::thread::Builder::new()
        .name("verdict-locate".into())
        .spawn(move || {
            let located = match &meta {
                Some(m) => Some(super::locate::with_index(&store, m, &wanted, &reviewer)),
                None => super::locate::in_places(&store, &wanted, &reviewer),
            };
            if let Some(located) = located {
                let _ = tx.send(Msg::Located { seq, located });
            }
        });
    if let Err(e) = spawned {
        log::error!("could not start the thread that finds the last session's items: {e}");
    }
}

pub(super) fn spawn_summary(state: &State, seq: u64, tx: Sender<Msg>) {
    let path = state.store.path().to_path_buf();
    std::thread::spawn(move || {
        // The summary reads the file as it is on disk plus the journal, so it includes
        // every verdict recorded so far.
        let r = crate::session::open_with_journal(&path)
            .map_err(|e| e.to_string())
            .map(|(store, _, _)| crate::tui::summary::compute(&store));
        let _ = tx.send(Msg::Summary { seq, result: r });
    });
}

/// Logs go to a file in the data directory, never to the screen.
/// Who this process's log lines are about (the reviewer; set once it is known).
static LOG_AS: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Name this process's reviewer in every log line from now on (several sessions on one
/// file share one log: each line says which process and reviewer wrote it).
pub(super) fn log_as(who: &str) {
    let _ = LOG_AS.set(who.to_string());
}

/// One line of the log, harmless when the log is shown in a terminal: time, level, the
/// process and its reviewer, the message.
fn log_line(now: &str, level: log::Level, who: &str, msg: &str) -> String {
    format!(
        "{now} {level} [pid {} {}] {}",
        std::process::id(),
        crate::sanitize::line(who),
        crate::sanitize::line(msg)
    )
}

#[cfg(test)]
#[test]
fn a_log_line_says_which_process_and_reviewer_wrote_it() {
    let l = log_line("T", log::Level::Error, "bob\u{1b}[2J", "fold: x");
    assert!(
        l.starts_with(&format!("T ERROR [pid {} bob", std::process::id())),
        "{l}"
    );
    assert!(l.ends_with("] fold: x") && !l.contains('\u{1b}'), "{l}");
}

pub(super) fn init_log(dirs: &config::Dirs) {
    struct FileLog(std::sync::Mutex<std::fs::File>);
    impl log::Log for FileLog {
        fn enabled(&self, m: &log::Metadata) -> bool {
            m.level() <= log::Level::Info
        }
        fn log(&self, r: &log::Record) {
            if self.enabled(r.metadata())
                && let Ok(mut f) = self.0.lock()
            {
                let now = time::OffsetDateTime::now_utc()
                    .format(&time::format_description::well_known::Rfc3339)
                    .unwrap_or_default();
                let who = LOG_AS.get().map(String::as_str).unwrap_or("");
                let msg = r.args().to_string();
                let _ = writeln!(f, "{}", log_line(&now, r.level(), who, &msg));
            }
        }
        fn flush(&self) {}
    }
    let Some(path) = dirs.log_file() else { return };
    if let Ok(f) = config::open_log(&path)
        && log::set_boxed_logger(Box::new(FileLog(std::sync::Mutex::new(f)))).is_ok()
    {
        log::set_max_level(log::LevelFilter::Info);
    }
}
