//! Starting the image worker and the input reader, and asking the terminal what it can
//! show.

use std::io::Write;
use std::sync::mpsc::Sender;

use crossterm::event::Event;
use crossterm::execute;
use crossterm::terminal::{self};

use super::app::Msg;
use super::image::{ImageWorker, ProtocolChoice};
use super::terminal::{PASSTHROUGH, terminal_out};
use super::{image, input};

/// Start the image worker and the input reader, and write the graphics query for
/// `auto` (or the cell-size query for a named sixel / iTerm2 when the tty gives no pixel
/// size). Nothing waits for an answer: images start as chosen (half-blocks for `auto`)
/// and are upgraded when and if the terminal answers; replies never reach the keymap.
pub(super) fn start_images_and_input(
    choice: ProtocolChoice,
    tx: &Sender<Msg>,
    notice: &mut Option<String>,
) -> anyhow::Result<(ImageWorker, input::Pause)> {
    let (mut render, _) = image::make_render(choice);
    let tmux = image::tmux_from_env();
    let (passthrough, probe_ok) = tmux_passthrough(choice, tmux, &mut render, tx, notice);
    // tmux maps a half-block image's colours to the terminal's: with fewer than 256
    // (`mlterm` has 8) it is a flat grey box. Say so instead, unless the outer terminal
    // answers with something better.
    let few_colours = (tmux && choice == ProtocolChoice::Auto)
        .then(image::tmux_client_colours)
        .flatten()
        .filter(|&n| n < 256);
    let off_reason = few_colours.map(few_colours_reason);
    let images = {
        let tx = tx.clone();
        ImageWorker::spawn(
            render,
            Box::new(move |ev| {
                let _ = tx.send(Msg::Image(ev));
            }),
        )
    };
    if let Some(reason) = &off_reason {
        images.handle().switch_off(reason.clone());
    }
    let passthrough_ok = tmux && probe_ok;
    let query = graphics_query(choice, render, passthrough_ok);
    let pause = input::Pause::default();
    {
        let tx = tx.clone();
        let mut replies = Replies {
            asked: query.is_some(),
            // `auto` inside tmux: tmux's own answers, then the outer terminal's.
            probe: image::Probe::new(choice == ProtocolChoice::Auto && passthrough_ok),
            current: render,
            settled_once: false,
            choice,
            render,
            tmux,
            off_reason: off_reason.clone(),
            handle: images.handle(),
            passthrough: passthrough.clone(),
        };
        // (dropped when the reader's thread unwinds: the session is told)
        let watch = super::threads::Watch::worker(tx.clone(), crate::tui::app::Worker::Input);
        let wake = tx.clone();
        input::spawn(
            pause.clone(),
            move |ev| {
                let _ = &watch;
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
                // The loop switches the mouse (and says why), or draws the picture for
                // a new cell size, at its next frame.
                let wakes = matches!(
                    reply,
                    input::Reply::SecondaryAttributes(_) | input::Reply::WindowChanged
                );
                if let input::Reply::SecondaryAttributes(attrs) = &reply {
                    super::terminal::multiplexer_answered(attrs);
                }
                replies.take(reply);
                if wakes {
                    let _ = wake.send(Msg::Tick);
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
    if super::terminal::ask_multiplexer() {
        out.write_all(super::terminal::MULTIPLEXER_QUERY.as_bytes())?;
    }
    // Clear whatever a terminal that ignores a query may have printed.
    execute!(out, terminal::Clear(terminal::ClearType::All))?;
    Ok((images, pause))
}

/// Switch tmux's passthrough on when the protocol (or the `auto` query) needs it, and
/// say what it means; watch the pane for images that follow it. The passthrough (put
/// back as it was when verdict ends), and whether it could be switched on.
fn tmux_passthrough(
    choice: ProtocolChoice,
    tmux: bool,
    render: &mut Option<image::Render>,
    tx: &Sender<Msg>,
    notice: &mut Option<String>,
) -> (Passthrough, bool) {
    use ratatui_image::picker::ProtocolType;
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
            *render = Some(image::Render::halfblocks());
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
    (passthrough, probe_ok)
}

/// tmux's passthrough, shared with the reply handler and restored on the way out.
type Passthrough = std::sync::Arc<std::sync::Mutex<image::TmuxPassthrough>>;

/// What to ask the terminal: the graphics query for `auto`, the version query for a
/// named kitty, the cell-size query for a named sixel or iTerm2 when the tty gives no
/// pixel size.
fn graphics_query(
    choice: ProtocolChoice,
    render: Option<image::Render>,
    passthrough_ok: bool,
) -> Option<String> {
    use ratatui_image::picker::ProtocolType;
    match (choice, render) {
        (ProtocolChoice::Auto, _) => Some(image::probe_query(passthrough_ok)),
        // A named kitty: is it one without Unicode placeholders?
        (_, Some(r)) if r.protocol == ProtocolType::Kitty => {
            Some(image::version_query(r.tmux).to_string())
        }
        (_, Some(r))
            if matches!(r.protocol, ProtocolType::Sixel | ProtocolType::Iterm2)
                && !image::font_known() =>
        {
            Some(image::cell_size_query().to_string())
        }
        _ => None,
    }
}

/// The terminal's answers to the graphics query: the image worker is upgraded (or its
/// images kept off) as they settle, and tmux's passthrough follows.
struct Replies {
    /// A query was written: answers are expected.
    asked: bool,
    probe: image::Probe,
    /// The render settings the worker has now.
    current: Option<image::Render>,
    /// A batch of answers has closed once.
    settled_once: bool,
    choice: ProtocolChoice,
    /// The render settings chosen at the start.
    render: Option<image::Render>,
    tmux: bool,
    /// Why half-block images are off, if they are.
    off_reason: Option<String>,
    handle: image::ImageHandle,
    passthrough: Passthrough,
}

impl Replies {
    fn take(&mut self, reply: input::Reply) {
        use ratatui_image::picker::ProtocolType;
        if reply == input::Reply::WindowChanged {
            self.cells_changed();
            return;
        }
        if !self.asked {
            return;
        }
        let closes = self.probe.take(&reply);
        if self.probe.keeps_pictures_under_text() {
            super::terminal::terminal_keeps_pictures();
        }
        // A kitty answer after a batch closed (an outer terminal that answers
        // no status report through passthrough) upgrades whenever it comes.
        let late_kitty = self.settled_once
            && self.choice == ProtocolChoice::Auto
            && matches!(reply, input::Reply::KittyGraphics { id: 31, ok: true });
        if !closes && !late_kitty {
            return;
        }
        self.settled_once = true;
        let (cols, rows) = terminal::size().unwrap_or((0, 0));
        let settled = match (self.choice, self.render) {
            (ProtocolChoice::Auto, _) => {
                self.probe
                    .render(self.probe.protocol(), cols, rows, self.tmux)
            }
            // Named kitty: only whether to place it directly.
            (_, Some(r)) if r.protocol == ProtocolType::Kitty => image::Render {
                kitty_direct: self.probe.kitty_direct(),
                ..r
            },
            (_, Some(r)) => self.probe.render(r.protocol, cols, rows, self.tmux),
            (_, None) => return,
        };
        log::info!("terminal answered the graphics query: {settled:?}");
        if settled.protocol == ProtocolType::Halfblocks
            && let Some(reason) = &self.off_reason
        {
            // Keep them off (and say why) until something better answers.
            if self
                .current
                .is_some_and(|c| c.protocol != ProtocolType::Halfblocks)
            {
                self.handle.switch_off(reason.clone());
            }
            self.current = Some(settled);
        } else if Some(settled) != self.current {
            self.handle.reconfigure(settled);
            self.current = Some(settled);
        }
        let mut pass = self.passthrough.lock().unwrap_or_else(|e| e.into_inner());
        if !settled.tmux {
            // Inside tmux, passthrough stays on until the outer terminal answered.
            if self.probe.complete() {
                pass.restore();
            }
        } else if let Err(e) =
            pass.enable(settled.protocol == ProtocolType::Kitty && !settled.kitty_direct)
        {
            log::warn!("{e}");
        }
    }
}

impl Replies {
    /// The tty's size changed (cells or pixels: a font change): pictures drawn in pixels
    /// are drawn again for the cell size the tty tells now, so that one is never larger
    /// than its pane. Where the tty tells no pixels, the size answered or assumed stays.
    fn cells_changed(&mut self) {
        use ratatui_image::picker::ProtocolType;
        let Some(current) = self.current else {
            return;
        };
        if current.protocol == ProtocolType::Halfblocks {
            return;
        }
        let Some(font) = image::cell_size_from_tty() else {
            return;
        };
        if (font.width, font.height) == (current.font.width, current.font.height) {
            return;
        }
        log::info!(
            "cell size now {}x{} px (was {}x{})",
            font.width,
            font.height,
            current.font.width,
            current.font.height
        );
        // An answer of the old font must not bring it back.
        self.probe.forget_sizes();
        let render = image::Render { font, ..current };
        self.handle.reconfigure(render);
        self.current = Some(render);
        super::terminal::cell_size_changed();
    }
}

/// Why there is no picture in tmux with fewer than 256 colours. It names no key: the
/// image line after it says which key opens the picture, from the live keymap.
fn few_colours_reason(n: u32) -> String {
    format!(
        "no picture: tmux draws with {n} colours here (half-blocks need 256) and the terminal \
         answered no sixel or kitty graphics"
    )
}

#[cfg(test)]
mod tests {
    /// The reason names no key (a literal key would be wrong once the keymap changes).
    #[test]
    fn the_few_colours_reason_names_no_key() {
        let r = super::few_colours_reason(8);
        assert!(r.contains("8 colours"), "{r}");
        assert!(!r.contains('`') && !r.contains("opens"), "{r}");
    }
}
