//! The screen of an Inspect AI sample (docs/format.md, "Inspect AI logs"): the sample's
//! id and epoch, its input (a text or messages), the target and the choices, the model's
//! completion, every scorer's value, answer and explanation (with the edits the log
//! holds), and the log's figures; graded correct / incorrect / ambiguous-target on the
//! headline scorer.

use ratatui::text::{Line, Span};
use serde_json::Value;

use crate::bench::inspect::sample::{Input, Sample, Score, value_text};
use crate::bench::inspect::spec::sample;
use crate::bench::inspect::stats::InspectStats;
use crate::bench::inspect::{Verdict, review};
use crate::bench::{Benchmark, Item, ResponseGrades, Review};
use crate::tui::app::{Effect, Level, State};
use crate::tui::keymap::{Action, Context, VerbDef};
use crate::tui::summary::{SummaryBlock, bar, finite, fit};
use crate::tui::text::one_line;
use crate::tui::theme::Theme;
use crate::tui::views::common::{heading, kv, text_lines_of};
use crate::tui::views::model_line::NOT_GRADED;
use crate::tui::views::{NoteSetter, View};

/// The view of an Inspect sample.
pub struct InspectView;

/// Grade the next of the sample's scorers (the verdict keys and the note act on it).
pub static NEXT_SCORER: VerbDef = VerbDef::new(
    0,
    "next_scorer",
    "grade the next scorer (the verdict keys and the note act on it)",
    "next scorer",
);
/// The verdict keys grade every scorer of the sample at once (issue 39: one verdict for
/// one generation, where the reviewer asks), until the next sample.
pub static EVERY_SCORER: VerbDef = VerbDef::new(
    1,
    "every_scorer",
    "the verdict keys grade every scorer of this sample at once (one change)",
    "every scorer",
);
static VERBS: [&VerbDef; 2] = [&NEXT_SCORER, &EVERY_SCORER];

/// `State::graded_part` when the verdict keys grade every scorer (no scorer's name: a
/// name is a JSON key, and this one has a NUL).
const EVERY: &str = "\u{0}every scorer";

/// The scorers of `s` that `EVERY_SCORER` grades: each whose score is a grade (right,
/// wrong or partly right: C, I, P; 1, 0, 0.5), the headline always (a confidence is no
/// grade to give a verdict on); none of a failed sample (no score).
fn grading_scorers(s: &Sample) -> Vec<String> {
    s.scores
        .iter()
        .filter(|x| {
            x.name == s.headline
                || crate::bench::inspect::edit::to_float(&x.value)
                    .is_some_and(|v| [0.0, 0.5, 1.0].contains(&v))
        })
        .map(|x| x.name.clone())
        .filter(|n| s.no_score(n, "a verdict").is_none())
        .collect()
}

/// The verdict keys grade every scorer of the sample (`EVERY_SCORER`).
fn grades_every(state: &State) -> bool {
    state.graded_part.as_deref() == Some(EVERY)
}

/// The letter Inspect's multiple choice gives the `i`-th choice.
fn letter(i: usize) -> String {
    char::from_u32('A' as u32 + i as u32)
        .filter(|_| i < 26)
        .map_or_else(|| (i + 1).to_string(), |c| c.to_string())
}

fn sample_lines<'a>(state: &State, s: &'a Sample) -> Vec<Line<'a>> {
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
    if let Some(m) = s.metadata.as_ref().and_then(Value::as_object) {
        for (k, v) in m {
            let v = match v {
                Value::String(x) => x.clone(),
                v => v.to_string(),
            };
            out.push(kv(t, &format!("metadata.{}", one_line(k)), &one_line(&v)));
        }
    }
    input_lines(t, s, &mut out);
    target_lines(t, s, &mut out);
    out.push(Line::from(""));
    out.push(heading(t, "Output (completion)"));
    out.extend(text_lines_of(&s.completion, t.accent));
    out.push(Line::from(""));
    score_lines(state, s, &mut out);
    figure_and_message_lines(t, s, &mut out);
    out
}

/// The sample's input: a text, or each message under its role.
fn input_lines<'a>(t: &Theme, s: &'a Sample, out: &mut Vec<Line<'a>>) {
    out.push(heading(t, "Input"));
    match &s.input {
        Input::Text(x) => out.extend(text_lines_of(x, t.text)),
        Input::Messages(ms) => {
            for m in ms {
                out.push(Line::from(Span::styled(
                    format!("[{}]", one_line(&m.role)),
                    t.dim,
                )));
                out.extend(text_lines_of(&m.text, t.text));
            }
        }
    }
}

