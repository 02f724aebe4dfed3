use super::*;

/// A popup's key table, by its name in the keys file.
fn table(name: &str) -> Context {
    name.parse().unwrap_or_else(|_| panic!("no table {name}"))
}

/// A benchmark's verb, by its name in the keys file.
fn verb(name: &str) -> Action {
    Action::from_name(name).unwrap_or_else(|| panic!("no action {name}"))
}
use crate::bench::Benchmark;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::collections::BTreeMap;

#[test]
fn defaults_match_the_issue() {
    let km = Keymap::default();
    assert_eq!(
        km.lookup(Context::Benchmark(Benchmark::Cvqa), Key::ch('a')),
        Some(verb("accept"))
    );
    assert_eq!(
        km.lookup(Context::Benchmark(Benchmark::Cvqa), Key::ch('f')),
        Some(verb("fix"))
    );
    assert_eq!(
        km.lookup(Context::Benchmark(Benchmark::Cvqa), Key::ch('r')),
        Some(verb("reject"))
    );
    assert_eq!(
        km.lookup(Context::Benchmark(Benchmark::Chartom), Key::ch('1')),
        Some(verb("identifies"))
    );
    assert_eq!(
        km.lookup(Context::Benchmark(Benchmark::Chartom), Key::ch('3')),
        Some(verb("misses"))
    );
    assert_eq!(
        km.lookup(Context::Benchmark(Benchmark::ChartomQa), Key::ch('7')),
        Some(verb("bonus_7"))
    );
    assert_eq!(
        km.lookup(Context::Benchmark(Benchmark::ChartomQa), Key::ch('e')),
        Some(verb("penalty"))
    );
    assert_eq!(
        km.lookup(Context::Benchmark(Benchmark::Cvqa), Key::ch('n')),
        Some(Action::Next)
    );
    assert_eq!(
        km.lookup(
            Context::Benchmark(Benchmark::Cvqa),
            Key::code(KeyCode::Left)
        ),
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
    assert_eq!(
        km.lookup(Context::Benchmark(Benchmark::Cvqa), Key::ch('y')),
        Some(verb("accept"))
    );
    assert_eq!(
        km.lookup(Context::Benchmark(Benchmark::Cvqa), Key::ch('a')),
        None
    );
    assert_eq!(
        km.lookup(Context::Benchmark(Benchmark::Cvqa), Key::ch('l')),
        Some(Action::Next)
    );
    assert_eq!(
        km.lookup(Context::Benchmark(Benchmark::Cvqa), Key::ctrl('n')),
        Some(Action::Next)
    );
    assert_eq!(
        km.lookup(Context::Benchmark(Benchmark::Cvqa), Key::ch('n')),
        None
    );
}

#[test]
fn action_names_round_trip() {
    for a in Action::all() {
        assert_eq!(Action::from_name(&a.name()), Some(a), "{}", a.name());
    }
    assert_eq!(Action::NextUngraded.name(), "next_ungraded");
    assert_eq!(verb("bonus_3").name(), "bonus_3");
    assert_eq!(
        verb("counterfactual_override").name(),
        "counterfactual_override"
    );
    assert_eq!(Action::all().len(), 53 + 19 + 7 + 5 + 33 + 3 + 19);
    assert_eq!(verb("reason_5").name(), "reason_5");
    assert_eq!(Action::from_name("select_next"), Some(Action::SelectNext));
    for bad in [
        "bonus",
        "bonus_0",
        "bonus_20",
        "Next",
        "next-ungraded",
        "reason",
        "reason_6",
        "bonus_x",
    ] {
        assert_eq!(Action::from_name(bad), None, "{bad}");
    }
}

/// The names users wrote in their config before the names came from strum: the
/// `Debug` name in snake case.
#[test]
fn config_names_are_the_ones_users_know() {
    for a in Action::all() {
        let old = match a {
            // (the verbs' names: below)
            Action::Verb(_) => continue,
            Action::Row(n) | Action::Answer(n) => {
                format!("{}_{n}", a.name().split('_').next().unwrap())
            }
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
    // The benchmarks' verbs, named as when they were variants of `Action`.
    let mut verbs: Vec<&str> = crate::tui::views::verbs().map(|v| v.name).collect();
    verbs.sort_unstable();
    let mut known = vec![
        "identifies",
        "partial",
        "misses",
        "fact_override",
        "accept_judge",
        "bonus",
        "no_bonus",
        "penalty",
        "no_penalty",
        "context_length",
        "context_down",
        "context_up",
        "accept",
        "fix",
        "reject",
        "original_override",
        "counterfactual_override",
        "every_scorer",
        "next_scorer",
        "switch_field",
        "pick_reason",
        "reason",
    ];
    known.sort_unstable();
    assert_eq!(verbs, known);
}

#[test]
fn help_lists_view_and_global_keys() {
    let km = Keymap::default();
    let rows = km.help(Context::Benchmark(Benchmark::Cvqa));
    assert!(
        rows.iter()
            .any(|r| r.0 == Context::Benchmark(Benchmark::Cvqa) && r.1 == "a")
    );
    assert!(
        rows.iter()
            .any(|r| r.0 == Context::Global && r.1.starts_with("n → ↓"))
    );
    assert!(
        !rows
            .iter()
            .any(|r| r.0 == Context::Benchmark(Benchmark::Chartom))
    );
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
    assert_eq!(
        Context::Benchmark(Benchmark::ChartomQa).name(),
        "chartom-qa"
    );
    assert_eq!(Context::Generic.name(), "generic");
    assert_eq!(
        "chartom_qa".parse::<Context>(),
        Ok(Context::Benchmark(Benchmark::ChartomQa))
    );
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
    assert_eq!(
        km.lookup(Context::Benchmark(Benchmark::Cvqa), Key::ch('y')),
        Some(verb("accept"))
    );
    assert_eq!(km.bindings.len(), 1);
}

fn ev(code: KeyCode, m: KeyModifiers) -> KeyEvent {
    KeyEvent::new(code, m)
}

#[test]
fn overlays_have_their_own_default_keys() {
    let km = Keymap::default();
    let none = KeyModifiers::NONE;
    let at = |c, code, m| km.in_overlay(c, &ev(code, m), false);
    for c in [
        Context::Search,
        Context::Jump,
        Context::Note,
        table("penalty"),
        table("reject-other"),
        table("fix"),
        table("reject"),
        table("fix-reason"),
    ] {
        assert_eq!(at(c, KeyCode::Enter, none), Some(Action::Submit), "{c:?}");
        assert_eq!(at(c, KeyCode::Esc, none), Some(Action::Cancel), "{c:?}");
    }
    for c in [Context::Help, Context::Summary] {
        assert_eq!(at(c, KeyCode::Esc, none), Some(Action::Close));
        assert_eq!(at(c, KeyCode::Enter, none), Some(Action::Close));
        assert_eq!(at(c, KeyCode::Char('q'), none), Some(Action::Close));
        assert_eq!(at(c, KeyCode::Char('j'), none), Some(Action::ScrollDown));
        assert_eq!(at(c, KeyCode::Down, none), Some(Action::ScrollDown));
        assert_eq!(at(c, KeyCode::Char(' '), none), Some(Action::PageDown));
        assert_eq!(at(c, KeyCode::PageUp, none), Some(Action::PageUp));
    }
    let c = Context::Filter;
    assert_eq!(at(c, KeyCode::Esc, none), Some(Action::Close));
    assert_eq!(at(c, KeyCode::Char('q'), none), Some(Action::Close));
    assert_eq!(at(c, KeyCode::Char(' '), none), Some(Action::Toggle));
    assert_eq!(at(c, KeyCode::Char('k'), none), Some(Action::SelectPrev));
    let c = Context::Search;
    let ctrl = KeyModifiers::CONTROL;
    assert_eq!(at(c, KeyCode::Char('n'), ctrl), Some(Action::SelectNext));
    assert_eq!(at(c, KeyCode::Up, none), Some(Action::SelectPrev));
    // Letters are the query's.
    assert_eq!(at(c, KeyCode::Char('j'), none), None);
    assert_eq!(at(c, KeyCode::Char('n'), none), None);
    for (k, n) in ['1', '2', '3', '4', '5'].into_iter().zip(1..) {
        assert_eq!(
            at(table("reject"), KeyCode::Char(k), none),
            Some(verb(&format!("reason_{n}")))
        );
        assert_eq!(
            at(table("fix-reason"), KeyCode::Char(k), none),
            Some(verb(&format!("reason_{n}")))
        );
    }
    assert_eq!(
        at(table("fix"), KeyCode::Tab, none),
        Some(verb("pick_reason"))
    );
    assert_eq!(
        at(table("fix"), KeyCode::Up, none),
        Some(verb("switch_field"))
    );
    assert_eq!(
        at(table("fix"), KeyCode::Down, none),
        Some(verb("switch_field"))
    );
    // Alt and any character is find_char in the text fields (`alt-char`), shown so.
    let alt = KeyModifiers::ALT;
    for c in [
        Context::Note,
        table("penalty"),
        table("reject-other"),
        table("fix"),
    ] {
        assert_eq!(
            at(c, KeyCode::Char('e'), alt),
            Some(Action::FindChar),
            "{c:?}"
        );
        assert_eq!(
            at(c, KeyCode::Char('7'), alt),
            Some(Action::FindChar),
            "{c:?}"
        );
        assert_eq!(km.hint(c, Action::FindChar), "Alt-char");
    }
    assert_eq!(at(table("fix"), KeyCode::Char('e'), none), None);
    assert_eq!(
        Key::parse("char"),
        None,
        "a character alone is typed, not bound"
    );
    // Overlays do not fall back on the item view's keys.
    assert_eq!(at(Context::Note, KeyCode::Char('n'), none), None);
    assert_eq!(at(table("reject"), KeyCode::Char('a'), none), None);
}

#[test]
fn special_keys_in_overlays_match_whatever_the_modifiers() {
    // As before keys were data: Ctrl-Enter submits, Alt-Down moves; but a multi-line field
    // keeps Alt-Enter and Shift-Enter for a new line.
    let km = Keymap::default();
    let e = ev(KeyCode::Enter, KeyModifiers::CONTROL);
    assert_eq!(
        km.in_overlay(Context::Jump, &e, false),
        Some(Action::Submit)
    );
    let e = ev(KeyCode::Down, KeyModifiers::ALT);
    assert_eq!(
        km.in_overlay(table("reject"), &e, false),
        Some(Action::SelectNext)
    );
    for m in [KeyModifiers::ALT, KeyModifiers::SHIFT] {
        let e = ev(KeyCode::Enter, m);
        assert_eq!(km.in_overlay(Context::Note, &e, true), None);
        assert_eq!(
            km.in_overlay(Context::Jump, &e, false),
            Some(Action::Submit)
        );
    }
    // A letter with Ctrl is not the letter: Ctrl-a in a field is the field's.
    let e = ev(KeyCode::Char('q'), KeyModifiers::CONTROL);
    assert_eq!(km.in_overlay(Context::Help, &e, false), None);
}

#[test]
fn config_remaps_overlay_keys() {
    let mut km = Keymap::default();
    let mut cfg = BTreeMap::new();
    cfg.insert("cancel".to_string(), vec!["ctrl-g".to_string()]);
    cfg.insert("note.submit".to_string(), vec!["ctrl-s".to_string()]);
    cfg.insert("reject.reason_5".to_string(), vec!["o".to_string()]);
    cfg.insert("help.scroll_down".to_string(), vec!["J".to_string()]);
    assert_eq!(km.apply_config(&cfg), Vec::<String>::new());
    let none = KeyModifiers::NONE;
    let esc = ev(KeyCode::Esc, none);
    let g = ev(KeyCode::Char('g'), KeyModifiers::CONTROL);
    // A plain overlay action name remaps it in every overlay that has it.
    for c in [
        Context::Note,
        Context::Search,
        table("reject"),
        table("fix"),
    ] {
        assert_eq!(km.in_overlay(c, &esc, false), None, "{c:?}");
        assert_eq!(km.in_overlay(c, &g, false), Some(Action::Cancel), "{c:?}");
        assert_eq!(km.hint(c, Action::Cancel), "Ctrl-g");
    }
    let enter = ev(KeyCode::Enter, none);
    assert_eq!(km.in_overlay(Context::Note, &enter, true), None);
    assert_eq!(
        km.in_overlay(Context::Jump, &enter, false),
        Some(Action::Submit)
    );
    assert_eq!(km.hint(Context::Note, Action::Submit), "Ctrl-s");
    assert_eq!(km.hint(Context::Jump, Action::Submit), "Enter");
    let o = ev(KeyCode::Char('o'), none);
    assert_eq!(
        km.in_overlay(table("reject"), &o, false),
        Some(verb("reason_5"))
    );
    assert_eq!(
        km.in_overlay(table("reject"), &ev(KeyCode::Char('5'), none), false),
        None
    );
    assert_eq!(km.in_overlay(table("fix-reason"), &o, false), None);
    // Scrolling the help is the help's: the item view's `j` stays.
    assert_eq!(
        km.lookup(Context::Global, Key::ch('j')),
        Some(Action::ScrollDown)
    );
    assert_eq!(km.hint(Context::Help, Action::ScrollDown), "J");
    assert_eq!(km.hint(Context::Summary, Action::ScrollDown), "j");
}

#[test]
fn plain_names_keep_their_meaning_for_the_item_view() {
    // `scroll_down` is bound in the item view and in the help: the plain name is the
    // item view's, as it was before overlays had keys of their own.
    let mut km = Keymap::default();
    let mut cfg = BTreeMap::new();
    cfg.insert("scroll_down".to_string(), vec!["J".to_string()]);
    km.apply_config(&cfg);
    assert_eq!(
        km.lookup(Context::Benchmark(Benchmark::Cvqa), Key::ch('J')),
        Some(Action::ScrollDown)
    );
    assert_eq!(
        km.lookup(Context::Benchmark(Benchmark::Cvqa), Key::ch('j')),
        None
    );
    let j = ev(KeyCode::Char('j'), KeyModifiers::NONE);
    assert_eq!(
        km.in_overlay(Context::Help, &j, false),
        Some(Action::ScrollDown)
    );
}

#[test]
fn a_context_line_wins_over_a_plain_line() {
    let mut km = Keymap::default();
    let mut cfg = BTreeMap::new();
    cfg.insert("submit".to_string(), vec!["ctrl-s".to_string()]);
    cfg.insert("fix.submit".to_string(), vec!["ctrl-o".to_string()]);
    km.apply_config(&cfg);
    assert_eq!(km.hint(table("fix"), Action::Submit), "Ctrl-o");
    assert_eq!(km.hint(Context::Note, Action::Submit), "Ctrl-s");
}

#[test]
fn hints_in_overlays_are_the_overlays_keys() {
    let km = Keymap::default();
    assert_eq!(km.hint(Context::Filter, Action::Toggle), "Enter");
    assert_eq!(km.hint(Context::Filter, Action::SelectPrev), "↑");
    assert_eq!(km.hint(Context::Help, Action::ScrollDown), "j");
    assert_eq!(km.hint(table("reject"), verb("reason_1")), "1");
    // No fallback to the item view's keys in an overlay.
    assert_eq!(km.hint(Context::Note, Action::Next), "(unbound)");
}

#[test]
fn a_reason_key_for_each_cvqa_reason() {
    let reasons = Action::all()
        .into_iter()
        .filter(|a| matches!(a, Action::Verb(v) if v.def.name == "reason"))
        .count();
    assert_eq!(reasons, crate::bench::cvqa::fields::CvqaReason::ALL.len());
}

#[test]
fn an_overlays_help_rows_are_its_own_keys() {
    let km = Keymap::default();
    let rows = km.help(Context::Note);
    assert!(rows.iter().all(|r| r.0 == Context::Note), "{rows:?}");
    assert!(rows.iter().any(|r| r.1 == "Enter"), "{rows:?}");
}

/// The benchmark tables are those of the views with keys of their own (from the views,
/// not a list here): a benchmark graded by a free verdict has none, and its name is no
/// table.
#[test]
fn benchmark_tables_are_those_of_the_views_with_keys() {
    let keyed: Vec<&str> = crate::tui::views::keyed_benchmarks()
        .map(|b| Context::Benchmark(b).name())
        .collect();
    assert_eq!(
        keyed,
        ["chartom", "chartom-qa", "cvqa", "inspect", "declared"]
    );
    assert!("lm-eval".parse::<Context>().is_err());
    assert_eq!(
        "inspect".parse::<Context>(),
        Ok(Context::Benchmark(Benchmark::Inspect))
    );
    let (_, problems) = Keymap::from_toml("[lm-eval]\npass = [\"y\"]\n");
    assert_eq!(problems, vec!["unknown context `lm-eval`".to_string()]);
    assert_eq!(Context::Benchmark(Benchmark::Cvqa).title(), "C-VQA");
}
