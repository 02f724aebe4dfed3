use super::*;
use crate::store::Format;

fn store(text: &str) -> Store {
    Store::from_bytes("set.jsonl".into(), Format::Jsonl, text.as_bytes().to_vec()).unwrap()
}

fn run(base: &str, ours: &str, theirs: &str) -> Merged3 {
    merge3(&store(base), &store(ours), &store(theirs)).unwrap()
}

const A1: &str = r#"{"at":"2026-01-01T00:00:00Z","status":"accept"}"#;
const R1: &str = r#"{"at":"2026-01-02T00:00:00Z","status":"reject"}"#;

fn item(id: &str, extra: &str, reviews: &[(&str, &str)]) -> String {
    let mut s = format!("{{\"id\": \"{id}\"{extra}");
    if !reviews.is_empty() {
        let r: Vec<String> = reviews
            .iter()
            .map(|(k, v)| format!("\"{k}\":{v}"))
            .collect();
        s.push_str(&format!(", \"reviews\": {{{}}}", r.join(",")));
    }
    s.push('}');
    s
}

fn lines(items: &[String]) -> String {
    items.iter().map(|l| format!("{l}\n")).collect()
}

#[test]
fn verdicts_of_different_reviewers_union_and_untouched_items_keep_our_bytes() {
    let base = lines(&[item("a", ",  \"x\": 1.0", &[]), item("b", "", &[])]);
    let ours = lines(&[
        item("a", ",  \"x\": 1.0", &[("ann", A1)]),
        item("b", "", &[]),
    ]);
    let theirs = lines(&[
        item("a", ",  \"x\": 1.0", &[("bo", R1)]),
        item("b", "", &[]),
    ]);
    let m = run(&base, &ours, &theirs);
    assert!(m.conflicts.is_empty());
    assert_eq!(
        m.lines,
        vec![
            format!("{{\"id\": \"a\",  \"x\": 1.0, \"reviews\": {{\"ann\":{A1},\"bo\":{R1}}}}}"),
            item("b", "", &[]),
        ]
    );
    assert_eq!(m.unchanged, 1);
}

#[test]
fn a_verdict_removed_on_one_side_stays_removed() {
    let base = lines(&[item("a", "", &[("ann", A1), ("cy", A1)])]);
    let ours = lines(&[item("a", "", &[("ann", A1)])]);
    let theirs = lines(&[item("a", "", &[("ann", A1), ("cy", A1), ("bo", R1)])]);
    let m = run(&base, &ours, &theirs);
    assert!(m.conflicts.is_empty());
    assert_eq!(
        m.lines,
        vec![format!(
            "{{\"id\": \"a\", \"reviews\": {{\"ann\":{A1},\"bo\":{R1}}}}}"
        )]
    );
    // Removed by them, and the last one: the item without reviews, their bytes.
    let base = lines(&[item("a", "", &[("cy", A1)])]);
    let ours = base.clone();
    let theirs = lines(&[item("a", "", &[])]);
    assert_eq!(run(&base, &ours, &theirs).lines, vec![item("a", "", &[])]);
}

#[test]
fn the_same_reviewer_changed_on_both_sides_is_a_conflict_keeping_ours() {
    let base = lines(&[item("a", "", &[])]);
    let ours = lines(&[item("a", "", &[("ann", A1)])]);
    let theirs = lines(&[item("a", "", &[("ann", R1)])]);
    let m = run(&base, &ours, &theirs);
    assert_eq!(m.lines, vec![item("a", "", &[("ann", A1)])]);
    assert_eq!(m.conflicts.len(), 1);
    assert_eq!(
        m.conflicts[0].to_string(),
        format!("item a (line 1): reviewer ann: ours {A1} | theirs {R1} (ours kept)")
    );
    // The same change on both sides: no conflict.
    let m = run(&base, &ours, &ours);
    assert!(m.conflicts.is_empty());
    // Removed on one side, changed on the other: a conflict too.
    let base = lines(&[item("a", "", &[("ann", A1)])]);
    let ours = lines(&[item("a", "", &[])]);
    let theirs = lines(&[item("a", "", &[("ann", R1)])]);
    let m = run(&base, &ours, &theirs);
    assert_eq!(m.conflicts.len(), 1);
    assert!(m.conflicts[0].to_string().contains("ours (removed)"));
}

#[test]
fn content_changed_on_one_side_takes_that_side() {
    let base = lines(&[item("a", ", \"answer\": \"3\"", &[])]);
    let ours = lines(&[item("a", ", \"answer\": \"3\"", &[("ann", A1)])]);
    let theirs = lines(&[item("a", ", \"answer\": \"4\"", &[])]);
    let m = run(&base, &ours, &theirs);
    assert!(m.conflicts.is_empty());
    // their item, with our reviews written in its own `": "` and `, ` (as the store
    // inserts a review)
    assert_eq!(
        m.lines,
        vec![
            "{\"id\": \"a\", \"answer\": \"4\", \"reviews\": {\"ann\": {\"at\": \"2026-01-01T00:00:00Z\", \"status\": \"accept\"}}}"
                .to_string()
        ]
    );
    // Changed on both sides, differently: a conflict, ours kept.
    let ours = lines(&[item("a", ", \"answer\": \"5\"", &[])]);
    let m = run(&base, &ours, &theirs);
    assert_eq!(m.lines, vec![item("a", ", \"answer\": \"5\"", &[])]);
    assert!(
        m.conflicts[0].to_string().contains("at `answer`"),
        "{:?}",
        m.conflicts
    );
}

