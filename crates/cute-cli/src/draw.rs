//! `cute svg`, `cute png`, `cute latex`, `cute banks` and the colour of `cute show`: pictures of
//! layouts, drawn by the library's `render` module; PNGs are the SVGs rendered with resvg.
//!
//! ```text
//! cute svg '(4,8):(8,1)' -o l.svg                               a layout
//! cute svg --tv '((4,8),(2,2)):((16,1),(8,64))' --tile '(16,8)' -o tv.svg
//! cute svg --banks 32 --elem-bytes 4 '(8,32):(32,1)' -o banks.svg
//! cute svg logical_divide '(8,8):(8,1)' '(2,4)' -o divide.svg     an operation
//! cute png ... -o FILE                                          the same, as PNG
//! cute latex '(4,8):(8,1)'                                      CuTe's print_latex (TikZ)
//! cute banks '(32,32):(32,1)' --access columns                  the bank-conflict report
//! ```
//!
//! `-o -` (the default for `svg`, `latex` and `banks`) writes to stdout.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use clap::Args;
use cute_layout::render::{self, Access, Banks, Op, Style};
use cute_layout::{ComposedLayout, IntTuple, Layout, Tiler};

use crate::ops::OpError;

/// The largest PNG side, in pixels, `cute png` renders (use `--scale` below 1 or `cute svg`
/// past it).
const MAX_PNG_SIDE: u32 = 16_384;

/// What to draw and how; shared by `svg`, `png` and `latex`.
#[derive(Args, Debug)]
pub struct DrawArgs {
    /// LAYOUT, or OP A B with OP one of composition, logical_divide, zipped_divide,
    /// tiled_divide, flat_divide, logical_product, zipped_product, tiled_product, flat_product,
    /// blocked_product, raked_product.
    #[arg(required = true, num_args = 1..=3, value_name = "LAYOUT | OP A B")]
    pub args: Vec<String>,
    /// Output file; `-` for stdout.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<String>,
    /// LAYOUT is a thread-value layout (thread, value) -> tile index; needs --tile.
    #[arg(long, requires = "tile")]
    pub tv: bool,
    /// The tile shape of --tv, e.g. '(16,8)'.
    #[arg(long, value_name = "SHAPE")]
    pub tile: Option<String>,
    /// Colour cells by shared-memory bank, with this many banks (e.g. 32).
    #[arg(long, value_name = "N", conflicts_with = "tv")]
    pub banks: Option<i64>,
    /// Bytes per element for --banks.
    #[arg(long, value_name = "BYTES", default_value_t = 4)]
    pub elem_bytes: i64,
    /// Access pattern of the bank report: rows (a warp reads a row), columns, or N (chunks of N
    /// consecutive coordinates).
    #[arg(long, value_name = "rows|columns|N", default_value = "rows")]
    pub access: String,
    /// Title printed above the picture instead of the layout.
    #[arg(long)]
    pub title: Option<String>,
    /// PNG only: pixels per SVG unit.
    #[arg(long, default_value_t = 1.0)]
    pub scale: f32,
}

/// `cute banks`: the bank-conflict report of an access pattern.
#[derive(Args, Debug)]
pub struct BanksArgs {
    /// The layout (element offsets in shared memory).
    pub layout: String,
    /// Number of banks.
    #[arg(long, default_value_t = 32)]
    pub banks: i64,
    /// Bytes per element.
    #[arg(long, value_name = "BYTES", default_value_t = 4)]
    pub elem_bytes: i64,
    /// rows (a warp reads a row), columns, or N (chunks of N consecutive coordinates).
    #[arg(long, value_name = "rows|columns|N", default_value = "rows")]
    pub access: String,
}

/// The output formats of [`DrawArgs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// SVG text.
    Svg,
    /// PNG bytes.
    Png,
    /// CuTe's TikZ text.
    Latex,
}

fn parse_layout(s: &str) -> Result<Layout, OpError> {
    s.parse()
        .map_err(|e| OpError::new("ParseError", format!("layout {s:?}: {e}")))
}

/// A layout, or a swizzled layout `Sw<B,M,S> o OFF o L`.
fn parse_composed(s: &str) -> Result<ComposedLayout, OpError> {
    s.parse()
        .map_err(|e| OpError::new("ParseError", format!("layout {s:?}: {e}")))
}

fn parse_access(s: &str) -> Result<Access, OpError> {
    cute_ops::view::parse_access(s)
}

