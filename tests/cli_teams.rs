//! Teams end to end, headless: split a C-VQA set for three reviewers with overlap 2,
//! write scripted verdicts (with disagreements and times) into each reviewer's file,
//! merge, and check `verdict agree --json` against a hand computation done here, from
//! the scripted verdicts alone. Also the merge conflicts.

mod common;

use common::hand_kappa;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use verdict::bench::Items;

use serde_json::{Value, json};
use verdict::store::Store;

const FIXTURE: &str = "tests/fixtures/teams/cvqa12.jsonl";
const REVIEWERS: [&str; 3] = ["a", "b", "c"];

fn verdict(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_verdict"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run verdict")
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "verdict failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// One reviewer's scripted verdict on C-VQA item `n` (1-based): the fields `status`,
/// `reason` (only with fix / reject), `image_related`, `answer_ok`.
#[derive(Debug, Clone, PartialEq)]
struct Scripted {
    status: &'static str,
    reason: Option<&'static str>,
    image_related: bool,
    answer_ok: bool,
    seconds: f64,
}

fn scripted(reviewer: &str, n: usize) -> Scripted {
    // What a careful reviewer says.
    let mut v = match n {
        5 => Scripted {
            status: "reject",
            reason: Some("wrong-answer"),
            image_related: true,
            answer_ok: false,
            seconds: 0.0,
        },
        7 | 8 => Scripted {
            status: "fix",
            reason: Some("ungrammatical"),
            image_related: true,
            answer_ok: true,
            seconds: 0.0,
        },
        10 => Scripted {
            status: "reject",
            reason: Some("not-image-related"),
            image_related: false,
            answer_ok: true,
            seconds: 0.0,
        },
        _ => Scripted {
            status: "accept",
            reason: None,
            image_related: true,
            answer_ok: true,
            seconds: 0.0,
        },
    };
    // The scripted disagreements.
    match (reviewer, n) {
        ("a", 3) => {
            v.status = "fix";
            v.reason = Some("ambiguous");
        }
        ("a", 10) => v.reason = Some("ambiguous"),
        ("b", 5) => {
            v.status = "accept";
            v.reason = None;
            v.answer_ok = true;
        }
        ("b", 9) | ("b", 12) => {
            v.status = "reject";
            v.reason = Some("ambiguous");
        }
        ("b", 8) => v.reason = Some("other"),
        ("c", 2) | ("c", 11) => v.answer_ok = false,
        ("c", 6) => {
            v.status = "reject";
            v.reason = Some("wrong-answer");
            v.answer_ok = false;
        }
        ("c", 7) => {
            v.status = "accept";
            v.reason = None;
        }
        ("c", 10) => v.image_related = true,
        _ => {}
    }
    // Times: a and b take their time, c rushes.
    v.seconds = match reviewer {
        "a" => 30.0 + (n * 7 % 11) as f64 * 3.0,
        "b" => 25.0 + (n * 5 % 13) as f64 * 2.5,
        _ => 3.0 + (n % 4) as f64,
    };
    v
}

fn review_json(v: &Scripted, at: &str) -> Value {
    let mut r = json!({
        "at": at,
        "seconds": v.seconds,
        "status": v.status,
        "image_related": v.image_related,
        "answer_ok": v.answer_ok,
    });
    if let Some(reason) = v.reason {
        r["reason"] = json!(reason);
    }
    r
}

fn item_number(id: &str) -> usize {
    id.trim_start_matches("cvqa-").parse().unwrap()
}

/// Fleiss' kappa for units of exactly two ratings each.
fn hand_fleiss_two(units: &[(String, String)]) -> f64 {
    let n = units.len() as f64;
    let p_bar = units.iter().filter(|(a, b)| a == b).count() as f64 / n;
    let mut share: BTreeMap<&String, f64> = BTreeMap::new();
    for (a, b) in units {
        *share.entry(a).or_default() += 1.0 / (2.0 * n);
        *share.entry(b).or_default() += 1.0 / (2.0 * n);
    }
    let pe: f64 = share.values().map(|p| p * p).sum();
    (p_bar - pe) / (1.0 - pe)
}

