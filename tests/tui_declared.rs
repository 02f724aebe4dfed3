//! The reviewer on a declared benchmark (sample-data/rubric.toml, docs/format.md
//! "Declared benchmarks"), driven through `State::update` with the live keymap: the
//! fields as declared, the checklist ticked from the keys, the selected question moved,
//! the item's label answered, and the screens at 80×24 and 200×50.

use std::path::{Path, PathBuf};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::{Value, json};
use verdict::store::Store;
use verdict::tui::app::{Effect, Msg, State};
use verdict::tui::draw::render_to_string;
use verdict::tui::keymap::Keymap;

#[path = "support/state.rs"]
mod support_state;

/// The spec, given once for this test process, as `--benchmark` does.
fn declare() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-data/rubric.toml");
        verdict::bench::register_spec(&spec).unwrap();
    });
}

fn open() -> (tempfile::TempDir, PathBuf, State) {
    declare();
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("rubric.jsonl");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/samples/rubric.jsonl"),
        &p,
    )
    .unwrap();
    let mut s = support_state::indexed_state(Store::open(&p).unwrap(), Keymap::default());
    s.auto_advance = true;
    let fx = s.start_at(0);
    ack(&mut s, &fx);
    (d, p, s)
}

/// Acknowledge the journal writes, as the IO worker does; the reviews written.
fn ack(s: &mut State, fx: &[Effect]) -> Vec<Option<Value>> {
    let mut out = Vec::new();
    for e in fx {
        if let Effect::Record { seq, review, .. } = e {
            out.push(review.clone());
            s.update(Msg::Recorded {
                seq: *seq,
                result: Ok(()),
            });
        }
    }
    out
}

fn key(s: &mut State, code: KeyCode) -> Vec<Option<Value>> {
    let fx = s.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    ack(s, &fx)
}

fn ch(s: &mut State, c: char) -> Vec<Option<Value>> {
    key(s, KeyCode::Char(c))
}

fn screen(s: &mut State, w: u16, h: u16) -> String {
    s.size = (w, h);
    let sc = verdict::tui::layout::Screen::of(s);
    s.image_area = sc.image_cells(s);
    render_to_string(s, w, h)
}

#[test]
fn the_fields_show_as_declared_and_the_checklist_is_the_items_rubric() {
    let (_d, _p, mut s) = open();
    let out = screen(&mut s, 200, 50);
    for want in [
        "Tick every rubric point the reply fully covers",
        "Conversation",
        "system: You are a careful cooking assistant.",
        "user: How long should I boil an egg for a runny yolk?",
        "Difficulty: 1",
        "  • Mentions cooling the egg in cold water",
        "About 6 minutes once the water is at a rolling boil",
        "▸ points*: 0/3 (not answered)",
        "[ ] 1. Gives a time between 5 and 7 minutes",
        "overall*: acceptable",
    ] {
        assert!(out.contains(want), "{want:?} not on\n{out}");
    }
}

#[test]
fn digits_tick_the_selected_checklist_and_tab_moves_to_the_items_label() {
    let (_d, _p, mut s) = open();
    // points 1 and 3, then 3 again off and on: the reply's answers, sorted
    let r = ch(&mut s, '3');
    assert_eq!(r[0].as_ref().unwrap()["answers"], json!({"points": [3]}));
    ch(&mut s, '1');
    let r = ch(&mut s, '3');
    assert_eq!(r[0].as_ref().unwrap()["answers"], json!({"points": [1]}));
    let r = ch(&mut s, '3');
    assert_eq!(r[0].as_ref().unwrap()["answers"], json!({"points": [1, 3]}));
    // a fourth point is not on this item
    assert!(ch(&mut s, '4').is_empty());
    assert!(screen(&mut s, 80, 24).contains("points has 3 points"));
    // Tab: the item's question; 2 answers it and, the item done, moves on
    key(&mut s, KeyCode::Tab);
    assert!(screen(&mut s, 200, 50).contains("▸ overall*"));
    let r = ch(&mut s, '2');
    assert_eq!(
        r[0].as_ref().unwrap()["answers"],
        json!({"points": [1, 3], "overall": "not acceptable"})
    );
    assert_eq!(
        s.display_id(s.pos),
        "rb-02",
        "done with rb-01: on to the next"
    );
}

#[test]
fn screens_of_the_rubric_example() {
    let (_d, _p, mut s) = open();
    ch(&mut s, '1');
    ch(&mut s, '3');
    s.status = None;
    for (w, h) in [(80u16, 24u16), (200, 50)] {
        insta::assert_snapshot!(format!("rubric_{w}x{h}"), screen(&mut s, w, h));
    }
}

/// The same file with another reviewer's answers on rb-01 (one response: the item's
/// label and the response's checklist are the review's top-level `answers`).
fn open_with_bo() -> (tempfile::TempDir, PathBuf, State) {
    declare();
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("rubric.jsonl");
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/samples/rubric.jsonl"),
    )
    .unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut first: Value = serde_json::from_str(&lines[0]).unwrap();
    first["reviews"] = json!({"bo": {"answers": {"points": [1, 3], "overall": "not acceptable"}}});
    lines[0] = first.to_string();
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    let mut s = support_state::indexed_state(Store::open(&p).unwrap(), Keymap::default());
    let fx = s.start_at(0);
    ack(&mut s, &fx);
    (d, p, s)
}

