//! CharToM-QA's typed item fields: the plot context and the LLM judge's grading
//! (docs/format.md, "CharToM-QA").

use indexmap::IndexMap;
use serde::{Deserialize, Deserializer, Serialize};

use crate::model::{Loose, double_option, ser_double_option};

/// An LLM judge's grading of a CharToM-QA response.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(default)]
pub struct Judge {
    /// Normally a list of 1-based bonus point numbers; the benchmark's script may also
    /// write `"Null"` (unparsable). See [`Judge::bonus_list`].
    pub bonus: Option<Loose>,
    /// A penalty text, `null`, or a text containing `None` (no penalty).
    pub penalty: Option<Loose>,
}

/// What the judge's `bonus` field says.
#[derive(Debug, Clone, PartialEq)]
pub enum JudgeBonus {
    Points(Vec<u32>),
    /// The judge's output could not be parsed (`"Null"` and anything else not a list of
    /// numbers). The original script counts `"Null"` as 3 hits; we count it as unparsable.
    Unparsable(String),
}

impl Judge {
    pub fn bonus_list(&self) -> JudgeBonus {
        match &self.bonus {
            None | Some(Loose::Null) => JudgeBonus::Points(vec![]),
            Some(bonus @ Loose::Array(a)) => {
                let mut out = Vec::new();
                for v in a {
                    match v
                        .as_u64()
                        .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
                    {
                        Some(n) if n >= 1 && n <= u32::MAX as u64 => out.push(n as u32),
                        _ => return JudgeBonus::Unparsable(bonus.to_string()),
                    }
                }
                JudgeBonus::Points(out)
            }
            Some(n) if n.is_number() => match n.as_u64() {
                Some(n) if n >= 1 => JudgeBonus::Points(vec![n as u32]),
                _ => JudgeBonus::Unparsable(n.to_string()),
            },
            Some(Loose::String(s)) => {
                // "[1, 2]" or "1,2" as text
                let t = s.trim().trim_start_matches('[').trim_end_matches(']');
                if t.is_empty() {
                    return JudgeBonus::Points(vec![]);
                }
                let parsed: Option<Vec<u32>> = t
                    .split(',')
                    .map(|p| p.trim().parse::<u32>().ok().filter(|n| *n >= 1))
                    .collect();
                match parsed {
                    Some(v) => JudgeBonus::Points(v),
                    None => JudgeBonus::Unparsable(s.clone()),
                }
            }
            Some(other) => JudgeBonus::Unparsable(other.to_string()),
        }
    }

    /// The points [`Judge::bonus_list`] covers of an item's `n_points`
    /// ([`crate::bench::chartom_qa::grade::covered_count`]); `None` when the bonus is
    /// unparsable. A list of numbers, as nearly every judge writes it, is counted on a
    /// bit set (up to 64 points) without building the list; any other shape is read by
    /// `bonus_list` (the index asks this of every response).
    pub fn covered(&self, n_points: usize) -> Option<u64> {
        if let Some(Loose::Array(a)) = &self.bonus
            && n_points <= 64
        {
            let mut seen = 0u64;
            for v in a {
                let n = v
                    .as_u64()
                    .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
                    .filter(|n| *n >= 1 && *n <= u32::MAX as u64)?;
                if n as usize <= n_points {
                    seen |= 1 << (n - 1);
                }
            }
            return Some(seen.count_ones() as u64);
        }
        match self.bonus_list() {
            JudgeBonus::Points(p) => {
                Some(crate::bench::chartom_qa::grade::covered_count(&p, n_points))
            }
            JudgeBonus::Unparsable(_) => None,
        }
    }

    /// Did the judge find a penalty: [`Judge::penalty_text`] is some, without the copy.
    pub fn penalized(&self) -> bool {
        match &self.penalty {
            None | Some(Loose::Null) => false,
            Some(Loose::String(s)) => !(s.trim().is_empty() || s.contains("None")),
            _ => self.penalty_text().is_some(),
        }
    }

    /// The penalty text when the judge found one. A penalty counts when its text does
    /// not contain `None` (docs/format.md); `null` and empty text mean no penalty.
    pub fn penalty_text(&self) -> Option<String> {
        match &self.penalty {
            None | Some(Loose::Null) => None,
            Some(Loose::String(s)) if s.trim().is_empty() || s.contains("None") => None,
            Some(Loose::String(s)) => Some(s.clone()),
            Some(Loose::Bool(false)) => None,
            Some(other) => {
                let s = other.to_string();
                if s.contains("None") { None } else { Some(s) }
            }
        }
    }
}

/// CharToM-QA plot context: by preceding length (`"0"`, `"1000"`, `"2000"`) or one text.
#[derive(Debug, Clone)]
pub enum Context {
    ByLength(IndexMap<String, String>),
    Text(String),
}

/// An object of texts or one text, read in one pass (serde's untagged enums buffer the
/// whole value first).
impl<'de> Deserialize<'de> for Context {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Context, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Context;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a text, or an object of texts by context length")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Context, E> {
                Ok(Context::Text(v.to_string()))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Context, E> {
                Ok(Context::Text(v))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<Context, A::Error> {
                let mut out = IndexMap::new();
                while let Some((k, v)) = m.next_entry::<String, String>()? {
                    out.insert(k, v);
                }
                Ok(Context::ByLength(out))
            }
        }
        d.deserialize_any(V)
    }
}

impl Context {
    /// The context of the given length, falling back to the longest shorter one, then to
    /// any; a single-text context is returned whatever the length.
    pub fn get(&self, length: &str) -> Option<&str> {
        match self {
            Context::Text(s) => Some(s),
            Context::ByLength(m) => m
                .get(length)
                .or_else(|| m.values().next())
                .map(String::as_str),
        }
    }
}

/// A reviewer's grades of a CharToM-QA response.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(default)]
pub struct Grades {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bonus: Option<Vec<u32>>,
    /// `Some(None)` = reviewed, no penalty (`null` in the file); `None` = not graded.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "double_option",
        serialize_with = "ser_double_option"
    )]
    pub penalty: Option<Option<String>>,
}

crate::model::flat_fields!(Grades {
    bonus: "bonus",
    penalty: "penalty" as crate::model::DoubleOption,
});
