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

use crossterm::event::Event;

/// A reply from the terminal to a query (never a key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The kitty graphics protocol answered query image `id`: `OK` or an error.
    KittyGraphics { id: u32, ok: bool },
    /// Primary device attributes (`CSI ? Ps ; … c`): the attribute numbers (4 = sixel).
    DeviceAttributes(Vec<u32>),
    /// Secondary device attributes (`CSI > Pp ; Pv ; Pc c`): the terminal's kind and
    /// version (GNU screen answers `83 ; 40900`, tmux `84`).
    SecondaryAttributes(Vec<u32>),
    /// `CSI 6 ; height ; width t`: the size of one cell in pixels.
    CellSize { width: u16, height: u16 },
    /// `CSI 4 ; height ; width t`: the size of the text area in pixels.
    WindowPixels { width: u16, height: u16 },
    /// `CSI 0 n`: "terminal OK", the answer to the last query of a batch.
    StatusOk,
    /// XTVERSION (`CSI > q`) answered `DCS > | name(version) ST`, e.g. `kitty(0.26.5)`,
    /// `XTerm(379)`, `tmux 3.3a` (control characters dropped).
    TerminalVersion(String),
    /// Not from the terminal: the tty's window size changed, in cells or only in pixels
    /// (a font change), as the reader found after a `SIGWINCH`. The cell size in pixels
    /// may be another now.
    WindowChanged,
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

mod parse;
mod reader;
mod replies;
#[cfg(test)]
mod tests;

use parse::{Step, step};
pub use reader::{Pause, spawn};

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
