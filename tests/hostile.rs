//! A hostile corpus through every subcommand and output mode: escape sequences (CSI, OSC 0
//! title, OSC 52 clipboard), C1 controls, bidi overrides, NUL, DEL, lone carriage returns
//! and very long lines, in every field (ids, questions, responses, notes, reviewer names,
//! verdict values, model names) and in file names.
//!
//! What reaches the terminal (stdout, stderr) carries none of them raw; JSON output still
//! parses and means the same; what is written to files (export -o, merge, split, import)
//! keeps the original bytes. Generated here, so nothing hostile sits in the repository.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_verdict"))
}

/// A hostile string, tagged so a test can find it again.
fn evil(tag: &str) -> String {
    format!(
        "{tag}\u{1b}]0;TITLE\u{7}\u{1b}]52;c;cHduZWQ=\u{7}\u{1b}[2J\u{1b}[31m\u{9b}1m\u{85}\
         \u{202e}desrever\u{2066}\u{2069}\u{200f}\0\u{1}\u{7f}\r\u{2028}{tag}"
    )
}

/// The file-name-safe variant (no NUL, no slash).
fn evil_name(tag: &str) -> String {
    format!("{tag}\u{1b}]0;TITLE\u{7}\u{1b}[31m\u{9b}1m\u{85}\u{202e}\r\u{1}x")
}

/// What may not reach a terminal raw: C0 controls other than `\n` and `\t` (ESC among
/// them), DEL, C1 controls, bidi embeddings, overrides, isolates and marks, and line and
/// paragraph separators. Bytes that are not UTF-8 are refused too (a lone 0x9b is CSI on
/// an 8-bit terminal).
#[track_caller]
fn assert_terminal_safe(what: &str, bytes: &[u8]) {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => panic!(
            "{what}: not UTF-8 ({e}): {:?}",
            String::from_utf8_lossy(bytes)
        ),
    };
    for (i, c) in text.char_indices() {
        let bad = match c {
            '\n' | '\t' => false,
            '\0'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => true,
            '\u{200e}' | '\u{200f}' | '\u{61c}' | '\u{2028}' | '\u{2029}' => true,
            _ => false,
        };
        if bad {
            let from = text[..i]
                .char_indices()
                .rev()
                .nth(60)
                .map(|(j, _)| j)
                .unwrap_or(0);
            panic!(
                "{what}: raw {:?} at byte {i}, after …{:?}",
                c,
                &text[from..i]
            );
        }
    }
}

#[track_caller]
fn assert_out_safe(what: &str, o: &Output) {
    assert_terminal_safe(&format!("{what} (stdout)"), &o.stdout);
    assert_terminal_safe(&format!("{what} (stderr)"), &o.stderr);
}

struct Corpus {
    dir: tempfile::TempDir,
    /// The hostile result set (its name is hostile too).
    file: PathBuf,
    /// A second reviewer's copy with newer verdicts (for merge).
    newer: PathBuf,
}

const AT: &str = "2026-11-20T09:00:00Z";
const LATER: &str = "2026-11-21T09:00:00Z";

