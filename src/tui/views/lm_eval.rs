//! The screen of an lm-evaluation-harness sample (docs/format.md, "lm-evaluation-harness
//! sample logs"): the prompt and the answer key, the model's filtered answer and raw
//! response (or, for multiple choice, each choice with its log-likelihood and the pick
//! marked), and the harness's metric; graded correct / incorrect / ambiguous-key.

use ratatui::text::{Line, Span};

use crate::bench::lm_eval::sample::{Agg, Answer, Choices, MetricValue, Sample};
use crate::bench::lm_eval::spec::sample;
use crate::bench::lm_eval::stats::{GroupStats, LmEvalStats};
use crate::bench::{Item, ResponseGrades, Review};
use crate::tui::app::State;
use crate::tui::keymap::Action;
use crate::tui::summary::{SummaryBlock, bar, finite, fit};
use crate::tui::text::one_line;
use crate::tui::theme::Theme;
use crate::tui::views::View;
use crate::tui::views::common::{heading, kv, text_lines, text_lines_of};

/// The view of a logged sample.
pub struct LmEvalView;

/// A log-likelihood as the screen shows it: to 4 decimals at most, as the harness's table
/// shows its figures (the file's `-2.5620000000000003` is a sum's rounding, not a digit
/// to read: `-2.562`).
fn num(x: Option<f64>) -> String {
    x.map_or_else(
        || "-".into(),
        |v| match (v * 1e4).round() / 1e4 {
            r if r.is_finite() => format!("{}", r + 0.0),
            _ => format!("{v}"),
        },
    )
}

fn greedy(g: Option<bool>) -> &'static str {
    match g {
        Some(true) => "True",
        Some(false) => "False",
        None => "-",
    }
}

fn metric_text(v: MetricValue) -> String {
    match v {
        MetricValue::Number(x) => format!("{x}"),
        MetricValue::Pair(a, b) => format!("[{a}, {b}]"),
        MetricValue::Other => "-".into(),
    }
}

fn sample_lines<'a>(state: &State, s: &'a Sample) -> Vec<Line<'a>> {
    let t = &state.theme;
    let mut out = Vec::new();
    let filter = s.filter.as_deref().unwrap_or("none");
    out.push(kv(t, "doc_id", &format!("{}   filter: {filter}", s.doc_id)));
    // A rolling task's prompt is its target: the text, shown once.
    if !matches!(s.answer, Answer::Rolling { .. }) {
        out.push(heading(t, "Prompt"));
        out.extend(text_lines_of(&s.prompt, t.text));
        out.push(Line::from(""));
    }
    out.push(heading(
        t,
        match s.answer {
            Answer::Rolling { .. } => "Text (the target)",
            _ => "Target (answer key)",
        },
    ));
    let key = key_text(s);
    out.extend(text_lines(&key, t.text));
    out.push(Line::from(""));
    answer_lines(t, &s.answer, &mut out);
    out.push(Line::from(""));
    metric_lines(t, s, &mut out);
    out
}

/// The answer key, and for a multiple-choice sample the choices it names.
fn key_text(s: &Sample) -> String {
    match &s.answer {
        Answer::Choice(c) => {
            let named: Vec<String> = c
                .gold
                .iter()
                .filter_map(|&g| c.texts.get(g).map(|x| format!("{g}. {}", x.trim())))
                .collect();
            if named.is_empty() {
                format!("{}  (names no choice: the harness scored it 0)", s.target)
            } else {
                format!(
                    "{}  → {}  (read as {})",
                    s.target,
                    named.join(", "),
                    c.key.describe()
                )
            }
        }
        _ => s.target.clone(),
    }
}

