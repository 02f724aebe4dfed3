//! The CharToM-QA screen: the book, the context at the chosen length, the question and
//! reference answer; per response its text and the bonus points to tick.

use std::collections::BTreeMap;

use crate::bench::Benchmark;
use crate::tui::app::AnyPopup;
use crate::tui::app::{Effect, Level, Mode};
use crate::tui::edit::TextEdit;
use crate::tui::overlays::Outcome;

pub mod bonus;
pub mod penalty;
mod summary;
pub(crate) mod verdicts;

pub(crate) use verdicts::{bonus_field, penalty_field};

use bonus::BonusPopup;
use crossterm::event::KeyEvent;
use penalty::PenaltyPopup;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

use crate::bench::chartom_qa::fields::JudgeBonus;
use crate::bench::{Item, Response, ResponseGrades, Review};
use crate::tui::app::State;
use crate::tui::keymap::{Action, Context, Table, VerbDef};
use crate::tui::summary::SummaryBlock;
use crate::tui::text::{one_line, truncate};
use crate::tui::theme::Theme;
use crate::tui::views::View;
use crate::tui::views::common::{heading, mark, my_grades_for, text_lines, text_lines_of};
use crate::tui::views::model_line::NOT_GRADED;
use crate::tui::views::status::act;
use crate::tui::views::verdicts::Field;
use ratatui::Frame;
use ratatui::layout::Rect;

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
    let len = context_length(state);
    if let Some(c) = &item.context {
        out.push(Line::from(vec![
            Span::styled(format!("Context ({len}) "), t.title),
            Span::styled(
                format!(
                    "[{} switches 0/1000/2000]",
                    state.keymap.hint(
                        Context::Benchmark(Benchmark::ChartomQa),
                        CONTEXT_LENGTH.action()
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
    // The reference answer (its points are the checklist) above the question: the
    // question is followed by the response it asks for.
    out.push(heading(t, "Reference answer"));
    out.extend(text_lines_of(item.answer.as_deref().unwrap_or(""), t.text));
    // "Question" on its first line (no heading row: at 80×24 a row of the response)
    let mut question = text_lines_of(item.question.as_deref().unwrap_or(""), t.text);
    if let Some(first) = question.first_mut() {
        first.spans.insert(0, Span::styled("Question: ", t.title));
    }
    out.extend(question);
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
    let hide = !state.reveal_model(&r.model);
    let judge = r.judge.as_ref().map(|j| j.bonus_list());
    // Before I tick anything the checklist shows the judge's ticks (a suggestion that
    // `accept_judge` takes and a digit changes); after, mine.
    let suggested = judge_suggestion(state, item, r)
        .filter(|_| mine.as_ref().is_none_or(|g| g.chartom_qa.bonus.is_none()));
    let covered: Vec<u32> = match (&suggested, &mine) {
        (Some((ticks, _)), _) => ticks.clone(),
        (None, g) => g
            .as_ref()
            .and_then(|g| g.chartom_qa.bonus.clone())
            .unwrap_or_default(),
    };
    let km = &state.keymap;
    let ctx = Context::Benchmark(Benchmark::ChartomQa);
    let n = item.bonus_points.len();
    let c = covered.iter().filter(|&&x| (x as usize) <= n).count();
    let title = match (selected, &suggested) {
        (false, _) => format!("Bonus points {c}/{n}"),
        (true, Some(_)) => format!(
            "Bonus points {c}/{n}: the judge's ticks · {} accepts · {} change",
            km.hint(ctx, ACCEPT_JUDGE.action()),
            point_keys(state, n),
        ),
        (true, None) => format!("Bonus points {c}/{n} · {} toggle", point_keys(state, n)),
    };
    let mut out = vec![heading(t, &title)];
    let wide = item.bonus_points.len() > 9;
    for (k, p) in item.bonus_points.iter().enumerate() {
        let n = k as u32 + 1;
        let is = covered.contains(&n);
        let label = if wide {
            format!("{n:>2} ")
        } else {
            format!(" {n} ")
        };
        let mut spans = vec![
            Span::styled(label, t.title),
            Span::styled(
                if is { "[✔] " } else { "[ ] " },
                match (is, suggested.is_some()) {
                    (true, false) => t.good,
                    (true, true) => t.accent,
                    (false, _) => t.dim,
                },
            ),
            Span::styled(one_line(p), t.text),
        ];
        if !hide
            && suggested.is_none()
            && let Some(JudgeBonus::Points(j)) = &judge
        {
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
    judge_lines(t, judge.as_ref(), hide, &mut out);
    // my penalty and the judge's: one line
    let pen = match mine.as_ref().and_then(|g| g.chartom_qa.penalty.clone()) {
        None => "not graded".to_string(),
        Some(None) => "none".to_string(),
        Some(Some(p)) => format!("“{}”", one_line(&p)),
    };
    let mut spans = vec![
        Span::styled(" My penalty: ", t.dim),
        Span::styled(pen, t.text),
    ];
    if !hide && let Some(j) = &r.judge {
        spans.push(Span::styled(" · the judge's: ", t.dim));
        spans.push(Span::styled(
            j.penalty_text()
                .map_or("none".to_string(), |p| format!("“{}”", one_line(&p))),
            t.text,
        ));
    }
    out.push(Line::from(spans));
    out
}

/// The running BPC of `model` over my grades, as a line (none before I grade it): above
/// the checklist, not in it (the pinned checklist keeps its rows for the points).
fn bpc_line(state: &State, model: &str) -> Option<Line<'static>> {
    let (bc, bt) = running_bpc(state, model)?;
    Some(Line::from(Span::styled(
        format!(
            " running BPC of {} (my grades) {:.2} = {bc}/{bt}",
            one_line(model),
            if bt > 0 { bc as f64 / bt as f64 } else { 0.0 }
        ),
        state.theme.accent2,
    )))
}

/// The keys that tick an item's `n` points, as the live keymap names them: `1-9`, and
/// past 9 the keys of 10 and of the last (`1-9 Alt-0…Alt-2`).
fn point_keys(state: &State, n: usize) -> String {
    let km = &state.keymap;
    let ctx = Context::Benchmark(Benchmark::ChartomQa);
    let digits = n.clamp(1, 9) as u8;
    let (a, z) = (km.hint(ctx, BONUS.nth(1)), km.hint(ctx, BONUS.nth(digits)));
    let mut out = if digits == 1 { a } else { format!("{a}-{z}") };
    if n > 9 {
        let last = n.min(BONUS_KEYS) as u8;
        let (b, y) = (km.hint(ctx, BONUS.nth(10)), km.hint(ctx, BONUS.nth(last)));
        // `Alt-0…2`: the modifier said once
        let same = b.rfind('-').filter(|&k| y.get(..=k) == b.get(..=k));
        let y = same.map_or(y.as_str(), |k| &y[k + 1..]);
        out.push(' ');
        out.push_str(&if last == 10 { b } else { format!("{b}…{y}") });
    }
    out
}

/// What the LLM judge said of the bonus points, when it is not beside each point: none,
/// unreadable, or hidden (blind).
fn judge_lines(t: &Theme, judge: Option<&JudgeBonus>, hide: bool, out: &mut Vec<Line<'static>>) {
    if !hide {
        match judge {
            Some(JudgeBonus::Unparsable(s)) => out.push(Line::from(Span::styled(
                format!(" judge's bonus unparsable ({}): not counted", one_line(s)),
                t.warn,
            ))),
            None => out.push(Line::from(Span::styled(" no LLM-judge grades", t.dim))),
            _ => {}
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
        // Until I tick anything on the response, its checklist shows the judge's ticks
        // (the suggestion): a tick changes them as shown; `accept_judge` takes them and
        // the judge's penalty, each where I have not given mine. The penalty keys write
        // the penalty only (docs/format.md, "REVIEW grades").
        let shown =
            suggestion(st).filter(|_| st.my_grades().is_none_or(|g| g.chartom_qa.bonus.is_none()));
        let from_shown = |g: &mut ResponseGrades| {
            if let Some((ticks, _)) = &shown
                && g.chartom_qa.bonus.is_none()
            {
                g.chartom_qa.bonus = Some(ticks.clone());
            }
        };
        match action {
            Action::Verb(v) if v.is(&BONUS) => {
                let n = v.n;
                let count = st.item().map(|i| i.bonus_points.len()).unwrap_or(0);
                if count > BONUS_KEYS {
                    // Past the points with keys of their own: the digit opens the
                    // point's number (`2 0` Enter is point 20; `1` Enter point 1).
                    st.mode = Mode::Popup(AnyPopup::new(BonusPopup(TextEdit::new(
                        &n.to_string(),
                        false,
                    ))));
                    return true;
                }
                if (n as usize) > count {
                    st.set_status(format!("this item has {count} bonus points"), Level::Warn);
                    return true;
                }
                st.change_grades(fx, |g| {
                    from_shown(g);
                    g.chartom_qa.toggle_bonus(n as u32)
                });
            }
            Action::Verb(v) if v.is(&NO_BONUS) => {
                st.change_grades(fx, |g| g.chartom_qa.no_bonus());
            }
            Action::Verb(v) if v.is(&ACCEPT_JUDGE) => {
                let mine = st.my_grades().map(|g| g.chartom_qa);
                let judge = suggestion(st);
                let bonus = mine.as_ref().and_then(|g| g.bonus.clone());
                let bonus = bonus.or_else(|| judge.as_ref().map(|j| j.0.clone()));
                let penalty = mine.as_ref().and_then(|g| g.penalty.clone());
                let penalty = penalty.or_else(|| judge.as_ref().map(|j| j.1.clone()));
                let (Some(bonus), Some(penalty)) = (bonus, penalty) else {
                    st.set_status(no_suggestion(st), Level::Warn);
                    return true;
                };
                if st.change_grades(fx, |g| {
                    g.chartom_qa.bonus = Some(bonus);
                    g.chartom_qa.set_penalty(penalty.as_deref());
                }) {
                    st.advance_after_grade(fx);
                }
            }
            Action::Verb(v) if v.is(&PENALTY) => {
                let cur = st
                    .my_grades()
                    .and_then(|g| g.chartom_qa.penalty.clone())
                    .or_else(|| shown.as_ref().map(|s| s.1.clone()))
                    .flatten()
                    .unwrap_or_default();
                st.mode = Mode::Popup(AnyPopup::new(PenaltyPopup(TextEdit::new(&cur, false))));
            }
            Action::Verb(v) if v.is(&NO_PENALTY) => {
                if st.change_grades(fx, |g| g.chartom_qa.set_penalty(None)) {
                    st.advance_after_grade(fx);
                }
            }
            Action::Verb(v) if v.is(&CONTEXT_LENGTH) => {
                st.view_choice = (st.view_choice + 1) % CONTEXT_LENGTHS.len();
                st.aside_scroll = 0;
            }
            Action::Verb(v) if v.is(&CONTEXT_DOWN) || v.is(&CONTEXT_UP) => {
                let (rows, max) = crate::tui::geometry::aside_geometry(st);
                if rows == 0 {
                    // No context pane at this width: the context is in the item's text.
                    let d = crate::tui::geometry::page_rows(st);
                    if v.is(&CONTEXT_DOWN) {
                        st.scroll_down(d);
                    } else {
                        st.scroll = st.scroll.saturating_sub(d);
                    }
                    return true;
                }
                let page = usize::from(rows.saturating_sub(1).max(1));
                st.aside_scroll = if v.is(&CONTEXT_DOWN) {
                    st.aside_scroll.saturating_add(page).min(max)
                } else {
                    st.aside_scroll.saturating_sub(page)
                };
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
        if let Some(PenaltyPopup(e)) = st.mode.popup_mut() {
            match penalty::handle_key(e, &st.keymap, k) {
                Outcome::Close => st.mode = Mode::Normal,
                Outcome::Submit(t) => {
                    st.mode = Mode::Normal;
                    if st.change_grades(fx, |g| g.chartom_qa.set_penalty(Some(&t))) {
                        st.advance_after_grade(fx);
                    }
                }
                _ => {}
            }
        } else if let Some(BonusPopup(e)) = st.mode.popup_mut() {
            match bonus::handle_key(e, &st.keymap, k) {
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
            }
        } else {
            return false;
        }
        true
    }

    fn draw_popup(&self, state: &State, f: &mut Frame, area: Rect) -> bool {
        if let Some(PenaltyPopup(e)) = state.mode.popup() {
            penalty::draw(state, f, area, e);
        } else if let Some(BonusPopup(e)) = state.mode.popup() {
            let points = state.item().map_or(0, |i| i.bonus_points.len());
            bonus::draw(state, f, area, e, points);
        } else {
            return false;
        }
        true
    }

    fn tables(&self) -> &'static [&'static Table] {
        &TABLES
    }

    fn grade_fields(&self) -> &'static [fn(&ResponseGrades) -> Field] {
        &[bonus_field, penalty_field]
    }

    fn summary_block<'a>(&self, b: &'a crate::bench::Benchmarks) -> Option<&'a dyn SummaryBlock> {
        b.chartom_qa.as_ref().map(|x| x as _)
    }

    fn guideline(&self, state: &State, item: &Item) -> Option<String> {
        Some(format!(
            "{} a point it states, in any words · {} what it gets wrong",
            point_keys(state, item.bonus_points.len()),
            state
                .keymap
                .hint(Context::Benchmark(Benchmark::ChartomQa), PENALTY.action())
        ))
    }

    fn context(&self) -> Context {
        Context::Benchmark(Benchmark::ChartomQa)
    }

    fn verbs(&self) -> &'static [&'static VerbDef] {
        &VERBS
    }

    /// A long context beside the item on a wide screen, scrolled on its own: the context
    /// lines of `chartom_qa_lines` (its heading and text).
    fn aside<'a>(
        &self,
        state: &State,
        item: &'a Item,
    ) -> Option<(String, Vec<Line<'a>>, std::ops::Range<usize>)> {
        let c = item.context.as_ref()?;
        let len = context_length(state);
        let lines = text_lines_of(
            c.get(len).unwrap_or(""),
            state.theme.dim.remove_modifier(Modifier::DIM),
        );
        let title = format!(
            " Context ({len}) · {} switches 0/1000/2000 · {}/{} scroll ",
            state.keymap.hint(
                Context::Benchmark(Benchmark::ChartomQa),
                CONTEXT_LENGTH.action()
            ),
            state.keymap.hint(
                Context::Benchmark(Benchmark::ChartomQa),
                CONTEXT_DOWN.action()
            ),
            state.keymap.hint(
                Context::Benchmark(Benchmark::ChartomQa),
                CONTEXT_UP.action()
            )
        );
        // the book line, then the context's heading and its text
        let range = 1..2 + lines.len();
        Some((title, lines, range))
    }

    /// The question: under it the response and its checklist. The context and the
    /// reference answer above it are read by scrolling up.
    fn target(&self, state: &State, item: &Item) -> crate::tui::views::Target {
        let context = item.context.as_ref().map_or(0, |c| {
            let len = context_length(state);
            1 + text_lines_of(c.get(len).unwrap_or(""), state.theme.text).len()
        });
        // the book line, the context, a blank line, the reference answer, then the
        // question
        let answer =
            1 + text_lines_of(item.answer.as_deref().unwrap_or(""), state.theme.text).len();
        crate::tui::views::Target::ItemLine(1 + context + 1 + answer)
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
        // (under the model tabs, or in the model's column: no heading of its own)
        let mut out = text_lines(r.text.as_deref().unwrap_or("—"), t.text);
        if let Some(c) = r.choice {
            out.push(Line::from(vec![
                Span::styled(format!("Choice: {c} "), t.dim),
                mark(t, item.key.map(|k| k == c)),
            ]));
        }
        out.push(Line::from(""));
        out.extend(bpc_line(state, &r.model));
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

    /// My grades, and until I tick anything, that the ticks shown are the judge's.
    fn grade_parts_in(
        &self,
        state: &State,
        item: &Item,
        mine: Option<&Review>,
        g: Option<&ResponseGrades>,
        model: Option<&str>,
        column: bool,
    ) -> Vec<String> {
        let mut parts = self.grade_parts(item, mine, g, model, column);
        let r = model.and_then(|m| item.responses.iter().find(|r| r.model == m));
        if let Some(r) = r
            && !column
            && g.is_none_or(|g| g.chartom_qa.bonus.is_none())
            && judge_suggestion(state, item, r).is_some()
        {
            parts.push(format!(
                "ticks shown are the judge's: {} accepts",
                state.keymap.hint(
                    Context::Benchmark(Benchmark::ChartomQa),
                    ACCEPT_JUDGE.action()
                )
            ));
        }
        parts
    }

    /// The checklist (`bonus_block`) stays under the response as it scrolls.
    fn pinned_tail(&self, state: &State, item: &Item, r: &Response) -> usize {
        bonus_block(state, item, r, true).len()
    }

    fn grading_hints(&self, state: &State, parts: &mut Vec<(String, String)>) {
        let n = state.item().map(|i| i.bonus_points.len()).unwrap_or(0);
        act(state, parts, ACCEPT_JUDGE.action());
        parts.push((point_keys(state, n), BONUS.label.to_string()));
        for a in [
            NO_BONUS.action(),
            PENALTY.action(),
            NO_PENALTY.action(),
            CONTEXT_LENGTH.action(),
        ] {
            act(state, parts, a);
        }
    }
}

/// The context lengths the context key cycles through, from the first shown.
const CONTEXT_LENGTHS: [&str; 3] = ["2000", "0", "1000"];

/// The context length shown (`State::view_choice`).
pub fn context_length(state: &State) -> &'static str {
    CONTEXT_LENGTHS[state.view_choice % CONTEXT_LENGTHS.len()]
}

/// CharToM-QA's verbs: the keys of its table `chartom-qa`.
pub static ACCEPT_JUDGE: VerbDef = VerbDef::new(
    0,
    "accept_judge",
    "grades as shown: the judge's ticks and penalty, with my changes (the response is graded)",
    "accept",
);
pub static BONUS: VerbDef = VerbDef::numbered(
    1,
    "bonus",
    1..=19,
    "toggle bonus point {n} covered",
    "bonus",
);
pub static NO_BONUS: VerbDef =
    VerbDef::new(2, "no_bonus", "no bonus point covered", "no bonus").short("none");
pub static PENALTY: VerbDef = VerbDef::new(
    3,
    "penalty",
    "edit the penalty (defects of the response)",
    "penalty",
);
/// (its word follows the penalty key's: `e penalty  0 none`)
pub static NO_PENALTY: VerbDef = VerbDef::new(4, "no_penalty", "no penalty (clear it)", "none");
pub static CONTEXT_LENGTH: VerbDef = VerbDef::new(
    5,
    "context_length",
    "plot context length 0 / 1000 / 2000",
    "context",
)
.short("ctx");
/// Scroll the context pane (side by side when wide).
pub static CONTEXT_DOWN: VerbDef = VerbDef::new(
    6,
    "context_down",
    "scroll the context pane down a page (wide screens)",
    "context ↓",
);
pub static CONTEXT_UP: VerbDef = VerbDef::new(
    7,
    "context_up",
    "scroll the context pane up a page",
    "context ↑",
);
static TABLES: [&Table; 2] = [&penalty::TABLE, &bonus::TABLE];
static VERBS: [&VerbDef; 8] = [
    &ACCEPT_JUDGE,
    &BONUS,
    &NO_BONUS,
    &PENALTY,
    &NO_PENALTY,
    &CONTEXT_LENGTH,
    &CONTEXT_DOWN,
    &CONTEXT_UP,
];

/// The bonus points with a key of their own (`bonus_1` … `bonus_19`): past them, a digit
/// opens the point's number.
const BONUS_KEYS: usize = 19;

/// The judge's grades of the selected response, as its checklist shows them before I
/// grade it ([`judge_suggestion`]).
fn suggestion(st: &State) -> Option<(Vec<u32>, Option<String>)> {
    let it = st.item()?;
    judge_suggestion(st, it, it.responses.get(st.model)?)
}

/// The judge's grades of `r`: (ticks, penalty), the ticks among the item's points. None
/// when there is no judge, its bonus cannot be read, or it is hidden (blind mode).
fn judge_suggestion(st: &State, it: &Item, r: &Response) -> Option<(Vec<u32>, Option<String>)> {
    if !st.reveal_model(&r.model) {
        return None;
    }
    let j = r.judge.as_ref()?;
    match j.bonus_list() {
        JudgeBonus::Points(p) => {
            let n = it.bonus_points.len() as u32;
            let mut p: Vec<u32> = p.into_iter().filter(|&k| k >= 1 && k <= n).collect();
            p.sort_unstable();
            p.dedup();
            Some((p, j.penalty_text()))
        }
        JudgeBonus::Unparsable(_) => None,
    }
}

/// Why accepting takes nothing: what is missing, and the keys that give it.
fn no_suggestion(st: &State) -> String {
    let km = &st.keymap;
    let ctx = Context::Benchmark(Benchmark::ChartomQa);
    let why = match st.item().and_then(|i| i.responses.get(st.model)) {
        Some(r) if !st.reveal_model(&r.model) => "blind: the judge is hidden until you grade",
        Some(r) if r.judge.is_some() => "the judge's bonus cannot be read",
        _ => "no judge's grades to accept",
    };
    format!(
        "{why}: {} ticks a point, {} none, {} no penalty",
        km.hint(ctx, BONUS.nth(1)),
        km.hint(ctx, NO_BONUS.action()),
        km.hint(ctx, NO_PENALTY.action())
    )
}

/// Covered / total bonus points over the CharToM-QA items I have graded (this session's
/// grades and the file's), for `model`'s responses: BPC is per model (docs/stats.md).
pub fn running_bpc(state: &State, model: &str) -> Option<(u64, u64)> {
    state.rec.tally.get(model).copied()
}
