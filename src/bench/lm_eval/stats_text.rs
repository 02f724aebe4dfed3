//! lm-eval samples in `verdict stats` text (docs/stats.md): per filter and metric, the
//! figure from the samples with the harness's 4 decimals and its standard error, the
//! run's own figure from its results file, and the human-corrected one.

use std::fmt::Write as _;

use serde_json::Value;

use super::stats::{FilterStats, GroupStats, LmEvalStats};
use crate::bench::Benchmark;
use crate::bench::kit::text::{clean, table};

/// A figure as the harness prints it: 4 decimals.
fn four(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), |v| format!("{v:.4}"))
}

/// A reported figure: a number with 4 decimals, `N/A` as the harness writes it.
fn reported(v: Option<&Value>) -> String {
    match v {
        Some(Value::Number(n)) => four(n.as_f64()),
        Some(Value::String(s)) => clean(s),
        _ => "-".into(),
    }
}

fn rows(name: &str, f: &FilterStats, with_results: bool) -> Vec<Vec<String>> {
    f.aggregation
        .keys()
        .map(|m| {
            let is_corrected = f.metric.as_deref() == Some(m.as_str());
            // (a figure taken from the results file says so)
            let from = |k: &str| {
                if f.from_results_file.iter().any(|x| x == k) {
                    " (results)"
                } else {
                    ""
                }
            };
            let mut row = vec![
                clean(name),
                clean(m),
                f.samples.to_string(),
                format!("{}{}", four(f.harness.get(m).copied()), from(m)),
                format!(
                    "{}{}",
                    four(f.stderr.get(m).copied()),
                    from(&format!("{m}_stderr"))
                ),
            ];
            if with_results {
                let mark = if f.differs.contains(m) {
                    " (differs)"
                } else {
                    ""
                };
                row.push(format!(
                    "{} ± {}{mark}",
                    reported(f.reported.get(m)),
                    reported(f.reported.get(&format!("{m}_stderr")))
                ));
            }
            // (the corrected figure ± its stderr, over the samples not ambiguous-key)
            row.push(if is_corrected {
                format!(
                    "{}{}{}",
                    four(f.corrected),
                    f.corrected_stderr
                        .map(|se| format!(" ± {}", four(Some(se))))
                        .unwrap_or_default(),
                    if f.corrected_samples != f.samples {
                        format!(" (n={})", f.corrected_samples)
                    } else {
                        String::new()
                    }
                )
            } else {
                "not corrected".into()
            });
            row.push(if is_corrected {
                format!(
                    "{} ({}/{}/{})",
                    f.reviewed, f.correct_but_scored_0, f.incorrect_but_scored_1, f.ambiguous_key
                )
            } else {
                "-".into()
            });
            row
        })
        .collect()
}

/// Its block of `verdict stats` text, when the file has samples.
pub(crate) fn render(stats: &Option<LmEvalStats>, o: &mut String) {
    let Some(x) = stats else {
        return;
    };
    let n: u64 = x.filters.values().map(|f| f.samples).sum();
    let mut about = Vec::new();
    if let Some(t) = &x.task {
        about.push(format!("task {}", clean(t)));
    }
    if let Some(m) = &x.model {
        about.push(format!("model {}", clean(m)));
    }
    about.push(format!("{n} samples"));
    let _ = writeln!(o, "\n{} ({})", Benchmark::LmEval.title(), about.join(", "));
    let with_results = x.results_file.is_some();
    let mut header = vec!["filter", "metric", "n", "samples", "stderr"];
    if with_results {
        header.push("results file");
    }
    header.extend(["corrected", "reviewed (0→correct/1→incorrect/ambiguous)"]);
    let all: Vec<Vec<String>> = x
        .filters
        .iter()
        .flat_map(|(name, f)| rows(name, f, with_results))
        .collect();
    table(o, &header, &all);
    let _ = writeln!(
        o,
        "  samples: each metric aggregated from the samples as the harness does\n  corrected: the first mean of scores with the verdicts in place (correct 1, incorrect 0,\n    ambiguous-key left out: n, unreviewed as scored) ± its stderr; verdicts change no other metric"
    );
    match &x.results_file {
        Some(r) => {
            let _ = writeln!(
                o,
                "  results file: {} (the harness's own figures)",
                clean(r)
            );
        }
        None => {
            let _ = writeln!(
                o,
                "  no results file of this run beside the samples: a perplexity's bootstrap stderr is not shown"
            );
        }
    }
    if x.filters.values().any(|f| !f.from_results_file.is_empty()) {
        let _ = writeln!(
            o,
            "  (results): not worked out from the samples (an aggregation verdict does not recompute,\n    a perplexity's bootstrap stderr): the results file's figure"
        );
    }
    if x.filters.values().any(|f| !f.differs.is_empty()) {
        let _ = writeln!(
            o,
            "  (differs): the samples' figure is not the results file's (the samples were changed, or are not all of the run's)"
        );
    }
    render_groups(&x.groups, o);
}

