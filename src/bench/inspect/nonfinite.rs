//! Inspect's unscored values. Python's json writes a float that is not finite as a bare
//! `NaN`, `Infinity` or `-Infinity`, which is not JSON: serde_json does not read it. The
//! log is read with each such token as a marked string (a control character and
//! verdict's own words, which no log holds: a log that does is refused), and written back
//! with each marked string as the bare token it was, so that every other byte of the log
//! stays as Inspect wrote it (docs/format.md, "Inspect AI logs").

use std::borrow::Cow;

use serde_json::Value;

/// What a marked value's string starts with; the token follows.
const MARK: &str = "\u{1}verdict:nonfinite:";
/// How serde_json writes the start of a marked value (the opening quote included).
const MARK_JSON: &str = "\"\\u0001verdict:nonfinite:";
/// What no log may hold for the marking to be safe.
const GUARD: &[u8] = b"verdict:nonfinite:";
const TOKENS: [&str; 3] = ["-Infinity", "Infinity", "NaN"];

/// `b` with every bare `NaN`, `Infinity` and `-Infinity` outside strings as a marked
/// string; borrowed when it has none. An error when `b` already holds verdict's mark.
pub fn encode(b: &[u8]) -> Result<Cow<'_, [u8]>, String> {
    if memchr::memmem::find(b, GUARD).is_some() {
        return Err(format!(
            "the log holds the text {:?}, which verdict uses to keep NaN and Infinity: it cannot be read safely",
            String::from_utf8_lossy(GUARD)
        ));
    }
    if memchr::memmem::find(b, b"NaN").is_none() && memchr::memmem::find(b, b"Infinity").is_none() {
        return Ok(Cow::Borrowed(b));
    }
    let mut out = Vec::with_capacity(b.len() + 64);
    let (mut i, mut in_str) = (0, false);
    'bytes: while i < b.len() {
        let c = b[i];
        if in_str {
            out.push(c);
            if c == b'\\' && i + 1 < b.len() {
                out.push(b[i + 1]);
                i += 2;
                continue;
            }
            in_str = c != b'"';
        } else if c == b'"' {
            in_str = true;
            out.push(c);
        } else {
            for t in TOKENS {
                if b[i..].starts_with(t.as_bytes()) {
                    out.extend_from_slice(MARK_JSON.as_bytes());
                    out.extend_from_slice(t.as_bytes());
                    out.push(b'"');
                    i += t.len();
                    continue 'bytes;
                }
            }
            out.push(c);
        }
        i += 1;
    }
    Ok(Cow::Owned(out))
}

/// JSON text as serde_json wrote it, with every marked value back to its bare token.
pub fn decode(text: String) -> String {
    if !text.contains(MARK_JSON) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(k) = rest.find(MARK_JSON) {
        out.push_str(&rest[..k]);
        let after = &rest[k + MARK_JSON.len()..];
        match TOKENS
            .iter()
            .find(|t| after.starts_with(*t) && after[t.len()..].starts_with('"'))
        {
            Some(t) => {
                out.push_str(t);
                rest = &after[t.len() + 1..];
            }
            // (cannot happen: only `encode` and `value` make marked strings)
            None => {
                out.push_str(MARK_JSON);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The token of a marked value (`NaN`, `Infinity`, `-Infinity`).
pub fn token(v: &Value) -> Option<&str> {
    let t = v.as_str()?.strip_prefix(MARK)?;
    TOKENS.into_iter().find(|x| *x == t)
}

/// A float that is not finite, as a marked value (written back as its bare token).
pub fn value(x: f64) -> Value {
    let t = if x.is_nan() {
        "NaN"
    } else if x > 0.0 {
        "Infinity"
    } else {
        "-Infinity"
    };
    Value::String(format!("{MARK}{t}"))
}

/// A value as it is shown and read by the line made from a sample: a marked value as
/// its token's text (`"NaN"`), anything else as it is.
pub fn shown(v: &Value) -> Value {
    match token(v) {
        Some(t) => Value::String(t.to_string()),
        None => v.clone(),
    }
}

/// A value of a line made from a sample ([`shown`]) as the log holds it: `"NaN"`,
/// `"Infinity"` and `"-Infinity"` as the floats they show (a score's text that reads so
/// is taken for one).
pub fn unshown(v: &Value) -> Value {
    match v.as_str() {
        Some("NaN") => value(f64::NAN),
        Some("Infinity") => value(f64::INFINITY),
        Some("-Infinity") => value(f64::NEG_INFINITY),
        _ => v.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_outside_strings_are_marked_and_written_back_as_they_were() {
        let text = r#"{"a": NaN, "b": [Infinity, -Infinity], "c": "NaN \" Infinity", "d": 1.5}"#;
        let enc = encode(text.as_bytes()).unwrap();
        let v: Value = serde_json::from_slice(&enc).unwrap();
        assert_eq!(token(&v["a"]), Some("NaN"));
        assert_eq!(token(&v["b"][1]), Some("-Infinity"));
        assert_eq!(v["c"], Value::String("NaN \" Infinity".into()));
        assert_eq!(shown(&v["b"][0]), Value::String("Infinity".into()));
        let back = decode(serde_json::to_string(&v).unwrap());
        assert_eq!(
            back,
            r#"{"a":NaN,"b":[Infinity,-Infinity],"c":"NaN \" Infinity","d":1.5}"#
        );
        assert_eq!(
            decode(serde_json::to_string(&value(f64::NAN)).unwrap()),
            "NaN"
        );
        assert_eq!(
            decode(serde_json::to_string(&value(f64::NEG_INFINITY)).unwrap()),
            "-Infinity"
        );
        assert!(encode(b"{\"x\": \"verdict:nonfinite:NaN\"}").is_err());
    }
}
