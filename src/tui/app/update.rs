//! `State::update`: one message in, the state changed and the effects out. Pure: the
//! loop carries the effects out.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind};

use crate::tui::facts::{BitSet, Kind};
use crate::tui::image::ImageEvent;

use super::*;

impl State {
    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        let mut fx = Vec::new();
        let tick = matches!(msg, Msg::Tick);
        match msg {
            Msg::Key(k) => {
                if k.kind == KeyEventKind::Release || self.input_arrived() {
                    return fx;
                }
                self.timing.input(self.clock.instant);
                match self.glued_to_esc(&k) {
                    Some(key) => {
                        self.on_key(KeyEvent::from(KeyCode::Esc), &mut fx);
                        self.on_key(key, &mut fx);
                    }
                    None => self.on_key(k, &mut fx),
                }
            }
            Msg::Mouse(m) => {
                if m.kind != crossterm::event::MouseEventKind::Moved && self.input_arrived() {
                    return fx;
                }
                self.timing.input(self.clock.instant);
                self.on_mouse(m, &mut fx)
            }
            Msg::Paste(text) => {
                if self.input_arrived() {
                    return fx;
                }
                self.on_paste(&text, &mut fx)
            }
            Msg::Resize(w, h) => {
                // When the context pane comes or goes (a tmux client of another width
                // attaching), the item's text is another: it opens again where what is
                // graded is in sight, not at the top of the context.
                let aside = crate::tui::geometry::aside_geometry(self).0 > 0;
                self.size = (w, h);
                if aside != (crate::tui::geometry::aside_geometry(self).0 > 0) {
                    self.scroll = crate::tui::geometry::target_scroll(self);
                }
            }
            Msg::Tick => {}
            Msg::Found(found) => self.found = found,
            Msg::Recorded { seq, result } => self.on_recorded(seq, result, &mut fx),
            Msg::Saved(r) => self.on_saved(r),
            Msg::SaveWaits(why) => {
                // Said over what a key said, never over a warning or an error.
                if self
                    .status
                    .as_ref()
                    .is_none_or(|(_, level)| *level == Level::Info)
                {
                    self.set_status(why, Level::Info);
                }
            }
            Msg::Indexed { generation, meta } => self.on_indexed(generation, meta, &mut fx),
            Msg::IndexKept { generation, meta } => self.on_index_kept(generation, meta),
            Msg::IndexProgress {
                generation,
                done,
                total,
            } => {
                if generation == self.index_generation && self.meta.is_none() {
                    self.index_progress = (done, total);
                }
            }
            Msg::Reloaded(store) => self.file_changed(store, &mut fx),
            Msg::Remapped { seq, moves } => self.on_remapped(seq, *moves, &mut fx),
            Msg::Resaved(store) => self.take_up_own_save(store, &mut fx),
            Msg::ColleagueSaved(who) => self.colleague_saved(who),
            Msg::Summary { seq, result } => {
                self.summary.arrived(seq, result);
            }
            Msg::SearchDone { seq, results } => {
                if let Mode::Search(st) = &mut self.mode
                    && seq == self.search_seq
                {
                    st.found(results);
                }
            }
            Msg::Image(ImageEvent::Ready(key, result)) => self.on_image(key, result),
            Msg::Located { seq, located } => self.on_located(seq, located, &mut fx),
            Msg::WorkerFailed(w) => self.worker_failed(w),
        }
        if self.rec.skip_cleared {
            self.rec.skip_cleared = false;
            let msg = match self.status.take() {
                Some((m, l)) if l != Level::Error => (format!("{m} · skip cleared"), l),
                Some(e) => e,
                None => ("skip cleared".to_string(), Level::Info),
            };
            self.status = Some(msg);
        }
        self.take_down_reading_status();
        if !tick {
            self.clamp_scroll();
        }
        fx
    }

    /// A status said while the file was being read, and true only then: shown until the
    /// whole file is read (the tick redraws within a second of it), never after.
    pub(crate) fn set_reading_status(&mut self, s: String) {
        self.set_status(s.clone(), Level::Info);
        self.reading_status = Some(s);
    }

    fn take_down_reading_status(&mut self) {
        if self.reading_status.is_some() && !self.still_reading() {
            if self.status.as_ref().map(|(s, _)| s) == self.reading_status.as_ref() {
                self.status = None;
            }
            self.reading_status = None;
        }
    }

    /// Pasted text goes into the text field being edited.
    fn on_paste(&mut self, text: &str, fx: &mut Vec<Effect>) {
        match &mut self.mode {
            Mode::Note(e) | Mode::Jump(e) => e.insert_str(text),
            Mode::Popup(p) => {
                if let Some(e) = p.field() {
                    e.insert_str(text)
                }
            }
            Mode::Search(s) => {
                s.query.insert_str(text);
                self.refresh_search(fx);
            }
            _ => {}
        }
    }

    /// A journal write finished: durable, or taken back off the screen.
    fn on_recorded(&mut self, seq: u64, result: Result<(), String>, fx: &mut Vec<Effect>) {
        let step = self.rec.steps.remove(&seq);
        if let Some((item, before)) = self.rec.pending.remove(&seq) {
            match result {
                Ok(()) => {
                    if self.rec.pending.is_empty() && !matches!(self.saved, SaveState::Error(_)) {
                        self.saved = SaveState::Journaled;
                    }
                }
                Err(e) => {
                    // Not durable: take the verdict back off the screen.
                    self.set_mine(item, before);
                    if let Some(step) = step {
                        self.rec.take_back(step);
                        // the history kept for the next session too
                        fx.push(self.session_effect());
                    }
                    self.saved = SaveState::Error(e.clone());
                    self.set_status(
                        format!("NOT RECORDED on {}: {e}", self.display_id(item)),
                        Level::Error,
                    );
                }
            }
        }
    }

    /// The journal was folded into the file, or not.
    fn on_saved(&mut self, r: Result<String, String>) {
        match r {
            Ok(_) => {
                if self.rec.pending.is_empty() {
                    self.saved = SaveState::Saved;
                }
                // The wait for another session's save is over.
                if self
                    .status
                    .as_ref()
                    .is_some_and(|(s, _)| s.starts_with(SAVE_WAITS))
                {
                    self.status = None;
                }
            }
            Err(e) => {
                self.saved = SaveState::Error(e.clone());
                self.set_status(
                    format!("File not updated: {e}. Your verdicts are safe in the journal."),
                    Level::Error,
                );
            }
        }
    }

    /// The index arrived: progress, filters, the running BPC and the search catch up.
    pub(super) fn on_indexed(
        &mut self,
        generation: u64,
        meta: std::sync::Arc<crate::tui::facts::Index>,
        fx: &mut Vec<Effect>,
    ) {
        if generation == self.index_generation && meta.len() == self.len() {
            // "anyone": items some reviewer is done with, the rule the live
            // count (`graded_by_anyone`) keeps (a note alone is not done).
            let mut anyone = BitSet::new(meta.len());
            for r in meta.names(Kind::Done) {
                if let Some(b) = meta.facet(Kind::Done, r) {
                    anyone.or_with(b);
                }
            }
            self.base_progress = (
                meta.facet(Kind::Done, &self.reviewer)
                    .map_or(0, BitSet::count),
                anyone.count(),
            );
            self.filter_catalog = catalog(&meta, &self.facts_now);
            self.meta = Some(meta);
            // What an earlier session left and is not found yet is looked up in it.
            self.locate_with_index(fx);
            self.rebuild_facts_now();
            self.filter_counts_of = None;
            // A view's running tally (CharToM-QA's BPC) counts my grades in the file,
            // not only this session's: only the items I reviewed of a benchmark whose
            // view keeps one are read (the index says which).
            let in_file: Vec<usize> = self
                .meta
                .as_ref()
                .map(|m| {
                    crate::tui::views::tallied_benchmarks()
                        .filter_map(|bench| {
                            let mut b = m.facet(Kind::Reviewer, &self.reviewer)?.clone();
                            b.and_with(m.facet(Kind::Benchmark, bench.name())?);
                            Some(b.ones().collect::<Vec<_>>())
                        })
                        .flatten()
                        .collect()
                })
                .unwrap_or_default();
            for i in in_file {
                if !self.rec.mine.contains_key(&i) {
                    let review = self.my_review(i);
                    self.retally(i, &review);
                }
            }
            // Verdicts given before the index arrived.
            let changed: Vec<usize> = self.rec.mine.keys().copied().collect();
            for i in changed {
                self.refresh_live(i);
            }
            self.apply_filters(fx);
            self.count_filters();
            // A query typed while the index was being built runs now.
            self.refresh_search(fx);
        }
    }

    /// The index as kept, in place of the built one it equals (`Msg::IndexKept`): every
    /// fact and text the same, so only what is keyed by the index itself (the corrected
    /// sets of this session's changes, the menu's counts) is made again, with the same
    /// result.
    fn on_index_kept(&mut self, generation: u64, meta: std::sync::Arc<crate::tui::facts::Index>) {
        if generation == self.index_generation
            && self.meta.as_ref().is_some_and(|m| m.len() == meta.len())
            && meta.len() == self.len()
        {
            self.meta = Some(meta);
            self.rebuild_facts_now();
            self.filter_counts_of = None;
            self.count_filters();
        }
    }

    /// An image is ready: shown if it is the one wanted.
    fn on_image(
        &mut self,
        key: crate::tui::image::ImageKey,
        result: Result<ratatui_image::protocol::Protocol, String>,
    ) {
        let wanted = match &self.image {
            ImageSlot::Loading(k) | ImageSlot::Ready(k, _) | ImageSlot::Failed(k, _) => k == &key,
            ImageSlot::None => false,
        };
        if wanted {
            self.image = match result {
                Ok(p) => ImageSlot::Ready(key, std::sync::Arc::new(p)),
                Err(e) => ImageSlot::Failed(key, e),
            };
        }
    }

    /// Keep every scroll position within its text as it is now (a note undone, a view
    /// left, a resize), so the scroll keys act at once.
    pub(super) fn clamp_scroll(&mut self) {
        let page_max = crate::tui::geometry::page_max_scroll(self);
        match &mut self.mode {
            Mode::Help { scroll } | Mode::Summary { scroll } => *scroll = (*scroll).min(page_max),
            _ => self.scroll = self.scroll.min(crate::tui::geometry::max_scroll(self)),
        }
    }

    /// Ask for the set's figures afresh: until they arrive the summary says it is
    /// computing, and any answer to an earlier request is dropped.
    pub(super) fn request_summary(&mut self, fx: &mut Vec<Effect>) {
        let seq = self.summary.request();
        fx.push(Effect::ComputeSummary { seq });
    }

    pub(crate) fn set_status(&mut self, s: impl Into<String>, level: Level) {
        self.status = Some((s.into(), level));
    }
}
