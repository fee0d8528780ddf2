//! PNG pictures (cargo feature `png`): the SVG of [`crate::view::picture`] or
//! [`cute_layout::render`] rasterised with resvg and an embedded font, for every front end
//! (`cute png`, Python's `.png()`).
//!
//! The size is decided from the SVG's `width` and `height` before anything is parsed or drawn,
//! so that a picture past the limits ([`MAX_SIDE`] pixels on a side, [`MAX_PIXELS`] in all) is
//! refused at once with `TooLarge`; within them a picture takes at most a few seconds and
//! [`MAX_PIXELS`] x 4 bytes of RGBA (64 MiB) while drawing.
//!
//! ```
//! use cute_layout::{render::{self, Style}, Layout};
//! let l: Layout = "(4,8):(8,1)".parse().unwrap();
//! let svg = render::svg(&l, &Style::new()).unwrap();
//! let png = cute_ops::png::svg_to_png(&svg, None).unwrap();
//! assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
//! let (w, h) = cute_ops::png::size(&png).unwrap();
//! assert!(w >= 800 && h > 0); // the default scale fits a slide
//! let big: Layout = "65536:1".parse().unwrap();
//! let svg = render::svg(&big, &Style::new()).unwrap();
//! assert_eq!(cute_ops::png::svg_to_png(&svg, None).unwrap_err().kind, "TooLarge");
//! ```

use std::borrow::Cow;

use crate::OpError;

/// The largest side, in pixels, of a PNG picture.
pub const MAX_SIDE: u32 = 16_384;
/// The most pixels of a PNG picture: 4096 x 4096 (64 MiB of RGBA while drawing).
pub const MAX_PIXELS: u64 = 16_777_216;
/// The longer side, in pixels, that the default scale aims at (a slide or a blog column).
const TARGET_SIDE: f64 = 1600.0;
/// The largest default scale (a small layout is not blown up past this).
const MAX_AUTO_SCALE: f64 = 4.0;
/// The smallest scale drawn by default: below it a 26-unit cell is under 5 pixels.
const MIN_SCALE: f64 = 0.2;
/// Below this scale the cell labels (12-unit text) are under 6 pixels and left out.
const MIN_LABEL_SCALE: f64 = 0.5;

/// The SVG's `width` and `height` attributes, read from its first tag without parsing it.
fn svg_size(svg: &str) -> Option<(f64, f64)> {
    let head = svg.get(..svg.find('>')?)?;
    let attr = |name: &str| -> Option<f64> {
        let start = head.find(&format!(" {name}=\""))? + name.len() + 3;
        let len = head[start..].find('"')?;
        head[start..start + len].parse().ok()
    };
    let (w, h) = (attr("width")?, attr("height")?);
    (w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0).then_some((w, h))
}

/// The scale (pixels per SVG unit) of a picture of `w` x `h` units: `asked` if given (refused
/// with `TooLarge` if the picture would pass the limits, `Usage` if not a positive number),
/// else the largest scale up to 4 that keeps the longer side near 1600 pixels and within the
/// limits (refused with `TooLarge` if its cells would be under 5 pixels).
///
/// # Errors
/// `Usage` or `TooLarge` as above.
pub fn scale(w: f64, h: f64, asked: Option<f32>) -> Result<f64, OpError> {
    let side = f64::from(MAX_SIDE);
    let fit = (side / w)
        .min(side / h)
        .min((MAX_PIXELS as f64 / (w * h)).sqrt());
    match asked {
        Some(s) if !(s.is_finite() && s > 0.0) => Err(OpError::new(
            "Usage",
            format!("png: scale {s}: expected a positive number"),
        )),
        Some(s) if f64::from(s) > fit => Err(OpError::new(
            "TooLarge",
            format!(
                "png: at scale {s:.2} the picture is {:.0} x {:.0} pixels, past the limit of {MAX_SIDE} on a side and {MAX_PIXELS} pixels; draw it as SVG, or at a smaller scale",
                w * f64::from(s),
                h * f64::from(s),
            ),
        )),
        Some(s) => Ok(f64::from(s)),
        None => {
            let scale = (TARGET_SIDE / w.max(h))
                .clamp(1.0, MAX_AUTO_SCALE)
                .min(fit);
            if scale < MIN_SCALE {
                return Err(OpError::new(
                    "TooLarge",
                    format!(
                        "png: the picture is {w:.0} x {h:.0} units; within {MAX_SIDE} pixels on a side and {MAX_PIXELS} pixels its cells would be under 5 pixels; draw it as SVG"
                    ),
                ));
            }
            Ok(scale)
        }
    }
}

