//! What a key can do, with its name in the config file and its words on screen.

use std::ops::RangeInclusive;

use strum::{EnumIter, EnumString, IntoEnumIterator, IntoStaticStr};

/// Everything a key can do. Its name in the config file is the variant's name in
/// snake case (`NextUngraded` is `next_ungraded`), derived by strum; a numbered action
/// adds its number: `Answer(n)` is `answer_1` … `answer_19`, `Row(n)` is `row_1` …
/// `row_33`. A benchmark's own verbs are its view's (`Verb`), named there.
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
    /// A folder's set: the same sample in the next model's or run's file.
    NextRun,
    OpenImage,
    ZoomImage,
    /// Hide the picture for the session (the image pane becomes one line).
    HideImage,
    Blind,
    Theme,
    Suspend,
    // the free verdict (its values are the benchmark's: `Spec::verdicts`)
    Pass,
    Fail,
    Unsure,
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
    /// In a text field: the cursor on the last such character before it (again: the one
    /// before), which the next character typed replaces. Bound to `alt-char` (Alt and the
    /// character), or to a key of its own, after which the character is typed.
    FindChar,
    /// Turn the filter menu's n-th row on or off.
    Row(u8),
    /// A benchmark's own verb, declared by its view (`View::verbs`): its grading keys and
    /// its popups' keys. Last, so that a table's shared actions come first in the help.
    #[strum(disabled)]
    Verb(Verb),
}

/// A verb of a benchmark's view: its name in the keys file, its words, its numbers. Each
/// is a `static` in its view's folder; a key's action holds a reference to it
/// ([`VerbDef::action`], [`VerbDef::nth`]).
#[derive(Debug)]
pub struct VerbDef {
    /// Its place among its table's verbs: the help lists them in this order.
    pub rank: u8,
    /// Its name in the keys file (a numbered verb's names add `_<n>`).
    pub name: &'static str,
    /// The numbers a numbered verb takes (`bonus_1` … `bonus_19`), or `None`.
    pub numbers: Option<RangeInclusive<u8>>,
    /// The help's words; `{n}` is the number of a numbered verb.
    pub describe: &'static str,
    /// The footer's word.
    pub label: &'static str,
    /// The footer's shorter word, when its grading keys do not fit with the long ones.
    pub short: Option<&'static str>,
}

impl VerbDef {
    /// An unnumbered verb.
    pub const fn new(
        rank: u8,
        name: &'static str,
        describe: &'static str,
        label: &'static str,
    ) -> VerbDef {
        VerbDef {
            rank,
            name,
            numbers: None,
            describe,
            label,
            short: None,
        }
    }

    /// A numbered verb: `name_<n>` for each `n` of `numbers`.
    pub const fn numbered(
        rank: u8,
        name: &'static str,
        numbers: RangeInclusive<u8>,
        describe: &'static str,
        label: &'static str,
    ) -> VerbDef {
        VerbDef {
            rank,
            name,
            numbers: Some(numbers),
            describe,
            label,
            short: None,
        }
    }

    /// The same with a shorter footer word.
    pub const fn short(self, short: &'static str) -> VerbDef {
        VerbDef {
            short: Some(short),
            ..self
        }
    }

    /// The action of an unnumbered verb.
    pub fn action(&'static self) -> Action {
        Action::Verb(Verb { def: self, n: 0 })
    }

    /// The action of a numbered verb's number `n`.
    pub fn nth(&'static self, n: u8) -> Action {
        Action::Verb(Verb { def: self, n })
    }

    /// Its actions, each number of a numbered one.
    fn actions(&'static self) -> Vec<Action> {
        match &self.numbers {
            Some(r) => r.clone().map(|n| self.nth(n)).collect(),
            None => vec![self.action()],
        }
    }
}

/// A key's verb: its definition and its number (0 for an unnumbered verb).
#[derive(Debug, Clone, Copy)]
pub struct Verb {
    pub def: &'static VerbDef,
    pub n: u8,
}

impl Verb {
    /// Is it `def`'s (whatever its number)?
    pub fn is(self, def: &'static VerbDef) -> bool {
        std::ptr::eq(self.def, def)
    }

    fn key(self) -> (u8, &'static str, u8) {
        (self.def.rank, self.def.name, self.n)
    }
}

impl PartialEq for Verb {
    fn eq(&self, other: &Verb) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Verb {}

impl std::hash::Hash for Verb {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.key().hash(h)
    }
}

