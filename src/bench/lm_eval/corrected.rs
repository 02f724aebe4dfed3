//! The corrected results file (`verdict stats --write-corrected`, docs/stats.md, "The
//! corrected results file"): a run's `results_<date>.json` in lm-eval's own schema, every
//! key as the harness wrote it, with each figure a verdict corrects beside the harness's
//! as `<metric>_human,<filter>` (and `<metric>_human_stderr,<filter>`), the groups' too,
//! so that lm-eval's own tools (`make_table`) print it. It is written beside the results
//! file as `verdict_corrected_<date>.json`: lm-eval's loaders take only `results_*` and
//! `samples_*` files for a run's.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::stats::LmEvalStats;

/// The corrected file's name before the run's date.
pub const PREFIX: &str = "verdict_corrected_";

fn number(x: f64) -> Value {
    serde_json::Number::from_f64(x).map_or(Value::String("N/A".into()), Value::Number)
}

fn object<'a>(d: &'a mut Value, section: &str, name: &str) -> Option<&'a mut Map<String, Value>> {
    d.get_mut(section)?.get_mut(name)?.as_object_mut()
}

/// Give `name`'s `<metric>_human` the harness's `higher_is_better` of `metric`.
fn higher_is_better(d: &mut Value, name: &str, metric: &str) {
    if let Some(h) = object(d, "higher_is_better", name)
        && let Some(v) = h.get(metric).cloned()
    {
        h.insert(format!("{metric}_human"), v);
    }
}

/// The results document `results` with the corrected figures of `tasks` (the figures of
/// its run's samples files) added, and what verdict added said under `verdict`.
pub fn document(results: &Value, tasks: &[&LmEvalStats], source: &str) -> Value {
    let mut d = results.clone();
    for x in tasks {
        let Some(task) = &x.task else { continue };
        for (filter, f) in &x.filters {
            let (Some(m), Some(c)) = (&f.metric, f.corrected) else {
                continue;
            };
            if let Some(r) = object(&mut d, "results", task) {
                r.insert(format!("{m}_human,{filter}"), number(c));
                r.insert(
                    format!("{m}_human_stderr,{filter}"),
                    f.corrected_stderr
                        .map_or(Value::String("N/A".into()), number),
                );
            }
            higher_is_better(&mut d, task, m);
        }
        for (group, g) in &x.groups {
            for (filter, gf) in &g.filters {
                for (m, c) in &gf.corrected {
                    // (lm-eval writes a group's figures in `groups` and in `results`)
                    for section in ["groups", "results"] {
                        if let Some(r) = object(&mut d, section, group) {
                            r.insert(format!("{m}_human,{filter}"), number(*c));
                            r.insert(
                                format!("{m}_human_stderr,{filter}"),
                                gf.corrected_stderr
                                    .get(m)
                                    .map_or(Value::String("N/A".into()), |se| number(*se)),
                            );
                        }
                    }
                    higher_is_better(&mut d, group, m);
                }
            }
        }
    }
    if let Some(o) = d.as_object_mut() {
        o.insert(
            "verdict".into(),
            json!({
                "corrected_from": source,
                "corrected": "<metric>_human,<filter>: the metric with the reviewers' verdicts in place of the harness's scores (correct 1, incorrect 0, ambiguous-key left out, unreviewed as scored); a group's: its tasks' corrected figures weighted as the harness weights them; <metric>_human_stderr: as the harness's mean_stderr, a group's pooled as the harness pools its tasks' (N/A where a task has none)",
            }),
        );
    }
    d
}

/// The samples files of the run whose results file is `results` (its date), beside it.
fn run_samples(results: &Path, date: &str) -> Vec<PathBuf> {
    let dir = results.parent().unwrap_or(Path::new("."));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let mut found: Vec<PathBuf> = super::folder::samples_in(dir)
        .into_iter()
        .filter(|p| {
            p.parent() == Some(dir)
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().ends_with(&format!("_{date}.jsonl")))
        })
        .collect();
    found.sort();
    found
}

/// Write the corrected file of each run among `parts` (each samples file read and its
/// figures), beside the run's results file; the files written. Every task of the run is
/// in it: the figures of the run's other samples files are `stats_of`'s (as `verdict
/// stats` on that file). A samples file whose run has no results file beside it gives
/// none.
pub fn write(
    parts: &[(&Path, &LmEvalStats)],
    stats_of: impl Fn(&Path) -> Option<LmEvalStats>,
) -> std::io::Result<Vec<PathBuf>> {
    let mut runs: std::collections::BTreeMap<PathBuf, Vec<(PathBuf, &LmEvalStats)>> =
        Default::default();
    for (p, x) in parts {
        let Some(name) = &x.results_file else {
            continue;
        };
        // (the folder as typed, unless the file is a link: its run is beside its target)
        let link = std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink());
        let dir = match (link, p.parent()) {
            (false, Some(d)) if !d.as_os_str().is_empty() => d.to_path_buf(),
            (false, _) => PathBuf::from("."),
            (true, _) => super::run::resolve(p)
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default(),
        };
        runs.entry(dir.join(name))
            .or_default()
            .push((dir.join(p.file_name().unwrap_or_default()), x));
    }
    let mut written = Vec::new();
    for (results, tasks) in runs {
        let name = results
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let date = name
            .strip_suffix(".json")
            .and_then(|s| s.rsplit_once('_'))
            .map_or(name.as_str(), |(_, d)| d);
        let doc: Value = serde_json::from_slice(&std::fs::read(&results)?)?;
        // the run's other tasks, read as `verdict stats` reads them
        let others: Vec<LmEvalStats> = run_samples(&results, date)
            .into_iter()
            .filter(|p| !tasks.iter().any(|(q, _)| q == p))
            .filter_map(|p| stats_of(&p))
            .collect();
        let tasks: Vec<&LmEvalStats> = tasks.iter().map(|(_, x)| *x).chain(others.iter()).collect();
        let out = results.with_file_name(format!("{PREFIX}{date}.json"));
        let dir = results.parent().unwrap_or(Path::new("."));
        // (the run's figures: no more open than its results file)
        let perms = crate::perms::Derived::of_sources(&[&results])?;
        let mut tmp = perms.tempfile_in(dir, &format!("{PREFIX}{date}.json"))?;
        let text = serde_json::to_string_pretty(&document(&doc, &tasks, &name))?;
        tmp.write_all(text.as_bytes())?;
        tmp.as_file().sync_all()?;
        perms.narrow_to_replaced(tmp.path(), &out)?;
        tmp.persist(&out).map_err(|e| e.error)?;
        written.push(out);
    }
    Ok(written)
}
