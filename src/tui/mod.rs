//! The reviewer: an Elm-style loop. Input, IO, image and index workers send `Msg`s on one
//! channel; `State::update` is pure and returns effects; `draw::draw` renders the state.

pub mod app;
pub mod config;
pub mod draw;
pub mod edit;
pub mod facts;
pub mod grading;
pub mod image;
pub mod keymap;
pub mod text;
pub mod theme;
pub mod worker;

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::mpsc::{self, Sender};
use std::time::Duration;

use anyhow::Context as _;
use crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
    Event,
};
use crossterm::execute;
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use app::{Clock, Effect, Level, Msg, State};
use image::{ImageWorker, ProtocolChoice};
use theme::ThemeName;

/// How the reviewer was asked to start.
#[derive(Debug, Clone)]
pub struct Options {
    pub file: PathBuf,
    pub reviewer: Option<String>,
    pub image_protocol: Option<ProtocolChoice>,
    pub theme: Option<String>,
    pub blind: bool,
    /// Start at this item (number or id) instead of the resume position.
    pub start: Option<String>,
}

fn restore_terminal() {
    let _ = terminal::disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
}

fn enter_terminal() -> io::Result<()> {
    terminal::enable_raw_mode()?;
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        EnableMouseCapture,
        EnableBracketedPaste
    )
}

/// Restores the terminal when dropped: on return, on error and during unwinding.
struct TerminalGuard;
impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

