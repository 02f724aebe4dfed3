//! Moving through the items: next, previous, next ungraded, jump, go to; loading the current item and its image.

use crate::bench::Items;
use std::path::PathBuf;

use crate::tui::image::ImageKey;

use super::*;

impl State {
    /// Start at `index` (resume); returns the effects of arriving there.
    pub fn start_at(&mut self, index: usize) -> Vec<Effect> {
        let mut fx = Vec::new();
        if !self.store.is_empty() {
            self.goto(index.min(self.len().saturating_sub(1)), &mut fx);
            // Opened with what is graded in sight (the first item too).
            self.scroll = crate::tui::geometry::target_scroll(self);
        }
        fx
    }

    pub(crate) fn step(&mut self, delta: i64, fx: &mut Vec<Effect>) {
        if self.is_empty() {
            return;
        }
        let target = match &self.visible {
            None => {
                let t = self.pos as i64 + delta;
                if t >= self.len() as i64 && self.still_reading() {
                    // Never an item that is not the next one: the reviewer steps on
                    // once the scan has found it.
                    self.set_reading_status(self.reading_notice());
                    return;
                }
                if t < 0 || t >= self.len() as i64 {
                    self.set_status(
                        if delta > 0 { "last item" } else { "first item" },
                        Level::Info,
                    );
                    return;
                }
                t as usize
            }
            Some(v) => {
                if v.is_empty() {
                    self.set_status("no item matches the filters", Level::Warn);
                    return;
                }
                let t = if delta > 0 {
                    v.after(self.pos)
                } else {
                    v.before(self.pos)
                };
                match t {
                    Some(t) => t,
                    None => {
                        self.set_status(
                            if delta > 0 {
                                "last matching item"
                            } else {
                                "first matching item"
                            },
                            Level::Info,
                        );
                        return;
                    }
                }
            }
        };
        self.goto(target, fx);
    }

    pub(super) fn next_ungraded(&mut self, fx: &mut Vec<Effect>) {
        // The items after this one, then from the start (within the filters).
        let n = self.len();
        let pos = self.pos;
        let found = match (&self.meta, &self.visible) {
            // From the index: the visible items I have not done nor skipped, as a bit
            // set (a word at a time, not an item at a time, when many are done).
            (Some(ix), v) if ix.len() == n => {
                let mut b = self.done_by_me_now(ix);
                b.or_with(ix.no_grade());
                b.invert();
                for &i in self.skipped.range(..n) {
                    b.set(i, false);
                }
                if let Some(v) = v {
                    b.and_with(v.bits());
                }
                if pos < n {
                    b.set(pos, false);
                }
                let c = Visible::new(b);
                c.iter_from(pos + 1)
                    .chain(c.iter_from(0).take_while(|&i| i < pos))
                    .find(|&i| !self.skipped_last_session(i))
            }
            (_, Some(v)) => v
                .iter_from(pos + 1)
                .chain(v.iter_from(0).take_while(|&i| i < pos))
                .find(|&i| self.wanted_next(i)),
            // While the file is read, the items after the last one found are not known:
            // never wrap round past them.
            (_, None) if self.still_reading() => (pos + 1..n).find(|&i| self.wanted_next(i)),
            (_, None) => (pos + 1..n)
                .chain(0..pos.min(n))
                .find(|&i| self.wanted_next(i)),
        };
        if let Some(i) = found {
            self.goto(i, fx);
            return;
        }
        if self.still_reading() && self.visible.is_none() {
            self.set_reading_status(self.reading_notice());
            return;
        }
        self.set_status(
            if self.skipped.is_empty() {
                "every item here is graded by you".to_string()
            } else {
                format!(
                    "every item here is graded by you or skipped ({} skipped)",
                    self.skipped.len()
                )
            },
            Level::Info,
        );
    }

