use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::bench::Benchmark;
use crate::cli::out;
use crate::sanitize;
use crate::stats::*;

/// The papers' figures for a result set: C-VQA accuracy on original and counterfactual
/// questions and their difference, per group; CHARTOM FACT accuracy by chart type and
/// version, MIND MSE and the HMI recomputed from human answers; CharToM-QA BPC and PR by
/// dimension, from the LLM judge and from human reviews; review progress per reviewer.
///
/// Verdicts still in the journal (after a crash) are counted. `--json` prints the
/// document described in docs/stats.md.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The result set.
    pub file: PathBuf,
    /// Print the figures as JSON (shape documented in docs/stats.md).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let store = super::open_with_journal(&args.file)?;
    let stats = compute(&store);
    if args.json {
        out::print_json(&stats)?;
    } else {
        out::print(&render(&stats, &args.file.display().to_string()))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn pct(x: Option<f64>) -> String {
    match x {
        Some(v) => format!("{:.1}%", v * 100.0),
        None => "-".into(),
    }
}

fn pts(x: Option<f64>) -> String {
    match x {
        Some(v) => format!("{:+.1}", v * 100.0),
        None => "-".into(),
    }
}

fn num(x: Option<f64>) -> String {
    match x {
        Some(v) => format!("{v:.4}"),
        None => "-".into(),
    }
}

/// A table: the first column left-aligned, the others right-aligned.
fn table(out: &mut String, header: &[&str], rows: &[Vec<String>]) {
    let mut w: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let line = |out: &mut String, cells: &[String]| {
        let mut s = String::from("  ");
        for (i, c) in cells.iter().enumerate() {
            let pad = w[i] - c.chars().count();
            if i == 0 {
                s.push_str(c);
                s.push_str(&" ".repeat(pad));
            } else {
                s.push_str("  ");
                s.push_str(&" ".repeat(pad));
                s.push_str(c);
            }
        }
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(
        out,
        &header.iter().map(|h| h.to_string()).collect::<Vec<_>>(),
    );
    for r in rows {
        line(out, r);
    }
}

/// Model names and other file text are shown, never interpreted (and cleaned before the
/// table measures them, so columns line up).
fn clean(s: &str) -> String {
    sanitize::line(s).into_owned()
}

fn acc_row(name: &str, f: &AccFigures) -> Vec<String> {
    vec![
        clean(name),
        f.n.to_string(),
        pct(f.original_accuracy),
        pct(f.counterfactual_accuracy),
        pts(f.difference),
        format!("{}/{}", f.original_failed, f.counterfactual_failed),
    ]
}

fn qa_row(name: &str, j: &QaFigures, h: &QaFigures) -> Vec<String> {
    vec![
        clean(name),
        j.n.to_string(),
        pct(j.bpc),
        pct(j.pr),
        j.unparsable.to_string(),
        h.points.to_string(),
        pct(h.bpc),
        h.n.to_string(),
        pct(h.pr),
    ]
}

/// The human-readable report.
pub fn render(s: &Stats, file: &str) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "{}: {} items{}",
        clean(file),
        s.items,
        if s.unreadable > 0 {
            format!(" ({} unreadable, left out)", s.unreadable)
        } else {
            String::new()
        }
    );
    if let Some(c) = &s.benchmarks.cvqa {
        let _ = writeln!(o, "\n{} ({} items)", Benchmark::Cvqa.title(), c.items);
        for (model, m) in &c.models {
            let _ = writeln!(
                o,
                "\n  model {}  (accuracy after reviewer overrides; difference = original - counterfactual, points)",
                clean(model)
            );
            let mut rows: Vec<Vec<String>> = m.groups.iter().map(|(g, f)| acc_row(g, f)).collect();
            rows.push(acc_row("overall", &m.overall));
            rows.push(acc_row("automatic (scripts)", &m.automatic.overall));
            rows.push(acc_row("fixed keys", &m.fixed_key));
            table(
                &mut o,
                &[
                    "group",
                    "n",
                    "original",
                    "counterfactual",
                    "diff",
                    "failed o/c",
                ],
                &rows,
            );
        }
        let v = &c.verification;
        let reasons = v
            .by_reason
            .iter()
            .map(|(k, n)| format!("{} {n}", clean(k)))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(
            o,
            "\n  question verification: {} accepted, {} fixed, {} rejected, {} unreviewed{}",
            v.accepted,
            v.fixed,
            v.rejected,
            v.unreviewed,
            if reasons.is_empty() {
                String::new()
            } else {
                format!(" (reasons: {reasons})")
            }
        );
    }
    if let Some(c) = &s.benchmarks.chartom {
        let _ = writeln!(o, "\n{} ({} charts)", Benchmark::Chartom.title(), c.items);
        let rows: Vec<Vec<String>> = c
            .models
            .iter()
            .map(|(name, m)| {
                let j = &m.justification;
                vec![
                    clean(name),
                    m.n.to_string(),
                    pct(m.fact_accuracy),
                    pct(m.fact_accuracy_automatic),
                    num(m.mind_mse),
                    format!("{}/{}/{}/{}", j.identifies, j.partial, j.misses, j.ungraded),
                ]
            })
            .collect();
        table(
            &mut o,
            &[
                "model",
                "n",
                "FACT acc",
                "automatic",
                "MIND MSE",
                "justif. id/part/miss/ungraded",
            ],
            &rows,
        );
        for (name, m) in &c.models {
            let _ = writeln!(
                o,
                "\n  model {}: FACT accuracy / MIND MSE by chart type and version",
                clean(name)
            );
            let mut rows = Vec::new();
            for (t, vs) in &m.by_type_version {
                for (v, f) in vs {
                    rows.push(vec![
                        clean(t),
                        clean(v),
                        f.n.to_string(),
                        pct(f.fact_accuracy),
                        num(f.mind_mse),
                    ]);
                }
            }
            for (v, f) in &m.by_version {
                rows.push(vec![
                    "all".into(),
                    clean(v),
                    f.n.to_string(),
                    pct(f.fact_accuracy),
                    num(f.mind_mse),
                ]);
            }
            table(
                &mut o,
                &["type", "version", "n", "FACT acc", "MIND MSE"],
                &rows,
            );
        }
        let charts: Vec<&ChartStat> = c
            .charts
            .iter()
            .filter(|ch| ch.hmi.is_some() || ch.hmi_recomputed.is_some())
            .collect();
        if !charts.is_empty() {
            let _ = writeln!(
                o,
                "\n  HMI per chart (given vs recomputed from human answers)"
            );
            let rows: Vec<Vec<String>> = charts
                .iter()
                .map(|ch| {
                    let b = |x: Option<f64>, inf: &str| {
                        x.map(|v| format!("{v:.3}")).unwrap_or_else(|| inf.into())
                    };
                    vec![
                        clean(&ch.id),
                        num(ch.hmi),
                        num(ch.hmi_recomputed),
                        if ch.hmi_recomputed.is_some() && ch.format.as_deref() == Some("number") {
                            format!(
                                "({}, {})",
                                b(ch.interval.0, "-inf"),
                                b(ch.interval.1, "+inf")
                            )
                        } else {
                            "-".into()
                        },
                        format!("{}/{}", ch.n_not_acceptable, ch.n_answers),
                    ]
                })
                .collect();
            table(
                &mut o,
                &["chart", "HMI", "recomputed", "interval", "not acc./answers"],
                &rows,
            );
        }
    }
    if let Some(c) = &s.benchmarks.chartom
        && !c.suspect_keys.is_empty()
    {
        let _ = writeln!(
            o,
            "\n  Suspect answer keys ({}): the human answers disagree with the key",
            c.suspect_keys.len()
        );
        let rows: Vec<Vec<String>> = c
            .suspect_keys
            .iter()
            .map(|k| {
                let why = match k.suspicion.reason {
                    crate::grade::chartom::SuspicionReason::ModalAnswerDiffers => {
                        if k.suspicion.reversed {
                            "most common answer is the key reversed"
                        } else {
                            "most common answer differs"
                        }
                    }
                    crate::grade::chartom::SuspicionReason::FewAgree => "few answers agree",
                };
                vec![
                    clean(&k.id),
                    clean(&k.suspicion.key),
                    format!("{}/{}", k.suspicion.n_agree, k.suspicion.n_answers),
                    match &k.suspicion.modal_answer {
                        Some(m) => format!("{} ({})", clean(m), k.suspicion.modal_count),
                        None => "-".into(),
                    },
                    why.into(),
                ]
            })
            .collect();
        table(
            &mut o,
            &[
                "chart",
                "key",
                "agree/answers",
                "most common other answer",
                "why",
            ],
            &rows,
        );
    }
    if let Some(q) = &s.benchmarks.chartom_qa {
        let _ = writeln!(o, "\n{} ({} items)", Benchmark::ChartomQa.title(), q.items);
        let header = [
            "model / dimension",
            "judge n",
            "BPC",
            "PR",
            "unparsable",
            "human points",
            "BPC",
            "human n",
            "PR",
        ];
        let mut rows = Vec::new();
        for (name, m) in &q.models {
            rows.push(qa_row(name, &m.judge, &m.human));
            for (d, f) in &m.dimensions {
                rows.push(qa_row(&format!("  {}", d), &f.judge, &f.human));
            }
        }
        table(&mut o, &header, &rows);
    }
    if let Some(x) = &s.benchmarks.other {
        let verdicts = x
            .verdicts
            .iter()
            .map(|(k, n)| format!("{} {n}", clean(k)))
            .collect::<Vec<_>>()
            .join(", ");
        let _ = writeln!(
            o,
            "\nOther benchmarks: {} items; verdicts: {}",
            x.items,
            if verdicts.is_empty() {
                "none".into()
            } else {
                verdicts
            }
        );
    }
    if !s.reviews.is_empty() {
        let _ = writeln!(o, "\nReviews");
        let rows: Vec<Vec<String>> = s
            .reviews
            .iter()
            .map(|(name, r)| {
                vec![
                    clean(name),
                    r.reviewed.to_string(),
                    r.done.to_string(),
                    r.final_.to_string(),
                    r.by_benchmark
                        .iter()
                        .map(|(b, n)| format!("{} {n}", clean(b)))
                        .collect::<Vec<_>>()
                        .join(", "),
                ]
            })
            .collect();
        table(
            &mut o,
            &["reviewer", "items", "done", "final", "by benchmark"],
            &rows,
        );
        let r = &s.resolution;
        let _ = writeln!(
            o,
            "\n  human grades per response: {} final, {} majority, {} single reviewer, {} ungraded",
            r.final_, r.majority, r.single, r.none
        );
    }
    o
}
