//! C-VQA's typed item and review fields: a question with its answer, the verification
//! status and its reasons (docs/format.md, "C-VQA").

use serde::{Deserialize, Serialize};

use crate::model::{opt_string_or_number, string_or_number};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum CvqaStatus {
    Accept,
    Fix,
    Reject,
}

impl CvqaStatus {
    pub const ALL: [CvqaStatus; 3] = [CvqaStatus::Accept, CvqaStatus::Fix, CvqaStatus::Reject];
    /// The name in the file (`status` of a C-VQA review, docs/format.md).
    pub fn name(self) -> &'static str {
        match self {
            CvqaStatus::Accept => "accept",
            CvqaStatus::Fix => "fix",
            CvqaStatus::Reject => "reject",
        }
    }
    /// What the verdict did to the question, for a reviewer: `accepted`, `fixed`,
    /// `rejected`.
    pub fn done(self) -> &'static str {
        match self {
            CvqaStatus::Accept => "accepted",
            CvqaStatus::Fix => "fixed",
            CvqaStatus::Reject => "rejected",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum CvqaReason {
    Ambiguous,
    NotImageRelated,
    WrongAnswer,
    Ungrammatical,
    Other,
}

impl CvqaReason {
    pub const ALL: [CvqaReason; 5] = [
        CvqaReason::Ambiguous,
        CvqaReason::NotImageRelated,
        CvqaReason::WrongAnswer,
        CvqaReason::Ungrammatical,
        CvqaReason::Other,
    ];
    pub fn name(self) -> &'static str {
        match self {
            CvqaReason::Ambiguous => "ambiguous",
            CvqaReason::NotImageRelated => "not-image-related",
            CvqaReason::WrongAnswer => "wrong-answer",
            CvqaReason::Ungrammatical => "ungrammatical",
            CvqaReason::Other => "other",
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct QuestionAnswer {
    pub question: String,
    #[serde(deserialize_with = "string_or_number")]
    pub answer: String,
}

/// A reviewer's verification of a C-VQA item's generated (counterfactual) question: flat
/// in the review (docs/format.md, "C-VQA REVIEW").
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(default)]
pub struct Verification {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<CvqaStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image_related: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer_ok: Option<bool>,
    /// `fixed_question` / `fixed_answer` correct the counterfactual (generated) pair.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixed_question: Option<String>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "opt_string_or_number"
    )]
    pub fixed_answer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<CvqaReason>,
    /// The reviewer's words when `reason` is `other` (docs/format.md, C-VQA REVIEW).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason_text: Option<String>,
}

/// A reviewer's overrides of the automatic grades of a C-VQA response.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(default)]
pub struct Grades {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original_correct: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counterfactual_correct: Option<bool>,
}

crate::model::flat_fields!(Verification {
    status: "status",
    image_related: "image_related",
    answer_ok: "answer_ok",
    fixed_question: "fixed_question",
    fixed_answer: "fixed_answer" as crate::model::TextOrNumber,
    reason: "reason",
    reason_text: "reason_text",
});

crate::model::flat_fields!(Grades {
    original_correct: "original_correct",
    counterfactual_correct: "counterfactual_correct",
});
