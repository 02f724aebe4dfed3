//! Verdicts on a scorer other than the headline one (`scorers.<name>` of a review): each
//! written back as an edit of that scorer only, read back into that scorer only.

use std::path::Path;

use serde_json::{Value, json};

use super::log::{self, write_to_vec};
use super::tests::{entry, graded, items, lines, open, raw_record};
use super::zip::Archive;

fn item<'a>(its: &'a [crate::bench::Item], id: &str) -> &'a crate::bench::Item {
    its.iter().find(|i| i.id.as_deref() == Some(id)).unwrap()
}

fn match_metrics(h: &Value) -> &Value {
    let scores = h["results"]["scores"].as_array().unwrap();
    &scores.iter().find(|s| s["name"] == json!("match")).unwrap()["metrics"]
}

fn choice_metrics(h: &Value) -> &Value {
    let scores = h["results"]["scores"].as_array().unwrap();
    &scores
        .iter()
        .find(|s| s["name"] == json!("choice"))
        .unwrap()["metrics"]
}

/// A verdict on `match` (not the headline `choice`) is an edit of `match`: its value,
/// history and event (`score_name: match`), its figures, its reduction and its summary;
/// `choice` keeps every value and figure.
#[test]
fn a_verdict_on_another_scorer_is_an_edit_of_that_scorer_only() {
    let (bytes, o) = open("vr_mc.eval");
    let cur = graded(
        &o,
        &[(
            "q2 (epoch 1)",
            json!({"alice": {"at": "2026-11-26T23:00:00Z", "scorers": {"match": {"verdict": "correct", "at": "2026-11-26T23:00:00Z", "note": "36 is a typo"}}}}),
        )],
    );
    let out = write_to_vec(&o, &cur).unwrap();
    let s = entry(&out, "samples/q2_epoch_1.json");
    let before = entry(&bytes, "samples/q2_epoch_1.json");
    assert_eq!(s["scores"]["choice"], before["scores"]["choice"]);
    let m = &s["scores"]["match"];
    assert_eq!(m["value"], json!("C"));
    let h = m["history"].as_array().unwrap();
    assert_eq!(h.len(), 2);
    assert_eq!(h[0]["value"], json!("I"));
    assert_eq!(h[1]["provenance"]["author"], json!("alice"));
    assert_eq!(h[1]["provenance"]["reason"], json!("36 is a typo"));
    let edits: Vec<&Value> = s["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["event"] == json!("score_edit"))
        .collect();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0]["score_name"], json!("match"));
    assert_eq!(edits[0]["edit"], h[1]);
    let head = entry(&out, "header.json");
    assert_eq!(match_metrics(&head)["accuracy"]["value"], json!(0.625));
    assert_eq!(choice_metrics(&head)["accuracy"]["value"], json!(0.5));
    assert_eq!(
        choice_metrics(&head),
        choice_metrics(&entry(&bytes, "header.json"))
    );
    let r = entry(&out, "reductions.json");
    for red in r.as_array().unwrap() {
        let q2 = red["samples"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["sample_id"] == json!("q2"))
            .unwrap();
        let want = if red["scorer"] == json!("match") {
            0.5
        } else {
            0.0
        };
        assert_eq!(q2["value"], json!(want), "{}", red["scorer"]);
    }
    let sums = entry(&out, "summaries.json");
    let q2e1 = sums
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == json!("q2") && x["epoch"] == json!(1))
        .unwrap();
    assert_eq!(q2e1["scores"]["match"]["value"], json!("C"));
    assert_eq!(q2e1["scores"]["choice"]["value"], json!("I"));
    // reopened: the verdict is alice's on match, none on choice
    let o2 = log::sniff(Path::new("x.eval"), &out).unwrap().unwrap();
    let its = items(&o2);
    let r = &item(&its, "q2 (epoch 1)").reviews["alice"];
    assert_eq!(r.verdict, None);
    assert_eq!(r.note, None);
    let on_match = &r.inspect.scorers["match"];
    assert_eq!(on_match.verdict.as_deref(), Some("correct"));
    assert_eq!(on_match.note.as_deref(), Some("36 is a typo"));
    assert_eq!(on_match.at.as_deref(), Some("2026-11-26T23:00:00Z"));
    // written again as reopened: nothing changes
    let ls2 = lines(&o2);
    assert!(write_to_vec(&o2, &|i| ls2.get(i).cloned()).unwrap() == out);
    // the archive's other entries are byte for byte
    for e in &Archive::read(&out).unwrap().entries {
        if ![
            "samples/q2_epoch_1.json",
            "header.json",
            "reductions.json",
            "summaries.json",
        ]
        .contains(&e.name.as_str())
        {
            assert_eq!(raw_record(&out, &e.name), raw_record(&bytes, &e.name));
        }
    }
}

