//! Protocol choice, the graphics query and its answers, and the render settings.

use super::tmux::*;

use ratatui_image::FontSize;
use ratatui_image::picker::ProtocolType;

/// Environment variable with the same values as `--image-protocol`.
pub const PROTOCOL_ENV: &str = "VERDICT_IMAGE_PROTOCOL";

/// Which graphics protocol to draw images with (`--image-protocol`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProtocolChoice {
    /// Ask the terminal (kitty, sixel or iTerm2 if it answers; half-blocks otherwise).
    Auto,
    Kitty,
    Sixel,
    Iterm2,
    /// Unicode half-blocks with colours: works in every colour terminal, no query.
    Halfblocks,
    /// No inline images (a placeholder; the viewer key still works).
    None,
}

impl ProtocolChoice {
    /// `VERDICT_IMAGE_PROTOCOL=auto|kitty|sixel|iterm2|halfblocks|none` (case-insensitive).
    /// Unset or unrecognised: `None` (an unrecognised value is logged).
    pub fn from_env() -> Option<ProtocolChoice> {
        let value = std::env::var_os(PROTOCOL_ENV)?;
        let parsed = value.to_str().and_then(Self::parse);
        if parsed.is_none() {
            log::warn!(
                "ignoring {PROTOCOL_ENV}={value:?}: expected auto, kitty, sixel, iterm2, halfblocks or none"
            );
        }
        parsed
    }

    /// Parse one of the `--image-protocol` values (case-insensitive, surrounding spaces ok).
    pub fn parse(s: &str) -> Option<ProtocolChoice> {
        <Self as clap::ValueEnum>::from_str(s.trim(), true).ok()
    }

    pub fn name(self) -> &'static str {
        match self {
            ProtocolChoice::Auto => "auto",
            ProtocolChoice::Kitty => "kitty",
            ProtocolChoice::Sixel => "sixel",
            ProtocolChoice::Iterm2 => "iterm2",
            ProtocolChoice::Halfblocks => "halfblocks",
            ProtocolChoice::None => "none",
        }
    }
}

/// The render settings to start with, and the name of their protocol.
///
/// No choice ever waits for the terminal. `Auto` starts with half-blocks: the caller
/// writes [`probe_query`] once the input reader runs, feeds the terminal's replies to a
/// [`Probe`], and upgrades the image worker ([`ImageHandle::reconfigure`](super::ImageHandle::reconfigure)) when and if
/// the answer comes. A named protocol is used as named.
///
/// Inside tmux, graphics sequences are wrapped in tmux passthrough; see
/// [`TmuxPassthrough`] for when `allow-passthrough` is switched on.
pub fn make_render(choice: ProtocolChoice) -> (Option<Render>, &'static str) {
    let protocol = match choice {
        ProtocolChoice::None => return (None, "none"),
        ProtocolChoice::Halfblocks | ProtocolChoice::Auto => ProtocolType::Halfblocks,
        ProtocolChoice::Kitty => ProtocolType::Kitty,
        ProtocolChoice::Sixel => ProtocolType::Sixel,
        ProtocolChoice::Iterm2 => ProtocolType::Iterm2,
    };
    let tmux = tmux_from_env();
    let render = Render {
        protocol,
        font: font_size_from_ioctl().unwrap_or(CONSERVATIVE_FONT),
        tmux: tmux && protocol != ProtocolType::Halfblocks,
        // `o=z` is part of the base kitty graphics protocol; a named kitty gets it.
        compress: protocol == ProtocolType::Kitty,
    };
    let name = render.name();
    log::info!(
        "images: {name} (chosen: {}, font {}x{} px, tmux {tmux})",
        choice.name(),
        render.font.width,
        render.font.height,
    );
    (Some(render), name)
}

/// The graphics query for `auto`, written once at start-up (never waited for): kitty
/// graphics (image 31) and its `o=z` compression (image 32), primary device attributes
/// (sixel), the cell size in pixels and the window size in pixels, then a status
/// report whose answer (`CSI 0 n`) closes the batch. Inside tmux, the kitty queries go
/// through passthrough to the outer terminal; device attributes and sizes are asked of
/// tmux itself (tmux answers them; the outer terminal's answers never reach the pane).
pub fn probe_query(tmux: bool) -> String {
    let (start, esc, end) = if tmux {
        ("\x1bPtmux;", "\x1b\x1b", "\x1b\\")
    } else {
        ("", "\x1b", "")
    };
    let mut q = String::new();
    if !kitty_and_sixel_blacklisted() {
        q.push_str(start);
        q.push_str(&format!("{esc}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA{esc}\\"));
        q.push_str(&format!(
            "{esc}_Gi=32,s=1,v=1,a=q,t=d,f=24,o=z;eJxjYGAAAAADAAE={esc}\\"
        ));
        q.push_str(end);
        q.push_str("\x1b[c");
    }
    q.push_str("\x1b[16t\x1b[14t\x1b[5n");
    q
}

/// The query for a named sixel or iTerm2 protocol when the tty gives no pixel size: the
/// cell size, then a status report. Never waited for.
pub fn cell_size_query() -> &'static str {
    "\x1b[16t\x1b[14t\x1b[5n"
}

/// WezTerm and Konsole answer the kitty and sixel queries but draw them wrongly (as
/// ratatui-image's compatibility notes say): they get iTerm2 or half-blocks.
pub(super) fn kitty_and_sixel_blacklisted() -> bool {
    let set = |v: &str| std::env::var_os(v).is_some_and(|s| !s.is_empty());
    set("WEZTERM_EXECUTABLE") || set("KONSOLE_VERSION")
}

