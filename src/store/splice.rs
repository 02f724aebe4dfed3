//! Editing an item's text in place: the members of a JSON object with their byte
//! positions, and `reviews.<reviewer>` set or removed with every other byte kept
//! (docs/format.md, "Saving").

use std::ops::Range;

use serde_json::Value;

use crate::model::FieldError;

use super::ItemError;

/// One member of a JSON object, as positions in the object's text.
#[derive(Debug)]
pub(super) struct Member {
    pub(super) key: String,
    /// Where the key's opening quote is.
    key_start: usize,
    /// The value's bytes.
    pub(super) value: Range<usize>,
}

/// The members of the JSON object `text` (surrounding whitespace allowed), in order and
/// with duplicates, each with its byte positions.
pub(super) fn object_members(text: &str) -> Result<Vec<Member>, ItemError> {
    use serde::de::{Deserializer as _, MapAccess, Visitor};
    use serde_json::value::RawValue;
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Vec<(String, &'de RawValue)>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(e) = m.next_entry::<String, &'de RawValue>()? {
                out.push(e);
            }
            Ok(out)
        }
    }
    let trimmed = text.trim_start();
    if !trimmed.starts_with('{') {
        let v: Value = serde_json::from_str(text).map_err(|e| ItemError::Syntax(e.to_string()))?;
        return Err(ItemError::NotObject(crate::model::kind(&v)));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let raw = (&mut de)
        .deserialize_map(V)
        .map_err(|e| ItemError::Syntax(e.to_string()))?;
    de.end().map_err(|e| ItemError::Syntax(e.to_string()))?;
    let base = text.as_ptr() as usize;
    let bytes = text.as_bytes();
    let open = text.len() - trimmed.len();
    let mut prev_end = open + 1; // just after `{`
    let mut out = Vec::with_capacity(raw.len());
    for (key, v) in raw {
        let vs = v.get().as_ptr() as usize - base;
        // Between the previous value (or `{`) and the key: whitespace and one comma.
        let mut k = prev_end;
        while bytes[k] != b'"' {
            k += 1;
        }
        out.push(Member {
            key,
            key_start: k,
            value: vs..vs + v.get().len(),
        });
        prev_end = vs + v.get().len();
    }
    Ok(out)
}

/// Does any object in `text` (valid JSON) have a key twice? serde_json keeps the last.
pub(super) fn has_duplicate_keys(text: &str) -> bool {
    fn walk(text: &str) -> bool {
        let Ok(members) = object_members(text) else {
            return match serde_json::from_str::<Vec<&serde_json::value::RawValue>>(text) {
                Ok(items) => items.iter().any(|r| walk(r.get())),
                Err(_) => false,
            };
        };
        let mut seen = std::collections::HashSet::new();
        members
            .iter()
            .any(|m| !seen.insert(m.key.as_str()) || walk(&text[m.value.clone()]))
    }
    memchr::memchr(b'{', text.as_bytes()).is_some() && walk(text)
}

/// How an object lays out its members, taken from the item's own bytes so that what is
/// inserted follows them (docs/format.md, "Bytes kept").
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Style {
    /// Between a key's closing quote and its value: `:`, `: `, ` : `.
    pub(super) kv: String,
    /// Between a value and the next key: `,`, `, `, ` , `, or `,` + a newline and the
    /// keys' indent.
    pub(super) comma: String,
    /// Between `{` and the first key, and between the last value and `}`, on a one-line
    /// object (`{ "a": 1 }`); unused on a multi-line one.
    pub(super) pad: (String, String),
}

impl Style {
    /// The layout of `text`'s object from its members; what it cannot show (no member,
    /// or one member and so no comma) from `outer`, the object around it, else compact
    /// (with `, ` after a comma when the item writes `": "`).
    pub(super) fn of(text: &str, members: &[Member], outer: Option<&Style>) -> Style {
        let Some(first) = members.first() else {
            // an empty object gets its first member on the same line
            return match outer {
                Some(o) if o.indent().is_some() => Style {
                    comma: if o.kv.ends_with(' ') { ", " } else { "," }.into(),
                    kv: o.kv.clone(),
                    pad: (String::new(), String::new()),
                },
                Some(o) => o.clone(),
                None => Style::compact(),
            };
        };
        // the key's closing quote: the last `"` before the colon before the value
        let colon = text[..first.value.start]
            .rfind(':')
            .unwrap_or(first.value.start);
        let key_end = text[..colon].rfind('"').map(|q| q + 1).unwrap_or(colon);
        let kv = text[key_end..first.value.start].to_string();
        let before_first = &text[..first.key_start];
        let open = before_first.rfind('{').map_or(0, |p| p + 1);
        let lead = &before_first[open..];
        let last = members.last().expect("not empty");
        let close = text[last.value.end..]
            .find('}')
            .map_or(0, |p| p + last.value.end);
        let trail = &text[last.value.end..close];
        let pad = |s: &str| -> String { s.chars().filter(|c| *c == ' ' || *c == '\t').collect() };
        let comma = if let Some(nl) = lead.rfind('\n') {
            let indent: String = lead[nl + 1..]
                .chars()
                .take_while(|c| *c == ' ' || *c == '\t')
                .collect();
            format!(",\n{indent}")
        } else if members.len() > 1 {
            // from the first value to the second key
            text[first.value.end..members[1].key_start].to_string()
        } else if let Some(c) = inner_comma(&text[first.value.clone()]) {
            // one member shows no comma: the one of the object it holds, if any
            c
        } else if let Some(o) = outer.filter(|o| !o.comma.contains('\n') && o.kv == kv) {
            // one member shows no comma: the object around's, when it is written alike
            o.comma.clone()
        } else if kv.ends_with(' ') {
            ", ".into()
        } else {
            ",".into()
        };
        Style {
            kv,
            comma,
            pad: (pad(lead), pad(trail)),
        }
    }

