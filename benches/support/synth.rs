//! A seeded generator of realistic result sets, for the benchmark (`benches/store.rs`)
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

use verdict::grade::chartom;

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

/// Lower-case pool words; sentences are drawn from them.
const NARRATIVE: &[&str] = &[
    "she",
    "he",
    "they",
    "had",
    "was",
    "not",
    "would",
    "could",
    "never",
    "always",
    "letter",
    "house",
    "morning",
    "evening",
    "garden",
    "father",
    "mother",
    "sister",
    "friend",
    "visit",
    "marriage",
    "fortune",
    "secret",
    "believed",
    "thought",
    "hoped",
    "feared",
    "wished",
    "knew",
    "suspected",
    "told",
    "promised",
    "refused",
    "walked",
    "returned",
    "waited",
    "carriage",
    "parlour",
    "ball",
    "dinner",
    "rain",
    "window",
    "door",
    "truth",
    "pride",
    "heart",
    "mind",
    "quite",
    "rather",
    "very",
    "little",
    "great",
    "young",
    "old",
    "poor",
    "rich",
    "silent",
    "anxious",
    "cheerful",
    "angry",
    "kind",
    "proud",
    "honest",
    "foolish",
    "without",
    "before",
    "after",
    "although",
    "because",
    "until",
    "while",
    "into",
    "upon",
    "with",
    "from",
    "about",
    "the",
    "the",
    "the",
    "a",
    "a",
    "of",
    "of",
    "to",
    "to",
    "and",
    "and",
    "in",
    "that",
    "her",
    "his",
    "their",
    "own",
    "every",
    "no",
    "one",
    "another",
    "neighbourhood",
    "acquaintance",
    "opinion",
    "regard",
    "manner",
    "character",
    "attention",
    "uncle",
    "captain",
    "servant",
    "cousin",
    "gentleman",
    "lady",
    "town",
    "village",
    "road",
];

const ANALYTIC: &[&str] = &[
    "the",
    "the",
    "chart",
    "axis",
    "y-axis",
    "x-axis",
    "scale",
    "values",
    "bars",
    "line",
    "slice",
    "pie",
    "legend",
    "label",
    "starts",
    "at",
    "zero",
    "not",
    "truncated",
    "inverted",
    "exaggerates",
    "difference",
    "between",
    "categories",
    "appears",
    "larger",
    "smaller",
    "than",
    "it",
    "is",
    "because",
    "so",
    "readers",
    "might",
    "think",
    "that",
    "growth",
    "decline",
    "trend",
    "area",
    "3D",
    "perspective",
    "distorts",
    "proportions",
    "colour",
    "map",
    "region",
    "population",
    "per",
    "capita",
    "normalised",
    "misleading",
    "visual",
    "impression",
    "actual",
    "data",
    "shows",
    "only",
    "slightly",
    "much",
    "higher",
    "lower",
    "increase",
    "decrease",
    "ratio",
    "percent",
    "of",
    "and",
    "a",
    "in",
    "on",
    "which",
    "would",
    "lead",
    "many",
    "people",
    "to",
    "overestimate",
    "underestimate",
    "count",
    "there",
    "are",
    "objects",
    "image",
    "visible",
    "left",
    "right",
    "table",
    "person",
    "people",
    "if",
    "were",
    "removed",
    "added",
    "would",
    "be",
];

