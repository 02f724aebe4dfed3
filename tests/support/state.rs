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