/// Krippendorff's nominal alpha for units of exactly two values each:
/// α = 1 − (n − 1) · Σ_u 2·[disagree] / Σ_{c≠k} n_c·n_k, with n = 2·units.
fn hand_alpha_two(units: &[(String, String)]) -> f64 {
    let n = 2.0 * units.len() as f64;
    let mut n_c: BTreeMap<&String, f64> = BTreeMap::new();
    for (a, b) in units {
        *n_c.entry(a).or_default() += 1.0;
        *n_c.entry(b).or_default() += 1.0;
    }
    let disagree = 2.0 * units.iter().filter(|(a, b)| a != b).count() as f64;
    let expected: f64 = n_c.values().map(|x| x * (n - x)).sum();
    1.0 - (n - 1.0) * disagree / expected
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

fn as_opt(v: &Value) -> Option<f64> {
    v.as_f64()
}

struct Scenario {
    _dir: tempfile::TempDir,
    dir: PathBuf,
    /// item id → the reviewers it went to
    assigned: BTreeMap<String, Vec<&'static str>>,
}

fn split_and_grade() -> Scenario {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().to_path_buf();
    fs::copy(FIXTURE, dir.join("set.jsonl")).unwrap();
    let out = ok(&verdict(
        &[
            "split",
            "set.jsonl",
            "--reviewers",
            "a,b,c",
            "--overlap",
            "2",
            "--seed",
            "7",
            "-o",
            "split",
        ],
        &dir,
    ));
    assert!(out.contains("8 items  split/set.a.jsonl"), "{out}");
    assert!(
        out.contains("items in common: a-b 4, a-c 4, b-c 4"),
        "{out}"
    );
    let original: Vec<String> = fs::read_to_string(FIXTURE)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let mut assigned: BTreeMap<String, Vec<&'static str>> = BTreeMap::new();
    for r in REVIEWERS {
        let path = dir.join(format!("split/set.{r}.jsonl"));
        let text = fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 8, "12 items × 2 / 3 reviewers");
        // byte-identical lines, in the original order
        let mut last = None;
        for l in &lines {
            let pos = original
                .iter()
                .position(|o| o == l)
                .expect("a line of the input");
            assert!(last < Some(pos));
            last = Some(pos);
            let id = serde_json::from_str::<Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string();
            assigned.entry(id).or_default().push(r);
        }
        // grade it as the reviewer would, through the store
        let mut store = Store::open(&path).unwrap();
        for i in 0..store.len() {
            let id = store.item(i).unwrap().into_fields().id.unwrap();
            let n = item_number(&id);
            let at = format!("2026-05-04T10:{:02}:00Z", n);
            store
                .set_review(i, r, Some(review_json(&scripted(r, n), &at)))
                .unwrap();
        }
        store.save().unwrap();
    }
    assert_eq!(assigned.len(), 12);
    assert!(assigned.values().all(|v| v.len() == 2), "{assigned:?}");
    Scenario {
        _dir: d,
        dir,
        assigned,
    }
}

