//! Helper threads (ticks, the index, the summary) and the log file.

use std::io::Write;
use std::sync::mpsc::Sender;
use std::time::Duration;

use super::app::{Msg, State, Worker};
use super::{config, facts};

/// Sends its message when the thread it is dropped on is unwinding from a panic: what
/// that thread was asked will never be answered, and the screen says so rather than wait
/// for it. (The panic itself is only logged: the hook keeps the screen for every thread
/// but the main one, `run::set_panic_hook`.) Kept in a thread's body, or in a closure the
/// thread owns (dropped when the thread unwinds).
pub(super) struct Watch {
    tx: Sender<Msg>,
    then: Option<Msg>,
}

impl Watch {
    pub(super) fn new(tx: Sender<Msg>, then: Msg) -> Watch {
        Watch {
            tx,
            then: Some(then),
        }
    }

    /// `Msg::WorkerFailed(what)` on a panic.
    pub(super) fn worker(tx: Sender<Msg>, what: Worker) -> Watch {
        Watch::new(tx, Msg::WorkerFailed(what))
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        if std::thread::panicking()
            && let Some(m) = self.then.take()
        {
            let _ = self.tx.send(m);
        }
    }
}

/// Tests make a thread panic where `VERDICT_TEST_PANIC` names it (`index`: the index
/// thread at its start; `search`: the search thread with its first answer; `io`: the IO
/// worker with the first verdict), so that what the reviewer sees then is checked on the
/// real binary.
/// Only in builds for the tests (the `test-seams` feature).
pub(super) fn test_panic(place: &str) {
    #[cfg(feature = "test-seams")]
    if std::env::var("VERDICT_TEST_PANIC").is_ok_and(|v| v == place) {
        panic!("VERDICT_TEST_PANIC={place}");
    }
    #[cfg(not(feature = "test-seams"))]
    let _ = place;
}

/// Start `body` on a thread named `name` that the screen waits on: a panic there is said
/// with `Msg::WorkerFailed(what)` ([`Watch`]), and so is a thread that cannot be started
/// (logged as not starting `doing`).
fn spawn_watched(
    name: &str,
    what: Worker,
    doing: &str,
    tx: &Sender<Msg>,
    body: impl FnOnce() + Send + 'static,
) {
    let watch = Watch::worker(tx.clone(), what);
    let spawned = std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            let _watch = watch;
            body()
        });
    if let Err(e) = spawned {
        log::error!("could not start {doing}: {e}");
        let _ = tx.send(Msg::WorkerFailed(what));
    }
}

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
    spawn_watched(
        "verdict-index",
        Worker::Index { generation },
        "the index thread",
        &tx.clone(),
        move || {
            test_panic("index");
            // The file as it is on disk, nothing replayed onto it: the cache's business.
            let cache = cache.filter(|_| !store.is_dirty()).zip(store.stamp_text());
            if let Some((p, stamp)) = &cache
                && let Some(meta) = facts::cache::load(p, stamp, &facts::cache::told(&store))
                && meta.len() == store.len()
            {
                log::info!(
                    "index of {} read from {}",
                    store.path().display(),
                    p.display()
                );
                let _ = tx.send(Msg::Indexed {
                    generation,
                    meta: meta.into(),
                });
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
            log::info!("index of {} built", store.path().display());
            // Handed over at once: search and filters are ready now, not after the index
            // is written (issue 21: 208 MB at 1M items, its checksum, and its check when
            // mapped back were on the way to a ready screen).
            let meta = std::sync::Arc::new(meta);
            let _ = tx.send(Msg::Indexed {
                generation,
                meta: std::sync::Arc::clone(&meta),
            });
            // (A file written in place while it was read is not the file of that stamp.)
            // Kept once a session, at its open: a rebuild after every colleague's save
            // would write the whole index again each time (188 MB at 1M items), and the
            // fold after quitting keeps the index of the file it leaves. Written after the
            // index is handed over; then the index as written, used in place from the
            // cache's mapping, takes the built one's place on the screen
            // (`Msg::IndexKept`), so that the texts built here are dropped, not kept in
            // private memory (issue 21). It is handed over only when it is the same index
            // (every text, fact and bit): the swap changes nothing the reviewer sees. Made
            // durable and put in its place after.
            let keep = cache.filter(|_| generation == 0 && !store.changed_on_disk());
            if let Some((p, stamp)) = &keep {
                match facts::cache::write(p, &meta, &store, stamp) {
                    Ok(w) => {
                        match w.index(stamp) {
                            Some(kept) if kept == *meta => {
                                // Ours goes as soon as the screen lets go of it.
                                drop(meta);
                                let _ = tx.send(Msg::IndexKept {
                                    generation,
                                    meta: kept.into(),
                                });
                            }
                            _ => {
                                log::warn!("the index written to {} reads back wrong", p.display())
                            }
                        }
                        if let Err(e) = w.persist() {
                            log::warn!("keeping the index: {e}");
                        }
                    }
                    Err(e) => log::warn!("keeping the index in {}: {e}", p.display()),
                }
            }
            // Every item was read: the page tables of the file go now, not at quitting.
            store.release_pages();
        },
    );
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
    spawn_watched(
        "verdict-locate",
        Worker::Locate { seq },
        "the thread that finds the last session's items",
        &tx.clone(),
        move || {
            let located = match &meta {
                Some(m) => Some(super::locate::with_index(&store, m, &wanted, &reviewer)),
                None => super::locate::in_places(&store, &wanted, &reviewer),
            };
            if let Some(located) = located {
                let _ = tx.send(Msg::Located { seq, located });
            }
        },
    );
}

