//! tmux: detection and the `allow-passthrough` pane option.

use std::process::{Command, Stdio};

/// Inside tmux: `TMUX` set, or `TERM` / `TERM_PROGRAM` naming tmux.
pub fn tmux_from_env() -> bool {
    let var = |v: &str| std::env::var(v).unwrap_or_default();
    !var("TMUX").is_empty() || var("TERM").starts_with("tmux") || var("TERM_PROGRAM") == "tmux"
}

/// `tmux show|set -p …` aimed at this process's pane (`TMUX_PANE`): without `-t`, tmux
/// picks the session's active pane, which is another one when verdict runs in a
/// background window.
pub(super) fn with_pane(args: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    if let Ok(pane) = std::env::var("TMUX_PANE")
        && !pane.is_empty()
    {
        out.insert(2, "-t".into());
        out.insert(3, pane);
    }
    out
}

/// tmux's `allow-passthrough` pane option, switched on only while a protocol that needs
/// it is in use, and put back as it was by [`TmuxPassthrough::restore`].
#[derive(Debug, Default)]
pub struct TmuxPassthrough {
    /// The value before we changed it (`None`: not changed).
    previous: Option<String>,
}

impl TmuxPassthrough {
    /// Switch passthrough on for this pane. `invisible`: also while the pane is not
    /// visible (`all`, tmux 3.4+), so a kitty image sent while its window is hidden is
    /// not lost (its placeholders show it later); tmux 3.3 knows only `on`. Never for
    /// sixel / iTerm2, which would paint over whatever window is visible. `Err` with a
    /// message for the reviewer when it cannot be switched on (no `tmux` on PATH, or
    /// tmux refused): images then need half-blocks.
    pub fn enable(&mut self, invisible: bool) -> Result<(), String> {
        let tmux = |args: &[&str]| {
            Command::new("tmux")
                .args(with_pane(args))
                .stdin(Stdio::null())
                .stderr(Stdio::null())
                .output()
        };
        let current = match tmux(&["show", "-p", "-v", "allow-passthrough"]) {
            Ok(out) => String::from_utf8_lossy(&out.stdout).trim().to_string(),
            Err(e) => {
                return Err(format!(
                    "inline images in tmux need `tmux` on PATH to allow passthrough ({e}); using half-blocks"
                ));
            }
        };
        if current == "all" || (current == "on" && !invisible) {
            return Ok(());
        }
        let wanted: &[&str] = if invisible { &["all", "on"] } else { &["on"] };
        for value in wanted {
            if value == &current {
                return Ok(());
            }
            if tmux(&["set", "-p", "allow-passthrough", value])
                .is_ok_and(|out| out.status.success())
            {
                log::info!("tmux: allow-passthrough {value} (was {current:?})");
                if self.previous.is_none() {
                    self.previous = Some(current);
                }
                return Ok(());
            }
        }
        Err(
            "tmux refused `set -p allow-passthrough on` (tmux 3.3 or later is needed); using half-blocks"
                .into(),
        )
    }

    /// Put the option back as it was (unset if it was not set for the pane).
    pub fn restore(&mut self) {
        let Some(before) = self.previous.take() else {
            return;
        };
        let args: Vec<&str> = if before.is_empty() {
            vec!["set", "-p", "-u", "allow-passthrough"]
        } else {
            vec!["set", "-p", "allow-passthrough", before.as_str()]
        };
        let _ = Command::new("tmux")
            .args(with_pane(&args))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}
