//! The mouse lands on what is drawn where it clicks: search results, filter rows, the
//! progress bar; and nowhere on a screen too small to draw anything.

use std::path::Path;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use verdict::store::Store;
use verdict::tui::app::{Effect, Mode, Msg, State};
use verdict::tui::draw::render_to_string;
use verdict::tui::facts;
use verdict::tui::keymap::Keymap;

/// The reviewer on `n` generic items with ids row-01, row-02, ..., as carol, index
/// delivered, in an 80×24 terminal.
fn rows(n: usize) -> (tempfile::TempDir, State) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("t.jsonl");
    let text: String = (1..=n)
        .map(|k| format!("{{\"id\":\"row-{k:02}\",\"question\":\"question {k}\"}}\n"))
        .collect();
    std::fs::write(&p, text).unwrap();
    (d, state_at(&p))
}

#[path = "support/state.rs"]
mod support_state;

fn state_at(p: &Path) -> State {
    support_state::indexed_state(Store::open(p).unwrap(), Keymap::default())
}

fn press(s: &mut State, code: KeyCode) -> Vec<Effect> {
    s.update(Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

fn click(s: &mut State, column: u16, row: u16) {
    s.update(Msg::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    }));
}

/// Open the search, type `query`, and deliver the search worker's answer.
fn search(s: &mut State, query: &str) {
    press(s, KeyCode::Char('/'));
    let mut last = None;
    for c in query.chars() {
        for e in press(s, KeyCode::Char(c)) {
            if let Effect::Search {
                seq,
                query,
                meta,
                within,
            } = e
            {
                last = Some((seq, facts::search(&meta, &query, within.as_deref(), 100)));
            }
        }
    }
    let (seq, results) = last.expect("the search asks the worker");
    s.update(Msg::SearchDone { seq, results });
    assert!(matches!(s.mode, Mode::Search(_)));
}

/// The item number a search result row of the screen shows (`│ │     5  row-05 …│ │`:
/// the popup's left border is in the third column).
fn number_on_row(screen: &str, y: usize) -> Option<usize> {
    let line: Vec<char> = screen.lines().nth(y)?.chars().collect();
    if line.get(2) != Some(&'│') {
        return None;
    }
    let text: String = line[3..].iter().collect();
    text.split_whitespace().next()?.parse().ok()
}

/// The screen rows that show a search result, with the item each shows (index).
fn result_rows(s: &State) -> Vec<(u16, usize)> {
    let screen = render_to_string(s, s.size.0, s.size.1);
    (0..s.size.1 as usize)
        .filter_map(|y| number_on_row(&screen, y).map(|n| (y as u16, n - 1)))
        .collect()
}

#[test]
fn a_click_on_a_search_result_opens_that_result() {
    let (_d, mut s) = rows(30);
    search(&mut s, "row");
    let shown = result_rows(&s);
    assert!(shown.len() >= 5, "{shown:?}");
    press(&mut s, KeyCode::Esc);
    for &(y, item) in &shown[..5] {
        search(&mut s, "row");
        click(&mut s, 20, y);
        assert_eq!(s.mode, Mode::Normal, "a click on a result opens it");
        assert_eq!(
            s.pos, item,
            "the click on row {y} opens the item shown there"
        );
    }
}

#[test]
fn a_click_on_a_scrolled_search_list_opens_the_row_clicked() {
    let (_d, mut s) = rows(30);
    search(&mut s, "row");
    for _ in 0..20 {
        press(&mut s, KeyCode::Down);
    }
    let shown = result_rows(&s);
    let &(y, item) = shown.first().expect("results on screen");
    assert_ne!(item, s.pos);
    click(&mut s, 20, y);
    assert_eq!(
        s.pos, item,
        "the click on row {y} opens the item shown there"
    );
}

