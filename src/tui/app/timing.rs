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
}

impl Timing {
    /// A session starting `now`.
    pub fn new(now: Instant) -> Timing {
        Timing {
            arrived: now,
            seconds_base: 0.0,
            finished: BTreeSet::new(),
            started: now,
        }
    }
}
