//! A cheaper parse of an item for the background index (`tui::facts`): the [`Item`] its
//! facts and search texts are worked out from, without building what none of them reads.
//!
//! [`Item::parse_for_facts`] reads a line with the same field names, the same
//! `#[serde(default)]` and, field by field, types that accept exactly the JSON the item's
//! own types accept (so a line it reads is a line [`Item::parse`] reads, duplicate fields,
//! `null`s and wrong types alike: anything else is an error, and the caller falls back to
//! `Item::parse`). What it leaves out is only what no fact and no search text reads
//! (docs/format.md's fields as the index uses them):
//!
//! - `image`, `character`, `context`, `answer`, `choices` (the item's texts a reviewer
//!   reads on screen): checked, not kept;
//! - `bonus_points`: only how many (CharToM-QA's grading counts them);
//! - a response's `text` and `justification`: only whether each is there and blank
//!   (whether the response needs grades of its own, `review::item_done`).
//!
//! A line that names no benchmark (a benchmark's own layout, `bench::sniff`) is left to
//! `Item::parse`. `tui/facts/lean_tests.rs` checks that the facts and search texts of
//! every sample, every generated item and odd lines are those of `Item::parse`.

use std::fmt;

use indexmap::IndexMap;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

use super::{Item, Response, Review};
use crate::bench::chartom::fields::{Chart, Fact, Mind};
use crate::bench::chartom_qa::fields::Judge;
use crate::bench::cvqa::fields::QuestionAnswer;
use crate::model::opt_string_or_number;

impl Item {
    /// The item as the index reads it: every field a fact or a search text reads, as
    /// [`Item::parse`] gives it; the texts none reads left out (see the module). `None`
    /// when this parse cannot be sure (a line it cannot read, or one that names no
    /// benchmark): use `Item::parse`, which also says what is wrong.
    pub fn parse_for_facts(text: &str) -> Option<Item> {
        let lean: Lean = serde_json::from_str(text).ok()?;
        lean.benchmark_name.as_ref()?;
        Some(lean.into_item())
    }
}

/// [`Item`]'s fields under the same names; the left-out ones with a type that checks
/// what the item's own type would.
#[derive(Default, Deserialize)]
#[serde(default)]
struct Lean {
    id: Option<String>,
    #[serde(rename = "benchmark")]
    benchmark_name: Option<String>,
    /// `Option<String>`.
    image: Option<Text>,
    responses: Vec<LeanResponse>,
    reviews: IndexMap<String, Review>,
    chart: Option<Chart>,
    fact: Option<Fact>,
    mind: Option<Mind>,
    book: Option<String>,
    /// `Option<String>`.
    character: Option<Text>,
    dimension: Option<String>,
    /// `Option<Context>`.
    context: Option<ContextCheck>,
    question: Option<String>,
    /// `Option<String>` by `opt_string_or_number`.
    answer: Option<TextOrNumber>,
    /// `Vec<String>`: how many.
    bonus_points: Texts,
    /// `Vec<String>`.
    choices: Texts,
    key: Option<i64>,
    split: Option<String>,
    group: Option<String>,
    original: Option<QuestionAnswer>,
    counterfactual: Option<QuestionAnswer>,
}

/// [`Response`]'s fields under the same names.
#[derive(Default, Deserialize)]
#[serde(default)]
struct LeanResponse {
    model: String,
    #[serde(deserialize_with = "opt_string_or_number")]
    fact: Option<String>,
    mind: Option<f64>,
    /// `Option<String>`: whether blank.
    justification: Option<Blank>,
    /// `Option<String>`: whether blank.
    text: Option<Blank>,
    choice: Option<i64>,
    judge: Option<Judge>,
    #[serde(deserialize_with = "opt_string_or_number")]
    original: Option<String>,
    #[serde(deserialize_with = "opt_string_or_number")]
    counterfactual: Option<String>,
}

impl Lean {
    fn into_item(self) -> Item {
        Item {
            id: self.id,
            benchmark_name: self.benchmark_name,
            image: None,
            responses: self
                .responses
                .into_iter()
                .map(LeanResponse::into_response)
                .collect(),
            reviews: self.reviews,
            chart: self.chart,
            fact: self.fact,
            mind: self.mind,
            book: self.book,
            character: None,
            dimension: self.dimension,
            context: None,
            question: self.question,
            answer: None,
            bonus_points: vec![String::new(); self.bonus_points.0],
            choices: Vec::new(),
            key: self.key,
            split: self.split,
            group: self.group,
            original: self.original,
            counterfactual: self.counterfactual,
            layout: None,
        }
    }
}

impl LeanResponse {
    fn into_response(self) -> Response {
        Response {
            model: self.model,
            fact: self.fact,
            mind: self.mind,
            justification: self.justification.map(Blank::stand_in),
            text: self.text.map(Blank::stand_in),
            choice: self.choice,
            judge: self.judge,
            original: self.original,
            counterfactual: self.counterfactual,
        }
    }
}