pub fn run(opts: Options) -> anyhow::Result<()> {
    let dirs = config::Dirs::locate();
    let cfg = config::load_config(dirs.config_file.as_deref())?;
    init_log(&dirs);
    let mut keymap = keymap::Keymap::default();
    let key_problems = keymap.apply_config(&cfg.keys);
    let reviewer = config::reviewer_name(opts.reviewer.as_deref(), &cfg);
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

    // The file first: a failed open leaves no journal behind.
    let (store, replayed, replay) = crate::journal::open_with_journal(&opts.file)
        .with_context(|| format!("cannot open {}", opts.file.display()))?;
    let own = crate::journal::Journal::for_session(&opts.file, &reviewer)?;
    let own_path = own.path().to_path_buf();
    log::info!(
        "opened {} ({} items) as {reviewer}",
        opts.file.display(),
        store.len()
    );
    // Journals of other sessions still running stay theirs; those left by sessions that
    // ended (killed) are folded by us. Journals holding lines that were not applied are
    // copied aside first, so folding never deletes them.
    let stale: Vec<PathBuf> = replayed
        .into_iter()
        .filter(|p| p.as_path() != own.path() && !crate::journal::is_live(p))
        .collect();
    let mut kept_aside = Vec::new();
    let mode = crate::journal::side_file_mode(&opts.file);
    for p in replay
        .to_keep
        .iter()
        .filter(|p| p.as_path() == own.path() || stale.contains(p))
    {
        match crate::journal::Journal::at(p.to_path_buf()).keep_aside(mode) {
            Ok(a) => kept_aside.push(a),
            Err(e) => log::error!("keeping {} aside: {e}", p.display()),
        }
    }
    let moved = own.moved.clone();

    let (tx, rx) = mpsc::channel::<Msg>();
    let snapshot = store.clone();
    let (io_tx, io_rx) = mpsc::channel();
    let io = worker::spawn(worker::Session { store, own, stale }, tx.clone(), io_rx);

    // The terminal: restored on every exit path, panics included.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // A decoder panic on the image thread is caught there and shown as a broken
        // image: only log it, keep the screen.
        if std::thread::current().name() == Some("verdict-image") {
            log::error!("image worker: {info}");
            return;
        }
        restore_terminal();
        log::error!("panic: {info}");
        default_hook(info);
    }));
    enter_terminal()?;
    let _guard = TerminalGuard;
    // The protocol query must come after raw mode and before the input thread reads.
    let (picker, protocol_name) = image::make_picker(choice);
    // Clear whatever the query may have left before anything reads input.
    execute!(io::stdout(), terminal::Clear(terminal::ClearType::All))?;
    let images = {
        let tx = tx.clone();
        ImageWorker::spawn(
            picker,
            Box::new(move |ev| {
                let _ = tx.send(Msg::Image(ev));
            }),
        )
    };
    let searcher = {
        let tx = tx.clone();
        facts::SearchWorker::spawn(Box::new(move |seq, results| {
            let _ = tx.send(Msg::SearchDone { seq, results });
        }))
    };
    spawn_input(tx.clone());
    spawn_ticks(tx.clone());
    {
        let tx = tx.clone();
        let snap = snapshot.clone();
        std::thread::Builder::new()
            .name("verdict-index".into())
            .spawn(move || {
                let meta = facts::index(&snap, 2);
                let _ = tx.send(Msg::Indexed(meta));
            })?;
    }

    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    let size = terminal.size()?;
    let mut state = State::new(snapshot, reviewer.clone(), keymap, theme, Clock::now());
    state.protocol_name = protocol_name;
    state.blind = opts.blind;
    state.size = (size.width, size.height);
    state.image_area = draw::image_area(&state, size.width, size.height);
    let start = match &opts.start {
        Some(s) => find_start(&state, s),
        None => config::load_position(&dirs, &opts.file, &reviewer).map(|p| locate(&state, p)),
    };
    let mut fx = state.start_at(start.unwrap_or(0));
    let mut notices = Vec::new();
    if let Some(m) = moved {
        notices.push(m);
    }
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
        notices.push(format!(
            "{} journal entries not applied: {} unreadable, {} invalid, {} match no item ({kept})",
            replay.not_applied(),
            replay.unreadable.len(),
            replay.invalid.len(),
            replay.skipped.len(),
        ));
        for s in replay.problems() {
            log::warn!("journal: {s}");
        }
    }
    if replay.applied > 0 {
        notices.push(format!(
            "recovered {} verdicts from the journal of an earlier session",
            replay.applied
        ));
    }
    if !key_problems.is_empty() {
        notices.push(format!("config keys: {}", key_problems.join("; ")));
    }
    if !notices.is_empty() {
        state.status = Some((notices.join(" · "), Level::Warn));
    }

    let run_result = (|| -> anyhow::Result<()> {
        let mut fx_after: Vec<Effect> = Vec::new();
        let mut had_overlay = false;
        loop {
            // sixel and iTerm2 images are not redrawn by ratatui's diff after an overlay
            // that covered them closes: clear so the image is sent again.
            let overlay = !matches!(state.mode, app::Mode::Normal);
            if overlay != had_overlay && matches!(state.protocol_name, "sixel" | "iterm2") {
                terminal.clear()?;
                images.invalidate();
                state.image = app::ImageSlot::None;
                state.request_image(&mut fx);
            }
            had_overlay = overlay;
            while !fx.is_empty() {
                for e in std::mem::take(&mut fx) {
                    match e {
                        Effect::Record {
                            seq,
                            item,
                            id,
                            reviewer,
                            review,
                        } => {
                            io_tx
                                .send(worker::Req::Record {
                                    seq,
                                    item,
                                    id,
                                    reviewer,
                                    review,
                                })
                                .map_err(|_| anyhow::anyhow!("the IO worker stopped"))?;
                        }
                        Effect::RequestImage(k) => images.request(k),
                        Effect::PrefetchImage(p) => images.prefetch(p),
                        Effect::OpenExternal(p) => {
                            if let Err(e) = image::open_external(&p) {
                                state.status = Some((e, Level::Warn));
                            }
                        }
                        Effect::SavePosition { index, id } => {
                            if let Err(e) = config::save_position(
                                &dirs,
                                &opts.file,
                                &reviewer,
                                config::Position { index, id },
                            ) {
                                log::warn!("saving the position: {e}");
                            }
                        }
                        Effect::ComputeSummary => spawn_summary(&state, tx.clone()),
                        Effect::Search {
                            seq,
                            query,
                            meta,
                            within,
                        } => searcher.request(facts::SearchRequest {
                            seq,
                            query,
                            meta,
                            within,
                        }),
                        Effect::Suspend => {
                            suspend(&mut terminal)?;
                            // The terminal may have dropped transmitted images: send again.
                            images.invalidate();
                            state.image = app::ImageSlot::None;
                            state.request_image(&mut fx_after);
                        }
                        Effect::Quit => {}
                    }
                }
                fx.append(&mut fx_after);
            }
            if state.quit {
                return Ok(());
            }
            terminal.draw(|f| draw::draw(&state, f))?;
            let msg = rx
                .recv()
                .map_err(|_| anyhow::anyhow!("all workers stopped"))?;
            state.clock = Clock::now();
            fx.extend(state.update(msg));
            // Take whatever else is already waiting before drawing again.
            while let Ok(m) = rx.try_recv() {
                fx.extend(state.update(m));
                if state.quit {
                    break;
                }
            }
            let area = draw::image_area(&state, state.size.0, state.size.1);
            if area != state.image_area {
                state.image_area = area;
                state.request_image(&mut fx);
            }
        }
    })();

    // Fold the journal into the file before leaving (usually nothing is left to do).
    let (reply_tx, reply_rx) = mpsc::channel();
    let folded = if io_tx.send(worker::Req::Shutdown(reply_tx)).is_ok() {
        reply_rx
            .recv_timeout(Duration::from_secs(600))
            .unwrap_or_else(|_| Err("timed out".into()))
    } else {
        Err("the IO worker stopped".into())
    };
    drop(io_tx);
    let _ = io.join();
    restore_terminal();
    run_result?;
    let mine = state.mine.values().filter(|r| r.is_some()).count();
    match folded {
        Ok(_) => {
            println!(
                "verdict: {mine} items graded this session; every verdict is in {}",
                opts.file.display()
            );
        }
        Err(e) => {
            eprintln!(
                "verdict: your verdicts are safe in the journal {}, but {} was not updated: {e}\n\
                 Reopen the file with verdict to fold them in.",
                own_path.display(),
                opts.file.display()
            );
        }
    }
    Ok(())
}