    /// Does `Space` stop at item `i`: not graded by me, not skipped, needs a grade?
    fn wanted_next(&self, i: usize) -> bool {
        !self.graded_by_me(i)
            && !self.skipped.contains(&i)
            && !self.skipped_last_session(i)
            && !self.needs_no_grade(i)
    }

    pub(super) fn first_visible(&self) -> Option<usize> {
        match &self.visible {
            Some(v) => v.first(),
            None => (!self.is_empty()).then_some(0),
        }
    }

    pub(super) fn last_visible(&self) -> Option<usize> {
        match &self.visible {
            Some(v) => v.last(),
            None => self.len().checked_sub(1),
        }
    }

    pub(super) fn jump(&mut self, q: &str, fx: &mut Vec<Effect>) {
        if q.is_empty() {
            return;
        }
        if let Ok(n) = q.trim_start_matches('#').parse::<usize>()
            && n >= 1
            && !q.starts_with('#')
        {
            if n <= self.len() {
                self.goto(n - 1, fx);
                return;
            }
            if self.still_reading() {
                self.set_reading_status(format!("no item {n} yet: {}", self.reading_notice()));
                return;
            }
        }
        let Some(m) = &self.meta else {
            // Finding an id now would read every item on this thread (seconds on a large
            // set, the screen frozen).
            self.set_status(
                self.no_index(
                    "the index is still being built: jump by item number now, by id in a moment",
                ),
                Level::Warn,
            );
            return;
        };
        // the item's id, else the harness's own (an Inspect sample's, lm-eval's `doc 3`)
        let found = m.position_of(q).or_else(|| m.position_of_harness_id(q));
        match found {
            Some(i) => self.goto(i, fx),
            None => self.set_status(format!("no item {q}"), Level::Warn),
        }
    }

    /// A folder's set: go to the same sample in the next file that has it (after the
    /// last, the first), whatever the filters.
    pub(super) fn next_run(&mut self, fx: &mut Vec<Effect>) {
        let twins = self.meta.as_ref().map(|m| m.twins_of(self.pos).to_vec());
        let Some(twins) = twins.filter(|t| !t.is_empty()) else {
            let why = if self.store.parts().is_none() {
                "one file: open a folder of runs (verdict DIR) to compare them"
            } else if self.meta.is_none() {
                "the index is still being built: the other runs of this sample in a moment"
            } else {
                "no other model or run has this sample"
            };
            self.set_status(why.to_string(), Level::Info);
            return;
        };
        let at = twins
            .iter()
            .position(|&t| t as usize == self.pos)
            .unwrap_or(0);
        let next = twins[(at + 1) % twins.len()] as usize;
        self.goto(next, fx);
    }

    /// Go to item `i`: load it, reset per-item view state, ask for its image.
    pub fn goto(&mut self, i: usize, fx: &mut Vec<Effect>) {
        if i >= self.len() {
            return;
        }
        let changed = i != self.pos || self.current.is_none();
        self.pos = i;
        if changed {
            self.scroll = 0;
            self.aside_scroll = 0;
            self.model = 0;
            // (an Inspect sample opens on its headline scorer)
            self.graded_part = None;
            self.load_current();
            // With models chosen in the filter, show the first of them this item has.
            let chosen = self.filters.in_group(&FilterGroup::Model).find_map(|o| {
                let FilterOption::Model(m) = o else {
                    return None;
                };
                self.item()
                    .and_then(|it| it.responses.iter().position(|r| r.model == *m))
            });
            if let Some(k) = chosen.or_else(|| self.queue.then(|| self.first_disputed()).flatten())
            {
                self.model = k;
            }
            let base = self.my_review(i).and_then(|r| r.seconds).unwrap_or(0.0);
            self.timing.arrive(self.clock.instant, base);
            // Saved on every move, so that a killed session resumes on the item shown.
            self.push_position(fx);
        }
        self.request_image(fx);
        if changed {
            // Opened with what is graded in sight.
            self.scroll = crate::tui::geometry::target_scroll(self);
        }
        // Prefetch the next item's image.
        let next = match &self.visible {
            Some(v) => v.after(i),
            None => (i + 1 < self.len()).then_some(i + 1),
        };
        if let Some(n) = next
            && let Some(p) = self
                .store
                .item(n)
                .ok()
                .and_then(|it| it.into_fields().image)
                .map(|im| self.resolve(&im))
        {
            fx.push(Effect::PrefetchImage(p));
        }
    }

