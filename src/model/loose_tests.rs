//! [`Loose`] against `serde_json::Value` (what the typed views read before, issue 21): on
//! generated JSON texts of every shape and number spelling, each answers the same.

use super::*;

fn rng(seed: u64) -> impl FnMut(usize) -> usize {
    let mut g = crate::team::split::SplitMix64::new(seed);
    move |n| g.below(n as u64) as usize
}

/// A number as a file may spell it: signs, leading zeros are not JSON, fractions,
/// exponents of either case and sign, 64-bit edges and beyond, `-0`.
fn number(r: &mut impl FnMut(usize) -> usize) -> String {
    const EDGES: &[&str] = &[
        "0",
        "-0",
        "0.0",
        "-0.0",
        "1",
        "-1",
        "2",
        "1.0",
        "1.50",
        "1e3",
        "1E3",
        "1e+3",
        "1e-3",
        "-1e3",
        "1e308",
        "1e309",
        "-1e309",
        "2e-324",
        "4294967295",
        "4294967296",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "123456789012345678901234567890",
        "0.1",
        "3.141592653589793238462643383279",
        "9007199254740993",
        "1.7976931348623157e308",
    ];
    if r(3) == 0 {
        return EDGES[r(EDGES.len())].to_string();
    }
    let mut s = String::new();
    if r(3) == 0 {
        s.push('-');
    }
    let digits = 1 + r(22);
    s.push(char::from(b'1' + r(9) as u8));
    for _ in 1..digits {
        s.push(char::from(b'0' + r(10) as u8));
    }
    if r(3) == 0 {
        s.push('.');
        for _ in 0..1 + r(6) {
            s.push(char::from(b'0' + r(10) as u8));
        }
    }
    if r(4) == 0 {
        s.push(['e', 'E'][r(2)]);
        match r(3) {
            0 => s.push('+'),
            1 => s.push('-'),
            _ => {}
        }
        s.push_str(&r(400).to_string());
    }
    s
}

fn string(r: &mut impl FnMut(usize) -> usize) -> String {
    const PARTS: &[&str] = &[
        "1",
        " 2 ",
        "1.2 million",
        "None",
        "Null",
        "[1, 2]",
        "x",
        "é",
        "\\n",
        "\\\"",
        "\\\\",
        "\\u00e9",
        "\\ud83d\\ude00",
        "K",
        "İ",
        "",
        "-",
        "1,2",
        "\\t",
    ];
    let parts: Vec<&str> = (0..r(4)).map(|_| PARTS[r(PARTS.len())]).collect();
    format!("\"{}\"", parts.concat())
}

fn value(r: &mut impl FnMut(usize) -> usize, depth: usize) -> String {
    match r(if depth > 2 { 5 } else { 7 }) {
        0 => ["null", "true", "false"][r(3)].to_string(),
        1 | 2 => number(r),
        3 | 4 => string(r),
        5 => {
            let v: Vec<String> = (0..r(4)).map(|_| value(r, depth + 1)).collect();
            format!("[{}]", v.join(","))
        }
        _ => {
            // (keys may repeat: the later value wins, at the first one's place)
            let v: Vec<String> = (0..r(4))
                .map(|_| {
                    format!(
                        "{}:{}",
                        ["\"a\"", "\"b\"", "\"é\""][r(3)],
                        value(r, depth + 1)
                    )
                })
                .collect();
            format!("{{{}}}", v.join(","))
        }
    }
}

fn same(l: &Loose, v: &Value, text: &str) {
    assert_eq!(l.as_u64(), v.as_u64(), "as_u64 of {text}");
    assert_eq!(
        l.as_f64().map(f64::to_bits),
        v.as_f64().map(f64::to_bits),
        "as_f64 of {text}"
    );
    assert_eq!(l.as_str(), v.as_str(), "as_str of {text}");
    assert_eq!(l.is_array(), v.is_array(), "is_array of {text}");
    assert_eq!(l.is_number(), v.is_number(), "is_number of {text}");
    assert_eq!(&l.to_value(), v, "to_value of {text}");
    assert_eq!(l.to_string(), v.to_string(), "the JSON text of {text}");
    if let (Loose::Array(a), Value::Array(b)) = (l, v) {
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(b) {
            same(x, y, text);
        }
    }
}

#[test]
fn answers_as_a_value_does() {
    let mut r = rng(0x1005e);
    let mut numbers = [0usize; 3];
    for _ in 0..100_000 {
        let text = value(&mut r, 0);
        let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let l: Loose = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        same(&l, &v, &text);
        // read from a Value (as tests build items) and from a list element
        same(&Loose::from(v.clone()), &v, &text);
        let pair = format!("[[{text},1]]");
        let la: Vec<(Loose, u64)> = serde_json::from_str(&pair).unwrap();
        let va: Vec<(Value, u64)> = serde_json::from_str(&pair).unwrap();
        same(&la[0].0, &va[0].0, &text);
        match l {
            Loose::U64(_) => numbers[0] += 1,
            Loose::I64(_) => numbers[1] += 1,
            Loose::Number(_) => numbers[2] += 1,
            _ => {}
        }
    }
    // every kind of number was read
    assert!(numbers.iter().all(|&n| n > 2_000), "{numbers:?}");
}

#[test]
fn an_option_of_null_is_none_as_for_a_value() {
    #[derive(serde::Deserialize)]
    struct T {
        a: Option<Loose>,
        b: Option<Value>,
    }
    let t: T = serde_json::from_str(r#"{"a":null,"b":null}"#).unwrap();
    assert_eq!((t.a, t.b), (None, None));
}

#[test]
fn a_bad_number_is_refused_as_by_a_value() {
    for text in ["01", "1.", "-", "1e", ".5", "+1", "NaN", "Infinity"] {
        assert!(serde_json::from_str::<Value>(text).is_err(), "{text}");
        assert!(serde_json::from_str::<Loose>(text).is_err(), "{text}");
    }
}

#[test]
fn a_number_text_is_checked_as_serde_json_checks_it() {
    let mut r = rng(0x7e47);
    const BYTES: &[u8] = b"0123456789-+.eE x";
    let mut valid = 0;
    for _ in 0..200_000 {
        let text: String = if r(2) == 0 {
            number(&mut r)
        } else {
            (0..1 + r(8))
                .map(|_| BYTES[r(BYTES.len())] as char)
                .collect()
        };
        let want = text.parse::<Number>().is_ok();
        assert_eq!(is_json_number(&text), want, "{text:?}");
        valid += usize::from(want);
    }
    assert!(valid > 100_000, "{valid}");
    // an object of serde_json's number key, written in the file, is refused as before
    for text in [
        r#"{"$serde_json::private::Number":"abc"}"#,
        r#"{"$serde_json::private::Number":"1.5"}"#,
        r#"[{"$serde_json::private::Number":"01"}]"#,
    ] {
        let v = serde_json::from_str::<Value>(text);
        let l = serde_json::from_str::<Loose>(text);
        assert_eq!(v.is_ok(), l.is_ok(), "{text}");
        if let (Ok(v), Ok(l)) = (v, l) {
            same(&l, &v, text);
        }
    }
}
