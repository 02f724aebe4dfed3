//! How far reviewers agree: the coefficients, and the report of `verdict agree`.
//!
//! The coefficients ([`cohen_kappa`], [`fleiss_kappa`], [`krippendorff_alpha`],
//! [`percent_agreement`]) work on plain category indices and are checked against the
//! published worked examples in the tests below. [`report`] reads a result set and
//! measures every categorical verdict field with them; docs/teams.md explains the fields,
//! the units and the rules for users.

pub mod text;

use crate::bench::Items;
use std::collections::{BTreeMap, BTreeSet};

use indexmap::IndexSet;
use serde::Serialize;

use crate::bench::{Item, Review};
use crate::store::Store;

mod coefficients;
pub use coefficients::*;

mod variable;
pub(crate) use crate::bench::kit::agree::{ItemRatings, Variable};

// ---------------------------------------------------------------------------------------
// The report
// ---------------------------------------------------------------------------------------

/// The name the LLM judge has as a rater in the human-vs-judge figures.
pub const JUDGE: &str = "@judge";

/// A reviewer is flagged as possibly rushing when their median time per item is below
/// this share of the median of the other reviewers' medians...
pub const RUSHING_SHARE: f64 = 1.0 / 3.0;
/// ...and both they and at least one other reviewer have this many timed verdicts.
pub const MIN_TIMED: usize = 5;

/// `verdict agree`'s report; serialized as is for `--json` (docs/teams.md).
#[derive(Debug, Clone, Serialize)]
pub struct AgreementReport {
    pub file: String,
    pub items: usize,
    /// Items that could not be read (`"id-or-#line: why"`); they are left out.
    pub unreadable: Vec<String>,
    /// Reviewers with at least one verdict that is not an adjudication, sorted.
    pub reviewers: Vec<String>,
    /// Adjudications (`"final": true`) found and left out of every figure.
    pub adjudications_left_out: usize,
    pub fields: Vec<FieldReport>,
    /// Human vs LLM judge (CharToM-QA's); `null` when no response has a judge.
    pub judge: Option<JudgeReport>,
    pub time: TimeReport,
    /// Things worth knowing that are not errors (bonus numbers out of range...).
    pub warnings: Vec<String>,
}

/// The agreement figures of one verdict field.
#[derive(Debug, Clone, Serialize)]
pub struct FieldReport {
    pub benchmark: &'static str,
    pub field: &'static str,
    /// What one rated thing is: `item`, `item × model` or `item × model × bonus point`.
    pub unit: &'static str,
    /// The categories, in order (rank order for ordinal fields).
    pub categories: Vec<String>,
    /// Ratings per category, all raters together.
    pub counts: Vec<usize>,
    pub raters: Vec<String>,
    /// Units with at least one rating.
    pub units_rated: usize,
    /// Units with two or more ratings (the ones agreement is measured on).
    pub units_multi: usize,
    /// Pairwise percent agreement as a fraction in [0, 1] (see [`percent_agreement`]).
    pub percent_agreement: Option<f64>,
    /// Cohen's kappa for every pair of raters with a unit in common.
    pub pairs: Vec<PairReport>,
    pub fleiss: Option<FleissReport>,
    pub krippendorff_alpha: AlphaReport,
}