fn items(at: &str) -> Vec<Value> {
    let name = evil("REVIEWER");
    let model = evil("MODEL");
    let long = evil("LONG").repeat(4000);
    vec![
        // a generic item: hostile id, question, response, note, reviewer name, verdict
        json!({
            "id": evil("ID1"), "benchmark": "mmlu", "question": evil("QUESTION"),
            "responses": [{"model": model, "text": evil("RESPONSE")}],
            "reviews": {
                name.clone(): {"at": at, "verdict": evil("VERDICT"), "note": evil("NOTE"), "seconds": 3.0},
                "bob": {"at": AT, "verdict": "pass", "seconds": 4.0}
            }
        }),
        json!({
            "id": evil("ID2"), "benchmark": evil("BENCH"), "question": long,
            "responses": [{"model": model, "text": long}],
            "reviews": {
                name.clone(): {"at": AT, "verdict": "pass", "seconds": 3.0},
                "bob": {"at": AT, "verdict": evil("VERDICT"), "seconds": 4.0}
            }
        }),
        // CHARTOM
        json!({
            "id": evil("ID3"), "benchmark": "chartom",
            "chart": {"pair": evil("PAIR"), "type": evil("TYPE"), "version": evil("VERSION"), "manipulation": evil("MANIP")},
            "fact": {"question": evil("FACT"), "format": "number", "key": 1.2},
            "mind": {"question": evil("MIND"), "hmi": 0.5},
            "responses": [{"model": model, "fact": evil("FACTANSWER"), "mind": 3, "justification": evil("JUST")}],
            "reviews": {name.clone(): {"at": at, "models": {model.clone(): {"justification": "identifies"}}, "note": evil("NOTE")}}
        }),
        // CharToM-QA
        json!({
            "id": evil("ID4"), "benchmark": "chartom-qa", "book": evil("BOOK"),
            "character": evil("CHAR"), "dimension": evil("DIM"),
            "question": evil("QAQ"), "answer": evil("QAA"),
            "bonus_points": [evil("BP1"), evil("BP2")],
            "responses": [{"model": model, "text": evil("QATEXT"), "judge": {"bonus": [1], "penalty": evil("JPEN")}}],
            "reviews": {
                name.clone(): {"at": at, "models": {model.clone(): {"bonus": [1], "penalty": evil("PEN")}}},
                "bob": {"at": AT, "models": {model.clone(): {"bonus": [2], "penalty": null}}}
            }
        }),
        // C-VQA
        json!({
            "id": evil("ID5"), "benchmark": "cvqa", "split": "real", "group": "direct",
            "image": evil("IMG"),
            "original": {"question": evil("OQ"), "answer": "2"},
            "counterfactual": {"question": evil("CQ"), "answer": "3"},
            "responses": [{"model": model, "original": evil("ORESP"), "counterfactual": "3"}],
            "reviews": {name.clone(): {"at": at, "status": "reject", "reason": "other", "note": evil("NOTE")}}
        }),
        json!({
            "id": evil("ID6"), "benchmark": "cvqa", "split": "real", "group": evil("GROUP"),
            "original": {"question": evil("OQ"), "answer": "2"},
            "counterfactual": {"question": evil("CQ"), "answer": "3"},
            "responses": [{"model": model, "original": "2", "counterfactual": "3"}],
            "reviews": {name.clone(): {"at": at, "status": "accept"}}
        }),
    ]
}

/// The items, and unless `readable_only`, lines that are broken on purpose.
fn write_set(path: &Path, at: &str, readable_only: bool) {
    let mut text = String::new();
    for it in items(at) {
        text.push_str(&serde_json::to_string(&it).unwrap());
        text.push('\n');
    }
    if readable_only {
        std::fs::write(path, text).unwrap();
        return;
    }
    // an unreadable line whose text is quoted in messages
    text.push_str(&evil("BROKEN"));
    text.push('\n');
    // a duplicate id and an unknown status, so `check` quotes them
    text.push_str(
        &serde_json::to_string(
            &json!({"id": evil("ID1"), "benchmark": "cvqa", "split": evil("SPLIT"),
            "reviews": {evil("R2"): {"at": evil("AT"), "status": evil("STATUS")}}}),
        )
        .unwrap(),
    );
    text.push('\n');
    std::fs::write(path, text).unwrap();
}

impl Corpus {
    fn new() -> Corpus {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(format!("{}.jsonl", evil_name("FILE")));
        let newer = dir.path().join(format!("{}.jsonl", evil_name("NEWER")));
        write_set(&file, AT, false);
        write_set(&newer, LATER, true);
        Corpus { dir, file, newer }
    }
    fn path(&self, name: impl AsRef<Path>) -> PathBuf {
        self.dir.path().join(name)
    }
    fn run(&self, args: &[&std::ffi::OsStr]) -> Output {
        bin()
            .args(args)
            .current_dir(self.dir.path())
            .env("VERDICT_DATA_DIR", self.path("data"))
            .env("VERDICT_CONFIG_DIR", self.path("config"))
            .output()
            .expect("run verdict")
    }
}

fn os<S: AsRef<std::ffi::OsStr> + ?Sized>(s: &S) -> &std::ffi::OsStr {
    s.as_ref()
}

#[test]
fn stats_text_and_json() {
    let c = Corpus::new();
    let o = c.run(&[os("stats"), os(&c.file)]);
    assert_out_safe("stats", &o);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("MODEL"));

    let o = c.run(&[os("stats"), os(&c.file), os("--json")]);
    assert_out_safe("stats --json", &o);
    let v: Value = serde_json::from_slice(&o.stdout).expect("stats --json parses");
    // the same meaning: the model's name is the exact hostile string
    let models = &v["benchmarks"]["cvqa"]["models"];
    assert!(models.get(evil("MODEL")).is_some(), "{v}");
}