/// Words that appear now and then with non-ASCII letters or punctuation.
const SPICE: &[&str] = &[
    "naïve",
    "café",
    "fiancé",
    "rôle",
    "—",
    "don’t",
    "it’s",
    "“indeed”",
    "déjà",
    "Zoë",
];

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

    // -----------------------------------------------------------------------------------
    // C-VQA

    fn cvqa(&mut self, i: usize) {
        const OBJECTS: &[&str] = &[
            "plates",
            "cows",
            "cars",
            "sinks",
            "people",
            "dogs",
            "cats",
            "chairs",
            "giraffes",
            "umbrellas",
            "bananas",
            "birds",
            "horses",
            "cups",
            "bottles",
            "zebras",
            "sheep",
        ];
        const MODELS: &[&str] = &[
            "llava-1.5-13b",
            "instructblip-vicuna-7b",
            "minigpt-4",
            "gpt-4v",
            "qwen-vl-chat",
        ];
        let synthetic = self.rng.chance(0.45);
        let obj = *self.rng.pick(OBJECTS);
        let group: String;
        let (q0, a0, q1, a1);
        if synthetic {
            let k = self.rng.range(1, 6);
            group = format!("abs_counting_{k}");
            let colour = *self.rng.pick(&["purple", "yellow", "red", "green", "blue"]);
            let opts = |rng: &mut Rng| {
                let base = rng.range(1, 14);
                format!(
                    "Select the correct answer:A:{}  B:{}  C:{}  D:{}",
                    base,
                    base + rng.range(1, 4),
                    base + rng.range(5, 8),
                    (base + 9).saturating_sub(rng.range(0, 3))
                )
            };
            q0 = format!(
                "How many flowers are outside the {colour} polygons? {}",
                opts(&mut self.rng)
            );
            q1 = format!(
                "How many flowers would be outside the {colour} polygons if all polygons were {colour}? {}",
                opts(&mut self.rng)
            );
            a0 = format!("\"{}\"", self.rng.pick(&["A", "B", "C", "D"]));
            a1 = format!("\"{}\"", self.rng.pick(&["A", "B", "C", "D"]));
        } else {
            let u = self.rng.unit();
            let n0 = self.rng.range(1, 12);
            let d = self.rng.range(1, 7);
            if u < 0.37 {
                group = "direct".into();
                q0 = format!("How many {obj} are there?");
                q1 = format!("How many {obj} would there be if {d} more {obj} were added?");
                a0 = self.count_answer(n0);
                a1 = self.count_answer(n0 + d);
            } else if u < 0.64 {
                group = "indirect".into();
                q0 = format!("How many {obj} can you see in the picture?");
                q1 = format!(
                    "How many legs would the {obj} have in total if there were {d} fewer of them?"
                );
                a0 = self.count_answer(n0);
                a1 = self.count_answer(n0.saturating_sub(d) * 4);
            } else {
                group = "boolean".into();
                q0 = format!("Are there any {obj} in the image?");
                q1 = format!("Would there be any {obj} if all the {obj} were taken away?");
                a0 = "\"yes\"".into();
                a1 = "\"no\"".into();
            }
        }
        self.line.clear();
        self.line.push('{');
        let split = if synthetic { "synthetic" } else { "real" };
        kv_str(&mut self.line, "id", &format!("cvqa-{split}-{i:07}"));
        self.line.push(',');
        kv_str(&mut self.line, "benchmark", "cvqa");
        self.line.push(',');
        kv_str(&mut self.line, "split", split);
        self.line.push(',');
        kv_str(&mut self.line, "group", &group);
        self.line.push(',');
        let image = if synthetic {
            format!("images/abs_counting_{:06}.png", i % 1_000_000)
        } else {
            format!("images/COCO_val2014_{:012}.jpg", 400_000 + i % 180_000)
        };
        kv_str(&mut self.line, "image", &image);
        for (k, q, a) in [("original", &q0, &a0), ("counterfactual", &q1, &a1)] {
            self.line.push(',');
            key(&mut self.line, k);
            self.line.push('{');
            kv_str(&mut self.line, "question", q);
            self.line.push(',');
            kv_raw(&mut self.line, "answer", a);
            self.line.push('}');
        }
        self.maybe_meta();
        let models = self.models(MODELS);
        self.line.push(',');
        key(&mut self.line, "responses");
        self.line.push('[');
        for (j, m) in models.iter().enumerate() {
            if j > 0 {
                self.line.push(',');
            }
            self.line.push('{');
            kv_str(&mut self.line, "model", m);
            for k in ["original", "counterfactual"] {
                self.line.push(',');
                key(&mut self.line, k);
                if synthetic && self.rng.chance(0.5) {
                    let letter = *self.rng.pick(&["A", "B", "C", "D"]);
                    push_str(&mut self.line, &format!("The answer is {letter}."));
                } else if self.rng.chance(0.3) {
                    let n = self.rng.range(0, 12);
                    push_str(&mut self.line, &format!("{n}"));
                } else {
                    self.push_prose(ANALYTIC, 140);
                }
            }
            self.line.push('}');
        }
        self.line.push(']');
        let reviewers = self.reviewers();
        if !reviewers.is_empty() {
            self.line.push(',');
            key(&mut self.line, "reviews");
            self.line.push('{');
            for (j, r) in reviewers.iter().enumerate() {
                if j > 0 {
                    self.line.push(',');
                }
                self.review_head(r);
                let u = self.rng.unit();
                self.line.push(',');
                if u < 0.75 {
                    kv_str(&mut self.line, "status", "accept");
                    self.line
                        .push_str(",\"image_related\":true,\"answer_ok\":true");
                } else if u < 0.9 {
                    kv_str(&mut self.line, "status", "fix");
                    self.line
                        .push_str(",\"image_related\":true,\"answer_ok\":false");
                    self.line.push(',');
                    kv_str(
                        &mut self.line,
                        "fixed_answer",
                        &format!("{}", self.rng.below(9)),
                    );
                    self.line.push(',');
                    kv_str(&mut self.line, "reason", "wrong-answer");
                } else {
                    kv_str(&mut self.line, "status", "reject");
                    self.line
                        .push_str(",\"image_related\":false,\"answer_ok\":false");
                    self.line.push(',');
                    let reason = *self.rng.pick(&["ambiguous", "not-image-related", "other"]);
                    kv_str(&mut self.line, "reason", reason);
                }
                if self.rng.chance(0.2) {
                    self.line.push(',');
                    key(&mut self.line, "models");
                    self.line.push('{');
                    key(&mut self.line, models[0]);
                    self.line.push('{');
                    kv_raw(
                        &mut self.line,
                        "counterfactual_correct",
                        if self.rng.chance(0.5) {
                            "true"
                        } else {
                            "false"
                        },
                    );
                    self.line.push_str("}}");
                }
                self.line.push('}');
            }
            self.line.push('}');
        }
        self.line.push('}');
    }

    /// A count as the answer key: mostly a string, sometimes a bare number (the format
    /// accepts both).
    fn count_answer(&mut self, n: usize) -> String {
        if self.rng.chance(0.15) {
            format!("{n}")
        } else {
            format!("\"{n}\"")
        }
    }

    // -----------------------------------------------------------------------------------
    // CHARTOM

    fn chartom_pair(&mut self, both: bool, w: &mut impl Write) -> io::Result<()> {
        const MODELS: &[&str] = &[
            "gpt-4o",
            "claude-3.5-sonnet",
            "gemini-1.5-pro",
            "llava-next-34b",
            "internvl2-76b",
        ];
        const TYPES: &[(&str, &[&str])] = &[
            (
                "line",
                &["truncated y-axis", "inverted y-axis", "stretched x-axis"],
            ),
            (
                "bar",
                &[
                    "truncated y-axis",
                    "log scale without label",
                    "uneven bar widths",
                ],
            ),
            (
                "pie",
                &["3D pie", "slices do not sum to 100%", "exploded slice"],
            ),
            (
                "scatter",
                &["dual axes", "truncated x-axis", "cherry-picked range"],
            ),
            (
                "map",
                &[
                    "counts not normalised by population",
                    "inverted colour scale",
                ],
            ),
        ];
        self.pair += 1;
        let g = self.pair;
        let q = self.rng.range(1, 3);
        let pair = format!("G{g}_Q{q}");
        let (ctype, manips) = *self.rng.pick(TYPES);
        let manipulation = *self.rng.pick(manips);
        let models = self.models(MODELS);
        // The FACT question is shared by both charts of the pair.
        let fmt = *self
            .rng
            .pick(&["choice", "choice", "rank", "number", "number"]);
        self.text.clear();
        self.prose(ANALYTIC, 120);
        let question = std::mem::take(&mut self.text);
        let n_opts = if fmt == "rank" {
            self.rng.range(3, 4)
        } else {
            4
        };
        let options: Vec<String> = (0..n_opts)
            .map(|k| format!("{} {}", ["North", "South", "East", "West"][k], 2010 + k * 3))
            .collect();
        // number questions: key, strategies (misled below or above), human answers
        let c = [1.2, 3.5, 12.0, 40.0, 250.0, 0.6][self.rng.below(6)];
        let misled = c * [5.0, 0.2, 2.5][self.rng.below(3)];
        let skim = c * [250.0, 0.01, 8.0][self.rng.below(3)];
        let key_raw: String = match fmt {
            "choice" => format!("{}", self.rng.range(1, 4)),
            "rank" => {
                let mut v: Vec<usize> = (1..=n_opts).collect();
                for j in (1..v.len()).rev() {
                    let r = self.rng.below(j + 1);
                    v.swap(j, r);
                }
                let inner = v
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(",");
                if self.rng.chance(0.1) {
                    v.swap(0, 1);
                    let alt = v
                        .iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(",");
                    format!("[[{inner}],[{alt}]]")
                } else {
                    format!("[{inner}]")
                }
            }
            _ => spell(c),
        };
        for version in 0..2 {
            if version == 1 && !both {
                break;
            }
            self.line.clear();
            self.line.push('{');
            kv_str(&mut self.line, "id", &format!("{pair}_{}", version + 1));
            self.line.push(',');
            kv_str(&mut self.line, "benchmark", "chartom");
            self.line.push(',');
            kv_str(
                &mut self.line,
                "image",
                &format!("charts/{pair}_{}.png", version + 1),
            );
            self.line.push(',');
            key(&mut self.line, "chart");
            self.line.push('{');
            kv_str(&mut self.line, "pair", &pair);
            self.line.push(',');
            kv_str(
                &mut self.line,
                "version",
                if version == 0 {
                    "original"
                } else {
                    "manipulated"
                },
            );
            self.line.push(',');
            kv_str(&mut self.line, "type", ctype);
            self.line.push(',');
            if version == 0 {
                kv_raw(&mut self.line, "manipulation", "null");
            } else {
                kv_str(&mut self.line, "manipulation", manipulation);
            }
            self.line.push_str("},");
            key(&mut self.line, "fact");
            self.line.push('{');
            kv_str(&mut self.line, "question", &question);
            self.line.push(',');
            kv_str(&mut self.line, "format", fmt);
            self.line.push(',');
            key(&mut self.line, "options");
            self.line.push('[');
            if fmt != "number" {
                for (k, o) in options.iter().enumerate() {
                    if k > 0 {
                        self.line.push(',');
                    }
                    push_str(&mut self.line, o);
                }
            }
            self.line.push_str("],");
            kv_raw(&mut self.line, "key", &key_raw);
            let hmi;
            if fmt == "number" {
                self.line.push(',');
                key(&mut self.line, "strategies");
                self.line.push('{');
                kv_raw(&mut self.line, "misled", &spell(misled));
                self.line.push(',');
                kv_raw(&mut self.line, "skim", &spell(skim));
                self.line.push_str("},");
                // Human answers: around the key, the misled and the skim answer; the
                // manipulated chart misleads more people. The HMI is computed by the one
                // rule of `grade::chartom` on the numbers as written, so that `stats`
                // recomputes exactly this value.
                let written = |x: f64| spell(x).parse::<f64>().unwrap_or(x);
                let total = 68usize;
                let wrong = if version == 0 {
                    self.rng.range(4, 16)
                } else {
                    self.rng.range(14, 40)
                };
                let answers: [(f64, usize); 4] = [
                    (written(c), total - wrong - 3),
                    (written(c * 1.05), 3),
                    (written(misled), wrong * 2 / 3),
                    (written(skim), wrong - wrong * 2 / 3),
                ];
                let counted: Vec<(serde_json::Value, u64)> = answers
                    .iter()
                    .map(|&(a, n)| (serde_json::Value::from(a), n as u64))
                    .collect();
                hmi = chartom::hmi_number(
                    written(c),
                    &[written(misled), written(skim)],
                    &counted,
                    chartom::Unit::of_question(Some(&question)),
                )
                .map_or(0.0, |h| h.hmi);
                key(&mut self.line, "human_answers");
                self.line.push('[');
                for (k, (a, n)) in answers.iter().filter(|(_, n)| *n > 0).enumerate() {
                    if k > 0 {
                        self.line.push(',');
                    }
                    self.line.push('[');
                    if k == 1 && self.rng.chance(0.3) {
                        push_str(&mut self.line, &spell(*a));
                    } else {
                        self.line.push_str(&spell(*a));
                    }
                    push_num(&mut self.line, format_args!(",{n}]"));
                }
                self.line.push(']');
            } else {
                hmi = if version == 0 {
                    self.rng.unit() * 0.25
                } else {
                    0.2 + self.rng.unit() * 0.5
                };
                if fmt == "choice" && self.rng.chance(0.6) {
                    self.line.push(',');
                    key(&mut self.line, "human_answers");
                    self.line.push('[');
                    for k in 1..=4 {
                        if k > 1 {
                            self.line.push(',');
                        }
                        push_num(
                            &mut self.line,
                            format_args!("[{k},{}]", self.rng.range(1, 30)),
                        );
                    }
                    self.line.push(']');
                }
            }
            self.line.push_str("},");
            key(&mut self.line, "mind");
            self.line.push('{');
            kv_raw(&mut self.line, "hmi", &fraction(hmi));
            self.line.push('}');
            self.maybe_meta();
            self.line.push(',');
            key(&mut self.line, "responses");
            self.line.push('[');
            for (j, m) in models.iter().enumerate() {
                if j > 0 {
                    self.line.push(',');
                }
                self.line.push('{');
                kv_str(&mut self.line, "model", m);
                self.line.push(',');
                key(&mut self.line, "fact");
                match fmt {
                    "choice" => {
                        let o = self.rng.range(1, 4);
                        if self.rng.chance(0.5) {
                            push_str(&mut self.line, &format!("{o}"));
                        } else {
                            push_str(&mut self.line, &format!("Option {o}: {}", options[o - 1]));
                        }
                    }
                    "rank" => {
                        let mut v: Vec<usize> = (1..=n_opts).collect();
                        v.swap(0, self.rng.below(n_opts));
                        let s = v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
                        push_str(&mut self.line, &s.join(" > "));
                    }
                    _ => {
                        let a = c * [1.0, 1.04, 0.5, 5.0][self.rng.below(4)];
                        if self.rng.chance(0.2) {
                            self.line.push_str(&spell(a));
                        } else {
                            push_str(&mut self.line, &format!("About {}", spell(a)));
                        }
                    }
                }
                self.line.push(',');
                kv_raw(&mut self.line, "mind", &fraction(self.rng.unit() * 0.8));
                self.line.push(',');
                key(&mut self.line, "justification");
                self.push_prose(ANALYTIC, 300);
                self.line.push('}');
            }
            self.line.push(']');
            let reviewers = self.reviewers();
            if !reviewers.is_empty() {
                self.line.push(',');
                key(&mut self.line, "reviews");
                self.line.push('{');
                for (j, r) in reviewers.iter().enumerate() {
                    if j > 0 {
                        self.line.push(',');
                    }
                    self.review_head(r);
                    self.line.push(',');
                    key(&mut self.line, "models");
                    self.line.push('{');
                    for (k, m) in models.iter().enumerate() {
                        if k > 0 {
                            self.line.push(',');
                        }
                        key(&mut self.line, m);
                        self.line.push('{');
                        let grade = *self.rng.pick(&["identifies", "partial", "misses"]);
                        kv_str(&mut self.line, "justification", grade);
                        if self.rng.chance(0.1) {
                            self.line.push_str(",\"fact_correct\":true");
                        }
                        self.line.push('}');
                    }
                    self.line.push_str("}}");
                }
                self.line.push('}');
            }
            self.line.push_str("}\n");
            w.write_all(self.line.as_bytes())?;
        }
        Ok(())
    }

    // -----------------------------------------------------------------------------------
    // CharToM-QA

    fn chartom_qa(&mut self, i: usize) {
        const BOOKS: &[(&str, &[&str])] = &[
            ("Emma", &["Emma", "Mr. Knightley", "Harriet", "Mr. Elton"]),
            (
                "Pride and Prejudice",
                &["Elizabeth", "Mr. Darcy", "Jane", "Mr. Collins"],
            ),
            (
                "Great Expectations",
                &["Pip", "Estella", "Miss Havisham", "Joe"],
            ),
            (
                "Jane Eyre",
                &["Jane", "Mr. Rochester", "St. John", "Mrs. Reed"],
            ),
            (
                "Middlemarch",
                &["Dorothea", "Casaubon", "Lydgate", "Rosamond"],
            ),
            ("Anna Karenina", &["Anna", "Levin", "Vronsky", "Kitty"]),
        ];
        const MODELS: &[&str] = &[
            "gpt-4o",
            "llama-3.1-70b-instruct",
            "qwen2-72b-instruct",
            "mistral-large",
            "claude-3.5-sonnet",
        ];
        const DIMS: &[&str] = &["belief", "intention", "emotion", "desire"];
        let (book, chars) = *self.rng.pick(BOOKS);
        let character = *self.rng.pick(chars);
        let dim = *self.rng.pick(DIMS);
        self.line.clear();
        self.line.push('{');
        kv_str(&mut self.line, "id", &format!("ctqa-{i:07}"));
        self.line.push(',');
        kv_str(&mut self.line, "benchmark", "chartom-qa");
        self.line.push(',');
        kv_str(&mut self.line, "book", book);
        if self.rng.chance(0.9) {
            self.line.push(',');
            kv_str(&mut self.line, "character", character);
        }
        self.line.push(',');
        kv_str(&mut self.line, "dimension", dim);
        self.line.push(',');
        key(&mut self.line, "context");
        if self.rng.chance(0.15) {
            self.push_prose(NARRATIVE, 850);
        } else {
            self.line.push('{');
            for (k, (len, l)) in [("0", 120), ("1000", 380), ("2000", 680)]
                .into_iter()
                .enumerate()
            {
                if k > 0 {
                    self.line.push(',');
                }
                key(&mut self.line, len);
                self.push_prose(NARRATIVE, l);
            }
            self.line.push('}');
        }
        self.line.push(',');
        key(&mut self.line, "question");
        self.line.push('"');
        let verb = match dim {
            "belief" => "believe about",
            "intention" => "intend by",
            "emotion" => "feel about",
            _ => "want from",
        };
        self.line.push_str(&format!(
            "What does {character} {verb} the letter at this point?"
        ));
        self.line.push('"');
        self.line.push(',');
        key(&mut self.line, "answer");
        self.push_prose(NARRATIVE, 160);
        let n_bonus = self.rng.range(2, 4);
        self.line.push(',');
        key(&mut self.line, "bonus_points");
        self.line.push('[');
        for k in 0..n_bonus {
            if k > 0 {
                self.line.push(',');
            }
            self.push_prose(NARRATIVE, 50);
        }
        self.line.push(']');
        let with_choices = self.rng.chance(0.5);
        if with_choices {
            self.line.push(',');
            key(&mut self.line, "choices");
            self.line.push('[');
            for k in 0..4 {
                if k > 0 {
                    self.line.push(',');
                }
                self.push_prose(NARRATIVE, 40);
            }
            self.line.push(']');
            self.line.push(',');
            kv_raw(&mut self.line, "key", &format!("{}", self.rng.range(1, 4)));
        }
        self.maybe_meta();
        let models = self.models(MODELS);
        self.line.push(',');
        key(&mut self.line, "responses");
        self.line.push('[');
        for (j, m) in models.iter().enumerate() {
            if j > 0 {
                self.line.push(',');
            }
            self.line.push('{');
            kv_str(&mut self.line, "model", m);
            self.line.push(',');
            key(&mut self.line, "text");
            self.push_prose(NARRATIVE, 260);
            if with_choices {
                self.line.push(',');
                kv_raw(
                    &mut self.line,
                    "choice",
                    &format!("{}", self.rng.range(1, 4)),
                );
            }
            if self.rng.chance(0.8) {
                self.line.push(',');
                key(&mut self.line, "judge");
                self.line.push('{');
                key(&mut self.line, "bonus");
                if self.rng.chance(0.02) {
                    self.line.push_str("\"Null\"");
                } else {
                    self.bonus_list(n_bonus);
                }
                self.line.push(',');
                key(&mut self.line, "penalty");
                let u = self.rng.unit();
                if u < 0.6 {
                    self.line.push_str("null");
                } else if u < 0.8 {
                    self.line.push_str("\"None\"");
                } else {
                    self.push_prose(NARRATIVE, 80);
                }
                self.line.push('}');
            }
            self.line.push('}');
        }
        self.line.push(']');
        let reviewers = self.reviewers();
        if !reviewers.is_empty() {
            self.line.push(',');
            key(&mut self.line, "reviews");
            self.line.push('{');
            for (j, r) in reviewers.iter().enumerate() {
                if j > 0 {
                    self.line.push(',');
                }
                self.review_head(r);
                self.line.push(',');
                key(&mut self.line, "models");
                self.line.push('{');
                for (k, m) in models.iter().enumerate() {
                    if k > 0 {
                        self.line.push(',');
                    }
                    key(&mut self.line, m);
                    self.line.push('{');
                    key(&mut self.line, "bonus");
                    self.bonus_list(n_bonus);
                    self.line.push(',');
                    key(&mut self.line, "penalty");
                    if self.rng.chance(0.75) {
                        self.line.push_str("null");
                    } else {
                        self.push_prose(NARRATIVE, 60);
                    }
                    self.line.push('}');
                }
                self.line.push_str("}}");
            }
            self.line.push('}');
        }
        self.line.push('}');
    }

    /// A sorted subset of `1..=n` as a JSON array.
    fn bonus_list(&mut self, n: usize) {
        self.line.push('[');
        let mut first = true;
        for b in 1..=n {
            if self.rng.chance(0.55) {
                if !first {
                    self.line.push(',');
                }
                first = false;
                push_num(&mut self.line, b);
            }
        }
        self.line.push(']');
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
mod tests {
    use super::*;
    use std::collections::HashSet;
    use verdict::model::{Benchmark, Item};

    fn gen_bytes(n: usize, seed: u64) -> Vec<u8> {
        let mut v = Vec::new();
        generate(n, seed, &mut v).unwrap();
        v
    }

    #[test]
    fn splitmix_matches_reference_values() {
        // The published first outputs of splitmix64 from state 0.
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(r.next_u64(), 0x06c4_5d18_8009_454f);
    }

    #[test]
    fn deterministic_for_a_seed() {
        let a = gen_bytes(500, 7);
        let b = gen_bytes(500, 7);
        let c = gen_bytes(500, 8);
        assert_eq!(a, b);
        assert_ne!(a, c);
        // A prefix of a larger set is the smaller set (except a CHARTOM pair cut in two).
        let big = gen_bytes(800, 7);
        let n_lines = |v: &[u8]| v.iter().filter(|&&b| b == b'\n').count();
        assert_eq!(n_lines(&a), 500);
        assert_eq!(n_lines(&big), 800);
        let cut = a[..a.len() - 1].iter().rposition(|&b| b == b'\n').unwrap();
        assert_eq!(&big[..cut], &a[..cut]);
    }

    #[test]
    fn every_line_parses_and_the_mix_is_realistic() {
        let n = 3000;
        let bytes = gen_bytes(n, 42);
        let text = std::str::from_utf8(&bytes).unwrap();
        let mut counts = [0usize; 3];
        let mut ids = HashSet::new();
        let mut reviewed = 0;
        let mut two_reviewers = 0;
        let mut lines = 0;
        for line in text.lines() {
            lines += 1;
            let it = Item::parse(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            // also valid for the editable view
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(v.is_object());
            assert!(
                ids.insert(it.id.clone().unwrap()),
                "duplicate id {:?}",
                it.id
            );
            assert!((2..=3).contains(&it.responses.len()), "{line}");
            match it.benchmark() {
                Benchmark::Cvqa => {
                    counts[0] += 1;
                    assert!(it.original.is_some() && it.counterfactual.is_some());
                }
                Benchmark::Chartom => {
                    counts[1] += 1;
                    let hmi = it.mind.unwrap().hmi;
                    assert!((0.0..=1.0).contains(&hmi));
                    assert!(it.fact.as_ref().unwrap().key.is_some());
                }
                Benchmark::ChartomQa => {
                    counts[2] += 1;
                    assert!(it.context.is_some());
                    assert!(!it.bonus_points.is_empty());
                }
                Benchmark::Other => panic!("unexpected benchmark: {line}"),
            }
            if !it.reviews.is_empty() {
                reviewed += 1;
                for r in it.reviews.values() {
                    assert!(r.at.is_some());
                }
                // multi-response items keep grades under models.<model>
                if it.benchmark() != Benchmark::Cvqa {
                    let r = it.reviews.values().next().unwrap();
                    let m = &it.responses[0].model;
                    assert!(r.for_model(m, it.responses.len()).is_some(), "{line}");
                }
            }
            if it.reviews.len() == 2 {
                two_reviewers += 1;
            }
        }
        assert_eq!(lines, n);
        let share = |k: usize| counts[k] as f64 / n as f64;
        assert!((0.35..=0.45).contains(&share(0)), "cvqa {counts:?}");
        assert!((0.25..=0.35).contains(&share(1)), "chartom {counts:?}");
        assert!((0.25..=0.35).contains(&share(2)), "chartom-qa {counts:?}");
        let r = reviewed as f64 / n as f64;
        assert!((0.12..=0.22).contains(&r), "reviewed {reviewed}");
        assert!(two_reviewers > 0 && two_reviewers < reviewed);
        // ≈ 1.9 KB per item
        let per_item = bytes.len() as f64 / n as f64;
        assert!(
            (1700.0..=2100.0).contains(&per_item),
            "{per_item} bytes per item"
        );
        // number spellings a lossless store must keep
        assert!(text.contains("e3"), "no 1e3-style number");
        assert!(text.contains(".0,") || text.contains(".0]") || text.contains(".0}"));
        // text that needs escaping and non-ASCII letters
        assert!(text.contains("\\\"") && text.contains("\\n"));
        assert!(!text.is_ascii());
    }

    #[test]
    fn spellings() {
        assert_eq!(spell(1.2), "1.2");
        assert_eq!(spell(12.0), "12.0");
        assert_eq!(spell(3000.0), "3e3");
        assert_eq!(spell(10000.0), "1e4");
        assert_eq!(spell(62500.0), "62500.0");
        assert_eq!(spell(0.012), "0.012");
        assert_eq!(fraction(1.0), "1.0");
        assert_eq!(fraction(0.294), "0.29");
    }

    /// The generator's HMI is the one `stats` recomputes from the same human answers.
    #[test]
    fn hmi_is_the_stats_rule() {
        let bytes = gen_bytes(600, 11);
        let mut checked = 0;
        for line in std::str::from_utf8(&bytes).unwrap().lines() {
            let it = Item::parse(line).unwrap();
            let Some(fact) = it.fact.as_ref().filter(|f| f.strategies.is_some()) else {
                continue;
            };
            let again = chartom::hmi_from_fact(fact).unwrap().hmi;
            let given = it.mind.unwrap().hmi;
            assert_eq!(format!("{again:.2}"), format!("{given:.2}"), "{line}");
            checked += 1;
        }
        assert!(checked > 20, "{checked}");
    }
}
