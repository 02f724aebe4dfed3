//! The fold after the reviewer quit: the hidden command a large file's session starts
//! (`session::spawn_fold`) to fold its journal into the file once the shell is back, and
//! keep the index of the file it leaves.

use std::path::PathBuf;

use crate::journal::{self, Journal};
use crate::tui::config;

/// The arguments of the hidden command that folds a session's journal after the
/// reviewer quit (`session::spawn_fold` starts it).
#[derive(clap::Args, Debug)]
pub struct FoldArgs {
    /// The journal, open and locked, inherited from the session.
    #[arg(long)]
    journal_fd: i32,
    /// The fold marker, open and locked, inherited from the session.
    #[arg(long)]
    marker_fd: i32,
    /// The journal's path.
    #[arg(long)]
    journal: PathBuf,
    /// The results file.
    file: PathBuf,
}

/// Fold a session's journal into its file, in the process `session::spawn_fold`
/// started (no terminal: what happens goes to the log). Exit status 1 when the fold
/// failed; the journal then stays, and the next session or `stats` replays it.
#[cfg(unix)]
pub fn run_fold(args: FoldArgs) -> std::process::ExitCode {
    use std::io::Write as _;
    use std::os::fd::FromRawFd;
    crate::tui::init_log(&config::Dirs::locate());
    let who = journal::reviewer_of(&args.journal, &args.file).unwrap_or_default();
    crate::tui::threads::log_as(&format!("{who}, fold after quit"));
    if args.journal_fd < 3 || args.marker_fd < 3 || args.journal_fd == args.marker_fd {
        log::error!("fold: bad descriptors");
        return std::process::ExitCode::from(2);
    }
    // SAFETY: the session that started us passed these two descriptors, open, for us
    // alone; nothing else in this process owns them.
    let (jf, mut marker) = unsafe {
        (
            std::fs::File::from_raw_fd(args.journal_fd),
            std::fs::File::from_raw_fd(args.marker_fd),
        )
    };
    let marker_path = journal::fold_marker_path(&args.journal);
    let own = match Journal::inherited(args.journal.clone(), jf) {
        Ok(j) => j,
        Err(e) => {
            log::error!("fold: {e}");
            return std::process::ExitCode::from(1);
        }
    };
    let _ = marker
        .set_len(0)
        .and_then(|_| writeln!(marker, "{}", std::process::id()));
    // Tests hold the fold here until the file they name exists.
    #[cfg(feature = "test-seams")]
    if let Some(gate) = std::env::var_os("VERDICT_TEST_FOLD_GATE") {
        let gate = PathBuf::from(gate);
        let start = std::time::Instant::now();
        while !gate.exists() && start.elapsed() < std::time::Duration::from_secs(120) {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
    let mut keep_index = false;
    let code = match crate::session::fold_detached(&args.file, own) {
        Ok(n) => {
            log::info!("folded {n} items into {}", args.file.display());
            // The next session opens the file this fold wrote: its index, kept for it
            // (after the marker is gone, so nobody waits for it).
            keep_index = true;
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            log::error!(
                "fold of {} into {}: {e}; the verdicts stay in the journal",
                args.journal.display(),
                args.file.display()
            );
            std::process::ExitCode::from(1)
        }
    };
    // Removed while still locked: a session waiting for it then finds no marker.
    let _ = std::fs::remove_file(&marker_path);
    drop(marker);
    if keep_index {
        keep_index_of(&args.file);
    }
    code
}

/// Make the index of the file as it is now and keep it in the data folder for the next open (`facts::cache`), keyed
/// by the stamp of the file read.
fn keep_index_of(file: &std::path::Path) {
    let Some(data) = config::Dirs::locate().data_dir else {
        return;
    };
    let store = match crate::session::open_store(file, crate::store::Scan::Whole) {
        Ok(s) => s,
        Err(e) => {
            log::warn!("keeping the index of {}: {e}", file.display());
            return;
        }
    };
    let Some(stamp) = store.stamp_text() else {
        return;
    };
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let p = crate::tui::facts::cache::path_for(&data, file);
    let meta = crate::tui::facts::index(&store, threads);
    // A file changed in place while it was read is not the file of that stamp any more.
    if store.changed_on_disk() {
        return;
    }
    match crate::tui::facts::cache::save(&p, &meta, &store, &stamp) {
        Ok(()) => log::info!("kept the index of {} in {}", file.display(), p.display()),
        Err(e) => log::warn!("keeping the index in {}: {e}", p.display()),
    }
}
