//! [`model_wrong`] and the judge's [`Judge::covered`] / [`Judge::penalized`], which read
//! only what they need (issue 21: the index asks them of every response), against what
//! they stand for — [`effective`], [`Judge::bonus_list`] with [`covered_count`],
//! [`Judge::penalty_text`] — on generated items with odd values.

use super::*;
use crate::bench::chartom_qa::fields::Judge;

/// `model_wrong` as it was written: on the whole [`effective`].
fn reference_model_wrong(item: &Item, model: &str) -> bool {
    let e = effective(item, model);
    if e.choice_correct == Some(false) {
        return true;
    }
    match (&e.human_grade, &e.judge) {
        (Some(h), _) => h.penalized() || h.covered.is_some_and(|c| c < h.n_points),
        (None, Some(j)) => j.penalty.is_some() || j.covered.is_some_and(|c| c < j.n_points),
        _ => false,
    }
}

fn rng(seed: u64) -> impl FnMut(usize) -> usize {
    let mut g = crate::team::split::SplitMix64::new(seed);
    move |n| g.below(n as u64) as usize
}

/// A judge's bonus or penalty element: numbers of every spelling, texts, odd shapes.
const ODD: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "7",
    "63",
    "64",
    "65",
    "70",
    "-1",
    "-0",
    "1.0",
    "2.5",
    "1e0",
    "1E1",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "\"1\"",
    "\" 2 \"",
    "\"3\"",
    "\"x\"",
    "\"\"",
    "\"-1\"",
    "\"0\"",
    "\"1.0\"",
    "\"\\u0032\"",
    "\"٣\"",
    "null",
    "true",
    "false",
    "[]",
    "[1]",
    "{}",
    "{\"a\":1}",
];
const BONUS: &[&str] = &[
    "null",
    "\"Null\"",
    "\"\"",
    "\"[1, 2]\"",
    "\"1,2\"",
    "\"2, x\"",
    "\"[]\"",
    "\" 3 \"",
    "1",
    "0",
    "-2",
    "2.0",
    "1e400",
    "true",
    "false",
    "{}",
    "{\"bonus\":[1]}",
    "[[1]]",
];
const PENALTY: &[&str] = &[
    "null",
    "\"None\"",
    "\"none\"",
    "\"\"",
    "\"  \"",
    "\"Wrong character\"",
    "\"No penalty (None)\"",
    "\"É\"",
    "false",
    "true",
    "0",
    "1.5",
    "[\"None\"]",
    "[]",
    "{\"why\":\"None\"}",
    "{\"why\":\"off\"}",
    "\"\\u004eone\"",
];

