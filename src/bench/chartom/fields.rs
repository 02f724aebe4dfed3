//! CHARTOM's typed item and review fields: the chart, the FACT question, the MIND
//! figure and the justification grade (docs/format.md, "CHARTOM").

use serde::{Deserialize, Serialize};

use crate::model::Loose;

/// CHARTOM justification grade (ordinal: identifies > partial > misses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum JustificationGrade {
    Identifies,
    Partial,
    Misses,
}

impl JustificationGrade {
    pub const ALL: [JustificationGrade; 3] = [
        JustificationGrade::Identifies,
        JustificationGrade::Partial,
        JustificationGrade::Misses,
    ];
    pub fn name(self) -> &'static str {
        match self {
            JustificationGrade::Identifies => "identifies",
            JustificationGrade::Partial => "partial",
            JustificationGrade::Misses => "misses",
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Chart {
    pub pair: Option<String>,
    pub version: Option<ChartVersion>,
    #[serde(rename = "type")]
    pub chart_type: Option<String>,
    pub manipulation: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum ChartVersion {
    Original,
    Manipulated,
}

impl ChartVersion {
    pub const ALL: [ChartVersion; 2] = [ChartVersion::Original, ChartVersion::Manipulated];
    pub fn name(self) -> &'static str {
        match self {
            ChartVersion::Original => "original",
            ChartVersion::Manipulated => "manipulated",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FactFormat {
    Choice,
    Rank,
    Number,
}

impl FactFormat {
    pub const ALL: [FactFormat; 3] = [FactFormat::Choice, FactFormat::Rank, FactFormat::Number];
    /// The name in the file (`fact.format`, docs/format.md).
    pub fn name(self) -> &'static str {
        match self {
            FactFormat::Choice => "choice",
            FactFormat::Rank => "rank",
            FactFormat::Number => "number",
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Fact {
    pub question: Option<String>,
    pub format: Option<FactFormat>,
    pub options: Vec<String>,
    /// choice: 1-based option number; rank: option numbers largest first, or a list of
    /// such lists; number: the exact answer.
    pub key: Option<Loose>,
    pub strategies: Option<Strategies>,
    /// `[answer, count]` pairs.
    pub human_answers: Vec<(Loose, u64)>,
    /// The question's unit, once asked (`Fact::unit`).
    #[serde(skip)]
    pub(super) unit: std::sync::OnceLock<Unit>,
}

/// The unit a number question's key is in, from the question's words: a scale word
/// (`How many million bags ...?` → 10⁶) and whether it asks for a percentage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Unit {
    /// The power of ten of the one scale word the question uses (thousand 3, million 6,
    /// billion 9, trillion 12); 0 when it uses none, or several different ones.
    pub scale: i32,
    /// The question names a percentage (`%`, `percent`, `percentage`, `per cent`).
    pub percent: bool,
}

#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq)]
pub struct Strategies {
    pub misled: f64,
    pub skim: f64,
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
pub struct Mind {
    pub hmi: f64,
}

/// A reviewer's grades of a CHARTOM response.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(default)]
pub struct Grades {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fact_correct: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub justification: Option<JustificationGrade>,
}

crate::model::flat_fields!(Grades {
    fact_correct: "fact_correct",
    justification: "justification",
});
