//! A review read in one pass over its keys ([`Review`]'s `Deserialize`) against the same
//! types read with serde's `#[serde(flatten)]`, as they were read before (issue 21): the
//! reference types below are the old ones, with each group's own derived `Deserialize`.

use super::{ResponseGrades, Review};

/// The types as they were read (named as they were, so that serde's messages name them
/// alike): serde's `flatten` over each group's derived `Deserialize`.
mod old {
    use indexmap::IndexMap;
    use serde::Deserialize;

    #[derive(Debug, Default, Deserialize)]
    #[serde(default)]
    pub struct Review {
        at: Option<String>,
        note: Option<String>,
        seconds: Option<f64>,
        #[serde(rename = "final")]
        is_final: Option<bool>,
        verdict: Option<String>,
        #[serde(flatten)]
        cvqa: crate::bench::cvqa::fields::Verification,
        #[serde(flatten)]
        inspect: crate::bench::inspect::fields::Grades,
        #[serde(flatten)]
        grades: ResponseGrades,
        models: IndexMap<String, ResponseGrades>,
    }

    #[derive(Debug, Default, Deserialize)]
    #[serde(default)]
    pub struct ResponseGrades {
        #[serde(flatten)]
        chartom: crate::bench::chartom::fields::Grades,
        #[serde(flatten)]
        chartom_qa: crate::bench::chartom_qa::fields::Grades,
        #[serde(flatten)]
        cvqa: crate::bench::cvqa::fields::Grades,
        answers: IndexMap<String, serde_json::Value>,
    }

    impl From<ResponseGrades> for super::ResponseGrades {
        fn from(g: ResponseGrades) -> super::ResponseGrades {
            super::ResponseGrades {
                chartom: g.chartom,
                chartom_qa: g.chartom_qa,
                cvqa: g.cvqa,
                answers: g.answers,
            }
        }
    }

    impl From<Review> for super::Review {
        fn from(r: Review) -> super::Review {
            super::Review {
                at: r.at,
                note: r.note,
                seconds: r.seconds,
                is_final: r.is_final,
                verdict: r.verdict,
                cvqa: r.cvqa,
                inspect: r.inspect,
                grades: r.grades.into(),
                models: r.models.into_iter().map(|(k, v)| (k, v.into())).collect(),
            }
        }
    }
}

use crate::test_support::Rng;

/// Every key a review's groups read, some they do not, and near misses. (Not `answers`:
/// `flatten` reads a number there as a map, with `arbitrary_precision`, where the reader
/// refuses it; a declared benchmark's answers are read in `bench/declared/tests.rs`.)
const KEYS: &[&str] = &[
    "at",
    "note",
    "seconds",
    "final",
    "verdict",
    "models",
    "status",
    "image_related",
    "answer_ok",
    "fixed_question",
    "fixed_answer",
    "reason",
    "reason_text",
    "scorers",
    "fact_correct",
    "justification",
    "bonus",
    "penalty",
    "original_correct",
    "counterfactual_correct",
    "extra",
    "Status",
    "is_final",
    "grades",
    "cvqa",
    "st\\u0061tus",
    "",
];

/// Values of every kind, and the ones each field reads.
const VALUES: &[&str] = &[
    "null",
    "true",
    "false",
    "0",
    "1",
    "2",
    "-1",
    "1.0",
    "1e3",
    "20.5",
    "18446744073709551616",
    "\"\"",
    "\"x\"",
    "\"2026-11-01T10:02:00Z\"",
    "\"accept\"",
    "\"fix\"",
    "\"reject\"",
    "\"wrong-answer\"",
    "\"other\"",
    "\"identifies\"",
    "\"partial\"",
    "\"misses\"",
    "\"pass\"",
    "\"None\"",
    "\"a\\nb\"",
    "[]",
    "[1]",
    "[1,2]",
    "[0]",
    "[1.5]",
    "[\"1\"]",
    "{}",
    "{\"a\":1}",
    "{\"m1\":{\"fact_correct\":true}}",
    "{\"main\":{\"verdict\":\"correct\",\"at\":\"t\"}}",
    "{\"$serde_json::private::Number\":\"5\"}",
    "{\"accept\":null}",
    "{\"s\":{}}",
    "{\"s\":5}",
    "{\"s\":[\"t\",\"correct\"]}",
    "-0",
    "-2",
];