    /// In the adjudication queue: the first response the other reviewers grade
    /// differently, so that the item opens on what is to be decided.
    pub(super) fn first_disputed(&self) -> Option<usize> {
        let it = self.item()?;
        let n = it.responses.len();
        let others: Vec<&crate::bench::Review> = it
            .reviews
            .iter()
            .filter(|(name, r)| **name != self.reviewer && r.is_final != Some(true))
            .map(|(_, r)| r)
            .collect();
        it.responses.iter().position(|resp| {
            let grades: Vec<_> = others
                .iter()
                .map(|r| {
                    r.for_model(&resp.model, n)
                        .map(crate::bench::ResponseGrades::normalized)
                })
                .collect();
            grades.windows(2).any(|w| w[0] != w[1])
        })
    }

    pub(super) fn position_effect(&self) -> Effect {
        Effect::SavePosition {
            index: self.pos,
            id: self.item().and_then(|i| i.id.clone()),
        }
    }

    pub(super) fn load_current(&mut self) {
        if self.is_empty() {
            self.current = None;
            return;
        }
        let i = self.pos;
        let item = self.store.item(i);
        // The line's text is copied only for a view that shows it, or an item that cannot
        // be read (issue 21: a copy of a line of megabytes for nothing).
        let shows_raw = item.as_ref().map_or(true, |it| {
            crate::tui::views::view_of(it.benchmark()).shows_raw(it)
        });
        let text = match self.store.raw(i) {
            _ if !shows_raw => None,
            Ok(t) => Some(std::borrow::Cow::Borrowed(t)),
            Err(_) => Some(String::from_utf8_lossy(
                self.store.raw_bytes(i).unwrap_or_default(),
            )),
        };
        // The line parsed with its strings cut to what the generic view shows: neither
        // it nor a verdict on it copies a string of megabytes (issue 21).
        let json = text
            .as_deref()
            .and_then(|t| crate::tui::text::json_cut(t, crate::tui::views::generic::SHOWN_CHARS));
        let raw = match text {
            Some(t) if json.is_none() || item.is_err() => t.into_owned(),
            _ => String::new(),
        };
        static LOADS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        self.current = Some(Current {
            index: i,
            item: item.map(std::rc::Rc::new),
            raw,
            json,
            load: LOADS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        });
    }

    pub(super) fn resolve(&self, image: &str) -> PathBuf {
        let p = PathBuf::from(image);
        if p.is_absolute() {
            p
        } else {
            // The file's folder, or its origin's for a `split` or `merge` output
            // (docs/format.md, "Paths").
            self.store.image_dir().join(p)
        }
    }

    pub fn image_path(&self) -> Option<PathBuf> {
        self.item()
            .and_then(|i| i.image.as_deref())
            .map(|im| self.resolve(im))
    }

    /// Ask for the current item's image at the size of its pane.
    pub fn request_image(&mut self, fx: &mut Vec<Effect>) {
        let (Some(path), Some((w, h))) = (self.image_path(), self.image_area) else {
            self.image = ImageSlot::None;
            return;
        };
        let key = ImageKey {
            path,
            width: w,
            height: h,
        };
        let same = match &self.image {
            ImageSlot::Loading(k) | ImageSlot::Ready(k, _) | ImageSlot::Failed(k, _) => *k == key,
            ImageSlot::None => false,
        };
        if !same {
            self.image = ImageSlot::Loading(key.clone());
            fx.push(Effect::RequestImage(key));
        }
    }
}
