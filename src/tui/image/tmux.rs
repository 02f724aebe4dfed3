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

/// Where this process's tmux pane is drawn in the outer terminal, and whether it is
/// shown there. tmux writes passthrough data (sixel, iTerm2) to the outer terminal as
/// is, wherever its cursor happens to be, and never keeps it: the image has to be
/// placed by absolute position and drawn again whenever tmux redraws the pane.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PaneView {
    /// The pane's top left cell in the outer terminal (0-based).
    pub left: u16,
    pub top: u16,
    pub width: u16,
    pub height: u16,
    /// Its window is the current one of a session with a client attached.
    pub visible: bool,
    /// In copy mode (or another mode): tmux shows its own view, not the program's.
    pub in_mode: bool,
}

/// The newest [`PaneView`] from [`watch_pane`]; `None` when not watched.
static PANE: std::sync::Mutex<Option<PaneView>> = std::sync::Mutex::new(None);

/// Set by [`watch_pane`] when the pane changed, taken by [`take_pane_changed`].
static PANE_CHANGED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether the pane changed since last asked: sixel / iTerm2 images through tmux must
/// then be drawn again (the whole screen, as ratatui's diff would not resend them).
pub fn take_pane_changed() -> bool {
    PANE_CHANGED.swap(false, std::sync::atomic::Ordering::Relaxed)
}

/// Set by [`watch_pane`] when the pane is shown again after being hidden.
static PANE_SHOWN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether the pane was shown again since last asked: tmux 3.3 drops passthrough from
/// a hidden pane (`allow-passthrough on`; 3.4's `all` keeps it), so a kitty image
/// transmitted meanwhile must be transmitted again.
pub fn take_pane_shown() -> bool {
    PANE_SHOWN.swap(false, std::sync::atomic::Ordering::Relaxed)
}

/// The pane as last seen by [`watch_pane`].
pub fn pane_view() -> Option<PaneView> {
    *PANE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Write `seq` straight to the terminals of the tmux clients showing this pane's session
/// (their ttys), not through passthrough: tmux 3.3 drops passthrough from a pane it does
/// not show, and a kitty image placed directly there stayed drawn over the window shown
/// instead. Errors are logged and dropped.
pub fn write_to_clients(seq: &str) {
    use std::io::Write;
    let mut args = vec!["list-clients".to_string()];
    if let Ok(pane) = std::env::var("TMUX_PANE")
        && !pane.is_empty()
    {
        args.extend(["-t".to_string(), pane]);
    }
    args.extend(["-F".to_string(), "#{client_tty}".to_string()]);
    let out = std::process::Command::new("tmux").args(args).output();
    let Ok(out) = out else {
        return;
    };
    for tty in String::from_utf8_lossy(&out.stdout).lines() {
        let written = std::fs::OpenOptions::new()
            .write(true)
            .open(tty)
            .and_then(|mut f| f.write_all(seq.as_bytes()));
        if let Err(e) = written {
            log::warn!("tmux client {tty}: {e}");
        }
    }
}

/// Parse `tmux display -p` of `PANE_FORMAT`.
pub fn parse_pane_view(line: &str) -> Option<PaneView> {
    let f: Vec<&str> = line.split_whitespace().collect();
    let [
        left,
        top,
        width,
        height,
        active,
        attached,
        in_mode,
        status,
        position,
    ] = f[..]
    else {
        return None;
    };
    let n = |s: &str| s.parse::<u16>().ok();
    // The status line above the windows shifts them down (`status` is on, off or 2..5).
    let status_lines = match status {
        "off" => 0,
        "on" => 1,
        s => n(s).unwrap_or(1),
    };
    let shift = if position == "top" { status_lines } else { 0 };
    Some(PaneView {
        left: n(left)?,
        top: n(top)?.saturating_add(shift),
        width: n(width)?,
        height: n(height)?,
        visible: active == "1" && n(attached).unwrap_or(0) > 0,
        in_mode: in_mode == "1",
    })
}

const PANE_FORMAT: &str = "#{pane_left} #{pane_top} #{pane_width} #{pane_height} #{window_active} #{session_attached} #{pane_in_mode} #{status} #{status-position}";

/// How often [`watch_pane`] asks tmux.
const PANE_POLL: std::time::Duration = std::time::Duration::from_millis(300);

fn query_pane() -> Option<PaneView> {
    let out = Command::new("tmux")
        .args(with_pane(&["display", "-p", PANE_FORMAT]))
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| parse_pane_view(&String::from_utf8_lossy(&out.stdout)))
        .flatten()
}

