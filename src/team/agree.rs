//! How far reviewers agree: the coefficients, and the report of `verdict agree`.
//!
//! The coefficients ([`cohen_kappa`], [`fleiss_kappa`], [`krippendorff_alpha`],
//! [`percent_agreement`]) work on plain category indices and are checked against the
//! published worked examples in the tests below. [`report`] reads a result set and
//! measures every categorical verdict field with them; docs/teams.md explains the fields,
//! the units and the rules for users.

pub mod text;

use std::collections::{BTreeMap, BTreeSet};

use indexmap::{IndexMap, IndexSet};
use serde::Serialize;

use crate::model::{Benchmark, Item, Review};
use crate::store::Store;

// ---------------------------------------------------------------------------------------
// Coefficients
// ---------------------------------------------------------------------------------------

/// Cohen's kappa from a square contingency table (`table[i][j]`: units rater A put in
/// category i and rater B in category j). `None` when the table is empty or chance
/// agreement is 1 (both raters used one and the same category throughout).
pub fn cohen_kappa(table: &[Vec<f64>]) -> Option<f64> {
    let k = table.len();
    let n: f64 = table.iter().flatten().sum();
    if n <= 0.0 {
        return None;
    }
    let po = (0..k).map(|i| table[i][i]).sum::<f64>() / n;
    let pe = (0..k)
        .map(|i| {
            let row: f64 = table[i].iter().sum();
            let col: f64 = table.iter().map(|r| r[i]).sum();
            (row / n) * (col / n)
        })
        .sum::<f64>();
    if (1.0 - pe).abs() < 1e-12 {
        return None;
    }
    Some((po - pe) / (1.0 - pe))
}

/// Fleiss' kappa and its parts.
#[derive(Debug, Clone, PartialEq)]
pub struct Fleiss {
    pub kappa: f64,
    /// Mean observed agreement P̄.
    pub p_bar: f64,
    /// Chance agreement P̄e = Σ p_j².
    pub pe_bar: f64,
    /// Share of all ratings in each category, p_j.
    pub p_j: Vec<f64>,
    /// Per-unit agreement P_i.
    pub p_i: Vec<f64>,
}

/// Fleiss' kappa (Fleiss 1971) from per-unit category counts (`counts[i][j]`: raters who
/// put unit i in category j). Every unit needs the same number m ≥ 2 of ratings; `None`
/// otherwise, when there are no units, or when chance agreement is 1.
pub fn fleiss_kappa(counts: &[Vec<u64>]) -> Option<Fleiss> {
    let first = counts.first()?;
    let m: u64 = first.iter().sum();
    if m < 2 || counts.iter().any(|r| r.iter().sum::<u64>() != m) {
        return None;
    }
    let (n, mf) = (counts.len() as f64, m as f64);
    let k = first.len();
    let p_i: Vec<f64> = counts
        .iter()
        .map(|r| (r.iter().map(|&x| (x * x) as f64).sum::<f64>() - mf) / (mf * (mf - 1.0)))
        .collect();
    let p_j: Vec<f64> = (0..k)
        .map(|j| counts.iter().map(|r| r[j] as f64).sum::<f64>() / (n * mf))
        .collect();
    let p_bar = p_i.iter().sum::<f64>() / n;
    let pe_bar: f64 = p_j.iter().map(|p| p * p).sum();
    if (1.0 - pe_bar).abs() < 1e-12 {
        return None;
    }
    Some(Fleiss {
        kappa: (p_bar - pe_bar) / (1.0 - pe_bar),
        p_bar,
        pe_bar,
        p_j,
        p_i,
    })
}

/// Level of measurement for Krippendorff's alpha.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Nominal,
    /// Categories ranked by their index.
    Ordinal,
    /// Categories valued by `values`.
    Interval,
    Ratio,
}

