//! A key as the config file writes it and as hints show it.

use std::fmt;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A key with its modifiers, as written in the config file: `n`, `N`, `Right`, `ctrl-r`,
/// `PageDown`, `Space`, `?`; `alt-char` (or `ctrl-char`) is the modifier with any
/// character ([`Key::ANY_CHAR`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
    pub alt: bool,
}

impl Key {
    /// The code of `alt-char`: the modifier with any character.
    pub const ANY_CHAR: KeyCode = KeyCode::Null;

    pub const fn ch(c: char) -> Key {
        Key {
            code: KeyCode::Char(c),
            ctrl: false,
            alt: false,
        }
    }
    pub const fn code(code: KeyCode) -> Key {
        Key {
            code,
            ctrl: false,
            alt: false,
        }
    }
    pub const fn ctrl(c: char) -> Key {
        Key {
            code: KeyCode::Char(c),
            ctrl: true,
            alt: false,
        }
    }

    pub fn from_event(ev: &KeyEvent) -> Key {
        Key {
            code: match ev.code {
                // Shift is part of the character already; normalise BackTab.
                KeyCode::BackTab => KeyCode::BackTab,
                c => c,
            },
            ctrl: ev.modifiers.contains(KeyModifiers::CONTROL),
            alt: ev.modifiers.contains(KeyModifiers::ALT),
        }
    }

    pub fn parse(s: &str) -> Option<Key> {
        let mut ctrl = false;
        let mut alt = false;
        let mut rest = s;
        loop {
            let lower = rest.to_ascii_lowercase();
            if lower.starts_with("ctrl-") || lower.starts_with("ctrl+") {
                ctrl = true;
                rest = &rest[5..];
            } else if lower.starts_with("alt-") || lower.starts_with("alt+") {
                alt = true;
                rest = &rest[4..];
            } else {
                break;
            }
        }
        let code = match rest.to_ascii_lowercase().as_str() {
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "pageup" | "pgup" => KeyCode::PageUp,
            "pagedown" | "pgdn" => KeyCode::PageDown,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "enter" => KeyCode::Enter,
            "esc" | "escape" => KeyCode::Esc,
            "tab" => KeyCode::Tab,
            "backtab" => KeyCode::BackTab,
            "space" => KeyCode::Char(' '),
            "backspace" => KeyCode::Backspace,
            "delete" | "del" => KeyCode::Delete,
            "char" if ctrl || alt => Key::ANY_CHAR,
            _ => {
                let mut cs = rest.chars();
                let c = cs.next()?;
                if cs.next().is_some() {
                    if let Some(n) = rest
                        .strip_prefix(['F', 'f'])
                        .and_then(|n| n.parse::<u8>().ok())
                    {
                        KeyCode::F(n)
                    } else {
                        return None;
                    }
                } else {
                    KeyCode::Char(if ctrl { c.to_ascii_lowercase() } else { c })
                }
            }
        };
        Some(Key { code, ctrl, alt })
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("Ctrl-")?;
        }
        if self.alt {
            f.write_str("Alt-")?;
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("Space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::Left => f.write_str("←"),
            KeyCode::Right => f.write_str("→"),
            KeyCode::Up => f.write_str("↑"),
            KeyCode::Down => f.write_str("↓"),
            KeyCode::PageUp => f.write_str("PgUp"),
            KeyCode::PageDown => f.write_str("PgDn"),
            KeyCode::Home => f.write_str("Home"),
            KeyCode::End => f.write_str("End"),
            KeyCode::Enter => f.write_str("Enter"),
            KeyCode::Esc => f.write_str("Esc"),
            KeyCode::Tab => f.write_str("Tab"),
            KeyCode::F(n) => write!(f, "F{n}"),
            Key::ANY_CHAR => f.write_str("char"),
            other => write!(f, "{other:?}"),
        }
    }
}
