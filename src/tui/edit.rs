//! A small text field with the usual editing keys (cursor moves, word delete, line kill),
//! used for notes, penalties, fixes, jumps and searches; and a character search that
//! replaces: the keymap's `find_char` (Alt and the character) puts the cursor on the
//! last such character before it, and the next character typed replaces it.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The letters a text field takes with Alt (word moves: Alt-b, Alt-f).
pub const ALT_KEYS: [char; 2] = ['b', 'f'];

#[derive(Debug, Clone, Default, PartialEq)]
pub struct TextEdit {
    chars: Vec<char>,
    /// Cursor position in chars.
    pub cursor: usize,
    pub multiline: bool,
    /// The cursor is on a character [`TextEdit::find_back`] found: the next character
    /// typed replaces it.
    found: bool,
    /// `find_char`'s key alone (not Alt and the character) was pressed: the next
    /// character typed is the one to find.
    finding: bool,
}

/// What a key did to the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditOutcome {
    Changed,
    Moved,
    Submit,
    Cancel,
    Ignored,
}

impl TextEdit {
    pub fn new(text: &str, multiline: bool) -> TextEdit {
        let chars: Vec<char> = text.chars().collect();
        TextEdit {
            cursor: chars.len(),
            chars,
            multiline,
            found: false,
            finding: false,
        }
    }

    /// The next character typed is the one to find (`find_char`'s key alone).
    pub fn start_find(&mut self) {
        self.found = false;
        self.finding = true;
    }

    /// Whether `c` (either case) is in the text: what `find_back` can find.
    pub fn has(&self, c: char) -> bool {
        self.chars
            .iter()
            .any(|x| x.to_lowercase().eq(c.to_lowercase()))
    }

    /// Put the cursor on the last `c` before it (either case), going round to the end
    /// past the first; the next character typed replaces it. Nothing found: nothing moves.
    pub fn find_back(&mut self, c: char) -> EditOutcome {
        self.finding = false;
        let same = |x: &char| x.to_lowercase().eq(c.to_lowercase());
        let before = self.chars[..self.cursor].iter().rposition(same);
        let after = || {
            self.chars[self.cursor..]
                .iter()
                .rposition(same)
                .map(|i| i + self.cursor)
        };
        match before.or_else(after) {
            Some(i) => {
                self.cursor = i;
                self.found = true;
                EditOutcome::Moved
            }
            None => EditOutcome::Ignored,
        }
    }

    pub fn text(&self) -> String {
        self.chars.iter().collect()
    }

    pub fn is_empty(&self) -> bool {
        self.chars.iter().all(|c| c.is_whitespace())
    }

    pub fn insert_str(&mut self, s: &str) {
        (self.found, self.finding) = (false, false);
        for c in s.chars() {
            if c == '\n' && !self.multiline {
                continue;
            }
            if c.is_control() && c != '\n' {
                continue;
            }
            self.chars.insert(self.cursor, c);
            self.cursor += 1;
        }
    }

    /// Text before and after the cursor (for drawing the cursor).
    pub fn split(&self) -> (String, String) {
        (
            self.chars[..self.cursor].iter().collect(),
            self.chars[self.cursor..].iter().collect(),
        )
    }

    pub fn handle(&mut self, key: &KeyEvent) -> EditOutcome {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        let typed = match key.code {
            KeyCode::Char(c) if !ctrl && !alt => Some(c),
            _ => None,
        };
        let (found, finding) = (self.found, self.finding);
        (self.found, self.finding) = (false, false);
        match typed {
            Some(c) if finding => return self.find_back(c),
            Some(c) if found && self.cursor < self.chars.len() => {
                self.chars[self.cursor] = c;
                self.cursor += 1;
                return EditOutcome::Changed;
            }
            _ => {}
        }
        match key.code {
            KeyCode::Esc => EditOutcome::Cancel,
            KeyCode::Enter
                if self.multiline && (alt || key.modifiers.contains(KeyModifiers::SHIFT)) =>
            {
                self.newline()
            }
            KeyCode::Char('j') if ctrl && self.multiline => self.newline(),
            KeyCode::Enter => EditOutcome::Submit,
            KeyCode::Char('a') if ctrl => self.move_to(self.line_start()),
            KeyCode::Home => self.move_to(self.line_start()),
            KeyCode::Char('e') if ctrl => self.move_to(self.line_end()),
            KeyCode::End => self.move_to(self.line_end()),
            KeyCode::Char('u') if ctrl => self.delete_back_to(self.line_start()),
            KeyCode::Char('k') if ctrl => self.delete_forward_to(self.line_end()),
            KeyCode::Char('w') if ctrl => self.delete_back_to(self.word_start()),
            KeyCode::Backspace if alt => self.delete_back_to(self.word_start()),
            KeyCode::Char('b') if alt => self.move_to(self.word_start()),
            KeyCode::Char('f') if alt => self.move_to(self.word_end()),
            KeyCode::Left if ctrl || alt => self.move_to(self.word_start()),
            KeyCode::Right if ctrl || alt => self.move_to(self.word_end()),
            KeyCode::Left => self.move_to(self.cursor.saturating_sub(1)),
            KeyCode::Right => self.move_to((self.cursor + 1).min(self.chars.len())),
            KeyCode::Backspace => self.delete_back_to(self.cursor.saturating_sub(1)),
            KeyCode::Delete => self.delete_forward_to((self.cursor + 1).min(self.chars.len())),
            KeyCode::Char(c) if !ctrl && !alt => {
                self.chars.insert(self.cursor, c);
                self.cursor += 1;
                EditOutcome::Changed
            }
            _ => EditOutcome::Ignored,
        }
    }

