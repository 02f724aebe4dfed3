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

/// A JSON text parsed into a `Value` with every string cut to its first `max`
/// characters: what a view that shows the JSON's first `max` characters needs of it (the
/// generic view), without a copy of a string of megabytes (issue 21). Each string written
/// out from the cut value begins as the whole one does and is at least `max` characters
/// long, so the first `max` characters of the JSON written are the same. None: not JSON.
pub fn json_cut(text: &str, max: usize) -> Option<serde_json::Value> {
    use serde::de::DeserializeSeed;
    let mut d = serde_json::Deserializer::from_str(text);
    let v = Cut(max).deserialize(&mut d).ok()?;
    d.end().ok()?;
    Some(v)
}

/// [`json_cut`]'s reader: a `Value` as serde_json reads it, its strings cut.
#[derive(Clone, Copy)]
struct Cut(usize);

impl Cut {
    fn string(self, s: &str) -> serde_json::Value {
        match s.char_indices().nth(self.0) {
            Some((at, _)) => serde_json::Value::String(s[..at].to_string()),
            None => serde_json::Value::String(s.to_string()),
        }
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for Cut {
    type Value = serde_json::Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Cut {
    type Value = serde_json::Value;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Self::Value, E> {
        Ok(b.into())
    }
    fn visit_i64<E>(self, n: i64) -> Result<Self::Value, E> {
        Ok(n.into())
    }
    fn visit_u64<E>(self, n: u64) -> Result<Self::Value, E> {
        Ok(n.into())
    }
    fn visit_f64<E>(self, n: f64) -> Result<Self::Value, E> {
        Ok(serde_json::Number::from_f64(n).map_or(serde_json::Value::Null, Into::into))
    }
    fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
        Ok(self.string(s))
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(self)? {
            out.push(v);
        }
        Ok(serde_json::Value::Array(out))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some(k) = map.next_key::<String>()? {
            // A number, as serde_json hands it over with `arbitrary_precision`: its text
            // under a key of its own.
            if out.is_empty() && k == "$serde_json::private::Number" {
                let n: String = map.next_value()?;
                return n
                    .parse::<serde_json::Number>()
                    .map(serde_json::Value::Number)
                    .map_err(serde::de::Error::custom);
            }
            let v = map.next_value_seed(self)?;
            out.insert(k, v);
        }
        Ok(serde_json::Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the generic view shows of a JSON text, its first `max` characters, is the
    /// same from the value `json_cut` reads as from the whole one; a short text reads
    /// the same value.
    #[test]
    fn json_cut_keeps_the_first_characters_shown() {
        let long = "é\\n\\u001b\\\"x".repeat(40);
        let texts = [
            r#"{"a": 1, "b": 1.0, "c": 1e3, "d": 12345678901234567890123, "e": -0.5, "f": null, "g": [true, false, {}], "h": "short"}"#.to_string(),
            format!(r#"{{"id": "x", "question": "{long}", "reviews": {{"al": {{"verdict": "pass"}}}}}}"#),
            format!(r#"{{"responses": [{{"model": "m", "text": "{long}"}}, {{"model": "n", "text": "{long}"}}], "key": 2}}"#),
            format!(r#"["{long}", 3, "{long}"]"#),
            format!(r#""{long}""#),
        ];
        for text in &texts {
            let full: serde_json::Value = serde_json::from_str(text).unwrap();
            for max in [1, 5, 17, 60, 100, 1_000, 100_000] {
                let cut = json_cut(text, max).unwrap();
                let shown = |v: &serde_json::Value| {
                    truncate(&crate::sanitize::json_pretty(v).unwrap(), max)
                };
                assert_eq!(shown(&cut), shown(&full), "{text} at {max}");
                if max == 100_000 {
                    assert_eq!(cut, full, "{text}");
                }
            }
        }
        assert_eq!(json_cut("{\"a\": 1} x", 10), None);
        assert_eq!(json_cut("not json", 10), None);
    }

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
