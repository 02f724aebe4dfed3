//! The result-set generator's CharToM-QA items.

use super::*;

impl Gen {
    pub(super) fn chartom_qa(&mut self, i: usize) {
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
    pub(super) fn bonus_list(&mut self, n: usize) {
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
