//! Terminal input: the bytes the terminal sends are read here (not by crossterm) and
//! split into keys, mouse events and pastes on one side, and the terminal's replies to
//! queries on the other. A reply is never turned into keys, whenever it arrives: late
//! answers to the start-up graphics query (`ESC _ G … ESC \`), device attributes
//! (`CSI ? … c`), window reports (`CSI … t`), status and cursor reports (`CSI … n`,
//! `CSI … R`), mode reports (`CSI ? … $ y`), keyboard-protocol reports (`CSI ? … u`) and
//! every string sequence (APC, DCS, OSC, PM, SOS) are recognised and dropped (the ones
//! the image query asks for are handed on as [`Reply`]).
//!
//! The byte grammar follows xterm's "Control Sequences" document; keys are turned into
//! the same crossterm events crossterm itself would produce, so the keymap is unchanged.
//! Two consequences of putting replies first: `Alt` + `P`, `]`, `_`, `^` or `X` are never
//! keys (they are how string sequences start), and `CSI 1 ; m R` (a modified F3 in some
//! terminals) is read as the cursor report it also spells.

use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

/// A reply from the terminal to a query (never a key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The kitty graphics protocol answered query image `id`: `OK` or an error.
    KittyGraphics { id: u32, ok: bool },
    /// Primary device attributes (`CSI ? Ps ; … c`): the attribute numbers (4 = sixel).
    DeviceAttributes(Vec<u32>),
    /// `CSI 6 ; height ; width t`: the size of one cell in pixels.
    CellSize { width: u16, height: u16 },
    /// `CSI 4 ; height ; width t`: the size of the text area in pixels.
    WindowPixels { width: u16, height: u16 },
    /// `CSI 0 n`: "terminal OK", the answer to the last query of a batch.
    StatusOk,
    /// Anything else a terminal sends unasked or in reply (dropped).
    Other,
}

/// What the decoder found in the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Event(Event),
    Reply(Reply),
}

/// Unterminated string sequences longer than this are dropped (a reply never is).
const MAX_STRING: usize = 1 << 20;

/// Splits terminal input bytes into [`Input`]s. Feed it bytes as they arrive; an
/// incomplete sequence at the end waits for more bytes, or for [`Decoder::flush`]
/// when the terminal has gone quiet.
#[derive(Default)]
pub struct Decoder {
    buf: Vec<u8>,
}

enum Step {
    /// Not enough bytes yet.
    Incomplete,
    /// `n` bytes consumed, producing maybe an input.
    Done(usize, Option<Input>),
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// Add bytes; return every complete input in them.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Input> {
        self.buf.extend_from_slice(bytes);
        self.drain(false)
    }

    /// Whether an incomplete sequence is waiting for more bytes.
    pub fn pending(&self) -> bool {
        !self.buf.is_empty()
    }

    /// The terminal went quiet with an incomplete sequence: a lone `ESC` is the Esc key,
    /// `ESC` + an incomplete key sequence is dropped, and an unterminated string or
    /// reply is dropped (never typed).
    pub fn flush(&mut self) -> Vec<Input> {
        self.drain(true)
    }

    fn drain(&mut self, quiet: bool) -> Vec<Input> {
        let mut out = Vec::new();
        let mut at = 0;
        while at < self.buf.len() {
            match step(&self.buf[at..], quiet) {
                Step::Done(n, input) => {
                    at += n.max(1);
                    out.extend(input);
                }
                Step::Incomplete if quiet => {
                    // Whatever is left is an unfinished sequence: drop it whole.
                    at = self.buf.len();
                }
                Step::Incomplete => {
                    if self.buf.len() - at > MAX_STRING {
                        at = self.buf.len();
                    }
                    break;
                }
            }
        }
        self.buf.drain(..at);
        out
    }
}

fn key(code: KeyCode, modifiers: KeyModifiers) -> Option<Input> {
    Some(Input::Event(Event::Key(KeyEvent::new_with_kind(
        code,
        modifiers,
        KeyEventKind::Press,
    ))))
}

