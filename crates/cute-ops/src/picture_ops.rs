//! The pictures as operations: `latex` (CuTe's `print_latex`, TikZ) and `svg`, with the
//! arguments of `cute latex` / `cute svg` (the command-line subcommands call [`picture`] too, so
//! both give the same text). Drawing is [`cute_layout::render`]'s; this file reads arguments.
//!
//! The answer is the picture's text without its final newline (as every answer; `cute latex`
//! and `cute svg` write it with one). The arguments are the command line's words: positional
//! arguments and `--OPTION VALUE` (or `--OPTION=VALUE`) in any order; `-o FILE` is refused (the
//! answer is the text).
//!
//! | picture | arguments |
//! |---|---|
//! | a layout, swizzled layout `Sw<B,M,S> o OFF o L` or shape | `LAYOUT` |
//! | a thread-value layout on a tile (`print_latex_tv`) | `--tv TV_LAYOUT --tile SHAPE` (`--highlight T`: svg) |
//! | an MMA atom or tiled MMA | `mma ATOM [--layout L] [--permutation P]` |
//! | a tiled copy | `copy ATOM TYPE --thr L [--val L]`, or `copy ATOM TYPE --mma ATOM [--operand A\|B\|C\|C_atom] [--layout L] [--permutation P]` |
//! | svg only: an operation's operands and result | `OP A B` (the divides, products, composition) |
//! | svg only: shared-memory banks | `LAYOUT --banks N [--elem-bytes B] [--access rows\|columns\|N]` |
//!
//! Colours: `--palette C,C,...` (any picture; CuTe's colour function, see
//! [`cute_layout::render::color`]); svg also `--color-by value|swizzle|range|BITS` and
//! `--title TEXT`.
//!
//! ```
//! use cute_ops::{run_op, Arg};
//! let t = |s: &str| Arg::Text(s.into());
//! let tex = run_op("latex", &[t("(2,3):(3,1)")]).unwrap();
//! assert!(tex.starts_with("% Layout: (2,3):(3,1)\n\\documentclass[convert]{standalone}\n"));
//! let tv = run_op("latex", &[t("--tv"), t("((4,8),(2,2)):((16,1),(8,64))"), t("--tile"), t("(16,8)")]).unwrap();
//! assert_eq!(tv.matches("\\shortstack").count(), 128);
//! let svg = run_op("svg", &[t("(2,2):(1,2)"), t("--palette"), t("red,#00f")]).unwrap();
//! assert!(svg.contains(".o1{fill:#0000ff}"));
//! assert_eq!(run_op("svg", &[t("4:1"), t("--palette"), t("#12")]).unwrap_err().kind, "ParseError");
//! ```

use cute_layout::render::{self, parse_palette, Banks, Op, Style};
use cute_layout::{IntTuple, Layout, LayoutChain, OuterFn, Tiler};
use std::cell::Cell;

use crate::table::{many, one, opt, Kind as K, Topic};
use crate::value::Value;
use crate::{op, Args, OpError, OpSpec};

