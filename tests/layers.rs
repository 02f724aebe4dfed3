//! The library's layers import one way (docs/architecture.md, "Domain layers and the
//! benchmark registry"): this test reads every production file under `src/` and fails on
//! an import that points up. It reads `crate::…` paths (and `use crate::{…}` groups), not
//! `super::`, so a module's own children are not counted; test modules are left out.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Every production `.rs` file under `dir`, as its path relative to `src/`.
fn files(dir: &Path, base: &Path, out: &mut Vec<PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "tests") {
                continue;
            }
            files(&p, base, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let rel = p.strip_prefix(base).unwrap().to_path_buf();
            let name = rel.file_name().unwrap().to_string_lossy().to_string();
            if name == "tests.rs" || name.ends_with("_tests.rs") || name == "test_support.rs" {
                continue;
            }
            out.push(rel);
        }
    }
}

/// The text of a file without its `#[cfg(test)]` items and without comments.
fn production_text(src: &str) -> String {
    let lines: Vec<&str> = src.lines().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i].trim_start();
        if l.starts_with("#[cfg(test)]") {
            // Skip the item that follows: a `mod x;` line, or a braced block.
            let mut j = i + 1;
            let mut depth = 0i32;
            let mut opened = false;
            while j < lines.len() {
                let t = lines[j];
                if !opened && t.trim_end().ends_with(';') {
                    break;
                }
                depth += t.matches('{').count() as i32 - t.matches('}').count() as i32;
                opened |= t.contains('{');
                if opened && depth <= 0 {
                    break;
                }
                j += 1;
            }
            i = j + 1;
            continue;
        }
        if !l.starts_with("//") {
            out.push_str(lines[i]);
            out.push('\n');
        }
        i += 1;
    }
    out
}

/// The submodules of `bench` (its folders and files): `chartom`, `kit`, `disagree`, …
fn bench_modules() -> BTreeSet<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bench");
    fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            e.unwrap()
                .file_name()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .filter(|n| n != "mod")
        .collect()
}

/// The top-level modules (and `bench`'s submodules, as `bench/<name>`) a file names.
fn imports(text: &str) -> BTreeSet<String> {
    let subs = bench_modules();
    let mut out = BTreeSet::new();
    let mut add = |path: &str| {
        let parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
        match parts.as_slice() {
            ["bench", sub, ..] if subs.contains(*sub) => out.insert(format!("bench/{sub}")),
            [first, ..] => out.insert(first.to_string()),
            [] => false,
        };
    };
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // `use crate::{a, b::c, d::{e, f}}`: every first segment.
            let end = group.find("};").unwrap_or(group.len());
            let mut depth = 0;
            let mut cur = String::new();
            for c in group[..end].chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        add(cur.trim());
                        cur.clear();
                        continue;
                    }
                    _ => {}
                }
                if depth == 0 || c != '{' {
                    cur.push(c);
                }
            }
            add(cur.trim());
            continue;
        }
        let path: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        add(&path);
    }
    out
}

/// The top-level module of a file, with `bench/<name>` for a benchmark's folder and
/// `bench/kit` for the kit.
fn module_of(rel: &Path) -> String {
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    match parts.as_slice() {
        [b, sub, ..] if b == "bench" && parts.len() > 2 => format!("bench/{sub}"),
        [b, file] if b == "bench" && file != "mod" => format!("bench/{file}"),
        [first, ..] => first.clone(),
        [] => String::new(),
    }
}

fn arrows() -> Vec<(PathBuf, String, String)> {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut fs_ = Vec::new();
    files(&base, &base, &mut fs_);
    let mut out = Vec::new();
    for rel in fs_ {
        let text = production_text(&fs::read_to_string(base.join(&rel)).unwrap());
        let from = module_of(&rel);
        for to in imports(&text) {
            if to != from {
                out.push((rel.clone(), from.clone(), to));
            }
        }
    }
    out
}

/// The shared machinery that asks the registry: a benchmark never imports it.
const MACHINERY: &[&str] = &["check", "stats", "export", "team", "review", "session"];
const FRONT_ENDS: &[&str] = &["cli", "tui", "main"];

