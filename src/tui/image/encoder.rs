//! Scaling and encoding a decoded image for a protocol.

use super::{protocol::*, widget::*};

use image::{DynamicImage, RgbaImage};
use ratatui::layout::Size;
use ratatui_image::picker::ProtocolType;
use ratatui_image::protocol::Protocol;
use ratatui_image::protocol::halfblocks::Halfblocks;
use ratatui_image::protocol::iterm2::Iterm2;
use ratatui_image::protocol::kitty::Kitty;
use ratatui_image::protocol::sixel::Sixel;
use ratatui_image::{FilterType, FontSize, Resize};

/// Scale `img` to fill `area` (aspect kept) at the terminal's cell size and encode it.
pub(super) fn encode(
    img: &DynamicImage,
    render: &Render,
    area: Size,
    kitty_id: u32,
) -> Result<Protocol, ratatui_image::errors::Errors> {
    // The cells the image covers: the largest that fits `area`, aspect kept.
    let size = Resize::Scale(None).size_for(img, render.font, area);
    let tmux = render.tmux;
    Ok(match render.protocol {
        // One pixel per half cell, straight to that size: ratatui-image's encoder then
        // has nothing left to resample.
        ProtocolType::Halfblocks => {
            let pixels = scale(img, u32::from(size.width), u32::from(size.height) * 2);
            Protocol::Halfblocks(Halfblocks::new(pixels, size)?)
        }
        ProtocolType::Sixel => {
            // The picture's own pixels, not padded to whole cells: Konsole paints a
            // sixel's transparent pixels in its first palette colour (a grey band).
            let mut pixels = fitted(img, render.font, size);
            loop {
                let p = Sixel::new(pixels.clone(), size, tmux)?;
                if !too_big_for_tmux(tmux, p.data.len(), &pixels) {
                    break Protocol::Sixel(p);
                }
                pixels = shrink(&pixels);
            }
        }
        ProtocolType::Iterm2 => {
            let mut pixels = fit(img, render.font, size);
            loop {
                let mut p = Iterm2::new(pixels.clone(), size, tmux)?;
                // Sized in cells, not pixels: the terminal scales the picture to exactly
                // the cells it was laid out for, whatever its real cell size.
                p.data = p.data.replacen(
                    &format!("width={}px;height={}px", pixels.width(), pixels.height()),
                    &format!("width={};height={}", size.width, size.height),
                    1,
                );
                if !too_big_for_tmux(tmux, p.data.len(), &pixels) {
                    break Protocol::ITerm2(p);
                }
                pixels = shrink(&pixels);
            }
        }
        ProtocolType::Kitty if render.kitty_direct => {
            let mut pixels = fit(img, render.font, size);
            loop {
                let data = kitty_direct(&pixels, size, kitty_id, tmux)?;
                if !too_big_for_tmux(tmux, data.len(), &pixels) {
                    break Protocol::Sixel(Sixel {
                        data,
                        size,
                        is_tmux: tmux,
                    });
                }
                pixels = shrink(&pixels);
            }
        }
        ProtocolType::Kitty => {
            let size = Resize::Scale(None).size_for(
                img,
                render.font,
                Size::new(
                    area.width.min(KITTY_MAX_CELLS),
                    area.height.min(KITTY_MAX_CELLS),
                ),
            );
            Protocol::Kitty(Kitty::new(
                fit(img, render.font, size),
                size,
                kitty_id,
                tmux,
                render.compress,
                false, // no shared memory: unshown encodings would leak /dev/shm objects
            )?)
        }
    })
}

