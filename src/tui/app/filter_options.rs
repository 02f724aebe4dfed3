//! The filter menu's rows: the kinds of filter and the options of each.

use crate::bench::Benchmark;
use crate::bench::cvqa::fields::CvqaStatus;
use crate::tui::facts::{Index, Kind};

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
    pub fn in_group(&self, g: FilterGroup) -> impl Iterator<Item = &FilterOption> {
        self.on.iter().filter(move |o| o.group() == g)
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
                self.in_group(g)
                    .map(FilterOption::short)
                    .collect::<Vec<_>>()
                    .join(" or ")
            })
            .collect::<Vec<_>>()
            .join(" + ")
    }
}

/// The groups of the filter menu, in menu order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FilterGroup {
    Progress,
    Skipped,
    ModelWrong,
    SuspectKey,
    Agreement,
    Verification,
    Benchmark,
    ChartType,
    Version,
    Dimension,
    Group,
    LmEvalFilter,
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
    /// CHARTOM: the answer key is far from the human answers.
    SuspectKey,
    /// Reviewers disagree, or a human disagrees with the LLM judge; not adjudicated.
    Disagreement,
    /// Reviewers disagree and no verdict is final.
    NeedsAdjudication,
    /// A verdict is marked final.
    Adjudicated,
    /// C-VQA verification status.
    Status(CvqaStatus),
    Benchmark(Benchmark),
    ChartType(String),
    Version(String),
    Dimension(String),
    Group(String),
    /// lm-eval: the sample's filter.
    LmEvalFilter(String),
    Model(String),
    Reviewer(String),
}

impl FilterOption {
    pub fn group(&self) -> FilterGroup {
        match self {
            FilterOption::Ungraded | FilterOption::GradedByMe => FilterGroup::Progress,
            FilterOption::Skipped => FilterGroup::Skipped,
            FilterOption::ModelWrong => FilterGroup::ModelWrong,
            FilterOption::SuspectKey => FilterGroup::SuspectKey,
            FilterOption::Disagreement
            | FilterOption::NeedsAdjudication
            | FilterOption::Adjudicated => FilterGroup::Agreement,
            FilterOption::Status(_) => FilterGroup::Verification,
            FilterOption::Benchmark(_) => FilterGroup::Benchmark,
            FilterOption::ChartType(_) => FilterGroup::ChartType,
            FilterOption::Version(_) => FilterGroup::Version,
            FilterOption::Dimension(_) => FilterGroup::Dimension,
            FilterOption::Group(_) => FilterGroup::Group,
            FilterOption::LmEvalFilter(_) => FilterGroup::LmEvalFilter,
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
            FilterOption::SuspectKey => "suspect answer key (far from the humans')".into(),
            FilterOption::Disagreement => "disagreement (reviewers, or human vs judge)".into(),
            FilterOption::NeedsAdjudication => "needs adjudication (no final verdict)".into(),
            FilterOption::Adjudicated => "adjudicated (a verdict is final)".into(),
            // any reviewer's verification (the final one's once adjudicated), where the
            // figures count the verdict that counts: said, so the numbers can differ
            FilterOption::Status(s) => format!("verification {} by a reviewer", status_label(*s)),
            FilterOption::Benchmark(b) => format!("benchmark {}", b.name()),
            FilterOption::ChartType(c) => format!("chart type {c}"),
            FilterOption::Version(v) => format!("version {v}"),
            FilterOption::Dimension(d) => format!("dimension {d}"),
            FilterOption::Group(g) => format!("group {g}"),
            FilterOption::LmEvalFilter(f) => format!("lm-eval filter {f}"),
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
            FilterOption::SuspectKey => "suspect key".into(),
            FilterOption::Disagreement => "disagreements".into(),
            FilterOption::NeedsAdjudication => "needs adjudication".into(),
            FilterOption::Adjudicated => "adjudicated".into(),
            FilterOption::Status(s) => format!("{} by a reviewer", status_label(*s)),
            FilterOption::Benchmark(b) => b.name().into(),
            FilterOption::ChartType(c) | FilterOption::Version(c) => c.clone(),
            FilterOption::Dimension(c) | FilterOption::Group(c) => c.clone(),
            FilterOption::LmEvalFilter(f) => format!("filter {f}"),
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
            FilterOption::SuspectKey => (Kind::SuspectKey, ""),
            FilterOption::NeedsAdjudication => (Kind::NeedsAdjudication, ""),
            FilterOption::Adjudicated => (Kind::Adjudicated, ""),
            FilterOption::Status(s) => (Kind::Status, crate::tui::facts::status_name(*s)),
            FilterOption::Benchmark(b) => (Kind::Benchmark, b.name()),
            FilterOption::ChartType(c) => (Kind::ChartType, c),
            FilterOption::Version(c) => (Kind::Version, c),
            FilterOption::Dimension(c) => (Kind::Dimension, c),
            FilterOption::Group(c) => (Kind::Group, c),
            FilterOption::LmEvalFilter(c) => (Kind::LmEvalFilter, c),
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

pub(super) fn status_label(s: CvqaStatus) -> &'static str {
    s.done()
}

/// The filter menu's rows for an index.
pub(super) fn catalog(ix: &Index) -> Vec<FilterOption> {
    let mut out = vec![
        FilterOption::Ungraded,
        FilterOption::GradedByMe,
        FilterOption::Skipped,
        FilterOption::ModelWrong,
        FilterOption::Disagreement,
        FilterOption::NeedsAdjudication,
        FilterOption::Adjudicated,
    ];
    let names = |k: Kind| ix.names(k).map(str::to_string).collect::<Vec<_>>();
    let benches: Vec<Benchmark> = names(Kind::Benchmark)
        .iter()
        .map(|b| Benchmark::from_name(Some(b)))
        .collect();
    if benches.contains(&Benchmark::Chartom) {
        out.insert(4, FilterOption::SuspectKey);
    }
    if benches.contains(&Benchmark::Cvqa) {
        out.extend(
            [CvqaStatus::Accept, CvqaStatus::Fix, CvqaStatus::Reject].map(FilterOption::Status),
        );
    }
    if benches.len() > 1 {
        let mut b = benches;
        b.sort();
        out.extend(b.into_iter().map(FilterOption::Benchmark));
    }
    out.extend(
        names(Kind::ChartType)
            .into_iter()
            .map(FilterOption::ChartType),
    );
    out.extend(names(Kind::Version).into_iter().map(FilterOption::Version));
    out.extend(
        names(Kind::Dimension)
            .into_iter()
            .map(FilterOption::Dimension),
    );
    out.extend(names(Kind::Group).into_iter().map(FilterOption::Group));
    out.extend(
        names(Kind::LmEvalFilter)
            .into_iter()
            .map(FilterOption::LmEvalFilter),
    );
    out.extend(names(Kind::Model).into_iter().map(FilterOption::Model));
    out.extend(
        names(Kind::Reviewer)
            .into_iter()
            .map(FilterOption::Reviewer),
    );
    out
}
