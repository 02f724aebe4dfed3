//! The C-VQA screen: the original and counterfactual question pair (two columns when
//! wide), the fix if any; per response both answers with the rule's grade and overrides.

use crate::bench::Benchmark;
use crate::tui::app::{AnyPopup, Effect, Level, Mode};
use crate::tui::edit::TextEdit;
use crossterm::event::KeyEvent;
use fix::FixState;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::bench::cvqa::fields::{CvqaReason, CvqaStatus};
use crate::bench::cvqa::grade as cvqa;
use crate::bench::{Item, Response, ResponseGrades, Review};
use crate::tui::app::State;
use crate::tui::keymap::{Action, Context, Table, VerbDef};
use crate::tui::text::{one_line, sanitize};
use crate::tui::views::View;
use crate::tui::views::common::{
    effective_spans, heading, my_grades_for, ok_word, override_cycle, override_key, shown_fix,
    text_lines_of, tick,
};
use crate::tui::views::model_line::NOT_VERIFIED;
use crate::tui::views::status::act;

pub mod fix;
pub(crate) mod popups;
pub(crate) mod reason;
pub mod reject;
pub mod summary;
pub(crate) mod verdicts;

pub(crate) fn cvqa_lines<'a>(state: &State, item: &'a Item) -> Vec<Line<'a>> {
    let (o, c) = cvqa_columns(state, item);
    let mut out = vec![cvqa_title(state, item)];
    out.extend(o);
    out.push(Line::from(""));
    out.extend(c);
    out
}

pub(crate) fn cvqa_title(state: &State, item: &Item) -> Line<'static> {
    let t = &state.theme;
    Line::from(vec![
        Span::styled(sanitize(item.split.as_deref().unwrap_or("?")), t.title),
        Span::styled(
            format!(" · {}", sanitize(item.group.as_deref().unwrap_or("?"))),
            t.text,
        ),
    ])
}

/// The widest line of packed options: half an 80-column pane.
const OPTIONS_WIDTH: usize = 36;

/// The original and the counterfactual pair, as two columns of lines.
pub(crate) fn cvqa_columns<'a>(state: &State, item: &'a Item) -> (Vec<Line<'a>>, Vec<Line<'a>>) {
    let t = &state.theme;
    let mine = state.my_review(state.pos);
    let mut cols = Vec::new();
    for (label, qa, fixed) in [
        ("Original", item.original.as_ref(), None),
        (
            "Counterfactual (generated)",
            item.counterfactual.as_ref(),
            mine.as_ref(),
        ),
    ] {
        let mut out = vec![heading(t, label)];
        let Some(qa) = qa else {
            out.push(Line::from(Span::styled("missing", t.bad)));
            cols.push(out);
            continue;
        };
        let (stem, opts) = split_options(&qa.question);
        out.extend(text_lines_of(stem, t.text));
        // The options packed side by side, as many to a line as fit a column: the
        // question, its options and its key stay in sight together.
        let mut line: Vec<Span<'a>> = vec![];
        let mut used = 0;
        for (letter, text) in opts {
            let is_key = qa.answer.trim() == letter.to_string();
            let opt = format!("{letter}: {}", one_line(&text));
            let w = opt.chars().count() + 3;
            if !line.is_empty() && used + w > OPTIONS_WIDTH {
                out.push(Line::from(std::mem::take(&mut line)));
                used = 0;
            }
            line.push(Span::raw("   "));
            line.push(Span::styled(opt, if is_key { t.good } else { t.text }));
            used += w;
        }
        if !line.is_empty() {
            out.push(Line::from(line));
        }
        out.push(Line::from(vec![
            Span::styled("Answer: ", t.dim),
            Span::styled(sanitize(&qa.answer), t.good),
        ]));
        if let Some(r) = fixed {
            if let Some(q) = &r.cvqa.fixed_question {
                out.push(Line::from(vec![
                    Span::styled("Fixed question: ", t.warn),
                    Span::styled(sanitize(&shown_fix(q, false)), t.text),
                ]));
            }
            if let Some(a) = &r.cvqa.fixed_answer {
                out.push(Line::from(vec![
                    Span::styled("Fixed answer: ", t.warn),
                    Span::styled(sanitize(&shown_fix(a, false)), t.text),
                ]));
            }
        }
        cols.push(out);
    }
    let c = cols.pop().unwrap_or_default();
    let o = cols.pop().unwrap_or_default();
    (o, c)
}

