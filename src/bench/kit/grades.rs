//! What the grading operations of several benchmarks share.

/// Automatic → correct → wrong → automatic (the overrides' cycle).
pub fn cycle(v: Option<bool>) -> Option<bool> {
    match v {
        None => Some(true),
        Some(true) => Some(false),
        Some(false) => None,
    }
}

/// Each two of a sample's grades that differ, named `a ≠ b` in the grades' order (the
/// reviewer's "disagree" filter: two Inspect scorers, two metrics of an lm-eval line).
pub fn disagreements(grades: &[(&str, f64)]) -> Vec<String> {
    let mut out = Vec::new();
    for (k, (a, x)) in grades.iter().enumerate() {
        for (b, y) in &grades[k + 1..] {
            if x != y {
                out.push(format!("{a} ≠ {b}"));
            }
        }
    }
    out
}
