//! An Inspect log in `verdict stats` text (docs/stats.md).

use std::fmt::Write as _;

use super::stats::InspectStats;
use crate::bench::kit::text::{clean, counts, table};

/// 4 decimals; a value that is not finite as Inspect writes it (`Infinity`, `NaN`).
fn four(x: Option<f64>) -> String {
    match x {
        None => "-".into(),
        Some(v) if v.is_nan() => "NaN".into(),
        Some(v) if v.is_infinite() => if v > 0.0 { "Infinity" } else { "-Infinity" }.into(),
        Some(v) => format!("{v:.4}"),
    }
}

pub(crate) fn render(stats: &Option<InspectStats>, o: &mut String) {
    let Some(x) = stats else { return };
    let mut about = Vec::new();
    if let Some(t) = &x.task {
        about.push(format!("task {}", clean(t)));
    }
    if let Some(m) = &x.model {
        about.push(format!("model {}", clean(m)));
    }
    let _ = writeln!(
        o,
        "\nInspect AI log{}: {} samples, {} items (samples × epochs); headline scorer {}",
        if about.is_empty() {
            String::new()
        } else {
            format!(" ({})", about.join(", "))
        },
        x.samples,
        x.items,
        clean(&x.scorer)
    );
    let mut rows = Vec::new();
    for (scorer, metrics) in &x.harness {
        for (m, v) in metrics {
            rows.push(vec![
                clean(scorer),
                clean(m),
                // (a value that is not a finite number as the log writes it: `Infinity`)
                match v.as_f64() {
                    Some(x) => four(Some(x)),
                    None => clean(&super::sample::value_text(v)),
                },
                match x.scorers.get(scorer) {
                    Some(f) if m == "accuracy" || m == "mean" => four(f.corrected_accuracy),
                    _ => "not corrected".into(),
                },
            ]);
        }
    }
    if !rows.is_empty() {
        table(
            o,
            &["scorer", "metric", "log (results)", "human-corrected"],
            &rows,
        );
    }
    // The headline scorer first, then every other scorer with a verdict on it.
    let others = x
        .scorers
        .iter()
        .filter(|(name, f)| **name != x.scorer && f.reviewed > 0);
    let head = x.scorers.get(&x.scorer).map(|f| (&x.scorer, f));
    for (name, f) in head.into_iter().chain(others) {
        let verdicts = counts(&f.verdicts);
        let _ = writeln!(
            o,
            "{}{}: accuracy as scored {}, in the log now {}, corrected {}; {} of {} items reviewed on it ({})",
            clean(name),
            if *name == x.scorer { " (headline)" } else { "" },
            four(f.scorer_accuracy),
            four(f.log_accuracy),
            four(f.corrected_accuracy),
            f.reviewed,
            x.items,
            if verdicts.is_empty() {
                "none".into()
            } else {
                verdicts
            }
        );
    }
}
