//! What a key can do, with its name in the config file and its words on screen.

use std::ops::RangeInclusive;

use strum::{EnumIter, EnumString, IntoEnumIterator, IntoStaticStr};

/// Everything a key can do. Its name in the config file is the variant's name in
/// snake case (`NextUngraded` is `next_ungraded`), derived by strum; a numbered action
/// adds its number: `Bonus(n)` is `bonus_1` … `bonus_19`, `Reason(n)` is `reason_1` …
/// `reason_5`, `Row(n)` is `row_1` … `row_33`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, EnumIter, EnumString, IntoStaticStr,
)]
#[strum(serialize_all = "snake_case")]
pub enum Action {
    Next,
    Prev,
    NextUngraded,
    Skip,
    First,
    Last,
    Jump,
    Search,
    Filter,
    ClearFilters,
    Quit,
    Help,
    Summary,
    Undo,
    Redo,
    Note,
    ScrollDown,
    ScrollUp,
    PageDown,
    PageUp,
    NextModel,
    SideBySide,
    OpenImage,
    ZoomImage,
    /// Hide the picture for the session (the image pane becomes one line).
    HideImage,
    Blind,
    Theme,
    Suspend,
    // CHARTOM
    Identifies,
    Partial,
    Misses,
    FactOverride,
    // CharToM-QA
    /// The selected response's grades as shown: the judge's ticks and penalty, with my
    /// changes to them.
    AcceptJudge,
    Bonus(u8),
    NoBonus,
    Penalty,
    NoPenalty,
    ContextLength,
    /// Scroll the context pane (CharToM-QA, side by side when wide).
    ContextDown,
    ContextUp,
    // C-VQA
    Accept,
    Fix,
    Reject,
    OriginalOverride,
    CounterfactualOverride,
    // other benchmarks
    Pass,
    Fail,
    Unsure,
    // Inspect AI
    /// Grade the next of the sample's scorers (the verdict keys and the note act on it).
    NextScorer,
    // questions (a benchmark declared in a spec)
    /// The selected question's n-th label or value, its n-th point ticked or not, its
    /// text written.
    Answer(u8),
    NextQuestion,
    PrevQuestion,
    // adjudication
    Adjudicate,
    AdjudicationQueue,
    // overlays
    /// Close the help, the summary or the filter menu.
    Close,
    /// Save the text field, or take the selected row.
    Submit,
    /// Leave the overlay without recording anything.
    Cancel,
    SelectNext,
    SelectPrev,
    /// Turn the selected filter on or off.
    Toggle,
    /// Move between the question and the answer of a fix.
    SwitchField,
    /// From a fix's fields to its reason list, to save with another reason than the one
    /// shown.
    PickReason,
    /// Pick the n-th C-VQA reason of a reject or a fix.
    Reason(u8),
    /// Turn the filter menu's n-th row on or off.
    Row(u8),
}

/// The numbers a numbered action takes (the reasons are those of docs/format.md, C-VQA).
/// Bonus points 10 to 19 have keys of their own (Alt and a digit by default): a tick is
/// one key on a checklist of up to 19 points.
const BONUS_POINTS: RangeInclusive<u8> = 1..=19;
const REASONS: RangeInclusive<u8> = 1..=5;
/// The filter menu's rows with a key of their own (the digits and the letters its other
/// keys leave free, by default).
const ROWS: RangeInclusive<u8> = 1..=33;

/// A numbered action's constructor and its numbers.
type Numbered = (fn(u8) -> Action, RangeInclusive<u8>);

impl Action {
    /// Name used in the config file.
    pub fn name(self) -> String {
        let base: &'static str = self.into();
        match self {
            Action::Bonus(n) | Action::Reason(n) | Action::Row(n) | Action::Answer(n) => {
                format!("{base}_{n}")
            }
            _ => base.to_string(),
        }
    }

