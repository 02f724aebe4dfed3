//! The Elm loop: carry out the effects ([`Loop::carry_out`]), draw a frame, wait for
//! messages and update, until the reviewer quits; and the terminal it draws on
//! ([`Display`]), given back on the way out.

use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use crate::tui::app::{self, Clock, Effect, Level, Msg, State};
use crate::tui::image::{self, Drawing, ImageWorker};
use crate::tui::terminal::{
    MOUSE_OFF_NOTICE, Painted, TerminalGuard, clear_screen, erase_painted, erase_painted_on_exit,
    painted, send_kitty, suspend, switch_mouse_now, take_cell_size_changed, terminal_out,
};
use crate::tui::threads::{spawn_index, spawn_locate, spawn_remap, spawn_summary};
use crate::tui::{config, draw, facts, input, layout, worker};

pub(super) type Term = Terminal<CrosstermBackend<std::io::Stdout>>;

/// The loop's ends of the channels, the workers, and the terminal.
pub(super) struct Loop {
    /// How pictures are drawn, as of the last message (the terminal's late answer to the
    /// graphics query may upgrade it).
    pub(super) drawing: Drawing,
    pub(super) tx: Sender<Msg>,
    pub(super) rx: Receiver<Msg>,
    pub(super) io_tx: Sender<worker::Req>,
    pub(super) images: ImageWorker,
    pub(super) input_pause: input::Pause,
    pub(super) searcher: facts::SearchWorker,
    pub(super) index_cache: Option<PathBuf>,
    pub(super) display: Display,
}

/// The terminal and what it shows.
pub(super) struct Display {
    pub(super) terminal: Term,
    /// The kitty image the terminal holds (freed when replaced and on exit).
    pub(super) shown_kitty: Option<image::KittyImage>,
    /// The picture painted over the text by the last frame (erased when it goes).
    pub(super) last_painted: Option<Painted>,
    /// The colours the terminal claims: every frame's 24-bit colours are mapped to them.
    pub(super) depth: crate::tui::palette::Depth,
    /// NO_COLOR: pictures in grey levels.
    pub(super) grey: bool,
    /// What the terminal shows, as the last frame drew it (cells erased behind ratatui's
    /// back are sent again from it).
    pub(super) last_frame: ratatui::buffer::Buffer,
}

impl Loop {
    /// Carry out `fx`, draw, wait for messages and update, until the reviewer quits.
    pub(super) fn run(&mut self, state: &mut State, mut fx: Vec<Effect>) -> anyhow::Result<()> {
        let mut fx_after: Vec<Effect> = Vec::new();
        let mut had_overlay = false;
        loop {
            // Pictures painted over the text are hidden while a popup is open; wipe
            // their pixels when one opens, and redraw everything when it closes
            // (ratatui's diff would not send the image again).
            let overlay = !matches!(state.mode, app::Mode::Normal);
            // Through tmux they are also drawn again whenever tmux may have redrawn the
            // pane without them (see `image::watch_pane`).
            let pane_changed = image::take_pane_changed();
            if image::take_pane_shown() && self.drawing.transmits_again_when_pane_shown() {
                self.images.invalidate();
                state.image = app::ImageSlot::None;
                state.request_image(&mut fx);
            }
            // After a font change the picture drawn for the old cell size is not drawn
            // again (it may be larger than its pane now) but asked for anew; a painted
            // one covers other cells than it did, erased by a clear.
            let font_changed = take_cell_size_changed();
            if font_changed {
                state.image = app::ImageSlot::None;
                state.request_image(&mut fx);
            }
            if (overlay != had_overlay || pane_changed || font_changed)
                && self.drawing.paints_over_text()
            {
                self.display.clear()?;
            }
            had_overlay = overlay;
            // Search's texts are handed to nucleo as soon as the index is there.
            self.searcher.index(state.meta.as_ref());
            while !fx.is_empty() {
                for e in std::mem::take(&mut fx) {
                    self.carry_out(state, e, &mut fx_after)?;
                }
                fx.append(&mut fx_after);
            }
            if state.quit {
                return Ok(());
            }
            if switch_mouse_now()? {
                state.status = Some((MOUSE_OFF_NOTICE.to_string(), Level::Info));
            }
            // The frame's screen, worked out once: the image is sized from it and it is
            // drawn. A changed image size asks for the image again, first.
            let screen = layout::Screen::of(state);
            let area = screen.image_cells(state);
            if area != state.image_area {
                state.image_area = area;
                state.request_image(&mut fx);
                continue;
            }
            self.display.draw(state, &screen)?;
            let msg = self
                .rx
                .recv()
                .map_err(|_| anyhow::anyhow!("all workers stopped"))?;
            session_goes_on(&msg)?;
            state.clock = Clock::now();
            found_now(state, &mut fx);
            fx.extend(state.update(msg));
            // The terminal's late answer to the graphics query may have upgraded images.
            self.drawing = self.images.drawing();
            state.protocol_name = self.drawing.name();
            // Take whatever else is already waiting before drawing again.
            while let Ok(m) = self.rx.try_recv() {
                session_goes_on(&m)?;
                found_now(state, &mut fx);
                fx.extend(state.update(m));
                if state.quit {
                    break;
                }
            }
        }
    }