#[test]
fn check_text_and_json() {
    let c = Corpus::new();
    let o = c.run(&[os("check"), os(&c.file), os("--no-images")]);
    assert_out_safe("check", &o);
    assert_eq!(o.status.code(), Some(1), "errors found");
    let o = c.run(&[os("check"), os(&c.file), os("--json")]);
    assert_out_safe("check --json", &o);
    let v: Value = serde_json::from_slice(&o.stdout).expect("check --json parses");
    assert_eq!(v["file"], c.file.to_str().unwrap());
    assert!(
        v["problems"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["id"] == evil("ID1")),
        "{v}"
    );
}

#[test]
fn export_to_stdout_is_safe_and_to_a_file_is_exact() {
    let c = Corpus::new();
    let csv = c.run(&[os("export"), os(&c.file), os("--csv")]);
    assert_out_safe("export --csv", &csv);
    assert!(csv.status.success());
    let jsonl = c.run(&[os("export"), os(&c.file), os("--jsonl")]);
    assert_out_safe("export --jsonl", &jsonl);
    assert!(jsonl.status.success());
    // JSON on stdout means the same: every row parses, the hostile text is intact
    let rows: Vec<Value> = String::from_utf8(jsonl.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON row"))
        .collect();
    assert!(rows.iter().any(|r| r["raw_answer"] == evil("RESPONSE")));

    // to a file: the exact text, control characters included
    for (flag, name) in [("--csv", "out.csv"), ("--jsonl", "out.jsonl")] {
        let out = c.path(name);
        let o = c.run(&[os("export"), os(&c.file), os(flag), os("-o"), os(&out)]);
        assert_out_safe("export -o", &o);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let bytes = std::fs::read(&out).unwrap();
        match flag {
            "--csv" => {
                let mut r = csv::Reader::from_reader(bytes.as_slice());
                let hdr = r.headers().unwrap().clone();
                let col = hdr.iter().position(|h| h == "raw_answer").unwrap();
                let cells: Vec<String> = r.records().map(|x| x.unwrap()[col].to_string()).collect();
                assert!(
                    cells.contains(&evil("RESPONSE")),
                    "CSV file keeps the bytes"
                );
            }
            _ => {
                let text = String::from_utf8(bytes).unwrap();
                assert!(text.lines().any(|l| {
                    serde_json::from_str::<Value>(l).unwrap()["raw_answer"] == evil("RESPONSE")
                }));
            }
        }
    }
}

#[test]
fn agree_text_and_json() {
    let c = Corpus::new();
    let o = c.run(&[os("agree"), os(&c.file)]);
    assert_out_safe("agree", &o);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("REVIEWER"));
    let o = c.run(&[os("agree"), os(&c.file), os("--json")]);
    assert_out_safe("agree --json", &o);
    let v: Value = serde_json::from_slice(&o.stdout).expect("agree --json parses");
    assert!(
        v["reviewers"]
            .as_array()
            .unwrap()
            .contains(&json!(evil("REVIEWER"))),
        "{v}"
    );
}

#[test]
fn merge_prints_safely_and_writes_the_bytes() {
    let c = Corpus::new();
    // merge refuses unreadable items: the readable part of the set
    write_set(&c.file, AT, true);
    let out = c.path("merged.jsonl");
    let o = c.run(&[os("merge"), os(&c.file), os(&c.newer), os("-o"), os(&out)]);
    assert_out_safe("merge", &o);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("REVIEWER"),
        "the replaced verdicts are listed"
    );
    // an item whose verdicts did not change is written as the first file's bytes
    let first = std::fs::read_to_string(&c.file).unwrap();
    let merged = std::fs::read_to_string(&out).unwrap();
    let id2 = first.lines().nth(1).unwrap();
    assert!(merged.lines().any(|l| l == id2));
    assert!(merged.contains(&serde_json::to_string(&evil("NOTE")).unwrap()[1..]));
}

