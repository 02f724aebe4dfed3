//! The summary page's figures, computed on a thread (`Effect::ComputeSummary`): which
//! request is the newest, and its answer.

/// The figures, or why they could not be computed.
pub type SummaryResult = Result<crate::tui::summary::Summary, String>;

/// The figures of the summary page and the request they answer. An answer to an older
/// request (one made before the file was read again, say) is dropped, and until the
/// newest request is answered there are none (the page says it is computing). Its fields
/// are private: it changes only through `request`, `forget` and `arrived`.
#[derive(Debug, Default)]
pub struct SummaryFigures {
    /// The newest request's number.
    seq: u64,
    figures: Option<SummaryResult>,
}

impl SummaryFigures {
    /// A new request: no figures until it is answered. Returns its number.
    pub fn request(&mut self) -> u64 {
        self.seq += 1;
        self.figures = None;
        self.seq
    }

    /// Drop the figures, and the answer to any request made so far.
    pub fn forget(&mut self) {
        self.figures = None;
        self.seq += 1;
    }

    /// The answer to request `seq`: kept only when that is the newest request.
    pub fn arrived(&mut self, seq: u64, result: SummaryResult) {
        if seq == self.seq {
            self.figures = Some(result);
        }
    }

    /// The newest request's number.
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// The figures of the newest request, once they have arrived.
    pub fn get(&self) -> Option<&SummaryResult> {
        self.figures.as_ref()
    }
}
