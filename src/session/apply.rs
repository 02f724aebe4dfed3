//! Which item of a store a journal record is about, and whether its review applies there:
//! the rules a replay and a live session's verdict both follow.

use crate::bench::Items;
use crate::store::{ReviewEdit, Store};

use crate::journal::Record;

fn item_id(store: &Store, i: usize) -> Option<String> {
    store.item(i).ok().and_then(|it| it.into_fields().id)
}

/// Why a verdict is not applied to an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The review breaks the format's rules for the item (`check::review_errors`).
    Invalid(String),
    /// The store cannot splice it into the item (e.g. duplicate `reviews` keys).
    Unappliable(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Invalid(w) | Refusal::Unappliable(w) => f.write_str(w),
        }
    }
}

/// Everything that decides whether record `r` applies to item `i`, without changing the
/// store: the same rules at replay and when a session records a verdict, so a verdict
/// is written to a journal only if the next open would apply it.
pub fn prepare(store: &Store, i: usize, r: &Record) -> Result<ReviewEdit, Refusal> {
    if let Some(review) = &r.review {
        let errors = match store.value(i) {
            Ok(v) => {
                crate::bench::check::review_errors(&v, &r.reviewer, review, store.naming_path())
            }
            Err(e) => vec![e.to_string()],
        };
        if !errors.is_empty() {
            return Err(Refusal::Invalid(errors.join("; ")));
        }
    }
    store
        .prepare_review(i, &r.reviewer, r.review.as_ref())
        .map_err(|e| Refusal::Unappliable(e.to_string()))
}

/// Does a verdict on item `i` need what the item is (its [`content_key`]) to be found
/// again after lines were added or removed before it: an item without an id, or one
/// whose id another item shares (`id_shared`: as the reviewer's index knows it; `None`,
/// not known yet, counts as shared).
pub fn needs_key(id: Option<&str>, id_shared: impl FnOnce(&str) -> Option<bool>) -> bool {
    id.is_none_or(|id| id_shared(id).unwrap_or(true))
}

/// What an item without an id is, for finding it again after lines were added or removed
/// before it: a hash (FNV-1a, 64 bits, hex) of its JSON without `reviews`, so that
/// verdicts given or taken back do not change it. `None` when the item cannot be read.
pub fn content_key(store: &Store, i: usize) -> Option<String> {
    content_key_of(store.raw(i).ok()?)
}

/// [`content_key`] of an item's text (`Store::raw`): worked out by the reviewer's IO
/// worker from the text the screen hands it (a parse and a write of the whole item: a
/// long one takes hundreds of milliseconds). `None` when it is not a JSON object.
pub fn content_key_of(text: &str) -> Option<String> {
    let mut v: serde_json::Value = serde_json::from_str(text).ok()?;
    let serde_json::Value::Object(m) = &mut v else {
        return None;
    };
    m.shift_remove("reviews");
    let text = serde_json::to_string(&v).ok()?;
    Some(format!("{:016x}", crate::hash::fnv1a64(text.as_bytes())))
}

/// Why the item of a record cannot be found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Missing {
    /// No item of the file has its id (or, without one, its content).
    Gone,
    /// The item has no id, is not at its place any more, and this many items of the file
    /// are alike in everything but their reviews: which one was graded cannot be told.
    Ambiguous(usize),
    /// The item is not at its place any more, and this many items of the file have its
    /// id, none of them (or several) with the content graded: which one was graded
    /// cannot be told.
    SharedId(usize),
}

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Missing::Gone => f.write_str("is no longer in the file"),
            Missing::Ambiguous(n) => write!(
                f,
                "has no id, has moved, and {n} items alike in everything but their reviews \
                 could be it: not applied"
            ),
            Missing::SharedId(n) => write!(
                f,
                "has moved, and {n} items share its id: which one was graded cannot be told \
                 (not applied)"
            ),
        }
    }
}

/// Find the item a record is about: its index if the id (and the content, when the
/// record has it) still matches, else by id; among items sharing the id, by content.
pub fn locate(store: &Store, r: &Record) -> Result<usize, Missing> {
    Locator::default().locate(store, r)
}

