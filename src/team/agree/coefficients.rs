//! The agreement coefficients on plain category indices: Cohen's and Fleiss' kappa,
//! Krippendorff's alpha, percent agreement, and the median.

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