fn reply(r: Reply) -> Option<Input> {
    Some(Input::Reply(r))
}

/// One input from the start of `b`. `quiet`: no more bytes are coming soon.
fn step(b: &[u8], quiet: bool) -> Step {
    match b[0] {
        0x1b => escape(b, quiet),
        b'\r' => Step::Done(1, key(KeyCode::Enter, KeyModifiers::NONE)),
        b'\t' => Step::Done(1, key(KeyCode::Tab, KeyModifiers::NONE)),
        0x7f => Step::Done(1, key(KeyCode::Backspace, KeyModifiers::NONE)),
        0 => Step::Done(1, key(KeyCode::Char(' '), KeyModifiers::CONTROL)),
        c @ 0x01..=0x1a => Step::Done(
            1,
            key(KeyCode::Char((c - 1 + b'a') as char), KeyModifiers::CONTROL),
        ),
        c @ 0x1c..=0x1f => Step::Done(
            1,
            key(
                KeyCode::Char((c - 0x1c + b'4') as char),
                KeyModifiers::CONTROL,
            ),
        ),
        _ => match utf8_char(b) {
            None => Step::Incomplete,
            Some((n, None)) => Step::Done(n, None),
            Some((n, Some(c))) => {
                let m = if c.is_uppercase() {
                    KeyModifiers::SHIFT
                } else {
                    KeyModifiers::NONE
                };
                Step::Done(n, key(KeyCode::Char(c), m))
            }
        },
    }
}

/// The UTF-8 character at the start of `b`: `None` if incomplete, `Some((n, None))` for
/// `n` invalid bytes.
fn utf8_char(b: &[u8]) -> Option<(usize, Option<char>)> {
    let need = match b[0] {
        0x00..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return Some((1, None)),
    };
    if b.len() < need {
        // Incomplete, unless the bytes so far are already invalid.
        if b[1..].iter().any(|&c| c & 0xc0 != 0x80) {
            return Some((1, None));
        }
        return None;
    }
    match std::str::from_utf8(&b[..need]) {
        Ok(s) => Some((need, s.chars().next())),
        Err(_) => Some((1, None)),
    }
}

fn escape(b: &[u8], quiet: bool) -> Step {
    if b.len() == 1 {
        return if quiet {
            Step::Done(1, key(KeyCode::Esc, KeyModifiers::NONE))
        } else {
            Step::Incomplete
        };
    }
    match b[1] {
        b'[' => csi(b),
        b'O' => ss3(b),
        // String sequences: OSC, DCS, APC, PM, SOS. Always replies or noise, never keys.
        b']' | b'P' | b'_' | b'^' | b'X' => string(b),
        0x1b => Step::Done(1, key(KeyCode::Esc, KeyModifiers::NONE)),
        _ => match step(&b[1..], quiet) {
            Step::Incomplete => Step::Incomplete,
            Step::Done(n, Some(Input::Event(Event::Key(mut k)))) => {
                k.modifiers |= KeyModifiers::ALT;
                Step::Done(n + 1, Some(Input::Event(Event::Key(k))))
            }
            Step::Done(n, other) => Step::Done(n + 1, other),
        },
    }
}

/// A string sequence `ESC x … ST` (ST = `ESC \`; OSC may also end with BEL).
fn string(b: &[u8]) -> Step {
    let osc = b[1] == b']';
    let mut i = 2;
    while i < b.len() {
        match b[i] {
            0x07 if osc => return Step::Done(i + 1, reply(parse_string(&b[1..i]))),
            0x1b => {
                if i + 1 >= b.len() {
                    return Step::Incomplete;
                }
                // ESC \ ends it; any other ESC inside a reply is malformed: end there too
                // (the ESC starts the next sequence).
                if b[i + 1] == b'\\' {
                    return Step::Done(i + 2, reply(parse_string(&b[1..i])));
                }
                return Step::Done(i, reply(Reply::Other));
            }
            0x18 | 0x1a => return Step::Done(i + 1, reply(Reply::Other)), // CAN, SUB
            _ => i += 1,
        }
    }
    Step::Incomplete
}

