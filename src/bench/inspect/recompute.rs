//! The figures of an Inspect log recomputed after score edits, as inspect_ai 0.3.285's
//! `recompute_metrics` (`log/_metric.py`, `_eval/task/results.py`) recomputes them: the
//! samples that have a score of the scorer (a failed sample has none: it is left out),
//! each sample's epochs reduced by each of the log's reducers (`reductions`), and each
//! reducer's metrics over the reduced values (`results.scores`, one entry per scorer and
//! reducer). A reducer or metric verdict cannot recompute keeps its figures exactly as
//! they were (docs/format.md, "Inspect AI logs").

use serde_json::{Map, Value, json};

use super::edit::{float, to_float};
use super::log::id_text;
use super::nonfinite;

/// A reducer of Inspect's built-ins (`scorer/_reducer/reducer.py`), by the name a log
/// gives it (`reducer_log_name`: `at_least_2` is `at_least(k=2)`), with its other
/// parameters at their defaults, as `recompute_metrics` makes it from the log's header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reducer {
    Mean,
    Median,
    Mode,
    Max,
    AtLeast(u64),
    PassAt(u64),
    PassK(u64),
}

impl Reducer {
    pub fn parse(name: &str) -> Option<Reducer> {
        Some(match name {
            "mean" => Reducer::Mean,
            "median" => Reducer::Median,
            "mode" => Reducer::Mode,
            "max" => Reducer::Max,
            _ => {
                let (base, k) = name.rsplit_once('_')?;
                let k: u64 = k.parse().ok().filter(|k| *k > 0)?;
                match base {
                    "at_least" => Reducer::AtLeast(k),
                    "pass_at" => Reducer::PassAt(k),
                    "pass_k" => Reducer::PassK(k),
                    _ => return None,
                }
            }
        })
    }

    /// One sample's epochs (its values, in epoch order) reduced, as the reducer types its
    /// result: a float (`mean`, `median`, `pass_at`, `pass_k`), one of the values (`mode`,
    /// `max`), 1 or 0 (`at_least`); `NaN` when no epoch is scored. `None` when a value is
    /// not a scalar (a list or an object: not recomputed).
    pub fn reduce(self, xs: &[&Value]) -> Option<Value> {
        if !xs.iter().all(|v| is_scalar(v)) {
            return None;
        }
        // Inspect's unscored value (a float NaN) is left out by every reducer.
        let scored: Vec<&Value> = xs.iter().copied().filter(|v| !is_nan(v)).collect();
        if scored.is_empty() {
            return Some(float(f64::NAN));
        }
        let floats: Vec<f64> = scored
            .iter()
            .map(|v| to_float(v).unwrap_or(0.0))
            .filter(|x| !x.is_nan())
            .collect();
        let stat = |f: &dyn Fn(&[f64]) -> f64| {
            Some(float(if floats.is_empty() {
                f64::NAN
            } else {
                f(&floats)
            }))
        };
        match self {
            Reducer::Mean => stat(&exact_mean),
            Reducer::Median => stat(&|xs| {
                let mut v = xs.to_vec();
                v.sort_by(f64::total_cmp);
                let n = v.len();
                if n % 2 == 1 {
                    v[n / 2]
                } else {
                    (v[n / 2 - 1] + v[n / 2]) / 2.0
                }
            }),
            Reducer::Mode => {
                // Python's Counter: values equal as Python compares them (1 == 1.0 ==
                // True) count together under the first; ties go to the first counted.
                let mut counts: Vec<(&Value, usize)> = Vec::new();
                for v in &scored {
                    match counts.iter_mut().find(|(k, _)| py_eq(k, v)) {
                        Some((_, n)) => *n += 1,
                        None => counts.push((v, 1)),
                    }
                }
                let best = counts.iter().map(|(_, n)| *n).max()?;
                counts
                    .iter()
                    .find(|(_, n)| *n == best)
                    .map(|(k, _)| (*k).clone())
            }
            Reducer::Max => {
                // the first of the greatest, as Python's max
                let mut best: Option<(&Value, f64)> = None;
                for v in &scored {
                    let x = to_float(v).unwrap_or(0.0);
                    if best.is_none_or(|(_, b)| x > b) {
                        best = Some((v, x));
                    }
                }
                best.map(|(v, _)| v.clone())
            }
            Reducer::AtLeast(k) => {
                let n = scored
                    .iter()
                    .filter(|v| to_float(v).unwrap_or(0.0) >= 1.0)
                    .count() as u64;
                Some(json!(if n >= k { 1 } else { 0 }))
            }
            Reducer::PassAt(k) => stat(&|xs| {
                let total = xs.len() as u64;
                let correct = xs.iter().filter(|x| **x >= 1.0).count() as u64;
                if total < k {
                    f64::NAN
                } else if total - correct < k {
                    1.0
                } else {
                    // 1 - prod(1 - k / arange(total - correct + 1, total + 1))
                    let p = (total - correct + 1..=total)
                        .map(|i| 1.0 - k as f64 / i as f64)
                        .fold(1.0, |a, b| a * b);
                    1.0 - p
                }
            }),
            Reducer::PassK(k) => stat(&|xs| {
                let total = xs.len() as u64;
                let correct = xs.iter().filter(|x| **x >= 1.0).count() as u64;
                if total < k {
                    f64::NAN
                } else {
                    comb(correct, k) as f64 / comb(total, k) as f64
                }
            }),
        }
    }
}