/// Another reviewer's answers are on their line under the item (hidden in blind mode),
/// and each question is a row of the adjudication table.
#[test]
fn others_answers_show_under_the_item_and_in_the_adjudication_table() {
    let (_d, _p, mut s) = open_with_bo();
    let out = screen(&mut s, 200, 50);
    let line = out
        .lines()
        .find(|l| l.contains(" bo "))
        .unwrap_or_else(|| panic!("no line of bo:\n{out}"));
    assert!(
        line.contains("points [1, 3]") && line.contains("overall not acceptable"),
        "{line}"
    );
    ch(&mut s, 'b');
    let blind = screen(&mut s, 200, 50);
    assert!(!blind.contains("overall not acceptable"), "{blind}");
    ch(&mut s, 'b');
    let rows = verdict::tui::views::verdicts::comparison(
        s.item().unwrap(),
        &s.item()
            .unwrap()
            .reviews
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect::<Vec<_>>(),
    )
    .1;
    let labels: Vec<&str> = rows.iter().map(|(l, _)| l.as_str()).collect();
    assert!(
        labels.iter().any(|l| l.ends_with("points"))
            && labels.iter().any(|l| l.ends_with("overall")),
        "{labels:?}"
    );
}

/// The summary page (`s`) has the declared benchmark's block: each question with how
/// many are answered and its answers' counts, as `verdict stats` gives them.
#[test]
fn the_summary_page_has_the_declared_benchmarks_questions() {
    let (_d, _p, mut s) = open_with_bo();
    for (w, h) in [(80u16, 24u16), (200, 50)] {
        s.size = (w, h);
        s.mode = verdict::tui::app::Mode::Normal;
        ch(&mut s, 's');
        let v = verdict::tui::summary::compute(&s.store);
        s.update(Msg::Summary {
            seq: s.summary.seq(),
            result: Ok(v),
        });
        let out = render_to_string(&s, w, h);
        assert!(out.contains("rubric"), "{out}");
        let q = out
            .lines()
            .find(|l| l.contains("overall"))
            .unwrap_or_else(|| panic!("no overall at {w}x{h}:\n{out}"));
        assert!(q.contains("1 of 3"), "{q}");
        assert!(out.contains("not acceptable 1"), "{out}");
    }
}

/// The filter menu offers each question's answers that count (final, single, else the
/// majority): on `overall = not acceptable`, only bo's item is left; my answer on
/// another item adds its option.
#[test]
fn the_filter_menu_offers_each_questions_answers() {
    use verdict::bench::Facet;
    use verdict::tui::app::FilterOption;
    let (_d, _p, mut s) = open_with_bo();
    let not_ok = FilterOption::Facet(Facet::Answer, "overall = not acceptable".into());
    let rows = s.filter_options();
    assert!(rows.contains(&not_ok), "{rows:?}");
    assert!(
        rows.contains(&FilterOption::Facet(Facet::Answer, "points = #3".into())),
        "{rows:?}"
    );
    ch(&mut s, 'F');
    let k = support_state::filter_row_key(&s, "answer overall = not acceptable");
    ch(&mut s, k);
    assert!(s.filter_active(&not_ok), "{}", s.filters.describe());
    key(&mut s, KeyCode::Esc);
    let out = screen(&mut s, 200, 50);
    assert!(out.contains("rb-01") && out.contains("1/1"), "{out}");
}

/// An answer given this session is a filter at once (the menu's rows are the index's
/// and the facts this session's verdicts gave, not only the file's at open).
#[test]
fn an_answer_given_now_is_a_filter_at_once() {
    use verdict::bench::Facet;
    use verdict::tui::app::FilterOption;
    let (_d, _p, mut s) = open();
    let ok = FilterOption::Facet(Facet::Answer, "overall = acceptable".into());
    assert!(!s.filter_options().contains(&ok));
    // rb-01: Tab to the item's label, `1` acceptable
    key(&mut s, KeyCode::Tab);
    ch(&mut s, '1');
    assert!(s.filter_options().contains(&ok), "{:?}", s.filter_options());
    assert!(
        s.filter_options()
            .contains(&FilterOption::Reviewer(s.reviewer.clone())),
        "{:?}",
        s.filter_options()
    );
}

/// Two questions' answers in the filter combine with AND (each question its own group),
/// two answers of one question with OR: bo said `not acceptable` on rb-01 and `#2` only
/// on the second item, so both together leave nothing.
#[test]
fn two_questions_answers_combine_with_and() {
    declare();
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("rubric.jsonl");
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/samples/rubric.jsonl"),
    )
    .unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for (k, answers) in [
        (0, json!({"points": [1, 3], "overall": "not acceptable"})),
        (1, json!({"points": [2], "overall": "acceptable"})),
    ] {
        let mut v: Value = serde_json::from_str(&lines[k]).unwrap();
        v["reviews"] = json!({"bo": {"answers": answers}});
        lines[k] = v.to_string();
    }
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    let shown = |rows: &[&str]| {
        let mut s = support_state::indexed_state(Store::open(&p).unwrap(), Keymap::default());
        let fx = s.start_at(0);
        ack(&mut s, &fx);
        for row in rows {
            ch(&mut s, 'F');
            let k = support_state::filter_row_key(&s, row);
            ch(&mut s, k);
            key(&mut s, KeyCode::Esc);
        }
        s.position_in_view().1
    };
    assert_eq!(
        shown(&["answer overall = not acceptable", "answer points = #2"]),
        0
    );
    // one question's two answers: either
    assert_eq!(
        shown(&[
            "answer overall = not acceptable",
            "answer overall = acceptable"
        ]),
        2
    );
}