/// `body` is the string sequence without `ESC` and without its terminator.
fn parse_string(body: &[u8]) -> Reply {
    // Kitty graphics: `_Gi=31;OK` (keys, then `;`, then the message).
    if let Some(rest) = body.strip_prefix(b"_G") {
        let text = String::from_utf8_lossy(rest);
        let (keys, message) = text.split_once(';').unwrap_or((&text, ""));
        let id = keys
            .split(',')
            .find_map(|kv| kv.strip_prefix("i="))
            .and_then(|v| v.parse().ok());
        if let Some(id) = id {
            return Reply::KittyGraphics {
                id,
                ok: message == "OK",
            };
        }
    }
    Reply::Other
}

fn ss3(b: &[u8]) -> Step {
    if b.len() < 3 {
        return Step::Incomplete;
    }
    let code = match b[2] {
        b'A' => KeyCode::Up,
        b'B' => KeyCode::Down,
        b'C' => KeyCode::Right,
        b'D' => KeyCode::Left,
        b'H' => KeyCode::Home,
        b'F' => KeyCode::End,
        c @ b'P'..=b'S' => KeyCode::F(1 + c - b'P'),
        _ => return Step::Done(3, None),
    };
    Step::Done(3, key(code, KeyModifiers::NONE))
}

fn csi(b: &[u8]) -> Step {
    // Legacy X10 mouse: CSI M Cb Cx Cy (three raw bytes).
    if b.get(2) == Some(&b'M') {
        if b.len() < 6 {
            return Step::Incomplete;
        }
        let ev = mouse(
            u16::from(b[3].saturating_sub(32)),
            u16::from(b[4].saturating_sub(32)),
            u16::from(b[5].saturating_sub(32)),
            false,
        );
        return Step::Done(6, ev);
    }
    // Linux console F1-F5: CSI [ A..E.
    if b.get(2) == Some(&b'[') {
        if b.len() < 4 {
            return Step::Incomplete;
        }
        return Step::Done(
            4,
            match b[3] {
                c @ b'A'..=b'E' => key(KeyCode::F(1 + c - b'A'), KeyModifiers::NONE),
                _ => None,
            },
        );
    }
    // Parameters 0x30-0x3F, intermediates 0x20-0x2F, final 0x40-0x7E.
    let mut i = 2;
    while i < b.len() && (0x30..=0x3f).contains(&b[i]) {
        i += 1;
    }
    let params_end = i;
    while i < b.len() && (0x20..=0x2f).contains(&b[i]) {
        i += 1;
    }
    if i >= b.len() {
        return Step::Incomplete;
    }
    let fin = b[i];
    if !(0x40..=0x7e).contains(&fin) {
        // Not a CSI sequence after all: drop the introducer, read the rest again.
        return Step::Done(i, None);
    }
    let params = &b[2..params_end];
    let inter = &b[params_end..i];
    let n = i + 1;
    if params == b"200" && fin == b'~' {
        return paste(b, n);
    }
    Step::Done(n, csi_input(params, inter, fin))
}

fn paste(b: &[u8], start: usize) -> Step {
    const END: &[u8] = b"\x1b[201~";
    match b[start..].windows(END.len()).position(|w| w == END) {
        Some(p) => {
            let text = String::from_utf8_lossy(&b[start..start + p]).into_owned();
            Step::Done(
                start + p + END.len(),
                Some(Input::Event(Event::Paste(text))),
            )
        }
        None => Step::Incomplete,
    }
}

fn numbers(params: &[u8]) -> Vec<Option<u32>> {
    String::from_utf8_lossy(params)
        .split(';')
        .map(|p| p.split(':').next().and_then(|n| n.parse().ok()))
        .collect()
}

fn modifiers(mask: u32) -> KeyModifiers {
    let m = mask.saturating_sub(1);
    let mut out = KeyModifiers::empty();
    for (bit, flag) in [
        (1, KeyModifiers::SHIFT),
        (2, KeyModifiers::ALT),
        (4, KeyModifiers::CONTROL),
        (8, KeyModifiers::SUPER),
        (16, KeyModifiers::HYPER),
        (32, KeyModifiers::META),
    ] {
        if m & bit != 0 {
            out |= flag;
        }
    }
    out
}

