//! The benchmarks' names: the `benchmark` value of an item and how people write it.

use serde::Serialize;

/// Which view and which grading rules apply to an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Benchmark {
    #[serde(rename = "chartom")]
    Chartom,
    #[serde(rename = "chartom-qa")]
    ChartomQa,
    #[serde(rename = "cvqa")]
    Cvqa,
    #[serde(rename = "lm-eval")]
    LmEval,
    #[serde(rename = "inspect")]
    Inspect,
    /// The benchmark declared in the spec given with `--benchmark` (every item of the
    /// file is read as it: `bench::declared`).
    #[serde(rename = "declared")]
    Declared,
    /// Any other (or missing) `benchmark` value: a generic view, a free verdict and a note.
    #[serde(rename = "other")]
    Other,
}

impl Benchmark {
    /// Every benchmark, in the enum's order.
    pub const ALL: [Benchmark; 7] = [
        Benchmark::Chartom,
        Benchmark::ChartomQa,
        Benchmark::Cvqa,
        Benchmark::LmEval,
        Benchmark::Inspect,
        Benchmark::Declared,
        Benchmark::Other,
    ];

    pub fn from_name(s: Option<&str>) -> Benchmark {
        match s {
            Some("chartom") => Benchmark::Chartom,
            Some("chartom-qa") => Benchmark::ChartomQa,
            Some("cvqa") => Benchmark::Cvqa,
            Some("lm-eval") => Benchmark::LmEval,
            Some("inspect") => Benchmark::Inspect,
            _ => Benchmark::Other,
        }
    }
    /// How people write the benchmark's name, for headings: `CHARTOM`, `CharToM-QA`,
    /// `C-VQA`, `other`.
    pub fn title(self) -> &'static str {
        match self {
            Benchmark::Chartom => "CHARTOM",
            Benchmark::ChartomQa => "CharToM-QA",
            Benchmark::Cvqa => "C-VQA",
            Benchmark::LmEval => "lm-eval",
            Benchmark::Inspect => "Inspect AI",
            Benchmark::Declared => "declared",
            Benchmark::Other => "other",
        }
    }
    /// The `benchmark` value in the file.
    pub fn name(self) -> &'static str {
        match self {
            Benchmark::Chartom => "chartom",
            Benchmark::ChartomQa => "chartom-qa",
            Benchmark::Cvqa => "cvqa",
            Benchmark::LmEval => "lm-eval",
            Benchmark::Inspect => "inspect",
            Benchmark::Declared => "declared",
            Benchmark::Other => "other",
        }
    }

    /// Known only by the shape of its lines (`bench::sniff`), never by a `benchmark`
    /// name: a result-set line that names it is an unknown benchmark.
    pub fn by_layout_only(self) -> bool {
        matches!(
            self,
            Benchmark::LmEval | Benchmark::Inspect | Benchmark::Declared
        )
    }
}