fn judge(r: &mut impl FnMut(usize) -> usize) -> String {
    let bonus = if r(3) == 0 {
        BONUS[r(BONUS.len())].to_string()
    } else {
        let n = r(6);
        let v: Vec<&str> = (0..n)
            .map(|_| {
                if r(4) == 0 {
                    ODD[r(ODD.len())]
                } else {
                    ["1", "2", "3", "4"][r(4)]
                }
            })
            .collect();
        format!("[{}]", v.join(","))
    };
    let penalty = PENALTY[r(PENALTY.len())];
    match r(8) {
        0 => "{}".into(),
        1 => format!(r#"{{"bonus":{bonus}}}"#),
        2 => format!(r#"{{"penalty":{penalty}}}"#),
        _ => format!(r#"{{"bonus":{bonus},"penalty":{penalty}}}"#),
    }
}

fn grades(r: &mut impl FnMut(usize) -> usize) -> String {
    let mut f = Vec::new();
    if r(2) == 0 {
        let v: Vec<String> = (0..r(5)).map(|_| (r(6)).to_string()).collect();
        f.push(format!(r#""bonus":[{}]"#, v.join(",")));
    }
    match r(3) {
        0 => f.push(r#""penalty":null"#.into()),
        1 => f.push(r#""penalty":"off topic""#.into()),
        _ => {}
    }
    format!("{{{}}}", f.join(","))
}

const MODELS: &[&str] = &["m", "n", "é"];

fn item(r: &mut impl FnMut(usize) -> usize) -> String {
    let points = [0, 1, 2, 3, 3, 4, 64, 65, 70][r(9)];
    let bonus_points: Vec<String> = (0..points).map(|i| format!("\"p{i}\"")).collect();
    let mut fields = vec![
        r#""benchmark":"chartom-qa""#.to_string(),
        format!(r#""bonus_points":[{}]"#, bonus_points.join(",")),
    ];
    if r(2) == 0 {
        fields.push(format!(r#""key":{}"#, ["1", "2", "3", "-1", "0"][r(5)]));
    }
    let n = 1 + r(3);
    let responses: Vec<String> = (0..n)
        .map(|i| {
            let mut f = vec![format!(r#""model":"{}""#, MODELS[i])];
            if r(2) == 0 {
                f.push(format!(r#""choice":{}"#, ["1", "2", "3", "-1"][r(4)]));
            }
            if r(5) != 0 {
                f.push(format!(r#""judge":{}"#, judge(r)));
            }
            format!("{{{}}}", f.join(","))
        })
        .collect();
    fields.push(format!(r#""responses":[{}]"#, responses.join(",")));
    let reviews: Vec<String> = (0..[0, 0, 1, 2, 3][r(5)])
        .map(|k| {
            let mut f = vec![format!(r#""at":"2026-01-0{}T00:00:00Z""#, 1 + r(3))];
            if r(6) == 0 {
                f.push(r#""final":true"#.into());
            }
            if n == 1 && r(2) == 0 {
                let g = grades(r);
                let g = g.trim_start_matches('{').trim_end_matches('}');
                if !g.is_empty() {
                    f.push(g.to_string());
                }
            } else {
                let mut m = Vec::new();
                for model in &MODELS[..n] {
                    if r(3) != 0 {
                        m.push(format!(r#""{model}":{}"#, grades(r)));
                    }
                }
                f.push(format!(r#""models":{{{}}}"#, m.join(",")));
            }
            format!(r#""r{k}":{{{}}}"#, f.join(","))
        })
        .collect();
    if !reviews.is_empty() {
        fields.push(format!(r#""reviews":{{{}}}"#, reviews.join(",")));
    }
    format!("{{{}}}", fields.join(","))
}

#[test]
fn model_wrong_is_what_effective_says() {
    let mut r = rng(0x00c0_ffee);
    let (mut wrong, mut right, mut with_humans) = (0, 0, 0);
    for _ in 0..20_000 {
        let text = item(&mut r);
        let it = Item::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        for model in MODELS.iter().chain(&["absent"]) {
            let want = reference_model_wrong(&it, model);
            assert_eq!(model_wrong(&it, model), want, "{model} of {text}");
            if want {
                wrong += 1
            } else {
                right += 1
            }
            if effective(&it, model).human_grade.is_some() {
                with_humans += 1;
            }
        }
    }
    // the inputs reach both answers, and the humans' grades as well as the judge's
    assert!(
        wrong > 10_000 && right > 10_000 && with_humans > 5_000,
        "{wrong} {right} {with_humans}"
    );
}

#[test]
fn the_judges_counts_are_what_its_list_and_text_say() {
    let mut r = rng(0x5eed_0021);
    for _ in 0..50_000 {
        let text = judge(&mut r);
        let j: Judge = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        for n in [0, 1, 2, 3, 4, 63, 64, 65, 70] {
            let want = match j.bonus_list() {
                JudgeBonus::Points(p) => Some(covered_count(&p, n)),
                JudgeBonus::Unparsable(_) => None,
            };
            assert_eq!(j.covered(n), want, "{n} points, {text}");
        }
        assert_eq!(j.penalized(), j.penalty_text().is_some(), "{text}");
    }
}
