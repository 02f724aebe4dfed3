//! Keybindings are data: a table of (context, key, action). The `?` help is generated from
//! it, and the user's config file (`[keys]` in config.toml) remaps actions.

use std::collections::BTreeMap;

use crossterm::event::KeyCode;

mod action;
mod key;

pub use action::Action;
pub use key::Key;

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
mod tests;