/// What the model answered, by the kind of task: a generation (filtered and raw), a
/// continuation's log-likelihood, a rolling log-likelihood, or the choices.
fn answer_lines(t: &Theme, answer: &Answer, out: &mut Vec<Line<'_>>) {
    match answer {
        Answer::Generated { raw, filtered } => {
            out.push(heading(t, "Filtered answer"));
            out.extend(text_lines(filtered, t.accent));
            out.push(Line::from(""));
            out.push(heading(t, "Raw response"));
            for (i, r) in raw.iter().enumerate() {
                if raw.len() > 1 {
                    out.push(Line::from(Span::styled(
                        format!("── repeat {} of {} ──", i + 1, raw.len()),
                        t.dim,
                    )));
                }
                out.extend(text_lines(r, t.text));
            }
        }
        Answer::Loglikelihood {
            continuation,
            loglikelihood,
            is_greedy,
        } => {
            out.push(heading(
                t,
                "Continuation (acc = is_greedy: the model's greedy continuation)",
            ));
            out.push(kv(t, "continuation", &one_line(continuation)));
            out.push(kv(t, "loglikelihood", &num(*loglikelihood)));
            let style = match is_greedy {
                Some(true) => t.good,
                Some(false) => t.bad,
                None => t.text,
            };
            out.push(Line::from(vec![
                Span::styled("is_greedy: ", t.dim),
                Span::styled(greedy(*is_greedy).to_string(), style),
            ]));
        }
        Answer::Rolling { loglikelihood } => {
            out.push(heading(t, "Rolling log-likelihood of the whole text"));
            out.push(kv(t, "loglikelihood", &num(*loglikelihood)));
        }
        Answer::Choice(c) => choice_lines(t, c, out),
    }
}

/// A multiple-choice sample's choices, each with its log-likelihood and marks for the
/// picks and the key.
fn choice_lines(t: &Theme, c: &Choices, out: &mut Vec<Line<'_>>) {
    out.push(heading(
        t,
        "Choices (log-likelihood; > acc's pick, ~ acc_norm's pick, * key)",
    ));
    let (acc, norm) = (c.picked(), c.picked_norm());
    for (i, text) in c.texts.iter().enumerate() {
        let m = |b: bool, ch: char| if b { ch } else { ' ' };
        let gold = c.is_gold(i);
        let marks = format!(
            "{}{}{}",
            m(acc == Some(i), '>'),
            m(norm == Some(i), '~'),
            m(gold, '*')
        );
        let style = if gold { t.good } else { t.text };
        let style = if acc == Some(i) && !gold {
            t.bad
        } else {
            style
        };
        out.push(Line::from(vec![
            Span::styled(format!("{marks} {i}. "), t.dim),
            Span::styled(one_line(text.trim()), style),
            Span::styled(
                format!("  ({})", num(c.loglikelihoods.get(i).copied().flatten())),
                t.dim,
            ),
        ]));
    }
}

/// The harness's metrics of the sample, and which of them a verdict stands in for.
fn metric_lines(t: &Theme, s: &Sample, out: &mut Vec<Line<'_>>) {
    out.push(heading(t, "Harness metrics"));
    let primary = s.primary().map(|(n, _)| n.to_string());
    for m in &s.metrics {
        let how = match (&m.agg, m.name.as_str()) {
            (Agg::Perplexity, _) => "  (ll)",
            (Agg::WeightedPerplexity, "word_perplexity") => "  (ll, words)",
            (Agg::WeightedPerplexity | Agg::BitsPerByte, _) => "  (ll, bytes)",
            _ => "",
        };
        out.push(kv(t, &m.name, &format!("{}{how}", metric_text(m.value))));
    }
    let note = match primary {
        Some(p) if s.metrics.len() > 1 => format!("a verdict stands in for {p} only"),
        Some(p) => format!("a verdict stands in for {p}"),
        None => "a verdict does not change these figures (not means of scores)".into(),
    };
    out.push(Line::from(Span::styled(note, t.dim)));
}