pub(super) fn iterm2_from_env() -> bool {
    let has =
        |v: &str, any: &[&str]| std::env::var(v).is_ok_and(|s| any.iter().any(|a| s.contains(a)));
    has(
        "TERM_PROGRAM",
        &[
            "iTerm",
            "WezTerm",
            "mintty",
            "vscode",
            "Tabby",
            "Hyper",
            "rio",
            "Bobcat",
            "WarpTerminal",
        ],
    ) || has("LC_TERMINAL", &["iTerm"])
}

/// The terminal's answers to [`probe_query`] / [`cell_size_query`], gathered as they
/// come (the input reader hands every reply here; none is ever a key).
#[derive(Debug, Default, Clone)]
pub struct Probe {
    pub(super) kitty: bool,
    pub(super) kitty_compression: bool,
    pub(super) sixel: bool,
    pub(super) cell: Option<FontSize>,
    pub(super) window_px: Option<(u16, u16)>,
}

impl Probe {
    /// Take one reply. True when it closes a batch (the status report).
    pub fn take(&mut self, reply: &crate::tui::input::Reply) -> bool {
        use crate::tui::input::Reply;
        match *reply {
            Reply::KittyGraphics { id: 31, ok } => self.kitty |= ok,
            Reply::KittyGraphics { id: 32, ok } => self.kitty_compression |= ok,
            Reply::DeviceAttributes(ref attrs) => self.sixel |= attrs.contains(&4),
            Reply::CellSize { width, height } => {
                self.cell = Some(FontSize::new(width, height));
            }
            Reply::WindowPixels { width, height } => self.window_px = Some((width, height)),
            Reply::StatusOk => return true,
            _ => {}
        }
        false
    }

    /// The cell size in pixels: answered, else the window's pixels over its cells.
    pub fn font(&self, cols: u16, rows: u16) -> Option<FontSize> {
        self.cell.or_else(|| {
            let (w, h) = self.window_px?;
            (cols > 0 && rows > 0 && w >= cols && h >= rows)
                .then(|| FontSize::new(w / cols, h / rows))
        })
    }

    /// The protocol `auto` picks from the answers: kitty, else sixel, else iTerm2 when
    /// the environment names a terminal that draws it, else half-blocks.
    pub fn protocol(&self) -> ProtocolType {
        let blacklisted = kitty_and_sixel_blacklisted();
        if self.kitty && !blacklisted {
            ProtocolType::Kitty
        } else if self.sixel && !blacklisted {
            ProtocolType::Sixel
        } else if iterm2_from_env() {
            ProtocolType::Iterm2
        } else {
            ProtocolType::Halfblocks
        }
    }

    /// The render settings for these answers (`tmux`: inside tmux).
    pub fn render(&self, protocol: ProtocolType, cols: u16, rows: u16, tmux: bool) -> Render {
        let font = self
            .font(cols, rows)
            .or_else(font_size_from_ioctl)
            .unwrap_or(CONSERVATIVE_FONT);
        Render {
            protocol,
            font,
            // Sixel asked of tmux is drawn by tmux itself: no passthrough.
            tmux: tmux && protocol != ProtocolType::Sixel,
            compress: protocol == ProtocolType::Kitty && self.kitty_compression,
        }
    }
}

/// The cell size assumed when the terminal tells none: small, so an image sized with it
/// never overflows its pane in fonts down to 6x12 pixels (it is drawn smaller in larger
/// fonts). Kitty and iTerm2 are placed by cells and scaled by the terminal, so only
/// their sharpness depends on it.
pub const CONSERVATIVE_FONT: FontSize = FontSize::new(6, 12);

/// Whether the tty's window-size ioctl gives the pixel size.
pub fn font_known() -> bool {
    font_size_from_ioctl().is_some()
}

pub(super) fn font_size_from_ioctl() -> Option<FontSize> {
    let ws = crossterm::terminal::window_size().ok()?;
    if ws.columns == 0 || ws.rows == 0 {
        return None;
    }
    let (w, h) = (ws.width / ws.columns, ws.height / ws.rows);
    (w > 0 && h > 0).then(|| FontSize::new(w, h))
}

/// How images are drawn: the protocol, the cell size in pixels it is scaled for,
/// whether its sequences go through tmux passthrough, and kitty `o=z` compression.
#[derive(Clone, Copy, Debug)]
pub struct Render {
    pub protocol: ProtocolType,
    pub font: FontSize,
    pub tmux: bool,
    pub compress: bool,
}

impl PartialEq for Render {
    fn eq(&self, other: &Render) -> bool {
        self.protocol == other.protocol
            && (self.font.width, self.font.height) == (other.font.width, other.font.height)
            && self.tmux == other.tmux
            && self.compress == other.compress
    }
}

impl Render {
    pub fn halfblocks() -> Render {
        Render {
            protocol: ProtocolType::Halfblocks,
            font: FontSize::new(10, 20),
            tmux: false,
            compress: false,
        }
    }

    /// The display name of the protocol.
    pub fn name(&self) -> &'static str {
        match self.protocol {
            ProtocolType::Kitty => "kitty",
            ProtocolType::Sixel => "sixel",
            ProtocolType::Iterm2 => "iterm2",
            ProtocolType::Halfblocks => "halfblocks",
        }
    }
}
