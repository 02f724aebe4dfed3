//! What the screen asks of the state: items, reviews as blind mode reveals them, progress, pace.

use crate::bench::Items;
use serde_json::Value;

use crate::bench::{Item, Review};
use crate::review;
use crate::tui::facts::Kind;
use crate::tui::keymap::Context;

use super::*;

impl State {
    /// The items found so far: every item while the file is being read (a large file's
    /// scan goes on in the background), as the loop last said (`Msg::Found`).
    pub fn len(&self) -> usize {
        self.found.items
    }

    /// Is the file still being read (more items may follow the ones found so far)?
    pub fn still_reading(&self) -> bool {
        !self.found.all
    }

    /// What the screen says while the file is being read: the items found so far.
    pub(crate) fn reading_notice(&self) -> String {
        format!("still reading the file: {} items so far", self.len())
    }

    pub fn is_empty(&self) -> bool {
        self.store.is_empty()
    }

    /// Drop the item's panes kept between frames (`tui::laid`): the next frame lays the
    /// item out anew. For tests and benches that compare the two; the screen never needs it.
    pub fn forget_layout(&self) {
        self.laid.forget();
    }

    pub fn item(&self) -> Option<&Item> {
        self.current.as_ref().and_then(|c| c.item.as_deref().ok())
    }

    /// The keymap's context of the current item: its benchmark view's.
    pub fn context(&self) -> Context {
        crate::tui::views::current(self).context()
    }

    pub fn display_id(&self, i: usize) -> String {
        if let Some(m) = self.meta.as_ref().filter(|m| i < m.len()) {
            return m.id(i).to_string();
        }
        // The item on screen is parsed already: its id, or none (an lm-eval sample has
        // none), without reading its line again (issue 21: a 20 MB line, twice a frame
        // until the index is ready).
        if let Some(c) = self.current.as_ref().filter(|c| c.index == i)
            && let Ok(item) = c.item.as_deref()
        {
            return item.id.clone().unwrap_or_else(|| self.store.fallback_id(i));
        }
        self.store
            .item(i)
            .ok()
            .and_then(|it| it.into_fields().id)
            .unwrap_or_else(|| self.store.fallback_id(i))
    }

    /// A folder's set: the same sample in each model's or run's file, this item among
    /// them, in the set's order (none until the index is built, or outside a set).
    pub fn twin_rows(&self) -> Vec<TwinRow> {
        let Some(m) = &self.meta else {
            return Vec::new();
        };
        m.twins_of(self.pos)
            .iter()
            .filter_map(|&j| {
                let j = j as usize;
                let item = if j == self.pos {
                    self.item().cloned()?
                } else {
                    self.store.item(j).ok()?
                };
                let model = item.responses.first().map(|r| r.model.clone());
                Some(TwinRow {
                    index: j,
                    label: item.part.as_ref().map(|p| {
                        [p.model.as_deref().unwrap_or(""), &p.run]
                            .into_iter()
                            .filter(|s| !s.is_empty())
                            .collect::<Vec<_>>()
                            .join(" · ")
                    }),
                    answer: item
                        .responses
                        .first()
                        .and_then(|r| r.text.clone())
                        .unwrap_or_default(),
                    wrong: model.map(|m| crate::bench::model_wrong(&item, &m)),
                    mine: self.my_review(j),
                    item,
                })
            })
            .collect()
    }

    /// My review of item `i` as it stands now (this session's change, else the file's).
    pub fn my_review(&self, i: usize) -> Option<Review> {
        if i >= self.len() {
            return None;
        }
        if let Some(r) = self.rec.mine.get(&i) {
            return r.clone();
        }
        if let Some(c) = self.current.as_ref().filter(|c| c.index == i) {
            return c
                .item
                .as_ref()
                .ok()
                .and_then(|it| it.reviews.get(&self.reviewer).cloned());
        }
        self.store
            .item(i)
            .ok()
            .and_then(|it| it.reviews.get(&self.reviewer).cloned())
    }

