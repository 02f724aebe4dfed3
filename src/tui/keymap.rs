//! Keybindings are data: a table of (context, key, action). The `?` help is generated from
//! it, and the user's config file (`[keys]` in config.toml) remaps actions.

use std::collections::BTreeMap;
use std::fmt;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use strum::{EnumIter, EnumString, IntoEnumIterator, IntoStaticStr};

/// Where a binding applies. `Global` bindings work in every item view; benchmark contexts
/// add the grading keys of that view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Context {
    Global,
    Chartom,
    ChartomQa,
    Cvqa,
    Generic,
}

impl Context {
    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "Everywhere",
            Context::Chartom => "CHARTOM",
            Context::ChartomQa => "CharToM-QA",
            Context::Cvqa => "C-VQA",
            Context::Generic => "Other benchmarks",
        }
    }
}

/// Everything a key can do. Its name in the config file is the variant's name in
/// snake case (`NextUngraded` is `next_ungraded`), derived by strum; `Bonus(n)` is
/// `bonus_1` … `bonus_9`.
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
    Blind,
    Theme,
    Suspend,
    // CHARTOM
    Identifies,
    Partial,
    Misses,
    FactOverride,
    // CharToM-QA
    Bonus(u8),
    NoBonus,
    Penalty,
    NoPenalty,
    ContextLength,
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
    // adjudication
    Adjudicate,
    AdjudicationQueue,
}

impl Action {
    /// Name used in the config file.
    pub fn name(self) -> String {
        let base: &'static str = self.into();
        match self {
            Action::Bonus(n) => format!("{base}_{n}"),
            _ => base.to_string(),
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
            Action::Blind => "blind mode: hide others' verdicts and the judge".into(),
            Action::Theme => "switch theme (dark / light / mono)".into(),
            Action::Suspend => "suspend to the shell (fg resumes)".into(),
            Action::Identifies => "justification identifies the manipulation".into(),
            Action::Partial => "justification partially identifies it".into(),
            Action::Misses => "justification misses it".into(),
            Action::FactOverride => "override FACT grade: auto / correct / wrong".into(),
            Action::Bonus(n) => format!("toggle bonus point {n} covered"),
            Action::NoBonus => "no bonus point covered".into(),
            Action::Penalty => "edit the penalty (defects of the response)".into(),
            Action::NoPenalty => "no penalty (clear it)".into(),
            Action::ContextLength => "plot context length 0 / 1000 / 2000".into(),
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
            Action::Adjudicate => "record the final (adjudicated) verdict from mine".into(),
            Action::AdjudicationQueue => {
                "adjudication queue: only items whose reviewers disagree, no final verdict yet"
                    .into()
            }
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
            Action::Bonus(_) => "bonus".into(),
            Action::NoBonus => "no bonus".into(),
            Action::Penalty => "penalty".into(),
            Action::NoPenalty => "no penalty".into(),
            Action::ContextLength => "context".into(),
            Action::Accept => "accept".into(),
            Action::Fix => "fix".into(),
            Action::Reject => "reject".into(),
            Action::OriginalOverride => "orig".into(),
            Action::CounterfactualOverride => "cf".into(),
            Action::Pass => "pass".into(),
            Action::Fail => "fail".into(),
            Action::Unsure => "unsure".into(),
            other => other.describe(),
        }
    }

    pub fn from_name(name: &str) -> Option<Action> {
        if let Some(n) = name.strip_prefix("bonus_") {
            return n
                .parse()
                .ok()
                .filter(|n| (1..=9).contains(n))
                .map(Action::Bonus);
        }
        name.parse().ok().filter(|a| !matches!(a, Action::Bonus(_)))
    }

    /// Every action, bonus points 1–9 included.
    pub fn all() -> Vec<Action> {
        Action::iter()
            .flat_map(|a| match a {
                Action::Bonus(_) => (1..=9).map(Action::Bonus).collect(),
                a => vec![a],
            })
            .collect()
    }
}