/// `math.comb(n, k)` (0 when k > n).
fn comb(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1u128, |acc, i| acc * (n - i) as u128 / (i + 1) as u128)
}

/// A value a reducer counts: a string, a number, a boolean (or Inspect's NaN, Infinity).
fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::String(_) | Value::Number(_) | Value::Bool(_))
}

/// Inspect's unscored value: a float NaN.
pub fn is_nan(v: &Value) -> bool {
    nonfinite::token(v) == Some("NaN")
}

/// Python's `==` on two scalar values.
fn py_eq(a: &Value, b: &Value) -> bool {
    let num = |v: &Value| match v {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
        v => nonfinite::token(v).and(to_float(v)),
    };
    match (num(a), num(b)) {
        (Some(x), Some(y)) => x == y,
        (None, None) => a == b,
        _ => false,
    }
}

/// Python's `statistics.mean` of floats: the exact sum divided by n, rounded once (an
/// error-free sum, then the quotient corrected by its remainder).
fn exact_mean(xs: &[f64]) -> f64 {
    if xs.iter().any(|x| !x.is_finite()) {
        // (an infinity: Python's sum of infinities, no rounding to correct)
        return xs.iter().sum::<f64>() / xs.len() as f64;
    }
    let (mut s, mut c) = (0.0f64, 0.0f64);
    for &x in xs {
        let t = s + x;
        c += if s.abs() >= x.abs() {
            (s - t) + x
        } else {
            (x - t) + s
        };
        s = t;
    }
    let n = xs.len() as f64;
    if c == 0.0 {
        // the sum is exact: one division, rounded once
        return s / n;
    }
    (s + c) / n + ((s - (s + c)) + c) / n
}

/// numpy's sum of a float array (`pairwise_sum`: eight accumulators up to 128 values,
/// halves above), which decides the last digits of `np.mean` and `np.std`.
fn numpy_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        a.iter().fold(0.0, |s, x| s + x)
    } else if n <= 128 {
        let mut r = [0.0f64; 8];
        r.copy_from_slice(&a[..8]);
        let mut i = 8;
        while i < n - n % 8 {
            for j in 0..8 {
                r[j] += a[i + j];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for x in &a[i..] {
            res += x;
        }
        res
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        numpy_sum(&a[..n2]) + numpy_sum(&a[n2..])
    }
}

/// numpy's variance with `ddof=1`.
fn numpy_var(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = numpy_sum(xs) / n;
    let d: Vec<f64> = xs.iter().map(|x| (x - mean) * (x - mean)).collect();
    numpy_sum(&d) / (n - 1.0)
}

/// A metric of Inspect's built-ins (`scorer/_metrics`), with no parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    Accuracy,
    Mean,
    Stderr,
    Std,
    Var,
}

impl Metric {
    /// The built-in a metric of `results` is, when verdict recomputes it: `m` (its entry)
    /// is named one of these, in no group, with no parameters; and `declared` (the
    /// scorer's metrics in the header's `eval.scorers`, when it lists them) names it
    /// `inspect_ai/<name>` without options (a task's own metric may be called
    /// `accuracy` too).
    pub fn of(key: &str, m: &Value, declared: Option<&[(String, bool)]>) -> Option<Metric> {
        let name = m.get("name").and_then(Value::as_str).unwrap_or(key);
        let plain = m
            .get("params")
            .is_none_or(|p| p.is_null() || p.as_object().is_some_and(Map::is_empty));
        if !plain || m.get("group").is_some_and(|g| !g.is_null()) {
            return None;
        }
        let metric = Metric::parse(name)?;
        if let Some(d) = declared {
            let full = format!("inspect_ai/{name}");
            if !d.iter().any(|(n, plain)| *n == full && *plain) {
                return None;
            }
        }
        Some(metric)
    }