fn csi_input(params: &[u8], inter: &[u8], fin: u8) -> Option<Input> {
    let private = params
        .first()
        .copied()
        .filter(|c| matches!(c, b'<' | b'=' | b'>' | b'?'));
    // Replies: DA1 `?…c`, DA2 `>…c`, DECRPM `?…$y`, `?…u`, `?…n`, and everything whose
    // final byte only ever ends a report.
    if private == Some(b'?') && fin == b'c' {
        let attrs = numbers(&params[1..]).into_iter().flatten().collect();
        return reply(Reply::DeviceAttributes(attrs));
    }
    if matches!(private, Some(b'?' | b'>' | b'='))
        || !inter.is_empty()
        || matches!(fin, b'c' | b't' | b'n' | b'R' | b'I' | b'O' | b'x' | b'y')
    {
        let nums = numbers(params);
        return reply(match (fin, nums.as_slice()) {
            (b't', [Some(6), Some(h), Some(w)]) if *w > 0 && *h > 0 => Reply::CellSize {
                width: u16::try_from(*w).unwrap_or(u16::MAX),
                height: u16::try_from(*h).unwrap_or(u16::MAX),
            },
            (b't', [Some(4), Some(h), Some(w)]) if *w > 0 && *h > 0 => Reply::WindowPixels {
                width: u16::try_from(*w).unwrap_or(u16::MAX),
                height: u16::try_from(*h).unwrap_or(u16::MAX),
            },
            (b'n', [Some(0)]) if private.is_none() => Reply::StatusOk,
            _ => Reply::Other,
        });
    }
    if private == Some(b'<') {
        // SGR mouse: CSI < Cb ; Cx ; Cy M|m
        let n = numbers(&params[1..]);
        if let [Some(cb), Some(x), Some(y)] = n[..] {
            let cb = u16::try_from(cb).ok()?;
            return mouse(
                cb,
                u16::try_from(x).ok()?,
                u16::try_from(y).ok()?,
                fin == b'm',
            );
        }
        return None;
    }
    let n = numbers(params);
    let mods = n
        .get(1)
        .copied()
        .flatten()
        .map_or(KeyModifiers::NONE, modifiers);
    let code = match fin {
        b'A' => KeyCode::Up,
        b'B' => KeyCode::Down,
        b'C' => KeyCode::Right,
        b'D' => KeyCode::Left,
        b'H' => KeyCode::Home,
        b'F' => KeyCode::End,
        b'P' => KeyCode::F(1),
        b'Q' => KeyCode::F(2),
        b'S' => KeyCode::F(4),
        b'Z' => return key(KeyCode::BackTab, KeyModifiers::SHIFT | mods),
        b'M' => {
            // urxvt mouse: CSI Cb ; Cx ; Cy M
            if let [Some(cb), Some(x), Some(y)] = n[..] {
                return mouse(
                    u16::try_from(cb.saturating_sub(32)).ok()?,
                    u16::try_from(x).ok()?,
                    u16::try_from(y).ok()?,
                    false,
                );
            }
            return None;
        }
        b'~' => match n.first().copied().flatten()? {
            1 | 7 => KeyCode::Home,
            2 => KeyCode::Insert,
            3 => KeyCode::Delete,
            4 | 8 => KeyCode::End,
            5 => KeyCode::PageUp,
            6 => KeyCode::PageDown,
            v @ 11..=15 => KeyCode::F((v - 10) as u8),
            v @ 17..=21 => KeyCode::F((v - 11) as u8),
            v @ 23..=26 => KeyCode::F((v - 12) as u8),
            v @ 28..=29 => KeyCode::F((v - 15) as u8),
            v @ 31..=34 => KeyCode::F((v - 17) as u8),
            _ => return None,
        },
        b'u' => {
            // CSI codepoint ; modifiers u
            let c = char::from_u32(n.first().copied().flatten()?)?;
            let code = match c {
                '\r' => KeyCode::Enter,
                '\t' => KeyCode::Tab,
                '\x1b' => KeyCode::Esc,
                '\x7f' => KeyCode::Backspace,
                c if !c.is_control() => KeyCode::Char(c),
                _ => return None,
            };
            return key(code, mods);
        }
        _ => return None,
    };
    key(code, mods)
}