/// The C-VQA view.
pub struct CvqaView;

/// C-VQA's verbs: the keys of its table `cvqa`, then its popups' own.
pub static ACCEPT: VerbDef = VerbDef::new(0, "accept", "accept the generated question", "accept");
pub static FIX: VerbDef = VerbDef::new(1, "fix", "fix the counterfactual question / answer", "fix");
pub static REJECT: VerbDef = VerbDef::new(2, "reject", "reject, with a reason", "reject");
pub static ORIGINAL_OVERRIDE: VerbDef = VerbDef::new(
    3,
    "original_override",
    "override original-answer grade: auto / correct / wrong",
    "orig",
);
pub static COUNTERFACTUAL_OVERRIDE: VerbDef = VerbDef::new(
    4,
    "counterfactual_override",
    "override counterfactual-answer grade: auto / correct / wrong",
    "cf",
);
/// Move between the question and the answer of a fix.
pub static SWITCH_FIELD: VerbDef = VerbDef::new(
    5,
    "switch_field",
    "switch between question and answer",
    "switch",
);
/// From a fix's fields to its reason list, to save with another reason than the one shown.
pub static PICK_REASON: VerbDef = VerbDef::new(
    6,
    "pick_reason",
    "pick another reason for the fix than the one shown",
    "another reason",
);
/// Pick the n-th reason of a reject or a fix (docs/format.md's reasons).
pub static REASON: VerbDef = VerbDef::numbered(7, "reason", 1..=5, "reason {n}", "reason");
static TABLES: [&Table; 4] = [
    &reject::TABLE,
    &reject::OTHER_TABLE,
    &fix::TABLE,
    &fix::REASON_TABLE,
];
static VERBS: [&VerbDef; 8] = [
    &ACCEPT,
    &FIX,
    &REJECT,
    &ORIGINAL_OVERRIDE,
    &COUNTERFACTUAL_OVERRIDE,
    &SWITCH_FIELD,
    &PICK_REASON,
    &REASON,
];

impl View for CvqaView {
    fn act(&self, st: &mut State, action: Action, fx: &mut Vec<Effect>) -> bool {
        match action {
            Action::Verb(v) if v.is(&ACCEPT) => {
                if st.change_review(fx, |r, _| r.cvqa.accept()) {
                    st.advance_after(crate::bench::cvqa::fields::CvqaStatus::Accept.done(), fx);
                }
            }
            Action::Verb(v) if v.is(&FIX) => {
                let (q, a, generated) = match st.item().and_then(|i| i.counterfactual.as_ref()) {
                    Some(cf) => {
                        let r = st.my_review(st.pos);
                        (
                            r.as_ref()
                                .and_then(|r| r.cvqa.fixed_question.clone())
                                .unwrap_or_else(|| cf.question.clone()),
                            r.as_ref()
                                .and_then(|r| r.cvqa.fixed_answer.clone())
                                .unwrap_or_else(|| cf.answer.clone()),
                            cf.answer.clone(),
                        )
                    }
                    None => {
                        st.set_status("no counterfactual question to fix", Level::Warn);
                        return true;
                    }
                };
                st.mode = Mode::Popup(AnyPopup::new(FixState {
                    question: TextEdit::new(&q, false),
                    answer: TextEdit::new(&a, false),
                    on_answer: false,
                    chosen: popups::last_fix_reason(st),
                    generated_answer: generated,
                }));
            }
            Action::Verb(v) if v.is(&REJECT) => {
                st.mode = Mode::Popup(AnyPopup::new(reject::Reject { selected: 0 }))
            }
            Action::Verb(v) if v.is(&ORIGINAL_OVERRIDE) => {
                st.change_grades(fx, |g| g.cvqa.cycle_original());
            }
            Action::Verb(v) if v.is(&COUNTERFACTUAL_OVERRIDE) => {
                st.change_grades(fx, |g| g.cvqa.cycle_counterfactual());
            }
            _ => return false,
        }
        true
    }

    fn popup_key(&self, st: &mut State, k: &KeyEvent, fx: &mut Vec<Effect>) -> bool {
        popups::key(st, k, fx)
    }

    fn draw_popup(&self, state: &State, f: &mut Frame, area: Rect) -> bool {
        popups::draw(state, f, area)
    }

