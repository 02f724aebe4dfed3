//! Untrusted text is shown, never executed: control characters and escape sequences from
//! a file (or a file name, or an argument) are replaced by visible stand-ins before they
//! reach a terminal.

/// Replace every control character except newline with a visible stand-in: ESC becomes
/// `␛`, other C0/C1 controls and DEL become `�`-like pictures (`^X` style), tabs become
/// spaces, carriage returns are dropped. Bidirectional overrides are neutralised too.
pub fn sanitize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push('\n'),
            '\t' => out.push_str("    "),
            '\r' => {}
            '\u{1b}' => out.push('␛'),
            c if (c as u32) < 0x20 => {
                out.push('^');
                out.push(char::from_u32(c as u32 + 0x40).unwrap_or('?'));
            }
            '\u{7f}' => out.push_str("^?"),
            c if ('\u{80}'..='\u{9f}').contains(&c) => out.push('�'),
            // bidi embedding/override/isolate controls could reorder the screen
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => out.push('�'),
            c => out.push(c),
        }
    }
    out
}

/// One line: newlines shown as `⏎`.
pub fn one_line(s: &str) -> String {
    sanitize(s).replace('\n', " ⏎ ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_never_pass_through() {
        let hostile = "ok\u{1b}[2J\u{1b}]0;pwned\u{7}\u{9b}31m\r\nnext\u{202e}evil";
        let s = sanitize(hostile);
        assert!(!s.chars().any(|c| c.is_control() && c != '\n'), "{s:?}");
        assert_eq!(s, "ok␛[2J␛]0;pwned^G�31m\nnext�evil");
    }
}
