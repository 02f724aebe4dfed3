//! Keybindings are data: a table of (context, key, action). The `?` help is generated from
//! it, and the user's config file (`[keys]` in config.toml) remaps actions.

use std::collections::BTreeMap;
use std::str::FromStr;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use strum::{EnumIter, IntoEnumIterator, IntoStaticStr};

use crate::bench::Benchmark;

mod action;
mod key;

pub use action::{Action, Verb, VerbDef};
pub use key::Key;

/// Where a binding applies: a table of `default-keys.toml`, named in kebab case
/// (`chartom-qa`). `Global` bindings work in every item view; a benchmark's context adds
/// the grading keys of its view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, EnumIter, IntoStaticStr)]
#[strum(serialize_all = "kebab-case")]
pub enum Context {
    Global,
    /// A benchmark's own grading keys: its table is the benchmark's name (`chartom-qa`,
    /// also written `chartom_qa`), for the benchmarks whose view grades with keys of
    /// its own (`View::context`; `views::keyed_benchmarks`).
    #[strum(disabled)]
    Benchmark(Benchmark),
    /// The three verdict keys of a benchmark graded by a free verdict (table `generic`,
    /// also written `other`).
    Generic,
    // Overlays: only their own keys reach them.
    Help,
    Summary,
    Filter,
    Search,
    Jump,
    Note,
    /// A benchmark's popup's keys: the view that opens it declares its table
    /// (`View::tables`).
    #[strum(disabled)]
    Popup(&'static Table),
}

/// A benchmark's popup's key table: its name in `default-keys.toml` (kebab case), its
/// title in the help, its place among the popups' tables. A `static` in the view's folder.
#[derive(Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Table {
    pub rank: u8,
    pub name: &'static str,
    pub title: &'static str,
}

impl Context {
    pub fn title(self) -> &'static str {
        match self {
            Context::Global => "Everywhere",
            Context::Benchmark(b) => b.title(),
            Context::Generic => "Other benchmarks",
            Context::Help => "Help",
            Context::Summary => "Summary",
            Context::Filter => "Filters",
            Context::Search => "Search",
            Context::Jump => "Jump",
            Context::Note => "Note",
            Context::Popup(t) => t.title,
        }
    }

    /// The item view (everywhere, or one benchmark's), not an overlay.
    pub fn is_view(self) -> bool {
        matches!(
            self,
            Context::Global | Context::Benchmark(_) | Context::Generic
        )
    }

    /// The name of its table in `default-keys.toml` and in `context.action` in the config.
    pub fn name(self) -> &'static str {
        match self {
            Context::Benchmark(b) => b.name(),
            Context::Popup(t) => t.name,
            c => c.into(),
        }
    }
}

impl FromStr for Context {
    type Err = strum::ParseError;

    /// A table's name (`kebab-case`); a benchmark's with `_` for `-` too, and `other`
    /// for `generic`, as older keys files write them.
    fn from_str(s: &str) -> Result<Context, strum::ParseError> {
        if s == "other" {
            return Ok(Context::Generic);
        }
        Context::iter()
            .find(|c| c.name() == s)
            .or_else(|| {
                crate::tui::views::keyed_benchmarks()
                    .find(|b| b.name() == s || b.name().replace('-', "_") == s)
                    .map(Context::Benchmark)
            })
            .or_else(|| {
                crate::tui::views::tables()
                    .find(|t| t.name == s)
                    .map(Context::Popup)
            })
            .ok_or(strum::ParseError::VariantNotFound)
    }
}

/// The default keys: one table per context, `action = ["key", ...]`.
const DEFAULT_KEYS: &str = include_str!("default-keys.toml");
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    pub context: Context,
    pub key: Key,
    pub action: Action,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Keymap {
    pub bindings: Vec<Binding>,
}

impl Default for Keymap {
    /// The keys of `default-keys.toml` (a test checks that every line of it parses).
    fn default() -> Self {
        let (km, problems) = Keymap::from_toml(DEFAULT_KEYS);
        debug_assert!(problems.is_empty(), "default-keys.toml: {problems:?}");
        km
    }
}

impl Keymap {
    /// Read a keys file (tables of `action = ["key", ...]` per context). What cannot be
    /// read is left out and reported.
    pub fn from_toml(text: &str) -> (Keymap, Vec<String>) {
        let mut problems = Vec::new();
        let tables: BTreeMap<String, BTreeMap<String, Vec<String>>> = match toml::from_str(text) {
            Ok(t) => t,
            Err(e) => return (Keymap { bindings: vec![] }, vec![e.to_string()]),
        };
        let mut bindings = Vec::new();
        for (table, actions) in &tables {
            let Ok(context) = table.parse::<Context>() else {
                problems.push(format!("unknown context `{table}`"));
                continue;
            };
            for (name, specs) in actions {
                let Some(action) = Action::from_name(name) else {
                    problems.push(format!("unknown action `{name}` in `{table}`"));
                    continue;
                };
                for spec in specs {
                    match Key::parse(spec) {
                        Some(key) => bindings.push(Binding {
                            context,
                            key,
                            action,
                        }),
                        None => problems.push(format!("unknown key `{spec}` for `{table}.{name}`")),
                    }
                }
            }
        }
        // The help lists actions in the enum's order (a stable sort keeps each action's
        // keys in the order the file gives them).
        bindings.sort_by_key(|b| (b.context, b.action));
        (Keymap { bindings }, problems)
    }

