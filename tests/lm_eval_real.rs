//! lm-eval logs written by the real harness (tests/fixtures/real-logs/README.md: lm_eval
//! 0.4.13, a fixed-answer model, one tiny task per output type): verdict's figures are
//! the harness's own `results_*.json` from the same run, to the 4 decimals it prints.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn real(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real-logs/lm-eval")
        .join(sub)
}

fn run_in(dir: Option<&Path>, args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_verdict"));
    if let Some(d) = dir {
        c.current_dir(d);
    }
    c.args(args).output().expect("run verdict")
}

/// A copy of an lm-eval output folder (`<model>/` or the flat one), so nothing is
/// written beside the fixtures.
fn copy_folder(src: &Path, with_results: bool) -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let dst = d.path().join(src.file_name().unwrap());
    std::fs::create_dir(&dst).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if with_results || name.starts_with("samples_") {
            std::fs::copy(&p, dst.join(&name)).unwrap();
        }
    }
    (d, dst)
}

fn files(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .collect();
    v.sort();
    v
}

/// The task of `samples_<task>_<date>.jsonl`.
fn task_of(p: &Path) -> String {
    let n = p.file_name().unwrap().to_string_lossy().into_owned();
    let body = n.strip_prefix("samples_").unwrap();
    body.rsplit_once('_').unwrap().0.to_string()
}