#[test]
fn split_merge_agree_gives_the_hand_computed_kappas() {
    let s = split_and_grade();
    let dir = &s.dir;

    // merge
    let out = ok(&verdict(
        &[
            "merge",
            "split/set.a.jsonl",
            "split/set.b.jsonl",
            "split/set.c.jsonl",
            "-o",
            "merged.jsonl",
        ],
        dir,
    ));
    assert!(out.contains("12 items"), "{out}");
    assert!(out.contains("a 8, b 8, c 8"), "{out}");
    let merged = fs::read_to_string(dir.join("merged.jsonl")).unwrap();
    let items: Vec<Value> = merged
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(items.len(), 12);
    let fixture: BTreeMap<String, Value> = fs::read_to_string(FIXTURE)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["id"].as_str().unwrap().to_string(), v)
        })
        .collect();
    for it in &items {
        let id = it["id"].as_str().unwrap();
        let reviews = it["reviews"].as_object().unwrap();
        let who: Vec<&str> = reviews.keys().map(String::as_str).collect();
        let mut want = s.assigned[id].clone();
        want.sort();
        let mut got = who.clone();
        got.sort();
        assert_eq!(got, want, "{id}");
        let mut content = it.clone();
        content.as_object_mut().unwrap().shift_remove("reviews");
        assert_eq!(content, fixture[id], "{id}: the item itself is unchanged");
    }
    // the first file's items come first, in its order
    let a_ids: Vec<&String> = s
        .assigned
        .iter()
        .filter(|(_, v)| v.contains(&"a"))
        .map(|(k, _)| k)
        .collect();
    let first: Vec<&str> = items[..8]
        .iter()
        .map(|v| v["id"].as_str().unwrap())
        .collect();
    assert_eq!(first, a_ids.iter().map(|s| s.as_str()).collect::<Vec<_>>());

    // agree --json
    let out = ok(&verdict(&["agree", "merged.jsonl", "--json"], dir));
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["reviewers"], json!(["a", "b", "c"]));
    assert_eq!(report["adjudications_left_out"], 0);

    let label = |field: &str, v: &Scripted| -> Option<String> {
        match field {
            "status" => Some(v.status.to_string()),
            "reason" => v.reason.map(str::to_string),
            "image_related" => Some(if v.image_related { "yes" } else { "no" }.into()),
            "answer_ok" => Some(if v.answer_ok { "yes" } else { "no" }.into()),
            _ => unreachable!(),
        }
    };
    let mut kappas = Vec::new();
    for field in ["status", "reason", "image_related", "answer_ok"] {
        let f = report["fields"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["benchmark"] == "cvqa" && f["field"] == field)
            .unwrap_or_else(|| panic!("field {field} in {out}"));
        // all units of this field that both of their reviewers rated
        let mut units: Vec<(String, String)> = Vec::new();
        let mut rated = 0;
        for (id, rs) in &s.assigned {
            let n = item_number(id);
            let l: Vec<Option<String>> = rs.iter().map(|r| label(field, &scripted(r, n))).collect();
            if l.iter().any(Option::is_some) {
                rated += 1;
            }
            if let [Some(x), Some(y)] = &l[..] {
                units.push((x.clone(), y.clone()));
            }
        }
        assert_eq!(f["units_rated"], rated, "{field}");
        assert_eq!(f["units_multi"], units.len(), "{field}");
        let agreement = units.iter().filter(|(x, y)| x == y).count() as f64 / units.len() as f64;
        assert!(
            close(f["percent_agreement"].as_f64().unwrap(), agreement),
            "{field}"
        );
        // Cohen's kappa per pair, from the contingency of the scripted verdicts
        for (i, ra) in REVIEWERS.iter().enumerate() {
            for rb in &REVIEWERS[i + 1..] {
                let pairs: Vec<(String, String)> = s
                    .assigned
                    .iter()
                    .filter(|(_, rs)| rs.contains(ra) && rs.contains(rb))
                    .filter_map(|(id, _)| {
                        let n = item_number(id);
                        Some((
                            label(field, &scripted(ra, n))?,
                            label(field, &scripted(rb, n))?,
                        ))
                    })
                    .collect();
                let p = f["pairs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|p| p["a"] == *ra && p["b"] == *rb);
                if pairs.is_empty() {
                    assert!(p.is_none(), "{field} {ra}-{rb}");
                    continue;
                }
                let p = p.unwrap_or_else(|| panic!("{field} pair {ra}-{rb}"));
                assert_eq!(p["units"], pairs.len(), "{field} {ra}-{rb}");
                let want = hand_kappa(&pairs);
                let got = as_opt(&p["cohen_kappa"]);
                match (want, got) {
                    (Some(w), Some(g)) => assert!(close(w, g), "{field} {ra}-{rb}: {w} vs {g}"),
                    (None, None) => {}
                    other => panic!("{field} {ra}-{rb}: {other:?}"),
                }
                kappas.push((field, *ra, *rb, pairs.len(), want));
            }
        }
        // every unit has two ratings here: Fleiss over all of them, alpha by the
        // two-rater formula
        let fl = &f["fleiss"];
        assert_eq!(fl["raters_per_unit"], 2);
        assert_eq!(fl["units"], units.len());
        assert!(
            close(fl["kappa"].as_f64().unwrap(), hand_fleiss_two(&units)),
            "{field}"
        );
        let alpha = f["krippendorff_alpha"]["nominal"].as_f64().unwrap();
        assert!(close(alpha, hand_alpha_two(&units)), "{field}: {alpha}");
        assert!(f["krippendorff_alpha"].get("ordinal").is_none());
        eprintln!(
            "{field}: {} units, agreement {agreement:.3}, Fleiss {:.3}, alpha {alpha:.3}",
            units.len(),
            hand_fleiss_two(&units)
        );
    }
    // the script must make the kappas informative: defined and not all perfect
    let status: Vec<_> = kappas.iter().filter(|k| k.0 == "status").collect();
    assert_eq!(status.len(), 3);
    assert!(status.iter().all(|k| k.4.is_some()), "{kappas:?}");
    assert!(status.iter().any(|k| k.4.unwrap() < 1.0), "{kappas:?}");
    eprintln!("scenario kappas (field, a, b, units, kappa): {kappas:?}");

    // time: c rushes
    let times = report["time"]["reviewers"].as_array().unwrap();
    for t in times {
        let r = t["reviewer"].as_str().unwrap();
        assert_eq!(t["timed"], 8);
        assert_eq!(t["possibly_rushing"], r == "c", "{t}");
    }
    assert!(report["judge"].is_null());

    // the human report says the same
    let text = ok(&verdict(&["agree", "merged.jsonl"], dir));
    assert!(text.contains("C-VQA status"), "{text}");
    assert!(text.contains("Cohen's kappa"), "{text}");
    assert!(text.contains("possibly rushing"), "{text}");
}