/// [`locate`] for many records on one store: the first record whose item moved reads
/// every item's id once, and the others look theirs up (a replay onto a file another
/// program changed would otherwise read the whole file once per record). Items without
/// an id are found by their content (`content_key`) when the record has it, and so are
/// items whose id others share (the session records their content: [`needs_key`]).
#[derive(Default)]
pub struct Locator {
    /// The first item with each id, once needed. The store's items keep their ids and
    /// places while a replay applies reviews to it.
    first: Option<std::collections::HashMap<String, usize>>,
    /// Every item of each id that more than one item has, in order, with `first`.
    shared: std::collections::HashMap<String, Vec<usize>>,
    /// The items without id by content key, once needed (reviews do not change a key).
    by_key: Option<std::collections::HashMap<String, Vec<usize>>>,
}

impl Locator {
    /// The items of `store` without id by content key: read once (every such item), then
    /// kept. A caller that will locate items without id where reading them must not
    /// happen (the reviewer's screen) reads them beforehand, where it may.
    pub fn contents(&mut self, store: &Store) -> &std::collections::HashMap<String, Vec<usize>> {
        self.by_key.get_or_insert_with(|| {
            let mut m: std::collections::HashMap<String, Vec<usize>> =
                std::collections::HashMap::new();
            for i in 0..store.len() {
                if item_id(store, i).is_none()
                    && let Some(k) = content_key(store, i)
                {
                    m.entry(k).or_default().push(i);
                }
            }
            m
        })
    }

    /// [`Locator::contents`] from the items of `store` without an id, `without` (in the
    /// store's order; from an index of it, so that no item is read for its id), their
    /// keys worked out on up to `threads` threads.
    pub fn contents_of(&mut self, store: &Store, without: &[usize], threads: usize) {
        let keys =
            crate::par::map_indices(without.len(), threads.clamp(1, 8), "content keys", |k| {
                let i = without[k];
                content_key(store, i).map(|key| (i, key))
            });
        let mut m: std::collections::HashMap<String, Vec<usize>> = std::collections::HashMap::new();
        for (i, k) in keys.into_iter().flatten() {
            m.entry(k).or_default().push(i);
        }
        self.by_key = Some(m);
    }

    /// The first item with each id, from every item's id in the store's order (as
    /// `item(i)` reads it: read here, or taken from the reviewer's index of the store),
    /// then kept: a caller that must not read the file where it will locate items gives
    /// them beforehand, as with [`Locator::contents`]. Says whether some item has no id.
    pub fn ids<S: Into<String>>(&mut self, ids: impl Iterator<Item = Option<S>>) -> bool {
        use std::collections::hash_map::Entry;
        let mut without_id = false;
        let mut m = std::collections::HashMap::new();
        let mut shared: std::collections::HashMap<String, Vec<usize>> =
            std::collections::HashMap::new();
        for (i, id) in ids.enumerate() {
            match id {
                Some(id) => match m.entry(id.into()) {
                    Entry::Vacant(v) => {
                        v.insert(i);
                    }
                    Entry::Occupied(o) => shared
                        .entry(o.key().clone())
                        .or_insert_with(|| vec![*o.get()])
                        .push(i),
                },
                None => without_id = true,
            }
        }
        self.first = Some(m);
        self.shared = shared;
        without_id
    }

    pub fn locate(&mut self, store: &Store, r: &Record) -> Result<usize, Missing> {
        // (`has` waits for a scan still running to reach the item, not for all of them.)
        if store.has(r.item) && item_id(store, r.item) == r.id {
            // An item without an id, or one whose id another shared when it was graded,
            // is the one at that place only if its content is the one graded (records
            // of earlier versions have no key: by place).
            if r.key.is_none() || content_key(store, r.item) == r.key {
                return Ok(r.item);
            }
        }
        if let Some(id) = &r.id {
            if self.first.is_none() {
                self.ids((0..store.len()).map(|i| item_id(store, i)));
            }
            let first = self.first.as_ref().expect("read just now");
            let Some(several) = self.shared.get(id) else {
                return first.get(id).copied().ok_or(Missing::Gone);
            };
            // Several items have the id: the one with the content graded, if one has.
            let key = r.key.as_ref().ok_or(Missing::SharedId(several.len()))?;
            let mut alike = several
                .iter()
                .filter(|&&i| content_key(store, i).as_ref() == Some(key));
            return match (alike.next(), alike.next()) {
                (Some(&i), None) => Ok(i),
                _ => Err(Missing::SharedId(several.len())),
            };
        }
        let key = r.key.as_ref().ok_or(Missing::Gone)?;
        match self.contents(store).get(key).map(Vec::as_slice) {
            Some([i]) => Ok(*i),
            Some(several) => Err(Missing::Ambiguous(several.len())),
            None => Err(Missing::Gone),
        }
    }
}