fn value(g: &mut Rng, depth: usize) -> String {
    if depth < 2 && g.below(8) == 0 {
        return object(g, depth + 1);
    }
    g.pick(VALUES).to_string()
}

fn object(g: &mut Rng, depth: usize) -> String {
    let n = g.below(6);
    let mut out = String::from("{");
    for k in 0..n {
        if k > 0 {
            out.push(',');
        }
        let key = g.pick(KEYS);
        out.push_str(&format!("\"{key}\":{}", value(g, depth)));
    }
    out.push('}');
    out
}

/// A value each field reads without error, for the reviews that parse.
fn good(g: &mut Rng, key: &str) -> String {
    let pick = |g: &mut Rng, xs: &[&str]| g.pick(xs).to_string();
    match key {
        "at" | "note" | "verdict" | "fixed_question" | "reason_text" => {
            pick(g, &["\"x\"", "null", "\"a\\u00e9\""])
        }
        "seconds" => pick(g, &["1", "20.5", "1e3", "null", "-0.0"]),
        "final"
        | "image_related"
        | "answer_ok"
        | "fact_correct"
        | "original_correct"
        | "counterfactual_correct" => pick(g, &["true", "false", "null"]),
        "status" => pick(g, &["\"accept\"", "\"fix\"", "null"]),
        "reason" => pick(g, &["\"ambiguous\"", "\"other\"", "null"]),
        "fixed_answer" => pick(g, &["\"4\"", "4", "4.50", "1e3", "true", "null"]),
        "justification" => pick(g, &["\"partial\"", "null"]),
        "bonus" => pick(g, &["[1,2]", "[]", "null", "[3]"]),
        "penalty" => pick(g, &["null", "\"says X\""]),
        "scorers" => pick(
            g,
            &[
                "{}",
                "{\"s\":{\"verdict\":\"correct\",\"note\":\"n\"}}",
                "null",
            ],
        ),
        "models" => {
            let mut out = String::from("{");
            for m in 0..g.below(3) {
                if m > 0 {
                    out.push(',');
                }
                out.push_str(&format!("\"m{m}\":{{"));
                let n = g.below(4);
                let mut keys = vec![];
                for _ in 0..n {
                    let k = g.pick(&[
                        "fact_correct",
                        "justification",
                        "bonus",
                        "penalty",
                        "original_correct",
                        "counterfactual_correct",
                        "other",
                    ]);
                    if !keys.contains(&k) {
                        keys.push(k);
                    }
                }
                let body: Vec<String> = keys
                    .iter()
                    .map(|k| format!("\"{k}\":{}", good(g, k)))
                    .collect();
                out.push_str(&body.join(","));
                out.push('}');
            }
            out.push('}');
            out
        }
        _ => value(g, 1),
    }
}

fn good_review(g: &mut Rng) -> String {
    let mut keys: Vec<&str> = vec![];
    for _ in 0..g.below(9) {
        let k = g.pick(KEYS);
        if !keys.contains(&k) && !k.contains('\\') {
            keys.push(k);
        }
    }
    let body: Vec<String> = keys
        .iter()
        .map(|k| format!("\"{k}\":{}", good(g, k)))
        .collect();
    format!("{{{}}}", body.join(", "))
}

fn both(text: &str) -> (Result<Review, String>, Result<Review, String>) {
    let new = serde_json::from_str::<Review>(text).map_err(|e| e.to_string());
    let old = serde_json::from_str::<old::Review>(text)
        .map(Review::from)
        .map_err(|e| e.to_string());
    (new, old)
}

