//! The result-set generator's CHARTOM pairs.

use super::*;

impl Gen {
    pub(super) fn chartom_pair(&mut self, both: bool, w: &mut impl Write) -> io::Result<()> {
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
                let counted: Vec<(verdict::model::Loose, u64)> = answers
                    .iter()
                    .map(|&(a, n)| (serde_json::Value::from(a).into(), n as u64))
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
}
