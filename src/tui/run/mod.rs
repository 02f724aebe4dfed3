//! The run: start-up (the config, the session, the workers, the terminal, the first
//! state and its notices), then the Elm loop (`event_loop.rs`: messages in, effects out,
//! one frame per batch of messages), and the way out (`exit.rs`: the terminal given back,
//! the fold hand-off and the exit message).

mod event_loop;
mod exit;
mod set;

use super::locate::Start;
use event_loop::{Display, Loop};
use exit::{exit_message, fold};

use std::path::PathBuf;
use std::sync::mpsc::{self, Sender};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use super::Options;
use super::app::{Clock, Effect, Level, Msg, State};
use super::image::{Drawing, ProtocolChoice};
use super::start::start_images_and_input;
use super::terminal::{
    TerminalGuard, enter_terminal, restore_terminal, restore_tmux, terminal_out,
};
use super::theme::ThemeName;
use super::threads::{init_log, spawn_index, spawn_ticks};
use super::{app, config, draw, facts, keymap, worker};

/// Run the reviewer until the reviewer quits. Exit status 1 when the verdicts could not
/// be folded into the file (they stay in the journal, and the message says where).
pub fn run(opts: Options) -> anyhow::Result<std::process::ExitCode> {
    let setup = Setup::read(&opts)?;
    let (tx, rx) = mpsc::channel::<Msg>();
    let Begun {
        store: snapshot,
        replay,
        kept_aside,
        own_path,
        moved,
        io_tx,
        io,
        index_cache,
    } = begin(&opts, &setup, &tx)?;
    // The terminal: restored on every exit path, panics included.
    set_panic_hook();
    enter_terminal()?;
    let guard = TerminalGuard;
    let mut image_notice = None;
    let depth = super::palette::Depth::from_env();
    // NO_COLOR: the mono theme draws no colours, and pictures are drawn in grey levels;
    // crossterm, which would drop every colour, is told to send those (a kitty
    // picture's placeholders carry its id in their colour).
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    if no_color {
        crossterm::style::force_color_output(true);
    }
    let (images, input_pause) = start_images_and_input(setup.choice, &tx, &mut image_notice)?;
    let searcher = {
        let tx = tx.clone();
        // (dropped when the search thread unwinds: the screen is told)
        let watch = super::threads::Watch::worker(tx.clone(), app::Worker::Search);
        facts::SearchWorker::spawn(Box::new(move |seq, results| {
            let _ = &watch;
            super::threads::test_panic("search");
            let _ = tx.send(Msg::SearchDone { seq, results });
        }))
    };
    spawn_ticks(tx.clone());
    spawn_index(snapshot.clone(), 0, tx.clone(), index_cache.clone());

    let terminal = Terminal::new(CrosstermBackend::new(terminal_out()))?;
    let drawing = images.drawing();
    let (mut state, fx) = start_state(&opts, &setup, snapshot, drawing, terminal.size()?);
    let mut notices: Vec<String> = moved;
    notices.extend(replay_notices(&replay, &kept_aside));
    if replay.applied > 0 {
        // They are in the journal, not yet in the file: the header says so until the fold.
        state.saved = app::SaveState::Journaled;
    }
    notices.extend(image_notice);
    if !setup.key_problems.is_empty() {
        notices.push(format!("config keys: {}", setup.key_problems.join("; ")));
    }
    let level = if notices.is_empty() {
        Level::Info
    } else {
        Level::Warn
    };
    notices.extend(login_name_notice(&opts, &setup));
    if !notices.is_empty() {
        state.status = Some((notices.join(" · "), level));
    }

    let mut lp = Loop {
        drawing,
        tx,
        rx,
        io_tx,
        images,
        input_pause,
        searcher,
        index_cache,
        display: Display {
            terminal,
            shown_kitty: None,
            last_painted: None,
            depth,
            grey: no_color,
            last_frame: ratatui::buffer::Buffer::empty(ratatui::layout::Rect::default()),
        },
    };
    let run_result = lp.run(&mut state, fx);
    // The workers' other ends stay open until the exit message is out.
    let Loop { display, io_tx, .. } = lp;
    display.give_back(guard);
    let folded = fold(io_tx, io, &opts.file);
    run_result?;
    exit_message(&state, &replay, &kept_aside, &own_path, &opts.file, folded)
}

/// The session opened: the store the screen reads, what the journals' replay did, and
/// the IO worker that writes.
struct Begun {
    store: crate::store::Store,
    replay: crate::session::Replay,
    kept_aside: Vec<PathBuf>,
    own_path: PathBuf,
    /// Journals that could not be beside their file, and where they went instead.
    moved: Vec<String>,
    io_tx: Sender<worker::Req>,
    io: std::thread::JoinHandle<()>,
    /// The kept index of the file (none for a folder's set).
    index_cache: Option<PathBuf>,
}

