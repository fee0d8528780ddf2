//! `cute svg`, `cute png`, `cute latex`, `cute banks` and the colour of `cute show`: pictures of
//! layouts, drawn by the library's `render` module; PNGs are the SVGs rasterised by
//! `cute_ops::png` (resvg with the embedded font).
//!
//! ```text
//! cute svg '(4,8):(8,1)' -o l.svg                               a layout
//! cute svg --tv '((4,8),(2,2)):((16,1),(8,64))' --tile '(16,8)' -o tv.svg
//! cute svg --banks 32 --elem-bytes 4 '(8,32):(32,1)' -o banks.svg
//! cute svg logical_divide '(8,8):(8,1)' '(2,4)' -o divide.svg     an operation
//! cute png ... -o FILE                                          the same, as PNG
//! cute latex '(4,8):(8,1)'                                      CuTe's print_latex (TikZ)
//! cute svg mma SM80_16x8x16_F16F16F16F16_TN --layout '(2,2,1)'  an MMA's A, B, C panels
//! cute svg copy SM75_U32x4_LDSM_N half_t --thr '(32,1):(1,0)' --val '(1,8):(0,1)'  a TiledCopy
//! cute banks '(32,32):(32,1)' --access columns                  the bank-conflict report
//! ```
//!
//! `-o -` (the default for `svg`, `latex` and `banks`) writes to stdout.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use clap::Args;
use cute_layout::render::Access;

use crate::ops::picture_ops::PictureArgs;
use crate::ops::OpError;

/// What to draw; shared by `svg` and `png`.
#[derive(Args, Debug)]
pub struct DrawArgs {
    /// LAYOUT (a layout, a swizzled layout, or a shape), or OP A B with OP one of composition,
    /// logical_divide, zipped_divide, tiled_divide, flat_divide, logical_product,
    /// zipped_product, tiled_product, flat_product, blocked_product, raked_product, or
    /// `mma ATOM` (CuTe's print_latex of an MMA atom or, with --layout / --permutation, of a
    /// tiled MMA), or `copy ATOM TYPE` (a TiledCopy's source and destination: --thr/--val, or
    /// --mma with --layout/--permutation and --operand).
    #[arg(required = true, num_args = 1..=3, value_name = "LAYOUT | OP A B | mma ATOM | copy ATOM TYPE")]
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
    #[arg(long, value_name = "N", conflicts_with = "tv", value_parser = clap::value_parser!(i64).range(1..=1024))]
    pub banks: Option<i64>,
    /// Bytes per element for --banks: 1, 2, 4, 8, 16, ... (a power of two up to 1024).
    #[arg(long, value_name = "BYTES", default_value_t = 4, value_parser = power_of_two)]
    pub elem_bytes: i64,
    /// Access pattern of the bank report: rows (a warp reads a row), columns, or N (chunks of N
    /// consecutive coordinates).
    #[arg(long, value_name = "rows|columns|N", default_value = "rows", value_parser = access_arg)]
    pub access: String,
    /// Title printed above the picture instead of the layout.
    #[arg(long)]
    pub title: Option<String>,
    #[command(flatten)]
    pub copy: CopyArgs,
    /// --tv only: outline the cells of this thread.
    #[arg(long, value_name = "THREAD", requires = "tv")]
    pub highlight: Option<i64>,
    /// Cell colours: value (CuTe's: value mod 8), swizzle (value / 2^M mod 8 for Sw<B,M,S>, so
    /// the swizzle shows), range (16 shades from the smallest value to the largest), or BITS
    /// (value / 2^BITS mod 8). Default: swizzle for a swizzled layout, range for a layout of
    /// more than 256 points, else value.
    #[arg(long, value_name = "value|swizzle|range|BITS", value_parser = color_by_arg)]
    pub color_by: Option<String>,
    /// mma: the atom layout of make_tiled_mma (a layout or a shape; default (1,1,1)).
    #[arg(long, value_name = "LAYOUT")]
    pub layout: Option<String>,
    /// mma: the permutation of make_tiled_mma, a tiler such as '(32,32,16)'.
    #[arg(long, value_name = "TILER")]
    pub permutation: Option<String>,
    /// Cell colours instead of the defaults, by value (or thread) mod N: N colours such as
    /// '#cfe2f3,#fce5cd,lightgreen' (#rgb, #rrggbb, rgb(R,G,B), a CSS name, NAME!PERCENT).
    #[arg(long, value_name = "COLOURS")]
    pub palette: Option<String>,
}

