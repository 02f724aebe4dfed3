//! The colours the terminal claims, and every frame's 24-bit colours mapped to them.
//!
//! ratatui's crossterm backend writes `Color::Rgb` as a 24-bit SGR (`38;2;r;g;b`). A
//! terminal that does not take it shows garbage: GNU screen 4 reads the numbers as
//! attributes (black bars for a half-block picture), urxvt picks odd colours. What the
//! terminal claims decides: `COLORTERM=truecolor|24bit`, else its terminfo entry (`RGB` /
//! `Tc`, or `colors` of 256 or 88); inside tmux colours are tmux's to map. The frame's
//! `Rgb` colours are mapped to the nearest of the xterm 256-colour or the rxvt 88-colour
//! palette's colour cube and grey ramp (the 16 system colours are left out: each terminal
//! sets them its own way). An entry of 8 or 16 colours is not believed (xterm's own
//! `TERM=xterm` says 8 and it draws 24-bit colour): 24-bit, as before, but under GNU
//! screen (`TERM=screen…`), which never takes it: 256 colours, which screen maps to its
//! terminal's.

use ratatui::buffer::Buffer;
use ratatui::style::Color;

/// How many colours the terminal claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    /// 24-bit colour (or tmux, which maps it to its client's).
    True,
    C256,
    C88,
}

impl Depth {
    /// What this terminal claims (see the module's doc).
    pub fn from_env() -> Depth {
        let colorterm = std::env::var("COLORTERM").ok();
        let screen = std::env::var("TERM").is_ok_and(|t| t.starts_with("screen"));
        let info = termini::TermInfo::from_env().ok().map(|t| Claims {
            colors: t.number_cap(termini::NumberCapability::MaxColors),
            rgb: t.extended_cap("RGB").is_some() || t.extended_cap("Tc").is_some(),
        });
        Depth::of(
            colorterm.as_deref(),
            crate::tui::image::tmux_from_env(),
            screen,
            info,
        )
    }

    /// The depth from `COLORTERM`, whether tmux runs it, whether `TERM` names GNU screen,
    /// and the terminfo entry's claims (`None`: no entry found: 24-bit, as before).
    pub fn of(colorterm: Option<&str>, tmux: bool, screen: bool, info: Option<Claims>) -> Depth {
        if tmux || matches!(colorterm, Some("truecolor" | "24bit")) {
            return Depth::True;
        }
        let fewer = if screen { Depth::C256 } else { Depth::True };
        let Some(info) = info else {
            return fewer;
        };
        match info.colors {
            _ if info.rgb => Depth::True,
            Some(n) if n >= 1 << 24 => Depth::True,
            Some(n) if n >= 256 => Depth::C256,
            Some(n) if n >= 88 => Depth::C88,
            _ => fewer,
        }
    }

    /// `c` in a colour this depth draws.
    pub fn map(self, c: Color) -> Color {
        let Color::Rgb(r, g, b) = c else {
            return c;
        };
        match self {
            Depth::True => c,
            Depth::C256 => Color::Indexed(nearest(&XTERM_256, (r, g, b))),
            Depth::C88 => Color::Indexed(nearest(&RXVT_88, (r, g, b))),
        }
    }

    /// Map every 24-bit colour of the frame to this depth; `grey` (NO_COLOR): to its
    /// grey level first (a half-block picture is drawn in greys; the mono theme has no
    /// colours of its own).
    pub fn map_buffer(self, buf: &mut Buffer, grey: bool) {
        if self == Depth::True && !grey {
            return;
        }
        let map = |c: Color| self.map(if grey { grey_of(c) } else { c });
        for cell in buf.content.iter_mut() {
            cell.fg = map(cell.fg);
            cell.bg = map(cell.bg);
        }
    }
}

/// A 24-bit colour's grey level (Rec. 601 luma); other colours as they are.
fn grey_of(c: Color) -> Color {
    let Color::Rgb(r, g, b) = c else {
        return c;
    };
    let l = (299 * u32::from(r) + 587 * u32::from(g) + 114 * u32::from(b)) / 1000;
    let l = l as u8;
    Color::Rgb(l, l, l)
}

/// What a terminfo entry says of colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claims {
    /// `colors`.
    pub colors: Option<i32>,
    /// The `RGB` or `Tc` extended capability (24-bit colour).
    pub rgb: bool,
}

/// A palette's colour cube and grey ramp, and where they start.
struct Palette {
    levels: &'static [u8],
    cube_at: u8,
    greys: &'static [u8],
    greys_at: u8,
}

/// xterm's 256 colours: a 6×6×6 cube from 16, 24 greys from 232.
const XTERM_256: Palette = Palette {
    levels: &[0, 95, 135, 175, 215, 255],
    cube_at: 16,
    greys: &[
        8, 18, 28, 38, 48, 58, 68, 78, 88, 98, 108, 118, 128, 138, 148, 158, 168, 178, 188, 198,
        208, 218, 228, 238,
    ],
    greys_at: 232,
};