    fn find(&self, context: Context, key: Key) -> Option<Action> {
        self.bindings
            .iter()
            .find(|b| b.context == context && b.key == key)
            .map(|b| b.action)
    }

    /// The action of `key` in `context`: in an item view, benchmark bindings shadow global
    /// ones; an overlay has only its own.
    pub fn lookup(&self, context: Context, key: Key) -> Option<Action> {
        self.find(context, key).or_else(|| {
            (context != Context::Global && context.is_view())
                .then(|| self.find(Context::Global, key))
                .flatten()
        })
    }

    /// The action of a key pressed in an overlay. A special key (Enter, Esc, arrows, Tab,
    /// ...) not bound with its Ctrl or Alt is taken without them, as the overlays took
    /// keys before they were data; in a multi-line field, Alt-Enter and Shift-Enter stay
    /// the field's (a new line). A character with Ctrl or Alt not bound itself is the
    /// action of `ctrl-char` / `alt-char`, if any.
    pub fn in_overlay(&self, context: Context, ev: &KeyEvent, multiline: bool) -> Option<Action> {
        let newline = ev.code == KeyCode::Enter
            && ev
                .modifiers
                .intersects(KeyModifiers::ALT | KeyModifiers::SHIFT);
        if multiline && newline {
            return None;
        }
        let key = Key::from_event(ev);
        self.lookup(context, key).or_else(|| match key.code {
            KeyCode::Char(_) if key.ctrl || key.alt => self.lookup(
                context,
                Key {
                    code: Key::ANY_CHAR,
                    ..key
                },
            ),
            KeyCode::Char(_) => None,
            code => self.lookup(context, Key::code(code)),
        })
    }

    /// Keys bound to `action` in `context` (and globally, in an item view).
    pub fn keys_for(&self, context: Context, action: Action) -> Vec<Key> {
        self.bindings
            .iter()
            .filter(|b| {
                b.action == action
                    && (b.context == context || (context.is_view() && b.context == Context::Global))
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

    /// Help rows: (keys, description) for `context`, and for the global context when
    /// `context` is an item view.
    pub fn help(&self, context: Context) -> Vec<(Context, String, String)> {
        self.help_rows(context)
            .into_iter()
            .map(|(c, a, keys)| (c, keys, a.describe()))
            .collect()
    }

    /// The help's rows as [`Keymap::help`], with each row's action (for a text of the
    /// screen's own, as the verdict values of the item's benchmark).
    pub fn help_rows(&self, context: Context) -> Vec<(Context, Action, String)> {
        let mut rows: Vec<(Context, Action, Vec<Key>)> = Vec::new();
        for ctx in [context, Context::Global] {
            for b in self.bindings.iter().filter(|b| b.context == ctx) {
                match rows.iter_mut().find(|r| r.0 == ctx && r.1 == b.action) {
                    Some(r) => r.2.push(b.key),
                    None => rows.push((ctx, b.action, vec![b.key])),
                }
            }
            if context == Context::Global || !context.is_view() {
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
                (c, a, keys)
            })
            .collect()
    }

    /// Apply `[keys]` from the config: `action = ["key", ...]` or `"context.action" = [...]`
    /// (context: a table of `default-keys.toml`). A plain name is the item view's action
    /// (the view that binds it by default, else `global`); an action only overlays bind
    /// (`cancel`, `submit`, ...) is remapped in every overlay that binds it. A
    /// `context.action` line wins over a plain one. A remapped action loses its default
    /// keys in that context, and its new keys are taken from other actions there. Returns
    /// problems found (unknown contexts, actions or keys).
    pub fn apply_config(&mut self, keys: &BTreeMap<String, Vec<String>>) -> Vec<String> {
        let mut problems = Vec::new();
        let defaults = self.bindings.clone();
        let (plain, scoped): (Vec<_>, Vec<_>) = keys.iter().partition(|(n, _)| !n.contains('.'));
        for (name, specs) in plain.into_iter().chain(scoped) {
            let (ctx_name, action_name) = match name.split_once('.') {
                Some((c, a)) => (Some(c), a),
                None => (None, name.as_str()),
            };
            let Some(action) = Action::from_name(action_name) else {
                problems.push(format!("unknown action `{action_name}`"));
                continue;
            };
            let contexts: Vec<Context> = match ctx_name {
                None => {
                    let bound = defaults.iter().filter(|b| b.action == action);
                    let mut overlays: Vec<Context> = bound.clone().map(|b| b.context).collect();
                    overlays.dedup();
                    match bound.clone().find(|b| b.context.is_view()) {
                        Some(b) => vec![b.context],
                        None if !overlays.is_empty() => overlays,
                        None => vec![Context::Global],
                    }
                }
                Some(c) => match c.parse::<Context>() {
                    Ok(c) => vec![c],
                    Err(_) => {
                        problems.push(format!("unknown context `{c}` in `{name}`"));
                        continue;
                    }
                },
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
            for context in contexts {
                self.bindings
                    .retain(|b| !(b.action == action && b.context == context));
                // The new keys take over: remove other bindings of the same keys here.
                self.bindings
                    .retain(|b| !(b.context == context && parsed.contains(&b.key)));
                for &key in &parsed {
                    self.bindings.push(Binding {
                        context,
                        key,
                        action,
                    });
                }
            }
        }
        problems
    }
}

#[cfg(test)]
mod tests;