#[test]
fn split_prints_safely_and_writes_the_bytes() {
    let c = Corpus::new();
    let dir = c.path("split");
    // a hostile reviewer name is refused (names go into file names), harmlessly
    let reviewers = format!("ann,{}", evil_name("SPLITTER").replace(',', ""));
    let o = c.run(&[
        os("split"),
        os(&c.file),
        os("--reviewers"),
        os(&reviewers),
        os("-o"),
        os(&dir),
    ]);
    assert_out_safe("split (refused)", &o);
    assert_eq!(o.status.code(), Some(2));
    // the corpus has an id twice, which `merge` could not put back together: `split`
    // refuses it up front, harmlessly
    let split = |file: &Path| {
        c.run(&[
            os("split"),
            os(file),
            os("--reviewers"),
            os("ann,bob"),
            os("--overlap"),
            os("2"),
            os("-o"),
            os(&dir),
        ])
    };
    let o = split(Path::new(&c.file));
    assert_out_safe("split (an id twice)", &o);
    assert_eq!(o.status.code(), Some(2));
    // without the second one, it writes every hostile line as it is
    let once = c.path("once.jsonl");
    let text = std::fs::read_to_string(&c.file).unwrap();
    let first_id = |l: &str| {
        serde_json::from_str::<Value>(l)
            .ok()
            .map(|v| v["id"].clone())
    };
    let mut seen = std::collections::HashSet::new();
    let kept: String = text
        .lines()
        .filter(|l| first_id(l).is_none_or(|id| id.is_null() || seen.insert(id.to_string())))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&once, &kept).unwrap();
    let o = split(&once);
    assert_out_safe("split", &o);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let first = kept;
    // (beside them, the note of where they come from: `.verdict-origin.json`)
    for f in std::fs::read_dir(&dir).unwrap() {
        let f = f.unwrap().path();
        if f.extension().is_some_and(|e| e == "json") {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        assert!(
            text == first,
            "overlap 2 of 2: every file holds every line as it was"
        );
    }
}

/// A C-VQA responses CSV with one hostile row, open for more rows.
fn hostile_cvqa_csv(path: &std::path::Path) -> csv::Writer<std::fs::File> {
    let mut w = csv::Writer::from_path(path).unwrap();
    w.write_record([
        "img_path",
        "query",
        "answer",
        "new query",
        "new answer",
        "type",
        "response",
        "new_response",
    ])
    .unwrap();
    w.write_record([
        &evil("IMG"),
        &evil("Q"),
        "3",
        &evil("NQ"),
        "1",
        "direct",
        &evil("RESP"),
        "1",
    ])
    .unwrap();
    w
}