    /// A numbered action's template (number 0) with its numbers, or `None`.
    fn numbers(self) -> Option<Numbered> {
        match self {
            Action::Bonus(_) => Some((Action::Bonus, BONUS_POINTS)),
            Action::Answer(_) => Some((Action::Answer, BONUS_POINTS)),
            Action::Reason(_) => Some((Action::Reason, REASONS)),
            Action::Row(_) => Some((Action::Row, ROWS)),
            _ => None,
        }
    }

    pub fn describe(self) -> String {
        match self {
            Action::Next => "next item".into(),
            Action::Prev => "previous item".into(),
            Action::NextUngraded => {
                "next item I am not done with (passes over skipped ones)".into()
            }
            Action::Skip => "skip this item for now / unskip it".into(),
            Action::First => "first item".into(),
            Action::Last => "last item".into(),
            Action::Jump => "jump to item number or id".into(),
            Action::Search => "fuzzy search ids and questions".into(),
            Action::Filter => "filters (ungraded, wrong, disagreements, ...)".into(),
            Action::ClearFilters => "clear all filters".into(),
            Action::Quit => "quit (every verdict is already on disk)".into(),
            Action::Help => "this help".into(),
            Action::Summary => "summary: the set's figures".into(),
            Action::Undo => "undo the last verdict".into(),
            Action::Redo => "redo".into(),
            Action::Note => "edit my note on this item".into(),
            Action::ScrollDown => "scroll text down".into(),
            Action::ScrollUp => "scroll text up".into(),
            Action::PageDown => "scroll a page down".into(),
            Action::PageUp => "scroll a page up".into(),
            Action::NextModel => "next model's response".into(),
            Action::SideBySide => {
                "responses side by side (as many as fit, paged by the selected one) / one at a time"
                    .into()
            }
            Action::OpenImage => "open the image in the system viewer".into(),
            Action::ZoomImage => "image fills the screen / back to the item".into(),
            Action::HideImage => {
                "hide the picture for this session (its rows go to the item) / show it".into()
            }
            Action::Blind => "blind mode: hide others' verdicts and the judge".into(),
            Action::Theme => "switch theme (dark / light / mono)".into(),
            Action::Suspend => "suspend to the shell (fg resumes)".into(),
            Action::Identifies => "justification identifies the manipulation".into(),
            Action::Partial => "justification partially identifies it".into(),
            Action::Misses => "justification misses it".into(),
            Action::FactOverride => "override FACT grade: auto / correct / wrong".into(),
            Action::AcceptJudge => {
                "grades as shown: the judge's ticks and penalty, with my changes (the response is graded)"
                    .into()
            }
            Action::Bonus(n) => format!("toggle bonus point {n} covered"),
            Action::Answer(n) => format!(
                "answer {n} of the selected question: its label or value, its point ticked or not; a text question's field"
            ),
            Action::NextQuestion => "select the next question".into(),
            Action::PrevQuestion => "select the previous question".into(),
            Action::NoBonus => "no bonus point covered".into(),
            Action::Penalty => "edit the penalty (defects of the response)".into(),
            Action::NoPenalty => "no penalty (clear it)".into(),
            Action::ContextLength => "plot context length 0 / 1000 / 2000".into(),
            Action::ContextDown => "scroll the context pane down a page (wide screens)".into(),
            Action::ContextUp => "scroll the context pane up a page".into(),
            Action::Accept => "accept the generated question".into(),
            Action::Fix => "fix the counterfactual question / answer".into(),
            Action::Reject => "reject, with a reason".into(),
            Action::OriginalOverride => {
                "override original-answer grade: auto / correct / wrong".into()
            }
            Action::CounterfactualOverride => {
                "override counterfactual-answer grade: auto / correct / wrong".into()
            }
            Action::Pass => "verdict: pass".into(),
            Action::Fail => "verdict: fail".into(),
            Action::Unsure => "verdict: unsure".into(),
            Action::NextScorer => {
                "grade the next scorer (the verdict keys and the note act on it)".into()
            }
            Action::Adjudicate => "record the final (adjudicated) verdict from mine".into(),
            Action::AdjudicationQueue => {
                "adjudication queue: only items whose reviewers disagree, no final verdict yet"
                    .into()
            }
            Action::Close => "close".into(),
            Action::Submit => "save, or take the selected row".into(),
            Action::Cancel => "cancel: leave, recording nothing".into(),
            Action::SelectNext => "next row".into(),
            Action::SelectPrev => "previous row".into(),
            Action::Toggle => "turn the selected filter on / off".into(),
            Action::SwitchField => "switch between question and answer".into(),
            Action::PickReason => "pick another reason for the fix than the one shown".into(),
            Action::Reason(n) => format!("reason {n}"),
            Action::Row(n) => format!("turn the filter of row {n} on / off"),
        }
    }

