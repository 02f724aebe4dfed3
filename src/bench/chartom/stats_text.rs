//! CHARTOM in `verdict stats` text (docs/stats.md).

use std::fmt::Write as _;

use super::stats::{ChartStat, ChartomStats};
use crate::bench::Benchmark;
use crate::bench::kit::text::{clean, num, pct, table};

/// Its block of `verdict stats` text, when the file has items of it.
pub(crate) fn render(stats: &Option<ChartomStats>, o: &mut String) {
    if let Some(c) = stats {
        let _ = writeln!(o, "\n{} ({} charts)", Benchmark::Chartom.title(), c.items);
        models(c, o);
        by_type_version(c, o);
        hmi_per_chart(c, o);
    }
    if let Some(c) = stats
        && !c.suspect_keys.is_empty()
    {
        suspect_keys(c, o);
    }
}

/// One row per model: FACT accuracy, MIND MSE, justification grades.
fn models(c: &ChartomStats, o: &mut String) {
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
        o,
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
}

/// Per model: FACT accuracy and MIND MSE by chart type and version, then by version.
fn by_type_version(c: &ChartomStats, o: &mut String) {
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
        table(o, &["type", "version", "n", "FACT acc", "MIND MSE"], &rows);
    }
}

/// The charts with an HMI, given or recomputed.
fn hmi_per_chart(c: &ChartomStats, o: &mut String) {
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
            o,
            &["chart", "HMI", "recomputed", "interval", "not acc./answers"],
            &rows,
        );
    }
}

/// The answer keys the human answers disagree with.
fn suspect_keys(c: &ChartomStats, o: &mut String) {
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
                crate::bench::chartom::grade::SuspicionReason::ModalAnswerDiffers => {
                    if k.suspicion.reversed {
                        "most common answer is the key reversed"
                    } else {
                        "most common answer differs"
                    }
                }
                crate::bench::chartom::grade::SuspicionReason::FewAgree => "few answers agree",
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
        o,
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
