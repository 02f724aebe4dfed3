//! The screen of an unknown benchmark: the item's JSON, graded pass / fail / unsure.

use ratatui::text::Line;
use serde_json::Value;

use crate::bench::{Item, ResponseGrades, Review};
use crate::tui::app::State;
use crate::tui::keymap::Action;
use crate::tui::text::{one_line, truncate};
use crate::tui::views::View;
use crate::tui::views::common::{heading, text_lines};
use crate::tui::views::model_line::NOT_GRADED;
use crate::tui::views::status::act;

pub(crate) fn generic_lines(state: &State, raw: &str) -> Vec<Line<'static>> {
    let t = &state.theme;
    let pretty = serde_json::from_str::<Value>(raw)
        .ok()
        // JSON's own escapes for unsafe characters, as everywhere JSON is shown
        .and_then(|v| crate::sanitize::json_pretty(&v).ok())
        .unwrap_or_else(|| raw.to_string());
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
    out.extend(text_lines(&truncate(&pretty, 50_000), t.text));
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

    fn item_lines(&self, state: &State, _item: &Item, _width: u16) -> Vec<Line<'static>> {
        generic_lines(state, &state.raw_shown())
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