/// A kitty image placed directly at the cursor, for kitty before 0.28 (no Unicode
/// placeholders): one transmit-and-place command (`a=T`, PNG, placement 1 of image `id`,
/// sized `size` cells, the cursor not moved, no answer), in chunks of 4096 base64
/// characters; inside tmux all of it in one passthrough sequence, so that the cursor
/// move [`place_in_pane`](super::tmux::place_in_pane) puts in front holds for it.
///
/// It is carried in ratatui-image's sixel struct: a sequence written at the image's
/// first cell, the other cells left alone, and drawn again whenever that cell is
/// redrawn, which is what a direct placement needs too. A new transmission with the
/// same id replaces the image and its placement; the run loop deletes the placement
/// when the picture goes (see `terminal::erase_painted`).
pub(super) fn kitty_direct(
    pixels: &DynamicImage,
    size: Size,
    id: u32,
    tmux: bool,
) -> Result<String, ratatui_image::errors::Errors> {
    let mut png = Vec::new();
    pixels
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .map_err(ratatui_image::errors::Errors::Image)?;
    let b64 = base64(&png);
    let esc = if tmux { "\x1b\x1b" } else { "\x1b" };
    let mut out = String::with_capacity(b64.len() + b64.len() / 4096 * 24 + 96);
    if tmux {
        out.push_str("\x1bPtmux;");
    }
    let chunks: Vec<&[u8]> = b64.as_bytes().chunks(4096).collect();
    for (i, chunk) in chunks.iter().enumerate() {
        let more = u8::from(i + 1 < chunks.len());
        out.push_str(esc);
        if i == 0 {
            out.push_str(&format!(
                "_Ga=T,f=100,t=d,i={id},p=1,c={},r={},C=1,q=2,m={more};",
                size.width, size.height
            ));
        } else {
            out.push_str(&format!("_Gm={more};"));
        }
        // Base64 is ASCII.
        out.push_str(std::str::from_utf8(chunk).unwrap_or_default());
        out.push_str(esc);
        out.push('\\');
    }
    if tmux {
        out.push_str("\x1b\\");
    }
    Ok(out)
}

/// Standard base64 with padding.
pub(super) fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let b = [
            group[0],
            *group.get(1).unwrap_or(&0),
            *group.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= group.len() {
                out.push(char::from(ABC[((n >> (18 - 6 * k)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// tmux drops a passthrough sequence longer than its input buffer (1 MiB) without a
/// word: sixel and iTerm2 images sent through it stay under this.
pub(super) const TMUX_PASSTHROUGH_MAX: usize = 1_000_000;

pub(super) fn too_big_for_tmux(tmux: bool, len: usize, pixels: &DynamicImage) -> bool {
    tmux && len > TMUX_PASSTHROUGH_MAX && pixels.width().min(pixels.height()) > 8
}

/// The same picture at 70% of the pixels on each side.
pub(super) fn shrink(pixels: &DynamicImage) -> DynamicImage {
    let side = |n: u32| (n * 7 / 10).max(1);
    pixels.thumbnail_exact(side(pixels.width()), side(pixels.height()))
}

/// The pixels of `size` cells, with the image fitted inside at its own aspect (top
/// left) and the rest transparent, as ratatui-image's own `Resize` does.
pub(super) fn fit(img: &DynamicImage, font: FontSize, size: Size) -> DynamicImage {
    let full_w = u32::from(size.width) * u32::from(font.width);
    let full_h = u32::from(size.height) * u32::from(font.height);
    let scaled = fitted(img, font, size);
    if (scaled.width(), scaled.height()) == (full_w, full_h) {
        return scaled;
    }
    let mut canvas = RgbaImage::new(full_w, full_h);
    image::imageops::overlay(&mut canvas, &scaled.to_rgba8(), 0, 0);
    DynamicImage::ImageRgba8(canvas)
}

/// The image scaled to the largest size that fits `size` cells at its own aspect.
pub(super) fn fitted(img: &DynamicImage, font: FontSize, size: Size) -> DynamicImage {
    let full_w = u32::from(size.width) * u32::from(font.width);
    let full_h = u32::from(size.height) * u32::from(font.height);
    let ratio = f64::min(
        f64::from(full_w) / f64::from(img.width()),
        f64::from(full_h) / f64::from(img.height()),
    );
    let side = |n: u32, max: u32| ((f64::from(n) * ratio).round() as u32).clamp(1, max.max(1));
    scale(img, side(img.width(), full_w), side(img.height(), full_h))
}

/// Resample to exactly `w` x `h`: area averaging when shrinking (fast, and sharp enough
/// for chart text), bilinear when growing.
pub(super) fn scale(img: &DynamicImage, w: u32, h: u32) -> DynamicImage {
    if (w, h) == (img.width(), img.height()) {
        img.clone()
    } else if w <= img.width() && h <= img.height() {
        img.thumbnail_exact(w, h)
    } else {
        img.resize_exact(w, h, FilterType::Triangle)
    }
}