    /// The metric named `name` ([`Metric::name`]).
    pub fn parse(name: &str) -> Option<Metric> {
        [
            Metric::Accuracy,
            Metric::Mean,
            Metric::Stderr,
            Metric::Std,
            Metric::Var,
        ]
        .into_iter()
        .find(|m| m.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            Metric::Accuracy => "accuracy",
            Metric::Mean => "mean",
            Metric::Stderr => "stderr",
            Metric::Std => "std",
            Metric::Var => "var",
        }
    }

    /// The metric of the scored samples' reduced values (NaN when there are none, as
    /// Inspect gives a metric of no samples).
    pub fn compute(self, xs: &[f64]) -> f64 {
        let n = xs.len();
        if n == 0 {
            return f64::NAN;
        }
        match self {
            // a plain running sum
            Metric::Accuracy => xs.iter().fold(0.0, |s, x| s + x) / n as f64,
            Metric::Mean => numpy_sum(xs) / n as f64,
            _ if n < 2 => 0.0,
            Metric::Stderr => numpy_var(xs).sqrt() / (n as f64).sqrt(),
            Metric::Std => numpy_var(xs).sqrt(),
            Metric::Var => numpy_var(xs),
        }
    }
}

/// A scorer's declared metrics: each name (`inspect_ai/accuracy`) with whether it has no
/// options.
type Declared = Vec<(String, bool)>;

/// What the header says of how a scorer's figures are made: the log's reducers
/// (`eval.config.epochs_reducer`) and the scorer's declared metrics (`eval.scorers`).
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// The task names reducers (else each entry's figures are reduced by the mean).
    named_reducers: bool,
    /// Scorer name → its metrics' names, each with whether it has no options; `None`
    /// when the header does not list the scorers.
    declared: Option<Vec<(String, Declared)>>,
}

impl Plan {
    pub fn of(header: &Value) -> Plan {
        let named_reducers = header
            .pointer("/eval/config/epochs_reducer")
            .is_some_and(|r| !r.is_null());
        let declared = header
            .pointer("/eval/scorers")
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .map(|s| {
                        let name = s.get("name").and_then(Value::as_str).unwrap_or("");
                        let metrics = s
                            .get("metrics")
                            .and_then(Value::as_array)
                            .into_iter()
                            .flatten()
                            .filter_map(|m| {
                                let n = m.get("name")?.as_str()?;
                                let plain = m.get("options").is_none_or(|o| {
                                    o.is_null() || o.as_object().is_some_and(Map::is_empty)
                                });
                                Some((n.to_string(), plain))
                            })
                            .collect();
                        (name.to_string(), metrics)
                    })
                    .collect()
            });
        Plan {
            named_reducers,
            declared,
        }
    }

    /// The reducer of a figure or reduction whose `reducer` is `name` (`null`: the mean,
    /// unless the task names reducers: then its metrics are over the epochs unreduced).
    /// `Err` with what verdict cannot recompute.
    pub fn reducer(&self, name: Option<&str>) -> Result<Reducer, String> {
        match name {
            Some(n) => Reducer::parse(n).ok_or_else(|| format!("reducer {n}")),
            None if !self.named_reducers => Ok(Reducer::Mean),
            None => Err("metrics over unreduced epochs".into()),
        }
    }

    /// The metric `key` (its entry `m`) of `scorer`'s figures, when verdict recomputes it.
    pub fn metric(&self, scorer: &str, key: &str, m: &Value) -> Option<Metric> {
        let declared = match &self.declared {
            None => None,
            Some(list) => Some(
                list.iter()
                    .find(|(n, _)| n == scorer)
                    .map(|(_, d)| d.as_slice())
                    .unwrap_or(&[]),
            ),
        };
        Metric::of(key, m, declared)
    }
}

