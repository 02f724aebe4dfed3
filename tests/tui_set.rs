//! A folder read as one set on screen (issue 39): every file's items under one progress,
//! each labelled by its task, model and run, with filters by each.

use std::path::Path;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use verdict::bench::Facet;
use verdict::store::Store;
use verdict::tui::app::{FilterOption, Msg, State};
use verdict::tui::draw::render_to_string;
use verdict::tui::keymap::Keymap;

#[path = "support/state.rs"]
mod support_state;

/// The lm-eval fixture folder (two models × three tasks × two runs) as the reviewer
/// opens it: each task's latest run of each model.
fn set() -> State {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/real-logs/lm-eval/set");
    let files = verdict::bench::folder_set(&dir, false).unwrap();
    assert_eq!(files.len(), 6);
    let stores = files.iter().map(|f| Store::open(f).unwrap()).collect();
    support_state::indexed_state(Store::set(dir, stores), Keymap::default())
}

fn ch(s: &mut State, c: char) {
    s.update(Msg::Key(KeyEvent::new(
        KeyCode::Char(c),
        KeyModifiers::NONE,
    )));
}

fn key(s: &mut State, k: KeyCode) {
    s.update(Msg::Key(KeyEvent::new(k, KeyModifiers::NONE)));
}

/// `:` with `q`, Enter.
fn jump(s: &mut State, q: &str) {
    ch(s, ':');
    for c in q.chars() {
        ch(s, c);
    }
    key(s, KeyCode::Enter);
}

/// The filter menu's row `label` toggled, the menu closed.
fn toggle(s: &mut State, label: &str) {
    ch(s, 'F');
    let k = support_state::filter_row_key(s, label);
    ch(s, k);
    key(s, KeyCode::Esc);
}

/// Lines of the fixture's files, counted from the files themselves.
fn lines_of(glob_task: &str, date: &str) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/real-logs/lm-eval/set");
    let mut n = 0;
    for model in ["example__fixed-1b", "example__fixed-2b"] {
        for f in std::fs::read_dir(dir.join(model)).unwrap() {
            let f = f.unwrap().path();
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            if name.starts_with(&format!("samples_{glob_task}_")) && name.contains(date) {
                n += std::fs::read_to_string(&f).unwrap().lines().count();
            }
        }
    }
    n
}

#[test]
fn a_sets_items_are_labelled_by_task_model_and_run() {
    let s = set();
    assert_eq!(s.store.len(), 30);
    let out = render_to_string(&s, 200, 50);
    let header = out.lines().next().unwrap();
    assert!(
        header.contains(
            "set · lm-eval · vr_multi · example__fixed-1b · 2026-11-29T13-03-59 · #1 · 1/30"
        ),
        "{header}"
    );
    // at 80 columns the position stays in sight
    let out = render_to_string(&s, 80, 24);
    let header = out.lines().next().unwrap();
    assert!(
        header.contains("vr_multi") && header.contains("1/30"),
        "{header}"
    );
}

#[test]
fn a_set_filters_by_task_run_and_model() {
    let mut s = set();
    let rows = s.filter_options();
    for t in ["vr_pick", "vr_multi", "vr_vote"] {
        assert!(
            rows.contains(&FilterOption::Facet(Facet::Task, t.into())),
            "{rows:?}"
        );
    }
    // the latest run of each model: 1b's at 13-03-59, 2b's at 13-04-13
    let runs: Vec<_> = rows
        .iter()
        .filter(|r| matches!(r, FilterOption::Facet(Facet::Run, _)))
        .collect();
    assert_eq!(runs.len(), 2, "{runs:?}");
    toggle(&mut s, "task vr_pick");
    let want = lines_of("vr_pick", "13-03-59") + lines_of("vr_pick", "13-04-13");
    assert_eq!(want, 8);
    assert_eq!(s.position_in_view().1, want);
    // and by the model: 2b's vr_pick only
    toggle(&mut s, "model example__fixed-2b");
    assert_eq!(s.position_in_view().1, lines_of("vr_pick", "13-04-13"));
}

/// The summary page (`s`) of a set is `verdict stats DIR`'s: every file's figures in
/// lm-eval's layout with its model, task and run, each model's group once.
#[test]
fn a_sets_summary_is_the_folders_stats() {
    let mut s = set();
    ch(&mut s, 's');
    let v = verdict::tui::summary::compute(&s.store);
    s.update(Msg::Summary {
        seq: s.summary.seq(),
        result: Ok(v),
    });
    let out = render_to_string(&s, 200, 50);
    assert!(out.contains("set: 6 files, 30 items"), "{out}");
    let rows = |needle: &str| out.lines().filter(|l| l.contains(needle)).count();
    // each (model, task) of the latest runs: vr_pick's acc and acc_norm per model
    assert_eq!(rows("vr_pick  2026-11-29T13-0"), 4, "{out}");
    // the group once per model and run, with the harness's figure (results file)
    let group: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("vr_pair    none       acc "))
        .collect();
    assert_eq!(group.len(), 2, "{out}");
    assert!(
        group[0].contains("example__fixed-1b") && group[0].contains("0.7143"),
        "{out}"
    );
    assert!(
        group[1].contains("example__fixed-2b") && group[1].contains("0.2857"),
        "{out}"
    );
}

