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
        // Until the terminal's version says it is a kitty without placeholders.
        kitty_direct: false,
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

/// The graphics query for `auto`, written once at start-up (never waited for): the
/// terminal's version (XTVERSION: kitty before 0.28 has no Unicode placeholders, and
/// Konsole and WezTerm name themselves), kitty graphics (image 31) and its `o=z`
/// compression (image 32), primary device attributes (sixel), the cell size in pixels
/// and the window size in pixels, then a status report whose answer (`CSI 0 n`) closes
/// the batch.
///
/// Inside tmux (`tmux`: passthrough allowed), device attributes and sizes are asked of
/// tmux itself (tmux answers them; sixel in its answer means tmux draws sixel itself),
/// then the version, kitty, device-attribute and status queries go through passthrough
/// to the outer terminal, whose answers come back after tmux's own (see [`Probe`]).
pub fn probe_query(tmux: bool) -> String {
    let graphics = !kitty_and_sixel_blacklisted();
    let outer = |esc: &str| {
        let mut q = format!("{esc}[>q");
        if graphics {
            q.push_str(&format!("{esc}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA{esc}\\"));
            q.push_str(&format!(
                "{esc}_Gi=32,s=1,v=1,a=q,t=d,f=24,o=z;eJxjYGAAAAADAAE={esc}\\"
            ));
        }
        q
    };
    let mut q = String::new();
    if tmux {
        if graphics {
            q.push_str("\x1b[c");
        }
        q.push_str("\x1b[16t\x1b[14t\x1b[5n");
        q.push_str("\x1bPtmux;");
        q.push_str(&outer("\x1b\x1b"));
        if graphics {
            q.push_str("\x1b\x1b[c");
        }
        q.push_str("\x1b\x1b[5n\x1b\\");
    } else {
        q.push_str(&outer("\x1b"));
        if graphics {
            q.push_str("\x1b[c");
        }
        q.push_str("\x1b[16t\x1b[14t\x1b[5n");
    }
    q
}

/// The query for a named kitty protocol: the terminal's version only (through
/// passthrough inside tmux), then a status report. Never waited for.
pub fn version_query(tmux: bool) -> &'static str {
    if tmux {
        "\x1bPtmux;\x1b\x1b[>q\x1b\x1b[5n\x1b\\"
    } else {
        "\x1b[>q\x1b[5n"
    }
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
///
/// Inside tmux the answers come in two batches, each closed by a status report: tmux's
/// own (it answers device attributes, sizes and its version itself, at once), then the
/// outer terminal's, asked through passthrough, whose answers tmux hands to the pane
/// after its own (seen with tmux 3.3a in xterm 379, mlterm 3.9 and kitty 0.26.5).
#[derive(Debug, Default, Clone)]
pub struct Probe {
    /// Inside tmux: answers after the first status report are the outer terminal's.
    pub(super) tmux: bool,
    /// Status reports seen (batches closed).
    pub(super) closed: u32,
    pub(super) kitty: bool,
    pub(super) kitty_compression: bool,
    /// Sixel in the first batch's device attributes: the terminal's own, or tmux's
    /// (tmux built with sixel draws it itself).
    pub(super) sixel: bool,
    /// Sixel in the outer terminal's device attributes, asked through tmux passthrough.
    pub(super) outer_sixel: bool,
    /// The terminal's XTVERSION answer (the outer terminal's inside tmux).
    pub(super) version: Option<String>,
    pub(super) cell: Option<FontSize>,
    pub(super) window_px: Option<(u16, u16)>,
}

impl Probe {
    /// `tmux`: the query went to tmux, with the outer terminal's part in passthrough.
    pub fn new(tmux: bool) -> Probe {
        Probe {
            tmux,
            ..Probe::default()
        }
    }

    /// Whether this answer is the outer terminal's (inside tmux, after tmux's batch).
    fn outer(&self) -> bool {
        self.tmux && self.closed > 0
    }

