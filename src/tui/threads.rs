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
                // One line each, harmless when the log is shown in a terminal.
                let msg = r.args().to_string();
                let _ = writeln!(f, "{now} {} {}", r.level(), crate::sanitize::line(&msg));
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