/// Reviews that parse: the same review either way, field by field.
#[test]
fn a_review_reads_as_it_did_with_flatten() {
    let mut g = Rng::new(21);
    let mut read = 0;
    for _ in 0..20_000 {
        let text = good_review(&mut g);
        let (new, old) = both(&text);
        match (&new, &old) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{text}"),
            (Err(_), Err(_)) => {}
            _ => panic!("{text}: new {new:?}, old {old:?}"),
        }
        read += new.is_ok() as usize;
    }
    assert!(read > 15_000, "{read} of the reviews read");
}

/// Any mix of keys and values: a review reads when it read before, and is then the same;
/// one that was refused is refused (the message may name another place in the text:
/// a wrong value of a group's field is refused where it is, no longer at the end of the
/// review, where `flatten` read the buffered fields).
#[test]
fn any_review_reads_or_fails_as_it_did_with_flatten() {
    let mut g = Rng::new(7);
    let (mut ok, mut err) = (0, 0);
    for _ in 0..40_000 {
        let text = object(&mut g, 0);
        let (new, old) = both(&text);
        match (&new, &old) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b, "{text}");
                ok += 1;
            }
            (Err(_), Err(_)) => err += 1,
            // serde's `flatten` read a number that is not a 64-bit integer (a map of
            // one key with `arbitrary_precision`) as a scorer's empty review; now it is
            // refused, as an integer there was.
            (Err(e), Ok(_))
                if e.starts_with("invalid type: number, expected struct ScorerReview") =>
            {
                err += 1
            }
            _ => panic!("{text}: new {new:?}, old {old:?}"),
        }
    }
    assert!(ok > 1000 && err > 1000, "{ok} read, {err} refused");
}

/// A key given twice is refused, whichever group reads it, as serde refused it.
#[test]
fn a_field_given_twice_is_refused() {
    for k in [
        "at",
        "models",
        "status",
        "fixed_answer",
        "scorers",
        "bonus",
        "penalty",
    ] {
        let v = if k == "models" || k == "scorers" {
            "{}"
        } else {
            "null"
        };
        let text = format!("{{\"{k}\":{v},\"{k}\":{v}}}");
        let e = serde_json::from_str::<Review>(&text)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(&format!("duplicate field `{k}`")), "{e}");
        assert!(serde_json::from_str::<old::Review>(&text).is_err());
        let text = format!("{{\"models\":{{\"m\":{{\"{k}\":{v},\"{k}\":{v}}}}}}}");
        let new = serde_json::from_str::<Review>(&text);
        let old = serde_json::from_str::<old::Review>(&text);
        assert_eq!(new.is_err(), old.is_err(), "{text}");
    }
    // An unknown key given twice is skipped both times.
    let r: Review = serde_json::from_str(r#"{"x":1,"x":[2],"note":"n"}"#).unwrap();
    assert_eq!(r.note.as_deref(), Some("n"));
}

/// A review that is not an object is refused with the same words.
#[test]
fn a_review_that_is_no_object_is_refused_alike() {
    for text in ["5", "\"x\"", "[]", "[1]", "true"] {
        let (new, old) = both(text);
        assert_eq!(new.unwrap_err(), old.unwrap_err(), "{text}");
    }
    for text in ["5", "[]", "\"x\""] {
        let text = format!("{{\"models\":{{\"m\":{text}}}}}");
        let (new, old) = both(&text);
        assert_eq!(new.unwrap_err(), old.unwrap_err(), "{text}");
    }
}

