//! Keybindings are data: a table of (context, key, action). The `?` help is generated from
//! it, and the user's config file (`[keys]` in config.toml) remaps actions.

use std::collections::BTreeMap;

use strum::{EnumIter, EnumString, IntoStaticStr};

mod action;
mod key;

pub use action::Action;
pub use key::Key;

/// Where a binding applies: a table of `default-keys.toml`, named in kebab case
/// (`chartom-qa`). `Global` bindings work in every item view; benchmark contexts add the
/// grading keys of that view.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, EnumIter, EnumString, IntoStaticStr,
)]
#[strum(serialize_all = "kebab-case")]
pub enum Context {
    Global,
    Chartom,
    #[strum(to_string = "chartom-qa", serialize = "chartom_qa")]
    ChartomQa,
    Cvqa,
    #[strum(to_string = "generic", serialize = "other")]
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

    /// The name of its table in `default-keys.toml` and in `context.action` in the config.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// The default keys: one table per context, `action = ["key", ...]`.
const DEFAULT_KEYS: &str = include_str!("default-keys.toml");
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
                Some(c) => match c.parse::<Context>() {
                    Ok(c) => c,
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
mod tests;