#[test]
fn split_is_deterministic_and_does_not_clobber() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    fs::copy(FIXTURE, dir.join("set.jsonl")).unwrap();
    let args = |o: &'static str| -> Vec<&'static str> {
        vec![
            "split",
            "set.jsonl",
            "--reviewers",
            "x,y,z,w",
            "--overlap",
            "3",
            "-o",
            o,
        ]
    };
    ok(&verdict(&args("one"), dir));
    ok(&verdict(&args("two"), dir));
    for r in ["x", "y", "z", "w"] {
        let a = fs::read(dir.join(format!("one/set.{r}.jsonl"))).unwrap();
        let b = fs::read(dir.join(format!("two/set.{r}.jsonl"))).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.iter().filter(|&&c| c == b'\n').count(), 9); // 12 × 3 / 4
    }
    // again into the same folder: refused, nothing touched
    fs::write(dir.join("one/set.x.jsonl"), "mine\n").unwrap();
    let out = verdict(&args("one"), dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));
    assert_eq!(fs::read(dir.join("one/set.x.jsonl")).unwrap(), b"mine\n");
    let mut forced = args("one");
    forced.push("--force");
    ok(&verdict(&forced, dir));
    assert_ne!(fs::read(dir.join("one/set.x.jsonl")).unwrap(), b"mine\n");
    // bad overlap
    let out = verdict(
        &[
            "split",
            "set.jsonl",
            "--reviewers",
            "a,b",
            "--overlap",
            "3",
            "-o",
            "three",
        ],
        dir,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("more than the 2 reviewer"));
    let out = verdict(
        &[
            "split",
            "set.jsonl",
            "--reviewers",
            "a,b",
            "--overlap",
            "0",
            "-o",
            "three",
        ],
        dir,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(!dir.join("three").exists());
}

