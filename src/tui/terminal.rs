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

/// The terminal was entered once (the mouse's first setting is made then).
static ENTERED_ONCE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

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
    // The screen is erased before the alternate screen is left: a terminal without one
    // (mosh) would keep the last frame, with the shell's lines written into it.
    let _ = execute!(
        terminal_out(),
        DisableBracketedPaste,
        DisableMouseCapture,
        crossterm::style::ResetColor,
        terminal::Clear(terminal::ClearType::All),
        crossterm::cursor::MoveTo(0, 0),
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
}

pub(super) fn enter_terminal() -> io::Result<()> {
    ENTERED.store(true, std::sync::atomic::Ordering::SeqCst);
    terminal::enable_raw_mode()?;
    if gnu_screen_from_env() && !ENTERED_ONCE.swap(true, std::sync::atomic::Ordering::SeqCst) {
        MOUSE_OFF.store(true, std::sync::atomic::Ordering::SeqCst);
    }
    let mut out = terminal_out();
    execute!(out, EnterAlternateScreen, EnableBracketedPaste)?;
    if !MOUSE_OFF.load(std::sync::atomic::Ordering::SeqCst) {
        execute!(out, EnableMouseCapture)?;
    }
    Ok(())
}

/// The mouse is kept off: GNU screen before 5.0 holds a lone Esc back while mouse
/// tracking is on, until the next key arrives (its reading of mouse reports waits for the
/// rest of one with no timeout; screen 5.0 gave it one), so Esc did nothing and then
/// came glued to the next key. Set under screen (`STY`) until it says it is 5.0 or
/// later, and by screen 4's answer to [`MULTIPLEXER_QUERY`] (over ssh from a screen
/// window, where `STY` is not set): see [`multiplexer_answered`].
static MOUSE_OFF: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
/// The mouse was switched on or off since the start: the loop tells the terminal.
static MOUSE_CHANGED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Running in a GNU screen window on this machine (screen sets `STY`).
fn gnu_screen_from_env() -> bool {
    std::env::var_os("STY").is_some_and(|v| !v.is_empty())
}

/// Secondary device attributes, which GNU screen answers itself (`83 ; 40900` is
/// 4.09.00) and tmux too (`84`): asked under screen, and where `TERM` names screen
/// outside tmux (over ssh from a screen or a tmux window).
pub(super) const MULTIPLEXER_QUERY: &str = "\x1b[>c";

/// Whether to ask [`MULTIPLEXER_QUERY`].
pub(super) fn ask_multiplexer() -> bool {
    let tmux = std::env::var_os("TMUX").is_some_and(|s| !s.is_empty());
    let screen_term = std::env::var("TERM").is_ok_and(|t| t.starts_with("screen"));
    !tmux && (screen_term || gnu_screen_from_env())
}

/// The answer to [`MULTIPLEXER_QUERY`] (on the input reader's thread): the mouse is off
/// under GNU screen before 5.0, on otherwise; the loop switches it at its next frame.
/// True when the answer is GNU screen before 5.0 (the reviewer is told why the mouse
/// does nothing).
pub(super) fn multiplexer_answered(attrs: &[u32]) -> bool {
    let old_screen = matches!(attrs, [83, version, ..] if *version < 50000);
    if MOUSE_OFF.swap(old_screen, std::sync::atomic::Ordering::SeqCst) != old_screen {
        MOUSE_CHANGED.store(true, std::sync::atomic::Ordering::SeqCst);
    }
    if old_screen {
        MOUSE_NOTICE.store(true, std::sync::atomic::Ordering::SeqCst);
    }
    old_screen
}

/// GNU screen before 5.0 answered: the reviewer is told once why the mouse is off.
static MOUSE_NOTICE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// What the reviewer is told when the mouse is kept off.
pub(super) const MOUSE_OFF_NOTICE: &str =
    "mouse off: GNU screen before 5.0 holds Esc back while the mouse is on";

/// Switch mouse tracking in the terminal as [`multiplexer_answered`] decided (on the
/// loop's thread, between frames). True once after GNU screen before 5.0 answered:
/// [`MOUSE_OFF_NOTICE`] is to be shown.
pub(super) fn switch_mouse_now() -> io::Result<bool> {
    if MOUSE_CHANGED.swap(false, std::sync::atomic::Ordering::SeqCst) {
        if MOUSE_OFF.load(std::sync::atomic::Ordering::SeqCst) {
            execute!(terminal_out(), DisableMouseCapture)?;
        } else {
            execute!(terminal_out(), EnableMouseCapture)?;
        }
    }
    Ok(MOUSE_NOTICE.swap(false, std::sync::atomic::Ordering::SeqCst))
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
/// placed directly): which protocol, and the cells it covers. Such pixels are not text
/// cells: some terminals keep them when text is written over them (Konsole keeps sixel
/// and iTerm2 pictures, kitty keeps a direct placement until it is deleted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Painted {
    /// The protocol's address: the same encoding drawn again is the same picture.
    pub(super) image: usize,
    /// The cells the picture covers.
    pub(super) cells: ratatui::layout::Rect,
    /// For a directly placed kitty image: the image, deleted by id.
    pub(super) kitty: Option<image::KittyImage>,
    /// Drawn through tmux's passthrough.
    pub(super) tmux: bool,
}