/// The picture `args` ask for, as text (SVG or TikZ).
pub fn picture(a: &DrawArgs, format: Format) -> Result<String, OpError> {
    let style = match &a.title {
        Some(t) => Style::new().title(t),
        None => Style::new(),
    };
    let latex = format == Format::Latex;
    match a.args.as_slice() {
        [layout] => {
            // A swizzled layout `Sw<B,M,S> o OFF o L` is drawn as L with its offsets sent
            // through the swizzle layers (the render module's post-map hook).
            let composed = parse_composed(layout)?;
            let l = composed.layout().clone();
            // The layers are checked not to overflow on the layout's offsets at construction.
            let post = |x: i64| composed.post(x).unwrap_or(x);
            let style = if composed.as_layout().is_some() {
                style
            } else {
                style
                    .post_map(&post)
                    .title(a.title.as_deref().unwrap_or(layout.as_str()))
            };
            if a.tv {
                let tile_text = a.tile.as_deref().unwrap_or_default();
                let tile: IntTuple = tile_text.parse().map_err(|e| {
                    OpError::new("ParseError", format!("--tile {tile_text:?}: {e}"))
                })?;
                Ok(if latex {
                    render::latex_tv(&l, &tile, &style)?
                } else {
                    render::svg_tv(&l, &tile, &style)?
                })
            } else if let Some(n) = a.banks {
                if latex {
                    return Err(OpError::new(
                        "BadRequest",
                        "latex: --banks is drawn as SVG or PNG only",
                    ));
                }
                let banks = Banks::new(n, a.elem_bytes)?;
                Ok(render::svg_banks(
                    &l,
                    banks,
                    parse_access(&a.access)?,
                    &style,
                )?)
            } else if latex {
                Ok(render::latex(&l, &style)?)
            } else {
                Ok(render::svg(&l, &style)?)
            }
        }
        [op, x, y] => {
            let Some(op) = Op::from_name(op) else {
                let names: Vec<&str> = Op::ALL.iter().map(|o| o.name()).collect();
                return Err(OpError::new(
                    "UnknownOp",
                    format!(
                        "no picture for operation {op:?}; one of: {}",
                        names.join(", ")
                    ),
                ));
            };
            if a.tv || a.banks.is_some() || latex {
                return Err(OpError::new(
                    "BadRequest",
                    format!("{op}: operation pictures are SVG or PNG, without --tv or --banks"),
                ));
            }
            let l = parse_layout(x)?;
            let t: Tiler = y
                .parse()
                .map_err(|e| OpError::new("ParseError", format!("tiler {y:?}: {e}")))?;
            Ok(render::svg_op(op, &l, &t, &style)?)
        }
        other => Err(OpError::new(
            "Arity",
            format!("expected LAYOUT or OP A B, got {} arguments", other.len()),
        )),
    }
}

/// Renders SVG text to PNG bytes with resvg, loading the system fonts for the labels.
pub fn png(svg: &str, scale: f32) -> Result<Vec<u8>, OpError> {
    use resvg::{tiny_skia, usvg};
    if !(scale.is_finite() && scale > 0.0) {
        return Err(OpError::new(
            "BadRequest",
            format!("--scale {scale}: expected a positive number"),
        ));
    }
    let mut opt = usvg::Options::default();
    *opt.fontdb_mut() = label_fonts();
    if opt.fontdb.is_empty() {
        eprintln!("cute: warning: no monospace system font found, the PNG will have no labels");
    }
    let tree = usvg::Tree::from_str(svg, &opt)
        .map_err(|e| OpError::new("Render", format!("png: cannot read the SVG: {e}")))?;
    let size = tree.size();
    let (w, h) = (size.width() * scale, size.height() * scale);
    if w > MAX_PNG_SIDE as f32 || h > MAX_PNG_SIDE as f32 {
        return Err(OpError::new(
            "TooLarge",
            format!(
                "png: the picture would be {w:.0} x {h:.0} pixels, more than {MAX_PNG_SIDE} on a side; use --scale below 1 or cute svg"
            ),
        ));
    }
    let (wi, hi) = ((w.ceil() as u32).max(1), (h.ceil() as u32).max(1));
    let mut pixmap = tiny_skia::Pixmap::new(wi, hi).ok_or_else(|| {
        OpError::new("Render", format!("png: cannot allocate {wi} x {hi} pixels"))
    })?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    encode_rgb_png(pixmap.data(), wi, hi)
        .map_err(|e| OpError::new("Render", format!("png: cannot encode: {e}")))
}

