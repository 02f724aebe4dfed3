//! The way out: the fold handed to the IO worker, and the exit message.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Sender};
use std::time::Duration;

use crate::tui::app::State;
use crate::tui::worker;

/// Hand the fold to the IO worker and wait for it: what it answers, or why there is no
/// answer. Every verdict is already durable in the journal; say so if the fold takes a
/// while.
pub(super) fn fold(
    io_tx: Sender<worker::Req>,
    io: std::thread::JoinHandle<()>,
    file: &Path,
) -> Result<worker::Ended, String> {
    let (reply_tx, reply_rx) = mpsc::channel();
    worker::quitting();
    let folded = if io_tx.send(worker::Req::Shutdown(reply_tx)).is_ok() {
        match reply_rx.recv_timeout(Duration::from_millis(300)) {
            Ok(r) => r,
            Err(_) => {
                let _ = crate::out::errln!(
                    "verdict: writing your verdicts into {} (they are already safe in the journal)…",
                    file.display()
                );
                reply_rx
                    .recv_timeout(Duration::from_secs(600))
                    .unwrap_or_else(|_| Err("timed out".into()))
            }
        }
    } else {
        Err("the IO worker stopped".into())
    };
    drop(io_tx);
    let _ = io.join();
    folded
}

/// The message on the way out: what this session graded, and where the verdicts are.
pub(super) fn exit_message(
    state: &State,
    replay: &crate::session::Replay,
    kept_aside: &[PathBuf],
    own_path: &Path,
    file: &Path,
    folded: Result<worker::Ended, String>,
) -> anyhow::Result<std::process::ExitCode> {
    // Items done this session (every required grade), and those graded in part.
    let done = state.rec.mine_done.values().filter(|d| **d).count();
    let touched = state.rec.mine.values().filter(|r| r.is_some()).count();
    let part = match touched.saturating_sub(done) {
        0 => String::new(),
        n => format!(", {n} in part"),
    };
    // Verdicts of earlier sessions that could not be applied (kept aside at this open, or
    // by an earlier one): "every verdict is in the file" would not be true.
    let aside = replay.not_applied_in_journals() + replay.kept_aside_verdicts();
    let every = if aside > 0 {
        let mut files: Vec<String> = kept_aside.iter().map(|p| p.display().to_string()).collect();
        files.extend(
            replay
                .kept_aside
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(p, _)| p.display().to_string()),
        );
        format!(
            "every verdict of this session is in {}; {} of earlier sessions could not be \
             applied and {} kept aside in {} (`verdict check` lists them)",
            file.display(),
            crate::session::verdicts(aside),
            if aside == 1 { "is" } else { "are" },
            files.join(", ")
        )
    } else {
        format!("every verdict is in {}", file.display())
    };
    match folded {
        Ok(worker::Ended::Detached) => {
            crate::out::outln!(
                "verdict: {done} {} graded this session{part}; every verdict is safe in the journal {} \
                 and is being written into {} in the background",
                if done == 1 { "item" } else { "items" },
                own_path.display(),
                file.display()
            )?;
            Ok(std::process::ExitCode::SUCCESS)
        }
        Ok(worker::Ended::Folded(_)) => {
            crate::out::outln!(
                "verdict: {done} {} graded this session{part}; {every}",
                if done == 1 { "item" } else { "items" },
            )?;
            Ok(std::process::ExitCode::SUCCESS)
        }
        Err(e) => {
            crate::out::errln!(
                "verdict: your verdicts are safe in the journal {}, but {} was not updated: {e}\n\
                 Reopen the file with verdict to fold them in.",
                own_path.display(),
                file.display()
            )?;
            Ok(std::process::ExitCode::from(1))
        }
    }
}
