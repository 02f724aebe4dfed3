//! What an earlier session left (its skipped items, its undo history, its position) and
//! the item `--at` asks for, found again in the file off the screen's thread
//! (`threads::spawn_locate`): the first frame never waits for it (docs/architecture.md,
//! "the UI thread never waits on a file"). The answer comes to `update` as
//! `Msg::Located`, which restores it (`app/restore.rs`).
//!
//! An item is found by its index when the item there still has the id it was saved
//! with, else by its id: the first item with it. An item saved without an id is found only
//! at its index. Finding one by id needs every item's id: this reads no item for it, but
//! asks the filter index (`facts::Index`), which reads every id anyway; before the index
//! is there only the items in their places are looked at ([`in_place`]).

use std::collections::HashMap;

use crate::bench::{Benchmark, Items, Review};
use crate::store::Store;
use crate::tui::config::{ItemRef, Position};
use crate::tui::facts::Index;

/// Where the reviewer starts.
#[derive(Debug, Clone, PartialEq)]
pub enum Start {
    /// Where the last session left off.
    Saved(Position),
    /// `--at`: an item number (1-based) or an id.
    At(String),
}

/// What to find: the saved session's items and where to start.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Wanted {
    pub skipped: Vec<ItemRef>,
    /// The items of the saved undo history, oldest first (as saved).
    pub undo: Vec<ItemRef>,
    /// Where to start, when it is not known yet.
    pub start: Option<Start>,
}

/// Where the wanted items are in the store (`None`: not in the file).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Located {
    pub skipped: Vec<Option<usize>>,
    pub undo: Vec<Option<usize>>,
    /// My review (`reviewer`'s) of each undo item found, in the store as opened: what the
    /// saved history must end at to be restored (read here, not on the screen's thread).
    pub reviews: HashMap<usize, Option<Review>>,
    /// The benchmark of each undo item found: what its file keeps of a review
    /// (`bench::kept_review`) is what the history is compared with.
    pub kinds: HashMap<usize, Benchmark>,
    /// Where to start: for a saved position, its item, or when it is gone the item at its
    /// index (the last one if the file is shorter); for `--at`, its item (`None`: none).
    pub start: Option<usize>,
}

/// One item looked for.
enum Look {
    At(usize),
    Gone,
    /// Not in its place: its id must be looked up.
    ById(String),
}

/// `r` in its place: the item at its index has its id (waits for the scan to reach it).
fn in_place(store: &Store, r: &ItemRef) -> Look {
    if store.has(r.index) && store.item(r.index).ok().and_then(|it| it.into_fields().id) == r.id {
        return Look::At(r.index);
    }
    match &r.id {
        Some(id) => Look::ById(id.clone()),
        None => Look::Gone,
    }
}

/// `r` in its place, asking the index (no item read).
fn in_place_indexed(meta: &Index, r: &ItemRef) -> Look {
    if r.index < meta.len() && meta.item_id(r.index) == r.id.as_deref() {
        return Look::At(r.index);
    }
    match &r.id {
        Some(id) => Look::ById(id.clone()),
        None => Look::Gone,
    }
}

/// The first item of each of `ids`, in one pass over the index's ids that stops when
/// every one is found.
fn first_of(meta: &Index, ids: &[&str]) -> HashMap<String, usize> {
    let mut want: HashMap<&str, Option<usize>> = ids.iter().map(|&id| (id, None)).collect();
    let mut left = want.len();
    for i in 0..meta.len() {
        if left == 0 {
            break;
        }
        if let Some(slot) = meta.item_id(i).and_then(|id| want.get_mut(id))
            && slot.is_none()
        {
            *slot = Some(i);
            left -= 1;
        }
    }
    want.into_iter()
        .filter_map(|(id, i)| Some((id.to_string(), i?)))
        .collect()
}

/// Find everything `w` asks for: `place` says where an item is by its index, and `ids`
/// finds the rest by id (`None`: not yet, without the index).
fn find(
    store: &Store,
    w: &Wanted,
    reviewer: &str,
    place: &dyn Fn(&ItemRef) -> Look,
    ids: Option<&Index>,
) -> Option<Located> {
    let looks = |refs: &[ItemRef]| refs.iter().map(place).collect::<Vec<_>>();
    let skipped = looks(&w.skipped);
    let undo = looks(&w.undo);
    // (the position is worked out as a look too, with its fallback beside it)
    let (start_look, fallback) = match &w.start {
        None => (None, None),
        Some(Start::Saved(p)) => {
            let look = match &p.id {
                // Without an id: its index, whatever is there (as before).
                None => Look::At(p.index),
                Some(_) => place(&ItemRef {
                    index: p.index,
                    id: p.id.clone(),
                }),
            };
            (Some(look), Some(p.index))
        }
        Some(Start::At(s)) => {
            let look = match s.parse::<usize>() {
                Ok(n) if n >= 1 && store.has(n - 1) => Look::At(n - 1),
                _ => Look::ById(s.clone()),
            };
            (Some(look), None)
        }
    };
    let by_id: Vec<&str> = skipped
        .iter()
        .chain(&undo)
        .chain(&start_look)
        .filter_map(|l| match l {
            Look::ById(id) => Some(id.as_str()),
            _ => None,
        })
        .collect();
    let first = match (by_id.is_empty(), ids) {
        (true, _) => HashMap::new(),
        (false, None) => return None,
        (false, Some(meta)) => first_of(meta, &by_id),
    };
    let to_index = |l: &Look| match l {
        Look::At(i) => Some(*i),
        Look::Gone => None,
        Look::ById(id) => first.get(id).copied(),
    };
    // (`has` waits for the scan to reach the item, `len` for the whole scan: on this
    // thread, never the screen's)
    let start = start_look.as_ref().and_then(|l| {
        to_index(l)
            .filter(|&i| store.has(i))
            .or_else(|| fallback.map(|i| i.min(store.len().saturating_sub(1))))
    });
    let undo: Vec<Option<usize>> = undo.iter().map(to_index).collect();
    let mut kinds = HashMap::new();
    let reviews = undo
        .iter()
        .flatten()
        .map(|&i| {
            let it = store.item(i).ok();
            if let Some(it) = &it {
                kinds.insert(i, it.benchmark());
            }
            (i, it.and_then(|it| it.reviews.get(reviewer).cloned()))
        })
        .collect();
    Some(Located {
        skipped: skipped.iter().map(to_index).collect(),
        undo,
        reviews,
        kinds,
        start,
    })
}

/// Everything `w` asks for, when it is all in its place (or gone without an id): reads the
/// items at the saved indices only, waiting for the file's scan to reach them. `None` when
/// an item must be found by its id: [`with_index`] does that.
pub fn in_places(store: &Store, w: &Wanted, reviewer: &str) -> Option<Located> {
    find(store, w, reviewer, &|r| in_place(store, r), None)
}

/// Everything `w` asks for, with the filter index of `store` (`meta`) for the items found
/// by id.
pub fn with_index(store: &Store, meta: &Index, w: &Wanted, reviewer: &str) -> Located {
    find(
        store,
        w,
        reviewer,
        &|r| in_place_indexed(meta, r),
        Some(meta),
    )
    .expect("every id can be looked up in the index")
}

#[cfg(test)]
mod tests;
