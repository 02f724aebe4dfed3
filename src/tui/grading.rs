//! What the reviewer shows of the grading rules: thin adapters over `crate::grade`, shaped
//! for display. No rule is implemented here.

use serde_json::Value;

use crate::grade::{chartom, chartom_qa, cvqa};
use crate::model::{Benchmark, FactFormat, Item, JudgeBonus, Review};
use crate::store::Store;
use crate::tui::app::State;

pub struct FactView {
    pub parsed: Option<String>,
    pub auto: Option<bool>,
    pub effective: Option<bool>,
    pub overridden: bool,
}

pub fn chartom_fact(item: &Item, model: &str) -> FactView {
    let e = chartom::effective(item, model);
    FactView {
        parsed: e.fact.display.clone(),
        auto: e.fact.correct,
        effective: e.fact_correct,
        overridden: e.overridden,
    }
}

pub struct HmiView {
    pub hmi: f64,
    pub n: u64,
    pub not_acceptable: u64,
}

pub fn chartom_hmi(item: &Item) -> Option<HmiView> {
    let h = chartom::hmi_from_fact(item.fact.as_ref()?)?;
    Some(HmiView {
        hmi: h.hmi,
        n: h.n_answers,
        not_acceptable: h.n_not_acceptable,
    })
}

pub fn fact_key_display(fact: &crate::model::Fact) -> String {
    match chartom::fact_key(fact) {
        Some(chartom::FactKey::Choice(n)) => match fact.options.get(n as usize - 1) {
            Some(o) => format!("{n} ({o})"),
            None => n.to_string(),
        },
        Some(chartom::FactKey::Rank(orders)) => orders
            .iter()
            .map(|o| o.iter().map(u32::to_string).collect::<Vec<_>>().join(" > "))
            .collect::<Vec<_>>()
            .join("  or  "),
        Some(chartom::FactKey::Number(x)) => {
            format!("{} (correct within ±10%)", chartom::format_number(x))
        }
        None => "missing or unusable".into(),
    }
}

pub struct Bucket {
    pub label: String,
    pub count: u64,
    pub acceptable: bool,
    pub has_key: bool,
    pub has_model: bool,
}

pub struct Histogram {
    pub n: u64,
    pub log_scale: bool,
    pub interval_label: Option<String>,
    pub buckets: Vec<Bucket>,
}

