//! The reviewer: an Elm-style loop. Input, IO, image and index workers send `Msg`s on one
//! channel; `State::update` is pure and returns effects; `draw::draw` renders the state.

pub mod app;
pub mod config;
pub mod draw;
pub mod edit;
pub mod facts;
pub mod grading;
pub mod image;
pub mod input;
pub mod keymap;
pub mod layout;
pub mod overlays;
pub mod text;
pub mod theme;
pub mod views;
pub mod worker;

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::mpsc::{self, Sender};
use std::time::Duration;

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture, Event,
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

/// Whether the terminal is in the reviewer's state (raw mode, alternate screen). The
/// restore sequence is sent once per entry: sent again after the exit message, it would
/// move the cursor back over the message (leaving the alternate screen restores the
/// cursor saved on entering it).
static ENTERED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Put tmux's `allow-passthrough` back as it was before verdict started.
fn restore_tmux() {
    if let Some(p) = PASSTHROUGH.get() {
        p.lock().unwrap_or_else(|e| e.into_inner()).restore();
    }
}

/// The terminal, for ratatui's frames and our control sequences only: text from a file
/// reaches it through `text::sanitize` (the clippy.toml lint keeps other code off it).
#[allow(clippy::disallowed_methods)]
fn terminal_out() -> io::Stdout {
    io::stdout()
}