fn find_start(state: &State, s: &str) -> Option<usize> {
    if let Ok(n) = s.parse::<usize>()
        && n >= 1
        && n <= state.len()
    {
        return Some(n - 1);
    }
    (0..state.len()).find(|&i| state.store.item(i).ok().and_then(|it| it.id).as_deref() == Some(s))
}

fn locate(state: &State, p: config::Position) -> usize {
    if p.index < state.len() {
        let id = state.store.item(p.index).ok().and_then(|it| it.id);
        if id == p.id || p.id.is_none() {
            return p.index;
        }
    }
    p.id.as_deref()
        .and_then(|id| find_start(state, id))
        .unwrap_or(p.index.min(state.len().saturating_sub(1)))
}

fn spawn_input(tx: Sender<Msg>) {
    std::thread::Builder::new()
        .name("verdict-input".into())
        .spawn(move || {
            loop {
                // Poll so a suspended session's reads stop while the shell owns the terminal.
                if SUSPENDED.load(std::sync::atomic::Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(50));
                    continue;
                }
                match event::poll(Duration::from_millis(100)) {
                    Ok(true) => {}
                    Ok(false) => continue,
                    Err(_) => return,
                }
                let msg = match event::read() {
                    Ok(Event::Key(k)) => Msg::Key(k),
                    Ok(Event::Mouse(m)) => Msg::Mouse(m),
                    Ok(Event::Paste(p)) => Msg::Paste(p),
                    Ok(Event::Resize(w, h)) => Msg::Resize(w, h),
                    Ok(_) => continue,
                    Err(_) => return,
                };
                if tx.send(msg).is_err() {
                    return;
                }
            }
        })
        .expect("spawn the input thread");
}

static SUSPENDED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn spawn_ticks(tx: Sender<Msg>) {
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

fn spawn_summary(state: &State, tx: Sender<Msg>) {
    let path = state.store.path().to_path_buf();
    std::thread::spawn(move || {
        // The summary reads the file as it is on disk plus the journal, so it includes
        // every verdict recorded so far.
        let r = crate::journal::open_with_journal(&path)
            .map_err(|e| e.to_string())
            .map(|(store, _, _)| draw::summary_value(&store));
        let _ = tx.send(Msg::Summary(r));
    });
}

fn suspend(terminal: &mut Terminal<CrosstermBackend<io::Stdout>>) -> anyhow::Result<()> {
    SUSPENDED.store(true, std::sync::atomic::Ordering::SeqCst);
    std::thread::sleep(Duration::from_millis(120));
    restore_terminal();
    #[cfg(unix)]
    unsafe {
        // SAFETY: raising SIGTSTP stops the process until the shell's `fg` sends SIGCONT.
        libc::raise(libc::SIGTSTP);
    }
    enter_terminal()?;
    terminal.clear()?;
    SUSPENDED.store(false, std::sync::atomic::Ordering::SeqCst);
    Ok(())
}

/// Logs go to a file in the data directory, never to the screen.
fn init_log(dirs: &config::Dirs) {
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
                let _ = writeln!(f, "{now} {} {}", r.level(), r.args());
            }
        }
        fn flush(&self) {}
    }
    let Some(path) = dirs.log_file() else { return };
    if let Some(d) = path.parent() {
        let _ = std::fs::create_dir_all(d);
    }
    if let Ok(f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        && log::set_boxed_logger(Box::new(FileLog(std::sync::Mutex::new(f)))).is_ok()
    {
        log::set_max_level(log::LevelFilter::Info);
    }
}
