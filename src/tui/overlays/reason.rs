//! The reason menu of a C-VQA reject, and of a fix (which asks why once the fixed
//! question and answer are typed).

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::model::CvqaReason;
use crate::tui::app::State;
use crate::tui::overlays::Outcome;
use crate::tui::overlays::dialog::{centered, dialog_width};
use crate::tui::views::common::block;

pub(crate) fn draw_menu(
    state: &State,
    f: &mut Frame,
    area: Rect,
    selected: usize,
    (title, keys): (&str, &str),
) {
    let t = &state.theme;
    let r = centered(area, 50, 9, dialog_width(title, keys));
    f.render_widget(Clear, r);
    let lines: Vec<Line> = CvqaReason::ALL
        .iter()
        .enumerate()
        .map(|(k, reason)| {
            Line::from(Span::styled(
                format!(" {} {} ", k + 1, reason.name()),
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

/// A key in the reason menu: a digit or Enter picks the reason.
pub fn handle_key(selected: &mut usize, k: &KeyEvent) -> Outcome<CvqaReason> {
    let n = CvqaReason::ALL.len();
    match k.code {
        KeyCode::Esc => Outcome::Close,
        KeyCode::Down | KeyCode::Char('j') => {
            *selected = (*selected + 1) % n;
            Outcome::Stay
        }
        KeyCode::Up | KeyCode::Char('k') => {
            *selected = (*selected + n - 1) % n;
            Outcome::Stay
        }
        KeyCode::Enter => Outcome::Submit(CvqaReason::ALL[*selected]),
        KeyCode::Char(c @ '1'..='5') => Outcome::Submit(CvqaReason::ALL[c as usize - '1' as usize]),
        _ => Outcome::Stay,
    }
}
