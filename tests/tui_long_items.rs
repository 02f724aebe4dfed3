//! A long item of every layout (issue 21: "≤ 50 ms per key at any line length"): a key on
//! it, with its frame, does work on the screen's thread that does not grow with the
//! item's text. Counted as the bytes the screen's thread allocates (a copy of the text
//! is as many bytes as the text): a verdict, scrolling, blind mode, the next response,
//! on a generic item's question, a CHARTOM question, a CharToM-QA context (our layout
//! and the paper's evaluation file) and an
//! Inspect sample's input (a text, and messages). lm-eval's and C-VQA's long items are
//! tests/tui_long_line.rs's.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::json;
use verdict::store::Store;
use verdict::tui::app::{Msg, State};
use verdict::tui::draw::render_to_string;
use verdict::tui::keymap::Keymap;

#[path = "support/state.rs"]
mod state;

#[path = "support/counting.rs"]
mod counting;
use counting::{BYTES, allocations};

#[path = "support/words.rs"]
mod words;
use words::words;

/// The text's length: 2 MB.
const MB2: usize = 2_000_000;

/// One long item of each layout, and the keys that grade it (two verdicts in turn).
struct Case {
    what: &'static str,
    line: String,
    verdicts: [char; 2],
}

fn two_responses_of(field: &str) -> serde_json::Value {
    json!([
        {"model": "m", field: "an answer", "justification": "a reason"},
        {"model": "n", field: "another", "justification": "another reason"}
    ])
}

fn cases(text: &str) -> Vec<Case> {
    let generic = json!({
        "id": "long-1", "benchmark": "mmlu", "subject": "astronomy", "question": text,
        "choices": ["Mercury", "Venus"], "key": 1,
        "responses": [{"model": "m", "text": "Mercury"}, {"model": "n", "text": "Venus"}]
    });
    let chartom = json!({
        "id": "G1_Q1_1", "benchmark": "chartom", "image": "none.png",
        "chart": {"pair": "G1_Q1", "version": "original", "type": "line"},
        "fact": {"question": text, "format": "number", "options": [], "key": 1.2,
                 "human_answers": [[1.2, 30], [6, 5]]},
        "mind": {"hmi": 0.2},
        "responses": two_responses_of("fact")
    });
    let chartom_qa = json!({
        "id": "pp-1", "benchmark": "chartom-qa", "book": "Pride and Prejudice",
        "character": "Elizabeth", "dimension": "belief",
        "context": {"0": "Short.", "1000": "Short, longer.", "2000": text},
        "question": "What does Elizabeth believe?", "answer": "That he is proud.",
        "bonus_points": ["proud", "unjust"],
        "responses": [{"model": "m", "text": "He is proud."}, {"model": "n", "text": "Kind."}]
    });
    // The paper's evaluation file, as its scripts write it (one response a line, no id).
    let chartom_qa_eval = json!({
        "book_name": "Pride and Prejudice", "tom_dimension": "belief",
        "context_0": "Short.", "context_1000": "Short, longer.", "context_2000": text,
        "question": "What does Elizabeth believe?", "answer": "That he is proud.",
        "bonus_points": ["proud", "unjust"], "misleading_choices": ["kind", "shy"],
        "response": "He is proud.", "bonus": [1], "penalty": "None"
    });
    let inspect = |input: serde_json::Value| {
        json!({
            "id": "q1-epoch-1",
            "inspect_sample": {
                "sample": "q1", "epoch": 1, "input": input, "target": ["A"],
                "choices": ["yes", "no"], "completion": "ANSWER: A",
                "messages": [{"role": "user", "text": "See the input."},
                             {"role": "assistant", "text": "ANSWER: A"}],
                "scores": [{"name": "choice", "value": "C", "original": "C", "answer": "A",
                            "explanation": "A", "edits": []}],
                "headline": "choice",
                "run": {"task": "t", "model": "mockllm/model", "format": "json", "status": "success"},
                "harness": [{"scorer": "choice", "metric": "accuracy", "value": 1.0}],
                "error": null
            }
        })
    };
    vec![
        Case {
            what: "generic question",
            line: generic.to_string(),
            verdicts: ['1', '2'],
        },
        Case {
            what: "CHARTOM question",
            line: chartom.to_string(),
            verdicts: ['1', '2'],
        },
        Case {
            what: "CharToM-QA context",
            line: chartom_qa.to_string(),
            verdicts: ['1', '2'],
        },
        Case {
            what: "CharToM-QA evaluation context",
            line: chartom_qa_eval.to_string(),
            verdicts: ['1', '2'],
        },
        Case {
            what: "Inspect input",
            line: inspect(json!(text)).to_string(),
            verdicts: ['1', '2'],
        },
        Case {
            what: "Inspect messages",
            line: inspect(json!([
                {"role": "system", "text": "Answer with a letter."},
                {"role": "user", "text": text}
            ]))
            .to_string(),
            verdicts: ['1', '2'],
        },
    ]
}

