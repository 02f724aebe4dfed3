//! The screen of a declared benchmark (`--benchmark SPEC.toml`, docs/format.md "Declared
//! benchmarks"): the spec's fields in order, each as its kind says (the first image in
//! the image pane); under each response its text and its questions; the item's questions
//! after the fields. The answer keys act on the selected question (`State::graded_part`
//! holds its name), which the next-question keys move.

use crossterm::event::KeyEvent;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use serde_json::{Value, json};

use crate::bench::declared::{
    Declared, FieldKind, as_text, item_answer, lookup, object, registered, response_answer,
};
use crate::bench::{Benchmark, Item, Response, ResponseGrades, Review};
use crate::question::{Kind, Per, Points, Question, points_of};
use crate::tui::app::{AnyPopup, Effect, Level, Mode, State};
use crate::tui::edit::TextEdit;
use crate::tui::keymap::{Action, Context};
use crate::tui::overlays::Outcome;
use crate::tui::overlays::dialog::{Place, draw_input, save_cancel, text_field_key};
use crate::tui::text::one_line;
use crate::tui::views::View;
use crate::tui::views::common::{heading, text_lines, text_lines_of};
use crate::tui::views::model_line::NOT_GRADED;

mod summary;

const KEYS: Context = Context::Benchmark(Benchmark::Declared);

/// The questions the answer keys reach on this item: the item's, then (when it has
/// responses) the selected response's.
fn questions<'d>(d: &'d Declared, item: &Item) -> Vec<&'d Question> {
    d.questions
        .iter()
        .filter(|q| q.per == Per::Item || !item.responses.is_empty())
        .collect()
}

/// The selected question: the one `graded_part` names, else the first.
fn selected<'d>(state: &State, d: &'d Declared, item: &Item) -> Option<&'d Question> {
    let qs = questions(d, item);
    qs.iter()
        .find(|q| state.graded_part.as_deref() == Some(q.name.as_str()))
        .or(qs.first())
        .copied()
}

/// My answer to `q` (the selected response's for a response's question).
fn my_answer(state: &State, q: &Question) -> Option<Value> {
    match q.per {
        Per::Item => item_answer(&state.my_review(state.pos)?, q).cloned(),
        Per::Response => response_answer(state.my_grades().as_ref(), q).cloned(),
    }
}

/// Record `v` (`None`: no answer) as my answer to `q`.
fn set_answer(st: &mut State, fx: &mut Vec<Effect>, q: &Question, v: Option<Value>) -> bool {
    let name = q.name.clone();
    let put = move |a: &mut indexmap::IndexMap<String, Value>| match v {
        Some(v) => {
            a.insert(name, v);
        }
        None => {
            a.shift_remove(&name);
        }
    };
    match q.per {
        Per::Item => st.change_review(fx, |r, _| put(&mut r.grades.answers)),
        Per::Response => st.change_grades(fx, |g| put(&mut g.answers)),
    }
}

/// After an answer: past the response or the item once its required answers are given
/// (auto-advance, as every grade), the first question selected there; else the next
/// question (`next`) selected.
fn answered(st: &mut State, fx: &mut Vec<Effect>, qs: &[&Question], next: Option<String>) {
    let before = (st.pos, st.model);
    st.advance_after_grade(fx);
    if (st.pos, st.model) != before {
        st.graded_part = qs.first().map(|x| x.name.clone());
    } else if next.is_some() {
        st.graded_part = next;
    }
}

/// The points of checklist `q` on the item, as texts.
fn point_texts(q: &Question, item: &Item) -> Vec<String> {
    match &q.kind {
        Kind::MultiLabel(Points::Fixed(p)) => p.clone(),
        Kind::MultiLabel(Points::From(path)) => object(item)
            .and_then(|o| lookup(o, path))
            .and_then(Value::as_array)
            .map(|a| a.iter().map(as_text).collect())
            .unwrap_or_default(),
        _ => vec![],
    }
}

/// The keys of answers 1 to `n` of the selected question, as the live keymap names them.
fn answer_keys(state: &State, n: usize) -> String {
    let km = &state.keymap;
    let last = n.clamp(1, 19) as u8;
    let (a, z) = (
        km.hint(KEYS, Action::Answer(1)),
        km.hint(KEYS, Action::Answer(last)),
    );
    if last == 1 { a } else { format!("{a}…{z}") }
}