#[test]
fn clicks_on_the_search_popup_beside_its_results_open_nothing() {
    let (_d, mut s) = rows(30);
    search(&mut s, "row");
    let first = result_rows(&s)[0].0;
    let last = result_rows(&s).last().unwrap().0;
    // the blank line above the results, the border below them, the columns beside them
    for (x, y) in [(20, first - 1), (20, last + 1), (0, first), (79, first)] {
        click(&mut s, x, y);
        assert!(
            matches!(s.mode, Mode::Search(_)),
            "a click at ({x}, {y}) is on no result"
        );
        assert_eq!(s.pos, 0);
    }
}

#[test]
fn a_click_on_a_filter_row_toggles_that_filter() {
    let (_d, mut s) = rows(3);
    press(&mut s, KeyCode::Char('F'));
    let opts = s.filter_options();
    assert!(opts.len() >= 2, "{opts:?}");
    let screen = render_to_string(&s, 80, 24);
    let label = s.filter_label(&opts[1]);
    let y = screen
        .lines()
        .position(|l| l.contains(&format!("[ ] {label}")))
        .unwrap_or_else(|| panic!("no row {label}:\n{screen}"));
    click(&mut s, 40, y as u16);
    assert!(
        s.filter_active(&opts[1]),
        "the row clicked is on:\n{screen}"
    );
    assert!(!s.filter_active(&opts[0]));
}

#[test]
fn a_click_on_the_progress_bar_goes_to_the_item_at_that_point_of_the_bar() {
    let (_d, mut s) = rows(30);
    let screen = render_to_string(&s, 80, 24);
    let bar = screen.lines().nth(22).unwrap();
    // the bar's last cell, just before its label
    let end = bar.chars().take_while(|c| *c == '░').count() as u16;
    assert!(end > 20 && end < 80, "{bar}");
    click(&mut s, end - 1, 22);
    assert_eq!(s.pos, 29, "the end of the bar is the last item");
    click(&mut s, 0, 22);
    assert_eq!(s.pos, 0, "its start is the first");
    click(&mut s, end + 2, 22);
    assert_eq!(s.pos, 0, "a click on the label is on no item");
}

#[test]
fn clicks_on_a_too_small_terminal_do_nothing() {
    let (_d, mut s) = rows(30);
    s.size = (40, 10);
    click(&mut s, 30, 8);
    assert_eq!(s.pos, 0, "nothing is drawn there but the size message");
    s.size = (80, 24);
    search(&mut s, "row");
    s.size = (40, 10);
    for y in 0..10 {
        click(&mut s, 20, y);
    }
    assert!(matches!(s.mode, Mode::Search(_)));
    assert_eq!(s.pos, 0);
}

fn wheel(s: &mut State, down: bool, column: u16, row: u16) {
    s.update(Msg::Mouse(MouseEvent {
        kind: if down {
            MouseEventKind::ScrollDown
        } else {
            MouseEventKind::ScrollUp
        },
        column,
        row,
        modifiers: KeyModifiers::NONE,
    }));
}

/// `n` items of 60 fields each (the item's text scrolls), as carol.
fn long_items(n: usize) -> (tempfile::TempDir, State) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("t.jsonl");
    let fields: String = (1..=60).map(|k| format!(",\"f{k}\":{k}")).collect();
    let text: String = (1..=n)
        .map(|k| format!("{{\"id\":\"row-{k:02}\"{fields}}}\n"))
        .collect();
    std::fs::write(&p, text).unwrap();
    (d, state_at(&p))
}