#[test]
fn the_layers_import_one_way() {
    let mut wrong = Vec::new();
    for (file, from, to) in arrows() {
        let benchmark = from.starts_with("bench/") && from != "bench/kit";
        let up = match from.as_str() {
            // The kit is below every benchmark and the registry; it may name the item, which
            // holds each benchmark's fields (`bench/item.rs`).
            "bench/kit" => {
                to == "bench" || to.starts_with("bench/") && to != "bench/kit" && to != "bench/item"
            }
            _ if benchmark => MACHINERY.contains(&to.as_str()) || FRONT_ENDS.contains(&to.as_str()),
            "bench" => MACHINERY.contains(&to.as_str()) || FRONT_ENDS.contains(&to.as_str()),
            // The journal is the log file and its lock, below every reader of it.
            "journal" => !["store", "model", "hash", "sanitize", "perms"].contains(&to.as_str()),
            // The typed views' helpers and the file: below the registry that lists every
            // benchmark's fields.
            "model" | "store" => {
                to == "bench"
                    || to.starts_with("bench/")
                    || MACHINERY.contains(&to.as_str())
                    || FRONT_ENDS.contains(&to.as_str())
            }
            "grade" | "import" | "question" | "hash" | "sanitize" | "perms" | "out" | "par" => {
                MACHINERY.contains(&to.as_str())
                    || FRONT_ENDS.contains(&to.as_str())
                    || to == "bench"
                    || to.starts_with("bench/")
            }
            _ if MACHINERY.contains(&from.as_str()) => FRONT_ENDS.contains(&to.as_str()),
            // The reviewer does not import the command line's front end.
            "tui" => to == "cli",
            _ => false,
        };
        if up {
            wrong.push(format!("{}: {from} imports {to}", file.display()));
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that point up (docs/architecture.md):\n{}",
        wrong.join("\n")
    );
}

/// The test reads what it claims to: a known downward import is found.
#[test]
fn the_reader_finds_imports() {
    let a = arrows();
    assert!(
        a.iter().any(|(f, from, to)| f.ends_with("cvqa/check.rs")
            && from == "bench/cvqa"
            && to == "bench/kit"),
        "bench/cvqa/check.rs imports the kit"
    );
    assert!(
        a.iter()
            .any(|(_, from, to)| from == "check" && to == "bench")
    );
    let g = imports("use crate::{a, b::{c, d}, e::f};\nlet x = crate::g::h();");
    assert_eq!(
        g.into_iter().collect::<Vec<_>>(),
        ["a", "b", "e", "g"].map(String::from).to_vec()
    );
}

/// The reviewer's pure `update` (`tui/app/`) asks `tui/geometry.rs` how far things scroll;
/// it never calls drawing code.
#[test]
fn the_state_imports_no_drawing_code() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut fs_ = Vec::new();
    files(&base.join("tui/app"), &base, &mut fs_);
    assert!(!fs_.is_empty());
    let wrong: Vec<String> = fs_
        .iter()
        .filter(|rel| {
            let text = production_text(&fs::read_to_string(base.join(rel)).unwrap());
            text.contains("tui::draw") || text.contains("super::draw")
        })
        .map(|rel| rel.display().to_string())
        .collect();
    assert!(
        wrong.is_empty(),
        "tui/app files that call drawing code: {wrong:?}"
    );
}

/// Where a benchmark may be named in production code besides the registries
/// (`is_registry`): its folder and its view (docs/architecture.md, "Add a benchmark").
/// Tests and docs may name it.
fn own_places(b: &str) -> [String; 3] {
    [
        format!("bench/{b}/"),
        format!("tui/views/{b}.rs"),
        format!("tui/views/{b}/"),
    ]
}

/// The registries, which name every benchmark: the domain's (every file directly under
/// `bench/`, see `is_registry`, and the names) and the views'.
const REGISTRIES: &[&str] = &["bench/kit/benchmark.rs", "tui/views/mod.rs"];

/// The domain's registry: `bench/mod.rs` and the files beside it (`item.rs`, `check.rs`,
/// `resolve.rs`, ...), not a benchmark's folder.
fn is_registry(rel: &str) -> bool {
    REGISTRIES.contains(&rel)
        || rel
            .strip_prefix("bench/")
            .is_some_and(|f| !f.contains('/') && f.ends_with(".rs"))
}

