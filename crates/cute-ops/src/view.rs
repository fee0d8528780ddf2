//! What a front end shows beside an operation's result: `cute show`'s text, the picture of a
//! request (SVG, drawn by [`cute_layout::render`]), the bank-conflict report and the step-by-step
//! explanation, each reachable by the request's operation name.
//!
//! Like the rest of this crate these are conversions only: parse the arguments, call the
//! library, write its answer. The CLI's `show` and `banks` and the web page use them.
//!
//! ```
//! use cute_ops::{view, Arg};
//! let svg = view::picture("logical_divide", &[Arg::Text("(8,8):(8,1)".into()), Arg::Text("(2,4)".into())]).unwrap();
//! assert!(svg.starts_with("<svg") && svg.matches("<g class=\"panel\">").count() == 3);
//! let text = view::show("(2,2):(2,1)").unwrap();
//! assert!(text.starts_with("layout: (2,2):(2,1)\nsize:   4\n"));
//! ```

use cute_layout::render::{self, Access, Banks, Op, Style};
use cute_layout::{ComposedLayout, Layout, Tiler};

use crate::{run_op, Arg, Args, OpError};

/// The names [`picture`] takes besides the operations of [`crate::all`]: `show LAYOUT`,
/// `tv TV_LAYOUT TILE`, `banks LAYOUT [BANKS [ELEM_BYTES [ACCESS]]]`.
pub const PICTURE_VIEWS: [&str; 3] = ["show", "tv", "banks"];

fn composed(a: &Args<'_>, k: usize) -> Result<ComposedLayout, OpError> {
    crate::show::parse_showable(a.op, &a.text_arg(k)?)
}

/// `cute show LAYOUT`'s text (without colour or the optional views): the layout, its size,
/// cosize, rank and depth, and CuTe's `print_layout` table (of `L` through the swizzle layers
/// for `Sw<B,M,S> o OFF o L`).
///
/// # Errors
/// `ParseError` if `text` is not a layout or composed layout.
pub fn show(text: &str) -> Result<String, OpError> {
    show_with(text, false, false, false)
}

/// `cute show`: [`show`] with `print_layout`'s column coordinates (`coords`), the vector view
/// (`vector`) and ANSI colour (`color`) as asked.
///
/// # Errors
/// `ParseError` if `text` is not a layout or composed layout.
pub fn show_with(text: &str, coords: bool, vector: bool, color: bool) -> Result<String, OpError> {
    crate::show::show(
        text,
        crate::show::ShowOptions {
            coords,
            vector,
            color,
        },
    )
}

/// A bank-access pattern by name: `rows`, `columns`, or a chunk size `N`.
///
/// # Errors
/// `BadRequest` for anything else.
pub fn parse_access(s: &str) -> Result<Access, OpError> {
    match s.trim() {
        "rows" | "row" => Ok(Access::Rows),
        "columns" | "cols" | "column" => Ok(Access::Columns),
        n => match n.parse::<i64>() {
            Ok(k) if k >= 1 => Ok(Access::Chunks(k)),
            _ => Err(OpError::new(
                "BadRequest",
                format!("access {n:?}: expected rows, columns or a positive chunk size"),
            )),
        },
    }
}

/// The bank-conflict report of reading `layout` (a layout or `Sw<B,M,S> o OFF o L`) from shared
/// memory with `banks` banks, `elem_bytes`-byte elements and `access` (see [`parse_access`]):
/// a summary line, then one line per request with its wavefronts.
///
/// # Errors
/// `ParseError` for a bad layout, `BadRequest` for a bad access, and the library's errors for
/// bad bank geometry or a layout too large.
pub fn banks_report(
    layout: &str,
    banks: i64,
    elem_bytes: i64,
    access: &str,
) -> Result<String, OpError> {
    let c = crate::show::parse_showable("banks", layout)?;
    let post = |x: i64| c.post(x).unwrap_or(x);
    let style = if c.as_layout().is_some() {
        Style::new()
    } else {
        Style::new().post_map(&post)
    };
    let banks = Banks::new(banks, elem_bytes)?;
    let r = render::bank_conflicts(c.layout(), banks, parse_access(access)?, &style)?;
    let mut out = format!("{c}\n{r}\n");
    for (k, q) in r.requests.iter().enumerate() {
        out += &format!(
            "request {k}: {}, {}, {} (ideal {}){}\n",
            plural(q.elements, "element"),
            plural(q.words, "word"),
            plural(q.wavefronts, "wavefront"),
            q.ideal,
            if q.conflicts() > 0 { ", conflict" } else { "" }
        );
    }
    Ok(out)
}