/// A mouse report (1-based cells, as the terminal sends them).
fn mouse(cb: u16, x: u16, y: u16, release: bool) -> Option<Input> {
    let button = (cb & 0b11) | ((cb & 0b1100_0000) >> 4);
    let drag = cb & 0b10_0000 != 0;
    let b = |n| match n {
        0 => Some(MouseButton::Left),
        1 => Some(MouseButton::Middle),
        2 => Some(MouseButton::Right),
        _ => None,
    };
    let kind = match (button, drag) {
        (0..=2, false) if release => MouseEventKind::Up(b(button)?),
        (0..=2, false) => MouseEventKind::Down(b(button)?),
        (0..=2, true) => MouseEventKind::Drag(b(button)?),
        (3, false) => MouseEventKind::Up(MouseButton::Left),
        (3..=5, true) => MouseEventKind::Moved,
        (4, false) => MouseEventKind::ScrollUp,
        (5, false) => MouseEventKind::ScrollDown,
        (6, false) => MouseEventKind::ScrollLeft,
        (7, false) => MouseEventKind::ScrollRight,
        _ => return None,
    };
    let mut modifiers = KeyModifiers::empty();
    if cb & 4 != 0 {
        modifiers |= KeyModifiers::SHIFT;
    }
    if cb & 8 != 0 {
        modifiers |= KeyModifiers::ALT;
    }
    if cb & 16 != 0 {
        modifiers |= KeyModifiers::CONTROL;
    }
    Some(Input::Event(Event::Mouse(MouseEvent {
        kind,
        column: x.saturating_sub(1),
        row: y.saturating_sub(1),
        modifiers,
    })))
}

/// How long a lone `ESC` waits for the rest of a sequence before it is the Esc key.
const ESC_WAIT: Duration = Duration::from_millis(25);
/// How long an unfinished reply or string waits for its end before it is dropped.
const STRING_WAIT: Duration = Duration::from_millis(500);

/// Pauses the reader while the shell owns the terminal (Ctrl-Z).
#[derive(Clone, Default)]
pub struct Pause(Arc<AtomicBool>);

