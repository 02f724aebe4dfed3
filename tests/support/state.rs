//! The reviewer's state for the screen tests (`#[path = "support/state.rs"] mod state;`):
//! as reviewer carol, mono theme, a fixed clock, with the index delivered.
#![allow(dead_code)]

use std::time::Instant;

use verdict::store::Store;
use verdict::tui::app::{Clock, Msg, State};
use verdict::tui::facts;
use verdict::tui::keymap::Keymap;
use verdict::tui::theme::ThemeName;

/// Now, and 2026-11-22 10:00 UTC for what is written into reviews.
pub fn clock() -> Clock {
    Clock {
        instant: Instant::now(),
        utc: time::macros::datetime!(2026-11-22 10:00:00 UTC),
    }
}

/// The state on `store` with `keymap`, at 80×24, its index delivered.
pub fn indexed_state(store: Store, keymap: Keymap) -> State {
    let meta = facts::index(&store, 2);
    let mut s = State::new(store, "carol".into(), keymap, ThemeName::Mono, clock());
    s.update(Msg::Indexed {
        generation: 0,
        meta: meta.into(),
    });
    s.size = (80, 24);
    s
}

/// Start `s` as the reviewer does (`State::begin`) with what an earlier session left and
/// where to start, and answer its lookups as the locate thread does (with the index the
/// state has, else in their places): the effects of both.
pub fn begin_found(
    s: &mut State,
    session: verdict::tui::config::Session,
    start: Option<verdict::tui::locate::Start>,
) -> Vec<verdict::tui::app::Effect> {
    let mut fx = s.begin(session, start);
    let more = answer_lookups(s, &fx);
    fx.extend(more);
    fx
}

/// Answer every `Effect::Locate` of `fx` as the locate thread does (none without the
/// index when an item must be found by id): the effects of the answers.
pub fn answer_lookups(
    s: &mut State,
    fx: &[verdict::tui::app::Effect],
) -> Vec<verdict::tui::app::Effect> {
    use verdict::tui::locate;
    let asks: Vec<_> = fx
        .iter()
        .filter_map(|e| match e {
            verdict::tui::app::Effect::Locate { seq, wanted, meta } => {
                Some((*seq, wanted.clone(), meta.clone()))
            }
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for (seq, wanted, meta) in asks {
        let located = match meta {
            Some(m) => locate::with_index(&s.store, &m, &wanted, &s.reviewer),
            None => match locate::in_places(&s.store, &wanted, &s.reviewer) {
                Some(l) => l,
                None => continue,
            },
        };
        out.extend(s.update(Msg::Located { seq, located }));
    }
    out
}

/// The file read again after another program changed it (`Msg::Reloaded`), taken up as
/// the loop does once the remap thread answers (`Effect::Remap`, answered here at once by
/// `Msg::Remapped`): the effects of both.
pub fn reloaded(s: &mut State, store: Store) -> Vec<verdict::tui::app::Effect> {
    let mut fx = s.update(Msg::Reloaded(store));
    let more = answer_remaps(s, &fx);
    fx.extend(more);
    fx
}

/// Answer every `Effect::Remap` of `fx` as the remap thread does: the effects of the
/// answers.
pub fn answer_remaps(
    s: &mut State,
    fx: &[verdict::tui::app::Effect],
) -> Vec<verdict::tui::app::Effect> {
    let mut out = Vec::new();
    for e in fx {
        if let verdict::tui::app::Effect::Remap { seq, job } = e {
            let moves = Box::new(verdict::tui::remap::Moves::work_out(job));
            out.extend(s.update(Msg::Remapped { seq: *seq, moves }));
        }
    }
    out
}

/// The key of the open filter menu's row whose label holds `label`, read from the screen
/// at 200×50 (where the key is drawn beside the row, from the live keymap).
pub fn filter_row_key(s: &State, label: &str) -> char {
    let out = verdict::tui::draw::render_to_string(s, 200, 50);
    let line = out
        .lines()
        .find(|l| l.contains(label))
        .unwrap_or_else(|| panic!("no row {label}:\n{out}"));
    // the row's box is the last before the label (the item beside the menu may have
    // boxes of its own on the same line)
    let before = &line[..line.find(label).unwrap()];
    let at = before.rfind("[ ]").or_else(|| before.rfind("[x]")).unwrap();
    before[..at].trim_end().chars().last().unwrap()
}
