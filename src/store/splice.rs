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

/// How the object at `text[open..]` lays out its members: the text between a key and its
/// value (`:` or `: `), and what goes before each key after a comma (nothing, a space, or
/// a newline and an indent). From its first member; compact when it has none.
pub(super) fn member_style(text: &str, members: &[Member]) -> (String, String) {
    let Some(first) = members.first() else {
        return (":".into(), String::new());
    };
    // the key's closing quote: the last `"` before the colon before the value
    let colon = text[..first.value.start]
        .rfind(':')
        .unwrap_or(first.value.start);
    let key_end = text[..colon].rfind('"').map(|q| q + 1).unwrap_or(colon);
    let kv = text[key_end..first.value.start].to_string();
    let before_first = &text[..first.key_start];
    let lead = before_first
        .rfind(['{', ','])
        .map(|p| &before_first[p + 1..])
        .unwrap_or("");
    let sep = if let Some(nl) = lead.rfind('\n') {
        let indent: String = lead[nl + 1..]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        format!("\n{indent}")
    } else if members.len() > 1 {
        // after the first comma
        let after = &text[first.value.end..members[1].key_start];
        let c = after.find(',').map(|p| p + 1).unwrap_or(after.len());
        after[c..].to_string()
    } else {
        lead.chars().filter(|c| *c == ' ').collect()
    };
    (kv, sep)
}

/// `value` as JSON text to put after a key whose line starts after `sep`: compact, or
/// pretty with every new line indented like the key when the object is laid out on lines.
pub(super) fn render(value: &Value, sep: &str) -> String {
    match sep.strip_prefix('\n') {
        Some(indent) => serde_json::to_string_pretty(value)
            .expect("a Value always serializes")
            .replace('\n', &format!("\n{indent}")),
        None => serde_json::to_string(value).expect("a Value always serializes"),
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
    let (kv, sep) = member_style(text, members);
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
                    out.push(',');
                    out.push_str(&sep);
                    m.value.end
                }
                None => {
                    let open = text.find('{').map_or(0, |p| p + 1);
                    out.push_str(&text[..open]);
                    open
                }
            };
            out.push_str(&key_json);
            out.push_str(&kv);
            out.push_str(v);
            out.push_str(&text[at..]);
        }
        (None, None) => out.push_str(text),
    }
    Ok(out)
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
    let (_, sep) = member_style(text, &members);
    match found.first() {
        None => match review {
            None => Ok(text.to_string()),
            Some(r) => {
                let mut m = serde_json::Map::new();
                m.insert(reviewer.to_string(), r.clone());
                let v = render(&Value::Object(m), &sep);
                splice_member(text, &members, "reviews", Some(&v), "reviews")
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
            let (_, isep) = member_style(rtext, &inner);
            let rendered = review.map(|r| render(r, &isep));
            let new_reviews = splice_member(rtext, &inner, reviewer, rendered.as_deref(), &field)?;
            let emptied = review.is_none()
                && inner.iter().filter(|m| m.key != reviewer).count() == 0
                && !inner.is_empty();
            if emptied && !keep_empty_reviews {
                splice_member(text, &members, "reviews", None, "reviews")
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
