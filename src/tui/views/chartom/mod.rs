//! The CHARTOM screen: the chart, the FACT question with the human answers' histogram, the
//! HMI; per response the FACT answer, the MIND prediction and the justification to grade.

use crate::bench::Benchmark;
use crate::bench::chartom::fields::JustificationGrade;
use crate::tui::app::Effect;
use ratatui::text::{Line, Span};

use crate::bench::{Item, Response, ResponseGrades, Review};
use crate::tui::app::State;
use crate::tui::keymap::{Action, Context, VerbDef};
use crate::tui::text::{one_line, sanitize};
use crate::tui::theme::Theme;
use crate::tui::views::View;
use crate::tui::views::common::{
    effective_spans, heading, kv, my_grades_for, ok_word, override_cycle, override_key, text_lines,
    text_lines_of, tick,
};
use crate::tui::views::model_line::NOT_GRADED;
use crate::tui::views::status::act;

pub mod grading;
pub mod histogram;
pub mod hmi_plot;
pub mod summary;
pub(crate) mod verdicts;

pub(crate) fn chartom_lines<'a>(state: &State, item: &'a Item, width: u16) -> Vec<Line<'a>> {
    let t = &state.theme;
    let mut out = Vec::new();
    if let Some(c) = &item.chart {
        out.push(Line::from(vec![
            Span::styled("Chart ", t.dim),
            Span::styled(sanitize(c.pair.as_deref().unwrap_or("?")), t.title),
            Span::styled(
                format!(
                    " · {} · {}",
                    sanitize(c.chart_type.as_deref().unwrap_or("?")),
                    c.version.map(|v| v.name()).unwrap_or("?")
                ),
                t.text,
            ),
        ]));
        out.push(kv(t, "Planted manipulation", &planted(item)));
    }
    if let Some(fact) = &item.fact {
        out.push(Line::from(""));
        out.push(heading(t, "FACT question"));
        out.extend(text_lines_of(
            fact.question.as_deref().unwrap_or(""),
            t.text,
        ));
        for (k, o) in fact.options.iter().enumerate() {
            out.push(Line::from(format!("  {}. {}", k + 1, one_line(o))));
        }
        let mut key = kv(t, "Key", &grading::fact_key_display(fact));
        // The rule behind stats' "Suspect answer keys" and the filter's "suspect key".
        if let Some(s) = crate::bench::chartom::grade::suspect_key(item) {
            key.spans.push(Span::styled(
                format!(
                    "  suspect key: {}/{} human answers agree",
                    s.n_agree, s.n_answers
                ),
                t.warn,
            ));
        }
        out.push(key);
        out.extend(histogram_lines(state, item, width.saturating_sub(4)));
    }
    if let Some(m) = &item.mind {
        let rec = grading::chartom_hmi(item);
        let mut spans = vec![
            Span::styled("HMI ", t.dim),
            Span::styled(format!("{:.2}", m.hmi), t.title),
        ];
        if let Some(h) = rec {
            spans.push(Span::styled(
                format!(
                    "  (recomputed {:.2} = {}/{} not acceptable)",
                    h.hmi, h.not_acceptable, h.n
                ),
                t.dim,
            ));
        }
        out.push(Line::from(spans));
    }
    out
}

/// The human answers as a histogram: acceptable interval shaded, key and model marked,
/// log-scaled buckets when the answers span orders of magnitude.
pub(crate) fn histogram_lines(state: &State, item: &Item, width: u16) -> Vec<Line<'static>> {
    let t = &state.theme;
    let Some(h) = histogram::histogram(item, state.model_name().as_deref(), 10) else {
        return vec![];
    };
    let mut out = vec![
        Line::from(""),
        heading(
            t,
            &format!(
                "Human answers (n = {}){}{}",
                h.n,
                if h.log_scale {
                    " · log-scaled buckets"
                } else {
                    ""
                },
                h.interval_label
                    .as_ref()
                    .map(|s| format!(" · acceptable {s}"))
                    .unwrap_or_default()
            ),
        ),
    ];
    let max = h.buckets.iter().map(|b| b.count).max().unwrap_or(1).max(1);
    let label_w = h
        .buckets
        .iter()
        .map(|b| b.label.chars().count())
        .max()
        .unwrap_or(4);
    let bar_space = (width as usize).saturating_sub(label_w + 18).max(5);
    for b in &h.buckets {
        let len = ((b.count as f64 / max as f64) * bar_space as f64).ceil() as usize;
        let bar_style = if b.acceptable { t.bar } else { t.bar_other };
        let mut spans = vec![
            Span::styled(
                format!("{:>w$} ", b.label, w = label_w),
                if b.acceptable { t.interval } else { t.text },
            ),
            Span::styled("█".repeat(len), bar_style),
            Span::styled(format!(" {}", b.count), t.dim),
        ];
        if b.has_key {
            spans.push(Span::styled(" ◆key", t.good));
        }
        if b.has_model {
            spans.push(Span::styled(" ▲model", t.accent));
        }
        out.push(Line::from(spans));
    }
    out.push(Line::from(Span::styled(
        "shaded: acceptable answers · ◆ the key · ▲ the selected model's answer",
        t.dim,
    )));
    out
}