/// The tiled copy of `copy ATOM TYPE` (pictures and `cute copy`): --thr/--val for
/// make_tiled_copy, or --mma (with --layout/--permutation of the tiled MMA) and --operand for
/// make_tiled_copy_A/B/C/C_atom.
#[derive(Args, Debug, Clone, Default)]
pub struct CopyArgs {
    /// copy: make_tiled_copy's thread layout (m,n) -> thread, e.g. '(32,8):(8,1)'.
    #[arg(long, value_name = "LAYOUT")]
    pub thr: Option<String>,
    /// copy: make_tiled_copy's value layout (m,n) -> value (default 1:0).
    #[arg(long, value_name = "LAYOUT")]
    pub val: Option<String>,
    /// copy: tile the copy as this MMA atom's operand (make_tiled_copy_A/B/C).
    #[arg(long, value_name = "MMA_ATOM")]
    pub mma: Option<String>,
    /// copy with --mma: A, B, C (default) or C_atom.
    #[arg(long, value_name = "A|B|C|C_atom")]
    pub operand: Option<String>,
    /// copy with --mma, for `cute copy`: the atom layout of make_tiled_mma.
    #[arg(skip)]
    pub layout: Option<String>,
    /// copy with --mma, for `cute copy`: the permutation of make_tiled_mma.
    #[arg(skip)]
    pub permutation: Option<String>,
}

impl CopyArgs {
    /// The tiled copy these arguments name for `atom` and `ty`.
    pub fn spec<'a>(
        &'a self,
        atom: &'a str,
        ty: &'a str,
    ) -> crate::ops::copy_atoms::TiledCopySpec<'a> {
        crate::ops::copy_atoms::TiledCopySpec {
            atom,
            ty,
            thr: self.thr.as_deref(),
            val: self.val.as_deref(),
            mma: self.mma.as_deref(),
            layout: self.layout.as_deref(),
            permutation: self.permutation.as_deref(),
            operand: self.operand.as_deref(),
        }
    }
}

/// clap's check of `--color-by`.
fn color_by_arg(s: &str) -> Result<String, String> {
    crate::ops::picture_ops::color_by(s)
}

/// `cute svg`.
#[derive(Args, Debug)]
pub struct SvgArgs {
    #[command(flatten)]
    pub draw: DrawArgs,
}

/// `cute png`.
#[derive(Args, Debug)]
pub struct PngArgs {
    #[command(flatten)]
    pub draw: DrawArgs,
    /// Pixels per SVG unit (default: chosen so that the picture is about 1200 pixels on its
    /// longer side, within the pixel budget).
    #[arg(long)]
    pub scale: Option<f32>,
}

/// `cute latex`.
#[derive(Args, Debug)]
pub struct LatexArgs {
    /// The layout (or a swizzled layout, or a shape), or `mma ATOM` (CuTe's print_latex of an
    /// MMA atom or, with --layout / --permutation, of a tiled MMA), or `copy ATOM TYPE` (CuTe's
    /// print_latex of a TiledCopy: --thr/--val, or --mma and --operand).
    #[arg(required = true, num_args = 1..=3, value_name = "LAYOUT | mma ATOM | copy ATOM TYPE")]
    pub args: Vec<String>,
    #[command(flatten)]
    pub copy: CopyArgs,
    /// mma: the atom layout of make_tiled_mma (a layout or a shape; default (1,1,1)).
    #[arg(long, value_name = "LAYOUT")]
    pub layout: Option<String>,
    /// mma: the permutation of make_tiled_mma, a tiler such as '(32,32,16)'.
    #[arg(long, value_name = "TILER")]
    pub permutation: Option<String>,
    /// Output file; `-` (the default) for stdout.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<String>,
    /// LAYOUT is a thread-value layout (thread, value) -> tile index; needs --tile.
    #[arg(long, requires = "tile")]
    pub tv: bool,
    /// The tile shape of --tv, e.g. '(16,8)'.
    #[arg(long, value_name = "SHAPE")]
    pub tile: Option<String>,
    /// CuTe's colour function as a palette: cell colours by value (by thread for --tv, mma and
    /// copy) mod N, e.g. '#cfe2f3,#fce5cd,lightgreen' (#rgb, #rrggbb, rgb(R,G,B), a CSS name,
    /// NAME!PERCENT such as black!40).
    #[arg(long, value_name = "COLOURS")]
    pub palette: Option<String>,
}

/// clap's check of `--elem-bytes`.
fn power_of_two(s: &str) -> Result<i64, String> {
    crate::ops::picture_ops::power_of_two(s)
}

/// clap's check of `--access`.
fn access_arg(s: &str) -> Result<String, String> {
    parse_access(s)
        .map(|_| s.to_string())
        .map_err(|e| e.message)
}