impl PartialOrd for Verb {
    fn partial_cmp(&self, other: &Verb) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Verb {
    fn cmp(&self, other: &Verb) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

/// The numbers a numbered action takes: a question's answers 10 to 19 have keys of their
/// own (Alt and a digit by default).
const ANSWERS: RangeInclusive<u8> = 1..=19;
/// The filter menu's rows with a key of their own (the digits and the letters its other
/// keys leave free, by default).
const ROWS: RangeInclusive<u8> = 1..=33;

/// A numbered action's constructor and its numbers.
type Numbered = (fn(u8) -> Action, RangeInclusive<u8>);

impl Action {
    /// Name used in the config file.
    pub fn name(self) -> String {
        let base: &'static str = match self {
            Action::Verb(v) => v.def.name,
            a => a.into(),
        };
        match self {
            Action::Verb(v) if v.def.numbers.is_some() => format!("{}_{}", v.def.name, v.n),
            Action::Verb(v) => v.def.name.to_string(),
            Action::Row(n) | Action::Answer(n) => format!("{base}_{n}"),
            _ => base.to_string(),
        }
    }

    /// A numbered action's template (number 0) with its numbers, or `None`.
    fn numbers(self) -> Option<Numbered> {
        match self {
            Action::Answer(_) => Some((Action::Answer, ANSWERS)),
            Action::Row(_) => Some((Action::Row, ROWS)),
            _ => None,
        }
    }

    pub fn describe(self) -> String {
        match self {
            Action::Verb(v) => v.def.describe.replace("{n}", &v.n.to_string()),
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
            Action::NextRun => {
                "a folder's set: the same sample in the next model's or run's file".into()
            }
            Action::OpenImage => "open the image in the system viewer".into(),
            Action::ZoomImage => "image fills the screen / back to the item".into(),
            Action::HideImage => {
                "hide the picture for this session (its rows go to the item) / show it".into()
            }
            Action::Blind => "blind mode: hide others' verdicts and the judge".into(),
            Action::Theme => "switch theme (dark / light / mono)".into(),
            Action::Suspend => "suspend to the shell (fg resumes)".into(),
            Action::Answer(n) => format!(
                "answer {n} of the selected question: its label or value, its point ticked or not; a text question's field"
            ),
            Action::NextQuestion => "select the next question".into(),
            Action::PrevQuestion => "select the previous question".into(),
            Action::Pass => "verdict: pass".into(),
            Action::Fail => "verdict: fail".into(),
            Action::Unsure => "verdict: unsure".into(),
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
            Action::FindChar => {
                "the cursor on that character before it (again: the one before); the next one typed replaces it"
                    .into()
            }
            Action::Row(n) => format!("turn the filter of row {n} on / off"),
        }
    }

    /// The footer's word for the action: a short form of [`Action::describe`] (the help
    /// screen's text), and as true.
    pub fn label(self) -> String {
        match self {
            Action::Verb(v) => v.def.label.into(),
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
            Action::NextRun => "next run".into(),
            Action::Pass => "pass".into(),
            Action::Fail => "fail".into(),
            Action::Unsure => "unsure".into(),
            Action::Answer(_) => "answer".into(),
            Action::NextQuestion => "next question".into(),
            Action::PrevQuestion => "previous question".into(),
            Action::Submit => "ok".into(),
            Action::Cancel => "cancel".into(),
            Action::SelectNext | Action::SelectPrev => "move".into(),
            Action::Toggle => "toggle".into(),
            Action::FindChar => "finds".into(),
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
        let shared = name.parse().ok().filter(|a: &Action| a.numbers().is_none());
        shared.or_else(|| {
            crate::tui::views::verbs().find_map(|def| match &def.numbers {
                Some(range) => name
                    .strip_prefix(def.name)
                    .and_then(|rest| rest.strip_prefix('_'))
                    .and_then(|n| n.parse().ok())
                    .filter(|n| range.contains(n))
                    .map(|n| def.nth(n)),
                None => (name == def.name).then(|| def.action()),
            })
        })
    }

    /// Every action, each number of a numbered one included, the views' verbs last.
    pub fn all() -> Vec<Action> {
        Action::iter()
            .flat_map(|a| match a.numbers() {
                Some((make, range)) => range.map(make).collect(),
                None => vec![a],
            })
            .chain(crate::tui::views::verbs().flat_map(VerbDef::actions))
            .collect()
    }
}