    /// All reviews of the current item, with mine as it stands now. In blind mode, others'
    /// reviews show only what I have graded myself, once the journal has it: the grades of
    /// the models I am done with, and everything once I am done with the item.
    pub fn reviews(&self) -> Vec<(String, Review)> {
        let Some(it) = self.item() else { return vec![] };
        let mine = self.my_review(self.pos);
        let item_open = self.reveal_item();
        let n = it.responses.len();
        let open_models: Vec<bool> = it
            .responses
            .iter()
            .map(|r| self.reveal_model(&r.model))
            .collect();
        let mut out: Vec<(String, Review)> = it
            .reviews
            .iter()
            .filter(|(name, _)| **name != self.reviewer)
            .filter_map(|(name, r)| {
                if item_open {
                    return Some((name.clone(), r.clone()));
                }
                let mut shown = Review {
                    at: r.at.clone(),
                    ..Review::default()
                };
                for (k, resp) in it.responses.iter().enumerate() {
                    if open_models[k]
                        && let Some(g) = r.for_model(&resp.model, n)
                    {
                        if r.models.contains_key(&resp.model) {
                            shown.models.insert(resp.model.clone(), g.clone());
                        } else {
                            shown.grades = g.clone();
                        }
                    }
                }
                shown.has_content().then(|| (name.clone(), shown))
            })
            .collect();
        if let Some(m) = mine {
            out.insert(0, (self.reviewer.clone(), m));
        }
        out
    }

    /// My review of item `i` as the journal has acknowledged it (before any write still
    /// under way).
    pub(crate) fn acknowledged_review(&self, i: usize) -> Option<Review> {
        match self
            .rec
            .pending
            .iter()
            .filter(|(_, (item, _))| *item == i)
            .min_by_key(|(seq, _)| **seq)
        {
            Some((_, (_, before))) => before.clone(),
            None => self.my_review(i),
        }
    }

    /// Blind mode: may others' verdicts on the whole item (notes, item-level verdicts)
    /// be shown? Only once my own verdict on the item is done and recorded.
    pub fn reveal_item(&self) -> bool {
        if !self.blind {
            return true;
        }
        let Some(it) = self.item() else { return false };
        review::item_done(it, self.acknowledged_review(self.pos).as_ref())
    }

    /// Blind mode: may the judge's and others' grades of `model`'s response be shown?
    /// Only once my grades of that response are done and recorded.
    pub fn reveal_model(&self, model: &str) -> bool {
        if !self.blind {
            return true;
        }
        let Some(it) = self.item() else { return false };
        let Some(k) = it.responses.iter().position(|r| r.model == model) else {
            return false;
        };
        review::models_done(it, self.acknowledged_review(self.pos).as_ref())[k]
    }

    /// Whether others' verdicts and the judge are hidden for the selected response (for
    /// the item, when it has no response).
    pub fn hiding_others(&self) -> bool {
        match self.model_name() {
            Some(m) => !self.reveal_model(&m),
            None => !self.reveal_item(),
        }
    }

    /// The current item's JSON as the generic view shows it: with my review as this
    /// session has it (recorded since the file was read, or removed), and in blind mode,
    /// until I am done with the item, without the other reviewers' reviews.
    ///
    /// Ok: the JSON, its strings cut to what the view shows of them (`Current::json`);
    /// Err: the line's text, when it is not JSON (nothing in blind mode). Its work does
    /// not grow with the line's strings: a verdict on an item of megabytes copies none
    /// of them (issue 21).
    pub fn json_shown(&self) -> Result<Value, String> {
        let Some(c) = &self.current else {
            return Err(String::new());
        };
        let reveal = self.reveal_item();
        let hidden = || if reveal { c.raw.clone() } else { String::new() };
        let Some(json) = &c.json else {
            return Err(hidden());
        };
        let mine = self.rec.mine.get(&c.index);
        if reveal && mine.is_none() {
            return Ok(json.clone());
        }
        let mut v = json.clone();
        let Some(obj) = v.as_object_mut() else {
            return if reveal { Ok(v) } else { Err(String::new()) };
        };
        if let Some(r) = mine {
            match r {
                Some(r) => {
                    if !obj.get("reviews").is_some_and(Value::is_object) {
                        obj.insert("reviews".into(), Value::Object(Default::default()));
                    }
                    if let Some(reviews) = obj.get_mut("reviews").and_then(Value::as_object_mut) {
                        reviews.insert(self.reviewer.clone(), review_value(r));
                    }
                }
                None => {
                    // As the file will have it: a `reviews` emptied by this is removed.
                    if let Some(reviews) = obj.get_mut("reviews").and_then(Value::as_object_mut)
                        && reviews.shift_remove(&self.reviewer).is_some()
                        && reviews.is_empty()
                    {
                        obj.shift_remove("reviews");
                    }
                }
            }
        }
        if !reveal && let Some(reviews) = obj.get_mut("reviews").and_then(Value::as_object_mut) {
            reviews.retain(|name, _| *name == self.reviewer);
        }
        Ok(v)
    }