impl Pause {
    pub fn set(&self, paused: bool) {
        self.0.store(paused, Ordering::SeqCst);
    }
    fn get(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

/// The terminal's input: stdin if it is a terminal, else `/dev/tty`.
fn input_fd() -> io::Result<(RawFd, Option<std::fs::File>)> {
    // SAFETY: isatty only inspects the descriptor.
    if unsafe { libc::isatty(0) } == 1 {
        return Ok((0, None));
    }
    let tty = std::fs::File::open("/dev/tty")?;
    Ok((tty.as_raw_fd(), Some(tty)))
}

/// Read the terminal on a thread named `verdict-input`: events go to `on_event`, replies
/// to `on_reply`, a changed window size is reported as `Event::Resize`. The thread ends
/// when `on_event` returns false or the terminal is gone.
pub fn spawn(
    pause: Pause,
    mut on_event: impl FnMut(Event) -> bool + Send + 'static,
    mut on_reply: impl FnMut(Reply) + Send + 'static,
) -> io::Result<()> {
    let (fd, keep) = input_fd()?;
    let (winch_rx, winch_tx) = std::os::unix::net::UnixStream::pair()?;
    winch_rx.set_nonblocking(true)?;
    signal_hook::low_level::pipe::register(libc::SIGWINCH, winch_tx)?;
    std::thread::Builder::new()
        .name("verdict-input".into())
        .spawn(move || {
            let _keep = keep;
            let mut decoder = Decoder::new();
            let mut last_byte = Instant::now();
            let mut size = crossterm::terminal::size().ok();
            let mut buf = [0u8; 8192];
            loop {
                if pause.get() {
                    std::thread::sleep(Duration::from_millis(50));
                    continue;
                }
                let wait = if !decoder.pending() {
                    100
                } else if decoder.buf == [0x1b] {
                    ESC_WAIT.as_millis() as i32
                } else {
                    50
                };
                let mut fds = [
                    libc::pollfd {
                        fd,
                        events: libc::POLLIN,
                        revents: 0,
                    },
                    libc::pollfd {
                        fd: winch_rx.as_raw_fd(),
                        events: libc::POLLIN,
                        revents: 0,
                    },
                ];
                // SAFETY: two valid pollfd structs for the duration of the call.
                let ready = unsafe { libc::poll(fds.as_mut_ptr(), 2, wait) };
                if ready < 0 {
                    if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                        continue;
                    }
                    return;
                }
                let mut inputs = Vec::new();
                if fds[0].revents & libc::POLLIN != 0 {
                    // SAFETY: reading into a buffer we own, at most its length.
                    let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
                    if n <= 0 {
                        if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
                        {
                            continue;
                        }
                        return;
                    }
                    last_byte = Instant::now();
                    inputs = decoder.feed(&buf[..n as usize]);
                } else if fds[0].revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
                    return;
                } else if decoder.pending() {
                    let quiet = if decoder.buf == [0x1b] {
                        ESC_WAIT
                    } else {
                        STRING_WAIT
                    };
                    if last_byte.elapsed() >= quiet {
                        inputs = decoder.flush();
                    }
                }
                if fds[1].revents & libc::POLLIN != 0 {
                    let mut sink = [0u8; 64];
                    while std::io::Read::read(&mut &winch_rx, &mut sink).is_ok_and(|n| n > 0) {}
                }
                // Resizes: on SIGWINCH, and checked on every wake-up (cheap) in case a
                // signal was missed.
                let now = crossterm::terminal::size().ok();
                if now != size
                    && let Some((w, h)) = now
                {
                    size = now;
                    inputs.push(Input::Event(Event::Resize(w, h)));
                }
                for input in inputs {
                    match input {
                        Input::Event(ev) => {
                            if !on_event(ev) {
                                return;
                            }
                        }
                        Input::Reply(r) => on_reply(r),
                    }
                }
            }
        })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(inputs: &[Input]) -> Vec<String> {
        inputs
            .iter()
            .map(|i| match i {
                Input::Event(Event::Key(k)) => {
                    let mut s = String::new();
                    if k.modifiers.contains(KeyModifiers::CONTROL) {
                        s.push_str("C-");
                    }
                    if k.modifiers.contains(KeyModifiers::ALT) {
                        s.push_str("M-");
                    }
                    match k.code {
                        KeyCode::Char(c) => s.push(c),
                        other => s.push_str(&format!("{other:?}")),
                    }
                    s
                }
                other => format!("{other:?}"),
            })
            .collect()
    }

    fn decode(bytes: &[u8]) -> Vec<Input> {
        let mut d = Decoder::new();
        let mut out = d.feed(bytes);
        out.extend(d.flush());
        out
    }

    #[test]
    fn replies_are_never_keys() {
        let all = [
            &b"\x1b_Gi=31;OK\x1b\\"[..],
            b"\x1b_Gi=32;EINVAL:bad\x1b\\",
            b"\x1b[?62;4;22c",
            b"\x1b[>1;4000;0c",
            b"\x1b[6;20;10t",
            b"\x1b[4;480;800t",
            b"\x1b[8;24;80t",
            b"\x1b[12;40R",
            b"\x1b[0n",
            b"\x1b[3n",
            b"\x1b[?1;2c",
            b"\x1b]11;rgb:0000/0000/0000\x07",
            b"\x1b]10;rgb:ffff/ffff/ffff\x1b\\",
            b"\x1bP>|XTerm(390)\x1b\\",
            b"\x1bP1$r0m\x1b\\",
            b"\x1b^privacy\x1b\\",
            b"\x1bXsos\x1b\\",
            b"\x1b[?2004;1$y",
            b"\x1b[?0u",
            b"\x1b[I",
            b"\x1b[O",
        ];
        for r in all {
            let out = decode(r);
            assert!(
                out.iter().all(|i| matches!(i, Input::Reply(_))),
                "{:?} gave {out:?}",
                String::from_utf8_lossy(r)
            );
            // Split at every byte: still no key.
            for cut in 1..r.len() {
                let mut d = Decoder::new();
                let mut out = d.feed(&r[..cut]);
                out.extend(d.feed(&r[cut..]));
                assert!(
                    out.iter().all(|i| matches!(i, Input::Reply(_))),
                    "{:?} cut at {cut} gave {out:?}",
                    String::from_utf8_lossy(r)
                );
            }
        }
    }