    fn compact() -> Style {
        Style {
            kv: ":".into(),
            comma: ",".into(),
            pad: (String::new(), String::new()),
        }
    }

    /// On lines: the keys' indent.
    fn indent(&self) -> Option<&str> {
        self.comma.split_once('\n').map(|(_, i)| i)
    }
}

/// Between the first two members of the object `text`, when it is one with two members
/// or more on one line.
fn inner_comma(text: &str) -> Option<String> {
    if !text.trim_start().starts_with('{') {
        return None;
    }
    let m = object_members(text).ok()?;
    let c = &text[m.first()?.value.end..m.get(1)?.key_start];
    (!c.contains('\n')).then(|| c.to_string())
}

/// `value` as JSON text to put after a key laid out in `style`: on one line with the
/// object's own separators, or pretty with every new line indented like the key (nested
/// levels by two spaces) when the object is laid out on lines.
pub(super) fn render(value: &Value, style: &Style) -> String {
    let mut out = String::new();
    match style.indent() {
        Some(indent) => write_lines(&mut out, value, style, indent),
        None => write_inline(&mut out, value, style),
    }
    out
}

fn write_inline(out: &mut String, value: &Value, style: &Style) {
    match value {
        Value::Object(m) if !m.is_empty() => {
            out.push('{');
            out.push_str(&style.pad.0);
            for (k, (key, v)) in m.iter().enumerate() {
                if k > 0 {
                    out.push_str(&style.comma);
                }
                out.push_str(&serde_json::to_string(key).expect("a string serializes"));
                out.push_str(&style.kv);
                write_inline(out, v, style);
            }
            out.push_str(&style.pad.1);
            out.push('}');
        }
        Value::Array(a) if !a.is_empty() => {
            out.push('[');
            for (k, v) in a.iter().enumerate() {
                if k > 0 {
                    out.push_str(&style.comma);
                }
                write_inline(out, v, style);
            }
            out.push(']');
        }
        v => out.push_str(&serde_json::to_string(v).expect("a Value always serializes")),
    }
}

fn write_lines(out: &mut String, value: &Value, style: &Style, indent: &str) {
    let inner = format!("{indent}  ");
    match value {
        Value::Object(m) if !m.is_empty() => {
            out.push('{');
            for (k, (key, v)) in m.iter().enumerate() {
                out.push_str(if k > 0 { ",\n" } else { "\n" });
                out.push_str(&inner);
                out.push_str(&serde_json::to_string(key).expect("a string serializes"));
                out.push_str(&style.kv);
                write_lines(out, v, style, &inner);
            }
            out.push('\n');
            out.push_str(indent);
            out.push('}');
        }
        Value::Array(a) if !a.is_empty() => {
            out.push('[');
            for (k, v) in a.iter().enumerate() {
                out.push_str(if k > 0 { ",\n" } else { "\n" });
                out.push_str(&inner);
                write_lines(out, v, style, &inner);
            }
            out.push('\n');
            out.push_str(indent);
            out.push(']');
        }
        v => out.push_str(&serde_json::to_string(v).expect("a Value always serializes")),
    }
}

