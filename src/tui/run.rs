//! The run loop: start-up, the Elm loop (messages in, effects out, one frame per
//! batch of messages), and the way out (the fold hand-off and the exit message).

use std::io::Write;
use std::sync::mpsc;
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use super::Options;
use super::app::{Clock, Effect, Level, Msg, State};
use super::image::ProtocolChoice;
use super::start::start_images_and_input;
use super::terminal::{
    Painted, TerminalGuard, clear_screen, enter_terminal, erase_painted, erase_painted_on_exit,
    painted, restore_terminal, restore_tmux, send_kitty, suspend, terminal_out,
};
use super::theme::ThemeName;
use super::threads::{init_log, spawn_index, spawn_summary, spawn_ticks};
use super::{app, config, draw, facts, image, keymap, layout, worker};

/// Run the reviewer until the reviewer quits. Exit status 1 when the verdicts could not
/// be folded into the file (they stay in the journal, and the message says where).
pub fn run(opts: Options) -> anyhow::Result<std::process::ExitCode> {
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
    let index_cache = dirs
        .data_dir
        .as_ref()
        .map(|d| facts::cache::path_for(d, &opts.file));
    spawn_index(snapshot.clone(), 0, tx.clone(), index_cache.clone());

    let mut terminal = Terminal::new(CrosstermBackend::new(terminal_out()))?;
    let size = terminal.size()?;
    let mut state = State::new(snapshot, reviewer.clone(), keymap, theme, Clock::now());
    state.protocol_name = images.protocol_name();
    state.blind = opts.blind;
    state.auto_advance = cfg.auto_advance.unwrap_or(true);
    state.restore_session(&config::load_session(&dirs, &opts.file, &reviewer));
    state.size = (size.width, size.height);
    state.image_area = draw::image_area(&state, size.width, size.height);
    let mut notices = Vec::new();
    let start = match &opts.start {
        Some(s) => {
            let found = find_start(&state, s);
            if found.is_none() && !state.is_empty() {
                notices.push(format!(
                    "--at: no item {} (1–{} or an id): opened item 1",
                    crate::tui::text::one_line(s),
                    state.len()
                ));
            }
            found
        }
        None => config::load_position(&dirs, &opts.file, &reviewer).map(|p| locate(&state, p)),
    };
    let mut fx = state.start_at(start.unwrap_or(0));
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
    notices.extend(replay.kept_aside_notice());
    if replay.applied > 0 {
        notices.push(replay.recovered_notice());
        // They are in the journal, not yet in the file: the header says so until the fold.
        state.saved = app::SaveState::Journaled;
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
    // The picture painted over the text by the last frame (erased when it goes).
    let mut last_painted: Option<Painted> = None;
    // What the terminal shows, as the last frame drew it (cells erased behind ratatui's
    // back are sent again from it).
    let mut last_frame = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::default());
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
                && matches!(state.protocol_name, "sixel" | "iterm2" | "kitty-direct")
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
                            key,
                            reviewer,
                            review,
                        } => {
                            io_tx
                                .send(worker::Req::Record {
                                    seq,
                                    item,
                                    id,
                                    key,
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
                        Effect::Index { generation } => spawn_index(
                            state.store.clone(),
                            generation,
                            tx.clone(),
                            index_cache.clone(),
                        ),
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
            // The frame's screen, worked out once: the image is sized from it and it is
            // drawn. A changed image size asks for the image again, first.
            let screen = layout::Screen::of(&state);
            let area = screen.image_cells(&state);
            if area != state.image_area {
                state.image_area = area;
                state.request_image(&mut fx);
                continue;
            }
            let now = painted(&state, &screen);
            if now != last_painted {
                if let Some(old) = last_painted {
                    erase_painted(&mut terminal, &last_frame, old, now)?;
                }
                last_painted = now;
            }
            send_kitty(&state, &mut shown_kitty)?;
            last_frame = terminal
                .draw(|f| draw::draw_on(&state, f, &screen))?
                .buffer
                .clone();
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
        }
    })();

    // The terminal first: the screen is the shell's again at once, whatever the fold
    // below takes. Everything that writes to the terminal goes before the exit message:
    // ratatui's terminal (it shows the cursor when dropped), then the restore sequence,
    // once.
    erase_painted_on_exit(last_painted.take());
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
            opts.file.display(),
            crate::session::verdicts(aside),
            if aside == 1 { "is" } else { "are" },
            files.join(", ")
        )
    } else {
        format!("every verdict is in {}", opts.file.display())
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
                "verdict: {done} {} graded this session{part}; {every}",
                if done == 1 { "item" } else { "items" },
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
