//! The CharToM-QA screen: the book, the context at the chosen length, the question and
//! reference answer; per response its text and the bonus points to tick.

use std::collections::BTreeMap;

use crate::bench::Benchmark;
use crate::tui::app::{Effect, Level, Mode};
use crate::tui::edit::TextEdit;
use crate::tui::overlays::{Outcome, bonus, penalty};
use crossterm::event::KeyEvent;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::bench::chartom_qa::fields::JudgeBonus;
use crate::bench::chartom_qa::stats::QaStats;
use crate::bench::{Item, Response, ResponseGrades, Review};
use crate::tui::app::{CONTEXT_LENGTHS, State};
use crate::tui::keymap::{Action, Context};
use crate::tui::summary::{SummaryBlock, bar, fit, pct};
use crate::tui::text::{one_line, truncate};
use crate::tui::theme::Theme;
use crate::tui::views::View;
use crate::tui::views::common::{heading, kv, mark, my_grades_for, text_lines, text_lines_of};
use crate::tui::views::model_line::NOT_GRADED;
use crate::tui::views::status::act;
use crate::tui::views::verdicts::Field;

pub(crate) fn chartom_qa_lines<'a>(state: &State, item: &'a Item) -> Vec<Line<'a>> {
    let t = &state.theme;
    // The book and the ToM dimension as the row names them; the character only when the
    // row has one (the evaluation layout has none).
    let mut head = vec![Span::styled(
        one_line(item.book.as_deref().unwrap_or("?")),
        t.title,
    )];
    if let Some(c) = &item.character {
        head.push(Span::styled(format!(" · {}", one_line(c)), t.text));
    }
    head.push(Span::styled(" · ToM dimension ", t.dim));
    head.push(Span::styled(
        one_line(item.dimension.as_deref().unwrap_or("?")),
        t.text,
    ));
    let mut out = vec![Line::from(head)];
    let len = CONTEXT_LENGTHS[state.context_len];
    if let Some(c) = &item.context {
        out.push(Line::from(vec![
            Span::styled(format!("Context ({len}) "), t.title),
            Span::styled(
                format!(
                    "[{} switches 0/1000/2000]",
                    state.keymap.hint(
                        Context::Benchmark(Benchmark::ChartomQa),
                        Action::ContextLength
                    )
                ),
                t.dim,
            ),
        ]));
        out.extend(text_lines_of(
            c.get(len).unwrap_or(""),
            t.dim.remove_modifier(Modifier::DIM),
        ));
    }
    out.push(Line::from(""));
    out.push(heading(t, "Question"));
    out.extend(text_lines_of(
        item.question.as_deref().unwrap_or(""),
        t.text,
    ));
    if item.shows_misleading_choices() {
        out.push(heading(t, "Misleading choices (wrong answers)"));
        for c in &item.choices {
            out.push(Line::from(vec![
                Span::styled("  ✘ ", t.bad),
                Span::styled(one_line(c), t.text),
            ]));
        }
    } else if !item.choices.is_empty() {
        for (k, c) in item.choices.iter().enumerate() {
            let is_key = item.key == Some(k as i64 + 1);
            out.push(Line::from(Span::styled(
                format!("  {}. {}", k + 1, one_line(c)),
                if is_key { t.good } else { t.text },
            )));
        }
    }
    out.push(heading(t, "Reference answer"));
    out.extend(text_lines_of(item.answer.as_deref().unwrap_or(""), t.text));
    out
}