    fn newline(&mut self) -> EditOutcome {
        self.insert_str("\n");
        EditOutcome::Changed
    }

    fn move_to(&mut self, i: usize) -> EditOutcome {
        self.cursor = i;
        EditOutcome::Moved
    }

    /// Delete from `s` (at or before the cursor) to the cursor.
    fn delete_back_to(&mut self, s: usize) -> EditOutcome {
        self.chars.drain(s..self.cursor);
        self.cursor = s;
        EditOutcome::Changed
    }

    /// Delete from the cursor to `e` (at or after it).
    fn delete_forward_to(&mut self, e: usize) -> EditOutcome {
        self.chars.drain(self.cursor..e);
        EditOutcome::Changed
    }

    /// The end of the word at or after the cursor (Alt-f).
    fn word_end(&self) -> usize {
        let mut i = self.cursor;
        while i < self.chars.len() && !self.chars[i].is_alphanumeric() {
            i += 1;
        }
        while i < self.chars.len() && self.chars[i].is_alphanumeric() {
            i += 1;
        }
        i
    }

    fn line_start(&self) -> usize {
        self.chars[..self.cursor]
            .iter()
            .rposition(|&c| c == '\n')
            .map(|p| p + 1)
            .unwrap_or(0)
    }

    fn line_end(&self) -> usize {
        self.chars[self.cursor..]
            .iter()
            .position(|&c| c == '\n')
            .map(|p| p + self.cursor)
            .unwrap_or(self.chars.len())
    }

    fn word_start(&self) -> usize {
        let mut i = self.cursor;
        while i > 0 && !self.chars[i - 1].is_alphanumeric() {
            i -= 1;
        }
        while i > 0 && self.chars[i - 1].is_alphanumeric() {
            i -= 1;
        }
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }
    fn c(ch: char) -> KeyEvent {
        KeyEvent::new(KeyCode::Char(ch), KeyModifiers::CONTROL)
    }

    #[test]
    fn editing_keys() {
        let mut e = TextEdit::new("hello world", false);
        assert_eq!(e.handle(&c('w')), EditOutcome::Changed);
        assert_eq!(e.text(), "hello ");
        e.handle(&k(KeyCode::Char('X')));
        e.handle(&c('a'));
        e.handle(&k(KeyCode::Delete));
        assert_eq!(e.text(), "ello X");
        e.handle(&k(KeyCode::End));
        e.handle(&k(KeyCode::Backspace));
        assert_eq!(e.text(), "ello ");
        e.handle(&c('u'));
        assert!(e.is_empty());
        assert_eq!(e.handle(&k(KeyCode::Enter)), EditOutcome::Submit);
        assert_eq!(e.handle(&k(KeyCode::Esc)), EditOutcome::Cancel);
    }

    /// Ctrl-← / Ctrl-→ (and Alt-← / Alt-→) move a word, as Alt-b / Alt-f do. Before, a
    /// character.
    #[test]
    fn ctrl_arrows_move_a_word() {
        let mut e = TextEdit::new("one two three?", false);
        for m in [KeyModifiers::CONTROL, KeyModifiers::ALT] {
            e.handle(&k(KeyCode::End));
            e.handle(&KeyEvent::new(KeyCode::Left, m));
            assert_eq!(e.split().1, "three?");
            e.handle(&KeyEvent::new(KeyCode::Left, m));
            e.handle(&KeyEvent::new(KeyCode::Right, m));
            assert_eq!(e.split().1, " three?");
        }
    }

    /// `find_back` puts the cursor on the last such character before it (either case;
    /// again: the one before; round to the end past the first); the next character typed
    /// replaces it, any other key is itself. `start_find` takes the next character as
    /// the one to find (`find_char` bound to a key of its own).
    #[test]
    fn find_back_and_replace() {
        let mut e = TextEdit::new("How many hats here?", false);
        assert_eq!(e.find_back('h'), EditOutcome::Moved);
        assert_eq!(e.split().1, "here?");
        e.find_back('H');
        assert_eq!(e.split().1, "hats here?");
        e.find_back('h');
        e.find_back('h');
        assert_eq!(e.split().1, "here?", "round to the end past the first");
        e.handle(&k(KeyCode::Char('t')));
        assert_eq!(e.text(), "How many hats tere?");
        e.handle(&k(KeyCode::Char('h')));
        assert_eq!(e.text(), "How many hats there?", "typed after it: inserted");
        assert_eq!(e.find_back('z'), EditOutcome::Ignored);
        e.find_back('y');
        e.handle(&k(KeyCode::Left));
        e.handle(&k(KeyCode::Char('n')));
        assert_eq!(
            e.text(),
            "How manny hats there?",
            "a motion ends the replace"
        );
        e.handle(&k(KeyCode::End));
        e.start_find();
        e.handle(&k(KeyCode::Char('w')));
        e.handle(&k(KeyCode::Char('W')));
        assert_eq!(e.text(), "HoW manny hats there?");
    }

    #[test]
    fn multiline_newlines_and_pastes() {
        let mut e = TextEdit::new("", true);
        e.insert_str("a\u{1b}[31mb\nc");
        assert_eq!(e.text(), "a[31mb\nc");
        e.handle(&KeyEvent::new(KeyCode::Enter, KeyModifiers::ALT));
        assert_eq!(e.text(), "a[31mb\nc\n");
        let mut s = TextEdit::new("", false);
        s.insert_str("x\ny");
        assert_eq!(s.text(), "xy");
    }
}