fn restore_terminal() {
    if !ENTERED.swap(false, std::sync::atomic::Ordering::SeqCst) {
        return;
    }
    let _ = terminal::disable_raw_mode();
    let _ = execute!(
        terminal_out(),
        DisableBracketedPaste,
        DisableMouseCapture,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
}

fn enter_terminal() -> io::Result<()> {
    ENTERED.store(true, std::sync::atomic::Ordering::SeqCst);
    terminal::enable_raw_mode()?;
    execute!(
        terminal_out(),
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
        restore_tmux();
    }
}

/// Run the reviewer until the reviewer quits. Exit status 1 when the verdicts could not
/// be folded into the file (they stay in the journal, and the message says where).
pub fn run(opts: Options) -> anyhow::Result<std::process::ExitCode> {
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

    crate::session::wait_for_fold(&opts.file, &reviewer, |_| {
        let _ = crate::cli::out::errln!(
            "verdict: waiting for your last session's verdicts to be written into {}…",
            opts.file.display()
        );
    });
    let crate::session::Opened {
        store,
        own,
        stale,
        replay,
        kept_aside,
    } = crate::session::open(&opts.file, &reviewer)?;
    let own_path = own.path().to_path_buf();
    let moved = own.moved.clone();

    let (tx, rx) = mpsc::channel::<Msg>();
    let snapshot = store.clone();
    let (io_tx, io_rx) = mpsc::channel();
    let keep = worker::Keep {
        dirs: dirs.clone(),
        file: opts.file.clone(),
        reviewer: reviewer.clone(),
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
        restore_tmux();
        log::error!("panic: {info}");
        default_hook(info);
    }));
    enter_terminal()?;
    let _guard = TerminalGuard;
    let mut image_notice = None;
    let (images, input_pause) = start_images_and_input(choice, &tx, &mut image_notice)?;
    let searcher = {
        let tx = tx.clone();
        facts::SearchWorker::spawn(Box::new(move |seq, results| {
            let _ = tx.send(Msg::SearchDone { seq, results });
        }))
    };
    spawn_ticks(tx.clone());
    spawn_index(snapshot.clone(), 0, tx.clone());

    let mut terminal = Terminal::new(CrosstermBackend::new(terminal_out()))?;
    let size = terminal.size()?;
    let mut state = State::new(snapshot, reviewer.clone(), keymap, theme, Clock::now());
    state.protocol_name = images.protocol_name();
    state.blind = opts.blind;
    state.auto_advance = cfg.auto_advance.unwrap_or(true);
    state.restore_session(&config::load_session(&dirs, &opts.file, &reviewer));
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
        notices.push(format!("{} ({kept})", replay.not_applied_notice()));
        for s in replay.problems() {
            log::warn!("journal: {s}");
        }
    }
    if replay.applied > 0 {
        notices.push(replay.recovered_notice());
    }
    notices.extend(image_notice);
    if !key_problems.is_empty() {
        notices.push(format!("config keys: {}", key_problems.join("; ")));
    }
    if !notices.is_empty() {
        state.status = Some((notices.join(" · "), Level::Warn));
    }

    // The kitty image the terminal holds (freed when replaced and on exit).
    let mut shown_kitty: Option<image::KittyImage> = None;
    let run_result = (|| -> anyhow::Result<()> {
        let mut fx_after: Vec<Effect> = Vec::new();
        let mut had_overlay = false;
        loop {
            // sixel and iTerm2 images are hidden while a popup is open (they would be
            // painted over it); wipe their pixels when one opens, and redraw everything
            // when it closes (ratatui's diff would not send the image again).
            let overlay = !matches!(state.mode, app::Mode::Normal);
            // Through tmux they are also drawn again whenever tmux may have redrawn the
            // pane without them (see `image::watch_pane`).
            let pane_changed = image::take_pane_changed();
            if image::take_pane_shown() && state.protocol_name == "kitty" {
                images.invalidate();
                state.image = app::ImageSlot::None;
                state.request_image(&mut fx);
            }
            if (overlay != had_overlay || pane_changed)
                && matches!(state.protocol_name, "sixel" | "iterm2")
            {
                clear_screen(&mut terminal)?;
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
                        // Files are written by the IO worker, never on this thread.
                        Effect::SavePosition { index, id } => {
                            io_tx
                                .send(worker::Req::SavePosition(config::Position { index, id }))
                                .map_err(|_| anyhow::anyhow!("the IO worker stopped"))?;
                        }
                        Effect::ComputeSummary { seq } => spawn_summary(&state, seq, tx.clone()),
                        Effect::Index { generation } => {
                            spawn_index(state.store.clone(), generation, tx.clone())
                        }
                        Effect::SaveSession(s) => {
                            io_tx
                                .send(worker::Req::SaveSession(s))
                                .map_err(|_| anyhow::anyhow!("the IO worker stopped"))?;
                        }
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
                            suspend(&mut terminal, &input_pause)?;
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
            send_kitty(&state, &mut shown_kitty)?;
            terminal.draw(|f| draw::draw(&state, f))?;
            let msg = rx
                .recv()
                .map_err(|_| anyhow::anyhow!("all workers stopped"))?;
            state.clock = Clock::now();
            fx.extend(state.update(msg));
            // The terminal's late answer to the graphics query may have upgraded images.
            state.protocol_name = images.protocol_name();
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

    // The terminal first: the screen is the shell's again at once, whatever the fold
    // below takes. Everything that writes to the terminal goes before the exit message:
    // ratatui's terminal (it shows the cursor when dropped), then the restore sequence,
    // once.
    if let Some(k) = shown_kitty.take() {
        let mut out = terminal_out();
        let _ = out.write_all(k.delete().as_bytes());
        let _ = out.flush();
    }
    drop(terminal);
    drop(_guard);
    // Fold the journal into the file before leaving (usually nothing is left to do). Every
    // verdict is already durable in the journal; say so if the fold takes a while.
    let (reply_tx, reply_rx) = mpsc::channel();
    worker::quitting();
    let folded = if io_tx.send(worker::Req::Shutdown(reply_tx)).is_ok() {
        match reply_rx.recv_timeout(Duration::from_millis(300)) {
            Ok(r) => r,
            Err(_) => {
                let _ = crate::cli::out::errln!(
                    "verdict: writing your verdicts into {} (they are already safe in the journal)…",
                    opts.file.display()
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
    run_result?;
    // Items done this session (every required grade), and those graded in part.
    let done = state.rec.mine_done.values().filter(|d| **d).count();
    let touched = state.rec.mine.values().filter(|r| r.is_some()).count();
    let part = match touched.saturating_sub(done) {
        0 => String::new(),
        n => format!(", {n} in part"),
    };
    match folded {
        Ok(worker::Ended::Detached) => {
            crate::cli::out::outln!(
                "verdict: {done} {} graded this session{part}; every verdict is safe in the journal {} \
                 and is being written into {} in the background",
                if done == 1 { "item" } else { "items" },
                own_path.display(),
                opts.file.display()
            )?;
            Ok(std::process::ExitCode::SUCCESS)
        }
        Ok(worker::Ended::Folded(_)) => {
            crate::cli::out::outln!(
                "verdict: {done} {} graded this session{part}; every verdict is in {}",
                if done == 1 { "item" } else { "items" },
                opts.file.display()
            )?;
            Ok(std::process::ExitCode::SUCCESS)
        }
        Err(e) => {
            crate::cli::out::errln!(
                "verdict: your verdicts are safe in the journal {}, but {} was not updated: {e}\n\
                 Reopen the file with verdict to fold them in.",
                own_path.display(),
                opts.file.display()
            )?;
            Ok(std::process::ExitCode::from(1))
        }
    }
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

/// Start the image worker and the input reader, and write the graphics query for
/// `auto` (or the cell-size query for a named sixel / iTerm2 when the tty gives no pixel
/// size). Nothing waits for an answer: images start as chosen (half-blocks for `auto`)
/// and are upgraded when and if the terminal answers; replies never reach the keymap.
fn start_images_and_input(
    choice: ProtocolChoice,
    tx: &Sender<Msg>,
    notice: &mut Option<String>,
) -> anyhow::Result<(ImageWorker, input::Pause)> {
    use ratatui_image::picker::ProtocolType;
    let (mut render, _) = image::make_render(choice);
    let tmux = image::tmux_from_env();
    // tmux's passthrough: only for a protocol (or the `auto` query) that needs it, and
    // put back as it was when verdict ends.
    let passthrough = std::sync::Arc::new(std::sync::Mutex::new(image::TmuxPassthrough::default()));
    let needs_passthrough =
        tmux && (choice == ProtocolChoice::Auto || render.is_some_and(|r| r.tmux));
    let mut probe_ok = true;
    let kitty = render.is_some_and(|r| r.protocol == ProtocolType::Kitty);
    if needs_passthrough
        && let Err(e) = passthrough
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .enable(kitty)
    {
        log::warn!("{e}");
        probe_ok = false;
        if render.is_some_and(|r| r.tmux) {
            *notice = Some(e);
            render = Some(image::Render::halfblocks());
        }
    }
    if needs_passthrough
        && probe_ok
        && let Some(r) = render
            .filter(|r| r.tmux && matches!(r.protocol, ProtocolType::Sixel | ProtocolType::Iterm2))
    {
        // tmux keeps no passthrough image: say what that means (README, "Images").
        *notice = Some(format!(
            "{} via tmux: redrawn on pane changes; a tmux popup or menu over it wipes it until then",
            r.name()
        ));
    }
    // Images through passthrough follow the pane: sixel / iTerm2 are placed by its
    // position and drawn again when tmux redraws it; kitty is transmitted again when
    // the pane is shown after being hidden (tmux 3.3 drops what a hidden pane sends).
    if needs_passthrough
        && probe_ok
        && (choice == ProtocolChoice::Auto || render.is_some_and(|r| r.tmux))
    {
        let tx = tx.clone();
        image::watch_pane(Box::new(move || {
            let _ = tx.send(Msg::Tick);
        }));
    }
    let images = {
        let tx = tx.clone();
        ImageWorker::spawn(
            render,
            Box::new(move |ev| {
                let _ = tx.send(Msg::Image(ev));
            }),
        )
    };
    let query = match (choice, render) {
        (ProtocolChoice::Auto, _) => Some(image::probe_query(tmux && probe_ok)),
        (_, Some(r))
            if matches!(r.protocol, ProtocolType::Sixel | ProtocolType::Iterm2)
                && !image::font_known() =>
        {
            Some(image::cell_size_query().to_string())
        }
        _ => None,
    };
    let pause = input::Pause::default();
    {
        let tx = tx.clone();
        let handle = images.handle();
        let mut probe = image::Probe::default();
        let asked = query.is_some();
        let mut current = render;
        let mut settled_once = false;
        let passthrough = passthrough.clone();
        input::spawn(
            pause.clone(),
            move |ev| {
                let msg = match ev {
                    Event::Key(k) => Msg::Key(k),
                    Event::Mouse(m) => Msg::Mouse(m),
                    Event::Paste(p) => Msg::Paste(p),
                    Event::Resize(w, h) => Msg::Resize(w, h),
                    _ => return true,
                };
                tx.send(msg).is_ok()
            },
            move |reply| {
                if !asked {
                    return;
                }
                let closes = probe.take(&reply);
                // Inside tmux, tmux answers the status report itself, before the outer
                // terminal's kitty answer has come back: that answer upgrades whenever
                // it comes.
                let late_kitty = settled_once
                    && choice == ProtocolChoice::Auto
                    && matches!(reply, input::Reply::KittyGraphics { id: 31, ok: true });
                if (!closes || settled_once) && !late_kitty {
                    return;
                }
                settled_once = true;
                let (cols, rows) = terminal::size().unwrap_or((0, 0));
                let protocol = match (choice, render) {
                    (ProtocolChoice::Auto, _) => probe.protocol(),
                    (_, Some(r)) => r.protocol,
                    (_, None) => return,
                };
                let settled = probe.render(protocol, cols, rows, tmux);
                log::info!("terminal answered the graphics query: {settled:?}");
                if Some(settled) != current {
                    handle.reconfigure(settled);
                    current = Some(settled);
                }
                let mut pass = passthrough.lock().unwrap_or_else(|e| e.into_inner());
                if !settled.tmux {
                    pass.restore();
                } else if let Err(e) = pass.enable(settled.protocol == ProtocolType::Kitty) {
                    log::warn!("{e}");
                }
            },
        )?;
    }
    // Restored with the terminal on every way out (see `restore_tmux`).
    PASSTHROUGH
        .set(passthrough)
        .unwrap_or_else(|_| log::warn!("the tmux passthrough was set up twice"));
    let mut out = terminal_out();
    if let Some(q) = query {
        out.write_all(q.as_bytes())?;
    }
    // Clear whatever a terminal that ignores a query may have printed.
    execute!(out, terminal::Clear(terminal::ClearType::All))?;
    Ok((images, pause))
}

/// Kitty images are transmitted here, straight to the terminal before the frame, not
/// through the image's first cell (a popup covering that cell would drop the
/// transmission for good); the image it replaces is freed in the terminal.
fn send_kitty(state: &State, shown: &mut Option<image::KittyImage>) -> io::Result<()> {
    let current = match &state.image {
        app::ImageSlot::Ready(_, p)
            if matches!(**p, ratatui_image::protocol::Protocol::Kitty(_)) =>
        {
            Some(p)
        }
        _ => None,
    };
    let mut out = terminal_out();
    match current {
        Some(p) => {
            if let Some((new, seq)) = image::take_kitty_transmit(p) {
                out.write_all(seq.as_bytes())?;
                if let Some(old) = shown.replace(new)
                    && old != new
                {
                    out.write_all(old.delete().as_bytes())?;
                }
                out.flush()?;
            }
        }
        None => {
            if let Some(old) = shown.take() {
                out.write_all(old.delete().as_bytes())?;
                out.flush()?;
            }
        }
    }
    Ok(())
}

/// The tmux option to put back when the terminal is restored.
static PASSTHROUGH: std::sync::OnceLock<std::sync::Arc<std::sync::Mutex<image::TmuxPassthrough>>> =
    std::sync::OnceLock::new();

/// Clear the screen and make the next draw send every cell, without asking the terminal
/// anything (`Terminal::clear` asks for the cursor position and waits for the answer).
fn clear_screen(terminal: &mut Terminal<CrosstermBackend<io::Stdout>>) -> io::Result<()> {
    use ratatui::backend::{Backend, ClearType};
    terminal.backend_mut().clear_region(ClearType::All)?;
    // After a draw the back buffer holds what is on screen: reset it (both buffers are
    // then empty, matching the cleared screen).
    terminal.swap_buffers();
    Ok(())
}

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

/// Index every item on a worker thread; answers with `Msg::Indexed` tagged `generation`.
fn spawn_index(store: crate::store::Store, generation: u64, tx: Sender<Msg>) {
    let spawned = std::thread::Builder::new()
        .name("verdict-index".into())
        .spawn(move || {
            let total = store.len();
            let meta = facts::index_with(&store, 2, &|done| {
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

fn spawn_summary(state: &State, seq: u64, tx: Sender<Msg>) {
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

fn suspend(
    terminal: &mut Terminal<CrosstermBackend<io::Stdout>>,
    pause: &input::Pause,
) -> anyhow::Result<()> {
    pause.set(true);
    std::thread::sleep(Duration::from_millis(120));
    restore_terminal();
    #[cfg(unix)]
    unsafe {
        // SAFETY: raising SIGTSTP stops the process until the shell's `fg` sends SIGCONT.
        libc::raise(libc::SIGTSTP);
    }
    enter_terminal()?;
    clear_screen(terminal)?;
    pause.set(false);
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