/// The same sample (task, doc and filter) in each model's file is listed under the item,
/// right or wrong, and `]` goes to the next; "runs disagree" keeps the samples right in
/// one file and wrong in another (8 lines of the fixture's 15 samples, counted from the
/// files by each line's first metric).
#[test]
fn runs_of_a_sample_are_compared_and_their_disagreement_is_a_filter() {
    let mut s = set();
    let out = render_to_string(&s, 100, 40);
    let runs: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.contains("This sample in each run"))
        .skip(1)
        .take(2)
        .collect();
    assert!(
        runs[0].contains("▸ example__fixed-1b · 2026-11-29T13-03-59")
            && runs[0].contains("✓ right red"),
        "{out}"
    );
    assert!(
        runs[1].contains("  example__fixed-2b · 2026-11-29T13-04-13"),
        "{out}"
    );
    // `]`: the same doc in 2b's file (vr_multi, its 13th item of the set)
    ch(&mut s, ']');
    assert!(
        s.item()
            .unwrap()
            .part
            .as_ref()
            .unwrap()
            .text()
            .contains("example__fixed-2b")
    );
    assert_eq!(
        s.item().unwrap().part.as_ref().unwrap().task.as_deref(),
        Some("vr_multi")
    );
    ch(&mut s, ']');
    assert_eq!(s.pos, 0);
    // the filter
    let disagree = FilterOption::Flag(Facet::RunsDisagree);
    assert!(
        s.filter_options().contains(&disagree),
        "{:?}",
        s.filter_options()
    );
    toggle(&mut s, "runs disagree");
    assert_eq!(s.position_in_view().1, 8);
}

/// `:` takes `task:id` in a set (the same doc is in every model's file), and an id alone
/// is the first file's.
#[test]
fn jump_takes_task_and_id_in_a_set() {
    let mut s = set();
    jump(&mut s, "vr_vote:doc 3");
    let it = s.item().unwrap();
    assert_eq!(it.part.as_ref().unwrap().task.as_deref(), Some("vr_vote"));
    assert!(render_to_string(&s, 100, 30).contains("doc_id: 3"));
    jump(&mut s, "doc 2");
    assert!(render_to_string(&s, 100, 30).contains("doc_id: 2"));
}

/// One verdict for one generation holds in a set, within the graded line's file only:
/// two models' files with the very same generations (the `filters` fixture copied under
/// two model folders) share no verdict.
#[test]
fn a_generations_verdict_stays_in_its_file() {
    let d = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/real-logs/lm-eval/filters/example__fixed-1b");
    for model in ["org__a", "org__b"] {
        std::fs::create_dir(d.path().join(model)).unwrap();
        for f in std::fs::read_dir(&src).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, d.path().join(model).join(f.file_name().unwrap())).unwrap();
        }
    }
    let files = verdict::bench::folder_set(d.path(), false).unwrap();
    let stores: Vec<Store> = files.iter().map(|f| Store::open(f).unwrap()).collect();
    let n = stores[0].len();
    let mut s = support_state::indexed_state(
        Store::set(d.path().to_path_buf(), stores),
        Keymap::default(),
    );
    // line 2 of org__a's file: strict-match of doc 1; flexible-extract is its line 6
    jump(&mut s, "2");
    assert_eq!(s.pos, 1);
    let fx = s.update(Msg::Key(KeyEvent::new(
        KeyCode::Char('1'),
        KeyModifiers::NONE,
    )));
    let mut items: Vec<usize> = fx
        .iter()
        .filter_map(|e| match e {
            verdict::tui::app::Effect::Record { item, .. } => Some(*item),
            _ => None,
        })
        .collect();
    items.sort();
    assert_eq!(
        items,
        vec![1, 5],
        "org__b's lines (from {n}) are another file's"
    );
}

