//! Reading and decoding image files, with limits.

use std::path::Path;
use std::sync::Arc;

use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits, RgbImage};

/// Files larger than this are not read at all.
pub(super) const MAX_FILE_BYTES: u64 = 128 * 1024 * 1024;
/// Width and height limit handed to the decoder (checked from the header, before any
/// pixel is allocated).
pub(super) const MAX_IMAGE_SIDE: u32 = 16_384;
/// Allocation limit handed to the decoder for images decoded whole (JPEG, interlaced
/// PNG): their full-size pixels are held at once. Non-interlaced PNGs are decoded row by
/// row and scaled down as they go, so their peak is about the kept image.
pub(super) const MAX_DECODE_ALLOC: u64 = 192 * 1024 * 1024;
/// Rows decoded between two questions "still wanted?".
const ROWS_PER_CHECK: u32 = 16;
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

/// Why `meta` is not an image file we may open: a directory, or anything but a regular
/// file (a FIFO would block the read, `/dev/tty` would eat the reviewer's keys).
fn not_regular(path: &Path, meta: &std::fs::Metadata) -> Result<(), String> {
    let shown = path.display();
    let ft = meta.file_type();
    if ft.is_dir() {
        return Err(format!("not an image: {shown} (a directory)"));
    }
    if ft.is_file() {
        return Ok(());
    }
    let what = crate::store::special_kind(&ft);
    Err(format!(
        "not an image: {shown} (not a regular file: {what})"
    ))
}

/// The metadata of `path` (symlinks followed) if it is a regular file; the message for
/// the image pane if not. Opens nothing.
pub(super) fn regular_metadata(path: &Path) -> Result<std::fs::Metadata, String> {
    let meta = std::fs::metadata(path).map_err(|e| read_error(path, &e))?;
    not_regular(path, &meta)?;
    Ok(meta)
}

/// Open an image file for reading, only if it is a regular file: its type is checked
/// before opening (without opening it), then it is opened without blocking
/// (`O_NONBLOCK`: a FIFO swapped in meanwhile does not wait for a writer) and without
/// becoming the controlling terminal (`O_NOCTTY`), and the opened descriptor is checked
/// again (`fstat`), so what is read is the regular file that was checked. Every read of
/// an image path goes through here (decode, prefetch, zoom, the header's size).
pub(super) fn open_regular(path: &Path) -> Result<std::fs::File, String> {
    regular_metadata(path)?;
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let f = o.open(path).map_err(|e| read_error(path, &e))?;
    let meta = f.metadata().map_err(|e| read_error(path, &e))?;
    not_regular(path, &meta)?;
    Ok(f)
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
///
/// A non-interlaced PNG is decoded row by row, scaled down to 4096 pixels (`MAX_KEPT_SIDE`) while it
/// decodes (area averaging), and can stop between rows; JPEG and interlaced PNG are
/// decoded whole (within `MAX_DECODE_ALLOC`, 192 MiB) and can stop only before they start.
pub fn decode_cancellable(
    path: &Path,
    cancel: &dyn Fn() -> bool,
) -> Result<DynamicImage, DecodeError> {
    let format = check_file(path)?;
    if format == ImageFormat::Png
        && let Some(img) = decode_png_rows(path, cancel)?
    {
        return Ok(img);
    }
    if cancel() {
        return Err(DecodeError::Cancelled);
    }
    Ok(decode_whole(path, format)?)
}

/// Read and decode an image file, with limits, EXIF orientation applied, transparency
/// flattened onto white (charts with a transparent background stay readable on a dark
/// terminal) and anything larger than 4096 pixels (`MAX_KEPT_SIDE`) scaled down.
pub fn decode_file(path: &Path) -> Result<DynamicImage, String> {
    decode_cancellable(path, &|| false).map_err(|e| match e {
        DecodeError::Failed(m) => m,
        DecodeError::Cancelled => format!("not decoded: {}", path.display()),
    })
}

/// Whether [`decode_cancellable`] decodes `path` in pieces it can stop between (a
/// non-interlaced PNG), as opposed to whole.
pub(super) fn decodes_in_pieces(path: &Path) -> bool {
    let Ok(file) = open_regular(path) else {
        return false;
    };
    png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .is_ok_and(|r| !r.info().interlaced)
}

/// The file's format after the checks every image gets: it exists, is a regular,
/// non-empty file under [`MAX_FILE_BYTES`], and is PNG or JPEG.
fn check_file(path: &Path) -> Result<ImageFormat, String> {
    let shown = path.display();
    let file = open_regular(path)?;
    let meta = file.metadata().map_err(|e| read_error(path, &e))?;
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
        file.take(512)
            .read_to_end(&mut head)
            .map_err(|e| read_error(path, &e))?;
        head
    };
    let bytes = &head;
    match image::guess_format(bytes) {
        Ok(f @ (ImageFormat::Png | ImageFormat::Jpeg)) => Ok(f),
        Ok(other) => Err(format!(
            "unsupported image format: {shown} ({}; only PNG and JPEG are shown)",
            other
                .extensions_str()
                .first()
                .unwrap_or(&"?")
                .to_uppercase()
        )),
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
            Err(format!("not an image: {shown} ({what})"))
        }
    }
}