    fn guideline(&self, state: &State, _item: &Item) -> Option<String> {
        let (km, ctx) = (&state.keymap, self.context());
        Some(format!(
            "{} both right for the picture · {} a slip to fix · {} unusable",
            km.hint(ctx, ACCEPT.action()),
            km.hint(ctx, FIX.action()),
            km.hint(ctx, REJECT.action())
        ))
    }

    fn context(&self) -> Context {
        Context::Benchmark(Benchmark::Cvqa)
    }

    fn verbs(&self) -> &'static [&'static VerbDef] {
        &VERBS
    }

    fn tables(&self) -> &'static [&'static Table] {
        &TABLES
    }

    fn review_fields(&self) -> &'static [fn(&Review) -> crate::tui::views::verdicts::Field] {
        &[
            verdicts::status,
            verdicts::reason,
            verdicts::reason_text,
            verdicts::fixed_question,
            verdicts::fixed_answer,
        ]
    }

    fn grade_fields(&self) -> &'static [fn(&ResponseGrades) -> crate::tui::views::verdicts::Field] {
        &[verdicts::original, verdicts::counterfactual]
    }

    fn review_status(&self, r: &Review) -> Option<crate::tui::facts::ReviewStatus> {
        verdicts::status_of(r)
    }

    fn summary_block<'a>(
        &self,
        b: &'a crate::bench::Benchmarks,
    ) -> Option<&'a dyn crate::tui::summary::SummaryBlock> {
        b.cvqa.as_ref().map(|x| x as _)
    }

    fn statuses(&self) -> Vec<crate::tui::facts::ReviewStatus> {
        CvqaStatus::ALL.map(Into::into).to_vec()
    }

    fn item_lines<'a>(&self, state: &State, item: &'a Item, _width: u16) -> Vec<Line<'a>> {
        cvqa_lines(state, item)
    }

    fn pair<'a>(
        &self,
        state: &State,
        item: &'a Item,
    ) -> Option<(Line<'static>, Vec<Line<'a>>, Vec<Line<'a>>)> {
        let (o, c) = cvqa_columns(state, item);
        Some((cvqa_title(state, item), o, c))
    }

    /// `cvqa_lines`.
    fn item_lines_are_the_pair(&self) -> bool {
        true
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
        let key = |a: Action| override_key(state, a, selected);
        for (label, raw, cf, action, my) in [
            (
                "original",
                r.original.as_deref(),
                false,
                ORIGINAL_OVERRIDE.action(),
                mine.cvqa.original_correct,
            ),
            (
                "counterfactual",
                r.counterfactual.as_deref(),
                true,
                COUNTERFACTUAL_OVERRIDE.action(),
                mine.cvqa.counterfactual_correct,
            ),
        ] {
            let g = cvqa_answer(item, &r.model, cf);
            out.push(Line::from(vec![
                Span::styled(format!("{label}: "), t.dim),
                Span::styled(one_line(raw.unwrap_or("—")), t.text),
            ]));
            let mut spans = vec![
                Span::styled("  → ", t.dim),
                Span::styled(
                    g.parsed.clone().unwrap_or_else(|| "no answer".into()),
                    t.text,
                ),
                Span::raw("  "),
            ];
            spans.extend(effective_spans(
                t,
                Some(g.effective),
                Some(g.auto),
                g.overridden,
                my,
            ));
            if let Some(k) = &g.fixed_key {
                spans.push(Span::styled(
                    format!(" · fixed key {}", one_line(k)),
                    t.warn,
                ));
            }
            spans.extend(override_cycle(t, &key(action), my));
            out.push(Line::from(spans));
        }
        out
    }

    fn grade_parts(
        &self,
        item: &Item,
        mine: Option<&Review>,
        g: Option<&ResponseGrades>,
        model: Option<&str>,
        column: bool,
    ) -> Vec<String> {
        let mut parts: Vec<String> = Vec::new();
        let r = mine.cloned().unwrap_or_default();
        // a column shows the response's grades; the verdict on the question is the item's
        let verification = match r.cvqa.status {
            Some(s @ CvqaStatus::Reject) => format!(
                "{} ({})",
                s.done(),
                r.cvqa.reason.map(|x| x.name()).unwrap_or("no reason")
            ),
            Some(s) => s.done().into(),
            None => NOT_VERIFIED.into(),
        };
        if !column {
            parts.push(verification);
            // The line stays in sight when the pane scrolls: it names the response the
            // override keys act on, and keeps my overrides of every response in view.
            let n = item.responses.len();
            if n > 1
                && let Some(m) = model
            {
                parts.push(format!("selected {}", one_line(m)));
            }
            for resp in &item.responses {
                let gr = r.for_model(&resp.model, n).cloned().unwrap_or_default();
                let whose = if n > 1 {
                    format!("{} ", one_line(&resp.model))
                } else {
                    String::new()
                };
                // short, as in a column: the answer's own line says whose override it is
                if let Some(c) = gr.cvqa.original_correct {
                    parts.push(format!("{whose}orig {}", tick(c)));
                }
                if let Some(c) = gr.cvqa.counterfactual_correct {
                    parts.push(format!("{whose}cf {}", tick(c)));
                }
            }
            return parts;
        }
        let gr = g.cloned().unwrap_or_default();
        let whose = match model {
            Some(m) if item.responses.len() > 1 => format!("{} ", one_line(m)),
            _ => String::new(),
        };
        if let Some(c) = gr.cvqa.original_correct {
            parts.push(if column {
                format!("orig {}", tick(c))
            } else {
                format!("{}original override {}", whose, ok_word(Some(c)))
            });
        }
        if let Some(c) = gr.cvqa.counterfactual_correct {
            parts.push(if column {
                format!("cf {}", tick(c))
            } else {
                format!("{}counterfactual override {}", whose, ok_word(Some(c)))
            });
        }
        if column && parts.is_empty() {
            parts.push("no override".into());
        }
        parts
    }

    fn grade_line_names_model(&self) -> bool {
        false
    }

    fn verdicts_footer(&self, state: &State) -> Vec<Line<'static>> {
        let t = &state.theme;
        let reasons: Vec<String> = CvqaReason::ALL
            .iter()
            .enumerate()
            .map(|(k, r)| {
                // The keys of the reject menu, which these reasons are.
                let n = u8::try_from(k + 1).unwrap_or(u8::MAX);
                let key = state.keymap.hint(reject::KEYS, REASON.nth(n));
                format!("{key} {}", r.name())
            })
            .collect();
        vec![Line::from(Span::styled(
            format!(" reject reasons: {}", reasons.join(" · ")),
            t.dim,
        ))]
    }

    fn grading_hints(&self, state: &State, parts: &mut Vec<(String, String)>) {
        for a in [
            ACCEPT.action(),
            FIX.action(),
            REJECT.action(),
            ORIGINAL_OVERRIDE.action(),
            COUNTERFACTUAL_OVERRIDE.action(),
        ] {
            act(state, parts, a);
        }
    }
}