pub(crate) fn bonus_block(
    state: &State,
    item: &Item,
    r: &Response,
    selected: bool,
) -> Vec<Line<'static>> {
    let t = &state.theme;
    let mine = my_grades_for(state, item, &r.model);
    let covered: Vec<u32> = mine
        .as_ref()
        .and_then(|g| g.chartom_qa.bonus.clone())
        .unwrap_or_default();
    let hide = !state.reveal_model(&r.model);
    let judge = r.judge.as_ref().map(|j| j.bonus_list());
    let mut out = vec![heading(
        t,
        if selected {
            "Bonus points (digit toggles: covered by the response?)"
        } else {
            "Bonus points"
        },
    )];
    for (k, p) in item.bonus_points.iter().enumerate() {
        let n = k as u32 + 1;
        let is = covered.contains(&n);
        let mut spans = vec![
            Span::styled(format!(" {n} "), t.title),
            Span::styled(
                if is { "[✔] " } else { "[ ] " },
                if is { t.good } else { t.dim },
            ),
            Span::styled(one_line(p), t.text),
        ];
        if !hide && let Some(JudgeBonus::Points(j)) = &judge {
            spans.push(Span::styled(
                if j.contains(&n) {
                    "  judge ✔"
                } else {
                    "  judge ·"
                },
                if j.contains(&n) != is && mine.is_some() {
                    t.warn
                } else {
                    t.dim
                },
            ));
        }
        out.push(Line::from(spans));
    }
    judge_lines(t, r, judge.as_ref(), hide, &mut out);
    let pen = match mine.as_ref().and_then(|g| g.chartom_qa.penalty.clone()) {
        None => "not graded".to_string(),
        Some(None) => "none".to_string(),
        Some(Some(p)) => p,
    };
    out.push(kv(t, " My penalty", &pen));
    let n = item.bonus_points.len();
    let c = covered.iter().filter(|&&x| (x as usize) <= n).count();
    let mut spans = vec![Span::styled(format!(" Coverage {c}/{n}"), t.accent)];
    if let Some((bc, bt)) = running_bpc(state, &r.model) {
        spans.push(Span::styled(
            format!(
                "   running BPC (my grades) {:.2} = {bc}/{bt}",
                if bt > 0 { bc as f64 / bt as f64 } else { 0.0 }
            ),
            t.accent2,
        ));
    }
    out.push(Line::from(spans));
    out
}

/// What the LLM judge said of the bonus points and the penalty (unless blind).
fn judge_lines(
    t: &Theme,
    r: &Response,
    judge: Option<&JudgeBonus>,
    hide: bool,
    out: &mut Vec<Line<'static>>,
) {
    if !hide {
        match judge {
            Some(JudgeBonus::Unparsable(s)) => out.push(Line::from(Span::styled(
                format!(" judge's bonus unparsable ({}): not counted", one_line(s)),
                t.warn,
            ))),
            None => out.push(Line::from(Span::styled(" no LLM-judge grades", t.dim))),
            _ => {}
        }
        if let Some(j) = &r.judge {
            out.push(kv(
                t,
                " Judge penalty",
                &j.penalty_text().unwrap_or_else(|| "none".into()),
            ));
        }
    } else {
        out.push(Line::from(Span::styled(
            " (blind: the judge is hidden until you grade)",
            t.dim,
        )));
    }
}

/// The CharToM-QA view.
pub struct ChartomQaView;

impl View for ChartomQaView {
    fn act(&self, st: &mut State, action: Action, fx: &mut Vec<Effect>) -> bool {
        match action {
            Action::Bonus(n) => {
                let count = st.item().map(|i| i.bonus_points.len()).unwrap_or(0);
                if count > 9 {
                    // Points 10 and up: the digit opens the point's number (`1 0` Enter
                    // is point 10; `1` Enter point 1).
                    st.mode = Mode::Bonus(TextEdit::new(&n.to_string(), false));
                    return true;
                }
                if (n as usize) > count {
                    st.set_status(format!("this item has {count} bonus points"), Level::Warn);
                    return true;
                }
                st.change_grades(fx, |g| g.chartom_qa.toggle_bonus(n as u32));
            }
            Action::NoBonus => {
                st.change_grades(fx, |g| g.chartom_qa.no_bonus());
            }
            Action::Penalty => {
                let cur = st
                    .my_grades()
                    .and_then(|g| g.chartom_qa.penalty.clone())
                    .flatten()
                    .unwrap_or_default();
                st.mode = Mode::Penalty(TextEdit::new(&cur, false));
            }
            Action::NoPenalty => {
                if st.change_grades(fx, |g| g.chartom_qa.set_penalty(None)) {
                    st.advance_after_grade(fx);
                }
            }
            _ => return false,
        }
        true
    }

    /// Per model: covered and total bonus points of my grades (the running BPC).
    fn tally(&self, item: &Item, r: &Review) -> Option<BTreeMap<String, (u64, u64)>> {
        let n = item.responses.len();
        let points = item.bonus_points.len();
        let mut out = BTreeMap::new();
        for resp in &item.responses {
            if let Some(b) = r
                .for_model(&resp.model, n)
                .and_then(|g| g.chartom_qa.bonus.as_ref())
            {
                let (c, t): &mut (u64, u64) = out.entry(resp.model.clone()).or_default();
                *c += crate::bench::chartom_qa::grade::covered_count(b, points);
                *t += points as u64;
            }
        }
        (!out.is_empty()).then_some(out)
    }