/// Where a sample's epoch comes in the samples as inspect_ai reads a log (`sort_samples`:
/// by epoch, then id, a numeric id as text zero-filled to 20 places): the order its
/// running sums go in, which decides their last digits.
pub fn sample_order(id: &Value, epoch: u64) -> (u64, String) {
    let key = match id {
        Value::String(s) => s.clone(),
        v => {
            let t = v.to_string();
            match t.strip_prefix('-') {
                Some(d) => format!("-{d:0>19}"),
                None => format!("{t:0>20}"),
            }
        }
    };
    (epoch, key)
}

/// The scorer of a `results.scores` entry (`scorer`, else its `name`).
pub fn scorer_of(entry: &Value) -> Option<&str> {
    entry
        .get("scorer")
        .and_then(Value::as_str)
        .or_else(|| entry.get("name").and_then(Value::as_str))
}

/// Each sample's epochs reduced by `r`: (its id, its reduced value), the samples in the
/// order they first appear in `values` (each a sample id and a value: one per epoch
/// that has a score of the scorer). `None` when a value is not a scalar.
pub fn reduce_all(r: Reducer, values: &[(Value, Value)]) -> Option<Vec<(Value, Value)>> {
    let mut order: Vec<(String, Value)> = Vec::new();
    let mut by_id: Vec<Vec<&Value>> = Vec::new();
    for (id, v) in values {
        let key = id_text(id);
        let k = match order.iter().position(|(o, _)| *o == key) {
            Some(k) => k,
            None => {
                order.push((key, id.clone()));
                by_id.push(Vec::new());
                order.len() - 1
            }
        };
        by_id[k].push(v);
    }
    order
        .into_iter()
        .zip(by_id)
        .map(|((_, id), xs)| Some((id, r.reduce(&xs)?)))
        .collect()
}

/// The figures of one entry of `results.scores` from the reduced values: the scored
/// and unscored counts, and each metric (`None`: one verdict does not recompute).
pub fn entry_figures(
    reduced: &[(Value, Value)],
    metrics: &[Option<Metric>],
) -> (usize, usize, Vec<Option<f64>>) {
    let scored: Vec<f64> = reduced
        .iter()
        .filter(|(_, v)| !is_nan(v))
        .map(|(_, v)| to_float(v).unwrap_or(0.0))
        .collect();
    let figures = metrics
        .iter()
        .map(|m| m.map(|m| m.compute(&scored)))
        .collect();
    (scored.len(), reduced.len() - scored.len(), figures)
}

/// Recompute `scorer`'s figures from every sample's current value (`values`: a sample
/// id and a value, one per epoch that has a score of the scorer, in [`sample_order`]):
/// its entries of `reductions` and of `header.results.scores`, each by its own reducer.
/// Returns what it could not recompute (kept as it was), as `<reducer>: <what>`.
pub fn recompute(
    header: &mut Value,
    reductions: Option<&mut Value>,
    scorer: &str,
    values: &[(Value, Value)],
) -> Vec<String> {
    let plan = Plan::of(header);
    let mut kept = Vec::new();
    let reduce = |name: Option<&str>| -> Result<Vec<(Value, Value)>, String> {
        let r = plan.reducer(name)?;
        reduce_all(r, values).ok_or_else(|| "values that are not scalars".to_string())
    };
    if let Some(list) = reductions.and_then(Value::as_array_mut) {
        for red in list
            .iter_mut()
            .filter(|r| r.get("scorer").and_then(Value::as_str) == Some(scorer))
        {
            let name = red
                .get("reducer")
                .and_then(Value::as_str)
                .map(str::to_string);
            match reduce(name.as_deref()) {
                Ok(reduced) => set_reduction(red, &reduced),
                Err(why) => kept.push(format!("{} reductions: {why}", name.unwrap_or_default())),
            }
        }
    }
    let Some(scores) = header
        .pointer_mut("/results/scores")
        .and_then(Value::as_array_mut)
    else {
        return kept;
    };
    for entry in scores.iter_mut().filter(|s| scorer_of(s) == Some(scorer)) {
        let name = entry
            .get("reducer")
            .and_then(Value::as_str)
            .map(str::to_string);
        let label = name.clone().unwrap_or_default();
        if entry.get("name").and_then(Value::as_str) != Some(scorer) {
            // one key of a scorer whose values are objects
            kept.push(format!("{label}: the figures of a key of its values"));
            continue;
        }
        let reduced = match reduce(name.as_deref()) {
            Ok(r) => r,
            Err(why) => {
                kept.push(format!("{label}: {why}"));
                continue;
            }
        };
        let Some(metrics) = entry.get("metrics").and_then(Value::as_object) else {
            continue;
        };
        let which: Vec<Option<Metric>> = metrics
            .iter()
            .map(|(k, m)| plan.metric(scorer, k, m))
            .collect();
        let (scored, unscored, figures) = entry_figures(&reduced, &which);
        if entry.get("scored_samples").is_some_and(Value::is_number) {
            entry["scored_samples"] = json!(scored);
            entry["unscored_samples"] = json!(unscored);
        }
        let metrics = entry
            .get_mut("metrics")
            .and_then(Value::as_object_mut)
            .expect("read above");
        for ((k, m), x) in metrics.iter_mut().zip(figures) {
            match x {
                Some(x) => m["value"] = float(x),
                None => kept.push(format!("{label}: metric {k}")),
            }
        }
    }
    kept
}