    /// Take one reply. True when it closes a batch (the status report).
    pub fn take(&mut self, reply: &crate::tui::input::Reply) -> bool {
        use crate::tui::input::Reply;
        match *reply {
            Reply::KittyGraphics { id: 31, ok } => self.kitty |= ok,
            Reply::KittyGraphics { id: 32, ok } => self.kitty_compression |= ok,
            Reply::DeviceAttributes(ref attrs) if self.outer() => {
                self.outer_sixel |= attrs.contains(&4)
            }
            Reply::DeviceAttributes(ref attrs) => self.sixel |= attrs.contains(&4),
            // tmux's own version says nothing of the terminal it runs in.
            Reply::TerminalVersion(ref v) if !(self.tmux && v.starts_with("tmux")) => {
                self.version = Some(v.clone())
            }
            // Sizes come from tmux (the pane's cells), never the outer terminal's window.
            Reply::CellSize { width, height } if !self.outer() => {
                self.cell = Some(FontSize::new(width, height));
            }
            Reply::WindowPixels { width, height } if !self.outer() => {
                self.window_px = Some((width, height))
            }
            Reply::StatusOk => {
                self.closed += 1;
                return true;
            }
            _ => {}
        }
        false
    }

    /// Forget the sizes answered: the font changed since (the tty's size is newer).
    pub fn forget_sizes(&mut self) {
        self.cell = None;
        self.window_px = None;
    }

    /// Whether every batch asked for has been answered (inside tmux: the outer
    /// terminal's too).
    pub fn complete(&self) -> bool {
        self.closed >= if self.tmux { 2 } else { 1 }
    }

    /// The cell size in pixels: answered, else the window's pixels over its cells.
    pub fn font(&self, cols: u16, rows: u16) -> Option<FontSize> {
        self.cell.or_else(|| {
            let (w, h) = self.window_px?;
            (cols > 0 && rows > 0 && w >= cols && h >= rows)
                .then(|| FontSize::new(w / cols, h / rows))
        })
    }

    /// Whether the terminal named itself as one that answers the kitty and sixel
    /// queries but draws them wrongly (as [`kitty_and_sixel_blacklisted`]).
    fn named_blacklisted(&self) -> bool {
        self.version.as_deref().is_some_and(|v| {
            let v = v.to_ascii_lowercase();
            v.starts_with("konsole") || v.starts_with("wezterm")
        })
    }

    /// Whether the terminal named itself as Konsole, which keeps sixel and iTerm2
    /// pictures under text and erased cells (only a full clear or a kitty-protocol
    /// delete takes them away).
    pub fn keeps_pictures_under_text(&self) -> bool {
        self.version
            .as_deref()
            .is_some_and(|v| v.to_ascii_lowercase().starts_with("konsole"))
    }

    /// Whether kitty images must be placed directly: the terminal says it is kitty
    /// older than 0.28, which has no Unicode placeholders (it would show a grid of
    /// missing-glyph boxes). Any other terminal with kitty graphics gets placeholders.
    pub fn kitty_direct(&self) -> bool {
        self.version
            .as_deref()
            .is_some_and(kitty_without_placeholders)
    }

    /// The protocol `auto` picks from the answers: kitty, else sixel (drawn by the
    /// terminal, or by tmux itself, or by the outer terminal through passthrough), else
    /// iTerm2 when the environment names a terminal that draws it, else half-blocks.
    pub fn protocol(&self) -> ProtocolType {
        let blacklisted = kitty_and_sixel_blacklisted() || self.named_blacklisted();
        if self.kitty && !blacklisted {
            ProtocolType::Kitty
        } else if (self.sixel || self.outer_sixel) && !blacklisted {
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
            // Sixel tmux itself answered is drawn by tmux: no passthrough.
            tmux: tmux && !(protocol == ProtocolType::Sixel && self.sixel),
            compress: protocol == ProtocolType::Kitty && self.kitty_compression,
            kitty_direct: protocol == ProtocolType::Kitty && self.kitty_direct(),
        }
    }
}