/// The picture operations.
#[rustfmt::skip]
pub static PICTURE_OPS: &[OpSpec] = &[
    op("latex", Topic::Rendering, "CuTe's print_latex as TikZ text: a layout, a TV layout (--tv L --tile SHAPE), an MMA atom or tiled MMA (mma ATOM --layout --permutation), a tiled copy (copy ATOM TYPE --thr --val | --mma --operand); --palette C,C,... (`cute help latex`)")
        .params(&[one("", &[K::Layout, K::Tag("mma"), K::Tag("copy")]), opt("", &[K::Atom]), opt("", &[K::Type]), many("", &[K::Option])])
        .returns(&[K::Text])
        .errors(&["BadArgument", "InvalidArgument", "InvalidExtent", "RankMismatch", "TooLarge", "UnknownAtom"])
        .law("CuTe's print_latex text: cell (m,n) of the layout's 2-D grid holds L(m + M*n), shaded by value mod 8 (TV layout, MMA, copy: T<t> V<v> by thread mod 8); --palette C,C,... paints value or thread k with colour k mod N")
        .example(&["2:1"], "% Layout: (2,1):(1,0)\n\\documentclass[convert]{standalone}\n\\usepackage{tikz}\n\n\\begin{document}\n\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n\\node[fill=black!00] at (0,0) {0};\n\\node[fill=black!40] at (1,0) {1};\n\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (2,1);\n\n\\node at (0,-1) {\\Large{\\texttt{0}}};\n\\node at (1,-1) {\\Large{\\texttt{1}}};\n\\node at (-1,0) {\\Large{\\texttt{0}}};\n\\end{tikzpicture}\n\\end{document}")
        .run(|a| picture_op(a, true)),
    op("svg", Topic::Rendering, "the pictures of latex as SVG, an operation's operands beside its result (OP A B), bank conflicts (--banks N); --palette, --color-by, --title, --highlight (`cute help svg`)")
        .params(&[one("", &[K::Layout, K::Op, K::Tag("mma"), K::Tag("copy")]), opt("A|ATOM", &[K::Layout, K::Atom]), opt("B|TYPE", &[K::Layout, K::Type]), many("", &[K::Option])])
        .returns(&[K::Text])
        .errors(&["BadArgument", "InvalidArgument", "InvalidExtent", "Overflow", "RankMismatch", "TooLarge", "UnknownAtom", "UnknownOp", "Usage"])
        .law("the pictures of latex as SVG (cells coloured by value mod 8, TV cells by thread mod 32), plus operations drawn as operands beside the result and bank pictures; --palette C,C,... paints value or thread k with colour k mod N")
        .example(&["2:1", "--palette", "lightblue,wheat"], "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"214\" height=\"97\" viewBox=\"0 0 214 97\" font-family=\"DejaVu Sans Mono, monospace\" font-size=\"12\">\n<style>\ntext{text-anchor:middle;fill:#000}\n.title{font-size:13px;font-weight:bold;text-anchor:start}\n.note{font-size:11px;fill:#444;text-anchor:start}\n.h{font-size:11px;fill:#555}\n.rn{font-size:11px;fill:#000;text-anchor:start}\n.gl{fill:none;stroke:#333;stroke-width:1}\n.g1{fill:none;stroke:#000;stroke-width:2}\n.g2{fill:none;stroke:#000;stroke-width:3}\n.g3{fill:none;stroke:#000;stroke-width:4}\n.o0{fill:#add8e6}\n.o1{fill:#f5deb3}\n</style>\n<rect width=\"214\" height=\"97\" fill=\"#fff\"/>\n<g class=\"panel\">\n<text class=\"title\" x=\"12\" y=\"26\">2:1</text>\n<text class=\"note\" x=\"12\" y=\"43\">rank 1: drawn as one row of 2</text>\n<g class=\"headers\">\n<text class=\"h\" x=\"42\" y=\"59\">0</text>\n<text class=\"h\" x=\"68\" y=\"59\">1</text>\n<text class=\"h\" x=\"20.5\" y=\"78\">0</text>\n</g>\n<g class=\"cells\">\n<rect class=\"o0\" x=\"29\" y=\"63\" width=\"26\" height=\"22\"/>\n<rect class=\"o1\" x=\"55\" y=\"63\" width=\"26\" height=\"22\"/>\n</g>\n<g class=\"labels\">\n<text x=\"42\" y=\"78\">0</text>\n<text x=\"68\" y=\"78\">1</text>\n</g>\n<path class=\"gl\" d=\"M29 63h52M29 85h52M29 63v22M55 63v22M81 63v22\"/>\n</g>\n</svg>")
        .run(|a| picture_op(a, false)),
];