/// Open the file, or every file of a folder read as one set (`bench::folder_set`: each
/// task's latest run), and start the IO worker.
fn begin(opts: &Options, setup: &Setup, tx: &Sender<Msg>) -> anyhow::Result<Begun> {
    if opts.file.is_dir() {
        let files = crate::bench::folder_set(&opts.file, false)
            .ok_or_else(|| crate::bench::folder_error(&opts.file))?;
        let set::OpenedSet {
            store,
            replay,
            kept_aside,
            own_path,
            moved,
            sessions,
        } = set::open(&opts.file, &files, &setup.reviewer, &setup.dirs)?;
        let keep = worker::Keep {
            dirs: setup.dirs.clone(),
            file: opts.file.clone(),
            reviewer: setup.reviewer.clone(),
        };
        let (io_tx, io) = set::spawn_io(sessions, store.clone(), keep, tx);
        return Ok(Begun {
            store,
            replay,
            kept_aside,
            own_path,
            moved,
            io_tx,
            io,
            index_cache: None,
        });
    }
    let index_cache = setup
        .dirs
        .data_dir
        .as_ref()
        .map(|d| facts::cache::path_for(d, &opts.file));
    let crate::session::Opened {
        store,
        own,
        stale,
        replay,
        kept_aside,
    } = open(opts, &setup.reviewer, index_cache.as_deref())?;
    let own_path = own.path().to_path_buf();
    let moved = own.moved.clone().into_iter().collect();
    let snapshot = store.clone();
    let (io_tx, io) = spawn_io(setup, &opts.file, (store, own, stale), tx);
    Ok(Begun {
        store: snapshot,
        replay,
        kept_aside,
        own_path,
        moved,
        io_tx,
        io,
        index_cache,
    })
}

/// Open the file with the journals' verdicts, once the fold of this reviewer's last
/// session is done.
fn open(
    opts: &Options,
    reviewer: &str,
    kept: Option<&std::path::Path>,
) -> anyhow::Result<crate::session::Opened> {
    crate::session::wait_for_fold(&opts.file, reviewer, |_| {
        let _ = crate::out::errln!(
            "verdict: waiting for your last session's verdicts to be written into {}…",
            opts.file.display()
        );
    });
    // The first screen is drawn from the first lines while a large file's scan goes on;
    // with a kept index of exactly this file, from its offsets, with no scan at all (a
    // saved position deep in the file shows at once).
    let scan = match kept {
        Some(p) => crate::store::Scan::Kept(p.to_path_buf()),
        None => crate::store::Scan::Background,
    };
    crate::session::open_as(&opts.file, reviewer, scan)
}

/// Start the IO worker, the only writer of the file and the journal, on the opened
/// session: the sender of its requests and its thread.
fn spawn_io(
    setup: &Setup,
    file: &std::path::Path,
    (store, own, stale): (crate::store::Store, crate::journal::Journal, Vec<PathBuf>),
    tx: &Sender<Msg>,
) -> (Sender<worker::Req>, std::thread::JoinHandle<()>) {
    let (io_tx, io_rx) = mpsc::channel();
    let keep = worker::Keep {
        dirs: setup.dirs.clone(),
        file: file.to_path_buf(),
        reviewer: setup.reviewer.clone(),
    };
    let io = worker::spawn(
        worker::Session {
            store,
            own,
            stale,
            keep,
        },
        tx.clone(),
        io_rx,
    );
    (io_tx, io)
}

/// The reviewer's state on `snapshot` for a terminal of `size`, with its first effects:
/// at the item asked for (`--at`) or the saved position when it is among the items read so
/// far and in its place, else on the first item while it is looked for, with the saved
/// session, off this thread (`State::begin`): the first frame never waits for the file.
fn start_state(
    opts: &Options,
    setup: &Setup,
    snapshot: crate::store::Store,
    drawing: Drawing,
    size: ratatui::layout::Size,
) -> (State, Vec<Effect>) {
    let mut state = State::new(
        snapshot,
        setup.reviewer.clone(),
        setup.keymap.clone(),
        setup.theme,
        Clock::now(),
    );
    state.protocol_name = drawing.name();
    state.blind = opts.blind;
    state.auto_advance = setup.cfg.auto_advance.unwrap_or(true);
    state.size = (size.width, size.height);
    state.image_area = draw::image_area(&state, size.width, size.height);
    let start = match &opts.start {
        Some(s) => Some(Start::At(s.clone())),
        None => config::load_position(&setup.dirs, &opts.file, &setup.reviewer).map(Start::Saved),
    };
    let session = config::load_session(&setup.dirs, &opts.file, &setup.reviewer);
    let fx = state.begin(session, start);
    (state, fx)
}

