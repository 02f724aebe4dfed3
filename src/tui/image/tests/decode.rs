//! Decoding: transparency, scaling, errors, the row-by-row PNG decoder.

use super::*;

#[test]
fn transparency_is_flattened_onto_white() {
    let mut img: ImageBuffer<Rgba<u8>, Vec<u8>> = ImageBuffer::new(2, 1);
    img.put_pixel(0, 0, Rgba([0, 0, 0, 0])); // fully transparent
    img.put_pixel(1, 0, Rgba([0, 0, 0, 255])); // opaque black
    let out = prepare(DynamicImage::ImageRgba8(img)).to_rgb8();
    assert_eq!(out.get_pixel(0, 0), &Rgb([255, 255, 255]));
    assert_eq!(out.get_pixel(1, 0), &Rgb([0, 0, 0]));
    let mut half: ImageBuffer<Rgba<u8>, Vec<u8>> = ImageBuffer::new(1, 1);
    half.put_pixel(0, 0, Rgba([0, 0, 0, 128]));
    let out = prepare(DynamicImage::ImageRgba8(half)).to_rgb8();
    assert_eq!(out.get_pixel(0, 0), &Rgb([127, 127, 127]));
}

#[test]
fn big_images_are_scaled_down_keeping_aspect() {
    let img = DynamicImage::ImageRgb8(RgbImage::new(8192, 2048));
    let out = prepare(img);
    assert_eq!((out.width(), out.height()), (4096, 1024));
}

#[test]
fn decode_errors_are_clear() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.png");
    assert!(
        decode_file(&missing)
            .unwrap_err()
            .starts_with("image not found: ")
    );
    let empty = dir.path().join("empty.png");
    std::fs::write(&empty, b"").unwrap();
    assert!(decode_file(&empty).unwrap_err().contains("(empty file)"));
    let text = dir.path().join("text.png");
    std::fs::write(&text, "hello, I am text\n").unwrap();
    let e = decode_file(&text).unwrap_err();
    assert!(e.starts_with("not an image: ") && e.contains("text"), "{e}");
    let gif = dir.path().join("a.png");
    std::fs::write(&gif, b"GIF89a\x01\x00\x01\x00\x00\x00\x00;").unwrap();
    let e = decode_file(&gif).unwrap_err();
    assert!(
        e.starts_with("unsupported image format: ") && e.contains("GIF"),
        "{e}"
    );
    assert!(decode_file(dir.path()).unwrap_err().contains("a directory"));
    #[cfg(unix)]
    {
        let e = decode_file(Path::new("/dev/urandom")).unwrap_err();
        assert_eq!(
            e,
            "not an image: /dev/urandom (not a regular file: a character device)"
        );
    }
}

/// The row-by-row PNG decoder gives the same pixels as the image crate's whole decode
/// (then `prepare`) for every colour type and bit depth, and scales a huge one down to
/// the same size as before.
#[test]
fn png_rows_match_the_whole_decode() {
    let dir = tempfile::tempdir().unwrap();
    let (w, h) = (37u32, 23u32);
    let v = |x: u32, y: u32| ((x * 7 + y * 13) % 256) as u8;
    let w16 = |x: u32, y: u32| (x * 1733 + y * 911) as u16;
    let images: Vec<(&str, DynamicImage)> = vec![
        (
            "l8",
            DynamicImage::ImageLuma8(ImageBuffer::from_fn(w, h, |x, y| image::Luma([v(x, y)]))),
        ),
        (
            "la8",
            DynamicImage::ImageLumaA8(ImageBuffer::from_fn(w, h, |x, y| {
                image::LumaA([v(x, y), v(y, x)])
            })),
        ),
        (
            "rgb8",
            DynamicImage::ImageRgb8(ImageBuffer::from_fn(w, h, |x, y| {
                Rgb([v(x, y), v(y, x), 9])
            })),
        ),
        (
            "rgba8",
            DynamicImage::ImageRgba8(ImageBuffer::from_fn(w, h, |x, y| {
                Rgba([v(x, y), 3, v(y, x), v(x, x)])
            })),
        ),
        (
            "l16",
            DynamicImage::ImageLuma16(ImageBuffer::from_fn(w, h, |x, y| image::Luma([w16(x, y)]))),
        ),
        (
            "rgba16",
            DynamicImage::ImageRgba16(ImageBuffer::from_fn(w, h, |x, y| {
                Rgba([w16(x, y), w16(y, x), 7, w16(x, x)])
            })),
        ),
    ];
    for (name, img) in images {
        let path = dir.path().join(format!("{name}.png"));
        img.save(&path).unwrap();
        let whole = prepare(image::open(&path).unwrap());
        let rows = decode_file(&path).unwrap();
        assert_eq!(rows.as_bytes(), whole.as_bytes(), "{name}");
    }
    let path = dir.path().join("wide.png");
    RgbImage::from_fn(8200, 30, |x, _| {
        if x < 4100 {
            Rgb([200, 0, 0])
        } else {
            Rgb([0, 0, 200])
        }
    })
    .save(&path)
    .unwrap();
    let rows = decode_file(&path).unwrap().to_rgb8();
    let whole = prepare(image::open(&path).unwrap()).to_rgb8();
    assert_eq!(rows.dimensions(), whole.dimensions());
    assert_eq!(rows.get_pixel(10, 5), &Rgb([200, 0, 0]));
    assert_eq!(rows.get_pixel(rows.width() - 10, 5), &Rgb([0, 0, 200]));
}
