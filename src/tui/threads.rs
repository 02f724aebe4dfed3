//! Helper threads (ticks, the index, the summary) and the log file.

use std::io::Write;
use std::sync::mpsc::Sender;
use std::time::Duration;

use super::app::{Msg, State};
use super::{config, draw, facts};

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
pub(super) fn spawn_index(store: crate::store::Store, generation: u64, tx: Sender<Msg>) {
    let spawned = std::thread::Builder::new()
        .name("verdict-index".into())
        .spawn(move || {
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
            let _ = tx.send(Msg::Indexed { generation, meta });
        });
    if let Err(e) = spawned {
        log::error!("could not start the index thread: {e}");
    }
}

pub(super) fn spawn_summary(state: &State, seq: u64, tx: Sender<Msg>) {
    let path = state.store.path().to_path_buf();
    std::thread::spawn(move || {
        // The summary reads the file as it is on disk plus the journal, so it includes
        // every verdict recorded so far.
        let r = crate::journal::open_with_journal(&path)
            .map_err(|e| e.to_string())
            .map(|(store, _, _)| draw::summary_value(&store));
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
