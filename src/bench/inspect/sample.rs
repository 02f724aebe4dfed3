//! What a line made from an Inspect sample holds (`log::line_of`), typed for the view,
//! the stats and the checks.

use serde::Deserialize;
use serde_json::Value;

/// A sample's epoch, as its line holds it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Sample {
    /// The sample's id as the log writes it (a string or a number).
    pub sample: Value,
    pub epoch: u64,
    /// The input: a text, or messages.
    pub input: Input,
    pub target: Vec<Value>,
    pub choices: Vec<String>,
    /// `output.completion`.
    pub completion: String,
    /// The conversation (`messages`).
    pub messages: Vec<Message>,
    /// Every scorer's score, in the sample's order.
    pub scores: Vec<Score>,
    /// The scorer the verdict keys grade.
    pub headline: String,
    pub run: Run,
    /// The log's figures (`results` of its header).
    pub harness: Vec<Figure>,
    /// The sample's error message, if it failed.
    pub error: Option<String>,
    /// The sample's `metadata` (none when empty).
    pub metadata: Option<Value>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Input {
    Text(String),
    Messages(Vec<Message>),
}

impl Default for Input {
    fn default() -> Self {
        Input::Text(String::new())
    }
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Message {
    pub role: String,
    pub text: String,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Score {
    pub name: String,
    pub value: Value,
    /// The value the scorer gave (before any edit).
    pub original: Value,
    pub answer: Option<String>,
    pub explanation: Option<String>,
    /// The edits with provenance, oldest first.
    pub edits: Vec<EditSeen>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct EditSeen {
    pub author: Option<String>,
    pub at: Option<String>,
    pub reason: Option<String>,
    pub value: Value,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Run {
    pub task: Option<String>,
    pub model: Option<String>,
    /// `eval` or `json`.
    pub format: Option<String>,
    pub status: Option<String>,
}

/// One figure of the log's `results` (`log::harness_figures`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Figure {
    pub scorer: String,
    /// The entry's name: the scorer's, or a key of its values (a scorer whose values are
    /// objects).
    pub name: Option<String>,
    /// The reducer as the log names it (`None`: none named: the mean).
    pub reducer: Option<String>,
    pub metric: String,
    pub value: Value,
    pub scored_samples: Option<u64>,
    pub unscored_samples: Option<u64>,
    /// How verdict recomputes it (a save does; `stats` checks it and corrects it by the
    /// verdicts); `None`: it does not.
    pub recompute: Option<Recompute>,
}

/// The reducer and the built-in metric verdict recomputes a figure with.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Recompute {
    pub reducer: String,
    pub metric: String,
}

impl Figure {
    /// How it is named: `scorer`, the key of its values when it is not the scorer, the
    /// reducer when the log names one, and the metric (`choice [mode] accuracy`).
    pub fn label(&self) -> String {
        let mut l = self.scorer.clone();
        if let Some(n) = self.name.as_ref().filter(|n| **n != self.scorer) {
            l.push_str(&format!("/{n}"));
        }
        if let Some(r) = &self.reducer {
            l.push_str(&format!(" [{r}]"));
        }
        format!("{l} {}", self.metric)
    }
}

/// A value as text: a string as it is, anything else as JSON.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "-".into(),
        v => v.to_string(),
    }
}

impl Sample {
    /// The sample's id as text.
    pub fn id_text(&self) -> String {
        super::log::id_text(&self.sample)
    }

    /// The input as one text: the text, or the messages' texts one per line.
    pub fn input_text(&self) -> std::borrow::Cow<'_, str> {
        match &self.input {
            Input::Text(t) => t.as_str().into(),
            Input::Messages(m) => m
                .iter()
                .map(|m| m.text.as_str())
                .collect::<Vec<_>>()
                .join("\n")
                .into(),
        }
    }

    /// Why `what` (a verdict, a note) on scorer `scorer` cannot be written back into the
    /// log: the sample has no score of it (an edit is of a score the sample has; a
    /// sample that failed has none). `None` when it can.
    pub fn no_score(&self, scorer: &str, what: &str) -> Option<String> {
        if self.scores.iter().any(|x| x.name == scorer) {
            return None;
        }
        Some(format!(
            "the sample has no score of scorer {scorer}{}: {what} on it cannot be written back into the log",
            match &self.error {
                Some(e) => format!(" (it failed: {e})"),
                None => String::new(),
            }
        ))
    }

    /// The headline scorer's score.
    pub fn headline_score(&self) -> Option<&Score> {
        self.scores.iter().find(|s| s.name == self.headline)
    }

    /// The target as one text (several targets joined by ` | `).
    pub fn target_text(&self) -> String {
        self.target
            .iter()
            .map(value_text)
            .collect::<Vec<_>>()
            .join(" | ")
    }
}
