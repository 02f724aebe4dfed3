//! What kind of fact about an item a bit set of the index holds, and the verification
//! status a review gives (the filter menu's groups).

use crate::bench::Facet;
use crate::tui::views::{FACETS, is_flag};

/// What kind of fact about an item a bit set holds; each kind is one group of the filter
/// menu (except `Wrong`, which the "model wrong" filter combines with the chosen models).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    Benchmark,
    /// A facet of the item's benchmark (`bench::Spec::facets`): a value (CHARTOM's chart
    /// type, lm-eval's filter, ...) or a flag with an empty name (CHARTOM's suspect key,
    /// `views::is_flag`). The registry's facets are listed in `views::FACETS`.
    Facet(Facet),
    /// The item has a response of this model.
    Model,
    /// This model's answer is wrong (after reviewer overrides).
    Wrong,
    /// This reviewer has a verdict on the item.
    Reviewer,
    /// This reviewer is done with the item (every required grade given,
    /// `review::item_done`).
    Done,
    /// A verification status a review gives (`views::review_status`: C-VQA's `accept` /
    /// `fix` / `reject`): the final verdict's when the item is adjudicated, else any
    /// reviewer's.
    Status,
    /// Reviewers disagree, or a human disagrees with the LLM judge, and no verdict is
    /// marked final.
    Disagreement,
    /// Reviewers disagree and no verdict is marked final.
    NeedsAdjudication,
    /// A verdict is marked final (`A`).
    Adjudicated,
    /// This reviewer's own verification status, named by [`reviewer_status`] (what
    /// blind mode's verification filter looks at).
    ReviewerStatus,
}

/// The facets with a value: the kinds after `Benchmark`.
const VALUED: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < FACETS.len() {
        if !is_flag(FACETS[i]) {
            n += 1;
        }
        i += 1;
    }
    n
};

/// How many kinds there are: `Benchmark`, the valued facets, eight kinds, the flags,
/// `ReviewerStatus`.
pub(super) const KINDS: usize = FACETS.len() + 10;

/// Each facet's kind's place in [`Kind::ALL`], by `Facet as usize` (`views::FACETS` is
/// in `Facet`'s own order: checked below).
const FACET_PLACE: [usize; FACETS.len()] = {
    let mut out = [0; FACETS.len()];
    let (mut valued, mut flags) = (0, 0);
    let mut i = 0;
    while i < FACETS.len() {
        assert!(FACETS[i] as usize == i);
        if is_flag(FACETS[i]) {
            out[i] = VALUED + 9 + flags;
            flags += 1;
        } else {
            out[i] = 1 + valued;
            valued += 1;
        }
        i += 1;
    }
    out
};

// `Index::facets` is sorted by (kind, name) because it is built in `Kind::ALL`'s order,
// which is `Kind`'s order (`Kind::index`); the index cache writes a kind as its place
// here: the valued facets after `Benchmark`, the flags before `ReviewerStatus`, as when
// each facet was a variant of its own.
const _: () = {
    let mut k = 0;
    while k < KINDS {
        assert!(Kind::ALL[k].index() == k);
        k += 1;
    }
};

impl Kind {
    pub(crate) const ALL: [Kind; KINDS] = {
        let mut out = [Kind::Benchmark; KINDS];
        let mut i = 0;
        while i < FACETS.len() {
            out[FACET_PLACE[i]] = Kind::Facet(FACETS[i]);
            i += 1;
        }
        let rest = [
            Kind::Model,
            Kind::Wrong,
            Kind::Reviewer,
            Kind::Done,
            Kind::Status,
            Kind::Disagreement,
            Kind::NeedsAdjudication,
            Kind::Adjudicated,
        ];
        let mut j = 0;
        while j < rest.len() {
            out[VALUED + 1 + j] = rest[j];
            j += 1;
        }
        out[KINDS - 1] = Kind::ReviewerStatus;
        out
    };

    /// Its place in [`Kind::ALL`]: the order of kinds, and how the index cache writes it.
    pub(crate) const fn index(self) -> usize {
        match self {
            Kind::Benchmark => 0,
            Kind::Facet(f) => FACET_PLACE[f as usize],
            Kind::Model => VALUED + 1,
            Kind::Wrong => VALUED + 2,
            Kind::Reviewer => VALUED + 3,
            Kind::Done => VALUED + 4,
            Kind::Status => VALUED + 5,
            Kind::Disagreement => VALUED + 6,
            Kind::NeedsAdjudication => VALUED + 7,
            Kind::Adjudicated => VALUED + 8,
            Kind::ReviewerStatus => KINDS - 1,
        }
    }
}

impl PartialOrd for Kind {
    fn partial_cmp(&self, other: &Kind) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Kind {
    fn cmp(&self, other: &Kind) -> std::cmp::Ordering {
        self.index().cmp(&other.index())
    }
}

/// A verification status a review gives (C-VQA's accept / fix / reject), as the
/// benchmark's view names it (`views::review_status`, `View::statuses`): what the
/// verification filter offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ReviewStatus {
    /// Its value in the file (`accept`): the index's name of it.
    pub name: &'static str,
    /// What it did, for a reviewer (`accepted`).
    pub done: &'static str,
}