#[test]
fn merge_refuses_a_differing_item_and_writes_nothing() {
    let s = split_and_grade();
    let dir = &s.dir;
    // change the answer key of one of a's items in a copy of a's file
    let a = fs::read_to_string(dir.join("split/set.a.jsonl")).unwrap();
    let (line_no, line) = a
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("\"answer\":\"2\""))
        .map(|(i, l)| (i + 1, l.to_string()))
        .expect("an item with answer 2");
    let id = serde_json::from_str::<Value>(&line).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let tampered = a.replacen(
        &line,
        &line.replace("\"answer\":\"2\"", "\"answer\":\"3\""),
        1,
    );
    fs::write(dir.join("tampered.jsonl"), tampered).unwrap();
    // the other file that has this item
    let other = s.assigned[&id].iter().find(|r| **r != "a").unwrap();
    let other_file = format!("split/set.{other}.jsonl");
    let other_line = fs::read_to_string(dir.join(&other_file))
        .unwrap()
        .lines()
        .position(|l| l.contains(&format!("\"id\":\"{id}\"")))
        .unwrap()
        + 1;
    let out = verdict(
        &["merge", &other_file, "tampered.jsonl", "-o", "m.jsonl"],
        dir,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("item \"{id}\"")), "{err}");
    assert!(
        err.contains(&format!("{other_file} (line {other_line})")),
        "{err}"
    );
    assert!(
        err.contains(&format!("tampered.jsonl (line {line_no})")),
        "{err}"
    );
    assert!(err.contains("nothing was written"), "{err}");
    assert!(!dir.join("m.jsonl").exists());
}

#[test]
fn merge_keeps_the_newer_verdict_of_the_same_reviewer_and_reports_it() {
    let s = split_and_grade();
    let dir = &s.dir;
    // a regrades one item later, in another copy of the file
    let path = dir.join("split/set.a.jsonl");
    let store = Store::open(&path).unwrap();
    let id = store.item(0).unwrap().into_fields().id.unwrap();
    let n = item_number(&id);
    let old_at = format!("2026-05-04T10:{n:02}:00Z");
    let new_at = "2026-05-05T09:00:00Z";
    let mut regraded = scripted("a", n);
    regraded.status = "reject";
    regraded.reason = Some("other");
    let copy = dir.join("a-later.jsonl");
    fs::copy(&path, &copy).unwrap();
    let mut later = Store::open(&copy).unwrap();
    later
        .set_review(0, "a", Some(review_json(&regraded, new_at)))
        .unwrap();
    later.save().unwrap();

    for order in [
        ["split/set.a.jsonl", "a-later.jsonl"],
        ["a-later.jsonl", "split/set.a.jsonl"],
    ] {
        let _ = fs::remove_file(dir.join("m.jsonl"));
        let out = ok(&verdict(
            &["merge", order[0], order[1], "-o", "m.jsonl"],
            dir,
        ));
        let dropped_from = if order[0] == "a-later.jsonl" {
            order[1]
        } else {
            order[0]
        };
        assert!(
            out.contains(&format!(
                "item {id}: reviewer a: kept the verdict of {new_at} from a-later.jsonl, dropped the one of {old_at} from {dropped_from}"
            )),
            "{out}"
        );
        let m = fs::read_to_string(dir.join("m.jsonl")).unwrap();
        let first: Value = serde_json::from_str(m.lines().next().unwrap()).unwrap();
        assert_eq!(first["reviews"]["a"]["status"], "reject");
        assert_eq!(first["reviews"]["a"]["at"], new_at);
        // identical verdicts in both files are silent
        assert_eq!(out.matches("kept the verdict").count(), 1, "{out}");
    }
    // OUT exists: refused without --force, replaced with it
    let out = verdict(&["merge", "split/set.a.jsonl", "-o", "m.jsonl"], dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));
    ok(&verdict(
        &["merge", "split/set.a.jsonl", "-o", "m.jsonl", "--force"],
        dir,
    ));
    assert_eq!(
        fs::read_to_string(dir.join("m.jsonl")).unwrap(),
        fs::read_to_string(dir.join("split/set.a.jsonl")).unwrap(),
        "a single file merges to itself"
    );
}
