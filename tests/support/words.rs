//! A long text for the tests of issue 21's long lines (`#[path = "support/words.rs"] mod
//! words;`): the same words in a fixed order, so a test reads the same text every run.

/// Words, `bytes` long in all, on one line.
pub fn words(bytes: usize) -> String {
    let w = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
    ];
    let mut s = String::with_capacity(bytes + 16);
    let mut k = 0usize;
    while s.len() < bytes {
        s.push_str(w[k % w.len()]);
        s.push(' ');
        k = k.wrapping_mul(31).wrapping_add(7) % 1009;
    }
    s
}