/// The fonts of the labels, read into memory once: the system's regular and bold faces of
/// `DejaVu Sans Mono` or else of a monospaced family it has, registered as `monospace`. (A
/// database of font *files* would re-read a file for every one of the thousands of labels.)
fn label_fonts() -> resvg::usvg::fontdb::Database {
    use resvg::usvg::fontdb::{Database, Family, Query, Source, Weight};
    let mut system = Database::new();
    system.load_system_fonts();
    // fontdb's default `monospace` is Courier New; prefer any monospaced face the system has.
    let any_mono = system
        .faces()
        .find(|f| f.monospaced)
        .and_then(|f| f.families.first())
        .map(|f| f.0.clone());
    if let Some(name) = any_mono {
        system.set_monospace_family(name);
    }
    let mut db = Database::new();
    let families = [Family::Name("DejaVu Sans Mono"), Family::Monospace];
    let mut loaded = std::collections::HashSet::new();
    for weight in [Weight::NORMAL, Weight::BOLD] {
        let query = Query {
            families: &families,
            weight,
            ..Query::default()
        };
        let Some(id) = system.query(&query) else {
            continue;
        };
        if let Some(name) = system.face(id).and_then(|f| f.families.first()) {
            db.set_monospace_family(name.0.clone());
        }
        match system.face_source(id) {
            Some((Source::File(path), _)) if loaded.insert(path.clone()) => {
                if let Ok(data) = std::fs::read(&path) {
                    db.load_font_data(data);
                }
            }
            Some((Source::Binary(data), _)) => db.load_font_data(data.as_ref().as_ref().to_vec()),
            _ => {}
        }
    }
    db
}

/// PNG of opaque RGBA pixels as 8-bit RGB, best compression up to 4 Mpx: the pictures have a white
/// background, so alpha carries nothing, and this is several times smaller than tiny-skia's
/// default RGBA encoding.
fn encode_rgb_png(rgba: &[u8], w: u32, h: u32) -> Result<Vec<u8>, png::EncodingError> {
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

/// Writes `bytes` to `path` (`-` or none: stdout).
fn write_out(path: Option<&str>, bytes: &[u8]) -> Result<(), OpError> {
    match path {
        None | Some("-") => {
            let mut out = io::stdout().lock();
            match out.write_all(bytes).and_then(|()| out.flush()) {
                Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                    Err(OpError::new("Io", format!("cannot write output: {e}")))
                }
                _ => Ok(()),
            }
        }
        Some(p) => std::fs::write(p, bytes)
            .map_err(|e| OpError::new("Io", format!("cannot write {p}: {e}"))),
    }
}

/// `cute svg`, `cute png`, `cute latex`.
pub fn run(a: &DrawArgs, format: Format) -> ExitCode {
    let result = if format != Format::Png && a.scale != 1.0 {
        Err(OpError::new("BadRequest", "--scale is for cute png only"))
    } else {
        picture(a, format)
    };
    let result = result.and_then(|text| match format {
        Format::Png => {
            let Some(path) = a.output.as_deref() else {
                return Err(OpError::new(
                    "BadRequest",
                    "png: give the output file with -o FILE (-o - for stdout)",
                ));
            };
            if path == "-" && io::stdout().is_terminal() {
                return Err(OpError::new(
                    "BadRequest",
                    "png: not writing binary data to a terminal; use -o FILE",
                ));
            }
            write_out(Some(path), &png(&text, a.scale)?)
        }
        Format::Svg | Format::Latex => write_out(a.output.as_deref(), text.as_bytes()),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => crate::fail(&e),
    }
}

/// `cute banks`: the report, then one line per request.
pub fn banks_report(a: &BanksArgs) -> Result<String, OpError> {
    cute_ops::view::banks_report(&a.layout, a.banks, a.elem_bytes, &a.access)
}

/// Whether `cute show` colours its table: `always`, `never`, or `auto` (stdout is a terminal
/// and `NO_COLOR` is unset or empty, as <https://no-color.org> asks).
pub fn want_color(mode: &str) -> Result<bool, OpError> {
    match mode {
        "always" => Ok(true),
        "never" => Ok(false),
        "auto" => {
            Ok(io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()))
        }
        other => Err(OpError::new(
            "BadRequest",
            format!("--color {other:?}: expected auto, always or never"),
        )),
    }
}