/// `svg` without the cell labels (`<g class="labels">`), for pictures drawn too small to read
/// them.
fn without_labels(svg: &str) -> Cow<'_, str> {
    const OPEN: &str = "<g class=\"labels\">";
    let mut out = String::new();
    let mut rest = svg;
    while let Some(i) = rest.find(OPEN) {
        let Some(len) = rest[i..].find("</g>") else {
            break;
        };
        out.push_str(&rest[..i]);
        rest = &rest[i + len + 4..];
    }
    if out.is_empty() {
        return Cow::Borrowed(svg);
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// The SVG text `svg` (a picture of [`cute_layout::render`] or [`crate::view::picture`]) as PNG
/// bytes (8-bit RGB), at `asked` pixels per SVG unit or, with `None`, the default scale (see
/// [`scale`]); labels are drawn with the embedded DejaVu Sans Mono, so the picture is the same
/// on every machine. Below half scale the cell labels are left out.
///
/// # Errors
/// `TooLarge` (decided from the SVG's header, before drawing) or `Usage` from [`scale`];
/// `Render` if the SVG has no `width`/`height` or cannot be read.
pub fn svg_to_png(svg: &str, asked: Option<f32>) -> Result<Vec<u8>, OpError> {
    use resvg::{tiny_skia, usvg};
    let (w, h) = svg_size(svg)
        .ok_or_else(|| OpError::new("Render", "png: the SVG has no width and height"))?;
    let scale = scale(w, h, asked)?;
    let svg = if scale < MIN_LABEL_SCALE {
        without_labels(svg)
    } else {
        Cow::Borrowed(svg)
    };
    let mut opt = usvg::Options::default();
    *opt.fontdb_mut() = label_fonts();
    let tree = usvg::Tree::from_str(&svg, &opt)
        .map_err(|e| OpError::new("Render", format!("png: cannot read the SVG: {e}")))?;
    // Within the limits of `scale`, so these fit a u32 and the pixmap's size an allocation.
    let (wi, hi) = (
        ((w * scale).ceil() as u32).max(1),
        ((h * scale).ceil() as u32).max(1),
    );
    let mut pixmap = tiny_skia::Pixmap::new(wi, hi).ok_or_else(|| {
        OpError::new("Render", format!("png: cannot allocate {wi} x {hi} pixels"))
    })?;
    let s = scale as f32;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(s, s),
        &mut pixmap.as_mut(),
    );
    encode_rgb(pixmap.data(), wi, hi)
        .map_err(|e| OpError::new("Render", format!("png: cannot encode: {e}")))
}

/// The width and height of PNG bytes, from the IHDR chunk; `None` if `png` is not a PNG.
pub fn size(png: &[u8]) -> Option<(u32, u32)> {
    if png.len() < 24 || !png.starts_with(b"\x89PNG\r\n\x1a\n") || &png[12..16] != b"IHDR" {
        return None;
    }
    let be = |k: usize| u32::from_be_bytes([png[k], png[k + 1], png[k + 2], png[k + 3]]);
    Some((be(16), be(20)))
}

/// DejaVu Sans Mono, regular and bold, reduced to the characters the pictures use (see
/// `fonts/LICENSE-DejaVu.txt`): the labels look the same on every machine, fonts installed or
/// not.
const FONT_REGULAR: &[u8] = include_bytes!("../fonts/DejaVuSansMono-subset.ttf");
const FONT_BOLD: &[u8] = include_bytes!("../fonts/DejaVuSansMono-Bold-subset.ttf");

/// The embedded fonts, as the `monospace` family of the pictures.
fn label_fonts() -> resvg::usvg::fontdb::Database {
    let mut db = resvg::usvg::fontdb::Database::new();
    db.load_font_data(FONT_REGULAR.to_vec());
    db.load_font_data(FONT_BOLD.to_vec());
    db.set_monospace_family("DejaVu Sans Mono");
    db
}

/// PNG of opaque RGBA pixels as 8-bit RGB, best compression up to 4 Mpx: the pictures have a
/// white background, so alpha carries nothing, and this is several times smaller than
/// tiny-skia's default RGBA encoding.
fn encode_rgb(rgba: &[u8], w: u32, h: u32) -> Result<Vec<u8>, png::EncodingError> {
    let rgb: Vec<u8> = rgba
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    // Best compression costs seconds on pictures of tens of megapixels; those get the fast one.
    if u64::from(w) * u64::from(h) <= 4_000_000 {
        enc.set_compression(png::Compression::Best);
        enc.set_adaptive_filter(png::AdaptiveFilterType::Adaptive);
    } else {
        enc.set_compression(png::Compression::Default);
    }
    let mut writer = enc.write_header()?;
    writer.write_image_data(&rgb)?;
    writer.finish()?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_is_bounded_before_drawing() {
        // Default: a small picture is scaled up to about 1600 pixels, at most 4x.
        assert_eq!(scale(200.0, 100.0, None).unwrap(), 4.0);
        assert_eq!(scale(1600.0, 100.0, None).unwrap(), 1.0);
        // Asked: refused past the limits, or when not a positive number.
        assert_eq!(scale(4096.0, 4096.0, Some(1.0)).unwrap(), 1.0);
        assert_eq!(
            scale(4096.0, 4096.0, Some(1.01)).unwrap_err().kind,
            "TooLarge"
        );
        assert_eq!(
            scale(10.0, 20_000.0, Some(1.0)).unwrap_err().kind,
            "TooLarge"
        );
        for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            assert_eq!(scale(10.0, 10.0, Some(bad)).unwrap_err().kind, "Usage");
        }
        // A picture whose cells would be under 5 pixels is refused.
        assert_eq!(
            scale(100_000.0, 100_000.0, None).unwrap_err().kind,
            "TooLarge"
        );
    }

    #[test]
    fn header_and_labels() {
        assert_eq!(
            svg_size("<svg width=\"10\" height=\"20.5\" viewBox=\"0 0 10 20\">"),
            Some((10.0, 20.5))
        );
        assert_eq!(svg_size("<svg width=\"0\" height=\"1\">"), None);
        assert_eq!(svg_size("<svg>"), None);
        assert_eq!(svg_to_png("<svg>", None).unwrap_err().kind, "Render");
        let s = "<svg><g class=\"labels\"><text>1</text></g><rect/></svg>";
        assert_eq!(without_labels(s), "<svg><rect/></svg>");
        assert_eq!(size(b"not a png"), None);
    }
}