/// Find where the session's items are in the file read again on a thread of its own, with
/// the new file's index (`tui::remap`).
/// Answers with `Msg::Remapped` tagged `seq`.
pub(super) fn spawn_remap(seq: u64, job: std::sync::Arc<super::remap::Job>, tx: Sender<Msg>) {
    spawn_watched(
        "verdict-remap",
        Worker::Remap { seq },
        "the thread that finds the items in the changed file",
        &tx.clone(),
        move || {
            let moves = Box::new(super::remap::Moves::work_out(&job));
            let _ = tx.send(Msg::Remapped { seq, moves });
        },
    );
}

pub(super) fn spawn_summary(state: &State, seq: u64, tx: Sender<Msg>) {
    let path = state.store.path().to_path_buf();
    // (a folder's set: each of its files is read so by `summary::compute`)
    let set = state.store.parts().is_some().then(|| state.store.clone());
    std::thread::spawn(move || {
        let _watch = Watch::new(
            tx.clone(),
            Msg::Summary {
                seq,
                result: Err("the summary stopped on an error (see the log)".into()),
            },
        );
        // The summary reads the file as it is on disk plus the journal, so it includes
        // every verdict recorded so far.
        let r = match set {
            Some(set) => Ok(crate::tui::summary::compute(&set)),
            None => crate::session::open_with_journal(&path)
                .map_err(|e| e.to_string())
                .map(|(store, _, _)| crate::tui::summary::compute(&store)),
        };
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

#[cfg(test)]
mod index_tests {
    use super::*;
    use std::sync::mpsc;

    /// The index thread's answers about the sample `cvqa.jsonl` opened with a data folder,
    /// until the thread ends; and the store and cache path.
    fn answers() -> (
        tempfile::TempDir,
        crate::store::Store,
        std::path::PathBuf,
        Vec<Msg>,
    ) {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("cvqa.jsonl");
        std::fs::copy(
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/samples/cvqa.jsonl"
            ),
            &p,
        )
        .unwrap();
        let store = crate::store::Store::open(&p).unwrap();
        let cache = facts::cache::path_for(&d.path().join("data"), &p);
        let got = index_answers(&store, &cache);
        (d, store, cache, got)
    }

    /// The index thread's answers about `store` with its kept index at `cache`, until
    /// the thread ends (its progress left out).
    fn index_answers(store: &crate::store::Store, cache: &std::path::Path) -> Vec<Msg> {
        let (tx, rx) = mpsc::channel();
        spawn_index(store.clone(), 0, tx, Some(cache.to_path_buf()));
        let mut got = Vec::new();
        // The thread drops its sender when it ends.
        while let Ok(m) = rx.recv_timeout(Duration::from_secs(60)) {
            if !matches!(m, Msg::IndexProgress { .. }) {
                got.push(m);
            }
        }
        got
    }

    #[test]
    fn a_built_index_is_handed_over_before_it_is_kept() {
        let (_d, store, cache, got) = answers();
        // First the index as built (its texts in memory), at once: not after the cache
        // is written, mapped back and checked.
        let Some(Msg::Indexed {
            generation: 0,
            meta: built,
        }) = got.first()
        else {
            panic!("the index first");
        };
        assert!(!built.texts_in_place(), "handed over only once kept");
        assert_eq!(**built, facts::index(&store, 2));
        // Then the same index as kept, used in place, to take its place.
        let Some(Msg::IndexKept {
            generation: 0,
            meta: kept,
        }) = got.get(1)
        else {
            panic!("then the kept index");
        };
        assert!(kept.texts_in_place());
        assert_eq!(**kept, **built);
        assert_eq!(got.len(), 2);
        // And in its place for the next open.
        let stamp = store.stamp_text().unwrap();
        assert_eq!(
            facts::cache::load(&cache, &stamp, &facts::cache::told(&store)).as_ref(),
            Some(&**built)
        );
    }

    /// Another program's save (a colleague's verdict on one item, a line added): the file
    /// the earlier session's index was kept for.
    fn saved_by_another(p: &std::path::Path) {
        let text = std::fs::read_to_string(p).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let v: serde_json::Value = serde_json::from_str(&lines[3]).unwrap();
        let mut v = v.as_object().unwrap().clone();
        v.insert(
            "reviews".into(),
            serde_json::json!({"dan": {"verification": "accepted"}}),
        );
        lines[3] = serde_json::to_string(&v).unwrap();
        let mut extra = serde_json::from_str::<serde_json::Value>(&lines[0]).unwrap();
        extra["id"] = "added-by-dan".into();
        lines.insert(1, serde_json::to_string(&extra).unwrap());
        // Written to a new file renamed over it, as verdict saves.
        let tmp = p.with_extension("tmp");
        std::fs::write(&tmp, lines.join("\n") + "\n").unwrap();
        std::fs::rename(&tmp, p).unwrap();
    }

    /// The session opening the file after another program's save takes the kept index of
    /// the file before it across, hands it to the screen and keeps it for the file now.
    #[test]
    fn the_first_open_after_another_programs_save_keeps_the_index_carried_across() {
        let (_d, store, cache, _) = answers();
        saved_by_another(store.path());
        let new = crate::store::Store::open(store.path()).unwrap();
        let got = index_answers(&new, &cache);
        let Some(Msg::Indexed { meta, .. }) = got.first() else {
            panic!("the index first");
        };
        assert_eq!(**meta, facts::index(&new, 2));
        let stamp = new.stamp_text().unwrap();
        assert_eq!(
            facts::cache::load(&cache, &stamp, &facts::cache::told(&store)).as_ref(),
            Some(&**meta)
        );
    }

    /// The index the session opening `path` hands to the screen first.
    fn first_index(path: &std::path::Path, cache: &std::path::Path) -> facts::Index {
        let store = crate::store::Store::open(path).unwrap();
        let got = index_answers(&store, cache);
        let Some(Msg::Indexed { meta, .. }) = got.into_iter().next() else {
            panic!("the index first");
        };
        (*meta).clone()
    }

    /// What a file's path tells its items (an lm-eval run's results file beside the
    /// samples, the name a CharToM-QA evaluation file is opened by) is part of what a kept
    /// index describes: the same bytes read under what the path now tells are not the
    /// items it was kept for, whether the file is unchanged or another program saved it.
    #[test]
    fn a_kept_index_is_not_used_when_what_the_path_tells_changed() {
        let d = tempfile::tempdir().unwrap();
        let data = d.path().join("data");
        let dir = d.path().join("model-a");
        std::fs::create_dir(&dir).unwrap();
        let date = "2026-11-20T10-15-42.518246";
        let p = dir.join(format!("samples_gsm8k_{date}.jsonl"));
        std::fs::copy(
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/samples/lm-eval/example__tiny-llama-1b/samples_gsm8k_2026-11-20T10-15-42.518246.jsonl"
            ),
            &p,
        )
        .unwrap();
        let cache = facts::cache::path_for(&data, &p);
        let fresh = |p: &std::path::Path| facts::index(&crate::store::Store::open(p).unwrap(), 2);
        let models = |ix: &facts::Index| {
            ix.names(facts::Kind::Model)
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(first_index(&p, &cache), fresh(&p));
        assert_eq!(models(&fresh(&p)), ["model-a"]);
        // The harness writes the run's results file beside the samples: its model.
        let results =
            serde_json::json!({"results": {"gsm8k": {}}, "model_name_sanitized": "model-b"});
        std::fs::write(
            dir.join(format!("results_{date}.json")),
            results.to_string(),
        )
        .unwrap();
        assert_eq!(models(&fresh(&p)), ["model-b"]);
        assert_eq!(first_index(&p, &cache), fresh(&p), "the file unchanged");
        // Kept again for model-b; the results file says model-c and a colleague saves.
        let results =
            serde_json::json!({"results": {"gsm8k": {}}, "model_name_sanitized": "model-c"});
        std::fs::write(
            dir.join(format!("results_{date}.json")),
            results.to_string(),
        )
        .unwrap();
        saved_by_another(&p);
        assert_eq!(models(&fresh(&p)), ["model-c"]);
        assert_eq!(first_index(&p, &cache), fresh(&p), "carried across a save");

        // A CharToM-QA evaluation file opened by another name (a link): its model.
        let e = d.path().join("gpt-4o_physical_c2000_eval_penalty.jsonl");
        std::fs::copy(
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/samples/chartom-qa-eval.jsonl"
            ),
            &e,
        )
        .unwrap();
        let link = d.path().join("llama_physical_c2000_eval_penalty.jsonl");
        std::os::unix::fs::symlink(&e, &link).unwrap();
        let cache = facts::cache::path_for(&data, &e);
        assert_eq!(
            cache,
            facts::cache::path_for(&data, &link),
            "one file, one place"
        );
        assert_eq!(first_index(&e, &cache), fresh(&e));
        assert_ne!(fresh(&e), fresh(&link), "the name tells the model");
        assert_eq!(first_index(&link, &cache), fresh(&link));
    }
}

#[cfg(test)]
#[test]
fn a_watch_speaks_only_when_its_thread_panics() {
    let (tx, rx) = std::sync::mpsc::channel();
    let t = tx.clone();
    std::thread::spawn(move || {
        let _w = Watch::worker(t, Worker::Search);
    })
    .join()
    .unwrap();
    assert!(
        rx.try_recv().is_err(),
        "a thread that ends well says nothing"
    );
    let t = tx.clone();
    let r = std::thread::spawn(move || {
        let _w = Watch::worker(t, Worker::Locate { seq: 7 });
        panic!("on purpose");
    })
    .join();
    assert!(r.is_err());
    assert!(matches!(
        rx.try_recv(),
        Ok(Msg::WorkerFailed(Worker::Locate { seq: 7 }))
    ));
}
