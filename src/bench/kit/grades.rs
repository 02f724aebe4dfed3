//! What the grading operations of several benchmarks share.

/// Automatic → correct → wrong → automatic (the overrides' cycle).
pub fn cycle(v: Option<bool>) -> Option<bool> {
    match v {
        None => Some(true),
        Some(true) => Some(false),
        Some(false) => None,
    }
}