/// A group's rows: per filter and metric, the results file's figure ± stderr and the
/// corrected one.
fn group_rows(name: &str, g: &GroupStats) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let n: u64 = g.subtasks.values().sum();
    for (filter, f) in &g.filters {
        for (m, v) in &f.reported {
            if m.ends_with("_stderr") || !v.is_number() {
                continue;
            }
            let corrected = match (f.corrected.get(m), f.weight_by_size.get(m)) {
                (Some(c), _) => match f.corrected_stderr.get(m) {
                    Some(se) => format!("{} ± {}", four(Some(*c)), four(Some(*se))),
                    None => four(Some(*c)),
                },
                (None, Some(_)) => "not corrected".into(),
                (None, None) => "not recomputed".into(),
            };
            rows.push(vec![
                clean(name),
                clean(filter),
                clean(m),
                n.to_string(),
                format!(
                    "{} ± {}",
                    reported(Some(v)),
                    reported(f.reported.get(&format!("{m}_stderr")))
                ),
                corrected,
            ]);
        }
    }
    rows
}

const GROUP_HEADER: [&str; 6] = [
    "group",
    "filter",
    "metric",
    "n",
    "results file",
    "corrected",
];

/// A group's tasks and their sizes, one line.
fn group_tasks(name: &str, g: &GroupStats) -> String {
    let tasks: Vec<String> = g
        .group
        .tasks
        .iter()
        .map(|t| format!("{} ({})", clean(&t.task), t.size))
        .collect();
    format!("  {}: {}", clean(name), tasks.join(", "))
}

const GROUP_NOTE: &str = "  corrected: each task's corrected figure (from its samples file of the run, else the results\n    file's), weighted by its samples as the harness weights them; not recomputed: the group's\n    figure is neither its tasks' weighted nor their plain mean";

/// The groups the task is in, as lm-eval prints its `Groups` table: per group, filter
/// and metric, the results file's figure ± stderr and the corrected one.
fn render_groups(groups: &std::collections::BTreeMap<String, GroupStats>, o: &mut String) {
    if groups.is_empty() {
        return;
    }
    let rows: Vec<Vec<String>> = groups.iter().flat_map(|(n, g)| group_rows(n, g)).collect();
    let _ = writeln!(o, "\n{} groups", Benchmark::LmEval.title());
    table(o, &GROUP_HEADER, &rows);
    for (name, g) in groups {
        let _ = writeln!(o, "{}", group_tasks(name, g));
    }
    let _ = writeln!(o, "{GROUP_NOTE}");
}

/// The run of a samples file: the date in its name (`samples_<task>_<date>.jsonl`), else
/// its name.
fn run_of(p: &std::path::Path) -> String {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.strip_suffix(".jsonl")
        .and_then(|s| s.strip_prefix("samples_"))
        .and_then(super::run::split_date)
        .map_or_else(|| clean(&name), |(_, date)| clean(date))
}

/// The block of `verdict stats DIR` (a folder as one set) for its samples files: one
/// table in lm-eval's layout, each row with its model, task and run, then the groups'
/// table, each group once per model and run.
pub(crate) fn render_set(parts: &[(&std::path::Path, &LmEvalStats)], o: &mut String) {
    if parts.is_empty() {
        return;
    }
    let models: std::collections::BTreeSet<&str> = parts
        .iter()
        .filter_map(|(_, x)| x.model.as_deref())
        .collect();
    let tasks: std::collections::BTreeSet<&str> = parts
        .iter()
        .filter_map(|(_, x)| x.task.as_deref())
        .collect();
    let n: u64 = parts
        .iter()
        .flat_map(|(_, x)| x.filters.values().map(|f| f.samples))
        .sum();
    let _ = writeln!(
        o,
        "\n{} ({} samples files: {} models, {} tasks; {n} samples)",
        Benchmark::LmEval.title(),
        parts.len(),
        models.len(),
        tasks.len()
    );
    let label = |p: &std::path::Path, x: &LmEvalStats| {
        vec![
            clean(x.model.as_deref().unwrap_or("-")),
            clean(x.task.as_deref().unwrap_or("-")),
            run_of(p),
        ]
    };
    let rows: Vec<Vec<String>> = parts
        .iter()
        .flat_map(|(p, x)| {
            x.filters.iter().flat_map(move |(name, f)| {
                rows(name, f, true)
                    .into_iter()
                    .map(move |r| [label(p, x), r].concat())
            })
        })
        .collect();
    table(
        o,
        &[
            "model",
            "task",
            "run",
            "filter",
            "metric",
            "n",
            "samples",
            "stderr",
            "results file",
            "corrected",
            "reviewed (0→correct/1→incorrect/ambiguous)",
        ],
        &rows,
    );
    let _ = writeln!(
        o,
        "  run: the date in the samples file's name (its results file is results_<run>.json beside it)"
    );
    // each group once per model and run (each of its tasks' files holds it)
    let mut seen = std::collections::BTreeSet::new();
    let mut rows = Vec::new();
    let mut tasks_of = std::collections::BTreeMap::new();
    for (p, x) in parts {
        for (name, g) in &x.groups {
            if !seen.insert((x.model.clone(), run_of(p), name.clone())) {
                continue;
            }
            tasks_of
                .entry(name.clone())
                .or_insert_with(|| group_tasks(name, g));
            let who = [clean(x.model.as_deref().unwrap_or("-")), run_of(p)];
            rows.extend(
                group_rows(name, g)
                    .into_iter()
                    .map(|r| [who.to_vec(), r].concat()),
            );
        }
    }
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(o, "\n{} groups", Benchmark::LmEval.title());
    table(
        o,
        &[&["model", "run"][..], &GROUP_HEADER[..]].concat(),
        &rows,
    );
    for line in tasks_of.values() {
        let _ = writeln!(o, "{line}");
    }
    let _ = writeln!(o, "{GROUP_NOTE}");
}
