//! The reason menu of a C-VQA reject, and of a fix (which asks why once the fixed
//! question and answer are typed).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::bench::cvqa::fields::CvqaReason;
use crate::tui::app::State;
use crate::tui::keymap::{Action, Context, Keymap};
use crate::tui::overlays::Outcome;
use crate::tui::overlays::dialog::{Place, dialog_width, placed};
use crate::tui::views::common::block;

pub(crate) fn draw_menu(
    state: &State,
    f: &mut Frame,
    area: Rect,
    selected: usize,
    ctx: Context,
    (title, keys): (&str, &str),
) {
    let t = &state.theme;
    // low, as the fix and the reject it belongs to: the question stays in view
    let r = placed(area, 50, 9, dialog_width(title, keys), Place::Low);
    f.render_widget(Clear, r);
    let lines: Vec<Line> = CvqaReason::ALL
        .iter()
        .enumerate()
        .map(|(k, reason)| {
            Line::from(Span::styled(
                format!(" {} {} ", reason_key(&state.keymap, ctx, k), reason.name()),
                if k == selected { t.selected } else { t.text },
            ))
        })
        .collect();
    f.render_widget(
        Paragraph::new(lines).block(
            block(t, Span::styled(format!(" {title} "), t.title))
                .title_bottom(Line::from(Span::styled(format!(" {keys} "), t.dim)).right_aligned()),
        ),
        r,
    );
}

/// The key of the reason in row `row` (from 0) of the menu `ctx`.
fn reason_key(km: &Keymap, ctx: Context, row: usize) -> String {
    let n = u8::try_from(row + 1).unwrap_or(u8::MAX);
    km.hint(ctx, super::REASON.nth(n))
}

/// The reasons' keys for the menu's hint: `1-5` when they run in order, else each.
pub(crate) fn reason_keys(km: &Keymap, ctx: Context) -> String {
    let keys: Vec<String> = (0..CvqaReason::ALL.len())
        .map(|row| reason_key(km, ctx, row))
        .collect();
    let chars: Vec<char> = keys
        .iter()
        .filter_map(|k| {
            let mut cs = k.chars();
            cs.next().filter(|_| cs.next().is_none())
        })
        .collect();
    let in_order = chars.len() == keys.len()
        && chars.len() > 2
        && chars
            .windows(2)
            .all(|w| u32::from(w[1]) == u32::from(w[0]) + 1);
    match (in_order, chars.first(), chars.last()) {
        (true, Some(a), Some(z)) => format!("{a}-{z}"),
        _ => keys.join(" "),
    }
}

/// The action of a key in a reason menu: a reason's key, or `submit` on the selected
/// one, picks the reason.
pub fn handle_key(selected: &mut usize, act: Option<Action>) -> Outcome<CvqaReason> {
    let n = CvqaReason::ALL.len();
    match act {
        Some(Action::Cancel) => Outcome::Close,
        Some(Action::SelectNext) => {
            *selected = (*selected + 1) % n;
            Outcome::Stay
        }
        Some(Action::SelectPrev) => {
            *selected = (*selected + n - 1) % n;
            Outcome::Stay
        }
        Some(Action::Submit) => Outcome::Submit(CvqaReason::ALL[*selected]),
        Some(Action::Verb(v)) if v.is(&super::REASON) => {
            match CvqaReason::ALL.get(usize::from(v.n).wrapping_sub(1)) {
                Some(&reason) => Outcome::Submit(reason),
                None => Outcome::Stay,
            }
        }
        _ => Outcome::Stay,
    }
}
