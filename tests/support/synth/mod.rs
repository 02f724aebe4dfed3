//! A seeded generator of realistic result sets, for the benchmark (`benches/generate.rs`)
//! and for trying the tools on large files.
//!
//! [`generate`] writes `n` items as JSONL in the result-set form of `docs/format.md`: a
//! mix of C-VQA (about 40 %), CHARTOM (about 30 %, in original/manipulated pairs) and
//! CharToM-QA (about 30 %) items, each with 2–3 model responses, about one in six with
//! reviews by one or two reviewers, and text of realistic length (about 1.9 KB per item on
//! average, so 100k items are about 190 MB; CharToM-QA items, with their plot contexts,
//! are the longest). Some numbers are spelled `1.0`, `0.50` or `1e3`, some texts carry
//! quotes, newlines and non-ASCII letters, and some items carry keys `verdict` does not
//! know, as real files do.
//!
//! The output depends only on `n` and `seed` (a splitmix64 generator written here), so a
//! file can be regenerated instead of stored.

use std::io::{self, BufWriter, Write};

use verdict::bench::chartom::grade as chartom;

use words::{ANALYTIC, NARRATIVE, SPICE};

mod chartom_gen;
mod chartom_qa;
mod cvqa;
mod words;

/// Bump when the output for a given `(n, seed)` changes, so cached files are regenerated.
pub const VERSION: u32 = 1;