#[derive(Debug, Clone, Serialize)]
pub struct PairReport {
    pub a: String,
    pub b: String,
    /// Units both rated.
    pub units: usize,
    /// Share of those units they put in the same category.
    pub agreement: f64,
    pub cohen_kappa: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct FleissReport {
    /// Fleiss' kappa needs the same number of ratings on every unit: it is computed over
    /// the units with the most common number (`raters_per_unit`, ≥ 2; on a tie the larger).
    pub raters_per_unit: usize,
    pub units: usize,
    /// Units with two or more ratings left out because they have another number.
    pub units_left_out: usize,
    pub kappa: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct AlphaReport {
    pub nominal: Option<f64>,
    /// Only for ordinal fields (CHARTOM justification); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ordinal: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct JudgeReport {
    /// The benchmark whose responses the judge graded (named in the text, not the JSON).
    #[serde(skip)]
    pub benchmark: crate::bench::Benchmark,
    pub judge: &'static str,
    /// Responses with a judge grading.
    pub responses: usize,
    /// Of those, responses whose judge `bonus` could not be parsed (e.g. `"Null"`): their
    /// bonus units are left out for the judge.
    pub unparsable_bonus: usize,
    /// `bonus` and `penalty` with the judge as one more rater.
    pub fields: Vec<FieldReport>,
    /// Each human reviewer against the judge, on the responses both graded.
    pub versus: Vec<VersusReport>,
    /// BPC and PR as each rater gives them, over all the responses they graded.
    pub raters: Vec<RaterFigures>,
}

#[derive(Debug, Clone, Serialize)]
pub struct VersusReport {
    pub reviewer: String,
    pub bonus: Option<PairFigures>,
    pub penalty: Option<PairFigures>,
}

/// One human vs the judge on one field, over the units both rated.
#[derive(Debug, Clone, Serialize)]
pub struct PairFigures {
    pub units: usize,
    pub agreement: f64,
    pub cohen_kappa: Option<f64>,
    /// BPC (bonus) or PR (penalty) by the reviewer on those units.
    pub reviewer: f64,
    /// The same figure by the judge on the same units.
    pub judge: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct RaterFigures {
    pub rater: String,
    /// Bonus points graded (units) and covered; BPC = covered / points.
    pub bonus_points: usize,
    pub covered: usize,
    pub bpc: Option<f64>,
    /// Responses graded for penalty and with one; PR = with / graded.
    pub penalty_graded: usize,
    pub with_penalty: usize,
    pub pr: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TimeReport {
    pub rule: String,
    pub reviewers: Vec<ReviewerTime>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReviewerTime {
    pub reviewer: String,
    /// Verdicts with `seconds`.
    pub timed: usize,
    pub median_seconds: Option<f64>,
    /// Median of the other reviewers' medians (those with enough timed verdicts).
    pub others_median_seconds: Option<f64>,
    pub possibly_rushing: bool,
}

/// Build the agreement report of an open result set.
pub fn report(store: &Store) -> AgreementReport {
    let mut raters: IndexSet<String> = IndexSet::new();
    let judge = {
        raters.insert(JUDGE.to_string());
        0usize
    };
    let mut vars = crate::bench::AgreementVariables::default();

    let mut unreadable = Vec::new();
    let mut warnings = Vec::new();
    let mut finals = 0usize;
    let mut seconds: BTreeMap<String, Vec<f64>> = BTreeMap::new();

    for i in 0..store.len() {
        let item: Item = match store.item(i) {
            Ok(it) => it,
            Err(e) => {
                unreadable.push(format!("{}: {e}", store.fallback_id(i)));
                continue;
            }
        };
        let label = item.id.clone().unwrap_or_else(|| store.fallback_id(i));
        let reviews: Vec<(usize, &Review)> = item
            .reviews
            .iter()
            .filter(|(_, r)| {
                let f = r.is_final == Some(true);
                finals += usize::from(f);
                !f
            })
            .map(|(name, r)| (raters.insert_full(name.clone()).0, r))
            .collect();
        for &(r, rv) in &reviews {
            if let Some(s) = rv.seconds.filter(|s| s.is_finite() && *s >= 0.0) {
                seconds.entry(raters[r].clone()).or_default().push(s);
            }
        }
        vars.rate(ItemRatings {
            i,
            item: &item,
            label: &label,
            reviews: &reviews,
            raters: &raters,
            judge,
            warnings: &mut warnings,
        });
    }

    let names: Vec<String> = raters.iter().cloned().collect();
    let mut humans: Vec<usize> = (0..names.len()).filter(|&r| r != judge).collect();
    humans.sort_by(|&a, &b| names[a].cmp(&names[b]));
    let mut with_judge = humans.clone();
    with_judge.push(judge);

    let fields: Vec<FieldReport> = vars
        .human()
        .into_iter()
        .filter(|v| !v.units.is_empty())
        .map(|v| v.report(&names, &humans))
        .collect();
    let reviewers: Vec<String> = humans
        .iter()
        .filter(|&&r| {
            seconds.contains_key(&names[r])
                || vars
                    .human()
                    .iter()
                    .any(|v| v.units.values().any(|rs| rs.iter().any(|&(x, _)| x == r)))
        })
        .map(|&r| names[r].clone())
        .collect();

    let judge_report = vars.judge().map(|jv| JudgeReport {
        benchmark: jv.benchmark,
        judge: JUDGE,
        responses: jv.judged,
        unparsable_bonus: jv.unparsable,
        fields: [jv.bonus, jv.penalty]
            .into_iter()
            .filter(|v| !v.units.is_empty())
            .map(|v| v.report(&names, &with_judge))
            .collect(),
        versus: humans
            .iter()
            .map(|&h| VersusReport {
                reviewer: names[h].clone(),
                bonus: versus(jv.bonus, h, judge),
                penalty: versus(jv.penalty, h, judge),
            })
            .filter(|v| v.bonus.is_some() || v.penalty.is_some())
            .collect(),
        raters: with_judge
            .iter()
            .map(|&r| rater_figures(&names[r], r, jv.bonus, jv.penalty))
            .filter(|f| f.bonus_points > 0 || f.penalty_graded > 0)
            .collect(),
    });

    AgreementReport {
        file: store.path().display().to_string(),
        items: store.len(),
        unreadable,
        reviewers,
        adjudications_left_out: finals,
        fields,
        judge: judge_report,
        time: time_report(&seconds),
        warnings,
    }
}

/// One human (`h`) against the judge (`j`) on a two-category field whose category 0 is
/// the counted one (covered / present).
fn versus(v: &Variable, h: usize, j: usize) -> Option<PairFigures> {
    let mut table = vec![vec![0.0; 2]; 2];
    let mut n = 0usize;
    for rs in v.units.values() {
        let ch = rs.iter().find(|(r, _)| *r == h).map(|&(_, c)| c);
        let cj = rs.iter().find(|(r, _)| *r == j).map(|&(_, c)| c);
        if let (Some(ch), Some(cj)) = (ch, cj) {
            table[ch][cj] += 1.0;
            n += 1;
        }
    }
    (n > 0).then(|| {
        let nf = n as f64;
        PairFigures {
            units: n,
            agreement: (table[0][0] + table[1][1]) / nf,
            cohen_kappa: cohen_kappa(&table),
            reviewer: (table[0][0] + table[0][1]) / nf,
            judge: (table[0][0] + table[1][0]) / nf,
        }
    })
}

fn rater_figures(name: &str, r: usize, bonus: &Variable, penalty: &Variable) -> RaterFigures {
    let tally = |v: &Variable| {
        let mut n = 0usize;
        let mut hit = 0usize;
        for rs in v.units.values() {
            if let Some(&(_, c)) = rs.iter().find(|(x, _)| *x == r) {
                n += 1;
                hit += usize::from(c == 0);
            }
        }
        (n, hit, (n > 0).then(|| hit as f64 / n as f64))
    };
    let (bonus_points, covered, bpc) = tally(bonus);
    let (penalty_graded, with_penalty, pr) = tally(penalty);
    RaterFigures {
        rater: name.to_string(),
        bonus_points,
        covered,
        bpc,
        penalty_graded,
        with_penalty,
        pr,
    }
}

fn time_report(seconds: &BTreeMap<String, Vec<f64>>) -> TimeReport {
    let medians: BTreeMap<&String, f64> = seconds
        .iter()
        .filter(|(_, v)| v.len() >= MIN_TIMED)
        .filter_map(|(r, v)| median(v).map(|m| (r, m)))
        .collect();
    let reviewers = seconds
        .iter()
        .map(|(r, v)| {
            let others: Vec<f64> = medians
                .iter()
                .filter(|(o, _)| *o != &r)
                .map(|(_, &m)| m)
                .collect();
            let own = median(v);
            let others_median = median(&others);
            let possibly_rushing = match (medians.get(r), others_median) {
                (Some(&m), Some(o)) => m < o * RUSHING_SHARE,
                _ => false,
            };
            ReviewerTime {
                reviewer: r.clone(),
                timed: v.len(),
                median_seconds: own,
                others_median_seconds: others_median,
                possibly_rushing,
            }
        })
        .collect();
    TimeReport {
        rule: format!(
            "possibly rushing: median seconds per item below 1/3 of the median of the other reviewers' medians (reviewers with at least {MIN_TIMED} timed verdicts; adjudications left out)"
        ),
        reviewers,
    }
}

#[cfg(test)]
mod tests;