/// rxvt's (and xterm's `88colres`) 88 colours: a 4×4×4 cube from 16, 8 greys from 80.
const RXVT_88: Palette = Palette {
    levels: &[0, 139, 205, 255],
    cube_at: 16,
    greys: &[46, 92, 115, 139, 162, 185, 208, 231],
    greys_at: 80,
};

/// The index of the nearest level to `v`.
fn nearest_level(levels: &[u8], v: u8) -> usize {
    (0..levels.len())
        .min_by_key(|&i| levels[i].abs_diff(v))
        .unwrap_or(0)
}

fn distance((r, g, b): (u8, u8, u8), (r2, g2, b2): (u8, u8, u8)) -> u32 {
    let d = |a: u8, b: u8| u32::from(a.abs_diff(b)).pow(2);
    d(r, r2) + d(g, g2) + d(b, b2)
}

/// The palette index nearest to `rgb`: the cube's colour or the grey ramp's, whichever is
/// closer.
fn nearest(p: &Palette, rgb: (u8, u8, u8)) -> u8 {
    let n = p.levels.len();
    let (ri, gi, bi) = (
        nearest_level(p.levels, rgb.0),
        nearest_level(p.levels, rgb.1),
        nearest_level(p.levels, rgb.2),
    );
    let cube = (p.levels[ri], p.levels[gi], p.levels[bi]);
    let cube_index = p.cube_at as usize + ri * n * n + gi * n + bi;
    let grey = ((u32::from(rgb.0) + u32::from(rgb.1) + u32::from(rgb.2)) / 3) as u8;
    let gi = nearest_level(p.greys, grey);
    let g = p.greys[gi];
    if distance(rgb, (g, g, g)) < distance(rgb, cube) {
        p.greys_at + gi as u8
    } else {
        cube_index as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(colors: i32, rgb: bool) -> Option<Claims> {
        Some(Claims {
            colors: Some(colors),
            rgb,
        })
    }

    /// COLORTERM and tmux say 24-bit; else terminfo: RGB / Tc or 2^24 colours, 256
    /// (GNU screen's `screen.xterm-256color`, urxvt's `rxvt-unicode-256color`), 88
    /// (`rxvt-unicode`); 8 is not believed (`xterm`: 24-bit) but under screen (`screen`:
    /// 256). urxvt's own `COLORTERM=rxvt-xpm` says nothing of 24-bit colour.
    #[test]
    fn the_depth_follows_what_the_terminal_claims() {
        let of = Depth::of;
        let t = Depth::True;
        assert_eq!(of(Some("truecolor"), false, false, claims(8, false)), t);
        assert_eq!(of(Some("24bit"), false, false, None), t);
        assert_eq!(of(None, true, false, claims(8, false)), t);
        assert_eq!(of(None, false, false, claims(256, true)), t);
        assert_eq!(of(None, false, false, claims(1 << 24, false)), t);
        assert_eq!(of(None, false, true, claims(256, false)), Depth::C256);
        let urxvt = of(Some("rxvt-xpm"), false, false, claims(256, false));
        assert_eq!(urxvt, Depth::C256);
        assert_eq!(
            of(Some("rxvt"), false, false, claims(88, false)),
            Depth::C88
        );
        assert_eq!(of(None, false, false, claims(8, false)), t);
        assert_eq!(of(None, false, true, claims(8, false)), Depth::C256);
        assert_eq!(of(None, false, false, None), t);
        assert_eq!(of(None, false, true, None), Depth::C256);
    }

    /// Colours land on the palette's nearest cube colour or grey.
    #[test]
    fn colours_map_to_the_nearest_of_the_palette() {
        let m = |d: Depth, r, g, b| d.map(Color::Rgb(r, g, b));
        assert_eq!(m(Depth::C256, 255, 0, 0), Color::Indexed(196));
        assert_eq!(m(Depth::C256, 0, 0, 0), Color::Indexed(16));
        assert_eq!(m(Depth::C256, 255, 255, 255), Color::Indexed(231));
        assert_eq!(m(Depth::C256, 128, 128, 128), Color::Indexed(244));
        assert_eq!(
            m(Depth::C256, 95, 135, 175),
            Color::Indexed(16 + 36 + 12 + 3)
        );
        assert_eq!(m(Depth::C88, 255, 0, 0), Color::Indexed(16 + 48));
        assert_eq!(m(Depth::C88, 255, 255, 255), Color::Indexed(16 + 63));
        assert_eq!(m(Depth::C88, 92, 92, 92), Color::Indexed(81));
        assert_eq!(m(Depth::True, 1, 2, 3), Color::Rgb(1, 2, 3));
        assert_eq!(Depth::C256.map(Color::Cyan), Color::Cyan);
        assert_eq!(Depth::C256.map(Color::Indexed(7)), Color::Indexed(7));
    }
}