    fn keeps_tally(&self) -> bool {
        true
    }

    /// The penalty's text and a bonus point's number past 9.
    fn popup_key(&self, st: &mut State, k: &KeyEvent, fx: &mut Vec<Effect>) -> bool {
        match &mut st.mode {
            Mode::Penalty(e) => match penalty::handle_key(e, &st.keymap, k) {
                Outcome::Close => st.mode = Mode::Normal,
                Outcome::Submit(t) => {
                    st.mode = Mode::Normal;
                    if st.change_grades(fx, |g| g.chartom_qa.set_penalty(Some(&t))) {
                        st.advance_after_grade(fx);
                    }
                }
                _ => {}
            },
            Mode::Bonus(e) => match bonus::handle_key(e, &st.keymap, k) {
                Outcome::Close => st.mode = Mode::Normal,
                Outcome::Submit(t) => {
                    st.mode = Mode::Normal;
                    let count = st.item().map_or(0, |i| i.bonus_points.len());
                    match t.parse::<u32>() {
                        Ok(n) if n >= 1 && n as usize <= count => {
                            st.change_grades(fx, |g| g.chartom_qa.toggle_bonus(n));
                        }
                        _ => st.set_status(
                            format!("no bonus point {t}: this item has {count} bonus points"),
                            Level::Warn,
                        ),
                    }
                }
                _ => {}
            },
            _ => return false,
        }
        true
    }

    fn context(&self) -> Context {
        Context::Benchmark(Benchmark::ChartomQa)
    }

    /// A long context beside the item on a wide screen, scrolled on its own: the context
    /// lines of `chartom_qa_lines` (its heading and text).
    fn aside<'a>(
        &self,
        state: &State,
        item: &'a Item,
    ) -> Option<(String, Vec<Line<'a>>, std::ops::Range<usize>)> {
        let c = item.context.as_ref()?;
        let len = CONTEXT_LENGTHS[state.context_len];
        let lines = text_lines_of(
            c.get(len).unwrap_or(""),
            state.theme.dim.remove_modifier(Modifier::DIM),
        );
        let title = format!(
            " Context ({len}) · {} switches 0/1000/2000 · {}/{} scroll ",
            state.keymap.hint(
                Context::Benchmark(Benchmark::ChartomQa),
                Action::ContextLength
            ),
            state.keymap.hint(
                Context::Benchmark(Benchmark::ChartomQa),
                Action::ContextDown
            ),
            state
                .keymap
                .hint(Context::Benchmark(Benchmark::ChartomQa), Action::ContextUp)
        );
        // the book line, then the context's heading and its text
        let range = 1..2 + lines.len();
        Some((title, lines, range))
    }

    /// The question: under it the reference answer, the response and its checklist. The
    /// context above it is read by scrolling up.
    fn target(&self, state: &State, item: &Item) -> crate::tui::views::Target {
        let context = item.context.as_ref().map_or(0, |c| {
            let len = CONTEXT_LENGTHS[state.context_len];
            1 + text_lines_of(c.get(len).unwrap_or(""), state.theme.text).len()
        });
        // the book line, the context, a blank line, then the question's heading
        crate::tui::views::Target::ItemLine(1 + context + 1)
    }

    fn item_lines<'a>(&self, state: &State, item: &'a Item, _width: u16) -> Vec<Line<'a>> {
        chartom_qa_lines(state, item)
    }

    fn response_lines(
        &self,
        state: &State,
        item: &Item,
        r: &Response,
        selected: bool,
    ) -> Vec<Line<'static>> {
        let t = &state.theme;
        let mut out = Vec::new();
        out.push(heading(t, "Response"));
        out.extend(text_lines(r.text.as_deref().unwrap_or("—"), t.text));
        if let Some(c) = r.choice {
            out.push(Line::from(vec![
                Span::styled(format!("Choice: {c} "), t.dim),
                mark(t, item.key.map(|k| k == c)),
            ]));
        }
        out.push(Line::from(""));
        out.extend(bonus_block(state, item, r, selected));
        out
    }

    fn grade_parts(
        &self,
        item: &Item,
        _mine: Option<&Review>,
        g: Option<&ResponseGrades>,
        _model: Option<&str>,
        _column: bool,
    ) -> Vec<String> {
        let mut parts: Vec<String> = Vec::new();
        let ungraded = NOT_GRADED;
        match g.filter(|g| g.chartom_qa.bonus.is_some() || g.chartom_qa.penalty.is_some()) {
            Some(gr) => {
                let b = gr.chartom_qa.bonus.clone().unwrap_or_default();
                parts.push(format!(
                    "bonus {} of {}",
                    if b.is_empty() {
                        "none".to_string()
                    } else {
                        b.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
                    },
                    item.bonus_points.len()
                ));
                parts.push(match &gr.chartom_qa.penalty {
                    Some(Some(p)) => format!("penalty “{}”", truncate(&one_line(p), 24)),
                    Some(None) => "no penalty".into(),
                    None => "penalty not graded".into(),
                });
            }
            None => parts.push(ungraded.to_string()),
        }
        parts
    }

    fn grades_per_model(&self) -> bool {
        true
    }

    fn grading_hints(&self, state: &State, parts: &mut Vec<(String, String)>) {
        let ctx = state.context();
        let km = &state.keymap;
        let n = state.item().map(|i| i.bonus_points.len()).unwrap_or(0);
        let n = n.clamp(1, 9) as u8;
        let (a, z) = (
            km.hint(ctx, Action::Bonus(1)),
            km.hint(ctx, Action::Bonus(n)),
        );
        parts.push((
            if n == 1 { a } else { format!("{a}-{z}") },
            Action::Bonus(1).label(),
        ));
        for a in [
            Action::NoBonus,
            Action::Penalty,
            Action::NoPenalty,
            Action::ContextLength,
        ] {
            act(state, parts, a);
        }
    }
}

