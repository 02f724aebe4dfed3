//! Writes the generated result set docs/performance.md's figures are measured on: `N`
//! items of `tests/support/synth/` (seeded: the same file for the same `N`), as JSONL.
//!
//! ```text
//! cargo bench --bench generate -- 1000000 /tmp/verdict-bench   # /tmp/verdict-bench/synth-v1-n1000000-seed5eed2026.jsonl
//! ```
//!
//! Under `cargo test --all-targets` (no `--bench` argument) it generates 1,000 items and
//! checks that every line parses, as a smoke test.

use std::io::{BufWriter, Write};

#[allow(dead_code)]
#[path = "../tests/support/synth/mod.rs"]
mod synth;

const SEED: u64 = 0x5eed_2026;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|a| a == "--bench") {
        let mut buf = Vec::new();
        synth::generate(1000, SEED, &mut buf).expect("generate");
        let lines = buf.split(|&b| b == b'\n').filter(|l| !l.is_empty());
        for line in lines {
            verdict::bench::Item::parse(std::str::from_utf8(line).unwrap()).expect("an item");
        }
        return;
    }
    let mut free = args.iter().filter(|a| !a.starts_with("--"));
    let n: usize = free
        .next()
        .and_then(|a| a.parse().ok())
        .expect("usage: cargo bench --bench generate -- N DIR");
    let dir = std::path::PathBuf::from(free.next().expect("usage: … N DIR"));
    std::fs::create_dir_all(&dir).expect("create DIR");
    let path = dir.join(format!("synth-v{}-n{n}-seed{SEED:x}.jsonl", synth::VERSION));
    let t = std::time::Instant::now();
    let mut out = BufWriter::new(std::fs::File::create(&path).expect("create the file"));
    synth::generate(n, SEED, &mut out).expect("generate");
    out.flush().expect("write");
    println!(
        "{} ({:.0} MB) in {:.1} s",
        path.display(),
        path.metadata().unwrap().len() as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );
}