/// The first time a reviewer opens the file under the login name (no `--reviewer`, no
/// `reviewer` in the config; no place saved for them yet): whose name the verdicts go
/// under, and how to give another.
fn login_name_notice(opts: &Options, setup: &Setup) -> Option<String> {
    let named = opts.reviewer.is_some() || setup.cfg.reviewer.is_some();
    if named || config::load_position(&setup.dirs, &opts.file, &setup.reviewer).is_some() {
        return None;
    }
    let config = setup
        .dirs
        .config_file
        .as_ref()
        .map_or("the config file".to_string(), |p| p.display().to_string());
    Some(format!(
        "grading as {} (your login name): --reviewer NAME or reviewer = \"NAME\" in {config} names you",
        setup.reviewer
    ))
}

/// What the reviewer starts with: the config and the options' choices.
struct Setup {
    dirs: config::Dirs,
    cfg: config::Config,
    keymap: keymap::Keymap,
    /// What the config's `[keys]` got wrong (said on the status line).
    key_problems: Vec<String>,
    reviewer: String,
    theme: ThemeName,
    choice: ProtocolChoice,
}

impl Setup {
    /// Read the config (and start the log), and settle the options against it.
    fn read(opts: &Options) -> anyhow::Result<Setup> {
        let dirs = config::Dirs::locate();
        let cfg = config::load_config(dirs.config_file.as_deref())?;
        init_log(&dirs);
        let mut keymap = keymap::Keymap::default();
        let key_problems = keymap.apply_config(&cfg.keys);
        let reviewer = config::reviewer_name(opts.reviewer.as_deref(), &cfg);
        super::threads::log_as(&reviewer);
        let theme = if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            ThemeName::Mono
        } else {
            opts.theme
                .as_deref()
                .or(cfg.theme.as_deref())
                .and_then(ThemeName::parse)
                .unwrap_or(ThemeName::Dark)
        };
        let choice = opts
            .image_protocol
            .or_else(ProtocolChoice::from_env)
            .or_else(|| {
                cfg.image_protocol
                    .as_deref()
                    .and_then(|s| <ProtocolChoice as clap::ValueEnum>::from_str(s, true).ok())
            })
            .unwrap_or(ProtocolChoice::Auto);
        Ok(Setup {
            dirs,
            cfg,
            keymap,
            key_problems,
            reviewer,
            theme,
            choice,
        })
    }
}

/// Restore the terminal before a panic's message on the main thread. A panic on any other
/// thread is only logged and the screen kept: the main thread goes on drawing, and a
/// terminal given back under it would show the rest of the session as garbage with the
/// keys echoed. Each thread the screen waits on says it stopped (`threads::Watch`): the
/// screen says what is not coming (`Msg::WorkerFailed`), or the loop ends the session
/// when it cannot go on (the IO worker, the terminal's reader). A decoder panic on the
/// image thread is caught there and shown as a broken image.
fn set_panic_hook() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let thread = std::thread::current();
        if !restores_terminal(thread.name()) {
            log::error!(
                "panic on thread {}: {info}",
                thread.name().unwrap_or("unnamed")
            );
            return;
        }
        restore_terminal();
        restore_tmux();
        log::error!("panic: {info}");
        default_hook(info);
    }));
}

/// Whether a panic on the thread named `thread` gives the terminal back: only on the main
/// thread, whose panic ends the process.
fn restores_terminal(thread: Option<&str>) -> bool {
    thread == Some("main")
}

/// The start-up notices about the journals' replay: verdicts that could not be applied
/// (and where they are kept), copies kept aside, verdicts recovered from the journal.
fn replay_notices(replay: &crate::session::Replay, kept_aside: &[PathBuf]) -> Vec<String> {
    let mut notices = Vec::new();
    if replay.not_applied() > 0 {
        let kept = if kept_aside.is_empty() {
            "see the log".to_string()
        } else {
            format!(
                "kept in {}",
                kept_aside
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        notices.push(format!("{} ({kept})", replay.not_applied_notice()));
        for s in replay.problems() {
            log::warn!("journal: {s}");
        }
    }
    notices.extend(replay.kept_aside_notice());
    notices.extend(replay.untrusted_notice());
    if replay.applied > 0 {
        notices.push(replay.recovered_notice());
    }
    notices
}