/// Ask tmux where this pane is, on a thread of its own every 300 ms (never on
/// the UI thread), and call `changed` whenever the answer changes: the pane moved or
/// was resized (a split), its window was hidden or shown again, it entered or left copy
/// mode, or a client attached. The caller then redraws sixel / iTerm2 images.
pub fn watch_pane(changed: Box<dyn Fn() + Send>) {
    let spawned = std::thread::Builder::new()
        .name("verdict-tmux-pane".into())
        .spawn(move || {
            let mut last = None;
            loop {
                let now = query_pane();
                if now != last {
                    log::debug!("tmux pane: {now:?}");
                    *PANE.lock().unwrap_or_else(|e| e.into_inner()) = now;
                    let shown = |v: Option<PaneView>| v.is_some_and(|v| v.visible);
                    if shown(now) && last.is_some() && !shown(last) {
                        PANE_SHOWN.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                    last = now;
                    PANE_CHANGED.store(true, std::sync::atomic::Ordering::Relaxed);
                    changed();
                }
                std::thread::sleep(PANE_POLL);
            }
        });
    if let Err(e) = spawned {
        log::warn!("cannot watch the tmux pane (images may land outside it): {e}");
    }
}

/// A sixel or iTerm2 sequence wrapped in tmux passthrough, drawn at cell (`x`, `y`) of
/// the pane: preceded, inside the passthrough, by an absolute cursor move to that cell
/// in the outer terminal. `None` when the data is not wrapped.
pub fn place_in_pane(data: &str, pane: PaneView, x: u16, y: u16) -> Option<String> {
    let rest = data.strip_prefix("\x1bPtmux;")?;
    Some(format!(
        "\x1bPtmux;\x1b\x1b[{};{}H{rest}",
        u32::from(pane.top) + u32::from(y) + 1,
        u32::from(pane.left) + u32::from(x) + 1
    ))
}

/// The colours tmux draws with in the terminal it is attached to (its client): 256 when
/// tmux knows the terminal has 256 colours or RGB (`client_termfeatures`), else what
/// the client's terminfo entry says (`tput -T <client_termname> colors`; `mlterm` says
/// 8, and tmux then maps every colour of a half-block image to one of 8). `None` when
/// tmux or tput does not tell.
pub fn tmux_client_colours() -> Option<u32> {
    let out = Command::new("tmux")
        .args(with_pane(&[
            "display",
            "-p",
            "#{client_termfeatures}|#{client_termname}",
        ]))
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let (features, name) = text.trim().split_once('|')?;
    client_colours(features, name, |name| {
        let out = Command::new("tput")
            .args(["-T", name, "colors"])
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        String::from_utf8_lossy(&out.stdout).trim().parse().ok()
    })
}

/// [`tmux_client_colours`] from tmux's answer; `terminfo` gives a terminal's colours.
pub(super) fn client_colours(
    features: &str,
    name: &str,
    terminfo: impl Fn(&str) -> Option<u32>,
) -> Option<u32> {
    if features.split(',').any(|f| f == "256" || f == "RGB") {
        return Some(256);
    }
    if name.is_empty()
        || name.contains(|c: char| !(c.is_ascii_alphanumeric() || "-_.+".contains(c)))
    {
        return None;
    }
    terminfo(name)
}