/// One question's lines: its name and choices, my answer marked; the keys named when it
/// is the selected one.
fn question_lines(
    state: &State,
    item: &Item,
    q: &Question,
    mine: Option<&Value>,
    sel: bool,
) -> Vec<Line<'static>> {
    let t = &state.theme;
    let km = &state.keymap;
    let mut head = vec![
        Span::styled(if sel { "▸ " } else { "  " }, t.accent),
        Span::styled(one_line(&q.name), if sel { t.title } else { t.text }),
        Span::styled(if q.required { "*" } else { "" }, t.dim),
        Span::styled(": ", t.dim),
    ];
    let key = |n: usize| {
        if sel {
            format!("{} ", km.hint(KEYS, Action::Answer(n as u8)))
        } else {
            String::new()
        }
    };
    let mut out = Vec::new();
    match &q.kind {
        Kind::Label(labels) => {
            for (i, l) in labels.iter().enumerate() {
                let chosen = mine.and_then(Value::as_str) == Some(l.as_str());
                head.push(Span::styled(
                    format!("{}{}", key(i + 1), one_line(l)),
                    if chosen { t.good } else { t.text },
                ));
                head.push(Span::styled(if chosen { " ✔  " } else { "  " }, t.good));
            }
        }
        Kind::Rating { lo, hi } => {
            let keys = if sel {
                format!(
                    " ({} = {lo}…{hi})",
                    answer_keys(state, (hi - lo + 1) as usize)
                )
            } else {
                String::new()
            };
            head.push(Span::styled(format!("{lo}–{hi}{keys} "), t.dim));
            head.push(match mine {
                Some(v) => Span::styled(format!("✔ {v}"), t.good),
                None => Span::styled("—", t.dim),
            });
        }
        Kind::Text => {
            head.push(match mine {
                Some(v) => Span::styled(format!("“{}”", one_line(&as_text(v))), t.good),
                None => Span::styled("—", t.dim),
            });
            if sel {
                head.push(Span::styled(
                    format!("  {} writes", km.hint(KEYS, Action::Answer(1))),
                    t.dim,
                ));
            }
        }
        Kind::MultiLabel(_) => {
            let points = point_texts(q, item);
            let ticked = mine.map(points_of).unwrap_or_default();
            head.push(Span::styled(
                match mine {
                    Some(_) => format!("{}/{} ticked", ticked.len(), points.len()),
                    None => format!("0/{} (not answered)", points.len()),
                },
                if mine.is_some() { t.good } else { t.dim },
            ));
            if sel && !points.is_empty() {
                head.push(Span::styled(
                    format!(" · {} toggle", answer_keys(state, points.len())),
                    t.dim,
                ));
            }
            for (i, p) in points.iter().enumerate() {
                let on = ticked.contains(&(i as u64 + 1));
                out.push(Line::from(vec![
                    Span::styled(
                        format!("    [{}] {}. ", if on { "✔" } else { " " }, i + 1),
                        if on { t.good } else { t.dim },
                    ),
                    Span::styled(one_line(p), t.text),
                ]));
            }
        }
    }
    out.insert(0, Line::from(head));
    if sel && let Some(g) = &q.guideline {
        out.push(Line::from(Span::styled(
            format!("    {}", one_line(g)),
            t.dim,
        )));
    }
    out
}

/// The lines of the questions asked `per`, with my answers (`mine_of`).
fn questions_block(
    state: &State,
    item: &Item,
    per: Per,
    selected_here: bool,
    mine_of: impl Fn(&Question) -> Option<Value>,
) -> Vec<Line<'static>> {
    let Some(d) = registered() else { return vec![] };
    let sel = selected(state, d, item).map(|q| q.name.as_str());
    let mut out = Vec::new();
    for q in d.questions.iter().filter(|q| q.per == per) {
        let mine = mine_of(q);
        out.extend(question_lines(
            state,
            item,
            q,
            mine.as_ref(),
            selected_here && sel == Some(q.name.as_str()),
        ));
    }
    out
}

/// A field's lines under its heading, as its kind says.
fn field_lines<'a>(
    state: &State,
    label: &str,
    kind: FieldKind,
    v: Option<&'a Value>,
) -> Vec<Line<'a>> {
    let t = &state.theme;
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return vec![Line::from(vec![
            Span::styled(format!("{label}: "), t.title),
            Span::styled("(missing)", t.dim),
        ])];
    };
    match (kind, v) {
        (FieldKind::Number | FieldKind::Image, v) => vec![Line::from(vec![
            Span::styled(format!("{label}: "), t.title),
            Span::styled(one_line(&as_text(v)), t.text),
        ])],
        (FieldKind::Text, Value::String(s)) => {
            let mut out = vec![heading(t, label)];
            out.extend(text_lines_of(s, t.text));
            out
        }
        (FieldKind::Chat, Value::Array(turns)) => {
            let mut out = vec![heading(t, label)];
            for turn in turns {
                let role = turn.get("role").map_or_else(|| "?".into(), as_text);
                let mut lines = text_lines(
                    &turn.get("content").map_or_else(String::new, as_text),
                    t.text,
                );
                if let Some(first) = lines.first_mut() {
                    first
                        .spans
                        .insert(0, Span::styled(format!("{}: ", one_line(&role)), t.accent2));
                }
                out.extend(lines);
            }
            out
        }
        (FieldKind::List, Value::Array(items)) => {
            let mut out = vec![heading(t, label)];
            out.extend(items.iter().map(|x| {
                Line::from(vec![
                    Span::styled("  • ", t.dim),
                    Span::styled(one_line(&as_text(x)), t.text),
                ])
            }));
            out
        }
        // Not of its declared kind (`verdict check` says so): its JSON.
        (_, v) => {
            let mut out = vec![heading(t, label)];
            out.extend(text_lines(&v.to_string(), t.text));
            out
        }
    }
}