/// `cute banks`: the bank-conflict report of an access pattern.
#[derive(Args, Debug)]
pub struct BanksArgs {
    /// The layout (element offsets in shared memory).
    pub layout: String,
    /// Number of banks.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(i64).range(1..=1024))]
    pub banks: i64,
    /// Bytes per element: 1, 2, 4, 8, 16, ... (a power of two up to 1024).
    #[arg(long, value_name = "BYTES", default_value_t = 4, value_parser = power_of_two)]
    pub elem_bytes: i64,
    /// rows (a warp reads a row), columns, or N (chunks of N consecutive coordinates).
    #[arg(long, value_name = "rows|columns|N", default_value = "rows", value_parser = access_arg)]
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

fn parse_access(s: &str) -> Result<Access, OpError> {
    crate::ops::view::parse_access(s)
}

/// The picture `args` ask for, as text (SVG or TikZ): the `svg` or `latex` operation's
/// [`picture`](crate::ops::picture_ops::picture) of the same arguments.
pub fn picture(a: &DrawArgs, format: Format) -> Result<String, OpError> {
    let p = PictureArgs {
        args: a.args.clone(),
        tv: a.tv,
        tile: a.tile.clone(),
        banks: a.banks,
        elem_bytes: Some(a.elem_bytes),
        access: Some(a.access.clone()),
        title: a.title.clone(),
        highlight: a.highlight,
        color_by: a.color_by.clone(),
        layout: a.layout.clone(),
        permutation: a.permutation.clone(),
        thr: a.copy.thr.clone(),
        val: a.copy.val.clone(),
        mma: a.copy.mma.clone(),
        operand: a.copy.operand.clone(),
        palette: a.palette.clone(),
    };
    crate::ops::picture_ops::picture(&p, format == Format::Latex)
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

/// Refuses an output file whose extension names another format (`-o plain.pdf` for SVG).
fn check_extension(path: Option<&str>, format: Format) -> Result<(), OpError> {
    let Some(path) = path.filter(|p| *p != "-") else {
        return Ok(());
    };
    let want: &[&str] = match format {
        Format::Svg => &["svg"],
        Format::Png => &["png"],
        Format::Latex => &["tex", "tikz"],
    };
    let ext = std::path::Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext {
        Some(e) if !want.contains(&e.as_str()) => Err(OpError::new(
            "Usage",
            format!(
                "-o {path}: this command writes {}, not .{e}; name the file .{}{}",
                match format {
                    Format::Svg => "SVG",
                    Format::Png => "PNG",
                    Format::Latex => "TikZ (LaTeX)",
                },
                want[0],
                match e.as_str() {
                    "png" => " or use cute png",
                    "svg" => " or use cute svg",
                    _ => "",
                }
            ),
        )),
        _ => Ok(()),
    }
}

fn finish(result: Result<(), OpError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => crate::fail(&e),
    }
}

/// `cute svg`.
pub fn run_svg(a: &SvgArgs) -> ExitCode {
    let out = a.draw.output.as_deref();
    finish(
        check_extension(out, Format::Svg)
            .and_then(|()| picture(&a.draw, Format::Svg))
            .and_then(|text| write_out(out, text.as_bytes())),
    )
}

/// `cute png`.
pub fn run_png(a: &PngArgs) -> ExitCode {
    let result = (|| {
        let Some(path) = a.draw.output.as_deref() else {
            return Err(OpError::new(
                "Usage",
                "png: give the output file with -o FILE (-o - for stdout)",
            ));
        };
        check_extension(Some(path), Format::Png)?;
        if path == "-" && io::stdout().is_terminal() {
            return Err(OpError::new(
                "Usage",
                "png: not writing binary data to a terminal; use -o FILE",
            ));
        }
        if let Some(s) = a.scale {
            crate::ops::png::scale(1.0, 1.0, Some(s))?;
        }
        let text = picture(&a.draw, Format::Png)?;
        write_out(Some(path), &crate::ops::png::svg_to_png(&text, a.scale)?)
    })();
    finish(result)
}

/// `cute latex`.
pub fn run_latex(a: &LatexArgs) -> ExitCode {
    let draw = DrawArgs {
        args: a.args.clone(),
        output: a.output.clone(),
        tv: a.tv,
        tile: a.tile.clone(),
        banks: None,
        elem_bytes: 4,
        access: String::from("rows"),
        title: None,
        highlight: None,
        color_by: Some(String::from("value")),
        layout: a.layout.clone(),
        permutation: a.permutation.clone(),
        copy: a.copy.clone(),
        palette: a.palette.clone(),
    };
    let out = a.output.as_deref();
    finish(
        check_extension(out, Format::Latex)
            .and_then(|()| picture(&draw, Format::Latex))
            .and_then(|text| write_out(out, text.as_bytes())),
    )
}

/// `cute banks`: the report, then one line per request.
pub fn banks_report(a: &BanksArgs) -> Result<String, OpError> {
    crate::ops::view::banks_report(&a.layout, a.banks, a.elem_bytes, &a.access)
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
