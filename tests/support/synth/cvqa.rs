//! The result-set generator's C-VQA items.

use super::*;

impl Gen {
    // -----------------------------------------------------------------------------------
    // C-VQA

    pub(super) fn cvqa(&mut self, i: usize) {
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
    pub(super) fn count_answer(&mut self, n: usize) -> String {
        if self.rng.chance(0.15) {
            format!("{n}")
        } else {
            format!("\"{n}\"")
        }
    }

    // -----------------------------------------------------------------------------------
    // CHARTOM
}
