//! The terminal's state: entered and restored (raw mode, alternate screen, mouse,
//! bracketed paste, tmux's passthrough), on every way out; what is written to it
//! outside ratatui's frames (kitty transmissions, clears).

use std::io::{self, Write};
use std::time::Duration;

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::execute;
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use super::app::State;
use super::{app, image, input};

/// Whether the terminal is in the reviewer's state (raw mode, alternate screen). The
/// restore sequence is sent once per entry: sent again after the exit message, it would
/// move the cursor back over the message (leaving the alternate screen restores the
/// cursor saved on entering it).
static ENTERED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The tmux option to put back when the terminal is restored.
pub(super) static PASSTHROUGH: std::sync::OnceLock<
    std::sync::Arc<std::sync::Mutex<image::TmuxPassthrough>>,
> = std::sync::OnceLock::new();

/// Put tmux's `allow-passthrough` back as it was before verdict started.
pub(super) fn restore_tmux() {
    if let Some(p) = PASSTHROUGH.get() {
        p.lock().unwrap_or_else(|e| e.into_inner()).restore();
    }
}

/// The terminal, for ratatui's frames and our control sequences only: text from a file
/// reaches it through `text::sanitize` (the clippy.toml lint keeps other code off it).
#[allow(clippy::disallowed_methods)]
pub(super) fn terminal_out() -> io::Stdout {
    io::stdout()
}

pub(super) fn restore_terminal() {
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

pub(super) fn enter_terminal() -> io::Result<()> {
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
pub(super) struct TerminalGuard;
impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
        restore_tmux();
    }
}

/// Kitty images are transmitted here, straight to the terminal before the frame, not
/// through the image's first cell (a popup covering that cell would drop the
/// transmission for good); the image it replaces is freed in the terminal.
pub(super) fn send_kitty(state: &State, shown: &mut Option<image::KittyImage>) -> io::Result<()> {
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

/// A picture painted over the text by the terminal (sixel, iTerm2, or a kitty image
/// placed directly): which protocol, and the pane it is drawn in. Such pixels are not
/// text cells: some terminals keep them when text is written over them (Konsole keeps
/// sixel and iTerm2 pictures, kitty keeps a direct placement until it is deleted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Painted {
    /// The protocol's address: the same encoding drawn again is the same picture.
    image: usize,
    pane: ratatui::layout::Rect,
    /// For a directly placed kitty image: the image, deleted by id.
    kitty: Option<image::KittyImage>,
}

/// The picture the frame for `state` paints over the text, if any (as the item view
/// draws it: in the image pane, not while a popup is open, not while tmux hides the
/// pane).
pub(super) fn painted(state: &State, screen: &crate::tui::layout::Screen) -> Option<Painted> {
    if !matches!(state.mode, app::Mode::Normal) || screen.too_small {
        return None;
    }
    let app::ImageSlot::Ready(_, p) = &state.image else {
        return None;
    };
    if !image::paints_over_text(p) || !image::drawn_through_tmux_now(p, state.size) {
        return None;
    }
    let pane = screen.item?.image?;
    Some(Painted {
        image: std::sync::Arc::as_ptr(p) as usize,
        pane,
        kitty: image::kitty_direct_image(p),
    })
}

/// Erase the picture `old` before a frame that does not paint it again in the same
/// place (`now`: what that frame paints). A kitty placement is deleted by its id
/// (unless the new picture is the same image, whose transmission replaces it); sixel
/// and iTerm2 pixels go with a clear of the whole screen, and the frame then sends
/// every cell (xterm would erase them under new text anyway; Konsole does not).
pub(super) fn erase_painted(
    terminal: &mut Terminal<CrosstermBackend<io::Stdout>>,
    old: Painted,
    now: Option<Painted>,
) -> io::Result<()> {
    match old.kitty {
        Some(k) => {
            if now.and_then(|n| n.kitty) != Some(k) {
                let mut out = terminal_out();
                out.write_all(k.delete().as_bytes())?;
                out.flush()?;
            }
        }
        None => clear_screen(terminal)?,
    }
    Ok(())
}

/// On the way out: erase the picture still painted (before the alternate screen is
/// left, so the shell's screen never shows it).
pub(super) fn erase_painted_on_exit(old: Option<Painted>) {
    let Some(old) = old else {
        return;
    };
    let mut out = terminal_out();
    let _ = match old.kitty {
        Some(k) => out.write_all(k.delete().as_bytes()),
        None => out.write_all(b"\x1b[2J"),
    };
    let _ = out.flush();
}

/// Clear the screen and make the next draw send every cell, without asking the terminal
/// anything (`Terminal::clear` asks for the cursor position and waits for the answer).
pub(super) fn clear_screen(
    terminal: &mut Terminal<CrosstermBackend<io::Stdout>>,
) -> io::Result<()> {
    use ratatui::backend::{Backend, ClearType};
    terminal.backend_mut().clear_region(ClearType::All)?;
    // After a draw the back buffer holds what is on screen: reset it (both buffers are
    // then empty, matching the cleared screen).
    terminal.swap_buffers();
    Ok(())
}

pub(super) fn suspend(
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
