use super::*;
use crossterm::event::KeyCode;

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
