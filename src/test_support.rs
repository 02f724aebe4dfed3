//! What the unit tests of several modules share.

use std::path::Path;

/// Run the ignored test `name` of this test binary in a child process (for what changes
/// process-wide state, such as a file-size limit), with `env` set; fails if it fails.
pub(crate) fn run_child(name: &str, env: &[(&str, &Path)]) {
    let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
    cmd.args([
        "--ignored",
        "--exact",
        "--nocapture",
        "--test-threads=1",
        name,
    ]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The unit tests' seeded generator: `team::split::SplitMix64`'s sequence, with a plain
/// modulo for `below` (the sequences the tests were written with).
pub(crate) struct Rng(crate::team::split::SplitMix64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(crate::team::split::SplitMix64::new(seed))
    }
    /// A number in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n as u64) as usize
    }
    pub(crate) fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len())]
    }
    pub(crate) fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}
