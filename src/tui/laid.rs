//! The item's panes, laid out and measured once and kept between frames (issue 21: with
//! a 20 MB prompt, every key copied the item, sanitised its text into lines, looked for
//! C-VQA's options in it and counted its rows, several times: for `max_scroll`, for
//! `page_rows` and for the frame). The frame (`views::item::draw_item`) and the geometry
//! `update` asks (`tui::geometry`) both read them through [`of`], so a key that only
//! scrolls draws the rows on screen and nothing else.
//!
//! A cache, never a second source of truth: the panes are what `views::item::item_panes`
//! builds from the state, and they are built again whenever anything they are built from
//! is not what it was ([`Key`]): another item, or another load of the same one (a reload
//! after another program's or a colleague's save), a verdict recorded or undone (mine,
//! others' as blind mode reveals them, a write under way), the selected response, side by
//! side, blind mode, the queue, the context length, the theme, the keys, the size and the
//! areas of the screen. Anything `item_panes` reads from the state must be in [`Key`]:
//! debug builds (every test) lay the item out anew on every hit and check that it is
//! what was kept.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use ratatui::layout::Rect;

use crate::bench::{Item, Review};
use crate::tui::app::State;
use crate::tui::keymap::Keymap;
use crate::tui::layout::ItemAreas;
use crate::tui::theme::Theme;
use crate::tui::views::common::view_item;
use crate::tui::views::item::{ItemPanes, item_panes, text_rect};
use crate::tui::wrap::{self, LineRows};

self_cell::self_cell!(
    /// The item shown (`views::common::view_item`; none when there is no readable item)
    /// and its panes, whose lines borrow its texts: a text of megabytes is not copied
    /// into them (issue 21).
    struct Shown {
        owner: Option<Rc<Item>>,
        #[covariant]
        dependent: ItemPanes,
    }
    impl {Debug}
);

/// The item's panes and each pane's lines measured at its width.
#[derive(Debug)]
pub(crate) struct Laid {
    shown: Shown,
    /// Per pane, per line: its rows at the pane's width.
    pub(crate) rows: Vec<Vec<LineRows>>,
    /// Per pane: its rows in all.
    totals: Vec<usize>,
}

impl Laid {
    /// The item's panes in `areas` as the state stands, laid out and measured.
    pub(crate) fn new(state: &State, areas: ItemAreas) -> Laid {
        let item = state
            .current
            .as_ref()
            .and_then(|c| c.item.as_ref().ok())
            .map(|it| view_item(state, it));
        let shown = Shown::new(item, |it| item_panes(state, areas, it.as_deref()));
        let panes = shown.borrow_dependent();
        let rows: Vec<Vec<LineRows>> = panes
            .panes
            .iter()
            .map(|p| wrap::measure(&p.lines, text_rect(p).width.max(1)))
            .collect();
        let totals = rows.iter().map(|r| wrap::total(r)).collect();
        Laid {
            shown,
            rows,
            totals,
        }
    }

    /// The panes.
    pub(crate) fn panes(&self) -> &ItemPanes<'_> {
        self.shown.borrow_dependent()
    }

    /// Pane `k`'s rows of text that are not scrolled away, and how far it can scroll.
    pub(crate) fn geometry(&self, k: usize) -> (Rect, usize) {
        let text = text_rect(&self.panes().panes[k]);
        (text, self.totals[k].saturating_sub(text.height.into()))
    }

    /// The rows of pane `k`'s first `lines` lines.
    pub(crate) fn rows_before(&self, k: usize, lines: usize) -> usize {
        let r = &self.rows[k];
        wrap::total(&r[..lines.min(r.len())])
    }
}

/// Everything the item's panes are built from (`views::item::item_panes` and the views
/// it asks), as it stands: kept panes are used only while it is the same.
#[derive(Debug, Clone, PartialEq)]
struct Key {
    /// The load of the current item (`Current::load`; 0: none).
    load: u64,
    areas: ItemAreas,
    pos: usize,
    model: usize,
    side_by_side: bool,
    blind: bool,
    queue: bool,
    view_choice: usize,
    /// What the view's grading keys act on (Inspect: the scorer graded).
    graded_part: Option<String>,
    theme: Theme,
    keymap: Keymap,
    reviewer: String,
    display_id: String,
    /// Every review shown: mine as it stands now, others' as blind mode reveals them.
    reviews: Vec<(String, Review)>,
    /// My review as the journal has it (what blind mode reveals by).
    acknowledged: Option<Review>,
    /// My review as this session recorded it (the generic view's JSON).
    mine: Option<Option<Review>>,
    /// A journal write of this item under way.
    pending: bool,
    /// The running bonus-point coverage of this session (CharToM-QA's response lines).
    tally: BTreeMap<String, (u64, u64)>,
    /// A folder's set: the same sample in the other files, with my review of each.
    runs: Vec<(usize, Option<Review>)>,
}

impl Key {
    fn of(state: &State, areas: ItemAreas) -> Key {
        Key {
            load: state.current.as_ref().map_or(0, |c| c.load),
            areas,
            pos: state.pos,
            model: state.model,
            side_by_side: state.side_by_side,
            blind: state.blind,
            queue: state.queue,
            view_choice: state.view_choice,
            graded_part: state.graded_part.clone(),
            theme: state.theme,
            keymap: state.keymap.clone(),
            reviewer: state.reviewer.clone(),
            display_id: state.display_id(state.pos),
            reviews: state.reviews(),
            acknowledged: state.acknowledged_review(state.pos),
            mine: state.rec.mine.get(&state.pos).cloned(),
            pending: state.is_pending(state.pos),
            tally: state.rec.tally.clone(),
            runs: state
                .meta
                .as_ref()
                .map(|m| m.twins_of(state.pos))
                .unwrap_or_default()
                .iter()
                .map(|&j| (j as usize, state.my_review(j as usize)))
                .collect(),
        }
    }
}

/// The panes kept between frames (a field of `State`).
#[derive(Default)]
pub struct Memo(RefCell<Option<(Key, Rc<Laid>)>>);

impl Memo {
    /// Drop the kept panes: the next frame lays the item out anew (tests, benches).
    pub fn forget(&self) {
        self.0.borrow_mut().take();
    }
}

/// Debug builds check every hit against panes built anew, when their text is at most
/// this many bytes (a test of a line of megabytes would take minutes).
const CHECKED_UP_TO: usize = 1 << 20;

/// The item's panes in `areas` as the state stands: the kept ones when nothing they are
/// built from has changed, else built, measured and kept.
pub(crate) fn of(state: &State, areas: ItemAreas) -> Rc<Laid> {
    let key = Key::of(state, areas);
    if let Some((k, laid)) = &*state.laid.0.borrow()
        && *k == key
    {
        if cfg!(debug_assertions) {
            check(state, areas, laid);
        }
        return Rc::clone(laid);
    }
    let laid = Rc::new(Laid::new(state, areas));
    *state.laid.0.borrow_mut() = Some((key, Rc::clone(&laid)));
    laid
}

/// The kept panes are what the state builds now.
fn check(state: &State, areas: ItemAreas, kept: &Laid) {
    let bytes: usize = kept
        .panes()
        .panes
        .iter()
        .flat_map(|p| &p.lines)
        .flat_map(|l| &l.spans)
        .map(|s| s.content.len())
        .sum();
    if bytes > CHECKED_UP_TO {
        return;
    }
    let now = Laid::new(state, areas);
    assert_eq!(
        (now.panes(), &now.rows),
        (kept.panes(), &kept.rows),
        "the item's kept panes are stale: something they are built from is not in laid::Key"
    );
}
