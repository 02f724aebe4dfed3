//! C-VQA's grading operations: what its keys do to its own review types (docs/format.md,
//! "What the default keys write").

use super::fields::{CvqaReason, CvqaStatus, Grades, Verification};
use crate::bench::kit::grades::cycle;
use crate::grade::resolve::vote_field;

impl Verification {
    /// Does it say anything?
    pub fn is_empty(&self) -> bool {
        *self == Verification::default()
    }

    /// C-VQA accept: the generated question is about the image and its answer is right.
    pub fn accept(&mut self) {
        self.status = Some(CvqaStatus::Accept);
        self.image_related = Some(true);
        self.answer_ok = Some(true);
        self.reason = None;
        self.reason_text = None;
        self.fixed_question = None;
        self.fixed_answer = None;
    }

    /// C-VQA reject with a reason, and with `other` the reviewer's words (`text`; blank:
    /// none). The verification is replaced whole: nothing an earlier accept or fix implied
    /// (`image_related`, `answer_ok`) stays behind.
    pub fn reject(&mut self, reason: CvqaReason, text: Option<&str>) {
        self.status = Some(CvqaStatus::Reject);
        self.reason = Some(reason);
        self.reason_text = text
            .map(str::trim)
            .filter(|t| !t.is_empty() && reason == CvqaReason::Other)
            .map(str::to_string);
        self.fixed_question = None;
        self.fixed_answer = None;
        self.image_related = None;
        self.answer_ok = None;
        match reason {
            CvqaReason::NotImageRelated => self.image_related = Some(false),
            CvqaReason::WrongAnswer => self.answer_ok = Some(false),
            _ => {}
        }
    }

    /// C-VQA fix: the corrected counterfactual question `q` and answer `a`, against the
    /// file's pair (`question`, `answer`), for the reviewer's `reason`. Only the part that
    /// changed is written.
    pub fn fix(
        &mut self,
        (question, answer): (&str, &str),
        (q, a): (&str, &str),
        reason: CvqaReason,
        text: Option<&str>,
    ) {
        self.status = Some(CvqaStatus::Fix);
        // An empty field fixes nothing: the original stands (docs/format.md).
        let fixed =
            |new: &str, old: &str| (!new.trim().is_empty() && new != old).then(|| new.to_string());
        self.fixed_question = fixed(q, question);
        self.fixed_answer = fixed(a, answer);
        self.answer_ok = Some(self.fixed_answer.is_none());
        self.image_related = Some(reason != CvqaReason::NotImageRelated);
        self.reason_text = text
            .map(str::trim)
            .filter(|t| !t.is_empty() && reason == CvqaReason::Other)
            .map(str::to_string);
        self.reason = Some(reason);
    }
}

impl Grades {
    /// C-VQA `1`: cycle the original answer's grade override.
    pub fn cycle_original(&mut self) {
        self.original_correct = cycle(self.original_correct);
    }

    /// C-VQA `2`: cycle the counterfactual answer's grade override.
    pub fn cycle_counterfactual(&mut self) {
        self.counterfactual_correct = cycle(self.counterfactual_correct);
    }
}

impl Grades {
    /// Several reviewers' overrides of one response, each field voted among those who set
    /// it (docs/stats.md).
    pub fn majority(graders: &[(&Grades, usize)], tied: &std::cell::Cell<bool>) -> Grades {
        Grades {
            original_correct: vote_field(graders, |g| g.original_correct.as_ref(), tied),
            counterfactual_correct: vote_field(
                graders,
                |g| g.counterfactual_correct.as_ref(),
                tied,
            ),
        }
    }
}
