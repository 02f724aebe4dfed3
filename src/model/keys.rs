//! A line's top-level keys, each with its value as written: read in one pass over the
//! line that copies no value (issue 21: a line in a benchmark's own layout was read three
//! times, once by each benchmark that asked whether it was one of its).

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::{MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The keys of a JSON object line, in the line's order, each with its value's text as
/// written (borrowed from the line). A key may be written more than once: as a parsed
/// [`Map`] keeps it, the last value counts ([`Keys::get`]).
#[derive(Debug)]
pub(crate) struct Keys<'a> {
    pairs: Vec<(Cow<'a, str>, &'a RawValue)>,
}

impl<'a> Keys<'a> {
    /// Read the keys of `text`, a JSON object: one pass over it (the values are skipped,
    /// not parsed; a key written with escapes is read as its text).
    pub(crate) fn of(text: &'a str) -> Result<Keys<'a>, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The value of `key` as written: its last one, as a parsed object keeps it.
    pub(crate) fn get(&self, key: &str) -> Option<&'a RawValue> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| *v)
    }

    pub(crate) fn contains(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Is `key` there with a value other than `null`?
    pub(crate) fn has_value(&self, key: &str) -> bool {
        self.get(key).is_some_and(|v| v.get() != "null")
    }

    /// The whole object, parsed: the same [`Map`] as a parse of the line (one key written
    /// twice: its first place, its last value).
    pub(crate) fn map(&self) -> Result<Map<String, Value>, serde_json::Error> {
        let mut m = Map::with_capacity(self.pairs.len());
        for (k, v) in &self.pairs {
            m.insert(k.to_string(), serde_json::from_str(v.get())?);
        }
        Ok(m)
    }
}

impl<'de> Deserialize<'de> for Keys<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Pairs;
        impl<'de> Visitor<'de> for Pairs {
            type Value = Keys<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Keys<'de>, A::Error> {
                let mut pairs = Vec::new();
                while let Some(Key(k)) = map.next_key()? {
                    pairs.push((k, map.next_value()?));
                }
                Ok(Keys { pairs })
            }
        }
        d.deserialize_map(Pairs)
    }
}

/// A key: borrowed from the line, or its text when it is written with escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct K;
        impl<'de> Visitor<'de> for K {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s.to_string())))
            }
            fn visit_string<E>(self, s: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s)))
            }
        }
        d.deserialize_str(K)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_of_a_line_are_those_of_its_parsed_map() {
        for text in [
            r#"{"a": 1, "b": {"c": [1, 2.50, "x"]}, "d": "e\nf", "a": null}"#,
            r#"{"k\u0065y": "v", "key": "w", "": 0}"#,
            r#"{}"#,
            r#" { "n" : 1e400 , "m":-0.0 } "#,
        ] {
            let keys = Keys::of(text).unwrap();
            let parsed: Map<String, Value> = serde_json::from_str(text).unwrap();
            assert_eq!(keys.map().unwrap(), parsed, "{text}");
            assert!(
                keys.map().unwrap().keys().eq(parsed.keys()),
                "same order: {text}"
            );
            for (k, v) in &parsed {
                let raw = keys.get(k).unwrap().get();
                assert_eq!(
                    serde_json::from_str::<Value>(raw).unwrap(),
                    *v,
                    "{text}: {k}"
                );
                assert!(keys.contains(k));
                assert_eq!(keys.has_value(k), !v.is_null());
            }
            assert!(!keys.contains("absent"));
        }
        // The last value of a key written twice; a key written with escapes is its text.
        let keys = Keys::of(r#"{"a": 1, "b": 2, "a": null, "\u0061": 3}"#).unwrap();
        assert_eq!(keys.get("a").unwrap().get(), "3");
        assert!(Keys::of("[1]").is_err());
        assert!(Keys::of(r#"{"a": }"#).is_err());
    }
}