/// The target, and the choices lettered as Inspect letters them (the target's marked).
fn target_lines(t: &Theme, s: &Sample, out: &mut Vec<Line<'_>>) {
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
}

/// Every scorer's value, the verdicts on it, its answer, explanation and edits; the one
/// the verdict keys grade marked `>`.
fn score_lines(state: &State, s: &Sample, out: &mut Vec<Line<'_>>) {
    let t = &state.theme;
    let graded = graded_scorer(state, s);
    let switch = if s.scores.len() > 1 {
        format!(
            "; {} grades the next",
            state
                .keymap
                .hint(Context::Benchmark(Benchmark::Inspect), NEXT_SCORER.action())
        )
    } else {
        String::new()
    };
    out.push(heading(
        t,
        &format!("Scores (the verdict keys grade the one marked >{switch})"),
    ));
    let reviews = state.reviews();
    for sc in &s.scores {
        one_score_lines(state, s, sc, sc.name == graded, &reviews, out);
    }
}

/// One scorer's lines ([`score_lines`]); `head`: the one the verdict keys grade.
fn one_score_lines(
    state: &State,
    s: &Sample,
    sc: &Score,
    head: bool,
    reviews: &[(String, Review)],
    out: &mut Vec<Line<'_>>,
) {
    let t = &state.theme;
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
            format!(
                "{} {}{}: ",
                if head { '>' } else { ' ' },
                one_line(&sc.name),
                if sc.name == s.headline {
                    " (headline)"
                } else {
                    ""
                }
            ),
            if head { t.title } else { t.dim },
        ),
        Span::styled(value, if head { t.accent } else { t.text }),
    ]));
    let said = verdicts_on(state, s, sc, reviews);
    if !said.is_empty() {
        out.push(kv(t, "    verdicts", &said.join(" · ")));
    }
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

/// The verdicts on scorer `sc`: mine as it stands now, and others' as blind mode reveals
/// them (`who verdict (note)`).
fn verdicts_on(state: &State, s: &Sample, sc: &Score, reviews: &[(String, Review)]) -> Vec<String> {
    reviews
        .iter()
        .filter_map(|(who, r)| {
            let v = review::verdict_of(r, &s.headline, &sc.name);
            let n = review::note_of(r, &s.headline, &sc.name);
            if v.is_none() && n.is_none() {
                return None;
            }
            let who = if *who == state.reviewer {
                "mine".to_string()
            } else {
                one_line(who)
            };
            Some(format!(
                "{who} {}{}",
                one_line(v.unwrap_or("(note only)")),
                n.map(|n| format!(" ({})", one_line(n))).unwrap_or_default()
            ))
        })
        .collect()
}

