//! The filter menu's rows: the kinds of filter and the options of each.

use crate::bench::{Benchmark, Facet};
use crate::tui::facts::{Index, Kind, ReviewStatus};
use crate::tui::views;

/// The filters that are on: options of one group combine with OR, groups with AND.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filters {
    /// In the order they were turned on.
    pub on: Vec<FilterOption>,
}

impl Filters {
    pub fn is_empty(&self) -> bool {
        self.on.is_empty()
    }
    pub fn is_on(&self, o: &FilterOption) -> bool {
        self.on.contains(o)
    }
    /// The options on in group `g`.
    pub fn in_group(&self, g: &FilterGroup) -> impl Iterator<Item = &FilterOption> {
        self.on.iter().filter(move |o| o.group() == *g)
    }
    /// The groups with an option on, in menu order.
    pub fn groups(&self) -> Vec<FilterGroup> {
        let mut g: Vec<FilterGroup> = self.on.iter().map(FilterOption::group).collect();
        g.sort();
        g.dedup();
        g
    }
    pub fn describe(&self) -> String {
        self.groups()
            .into_iter()
            .map(|g| {
                self.in_group(&g)
                    .map(FilterOption::short)
                    .collect::<Vec<_>>()
                    .join(" or ")
            })
            .collect::<Vec<_>>()
            .join(" + ")
    }
}

/// The groups of the filter menu, in menu order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FilterGroup {
    Progress,
    Skipped,
    ModelWrong,
    /// A flag facet of the items' benchmarks (`views::is_flag`).
    Flag(Facet),
    Agreement,
    Verification,
    Benchmark,
    /// A facet with values (`bench::Facet`), one group per facet in the registry's order.
    Facet(Facet),
    /// A facet whose values are `key = value` (`Facet::Metadata`: a metadata key's;
    /// `Facet::Answer`: a question's): one group per key, so that two keys' values
    /// combine with AND, one key's with OR.
    Keyed(Facet, String),
    Model,
    Reviewer,
}

/// One row of the filter menu.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FilterOption {
    Ungraded,
    GradedByMe,
    /// Items I skipped (`S`).
    Skipped,
    /// The answer of one of the chosen models (any model when none is chosen) is wrong.
    ModelWrong,
    /// A flag facet of the items' benchmarks (`views::is_flag`: CHARTOM's suspect answer
    /// key).
    Flag(Facet),
    /// Reviewers disagree, or a human disagrees with the LLM judge; not adjudicated.
    Disagreement,
    /// Reviewers disagree and no verdict is final.
    NeedsAdjudication,
    /// A verdict is marked final.
    Adjudicated,
    /// A verification status a reviewer gave (`views::review_status`).
    Status(ReviewStatus),
    Benchmark(Benchmark),
    /// A value of a facet of the items' benchmarks (CHARTOM's chart type, ...).
    Facet(Facet, String),
    Model(String),
    Reviewer(String),
}

impl FilterOption {
    pub fn group(&self) -> FilterGroup {
        match self {
            FilterOption::Ungraded | FilterOption::GradedByMe => FilterGroup::Progress,
            FilterOption::Skipped => FilterGroup::Skipped,
            FilterOption::ModelWrong => FilterGroup::ModelWrong,
            FilterOption::Flag(f) => FilterGroup::Flag(*f),
            FilterOption::Disagreement
            | FilterOption::NeedsAdjudication
            | FilterOption::Adjudicated => FilterGroup::Agreement,
            FilterOption::Status(_) => FilterGroup::Verification,
            FilterOption::Benchmark(_) => FilterGroup::Benchmark,
            FilterOption::Facet(Facet::Metadata, v) => FilterGroup::Keyed(
                Facet::Metadata,
                v.split('\0').next().unwrap_or_default().into(),
            ),
            // (the declared benchmark's `question = answer`)
            FilterOption::Facet(Facet::Answer, v) => FilterGroup::Keyed(
                Facet::Answer,
                v.split(" = ").next().unwrap_or_default().into(),
            ),
            FilterOption::Facet(f, _) => FilterGroup::Facet(*f),
            FilterOption::Model(_) => FilterGroup::Model,
            FilterOption::Reviewer(_) => FilterGroup::Reviewer,
        }
    }
    /// The menu's label.
    pub fn label(&self) -> String {
        match self {
            FilterOption::Ungraded => "ungraded by me".into(),
            FilterOption::GradedByMe => "graded by me".into(),
            FilterOption::Skipped => "skipped by me".into(),
            FilterOption::ModelWrong => "model wrong (the chosen models, else any)".into(),
            FilterOption::Flag(f) => views::facet_words(*f, "").0,
            FilterOption::Disagreement => "disagreement (reviewers, or human vs judge)".into(),
            FilterOption::NeedsAdjudication => "needs adjudication (no final verdict)".into(),
            FilterOption::Adjudicated => "adjudicated (a verdict is final)".into(),
            // any reviewer's verification (the final one's once adjudicated), where the
            // figures count the verdict that counts: said, so the numbers can differ
            FilterOption::Status(s) => format!("verification {} by a reviewer", s.done),
            FilterOption::Benchmark(b) => format!("benchmark {}", b.name()),
            FilterOption::Facet(f, v) => views::facet_words(*f, v).0,
            FilterOption::Model(m) => format!("model {m}"),
            FilterOption::Reviewer(r) => format!("reviewed by {r}"),
        }
    }
    /// The status line's name.
    pub(super) fn short(&self) -> String {
        match self {
            FilterOption::Ungraded => "ungraded".into(),
            FilterOption::GradedByMe => "graded by me".into(),
            FilterOption::Skipped => "skipped".into(),
            FilterOption::ModelWrong => "model wrong".into(),
            FilterOption::Flag(f) => views::facet_words(*f, "").1,
            FilterOption::Disagreement => "disagreements".into(),
            FilterOption::NeedsAdjudication => "needs adjudication".into(),
            FilterOption::Adjudicated => "adjudicated".into(),
            FilterOption::Status(s) => format!("{} by a reviewer", s.done),
            FilterOption::Benchmark(b) => b.name().into(),
            FilterOption::Facet(f, v) => views::facet_words(*f, v).1,
            FilterOption::Model(m) => format!("model {m}"),
            FilterOption::Reviewer(r) => format!("reviewer {r}"),
        }
    }
    /// Is the option derived from other reviewers' verdicts or the LLM judge (who
    /// reviewed, disagreement, adjudication, model wrong after overrides)? The
    /// verification statuses are not: in blind mode they look at my verdicts only.
    /// Blind mode hides such rows (docs/teams.md, "Blind mode").
    pub fn depends_on_others(&self, me: &str) -> bool {
        match self {
            FilterOption::Disagreement
            | FilterOption::NeedsAdjudication
            | FilterOption::Adjudicated
            | FilterOption::ModelWrong => true,
            FilterOption::Reviewer(r) => r != me,
            _ => false,
        }
    }