    /// [`State::json_shown`] as text.
    pub fn raw_shown(&self) -> String {
        match self.json_shown() {
            Ok(v) => v.to_string(),
            Err(text) => text,
        }
    }

    /// Per response of the current item: are my required grades of it given?
    pub fn models_done(&self) -> Vec<bool> {
        match self.item() {
            Some(it) => review::models_done(it, self.my_review(self.pos).as_ref()),
            None => vec![],
        }
    }

    pub fn is_pending(&self, i: usize) -> bool {
        self.rec.pending.values().any(|(item, _)| *item == i)
    }

    /// Am I done with item `i`: every required grade given (`review::item_done`)?
    pub fn graded_by_me(&self, i: usize) -> bool {
        if let Some(&d) = self.rec.mine_done.get(&i) {
            return d;
        }
        match &self.meta {
            Some(m) => m.has(i, Kind::Done, &self.reviewer),
            None => self
                .store
                .item(i)
                .ok()
                .is_some_and(|it| review::item_done(&it, it.reviews.get(&self.reviewer))),
        }
    }

    /// Does item `i` need no grade (`review::no_grade`): no work to do?
    pub fn needs_no_grade(&self, i: usize) -> bool {
        match &self.meta {
            Some(m) if i < m.len() => m.no_grade().get(i),
            _ => self
                .store
                .item(i)
                .is_ok_and(|it| review::no_grade(&it).is_some()),
        }
    }

    /// Is some reviewer (me included) done with item `i`?
    pub fn graded_by_anyone(&self, i: usize) -> bool {
        if self.rec.mine_done.get(&i) == Some(&true) {
            return true;
        }
        match &self.meta {
            Some(m) => m.names(Kind::Done).any(|r| {
                (r != self.reviewer || !self.rec.mine_done.contains_key(&i))
                    && m.has(i, Kind::Done, r)
            }),
            None => false,
        }
    }

    /// (graded by me, graded by anyone, total to grade); None for "anyone" until the index
    /// is ready, and the total counts the items that need no grade until then.
    /// The file's counts are taken once from the index; this session's verdicts adjust
    /// them, so a redraw costs O(verdicts this session), not O(items).
    pub fn progress(&self) -> (usize, Option<usize>, usize) {
        let n = self.len();
        let Some(meta) = &self.meta else {
            return (self.rec.mine_done.values().filter(|d| **d).count(), None, n);
        };
        let (mut me, mut any) = self.base_progress;
        // (items that need no grade are no work to do)
        let n = n - meta.no_grade().count().min(n);
        // The index's sets, looked up once per call (not per verdict).
        let mine = meta.facet(Kind::Done, &self.reviewer);
        let others: Vec<&crate::tui::facts::BitSet> = meta
            .names(Kind::Done)
            .filter(|x| *x != self.reviewer)
            .filter_map(|x| meta.facet(Kind::Done, x))
            .collect();
        for (&i, &done) in &self.rec.mine_done {
            let had_me = mine.is_some_and(|b| b.get(i));
            let others = others.iter().any(|b| b.get(i));
            me = me - usize::from(had_me) + usize::from(done);
            any = any - usize::from(had_me || others) + usize::from(others || done);
        }
        (me, Some(any), n)
    }

    /// Items finished (`review::item_done`) per minute over this session, and the minutes
    /// left at that pace for the items I have not finished.
    pub fn pace(&self) -> Option<(f64, Option<f64>)> {
        let n = self.timing.finished.len();
        if n < 2 {
            return None;
        }
        let span = self
            .clock
            .instant
            .duration_since(self.timing.started)
            .as_secs_f64()
            .max(1.0);
        let per_min = n as f64 / span * 60.0;
        let (me, _, total) = self.progress();
        let left = total.saturating_sub(me) as f64;
        Some((
            per_min,
            if per_min > 0.0 {
                Some(left / per_min)
            } else {
                None
            },
        ))
    }

    /// The items passing the filters, as a list (None: all).
    pub fn visible_items(&self) -> Option<Vec<usize>> {
        self.visible.as_ref().map(Visible::to_vec)
    }

    /// The visible position "n/N" (within the filter when one is set).
    pub fn position_in_view(&self) -> (usize, usize) {
        match &self.visible {
            Some(v) => (
                if v.contains(self.pos) {
                    v.rank(self.pos) + 1
                } else {
                    0
                },
                v.len(),
            ),
            None => (self.pos + 1, self.len()),
        }
    }
}