/// Each sample's reduced value in a reduction (`reduced`: sample id and value).
fn set_reduction(red: &mut Value, reduced: &[(Value, Value)]) {
    for s in red
        .get_mut("samples")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        let Some(id) = s.get("sample_id").map(id_text) else {
            continue;
        };
        if let Some((_, v)) = reduced.iter().find(|(k, _)| id_text(k) == id) {
            s["value"] = v.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pass_at` as numpy computes it (`1 - np.prod(1 - k / np.arange(…))`), from
    /// numpy 2.4.6: (epochs, correct, k, value).
    #[test]
    fn pass_at_is_numpys() {
        for (total, correct, k, want) in [
            (3u64, 1u64, 1u64, 0.33333333333333326),
            (3, 1, 2, 0.6666666666666666),
            (5, 2, 2, 0.7),
            (10, 3, 4, 0.8333333333333334),
            (16, 5, 3, 0.7053571428571428),
            (7, 2, 3, 0.7142857142857143),
            (12, 4, 5, 0.9292929292929293),
        ] {
            let xs: Vec<Value> = (0..total)
                .map(|i| json!(if i < correct { "C" } else { "I" }))
                .collect();
            let refs: Vec<&Value> = xs.iter().collect();
            assert_eq!(
                Reducer::PassAt(k).reduce(&refs),
                Some(json!(want)),
                "{total} {correct} {k}"
            );
        }
    }

    #[test]
    fn reducers_type_their_results_as_inspect_does() {
        let v = [json!("C"), json!("I"), json!("C")];
        let r: Vec<&Value> = v.iter().collect();
        assert_eq!(Reducer::Mode.reduce(&r), Some(json!("C")));
        assert_eq!(Reducer::AtLeast(2).reduce(&r), Some(json!(1)));
        assert_eq!(Reducer::AtLeast(3).reduce(&r), Some(json!(0)));
        assert_eq!(Reducer::Max.reduce(&r), Some(json!("C")));
        assert_eq!(Reducer::Mean.reduce(&r), Some(json!(0.6666666666666666)));
        assert_eq!(Reducer::Median.reduce(&r), Some(json!(1.0)));
        assert_eq!(Reducer::PassK(2).reduce(&r), Some(json!(1.0 / 3.0)));
        // a tie: the first counted; NaN left out
        let v = [float(f64::NAN), json!("P"), json!("I")];
        let r: Vec<&Value> = v.iter().collect();
        assert_eq!(Reducer::Mode.reduce(&r), Some(json!("P")));
        assert_eq!(Reducer::Mean.reduce(&r), Some(json!(0.25)));
        let inf = [float(f64::INFINITY)];
        assert_eq!(
            Reducer::Mean.reduce(&[&inf[0]]),
            Some(float(f64::INFINITY)),
            "Python's statistics.mean([inf]) is inf"
        );
        let nan = [float(f64::NAN)];
        assert!(is_nan(&Reducer::Mean.reduce(&[&nan[0]]).unwrap()));
        // a list is not recomputed
        assert_eq!(Reducer::Mean.reduce(&[&json!([1, 2])]), None);
        assert_eq!(Reducer::parse("at_least_2"), Some(Reducer::AtLeast(2)));
        assert_eq!(Reducer::parse("pass_k_3"), Some(Reducer::PassK(3)));
        assert_eq!(Reducer::parse("majority"), None);
    }
}
