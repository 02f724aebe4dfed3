//! A metric's value on one line and how the harness aggregates it.

/// A metric's value on one line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MetricValue {
    Number(f64),
    /// Two numbers: `[loglikelihood, words or bytes]` of the rolling metrics, or the
    /// `[gold, pred]` of `f1` and `mcc`.
    Pair(f64, f64),
    /// Anything else (`likelihood`'s `[gold, [lls]]`, text): shown, not aggregated.
    Other,
}

impl MetricValue {
    pub fn number(self) -> Option<f64> {
        match self {
            MetricValue::Number(x) => Some(x),
            _ => None,
        }
    }
}

/// How the harness aggregates a metric over the samples (`lm_eval/api/metrics.py`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Agg {
    /// `mean`: the mean of the values (acc, exact_match).
    Mean,
    /// `perplexity`: exp(−mean loglikelihood).
    Perplexity,
    /// `weighted_perplexity`: exp(−Σ loglikelihood / Σ weight) (word, byte perplexity).
    WeightedPerplexity,
    /// `bits_per_byte`: −Σ loglikelihood / Σ bytes / ln 2.
    BitsPerByte,
    /// Another aggregation (`f1`, `bleu`, a task's own): verdict does not recompute it;
    /// the harness's figure comes from `results_*.json`.
    Other(String),
}

impl Agg {
    /// The harness's name of the aggregation.
    pub fn from_name(name: &str) -> Agg {
        match name {
            "mean" => Agg::Mean,
            "perplexity" => Agg::Perplexity,
            "weighted_perplexity" => Agg::WeightedPerplexity,
            "bits_per_byte" => Agg::BitsPerByte,
            other => Agg::Other(other.to_string()),
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Agg::Mean => "mean",
            Agg::Perplexity => "perplexity",
            Agg::WeightedPerplexity => "weighted_perplexity",
            Agg::BitsPerByte => "bits_per_byte",
            Agg::Other(s) => s,
        }
    }

    /// The aggregation lm-eval registers for a metric of its own (`register_metric`);
    /// any other metric aggregates by `mean`.
    pub fn default_for(metric: &str) -> Agg {
        match metric {
            "perplexity" => Agg::Perplexity,
            "word_perplexity" | "byte_perplexity" => Agg::WeightedPerplexity,
            "bits_per_byte" => Agg::BitsPerByte,
            "f1" => Agg::Other("f1".into()),
            "mcc" => Agg::Other("matthews_corrcoef".into()),
            "brier_score" | "bleu" | "chrf" | "chrf++" | "ter" | "bypass" => {
                Agg::Other(metric.into())
            }
            _ => Agg::Mean,
        }
    }

    /// A mean of per-sample scores: the one kind of figure a reviewer's verdict (1 or 0)
    /// can stand in for. A perplexity is not a mean of scores: verdicts leave it alone.
    pub fn is_mean(&self) -> bool {
        *self == Agg::Mean
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Metric {
    pub name: String,
    pub value: MetricValue,
    pub agg: Agg,
}