/// Set (`Some`) or remove (`None`) member `key` of the object `text`, changing no other
/// byte. A new member goes after the last one (as `,` + the object's own layout). The
/// removal of a member is the exact inverse of its insertion. A key present twice is an
/// error: which one counts is not ours to guess.
pub(super) fn splice_member(
    text: &str,
    members: &[Member],
    key: &str,
    value: Option<&str>,
    field: &str,
    style: &Style,
) -> Result<String, ItemError> {
    let found: Vec<usize> = (0..members.len())
        .filter(|&k| members[k].key == key)
        .collect();
    if found.len() > 1 {
        return Err(ItemError::Field(FieldError {
            field: field.into(),
            message: "appears more than once; refusing to choose one".into(),
        }));
    }
    let mut out = String::with_capacity(text.len() + value.map_or(0, str::len) + 32);
    match (found.first().copied(), value) {
        (Some(k), Some(v)) => {
            let r = members[k].value.clone();
            out.push_str(&text[..r.start]);
            out.push_str(v);
            out.push_str(&text[r.end..]);
        }
        (Some(k), None) => {
            let r = if k > 0 {
                // from the end of the previous value to the end of this one
                members[k - 1].value.end..members[k].value.end
            } else if members.len() > 1 {
                members[0].key_start..members[1].key_start
            } else {
                // the only member: back to just after `{`
                let open = text[..members[0].key_start].rfind('{').map_or(0, |p| p + 1);
                open..members[0].value.end
            };
            out.push_str(&text[..r.start]);
            out.push_str(&text[r.end..]);
        }
        (None, Some(v)) => {
            let key_json = serde_json::to_string(key).expect("a string always serializes");
            let at = match members.last() {
                Some(m) => {
                    out.push_str(&text[..m.value.end]);
                    out.push_str(&style.comma);
                    m.value.end
                }
                None => {
                    let open = text.find('{').map_or(0, |p| p + 1);
                    out.push_str(&text[..open]);
                    open
                }
            };
            out.push_str(&key_json);
            out.push_str(&style.kv);
            out.push_str(v);
            out.push_str(&text[at..]);
        }
        (None, None) => out.push_str(text),
    }
    Ok(out)
}

/// The item `text` with member `key` set to `value` in the item's own layout (for
/// `merge`, which writes a whole `reviews`): a present member's value is replaced,
/// rendered in the layout of the object it replaces; a new one goes after the last
/// member. Every other byte is kept; a key present twice is an error.
pub(crate) fn set_member_like(text: &str, key: &str, value: &Value) -> Result<String, ItemError> {
    let members = object_members(text)?;
    let style = Style::of(text, &members, None);
    let vstyle = match members.iter().find(|m| m.key == key) {
        Some(m) => {
            let old = &text[m.value.clone()];
            match object_members(old) {
                Ok(inner) => Style::of(old, &inner, Some(&style)),
                Err(_) => style.clone(),
            }
        }
        None => style.clone(),
    };
    let rendered = render(value, &vstyle);
    splice_member(text, &members, key, Some(&rendered), key, &style)
}

/// The item `text` with `reviews.<reviewer>` set to `review` (or removed), every other
/// byte kept. An emptied `reviews` is removed unless `keep_empty_reviews`.
pub(super) fn splice_review(
    text: &str,
    reviewer: &str,
    review: Option<&Value>,
    keep_empty_reviews: bool,
) -> Result<String, ItemError> {
    let members = object_members(text)?;
    let field = format!("reviews.{reviewer}");
    let found: Vec<&Member> = members.iter().filter(|m| m.key == "reviews").collect();
    if found.len() > 1 {
        return Err(ItemError::Field(FieldError {
            field: "reviews".into(),
            message: "appears more than once; refusing to choose one".into(),
        }));
    }
    let style = Style::of(text, &members, None);
    match found.first() {
        None => match review {
            None => Ok(text.to_string()),
            Some(r) => {
                let mut m = serde_json::Map::new();
                m.insert(reviewer.to_string(), r.clone());
                let v = render(&Value::Object(m), &style);
                splice_member(text, &members, "reviews", Some(&v), "reviews", &style)
            }
        },
        Some(rm) => {
            let rtext = &text[rm.value.clone()];
            let inner = match object_members(rtext) {
                Ok(m) => m,
                Err(_) => {
                    return Err(ItemError::Field(FieldError {
                        field: "reviews".into(),
                        message: "is not an object; refusing to replace it".into(),
                    }));
                }
            };
            // (An empty `reviews` gets its first review inline.)
            let istyle = Style::of(rtext, &inner, Some(&style));
            let rendered = review.map(|r| render(r, &istyle));
            let new_reviews = splice_member(
                rtext,
                &inner,
                reviewer,
                rendered.as_deref(),
                &field,
                &istyle,
            )?;
            let emptied = review.is_none()
                && inner.iter().filter(|m| m.key != reviewer).count() == 0
                && !inner.is_empty();
            if emptied && !keep_empty_reviews {
                splice_member(text, &members, "reviews", None, "reviews", &style)
            } else {
                let r = rm.value.clone();
                Ok(format!(
                    "{}{}{}",
                    &text[..r.start],
                    new_reviews,
                    &text[r.end..]
                ))
            }
        }
    }
}
