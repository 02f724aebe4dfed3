//! Untrusted text is shown, never executed: every text from the file goes through
//! [`crate::sanitize`] before it reaches a widget. Only layout lives here.

use std::borrow::Cow;

/// Text for a widget: tabs as four spaces and carriage returns dropped (layout), then
/// every other unsafe character as its visible stand-in ([`crate::sanitize::text`]:
/// ESC is `␛`, C0 controls `^X`, C1 and bidi controls `\u{..}`).
pub fn sanitize(s: &str) -> String {
    sanitized(s).into_owned()
}

/// [`sanitize`], borrowed when nothing needed changing (no copy of a long text).
pub fn sanitized(s: &str) -> Cow<'_, str> {
    if memchr::memchr2(b'\t', b'\r', s.as_bytes()).is_some() {
        let laid_out = s.replace('\t', "    ").replace('\r', "");
        Cow::Owned(crate::sanitize::text(&laid_out).into_owned())
    } else {
        crate::sanitize::text(s)
    }
}

/// One line: newlines shown as `⏎`.
pub fn one_line(s: &str) -> String {
    sanitize(s).replace('\n', " ⏎ ")
}

/// Shorten to at most `max` characters, with an ellipsis.
pub fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_never_pass_through() {
        let hostile = "ok\u{1b}[2J\u{1b}]0;pwned\u{7}\u{9b}31m\r\nnext\u{202e}evil\tend";
        let s = sanitize(hostile);
        assert!(!s.chars().any(|c| c.is_control() && c != '\n'), "{s:?}");
        assert_eq!(s, "ok␛[2J␛]0;pwned^G\\u{9b}31m\nnext\\u{202e}evil    end");
        assert_eq!(one_line("a\r\nb"), "a ⏎ b");
    }

    #[test]
    fn truncates_by_chars() {
        assert_eq!(truncate("héllo wörld", 6), "héllo…");
        assert_eq!(truncate("short", 10), "short");
    }
}
