//! A review's fields read flat, each group of them (a benchmark's grades, C-VQA's
//! verification) by its own type, in one pass over the review's keys.
//!
//! This is what `#[serde(flatten)]` did when reading, without its cost (issue 21): serde
//! reads a struct with flattened members by buffering every key its own fields do not
//! take, with its value, into a tree (`Content`), and then reads each flattened member
//! from that tree. A review's keys are read here once: each goes to the first group that
//! names it, in the order the fields were flattened; a key no group names is skipped
//! unread, as serde skipped it. A field given twice is refused as serde refuses it
//! (`duplicate field `…``). Writing a review still uses serde's `flatten` (it buffers
//! nothing).

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserializer, MapAccess, Visitor};

/// A group of fields read flat among a review's keys ([`flat_fields!`] writes it).
pub(crate) trait FlatFields {
    /// Read the value of `key` into `self` when `key` is one of this group's fields
    /// (`Ok(true)`); leave the map as it is otherwise (`Ok(false)`). `seen` holds one bit
    /// per field of the group, set when that field is read.
    fn read_field<'de, A: MapAccess<'de>>(
        &mut self,
        key: &str,
        map: &mut A,
        seen: &mut u64,
    ) -> Result<bool, A::Error>;
}

/// `impl FlatFields for Type`, reading each listed field under its name in the file:
/// `flat_fields!(Grades { fact_correct: "fact_correct", justification: "justification" })`.
/// A field read with a function of its own names a type whose `Deserialize` is that
/// function and whose `.0` is the field's value: `fixed_answer: "fixed_answer" as
/// crate::model::TextOrNumber`. The test beside each type reads the same objects with
/// the type's own derived `Deserialize` and this, and compares.
macro_rules! flat_fields {
    ($ty:ty { $($field:ident : $name:literal $(as $with:ty)?),* $(,)? }) => {
        impl $crate::model::FlatFields for $ty {
            fn read_field<'de, A: serde::de::MapAccess<'de>>(
                &mut self,
                key: &str,
                map: &mut A,
                seen: &mut u64,
            ) -> Result<bool, A::Error> {
                let mut bit = 1u64;
                $(
                    if key == $name {
                        if *seen & bit != 0 {
                            return Err(<A::Error as serde::de::Error>::duplicate_field($name));
                        }
                        *seen |= bit;
                        self.$field = $crate::model::flat_fields!(@value map $($with)?);
                        return Ok(true);
                    }
                    bit <<= 1;
                )*
                let _ = bit;
                Ok(false)
            }
        }
    };
    (@value $map:ident) => { $map.next_value()? };
    (@value $map:ident $with:ty) => { $map.next_value::<$with>()?.0 };
}
pub(crate) use flat_fields;

/// A map's key as read: borrowed from the text when it has no escapes.
pub(crate) struct Key<'de>(pub Cow<'de, str>);

impl<'de> serde::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key<'de>, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("field identifier")
            }
            fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_identifier(V)
    }
}