/// An original chart (`_1`): nothing is planted in it, whatever its pair's manipulation;
/// its justification's grade is docs/format.md's "Justification of an original chart".
fn is_original(item: &Item) -> bool {
    item.chart
        .as_ref()
        .is_some_and(|c| c.version == Some(crate::bench::chartom::fields::ChartVersion::Original))
}

/// What is planted in this chart: on an original, none (the pair's manipulation, which
/// the file may name on both charts, is its manipulated chart's).
fn planted(item: &Item) -> String {
    let m = item.chart.as_ref().and_then(|c| c.manipulation.as_deref());
    match (is_original(item), m) {
        (true, Some(m)) => {
            format!("none on this chart (original; its pair's manipulated chart: {m})")
        }
        (true, None) | (false, None) => "none (honest chart)".into(),
        (false, Some(m)) => m.to_string(),
    }
}

/// The CHARTOM view.
pub struct ChartomView;

/// A response's MIND prediction against the HMI `verdict stats` scores it with.
fn mind_line(t: &Theme, item: &Item, mind: f64) -> Line<'static> {
    // The HMI `verdict stats` scores MIND against: the file's, else recomputed.
    let recomputed = grading::chartom_hmi(item).map(|h| h.hmi);
    let hmi = crate::bench::chartom::grade::mind_target(item, recomputed);
    let whose = if item.mind.is_none() && hmi.is_some() {
        " (recomputed)"
    } else {
        ""
    };
    Line::from(vec![
        Span::styled("MIND prediction: ", t.dim),
        Span::styled(format!("{mind:.2}"), t.text),
        Span::styled(
            match hmi {
                Some(h) => format!(
                    "  vs HMI {h:.2}{whose} · squared error {:.4}",
                    crate::bench::chartom::grade::squared_error(mind, h)
                ),
                None => "  (no HMI: not scored)".into(),
            },
            t.dim,
        ),
    ])
}

/// CHARTOM's verbs: the keys of its table `chartom`.
pub static IDENTIFIES: VerbDef = VerbDef::new(
    0,
    "identifies",
    "justification identifies the manipulation",
    "identifies",
);
pub static PARTIAL: VerbDef = VerbDef::new(
    1,
    "partial",
    "justification partially identifies it",
    "partial",
);
pub static MISSES: VerbDef = VerbDef::new(2, "misses", "justification misses it", "misses");
pub static FACT_OVERRIDE: VerbDef = VerbDef::new(
    3,
    "fact_override",
    "override FACT grade: auto / correct / wrong",
    "FACT",
);
static VERBS: [&VerbDef; 4] = [&IDENTIFIES, &PARTIAL, &MISSES, &FACT_OVERRIDE];

impl View for ChartomView {
    fn act(&self, st: &mut State, action: Action, fx: &mut Vec<Effect>) -> bool {
        match action {
            Action::Verb(v) if v.is(&IDENTIFIES) || v.is(&PARTIAL) || v.is(&MISSES) => {
                let g = if v.is(&IDENTIFIES) {
                    JustificationGrade::Identifies
                } else if v.is(&PARTIAL) {
                    JustificationGrade::Partial
                } else {
                    JustificationGrade::Misses
                };
                if st.change_grades(fx, |gr| gr.chartom.set_justification(g)) {
                    st.advance_after_grade(fx);
                }
            }
            Action::Verb(v) if v.is(&FACT_OVERRIDE) => {
                st.change_grades(fx, |g| g.chartom.cycle_fact());
            }
            _ => return false,
        }
        true
    }

    fn target(&self, _state: &State, _item: &Item) -> crate::tui::views::Target {
        crate::tui::views::Target::Response
    }

