//! Custom palettes: the colours a picture paints its cells with, in place of the defaults.
//!
//! CuTe's `print_latex(layout, color)` and `print_latex_tv(tv, tile, color)` take a colour
//! function `color(idx)`: the value of a cell for a layout, the thread for a thread-value
//! layout. A palette of `N` colours is the colour function `idx -> palette[idx mod N]`; set it
//! with [`Style::palette`](super::Style::palette) and every picture uses it:
//!
//! | picture | a cell's colour with a palette |
//! |---|---|
//! | [`latex`](super::latex()), [`svg`](super::svg()) | `palette[value mod N]` (`value >> bits` with [`Style::color_by_bits`](super::Style::color_by_bits)) |
//! | [`svg`](super::svg()) with [`Style::color_by_range`](super::Style::color_by_range) | `N` shades: `palette[k]` for the `k`-th `N`-th of the range |
//! | [`latex_tv`](super::latex_tv), [`svg_tv`](super::svg_tv), the MMA and copy pictures | `palette[thread mod N]` |
//!
//! Bank pictures keep their bank colours. A colour is written `#rgb`, `#rrggbb`, `rgb(R,G,B)`,
//! CuTe's TikZ form `{rgb,255:red,R;green,G;blue,B}`, a CSS colour name (`red`, `lightblue`,
//! ...: [`NAMES`]), or xcolor's `NAME!P` (`P` percent of the colour, the rest white, as CuTe's
//! `black!40`). TikZ output spells every colour `{rgb,255:red,R;green,G;blue,B}` and SVG output
//! `#rrggbb`, so both pictures show the same colours.
//!
//! ```
//! use cute_layout::render::{self, parse_palette, Style};
//! let palette = parse_palette("#ff0000, lightblue, black!40")?;
//! let l: cute_layout::Layout = "(2,2):(1,2)".parse()?;
//! let tex = render::latex(&l, &Style::new().palette(&palette))?;
//! assert!(tex.contains("\\node[fill={rgb,255:red,255;green,0;blue,0}] at (0,0) {0};"));
//! assert!(tex.contains("\\node[fill={rgb,255:red,255;green,0;blue,0}] at (1,1) {3};")); // 3 mod 3
//! let svg = render::svg(&l, &Style::new().palette(&palette))?;
//! assert!(svg.contains(".o1{fill:#add8e6}"));
//! assert!(parse_palette("#ff00").is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use crate::layout::error::LayoutError;

/// Most colours a palette holds.
pub const MAX_PALETTE: usize = 256;

/// An opaque colour, red, green and blue from 0 to 255.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Color {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
}

/// The CSS colour names a palette takes, with their `#rrggbb` values (CSS's, also in TikZ
/// output: `green` is CSS's `#008000`, not xcolor's `#00ff00`).
pub const NAMES: [(&str, u32); 40] = [
    ("black", 0x000000),
    ("white", 0xffffff),
    ("red", 0xff0000),
    ("green", 0x008000),
    ("blue", 0x0000ff),
    ("yellow", 0xffff00),
    ("cyan", 0x00ffff),
    ("aqua", 0x00ffff),
    ("magenta", 0xff00ff),
    ("fuchsia", 0xff00ff),
    ("gray", 0x808080),
    ("grey", 0x808080),
    ("silver", 0xc0c0c0),
    ("maroon", 0x800000),
    ("olive", 0x808000),
    ("lime", 0x00ff00),
    ("teal", 0x008080),
    ("navy", 0x000080),
    ("purple", 0x800080),
    ("orange", 0xffa500),
    ("pink", 0xffc0cb),
    ("brown", 0xa52a2a),
    ("violet", 0xee82ee),
    ("lightgray", 0xd3d3d3),
    ("lightgrey", 0xd3d3d3),
    ("darkgray", 0xa9a9a9),
    ("darkgrey", 0xa9a9a9),
    ("gold", 0xffd700),
    ("lightblue", 0xadd8e6),
    ("lightgreen", 0x90ee90),
    ("lightyellow", 0xffffe0),
    ("lightpink", 0xffb6c1),
    ("salmon", 0xfa8072),
    ("khaki", 0xf0e68c),
    ("lavender", 0xe6e6fa),
    ("beige", 0xf5f5dc),
    ("coral", 0xff7f50),
    ("skyblue", 0x87ceeb),
    ("plum", 0xdda0dd),
    ("wheat", 0xf5deb3),
];

impl Color {
    /// The colour `0xRRGGBB`.
    pub const fn from_rgb(rgb: u32) -> Color {
        Color {
            r: (rgb >> 16) as u8,
            g: (rgb >> 8) as u8,
            b: rgb as u8,
        }
    }

    /// `#rrggbb`, as SVG writes it.
    pub fn hex(&self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }

    /// `{rgb,255:red,R;green,G;blue,B}`, as CuTe's TikZ colours are written.
    pub fn tikz(&self) -> String {
        format!(
            "{{rgb,255:red,{};green,{};blue,{}}}",
            self.r, self.g, self.b
        )
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.hex())
    }
}

fn bad(text: &str) -> LayoutError {
    LayoutError::InvalidArgument {
        op: "palette",
        what: format!(
            "colour {text:?}: expected #rgb, #rrggbb, rgb(R,G,B), {{rgb,255:red,R;green,G;blue,B}}, \
             a CSS colour name (red, lightblue, ...) or NAME!PERCENT"
        ),
    }
}