    #[test]
    fn the_probe_answers_are_understood() {
        let out = decode(b"\x1b_Gi=31;OK\x1b\\\x1b[?62;4;22c\x1b[6;20;10t\x1b[0n");
        assert_eq!(
            out,
            vec![
                Input::Reply(Reply::KittyGraphics { id: 31, ok: true }),
                Input::Reply(Reply::DeviceAttributes(vec![62, 4, 22])),
                Input::Reply(Reply::CellSize {
                    width: 10,
                    height: 20
                }),
                Input::Reply(Reply::StatusOk),
            ]
        );
        assert_eq!(
            decode(b"\x1b_Gi=32;ENOTSUPPORTED:x\x1b\\"),
            vec![Input::Reply(Reply::KittyGraphics { id: 32, ok: false })]
        );
    }

    #[test]
    fn keys_around_replies_are_kept_in_order() {
        let out = decode(b"j\x1b_Gi=31;OK\x1b\\k\x1b[0nq");
        assert_eq!(
            keys(&out),
            [
                "j",
                "Reply(KittyGraphics { id: 31, ok: true })",
                "k",
                "Reply(StatusOk)",
                "q"
            ]
        );
    }

    #[test]
    fn keys_decode_like_crossterm() {
        let out = decode(b"aG\r\t\x7f\x03\x1b[A\x1b[1;5C\x1b[5~\x1b[6~\x1b[Z\x1bOP\x1b[3~\x1b[H\x1b[4~\x1bx\xc3\xa9\x1b\r");
        assert_eq!(
            keys(&out),
            [
                "a",
                "G",
                "Enter",
                "Tab",
                "Backspace",
                "C-c",
                "Up",
                "C-Right",
                "PageUp",
                "PageDown",
                "BackTab",
                "F(1)",
                "Delete",
                "Home",
                "End",
                "M-x",
                "é",
                "M-Enter"
            ]
        );
        // A lone ESC is the Esc key once the terminal is quiet.
        let mut d = Decoder::new();
        assert!(d.feed(b"\x1b").is_empty());
        assert_eq!(keys(&d.flush()), ["Esc"]);
        // Split sequences wait for their end.
        let mut d = Decoder::new();
        assert!(d.feed(b"\x1b[").is_empty());
        assert_eq!(keys(&d.feed(b"B")), ["Down"]);
    }

    #[test]
    fn mouse_and_paste() {
        let out = decode(b"\x1b[<0;5;3M\x1b[<64;1;1M\x1b[200~hi \x1b[A there\x1b[201~");
        assert_eq!(
            out[0],
            Input::Event(Event::Mouse(MouseEvent {
                kind: MouseEventKind::Down(MouseButton::Left),
                column: 4,
                row: 2,
                modifiers: KeyModifiers::NONE
            }))
        );
        assert!(matches!(
            &out[1],
            Input::Event(Event::Mouse(MouseEvent {
                kind: MouseEventKind::ScrollUp,
                ..
            }))
        ));
        assert_eq!(out[2], Input::Event(Event::Paste("hi \x1b[A there".into())));
    }

    #[test]
    fn an_unterminated_reply_is_dropped_not_typed() {
        let mut d = Decoder::new();
        assert!(d.feed(b"\x1b_Gi=31;O").is_empty());
        assert!(d.flush().is_empty());
        assert_eq!(keys(&d.feed(b"j")), ["j"]);
    }
}
