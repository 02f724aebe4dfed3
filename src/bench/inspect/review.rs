//! Inspect's grading operations on a review: a verdict or a note on one scorer, the
//! headline's in the review's own `verdict` and `note`, any other's in `scorers.<name>`
//! (docs/format.md, "Inspect AI logs").

use super::Verdict;
use crate::bench::Review;

/// Set `scorer`'s verdict (`headline`: the log's headline scorer, whose verdict is the
/// review's own) at time `at`.
pub fn set_verdict(r: &mut Review, headline: &str, scorer: &str, v: Verdict, at: &str) {
    if scorer == headline {
        r.verdict = Some(v.name().to_string());
        return;
    }
    let s = r.inspect.scorers.entry(scorer.to_string()).or_default();
    s.verdict = Some(v.name().to_string());
    s.at = Some(at.to_string());
}

/// A note as typed: blank is none, trailing blanks dropped (as every note).
fn note_text(text: &str) -> Option<String> {
    (!text.trim().is_empty()).then(|| text.trim_end().to_string())
}

/// Set `scorer`'s note (blank: none) at time `at`; a scorer left with neither verdict nor
/// note is removed.
pub fn set_note(r: &mut Review, headline: &str, scorer: &str, text: &str, at: &str) {
    if scorer == headline {
        r.note = note_text(text);
        return;
    }
    let s = r.inspect.scorers.entry(scorer.to_string()).or_default();
    s.note = note_text(text);
    s.at = Some(at.to_string());
    if s.is_empty() {
        r.inspect.scorers.shift_remove(scorer);
    }
}

/// `scorer`'s verdict in `r` (as written: it may be none of the three).
pub fn verdict_of<'a>(r: &'a Review, headline: &str, scorer: &str) -> Option<&'a str> {
    if scorer == headline {
        r.verdict.as_deref()
    } else {
        r.inspect.scorers.get(scorer)?.verdict.as_deref()
    }
}

/// `scorer`'s note in `r`.
pub fn note_of<'a>(r: &'a Review, headline: &str, scorer: &str) -> Option<&'a str> {
    if scorer == headline {
        r.note.as_deref()
    } else {
        r.inspect.scorers.get(scorer)?.note.as_deref()
    }
}