/// A key with its modifiers, as written in the config file: `n`, `N`, `Right`, `ctrl-r`,
/// `PageDown`, `Space`, `?`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
    pub alt: bool,
}

impl Key {
    pub const fn ch(c: char) -> Key {
        Key {
            code: KeyCode::Char(c),
            ctrl: false,
            alt: false,
        }
    }
    pub const fn code(code: KeyCode) -> Key {
        Key {
            code,
            ctrl: false,
            alt: false,
        }
    }
    pub const fn ctrl(c: char) -> Key {
        Key {
            code: KeyCode::Char(c),
            ctrl: true,
            alt: false,
        }
    }

    pub fn from_event(ev: &KeyEvent) -> Key {
        Key {
            code: match ev.code {
                // Shift is part of the character already; normalise BackTab.
                KeyCode::BackTab => KeyCode::BackTab,
                c => c,
            },
            ctrl: ev.modifiers.contains(KeyModifiers::CONTROL),
            alt: ev.modifiers.contains(KeyModifiers::ALT),
        }
    }

    pub fn parse(s: &str) -> Option<Key> {
        let mut ctrl = false;
        let mut alt = false;
        let mut rest = s;
        loop {
            let lower = rest.to_ascii_lowercase();
            if lower.starts_with("ctrl-") || lower.starts_with("ctrl+") {
                ctrl = true;
                rest = &rest[5..];
            } else if lower.starts_with("alt-") || lower.starts_with("alt+") {
                alt = true;
                rest = &rest[4..];
            } else {
                break;
            }
        }
        let code = match rest.to_ascii_lowercase().as_str() {
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "pageup" | "pgup" => KeyCode::PageUp,
            "pagedown" | "pgdn" => KeyCode::PageDown,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "enter" => KeyCode::Enter,
            "esc" | "escape" => KeyCode::Esc,
            "tab" => KeyCode::Tab,
            "backtab" => KeyCode::BackTab,
            "space" => KeyCode::Char(' '),
            "backspace" => KeyCode::Backspace,
            "delete" | "del" => KeyCode::Delete,
            _ => {
                let mut cs = rest.chars();
                let c = cs.next()?;
                if cs.next().is_some() {
                    if let Some(n) = rest
                        .strip_prefix(['F', 'f'])
                        .and_then(|n| n.parse::<u8>().ok())
                    {
                        KeyCode::F(n)
                    } else {
                        return None;
                    }
                } else {
                    KeyCode::Char(if ctrl { c.to_ascii_lowercase() } else { c })
                }
            }
        };
        Some(Key { code, ctrl, alt })
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("Ctrl-")?;
        }
        if self.alt {
            f.write_str("Alt-")?;
        }
        match self.code {
            KeyCode::Char(' ') => f.write_str("Space"),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::Left => f.write_str("←"),
            KeyCode::Right => f.write_str("→"),
            KeyCode::Up => f.write_str("↑"),
            KeyCode::Down => f.write_str("↓"),
            KeyCode::PageUp => f.write_str("PgUp"),
            KeyCode::PageDown => f.write_str("PgDn"),
            KeyCode::Home => f.write_str("Home"),
            KeyCode::End => f.write_str("End"),
            KeyCode::Enter => f.write_str("Enter"),
            KeyCode::Esc => f.write_str("Esc"),
            KeyCode::Tab => f.write_str("Tab"),
            KeyCode::F(n) => write!(f, "F{n}"),
            other => write!(f, "{other:?}"),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Binding {
    pub context: Context,
    pub key: Key,
    pub action: Action,
}

#[derive(Debug, Clone)]
pub struct Keymap {
    pub bindings: Vec<Binding>,
}

impl Default for Keymap {
    fn default() -> Self {
        use Action::*;
        use Context::*;
        let mut b = Vec::new();
        let mut add = |context, keys: &[Key], action| {
            for &key in keys {
                b.push(Binding {
                    context,
                    key,
                    action,
                });
            }
        };
        add(
            Global,
            &[
                Key::ch('n'),
                Key::code(KeyCode::Right),
                Key::code(KeyCode::Down),
            ],
            Next,
        );
        add(
            Global,
            &[
                Key::ch('p'),
                Key::code(KeyCode::Left),
                Key::code(KeyCode::Up),
            ],
            Prev,
        );
        add(
            Global,
            &[Key::ch(' '), Key::code(KeyCode::Tab)],
            NextUngraded,
        );
        add(Global, &[Key::ch('S')], Skip);
        add(Global, &[Key::ch('g'), Key::code(KeyCode::Home)], First);
        add(Global, &[Key::ch('G'), Key::code(KeyCode::End)], Last);
        add(Global, &[Key::ch(':')], Jump);
        add(Global, &[Key::ch('/')], Search);
        add(Global, &[Key::ch('F')], Filter);
        add(Global, &[Key::ch('X')], ClearFilters);
        add(Global, &[Key::ch('q')], Quit);
        add(Global, &[Key::ch('?')], Help);
        add(Global, &[Key::ch('s')], Summary);
        add(Global, &[Key::ch('u')], Undo);
        add(Global, &[Key::ctrl('r')], Redo);
        add(Global, &[Key::ch('i')], Note);
        add(Global, &[Key::ch('j')], ScrollDown);
        add(Global, &[Key::ch('k')], ScrollUp);
        add(Global, &[Key::code(KeyCode::PageDown)], PageDown);
        add(Global, &[Key::code(KeyCode::PageUp)], PageUp);
        add(Global, &[Key::ch('m')], NextModel);
        add(Global, &[Key::ch('M')], SideBySide);
        add(Global, &[Key::ch('O')], OpenImage);
        add(Global, &[Key::ch('z')], ZoomImage);
        add(Global, &[Key::ch('b')], Blind);
        add(Global, &[Key::ch('T')], Theme);
        add(Global, &[Key::ctrl('z')], Suspend);
        add(Global, &[Key::ch('A')], Adjudicate);
        add(Global, &[Key::ch('D')], AdjudicationQueue);
        add(Chartom, &[Key::ch('1')], Identifies);
        add(Chartom, &[Key::ch('2')], Partial);
        add(Chartom, &[Key::ch('3')], Misses);
        add(Chartom, &[Key::ch('x')], FactOverride);
        for n in 1..=9u8 {
            add(ChartomQa, &[Key::ch((b'0' + n) as char)], Bonus(n));
        }
        add(ChartomQa, &[Key::ch('x')], NoBonus);
        add(ChartomQa, &[Key::ch('e')], Penalty);
        add(ChartomQa, &[Key::ch('0')], NoPenalty);
        add(ChartomQa, &[Key::ch('c')], ContextLength);
        add(Cvqa, &[Key::ch('a')], Accept);
        add(Cvqa, &[Key::ch('f')], Fix);
        add(Cvqa, &[Key::ch('r')], Reject);
        add(Cvqa, &[Key::ch('1')], OriginalOverride);
        add(Cvqa, &[Key::ch('2')], CounterfactualOverride);
        add(Generic, &[Key::ch('1')], Pass);
        add(Generic, &[Key::ch('2')], Fail);
        add(Generic, &[Key::ch('3')], Unsure);
        Keymap { bindings: b }
    }
}

impl Keymap {
    /// The action of `key` in `context` (benchmark bindings shadow global ones).
    pub fn lookup(&self, context: Context, key: Key) -> Option<Action> {
        let find = |c: Context| {
            self.bindings
                .iter()
                .find(|b| b.context == c && b.key == key)
                .map(|b| b.action)
        };
        if context != Context::Global
            && let Some(a) = find(context)
        {
            return Some(a);
        }
        find(Context::Global)
    }

    /// Keys bound to `action` (in `context`, or globally).
    pub fn keys_for(&self, context: Context, action: Action) -> Vec<Key> {
        self.bindings
            .iter()
            .filter(|b| {
                b.action == action && (b.context == context || b.context == Context::Global)
            })
            .map(|b| b.key)
            .collect()
    }

    /// The first key of `action`, for hints in the footer.
    pub fn hint(&self, context: Context, action: Action) -> String {
        self.keys_for(context, action)
            .first()
            .map(|k| k.to_string())
            .unwrap_or_else(|| "(unbound)".into())
    }

    /// Help rows: (keys, description) for the global context and `context`.
    pub fn help(&self, context: Context) -> Vec<(Context, String, String)> {
        let mut rows: Vec<(Context, Action, Vec<Key>)> = Vec::new();
        for ctx in [context, Context::Global] {
            for b in self.bindings.iter().filter(|b| b.context == ctx) {
                match rows.iter_mut().find(|r| r.0 == ctx && r.1 == b.action) {
                    Some(r) => r.2.push(b.key),
                    None => rows.push((ctx, b.action, vec![b.key])),
                }
            }
            if context == Context::Global {
                break;
            }
        }
        rows.into_iter()
            .map(|(c, a, ks)| {
                let keys = ks
                    .iter()
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
                    .join(" ");
                (c, keys, a.describe())
            })
            .collect()
    }

    /// Apply `[keys]` from the config: `action = ["key", ...]` or `"context.action" = [...]`
    /// (context: global, chartom, chartom-qa, cvqa, generic). A remapped action loses its
    /// default keys in that context. Returns problems found (unknown actions or keys).
    pub fn apply_config(&mut self, keys: &BTreeMap<String, Vec<String>>) -> Vec<String> {
        let mut problems = Vec::new();
        for (name, specs) in keys {
            let (ctx_name, action_name) = match name.split_once('.') {
                Some((c, a)) => (Some(c), a),
                None => (None, name.as_str()),
            };
            let Some(action) = Action::from_name(action_name) else {
                problems.push(format!("unknown action `{action_name}`"));
                continue;
            };
            let context = match ctx_name {
                None => self
                    .bindings
                    .iter()
                    .find(|b| b.action == action)
                    .map(|b| b.context)
                    .unwrap_or(Context::Global),
                Some("global") => Context::Global,
                Some("chartom") => Context::Chartom,
                Some("chartom-qa") | Some("chartom_qa") => Context::ChartomQa,
                Some("cvqa") => Context::Cvqa,
                Some("generic") | Some("other") => Context::Generic,
                Some(other) => {
                    problems.push(format!("unknown context `{other}` in `{name}`"));
                    continue;
                }
            };
            let mut parsed = Vec::new();
            for s in specs {
                match Key::parse(s) {
                    Some(k) => parsed.push(k),
                    None => problems.push(format!("unknown key `{s}` for `{name}`")),
                }
            }
            if parsed.is_empty() {
                continue;
            }
            self.bindings
                .retain(|b| !(b.action == action && b.context == context));
            // The new keys take over: remove other bindings of the same keys in this context.
            self.bindings
                .retain(|b| !(b.context == context && parsed.contains(&b.key)));
            for key in parsed {
                self.bindings.push(Binding {
                    context,
                    key,
                    action,
                });
            }
        }
        problems
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_issue() {
        let km = Keymap::default();
        assert_eq!(km.lookup(Context::Cvqa, Key::ch('a')), Some(Action::Accept));
        assert_eq!(km.lookup(Context::Cvqa, Key::ch('f')), Some(Action::Fix));
        assert_eq!(km.lookup(Context::Cvqa, Key::ch('r')), Some(Action::Reject));
        assert_eq!(
            km.lookup(Context::Chartom, Key::ch('1')),
            Some(Action::Identifies)
        );
        assert_eq!(
            km.lookup(Context::Chartom, Key::ch('3')),
            Some(Action::Misses)
        );
        assert_eq!(
            km.lookup(Context::ChartomQa, Key::ch('7')),
            Some(Action::Bonus(7))
        );
        assert_eq!(
            km.lookup(Context::ChartomQa, Key::ch('e')),
            Some(Action::Penalty)
        );
        assert_eq!(km.lookup(Context::Cvqa, Key::ch('n')), Some(Action::Next));
        assert_eq!(
            km.lookup(Context::Cvqa, Key::code(KeyCode::Left)),
            Some(Action::Prev)
        );
        assert_eq!(km.lookup(Context::Global, Key::ch('u')), Some(Action::Undo));
        assert_eq!(
            km.lookup(Context::Global, Key::ctrl('r')),
            Some(Action::Redo)
        );
        assert_eq!(km.lookup(Context::Global, Key::ch('?')), Some(Action::Help));
        assert_eq!(km.lookup(Context::Global, Key::ch('a')), None);
    }

    #[test]
    fn no_key_is_bound_twice_in_one_context() {
        let km = Keymap::default();
        for (i, a) in km.bindings.iter().enumerate() {
            for b in &km.bindings[i + 1..] {
                assert!(
                    !(a.context == b.context && a.key == b.key),
                    "{a:?} vs {b:?}"
                );
            }
        }
    }

    #[test]
    fn config_remaps() {
        let mut km = Keymap::default();
        let mut cfg = BTreeMap::new();
        cfg.insert("cvqa.accept".to_string(), vec!["y".to_string()]);
        cfg.insert(
            "next".to_string(),
            vec!["l".to_string(), "ctrl-n".to_string()],
        );
        cfg.insert("fly".to_string(), vec!["z".to_string()]);
        let problems = km.apply_config(&cfg);
        assert_eq!(problems, vec!["unknown action `fly`".to_string()]);
        assert_eq!(km.lookup(Context::Cvqa, Key::ch('y')), Some(Action::Accept));
        assert_eq!(km.lookup(Context::Cvqa, Key::ch('a')), None);
        assert_eq!(km.lookup(Context::Cvqa, Key::ch('l')), Some(Action::Next));
        assert_eq!(km.lookup(Context::Cvqa, Key::ctrl('n')), Some(Action::Next));
        assert_eq!(km.lookup(Context::Cvqa, Key::ch('n')), None);
    }

    #[test]
    fn action_names_round_trip() {
        for a in Action::all() {
            assert_eq!(Action::from_name(&a.name()), Some(a), "{}", a.name());
        }
        assert_eq!(Action::NextUngraded.name(), "next_ungraded");
        assert_eq!(Action::Bonus(3).name(), "bonus_3");
        assert_eq!(
            Action::CounterfactualOverride.name(),
            "counterfactual_override"
        );
        assert_eq!(Action::all().len(), 45 + 9);
        for bad in ["bonus", "bonus_0", "bonus_10", "Next", "next-ungraded"] {
            assert_eq!(Action::from_name(bad), None, "{bad}");
        }
    }

    /// The names users wrote in their config before the names came from strum: the
    /// `Debug` name in snake case.
    #[test]
    fn config_names_are_the_ones_users_know() {
        for a in Action::all() {
            let old = match a {
                Action::Bonus(n) => format!("bonus_{n}"),
                other => {
                    let mut out = String::new();
                    for (i, c) in format!("{other:?}").chars().enumerate() {
                        if c.is_uppercase() && i > 0 {
                            out.push('_');
                        }
                        out.push(c.to_ascii_lowercase());
                    }
                    out
                }
            };
            assert_eq!(a.name(), old);
        }
    }

    #[test]
    fn help_lists_view_and_global_keys() {
        let km = Keymap::default();
        let rows = km.help(Context::Cvqa);
        assert!(rows.iter().any(|r| r.0 == Context::Cvqa && r.1 == "a"));
        assert!(
            rows.iter()
                .any(|r| r.0 == Context::Global && r.1.starts_with("n → ↓"))
        );
        assert!(!rows.iter().any(|r| r.0 == Context::Chartom));
    }
}