#[test]
fn the_wheel_over_the_search_list_scrolls_the_list_not_the_item() {
    let (_d, mut s) = long_items(30);
    search(&mut s, "row");
    let shown = result_rows(&s);
    let (y, first) = shown[0];
    for _ in 0..25 {
        wheel(&mut s, true, 20, y);
    }
    assert_eq!(s.scroll, 0, "the item under the popup stays where it was");
    let Mode::Search(st) = &s.mode else {
        panic!("the search stays open")
    };
    assert_eq!(st.selected, 25, "one result per notch");
    let now = result_rows(&s);
    assert_ne!(now[0].1, first, "the list scrolled: {now:?}");
    assert!(now.iter().any(|&(_, item)| item == st.results[25]));
    for _ in 0..30 {
        wheel(&mut s, false, 20, y);
    }
    let Mode::Search(st) = &s.mode else {
        panic!("the search stays open")
    };
    assert_eq!(st.selected, 0, "back up to the first result, no further");
    assert_eq!(result_rows(&s), shown);
    // beside the popup, over the item it hides: nothing moves
    wheel(&mut s, true, 0, 23);
    wheel(&mut s, true, 79, 12);
    assert_eq!(s.scroll, 0);
    assert!(matches!(&s.mode, Mode::Search(st) if st.selected == 0));
}

#[test]
fn the_wheel_over_the_filter_menu_moves_through_its_rows_without_toggling() {
    let (_d, mut s) = long_items(3);
    press(&mut s, KeyCode::Char('F'));
    let n = s.filter_options().len();
    assert!(n >= 2);
    let screen = render_to_string(&s, 80, 24);
    let label = s.filter_label(&s.filter_options()[0]);
    let y = screen
        .lines()
        .position(|l| l.contains(&format!("[ ] {label}")))
        .unwrap_or_else(|| panic!("no row {label}:\n{screen}")) as u16;
    for _ in 0..n + 3 {
        wheel(&mut s, true, 40, y);
    }
    assert_eq!(
        s.mode,
        Mode::Filter { selected: n - 1 },
        "to the last row, no further"
    );
    assert_eq!(s.scroll, 0, "the item under the menu stays where it was");
    wheel(&mut s, false, 40, y);
    assert_eq!(s.mode, Mode::Filter { selected: n - 2 });
    let opts = s.filter_options();
    assert!(
        opts.iter().all(|o| !s.filter_active(o)),
        "the wheel toggles nothing"
    );
}

/// The column and row of the first cell of the screen whose row contains `text`.
fn where_is(screen: &str, text: &str) -> Option<(u16, u16)> {
    screen.lines().enumerate().find_map(|(y, l)| {
        l.find(text)
            .map(|b| (l[..b].chars().count() as u16, y as u16))
    })
}

#[test]
fn the_wheel_scrolls_the_pane_under_the_pointer_the_context_or_the_item() {
    // a CharToM-QA item with a ~2,000-word context, side by side at 200 columns
    let src =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/samples/chartom-qa-long.jsonl");
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("long.jsonl");
    std::fs::copy(&src, &p).unwrap();
    let mut s = state_at(&p);
    s.size = (200, 50);
    let screen = render_to_string(&s, 200, 50);
    let (cx, cy) = where_is(&screen, "Context").unwrap_or_else(|| panic!("{screen}"));
    assert!(cx < 90, "the context pane is on the left: {screen}");
    let (aside_rows, aside_max) = verdict::tui::draw::aside_geometry(&s);
    assert!(aside_rows > 0 && aside_max > 0, "a long context scrolls");
    // over the context pane: the context scrolls, the item stays
    for _ in 0..2 {
        wheel(&mut s, true, cx + 5, cy + 5);
    }
    assert_eq!(s.aside_scroll, 6, "three lines a notch");
    assert_eq!(s.scroll, 0, "the item pane stays");
    let after = render_to_string(&s, 200, 50);
    assert_ne!(after, screen, "the context moved on screen");
    wheel(&mut s, false, cx + 5, cy + 5);
    assert_eq!(s.aside_scroll, 3);
    for _ in 0..1000 {
        wheel(&mut s, true, cx + 5, cy + 5);
    }
    assert_eq!(s.aside_scroll, aside_max, "no further than its end");
    // over the item pane on the right: the item scrolls, the context stays
    let before = s.aside_scroll;
    let max = verdict::tui::draw::max_scroll(&s);
    wheel(&mut s, true, 150, cy + 5);
    assert_eq!(s.aside_scroll, before);
    assert_eq!(s.scroll, 3.min(max), "the item pane scrolls (max {max})");
}
