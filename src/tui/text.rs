//! Untrusted text is shown, never executed: every text from the file goes through
//! [`crate::sanitize`] before it reaches a widget. Only layout helpers live here.

pub use crate::sanitize::{one_line, sanitize};

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
    fn truncates_by_chars() {
        assert_eq!(truncate("héllo wörld", 6), "héllo…");
        assert_eq!(truncate("short", 10), "short");
    }
}