/// What to draw: the arguments of `cute svg` (and of `cute latex`, which takes fewer), one field
/// per option; [`picture`] checks the values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PictureArgs {
    /// `LAYOUT`, `OP A B`, `mma ATOM` or `copy ATOM TYPE`.
    pub args: Vec<String>,
    /// `--tv`: LAYOUT is a thread-value layout (thread, value) -> tile index.
    pub tv: bool,
    /// `--tile`: the tile shape of `--tv`.
    pub tile: Option<String>,
    /// `--banks`: colour cells by shared-memory bank, with this many banks.
    pub banks: Option<i64>,
    /// `--elem-bytes` of `--banks` (default 4).
    pub elem_bytes: Option<i64>,
    /// `--access` of `--banks`: rows (default), columns or N.
    pub access: Option<String>,
    /// `--title`: printed above the picture instead of the layout.
    pub title: Option<String>,
    /// `--highlight`: with `--tv`, outline this thread's cells.
    pub highlight: Option<i64>,
    /// `--color-by`: value, swizzle, range or a number of bits.
    pub color_by: Option<String>,
    /// `--layout`: the atom layout of make_tiled_mma.
    pub layout: Option<String>,
    /// `--permutation`: the permutation of make_tiled_mma.
    pub permutation: Option<String>,
    /// `--thr`: make_tiled_copy's thread layout.
    pub thr: Option<String>,
    /// `--val`: make_tiled_copy's value layout.
    pub val: Option<String>,
    /// `--mma`: the MMA atom of make_tiled_copy_A/B/C/C_atom.
    pub mma: Option<String>,
    /// `--operand`: A, B, C or C_atom.
    pub operand: Option<String>,
    /// `--palette`: the cell colours, `C,C,...`.
    pub palette: Option<String>,
}

/// The options of `svg`: name, whether it takes a value, whether `latex` takes it too.
const OPTIONS: [(&str, bool, bool); 16] = [
    ("tv", false, true),
    ("tile", true, true),
    ("banks", true, false),
    ("elem-bytes", true, false),
    ("access", true, false),
    ("title", true, false),
    ("highlight", true, false),
    ("color-by", true, false),
    ("layout", true, true),
    ("permutation", true, true),
    ("thr", true, true),
    ("val", true, true),
    ("mma", true, true),
    ("operand", true, true),
    ("palette", true, true),
    ("output", true, false),
];

/// `--banks`: 1 to 1024 banks.
pub fn check_banks(n: i64) -> Result<i64, OpError> {
    if (1..=1024).contains(&n) {
        Ok(n)
    } else {
        Err(OpError::new(
            "BadRequest",
            format!("--banks {n}: expected a number of banks from 1 to 1024"),
        ))
    }
}

/// `--elem-bytes`: a power of two from 1 to 1024.
///
/// # Errors
/// The message `cute`'s option parser prints.
pub fn power_of_two(s: &str) -> Result<i64, String> {
    match s.trim().parse::<i64>() {
        Ok(v) if (1..=1024).contains(&v) && v.count_ones() == 1 => Ok(v),
        _ => Err(String::from(
            "expected a power of two from 1 to 1024 (the size of an element in bytes)",
        )),
    }
}

/// `--color-by`: value, swizzle, range, or a number of bits from 0 to 62.
///
/// # Errors
/// The message `cute`'s option parser prints.
pub fn color_by(s: &str) -> Result<String, String> {
    match s {
        "value" | "swizzle" | "range" => Ok(s.to_string()),
        n => match n.parse::<u32>() {
            Ok(k) if k <= 62 => Ok(s.to_string()),
            _ => Err(String::from(
                "expected value, swizzle, range or a number of bits from 0 to 62",
            )),
        },
    }
}