/// Krippendorff's alpha (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"),
/// with missing data: `units[u]` holds the categories (indices into `values`) the raters
/// who rated unit u gave it, any number of them. Units with fewer than two ratings are not
/// pairable and drop out. `values[c]` is category c's value for the interval and ratio
/// levels (ignored for nominal and ordinal). `None` when fewer than two pairable values or
/// no variation (expected disagreement 0).
pub fn krippendorff_alpha(units: &[Vec<usize>], values: &[f64], level: Level) -> Option<f64> {
    let k = values.len();
    // Coincidence matrix o[c][k]: each ordered pair of values within a unit, weighted by
    // 1 / (m_u - 1).
    let mut o = vec![vec![0.0f64; k]; k];
    for u in units.iter().filter(|u| u.len() >= 2) {
        let w = 1.0 / (u.len() as f64 - 1.0);
        for (a, &c) in u.iter().enumerate() {
            for (b, &d) in u.iter().enumerate() {
                if a != b {
                    o[c][d] += w;
                }
            }
        }
    }
    let n_c: Vec<f64> = o.iter().map(|r| r.iter().sum()).collect();
    let n: f64 = n_c.iter().sum();
    if n < 2.0 {
        return None;
    }
    let delta2 = |c: usize, d: usize| -> f64 {
        if c == d {
            return 0.0;
        }
        match level {
            Level::Nominal => 1.0,
            Level::Ordinal => {
                let (lo, hi) = (c.min(d), c.max(d));
                let s: f64 = n_c[lo..=hi].iter().sum::<f64>() - (n_c[c] + n_c[d]) / 2.0;
                s * s
            }
            Level::Interval => (values[c] - values[d]).powi(2),
            Level::Ratio => {
                let s = values[c] + values[d];
                if s == 0.0 {
                    0.0
                } else {
                    ((values[c] - values[d]) / s).powi(2)
                }
            }
        }
    };
    let mut observed = 0.0;
    let mut expected = 0.0;
    for c in 0..k {
        for d in 0..k {
            let dd = delta2(c, d);
            observed += o[c][d] * dd;
            expected += n_c[c] * n_c[d] * dd;
        }
    }
    let d_o = observed / n;
    let d_e = expected / (n * (n - 1.0));
    if d_e <= 0.0 {
        return None;
    }
    Some(1.0 - d_o / d_e)
}

/// Pairwise percent agreement: for each unit with two or more ratings, the share of its
/// pairs of ratings that agree; the mean over those units (Fleiss' P̄ with any number of
/// raters). `None` without such units.
pub fn percent_agreement(units: &[Vec<usize>]) -> Option<f64> {
    let mut sum = 0.0;
    let mut n = 0usize;
    for u in units.iter().filter(|u| u.len() >= 2) {
        let m = u.len();
        let mut agree = 0usize;
        for a in 0..m {
            for b in a + 1..m {
                if u[a] == u[b] {
                    agree += 1;
                }
            }
        }
        sum += agree as f64 / (m * (m - 1) / 2) as f64;
        n += 1;
    }
    (n > 0).then(|| sum / n as f64)
}

/// The median of some numbers (`None` when empty).
pub fn median(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    })
}

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
    /// Human vs LLM judge on CharToM-QA; `null` when no CharToM-QA response has a judge.
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
    pub judge: &'static str,
    /// CharToM-QA responses with a judge grading.
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

/// (item index, model or "", bonus point or 0)
pub(crate) type UnitKey = (usize, String, u32);

/// One categorical variable being collected.
pub(crate) struct Variable {
    benchmark: Benchmark,
    field: &'static str,
    unit: &'static str,
    categories: Vec<String>,
    ordinal: bool,
    /// Ratings per unit: (rater index, category index).
    pub(crate) units: IndexMap<UnitKey, Vec<(usize, usize)>>,
}

impl Variable {
    pub(crate) fn new(
        benchmark: Benchmark,
        field: &'static str,
        unit: &'static str,
        categories: &[&str],
        ordinal: bool,
    ) -> Variable {
        Variable {
            benchmark,
            field,
            unit,
            categories: categories.iter().map(|s| s.to_string()).collect(),
            ordinal,
            units: IndexMap::new(),
        }
    }
    fn category(&mut self, name: &str) -> usize {
        match self.categories.iter().position(|c| c == name) {
            Some(i) => i,
            None => {
                self.categories.push(name.to_string());
                self.categories.len() - 1
            }
        }
    }
    pub(crate) fn rate(&mut self, key: UnitKey, rater: usize, category: usize) {
        self.units.entry(key).or_default().push((rater, category));
    }
    pub(crate) fn rate_named(&mut self, key: UnitKey, rater: usize, category: &str) {
        let c = self.category(category);
        self.rate(key, rater, c);
    }

