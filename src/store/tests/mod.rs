use super::*;
use crate::bench::Items;
use std::hint::black_box;
use std::io::Write;
use std::sync::atomic::AtomicBool;

fn tmpfile(name: &str, content: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join(name);
    fs::write(&p, content).unwrap();
    (d, p)
}

/// A JSONL file of `n` items and its path.
fn lines_file(n: usize) -> (tempfile::TempDir, PathBuf) {
    let text: String = (0..n)
        .map(|k| format!("{{\"id\": \"i{k}\", \"benchmark\": \"mmlu\"}}\n"))
        .collect();
    tmpfile("set.jsonl", text.as_bytes())
}

mod background;
mod edits;
mod kept_offsets;
mod on_disk;
