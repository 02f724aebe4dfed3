//! The byte grammar of keys, mouse reports and pastes (xterm's "Control Sequences"),
//! and the dispatch of replies to [`super::replies`].

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use super::replies::string;
use super::{Input, Reply};

pub(super) enum Step {
    /// Not enough bytes yet.
    Incomplete,
    /// `n` bytes consumed, producing maybe an input.
    Done(usize, Option<Input>),
}

fn key(code: KeyCode, modifiers: KeyModifiers) -> Option<Input> {
    Some(Input::Event(Event::Key(KeyEvent::new_with_kind(
        code,
        modifiers,
        KeyEventKind::Press,
    ))))
}

pub(super) fn reply(r: Reply) -> Option<Input> {
    Some(Input::Reply(r))
}

/// One input from the start of `b`. `quiet`: no more bytes are coming soon.
pub(super) fn step(b: &[u8], quiet: bool) -> Step {
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
    if private == Some(b'>') && fin == b'c' {
        let attrs = numbers(&params[1..]).into_iter().flatten().collect();
        return reply(Reply::SecondaryAttributes(attrs));
    }
    if matches!(private, Some(b'?' | b'>' | b'='))
        || !inter.is_empty()
        || matches!(fin, b'c' | b't' | b'n' | b'R' | b'I' | b'O' | b'x' | b'y')
    {
        return reply(csi_reply(private, params, fin));
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
    csi_key(params, fin)
}

/// A report the terminal sent (not a key): the cell and window sizes and the status
/// report are read, the rest is [`Reply::Other`].
fn csi_reply(private: Option<u8>, params: &[u8], fin: u8) -> Reply {
    let nums = numbers(params);
    match (fin, nums.as_slice()) {
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
    }
}

/// A key (or urxvt's mouse report): cursor and function keys, `CSI n ~`, and the kitty
/// keyboard protocol's `CSI codepoint ; modifiers u`.
fn csi_key(params: &[u8], fin: u8) -> Option<Input> {
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
        b'~' => tilde_key(n.first().copied().flatten()?)?,
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

/// `CSI n ~`: Home, Insert, Delete, End, PageUp, PageDown, F1–F20.
fn tilde_key(n: u32) -> Option<KeyCode> {
    Some(match n {
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
    })
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