    /// The index's fact for options that are one (kind, name).
    pub(super) fn fact(&self) -> Option<(Kind, &str)> {
        Some(match self {
            FilterOption::Disagreement => (Kind::Disagreement, ""),
            FilterOption::Flag(f) => (Kind::Facet(*f), ""),
            FilterOption::NeedsAdjudication => (Kind::NeedsAdjudication, ""),
            FilterOption::Adjudicated => (Kind::Adjudicated, ""),
            FilterOption::Status(s) => (Kind::Status, s.name),
            FilterOption::Benchmark(b) => (Kind::Benchmark, b.name()),
            FilterOption::Facet(f, c) => (Kind::Facet(*f), c),
            FilterOption::Model(c) => (Kind::Model, c),
            FilterOption::Reviewer(c) => (Kind::Reviewer, c),
            FilterOption::Ungraded
            | FilterOption::GradedByMe
            | FilterOption::Skipped
            | FilterOption::ModelWrong => {
                return None;
            }
        })
    }
}

/// The filter menu's rows for an index.
pub(super) fn catalog(ix: &Index, now: &super::facts_now::FactsNow) -> Vec<FilterOption> {
    let mut out = vec![
        FilterOption::Ungraded,
        FilterOption::GradedByMe,
        FilterOption::Skipped,
        FilterOption::ModelWrong,
        FilterOption::Disagreement,
        FilterOption::NeedsAdjudication,
        FilterOption::Adjudicated,
    ];
    // the index's names and those this session's verdicts gave, in order
    let names = |k: Kind| {
        let mut v: Vec<String> = ix
            .names(k)
            .chain(now.names(k))
            .map(str::to_string)
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let benches: Vec<Benchmark> = names(Kind::Benchmark)
        .iter()
        .map(|b| Benchmark::from_name(Some(b)))
        .collect();
    // The flags of the file's benchmarks, after "model wrong"; the verification
    // statuses their reviews give, after the agreement's options.
    let views: Vec<_> = benches.iter().map(|&b| views::view_of(b)).collect();
    let flags: Vec<Facet> = views::FACETS
        .into_iter()
        // (and a folder's set's flags, the index's)
        .filter(|&f| {
            views.iter().any(|v| v.flags().contains(&f))
                || (f == Facet::RunsDisagree && ix.facet(Kind::Facet(f), "").is_some())
        })
        .collect();
    for (k, f) in flags.into_iter().enumerate() {
        out.insert(4 + k, FilterOption::Flag(f));
    }
    let mut statuses: Vec<ReviewStatus> = Vec::new();
    for s in views.iter().flat_map(|v| v.statuses()) {
        if !statuses.contains(&s) {
            statuses.push(s);
        }
    }
    out.extend(statuses.into_iter().map(FilterOption::Status));
    if benches.len() > 1 {
        let mut b = benches;
        b.sort();
        out.extend(b.into_iter().map(FilterOption::Benchmark));
    }
    for f in views::FACETS.into_iter().filter(|&f| !views::is_flag(f)) {
        out.extend(
            names(Kind::Facet(f))
                .into_iter()
                .map(|v| FilterOption::Facet(f, v)),
        );
    }
    out.extend(names(Kind::Model).into_iter().map(FilterOption::Model));
    out.extend(
        names(Kind::Reviewer)
            .into_iter()
            .map(FilterOption::Reviewer),
    );
    out
}
