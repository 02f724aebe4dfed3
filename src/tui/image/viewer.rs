//! "Open in the system viewer".

use std::ffi::{OsStr, OsString};
use std::path::Path;
use std::process::{Command, Stdio};

/// Environment variable naming a program to open images with instead of the system viewer.
pub const VIEWER_ENV: &str = "VERDICT_IMAGE_VIEWER";

/// Open `path` in the system viewer (`xdg-open` on Linux and the BSDs, `open` on macOS,
/// `start` on Windows; `VERDICT_IMAGE_VIEWER` overrides), detached: its own process
/// group, stdio to /dev/null, never waited for on this thread. `Err` with a clear message
/// if the file is missing or not a regular file, there is no graphical display, or the viewer is not installed.
pub fn open_external(path: &Path) -> Result<(), String> {
    // A FIFO or a device would hang or confuse the viewer: only regular files.
    super::decode::regular_metadata(path)?;
    if let Some(viewer) = std::env::var_os(VIEWER_ENV).filter(|v| !v.is_empty()) {
        return spawn_viewer(&viewer, &[], path);
    }
    if cfg!(target_os = "macos") {
        spawn_viewer(OsStr::new("open"), &[], path)
    } else if cfg!(windows) {
        let args = [OsString::from("/C"), "start".into(), "".into()];
        spawn_viewer(OsStr::new("cmd"), &args, path)
    } else {
        let display = |v: &str| std::env::var_os(v).is_some_and(|s| !s.is_empty());
        if !display("DISPLAY") && !display("WAYLAND_DISPLAY") {
            return Err(format!(
                "cannot open a viewer: no graphical display (DISPLAY and WAYLAND_DISPLAY are unset); set {VIEWER_ENV} to a program"
            ));
        }
        spawn_viewer(OsStr::new("xdg-open"), &[], path)
    }
}

pub(super) fn spawn_viewer(program: &OsStr, args: &[OsString], path: &Path) -> Result<(), String> {
    let mut command = Command::new(program);
    command
        .args(args)
        .arg(path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        // Out of the terminal's foreground process group: Ctrl-C / Ctrl-Z in the
        // reviewer do not reach the viewer.
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let shown = program.to_string_lossy();
    let mut child = command.spawn().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            format!("no image viewer: `{shown}` not found (install it, or set {VIEWER_ENV})")
        } else {
            format!("cannot start image viewer `{shown}`: {e}")
        }
    })?;
    // Reap it in the background so it never lingers as a zombie.
    let reaper = std::thread::Builder::new()
        .name("verdict-viewer".into())
        .spawn(move || {
            let _ = child.wait();
        });
    if let Err(e) = reaper {
        log::warn!("cannot start a thread to wait for the image viewer: {e}");
    }
    Ok(())
}