/// Decode the whole image at once, within [`MAX_DECODE_ALLOC`].
fn decode_whole(path: &Path, format: ImageFormat) -> Result<DynamicImage, String> {
    let open = || -> Result<std::io::BufReader<std::fs::File>, String> {
        open_regular(path).map(std::io::BufReader::new)
    };
    // The header alone (no pixels allocated) gives the size for a clear message.
    let dims = open()
        .ok()
        .and_then(|f| ImageReader::with_format(f, format).into_dimensions().ok());
    // Not every decoder counts its allocations against `max_alloc` (JPEG does not):
    // the size the decoded pixels need (3 bytes each) is checked here first.
    if let Some((w, h)) = dims
        && u64::from(w) * u64::from(h) * 3 > MAX_DECODE_ALLOC
    {
        return Err(format!(
            "image too large: {} ({w}x{h} pixels; a {} is decoded whole, limit {} megapixels)",
            path.display(),
            if format == ImageFormat::Png {
                "interlaced PNG"
            } else {
                "JPEG"
            },
            MAX_DECODE_ALLOC / 3 / 1_000_000
        ));
    }
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    limits.max_alloc = Some(MAX_DECODE_ALLOC);
    let mut reader = ImageReader::with_format(open()?, format);
    reader.limits(limits);
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
    let file = open_regular(path).ok()?;
    ImageReader::new(std::io::BufReader::new(file))
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

/// The size an image is kept at: at most 4096 pixels (`MAX_KEPT_SIDE`) on its longest side, aspect
/// kept.
fn kept_size(w: u32, h: u32) -> (u32, u32) {
    let longest = w.max(h);
    if longest <= MAX_KEPT_SIDE {
        return (w, h);
    }
    let side = |n: u32| {
        ((u64::from(n) * u64::from(MAX_KEPT_SIDE) + u64::from(longest) / 2) / u64::from(longest))
            .max(1) as u32
    };
    (side(w), side(h))
}

fn png_error(path: &Path, e: png::DecodingError, dims: Option<(u32, u32)>) -> DecodeError {
    let shown = path.display();
    DecodeError::Failed(match e {
        png::DecodingError::IoError(ref io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            format!("broken image: {shown} (truncated)")
        }
        png::DecodingError::IoError(ref io) => read_error(path, io),
        png::DecodingError::LimitsExceeded => match dims {
            Some((w, h)) => format!("image too large: {shown} ({w}x{h} pixels)"),
            None => format!("image too large: {shown} ({e})"),
        },
        _ => format!("broken image: {shown} ({e})"),
    })
}

/// The output image of [`decode_png_rows`], filled a band of input rows at a time: each
/// band (the input rows of one output row) summed per output column, then averaged.
struct Shrink {
    /// Input column → output column.
    column: Vec<u32>,
    /// Output column → how many input columns it covers.
    per_column: Vec<u64>,
    /// The band's sums, RGB per output column.
    sums: Vec<u64>,
    rows_in_band: u64,
    out: RgbImage,
}

impl Shrink {
    /// For an input `w` pixels wide, shrunk to `ow` x `oh`.
    fn new(w: u32, ow: u32, oh: u32) -> Shrink {
        let column: Vec<u32> = (0..w)
            .map(|x| (u64::from(x) * u64::from(ow) / u64::from(w)) as u32)
            .collect();
        let mut per_column = vec![0u64; ow as usize];
        for &c in &column {
            per_column[c as usize] += 1;
        }
        Shrink {
            column,
            per_column,
            sums: vec![0u64; ow as usize * 3],
            rows_in_band: 0,
            out: RgbImage::new(ow, oh),
        }
    }

    /// One input row (`channels` samples a pixel, 16-bit when `wide`), flattened onto
    /// white, added to the band.
    fn add_row(&mut self, data: &[u8], wide: bool, channels: usize) {
        let sample = |i: usize| -> u32 {
            if wide {
                // As the image crate narrows 16-bit samples: rounded.
                let v = u32::from(u16::from_be_bytes([data[2 * i], data[2 * i + 1]]));
                (v + 128) / 257
            } else {
                u32::from(data[i])
            }
        };
        for (x, &c) in self.column.iter().enumerate() {
            let i = x * channels;
            let (rgb, a) = match channels {
                1 => ([sample(i); 3], 255),
                2 => ([sample(i); 3], sample(i + 1)),
                3 => ([sample(i), sample(i + 1), sample(i + 2)], 255),
                _ => ([sample(i), sample(i + 1), sample(i + 2)], sample(i + 3)),
            };
            let o = c as usize * 3;
            for (k, &v) in rgb.iter().enumerate() {
                // Flattened onto white, as `prepare` does.
                let v = (v * a + 255 * (255 - a) + 127) / 255;
                self.sums[o + k] += u64::from(v);
            }
        }
        self.rows_in_band += 1;
    }

    /// The band's averages as output row `oy`; the next band starts empty.
    fn finish_band(&mut self, oy: u32) {
        let rows_in_band = self.rows_in_band;
        for (ox, (&cols, px)) in self.per_column.iter().zip(self.sums.chunks(3)).enumerate() {
            let n = (cols * rows_in_band).max(1);
            let dst = self.out.get_pixel_mut(ox as u32, oy);
            for (d, &sum) in dst.0.iter_mut().zip(px) {
                *d = ((sum + n / 2) / n) as u8;
            }
        }
        self.sums.fill(0);
        self.rows_in_band = 0;
    }
}

/// A non-interlaced PNG decoded row by row into an RGB image of [`kept_size`], each
/// output pixel the average of the input pixels it covers (flattened onto white first),
/// asking `cancel` every [`ROWS_PER_CHECK`] rows. Only the output and a row are held, so
/// a 12000x12000 PNG needs about 48 MiB, not its full 412 MiB. `None` for an interlaced
/// PNG (its rows come in passes: decoded whole instead).
fn decode_png_rows(
    path: &Path,
    cancel: &dyn Fn() -> bool,
) -> Result<Option<DynamicImage>, DecodeError> {
    let file = open_regular(path)?;
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    // Palettes and low bit depths to 8-bit samples (16-bit stays, handled below).
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().map_err(|e| png_error(path, e, None))?;
    let info = reader.info();
    let (w, h) = (info.width, info.height);
    if w > MAX_IMAGE_SIDE || h > MAX_IMAGE_SIDE {
        return Err(DecodeError::Failed(format!(
            "image too large: {} ({w}x{h} pixels, limit {MAX_IMAGE_SIDE}x{MAX_IMAGE_SIDE})",
            path.display()
        )));
    }
    if info.interlaced {
        return Ok(None);
    }
    let orientation = info
        .exif_metadata
        .as_deref()
        .and_then(image::metadata::Orientation::from_exif_chunk);
    let (color, depth) = reader.output_color_type();
    let channels: usize = match color {
        png::ColorType::Grayscale => 1,
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgb => 3,
        png::ColorType::Rgba => 4,
        // EXPAND turns palettes into RGB(A); anything else goes the whole way.
        png::ColorType::Indexed => return Ok(None),
    };
    let wide = depth == png::BitDepth::Sixteen;
    let (ow, oh) = kept_size(w, h);
    let mut shrink = Shrink::new(w, ow, oh);
    let dims = Some((w, h));
    for y in 0..h {
        if y % ROWS_PER_CHECK == 0 && cancel() {
            return Err(DecodeError::Cancelled);
        }
        let row = reader
            .next_row()
            .map_err(|e| png_error(path, e, dims))?
            .ok_or_else(|| {
                DecodeError::Failed(format!("broken image: {} (truncated)", path.display()))
            })?;
        shrink.add_row(row.data(), wide, channels);
        let oy = (u64::from(y) * u64::from(oh) / u64::from(h)) as u32;
        let next = (u64::from(y + 1) * u64::from(oh) / u64::from(h)) as u32;
        if y + 1 == h || next != oy {
            shrink.finish_band(oy);
        }
    }
    let out = shrink.out;
    let mut img = DynamicImage::ImageRgb8(out);
    if let Some(orientation) = orientation {
        img.apply_orientation(orientation);
    }
    Ok(Some(img))
}