/// The log's figures, and the conversation when it has more than one message.
fn figure_and_message_lines<'a>(t: &Theme, s: &'a Sample, out: &mut Vec<Line<'a>>) {
    if !s.harness.is_empty() {
        out.push(Line::from(""));
        out.push(heading(t, "The log's figures (results)"));
        for f in &s.harness {
            out.push(kv(
                t,
                &one_line(&f.label()),
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
            out.extend(text_lines_of(&m.text, t.text));
        }
    }
}

/// The scorer the verdict keys and the note grade on `s`: the one picked with the
/// next-scorer key (`State::graded_part`) when the sample has it, else the headline.
pub(crate) fn graded_scorer(state: &State, s: &Sample) -> String {
    match &state.graded_part {
        Some(p) if s.scores.iter().any(|x| x.name == *p) => p.clone(),
        _ => s.headline.clone(),
    }
}

impl View for InspectView {
    fn context(&self) -> Context {
        Context::Benchmark(Benchmark::Inspect)
    }

    fn verbs(&self) -> &'static [&'static VerbDef] {
        &VERBS
    }

    fn summary_block<'a>(&self, b: &'a crate::bench::Benchmarks) -> Option<&'a dyn SummaryBlock> {
        b.inspect.as_ref().map(|x| x as _)
    }

    fn flags(&self) -> &'static [crate::bench::Facet] {
        &[crate::bench::Facet::Failed]
    }

    /// The verdict keys on the graded scorer, and the next-scorer key.
    fn act(&self, state: &mut State, action: Action, fx: &mut Vec<Effect>) -> bool {
        let Some(s) = state.item().and_then(sample) else {
            return false;
        };
        let headline = s.headline.clone();
        let graded = graded_scorer(state, s);
        let names: Vec<String> = s.scores.iter().map(|x| x.name.clone()).collect();
        let v = match action {
            Action::Pass => Verdict::Correct,
            Action::Fail => Verdict::Incorrect,
            Action::Unsure => Verdict::AmbiguousTarget,
            Action::Verb(v) if v.is(&EVERY_SCORER) => {
                state.set_status(
                    format!(
                        "the verdict keys now grade every scorer of this sample that grades it: {}",
                        one_line(&grading_scorers(s).join(", "))
                    ),
                    Level::Info,
                );
                state.graded_part = Some(EVERY.to_string());
                return true;
            }
            Action::Verb(v) if v.is(&NEXT_SCORER) => {
                if names.len() < 2 {
                    state.set_status(
                        format!(
                            "this sample has {} scorer: no other to grade",
                            if names.is_empty() { "no" } else { "one" }
                        ),
                        Level::Info,
                    );
                    return true;
                }
                let k = names.iter().position(|n| *n == graded).unwrap_or(0);
                let next = names[(k + 1) % names.len()].clone();
                state.set_status(
                    format!(
                        "the verdict keys and the note now grade scorer {}{}",
                        one_line(&next),
                        if next == headline {
                            " (the headline)"
                        } else {
                            ""
                        }
                    ),
                    Level::Info,
                );
                state.graded_part = Some(next);
                return true;
            }
            _ => return false,
        };
        if grades_every(state) {
            let scored = grading_scorers(s);
            let at = state.now_at();
            let (h, all) = (headline.clone(), scored.clone());
            if !state.change_review(fx, move |r, _| {
                for g in &all {
                    review::set_verdict(r, &h, g, v, &at);
                }
            }) {
                return true;
            }
            let id = state.display_id(state.pos);
            state.advance_after_grade(fx);
            state.set_status(
                format!(
                    "{} on every scorer of {}: {} · {} undoes it",
                    v.name(),
                    one_line(&id),
                    one_line(&scored.join(", ")),
                    state.keymap.hint(Context::Global, Action::Undo)
                ),
                Level::Info,
            );
            return true;
        }
        if let Some(why) = s.no_score(&graded, "a verdict") {
            // (the worker would refuse it too: check's rule)
            let id = state.display_id(state.pos);
            state.set_status(
                format!("nothing recorded on {}: {why}", one_line(&id)),
                Level::Warn,
            );
            return true;
        }
        let at = state.now_at();
        let (h, g) = (headline.clone(), graded.clone());
        if !state.change_review(fx, move |r, _| review::set_verdict(r, &h, &g, v, &at)) {
            return true;
        }
        if graded == headline {
            state.advance_after_grade(fx);
        } else {
            // Another scorer's verdict stays on the sample: its headline may still need
            // me, and the next sample would open on its own headline.
            let id = state.display_id(state.pos);
            state.set_status(
                format!("graded {} on {}", one_line(&graded), one_line(&id)),
                Level::Info,
            );
        }
        true
    }

    fn note(&self, state: &State, r: &Review) -> Option<String> {
        let s = state.item().and_then(sample)?;
        review::note_of(r, &s.headline, &graded_scorer(state, s)).map(str::to_string)
    }

    fn note_setter(&self, state: &State) -> NoteSetter {
        let Some(s) = state.item().and_then(sample) else {
            return Box::new(crate::review::set_note);
        };
        let (h, g, at) = (s.headline.clone(), graded_scorer(state, s), state.now_at());
        Box::new(move |r, t| review::set_note(r, &h, &g, t, &at))
    }

    fn graded_part(&self, state: &State, item: &Item) -> Option<String> {
        let s = sample(item)?;
        if grades_every(state) {
            return Some("on every scorer".into());
        }
        let g = graded_scorer(state, s);
        Some(format!(
            "on {}{}",
            one_line(&g),
            if g == s.headline { " (headline)" } else { "" }
        ))
    }

    fn notes_on_grade_line(&self) -> bool {
        false
    }

    /// My verdict on the graded scorer first, then my verdicts on the others, each named.
    fn grade_parts_in(
        &self,
        state: &State,
        item: &Item,
        mine: Option<&Review>,
        _g: Option<&ResponseGrades>,
        _model: Option<&str>,
        _column: bool,
    ) -> Vec<String> {
        let Some(s) = sample(item) else {
            return crate::tui::views::generic::verdict_parts(mine);
        };
        let graded = graded_scorer(state, s);
        let Some(r) = mine else {
            return vec![NOT_GRADED.to_string()];
        };
        let mut parts = vec![
            review::verdict_of(r, &s.headline, &graded)
                .map_or_else(|| NOT_GRADED.to_string(), one_line),
        ];
        if review::note_of(r, &s.headline, &graded).is_some() {
            parts.push("note".into());
        }
        for sc in s.scores.iter().filter(|x| x.name != graded) {
            let v = review::verdict_of(r, &s.headline, &sc.name);
            let n = review::note_of(r, &s.headline, &sc.name);
            if v.is_some() || n.is_some() {
                parts.push(format!(
                    "{}: {}{}",
                    one_line(&sc.name),
                    one_line(v.unwrap_or("note only")),
                    if v.is_some() && n.is_some() {
                        " + note"
                    } else {
                        ""
                    }
                ));
            }
        }
        parts
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
        let k = |a| state.keymap.hint(Context::Benchmark(Benchmark::Inspect), a);
        Some(format!(
            "{} meets its target · {} misses it · {} the target is unclear",
            k(Action::Pass),
            k(Action::Fail),
            k(Action::Unsure)
        ))
    }

    /// The three verdict keys, named by the values they write here, and the
    /// next-scorer key when the sample has several.
    fn grading_hints(&self, state: &State, parts: &mut Vec<(String, String)>) {
        for (a, v) in [Action::Pass, Action::Fail, Action::Unsure]
            .into_iter()
            .zip(Verdict::ALL)
        {
            parts.push((
                state.keymap.hint(Context::Benchmark(Benchmark::Inspect), a),
                v.name().into(),
            ));
        }
        if let Some(s) = state.item().and_then(sample)
            && s.scores.len() > 1
        {
            parts.push((
                state
                    .keymap
                    .hint(Context::Benchmark(Benchmark::Inspect), NEXT_SCORER.action()),
                NEXT_SCORER.label.to_string(),
            ));
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
        for f in &self.figures {
            let log = finite(f.log.as_f64());
            // (a value that is not a finite number as the log writes it: `Infinity`)
            let log_text = match f.log.as_f64() {
                Some(_) => four(log),
                None => one_line(&value_text(&f.log)),
            };
            let label = format!(
                "  {}{}{} · {}{}",
                one_line(&f.scorer),
                f.name
                    .as_deref()
                    .map(|n| format!("/{}", one_line(n)))
                    .unwrap_or_default(),
                f.reducer
                    .as_deref()
                    .map(|r| format!(" [{}]", one_line(r)))
                    .unwrap_or_default(),
                one_line(&f.metric),
                if f.stale.is_some() { " · stale" } else { "" }
            );
            lines.push(Line::from(Span::styled(label, t.accent)));
            match f.corrected {
                Some(c) => {
                    let corrected = finite(Some(c));
                    lines.push(Line::from(vec![
                        Span::raw(format!("    log {log_text} ")),
                        bar(log, fit(width, 40) / 2, t.bar_other),
                        Span::raw(format!("  corrected {} ", four(corrected))),
                        bar(corrected, fit(width, 40) / 2, t.bar),
                    ]));
                }
                None => lines.push(Line::from(Span::styled(
                    format!("    log {log_text} (not corrected: verdict does not recompute it)"),
                    t.dim,
                ))),
            }
        }
        // The headline scorer, then every other scorer someone gave a verdict on.
        let others = self
            .scorers
            .iter()
            .filter(|(name, f)| **name != self.scorer && f.reviewed > 0);
        let head = self.scorers.get(&self.scorer).map(|f| (&self.scorer, f));
        for (name, f) in head.into_iter().chain(others) {
            lines.push(Line::from(Span::styled(
                format!(
                    "  verdicts on scorer {}{} · reviewed {} of {} items",
                    one_line(name),
                    if *name == self.scorer {
                        " (headline)"
                    } else {
                        ""
                    },
                    f.reviewed,
                    self.items
                ),
                t.dim,
            )));
        }
    }
}