    /// The footer's word for the action: a short form of [`Action::describe`] (the help
    /// screen's text), and as true.
    pub fn label(self) -> String {
        match self {
            Action::Next => "next".into(),
            Action::Prev => "prev".into(),
            Action::NextUngraded => "next not done".into(),
            Action::Quit => "quit".into(),
            Action::Help => "help".into(),
            Action::Summary => "summary".into(),
            Action::Undo => "undo".into(),
            Action::Note => "note".into(),
            Action::Search => "search".into(),
            Action::Filter => "filter".into(),
            Action::NextModel => "model".into(),
            Action::SideBySide => "side by side".into(),
            Action::Identifies => "identifies".into(),
            Action::Partial => "partial".into(),
            Action::Misses => "misses".into(),
            Action::FactOverride => "FACT".into(),
            Action::AcceptJudge => "accept".into(),
            Action::Bonus(_) => "bonus".into(),
            Action::NoBonus => "no bonus".into(),
            Action::Penalty => "penalty".into(),
            // (after the penalty key: `e penalty  0 none`)
            Action::NoPenalty => "none".into(),
            Action::ContextLength => "context".into(),
            Action::ContextDown => "context ↓".into(),
            Action::ContextUp => "context ↑".into(),
            Action::Accept => "accept".into(),
            Action::Fix => "fix".into(),
            Action::Reject => "reject".into(),
            Action::OriginalOverride => "orig".into(),
            Action::CounterfactualOverride => "cf".into(),
            Action::Pass => "pass".into(),
            Action::Fail => "fail".into(),
            Action::Unsure => "unsure".into(),
            Action::NextScorer => "next scorer".into(),
            Action::Answer(_) => "answer".into(),
            Action::NextQuestion => "next question".into(),
            Action::PrevQuestion => "previous question".into(),
            Action::Submit => "ok".into(),
            Action::Cancel => "cancel".into(),
            Action::SelectNext | Action::SelectPrev => "move".into(),
            Action::Toggle => "toggle".into(),
            Action::SwitchField => "switch".into(),
            Action::PickReason => "another reason".into(),
            Action::Reason(_) => "reason".into(),
            other => other.describe(),
        }
    }

    pub fn from_name(name: &str) -> Option<Action> {
        for template in Action::iter() {
            let Some((make, range)) = template.numbers() else {
                continue;
            };
            let base: &'static str = template.into();
            if let Some(n) = name
                .strip_prefix(base)
                .and_then(|rest| rest.strip_prefix('_'))
            {
                return n.parse().ok().filter(|n| range.contains(n)).map(make);
            }
        }
        name.parse().ok().filter(|a: &Action| a.numbers().is_none())
    }

    /// Every action, each number of a numbered one included.
    pub fn all() -> Vec<Action> {
        Action::iter()
            .flat_map(|a| match a.numbers() {
                Some((make, range)) => range.map(make).collect(),
                None => vec![a],
            })
            .collect()
    }
}