/// The human answers of the item's FACT question as histogram buckets.
pub fn histogram(item: &Item, model: Option<&str>, max_buckets: usize) -> Option<Histogram> {
    let fact = item.fact.as_ref()?;
    if fact.human_answers.is_empty() {
        return None;
    }
    let n: u64 = fact.human_answers.iter().map(|(_, c)| c).sum();
    let model_answer = model
        .and_then(|m| item.response(m))
        .and_then(|r| r.fact.as_deref())
        .and_then(|raw| chartom::parse_fact(fact, raw));
    let format = chartom::fact_format(fact);
    if format == Some(FactFormat::Number) {
        let key = match chartom::fact_key(fact) {
            Some(chartom::FactKey::Number(k)) => Some(k),
            _ => None,
        };
        let hmi = chartom::hmi_from_fact(fact);
        let interval = hmi.as_ref().map(|h| h.interval).unwrap_or((None, None));
        // human answers read as the HMI reads them (a range at its midpoint)
        let unit = chartom::Unit::of_question(fact.question.as_deref());
        let vals: Vec<(f64, u64)> = fact
            .human_answers
            .iter()
            .filter_map(|(a, c)| chartom::human_number(a, key, unit).map(|x| (x.center(), *c)))
            .collect();
        if vals.is_empty() {
            return None;
        }
        let lo = vals.iter().map(|v| v.0).fold(f64::INFINITY, f64::min);
        let hi = vals.iter().map(|v| v.0).fold(f64::NEG_INFINITY, f64::max);
        let log_scale = lo > 0.0 && hi / lo >= 20.0;
        let k = max_buckets.max(2);
        type Scale = fn(f64) -> f64;
        let (to, from): (Scale, Scale) = if log_scale {
            (f64::ln, f64::exp)
        } else {
            (|x| x, |x| x)
        };
        let (a, b) = (to(lo), to(hi));
        // Bucket edges: evenly spaced (on the log scale when log-scaled), plus the
        // interval's bounds, so that every bucket is wholly acceptable or wholly not.
        let mut edges: Vec<f64> = if b > a {
            (0..=k)
                .map(|i| from(a + (b - a) * i as f64 / k as f64))
                .collect()
        } else {
            vec![lo, hi]
        };
        for bound in [interval.0, interval.1].into_iter().flatten() {
            if bound > lo && bound < hi {
                edges.push(bound);
            }
        }
        edges.sort_by(f64::total_cmp);
        edges.dedup_by(|x, y| (*x - *y).abs() <= f64::EPSILON * y.abs().max(1.0));
        let nb = (edges.len() - 1).max(1);
        // A value belongs to the bucket whose [left, right) holds it (the last is closed).
        let idx = |x: f64| -> usize {
            edges
                .partition_point(|e| *e <= x)
                .saturating_sub(1)
                .min(nb - 1)
        };
        let mut buckets: Vec<Bucket> = (0..nb)
            .map(|i| {
                let (l, u) = (edges[i], edges[(i + 1).min(edges.len() - 1)]);
                let mid = if log_scale {
                    (l * u).sqrt()
                } else {
                    (l + u) / 2.0
                };
                Bucket {
                    label: if edges.len() < 2 || l == u {
                        chartom::format_number(lo)
                    } else {
                        format!("{}–{}", short(l), short(u))
                    },
                    count: 0,
                    acceptable: chartom::in_interval(mid, interval),
                    has_key: false,
                    has_model: false,
                }
            })
            .collect();
        for (x, c) in &vals {
            buckets[idx(*x)].count += c;
        }
        if let Some(kv) = key
            && kv >= lo
            && kv <= hi
        {
            buckets[idx(kv)].has_key = true;
        }
        if let Some(chartom::ParsedFact::Number(m)) = model_answer
            && m >= lo
            && m <= hi
        {
            buckets[idx(m)].has_model = true;
        }
        let interval_label = Some(format!(
            "({}, {})",
            interval.0.map(short).unwrap_or_else(|| "−∞".into()),
            interval.1.map(short).unwrap_or_else(|| "+∞".into())
        ));
        return Some(Histogram {
            n,
            log_scale,
            interval_label,
            buckets,
        });
    }
    // Choice and rank answers: one bar per distinct answer.
    let key = chartom::fact_key(fact);
    let buckets = fact
        .human_answers
        .iter()
        .map(|(a, c)| {
            let label = match a {
                Value::Array(xs) => xs
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(">"),
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let parsed = chartom::parse_fact(fact, &label);
            let is_key = match (&parsed, &key) {
                (Some(p), Some(k)) => chartom::is_correct(p, k),
                _ => false,
            };
            Bucket {
                label,
                count: *c,
                acceptable: is_key,
                has_key: is_key,
                has_model: parsed.is_some() && parsed == model_answer,
            }
        })
        .collect();
    Some(Histogram {
        n,
        log_scale: false,
        interval_label: None,
        buckets,
    })
}

fn short(x: f64) -> String {
    if x.abs() >= 100.0 {
        format!("{x:.0}")
    } else if x.abs() >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

pub struct AnswerView {
    pub parsed: Option<String>,
    pub auto: bool,
    pub effective: bool,
    pub overridden: bool,
}

pub fn cvqa_answer(item: &Item, model: &str, counterfactual: bool) -> AnswerView {
    let e = cvqa::effective(item, model);
    if counterfactual {
        AnswerView {
            parsed: e.counterfactual.parsed.clone(),
            auto: e.counterfactual.correct,
            effective: e.counterfactual_correct,
            overridden: e.counterfactual_overridden,
        }
    } else {
        AnswerView {
            parsed: e.original.parsed.clone(),
            auto: e.original.correct,
            effective: e.original_correct,
            overridden: e.original_overridden,
        }
    }
}

/// A synthetic question's stem and its inline options.
pub fn split_options(question: &str) -> (&str, Vec<(char, String)>) {
    let opts: Vec<(char, String)> = cvqa::options(question)
        .into_iter()
        .map(|(c, t)| (c, t.to_string()))
        .collect();
    if opts.is_empty() {
        (question, opts)
    } else {
        (cvqa::question_stem(question), opts)
    }
}

/// Is `model`'s answer on this item wrong (after reviewer overrides)?
pub fn model_wrong(item: &Item, model: &str) -> bool {
    match item.benchmark() {
        Benchmark::Chartom => chartom::effective(item, model).fact_correct == Some(false),
        Benchmark::Cvqa => {
            let e = cvqa::effective(item, model);
            !e.original_correct || !e.counterfactual_correct
        }
        Benchmark::ChartomQa => {
            let e = chartom_qa::effective(item, model);
            if e.choice_correct == Some(false) {
                return true;
            }
            match (&e.human_grade, &e.judge) {
                (Some(h), _) => h.penalized() || h.covered.is_some_and(|c| c < h.n_points),
                (None, Some(j)) => j.penalty.is_some() || j.covered.is_some_and(|c| c < j.n_points),
                _ => false,
            }
        }
        Benchmark::Other => false,
    }
}

/// Do reviewers disagree on this item (leaving out adjudications), or a human with the
/// LLM judge?
pub fn disagreement(item: &Item) -> bool {
    reviewers_disagree(item) || human_judge_disagree(item)
}

/// Does the item belong in the adjudication queue: its reviewers disagree and none of
/// them has given the final verdict?
pub fn needs_adjudication(item: &Item) -> bool {
    !item.reviews.values().any(|r| r.is_final == Some(true)) && reviewers_disagree(item)
}

/// Do two reviewers (leaving out adjudications) give different grades to the item?
pub fn reviewers_disagree(item: &Item) -> bool {
    let n = item.responses.len();
    let reviews: Vec<_> = item
        .reviews
        .values()
        .filter(|r| r.is_final != Some(true))
        .collect();
    if reviews.len() >= 2 {
        let autos: Vec<AutoGrades> = item
            .responses
            .iter()
            .map(|resp| AutoGrades::of(item, &resp.model))
            .collect();
        let none = crate::model::ResponseGrades::default();
        let first = reviews[0];
        for r in &reviews[1..] {
            if r.status != first.status || r.verdict != first.verdict {
                return true;
            }
            for (resp, auto) in item.responses.iter().zip(&autos) {
                // C-VQA: a reviewer who gave the item's verdict accepted the automatic
                // grades of every response they did not override.
                let implied =
                    |r: &Review| item.benchmark() == Benchmark::Cvqa && r.status.is_some();
                let a = first
                    .for_model(&resp.model, n)
                    .or(implied(first).then_some(&none));
                let b = r.for_model(&resp.model, n).or(implied(r).then_some(&none));
                if let (Some(a), Some(b)) = (a, b)
                    && (a.justification != b.justification
                        || a.bonus.as_ref().map(|v| sorted(v))
                            != b.bonus.as_ref().map(|v| sorted(v))
                        || a.penalty.as_ref().map(Option::is_some)
                            != b.penalty.as_ref().map(Option::is_some)
                        || auto.differ(a, b))
                {
                    return true;
                }
            }
        }
    }
    false
}

/// The automatic grades of one response, which an absent override stands for
/// (docs/format.md: an override only replaces the automatic grade).
struct AutoGrades {
    fact: Option<bool>,
    original: Option<bool>,
    counterfactual: Option<bool>,
}

impl AutoGrades {
    fn of(item: &Item, model: &str) -> AutoGrades {
        match item.benchmark() {
            Benchmark::Chartom => AutoGrades {
                fact: chartom::effective(item, model).fact.correct,
                original: None,
                counterfactual: None,
            },
            Benchmark::Cvqa => {
                let e = cvqa::effective(item, model);
                AutoGrades {
                    fact: None,
                    original: Some(e.original.correct),
                    counterfactual: Some(e.counterfactual.correct),
                }
            }
            Benchmark::ChartomQa | Benchmark::Other => AutoGrades {
                fact: None,
                original: None,
                counterfactual: None,
            },
        }
    }

    /// Do two reviewers' effective grades differ: an override equal to the automatic
    /// grade is that grade, and no override means the automatic grade.
    fn differ(&self, a: &crate::model::ResponseGrades, b: &crate::model::ResponseGrades) -> bool {
        a.fact_correct.or(self.fact) != b.fact_correct.or(self.fact)
            || a.original_correct.or(self.original) != b.original_correct.or(self.original)
            || a.counterfactual_correct.or(self.counterfactual)
                != b.counterfactual_correct.or(self.counterfactual)
    }
}

/// Does a reviewer's grade differ from the LLM judge's (CharToM-QA)?
fn human_judge_disagree(item: &Item) -> bool {
    let n = item.responses.len();
    let reviews: Vec<_> = item
        .reviews
        .values()
        .filter(|r| r.is_final != Some(true))
        .collect();
    if item.benchmark() == Benchmark::ChartomQa {
        for resp in &item.responses {
            let Some(j) = &resp.judge else { continue };
            let JudgeBonus::Points(jb) = j.bonus_list() else {
                continue;
            };
            for r in &reviews {
                if let Some(g) = r.for_model(&resp.model, n) {
                    if let Some(b) = &g.bonus
                        && sorted(b) != sorted(&jb)
                    {
                        return true;
                    }
                    if let Some(p) = &g.penalty
                        && p.is_some() != j.penalty_text().is_some()
                    {
                        return true;
                    }
                }
            }
        }
    }
    false
}

fn sorted(v: &[u32]) -> Vec<u32> {
    let mut v = v.to_vec();
    v.sort_unstable();
    v.dedup();
    v
}

/// Covered / total bonus points over the CharToM-QA items I have graded (this session's
/// grades and the file's), for `model`'s responses: BPC is per model (docs/stats.md).
pub fn running_bpc(state: &State, model: &str) -> Option<(u64, u64)> {
    state.rec.bpc_sum.get(model).copied()
}

/// The figures of `verdict stats --json` for the summary screen, with the agreement
/// report of `verdict agree --json` under `"agreement"`.
pub fn summary_value(store: &Store) -> Value {
    let mut v = serde_json::to_value(crate::stats::compute(store)).unwrap_or(Value::Null);
    // The models' MIND predictions per chart, for the HMI ranking plot.
    if let Some(charts) = v["benchmarks"]["chartom"]["charts"].as_array_mut() {
        let mut preds: std::collections::HashMap<String, serde_json::Map<String, Value>> =
            Default::default();
        for i in 0..store.len() {
            let Ok(item) = store.item(i) else { continue };
            if item.benchmark() != Benchmark::Chartom {
                continue;
            }
            let id = item.id.clone().unwrap_or_else(|| store.fallback_id(i));
            let m = preds.entry(id).or_default();
            for r in &item.responses {
                if let Some(x) = r.mind {
                    m.insert(r.model.clone(), Value::from(x));
                }
            }
        }
        for c in charts {
            if let Some(m) = c["id"].as_str().and_then(|id| preds.remove(id)) {
                c["predictions"] = Value::Object(m);
            }
        }
    }
    if let Some(o) = v.as_object_mut() {
        o.insert(
            "agreement".into(),
            serde_json::to_value(crate::team::agree::report(store)).unwrap_or(Value::Null),
        );
    }
    v
}

fn f2(v: &Value) -> String {
    v.as_f64()
        .map(|x| format!("{x:.2}"))
        .unwrap_or_else(|| "–".into())
}

/// Agreement figures as lines of text (the shape of `verdict agree --json`).
pub fn agreement_lines(a: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let fields = a
        .get("fields")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let multi: Vec<&Value> = fields
        .iter()
        .filter(|f| f["units_multi"].as_u64().unwrap_or(0) > 0)
        .collect();
    if multi.is_empty() {
        out.push("  no item has verdicts by two or more reviewers yet".into());
    }
    for f in multi {
        let pairs: Vec<String> = f["pairs"]
            .as_array()
            .map(|ps| {
                ps.iter()
                    .filter(|p| !p["cohen_kappa"].is_null())
                    .map(|p| {
                        format!(
                            "{}–{} {}",
                            p["a"].as_str().unwrap_or("?"),
                            p["b"].as_str().unwrap_or("?"),
                            f2(&p["cohen_kappa"])
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        out.push(format!(
            "  {:<10} {:<18} units {:<5} agree {}  Fleiss κ {}  α {}{}  {}",
            f["benchmark"].as_str().unwrap_or(""),
            f["field"].as_str().unwrap_or(""),
            f["units_multi"],
            f2(&f["percent_agreement"]),
            f2(&f["fleiss"]["kappa"]),
            f2(&f["krippendorff_alpha"]["nominal"]),
            if f["krippendorff_alpha"]["ordinal"].is_null() {
                String::new()
            } else {
                format!(" (ordinal {})", f2(&f["krippendorff_alpha"]["ordinal"]))
            },
            if pairs.is_empty() {
                String::new()
            } else {
                format!("Cohen κ {}", pairs.join(", "))
            }
        ));
    }
    if let Some(vs) = a["judge"]["versus"].as_array() {
        for v in vs {
            for (what, fig) in [("bonus", &v["bonus"]), ("penalty", &v["penalty"])] {
                if fig.is_null() {
                    continue;
                }
                out.push(format!(
                    "  human {} vs judge, {what}: units {} agree {} Cohen κ {} · {} {} vs judge {}",
                    v["reviewer"].as_str().unwrap_or("?"),
                    fig["units"],
                    f2(&fig["agreement"]),
                    f2(&fig["cohen_kappa"]),
                    if what == "bonus" { "BPC" } else { "PR" },
                    f2(&fig["reviewer"]),
                    f2(&fig["judge"])
                ));
            }
        }
    }
    if let Some(ts) = a["time"]["reviewers"].as_array() {
        for t in ts {
            out.push(format!(
                "  {:<12} median {} s per item over {} timed verdicts{}",
                t["reviewer"].as_str().unwrap_or("?"),
                t["median_seconds"]
                    .as_f64()
                    .map(|x| format!("{x:.0}"))
                    .unwrap_or("–".into()),
                t["timed"],
                if t["possibly_rushing"].as_bool() == Some(true) {
                    "  ⚠ possibly rushing (far below the others)"
                } else {
                    ""
                }
            ));
        }
    }
    out
}

/// Every reviewer's grades of an item side by side, for the adjudication queue: a header
/// (the reviewers' names) and one row per field any of them set, item-level fields first,
/// then each response's grades (`model · field`). Empty cells are "·".
pub fn comparison(
    item: &Item,
    reviews: &[(String, Review)],
) -> (Vec<String>, Vec<(String, Vec<String>)>) {
    let n = item.responses.len();
    let names: Vec<String> = reviews.iter().map(|(name, _)| name.clone()).collect();
    let mut rows: Vec<(String, Vec<String>)> = Vec::new();
    let mut row = |label: String, cells: Vec<Option<String>>| {
        if cells.iter().any(Option::is_some) {
            rows.push((
                label,
                cells
                    .into_iter()
                    .map(|c| c.unwrap_or_else(|| "·".into()))
                    .collect(),
            ));
        }
    };
    let each = |f: &dyn Fn(&Review) -> Option<String>| -> Vec<Option<String>> {
        reviews.iter().map(|(_, r)| f(r)).collect()
    };
    row(
        "status".into(),
        each(&|r| r.status.map(|s| format!("{s:?}").to_lowercase())),
    );
    row(
        "reason".into(),
        each(&|r| r.reason.map(|x| x.name().to_string())),
    );
    row("reason text".into(), each(&|r| r.reason_text.clone()));
    row("fixed question".into(), each(&|r| r.fixed_question.clone()));
    row("fixed answer".into(), each(&|r| r.fixed_answer.clone()));
    row("verdict".into(), each(&|r| r.verdict.clone()));
    for resp in &item.responses {
        let m = resp.model.as_str();
        let g = |r: &Review| r.for_model(m, n).cloned();
        let yn = |b: Option<bool>| b.map(|b| if b { "correct" } else { "wrong" }.to_string());
        row(
            format!("{m} · justification"),
            each(&|r| {
                g(r).and_then(|g| g.justification)
                    .map(|j| j.name().to_string())
            }),
        );
        row(
            format!("{m} · FACT"),
            each(&|r| yn(g(r).and_then(|g| g.fact_correct))),
        );
        row(
            format!("{m} · bonus"),
            each(&|r| g(r).and_then(|g| g.bonus).map(|b| format!("{b:?}"))),
        );
        row(
            format!("{m} · penalty"),
            each(&|r| {
                g(r).and_then(|g| g.penalty)
                    .map(|p| p.unwrap_or_else(|| "none".into()))
            }),
        );
        row(
            format!("{m} · original"),
            each(&|r| yn(g(r).and_then(|g| g.original_correct))),
        );
        row(
            format!("{m} · counterfactual"),
            each(&|r| yn(g(r).and_then(|g| g.counterfactual_correct))),
        );
    }
    row("note".into(), each(&|r| r.note.clone()));
    row(
        "final".into(),
        each(&|r| (r.is_final == Some(true)).then(|| "FINAL".to_string())),
    );
    (names, rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g7(answers: serde_json::Value) -> Item {
        Item::parse(
            &serde_json::json!({
                "id": "G7_Q1_1", "benchmark": "chartom",
                "fact": {"question": "q", "format": "number", "key": 1.2,
                         "strategies": {"misled": 6, "skim": 300}, "human_answers": answers},
                "responses": [{"model": "m", "fact": "about 6"}]
            })
            .to_string(),
        )
        .unwrap()
    }

    #[test]
    fn shaded_buckets_hold_exactly_the_acceptable_answers() {
        // The paper's G7_Q1: 12 of 68 and 20 of 68 answers outside (−∞, 2.68).
        for (answers, bad) in [
            (
                serde_json::json!([
                    [1.2, 38],
                    [1.1, 6],
                    [1.25, 5],
                    [1.3, 4],
                    [2, 3],
                    [5, 3],
                    [6, 5],
                    [300, 4]
                ]),
                12,
            ),
            (
                serde_json::json!([
                    [1.2, 30],
                    [1.1, 6],
                    [1.3, 6],
                    [2.5, 6],
                    [4, 3],
                    [6, 12],
                    [300, 5]
                ]),
                20,
            ),
        ] {
            let h = histogram(&g7(answers), Some("m"), 10).unwrap();
            assert!(h.log_scale, "1.1 to 300 spans orders of magnitude");
            assert_eq!(h.n, 68);
            let shaded: u64 = h
                .buckets
                .iter()
                .filter(|b| b.acceptable)
                .map(|b| b.count)
                .sum();
            assert_eq!(shaded, 68 - bad);
            assert_eq!(h.buckets.iter().filter(|b| b.has_key).count(), 1);
            let model = h.buckets.iter().find(|b| b.has_model).unwrap();
            assert!(!model.acceptable, "the model's 6 is outside the interval");
            assert_eq!(h.buckets.iter().map(|b| b.count).sum::<u64>(), 68);
        }
    }

    #[test]
    fn a_single_value_makes_one_bucket() {
        let h = histogram(&g7(serde_json::json!([[1.2, 5]])), None, 10).unwrap();
        assert_eq!(h.buckets.len(), 1);
        assert_eq!(h.buckets[0].count, 5);
        assert!(!h.log_scale);
    }

    #[test]
    fn an_override_equal_to_the_automatic_grade_is_no_disagreement() {
        // CHARTOM: "C" names Transport, the key is Rent: automatically wrong. alice's
        // override says wrong too; carol gives no override: the same effective grade.
        let chartom = |alice: &str, carol: &str| {
            Item::parse(&format!(
                r#"{{"id":"G","benchmark":"chartom",
                   "fact":{{"question":"q","format":"choice","options":["Rent","Food","Transport"],"key":1}},
                   "responses":[{{"model":"m","fact":"C","justification":"j"}},{{"model":"n","fact":"Rent","justification":"j"}}],
                   "reviews":{{"alice":{{"models":{{"m":{alice}}}}},"carol":{{"models":{{"m":{carol}}}}}}}}}"#
            ))
            .unwrap()
        };
        let same = chartom(
            r#"{"justification":"partial","fact_correct":false}"#,
            r#"{"justification":"partial"}"#,
        );
        assert!(!reviewers_disagree(&same));
        assert!(!needs_adjudication(&same));
        assert!(!disagreement(&same));
        let differ = chartom(
            r#"{"justification":"partial","fact_correct":true}"#,
            r#"{"justification":"partial"}"#,
        );
        assert!(reviewers_disagree(&differ));
        // C-VQA: original answered "no" to key "yes" (automatically wrong), the
        // counterfactual right.
        let cvqa = |alice: &str, carol: &str| {
            Item::parse(&format!(
                r#"{{"id":"c","benchmark":"cvqa","group":"boolean",
                   "original":{{"question":"q?","answer":"yes"}},
                   "counterfactual":{{"question":"c?","answer":"no"}},
                   "responses":[{{"model":"m","original":"no","counterfactual":"no"}}],
                   "reviews":{{"alice":{alice},"carol":{carol}}}}}"#
            ))
            .unwrap()
        };
        let same = cvqa(
            r#"{"status":"accept","original_correct":false,"counterfactual_correct":true}"#,
            r#"{"status":"accept"}"#,
        );
        assert!(!reviewers_disagree(&same));
        let differ = cvqa(
            r#"{"status":"accept","original_correct":true}"#,
            r#"{"status":"accept"}"#,
        );
        assert!(reviewers_disagree(&differ));
    }
}
