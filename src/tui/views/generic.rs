//! The screen of an unknown benchmark: the item's JSON, graded pass / fail / unsure.

use ratatui::text::Line;

use crate::bench::{Item, ResponseGrades, Review};
use crate::tui::app::State;
use crate::tui::keymap::Action;
use crate::tui::text::{one_line, truncate};
use crate::tui::views::View;
use crate::tui::views::common::{heading, text_lines};
use crate::tui::views::model_line::NOT_GRADED;
use crate::tui::views::status::act;

/// How much of an item's JSON the generic view shows: its first characters.
pub(crate) const SHOWN_CHARS: usize = 50_000;

/// The item's JSON as shown (`State::json_shown`), its first [`SHOWN_CHARS`] characters.
pub(crate) fn generic_lines(state: &State) -> Vec<Line<'static>> {
    let t = &state.theme;
    let pretty = match state.json_shown() {
        // JSON's own escapes for unsafe characters, as everywhere JSON is shown
        Ok(v) => crate::sanitize::json_pretty(&v).unwrap_or_else(|_| v.to_string()),
        Err(text) => text,
    };
    let km = &state.keymap;
    let ctx = state.context();
    let mut out = vec![heading(
        t,
        &format!(
            "Item (unknown benchmark: {} pass · {} fail · {} unsure · {} note)",
            km.hint(ctx, Action::Pass),
            km.hint(ctx, Action::Fail),
            km.hint(ctx, Action::Unsure),
            km.hint(ctx, Action::Note)
        ),
    )];
    out.extend(text_lines(&truncate(&pretty, SHOWN_CHARS), t.text));
    out
}

/// The grade column of a view whose verdict is one value: the reviewer's own verdict
/// on one line, or "not graded".
pub(crate) fn verdict_parts(mine: Option<&Review>) -> Vec<String> {
    vec![
        mine.and_then(|r| r.verdict.clone())
            .map(|v| one_line(&v))
            .unwrap_or_else(|| NOT_GRADED.to_string()),
    ]
}

/// The view of an item of no known benchmark.
pub struct GenericView;

impl View for GenericView {
    fn shows_raw(&self, _item: &Item) -> bool {
        true
    }

    fn item_lines<'a>(&self, state: &State, _item: &'a Item, _width: u16) -> Vec<Line<'a>> {
        generic_lines(state)
    }

    fn grade_parts(
        &self,
        _item: &Item,
        mine: Option<&Review>,
        _g: Option<&ResponseGrades>,
        _model: Option<&str>,
        _column: bool,
    ) -> Vec<String> {
        verdict_parts(mine)
    }

    fn grading_hints(&self, state: &State, parts: &mut Vec<(String, String)>) {
        for a in [Action::Pass, Action::Fail, Action::Unsure] {
            act(state, parts, a);
        }
    }
}