/// An item with a wrong value in a review's field: the item is broken, and the message
/// names the field.
#[test]
fn a_wrong_review_field_names_it() {
    let e =
        super::Item::parse(r#"{"benchmark":"cvqa","reviews":{"ann":{"at":"t","status":"maybe"}}}"#)
            .unwrap_err();
    assert_eq!(e.field, "reviews.ann.status", "{e}");
    assert!(e.message.contains("unknown variant `maybe`"), "{e}");
    let e = super::Item::parse(
        r#"{"benchmark":"chartom","reviews":{"ann":{"models":{"m":{"fact_correct":1}}}}}"#,
    )
    .unwrap_err();
    assert_eq!(e.field, "reviews.ann.models.m.fact_correct", "{e}");
    // Read with `flatten`, serde named the review only, and the place of its end.
    let de = &mut serde_json::Deserializer::from_str(r#"{"at":"t","status":"maybe"}"#);
    let e = serde_path_to_error::deserialize::<_, old::Review>(de).unwrap_err();
    assert_eq!(e.path().to_string(), ".");
    assert!(e.to_string().ends_with("column 27"), "{e}");
}

/// The field names `T`'s derived `Deserialize` reads (serde hands them to
/// `deserialize_struct`).
fn derived_fields<'de, T: serde::Deserialize<'de>>() -> &'static [&'static str] {
    use serde::de::{Error, Visitor};
    struct Names;
    #[derive(Debug)]
    struct Found(&'static [&'static str]);
    impl std::fmt::Display for Found {
        fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "{:?}", self.0)
        }
    }
    impl std::error::Error for Found {}
    impl Error for Found {
        fn custom<M: std::fmt::Display>(_: M) -> Found {
            Found(&[])
        }
    }
    impl<'de> serde::Deserializer<'de> for Names {
        type Error = Found;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
            Err(Found(&[]))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Found> {
            Err(Found(fields))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map enum identifier ignored_any
        }
    }
    match T::deserialize(Names) {
        Err(Found(f)) => f,
        Ok(_) => unreachable!(),
    }
}

/// Does `T`'s flat reader take `key`?
fn takes<T: crate::model::FlatFields + Default>(key: &str) -> bool {
    use serde::de::{MapAccess, Visitor};
    struct V<T>(std::marker::PhantomData<T>);
    impl<'de, T: crate::model::FlatFields + Default> Visitor<'de> for V<T> {
        type Value = bool;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a map")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<bool, A::Error> {
            let k: String = m.next_key()?.unwrap();
            // `null` reads into every field but a map; a refused value was taken too.
            match T::default().read_field(&k, &mut m, &mut 0) {
                Ok(true) | Err(_) => Ok(true),
                Ok(false) => m.next_value::<serde::de::IgnoredAny>().map(|_| false),
            }
        }
    }
    let text = format!("{{{}:null}}", serde_json::to_string(key).unwrap());
    let mut de = serde_json::Deserializer::from_str(&text);
    serde::Deserializer::deserialize_map(&mut de, V::<T>(Default::default())).unwrap_or(true)
}

/// Each group's flat reader takes every field its derived `Deserialize` reads, by the
/// same name, and no other key: a field added to a group and not to its `flat_fields!`
/// fails here.
#[test]
fn each_group_reads_the_fields_serde_names() {
    fn check<'de, T: serde::Deserialize<'de> + crate::model::FlatFields + Default>() {
        let names = derived_fields::<T>();
        assert!(!names.is_empty(), "{}", std::any::type_name::<T>());
        for k in names {
            assert!(
                takes::<T>(k),
                "{} does not read {k}",
                std::any::type_name::<T>()
            );
        }
        for k in KEYS {
            if !names.contains(k) {
                assert!(!takes::<T>(k), "{} reads {k}", std::any::type_name::<T>());
            }
        }
    }
    check::<crate::bench::cvqa::fields::Verification>();
    check::<crate::bench::cvqa::fields::Grades>();
    check::<crate::bench::chartom::fields::Grades>();
    check::<crate::bench::chartom_qa::fields::Grades>();
    check::<crate::bench::inspect::fields::Grades>();
}
