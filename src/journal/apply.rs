//! Which item of a store a journal record is about, and whether its review applies there:
//! the rules a replay and a live session's verdict both follow.

use crate::store::{ReviewEdit, Store};

use super::Record;

fn item_id(store: &Store, i: usize) -> Option<String> {
    store.item(i).ok().and_then(|it| it.id)
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
            Ok(v) => crate::check::review_errors(&v, &r.reviewer, review, store.path()),
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

/// Find the item a record is about: its index if the id still matches, else by id.
pub fn locate(store: &Store, r: &Record) -> Option<usize> {
    Locator::default().locate(store, r)
}

/// [`locate`] for many records on one store: the first record whose item moved reads
/// every item's id once, and the others look theirs up (a replay onto a file another
/// program changed would otherwise read the whole file once per record).
#[derive(Default)]
pub struct Locator {
    /// The first item with each id, once needed. The store's items keep their ids and
    /// places while a replay applies reviews to it.
    first: Option<std::collections::HashMap<String, usize>>,
}

impl Locator {
    pub fn locate(&mut self, store: &Store, r: &Record) -> Option<usize> {
        if r.item < store.len() && item_id(store, r.item) == r.id {
            return Some(r.item);
        }
        let id = r.id.as_ref()?;
        let first = self.first.get_or_insert_with(|| {
            let mut m = std::collections::HashMap::new();
            for i in 0..store.len() {
                if let Some(id) = item_id(store, i) {
                    m.entry(id).or_insert(i);
                }
            }
            m
        });
        first.get(id).copied()
    }
}
