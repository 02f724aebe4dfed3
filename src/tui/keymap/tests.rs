use super::*;
use crossterm::event::KeyCode;
use std::collections::BTreeMap;

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

#[test]
fn every_line_of_the_default_keys_file_parses() {
    let (km, problems) = Keymap::from_toml(DEFAULT_KEYS);
    assert_eq!(problems, Vec::<String>::new());
    // Every `key = [...]` line became bindings: count the keys the file lists.
    let tables: BTreeMap<String, BTreeMap<String, Vec<String>>> =
        toml::from_str(DEFAULT_KEYS).unwrap();
    let listed: usize = tables.values().flat_map(|t| t.values()).map(Vec::len).sum();
    assert_eq!(km.bindings.len(), listed);
    for table in tables.keys() {
        let c: Context = table.parse().unwrap();
        assert_eq!(c.name(), table);
    }
}

/// Actions no default key does: none today. An action added to the enum must get a line
/// in `default-keys.toml` or be named here on purpose.
const DELIBERATELY_UNBOUND: &[Action] = &[];

#[test]
fn every_action_has_a_default_key_or_is_deliberately_unbound() {
    let km = Keymap::default();
    for a in Action::all() {
        let bound = km.bindings.iter().any(|b| b.action == a);
        assert!(
            bound != DELIBERATELY_UNBOUND.contains(&a),
            "{}: {}",
            a.name(),
            if bound {
                "bound, yet listed as unbound"
            } else {
                "no default key in default-keys.toml"
            }
        );
    }
}

#[test]
fn context_names_are_those_of_the_config() {
    assert_eq!(Context::ChartomQa.name(), "chartom-qa");
    assert_eq!(Context::Generic.name(), "generic");
    assert_eq!("chartom_qa".parse::<Context>(), Ok(Context::ChartomQa));
    assert_eq!("other".parse::<Context>(), Ok(Context::Generic));
    assert!("Global".parse::<Context>().is_err());
}

#[test]
fn a_keys_file_reports_what_it_cannot_read() {
    let (km, problems) = Keymap::from_toml(
        "[cvqa]\naccept = [\"y\", \"nope-key\"]\nfly = [\"z\"]\n[moon]\nnext = [\"n\"]\n",
    );
    assert_eq!(
        problems,
        vec![
            "unknown key `nope-key` for `cvqa.accept`".to_string(),
            "unknown action `fly` in `cvqa`".to_string(),
            "unknown context `moon`".to_string(),
        ]
    );
    assert_eq!(km.lookup(Context::Cvqa, Key::ch('y')), Some(Action::Accept));
    assert_eq!(km.bindings.len(), 1);
}