impl View for LmEvalView {
    fn summary_block<'a>(&self, b: &'a crate::bench::Benchmarks) -> Option<&'a dyn SummaryBlock> {
        b.lm_eval.as_ref().map(|x| x as _)
    }

    /// A line that is not a sample (a `benchmark` named but not its layout) is shown as
    /// JSON.
    fn shows_raw(&self, item: &Item) -> bool {
        sample(item).is_none()
    }

    fn item_lines<'a>(&self, state: &State, item: &'a Item, _width: u16) -> Vec<Line<'a>> {
        match sample(item) {
            Some(s) => sample_lines(state, s),
            None => crate::tui::views::generic::generic_lines(state),
        }
    }

    fn grade_parts(
        &self,
        _item: &Item,
        mine: Option<&Review>,
        _g: Option<&ResponseGrades>,
        _model: Option<&str>,
        _column: bool,
    ) -> Vec<String> {
        crate::tui::views::generic::verdict_parts(mine)
    }

    fn guideline(&self, state: &State, _item: &Item) -> Option<String> {
        let k = |a| state.keymap.hint(state.context(), a);
        Some(format!(
            "{} correct, however parsed · {} incorrect · {} the key is wrong",
            k(Action::Pass),
            k(Action::Fail),
            k(Action::Unsure)
        ))
    }

    /// The three verdict keys, named by the values they write here.
    fn grading_hints(&self, state: &State, parts: &mut Vec<(String, String)>) {
        let values = crate::bench::lm_eval::Verdict::ALL;
        for (a, v) in [Action::Pass, Action::Fail, Action::Unsure]
            .into_iter()
            .zip(values)
        {
            parts.push((state.keymap.hint(state.context(), a), v.name().into()));
        }
    }
}

/// A figure with the harness's 4 decimals.
fn four(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), |x| format!("{x:.4}"))
}

/// ` ± <stderr>` with the harness's 4 decimals, when there is a finite one.
fn plus_minus(se: Option<f64>) -> String {
    finite(se).map_or_else(String::new, |se| format!(" ± {se:.4}"))
}

/// lm-eval's block of the summary page (`s`): per filter, the harness's metric and the
/// human-corrected one, and the metrics a verdict does not change (a perplexity), with the
/// harness's 4 decimals.
impl SummaryBlock for LmEvalStats {
    fn summary_lines(&self, t: &Theme, width: u16, lines: &mut Vec<Line<'static>>) {
        lines.push(Line::from(""));
        let about: Vec<String> = [&self.task, &self.model]
            .into_iter()
            .filter_map(|x| x.as_deref().map(one_line))
            .collect();
        lines.push(heading(
            t,
            &format!(
                "lm-eval{} · harness vs human-corrected",
                if about.is_empty() {
                    String::new()
                } else {
                    format!(" · {}", about.join(" · "))
                }
            ),
        ));
        for (name, fv) in &self.filters {
            let metric = fv.metric.as_deref();
            lines.push(Line::from(Span::styled(
                format!(
                    "  {} · {} · n={} · reviewed {}",
                    one_line(name),
                    one_line(metric.unwrap_or("no metric a verdict corrects")),
                    fv.samples,
                    fv.reviewed
                ),
                t.accent,
            )));
            if let Some(metric) = metric {
                let harness = finite(fv.harness.get(metric).copied());
                let corrected = finite(fv.corrected);
                lines.push(Line::from(vec![
                    Span::raw(format!("    harness {} ", four(harness))),
                    bar(harness, fit(width, 49) / 2, t.bar_other),
                    Span::raw(format!(
                        "  corrected {}{} ",
                        four(corrected),
                        plus_minus(fv.corrected_stderr)
                    )),
                    bar(corrected, fit(width, 49) / 2, t.bar),
                ]));
            }
            let parts: Vec<String> = fv
                .harness
                .iter()
                .filter(|(m, _)| Some(m.as_str()) != metric)
                .map(|(m, v)| {
                    format!(
                        "{} {}{}",
                        one_line(m),
                        four(finite(Some(*v))),
                        if fv.from_results_file.contains(m) {
                            " (from the results file)"
                        } else {
                            ""
                        }
                    )
                })
                .collect();
            if !parts.is_empty() {
                lines.push(Line::from(Span::styled(
                    format!("    {} (verdicts do not change these)", parts.join(" · ")),
                    t.dim,
                )));
            }
            if !fv.differs.is_empty() {
                let parts: Vec<String> = fv
                    .differs
                    .iter()
                    .map(|m| {
                        let reported = fv.reported.get(m).and_then(serde_json::Value::as_f64);
                        format!("{} {}", one_line(m), four(reported))
                    })
                    .collect();
                lines.push(Line::from(Span::styled(
                    format!("    the run's results file says {}", parts.join(" · ")),
                    t.bad,
                )));
            }
        }
        group_lines(&self.groups, t, width, lines);
    }
}