/// Covered / total bonus points over the CharToM-QA items I have graded (this session's
/// grades and the file's), for `model`'s responses: BPC is per model (docs/stats.md).
pub fn running_bpc(state: &State, model: &str) -> Option<(u64, u64)> {
    state.rec.bpc_sum.get(model).copied()
}

impl SummaryBlock for QaStats {
    fn summary_lines(&self, t: &Theme, width: u16, lines: &mut Vec<Line<'static>>) {
        lines.push(Line::from(""));
        lines.push(heading(t, "CharToM-QA · BPC and PR, human vs LLM judge"));
        for (m, mv) in &self.models {
            lines.push(Line::from(vec![
                Span::styled(format!("  {:<18}", truncate(&one_line(m), 18)), t.accent),
                Span::raw(format!(
                    "human BPC {} PR {}   judge BPC {} PR {}",
                    pct(mv.human.bpc),
                    pct(mv.human.pr),
                    pct(mv.judge.bpc),
                    pct(mv.judge.pr)
                )),
            ]));
            for (k, dv) in &mv.dimensions {
                lines.push(Line::from(vec![
                    Span::styled(format!("    {:<14}", truncate(&one_line(k), 14)), t.dim),
                    Span::raw(format!("human {} ", pct(dv.human.bpc))),
                    bar(dv.human.bpc, fit(width, 45) / 2, t.bar),
                    Span::raw(format!("  judge {} ", pct(dv.judge.bpc))),
                    bar(dv.judge.bpc, fit(width, 45) / 2, t.bar_other),
                ]));
            }
        }
    }
}

/// My bonus points of a response, in the verdicts and the adjudication table (listed in
/// `views::GRADE_FIELDS`).
pub(crate) fn bonus_field(g: &ResponseGrades) -> Field {
    Field {
        label: "bonus",
        cell: g.chartom_qa.bonus.as_ref().map(|b| format!("{b:?}")),
        line: g.chartom_qa.bonus.as_ref().map(|b| format!("bonus {b:?}")),
    }
}

/// My penalty of a response (`Some(None)`: none), as `bonus_field`.
pub(crate) fn penalty_field(g: &ResponseGrades) -> Field {
    let p = g.chartom_qa.penalty.as_ref();
    Field {
        label: "penalty",
        cell: p.map(|p| p.clone().unwrap_or_else(|| "none".into())),
        line: p.map(|p| match p {
            Some(p) => format!("penalty “{}”", truncate(p, 30)),
            None => "no penalty".into(),
        }),
    }
}
