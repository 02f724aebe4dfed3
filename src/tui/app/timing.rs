//! Time: the seconds on the current item (written into my review) and the session's
//! pace (items finished per minute).

use std::collections::BTreeSet;
use std::time::Instant;

/// When I arrived on the current item and the seconds already on my review of it; the
/// items I finished this session and when it started, for the pace.
#[derive(Debug, Clone)]
pub struct Timing {
    /// When I arrived on the current item.
    pub arrived: Instant,
    /// The seconds already on my review of the current item.
    pub seconds_base: f64,
    /// The items I finished this session (`review::item_done`), for the pace.
    pub finished: BTreeSet<usize>,
    /// When the session started.
    pub started: Instant,
    /// The seconds counted on the current item since arriving, up to `last`: each
    /// stretch without a key counts at most [`IDLE_CAP`].
    pub active: f64,
    /// The last key or click on the current item (or the arrival).
    pub last: Instant,
}

/// The longest stretch without a key that counts as time on an item (docs/format.md,
/// `seconds`): a coffee break is not review time.
pub const IDLE_CAP: f64 = 120.0;

impl Timing {
    /// A key or click at `now`: the stretch since the last one counts, at most
    /// [`IDLE_CAP`].
    pub fn input(&mut self, now: Instant) {
        let gap = now.saturating_duration_since(self.last).as_secs_f64();
        self.active += gap.min(IDLE_CAP);
        self.last = now;
    }

    /// Arrived on an item at `now`, with `base` seconds already on my review of it.
    pub fn arrive(&mut self, now: Instant, base: f64) {
        self.arrived = now;
        self.last = now;
        self.active = 0.0;
        self.seconds_base = base;
    }

    /// The seconds on the current item: those of earlier visits and of this one.
    pub fn on_item(&self) -> f64 {
        self.seconds_base + self.active
    }
}

impl Timing {
    /// A session starting `now`.
    pub fn new(now: Instant) -> Timing {
        Timing {
            arrived: now,
            seconds_base: 0.0,
            finished: BTreeSet::new(),
            started: now,
            active: 0.0,
            last: now,
        }
    }
}