pub struct AnswerView {
    pub parsed: Option<String>,
    pub auto: bool,
    pub effective: bool,
    pub overridden: bool,
    /// Graded against a reviewer's fixed key (this key), not the file's.
    pub fixed_key: Option<String>,
}

pub fn cvqa_answer(item: &Item, model: &str, counterfactual: bool) -> AnswerView {
    let e = cvqa::effective(item, model);
    if counterfactual {
        // A fix that counts changed the key or the question: the answer is graded against
        // the fixed one (as `verdict stats` does for its figures after fixes).
        match (&e.counterfactual_fixed, e.counterfactual_fixed_correct) {
            (Some(g), Some(effective)) => AnswerView {
                parsed: g.parsed.clone(),
                auto: g.correct,
                effective,
                overridden: e.counterfactual_overridden,
                fixed_key: Some(e.fixed_key.clone()),
            },
            _ => AnswerView {
                parsed: e.counterfactual.parsed.clone(),
                auto: e.counterfactual.correct,
                effective: e.counterfactual_correct,
                overridden: e.counterfactual_overridden,
                fixed_key: None,
            },
        }
    } else {
        AnswerView {
            parsed: e.original.parsed.clone(),
            auto: e.original.correct,
            effective: e.original_correct,
            overridden: e.original_overridden,
            fixed_key: None,
        }
    }
}

/// A synthetic question's stem and its inline options.
pub fn split_options(question: &str) -> (&str, Vec<(char, String)>) {
    let opts: Vec<(char, String)> = cvqa::options(question)
        .into_iter()
        .map(|(c, t)| (c, t.to_string()))
        .collect();
    if opts.is_empty() {
        (question, opts)
    } else {
        (cvqa::question_stem(question), opts)
    }
}
