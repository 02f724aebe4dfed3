//! The terminal's string sequences (APC, DCS, OSC, PM, SOS): read to their end and
//! dropped, or handed on as a [`Reply`] when the image query asked for them (kitty
//! graphics answers, the terminal's version).

use super::Reply;
use super::parse::{Step, reply};

/// A string sequence `ESC x … ST` (ST = `ESC \`; OSC may also end with BEL).
pub(super) fn string(b: &[u8]) -> Step {
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
    // XTVERSION: `P>|kitty(0.26.5)`.
    if let Some(rest) = body.strip_prefix(b"P>|") {
        let text: String = String::from_utf8_lossy(rest)
            .chars()
            .filter(|c| !c.is_control())
            .take(128)
            .collect();
        return Reply::TerminalVersion(text);
    }
    Reply::Other
}