/// `n thing` or `n things`.
pub fn plural(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("{n} {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// The SVG picture of a request:
///
/// * `show L`: `L` on its grid, coloured by value (`Sw<B,M,S> o OFF o L`: `L`'s grid with the
///   swizzled values);
/// * `tv TV TILE`: the thread-value layout `TV` on a tile of shape `TILE`, cells `T<t> V<v>`;
/// * `banks L [BANKS [ELEM_BYTES [ACCESS]]]` (defaults 32, 4, `rows`): cells coloured by bank,
///   the wavefronts of each request;
/// * `svg ARGS...` and `latex ARGS...`: the `svg` operation's answer ([`crate::picture_ops`]);
/// * the divides, products and composition with a layout and a tiler: the operands beside the
///   result ([`render::svg_op`]);
/// * any other operation of the table: its result if that is a layout, else its first argument.
///
/// # Errors
/// The operation's own error where it refuses; `NoPicture` where neither the result nor the
/// first argument is a layout; the library's `TooLarge` past its picture limit.
pub fn picture(op: &str, args: &[Arg]) -> Result<String, OpError> {
    let a = Args::new("picture", args);
    let need = |lo: usize, hi: usize, usage: &str| {
        if args.len() < lo || args.len() > hi {
            Err(OpError::new(
                "Arity",
                format!(
                    "picture {op}: expected {usage}, got {} arguments",
                    args.len()
                ),
            ))
        } else {
            Ok(())
        }
    };
    match op {
        "show" => {
            need(1, 1, "LAYOUT")?;
            draw(&composed(&a, 0)?, None, None)
        }
        "tv" => {
            need(2, 2, "TV_LAYOUT TILE")?;
            let c = composed(&a, 0)?;
            let tile = a.tuple(1)?;
            with_style(&c, None, |l, style| render::svg_tv(l, &tile, style))
        }
        "banks" => {
            need(1, 4, "LAYOUT [BANKS [ELEM_BYTES [rows|columns|N]]]")?;
            let c = composed(&a, 0)?;
            let n = if args.len() > 1 { a.int(1)? } else { 32 };
            let bytes = if args.len() > 2 { a.int(2)? } else { 4 };
            let access = if args.len() > 3 {
                parse_access(&a.text_arg(3)?)?
            } else {
                Access::Rows
            };
            let banks = Banks::new(n, bytes)?;
            with_style(&c, None, |l, style| {
                render::svg_banks(l, banks, access, style)
            })
        }
        // The picture operations: svg answers a picture already; latex's is drawn as svg
        // draws it (svg takes every argument of latex).
        "svg" | "latex" => run_op("svg", args),
        _ => {
            let result = run_op(op, args)?;
            if let Some(svg) = mma_picture(op, args).or_else(|| copy_picture(op, args)) {
                return Ok(svg);
            }
            if let Some(tile) = tv_tile(op, args) {
                if let Ok(tv) = result.parse::<Layout>() {
                    let title = format!("{op} = {result} on tile {tile}");
                    let style = Style::new().title(&title);
                    return Ok(render::svg_tv(&tv, &tile, &style)?);
                }
            }
            if let (Some(pic), [Arg::Text(x), Arg::Text(y)]) = (Op::from_name(op), args) {
                if let (Ok(l), Ok(t)) = (x.parse::<Layout>(), y.parse::<Tiler>()) {
                    return Ok(render::svg_op(pic, &l, &t, &Style::new())?);
                }
            }
            if let Ok(c) = result.parse::<ComposedLayout>() {
                let title = format!("{op} = {result}");
                return draw(&c, Some(&title), None);
            }
            match args.first() {
                Some(Arg::Text(x)) => match x.parse::<ComposedLayout>() {
                    Ok(c) => {
                        let title = format!("{x}   ({op} = {result})");
                        draw(&c, Some(&title), None)
                    }
                    Err(_) => Err(no_picture(op)),
                },
                _ => Err(no_picture(op)),
            }
        }
    }
}

/// CuTe's picture of the MMA atom or tiled MMA a request names (`mma_atom NAME FIELD`,
/// `tiled_mma ATOM LAYOUT PERMUTATION FIELD`): the C, A and B thread-value layouts
/// ([`render::svg_mma`]), for every field but an operand's thread-value layout. `None` for
/// `layout_{a,b,c}_tv` (that operand's picture on its own tile is drawn instead, see
/// [`tv_tile`]), for other requests, or where the picture is refused (too large), so that the
/// field's own picture is drawn instead.
fn mma_picture(op: &str, args: &[Arg]) -> Option<String> {
    let a = Args::new("picture", args);
    let field = a.text_arg(args.len().checked_sub(1)?).ok()?;
    if matches!(field.trim(), "layout_a_tv" | "layout_b_tv" | "layout_c_tv") {
        return None;
    }
    let mma = match (op, args.len()) {
        ("mma_atom", 2) => crate::atoms::make_tiled_mma(&a.text_arg(0).ok()?, None, None),
        ("tiled_mma", 4) => crate::atoms::make_tiled_mma(
            &a.text_arg(0).ok()?,
            Some(&a.text_arg(1).ok()?),
            Some(&a.text_arg(2).ok()?),
        ),
        _ => return None,
    };
    render::svg_mma(&mma.ok()?, &Style::new()).ok()
}

/// CuTe's picture of the tiled copy a request names (`make_tiled_copy ATOM TYPE THR VAL FIELD`,
/// `make_tiled_copy_{A,B,C,C_atom} ATOM TYPE MMA_ATOM LAYOUT PERMUTATION FIELD`): its source and
/// destination tiles ([`render::svg_copy`]). `None` for other requests (a per-thread partition
/// with its tensor and thread is drawn as its result), or where the picture is refused.
fn copy_picture(op: &str, args: &[Arg]) -> Option<String> {
    let a = Args::new("picture", args);
    let text: Vec<String> = (0..args.len())
        .map(|k| a.text_arg(k))
        .collect::<Result<_, _>>()
        .ok()?;
    let mut spec = crate::copy_atoms::TiledCopySpec {
        atom: &text[0],
        ty: text.get(1)?,
        ..Default::default()
    };
    match (op, text.len()) {
        ("make_tiled_copy", 5) => {
            spec.thr = Some(&text[2]);
            spec.val = Some(&text[3]);
        }
        (_, 6) => {
            spec.operand = Some(match op {
                "make_tiled_copy_A" => "A",
                "make_tiled_copy_B" => "B",
                "make_tiled_copy_C" => "C",
                "make_tiled_copy_C_atom" => "C_atom",
                _ => return None,
            });
            spec.mma = Some(&text[2]);
            spec.layout = Some(&text[3]);
            spec.permutation = Some(&text[4]);
        }
        _ => return None,
    }
    let tc = crate::copy_atoms::make_tiled_copy_spec(&spec).ok()?;
    render::svg_copy(&tc, &Style::new()).ok()
}

/// The tile a thread-value field of an atom operation maps into, asked of the same operation:
/// an argument `layout_{a,b,c}_tv` of `mma_atom` / `tiled_mma` takes the `(M,K)`, `(N,K)` or
/// `(M,N)` modes of `shape_mnk` / `tile_size_mnk`; any other `..._tv` field (tiled copies,
/// `make_layout_tv`) takes `tiler_mn`. `None` where there is no such field or tile.
fn tv_tile(op: &str, args: &[Arg]) -> Option<cute_layout::IntTuple> {
    let k = args
        .iter()
        .rposition(|x| matches!(x, Arg::Text(t) if t.trim().ends_with("_tv")))?;
    let Arg::Text(field) = &args[k] else {
        return None;
    };
    let field = field.trim();
    let operand = field
        .strip_prefix("layout_")
        .and_then(|f| f.strip_suffix("_tv"))
        .filter(|f| ["a", "b", "c"].contains(f));
    let ask = match (op, operand) {
        ("mma_atom", Some(_)) => "shape_mnk",
        ("tiled_mma", Some(_)) => "tile_size_mnk",
        _ => "tiler_mn",
    };
    let mut q: Vec<Arg> = args[..=k].to_vec();
    q[k] = Arg::Text(ask.into());
    let t: cute_layout::IntTuple = run_op(op, &q).ok()?.parse().ok()?;
    let modes: Vec<cute_layout::IntTuple> = t.elements().collect();
    let pick = |i: usize, j: usize| {
        format!("({},{})", modes.get(i)?, modes.get(j)?)
            .parse()
            .ok()
    };
    match (modes.len(), operand) {
        (3, Some("a")) => pick(0, 2),
        (3, Some("b")) => pick(1, 2),
        (3, _) => pick(0, 1),
        (2, _) => Some(t),
        _ => None,
    }
}

fn no_picture(op: &str) -> OpError {
    OpError::new(
        "NoPicture",
        format!("picture {op}: neither the result nor the first argument is a layout"),
    )
}

/// `f` called with the layout of `c` and a style that draws `c`'s swizzle layers (and `title`).
fn with_style<T>(
    c: &ComposedLayout,
    title: Option<&str>,
    f: impl FnOnce(&Layout, &Style<'_>) -> Result<T, cute_layout::LayoutError>,
) -> Result<T, OpError> {
    // The layers are checked not to overflow on the layout's offsets at construction.
    let post = |x: i64| c.post(x).unwrap_or(x);
    let name = c.to_string();
    let mut style = Style::new();
    if c.as_layout().is_none() {
        style = style.post_map(&post).title(&name);
    }
    if let Some(t) = title {
        style = style.title(t);
    }
    Ok(f(c.layout(), &style)?)
}

fn draw(
    c: &ComposedLayout,
    title: Option<&str>,
    fit: Option<(f64, f64)>,
) -> Result<String, OpError> {
    with_style(c, title, |l, style| {
        let style = match fit {
            Some((w, h)) => style.fit(w, h),
            None => *style,
        };
        let style = &style;
        let swizzled = c.as_layout().is_none();
        let base = u32::try_from(c.swizzle().base()).unwrap_or(0);
        let style = if swizzled && base > 0 {
            (*style).color_by_bits(base)
        } else if !swizzled && l.size() > RANGE_COLOURS_PAST {
            (*style).color_by_range()
        } else {
            *style
        };
        render::svg(l, &style)
    })
}

/// Past this many points a plain layout's picture is coloured by where each value lies in its
/// range (16 shades) rather than by value mod 8, which makes stripes.
pub const RANGE_COLOURS_PAST: i64 = 256;

/// The SVG picture of a layout or swizzled layout with the front ends' default colours: by
/// value mod 8 (CuTe's), a swizzled layout `Sw<B,M,S> o OFF o L` by `value / 2^M mod 8` so
/// that the swizzle shows, a plain layout of more than [`RANGE_COLOURS_PAST`] points by where
/// each value lies in its range. Cell labels of a swizzled layout are the swizzled offsets.
///
/// ```
/// let c = cute_ops::show::parse_showable("svg", "Sw<3,4,3> o 0 o (8,64):(64,1)").unwrap();
/// let svg = cute_ops::view::layout_svg(&c).unwrap();
/// assert!(svg.contains("colour = value / 16 mod 8")); // groups of 2^M offsets, so the swizzle shows
/// ```
///
/// # Errors
/// The library's `TooLarge` past its picture limit.
pub fn layout_svg(c: &ComposedLayout) -> Result<String, OpError> {
    draw(c, None, None)
}

/// [`layout_svg`] fitted into `width` x `height` pixels (`Style::fit`: the `width` and `height`
/// attributes scaled down, labels left out where cells are too small to read).
///
/// # Errors
/// As [`layout_svg`].
pub fn layout_svg_fit(c: &ComposedLayout, width: f64, height: f64) -> Result<String, OpError> {
    draw(c, None, Some((width, height)))
}

/// `explain OP ARGS...`: the step-by-step derivation of the operations
/// [`crate::analysis::explain`] knows, or the refusal with its condition and counter-example.
///
/// # Errors
/// As [`crate::analysis::explain`]; `BadRequest` for a list argument.
pub fn explain(op: &str, args: &[Arg]) -> Result<String, OpError> {
    let a = Args::new("explain", args);
    let texts = (0..args.len())
        .map(|k| a.text_arg(k))
        .collect::<Result<Vec<_>, _>>()?;
    crate::analysis::explain(op, &texts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Arg {
        Arg::Text(s.into())
    }

    #[test]
    fn pictures_of_every_kind() {
        let tv = picture("tv", &[t("((4,8),(2,2)):((16,1),(8,64))"), t("(16,8)")]).unwrap();
        assert!(tv.contains(">T31 V3</text>"));
        let b = picture("banks", &[t("(8,8):(8,1)"), Arg::Int(32), Arg::Int(4)]).unwrap();
        assert!(b.contains("class=\"b31\""));
        let bare = show("Sw<3,4,3>").unwrap();
        assert!(
            bare.starts_with("layout: Sw<3,4,3> o 0 o (8,128):(128,1)\n"),
            "{bare}"
        );
        let sw = picture("show", &[t("Sw<3,0,3> o 0 o (8,8):(8,1)")]).unwrap();
        assert!(sw.contains("Sw&lt;3,0,3&gt;") || sw.contains("Sw<3,0,3>"));
        let l = picture("latex", &[t("(2,2):(1,2)"), t("--palette"), t("red")]).unwrap();
        assert_eq!(
            l,
            run_op("svg", &[t("(2,2):(1,2)"), t("--palette"), t("red")]).unwrap()
        );
        let c = picture("coalesce", &[t("(2,(1,6)):(1,(6,2))")]).unwrap();
        assert!(c.contains("coalesce = 12:1"));
        let s = picture("size", &[t("(2,3):(1,2)")]).unwrap();
        assert!(s.contains("size = 6"));
        assert_eq!(
            picture("size", &[t("(2,3)")]).unwrap_err().kind,
            "NoPicture"
        );
        assert_eq!(
            picture("composition", &[t("(3,4):(4,1)"), t("6:2")])
                .unwrap_err()
                .kind,
            run_op("composition", &[t("(3,4):(4,1)"), t("6:2")])
                .unwrap_err()
                .kind
        );
        assert_eq!(picture("tv", &[t("8:1")]).unwrap_err().kind, "Arity");
        // atoms: CuTe's MMA picture (C, A, B), a tiled copy's TV layout on its tile
        let mma = picture(
            "mma_atom",
            &[t("SM80_16x8x16_F32F16F16F32_TN"), t("thr_id")],
        )
        .unwrap();
        assert!(mma.contains("data-op=\"A\"") && mma.contains("data-op=\"C\""));
        // an operand's thread-value field: that operand alone, on its own tile (A: M x K)
        let operand =
            |f: &str| picture("mma_atom", &[t("SM80_16x8x16_F32F16F16F32_TN"), t(f)]).unwrap();
        let (a, b, c) = (
            operand("layout_a_tv"),
            operand("layout_b_tv"),
            operand("layout_c_tv"),
        );
        assert!(
            a.contains("mma_atom = ((4,8),(2,2,2)):((32,1),(16,8,128)) on tile (16,16)"),
            "{a}"
        );
        assert!(
            b.contains("mma_atom = ((4,8),(2,2)):((16,1),(8,64)) on tile (8,16)"),
            "{b}"
        );
        assert!(
            c.contains("mma_atom = ((4,8),(2,2)):((32,1),(16,8)) on tile (16,8)"),
            "{c}"
        );
        assert!(!a.contains("data-op=") && a != c && b != c);
        let tc = [
            "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>",
            "half_t",
            "(32,8):(8,1)",
            "(1,8):(8,1)",
            "tiled_layout_tv",
        ];
        let tc: Vec<Arg> = tc.iter().map(|s| t(s)).collect();
        let copy = picture("make_tiled_copy", &tc).unwrap();
        assert!(
            copy.contains("TiledCopy of Copy_Atom<") || copy.contains("TiledCopy of Copy_Atom&lt;")
        );
        assert!(copy.contains("T0 V0"));
    }

    #[test]
    fn explain_and_banks() {
        let e = explain("complement", &[t("(2,2):(1,6)"), t("24")]).unwrap();
        assert!(!e.is_empty());
        let r = banks_report("(8,32):(1,8)", 32, 4, "rows").unwrap();
        assert!(r.contains("request 7:"));
        assert_eq!(
            banks_report("8:1", 32, 4, "diagonal").unwrap_err().kind,
            "BadRequest"
        );
    }
}
