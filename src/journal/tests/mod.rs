use super::*;
use crate::bench::Items;
use crate::session::*;
use crate::store::Store;
use serde_json::json;

use crate::test_support::run_child;

fn rec(item: usize, id: &str, who: &str, review: Value) -> Record {
    Record {
        item,
        id: Some(id.into()),
        reviewer: who.into(),
        review: Some(review),
        key: None,
    }
}

mod names;
mod replay;
mod torn;