fn stats_json(dir: Option<&Path>, file: &Path) -> Value {
    let out = run_in(dir, &["stats", file.to_str().unwrap(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn four(x: f64) -> String {
    format!("{x:.4}")
}

/// Every `<metric>,<filter>` of the task in `results`: (metric, filter, value).
fn harness_figures(results: &Value, task: &str) -> Vec<(String, String, Value)> {
    results["results"][task]
        .as_object()
        .unwrap()
        .iter()
        .filter_map(|(k, v)| {
            let (m, f) = k.split_once(',')?;
            Some((m.to_string(), f.to_string(), v.clone()))
        })
        .collect()
}

/// Compare verdict's figures for one samples file with the harness's; `with_results`:
/// the run's results file is beside it (else the figures come from the samples alone and
/// a bootstrap stderr cannot be given).
fn compare(dir: &Path, with_results: bool, results: &Value) -> usize {
    files(dir, "samples_")
        .iter()
        .map(|f| compare_file(f, with_results, results))
        .sum()
}

/// [`compare`] for one samples file.
fn compare_file(f: &Path, with_results: bool, results: &Value) -> usize {
    let mut compared = 0;
    {
        let task = task_of(f);
        let s = stats_json(None, f);
        let lm = &s["benchmarks"]["lm-eval"];
        for (metric, filter, want) in harness_figures(results, &task) {
            let got = &lm["filters"][&filter];
            assert!(got.is_object(), "{task}: no filter {filter} in {lm}");
            let ctx = format!("{task} {metric},{filter}: verdict {got}");
            match metric.strip_suffix("_stderr") {
                None => {
                    let v = got["harness"][&metric]
                        .as_f64()
                        .unwrap_or_else(|| panic!("{ctx}"));
                    assert_eq!(four(v), four(want.as_f64().unwrap()), "{ctx}");
                    compared += 1;
                }
                Some(base) => match want.as_f64() {
                    // N/A: the harness has no stderr for this aggregation, nor has verdict
                    None => assert!(got["stderr"][base].is_null(), "{ctx}"),
                    Some(w) => {
                        // (a perplexity's bootstrap stderr: the results file's, marked)
                        let v = got["stderr"][base].as_f64();
                        let marked = got["from_results_file"]
                            .as_array()
                            .is_some_and(|a| a.contains(&Value::String(metric.clone())));
                        assert_eq!(marked, with_results && base == "perplexity", "{ctx}");
                        match v {
                            Some(v) => {
                                assert_eq!(four(v), four(w), "{ctx}");
                                compared += 1;
                            }
                            // a bootstrap: only the harness's file can give it
                            None => assert!(!with_results && base == "perplexity", "{ctx}"),
                        }
                    }
                },
            }
        }
    }
    compared
}

fn results_of(dir: &Path) -> Value {
    let r = files(dir, "results_");
    assert_eq!(r.len(), 1, "{dir:?}");
    serde_json::from_str(&std::fs::read_to_string(&r[0]).unwrap()).unwrap()
}

#[test]
fn every_figure_of_the_harness_for_every_output_type() {
    let src = real("out/example__fixed-1b");
    let results = results_of(&src);
    let (_d, dir) = copy_folder(&src, true);
    // 11 values and their 8 numeric stderrs (3 are N/A)
    assert_eq!(compare(&dir, true, &results), 19);
    let (_d2, alone) = copy_folder(&src, false);
    assert_eq!(compare(&alone, false, &results), 18);
}

/// One output folder holding two models' runs, each run twice (the second with
/// `--apply_chat_template`), of a group (vr_pair: vr_pick, vr_multi) and a 3-shot task
/// with a majority vote over 3 repeats (vr_vote's `maj@3` filter) (README: `set/`):
/// every figure of every run's results file, the groups' included, is verdict's, each
/// samples file read beside its own run's results file.
#[test]
fn every_figure_of_every_run_in_one_output_folder() {
    let set = real("set");
    let mut compared = 0;
    let mut groups = 0;
    let mut runs = 0;
    for model in ["example__fixed-1b", "example__fixed-2b"] {
        for r in files(&set.join(model), "results_") {
            runs += 1;
            let results: Value =
                serde_json::from_str(&std::fs::read_to_string(&r).unwrap()).unwrap();
            let date = r.file_name().unwrap().to_string_lossy()["results_".len()..]
                .strip_suffix(".json")
                .unwrap()
                .to_string();
            let (_d, dir) = copy_folder(&set.join(model), true);
            for f in files(&dir, "samples_") {
                if !f.to_string_lossy().contains(&date) {
                    continue;
                }
                compared += compare_file(&f, true, &results);
                let s = stats_json(None, &f);
                let lm = &s["benchmarks"]["lm-eval"];
                assert_eq!(lm["model"], Value::String(model.into()));
                assert_eq!(
                    lm["results_file"],
                    Value::String(r.file_name().unwrap().to_string_lossy().into_owned())
                );
                if task_of(&f) == "vr_vote" {
                    assert!(lm["filters"]["maj@3"].is_object(), "{lm}");
                    continue;
                }
                let g = &lm["groups"]["vr_pair"]["filters"]["none"]["reported"];
                for (k, want) in results["groups"]["vr_pair"].as_object().unwrap() {
                    if let Some((m, "none")) = k.split_once(',') {
                        assert_eq!(&g[m], want, "{f:?} {k}");
                        groups += 1;
                    }
                }
            }
        }
    }
    // 4 runs × (vr_pick 4 + vr_multi 4 + vr_vote 4 figures), and the group's 4 from
    // each of its two tasks' files
    assert_eq!((runs, compared, groups), (4, 48, 32));
}

#[test]
fn the_flat_layout_gives_the_same_figures() {
    let src = real("flat");
    let results = results_of(&src);
    let (_d, dir) = copy_folder(&src, true);
    assert_eq!(compare(&dir, true, &results), 7);
}

/// The model is lm-eval's `model_name_sanitized`, however the path is typed: from inside
/// the folder, through `..`, and in the flat layout (the folder is not the model's).
#[test]
fn the_model_is_the_runs_model_however_the_path_is_typed() {
    let model_of_export = |dir: Option<&Path>, file: &str| {
        let out = run_in(dir, &["export", file, "--csv"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let h = r.headers().unwrap().clone();
        let col = h.iter().position(|c| c == "model").unwrap();
        let models: std::collections::BTreeSet<String> =
            r.records().map(|x| x.unwrap()[col].to_string()).collect();
        models.into_iter().collect::<Vec<_>>()
    };
    let (_d, dir) = copy_folder(&real("out/example__fixed-1b"), true);
    let f = files(&dir, "samples_vr_pick")[0].clone();
    let name = f.file_name().unwrap().to_str().unwrap();
    assert_eq!(model_of_export(Some(&dir), name), ["example__fixed-1b"]);
    let dotted = format!("../{}/{name}", dir.file_name().unwrap().to_str().unwrap());
    assert_eq!(model_of_export(Some(&dir), &dotted), ["example__fixed-1b"]);
    let (_d2, flat) = copy_folder(&real("flat"), true);
    let f = files(&flat, "samples_vr_pick")[0].clone();
    assert_eq!(
        model_of_export(None, f.to_str().unwrap()),
        ["example__fixed-1b"]
    );
}

/// A command of one file (`agree`) given lm-eval's output (the output folder or a
/// model's folder) says exactly what to do: each samples file with the command that
/// opens it, and the commands that read the folder as one set (`verdict DIR` opens it).
#[test]
fn an_output_folder_lists_the_command_for_each_samples_file() {
    for (dir, n) in [
        (real("out"), 5),
        (real("out/example__fixed-1b"), 5),
        (real("flat"), 2),
    ] {
        let out = run_in(None, &["agree", dir.to_str().unwrap()]);
        assert!(!out.status.success());
        let err = String::from_utf8(out.stderr).unwrap();
        let cmds: Vec<&str> = err
            .lines()
            .filter(|l| l.trim_start().starts_with("verdict ") && l.contains("samples_"))
            .collect();
        assert_eq!(cmds.len(), n, "{dir:?}: {err}");
        for c in cmds {
            let p = c.trim_start().strip_prefix("verdict ").unwrap();
            assert!(Path::new(p).is_file(), "{p}: {err}");
        }
        assert!(err.contains("verdict stats"), "{err}");
    }
}

/// The `set/` folder copied (nothing is written beside the fixtures).
fn copy_set() -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let set = d.path().join("set");
    for model in ["example__fixed-1b", "example__fixed-2b"] {
        let (_t, m) = copy_folder(&real("set").join(model), true);
        std::fs::create_dir_all(&set).unwrap();
        let dst = set.join(model);
        std::fs::create_dir(&dst).unwrap();
        for e in std::fs::read_dir(&m).unwrap() {
            let p = e.unwrap().path();
            std::fs::copy(&p, dst.join(p.file_name().unwrap())).unwrap();
        }
    }
    (d, set)
}

/// Issue 39: an lm-eval output folder is one set for `stats`, `export` and `check`: every
/// model folder and task, the latest run of each task (every run with `--all-runs`), one
/// table in lm-eval's layout with the model and run, the groups' included; one export
/// with task, model and run columns; `check` over every file.
#[test]
fn an_output_folder_is_one_set_for_stats_export_and_check() {
    let (_d, set) = copy_set();
    let dir = set.to_str().unwrap();
    let latest = |model: &str| {
        let r = files(&set.join(model), "results_");
        r.last().unwrap().file_name().unwrap().to_string_lossy()["results_".len()..]
            .strip_suffix(".json")
            .unwrap()
            .to_string()
    };
    // --json: each file's figures, as `stats FILE --json` gives them
    let out = run_in(None, &["stats", dir, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    let got = s["files"].as_array().unwrap();
    assert_eq!(got.len(), 6, "2 models × 3 tasks, the latest run: {s}");
    for f in got {
        let path = PathBuf::from(f["file"].as_str().unwrap());
        let model = path
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(path.to_string_lossy().contains(&latest(&model)), "{path:?}");
        let mut one = stats_json(None, &path);
        one.as_object_mut()
            .unwrap()
            .insert("file".into(), f["file"].clone());
        assert_eq!(*f, one, "{path:?}");
    }
    let out = run_in(None, &["stats", dir, "--all-runs", "--json"]);
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["files"].as_array().unwrap().len(), 12);
    // the text: one table, each row with its model, task and run; the groups per model
    let out = run_in(None, &["stats", dir]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let row = |model: &str, needle: &[&str]| {
        text.lines()
            .find(|l| l.contains(model) && needle.iter().all(|n| l.contains(n)))
            .unwrap_or_else(|| panic!("no {model} {needle:?} row in\n{text}"))
            .to_string()
    };
    let r = row("example__fixed-2b", &["vr_vote", "strict-match"]);
    assert!(
        r.contains(&latest("example__fixed-2b")) && r.contains("0.5000 ± 0.2887"),
        "{r}"
    );
    let r = row("example__fixed-1b", &["vr_vote", "maj@3"]);
    assert!(r.contains("0.7500 ± 0.2500"), "{r}");
    // vr_pair as each model's latest run printed it (fixed-2b's rerun: 0.2857)
    let r = row("example__fixed-2b", &["vr_pair", " acc "]);
    assert!(r.contains("0.2857 ± 0.2012"), "{r}");
    let r = row("example__fixed-1b", &["vr_pair", " acc "]);
    assert!(r.contains("0.7143 ± 0.2012"), "{r}");
    assert_eq!(
        text.lines()
            .filter(|l| l.contains("vr_pair") && l.contains(" acc "))
            .count(),
        2,
        "each model's group once: {text}"
    );
    // export: one header, every file's rows, told apart by task, model and run
    let out = run_in(None, &["export", dir, "--jsonl"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut want = 0;
    for f in got {
        let out = run_in(None, &["export", f["file"].as_str().unwrap(), "--jsonl"]);
        want += String::from_utf8(out.stdout).unwrap().lines().count();
    }
    assert_eq!(rows.len(), want);
    let mut seen: Vec<(String, String, String)> = rows
        .iter()
        .map(|r| {
            let s = |k: &str| {
                r[k].as_str()
                    .unwrap_or_else(|| panic!("{k}: {r}"))
                    .to_string()
            };
            (s("model"), s("task"), s("run"))
        })
        .collect();
    seen.dedup();
    assert_eq!(seen.len(), 6, "{seen:?}");
    let out = run_in(None, &["export", dir, "--csv"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().filter(|l| l.starts_with("id,")).count(), 1);
    assert_eq!(text.lines().count(), want + 1);
    // check: every file, each run
    let out = run_in(None, &["check", dir]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.lines()
            .filter(|l| l.contains("samples_") && l.contains(" items, 0 errors"))
            .count(),
        12,
        "{text}"
    );
}

/// `export --csv` tells the rows of one doc apart: its doc_id, filter, target, the metric
/// a verdict stands in for with the harness's value, and every metric.
#[test]
fn export_has_doc_filter_target_and_metric_columns() {
    let (_d, dir) = copy_folder(&real("out/example__fixed-1b"), true);
    let f = files(&dir, "samples_vr_arith")[0].clone();
    let out = run_in(None, &["export", f.to_str().unwrap(), "--csv"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut r = csv::Reader::from_reader(&out.stdout[..]);
    let h = r.headers().unwrap().clone();
    let col = |n: &str| {
        h.iter()
            .position(|c| c == n)
            .unwrap_or_else(|| panic!("no {n} in {h:?}"))
    };
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 8);
    let doc0: Vec<&csv::StringRecord> = rows.iter().filter(|x| &x[col("doc_id")] == "0").collect();
    assert_eq!(doc0.len(), 2);
    let filters: Vec<&str> = doc0.iter().map(|x| &x[col("filter")]).collect();
    assert_eq!(filters, ["strict-match", "flexible-extract"]);
    for x in &doc0 {
        assert_eq!(&x[col("target")], "5");
        assert_eq!(&x[col("metric")], "exact_match");
        assert_eq!(&x[col("harness_score")], "1");
        assert_eq!(&x[col("metrics")], r#"{"exact_match":1.0}"#);
    }
    // a rolling task: no metric a verdict stands in for; the pairs as logged
    let f = files(&dir, "samples_vr_prose")[0].clone();
    let out = run_in(None, &["export", f.to_str().unwrap(), "--csv"]);
    let mut r = csv::Reader::from_reader(&out.stdout[..]);
    let h = r.headers().unwrap().clone();
    let first = r.records().next().unwrap().unwrap();
    let col = |n: &str| h.iter().position(|c| c == n).unwrap();
    assert_eq!(&first[col("metric")], "");
    assert!(
        first[col("metrics")].starts_with(r#"{"word_perplexity":[-15.399"#),
        "{first:?}"
    );
}

/// `verdict check` on lm-eval samples: the real logs are clean; a line of the wrong
/// shape, a target that names no choice and a logged acc that the key on screen would
/// contradict are each reported at their field.
#[test]
fn check_reports_wrong_shaped_samples_precisely() {
    let src = real("out/example__fixed-1b");
    for f in files(&src, "samples_") {
        let out = run_in(None, &["check", f.to_str().unwrap()]);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{text}");
        assert!(
            !text.contains("warning:") && !text.contains("error:"),
            "{text}"
        );
    }
    let pick: Vec<serde_json::Map<String, Value>> =
        std::fs::read_to_string(&files(&src, "samples_vr_pick")[0])
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
    let mut bad = Vec::new();
    let mut a = pick[0].clone();
    a.remove("filtered_resps");
    bad.push(a);
    let mut b = pick[1].clone();
    b.insert("arguments".into(), Value::from(7));
    bad.push(b);
    let mut c = pick[2].clone();
    c.insert("target".into(), Value::from("9"));
    c.insert("doc".into(), serde_json::json!({"target": "9"}));
    bad.push(c);
    let mut d = pick[3].clone();
    d.get_mut("filtered_resps")
        .unwrap()
        .as_array_mut()
        .unwrap()
        .pop();
    bad.push(d);
    let mut e = pick[0].clone();
    // acc 1 on a line whose pick is not the key as read (the doc's field says index)
    e.insert("doc".into(), serde_json::json!({"target": 2}));
    bad.push(e);
    let mut g = pick[0].clone();
    g.remove("acc_norm");
    bad.push(g);
    let d = tempfile::tempdir().unwrap();
    let p = d
        .path()
        .join("samples_vr_pick_2026-11-26T19-41-47.622322.jsonl");
    let text: String = bad
        .iter()
        .map(|o| format!("{}\n", Value::Object(o.clone())))
        .collect();
    std::fs::write(&p, text).unwrap();
    let out = run_in(None, &["check", p.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    let at = |line: u32, needle: &str| {
        assert!(
            text.lines()
                .any(|l| l.contains(&format!(":{line}: ")) && l.contains(needle)),
            "line {line}: no {needle:?} in\n{text}"
        );
    };
    at(1, "filtered_resps");
    at(2, "arguments");
    at(3, "target");
    at(4, "filtered_resps");
    at(5, "acc");
    at(6, "acc_norm");
}

/// Write `verdict` as alice's review into line `doc` of a samples file, as verdict
/// writes it (after the line's last key).
fn review_line(file: &Path, doc: usize, verdict: &str) {
    let text = std::fs::read_to_string(file).unwrap();
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| match i == doc {
            true => format!(
                r#"{}, "reviews": {{"alice": {{"at": "2026-11-29T10:00:00Z", "verdict": "{verdict}"}}}}}}"#,
                l.strip_suffix('}').unwrap()
            ),
            false => l.to_string(),
        })
        .collect();
    std::fs::write(file, lines.join("\n") + "\n").unwrap();
}

/// lm-eval's group aggregates (a `group:` task with `aggregate_metric_list`, lm_eval
/// 0.4.13): every figure of the results file's `groups` is in `verdict stats` as the
/// harness writes it, in its layout, and corrected by the verdicts of every subtask's
/// samples file, the subtasks weighted by their size as lm-eval's
/// `aggregate_subtask_metrics` weights them.
#[test]
fn a_groups_figures_are_the_harnesss_and_corrected_by_each_subtasks_verdicts() {
    let src = real("group/example__fixed-1b");
    let results = results_of(&src);
    let (_d, dir) = copy_folder(&src, true);
    let pick = files(&dir, "samples_vr_pick")[0].clone();
    let multi = files(&dir, "samples_vr_multi")[0].clone();
    let group = &results["groups"]["vr_pair"];
    for f in [&pick, &multi] {
        let s = stats_json(None, f);
        let g = &s["benchmarks"]["lm-eval"]["groups"]["vr_pair"];
        let mut compared = 0;
        for (k, want) in group.as_object().unwrap() {
            let Some((metric, filter)) = k.split_once(',') else {
                continue;
            };
            assert_eq!(g["filters"][filter]["reported"][metric], *want, "{k}: {g}");
            compared += 1;
        }
        assert_eq!(compared, 4, "{g}");
        assert_eq!(
            g["subtasks"],
            serde_json::json!({"vr_pick": 4, "vr_multi": 3})
        );
        assert_eq!(g["filters"]["none"]["weight_by_size"]["acc"], true, "{g}");
        // nobody reviewed: the corrected figure is the harness's
        let acc = group["acc,none"].as_f64().unwrap();
        let got = g["filters"]["none"]["corrected"]["acc"].as_f64().unwrap();
        assert!((got - acc).abs() < 1e-12, "{got} {acc}");
        // and its stderr is the harness's, pooled over the tasks as lm-eval pools them
        // (pooled_sample_stderr of each task's stderr and size)
        let se = group["acc_stderr,none"].as_f64().unwrap();
        let got = g["filters"]["none"]["corrected_stderr"]["acc"]
            .as_f64()
            .unwrap_or_else(|| panic!("{g}"));
        assert!((got - se).abs() < 1e-12, "{got} {se}");
        // acc_norm: verdicts do not stand in for it
        assert!(
            g["filters"]["none"]["corrected"]["acc_norm"].is_null(),
            "{g}"
        );
    }
    let out = run_in(None, &["stats", pick.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text
        .lines()
        .find(|l| l.contains("vr_pair") && l.contains(" acc "))
        .unwrap_or_else(|| panic!("no group row in\n{text}"));
    assert!(row.contains("0.7143 ± 0.2012"), "{row}");
    assert!(
        text.contains("vr_pick (4)") && text.contains("vr_multi (3)"),
        "{text}"
    );

    // verdicts in both subtasks' files: vr_pick 1 1 1 0 → doc 3 correct, docs 1 and 2
    // ambiguous-key (left out): 2/2 over 2; vr_multi 1 0 1 → doc 0 incorrect: 1/3 over 3.
    // Weighted by the samples counted: 3/5 (by sample_len it would be 5/7, the plain
    // mean 2/3)
    review_line(&pick, 3, "correct");
    review_line(&pick, 1, "ambiguous-key");
    review_line(&pick, 2, "ambiguous-key");
    review_line(&multi, 0, "incorrect");
    let want = (2.0 * 1.0 + 3.0 * (1.0 / 3.0)) / 5.0;
    for f in [&pick, &multi] {
        let s = stats_json(None, f);
        let g = &s["benchmarks"]["lm-eval"]["groups"]["vr_pair"];
        let got = g["filters"]["none"]["corrected"]["acc"].as_f64().unwrap();
        assert!((got - want).abs() < 1e-12, "{f:?}: {got} {want}");
        // the harness's own figure stays as written
        assert_eq!(g["filters"]["none"]["reported"]["acc"], group["acc,none"]);
    }
    let out = run_in(None, &["stats", multi.to_str().unwrap()]);
    let text = String::from_utf8(out.stdout).unwrap();
    let row = text
        .lines()
        .find(|l| l.contains("vr_pair") && l.contains(" acc "))
        .unwrap();
    assert!(row.contains("0.6000"), "{row}");
}

/// A Python with lm_eval (`VERDICT_LMEVAL_PYTHON`, else /work/venv-lmeval/bin/python);
/// `None`, saying so, when there is none.
fn lm_eval_python() -> Option<String> {
    let py = std::env::var("VERDICT_LMEVAL_PYTHON")
        .unwrap_or_else(|_| "/work/venv-lmeval/bin/python".into());
    let ok = Command::new(&py)
        .args(["-c", "import lm_eval.utils"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!(
            "SKIPPED the lm_eval part: no Python with lm_eval at {py} (set VERDICT_LMEVAL_PYTHON; pip install lm_eval==0.4.13)"
        );
    }
    ok.then_some(py)
}

/// Issue 39: `stats --write-corrected` writes, beside each run's results file, the same
/// document in lm-eval's own schema with each corrected figure as `<metric>_human,<filter>`
/// (its stderr as `<metric>_human_stderr,<filter>`), the groups' too, named so that
/// lm-eval's loaders do not take it for a run; lm-eval's own `make_table` prints it.
#[test]
fn the_corrected_results_file_is_lm_evals_own_schema() {
    let (_d, set) = copy_set();
    let m1 = set.join("example__fixed-1b");
    let pick = files(&m1, "samples_vr_pick").pop().unwrap();
    let multi = files(&m1, "samples_vr_multi").pop().unwrap();
    // vr_pick: doc 3 correct, docs 1 and 2 ambiguous-key (left out): 2 of 2 right;
    // vr_multi: doc 0 incorrect: 1 of 3
    review_line(&pick, 3, "correct");
    review_line(&pick, 1, "ambiguous-key");
    review_line(&pick, 2, "ambiguous-key");
    review_line(&multi, 0, "incorrect");
    let out = run_in(None, &["stats", set.to_str().unwrap(), "--write-corrected"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let s = stats_json(None, &pick);
    let lm = &s["benchmarks"]["lm-eval"];
    let results_name = lm["results_file"].as_str().unwrap();
    let date = &results_name["results_".len()..results_name.len() - ".json".len()];
    let written = m1.join(format!("verdict_corrected_{date}.json"));
    assert!(err.contains(&written.display().to_string()), "{err}");
    let orig: Value =
        serde_json::from_str(&std::fs::read_to_string(m1.join(results_name)).unwrap()).unwrap();
    let got: Value = serde_json::from_str(&std::fs::read_to_string(&written).unwrap()).unwrap();
    // every key of the harness's document as it was; the corrected figures added
    let mut stripped = got.clone();
    for section in ["results", "groups"] {
        for (_, v) in stripped[section].as_object_mut().unwrap() {
            v.as_object_mut()
                .unwrap()
                .retain(|k, _| !k.contains("_human"));
        }
    }
    for (_, v) in stripped["higher_is_better"].as_object_mut().unwrap() {
        v.as_object_mut()
            .unwrap()
            .retain(|k, _| !k.contains("_human"));
    }
    stripped.as_object_mut().unwrap().shift_remove("verdict");
    assert_eq!(stripped, orig);
    let r = &got["results"]["vr_pick"];
    assert_eq!(r["acc_human,none"], serde_json::json!(1.0));
    assert_eq!(r["acc_human_stderr,none"], serde_json::json!(0.0));
    assert_eq!(r["acc_human,none"], lm["filters"]["none"]["corrected"]);
    let r = &got["results"]["vr_multi"];
    let third = r["acc_human,none"].as_f64().unwrap();
    assert!((third - 1.0 / 3.0).abs() < 1e-12, "{r}");
    // (lm-eval's mean_stderr of [0, 0, 1]: sample stddev / √n = √(1/3) / √3 = 1/3)
    let se = r["acc_human_stderr,none"].as_f64().unwrap();
    assert!((se - 1.0 / 3.0).abs() < 1e-12, "{r}");
    assert!(
        got["results"]["vr_pick"]
            .get("acc_norm_human,none")
            .is_none()
    );
    let g = &got["groups"]["vr_pair"]["acc_human,none"];
    let want = lm["groups"]["vr_pair"]["filters"]["none"]["corrected"]["acc"].clone();
    assert_eq!(*g, want);
    assert!((g.as_f64().unwrap() - 3.0 / 5.0).abs() < 1e-12, "{g}");
    // pooled over the tasks' corrected scores: vr_pick [1, 1] (stderr 0), vr_multi
    // [0, 0, 1] (stderr 1/3): √(((2−1)·0·2 + (3−1)·(1/9)·3) / (5 − 2) / 5) = √(2/45)
    let se = got["groups"]["vr_pair"]["acc_human_stderr,none"]
        .as_f64()
        .unwrap_or_else(|| panic!("{}", got["groups"]));
    assert!((se - (2.0f64 / 45.0).sqrt()).abs() < 1e-12, "{se}");
    assert_eq!(
        got["higher_is_better"]["vr_pick"]["acc_human"],
        Value::Bool(true)
    );
    // written again from one of the run's samples files, it is the same document: every
    // task of the run is in it, not only the file's own
    let out = run_in(
        None,
        &["stats", pick.to_str().unwrap(), "--write-corrected"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let again: Value = serde_json::from_str(&std::fs::read_to_string(&written).unwrap()).unwrap();
    assert_eq!(again, got);
    // a run nobody reviewed gets its file too: corrected = as scored
    let m2 = set.join("example__fixed-2b");
    assert_eq!(files(&m2, "verdict_corrected_").len(), 1);
    let Some(py) = lm_eval_python() else { return };
    let script = r#"
import json, sys, os
from lm_eval.utils import make_table, get_results_filenames, get_sample_results_filenames
d = json.load(open(sys.argv[1]))
print(make_table(d))
print(make_table(d, "groups"))
folder = os.path.dirname(sys.argv[1])
names = [os.path.join(folder, n) for n in os.listdir(folder)]
print("loaders:", sorted(os.path.basename(n) for n in get_results_filenames(names) + get_sample_results_filenames(names)))
"#;
    let out = Command::new(&py)
        .args(["-c", script, written.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let row = |needle: &str| {
        text.lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no {needle} in\n{text}"))
            .to_string()
    };
    // make_table's own rows: the group's (lm-eval lists it among the tasks too), then
    // vr_multi's and vr_pick's corrected figure; and the group's in its own table
    let groups_at = text.find("|Groups").unwrap();
    let tasks: Vec<&str> = text[..groups_at]
        .lines()
        .filter(|l| l.contains("|acc_human "))
        .collect();
    assert_eq!(tasks.len(), 3, "{text}");
    assert!(tasks[0].contains("|0.6000|±  |0.2108|"), "{text}");
    assert!(tasks[1].contains("|0.3333|±  |0.3333|"), "{text}");
    assert!(tasks[2].contains("|1.0000|±  |0.0000|"), "{text}");
    let groups = &text[groups_at..];
    let g = groups.lines().find(|l| l.contains("acc_human")).unwrap();
    assert!(g.contains("0.6000|±  |0.2108"), "{text}");
    let loaders = row("loaders:");
    assert!(!loaders.contains("verdict_corrected"), "{loaders}");
    assert!(loaders.contains(results_name), "{loaders}");
}