    fn flags(&self) -> &'static [crate::bench::Facet] {
        &[crate::bench::Facet::SuspectKey]
    }

    fn context(&self) -> Context {
        Context::Benchmark(Benchmark::Chartom)
    }

    fn verbs(&self) -> &'static [&'static VerbDef] {
        &VERBS
    }

    fn grade_fields(&self) -> &'static [fn(&ResponseGrades) -> crate::tui::views::verdicts::Field] {
        &[verdicts::justification, verdicts::fact]
    }

    fn summary_block<'a>(
        &self,
        b: &'a crate::bench::Benchmarks,
    ) -> Option<&'a dyn crate::tui::summary::SummaryBlock> {
        b.chartom.as_ref().map(|x| x as _)
    }

    fn item_lines<'a>(&self, state: &State, item: &'a Item, width: u16) -> Vec<Line<'a>> {
        chartom_lines(state, item, width)
    }

    fn response_lines(
        &self,
        state: &State,
        item: &Item,
        r: &Response,
        selected: bool,
    ) -> Vec<Line<'static>> {
        let t = &state.theme;
        let mine = my_grades_for(state, item, &r.model).unwrap_or_default();
        let mut out = Vec::new();
        let ctx = state.context();
        let km = &state.keymap;
        let key = |a: Action| override_key(state, a, selected);
        let g = grading::chartom_fact(item, &r.model);
        out.push(Line::from(vec![
            Span::styled("FACT answer: ", t.dim),
            Span::styled(one_line(r.fact.as_deref().unwrap_or("—")), t.text),
        ]));
        let mut spans = vec![
            Span::styled("  parsed: ", t.dim),
            Span::styled(
                g.parsed.clone().unwrap_or_else(|| "unparsable".into()),
                t.text,
            ),
        ];
        // the key where the override is decided (it is pages above on a short screen)
        if let Some(f) = &item.fact {
            spans.push(Span::styled(" · key ", t.dim));
            spans.push(Span::styled(
                sanitize(&grading::fact_key_display(f)),
                t.text,
            ));
        }
        spans.push(Span::raw("  "));
        spans.extend(effective_spans(
            t,
            g.effective,
            g.auto,
            g.overridden,
            mine.chartom.fact_correct,
        ));
        out.push(Line::from(spans));
        out.push(Line::from(override_cycle(
            t,
            &format!("{} FACT", key(FACT_OVERRIDE.action())),
            mine.chartom.fact_correct,
        )));
        if let Some(mind) = r.mind {
            out.push(mind_line(t, item, mind));
        }
        out.push(heading(t, "Justification"));
        out.extend(text_lines(
            r.justification.as_deref().unwrap_or("—"),
            t.text,
        ));
        out.push(Line::from(vec![
            Span::styled("  vs planted: ", t.dim),
            Span::styled(sanitize(&planted(item)), t.warn),
        ]));

        let grade = mine
            .chartom
            .justification
            .map(|g| g.name())
            .unwrap_or("not graded");
        out.push(Line::from(vec![
            Span::styled("My grade: ", t.dim),
            Span::styled(grade.to_string(), t.accent),
        ]));
        if selected {
            // the guidelines where the grade is given (docs/format.md, "Grading, in
            // brief"): on an original, nothing is planted
            let [i, p, m] = if is_original(item) {
                ["finds it honest", "hedges", "claims a manipulation"]
            } else {
                ["names it", "sees its effect, not what was done", "not it"]
            };
            out.push(Line::from(Span::styled(
                format!(
                    "  {} identifies: {i} · {} partial: {p} · {} misses: {m}",
                    km.hint(ctx, IDENTIFIES.action()),
                    km.hint(ctx, PARTIAL.action()),
                    km.hint(ctx, MISSES.action())
                ),
                t.dim,
            )));
        }
        out
    }

    fn grade_parts(
        &self,
        _item: &Item,
        _mine: Option<&Review>,
        g: Option<&ResponseGrades>,
        _model: Option<&str>,
        column: bool,
    ) -> Vec<String> {
        let mut parts: Vec<String> = Vec::new();
        let ungraded = NOT_GRADED;
        let gr = g.cloned().unwrap_or_default();
        parts.push(
            gr.chartom
                .justification
                .map(|j| j.name().to_string())
                .unwrap_or_else(|| ungraded.to_string()),
        );
        if let Some(c) = gr.chartom.fact_correct {
            parts.push(if column {
                format!("FACT {}", tick(c))
            } else {
                format!("FACT override: {}", ok_word(Some(c)))
            });
        }
        parts
    }

    fn grades_per_model(&self) -> bool {
        true
    }

    fn grading_hints(&self, state: &State, parts: &mut Vec<(String, String)>) {
        for a in [
            IDENTIFIES.action(),
            PARTIAL.action(),
            MISSES.action(),
            FACT_OVERRIDE.action(),
        ] {
            act(state, parts, a);
        }
    }
}