fn key(c: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(c, KeyModifiers::NONE))
}

/// A file of `line` and a short item after it, in a folder of its own.
fn state_of(dir: &std::path::Path, line: &str, w: u16, h: u16) -> State {
    let p = dir.join("long.jsonl");
    let short = json!({"id": "short-2", "benchmark": "mmlu", "question": "Short?",
                       "responses": [{"model": "m", "text": "yes"}]});
    std::fs::write(&p, format!("{line}\n{short}\n")).unwrap();
    let mut s = state::indexed_state(Store::open(&p).unwrap(), Keymap::default());
    s.size = (w, h);
    s
}

/// The bytes `msg` and the frame after it allocate on this thread.
fn bytes_of(s: &mut State, msg: Msg) -> u64 {
    let (w, h) = s.size;
    allocations(|| {
        s.update(msg);
        render_to_string(s, w, h)
    });
    BYTES.with(|b| b.get())
}

/// The bytes each key a reviewer presses allocates, with its frame, at `w`×`h` on
/// `line`: two verdicts (each changes the reviews shown, so the panes are laid out
/// again), scrolling, a page down, blind mode on and off, the next response.
fn bytes_per_key(line: &str, verdicts: [char; 2], w: u16, h: u16) -> Vec<(String, u64)> {
    let d = tempfile::tempdir().unwrap();
    let mut s = state_of(d.path(), line, w, h);
    let first = render_to_string(&s, w, h);
    assert!(first.contains("alpha"), "the text is shown\n{first}");
    let keys: Vec<(String, Msg)> = vec![
        (
            format!("verdict {}", verdicts[0]),
            key(KeyCode::Char(verdicts[0])),
        ),
        (
            format!("verdict {}", verdicts[1]),
            key(KeyCode::Char(verdicts[1])),
        ),
        ("j".into(), key(KeyCode::Char('j'))),
        ("PageDown".into(), key(KeyCode::PageDown)),
        ("blind on".into(), key(KeyCode::Char('b'))),
        ("blind off".into(), key(KeyCode::Char('b'))),
        ("next response".into(), key(KeyCode::Char('m'))),
    ];
    let out = keys
        .into_iter()
        .map(|(what, msg)| (what, bytes_of(&mut s, msg)))
        .collect();
    assert_eq!(s.pos, 0, "still on the long item");
    out
}

