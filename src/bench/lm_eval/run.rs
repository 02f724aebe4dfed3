//! The run a samples file belongs to (docs/format.md, "lm-evaluation-harness sample
//! logs"). lm-eval writes one `results_<date>.json` per run beside its samples
//! (`<output>/<model_name_sanitized>/`, or with `--output_path x/name.json` the flat
//! `x/name_<date>.json`), the same `<date>` in every file of the run. From it: the
//! model's name (`model_name_sanitized`), each task's configuration (how its target
//! names a choice, each metric's aggregation) and the harness's own figures, shown
//! beside the ones verdict works out from the samples.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// A results file larger than this is not read (lm-eval's are kilobytes; its configs of
/// a few hundred tasks stay far below).
const MAX_RESULTS_BYTES: u64 = 64 << 20;

/// What the run's results file says about one task.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Run {
    /// The samples file's task (`samples_<task>_<date>.jsonl`).
    pub task: String,
    /// The model: `model_name_sanitized` of the results file, else the name of the
    /// folder the samples are in (resolved: `.`, `..` and links do not change it).
    pub model: Option<String>,
    /// The run's results file, when found.
    pub results_file: Option<PathBuf>,
    /// The task's configuration in the results file (`configs.<task>`).
    pub config: Option<TaskConfig>,
    /// The harness's figures for the task, per filter: `<metric>` and
    /// `<metric>_stderr` (a number, or `"N/A"`) as the results file has them.
    pub reported: BTreeMap<String, BTreeMap<String, Value>>,
    /// The groups of the run whose tasks include this one (lm-eval's `groups`), with
    /// their figures and tasks.
    pub groups: Vec<Group>,
}

/// A group task (a `group:` YAML with `aggregate_metric_list`): lm-eval aggregates each
/// listed metric over the group's tasks (`lm_eval/api/group.py`, `aggregate`), every
/// task of its subgroups included.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Group {
    pub name: String,
    /// The group's figures per filter, as `reported` holds a task's.
    pub reported: BTreeMap<String, BTreeMap<String, Value>>,
    /// Its tasks, in the results file's order.
    pub tasks: Vec<GroupTask>,
}

/// A task of a group: its size and figures in the results file, and its samples file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GroupTask {
    pub task: String,
    /// `sample_len`: the weight lm-eval gives the task's figures in the group's.
    pub size: u64,
    pub reported: BTreeMap<String, BTreeMap<String, Value>>,
    /// The task's samples file of the same run, when it is beside this one.
    pub samples: Option<PathBuf>,
}

/// `<metric>,<filter>` entries of a task's or group's results, per filter.
fn figures(entry: Option<&Value>) -> BTreeMap<String, BTreeMap<String, Value>> {
    let mut out: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
    if let Some(Value::Object(r)) = entry {
        for (k, v) in r {
            if let Some((metric, filter)) = k.split_once(',') {
                out.entry(filter.to_string())
                    .or_default()
                    .insert(metric.to_string(), v.clone());
            }
        }
    }
    out
}

/// The tasks of group `g` (a subgroup's tasks in its place, each group expanded once:
/// a file whose groups name each other costs no more than its length), by
/// `group_subtasks`.
pub(crate) fn leaves(
    subtasks: &serde_json::Map<String, Value>,
    g: &str,
    seen: &mut Vec<String>,
    out: &mut Vec<String>,
) {
    seen.push(g.to_string());
    let Some(Value::Array(list)) = subtasks.get(g) else {
        return;
    };
    for t in list.iter().filter_map(Value::as_str) {
        if subtasks.contains_key(t) {
            if !seen.iter().any(|x| x == t) {
                leaves(subtasks, t, seen, out);
            }
        } else if !out.iter().any(|x| x == t) {
            out.push(t.to_string());
        }
    }
}

/// The parts of a task's configuration that change how its samples read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TaskConfig {
    /// `multiple_choice`, `loglikelihood`, `loglikelihood_rolling`, `generate_until`.
    pub output_type: Option<String>,
    /// `doc_to_target`: a field's name, a template, an index or a list.
    pub doc_to_target: Option<Value>,
    /// What the harness put between the prompt and each choice (`" "` by default).
    pub target_delimiter: Option<String>,
    /// Each metric's aggregation, where `metric_list` names one.
    pub aggregations: BTreeMap<String, String>,
    /// Each filter's pipeline, its functions in order (`filter_list`: `strict-match` →
    /// `regex`, `take_first`); a task without one has lm-eval's `none` filter, a
    /// `take_first`.
    pub filters: BTreeMap<String, Vec<String>>,
}