#[test]
fn import_prints_safely_and_writes_the_text() {
    let c = Corpus::new();
    let csv_name = c.path(format!("{}_responses.csv", evil_name("CSV")));
    let mut w = hostile_cvqa_csv(&csv_name);
    // a row of an unknown type: the importer names it in a message
    w.write_record(["b.jpg", "q", "3", "nq", "1", &evil("TYPE"), "3", "1"])
        .unwrap();
    w.flush().unwrap();
    let out = c.path("imported.jsonl");
    let o = c.run(&[os("import"), os("cvqa"), os(&csv_name), os("-o"), os(&out)]);
    assert_out_safe("import cvqa (error)", &o);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    // without the bad row, and with a hostile model name
    let mut w = hostile_cvqa_csv(&csv_name);
    w.flush().unwrap();
    let o = c.run(&[
        os("import"),
        os("cvqa"),
        os(&csv_name),
        os("--model"),
        os(&evil_name("IMPMODEL")),
        os("-o"),
        os(&out),
    ]);
    assert_out_safe("import cvqa", &o);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let item: Value = serde_json::from_str(
        std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(item["responses"][0]["model"], evil_name("IMPMODEL"));
    assert_eq!(item["responses"][0]["original"], evil("RESP"));
}

/// Every command's error message names the file: the name must come out harmless.
#[test]
fn error_messages_with_hostile_file_names() {
    let c = Corpus::new();
    let missing = c.path(format!("{}.jsonl", evil_name("MISSING")));
    let out = c.path("o.jsonl");
    let flag = evil_name("--BADFLAG");
    // a name that is not UTF-8: a lone 0x9b byte is CSI on an 8-bit terminal
    let raw = {
        use std::os::unix::ffi::OsStrExt;
        c.path(std::ffi::OsStr::from_bytes(b"raw\x9b31m\x1b[2J\xff.jsonl"))
    };
    let runs: Vec<Vec<&std::ffi::OsStr>> = vec![
        vec![os("stats"), os(&missing)],
        vec![os("stats"), os(&raw)],
        vec![os("check"), os(&raw)],
        vec![os("check"), os(&raw), os("--json")],
        vec![os("stats"), os(&missing), os("--json")],
        vec![os("check"), os(&missing)],
        vec![os("check"), os(&missing), os("--json")],
        vec![os("export"), os(&missing), os("--csv")],
        vec![os("agree"), os(&missing)],
        vec![os("merge"), os(&missing), os("-o"), os(&out)],
        vec![os("merge"), os(&c.file), os("-o"), os(&missing)],
        vec![
            os("split"),
            os(&missing),
            os("--reviewers"),
            os("a,b"),
            os("-o"),
            os(&out),
        ],
        vec![os("import"), os("cvqa"), os(&missing), os("-o"), os(&out)],
        vec![
            os("import"),
            os("chartom"),
            os(&missing),
            os("-o"),
            os(&out),
        ],
        vec![
            os("import"),
            os("cvqa"),
            os(&missing),
            os("-o"),
            os(&c.file),
        ],
        // the reviewer refuses without a terminal, before opening anything
        vec![os(&missing)],
        // clap's own errors quote the arguments
        vec![os("stats"), os(&c.file), os(&missing)],
        vec![os("export"), os(&missing)],
        vec![os(&flag)],
        vec![os("stats"), os(&flag)],
    ];
    for args in runs {
        let o = c.run(&args);
        assert_out_safe(&format!("{args:?}"), &o);
        assert!(!o.status.success(), "{args:?}");
        assert!(
            !o.stderr.is_empty() || !o.stdout.is_empty(),
            "{args:?}: an error is reported"
        );
    }
}

/// The reviewer's image placeholder carries a path from the file: drawn harmlessly, with
/// the same stand-ins as everywhere else.
#[test]
fn image_placeholder_draws_a_hostile_path_harmlessly() {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::widgets::Widget;
    let mut buf = Buffer::empty(Rect::new(0, 0, 60, 5));
    verdict::tui::image::placeholder("image not found: a\u{1b}[2J\u{202e}b\u{85}.png")
        .render(buf.area, &mut buf);
    let all: String = (0..5)
        .flat_map(|y| (0..60).map(move |x| (x, y)))
        .map(|p| buf[p].symbol().to_string())
        .collect();
    assert_terminal_safe("placeholder", all.as_bytes());
    assert!(all.contains("a␛[2J\\u{202e}b\\u{85}.png"), "{all}");
}

/// The reviewer on the hostile set: every item, in one and in side-by-side view, with the
/// help, filters and summary open, draws nothing unsafe. The generic view's JSON shows
/// escapes as JSON does (`\u009b`), not a second notation.
#[test]
fn the_reviewer_draws_every_view_harmlessly() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use verdict::tui::app::{Clock, Msg, State};
    use verdict::tui::draw::render_to_string;

    let c = Corpus::new();
    let store = verdict::store::Store::open(&c.file).unwrap();
    let meta = verdict::tui::facts::index(&store, 2);
    let n = store.len();
    let mut s = State::new(
        store,
        evil_name("ME"),
        verdict::tui::keymap::Keymap::default(),
        verdict::tui::theme::ThemeName::Mono,
        Clock {
            instant: std::time::Instant::now(),
            utc: time::macros::datetime!(2026-11-22 10:00:00 UTC),
        },
    );
    s.update(Msg::Indexed {
        generation: 0,
        meta: meta.into(),
    });
    s.size = (120, 40);
    let key = |s: &mut State, c: char| {
        s.update(Msg::Key(KeyEvent::new(
            KeyCode::Char(c),
            KeyModifiers::NONE,
        )));
    };
    let esc = |s: &mut State| {
        s.update(Msg::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)));
    };
    let mut screens = Vec::new();
    for i in 0..n {
        screens.push((format!("item {i}"), render_to_string(&s, 120, 40)));
        key(&mut s, 'M');
        screens.push((
            format!("item {i} side by side"),
            render_to_string(&s, 120, 40),
        ));
        key(&mut s, 'M');
        key(&mut s, 'n');
    }
    for (what, k) in [("help", '?'), ("filters", 'F'), ("summary", 's')] {
        key(&mut s, k);
        screens.push((what.to_string(), render_to_string(&s, 120, 40)));
        esc(&mut s);
    }
    for (what, screen) in &screens {
        assert_terminal_safe(what, screen.as_bytes());
    }
    let generic = &screens[0].1;
    let question = generic
        .lines()
        .find(|l| l.contains("\"QUESTION"))
        .unwrap_or_else(|| panic!("{generic}"));
    assert!(
        question.contains("\\u009b") && !question.contains("\\u{9b}"),
        "{question}"
    );
}
