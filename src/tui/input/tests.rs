use crossterm::event::{KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};

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
        decode(b"\x1b[>83;40900;0c"),
        vec![Input::Reply(Reply::SecondaryAttributes(vec![83, 40900, 0]))]
    );
    assert_eq!(
        decode(b"\x1b_Gi=32;ENOTSUPPORTED:x\x1b\\"),
        vec![Input::Reply(Reply::KittyGraphics { id: 32, ok: false })]
    );
}

#[test]
fn the_terminal_version_is_a_reply_never_keys() {
    // XTVERSION (`CSI > q`): `DCS > | text ST`, from kitty, xterm and tmux.
    assert_eq!(
        decode(b"\x1bP>|kitty(0.26.5)\x1b\\j"),
        vec![
            Input::Reply(Reply::TerminalVersion("kitty(0.26.5)".into())),
            Input::Event(crossterm::event::Event::Key(
                crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Char('j'))
            )),
        ]
    );
    assert_eq!(
        decode(b"\x1bP>|XTerm(379)\x1b\\"),
        vec![Input::Reply(Reply::TerminalVersion("XTerm(379)".into()))]
    );
    // Control characters in the answer are not kept.
    assert_eq!(
        decode(b"\x1bP>|tmux\x073.3a\x1b\\"),
        vec![Input::Reply(Reply::TerminalVersion("tmux3.3a".into()))]
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