/// The view of a declared benchmark's items.
pub struct DeclaredView;

crate::tui::app::text_popup!(
    /// A text question's answer being typed (`Mode::Popup`), with the note's keys.
    AnswerPopup,
    Context::Note
);

impl View for DeclaredView {
    fn summary_block<'a>(
        &self,
        b: &'a crate::bench::Benchmarks,
    ) -> Option<&'a dyn crate::tui::summary::SummaryBlock> {
        b.declared.as_ref().map(|x| x as _)
    }

    fn context(&self) -> Context {
        KEYS
    }

    fn grades_per_model(&self) -> bool {
        registered().is_some_and(|d| d.questions.iter().any(|q| q.per == Per::Response))
    }

    fn act(&self, st: &mut State, action: Action, fx: &mut Vec<Effect>) -> bool {
        let Some(d) = registered() else { return false };
        let Some(item) = st.item() else { return false };
        let (qs, q) = (questions(d, item), selected(st, d, item));
        let points = q.map_or(0, |q| point_texts(q, item).len());
        let Some(q) = q else {
            st.set_status("no question to answer here", Level::Info);
            return true;
        };
        let at = qs.iter().position(|x| x.name == q.name).unwrap_or(0);
        let next = qs.get(at + 1).map(|x| x.name.clone());
        match action {
            Action::NextQuestion | Action::PrevQuestion => {
                let k = if action == Action::NextQuestion {
                    at + 1
                } else {
                    at + qs.len() - 1
                };
                st.graded_part = Some(qs[k % qs.len()].name.clone());
            }
            Action::Answer(n) => {
                let n = usize::from(n);
                let v = match &q.kind {
                    Kind::Label(labels) => labels.get(n - 1).map(|l| json!(l)),
                    Kind::Rating { lo, hi } => Some(lo + n as i64 - 1)
                        .filter(|v| v <= hi)
                        .map(|v| json!(v)),
                    Kind::MultiLabel(_) => {
                        if n > points {
                            st.set_status(
                                format!("{} has {points} points", one_line(&q.name)),
                                Level::Warn,
                            );
                            return true;
                        }
                        let mut ticked =
                            my_answer(st, q).map(|v| points_of(&v)).unwrap_or_default();
                        match ticked.iter().position(|&p| p == n as u64) {
                            Some(k) => {
                                ticked.remove(k);
                            }
                            None => ticked.push(n as u64),
                        }
                        ticked.sort_unstable();
                        set_answer(st, fx, q, Some(json!(ticked)));
                        return true;
                    }
                    Kind::Text => {
                        let cur = my_answer(st, q).map(|v| as_text(&v)).unwrap_or_default();
                        st.mode =
                            Mode::Popup(AnyPopup::new(AnswerPopup(TextEdit::new(&cur, false))));
                        return true;
                    }
                };
                let Some(v) = v else {
                    st.set_status(
                        format!("{} has no answer {n}", one_line(&q.name)),
                        Level::Warn,
                    );
                    return true;
                };
                if set_answer(st, fx, q, Some(v)) {
                    answered(st, fx, &qs, next);
                }
            }
            _ => return false,
        }
        true
    }

    /// The text of the selected question.
    fn popup_key(&self, st: &mut State, k: &KeyEvent, fx: &mut Vec<Effect>) -> bool {
        let Some(AnswerPopup(e)) = st.mode.popup_mut() else {
            return false;
        };
        match text_field_key(&st.keymap, Context::Note, e, k) {
            Outcome::Close => st.mode = Mode::Normal,
            Outcome::Submit(text) => {
                st.mode = Mode::Normal;
                let q = registered()
                    .zip(st.item())
                    .and_then(|(d, it)| selected(st, d, it));
                if let Some(q) = q {
                    let v = (!text.trim().is_empty()).then(|| json!(text.trim_end()));
                    if set_answer(st, fx, q, v) {
                        answered(st, fx, &[], None);
                    }
                }
            }
            _ => {}
        }
        true
    }

    fn draw_popup(&self, state: &State, f: &mut Frame, area: Rect) -> bool {
        let Some(AnswerPopup(e)) = state.mode.popup() else {
            return false;
        };
        let q = registered()
            .zip(state.item())
            .and_then(|(d, it)| selected(state, d, it));
        let title = q.map_or_else(String::new, |q| {
            format!(
                "{}: {}",
                one_line(&q.name),
                q.guideline
                    .as_deref()
                    .map_or("your answer".into(), one_line)
            )
        });
        let keys = save_cancel(&state.keymap, Context::Note, "empty = none · ", "");
        draw_input(state, f, (area, Place::Low), (&title, &keys), e, None);
        true
    }

    /// The selected response, when the item has responses: its answers are graded there.
    fn target(&self, _state: &State, item: &Item) -> crate::tui::views::Target {
        if item.responses.is_empty() {
            crate::tui::views::Target::Top
        } else {
            crate::tui::views::Target::Response
        }
    }

    fn item_lines<'a>(&self, state: &State, item: &'a Item, _width: u16) -> Vec<Line<'a>> {
        let Some(d) = registered() else { return vec![] };
        let t = &state.theme;
        let mut out = Vec::new();
        if let Some(g) = &d.guidelines {
            out.push(Line::from(Span::styled(one_line(g), t.dim)));
        }
        let obj = object(item);
        for f in &d.fields {
            let label = one_line(f.label.as_deref().unwrap_or(&f.path));
            out.extend(field_lines(
                state,
                &label,
                f.kind,
                obj.and_then(|o| lookup(o, &f.path)),
            ));
        }
        if d.questions.iter().any(|q| q.per == Per::Item) {
            out.push(Line::from(""));
            let mine = state.my_review(state.pos);
            out.extend(questions_block(state, item, Per::Item, true, |q| {
                mine.as_ref().and_then(|r| item_answer(r, q)).cloned()
            }));
        }
        out
    }

    fn response_lines(
        &self,
        state: &State,
        item: &Item,
        r: &Response,
        selected: bool,
    ) -> Vec<Line<'static>> {
        let t = &state.theme;
        let mut out = text_lines(r.text.as_deref().unwrap_or("—"), t.text);
        out.push(Line::from(""));
        let g = crate::tui::views::common::my_grades_for(state, item, &r.model);
        out.extend(questions_block(state, item, Per::Response, selected, |q| {
            response_answer(g.as_ref(), q).cloned()
        }));
        out
    }

    /// My answers to the response's questions (the item's when it has none), in order.
    fn grade_parts(
        &self,
        _item: &Item,
        mine: Option<&Review>,
        g: Option<&ResponseGrades>,
        model: Option<&str>,
        _column: bool,
    ) -> Vec<String> {
        let Some(d) = registered() else {
            return vec![NOT_GRADED.into()];
        };
        let per = if model.is_some() && self.grades_per_model() {
            Per::Response
        } else {
            Per::Item
        };
        let parts: Vec<String> = d
            .questions
            .iter()
            .filter(|q| q.per == per)
            .filter_map(|q| {
                let v = match per {
                    Per::Item => mine.and_then(|r| item_answer(r, q)),
                    Per::Response => response_answer(g, q),
                }?;
                Some(format!("{} {}", one_line(&q.name), one_line(&as_text(v))))
            })
            .collect();
        if parts.is_empty() {
            vec![NOT_GRADED.into()]
        } else {
            parts
        }
    }

    /// The selected question, on my grade line.
    fn graded_part(&self, state: &State, item: &Item) -> Option<String> {
        let q = selected(state, registered()?, item)?;
        Some(format!("· answering {}", q.name))
    }

    fn grading_hints(&self, state: &State, parts: &mut Vec<(String, String)>) {
        let km = &state.keymap;
        let Some((q, item)) = registered()
            .zip(state.item())
            .and_then(|(d, it)| Some((selected(state, d, it)?, it)))
        else {
            return;
        };
        let (n, what) = match &q.kind {
            Kind::Label(l) => (l.len(), "answer"),
            Kind::Rating { lo, hi } => ((hi - lo + 1) as usize, "rate"),
            Kind::MultiLabel(_) => (point_texts(q, item).len(), "tick"),
            Kind::Text => (1, "write"),
        };
        parts.push((
            answer_keys(state, n),
            format!("{what} {}", one_line(&q.name)),
        ));
        parts.push((km.hint(KEYS, Action::NextQuestion), "next question".into()));
    }
}