    fn report(&self, names: &[String], order: &[usize]) -> FieldReport {
        let k = self.categories.len();
        let mut counts = vec![0usize; k];
        let cats: Vec<Vec<usize>> = self
            .units
            .values()
            .map(|rs| rs.iter().map(|&(_, c)| c).collect())
            .collect();
        for u in &cats {
            for &c in u {
                counts[c] += 1;
            }
        }
        let present: BTreeSet<usize> = self
            .units
            .values()
            .flat_map(|rs| rs.iter().map(|&(r, _)| r))
            .collect();
        let raters: Vec<usize> = order
            .iter()
            .copied()
            .filter(|r| present.contains(r))
            .collect();
        let mut pairs = Vec::new();
        for (x, &a) in raters.iter().enumerate() {
            for &b in &raters[x + 1..] {
                let mut table = vec![vec![0.0; k]; k];
                let mut n = 0usize;
                let mut same = 0usize;
                for rs in self.units.values() {
                    let ca = rs.iter().find(|(r, _)| *r == a).map(|&(_, c)| c);
                    let cb = rs.iter().find(|(r, _)| *r == b).map(|&(_, c)| c);
                    if let (Some(ca), Some(cb)) = (ca, cb) {
                        table[ca][cb] += 1.0;
                        n += 1;
                        same += usize::from(ca == cb);
                    }
                }
                if n > 0 {
                    pairs.push(PairReport {
                        a: names[a].clone(),
                        b: names[b].clone(),
                        units: n,
                        agreement: same as f64 / n as f64,
                        cohen_kappa: cohen_kappa(&table),
                    });
                }
            }
        }
        // Fleiss over the units with the most common number of ratings.
        let mut by_m: BTreeMap<usize, usize> = BTreeMap::new();
        for u in cats.iter().filter(|u| u.len() >= 2) {
            *by_m.entry(u.len()).or_default() += 1;
        }
        let units_multi: usize = by_m.values().sum();
        let fleiss = by_m.iter().max_by_key(|&(m, n)| (*n, *m)).map(|(&m, &n)| {
            let table: Vec<Vec<u64>> = cats
                .iter()
                .filter(|u| u.len() == m)
                .map(|u| {
                    let mut row = vec![0u64; k];
                    for &c in u {
                        row[c] += 1;
                    }
                    row
                })
                .collect();
            FleissReport {
                raters_per_unit: m,
                units: n,
                units_left_out: units_multi - n,
                kappa: fleiss_kappa(&table).map(|f| f.kappa),
            }
        });
        let values: Vec<f64> = (0..k).map(|c| c as f64).collect();
        FieldReport {
            benchmark: self.benchmark.name(),
            field: self.field,
            unit: self.unit,
            categories: self.categories.clone(),
            counts,
            raters: raters.iter().map(|&r| names[r].clone()).collect(),
            units_rated: cats.len(),
            units_multi,
            percent_agreement: percent_agreement(&cats),
            pairs,
            fleiss,
            krippendorff_alpha: AlphaReport {
                nominal: krippendorff_alpha(&cats, &values, Level::Nominal),
                ordinal: if self.ordinal {
                    krippendorff_alpha(&cats, &values, Level::Ordinal)
                } else {
                    None
                },
            },
        }
    }
}

/// What a benchmark's variables are rated from, for one item.
pub(crate) struct ItemRatings<'a> {
    /// The item's index in the store.
    pub(crate) i: usize,
    pub(crate) item: &'a Item,
    /// The item's id (or `#line`), for warnings.
    pub(crate) label: &'a str,
    /// The reviews that count (adjudications left out), by rater index.
    pub(crate) reviews: &'a [(usize, &'a Review)],
    /// Every rater's name, by index.
    pub(crate) raters: &'a IndexSet<String>,
    /// The LLM judge's rater index.
    pub(crate) judge: usize,
    pub(crate) warnings: &'a mut Vec<String>,
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

    let (j_bonus, j_penalty) = (&vars.chartom_qa.j_bonus, &vars.chartom_qa.j_penalty);
    let judge_report = (vars.chartom_qa.judged > 0).then(|| JudgeReport {
        judge: JUDGE,
        responses: vars.chartom_qa.judged,
        unparsable_bonus: vars.chartom_qa.unparsable,
        fields: [j_bonus, j_penalty]
            .into_iter()
            .filter(|v| !v.units.is_empty())
            .map(|v| v.report(&names, &with_judge))
            .collect(),
        versus: humans
            .iter()
            .map(|&h| VersusReport {
                reviewer: names[h].clone(),
                bonus: versus(j_bonus, h, judge),
                penalty: versus(j_penalty, h, judge),
            })
            .filter(|v| v.bonus.is_some() || v.penalty.is_some())
            .collect(),
        raters: with_judge
            .iter()
            .map(|&r| rater_figures(&names[r], r, j_bonus, j_penalty))
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