/// Accept what `String` accepts (serde's `StringVisitor`), keeping nothing.
struct TextVisitor;

impl<'de> Visitor<'de> for TextVisitor {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<(), E> {
        std::str::from_utf8(v)
            .map(|_| ())
            .map_err(|_| E::invalid_value(de::Unexpected::Bytes(v), &self))
    }
}

/// A string that no fact reads: checked as `String`, not kept.
struct Text;

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        d.deserialize_string(TextVisitor).map(|()| Text)
    }
}

/// A list of strings no fact reads (`Vec<String>`): how many.
#[derive(Default)]
struct Texts(usize);

impl<'de> Deserialize<'de> for Texts {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Texts, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Texts;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<Texts, A::Error> {
                let mut n = 0;
                while s.next_element::<Text>()?.is_some() {
                    n += 1;
                }
                Ok(Texts(n))
            }
        }
        d.deserialize_seq(V)
    }
}

/// A response's text or justification (`String`): only whether it is blank, which is all
/// the index reads of it (`Spec::response_required`).
struct Blank(bool);

impl<'de> Deserialize<'de> for Blank {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Blank, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Blank;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Blank, E> {
                Ok(Blank(v.trim().is_empty()))
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Blank, E> {
                match std::str::from_utf8(v) {
                    Ok(s) => self.visit_str(s),
                    Err(_) => Err(E::invalid_value(de::Unexpected::Bytes(v), &self)),
                }
            }
        }
        d.deserialize_string(V)
    }
}

impl Blank {
    /// A text that is blank exactly when the one read was.
    fn stand_in(self) -> String {
        if self.0 { String::new() } else { "…".into() }
    }
}

/// The item's `context` (`bench::chartom_qa::fields::Context`): a text, or an object of
/// texts by context length; checked, not kept.
struct ContextCheck;

impl<'de> Deserialize<'de> for ContextCheck {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ContextCheck, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ContextCheck;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a text, or an object of texts by context length")
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<ContextCheck, E> {
                Ok(ContextCheck)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<ContextCheck, A::Error> {
                while m.next_entry::<Text, Text>()?.is_some() {}
                Ok(ContextCheck)
            }
        }
        d.deserialize_any(V)
    }
}

/// The item's `answer` (`opt_string_or_number` inside `Some`): a string, a number or a
/// boolean; checked, not kept. A number comes as a map under `arbitrary_precision`: the
/// value is built (as `opt_string_or_number` does) for anything but a string.
struct TextOrNumber;

impl<'de> Deserialize<'de> for TextOrNumber {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TextOrNumber, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TextOrNumber;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or number")
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<TextOrNumber, E> {
                Ok(TextOrNumber)
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<TextOrNumber, E> {
                Ok(TextOrNumber)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<TextOrNumber, E> {
                Ok(TextOrNumber)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<TextOrNumber, E> {
                Ok(TextOrNumber)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<TextOrNumber, E> {
                Ok(TextOrNumber)
            }
            fn visit_unit<E: de::Error>(self) -> Result<TextOrNumber, E> {
                Ok(TextOrNumber)
            }
            fn visit_map<A: MapAccess<'de>>(self, m: A) -> Result<TextOrNumber, A::Error> {
                // A number under `arbitrary_precision` (or an object): as `Value` reads it.
                match serde_json::Value::deserialize(de::value::MapAccessDeserializer::new(m))? {
                    serde_json::Value::Number(_) => Ok(TextOrNumber),
                    _ => Err(de::Error::custom(
                        "expected a string or number, found an object",
                    )),
                }
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The field names a derived `Deserialize` asks for (`deserialize_struct`'s `fields`).
    fn fields<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
        struct Names(Option<&'static [&'static str]>);
        impl<'de> Deserializer<'de> for &mut Names {
            type Error = de::value::Error;
            fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
                Err(de::Error::custom("names only"))
            }
            fn deserialize_struct<V: Visitor<'de>>(
                self,
                _: &'static str,
                fields: &'static [&'static str],
                _: V,
            ) -> Result<V::Value, Self::Error> {
                self.0 = Some(fields);
                Err(de::Error::custom("names only"))
            }
            serde::forward_to_deserialize_any! {
                bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
                bytes byte_buf option unit unit_struct newtype_struct seq tuple
                tuple_struct map enum identifier ignored_any
            }
        }
        let mut names = Names(None);
        let _ = T::deserialize(&mut names);
        names.0.expect("a struct")
    }

    /// The lean parse reads every field the item's own parse reads, under the same name
    /// (a field added to `Item` or `Response` and not here would be left at its default).
    #[test]
    fn the_lean_parse_reads_every_field_of_the_item() {
        let sorted = |f: &[&'static str]| {
            let mut v = f.to_vec();
            v.sort();
            v
        };
        assert_eq!(sorted(fields::<Lean>()), sorted(fields::<Item>()));
        assert_eq!(
            sorted(fields::<LeanResponse>()),
            sorted(fields::<Response>())
        );
    }
}
