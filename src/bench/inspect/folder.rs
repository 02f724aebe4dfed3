//! A folder of Inspect logs given where a file is expected (`verdict DIR`): verdict opens
//! one log per session, so it lists the logs with the command that opens each
//! (docs/format.md, "Inspect AI logs"). A log is known by its first bytes, as `sniff`
//! knows it, without reading the rest: a ZIP named `.eval`, or a `.json` document that
//! starts `{`, a new line, then `"version"`.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::bench::kit::text::open_each_hint;

/// Does the file at `p` start as an Inspect log?
fn looks_like_log(p: &Path) -> bool {
    let ext = p
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let mut head = [0u8; 64];
    let n = std::fs::File::open(p)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    let head = &head[..n];
    match ext.as_deref() {
        Some("eval") => head.starts_with(b"PK\x03\x04"),
        Some("json") => {
            let t = String::from_utf8_lossy(head);
            let t = t.trim_start();
            t.starts_with('{')
                && t[1..]
                    .trim_start_matches([' ', '\t', '\r'])
                    .starts_with('\n')
                && t[1..].trim_start().starts_with("\"version\"")
        }
        _ => false,
    }
}

/// The Inspect logs in `dir`, sorted.
pub fn logs_in(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| r.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    found.retain(|p| p.is_file() && looks_like_log(p));
    found.sort();
    found
}

/// What to tell a reviewer who gave the folder `dir`: the logs and the command that opens
/// each, when `dir` holds Inspect logs.
pub fn hint(dir: &Path) -> Option<String> {
    open_each_hint(&logs_in(dir), |n, s| format!("{n} Inspect AI log{s}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The real logs' folder: every `.eval` and `.json` log listed, nothing else.
    #[test]
    fn a_folder_of_logs_lists_each_log_with_its_command() {
        let d = tempfile::tempdir().unwrap();
        let real =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/real-logs/inspect/logs");
        for f in ["vr_mc.eval", "vr_mc.json"] {
            std::fs::copy(real.join(f), d.path().join(f)).unwrap();
        }
        std::fs::write(d.path().join("notes.json"), "{\"a\": 1}").unwrap();
        std::fs::write(d.path().join("x.eval"), "not a zip").unwrap();
        let h = hint(d.path()).unwrap();
        let lines: Vec<&str> = h.lines().collect();
        assert_eq!(lines.len(), 3, "{h}");
        assert!(lines[0].contains("2 Inspect AI logs"), "{h}");
        assert!(lines[1].ends_with("vr_mc.eval"), "{h}");
        assert!(lines[2].ends_with("vr_mc.json"), "{h}");
        let empty = tempfile::tempdir().unwrap();
        assert_eq!(hint(empty.path()), None);
    }
}