impl PictureArgs {
    /// The arguments of operation `op` (`latex` or `svg`) read from its words.
    ///
    /// # Errors
    /// `BadRequest` for an option the operation does not take, one given twice, one without
    /// its value or with a bad one, and for `--tv` without `--tile` (or the reverse),
    /// `--banks` with `--tv`, `--highlight` without `--tv`.
    pub fn from_words(op: &str, words: &[String]) -> Result<PictureArgs, OpError> {
        let latex = op == "latex";
        let bad = |m: String| OpError::new("BadRequest", format!("{op}: {m}"));
        let mut p = PictureArgs::default();
        let mut k = 0;
        while k < words.len() {
            let w = &words[k];
            k += 1;
            let opt = if w == "-o" { "output" } else { w.as_str() };
            let Some(opt) = opt.strip_prefix("--").or((opt == "output").then_some(opt)) else {
                p.args.push(w.clone());
                continue;
            };
            let (name, inline) = match opt.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (opt, None),
            };
            let known = OPTIONS
                .iter()
                .find(|(n, _, l)| *n == name && (*l || !latex));
            let Some(&(name, takes_value, _)) = known else {
                let names = OPTIONS
                    .iter()
                    .filter(|(n, _, l)| (*l || !latex) && *n != "output");
                let list: Vec<String> = names.map(|(n, _, _)| format!("--{n}")).collect();
                return Err(bad(format!(
                    "no option --{name}; {op} takes {}",
                    list.join(", ")
                )));
            };
            if name == "output" {
                return Err(bad(String::from(
                    "--output: the operation answers the picture's text; the command line's `cute svg ... -o FILE` writes a file",
                )));
            }
            let value = if !takes_value {
                if inline.is_some() {
                    return Err(bad(format!("--{name} takes no value")));
                }
                None
            } else if inline.is_some() {
                inline
            } else if k < words.len() {
                k += 1;
                Some(words[k - 1].clone())
            } else {
                return Err(bad(format!("--{name} needs a value")));
            };
            let v = value.unwrap_or_default();
            let twice = || bad(format!("--{name} given twice"));
            let set = |slot: &mut Option<String>| {
                if slot.is_some() {
                    return Err(twice());
                }
                *slot = Some(v.clone());
                Ok(())
            };
            match name {
                "tv" => {
                    if p.tv {
                        return Err(twice());
                    }
                    p.tv = true;
                }
                "tile" => set(&mut p.tile)?,
                "banks" => {
                    let n = v
                        .trim()
                        .parse::<i64>()
                        .map_err(|_| bad(format!("--banks {v:?}: expected an integer")))?;
                    if p.banks.replace(check_banks(n)?).is_some() {
                        return Err(twice());
                    }
                }
                "elem-bytes" => {
                    let b =
                        power_of_two(&v).map_err(|m| bad(format!("--elem-bytes {v:?}: {m}")))?;
                    if p.elem_bytes.replace(b).is_some() {
                        return Err(twice());
                    }
                }
                "access" => {
                    crate::view::parse_access(&v)?;
                    set(&mut p.access)?;
                }
                "title" => set(&mut p.title)?,
                "highlight" => {
                    let t = v
                        .trim()
                        .parse::<i64>()
                        .map_err(|_| bad(format!("--highlight {v:?}: expected a thread")))?;
                    if p.highlight.replace(t).is_some() {
                        return Err(twice());
                    }
                }
                "color-by" => {
                    color_by(&v).map_err(|m| bad(format!("--color-by {v:?}: {m}")))?;
                    set(&mut p.color_by)?;
                }
                "layout" => set(&mut p.layout)?,
                "permutation" => set(&mut p.permutation)?,
                "thr" => set(&mut p.thr)?,
                "val" => set(&mut p.val)?,
                "mma" => set(&mut p.mma)?,
                "operand" => set(&mut p.operand)?,
                _ => set(&mut p.palette)?,
            }
        }
        if p.tv != p.tile.is_some() {
            return Err(bad(String::from(
                "--tv and --tile go together: --tv TV_LAYOUT --tile SHAPE",
            )));
        }
        if p.tv && p.banks.is_some() {
            return Err(bad(String::from("--banks cannot be used with --tv")));
        }
        if p.highlight.is_some() && !p.tv {
            return Err(bad(String::from("--highlight needs --tv")));
        }
        if latex {
            // CuTe's print_latex colours a layout by value.
            p.color_by = Some(String::from("value"));
        }
        Ok(p)
    }
}