/// How each benchmark is written in code: (needle, what may not follow it). `chartom`
/// followed by `_qa` is CharToM-QA's name, not CHARTOM's. The same rule as
/// `tools/names.py` (its regular expressions, spelled out).
/// A way of writing a name: the text, and what may not follow it.
type Needle = (&'static str, &'static [&'static str]);

const NAMES: &[(&str, &[Needle])] = &[
    ("cvqa", &[("cvqa", &[]), ("c-vqa", &[]), ("Cvqa", &[])]),
    (
        "chartom",
        &[
            ("chartom", &["_qa", "-qa", "Qa"]),
            ("CHARTOM", &[]),
            ("Chartom", &["Qa"]),
        ],
    ),
    (
        "chartom_qa",
        &[
            ("chartom_qa", &[]),
            ("chartom-qa", &[]),
            ("CharToM-QA", &[]),
            ("ChartomQa", &[]),
        ],
    ),
    (
        "lm_eval",
        &[("lm_eval", &[]), ("lm-eval", &[]), ("LmEval", &[])],
    ),
    (
        "inspect",
        &[
            ("inspect_ai", &[]),
            ("Inspect", &[]),
            ("inspect-ai", &[]),
            ("bench::inspect", &[]),
        ],
    ),
    (
        "declared",
        &[
            ("declared::", &[]),
            ("Benchmark::Declared", &[]),
            ("Layout::Declared", &[]),
        ],
    ),
];

/// Does `text` name benchmark `b` (case-sensitive, as `NAMES` writes it)?
fn names_benchmark(text: &str, b: &str) -> bool {
    let (_, needles) = NAMES.iter().find(|(n, _)| *n == b).unwrap();
    needles.iter().any(|(needle, not_before)| {
        text.match_indices(needle).any(|(i, _)| {
            !not_before
                .iter()
                .any(|x| text[i + needle.len()..].starts_with(x))
        })
    })
}

/// Production files that still name a benchmark outside its places, being moved out
/// (issue 17): (file, benchmark). This list only shrinks: an entry that no longer
/// offends fails the test until it is taken out.
const KNOWN_OFFENDERS: &[(&str, &str)] = &[];

/// (file, benchmark) for every production file that names a benchmark outside its
/// folder, its view and the registries (comments and test modules left out).
fn benchmark_names_out_of_place() -> Vec<(String, String)> {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut fs_ = Vec::new();
    files(&base, &base, &mut fs_);
    let mut out = Vec::new();
    for rel in fs_ {
        let name = rel.display().to_string();
        if name.ends_with("_tests.rs") {
            continue;
        }
        let text = production_text(&fs::read_to_string(base.join(&rel)).unwrap());
        for (b, _) in NAMES {
            if is_registry(&name) || own_places(b).iter().any(|p| name.starts_with(p.as_str())) {
                continue;
            }
            if names_benchmark(&text, b) {
                out.push((name.clone(), b.to_string()));
            }
        }
    }
    out.sort();
    out
}

/// A benchmark is named only in its folder, its view and the registries (issue 17): a
/// new benchmark costs no edit of the shared code.
#[test]
fn no_file_names_a_benchmark_outside_its_places() {
    let found = benchmark_names_out_of_place();
    let new: Vec<String> = found
        .iter()
        .filter(|(f, b)| !KNOWN_OFFENDERS.contains(&(f.as_str(), b.as_str())))
        .map(|(f, b)| format!("{f} names {b}"))
        .collect();
    assert!(
        new.is_empty(),
        "production files that name a benchmark outside its folder, its view and the \
         registries (docs/architecture.md, \"Add a benchmark\"):\n{}",
        new.join("\n")
    );
    let stale: Vec<String> = KNOWN_OFFENDERS
        .iter()
        .filter(|(f, b)| !found.iter().any(|(g, c)| g == f && c == b))
        .map(|(f, b)| format!("({f:?}, {b:?})"))
        .collect();
    assert!(
        stale.is_empty(),
        "KNOWN_OFFENDERS entries that no longer offend: take them out\n{}",
        stale.join("\n")
    );
}

/// The rule reads what it claims to: names in code count, in comments and tests not;
/// CharToM-QA's names are not CHARTOM's.
#[test]
fn the_name_rule_reads_code_only() {
    let src = "// C-VQA cvqa\nfn f() { chartom_qa::x(); }\n#[cfg(test)]\nmod t {\n    fn g() { cvqa(); }\n}\n";
    let text = production_text(src);
    assert!(!names_benchmark(&text, "cvqa"));
    assert!(names_benchmark(&text, "chartom_qa"));
    assert!(!names_benchmark(&text, "chartom"));
    assert!(names_benchmark("Benchmark::Chartom", "chartom"));
    assert!(!names_benchmark("Benchmark::ChartomQa", "chartom"));
    assert!(names_benchmark("x.lm_eval", "lm_eval"));
    // Every benchmark folder has its names here.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/bench");
    for e in fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let b = e.file_name().to_string_lossy().to_string();
        if !e.path().is_dir() || ["kit", "generic"].contains(&b.as_str()) {
            continue;
        }
        assert!(NAMES.iter().any(|(n, _)| *n == b), "no names for bench/{b}");
    }
}
