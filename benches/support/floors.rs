//! Floors the benches time next to verdict's own work: a plain `serde_json::Value` parse
//! of every line (each line checked as UTF-8 first, as the store does), on one thread and
//! on two.

use std::hint::black_box;

/// Parse every non-empty line of `bytes` as a `serde_json::Value`; the number of lines.
pub fn parse_lines(bytes: &[u8]) -> usize {
    let mut n = 0;
    for line in bytes.split(|&b| b == b'\n') {
        if line.is_empty() {
            continue;
        }
        let s = std::str::from_utf8(line).expect("utf-8");
        let v: serde_json::Value = serde_json::from_str(s).expect("json");
        black_box(&v);
        n += 1;
    }
    n
}

/// [`parse_lines`] on two threads, each half of the lines.
pub fn parse_lines_2t(bytes: &[u8]) -> usize {
    let half = bytes.len() / 2;
    let mid = half + memchr::memchr(b'\n', &bytes[half..]).map_or(0, |p| p + 1);
    let (a, b) = bytes.split_at(mid);
    std::thread::scope(|s| {
        let h = s.spawn(|| parse_lines(b));
        parse_lines(a) + h.join().unwrap()
    })
}