/// A figure of the results file as written: a number with 4 decimals, a text (`N/A`) as
/// it is.
fn reported(v: Option<&serde_json::Value>) -> String {
    match v {
        Some(serde_json::Value::Number(n)) => four(n.as_f64()),
        Some(serde_json::Value::String(s)) => one_line(s),
        _ => "-".into(),
    }
}

/// The groups the task is in, as `verdict stats` shows them (its `lm-eval groups` table):
/// per group and filter, the results file's figures ± stderr and the corrected one of the
/// metric a verdict stands in for, and each group's tasks with their sizes.
fn group_lines(
    groups: &std::collections::BTreeMap<String, GroupStats>,
    t: &Theme,
    width: u16,
    lines: &mut Vec<Line<'static>>,
) {
    if groups.is_empty() {
        return;
    }
    lines.push(Line::from(""));
    lines.push(heading(
        t,
        "lm-eval groups · results file vs human-corrected",
    ));
    for (name, g) in groups {
        let n: u64 = g.subtasks.values().sum();
        for (filter, f) in &g.filters {
            let metrics: Vec<&String> = f
                .reported
                .iter()
                .filter(|(m, v)| !m.ends_with("_stderr") && v.is_number())
                .map(|(m, _)| m)
                .collect();
            let with_stderr = |m: &str| {
                format!(
                    "{} ± {}",
                    reported(f.reported.get(m)),
                    reported(f.reported.get(&format!("{m}_stderr")))
                )
            };
            let corrected = metrics.iter().find(|m| f.corrected.contains_key(**m));
            lines.push(Line::from(Span::styled(
                format!(
                    "  {} · {} · {} · n={n}",
                    one_line(name),
                    one_line(filter),
                    corrected.map_or("no metric a verdict corrects".into(), |m| one_line(m)),
                ),
                t.accent,
            )));
            if let Some(m) = corrected {
                let harness = finite(f.reported.get(*m).and_then(serde_json::Value::as_f64));
                let c = finite(f.corrected.get(*m).copied());
                let se = f.corrected_stderr.get(*m).copied();
                lines.push(Line::from(vec![
                    Span::raw(format!("    results file {} ", with_stderr(m))),
                    bar(harness, fit(width, 65) / 2, t.bar_other),
                    Span::raw(format!("  corrected {}{} ", four(c), plus_minus(se))),
                    bar(c, fit(width, 65) / 2, t.bar),
                ]));
            }
            let others: Vec<String> = metrics
                .iter()
                .filter(|m| Some(*m) != corrected)
                .map(|m| {
                    format!(
                        "{} {}{}",
                        one_line(m),
                        with_stderr(m),
                        if f.weight_by_size.contains_key(*m) {
                            ""
                        } else {
                            " (not recomputed: neither its tasks' weighted nor plain mean)"
                        }
                    )
                })
                .collect();
            if !others.is_empty() {
                lines.push(Line::from(Span::styled(
                    format!("    {} (not corrected)", others.join(" · ")),
                    t.dim,
                )));
            }
        }
        let tasks: Vec<String> = g
            .group
            .tasks
            .iter()
            .map(|x| format!("{} ({})", one_line(&x.task), x.size))
            .collect();
        lines.push(Line::from(Span::styled(
            format!("    tasks: {}", tasks.join(", ")),
            t.dim,
        )));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::lm_eval::stats::FilterStats;

    /// A figure taken from the results file (not worked out from the samples) says so on
    /// the summary page too.
    #[test]
    fn the_summary_marks_a_figure_from_the_results_file() {
        let mut f = FilterStats {
            samples: 2,
            metric: Some("acc".into()),
            ..FilterStats::default()
        };
        f.harness.insert("acc".into(), 0.5);
        f.harness.insert("f1".into(), 0.8125);
        f.from_results_file.push("f1".into());
        let x = LmEvalStats {
            filters: [("none".to_string(), f)].into_iter().collect(),
            ..LmEvalStats::default()
        };
        let mut lines = Vec::new();
        x.summary_lines(
            &Theme::new(crate::tui::theme::ThemeName::Mono),
            80,
            &mut lines,
        );
        let text: String = lines
            .iter()
            .map(|l| l.to_string() + "\n")
            .collect::<String>();
        assert!(text.contains("f1 0.8125 (from the results file)"), "{text}");
    }
}