    /// Carry out one effect of `update`; the effects that follow from it go to
    /// `fx_after`.
    fn carry_out(
        &mut self,
        state: &mut State,
        e: Effect,
        fx_after: &mut Vec<Effect>,
    ) -> anyhow::Result<()> {
        match e {
            Effect::Record {
                seq,
                item,
                id,
                content,
                index,
                reviewer,
                review,
            } => self.to_io(worker::Req::Record {
                seq,
                // (a folder's set: its file, and its index there)
                part: state.store.part_number(item),
                item: state.store.part(item).1,
                id,
                content,
                index,
                reviewer,
                review,
            })?,
            Effect::RequestImage(k) => self.images.request(k),
            Effect::PrefetchImage(p) => self.images.prefetch(p),
            Effect::OpenExternal(p) => {
                if let Err(e) = image::open_external(&p) {
                    state.status = Some((e, Level::Warn));
                }
            }
            // Files are written by the IO worker, never on this thread.
            Effect::SavePosition { index, id } => {
                self.to_io(worker::Req::SavePosition(config::Position { index, id }))?
            }
            Effect::ComputeSummary { seq } => spawn_summary(state, seq, self.tx.clone()),
            Effect::Index { generation } => spawn_index(
                state.store.clone(),
                generation,
                self.tx.clone(),
                self.index_cache.clone(),
            ),
            Effect::SaveSession(s) => self.to_io(worker::Req::SaveSession(s))?,
            Effect::Locate { seq, wanted, meta } => spawn_locate(
                state.store.clone(),
                (seq, wanted, meta),
                state.reviewer.clone(),
                self.tx.clone(),
            ),
            Effect::Remap { seq, job } => spawn_remap(seq, job, self.tx.clone()),
            Effect::Release(what) => {
                // (freed here if no thread can be started)
                let _ = std::thread::Builder::new()
                    .name("verdict-release".into())
                    .spawn(move || drop(what));
            }
            Effect::Search {
                seq,
                query,
                meta,
                within,
            } => self.searcher.request(facts::SearchRequest {
                seq,
                query,
                meta,
                within,
            }),
            Effect::Suspend => {
                suspend(&self.input_pause)?;
                self.display.clear()?;
                // The terminal may have dropped transmitted images: send again.
                self.images.invalidate();
                state.image = app::ImageSlot::None;
                state.request_image(fx_after);
            }
            Effect::Quit => {}
        }
        Ok(())
    }

    /// Hand `req` to the IO worker.
    fn to_io(&self, req: worker::Req) -> anyhow::Result<()> {
        self.io_tx.send(req).map_err(|_| io_stopped())
    }
}

/// The IO worker is gone (its panic is in the log): what is safe.
fn io_stopped() -> anyhow::Error {
    anyhow::anyhow!(
        "the thread that records verdicts stopped on an error (see the log): every verdict \
         shown as recorded is in the journal and is read again at the next open"
    )
}

/// An error when `msg` says a thread the session cannot go on without stopped (its
/// panic is in the log): the IO worker, which records the verdicts, or the terminal's
/// reader. The reviewer then gets the shell back with why, and what is safe.
fn session_goes_on(msg: &Msg) -> anyhow::Result<()> {
    match msg {
        Msg::WorkerFailed(app::Worker::Io) => Err(io_stopped()),
        Msg::WorkerFailed(app::Worker::Input) => Err(anyhow::anyhow!(
            "reading the terminal stopped on an error (see the log): every verdict shown as \
             recorded is kept"
        )),
        _ => Ok(()),
    }
}

/// Tell the state how many items the file's read has found, when that changed since it
/// was last told (`Msg::Found`): `update` never reads the scan going on beside it.
fn found_now(state: &mut State, fx: &mut Vec<Effect>) {
    let now = app::Found::of(&state.store);
    if now != state.found {
        fx.extend(state.update(Msg::Found(now)));
    }
}

impl Display {
    /// Clear the screen and make the next frame send every cell: what the terminal shows
    /// is blank now, and so is the last frame the next one is compared with (a picture
    /// erased later must not bring back the cells the clear took away). A picture
    /// painted over the text went with the clear, but for a directly placed kitty image,
    /// still deleted by its id when it goes.
    fn clear(&mut self) -> anyhow::Result<()> {
        clear_screen(&mut self.terminal)?;
        self.last_frame = ratatui::buffer::Buffer::empty(self.last_frame.area);
        self.last_painted = self.last_painted.filter(|p| p.kitty.is_some());
        Ok(())
    }

    /// Draw the frame on `screen`: erase the picture painted over the text when it goes,
    /// send the kitty image, draw the cells.
    fn draw(&mut self, state: &State, screen: &layout::Screen) -> anyhow::Result<()> {
        let now = painted(state, screen);
        if now != self.last_painted {
            if let Some(old) = self.last_painted {
                erase_painted(&mut self.terminal, &self.last_frame, old, now)?;
            }
            self.last_painted = now;
        }
        send_kitty(state, &mut self.shown_kitty)?;
        let (depth, grey) = (self.depth, self.grey);
        self.last_frame = self
            .terminal
            .draw(|f| {
                draw::draw_on(state, f, screen);
                depth.map_buffer(f.buffer_mut(), grey);
            })?
            .buffer
            .clone();
        Ok(())
    }

    /// Give the terminal back: the picture painted over the text erased, the kitty image
    /// freed, ratatui's terminal dropped (it shows the cursor), then the restore sequence.
    pub(super) fn give_back(mut self, guard: TerminalGuard) {
        // The terminal first: the screen is the shell's again at once, whatever the fold
        // after it takes. Everything that writes to the terminal goes before the exit
        // message: ratatui's terminal (it shows the cursor when dropped), then the
        // restore sequence, once.
        erase_painted_on_exit(self.last_painted.take());
        if let Some(k) = self.shown_kitty.take() {
            let mut out = terminal_out();
            let _ = out.write_all(k.delete().as_bytes());
            let _ = out.flush();
        }
        drop(self.terminal);
        drop(guard);
    }
}
