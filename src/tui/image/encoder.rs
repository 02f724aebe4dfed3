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
            let mut pixels = fit(img, render.font, size);
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
    let ratio = f64::min(
        f64::from(full_w) / f64::from(img.width()),
        f64::from(full_h) / f64::from(img.height()),
    );
    let side = |n: u32, max: u32| ((f64::from(n) * ratio).round() as u32).clamp(1, max.max(1));
    let scaled = scale(img, side(img.width(), full_w), side(img.height(), full_h));
    if (scaled.width(), scaled.height()) == (full_w, full_h) {
        return scaled;
    }
    let mut canvas = RgbaImage::new(full_w, full_h);
    image::imageops::overlay(&mut canvas, &scaled.to_rgba8(), 0, 0);
    DynamicImage::ImageRgba8(canvas)
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