/// Three integers from 0 to 255 separated by `sep`, each after its prefix (`red,` ...).
fn channels(text: &str, body: &str, sep: char, prefixes: [&str; 3]) -> Result<Color, LayoutError> {
    let parts: Vec<&str> = body.split(sep).map(str::trim).collect();
    let [r, g, b] = parts.as_slice() else {
        return Err(bad(text));
    };
    let mut out = [0u8; 3];
    for (k, (part, prefix)) in [r, g, b].iter().zip(prefixes).enumerate() {
        let digits = part.strip_prefix(prefix).ok_or_else(|| bad(text))?.trim();
        out[k] = digits.parse::<u8>().map_err(|_| bad(text))?;
    }
    Ok(Color {
        r: out[0],
        g: out[1],
        b: out[2],
    })
}

impl FromStr for Color {
    type Err = LayoutError;

    /// One colour in any of the forms of the [module docs](self).
    fn from_str(s: &str) -> Result<Color, LayoutError> {
        let text = s.trim();
        if let Some(hex) = text.strip_prefix('#') {
            if !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
                return Err(bad(s));
            }
            let v = u32::from_str_radix(hex, 16).map_err(|_| bad(s))?;
            return match hex.len() {
                6 => Ok(Color::from_rgb(v)),
                3 => {
                    let d = |k: u32| ((v >> (4 * k)) & 0xf) as u8 * 17;
                    Ok(Color {
                        r: d(2),
                        g: d(1),
                        b: d(0),
                    })
                }
                _ => Err(bad(s)),
            };
        }
        if let Some(body) = text.strip_prefix("rgb(").and_then(|t| t.strip_suffix(')')) {
            return channels(s, body, ',', ["", "", ""]);
        }
        if let Some(body) = text
            .strip_prefix('{')
            .and_then(|t| t.strip_suffix('}'))
            .and_then(|t| t.trim().strip_prefix("rgb,255:"))
        {
            return channels(s, body, ';', ["red,", "green,", "blue,"]);
        }
        let (name, percent) = match text.split_once('!') {
            Some((n, p)) => {
                let p: u32 = p.trim().parse().map_err(|_| bad(s))?;
                if p > 100 {
                    return Err(bad(s));
                }
                (n.trim(), p)
            }
            None => (text, 100),
        };
        let lower = name.to_ascii_lowercase();
        let rgb = NAMES
            .iter()
            .find(|(n, _)| *n == lower)
            .map(|&(_, v)| Color::from_rgb(v))
            .ok_or_else(|| bad(s))?;
        // xcolor's NAME!P: P percent of the colour, the rest white.
        let mix = |c: u8| ((u32::from(c) * percent + 255 * (100 - percent) + 50) / 100) as u8;
        Ok(Color {
            r: mix(rgb.r),
            g: mix(rgb.g),
            b: mix(rgb.b),
        })
    }
}

/// A palette: colours separated by commas (or whitespace), e.g.
/// `"#cfe2f3, #fce5cd, lightgreen"`; commas inside `rgb(...)` and `{...}` belong to the colour.
///
/// # Errors
/// [`LayoutError::InvalidArgument`] (op `palette`) for a colour of none of the forms of the
/// [module docs](self), for an empty palette, or for more than [`MAX_PALETTE`] colours.
pub fn parse_palette(text: &str) -> Result<Vec<Color>, LayoutError> {
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth == 0 && (c == ',' || c.is_whitespace()) {
            if !cur.is_empty() {
                words.push(core::mem::take(&mut cur));
            }
        } else {
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    if words.is_empty() {
        return Err(LayoutError::InvalidArgument {
            op: "palette",
            what: String::from("no colours given"),
        });
    }
    if words.len() > MAX_PALETTE {
        return Err(LayoutError::InvalidArgument {
            op: "palette",
            what: format!("{} colours, at most {MAX_PALETTE}", words.len()),
        });
    }
    words.iter().map(|w| w.parse()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form() {
        let c = |s: &str| s.parse::<Color>().map(|c| c.hex());
        assert_eq!(c("#ABC").unwrap(), "#aabbcc");
        assert_eq!(c("#0a0B0c").unwrap(), "#0a0b0c");
        assert_eq!(c("rgb(1, 2,3)").unwrap(), "#010203");
        assert_eq!(
            c("{rgb,255:red,175;green,175;blue,255}").unwrap(),
            "#afafff"
        );
        assert_eq!(c("LightBlue").unwrap(), "#add8e6");
        assert_eq!(c("black!40").unwrap(), "#999999");
        assert_eq!(c("black!0").unwrap(), "#ffffff");
        assert_eq!(c("red!100").unwrap(), "#ff0000");
        for bad in [
            "",
            "#",
            "#12",
            "#12345",
            "#1234567",
            "#ggg",
            "#+12",
            "rgb(1,2)",
            "rgb(1,2,256)",
            "rgb(-1,2,3)",
            "nocolour",
            "black!101",
            "black!",
            "black!x",
            "{rgb,255:red,1}",
            "{rgb,1:red,1;green,2;blue,3}",
        ] {
            let e = bad.parse::<Color>().unwrap_err();
            assert_eq!(e.kind(), "InvalidArgument", "{bad}");
        }
    }

    #[test]
    fn palettes() {
        let p = parse_palette("red,  rgb(0,0,255) {rgb,255:red,1;green,2;blue,3},#fff").unwrap();
        let hex: Vec<String> = p.iter().map(Color::hex).collect();
        assert_eq!(hex, ["#ff0000", "#0000ff", "#010203", "#ffffff"]);
        assert!(parse_palette(" , ").is_err());
        assert!(parse_palette("red,,blue").is_ok());
        let many = alloc::vec!["red"; MAX_PALETTE + 1].join(",");
        assert!(parse_palette(&many).is_err());
        assert_eq!(p[1].tikz(), "{rgb,255:red,0;green,0;blue,255}");
    }
}