#[test]
fn items_added_and_removed() {
    let base = lines(&[item("a", "", &[]), item("b", "", &[]), item("c", "", &[])]);
    // ours adds x after a; theirs removes b and adds y after c.
    let ours = lines(&[
        item("a", "", &[]),
        item("x", "", &[]),
        item("b", "", &[]),
        item("c", "", &[]),
    ]);
    let theirs = lines(&[item("a", "", &[]), item("c", "", &[]), item("y", "", &[])]);
    let m = run(&base, &ours, &theirs);
    assert!(m.conflicts.is_empty());
    let ids: Vec<String> = m
        .lines
        .iter()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(ids, ["a", "x", "c", "y"]);
    // Removed by them but graded by us: kept, a conflict.
    let ours = lines(&[
        item("a", "", &[]),
        item("b", "", &[("ann", A1)]),
        item("c", "", &[]),
    ]);
    let m = run(&base, &ours, &theirs);
    assert_eq!(m.conflicts.len(), 1);
    assert!(m.lines.iter().any(|l| l.contains("\"b\"")));
}

#[test]
fn lm_eval_samples_merge_by_doc_id_and_filter() {
    let s = |doc: u32, filter: &str, reviews: &str| {
        format!(
            "{{\"doc_id\":{doc},\"doc\":{{}},\"target\":\"3\",\"arguments\":{{}},\"resps\":[],\"filtered_resps\":[],\"filter\":\"{filter}\"{reviews}}}\n"
        )
    };
    let base = s(0, "strict-match", "") + &s(0, "flexible-extract", "");
    let ours = s(0, "strict-match", &format!(",\"reviews\":{{\"ann\":{A1}}}"))
        + &s(0, "flexible-extract", "");
    let theirs = s(0, "strict-match", "")
        + &s(
            0,
            "flexible-extract",
            &format!(",\"reviews\":{{\"bo\":{R1}}}"),
        );
    let m = run(&base, &ours, &theirs);
    assert!(m.conflicts.is_empty());
    assert!(m.lines[0].contains("\"ann\"") && !m.lines[0].contains("\"bo\""));
    assert!(m.lines[1].contains("\"bo\"") && !m.lines[1].contains("\"ann\""));
}

#[test]
fn items_theirs_adds_go_after_their_predecessor_even_when_theirs_reorders() {
    let base = lines(&[item("a", "", &[]), item("b", "", &[]), item("c", "", &[])]);
    let ours = base.clone();
    // theirs moves c first and adds y after c and z after b.
    let theirs = lines(&[
        item("c", "", &[]),
        item("y", "", &[]),
        item("a", "", &[]),
        item("b", "", &[]),
        item("z", "", &[]),
    ]);
    let m = run(&base, &ours, &theirs);
    let ids: Vec<String> = m
        .lines
        .iter()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(ids, ["a", "b", "z", "c", "y"]);
}

#[test]
fn an_unreadable_line_passes_through_matched_by_its_bytes() {
    let base = lines(&[item("a", "", &[]), "{oops".to_string(), item("b", "", &[])]);
    let ours = lines(&[
        item("a", "", &[("ann", A1)]),
        "{oops".to_string(),
        item("b", "", &[]),
    ]);
    let theirs = lines(&[
        item("a", "", &[]),
        "{oops".to_string(),
        item("b", "", &[("bo", R1)]),
    ]);
    let m = run(&base, &ours, &theirs);
    assert!(m.conflicts.is_empty());
    assert_eq!(m.lines[1], "{oops");
    assert_eq!(m.lines.len(), 3);
    // Fixed by hand on one side: the fix is taken (the broken line removed, the fixed added).
    let theirs = lines(&[
        item("a", "", &[]),
        item("fixed", "", &[]),
        item("b", "", &[]),
    ]);
    let m = run(&base, &ours, &theirs);
    assert!(m.conflicts.is_empty());
    assert!(!m.lines.iter().any(|l| l == "{oops"));
    assert!(m.lines.iter().any(|l| l.contains("fixed")));
}

/// The same verdict given on two machines differs only in when (`at`) and how long
/// (`seconds`): no conflict, and both merges (each side as ours) keep the earlier one.
#[test]
fn the_same_verdict_given_on_both_sides_at_different_times_merges() {
    let early = r#"{"at":"2026-01-01T00:00:00Z","seconds":3.5,"status":"accept","note":"ok"}"#;
    let late = r#"{"at":"2026-01-03T00:00:00Z","seconds":9.0,"status":"accept","note":"ok"}"#;
    let base = lines(&[item("a", "", &[])]);
    let ours = lines(&[item("a", "", &[("ann", early)])]);
    let theirs = lines(&[item("a", "", &[("ann", late)])]);
    let m = run(&base, &ours, &theirs);
    assert!(m.conflicts.is_empty(), "{:?}", m.conflicts);
    assert_eq!(m.lines, vec![item("a", "", &[("ann", early)])]);
    let m = run(&base, &theirs, &ours);
    assert!(m.conflicts.is_empty(), "{:?}", m.conflicts);
    assert_eq!(m.lines, vec![item("a", "", &[("ann", early)])]);
    // a different note is a different verdict
    let other = r#"{"at":"2026-01-03T00:00:00Z","seconds":9.0,"status":"accept","note":"no"}"#;
    let m = run(&base, &ours, &lines(&[item("a", "", &[("ann", other)])]));
    assert_eq!(m.conflicts.len(), 1);
}