/// One reviewer, both scorers, different verdicts: two edits, each on its own scorer,
/// each with its own note; reopened, each comes back to its own scorer. Then the verdict
/// on `match` alone is taken back: `match` gets a withdrawn edit, `choice` nothing new.
#[test]
fn verdicts_on_two_scorers_stay_on_their_own_scorer_through_saves_and_withdrawal() {
    for name in ["vr_mc.eval", "vr_mc.json"] {
        let (_, o) = open(name);
        let cur = graded(
            &o,
            &[(
                "q4 (epoch 2)",
                json!({"bob": {"at": "2026-11-26T23:05:00Z", "verdict": "incorrect", "note": "choice note",
                    "scorers": {"match": {"verdict": "correct", "at": "2026-11-26T23:04:00Z", "note": "match note"}}}}),
            )],
        );
        let out = write_to_vec(&o, &cur).unwrap();
        let sample = |out: &[u8]| -> Value {
            if name.ends_with(".eval") {
                entry(out, "samples/q4_epoch_2.json")
            } else {
                let d: Value = serde_json::from_slice(out).unwrap();
                d["samples"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|s| s["id"] == json!("q4") && s["epoch"] == json!(2))
                    .unwrap()
                    .clone()
            }
        };
        let s = sample(&out);
        assert_eq!(s["scores"]["choice"]["value"], json!("I"), "{name}");
        assert_eq!(s["scores"]["match"]["value"], json!("C"), "{name}");
        let ch = s["scores"]["choice"]["history"].as_array().unwrap();
        let mh = s["scores"]["match"]["history"].as_array().unwrap();
        assert_eq!(ch[1]["provenance"]["reason"], json!("choice note"));
        assert_eq!(
            ch[1]["provenance"]["timestamp"],
            json!("2026-11-26T23:05:00Z")
        );
        assert_eq!(mh[1]["provenance"]["reason"], json!("match note"));
        assert_eq!(
            mh[1]["provenance"]["timestamp"],
            json!("2026-11-26T23:04:00Z")
        );
        let names: Vec<&Value> = s["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["event"] == json!("score_edit"))
            .map(|e| &e["score_name"])
            .collect();
        // in time order: match's edit (23:04) before choice's (23:05)
        assert_eq!(names, [&json!("match"), &json!("choice")], "{name}");

        let o2 = log::sniff(Path::new(name), &out).unwrap().unwrap();
        let its = items(&o2);
        let r = &item(&its, "q4 (epoch 2)").reviews["bob"];
        assert_eq!(r.verdict.as_deref(), Some("incorrect"));
        assert_eq!(r.note.as_deref(), Some("choice note"));
        assert_eq!(
            r.inspect.scorers["match"].verdict.as_deref(),
            Some("correct")
        );
        assert_eq!(
            r.inspect.scorers["match"].note.as_deref(),
            Some("match note")
        );

        // bob takes back his verdict on match only
        let mut ls = lines(&o2);
        let k = ls
            .iter()
            .position(|l| l.contains("\"q4 (epoch 2)\""))
            .unwrap();
        let mut v: Value = serde_json::from_str(&ls[k]).unwrap();
        v["reviews"]["bob"]
            .as_object_mut()
            .unwrap()
            .shift_remove("scorers");
        ls[k] = serde_json::to_string(&v).unwrap();
        let out2 = write_to_vec(&o2, &|i| ls.get(i).cloned()).unwrap();
        let s2 = sample(&out2);
        assert_eq!(s2["scores"]["match"]["value"], json!("I"), "{name}");
        let mh2 = s2["scores"]["match"]["history"].as_array().unwrap();
        assert_eq!(mh2.len(), 3);
        assert_eq!(
            mh2[2]["provenance"]["metadata"],
            json!({"verdict": "withdrawn"})
        );
        assert_eq!(
            s2["scores"]["choice"], s["scores"]["choice"],
            "{name}: choice untouched"
        );
        let o3 = log::sniff(Path::new(name), &out2).unwrap().unwrap();
        let its3 = items(&o3);
        let r3 = &item(&its3, "q4 (epoch 2)").reviews["bob"];
        assert_eq!(r3.verdict.as_deref(), Some("incorrect"));
        assert!(r3.inspect.scorers.is_empty(), "{name}: {r3:?}");
    }
}

/// A review whose `scorers` names the headline scorer, or a scorer the sample does not
/// have, is refused with a message (the verdict stays in the journal), never written to
/// another scorer or dropped.
#[test]
fn a_verdict_on_the_headline_under_scorers_or_on_an_unknown_scorer_is_refused() {
    let (_, o) = open("vr_mc.eval");
    for (scorers, says) in [
        (
            json!({"choice": {"verdict": "correct"}}),
            "names the headline",
        ),
        (
            json!({"includes": {"verdict": "correct"}}),
            "no score of scorer",
        ),
    ] {
        let cur = graded(
            &o,
            &[(
                "q2 (epoch 1)",
                json!({"alice": {"at": "2026-11-26T23:00:00Z", "scorers": scorers}}),
            )],
        );
        let e = write_to_vec(&o, &cur).unwrap_err().to_string();
        assert!(e.contains(says) && e.contains("nothing saved"), "{e}");
    }
}