/// Every key on a long item of this layout, with its frame, at 80×24 and 200×50,
/// allocates on the screen's thread less than a tenth of the item's text more than the
/// same key on the same item with a tenth of its text (each longer than what the generic
/// view shows, its first 50,000 characters; the frame's own cells are the same): the
/// work of a key does not grow with the text. Before: the item was copied for the view
/// and for its facts on every verdict; the generic view wrote the whole line as JSON
/// again on each; CHARTOM's, CharToM-QA's and Inspect's views copied the text into
/// their lines.
fn keys_copy_none_of_the_text(what: &str) {
    let (long, short) = (words(MB2), words(MB2 / 10));
    let case = |text: &str| cases(text).into_iter().find(|c| c.what == what).unwrap();
    let (long, short) = (case(&long), case(&short));
    let mut failures = Vec::new();
    for (w, h) in [(80u16, 24u16), (200, 50)] {
        let base = bytes_per_key(&short.line, short.verdicts, w, h);
        for ((k, bytes), (_, b)) in bytes_per_key(&long.line, long.verdicts, w, h)
            .into_iter()
            .zip(base)
        {
            if bytes > b + (MB2 / 10) as u64 {
                failures.push(format!(
                    "{what} at {w}×{h}: {k} allocated {bytes} bytes ({b} on a short text)"
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "on a 2 MB text:\n{}",
        failures.join("\n")
    );
}

/// Showing a long item of this layout (`p` from the short item after it) copies its text
/// at most about once on the screen's thread (the line parsed into the typed item), not
/// once per pass (the whole line into a `Value`, the sample out of it, the input into
/// the question, the text into the view's lines): the bytes it allocates grow by at most
/// 1.5 bytes per byte of text from a tenth of the text to the whole.
fn showing_copies_the_text_once(what: &str) {
    let show = |text: &str| {
        let case = cases(text).into_iter().find(|c| c.what == what).unwrap();
        let d = tempfile::tempdir().unwrap();
        let mut s = state_of(d.path(), &case.line, 80, 24);
        render_to_string(&s, 80, 24);
        bytes_of(&mut s, key(KeyCode::Char('n')));
        let bytes = bytes_of(&mut s, key(KeyCode::Char('p')));
        assert_eq!(s.pos, 0, "{what}");
        bytes
    };
    let (long, short) = (show(&words(MB2)), show(&words(MB2 / 10)));
    let more = (MB2 - MB2 / 10) as u64;
    assert!(
        long <= short + more + more / 2,
        "{what}: showing it allocated {long} bytes for a 2 MB text, {short} for 200 KB"
    );
}

#[test]
fn a_key_on_a_long_chartom_question_copies_none_of_it() {
    keys_copy_none_of_the_text("CHARTOM question");
}

#[test]
fn a_key_on_a_long_chartom_qa_context_copies_none_of_it() {
    keys_copy_none_of_the_text("CharToM-QA context");
}

#[test]
fn a_key_on_a_long_chartom_qa_evaluation_context_copies_none_of_it() {
    keys_copy_none_of_the_text("CharToM-QA evaluation context");
}

#[test]
fn showing_a_long_chartom_qa_evaluation_context_copies_it_once() {
    showing_copies_the_text_once("CharToM-QA evaluation context");
}

#[test]
fn a_key_on_a_long_inspect_input_copies_none_of_it() {
    keys_copy_none_of_the_text("Inspect input");
}

#[test]
fn a_key_on_long_inspect_messages_copies_none_of_them() {
    keys_copy_none_of_the_text("Inspect messages");
}

#[test]
fn showing_a_long_chartom_question_copies_it_once() {
    showing_copies_the_text_once("CHARTOM question");
}

#[test]
fn showing_a_long_chartom_qa_context_copies_it_once() {
    showing_copies_the_text_once("CharToM-QA context");
}

/// An Inspect sample's input is read once, into the sample (before: the line searched
/// for `inspect_sample`, parsed into a `Value` map, the sample copied out of it, and the
/// input copied again as the item's question: 8.6 MB for a 2 MB input). Messages are
/// read into the sample and the view's lines borrow them.
#[test]
fn showing_a_long_inspect_input_copies_it_once() {
    showing_copies_the_text_once("Inspect input");
}

#[test]
fn showing_long_inspect_messages_copies_them_once() {
    showing_copies_the_text_once("Inspect messages");
}

/// A generic item's JSON is parsed once per show, its strings cut to what the view
/// shows of them (its first 50,000 characters): a verdict, blind mode or a scroll no
/// longer parse the whole line into a `Value` and write it out again (before: 37 MB
/// allocated by a verdict on a 2 MB question, 55 MB by `j` in a debug build, which lays
/// the item out anew on every frame).
#[test]
fn a_key_on_a_long_generic_question_copies_none_of_it() {
    keys_copy_none_of_the_text("generic question");
}

/// Showing a generic item with a long question: the typed parse and the JSON cut as it
/// is read (before: the line copied, parsed into a `Value`, written out and parsed
/// again: 41 MB for a 2 MB question).
#[test]
fn showing_a_long_generic_question_copies_it_once() {
    showing_copies_the_text_once("generic question");
}
