//! The screen of an Inspect AI sample (docs/format.md, "Inspect AI logs"): the sample's
//! id and epoch, its input (a text or messages), the target and the choices, the model's
//! completion, every scorer's value, answer and explanation (with the edits the log
//! holds), and the log's figures; graded correct / incorrect / ambiguous-target on the
//! headline scorer.

use ratatui::text::{Line, Span};

use crate::bench::inspect::Verdict;
use crate::bench::inspect::sample::{Input, Sample, value_text};
use crate::bench::inspect::spec::sample;
use crate::bench::inspect::stats::InspectStats;
use crate::bench::{Item, ResponseGrades, Review};
use crate::tui::app::State;
use crate::tui::keymap::Action;
use crate::tui::summary::{SummaryBlock, bar, finite, fit};
use crate::tui::text::one_line;
use crate::tui::theme::Theme;
use crate::tui::views::View;
use crate::tui::views::common::{heading, kv, text_lines};

/// The view of an Inspect sample.
pub struct InspectView;

/// The letter Inspect's multiple choice gives the `i`-th choice.
fn letter(i: usize) -> String {
    char::from_u32('A' as u32 + i as u32)
        .filter(|_| i < 26)
        .map_or_else(|| (i + 1).to_string(), |c| c.to_string())
}

fn sample_lines(state: &State, s: &Sample) -> Vec<Line<'static>> {
    let t = &state.theme;
    let mut out = Vec::new();
    let mut about = format!("{}   epoch: {}", s.id_text(), s.epoch);
    if let Some(task) = &s.run.task {
        about.push_str(&format!("   task: {task}"));
    }
    out.push(kv(t, "sample", &about));
    if let Some(e) = &s.error {
        out.push(kv(t, "error", e));
    }
    out.push(heading(t, "Input"));
    match &s.input {
        Input::Text(x) => out.extend(text_lines(x, t.text)),
        Input::Messages(ms) => {
            for m in ms {
                out.push(Line::from(Span::styled(
                    format!("[{}]", one_line(&m.role)),
                    t.dim,
                )));
                out.extend(text_lines(&m.text, t.text));
            }
        }
    }
    out.push(Line::from(""));
    out.push(Line::from(vec![
        Span::styled("target: ", t.dim),
        Span::styled(one_line(&s.target_text()), t.good),
    ]));
    if !s.choices.is_empty() {
        out.push(heading(t, "Choices (* target)"));
        let targets: Vec<String> = s.target.iter().map(value_text).collect();
        for (i, c) in s.choices.iter().enumerate() {
            let l = letter(i);
            let is_target = targets.contains(&l);
            out.push(Line::from(vec![
                Span::styled(
                    format!("{} {l}) ", if is_target { '*' } else { ' ' }),
                    t.dim,
                ),
                Span::styled(one_line(c), if is_target { t.good } else { t.text }),
            ]));
        }
    }
    out.push(Line::from(""));
    out.push(heading(t, "Output (completion)"));
    out.extend(text_lines(&s.completion, t.accent));
    out.push(Line::from(""));
    out.push(heading(
        t,
        "Scores (verdicts grade the headline scorer, marked >)",
    ));
    for sc in &s.scores {
        let head = sc.name == s.headline;
        let value = if sc.original != sc.value && !sc.original.is_null() {
            format!(
                "{} (scored {})",
                one_line(&value_text(&sc.value)),
                one_line(&value_text(&sc.original))
            )
        } else {
            one_line(&value_text(&sc.value))
        };
        out.push(Line::from(vec![
            Span::styled(
                format!("{} {}: ", if head { '>' } else { ' ' }, one_line(&sc.name)),
                t.dim,
            ),
            Span::styled(value, if head { t.accent } else { t.text }),
        ]));
        if let Some(a) = &sc.answer {
            out.push(kv(t, "    answer", &one_line(a)));
        }
        if let Some(e) = &sc.explanation {
            out.push(kv(t, "    explanation", &one_line(e)));
        }
        for e in &sc.edits {
            out.push(Line::from(Span::styled(
                format!(
                    "    edited to {} by {} at {}{}",
                    one_line(&value_text(&e.value)),
                    one_line(e.author.as_deref().unwrap_or("?")),
                    one_line(e.at.as_deref().unwrap_or("?")),
                    e.reason
                        .as_deref()
                        .map(|r| format!(": {}", one_line(r)))
                        .unwrap_or_default()
                ),
                t.dim,
            )));
        }
    }
    if !s.harness.is_empty() {
        out.push(Line::from(""));
        out.push(heading(t, "The log's figures (results)"));
        for f in &s.harness {
            out.push(kv(
                t,
                &format!("{} {}", one_line(&f.scorer), one_line(&f.metric)),
                &one_line(&value_text(&f.value)),
            ));
        }
    }
    if s.messages.len() > 1 {
        out.push(Line::from(""));
        out.push(heading(t, "Messages"));
        for m in &s.messages {
            out.push(Line::from(Span::styled(
                format!("[{}]", one_line(&m.role)),
                t.dim,
            )));
            out.extend(text_lines(&m.text, t.text));
        }
    }
    out
}

impl View for InspectView {
    fn item_lines(&self, state: &State, item: &Item, _width: u16) -> Vec<Line<'static>> {
        match sample(item) {
            Some(s) => sample_lines(state, s),
            None => crate::tui::views::generic::generic_lines(state, &state.raw_shown()),
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

    /// The three verdict keys, named by the values they write here.
    fn grading_hints(&self, state: &State, parts: &mut Vec<(String, String)>) {
        for (a, v) in [Action::Pass, Action::Fail, Action::Unsure]
            .into_iter()
            .zip(Verdict::ALL)
        {
            parts.push((state.keymap.hint(state.context(), a), v.name().into()));
        }
    }
}

fn four(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), |x| format!("{x:.4}"))
}

/// The summary page's block: the log's figures, and beside the headline scorer's
/// accuracy the human-corrected one.
impl SummaryBlock for InspectStats {
    fn summary_lines(&self, t: &Theme, width: u16, lines: &mut Vec<Line<'static>>) {
        lines.push(Line::from(""));
        let about: String = [&self.task, &self.model]
            .into_iter()
            .flatten()
            .map(|x| format!(" · {}", one_line(x)))
            .collect();
        lines.push(heading(
            t,
            &format!("Inspect AI{about} · the log vs human-corrected"),
        ));
        for (scorer, metrics) in &self.harness {
            for (m, v) in metrics {
                let log = finite(v.as_f64());
                lines.push(Line::from(Span::styled(
                    format!("  {} · {}", one_line(scorer), one_line(m)),
                    t.accent,
                )));
                if *scorer == self.scorer && (m == "accuracy" || m == "mean") {
                    let corrected = finite(self.corrected_accuracy);
                    lines.push(Line::from(vec![
                        Span::raw(format!("    log {} ", four(log))),
                        bar(log, fit(width, 40) / 2, t.bar_other),
                        Span::raw(format!("  corrected {} ", four(corrected))),
                        bar(corrected, fit(width, 40) / 2, t.bar),
                    ]));
                } else {
                    lines.push(Line::from(Span::styled(
                        format!("    log {} (verdicts do not change it)", four(log)),
                        t.dim,
                    )));
                }
            }
        }
        lines.push(Line::from(Span::styled(
            format!(
                "  verdicts on scorer {} · reviewed {} of {} items",
                one_line(&self.scorer),
                self.reviewed,
                self.items
            ),
            t.dim,
        )));
    }
}