/// The cell size in pixels changed (a font change): the picture on screen was drawn for
/// the old one.
static CELL_SIZE_CHANGED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Say that the cell size changed and the image worker draws for the new one.
pub(super) fn cell_size_changed() {
    CELL_SIZE_CHANGED.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// Whether the cell size changed since the last call.
pub(super) fn take_cell_size_changed() -> bool {
    CELL_SIZE_CHANGED.swap(false, std::sync::atomic::Ordering::SeqCst)
}

/// Whether the terminal keeps sixel and iTerm2 pictures under text written over them
/// and under erased cells (Konsole: only a full clear or a kitty-protocol delete takes
/// them away): said by its environment or by its answer to the version query.
static KEEPS_PICTURES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The terminal named itself (XTVERSION) as one that keeps pictures under text.
pub(super) fn terminal_keeps_pictures() {
    KEEPS_PICTURES.store(true, std::sync::atomic::Ordering::SeqCst);
}

fn keeps_pictures() -> bool {
    KEEPS_PICTURES.load(std::sync::atomic::Ordering::SeqCst)
        || std::env::var_os("KONSOLE_VERSION").is_some_and(|v| !v.is_empty())
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
    // Inside the pane's border, as the item view draws it.
    let inner = ratatui::widgets::Block::bordered().inner(pane);
    let tmux = match &**p {
        ratatui_image::protocol::Protocol::Sixel(s) => s.is_tmux,
        ratatui_image::protocol::Protocol::ITerm2(i) => i.is_tmux,
        _ => false,
    };
    Some(Painted {
        image: std::sync::Arc::as_ptr(p) as usize,
        cells: image::picture_cells(p, inner),
        kitty: image::kitty_direct_image(p),
        tmux,
    })
}

/// What erases the picture `old` before a frame that does not paint it again in the
/// same place (`now`), and the cells that erases (whose text the frame must send again).
/// A kitty placement is deleted by its id (unless the new picture is the same image,
/// whose transmission replaces it). Sixel and iTerm2 pixels: the cells the picture
/// covered, and the row under them (a sixel is drawn in bands of six pixels, which may
/// reach into it), are erased (ECH: xterm, mlterm and tmux take the pixels away with the
/// cells), never the whole screen (a full clear and redraw on every picture flickers and
/// is slow over SSH). A terminal that keeps pictures under erased cells (Konsole) is
/// also told to delete every picture it shows (kitty's `a=d,d=a`, which Konsole applies
/// to sixel and iTerm2 pictures too); verdict shows one picture at a time.
pub(super) fn erase_sequence(
    old: Painted,
    now: Option<Painted>,
    screen: ratatui::layout::Rect,
    keeps_pictures: bool,
) -> (String, ratatui::layout::Rect) {
    use ratatui::layout::Rect;
    if let Some(k) = old.kitty {
        let seq = if now.and_then(|n| n.kitty) == Some(k) {
            String::new()
        } else {
            k.delete()
        };
        return (seq, Rect::default());
    }
    let cells = Rect {
        height: old.cells.height + 1,
        ..old.cells
    }
    .intersection(screen);
    let mut seq = String::from("\x1b[0m");
    for y in cells.top()..cells.bottom() {
        seq.push_str(&format!(
            "\x1b[{};{}H\x1b[{}X",
            u32::from(y) + 1,
            u32::from(cells.x) + 1,
            cells.width
        ));
    }
    if keeps_pictures {
        seq.push_str(if old.tmux {
            "\x1bPtmux;\x1b\x1b_Ga=d,d=a,q=2\x1b\x1b\\\x1b\\"
        } else {
            "\x1b_Ga=d,d=a,q=2\x1b\\"
        });
    }
    (seq, cells)
}

/// Erase the picture `old` before a frame that does not paint it again in the same
/// place (`now`), and make that frame send again the text of the cells erased
/// (`last_frame`: what the terminal shows, as the last frame drew it).
pub(super) fn erase_painted(
    terminal: &mut Terminal<CrosstermBackend<io::Stdout>>,
    last_frame: &ratatui::buffer::Buffer,
    old: Painted,
    now: Option<Painted>,
) -> io::Result<()> {
    let (seq, cells) = erase_sequence(old, now, last_frame.area, keeps_pictures());
    if seq.is_empty() {
        return Ok(());
    }
    // A directly placed kitty picture in a pane tmux does not show any more: the delete
    // through passthrough is dropped (tmux 3.3), so it goes to tmux's clients directly.
    if let Some(k) = old.kitty
        && k.tmux
        && image::pane_view().is_some_and(|p| !p.visible)
    {
        image::write_to_clients(&image::KittyImage { tmux: false, ..k }.delete());
    }
    let mut out = terminal_out();
    out.write_all(seq.as_bytes())?;
    out.flush()?;
    if !cells.is_empty() {
        forget_cells(terminal, last_frame, cells);
    }
    Ok(())
}

/// Tell ratatui that the `cells` of the screen are blank (they were erased behind its
/// back), the rest as `last_frame` drew it: the next draw sends whatever it puts there.
/// (ratatui keeps what is on screen in its previous buffer, which it does not lend out:
/// the buffers are swapped twice around a copy.)
fn forget_cells(
    terminal: &mut Terminal<CrosstermBackend<io::Stdout>>,
    last_frame: &ratatui::buffer::Buffer,
    cells: ratatui::layout::Rect,
) {
    let mut on_screen = last_frame.clone();
    for y in cells.top()..cells.bottom() {
        for x in cells.left()..cells.right() {
            if let Some(c) = on_screen.cell_mut((x, y)) {
                c.reset();
            }
        }
    }
    // After a draw: current = blank, previous = on screen. The first swap blanks the
    // previous and makes it current; it is filled; the second swap makes it previous.
    terminal.swap_buffers();
    if terminal.current_buffer_mut().area == on_screen.area {
        *terminal.current_buffer_mut() = on_screen;
    }
    terminal.swap_buffers();
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
        None => {
            let mut seq = String::from("\x1b[2J");
            if keeps_pictures() {
                seq = erase_sequence(
                    old,
                    None,
                    ratatui::layout::Rect::new(0, 0, u16::MAX, u16::MAX),
                    true,
                )
                .0 + &seq;
            }
            out.write_all(seq.as_bytes())
        }
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

/// Give the terminal to the shell until `fg` (the caller then clears the screen).
pub(super) fn suspend(pause: &input::Pause) -> anyhow::Result<()> {
    pause.set(true);
    std::thread::sleep(Duration::from_millis(120));
    restore_terminal();
    #[cfg(unix)]
    unsafe {
        // SAFETY: raising SIGTSTP stops the process until the shell's `fg` sends SIGCONT.
        libc::raise(libc::SIGTSTP);
    }
    enter_terminal()?;
    pause.set(false);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;

    fn sixel(cells: Rect, tmux: bool) -> Painted {
        Painted {
            image: 1,
            cells,
            kitty: None,
            tmux,
        }
    }

    /// A sixel or iTerm2 picture is erased cell row by cell row (and the row under it,
    /// cut at the screen's edge), never by a full clear; Konsole, which keeps pictures
    /// under erased cells, is also told to delete them (through tmux in passthrough).
    #[test]
    fn a_painted_picture_is_erased_where_it_was() {
        let screen = Rect::new(0, 0, 80, 24);
        let (seq, cells) =
            erase_sequence(sixel(Rect::new(30, 20, 10, 4), false), None, screen, false);
        assert_eq!(cells, Rect::new(30, 20, 10, 4));
        assert_eq!(
            seq,
            "\x1b[0m\x1b[21;31H\x1b[10X\x1b[22;31H\x1b[10X\x1b[23;31H\x1b[10X\x1b[24;31H\x1b[10X"
        );
        let (seq, cells) = erase_sequence(sixel(Rect::new(2, 2, 10, 3), false), None, screen, true);
        assert_eq!(cells, Rect::new(2, 2, 10, 4));
        assert!(
            seq.ends_with("\x1b[6;3H\x1b[10X\x1b_Ga=d,d=a,q=2\x1b\\"),
            "{seq:?}"
        );
        let (seq, _) = erase_sequence(sixel(Rect::new(2, 2, 10, 3), true), None, screen, true);
        assert!(
            seq.ends_with("\x1bPtmux;\x1b\x1b_Ga=d,d=a,q=2\x1b\x1b\\\x1b\\"),
            "{seq:?}"
        );
        assert!(!seq.contains("\x1b[2J"));
    }

    /// A directly placed kitty image is deleted by its id, unless the new picture is the
    /// same image (its transmission replaces the placement); no cells are erased.
    #[test]
    fn a_direct_kitty_picture_is_deleted_by_id() {
        let screen = Rect::new(0, 0, 80, 24);
        let k = image::KittyImage { id: 7, tmux: false };
        let old = Painted {
            kitty: Some(k),
            ..sixel(Rect::new(2, 2, 10, 3), false)
        };
        let (seq, cells) = erase_sequence(old, None, screen, true);
        assert_eq!((seq, cells), (k.delete(), Rect::default()));
        let moved = Painted {
            cells: Rect::new(2, 2, 20, 6),
            ..old
        };
        assert_eq!(erase_sequence(old, Some(moved), screen, false).0, "");
    }
}
