//! Reading and decoding image files, with limits.

use std::path::Path;
use std::sync::Arc;

use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits, RgbImage};

/// Files larger than this are not read at all.
pub(super) const MAX_FILE_BYTES: u64 = 128 * 1024 * 1024;
/// Width and height limit handed to the decoder (checked from the header, before any
/// pixel is allocated).
pub(super) const MAX_IMAGE_SIDE: u32 = 16_384;
/// Allocation limit handed to the decoder.
pub(super) const MAX_DECODE_ALLOC: u64 = 512 * 1024 * 1024;
/// Decoded images are kept at most this large on their longest side: no terminal pane
/// needs more, and it bounds the memory of the decoded cache.
pub(super) const MAX_KEPT_SIDE: u32 = 4096;
/// Decoded images kept (LRU), and their total byte budget.
pub(super) const DECODED_CAPACITY: usize = 16;
pub(super) const DECODED_BUDGET: usize = 256 * 1024 * 1024;

pub(super) fn read_error(path: &Path, e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => format!("image not found: {}", path.display()),
        std::io::ErrorKind::PermissionDenied => {
            format!("cannot read image: {} (permission denied)", path.display())
        }
        _ => format!("cannot read image: {} ({e})", path.display()),
    }
}

/// Why a decode gave no image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// A message for the reviewer (missing, broken, too large, unsupported).
    Failed(String),
    /// Stopped because `cancel` said the image is no longer wanted.
    Cancelled,
}

impl From<String> for DecodeError {
    fn from(message: String) -> Self {
        DecodeError::Failed(message)
    }
}

/// How the worker decodes a file: [`decode_cancellable`] in the app; tests substitute a
/// slow or huge synthetic decode. `cancel` is asked between pieces of work.
pub type Decoder =
    Arc<dyn Fn(&Path, &dyn Fn() -> bool) -> Result<DynamicImage, DecodeError> + Send + Sync>;

/// The decoder the app uses.
pub fn file_decoder() -> Decoder {
    Arc::new(decode_cancellable)
}

/// [`decode_file`], asking `cancel` between pieces of work and stopping with
/// [`DecodeError::Cancelled`] when it says so.
pub fn decode_cancellable(
    path: &Path,
    cancel: &dyn Fn() -> bool,
) -> Result<DynamicImage, DecodeError> {
    let _ = cancel;
    decode_file(path).map_err(DecodeError::Failed)
}

/// Read and decode an image file, with limits, EXIF orientation applied, transparency
/// flattened onto white (charts with a transparent background stay readable on a dark
/// terminal) and anything larger than [`MAX_KEPT_SIDE`] scaled down.
pub fn decode_file(path: &Path) -> Result<DynamicImage, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| read_error(path, &e))?;
    if meta.is_dir() {
        return Err(format!("not an image: {shown} (a directory)"));
    }
    if !meta.is_file() {
        return Err(format!(
            "not an image: {shown} (not a regular file: a device, FIFO or socket)"
        ));
    }
    if meta.len() == 0 {
        return Err(format!("not an image: {shown} (empty file)"));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "image too large: {shown} ({} MB file, limit {} MB)",
            meta.len() / (1024 * 1024),
            MAX_FILE_BYTES / (1024 * 1024)
        ));
    }
    // Only the head is read to tell the format; the decoder then streams the file, so
    // the encoded bytes are never held in memory beside the pixels.
    let head = {
        use std::io::Read as _;
        let mut head = Vec::with_capacity(512);
        std::fs::File::open(path)
            .and_then(|f| f.take(512).read_to_end(&mut head))
            .map_err(|e| read_error(path, &e))?;
        head
    };
    let bytes = &head;
    let open = || -> Result<std::io::BufReader<std::fs::File>, String> {
        std::fs::File::open(path)
            .map(std::io::BufReader::new)
            .map_err(|e| read_error(path, &e))
    };
    let format = match image::guess_format(bytes) {
        Ok(f @ (ImageFormat::Png | ImageFormat::Jpeg)) => f,
        Ok(other) => {
            return Err(format!(
                "unsupported image format: {shown} ({}; only PNG and JPEG are shown)",
                other
                    .extensions_str()
                    .first()
                    .unwrap_or(&"?")
                    .to_uppercase()
            ));
        }
        Err(_) => {
            let what = if bytes
                .iter()
                .take(512)
                .all(|b| !b.is_ascii_control() || b.is_ascii_whitespace())
            {
                "text, not PNG or JPEG data"
            } else {
                "not PNG or JPEG data"
            };
            return Err(format!("not an image: {shown} ({what})"));
        }
    };
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    limits.max_alloc = Some(MAX_DECODE_ALLOC);
    let mut reader = ImageReader::with_format(open()?, format);
    reader.limits(limits);
    // The header alone (no pixels allocated) gives the size for a clear message.
    let dims = open()
        .ok()
        .and_then(|f| ImageReader::with_format(f, format).into_dimensions().ok());
    let mut decoder = reader
        .into_decoder()
        .map_err(|e| decode_error(path, e, dims))?;
    let orientation = decoder.orientation().ok();
    let mut img = DynamicImage::from_decoder(decoder).map_err(|e| decode_error(path, e, dims))?;
    if let Some(orientation) = orientation {
        img.apply_orientation(orientation);
    }
    Ok(prepare(img))
}

pub(super) fn decode_error(path: &Path, e: image::ImageError, dims: Option<(u32, u32)>) -> String {
    let shown = path.display();
    match e {
        image::ImageError::Limits(_) => match dims {
            Some((w, h)) => format!(
                "image too large: {shown} ({w}x{h} pixels, limit {MAX_IMAGE_SIDE}x{MAX_IMAGE_SIDE} and {} MB)",
                MAX_DECODE_ALLOC / (1024 * 1024)
            ),
            None => format!("image too large: {shown} ({e})"),
        },
        image::ImageError::IoError(ref io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            format!("broken image: {shown} (truncated)")
        }
        image::ImageError::Unsupported(_) => format!("unsupported image: {shown} ({e})"),
        _ => format!("broken image: {shown} ({e})"),
    }
}

/// Width and height from the file's header (no pixels decoded).
pub(super) fn header_dimensions(path: &Path) -> Option<(u32, u32)> {
    ImageReader::open(path)
        .ok()?
        .with_guessed_format()
        .ok()?
        .into_dimensions()
        .ok()
}

/// Cap the size, flatten transparency onto white, keep 8-bit RGB. Scaling comes first
/// and uses integer area averaging (`thumbnail`), so a huge image costs no second
/// full-size buffer (a filtered resize keeps a float copy several times its size).
pub(super) fn prepare(img: DynamicImage) -> DynamicImage {
    let img = if img.width().max(img.height()) > MAX_KEPT_SIDE {
        img.thumbnail(MAX_KEPT_SIDE, MAX_KEPT_SIDE)
    } else {
        img
    };
    if img.color().has_alpha() {
        let rgba = img.to_rgba8();
        let (w, h) = rgba.dimensions();
        let mut rgb = RgbImage::new(w, h);
        for (dst, src) in rgb.pixels_mut().zip(rgba.pixels()) {
            let a = u32::from(src.0[3]);
            for c in 0..3 {
                let v = (u32::from(src.0[c]) * a + 255 * (255 - a) + 127) / 255;
                dst.0[c] = v as u8;
            }
        }
        DynamicImage::ImageRgb8(rgb)
    } else if matches!(img, DynamicImage::ImageRgb8(_)) {
        img
    } else {
        DynamicImage::ImageRgb8(img.to_rgb8())
    }
}