impl Run {
    /// The run of the samples file at `path` (typed as the user typed it); `None` when
    /// the file is not named as lm-eval names its samples.
    pub fn of(path: &Path) -> Option<Run> {
        let name = path.file_name()?.to_string_lossy().into_owned();
        let stem = name.strip_suffix(".jsonl")?.strip_prefix("samples_")?;
        let (task, date) = split_date(stem)?;
        let real = resolve(path);
        let dir = real.parent().map(Path::to_path_buf);
        let folder = dir
            .as_deref()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| !n.is_empty());
        let mut run = Run {
            task: task.to_string(),
            model: folder,
            ..Run::default()
        };
        if let Some(dir) = dir
            && let Some((file, doc)) = results_of(&dir, date)
        {
            run.read_results(&doc);
            run.read_groups(&doc, &dir, date);
            run.results_file = Some(file);
        }
        Some(run)
    }

    fn read_results(&mut self, doc: &Value) {
        if let Some(m) = doc.get("model_name_sanitized").and_then(Value::as_str)
            && !m.is_empty()
        {
            self.model = Some(m.to_string());
        }
        self.reported = figures(doc.get("results").and_then(|r| r.get(&self.task)));
        if let Some(Value::Object(c)) = doc.get("configs").and_then(|c| c.get(&self.task)) {
            let mut aggregations = BTreeMap::new();
            if let Some(Value::Array(list)) = c.get("metric_list") {
                for m in list {
                    if let (Some(name), Some(agg)) = (
                        m.get("metric").and_then(Value::as_str),
                        m.get("aggregation").and_then(Value::as_str),
                    ) {
                        aggregations.insert(name.to_string(), agg.to_string());
                    }
                }
            }
            let mut filters = BTreeMap::new();
            match c.get("filter_list") {
                Some(Value::Array(list)) => {
                    for f in list {
                        let (Some(name), Some(Value::Array(steps))) =
                            (f.get("name").and_then(Value::as_str), f.get("filter"))
                        else {
                            continue;
                        };
                        let steps = steps
                            .iter()
                            .map(|x| x.get("function").and_then(Value::as_str).unwrap_or(""))
                            .map(str::to_string)
                            .collect();
                        filters.insert(name.to_string(), steps);
                    }
                }
                _ => {
                    filters.insert("none".into(), vec!["take_first".into()]);
                }
            }
            self.config = Some(TaskConfig {
                output_type: c
                    .get("output_type")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                doc_to_target: c.get("doc_to_target").cloned(),
                target_delimiter: c
                    .get("target_delimiter")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                aggregations,
                filters,
            });
        }
    }
}

impl Run {
    /// The groups whose tasks include this one: `groups` (the figures),
    /// `group_subtasks` (the tasks), each task's `sample_len` and figures in `results`.
    fn read_groups(&mut self, doc: &Value, dir: &Path, date: &str) {
        let (Some(Value::Object(groups)), Some(Value::Object(subtasks))) =
            (doc.get("groups"), doc.get("group_subtasks"))
        else {
            return;
        };
        for (name, entry) in groups {
            let mut tasks = Vec::new();
            leaves(subtasks, name, &mut Vec::new(), &mut tasks);
            if !tasks.contains(&self.task) {
                continue;
            }
            let results = doc.get("results");
            let tasks = tasks
                .into_iter()
                .map(|task| {
                    let entry = results.and_then(|r| r.get(&task));
                    let samples = dir.join(format!("samples_{task}_{date}.jsonl"));
                    GroupTask {
                        size: entry
                            .and_then(|e| e.get("sample_len"))
                            .and_then(Value::as_u64)
                            .unwrap_or(0),
                        reported: figures(entry),
                        samples: samples.is_file().then_some(samples),
                        task,
                    }
                })
                .collect();
            self.groups.push(Group {
                name: name.clone(),
                reported: figures(Some(entry)),
                tasks,
            });
        }
    }
}

/// `<task>_<date>`, the date as lm-eval writes it (`2026-11-20T10-15-42.518246`).
pub(crate) fn split_date(stem: &str) -> Option<(&str, &str)> {
    let (task, date) = stem.rsplit_once('_')?;
    (!task.is_empty() && date.len() >= 10 && date.as_bytes()[..4].iter().all(u8::is_ascii_digit))
        .then_some((task, date))
}

/// The path with its folder resolved (`.`, `..`, links), the file's own name kept; as
/// typed when it cannot be resolved.
pub(crate) fn resolve(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(parent), path.file_name()) {
        (Ok(d), Some(n)) => d.join(n),
        _ => path.to_path_buf(),
    }
}

/// The run's results file in `dir`: a `.json` whose name ends in `_<date>`, and its
/// JSON.
fn results_of(dir: &Path, date: &str) -> Option<(PathBuf, Value)> {
    let suffix = format!("_{date}.json");
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().map(|n| n.to_string_lossy()).is_some_and(|n| {
                n.ends_with(&suffix)
                    && !n.starts_with("samples_")
                    && !n.starts_with(super::corrected::PREFIX)
            })
        })
        .collect();
    found.sort();
    found.into_iter().find_map(|p| {
        let meta = std::fs::metadata(&p).ok()?;
        if !meta.is_file() || meta.len() > MAX_RESULTS_BYTES {
            return None;
        }
        let doc: Value = serde_json::from_slice(&std::fs::read(&p).ok()?).ok()?;
        doc.get("results")?.is_object().then_some((p, doc))
    })
}
