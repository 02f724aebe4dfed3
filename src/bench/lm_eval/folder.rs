//! An lm-eval output folder given where a file is expected (`verdict DIR`): verdict opens
//! one file per session (one journal, one atomic save), so it lists the samples files,
//! one per task, with the command that opens each (docs/format.md,
//! "lm-evaluation-harness sample logs").

use std::path::{Path, PathBuf};

use crate::bench::kit::text::open_each_hint;

/// The samples files lm-eval wrote into `dir`, or into its model folders
/// (`<output>/<model>/samples_<task>_<date>.jsonl`), sorted; empty when there are none.
pub fn samples_in(dir: &Path) -> Vec<PathBuf> {
    let is_samples = |p: &Path| {
        p.file_name()
            .map(|n| n.to_string_lossy())
            .is_some_and(|n| n.starts_with("samples_") && n.ends_with(".jsonl"))
    };
    let entries = |d: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(d)
            .map(|r| r.filter_map(Result::ok).map(|e| e.path()).collect())
            .unwrap_or_default()
    };
    let mut found: Vec<PathBuf> = Vec::new();
    for p in entries(dir) {
        if p.is_dir() {
            found.extend(
                entries(&p)
                    .into_iter()
                    .filter(|q| is_samples(q) && q.is_file()),
            );
        } else if is_samples(&p) && p.is_file() {
            found.push(p);
        }
    }
    found.sort();
    found
}

/// Of `files` (samples files), each task's latest run in each folder (lm-eval names a run
/// by its date, `samples_<task>_<date>.jsonl`, which sorts as text: its own
/// `get_latest_filename` takes the greatest); a file not named so is kept.
pub fn latest_runs(files: Vec<PathBuf>) -> Vec<PathBuf> {
    let key = |p: &Path| -> Option<(PathBuf, String, String)> {
        let name = p.file_name()?.to_string_lossy().into_owned();
        let stem = name.strip_suffix(".jsonl")?.strip_prefix("samples_")?;
        let (task, date) = super::run::split_date(stem)?;
        Some((
            p.parent()?.to_path_buf(),
            task.to_string(),
            date.to_string(),
        ))
    };
    let mut latest: std::collections::BTreeMap<(PathBuf, String), String> = Default::default();
    for f in &files {
        if let Some((dir, task, date)) = key(f) {
            let d = latest.entry((dir, task)).or_default();
            if date > *d {
                *d = date;
            }
        }
    }
    files
        .into_iter()
        .filter(|f| match key(f) {
            Some((dir, task, date)) => latest.get(&(dir, task)) == Some(&date),
            None => true,
        })
        .collect()
}

/// What to tell a reviewer who gave the folder `dir`: the samples files and the command
/// that opens each, when `dir` holds lm-eval output.
pub fn hint(dir: &Path) -> Option<String> {
    open_each_hint(&samples_in(dir), |n, s| {
        format!(
            "lm-eval output with {n} samples file{s} (one per \
             task and model; the run's results_*.json beside it is read too)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_folder_lists_each_samples_file_with_its_command() {
        let d = tempfile::tempdir().unwrap();
        let m = d.path().join("org__m 1b");
        std::fs::create_dir(&m).unwrap();
        for f in [
            "samples_b_2026-01-01T00-00-00.1.jsonl",
            "samples_a_2026-01-01T00-00-00.1.jsonl",
            "results_2026-01-01T00-00-00.1.json",
        ] {
            std::fs::write(m.join(f), "").unwrap();
        }
        // the output folder and the model folder both list the two files
        for dir in [d.path(), m.as_path()] {
            let h = hint(dir).unwrap();
            let lines: Vec<&str> = h.lines().collect();
            assert_eq!(lines.len(), 3, "{h}");
            assert!(lines[0].contains("2 samples files"), "{h}");
            assert!(lines[1].starts_with("  verdict '"), "quoted: {h}");
            assert!(
                lines[1].ends_with("samples_a_2026-01-01T00-00-00.1.jsonl'"),
                "{h}"
            );
            assert!(lines[2].contains("samples_b_"), "{h}");
        }
        assert_eq!(hint(&d.path().join("nothing")), None);
        // a rerun of task a: only its latest run is kept, in each folder
        let files = [
            "m/samples_a_2026-01-01T00-00-00.1.jsonl",
            "m/samples_a_2026-01-02T00-00-00.1.jsonl",
            "m/samples_b_2026-01-01T00-00-00.1.jsonl",
            "n/samples_a_2026-01-01T00-00-00.1.jsonl",
            "m/samples_odd.jsonl",
        ]
        .map(PathBuf::from);
        assert_eq!(
            latest_runs(files.to_vec()),
            [&files[1], &files[2], &files[3], &files[4]].map(|p| p.clone())
        );
        let empty = tempfile::tempdir().unwrap();
        assert_eq!(hint(empty.path()), None);
    }
}
