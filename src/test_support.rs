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