/// splitmix64 (Steele, Lea and Flood 2014): small, fast, and good enough for test data.
/// The generator itself is `team::split`'s; this adds the picks the generator needs.
#[derive(Debug, Clone)]
pub struct Rng(verdict::team::split::SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(verdict::team::split::SplitMix64::new(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (`n > 0`; the modulo bias is irrelevant at these sizes).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// Write `n` items generated from `seed` to `out`, one JSON object a line.
pub fn generate(n: usize, seed: u64, out: &mut impl Write) -> io::Result<()> {
    let mut w = BufWriter::with_capacity(1 << 20, out);
    let mut g = Gen {
        rng: Rng::new(seed),
        line: String::with_capacity(16 * 1024),
        text: String::with_capacity(4 * 1024),
        pair: 0,
    };
    let mut i = 0;
    while i < n {
        // A CHARTOM draw yields a pair of items; p = 0.176 makes pairs about 30 % of the
        // items (2p / (1 + p)), and the other draws split 4 : 3 between C-VQA and
        // CharToM-QA.
        let u = g.rng.unit();
        if u < 0.176 {
            let both = i + 1 < n;
            g.chartom_pair(both, &mut w)?;
            i += if both { 2 } else { 1 };
        } else {
            if u < 0.176 + 0.824 * 4.0 / 7.0 {
                g.cvqa(i);
            } else {
                g.chartom_qa(i);
            }
            g.line.push('\n');
            w.write_all(g.line.as_bytes())?;
            i += 1;
        }
    }
    w.flush()
}

struct Gen {
    rng: Rng,
    line: String,
    /// Scratch for free text.
    text: String,
    /// CHARTOM pairs so far (the `G<n>` of their ids).
    pair: usize,
}

// ---------------------------------------------------------------------------------------
// JSON text helpers. Items are written as text, not through serde, so number spellings
// (`1.0`, `1e3`) and key order are exactly what a real file might have.

fn push_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                use std::fmt::Write as _;
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `"key":` (the key needs no escaping).
fn key(out: &mut String, k: &str) {
    out.push('"');
    out.push_str(k);
    out.push_str("\":");
}

fn kv_str(out: &mut String, k: &str, v: &str) {
    key(out, k);
    push_str(out, v);
}

fn kv_raw(out: &mut String, k: &str, raw: &str) {
    key(out, k);
    out.push_str(raw);
}

fn push_num(out: &mut String, x: impl std::fmt::Display) {
    use std::fmt::Write as _;
    let _ = write!(out, "{x}");
}

/// A fraction with two decimals, sometimes spelled `1.0`/`0.0` at the ends.
fn fraction(x: f64) -> String {
    let x = x.clamp(0.0, 1.0);
    let s = format!("{x:.2}");
    match s.as_str() {
        "1.00" => "1.0".into(),
        "0.00" => "0.0".into(),
        _ => s,
    }
}

impl Gen {
    /// Append sentences of `words` to `self.text` until it is at least `len` bytes long.
    fn prose(&mut self, words: &[&str], len: usize) {
        let start = self.text.len();
        while self.text.len() - start < len {
            if self.text.len() > start && !self.text.ends_with('\n') {
                self.text.push(' ');
            }
            let quoted = words.as_ptr() == NARRATIVE.as_ptr() && self.rng.chance(0.08);
            if quoted {
                self.text.push('"');
            }
            let n = self.rng.range(6, 22);
            for k in 0..n {
                let w = if self.rng.chance(0.01) {
                    *self.rng.pick(SPICE)
                } else {
                    *self.rng.pick(words)
                };
                if k == 0 {
                    let mut cs = w.chars();
                    if let Some(c) = cs.next() {
                        self.text.extend(c.to_uppercase());
                        self.text.push_str(cs.as_str());
                    }
                } else {
                    self.text.push(' ');
                    self.text.push_str(w);
                    if k + 1 < n && self.rng.chance(0.06) {
                        self.text.push(',');
                    }
                }
            }
            self.text.push_str(if quoted {
                ",\" she said."
            } else if self.rng.chance(0.1) {
                "?"
            } else {
                "."
            });
            if words.as_ptr() == NARRATIVE.as_ptr() && self.rng.chance(0.12) {
                self.text.push('\n');
            }
        }
    }

    /// Free text of about `len` bytes (±30 %) as a JSON string value.
    fn push_prose(&mut self, words: &[&str], len: usize) {
        self.text.clear();
        let lo = len * 7 / 10;
        let hi = len * 13 / 10;
        let l = self.rng.range(lo.max(1), hi.max(1));
        self.prose(words, l);
        push_str(&mut self.line, &self.text);
    }

    fn models<'a>(&mut self, pool: &[&'a str]) -> Vec<&'a str> {
        let k = if self.rng.chance(0.5) { 2 } else { 3 };
        let mut v: Vec<&str> = pool.to_vec();
        // partial Fisher–Yates
        for j in 0..k {
            let r = j + self.rng.below(v.len() - j);
            v.swap(j, r);
        }
        v.truncate(k);
        v
    }

    fn timestamp(&mut self) -> String {
        format!(
            "2026-{:02}-{:02}T{:02}:{:02}:{:02}Z",
            self.rng.range(1, 3),
            self.rng.range(1, 28),
            self.rng.range(8, 19),
            self.rng.below(60),
            self.rng.below(60)
        )
    }

    /// The reviewers of an item: none for most, one or two for about one in six.
    fn reviewers(&mut self) -> &'static [&'static str] {
        const ONE: [&[&str]; 3] = [&["ann"], &["ben"], &["chloe"]];
        const TWO: [&[&str]; 3] = [&["ann", "ben"], &["ben", "chloe"], &["ann", "chloe"]];
        let u = self.rng.unit();
        if u < 0.11 {
            ONE[self.rng.below(ONE.len())]
        } else if u < 0.17 {
            TWO[self.rng.below(TWO.len())]
        } else {
            &[]
        }
    }

    /// Common review head: `"at"`, sometimes `"seconds"` and a note. Leaves the object open.
    fn review_head(&mut self, reviewer: &str) {
        key(&mut self.line, reviewer);
        self.line.push('{');
        let at = self.timestamp();
        kv_str(&mut self.line, "at", &at);
        if self.rng.chance(0.5) {
            self.line.push(',');
            key(&mut self.line, "seconds");
            let s = self.rng.range(4, 180);
            if self.rng.chance(0.3) {
                push_num(&mut self.line, format_args!("{s}.0"));
            } else {
                push_num(&mut self.line, format_args!("{s}.{}", self.rng.below(10)));
            }
        }
        if self.rng.chance(0.2) {
            self.line.push(',');
            key(&mut self.line, "note");
            self.push_prose(ANALYTIC, 60);
        }
    }

    /// An extra key the tools do not know (kept on save).
    fn maybe_meta(&mut self) {
        if self.rng.chance(0.25) {
            self.line.push(',');
            key(&mut self.line, "meta");
            self.line.push('{');
            let t = self.timestamp();
            kv_str(&mut self.line, "run", &t[..10]);
            self.line.push(',');
            kv_raw(
                &mut self.line,
                "temperature",
                ["0.0", "0.7", "1.0", "0"][self.rng.below(4)],
            );
            self.line.push(',');
            kv_raw(
                &mut self.line,
                "max_tokens",
                ["512", "1e3", "2048", "1024"][self.rng.below(4)],
            );
            self.line.push('}');
        }
    }
}

/// A number as a results file might spell it: whole numbers as `12.0`, `1e3`-style for
/// round thousands, otherwise the shortest decimal with at most 3 digits after the point.
fn spell(x: f64) -> String {
    let r = (x * 1000.0).round() / 1000.0;
    if r >= 1000.0 && r % 1000.0 == 0.0 {
        let mut m = r;
        let mut e = 0;
        while m % 10.0 == 0.0 {
            m /= 10.0;
            e += 1;
        }
        return format!("{m}e{e}");
    }
    if r.fract() == 0.0 {
        return format!("{r:.1}");
    }
    let s = format!("{r:.3}");
    s.trim_end_matches('0').to_string()
}

#[cfg(test)]
mod tests;
