//! Keys that appear twice in one JSON object. serde_json (and so verdict), Python and jq
//! keep the last, other readers the first: such a file means different things to
//! different tools, so `check` reports each one.

use std::collections::HashSet;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// The path (`reviews.ann`, `responses[1].text`) of every key that appears a second time
/// in its object, in the order they come; empty for text that is not JSON.
pub(super) fn duplicate_keys(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut de = serde_json::Deserializer::from_str(text);
    let _ = Walk {
        path: String::new(),
        out: &mut out,
    }
    .deserialize(&mut de);
    out
}

struct Walk<'a> {
    path: String,
    out: &'a mut Vec<String>,
}

impl Walk<'_> {
    fn at(&mut self, part: &str) -> Walk<'_> {
        Walk {
            path: part.to_string(),
            out: self.out,
        }
    }
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<(), A::Error> {
        let mut k = 0;
        loop {
            let path = format!("{}[{k}]", self.path);
            if seq.next_element_seed(self.at(&path))?.is_none() {
                return Ok(());
            }
            k += 1;
        }
    }
    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            // A number read with `arbitrary_precision` is a one-key map: no object.
            if key == "$serde_json::private::Number" {
                map.next_value::<IgnoredAny>()?;
                continue;
            }
            let path = if self.path.is_empty() {
                key.clone()
            } else {
                format!("{}.{key}", self.path)
            };
            if !seen.insert(key) {
                self.out.push(path.clone());
            }
            map.next_value_seed(self.at(&path))?;
        }
        Ok(())
    }
}