/// `kitty(0.26.5)` and other kitty versions before 0.28.0 (no Unicode placeholders).
pub fn kitty_without_placeholders(version: &str) -> bool {
    let Some(rest) = version.strip_prefix("kitty(") else {
        return false;
    };
    let mut parts = rest
        .trim_end_matches(')')
        .split('.')
        .map(|n| n.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(major), Some(minor)) => (major, minor) < (0, 28),
        _ => false,
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

/// The cell size the tty's window-size ioctl gives now (`None` where it tells no pixels).
pub fn cell_size_from_tty() -> Option<FontSize> {
    font_size_from_ioctl()
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
/// whether its sequences go through tmux passthrough, kitty `o=z` compression, and
/// whether a kitty image is placed directly at the cursor (kitty before 0.28, which has
/// no Unicode placeholders) rather than by placeholder cells.
#[derive(Clone, Copy, Debug)]
pub struct Render {
    pub protocol: ProtocolType,
    pub font: FontSize,
    pub tmux: bool,
    pub compress: bool,
    pub kitty_direct: bool,
}

impl PartialEq for Render {
    fn eq(&self, other: &Render) -> bool {
        self.protocol == other.protocol
            && (self.font.width, self.font.height) == (other.font.width, other.font.height)
            && self.tmux == other.tmux
            && self.compress == other.compress
            && self.kitty_direct == other.kitty_direct
    }
}

impl Render {
    pub fn halfblocks() -> Render {
        Render {
            protocol: ProtocolType::Halfblocks,
            font: FontSize::new(10, 20),
            tmux: false,
            compress: false,
            kitty_direct: false,
        }
    }

    /// The display name of the protocol.
    pub fn name(&self) -> &'static str {
        self.drawing().name()
    }

    /// How pictures are drawn with these settings.
    pub fn drawing(&self) -> Drawing {
        match self.protocol {
            ProtocolType::Kitty if self.kitty_direct => Drawing::KittyDirect,
            ProtocolType::Kitty => Drawing::Kitty,
            ProtocolType::Sixel => Drawing::Sixel,
            ProtocolType::Iterm2 => Drawing::Iterm2,
            ProtocolType::Halfblocks => Drawing::Halfblocks,
        }
    }
}

/// How the session draws pictures: the protocol of the render settings in use, or none
/// (`--image-protocol none`) or off (switched off, e.g. too few colours). What the run
/// loop does around pictures follows from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawing {
    None,
    Off,
    Halfblocks,
    /// Transmitted once, shown by Unicode placeholder cells.
    Kitty,
    /// Transmitted and placed at the cursor (a kitty without placeholders).
    KittyDirect,
    Sixel,
    Iterm2,
}

impl Drawing {
    /// The display name.
    pub fn name(self) -> &'static str {
        match self {
            Drawing::None => "none",
            Drawing::Off => "off",
            Drawing::Halfblocks => "halfblocks",
            Drawing::Kitty => "kitty",
            Drawing::KittyDirect => "kitty-direct",
            Drawing::Sixel => "sixel",
            Drawing::Iterm2 => "iterm2",
        }
    }

    /// The terminal may have dropped the transmitted picture when tmux showed the pane
    /// again: it is transmitted again.
    pub fn transmits_again_when_pane_shown(self) -> bool {
        self == Drawing::Kitty
    }

    /// Pixels painted over the text, outside ratatui's cells: hidden while a popup is
    /// open (they would be painted over it), so the screen is cleared when one opens or
    /// closes and whenever tmux may have redrawn the pane without them.
    pub fn paints_over_text(self) -> bool {
        matches!(
            self,
            Drawing::Sixel | Drawing::Iterm2 | Drawing::KittyDirect
        )
    }
}
