//! The screen of an lm-evaluation-harness sample (docs/format.md, "lm-evaluation-harness
//! sample logs"): the prompt and the answer key, the model's filtered answer and raw
//! response (or, for multiple choice, each choice with its log-likelihood and the pick
//! marked), and the harness's metric; graded correct / incorrect / ambiguous-key.

use ratatui::text::{Line, Span};

use crate::bench::lm_eval::sample::{Answer, Sample};
use crate::bench::lm_eval::spec::sample;
use crate::model::{Item, ResponseGrades, Review};
use crate::tui::app::State;
use crate::tui::keymap::Action;
use crate::tui::text::one_line;
use crate::tui::views::View;
use crate::tui::views::common::{heading, kv, text_lines};

/// The view of a logged sample.
pub struct LmEvalView;

fn num(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), |v| format!("{v}"))
}

fn sample_lines(state: &State, s: &Sample) -> Vec<Line<'static>> {
    let t = &state.theme;
    let mut out = Vec::new();
    let filter = s.filter.as_deref().unwrap_or("none");
    out.push(kv(t, "doc_id", &format!("{}   filter: {filter}", s.doc_id)));
    out.push(heading(t, "Prompt"));
    out.extend(text_lines(&s.prompt, t.text));
    out.push(Line::from(""));
    out.push(heading(t, "Target (answer key)"));
    let key = match &s.answer {
        Answer::Choice(c) => match c.gold.and_then(|g| c.texts.get(g)) {
            Some(text) if text.trim() != s.target.trim() => {
                format!("{}: {}", s.target, text.trim())
            }
            _ => s.target.clone(),
        },
        Answer::Generated { .. } => s.target.clone(),
    };
    out.extend(text_lines(&key, t.text));
    out.push(Line::from(""));
    match &s.answer {
        Answer::Generated { raw, filtered } => {
            out.push(heading(t, "Filtered answer"));
            out.extend(text_lines(filtered, t.accent));
            out.push(Line::from(""));
            out.push(heading(t, "Raw response"));
            for r in raw {
                out.extend(text_lines(r, t.text));
            }
        }
        Answer::Choice(c) => {
            out.push(heading(
                t,
                "Choices (log-likelihood; > acc's pick, ~ acc_norm's pick, * key)",
            ));
            let (acc, norm) = (c.picked(), c.picked_norm());
            for (i, text) in c.texts.iter().enumerate() {
                let m = |b: bool, ch: char| if b { ch } else { ' ' };
                let marks = format!(
                    "{}{}{}",
                    m(acc == Some(i), '>'),
                    m(norm == Some(i), '~'),
                    m(c.gold == Some(i), '*')
                );
                let style = if c.gold == Some(i) { t.good } else { t.text };
                let style = if acc == Some(i) && c.gold != Some(i) {
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
    }
    out.push(Line::from(""));
    out.push(heading(t, "Harness metrics"));
    for (name, v) in &s.metrics {
        out.push(kv(t, name, &num(*v)));
    }
    out
}

impl View for LmEvalView {
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
        let values = crate::bench::lm_eval::Verdict::ALL;
        for (a, v) in [Action::Pass, Action::Fail, Action::Unsure]
            .into_iter()
            .zip(values)
        {
            parts.push((state.keymap.hint(state.context(), a), v.name().into()));
        }
    }
}
