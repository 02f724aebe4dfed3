//! The figures of one categorical variable (`bench::kit::agree::Variable`).

use super::*;

impl Variable {
    pub(crate) fn report(&self, names: &[String], order: &[usize]) -> FieldReport {
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
        let pairs = self.pairs(names, &raters);
        let (units_multi, fleiss) = fleiss(&cats, k);
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

    /// Each pair of `raters` (in order) with units both rated: agreement and Cohen's kappa.
    fn pairs(&self, names: &[String], raters: &[usize]) -> Vec<PairReport> {
        let k = self.categories.len();
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
        pairs
    }
}

/// The units rated twice or more, and Fleiss's kappa over the units with the most common
/// number of ratings (`cats`: each unit's categories, of `k`).
fn fleiss(cats: &[Vec<usize>], k: usize) -> (usize, Option<FleissReport>) {
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
    (units_multi, fleiss)
}
