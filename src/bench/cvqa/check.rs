//! `verdict check`'s rules for C-VQA items (docs/format.md, "C-VQA").

use serde_json::{Map, Value};

use crate::bench::cvqa::fields::{CvqaReason, CvqaStatus};
use crate::bench::kit::check::{BenchInfo, Ctx, join};
use crate::bench::kit::question::parse_question;
use crate::sanitize::quote;

const CVQA_GROUPS: [&str; 9] = [
    "direct",
    "indirect",
    "boolean",
    "abs_counting_1",
    "abs_counting_2",
    "abs_counting_3",
    "abs_counting_4",
    "abs_counting_5",
    "abs_counting_6",
];

/// Whether `answer` is a valid key for a C-VQA question of `group` (and `question`'s
/// options for synthetic ones); the message says why not. The reviewer's fix popup
/// warns by this same rule before it records a fixed answer.
pub fn cvqa_answer_problem(group: &str, question: Option<&str>, answer: &str) -> Option<String> {
    if group.starts_with("abs_counting_") {
        let letter = match answer {
            "A" | "B" | "C" | "D" => (answer.as_bytes()[0] - b'A') as usize + 1,
            _ => return Some(format!("{} is not an option letter A–D", quote(answer))),
        };
        if let Some(q) = question {
            let p = parse_question(q);
            if p.options.is_empty() {
                return Some("the question carries no options (`... Select the correct answer:A:16  B:17  C:12  D:13`)".into());
            }
            if letter > p.options.len() {
                return Some(format!(
                    "{answer} names option {letter}, but the question has {} options",
                    p.options.len()
                ));
            }
        }
        None
    } else if group == "boolean" {
        (answer != "yes" && answer != "no")
            .then(|| format!("{} is not `yes` or `no`", quote(answer)))
    } else if answer.is_empty() || !answer.bytes().all(|b| b.is_ascii_digit()) {
        Some(format!("{} is not a whole number in digits", quote(answer)))
    } else {
        None
    }
}

/// Check a C-VQA item's own fields (docs/format.md, "C-VQA").
pub(crate) fn item(
    c: &mut Ctx,
    obj: &Map<String, Value>,
    responses: &[&Map<String, Value>],
) -> BenchInfo {
    let split = c.one_of(obj, "split", "split", &["real", "synthetic"]);
    if split.is_none() && obj.get("split").is_none_or(Value::is_null) {
        c.error("split", "missing (real or synthetic)");
    }
    let group = c.one_of(obj, "group", "group", &CVQA_GROUPS);
    if group.is_none() && obj.get("group").is_none_or(Value::is_null) {
        c.error("group", "missing");
    }
    if let (Some(s), Some(g)) = (split, group) {
        let want = if g.starts_with("abs_counting_") {
            "synthetic"
        } else {
            "real"
        };
        if s != want {
            c.error(
                "group",
                format!("group {g} belongs to the {want} split, but the item's split is {s}"),
            );
        }
    }
    for part in ["original", "counterfactual"] {
        match c.obj(obj, part, part) {
            None if obj.get(part).is_none_or(Value::is_null) => {
                c.error(part, "missing (question and answer)")
            }
            None => {}
            Some(qa) => {
                let qf = format!("{part}.question");
                let q = c.str(qa, "question", &qf);
                if q.is_none_or(|q| q.trim().is_empty())
                    && !qa
                        .get("question")
                        .is_some_and(|v| !v.is_null() && !v.is_string())
                {
                    c.error(&qf, "missing or empty");
                }
                let af = format!("{part}.answer");
                match c.text(qa, "answer", &af) {
                    None => {
                        if qa.get("answer").is_none_or(Value::is_null) {
                            c.error(&af, "missing");
                        }
                    }
                    Some(a) => {
                        if let Some(g) = group
                            && let Some(m) = cvqa_answer_problem(g, q, &a)
                        {
                            c.error(&af, m);
                        }
                    }
                }
            }
        }
    }
    for (i, r) in responses.iter().enumerate() {
        let f = format!("responses[{i}]");
        for k in ["original", "counterfactual"] {
            c.text(r, k, &join(&f, k));
        }
    }
    BenchInfo {
        group: group.map(str::to_string),
        ..BenchInfo::default()
    }
}

/// The C-VQA verification fields of review `r` at `f` (docs/format.md, "C-VQA REVIEW").
pub(crate) fn review_fields(c: &mut Ctx, r: &Map<String, Value>, f: &str, info: &BenchInfo) {
    let status = c.one_of(
        r,
        "status",
        &join(f, "status"),
        &CvqaStatus::ALL.map(CvqaStatus::name),
    );
    let reason = c.one_of(
        r,
        "reason",
        &join(f, "reason"),
        &CvqaReason::ALL.map(CvqaReason::name),
    );
    c.bool(r, "image_related", &join(f, "image_related"));
    c.bool(r, "answer_ok", &join(f, "answer_ok"));
    let fixed_q = c.str(r, "fixed_question", &join(f, "fixed_question"));
    let fixed_a = c.text(r, "fixed_answer", &join(f, "fixed_answer"));
    if status == Some("reject") && reason.is_none() && r.get("reason").is_none_or(Value::is_null) {
        c.error(&join(f, "reason"), "a rejection needs a reason");
    }
    for (k, present) in [
        ("fixed_question", fixed_q.is_some()),
        ("fixed_answer", fixed_a.is_some()),
    ] {
        if present && status != Some("fix") {
            c.error(
                &join(f, k),
                format!(
                    "only a `fix` has {k}; this review's status is {}",
                    status.map_or("missing".to_string(), |s| format!("`{s}`"))
                ),
            );
        }
    }
    if status == Some("fix") && fixed_q.is_none() && fixed_a.is_none() {
        c.warn(
            &join(f, "status"),
            "`fix` without fixed_question or fixed_answer",
        );
    }
    if reason.is_some() && status == Some("accept") {
        c.warn(&join(f, "reason"), "a reason on an accepted question");
    }
    if let (Some(a), Some(g)) = (&fixed_a, &info.group)
        && let Some(m) = cvqa_answer_problem(g, fixed_q, a)
    {
        c.warn(&join(f, "fixed_answer"), m);
    }
}

/// The C-VQA overrides among a response's grades `g` at `f`; true when it has any.
pub(crate) fn grade_fields(c: &mut Ctx, g: &Map<String, Value>, f: &str) -> bool {
    let mut any = false;
    for k in ["original_correct", "counterfactual_correct"] {
        any |= c.bool(g, k, &join(f, k)).is_some();
    }
    any
}