/// The lines of one doc whose harness scores disagree are a filter by their filters'
/// names, in a file opened alone too: the `filters` fixture (lm_eval 0.4.13, 3 repeats)
/// has strict-match 0 and flexible-extract 1 on doc 1, maj@3 1 and strict-match 0 on
/// docs 1 and 2 (counted from the file by each line's first metric).
#[test]
fn the_lines_of_a_doc_that_disagree_are_a_filter() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "tests/fixtures/real-logs/lm-eval/filters/example__fixed-1b/samples_vr_filters_2026-11-29T15-47-32.200512.jsonl",
    );
    let mut s = support_state::indexed_state(Store::open(&p).unwrap(), Keymap::default());
    let rows = s.filter_options();
    let of = |name: &str| FilterOption::Facet(Facet::LinesDisagree, name.into());
    for (name, lines) in [
        ("strict-match ≠ flexible-extract", 2),
        ("strict-match ≠ maj@3", 4),
        ("flexible-extract ≠ maj@3", 2),
    ] {
        assert!(rows.contains(&of(name)), "{name}: {rows:?}");
        let mut t = support_state::indexed_state(Store::open(&p).unwrap(), Keymap::default());
        toggle(&mut t, &format!("lines disagree: {name}"));
        assert_eq!(t.position_in_view().1, lines, "{name}");
    }
    // a verdict keeps the item's place in them (what the index knows of the other lines)
    toggle(&mut s, "lines disagree: strict-match ≠ maj@3");
    ch(&mut s, '1');
    assert_eq!(s.position_in_view().1, 4);
}

/// The set's screen at both sizes: the header's label, the runs of the sample under it.
#[test]
fn screens_of_a_set() {
    let mut s = set();
    // vr_vote doc 3 (strict-match), which the two models answer differently
    jump(&mut s, "vr_vote:doc 3");
    for (w, h) in [(80, 24), (200, 50)] {
        s.forget_layout();
        insta::assert_snapshot!(format!("set_{w}x{h}"), render_to_string(&s, w, h));
    }
}

/// Another session's save of one file of the set (a line added at its top, a colleague's
/// verdict): the screen takes up the set with that file read again, and stays on the
/// same item, with my verdict on it.
#[test]
fn a_file_of_the_set_changed_on_disk_is_taken_up() {
    let d = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/real-logs/lm-eval/set");
    for model in ["example__fixed-1b", "example__fixed-2b"] {
        std::fs::create_dir(d.path().join(model)).unwrap();
        for f in std::fs::read_dir(src.join(model)).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, d.path().join(model).join(f.file_name().unwrap())).unwrap();
        }
    }
    let files = verdict::bench::folder_set(d.path(), false).unwrap();
    let stores: Vec<Store> = files.iter().map(|f| Store::open(f).unwrap()).collect();
    let set = Store::set(d.path().to_path_buf(), stores);
    let mut s = support_state::indexed_state(set.clone(), Keymap::default());
    // the last item: 2b's vr_vote line 8; my verdict on it
    key(&mut s, KeyCode::End);
    assert_eq!(s.pos, 29);
    let doc_before = render_to_string(&s, 100, 40)
        .lines()
        .find(|l| l.contains("doc_id:"))
        .unwrap()
        .to_string();
    ch(&mut s, '2');
    // 2b's vr_pick file (the set's 5th) gets a line at its top from another program
    let p = files[4].clone();
    let text = std::fs::read_to_string(&p).unwrap();
    let first = text
        .lines()
        .next()
        .unwrap()
        .replace("\"doc_id\": 0", "\"doc_id\": 99");
    std::fs::write(&p, format!("{first}\n{text}")).unwrap();
    let fresh = set.with_part(4, Store::open(&p).unwrap());
    assert_eq!(fresh.len(), 31);
    support_state::reloaded(&mut s, fresh);
    assert_eq!(s.store.len(), 31);
    assert_eq!(s.pos, 30, "the same item, one line further");
    let out = render_to_string(&s, 100, 40);
    assert!(out.contains(&doc_before), "{out}");
    assert!(out.contains("My grade: incorrect"), "{out}");
}

/// The summary page of a set reads every file as it is now (with its journals), its
/// agreement too: verdicts written after the set was opened (this session's, a
/// colleague's) count there as in the figures.
#[test]
fn a_sets_summary_counts_the_verdicts_written_since_it_opened() {
    let d = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/real-logs/lm-eval/set");
    for model in ["example__fixed-1b", "example__fixed-2b"] {
        std::fs::create_dir(d.path().join(model)).unwrap();
        for f in std::fs::read_dir(src.join(model)).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, d.path().join(model).join(f.file_name().unwrap())).unwrap();
        }
    }
    let files = verdict::bench::folder_set(d.path(), false).unwrap();
    let stores: Vec<Store> = files.iter().map(|f| Store::open(f).unwrap()).collect();
    let set = Store::set(d.path().to_path_buf(), stores);
    // two reviewers' verdicts on the first line of the first file, written since
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let mut lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    lines[0]["reviews"] = serde_json::json!({
        "ann": {"verdict": "correct"},
        "bo": {"verdict": "incorrect"},
    });
    let out: String = lines.iter().map(|v| format!("{v}\n")).collect();
    std::fs::write(&files[0], out).unwrap();
    let summary = verdict::tui::summary::compute(&set);
    assert!(
        summary.set.as_deref().unwrap().contains("ann"),
        "the figures"
    );
    let agreement = summary.agreement.join("\n");
    assert!(
        !agreement.contains("no item has verdicts by two or more reviewers yet"),
        "{agreement}"
    );
}