fn picture_op(a: &Args<'_>, latex: bool) -> Result<String, OpError> {
    let words = (0..a.len())
        .map(|k| a.text_arg(k))
        .collect::<Result<Vec<_>, _>>()?;
    // Like every answer, without the final newline (`cute OP` writes one).
    let mut text = picture(&PictureArgs::from_words(a.op, &words)?, latex)?;
    if text.ends_with('\n') {
        text.pop();
    }
    Ok(text)
}

fn parse_layout(s: &str) -> Result<Layout, OpError> {
    s.parse()
        .map_err(|e| OpError::new("ParseError", format!("layout {s:?}: {e}")))
}

/// The picture `a` asks for, as TikZ text (`latex`) or SVG text: the operations `latex` and
/// `svg`, and the command line's `cute latex`, `cute svg` and `cute png`.
///
/// # Errors
/// `ParseError` for arguments that do not parse (a malformed colour of `--palette` included),
/// `UnknownOp` for `OP A B` with no picture, `Arity` for a wrong number of positional
/// arguments, `BadRequest` / `Usage` for options the picture does not take, and the library's
/// errors (`TooLarge` past its picture limit, a TV layout outside its tile, an unknown atom).
pub fn picture(a: &PictureArgs, latex: bool) -> Result<String, OpError> {
    let palette = match a.palette.as_deref() {
        Some(text) => parse_palette(text).map_err(|e| OpError::new("ParseError", e.to_string()))?,
        None => Vec::new(),
    };
    let style = match &a.title {
        Some(t) => Style::new().title(t),
        None => Style::new(),
    }
    .palette(&palette);
    match a.args.as_slice() {
        [kind, atom, ty] if kind == "copy" => {
            if a.tv || a.banks.is_some() {
                return Err(OpError::new("BadRequest", "copy: no --tv or --banks"));
            }
            let tc = crate::copy_atoms::make_tiled_copy_spec(&crate::copy_atoms::TiledCopySpec {
                atom,
                ty,
                thr: a.thr.as_deref(),
                val: a.val.as_deref(),
                mma: a.mma.as_deref(),
                layout: a.layout.as_deref(),
                permutation: a.permutation.as_deref(),
                operand: a.operand.as_deref(),
            })?;
            Ok(if latex {
                render::latex_copy_with(&tc, &style)?
            } else {
                render::svg_copy(&tc, &style)?
            })
        }
        [kind, atom] if kind == "mma" => {
            if a.tv || a.banks.is_some() {
                return Err(OpError::new("BadRequest", "mma: no --tv or --banks"));
            }
            let mma =
                crate::atoms::make_tiled_mma(atom, a.layout.as_deref(), a.permutation.as_deref())?;
            Ok(if latex {
                render::latex_mma_with(&mma, &style)?
            } else {
                render::svg_mma(&mma, &style)?
            })
        }
        [layout] => layout_picture(a, layout, style, latex),
        [op, _, _] if latex => Err(OpError::new(
            "BadRequest",
            format!("latex: no TikZ picture of an operation ({op} A B); svg {op} A B draws one"),
        )),
        [op, x, y] => {
            let Some(op) = Op::from_name(op) else {
                let names: Vec<&str> = Op::ALL.iter().map(|o| o.name()).collect();
                let near = crate::help::suggest(op, names.iter().copied());
                return Err(OpError::new(
                    "UnknownOp",
                    match near {
                        Some(n) => format!("no picture for operation {op:?}; did you mean {n}?"),
                        None => format!(
                            "no picture for operation {op:?}; one of: {}",
                            names.join(", ")
                        ),
                    },
                ));
            };
            if a.tv || a.banks.is_some() {
                return Err(OpError::new(
                    "Usage",
                    format!("{op}: operation pictures are drawn without --tv or --banks"),
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

/// The picture of one layout: plain, swizzled, thread-value (`--tv`) or by bank (`--banks`).
fn layout_picture(
    a: &PictureArgs,
    layout: &str,
    style: Style<'_>,
    latex: bool,
) -> Result<String, OpError> {
    // A composed layout `F o OFF o L` (F a swizzle or a layout, any number of layers) is drawn
    // as L with its offsets sent through the layers (the render module's post-map hook).
    let chain: LayoutChain = match crate::show::parse_showable("layout", layout) {
        Ok(c) => c.into(),
        Err(e) => match Value::of_text(layout.trim()) {
            Value::Chain(c) => *c,
            _ => return Err(e),
        },
    };
    let l = chain.layout().clone();
    // A layer that fails on an offset (an outer layout's domain left, an overflow) is kept and
    // refuses the picture once drawn.
    let failed: Cell<Option<cute_layout::LayoutError>> = Cell::new(None);
    let post = |x: i64| {
        chain.post(x).unwrap_or_else(|e| {
            failed.set(Some(e));
            x
        })
    };
    let swizzled = !chain.layers().is_empty();
    let swizzle_base = match chain.layers() {
        [(OuterFn::Swizzle(sw), _), ..] => sw.base(),
        _ => 0,
    };
    let mut style = if swizzled {
        style
            .post_map(&post)
            .title(a.title.as_deref().unwrap_or(layout))
    } else {
        style
    };
    let by_cells = !a.tv && a.banks.is_none();
    let range = match a.color_by.as_deref() {
        Some("range") => true,
        None => !swizzled && l.size() > crate::view::RANGE_COLOURS_PAST,
        _ => false,
    };
    let bits = match a.color_by.as_deref() {
        None | Some("swizzle") if swizzled => swizzle_base,
        None | Some("value" | "swizzle" | "range") => 0,
        Some(n) => n.parse::<i64>().unwrap_or(0),
    };
    if range && by_cells {
        style = style.color_by_range();
    } else if bits > 0 && by_cells {
        style = style.color_by_bits(u32::try_from(bits).unwrap_or(0));
    }
    if let Some(t) = a.highlight {
        style = style.highlight_thread(t);
    }
    let text = if a.tv {
        let tile_text = a.tile.as_deref().unwrap_or_default();
        let tile: IntTuple = tile_text
            .parse()
            .map_err(|e| OpError::new("ParseError", format!("--tile {tile_text:?}: {e}")))?;
        if latex {
            render::latex_tv(&l, &tile, &style)?
        } else {
            render::svg_tv(&l, &tile, &style)?
        }
    } else if let Some(n) = a.banks {
        let banks = Banks::new(n, a.elem_bytes.unwrap_or(4))?;
        let access = crate::view::parse_access(a.access.as_deref().unwrap_or("rows"))?;
        render::svg_banks(&l, banks, access, &style)?
    } else if latex {
        render::latex(&l, &style)?
    } else {
        render::svg(&l, &style)?
    };
    match failed.into_inner() {
        Some(e) => Err(e.into()),
        None => Ok(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::err;
    use crate::{run_op, Arg};

    fn words(ws: &[&str]) -> Vec<String> {
        ws.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn options_in_any_order_and_both_spellings() {
        let a = PictureArgs::from_words(
            "svg",
            &words(&[
                "--tile=(16,8)",
                "((4,8),(2,2)):((16,1),(8,64))",
                "--tv",
                "--highlight",
                "3",
            ]),
        )
        .unwrap();
        assert!(a.tv);
        assert_eq!(a.tile.as_deref(), Some("(16,8)"));
        assert_eq!(a.highlight, Some(3));
        assert_eq!(a.args, ["((4,8),(2,2)):((16,1),(8,64))"]);
        let b =
            PictureArgs::from_words("latex", &words(&["mma", "X", "--layout", "(2,2,1)"])).unwrap();
        assert_eq!(b.color_by.as_deref(), Some("value"));
        assert_eq!(b.layout.as_deref(), Some("(2,2,1)"));
        // Integers of a batch request are words too.
        let svg = run_op(
            "svg",
            &[
                Arg::Text("(4,4):(1,4)".into()),
                Arg::Text("--banks".into()),
                Arg::Int(8),
            ],
        )
        .unwrap();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    }

    #[test]
    fn refusals_are_typed() {
        for (op, ws, kind, text) in [
            (
                "latex",
                &["4:1", "--banks", "32"][..],
                "BadRequest",
                "latex: no option --banks; latex takes --tv, --tile,",
            ),
            (
                "svg",
                &["4:1", "--frobnicate"],
                "BadRequest",
                "svg: no option --frobnicate",
            ),
            (
                "svg",
                &["4:1", "--title"],
                "BadRequest",
                "svg: --title needs a value",
            ),
            (
                "svg",
                &["4:1", "--tv=1", "--tile", "4"],
                "BadRequest",
                "svg: --tv takes no value",
            ),
            (
                "svg",
                &["4:1", "--title", "a", "--title", "b"],
                "BadRequest",
                "svg: --title given twice",
            ),
            (
                "svg",
                &["4:1", "--tv"],
                "BadRequest",
                "svg: --tv and --tile go together",
            ),
            (
                "svg",
                &["4:1", "--tile", "4"],
                "BadRequest",
                "svg: --tv and --tile go together",
            ),
            (
                "svg",
                &["4:1", "--tv", "--tile", "4", "--banks", "4"],
                "BadRequest",
                "svg: --banks cannot be used with --tv",
            ),
            (
                "svg",
                &["4:1", "--highlight", "1"],
                "BadRequest",
                "svg: --highlight needs --tv",
            ),
            (
                "svg",
                &["4:1", "--banks", "0"],
                "BadRequest",
                "--banks 0: expected a number of banks from 1 to 1024",
            ),
            (
                "svg",
                &["4:1", "--banks", "x"],
                "BadRequest",
                "svg: --banks \"x\": expected an integer",
            ),
            (
                "svg",
                &["4:1", "--banks", "4", "--elem-bytes", "3"],
                "BadRequest",
                "svg: --elem-bytes \"3\": expected a power of two",
            ),
            (
                "svg",
                &["4:1", "--banks", "4", "--access", "diagonal"],
                "BadRequest",
                "access \"diagonal\"",
            ),
            (
                "svg",
                &["4:1", "--color-by", "hue"],
                "BadRequest",
                "svg: --color-by \"hue\": expected value, swizzle, range",
            ),
            (
                "svg",
                &["4:1", "-o", "x.svg"],
                "BadRequest",
                "svg: --output: the operation answers",
            ),
            (
                "svg",
                &["4:1", "--palette", "red,#1234"],
                "ParseError",
                "palette: colour \"#1234\": expected",
            ),
            (
                "latex",
                &["logical_divide", "(4,4):(4,1)", "2"],
                "BadRequest",
                "latex: no TikZ picture of an operation",
            ),
            (
                "svg",
                &["divide", "(4,4):(4,1)", "2"],
                "UnknownOp",
                "no picture for operation \"divide\"",
            ),
            (
                "svg",
                &["--palette", "red"],
                "Arity",
                "expected LAYOUT or OP A B, got 0 arguments",
            ),
            ("latex", &["(2,2,2,2"], "ParseError", ""),
            ("latex", &["(1024,1024):(1,1024)"], "TooLarge", ""),
            ("latex", &["mma", "SM80_NOPE"], "UnknownAtom", ""),
        ] {
            let e = err(op, ws);
            assert_eq!(e.kind, kind, "{op} {ws:?}: {e}");
            assert!(e.message.contains(text), "{op} {ws:?}: {e}");
        }
        assert_eq!(run_op("latex", &[]).unwrap_err().kind, "Arity");
    }

    #[test]
    fn palettes_replace_the_default_colours() {
        let t = |s: &str| Arg::Text(s.into());
        let plain = run_op("latex", &[t("(2,2):(1,2)")]).unwrap();
        let black = run_op(
            "latex",
            &[
                t("(2,2):(1,2)"),
                t("--palette"),
                t("black!0,black!40,black!20,black!60"),
            ],
        )
        .unwrap();
        assert_eq!(
            black,
            plain
                .replace("black!00", "{rgb,255:red,255;green,255;blue,255}")
                .replace("black!40", "{rgb,255:red,153;green,153;blue,153}")
                .replace("black!20", "{rgb,255:red,204;green,204;blue,204}")
                .replace("black!60", "{rgb,255:red,102;green,102;blue,102}")
        );
        // CuTe's TV colours given as a palette draw CuTe's picture.
        let tv = [
            t("--tv"),
            t("((4,8),(2,2)):((16,1),(8,64))"),
            t("--tile"),
            t("(16,8)"),
        ];
        let cute_tv = "{rgb,255:red,175;green,175;blue,255},{rgb,255:red,175;green,255;blue,175},{rgb,255:red,255;green,255;blue,175},{rgb,255:red,255;green,175;blue,175},{rgb,255:red,210;green,210;blue,255},{rgb,255:red,210;green,255;blue,210},{rgb,255:red,255;green,255;blue,210},{rgb,255:red,255;green,210;blue,210}";
        let with = [&tv[..], &[t("--palette"), t(cute_tv)]].concat();
        assert_eq!(
            run_op("latex", &tv).unwrap(),
            run_op("latex", &with).unwrap()
        );
        // SVG: thread colours of an MMA picture.
        let mma = run_op(
            "svg",
            &[
                t("mma"),
                t("SM80_16x8x8_F16F16F16F16_TN"),
                t("--palette"),
                t("red,blue"),
            ],
        )
        .unwrap();
        assert!(mma.contains(".t1{fill:#0000ff;"));
        assert!(!mma.contains(".t2{"));
        assert!(mma.contains("<rect class=\"t1\" data-op=\"C\""));
    }

    /// The cell labels of a picture, in the order drawn.
    fn labels(svg: &str) -> Vec<String> {
        let block = svg.split("<g class=\"labels\">").nth(1).unwrap();
        let block = block.split("</g>").next().unwrap();
        block
            .split("</text>")
            .filter_map(|t| t.rsplit('>').next())
            .filter(|t| !t.trim().is_empty())
            .map(String::from)
            .collect()
    }

    #[test]
    fn svg_draws_chains_with_layout_outer_functions() {
        let t = |s: &str| Arg::Text(s.into());
        // (4,2):(2,1) at x: 2 (x mod 4) + x div 4, over 8:1.
        let chain = run_op("svg", &[t("(4,2):(2,1) o 0 o 8:1")]).unwrap();
        assert_eq!(labels(&chain), ["0", "2", "4", "6", "1", "3", "5", "7"]);
        // A layer that is the identity on the image draws the inner layout's picture.
        let with = |l: &str| run_op("svg", &[t(l), t("--title"), t("T")]).unwrap();
        assert_eq!(with("16:1 o 0 o (2,4):(4,1)"), with("(2,4):(4,1)"));
        assert_eq!(
            labels(&run_op("svg", &[t("16:1 o 0 o 8:1")]).unwrap()),
            labels(&run_op("svg", &[t("8:1")]).unwrap())
        );
        // Swizzles under a layout: 8:1 o 0 o Sw<1,0,2> o 0 o 8:1 is Sw<1,0,2> on 0..8.
        assert_eq!(
            labels(&run_op("svg", &[t("8:1 o 0 o Sw<1,0,2> o 0 o 8:1")]).unwrap()),
            ["0", "1", "2", "3", "5", "4", "7", "6"]
        );
        assert_eq!(
            run_op("svg", &[t("16:1 o 0 o 8:1 o")]).unwrap_err().kind,
            "ParseError"
        );
    }
}
