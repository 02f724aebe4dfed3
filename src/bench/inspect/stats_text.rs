//! An Inspect log in `verdict stats` text (docs/stats.md).

use std::fmt::Write as _;

use super::stats::InspectStats;
use crate::bench::kit::text::{clean, counts, table};

/// 4 decimals; a value that is not finite as Inspect writes it (`Infinity`, `NaN`).
pub(crate) fn four(x: Option<f64>) -> String {
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
    // Every figure of the log, named as Inspect names it (the reducer when the log names
    // reducers), beside the same figure corrected by the verdicts.
    let reducers = x.figures.iter().any(|f| f.reducer.is_some());
    let rows = figure_rows(x, reducers);
    if !rows.is_empty() {
        let mut head = vec!["scorer"];
        if reducers {
            head.push("reducer");
        }
        head.extend(["metric", "log (results)", "human-corrected"]);
        table(o, &head, &rows);
    }
    scorer_lines(x, "", o);
}

/// The log's figures as rows: scorer, reducer (when `reducers`), metric, the log's
/// value, the corrected one.
fn figure_rows(x: &InspectStats, reducers: bool) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for f in &x.figures {
        let mut row = vec![clean(&match &f.name {
            Some(n) => format!("{}/{n}", f.scorer),
            None => f.scorer.clone(),
        })];
        if reducers {
            row.push(clean(f.reducer.as_deref().unwrap_or("-")));
        }
        row.push(clean(&f.metric));
        // (a value that is not a finite number as the log writes it: `Infinity`)
        let log = match f.log.as_f64() {
            Some(v) => four(Some(v)),
            None => clean(&super::sample::value_text(&f.log)),
        };
        row.push(if f.stale.is_some() {
            format!("{log} (stale)")
        } else {
            log
        });
        row.push(match f.corrected {
            Some(c) => four(Some(c)),
            None => "not corrected".into(),
        });
        rows.push(row);
    }
    rows
}

/// The lines under the figures, each starting `prefix` (the log's name in a set): why a
/// figure is stale, and each reviewed scorer's accuracy three ways.
fn scorer_lines(x: &InspectStats, prefix: &str, o: &mut String) {
    for f in x.figures.iter().filter(|f| f.stale.is_some()) {
        let _ = writeln!(
            o,
            "{prefix}stale: {}{} {}: {}",
            clean(&f.scorer),
            f.reducer
                .as_deref()
                .map(|r| format!(" [{}]", clean(r)))
                .unwrap_or_default(),
            clean(&f.metric),
            clean(f.stale.as_deref().unwrap_or_default())
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
            "{prefix}{}{}: accuracy as scored {}, in the log now {}, corrected {}; {} of {} items reviewed on it ({})",
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

/// The block of `verdict stats DIR` (a folder as one set) for its Inspect logs: one
/// table, each figure's row with its log, task and model, then each log's lines.
pub(crate) fn render_set(parts: &[(&std::path::Path, &InspectStats)], o: &mut String) {
    if parts.is_empty() {
        return;
    }
    let name = |p: &std::path::Path| {
        clean(
            &p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        )
    };
    let items: u64 = parts.iter().map(|(_, x)| x.items).sum();
    let _ = writeln!(
        o,
        "\nInspect AI logs ({} logs, {items} items: samples × epochs)",
        parts.len()
    );
    let rows: Vec<Vec<String>> = parts
        .iter()
        .flat_map(|(p, x)| {
            let who = [
                name(p),
                clean(x.task.as_deref().unwrap_or("-")),
                clean(x.model.as_deref().unwrap_or("-")),
            ];
            figure_rows(x, true)
                .into_iter()
                .map(move |r| [who.to_vec(), r].concat())
        })
        .collect();
    table(
        o,
        &[
            "log",
            "task",
            "model",
            "scorer",
            "reducer",
            "metric",
            "log (results)",
            "human-corrected",
        ],
        &rows,
    );
    for (p, x) in parts {
        scorer_lines(x, &format!("{}: ", name(p)), o);
    }
}
